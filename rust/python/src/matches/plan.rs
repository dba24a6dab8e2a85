//! A tournament dealt out by `shatranj.distributed.match`: its plan (the engines' names and
//! the pairings, as the runner would play them) and its standings from pairings played
//! elsewhere, ranked by the runner's own rule, so that a tournament on a Ray cluster gives
//! the same result as a local one.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use shatranj_match::options::{EngineSpec, MatchOptions};
use shatranj_match::stats::Counts;
use shatranj_match::tournament::{PairingResult, pairings, standings_json};

/// A tournament's plan: the engines' names and the pairings, each `(first, second)`.
type Plan = (Vec<String>, Vec<(usize, usize)>);

/// The tournament `args` describe (three or more engines): the engines' names and the
/// pairings in the order the runner plays them.
#[pyfunction]
pub fn match_plan(args: Vec<String>) -> PyResult<Plan> {
    let options = MatchOptions::parse(&args).map_err(|e| PyValueError::new_err(e.0))?;
    if options.engines.len() < 3 {
        return Err(PyValueError::new_err(
            "a tournament needs three or more engines (two play a match)",
        ));
    }
    let names: Vec<String> = options
        .engines
        .iter()
        .map(EngineSpec::display_name)
        .collect();
    let plan = pairings(names.len(), options.tournament, options.seeds);
    Ok((names, plan))
}

/// The standings (JSON, best first) of the engines `names` after `played`: for each
/// pairing, its engines' indices and its `[L, D, W]` from the first's side.
#[pyfunction]
pub fn match_standings(
    names: Vec<String>,
    played: Vec<(usize, usize, [u64; 3])>,
) -> PyResult<String> {
    let mut results = Vec::with_capacity(played.len());
    for (first, second, trinomial) in played {
        if first >= names.len() || second >= names.len() || first == second {
            return Err(PyValueError::new_err(format!(
                "pairing ({first}, {second}) does not name two of the {} engines",
                names.len()
            )));
        }
        results.push(PairingResult {
            first,
            second,
            counts: Counts {
                trinomial,
                ..Counts::default()
            },
        });
    }
    Ok(standings_json(&names, &results))
}

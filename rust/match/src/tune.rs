//! SPSA over real games: the parameters a tune build of an engine lists, and one iteration
//! played as game pairs by the match runner (see [`crate::spsa`] for the update and its
//! schedule; `shatranj tune` drives the loop, the state file and Ctrl-C).
//!
//! An iteration is `pairs` rounds of a match of the engine against itself, the first copy
//! (`+`) with every parameter set to its `+` value by `setoption`, the second (`−`) with its
//! `−` value, each round one opening played twice with colours swapped. Iteration `k` plays
//! rounds `k × pairs …`, so successive iterations walk through the opening order and a
//! resumed tune plays the openings it would have played.

use crate::options::MatchOptions;
use crate::runner::{MatchError, run_match};
use crate::spsa::{Perturbation, SpsaParam, SpsaState};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The parameters the engine lists for tuning: its answer to the `spsa` command (one line
/// of OpenBench's format per parameter), as shatranj's tune build gives it.
pub fn engine_params(cmd: &Path, args: &[String]) -> Result<Vec<SpsaParam>, String> {
    let mut child = Command::new(cmd)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", cmd.display()))?;
    if let Some(mut stdin) = child.stdin.take() {
        // An engine that exits early closes the pipe; its silence is reported below.
        let _ = stdin.write_all(b"spsa\nquit\n");
    }
    let stdout = child.stdout.take().expect("piped above");
    let mut params = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| format!("{}: {e}", cmd.display()))?;
        if line.contains(", int, ") {
            params.push(SpsaParam::parse(&line)?);
        }
    }
    let _ = child.wait();
    if params.is_empty() {
        return Err(format!(
            "{} lists no parameters for `spsa` (build it with `cargo build -p shatranj-cli \
             --features tune`)",
            cmd.display()
        ));
    }
    Ok(params)
}

/// Plays iteration `perturbation.iteration`: `pairs` game pairs, `+` against `−`. `options`
/// is the match with its two engines (the same command; the runner needs two names).
/// Returns the `+` engine's wins less its losses, or `None` when `stop` was raised before
/// every pair was counted (the iteration is then played again on resume).
pub fn play_iteration(
    options: &MatchOptions,
    state: &SpsaState,
    perturbation: &Perturbation,
    pairs: u64,
    stop: &Arc<AtomicBool>,
) -> Result<Option<i64>, MatchError> {
    let mut o = options.clone();
    for (engine, values) in o
        .engines
        .iter_mut()
        .zip([&perturbation.plus, &perturbation.minus])
    {
        for (p, v) in state.params.iter().zip(values) {
            engine.options.retain(|(n, _)| n != &p.name);
            engine.options.push((p.name.clone(), v.to_string()));
        }
    }
    o.games = 2;
    o.first_round = perturbation.iteration * pairs;
    o.rounds = o.first_round + pairs;
    o.concurrency = o.concurrency.min(pairs as usize).max(1);
    o.config_file = None;
    o.pgnout = None;
    o.sprt = None;
    o.keep_rounds = false;
    o.start_state = None;
    o.rating_interval = u64::MAX;
    let summary = run_match(&o, &[], Arc::clone(stop), &mut |_| {})?;
    if let Some(why) = summary.stopped_by {
        return Err(MatchError(why));
    }
    if summary.state.next_round < o.rounds {
        return Ok(None);
    }
    let (w, _, l) = summary.state.counts.wdl();
    Ok(Some(w as i64 - l as i64))
}

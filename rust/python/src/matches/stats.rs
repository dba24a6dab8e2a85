//! `shatranj.match`'s statistics: the match crate's Elo/nElo/LOS estimate, SPRT bounds and
//! log-likelihood ratio, as plain numbers that `python/shatranj/match.py` wraps in its
//! dataclasses. No statistics are computed here: each call is one call into
//! `shatranj_match`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use shatranj_match::sprt::{self, Model};
use shatranj_match::stats::Estimate;

fn parse_model(text: &str) -> PyResult<Model> {
    text.parse().map_err(PyValueError::new_err)
}

/// The log-likelihood ratio of `elo1` against `elo0` for `counts` (`[L, D, W]` or
/// `[LL, LD, WL+DD, WD, WW]`), under `model` ("normalized" or "logistic").
#[pyfunction]
pub fn match_llr(counts: Vec<f64>, elo0: f64, elo1: f64, model: &str) -> PyResult<f64> {
    sprt::llr_real(&counts, elo0, elo1, parse_model(model)?)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `(lower, upper)`: the SPRT's bounds for error rates `alpha` and `beta`, checked as the
/// runner checks them (with elo0 < elo1).
#[pyfunction]
pub fn match_bounds(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> PyResult<(f64, f64)> {
    sprt::Sprt::new(elo0, elo1, alpha, beta, Model::Normalized)
        .map(|s| s.bounds())
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `match_estimate`'s answer, in the order of its doc.
type EstimateTuple = (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64);

/// `(n, score, variance, elo, elo_lower, elo_upper, nelo, nelo_lower, nelo_upper, los)` of
/// `counts`.
#[pyfunction]
pub fn match_estimate(counts: Vec<f64>) -> PyResult<EstimateTuple> {
    let e = Estimate::from_real_counts(&counts).ok_or_else(|| {
        PyValueError::new_err(format!(
            "counts must be 3 ([L, D, W]) or 5 ([LL, LD, WL+DD, WD, WW]) non-negative numbers \
             with a positive sum, not {counts:?}"
        ))
    })?;
    Ok((
        e.n,
        e.score,
        e.variance,
        e.elo,
        e.elo_interval.0,
        e.elo_interval.1,
        e.nelo,
        e.nelo_interval.0,
        e.nelo_interval.1,
        e.los,
    ))
}

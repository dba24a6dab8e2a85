//! `shatranj._core.selfplay`: the engine crate's self-play on a worker thread, with the GIL
//! released, progress reported between slices, and Ctrl-C turned into `KeyboardInterrupt`
//! (the match stops; nothing is returned).
//!
//! The result is plain data (a dict of lists); `python/shatranj/selfplay.py` wraps it in
//! `SelfPlayResult`.

use crate::engine::eval_file::EvalSpec;
use crate::engine::evaluator::{eval_error, open_evaluator, parse_device};
use crate::engine::syzygy_settings;
use crate::worker::run_interruptible;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use shatranj_engine::games::selfplay::{
    MoveLimit, OpeningSource, SelfPlayConfig, SelfPlayError, SelfPlayProgress, play_games,
};
use shatranj_engine::games::{Opening, RandomOpenings};
use shatranj_engine::syzygy::{MAX_PROBE_LIMIT, SyzygySettings};
use shatranj_engine::{BatchConfig, BatchEvaluator, Device};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const SLICE: Duration = Duration::from_millis(20);

/// `v` as the engine's integer type; the ranges themselves are [`SelfPlayConfig::validate`]'s.
fn whole<T: TryFrom<i64>>(name: &str, v: i64) -> PyResult<T> {
    T::try_from(v).map_err(|_| PyValueError::new_err(format!("{name} {v} out of range")))
}

/// Plays `games` self-play games (indices `first_game ..`) and returns a dict: `games` (PGN
/// strings), `indices`, `results`, `terminations`, `plies`, `interrupted` and `stats`.
#[pyfunction]
#[pyo3(signature = (
    *, games, depth = None, nodes = None, device = "auto", concurrency = 1, seed = 0,
    openings = None, max_plies = 400, first_game = 0, batched = false, batch_size = 4096,
    wait_us = 200, random_plies = 8, hash_mb = 2, progress = None, eval_file = None,
    chess960 = false, syzygy_path = None
))]
#[allow(clippy::too_many_arguments)]
pub fn selfplay<'py>(
    py: Python<'py>,
    games: i64,
    depth: Option<i64>,
    nodes: Option<i64>,
    device: &str,
    concurrency: i64,
    seed: u64,
    openings: Option<Vec<String>>,
    max_plies: i64,
    first_game: u64,
    batched: bool,
    batch_size: i64,
    wait_us: i64,
    random_plies: i64,
    hash_mb: i64,
    progress: Option<Bound<'py, PyAny>>,
    eval_file: Option<&Bound<'py, PyAny>>,
    chess960: bool,
    syzygy_path: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let limit = match (depth, nodes) {
        (Some(d), None) => MoveLimit::Depth(whole("depth", d)?),
        (None, Some(n)) => MoveLimit::Nodes(whole("nodes", n)?),
        _ => {
            return Err(PyValueError::new_err(
                "give exactly one of depth= or nodes=",
            ));
        }
    };
    let device = parse_device(device)?;
    let openings = match openings {
        None => OpeningSource::Random(RandomOpenings {
            plies: whole("random_plies", random_plies)?,
            chess960,
            ..RandomOpenings::default()
        }),
        Some(_) if chess960 => {
            return Err(PyValueError::new_err(
                "chess960=True draws its own start positions: leave out openings=",
            ));
        }
        Some(list) => {
            let parsed = list
                .iter()
                .enumerate()
                .map(|(i, text)| Opening::parse(text, i + 1))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            OpeningSource::List(parsed)
        }
    };
    if let Some(p) = &progress
        && !p.is_callable()
    {
        return Err(PyTypeError::new_err("progress must be callable or None"));
    }
    let evaluation = EvalSpec::load(py, eval_file)?;
    let tablebases = match syzygy_path {
        None => SyzygySettings::default(),
        Some(path) => {
            let shown = path.display().to_string();
            let settings = syzygy_settings(py, Some(path), 1, MAX_PROBE_LIMIT as i64, true)?;
            if settings.cardinality() == 0 {
                return Err(PyValueError::new_err(format!(
                    "syzygy_path {shown}: no Syzygy tables found"
                )));
            }
            settings
        }
    };
    let config = SelfPlayConfig {
        first_game,
        games: whole("games", games)?,
        concurrency: whole("concurrency", concurrency)?,
        limit,
        seed,
        openings,
        max_plies: whole("max_plies", max_plies)?,
        hash_mb: whole("hash_mb", hash_mb)?,
        batch: BatchConfig {
            max_batch: whole("batch_size", batch_size)?,
            max_wait: Duration::from_micros(whole("wait_us", wait_us)?),
        },
        evaluation,
        tablebases,
        ..SelfPlayConfig::default()
    };
    config
        .validate()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    // `cpu` and `auto` evaluate inline (measured fastest) unless `batched`; `gpu` batches.
    let evaluator: Option<Arc<dyn BatchEvaluator>> = match (device, batched) {
        (Device::Gpu, _) | (_, true) => {
            Some(open_evaluator(device, &config.evaluation).map_err(eval_error)?)
        }
        _ => None,
    };

    let stop = Arc::new(AtomicBool::new(false));
    let latest: Arc<Mutex<Option<SelfPlayProgress>>> = Arc::new(Mutex::new(None));
    let job = {
        let (stop, latest) = (Arc::clone(&stop), Arc::clone(&latest));
        move || {
            play_games(&config, evaluator, &stop, |p| {
                *latest
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(*p);
            })
        }
    };
    let mut last_reported = None;
    let mut report = |p: SelfPlayProgress| -> PyResult<()> {
        if let Some(callback) = &progress
            && last_reported != Some(p)
        {
            last_reported = Some(p);
            let d = PyDict::new(py);
            d.set_item("games_done", p.games_done)?;
            d.set_item("games_total", p.games_total)?;
            d.set_item("plies", p.plies)?;
            d.set_item("evaluations", p.evaluations)?;
            d.set_item("elapsed", p.elapsed.as_secs_f64())?;
            callback.call1((d,))?;
        }
        Ok(())
    };
    let result = run_interruptible(
        py,
        "selfplay",
        SLICE,
        job,
        || stop.store(true, Ordering::SeqCst),
        || {
            let p = *latest
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            p.map_or(Ok(()), &mut report)
        },
    )?;
    let report_result = result.map_err(|e| match e {
        SelfPlayError::Config(_) => PyValueError::new_err(e.to_string()),
        SelfPlayError::Eval(e) => eval_error(e),
        _ => PyRuntimeError::new_err(e.to_string()),
    })?;
    if let Some(p) = *latest
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        report(p)?;
    }

    let out = PyDict::new(py);
    let pgns = PyList::empty(py);
    let indices = PyList::empty(py);
    let results = PyList::empty(py);
    let terminations = PyList::empty(py);
    let plies = PyList::empty(py);
    for g in &report_result.games {
        pgns.append(g.pgn())?;
        indices.append(g.record.index)?;
        results.append(g.record.result())?;
        terminations.append(g.record.termination.name())?;
        plies.append(g.record.moves.len())?;
    }
    out.set_item("games", pgns)?;
    out.set_item("indices", indices)?;
    out.set_item("results", results)?;
    out.set_item("terminations", terminations)?;
    out.set_item("plies", plies)?;
    out.set_item("interrupted", report_result.interrupted)?;
    let s = &report_result.stats;
    let stats = PyDict::new(py);
    stats.set_item("games", s.games)?;
    stats.set_item("plies", s.plies)?;
    stats.set_item("evaluations", s.evaluations)?;
    stats.set_item("nodes", s.nodes)?;
    stats.set_item("batches", s.batches)?;
    stats.set_item("mean_batch", s.mean_batch())?;
    stats.set_item("max_batch", s.max_batch)?;
    stats.set_item("fallbacks", s.fallbacks)?;
    stats.set_item("eval_error", s.eval_error.clone())?;
    stats.set_item("wall", s.wall.as_secs_f64())?;
    stats.set_item("games_per_second", s.games_per_second())?;
    stats.set_item("evaluations_per_second", s.evaluations_per_second())?;
    stats.set_item("white_wins", s.white_wins)?;
    stats.set_item("draws", s.draws)?;
    stats.set_item("black_wins", s.black_wins)?;
    stats.set_item("tablebase_adjudications", s.tablebase_adjudications)?;
    stats.set_item("evaluator", s.evaluator.clone())?;
    out.set_item("stats", stats)?;
    Ok(out)
}

//! `shatranj._core.Engine`: the search engine in process, with the GIL released while it
//! searches and Ctrl-C turned into `KeyboardInterrupt`.
//!
//! The search runs on a worker thread that holds the lock on the engine, waited for by
//! `worker::run_interruptible`. A pending `KeyboardInterrupt` stops the search through the
//! engine's `StopHandle`, which is kept outside the lock so that `stop()` from another Python
//! thread reaches a running search at once.
//!
//! The Python-facing shapes (python-chess's info dicts, `PovScore`) are built by
//! `python/shatranj/engine/` from the plain values returned here.
//!
//! The room: this file (`Engine`), `selfplay.rs` (self-play games), `uci_info.rs` (an
//! engine's `info` line parsed for the UCI client), the evaluation choice (`eval_file.rs`,
//! the `eval_file=` argument; `evaluator.rs`, the one place a batch back end is opened),
//! `network.rs` (networks loaded and made from Python's weights) and `gpu.rs` (many static
//! evaluations in one call, on the CPU or the GPU).

pub mod eval_file;
pub mod evaluator;
pub mod gpu;
pub mod network;
pub mod selfplay;
pub mod uci_info;

use crate::board::Board;
use crate::engine::eval_file::EvalSpec;
use crate::engine::evaluator::{eval_error, open_evaluator, parse_device};
use crate::rules::moves::{interned, key_of, parse_uci_key};
use crate::worker::run_interruptible;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use shatranj_chess::uci::to_uci;
use shatranj_chess::{CastlingMode, Move, Position};
use shatranj_engine::engine::MAX_THREADS;
use shatranj_engine::syzygy::{
    MAX_PROBE_DEPTH, MAX_PROBE_LIMIT, SyzygyError, SyzygySettings, open_path_list,
};
use shatranj_engine::tt::MAX_HASH_MB;
use shatranj_engine::{
    BatchConfig, EngineOptions, EvalRoute, Limits, Score, SearchResult, SearchRoot, StopHandle,
};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// How long the waiting thread sleeps between signal checks.
const SLICE: Duration = Duration::from_millis(10);

/// The engine and its stop handle.
#[pyclass(module = "shatranj._core", frozen)]
pub struct Engine {
    inner: Arc<Mutex<shatranj_engine::Engine>>,
    stop: StopHandle,
}

impl Engine {
    /// Searches `root` on a worker thread with the GIL released (see the module docs); the
    /// moves come back as python-chess's `chess960` board holds them when `chess960`.
    fn search_root<'py>(
        &self,
        py: Python<'py>,
        root: SearchRoot,
        limits: Limits,
        chess960: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let start = root.position;
        // Armed before the worker starts, so a Ctrl-C or `stop()` that comes before the
        // search begins still stops it.
        self.stop.arm();
        let inner = Arc::clone(&self.inner);
        let job = move || {
            let mut engine = inner
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let result = engine.search(root, &limits, |_| {});
            (result, engine.hashfull())
        };
        let (result, hashfull) =
            run_interruptible(py, "search", SLICE, job, || self.stop.stop(), || Ok(()))?;
        result_dict(py, &result, hashfull, &start, chess960)
    }

    /// The engine, even if a search thread panicked while holding it (the engine's state is
    /// a hash table, which any content leaves valid).
    fn lock(&self) -> MutexGuard<'_, shatranj_engine::Engine> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn options(
    py: Python<'_>,
    threads: i64,
    hash_mb: i64,
    device: &str,
    eval_file: Option<&Bound<'_, PyAny>>,
) -> PyResult<EngineOptions> {
    let threads = usize::try_from(threads)
        .ok()
        .filter(|t| (1..=MAX_THREADS).contains(t))
        .ok_or_else(|| {
            PyValueError::new_err(format!("threads {threads} out of range 1..={MAX_THREADS}"))
        })?;
    let hash_mb = usize::try_from(hash_mb)
        .ok()
        .filter(|h| (1..=MAX_HASH_MB).contains(h))
        .ok_or_else(|| {
            PyValueError::new_err(format!("hash_mb {hash_mb} out of range 1..={MAX_HASH_MB}"))
        })?;
    let device = parse_device(device)?;
    let evaluation = EvalSpec::load(py, eval_file)?;
    // A batching service evaluates with the evaluation it was opened for: the same one.
    let eval_route = py
        .detach(|| {
            EvalRoute::for_device(device, open_evaluator, BatchConfig::default(), &evaluation)
        })
        .map_err(eval_error)?;
    Ok(EngineOptions {
        threads,
        hash_mb,
        eval_route,
        evaluation,
        ..EngineOptions::default()
    })
}

/// The tablebase settings from `Engine(syzygy_path=..., ...)`. Unlike UCI's `SyzygyPath`,
/// which leaves out a directory it cannot read and says so, a program gets an exception: an
/// `OSError` (`FileNotFoundError` for a missing directory) naming the first such directory.
pub(crate) fn syzygy_settings(
    py: Python<'_>,
    path: Option<PathBuf>,
    probe_depth: i64,
    probe_limit: i64,
    rule50: bool,
) -> PyResult<SyzygySettings> {
    let probe_depth = i32::try_from(probe_depth)
        .ok()
        .filter(|d| (1..=MAX_PROBE_DEPTH).contains(d))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "syzygy_probe_depth {probe_depth} out of range 1..={MAX_PROBE_DEPTH}"
            ))
        })?;
    let probe_limit = usize::try_from(probe_limit)
        .ok()
        .filter(|n| *n <= MAX_PROBE_LIMIT)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "syzygy_probe_limit {probe_limit} out of range 0..={MAX_PROBE_LIMIT}"
            ))
        })?;
    let tables = match path {
        None => None,
        Some(path) => {
            let list = path.to_string_lossy().into_owned();
            // Listing directories touches the file system: without the GIL.
            let opened = py.detach(|| open_path_list(&list));
            if let Some((dir, e)) = opened.failures.into_iter().next() {
                return Err(match e {
                    SyzygyError::Io { kind, message, .. } => std::io::Error::new(
                        kind,
                        format!("syzygy_path {}: {message}", dir.display()),
                    )
                    .into(),
                    other => {
                        PyValueError::new_err(format!("syzygy_path {}: {other}", dir.display()))
                    }
                });
            }
            opened.tables
        }
    };
    Ok(SyzygySettings {
        tables,
        probe_depth,
        probe_limit,
        rule50,
    })
}

/// Search limits from Python's keyword arguments; at least one must be given, because a
/// search without a limit would run until stopped.
fn limits(
    depth: Option<i64>,
    time: Option<f64>,
    nodes: Option<i64>,
    multipv: i64,
) -> PyResult<Limits> {
    if depth.is_none() && time.is_none() && nodes.is_none() {
        return Err(PyValueError::new_err(
            "give a limit: depth=, time= (seconds) or nodes=",
        ));
    }
    let depth = depth
        .map(|d| {
            u32::try_from(d)
                .ok()
                .filter(|d| (1..=100).contains(d))
                .ok_or_else(|| PyValueError::new_err(format!("depth {d} out of range 1..=100")))
        })
        .transpose()?;
    let movetime = time
        .map(|t| {
            if (0.0..=1e7).contains(&t) {
                Ok(Duration::from_secs_f64(t))
            } else {
                Err(PyValueError::new_err(format!(
                    "time {t} must be a number of seconds from 0 to 1e7"
                )))
            }
        })
        .transpose()?;
    let nodes = nodes
        .map(|n| {
            u64::try_from(n)
                .ok()
                .filter(|n| *n >= 1)
                .ok_or_else(|| PyValueError::new_err(format!("nodes {n} must be at least 1")))
        })
        .transpose()?;
    let multipv = usize::try_from(multipv)
        .ok()
        .filter(|m| (1..=500).contains(m))
        .ok_or_else(|| PyValueError::new_err(format!("multipv {multipv} out of range 1..=500")))?;
    Ok(Limits {
        depth,
        movetime,
        nodes,
        multipv,
        ..Limits::default()
    })
}

/// `("cp", n)` or `("mate", n)`: the score from the side to move.
fn score_tuple(score: Score) -> (&'static str, i32) {
    match score {
        Score::Cp(cp) => ("cp", cp),
        Score::Mate(n) => ("mate", n),
    }
}

/// The Python move of each of `moves`, played in turn from `pos`: castling is the king's move
/// on a standard board, the king taking its own rook on a Chess960 one (`chess960`), as
/// python-chess's boards hold them.
fn line_keys(pos: &Position, moves: &[Move], chess960: bool) -> PyResult<Vec<u16>> {
    if !chess960 {
        return Ok(moves.iter().map(|&m| key_of(m)).collect());
    }
    let mut pos = *pos;
    moves
        .iter()
        .map(|&m| {
            let key = parse_uci_key(&to_uci(&pos, m, CastlingMode::Chess960));
            pos.play_unchecked(m);
            key
        })
        .collect()
}

fn moves_of(py: Python<'_>, keys: Vec<u16>) -> PyResult<Bound<'_, PyList>> {
    let objects = keys
        .into_iter()
        .map(|k| interned(py, k))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, objects)
}

fn result_dict<'py>(
    py: Python<'py>,
    result: &SearchResult,
    hashfull: u32,
    root: &Position,
    chess960: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let best = match result.best_move {
        Some(m) => Some(moves_of(py, line_keys(root, &[m], chess960)?)?.get_item(0)?),
        None => None,
    };
    dict.set_item("best_move", best)?;
    dict.set_item("depth", result.depth)?;
    dict.set_item("seldepth", result.seldepth)?;
    dict.set_item("nodes", result.nodes)?;
    let seconds = result.time.as_secs_f64();
    dict.set_item("time", seconds)?;
    dict.set_item(
        "nps",
        shatranj_engine::engine::nps(result.nodes, result.time),
    )?;
    dict.set_item("hashfull", hashfull)?;
    dict.set_item("tbhits", result.tbhits)?;
    let lines = PyList::empty(py);
    if result.lines.is_empty() {
        // No legal move: one line, with the score of the final position and no moves.
        lines.append((1usize, score_tuple(result.score), PyList::empty(py)))?;
    }
    for line in &result.lines {
        lines.append((
            line.multipv,
            score_tuple(line.score),
            moves_of(py, line_keys(root, &line.pv, chess960)?)?,
        ))?;
    }
    dict.set_item("lines", lines)?;
    Ok(dict)
}

#[pymethods]
impl Engine {
    /// `syzygy_path`: directories of Syzygy tables (a path, or several separated by
    /// `os.pathsep`), probed at the root and in the search as UCI's `SyzygyPath` is; the
    /// other three are `SyzygyProbeDepth`, `SyzygyProbeLimit` and `Syzygy50MoveRule`, with
    /// their UCI defaults (written as literals so that the signature Python sees shows them).
    #[new]
    #[pyo3(signature = (
        threads = 1,
        hash_mb = 64,
        device = "auto",
        eval_file = None,
        *,
        syzygy_path = None,
        syzygy_probe_depth = 1,
        syzygy_probe_limit = 7,
        syzygy_50_move_rule = true
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        threads: i64,
        hash_mb: i64,
        device: &str,
        eval_file: Option<&Bound<'_, PyAny>>,
        syzygy_path: Option<PathBuf>,
        syzygy_probe_depth: i64,
        syzygy_probe_limit: i64,
        syzygy_50_move_rule: bool,
    ) -> PyResult<Self> {
        let mut options = options(py, threads, hash_mb, device, eval_file)?;
        options.syzygy = syzygy_settings(
            py,
            syzygy_path,
            syzygy_probe_depth,
            syzygy_probe_limit,
            syzygy_50_move_rule,
        )?;
        let engine = shatranj_engine::Engine::new(options)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let stop = engine.stop_handle();
        Ok(Engine {
            inner: Arc::new(Mutex::new(engine)),
            stop,
        })
    }

    /// Searches `board` (its move stack counts for repetitions) and returns a dict:
    /// `best_move`, `depth`, `seldepth`, `nodes`, `time`, `nps`, `hashfull`, `tbhits` and `lines`, a
    /// list of `(multipv, (kind, value), pv)` with kind `"cp"` or `"mate"`, best first.
    #[pyo3(signature = (board, *, depth = None, time = None, nodes = None, multipv = 1))]
    fn search<'py>(
        &self,
        py: Python<'py>,
        board: &Bound<'py, Board>,
        depth: Option<i64>,
        time: Option<f64>,
        nodes: Option<i64>,
        multipv: i64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let limits = limits(depth, time, nodes, multipv)?;
        let state = crate::board::read(board)?;
        let (history, chess960) = state.playable_history()?;
        let root = SearchRoot::from(history);
        self.search_root(py, root, limits, chess960)
    }

    /// The static evaluation of the board: centipawns from the side to move.
    fn evaluate(&self, py: Python<'_>, board: &Bound<'_, Board>) -> PyResult<i32> {
        let pos = *crate::board::read(board)?.playable_history()?.0.position();
        // A search in another thread holds the engine: wait for it without the GIL.
        Ok(py.detach(|| self.lock().evaluate(&pos)))
    }

    /// Stops the running search, which then returns its best move so far.
    fn stop(&self) {
        self.stop.stop();
    }

    /// Forgets earlier searches: empties the transposition table and the move-ordering
    /// statistics (which otherwise carry over, like the table).
    fn clear_hash(&self, py: Python<'_>) {
        py.detach(|| self.lock().new_game());
    }

    /// Search threads.
    #[getter]
    fn threads(&self, py: Python<'_>) -> usize {
        py.detach(|| self.lock().options().threads)
    }

    /// Transposition table size in MiB.
    #[getter]
    fn hash_mb(&self, py: Python<'_>) -> usize {
        py.detach(|| self.lock().options().hash_mb)
    }

    /// Where static evaluations run: `cpu (inline)` or a back end `(batched)`.
    #[getter]
    fn evaluator(&self, py: Python<'_>) -> String {
        py.detach(|| self.lock().options().eval_route.describe())
    }

    /// Which static evaluation the engine uses: `classical`, or `network <hash> (<H> hidden)`.
    #[getter]
    fn evaluation(&self, py: Python<'_>) -> String {
        py.detach(|| self.lock().options().evaluation.describe())
    }
}

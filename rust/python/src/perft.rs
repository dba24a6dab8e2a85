//! `shatranj.perft`: the rules crate's perft (the CLI's entry point, `perft_with`) on a
//! worker thread, with the GIL released and Ctrl-C turned into `KeyboardInterrupt`.
//!
//! The waiting is `worker::run_interruptible`: between slices the optional progress callback
//! runs, and a pending `KeyboardInterrupt` stops the run through `PerftMonitor`.

use crate::board::Board;
use crate::worker::run_interruptible;
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use shatranj_chess::perft::{MAX_THREADS, PerftError, PerftMonitor, PerftOptions, perft_with};
use std::sync::Arc;
use std::time::Duration;

/// How long the waiting thread sleeps between signal checks.
const SLICE: Duration = Duration::from_millis(20);

fn perft_error(e: PerftError) -> PyErr {
    match e {
        PerftError::HashAllocation { .. } => PyMemoryError::new_err(e.to_string()),
        _ => PyRuntimeError::new_err(e.to_string()),
    }
}

/// Leaf nodes of the legal move tree `depth` plies below `board`.
///
/// `threads`: `None` or 1 for one thread (the CLI's default), 0 for one per core.
/// `hash_mb`: size of the subtree-count table (0: none). `progress`: called about every
/// 20 ms as `progress(nodes_so_far, root_moves_done, root_moves_total)`.
#[pyfunction]
#[pyo3(signature = (board, depth, *, threads = None, hash_mb = 0, progress = None))]
pub fn perft(
    py: Python<'_>,
    board: &Bound<'_, Board>,
    depth: i64,
    threads: Option<i64>,
    hash_mb: i64,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let depth = u32::try_from(depth)
        .ok()
        .filter(|d| *d <= 64)
        .ok_or_else(|| PyValueError::new_err(format!("depth {depth} out of range 0..=64")))?;
    let threads = match threads.unwrap_or(1) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => usize::try_from(n)
            .ok()
            .filter(|n| *n <= MAX_THREADS)
            .ok_or_else(|| {
                PyValueError::new_err(format!("threads {n} out of range 0..={MAX_THREADS}"))
            })?,
    };
    let hash_mb = usize::try_from(hash_mb)
        .map_err(|_| PyValueError::new_err(format!("hash_mb {hash_mb} must not be negative")))?;
    if let Some(p) = &progress
        && !p.is_callable()
    {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "progress must be callable or None",
        ));
    }
    let pos = *crate::board::read(board)?.valid_position()?;
    let opts = PerftOptions { threads, hash_mb };
    let monitor = Arc::new(PerftMonitor::new());
    let job = {
        let monitor = Arc::clone(&monitor);
        move || perft_with(&pos, depth, &opts, &monitor)
    };
    let result = run_interruptible(
        py,
        "perft",
        SLICE,
        job,
        || monitor.stop(),
        || match &progress {
            Some(callback) => {
                let (done, total) = monitor.roots();
                callback.call1((monitor.nodes(), done, total)).map(|_| ())
            }
            None => Ok(()),
        },
    )?;
    result.map_err(perft_error)
}

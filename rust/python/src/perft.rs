//! `shatranj.perft`: the rules crate's perft (the CLI's entry point, `perft_with`), or the
//! GPU's (`shatranj_gpu::perft`, `device="gpu"`), on a worker thread, with the GIL released
//! and Ctrl-C turned into `KeyboardInterrupt`.
//!
//! The waiting is `worker::run_interruptible`: between slices the optional progress callback
//! runs, and a pending `KeyboardInterrupt` stops the run through `PerftMonitor`.

use crate::board::Board;
use crate::worker::run_interruptible;
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use shatranj_chess::perft::{MAX_THREADS, PerftError, PerftMonitor, PerftOptions, perft_with};
use shatranj_gpu::perft::{GpuPerft, GpuPerftError};
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

/// How long the waiting thread sleeps between signal checks.
const SLICE: Duration = Duration::from_millis(20);

fn perft_error(e: PerftError) -> PyErr {
    match e {
        PerftError::HashAllocation { .. } => PyMemoryError::new_err(e.to_string()),
        _ => PyRuntimeError::new_err(e.to_string()),
    }
}

fn gpu_error(e: GpuPerftError) -> PyErr {
    match e {
        GpuPerftError::Device(e) => crate::engine::evaluator::eval_error(e),
        GpuPerftError::Unsupported(_) => PyValueError::new_err(e.to_string()),
        GpuPerftError::Interrupted => PyRuntimeError::new_err(e.to_string()),
    }
}

/// The shared GPU perft for `device`: none for `"cpu"`; for `"auto"` only a real GPU (a
/// software adapter counts slower than the CPU).
fn gpu_for(device: &str) -> PyResult<Option<Arc<Mutex<GpuPerft>>>> {
    match device {
        "cpu" => Ok(None),
        "gpu" => shatranj_gpu::perft::shared().map(Some).map_err(gpu_error),
        "auto" => Ok(shatranj_gpu::perft::shared().ok().filter(|g| {
            !g.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .info()
                .is_software()
        })),
        other => Err(PyValueError::new_err(format!(
            "unknown perft device {other:?} (expected cpu, gpu or auto)"
        ))),
    }
}

/// Leaf nodes of the legal move tree `depth` plies below `board`.
///
/// `threads`: `None` or 1 for one thread (the CLI's default), 0 for one per core.
/// `hash_mb`: size of the subtree-count table (0: none; on the GPU when it counts there).
/// `progress`: called about every 20 ms as `progress(nodes_so_far, root_moves_done,
/// root_moves_total)`. `device`: `"cpu"`, `"gpu"` (`RuntimeError` without an adapter) or
/// `"auto"` (a real GPU when there is one, else the CPU).
#[pyfunction]
#[pyo3(signature = (board, depth, *, threads = None, hash_mb = 0, progress = None, device = "cpu"))]
#[allow(clippy::too_many_arguments)]
pub fn perft(
    py: Python<'_>,
    board: &Bound<'_, Board>,
    depth: i64,
    threads: Option<i64>,
    hash_mb: i64,
    progress: Option<Bound<'_, PyAny>>,
    device: &str,
) -> PyResult<u64> {
    let depth = u32::try_from(depth)
        .ok()
        .filter(|d| *d <= 64)
        .ok_or_else(|| PyValueError::new_err(format!("depth {depth} out of range 0..=64")))?;
    let threads = match threads.unwrap_or(1) {
        0 => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
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
    let gpu = gpu_for(device)?;
    let opts = PerftOptions { threads, hash_mb };
    let monitor = Arc::new(PerftMonitor::new());
    let job = {
        let monitor = Arc::clone(&monitor);
        move || -> PyResult<u64> {
            match gpu {
                Some(gpu) => {
                    let mut gpu = gpu
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    gpu.set_hash_mb(hash_mb).map_err(gpu_error)?;
                    match gpu.divide(&pos, depth, &monitor) {
                        Ok(_) if depth == 0 => Ok(1),
                        Ok(split) => Ok(split.iter().map(|&(_, n)| n).sum()),
                        Err(GpuPerftError::Interrupted) => {
                            Err(perft_error(PerftError::Interrupted))
                        }
                        Err(e) => Err(gpu_error(e)),
                    }
                }
                None => perft_with(&pos, depth, &opts, &monitor).map_err(perft_error),
            }
        }
    };
    run_interruptible(
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
    )?
}

//! Long native work on its own thread, waited for without the GIL and interruptible.
//!
//! The calling thread waits for the worker in short slices without the GIL; between slices
//! it takes the GIL to run Python's signal handlers (`check_signals`, which raises
//! `KeyboardInterrupt` on Ctrl-C) and an optional per-slice hook (a progress callback). When
//! either fails, `cancel` tells the worker to stop, the worker is joined, and the error is
//! returned: the work never outlives the call.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// Runs `job` on a thread named `name` and returns its result.
///
/// `between` runs with the GIL every `slice` while the job runs; `cancel` must make the job
/// return soon (it is called from this thread while the job runs).
pub fn run_interruptible<T: Send + 'static>(
    py: Python<'_>,
    name: &str,
    slice: Duration,
    job: impl FnOnce() -> T + Send + 'static,
    cancel: impl Fn(),
    mut between: impl FnMut() -> PyResult<()>,
) -> PyResult<T> {
    let (tx, mut rx) = mpsc::channel();
    let worker = std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            let _ = tx.send(job());
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the {name} thread: {e}")))?;
    loop {
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(slice);
            (rx, got)
        });
        rx = back;
        match got {
            Ok(result) => {
                let _ = py.detach(move || worker.join());
                return Ok(result);
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals().and_then(|()| between()) {
                    cancel();
                    let _ = py.detach(move || worker.join());
                    return Err(e);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                let _ = py.detach(move || worker.join());
                return Err(PyRuntimeError::new_err(format!("the {name} thread failed")));
            }
        }
    }
}

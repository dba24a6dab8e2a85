//! The one place the Python module opens a batch back end (`shatranj_gpu::open`), and the
//! mapping of its errors to Python exceptions.

use pyo3::PyErr;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use shatranj_engine::{BatchEvaluator, Device, EvalError, Evaluation};
use std::sync::Arc;

pub fn open_evaluator(
    device: Device,
    evaluation: &Evaluation,
) -> Result<Arc<dyn BatchEvaluator>, EvalError> {
    shatranj_gpu::open_for(device, evaluation)
}

/// An evaluation failure as a Python exception: a bad device name is the caller's
/// `ValueError`; the GPU's own failures (no adapter, lost device, out of memory) are
/// `RuntimeError`s with wgpu's explanation.
pub fn eval_error(e: EvalError) -> PyErr {
    match e {
        EvalError::UnknownDevice(_) | EvalError::LengthMismatch { .. } => {
            PyValueError::new_err(e.to_string())
        }
        _ => PyRuntimeError::new_err(e.to_string()),
    }
}

/// A device name from Python.
pub fn parse_device(name: &str) -> Result<Device, PyErr> {
    name.parse::<Device>().map_err(eval_error)
}

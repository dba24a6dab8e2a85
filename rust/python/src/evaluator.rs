//! The one place the Python module opens a batch back end. A build with the GPU crate
//! replaces the body with `shatranj_gpu::open`; until then `gpu` is a clear error.

use pyo3::PyErr;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use shatranj_engine::{BatchEvaluator, Device, EvalError};
use std::sync::Arc;

pub fn open_evaluator(device: Device) -> Result<Arc<dyn BatchEvaluator>, EvalError> {
    shatranj_engine::cpu_only_evaluator(device)
}

/// `ValueError` for a bad device name, `RuntimeError` for a back end that failed.
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

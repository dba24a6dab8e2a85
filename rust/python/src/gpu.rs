//! `shatranj.evaluate` and `shatranj.gpu_info`: many static evaluations in one call, on the
//! CPU or the GPU (`shatranj-gpu`), and which GPU that would be.

use crate::board::Board;
use crate::eval_file::EvalSpec;
use crate::evaluator::{eval_error, open_evaluator, parse_device};
use crate::planes::numpy_from_bytes;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PyString, PyTuple};
use shatranj_chess::fen;
use shatranj_engine::eval::EvalError;
use shatranj_engine::eval::PackedPosition;

/// The positions of `boards` (Board objects or FEN strings), packed for the evaluator.
fn packed_positions(boards: &Bound<'_, PyAny>) -> PyResult<Vec<PackedPosition>> {
    let mut out = Vec::with_capacity(boards.len().unwrap_or(0));
    for (i, item) in boards.try_iter()?.enumerate() {
        let item = item?;
        let pos = if let Ok(board) = item.cast::<Board>() {
            *crate::board::read(board)?.valid_position()?
        } else if let Ok(text) = item.cast::<PyString>() {
            fen::parse(text.to_str()?)
                .map_err(|e| PyValueError::new_err(format!("boards[{i}]: {e}")))?
        } else {
            let type_name = crate::errors::type_name(&item);
            return Err(PyTypeError::new_err(format!(
                "boards[{i}]: expected a shatranj.Board or a FEN string, got {type_name}"
            )));
        };
        out.push(PackedPosition::from_position(&pos));
    }
    Ok(out)
}

/// The static evaluation of every board (centipawns from the side to move, as
/// `Engine.evaluate` with the same `eval_file`), as an int32 numpy array; `device` is `auto`,
/// `cpu` or `gpu`.
#[pyfunction]
#[pyo3(signature = (boards, device = "auto", eval_file = None))]
pub fn evaluate<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    device: &str,
    eval_file: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let device = parse_device(device)?;
    let evaluation = EvalSpec::load(py, eval_file)?;
    let positions = packed_positions(boards)?;
    let scores = py
        .detach(|| -> Result<Vec<i32>, EvalError> {
            let evaluator = open_evaluator(device, &evaluation)?;
            let mut scores = vec![0; positions.len()];
            evaluator.evaluate_packed(&positions, &mut scores)?;
            Ok(scores)
        })
        .map_err(eval_error)?;
    let bytes = PyByteArray::new(py, bytemuck::cast_slice(&scores));
    let shape = PyTuple::new(py, [scores.len()])?;
    numpy_from_bytes(py, bytes, "int32", shape)
}

/// The GPU adapter `device="gpu"` uses (`name`, `backend`, `device_type`, `driver`,
/// `driver_info`), or `None` when there is none.
#[pyfunction]
pub fn gpu_info(py: Python<'_>) -> PyResult<Option<Bound<'_, PyDict>>> {
    match py.detach(shatranj_gpu::gpu_info) {
        Ok(info) => {
            let d = PyDict::new(py);
            d.set_item("name", info.name)?;
            d.set_item("backend", info.backend)?;
            d.set_item("device_type", info.device_type)?;
            d.set_item("driver", info.driver)?;
            d.set_item("driver_info", info.driver_info)?;
            Ok(Some(d))
        }
        Err(EvalError::NoAdapter(_)) => Ok(None),
        Err(e) => Err(eval_error(e)),
    }
}

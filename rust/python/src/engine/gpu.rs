//! `shatranj.evaluate`, `shatranj.pack_positions` and `shatranj.gpu_info`: many static
//! evaluations in one call, on the CPU or the GPU (`shatranj-gpu`), from boards, FENs or a
//! numpy array of compact records (`position_array`), and which GPU that would be.

use crate::engine::eval_file::EvalSpec;
use crate::engine::evaluator::{eval_error, open_evaluator, parse_device};
use crate::ml::position_array::{self, Item};
use crate::native_array::numpy_array;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use shatranj_engine::eval::EvalError;
use shatranj_engine::eval::PackedPosition;

/// The static evaluation of every position (centipawns from the side to move, as
/// `Engine.evaluate` with the same `eval_file`), as an int32 numpy array; `device` is `auto`,
/// `cpu` or `gpu`. `boards` is an iterable of Boards and FEN strings, or a numpy `uint8`
/// array of shape `(N, 32)` from `pack_positions` (read without a copy, each record checked;
/// nothing is converted with the GIL held).
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
    let scores = if let Some(records) = position_array::records(boards)? {
        let records = records.as_ref();
        py.detach(|| {
            position_array::check(records).map_err(position_array::check_error)?;
            let evaluator = open_evaluator(device, &evaluation).map_err(eval_error)?;
            let mut scores = vec![0; records.len()];
            evaluator
                .evaluate_compact(records, &mut scores)
                .map_err(eval_error)?;
            Ok::<_, PyErr>(scores)
        })?
    } else {
        let items = position_array::items(boards)?;
        py.detach(|| -> PyResult<Vec<i32>> {
            let positions = position_array::pack_items(&items, PackedPosition::from_position)
                .map_err(position_array::fen_error)?;
            let evaluator = open_evaluator(device, &evaluation).map_err(eval_error)?;
            let mut scores = vec![0; positions.len()];
            evaluator
                .evaluate_packed(&positions, &mut scores)
                .map_err(|e: EvalError| eval_error(e))?;
            Ok(scores)
        })?
    };
    let n = scores.len();
    numpy_array(py, scores, &[n])
}

/// Boards and FEN strings as a numpy `uint8` array of shape `(N, 32)`: one compact record a
/// position (the layout in shaders/README.md), what `evaluate` takes in bulk. FENs are parsed
/// and every record packed on all threads with the GIL released; a position with more than 32
/// pieces has no record (`ValueError`).
#[pyfunction]
pub fn pack_positions<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let items: Vec<Item> = position_array::items(boards)?;
    let bytes = py
        .detach(|| position_array::pack_records(&items))
        .map_err(position_array::fen_error)?;
    position_array::to_numpy(py, bytes)
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

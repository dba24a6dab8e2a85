//! numpy views of positions, for machine learning: piece planes and a small feature vector.
//!
//! The bytes are written straight into a `bytearray` that numpy then wraps with
//! `frombuffer` (no copy, writable). This avoids a compiled numpy dependency, so the one
//! abi3 wheel works with any numpy version.

use crate::board::Board;
use crate::numpy_c_api;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyTuple};
use shatranj_chess::{CastlingSide, Color, Position, Role};

/// Planes per position: six piece types for each colour.
pub const PLANES: usize = 12;
/// Features per position: side to move, four castling rights, eight en-passant files.
pub const FEATURES: usize = 13;

fn numpy_array<'py>(
    py: Python<'py>,
    bytes: Bound<'py, PyByteArray>,
    shape: Bound<'py, PyTuple>,
) -> PyResult<Bound<'py, PyAny>> {
    numpy_from_bytes(py, bytes, "uint8", shape)
}

/// A numpy array of `dtype` (a numpy type name, native byte order) over `bytes`, no copy.
pub fn numpy_from_bytes<'py>(
    py: Python<'py>,
    bytes: Bound<'py, PyByteArray>,
    dtype: &str,
    shape: Bound<'py, PyTuple>,
) -> PyResult<Bound<'py, PyAny>> {
    let np = crate::py_modules::numpy(py)?;
    let array = np.call_method1("frombuffer", (bytes, np.getattr(dtype)?))?;
    array.call_method1("reshape", shape)
}

fn write_planes(pos: &Position, out: &mut [u8]) {
    let board = pos.board();
    for color in Color::ALL {
        for role in Role::ALL {
            let plane = &mut out[(color.index() * 6 + role.index()) * 64..][..64];
            for sq in board.by_color(color) & board.by_role(role) {
                plane[sq.index()] = 1;
            }
        }
    }
}

fn write_features(pos: &Position, out: &mut [u8]) {
    out[0] = u8::from(pos.turn() == Color::White);
    let rights = pos.castling_rights();
    let mut i = 1;
    for color in Color::ALL {
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            out[i] = u8::from(rights.has(color, side));
            i += 1;
        }
    }
    if let Some(ep) = pos.legal_ep_square() {
        out[5 + ep.file().index() as usize] = 1;
    }
}

fn fill<'py>(
    py: Python<'py>,
    positions: &[Position],
    width: usize,
    write: fn(&Position, &mut [u8]),
) -> PyResult<Bound<'py, PyByteArray>> {
    PyByteArray::new_with(py, positions.len() * width, |buf| {
        // `new_with` hands out a zeroed buffer.
        for (pos, chunk) in positions.iter().zip(buf.chunks_exact_mut(width)) {
            write(pos, chunk);
        }
        Ok(())
    })
}

/// `(12, 8, 8)` for one position: made through numpy's C API (`numpy_c_api.rs`), where
/// the Python calls would cost several times the planes.
pub fn planes_array<'py>(py: Python<'py>, pos: &Position) -> PyResult<Bound<'py, PyAny>> {
    if let Some(array) = numpy_c_api::new_u8_array(py, &[PLANES as isize, 8, 8], |out| {
        write_planes(pos, out);
    }) {
        return array;
    }
    let bytes = fill(py, std::slice::from_ref(pos), PLANES * 64, write_planes)?;
    let shape = PyTuple::new(py, [PLANES, 8, 8])?;
    numpy_array(py, bytes, shape)
}

/// The same planes as `bytes` (768, `planes_array`'s layout in C order): the filled buffer is
/// the `bytes` object's own, made by one allocation, so a caller that wants the raw bytes
/// (a batch buffer, a socket, a hash) pays for no numpy array.
pub fn planes_bytes<'py>(py: Python<'py>, pos: &Position) -> PyResult<Bound<'py, PyBytes>> {
    // `new_with` hands out a zeroed buffer.
    PyBytes::new_with(py, PLANES * 64, |out| {
        write_planes(pos, out);
        Ok(())
    })
}

pub fn features_array<'py>(py: Python<'py>, positions: &[Position]) -> PyResult<Bound<'py, PyAny>> {
    let bytes = fill(py, positions, FEATURES, write_features)?;
    let shape = PyTuple::new(py, [FEATURES])?;
    numpy_array(py, bytes, shape)
}

fn positions_of(boards: &Bound<'_, PyAny>) -> PyResult<Vec<Position>> {
    let mut out = Vec::new();
    for item in boards.try_iter()? {
        let item = item?;
        let board = item.cast::<Board>().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "expected shatranj.Board objects, got {}",
                crate::errors::type_name(&item)
            ))
        })?;
        out.push(*crate::board::read(board)?.valid_position()?);
    }
    Ok(out)
}

/// `(n, 12, 8, 8)` uint8 piece planes of a sequence of boards.
#[pyfunction]
pub fn boards_to_planes<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let positions = positions_of(boards)?;
    let bytes = fill(py, &positions, PLANES * 64, write_planes)?;
    let shape = PyTuple::new(py, [positions.len(), PLANES, 8, 8])?;
    numpy_array(py, bytes, shape)
}

/// `(n, 13)` uint8 feature vectors (see `Board.features`) of a sequence of boards.
#[pyfunction]
pub fn boards_to_features<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let positions = positions_of(boards)?;
    let bytes = fill(py, &positions, FEATURES, write_features)?;
    let shape = PyTuple::new(py, [positions.len(), FEATURES])?;
    numpy_array(py, bytes, shape)
}

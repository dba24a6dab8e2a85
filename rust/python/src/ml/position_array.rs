//! Positions in bulk as a numpy array: `uint8`, shape `(N, 32)`, one 32-byte compact record
//! a row (the layout of `CompactPosition`, documented in shaders/README.md), the input both
//! evaluation shaders read. `shatranj.pack_positions` makes one from boards or FENs on every
//! thread; `shatranj.evaluate` reads one without a copy.
//!
//! The array is read through numpy's `__array_interface__` (the buffer protocol is not in the
//! limited API before Python 3.11); the caller keeps the array alive, and must not change it
//! from another thread during the call, as with numpy's own functions that release the GIL.

use crate::board::Board;
use crate::native_array::numpy_array;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use rayon::prelude::*;
use shatranj_chess::{Position, fen};
use shatranj_engine::nnue::CompactPosition;
use std::borrow::Cow;

/// Bytes of one record.
const RECORD: usize = std::mem::size_of::<CompactPosition>();

/// The records of a numpy array, or `None` when `obj` is no array of numbers (a list of
/// boards, or an array of boards or FEN strings, is iterated instead). The records are
/// borrowed from the array (for as long as `obj` is) when it is aligned for `u32`, as numpy
/// allocates, else copied.
pub fn records<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Option<Cow<'a, [CompactPosition]>>> {
    let Ok(interface) = obj.getattr("__array_interface__") else {
        return Ok(None);
    };
    let interface = interface
        .cast_into::<PyDict>()
        .map_err(|_| PyTypeError::new_err("__array_interface__ is not a dict"))?;
    let get = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        interface
            .get_item(key)?
            .ok_or_else(|| PyTypeError::new_err(format!("__array_interface__ has no {key}")))
    };
    let typestr: String = get("typestr")?.extract()?;
    // Objects (boards), unicode and byte strings (FENs): items to iterate, as a list's.
    if matches!(typestr.as_bytes().get(1), Some(b'O' | b'U' | b'S')) {
        return Ok(None);
    }
    let shape: Vec<usize> = get("shape")?.extract()?;
    if typestr != "|u1" {
        return Err(PyTypeError::new_err(format!(
            "positions array: dtype must be uint8 (32-byte records from \
             shatranj.pack_positions), got typestr {typestr:?} with shape {shape:?}"
        )));
    }
    let rows = match shape.as_slice() {
        [rows, RECORD] => *rows,
        _ => {
            return Err(PyValueError::new_err(format!(
                "positions array: shape must be (N, {RECORD}), got {shape:?}"
            )));
        }
    };
    let contiguous = match interface.get_item("strides")? {
        None => true,
        Some(s) if s.is_none() => true,
        Some(s) => {
            let strides: Vec<isize> = s.extract()?;
            strides == [RECORD as isize, 1] || rows <= 1
        }
    };
    if !contiguous {
        return Err(PyValueError::new_err(
            "positions array: must be C-contiguous (numpy.ascontiguousarray)",
        ));
    }
    if interface.get_item("offset")?.is_some_and(|o| !o.is_none()) {
        return Err(PyValueError::new_err(
            "positions array: an interface with an offset is not supported",
        ));
    }
    if rows == 0 {
        return Ok(Some(Cow::Borrowed(&[])));
    }
    let (address, _read_only): (usize, bool) = get("data")?.extract()?;
    if address == 0 {
        return Err(PyValueError::new_err("positions array: no data"));
    }
    // SAFETY: numpy describes `rows * 32` readable bytes at `address`, owned by `obj`, which
    // the caller holds for as long as the borrow lasts ('a); u8 has no invalid values.
    let bytes: &'a [u8] =
        unsafe { std::slice::from_raw_parts(address as *const u8, rows * RECORD) };
    Ok(Some(match bytemuck::try_cast_slice(bytes) {
        Ok(records) => Cow::Borrowed(records),
        Err(_) => Cow::Owned(bytemuck::pod_collect_to_vec(bytes)),
    }))
}

/// Checks every record on rayon's threads; the first bad one is a `ValueError` naming its
/// row and what is wrong with it.
pub fn check(records: &[CompactPosition]) -> Result<(), (usize, String)> {
    match records.par_iter().position_first(|c| c.check().is_err()) {
        None => Ok(()),
        Some(i) => Err((
            i,
            records[i]
                .check()
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default(),
        )),
    }
}

pub fn check_error((row, what): (usize, String)) -> PyErr {
    PyValueError::new_err(format!("positions[{row}]: {what}"))
}

/// One item of a list given to `evaluate` or `pack_positions`: a board's position (read
/// with the GIL) or a FEN (parsed on rayon's threads without it).
pub enum Item {
    Position(Box<Position>),
    Fen(String),
}

/// The items of `boards` (Board objects or FEN strings).
pub fn items(boards: &Bound<'_, PyAny>) -> PyResult<Vec<Item>> {
    let mut out = Vec::with_capacity(boards.len().unwrap_or(0));
    for (i, item) in boards.try_iter()?.enumerate() {
        let item = item?;
        if let Ok(board) = item.cast::<Board>() {
            out.push(Item::Position(Box::new(
                *crate::board::read(board)?.valid_position()?,
            )));
        } else if let Ok(text) = item.cast::<PyString>() {
            out.push(Item::Fen(text.to_str()?.to_owned()));
        } else {
            let type_name = crate::errors::type_name(&item);
            return Err(PyTypeError::new_err(format!(
                "boards[{i}]: expected a shatranj.Board or a FEN string, got {type_name}"
            )));
        }
    }
    Ok(out)
}

/// The items as packed as `convert` packs a position, on rayon's threads; the first bad FEN
/// is `(index, why)`.
pub fn pack_items<T: Send>(
    items: &[Item],
    convert: impl Fn(&Position) -> T + Sync,
) -> Result<Vec<T>, (usize, String)> {
    items
        .par_iter()
        .enumerate()
        .map(|(i, item)| match item {
            Item::Position(p) => Ok(convert(p)),
            Item::Fen(text) => fen::parse(text)
                .map(|p| convert(&p))
                .map_err(|e| (i, e.to_string())),
        })
        .collect()
}

pub fn fen_error((i, what): (usize, String)) -> PyErr {
    PyValueError::new_err(format!("boards[{i}]: {what}"))
}

/// The items as compact records in a numpy `uint8` array of shape `(N, 32)`, packed on
/// rayon's threads straight into the array's memory; a position with more than 32 pieces
/// (no record holds it) or a bad FEN is `(index, why)`.
pub fn pack_records(items: &[Item]) -> Result<Vec<u8>, (usize, String)> {
    let mut bytes = vec![0u8; items.len() * RECORD];
    bytes
        .par_chunks_mut(RECORD)
        .zip(items.par_iter())
        .enumerate()
        .try_for_each(|(i, (row, item))| {
            let parsed;
            let pos = match item {
                Item::Position(p) => p.as_ref(),
                Item::Fen(text) => {
                    parsed = fen::parse(text).map_err(|e| (i, e.to_string()))?;
                    &parsed
                }
            };
            let pieces = pos.board().occupied().count();
            if pieces > 32 {
                return Err((
                    i,
                    format!("{pieces} pieces; a compact record holds at most 32"),
                ));
            }
            row.copy_from_slice(bytemuck::bytes_of(&CompactPosition::from_position(pos)));
            Ok(())
        })?;
    Ok(bytes)
}

/// Packed records as a numpy `uint8` array of shape `(N, 32)`, without a copy.
pub fn to_numpy(py: Python<'_>, bytes: Vec<u8>) -> PyResult<Bound<'_, PyAny>> {
    let rows = bytes.len() / RECORD;
    numpy_array(py, bytes, &[rows, RECORD])
}

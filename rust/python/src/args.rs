//! Conversion of python-chess style arguments: squares are ints 0..=63, colours are truthy
//! values (`WHITE` is `True`), piece types are ints 1..=6.

use crate::errors::square_out_of_range;
use crate::py_modules;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use shatranj_chess::{Bitboard, Color, Role, Square};

pub fn square(value: i64) -> PyResult<Square> {
    u32::try_from(value)
        .ok()
        .and_then(Square::new)
        .ok_or_else(|| square_out_of_range(value))
}

pub fn color(value: &Bound<'_, PyAny>) -> PyResult<Color> {
    Ok(if value.is_truthy()? {
        Color::White
    } else {
        Color::Black
    })
}

pub fn role(value: i64) -> PyResult<Role> {
    usize::try_from(value)
        .ok()
        .and_then(Role::from_index_checked)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "piece type {value} out of range: expected 1 (PAWN) to 6 (KING)"
            ))
        })
}

/// python-chess piece type numbers: pawn 1 … king 6.
pub fn piece_type(role: Role) -> u8 {
    role.index() as u8 + 1
}

trait RoleFromPieceType {
    fn from_index_checked(piece_type: usize) -> Option<Role>;
}

impl RoleFromPieceType for Role {
    fn from_index_checked(piece_type: usize) -> Option<Role> {
        piece_type.checked_sub(1).and_then(Role::from_index)
    }
}

pub fn py_color(c: Color) -> bool {
    c.is_white()
}

/// A `shatranj.SquareSet` (pure Python, python-chess's set of squares) over `bb`.
pub fn square_set(py: Python<'_>, bb: Bitboard) -> PyResult<Bound<'_, PyAny>> {
    py_modules::square_set_class(py)?.call1((bb.0,))
}

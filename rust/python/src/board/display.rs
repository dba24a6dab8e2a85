//! The board shown: `repr`, the ASCII and Unicode diagrams, and SVG for notebooks.

use super::{Board, BoardState, read};
use crate::moves::{interned, key_of};
use crate::py_modules;
use crate::text;
use pyo3::prelude::*;

impl BoardState {
    pub(crate) fn __repr__(&self) -> PyResult<String> {
        if let Some(g) = &self.setup {
            return Ok(g.repr());
        }
        let flag = if self.chess960 { ", chess960=True" } else { "" };
        Ok(format!("Board('{}'{flag})", self.position().fen()))
    }

    pub(crate) fn __str__(&self) -> PyResult<String> {
        if let Some(g) = &self.setup {
            return Ok(g.ascii());
        }
        Ok(text::ascii(self.position().board()))
    }

    pub(crate) fn unicode(
        &self,
        invert_color: bool,
        borders: bool,
        empty_square: &str,
        orientation: bool,
    ) -> PyResult<String> {
        if let Some(g) = &self.setup {
            return Ok(g.unicode(invert_color, borders, empty_square, orientation));
        }
        Ok(text::unicode(
            self.position().board(),
            invert_color,
            borders,
            empty_square,
            orientation,
        ))
    }
}

/// `Board._repr_svg_`: drawn by `shatranj.svg` as python-chess does, last move and checked
/// king highlighted, 390 pixels.
pub(super) fn repr_svg<'py>(slf: &Bound<'py, Board>) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    let (lastmove, check) = if read(slf)?.setup.is_some() {
        (None, None)
    } else {
        let me = read(slf)?;
        let lastmove = me.game.moves().last().map(|&m| key_of(m));
        let pos = me.position();
        let check = pos.is_check().then(|| pos.king(pos.turn()).index() as u8);
        (lastmove, check)
    };
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("lastmove", lastmove.map(|k| interned(py, k)).transpose()?)?;
    kwargs.set_item("check", check)?;
    kwargs.set_item("size", 390)?;
    // No borrow is held while Python draws: `svg.board` reads the board through its
    // public methods.
    py_modules::svg_board(py)?.call((slf,), Some(&kwargs))
}

//! The board shown ([`Diagram`]): `repr`, the ASCII and Unicode diagrams, and SVG for
//! notebooks.

use super::legal_game::LegalGame;
use super::position::Placement;
use super::setup_mode::SetupGame;
use super::{Board, on_rep, read};
use crate::py_modules;
use crate::rules::moves::{interned, key_of};
use crate::rules::text;
use pyo3::prelude::*;
use shatranj_chess::fen::EnPassantMode;

/// The board shown: the diagrams are drawn from the placement, once for every
/// representation.
pub(crate) trait Diagram: Placement {
    fn __repr__(&self) -> PyResult<String>;

    fn __str__(&self) -> PyResult<String> {
        Ok(text::ascii(self.placement()))
    }

    fn unicode(
        &self,
        invert_color: bool,
        borders: bool,
        empty_square: &str,
        orientation: bool,
    ) -> PyResult<String> {
        Ok(text::unicode(
            self.placement(),
            invert_color,
            borders,
            empty_square,
            orientation,
        ))
    }

    /// What the SVG highlights: the last move and the checked king's square (setup mode
    /// highlights nothing).
    fn svg_marks(&self) -> (Option<u16>, Option<u8>) {
        (None, None)
    }
}

impl Diagram for LegalGame {
    fn __repr__(&self) -> PyResult<String> {
        let flag = if self.chess960 { ", chess960=True" } else { "" };
        Ok(format!("Board('{}'{flag})", self.position().fen()))
    }

    fn svg_marks(&self) -> (Option<u16>, Option<u8>) {
        let lastmove = self.game.moves().last().map(|&m| key_of(m));
        let pos = self.position();
        let check = pos.is_check().then(|| pos.king(pos.turn()).index() as u8);
        (lastmove, check)
    }
}

impl Diagram for SetupGame {
    fn __repr__(&self) -> PyResult<String> {
        let fen = self.setup().fen(false, EnPassantMode::Legal, false);
        let flag = if self.setup().chess960 {
            ", chess960=True"
        } else {
            ""
        };
        Ok(format!("Board('{fen}'{flag})"))
    }
}

/// `Board._repr_svg_`: drawn by `shatranj.svg` as python-chess does, last move and checked
/// king highlighted, 390 pixels.
pub(super) fn repr_svg<'py>(slf: &Bound<'py, Board>) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    let (lastmove, check) = on_rep!(&*read(slf)?, r => r.svg_marks());
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("lastmove", lastmove.map(|k| interned(py, k)).transpose()?)?;
    kwargs.set_item("check", check)?;
    kwargs.set_item("size", 390)?;
    // No borrow is held while Python draws: `svg.board` reads the board through its
    // public methods.
    py_modules::svg_board(py)?.call((slf,), Some(&kwargs))
}

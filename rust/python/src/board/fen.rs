//! FEN and EPD text out ([`Fen`]: python-chess's `shredder` and `en_passant` options). FEN in
//! (`set_fen`, which may put the board in setup mode) is an edit (`edit.rs`).

use super::legal_game::LegalGame;
use super::setup_mode::SetupGame;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use shatranj_chess::Position;
use shatranj_chess::attacks::pawn_attacks;
use shatranj_chess::fen::{EnPassantMode, FenText};

/// python-chess's `en_passant` argument: `None` for X-FEN's rule (a pseudo-legal capture).
pub(crate) fn ep_mode(en_passant: &str) -> PyResult<Option<EnPassantMode>> {
    match en_passant {
        "legal" => Ok(Some(EnPassantMode::Legal)),
        "fen" => Ok(Some(EnPassantMode::Always)),
        // X-FEN: the square whenever a pawn could capture there, legal or not.
        "xfen" => Ok(None),
        other => Err(PyValueError::new_err(format!(
            "en_passant must be 'legal', 'fen' or 'xfen', not {other:?}"
        ))),
    }
}

/// The en-passant mode that writes python-chess's `en_passant` choice for `pos`: X-FEN's
/// square (a pseudo-legal capture) is the square itself when a pawn could capture there,
/// and none otherwise, which is what the legal mode writes then too.
fn ep_mode_for(pos: &Position, en_passant: &str) -> PyResult<EnPassantMode> {
    Ok(ep_mode(en_passant)?.unwrap_or_else(|| {
        let capturable = pos.ep_square().is_some_and(|ep| {
            (pawn_attacks(pos.turn().other(), ep)
                & pos.board().by_color(pos.turn())
                & pos.board().pawns())
            .any()
        });
        if capturable {
            EnPassantMode::Always
        } else {
            EnPassantMode::Legal
        }
    }))
}

/// The FEN of a legal position as `Board.fen()` writes it with these options (the call
/// without options goes straight to `FenText::fen`: `rules/hot_methods.rs`).
fn fen_text(pos: &Position, shredder: bool, en_passant: &str) -> PyResult<FenText> {
    Ok(FenText::fen(pos, ep_mode_for(pos, en_passant)?, shredder))
}

/// FEN and EPD text out. `promoted` (python-chess's `~` after promoted pieces) only
/// matters in setup mode: the hot path has no promoted pieces marked.
pub(crate) trait Fen {
    fn fen(&self, shredder: bool, en_passant: &str, promoted: Option<bool>) -> PyResult<String>;
    fn epd(&self, shredder: bool, en_passant: &str, promoted: Option<bool>) -> PyResult<String>;
    fn board_fen(&self, promoted: Option<bool>) -> PyResult<String>;
}

impl Fen for LegalGame {
    fn fen(&self, shredder: bool, en_passant: &str, _promoted: Option<bool>) -> PyResult<String> {
        Ok(fen_text(self.position(), shredder, en_passant)?
            .as_str()
            .to_owned())
    }

    fn epd(&self, shredder: bool, en_passant: &str, _promoted: Option<bool>) -> PyResult<String> {
        let pos = self.position();
        let mode = ep_mode_for(pos, en_passant)?;
        Ok(FenText::epd(pos, mode, shredder).as_str().to_owned())
    }

    fn board_fen(&self, _promoted: Option<bool>) -> PyResult<String> {
        Ok(self.position().board().board_fen())
    }
}

impl Fen for SetupGame {
    fn fen(&self, shredder: bool, en_passant: &str, promoted: Option<bool>) -> PyResult<String> {
        Ok(self
            .setup()
            .fen_with(shredder, ep_mode(en_passant)?, promoted.unwrap_or(false)))
    }

    fn epd(&self, shredder: bool, en_passant: &str, promoted: Option<bool>) -> PyResult<String> {
        Ok(self
            .setup()
            .epd(shredder, ep_mode(en_passant)?, promoted.unwrap_or(false)))
    }

    fn board_fen(&self, promoted: Option<bool>) -> PyResult<String> {
        Ok(self.setup().board_fen(promoted.unwrap_or(false)))
    }
}

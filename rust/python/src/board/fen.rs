//! FEN and EPD text out (python-chess's `shredder` and `en_passant` options) and in (`set_fen`,
//! which may put the board in setup mode).

use super::BoardState;
use crate::errors::fen_error;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use shatranj_chess::attacks::pawn_attacks;
use shatranj_chess::fen::{self, EnPassantMode};
use shatranj_chess::{History, Position};

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

/// The EPD with Shredder-FEN castling (rook files) when `shredder`: on the hot path every
/// right is a corner rook's, so `KQkq` is `HAha`.
fn shredder_of(epd: String, pos: &Position, shredder: bool) -> String {
    if !shredder {
        return epd;
    }
    let mut fields: Vec<String> = epd.split(' ').map(str::to_owned).collect();
    if let Some(castling) = fields.get_mut(2) {
        *castling = fen::castling_shredder(pos);
    }
    fields.join(" ")
}

fn epd_of(pos: &Position, en_passant: &str) -> PyResult<String> {
    Ok(match ep_mode(en_passant)? {
        Some(mode) => fen::epd_with(pos, mode),
        None => {
            let capturable = pos.ep_square().filter(|&ep| {
                (pawn_attacks(pos.turn().other(), ep)
                    & pos.board().by_color(pos.turn())
                    & pos.board().pawns())
                .any()
            });
            let ep = capturable.map_or_else(|| "-".to_owned(), |s| s.to_string());
            let full = fen::epd_with(pos, EnPassantMode::Always);
            let (head, _) = full.rsplit_once(' ').unwrap_or((&full, ""));
            format!("{head} {ep}")
        }
    })
}

impl BoardState {
    pub(crate) fn fen(
        &self,
        shredder: bool,
        en_passant: &str,
        promoted: Option<bool>,
    ) -> PyResult<String> {
        if let Some(g) = &self.setup {
            return g.fen(shredder, en_passant, promoted);
        }
        let _ = promoted;
        let pos = self.position();
        Ok(format!(
            "{} {} {}",
            shredder_of(epd_of(pos, en_passant)?, pos, shredder),
            pos.halfmove_clock(),
            pos.fullmove_number()
        ))
    }

    pub(crate) fn epd(
        &self,
        shredder: bool,
        en_passant: &str,
        promoted: Option<bool>,
    ) -> PyResult<String> {
        if let Some(g) = &self.setup {
            return g.now().epd(shredder, en_passant, promoted.unwrap_or(false));
        }
        let _ = promoted;
        Ok(shredder_of(
            epd_of(self.position(), en_passant)?,
            self.position(),
            shredder,
        ))
    }

    pub(crate) fn board_fen(&self, promoted: Option<bool>) -> PyResult<String> {
        if let Some(g) = &self.setup {
            return Ok(g.setup().board_fen(promoted.unwrap_or(false)));
        }
        Ok({
            let _ = promoted;
            self.position().board().board_fen()
        })
    }

    pub(crate) fn set_fen(&mut self, fen: &str) -> PyResult<()> {
        if !self.chess960 {
            match fen::parse(fen) {
                Ok(pos) => {
                    self.reset(History::new(pos));
                    return Ok(());
                }
                Err(e) => {
                    *self = BoardState::lenient(Some(fen), false).map_err(|_| fen_error(e))?;
                    return Ok(());
                }
            }
        }
        *self = BoardState::lenient(Some(fen), true)?;
        Ok(())
    }

    pub(crate) fn reset_board(&mut self) {
        self.reset(History::new(Position::new()));
    }
}

//! FEN and EPD text out ([`Fen`]: python-chess's `shredder` and `en_passant` options). FEN in
//! (`set_fen`, which may put the board in setup mode) is an edit (`edit.rs`).

use super::legal_game::LegalGame;
use super::setup_mode::SetupGame;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use shatranj_chess::Position;
use shatranj_chess::attacks::pawn_attacks;
use shatranj_chess::fen::{self, EnPassantMode};

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

/// FEN and EPD text out. `promoted` (python-chess's `~` after promoted pieces) only
/// matters in setup mode: the hot path has no promoted pieces marked.
pub(crate) trait Fen {
    fn fen(&self, shredder: bool, en_passant: &str, promoted: Option<bool>) -> PyResult<String>;
    fn epd(&self, shredder: bool, en_passant: &str, promoted: Option<bool>) -> PyResult<String>;
    fn board_fen(&self, promoted: Option<bool>) -> PyResult<String>;
}

impl Fen for LegalGame {
    fn fen(&self, shredder: bool, en_passant: &str, _promoted: Option<bool>) -> PyResult<String> {
        let pos = self.position();
        Ok(format!(
            "{} {} {}",
            shredder_of(epd_of(pos, en_passant)?, pos, shredder),
            pos.halfmove_clock(),
            pos.fullmove_number()
        ))
    }

    fn epd(&self, shredder: bool, en_passant: &str, _promoted: Option<bool>) -> PyResult<String> {
        Ok(shredder_of(
            epd_of(self.position(), en_passant)?,
            self.position(),
            shredder,
        ))
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

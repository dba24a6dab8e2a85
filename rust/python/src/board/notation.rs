//! Moves as text ([`Notation`]): SAN and LAN written (`san`, `lan`, `variation_san`) and SAN
//! and UCI read (`parse_san`, `push_san`, `parse_uci`, `push_uci`), null moves included.

use super::legal_game::LegalGame;
use super::moves::Moves;
use super::setup_mode::SetupGame;
use crate::errors::{IllegalMoveError, san_error, uci_error};
use crate::rules::moves::{self, Move, interned, key_of, uci_of};
use crate::rules::resolve::castling_alias;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use shatranj_chess::fen::EnPassantMode;
use shatranj_chess::{Color, san, uci};

/// The null move as SAN: `--` (python-chess's), and `Z0`, `0000`, `@@@@` as it also reads.
fn is_null_san(san: &str) -> bool {
    matches!(san, "--" | "Z0" | "0000" | "@@@@")
}

/// SAN text as python-chess accepts it: no surrounding whitespace (`"Nc3\n"` is invalid).
fn strict_san(san: &str) -> PyResult<&str> {
    if san.trim() != san {
        return Err(crate::errors::InvalidMoveError::new_err(format!(
            "invalid san: {san:?}"
        )));
    }
    Ok(san)
}

/// Moves as text, read and written in the representation's own position.
pub(crate) trait Notation: Moves {
    fn san(&mut self, r#move: &Bound<'_, Move>) -> PyResult<String>;
    fn lan(&mut self, r#move: &Bound<'_, Move>) -> PyResult<String>;
    /// `1. e4 e5 2. Nf3`, for moves played from this position (the board is not changed).
    fn variation_san(&self, variation: &Bound<'_, PyAny>) -> PyResult<String>;
    fn parse_san<'py>(&self, py: Python<'py>, san: &str) -> PyResult<Bound<'py, Move>>;
    fn parse_uci<'py>(&self, py: Python<'py>, uci: &str) -> PyResult<Bound<'py, Move>>;

    fn san_and_push(&mut self, r#move: &Bound<'_, Move>) -> PyResult<String> {
        let text = self.san(r#move)?;
        self.push(r#move)?;
        Ok(text)
    }

    fn push_san<'py>(&mut self, py: Python<'py>, san: &str) -> PyResult<Bound<'py, Move>> {
        let m = self.parse_san(py, san)?;
        self.push(&m)?;
        Ok(m)
    }

    fn push_uci<'py>(&mut self, py: Python<'py>, uci: &str) -> PyResult<Bound<'py, Move>> {
        let m = self.parse_uci(py, uci)?;
        self.push(&m)?;
        Ok(m)
    }
}

/// The hot path overrides the pushes to play the move it found while reading it (no second
/// search of the legal moves).
impl Notation for LegalGame {
    fn san(&mut self, r#move: &Bound<'_, Move>) -> PyResult<String> {
        if r#move.get().key == moves::NULL_KEY {
            return Ok("--".to_owned());
        }
        let m = self.find_legal_or_raise(r#move.get().key)?;
        Ok(self.san_of(m))
    }

    fn lan(&mut self, r#move: &Bound<'_, Move>) -> PyResult<String> {
        let m = self.find_legal_or_raise(r#move.get().key)?;
        Ok(san::to_lan(self.position(), m))
    }

    fn san_and_push(&mut self, r#move: &Bound<'_, Move>) -> PyResult<String> {
        if r#move.get().key == moves::NULL_KEY {
            self.push_null()?;
            return Ok("--".to_owned());
        }
        let m = self.find_legal_or_raise(r#move.get().key)?;
        let text = self.san_of(m);
        self.push_legal(m);
        Ok(text)
    }

    fn variation_san(&self, variation: &Bound<'_, PyAny>) -> PyResult<String> {
        let mut pos = *self.position();
        let mut parts: Vec<String> = Vec::new();
        for item in variation.try_iter()? {
            let item = item?;
            let mv = item.cast::<Move>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "variation_san expects Move objects, got {}",
                    crate::errors::type_name(&item)
                ))
            })?;
            let key = mv.get().key;
            if key == moves::NULL_KEY {
                if !pos.play_null() {
                    return Err(IllegalMoveError::new_err(format!(
                        "illegal move 0000 (a null move in check) in position {}",
                        pos.fen()
                    )));
                }
                parts.push("--".to_owned());
                continue;
            }
            let legal = pos.legal_moves();
            let found = if self.chess960 {
                crate::rules::resolve::resolve_960(&pos, key).filter(|m| legal.contains(m))
            } else {
                legal
                    .iter()
                    .copied()
                    .find(|m| key_of(*m) == key)
                    .or_else(|| {
                        castling_alias(&pos, key)
                            .and_then(|alias| legal.iter().copied().find(|m| key_of(*m) == alias))
                    })
            };
            let Some(m) = found else {
                return Err(IllegalMoveError::new_err(format!(
                    "illegal move {} in position {}",
                    uci_of(key),
                    pos.fen()
                )));
            };
            let text = san::to_san_among(&pos, m, &legal);
            if pos.turn() == Color::White {
                parts.push(format!("{}. {text}", pos.fullmove_number()));
            } else if parts.is_empty() {
                parts.push(format!("{}...{text}", pos.fullmove_number()));
            } else {
                parts.push(text);
            }
            pos.play_unchecked(m);
        }
        Ok(parts.join(" "))
    }

    fn parse_san<'py>(&self, py: Python<'py>, san: &str) -> PyResult<Bound<'py, Move>> {
        if is_null_san(san) {
            return interned(py, moves::NULL_KEY);
        }
        let m = san::parse_san(self.position(), strict_san(san)?).map_err(san_error)?;
        interned(py, self.key_in(self.position(), m))
    }

    fn push_san<'py>(&mut self, py: Python<'py>, san: &str) -> PyResult<Bound<'py, Move>> {
        if is_null_san(san) {
            self.push_null()?;
            return interned(py, moves::NULL_KEY);
        }
        let m = san::parse_san(self.position(), strict_san(san)?).map_err(san_error)?;
        let key = self.key_in(self.position(), m);
        self.push_legal(m);
        interned(py, key)
    }

    fn parse_uci<'py>(&self, py: Python<'py>, uci: &str) -> PyResult<Bound<'py, Move>> {
        let m = uci::parse_uci(self.position(), uci).map_err(uci_error)?;
        interned(py, self.key_in(self.position(), m))
    }

    fn push_uci<'py>(&mut self, py: Python<'py>, uci: &str) -> PyResult<Bound<'py, Move>> {
        let m = uci::parse_uci(self.position(), uci).map_err(uci_error)?;
        let key = self.key_in(self.position(), m);
        self.push_legal(m);
        interned(py, key)
    }
}

impl Notation for SetupGame {
    fn san(&mut self, r#move: &Bound<'_, Move>) -> PyResult<String> {
        if r#move.get().key == moves::NULL_KEY {
            return Ok("--".to_owned());
        }
        self.now().san(r#move)
    }

    fn lan(&mut self, r#move: &Bound<'_, Move>) -> PyResult<String> {
        if r#move.get().key == moves::NULL_KEY {
            return Ok("--".to_owned());
        }
        self.now().lan(r#move)
    }

    fn variation_san(&self, variation: &Bound<'_, PyAny>) -> PyResult<String> {
        let mut board = SetupGame::new(*self.setup());
        let mut parts: Vec<String> = Vec::new();
        for item in variation.try_iter()? {
            let item = item?;
            let m = item.cast::<Move>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "variation_san expects Move objects, got {}",
                    crate::errors::type_name(&item)
                ))
            })?;
            let key = m.get().key;
            if key != moves::NULL_KEY && !board.now().has_legal(m)? {
                return Err(IllegalMoveError::new_err(format!(
                    "illegal move {} in position {}",
                    moves::uci_of(key),
                    board.setup().fen(false, EnPassantMode::Legal, false)
                )));
            }
            let text = if key == moves::NULL_KEY {
                "--".to_owned()
            } else {
                board.now().san(m)?
            };
            let number = board.setup().fullmove_number;
            if board.setup().turn == Color::White {
                parts.push(format!("{number}. {text}"));
            } else if parts.is_empty() {
                parts.push(format!("{number}...{text}"));
            } else {
                parts.push(text);
            }
            board.play(key)?;
        }
        Ok(parts.join(" "))
    }

    fn parse_san<'py>(&self, py: Python<'py>, san: &str) -> PyResult<Bound<'py, Move>> {
        let m = self.setup().parse_san(san).map_err(san_error)?;
        interned(py, key_of(m))
    }

    fn parse_uci<'py>(&self, py: Python<'py>, uci: &str) -> PyResult<Bound<'py, Move>> {
        let m = self.setup().parse_uci(uci).map_err(uci_error)?;
        interned(py, key_of(m))
    }
}

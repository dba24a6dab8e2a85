//! `BoardState`, what a Python `Board` holds: one representation of the position (see the
//! `board` module docs), and what the rest of the crate asks of any board (the legal position
//! the engine, planes and perft need, or the error saying this board has none), the
//! constructors, and python-chess's equality, which compares two boards of any
//! representations.

use super::fen::Fen;
use super::legal_game::LegalGame;
use super::setup_mode::SetupGame;
use super::{Board, read};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use shatranj_chess::{History, Position};

/// The state behind a Python `Board`, borrowed through [`read`] and [`write`]: one
/// representation of the position, each implementing the concern traits (see the module
/// docs). A variant's position would be one more variant here and one more arm of
/// [`on_rep!`](super::on_rep).
///
/// [`write`]: super::write
pub enum BoardState {
    /// A legal position (standard or Chess960) and the moves that led to it: the hot path.
    Legal(LegalGame),
    /// Setup mode: what the rules crate's `Position` refuses (boxed: the hot path's size
    /// stays the legal game's).
    Setup(Box<SetupGame>),
}

impl BoardState {
    pub fn from_history(game: History) -> BoardState {
        BoardState::Legal(LegalGame::new(game, false))
    }

    pub fn from_position(pos: Position) -> BoardState {
        BoardState::from_history(History::new(pos))
    }

    pub(super) fn with_setup(game: SetupGame) -> BoardState {
        BoardState::Setup(Box::new(game))
    }

    /// The position, or `ValueError` in setup mode: for the Rust code outside this module
    /// (engines, planes, perft), which works on legal standard positions only.
    pub fn valid_position(&self) -> PyResult<&Position> {
        self.valid_history().map(History::position)
    }

    /// The game, or `ValueError` in setup mode (see `valid_position`).
    pub fn valid_history(&self) -> PyResult<&History> {
        match self {
            BoardState::Legal(game) if !game.chess960 => Ok(&game.game),
            _ => Err(PyValueError::new_err(
                "this board holds a position the rules do not allow (see Board.status()) or a Chess960 position; it needs a legal standard chess position here",
            )),
        }
    }

    /// The game of a legal board, standard or Chess960, with python-chess's `chess960` flag
    /// (how its castling moves are written), or `ValueError` in setup mode: for the engine,
    /// which plays both.
    pub fn playable_history(&self) -> PyResult<(&History, bool)> {
        match self {
            BoardState::Legal(game) => Ok((&game.game, game.chess960)),
            BoardState::Setup(_) => Err(PyValueError::new_err(
                "this board holds a position the rules do not allow (see Board.status()); it needs a legal position here",
            )),
        }
    }

    /// python-chess's equality: same placement, side, castling rights, legal en-passant
    /// square and clocks; the move stacks may differ.
    pub(super) fn python_eq(&self, other: &Bound<'_, Board>) -> PyResult<bool> {
        if let (BoardState::Legal(a), BoardState::Legal(b)) = (self, &*read(other)?) {
            return Ok(a.same_position(b));
        }
        // A setup board compares by FEN (placement, side, castling, legal en passant,
        // clocks), which is python-chess's equality.
        let mine = super::on_rep!(self, r => r.fen(false, "legal", None))?;
        let theirs: String = other.call_method0("fen")?.extract()?;
        Ok(mine == theirs)
    }
}

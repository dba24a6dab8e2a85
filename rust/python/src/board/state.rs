//! `BoardState`, what a Python `Board` holds: the game (`History`), the per-ply cache of legal
//! moves, the setup and move stack of setup mode and the castling rights and en-passant square as given
//! (see the `board` module docs). Here are the state's own operations, which the methods of the
//! other files build on: finding a legal move through the cache, pushing one, resetting.

use super::Board;
use super::setup_mode::SetupGame;
use crate::cache::PlyMoves;
use crate::errors::IllegalMoveError;
use crate::moves::uci_of;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use shatranj_chess::{History, MoveList, Position, san};

/// The state behind a Python `Board`, borrowed through [`read`] and [`write`].
pub struct BoardState {
    pub(super) game: History,
    /// Legal moves by ply, valid while `Some` (see the module docs).
    pub(super) cache: Vec<Option<Box<PlyMoves>>>,
    /// The setup and move stack of setup mode (see the module docs); `None` on the hot path.
    pub(super) setup: Option<Box<SetupGame>>,
    /// Castling rights (rook squares) and en-passant square as given, where the position
    /// cleaned them (see the module docs).
    pub(super) raw: RawState,
    /// python-chess's `chess960` flag: castling moves are written as the king taking its own
    /// rook (`b1a1`, `e1h1`), and the position's castling rights may name any rook files.
    pub(super) chess960: bool,
}

/// Castling rights (rook squares) and en-passant square as given, when the position cleaned
/// them (see the module docs).
pub(crate) type RawState = Option<(u64, Option<u8>)>;

impl BoardState {
    pub fn from_history(game: History) -> BoardState {
        BoardState {
            game,
            cache: Vec::new(),
            setup: None,
            raw: None,
            chess960: false,
        }
    }

    /// The position, or `ValueError` in setup mode: for the Rust code outside this module
    /// (engines, planes, perft), which works on legal standard positions only.
    pub fn valid_position(&self) -> PyResult<&Position> {
        match &self.setup {
            None if !self.chess960 => Ok(self.game.position()),
            _ => Err(PyValueError::new_err(
                "this board holds a position the rules do not allow (see Board.status()) or a Chess960 position; it needs a legal standard chess position here",
            )),
        }
    }

    /// The game, or `ValueError` in setup mode (see `valid_position`).
    pub fn valid_history(&self) -> PyResult<&History> {
        self.valid_position()?;
        Ok(&self.game)
    }

    /// The game of a legal board, standard or Chess960, with python-chess's `chess960` flag
    /// (how its castling moves are written), or `ValueError` in setup mode: for the engine,
    /// which plays both.
    pub fn playable_history(&self) -> PyResult<(&History, bool)> {
        match &self.setup {
            None => Ok((&self.game, self.chess960)),
            Some(_) => Err(PyValueError::new_err(
                "this board holds a position the rules do not allow (see Board.status()); it needs a legal position here",
            )),
        }
    }

    pub fn from_position(pos: Position) -> BoardState {
        BoardState::from_history(History::new(pos))
    }

    #[inline]
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    #[inline]
    pub(super) fn stack_len(&self) -> usize {
        self.game.moves().len()
    }

    /// The legal moves of the current position (with their index), from the cache or
    /// generated into it. Boxed: a ply's entry is about a kilobyte, and the Vec of plies
    /// grows by moving pointers.
    #[inline]
    pub(super) fn ply_moves(&mut self) -> &PlyMoves {
        let ply = self.stack_len();
        if self.cache.len() <= ply {
            self.cache.resize_with(ply + 1, || None);
        }
        let pos = self.game.position();
        self.cache[ply].get_or_insert_with(|| Box::new(PlyMoves::new(pos)))
    }

    /// The legal moves of the current position, from the cache or generated into it.
    #[inline]
    pub fn legal(&mut self) -> &MoveList {
        &self.ply_moves().list
    }

    /// The cached legal moves, if this ply has them.
    #[inline]
    pub fn cached_legal(&self) -> Option<&MoveList> {
        self.cache
            .get(self.stack_len())
            .and_then(Option::as_ref)
            .map(|p| &p.list)
    }

    /// The legal move with this Python key, accepting castling written as king-takes-rook
    /// (`e1h1`) as python-chess does.
    #[inline]
    pub fn find_legal(&mut self, key: u16) -> Option<shatranj_chess::Move> {
        // `ply_moves` inlined, so that the position is borrowed beside the cache rather than
        // copied (a copy per `push`).
        let ply = self.stack_len();
        if self.cache.len() <= ply {
            self.cache.resize_with(ply + 1, || None);
        }
        let pos = self.game.position();
        let moves = self.cache[ply].get_or_insert_with(|| Box::new(PlyMoves::new(pos)));
        if self.chess960 {
            moves.find_960(pos, key)
        } else {
            moves.find(pos, key)
        }
    }

    pub(super) fn find_legal_or_raise(&mut self, key: u16) -> PyResult<shatranj_chess::Move> {
        self.find_legal(key).ok_or_else(|| {
            IllegalMoveError::new_err(format!(
                "illegal move {} in {}",
                uci_of(key),
                self.position().fen()
            ))
        })
    }

    /// Plays a legal move.
    #[inline]
    pub fn push_legal(&mut self, m: shatranj_chess::Move) {
        self.raw = None;
        self.game.push_unchecked(m);
        let ply = self.stack_len();
        if let Some(slot) = self.cache.get_mut(ply) {
            *slot = None;
        }
    }

    /// Plays the null move (python-chess's `push(Move.null())`); refused in check.
    pub(super) fn push_null(&mut self) -> PyResult<()> {
        self.raw = None;
        if !self.game.push_null() {
            return Err(IllegalMoveError::new_err(format!(
                "illegal move 0000 (a null move in check) in {}",
                self.position().fen()
            )));
        }
        let ply = self.stack_len();
        if let Some(slot) = self.cache.get_mut(ply) {
            *slot = None;
        }
        Ok(())
    }

    pub(super) fn reset(&mut self, game: History) {
        self.game = game;
        self.cache.clear();
        self.setup = None;
        self.raw = None;
    }

    /// The start position and move list, enough to rebuild the game (pickling, copies).
    pub(super) fn replay(start: Position, moves: &[shatranj_chess::Move]) -> History {
        let mut game = History::new(start);
        for &m in moves {
            game.push_unchecked(m);
        }
        game
    }

    pub(super) fn board_of(&self, py: Python<'_>, game: History) -> PyResult<Py<Board>> {
        let mut state = BoardState::from_history(game);
        state.chess960 = self.chess960;
        Py::new(py, Board::wrap(state))
    }

    /// The Python key of `m`, a legal move of `pos`, on this board (see `resolve::key_in`).
    #[inline]
    pub(super) fn key_in(&self, pos: &Position, m: shatranj_chess::Move) -> u16 {
        crate::resolve::key_in(pos, m, self.chess960)
    }

    /// A Python key read as a move of the current position, as this board reads it
    /// (`None`: a drop, on a Chess960 board).
    pub(super) fn read_key(&self, key: u16) -> Option<shatranj_chess::Move> {
        let pos = self.position();
        if self.chess960 {
            crate::resolve::resolve_960(pos, key)
        } else {
            Some(crate::resolve::resolve(pos, key))
        }
    }

    /// SAN of a legal move, disambiguated against the cached move list.
    pub(super) fn san_of(&mut self, m: shatranj_chess::Move) -> String {
        let pos = *self.position();
        san::to_san_among(&pos, m, self.legal())
    }
}

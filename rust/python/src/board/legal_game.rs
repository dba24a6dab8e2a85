//! `LegalGame`, the hot path's representation (see the `board` module docs): the game
//! (`History`), the per-ply cache of legal moves, and the castling rights and en-passant
//! square as given. Here are its own operations, which its trait implementations in the
//! other files build on: finding a legal move through the cache, pushing one, resetting.

use super::stack::Stack;
use super::{Board, BoardState};
use crate::errors::IllegalMoveError;
use crate::rules::cache::PlyMoves;
use crate::rules::moves::uci_of;
use pyo3::prelude::*;
use shatranj_chess::{History, MoveList, Position, san};

/// A legal position (standard or Chess960) and the moves that led to it.
pub struct LegalGame {
    pub(super) game: History,
    /// Legal moves by ply, valid while `Some` (see the module docs).
    pub(super) cache: Vec<Option<Box<PlyMoves>>>,
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

impl LegalGame {
    pub(super) fn new(game: History, chess960: bool) -> LegalGame {
        LegalGame {
            game,
            cache: Vec::new(),
            raw: None,
            chess960,
        }
    }

    #[inline]
    pub fn position(&self) -> &Position {
        self.game.position()
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

    /// The start position and move list, enough to rebuild the game (pickling, copies).
    pub(super) fn replay(start: Position, moves: &[shatranj_chess::Move]) -> History {
        let mut game = History::new(start);
        for &m in moves {
            game.push_unchecked(m);
        }
        game
    }

    /// A new board over `game`, with this board's `chess960` flag.
    pub(super) fn board_of(&self, py: Python<'_>, game: History) -> PyResult<Py<Board>> {
        Py::new(
            py,
            Board::wrap(BoardState::Legal(LegalGame::new(game, self.chess960))),
        )
    }

    /// The Python key of `m`, a legal move of `pos`, on this board (see `resolve::key_in`).
    #[inline]
    pub(super) fn key_in(&self, pos: &Position, m: shatranj_chess::Move) -> u16 {
        crate::rules::resolve::key_in(pos, m, self.chess960)
    }

    /// A Python key read as a move of the current position, as this board reads it
    /// (`None`: a drop, on a Chess960 board).
    pub(super) fn read_key(&self, key: u16) -> Option<shatranj_chess::Move> {
        let pos = self.position();
        if self.chess960 {
            crate::rules::resolve::resolve_960(pos, key)
        } else {
            Some(crate::rules::resolve::resolve(pos, key))
        }
    }

    /// SAN of a legal move, disambiguated against the cached move list.
    pub(super) fn san_of(&mut self, m: shatranj_chess::Move) -> String {
        let pos = *self.position();
        san::to_san_among(&pos, m, self.legal())
    }

    /// python-chess's equality of two legal positions (see `BoardState::python_eq`).
    pub(super) fn same_position(&self, other: &LegalGame) -> bool {
        let (a, b) = (self.position(), other.position());
        a.board() == b.board()
            && a.turn() == b.turn()
            && a.castling_rights() == b.castling_rights()
            && a.legal_ep_square() == b.legal_ep_square()
            && a.halfmove_clock() == b.halfmove_clock()
            && a.fullmove_number() == b.fullmove_number()
    }
}

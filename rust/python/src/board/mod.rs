//! `Board`: python-chess's `Board` over the rules crate's `History` (a position plus the
//! moves that led to it, with the repetition and clock rules).
//!
//! Layout. The Python class `Board` is frozen and holds a [`BoardState`] in a `GilCell`
//! (`gil_cell.rs`). The state is one *representation* of the position (`state.rs`): a legal
//! position on the hot path ([`LegalGame`], `legal_game.rs`), or a setup-mode board
//! ([`SetupGame`], `setup_mode.rs`); a variant's position would be a third. Each answers
//! python-chess's questions through the concern traits, one per file, each with both
//! implementations side by side: `position.rs` ([`Placement`]: what is on the board, the
//! status), `fen.rs` ([`Fen`]), `query.rs` ([`Query`]: attacks, checks, draws, outcome),
//! `moves.rs` ([`Moves`]: move predicates, push/pop, the move lists), `notation.rs`
//! ([`Notation`]: SAN, LAN, UCI), `stack.rs` ([`Stack`]: the move stack, copies), `export.rs`
//! ([`Export`]: planes, pickling, python-chess), `display.rs` ([`Diagram`]) and `compat.rs`
//! ([`Compat`]: python-chess's extras, written once over the others). A trait's default is
//! the answer of a representation without a game history or a legal position (setup mode's
//! constant `False`, or the error saying the method needs a legal position); the legal game
//! overrides it. The Python methods are generated from one table (`methods.rs`): each line
//! borrows the state, converts the arguments and asks the representation ([`on_rep!`]), so
//! a method is written once per representation and never forwarded by hand. `push` and
//! `pop` skip PyO3's wrappers altogether (`rules/hot_methods.rs`).
//!
//! Speed notes. The legal moves of each ply are cached in `cache[ply]` (with an index, see
//! `rules/cache.rs`) the first time `push`, `is_legal`, `san` and the like need them, so the usual
//! loop `for m in board.legal_moves: board.push(m); ...; board.pop()` generates the parent's
//! moves for the first push only. Pushing to ply `n` invalidates `cache[n]` only, because a
//! position at a ply can only change by a push to that ply (or by a reset, which clears
//! everything). Dispatch on the representation is a `match` the compiler sees through
//! (the enum, not a trait object), so the hot path pays one branch, as before.
//!
//! Setup mode. python-chess's board holds any placement (no king, pawns on the back rank, the
//! side not to move in check); the rules crate's `Position` is always a legal position, and
//! stays the hot path. A FEN or an edit the `Position` refuses puts the board in *setup
//! mode*: a [`SetupGame`], the rules crate's `Setup` (`rules/setup.rs`) with its legal moves and the
//! move stack, from which every method answers. The edits (`set_piece_at`, `set_board_fen`,
//! `board.turn = ...`, `edit.rs`) work on a `Setup` of either representation and resolve the
//! result again (`adopt`): an edit that makes the position legal returns the board to the hot
//! path. A FEN that is legal once its castling rights are cleaned or its impossible
//! en-passant square dropped stays on the hot path: `raw` keeps what was given, for
//! `castling_rights`, `ep_square` and `status()`, until the next move.
//!
//! Chess960. A legal Chess960 position is a `Position` in Chess960 mode on the hot path, with
//! `chess960` set: the one difference the board sees is how castling is written, the king
//! taking its own rook (python-chess's Chess960 convention), where the rules crate keeps the
//! king's destination; `rules/resolve.rs` converts both ways (`key_in`, `resolve_960`), at the
//! boundary only, so push/pop and the move lists cost what they cost in standard chess.
//!
//! Differences from python-chess, all deliberate: `push` refuses illegal moves (python-chess
//! trusts the caller).

mod compat;
mod display;
mod edit;
mod epd;
mod export;
mod fen;
mod legal_game;
mod methods;
mod moves;
mod notation;
mod position;
mod query;
mod setup_mode;
mod stack;
mod state;

pub(crate) use export::Export;
pub(crate) use fen::{Fen, ep_mode};
pub(crate) use moves::Moves;
pub(crate) use query::Query;
pub use state::BoardState;

use crate::gil_cell::{GilCell, GilRef, GilRefMut};
use pyo3::prelude::*;
use shatranj_chess::{History, Position};

/// python-chess's `STARTING_FEN`.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A chess board: a position and the moves that led to it, with python-chess's `Board` API.
/// `Board()` is the start position, `Board(fen)` any position (`Board(None)` an empty board),
/// and `chess960=True` makes a Chess960 board.
//
// A frozen class whose state sits in a [`GilCell`], so that a method call checks a plain
// borrow flag instead of PyO3's atomic one (a `lock cmpxchg` per call, about a sixth of
// `push` + `pop`). Its allocation and deallocation slots are a free list's
// (`rules/board_freelist.rs`). (A plain comment: the `///` lines above are Python's
// `Board.__doc__`.)
#[pyclass(module = "shatranj", frozen)]
pub struct Board {
    state: GilCell<BoardState>,
}

impl Board {
    pub(super) fn wrap(state: BoardState) -> Board {
        Board {
            state: GilCell::new(state),
        }
    }

    pub fn from_history(game: History) -> Board {
        Board::wrap(BoardState::from_history(game))
    }

    pub fn from_position(pos: Position) -> Board {
        Board::wrap(BoardState::from_position(pos))
    }

    /// `Board(fen, chess960=...)`: the PyO3 constructor's body, and the whole of the usual
    /// `Board(fen)` and `Board()` calls, which `rules/hot_new.rs` answers without PyO3's
    /// argument parsing.
    pub(crate) fn construct(fen: Option<&str>, chess960: bool) -> PyResult<Board> {
        match fen {
            Some(STARTING_FEN) if !chess960 => Ok(Board::from_position(Position::new())),
            Some(text) if !chess960 => match shatranj_chess::fen::parse(text) {
                Ok(pos) => Ok(Board::from_position(pos)),
                // What python-chess cannot load either keeps the rules crate's typed error.
                Err(e) => BoardState::lenient(fen, false)
                    .map(Board::wrap)
                    .map_err(|_| crate::errors::fen_error(e)),
            },
            _ => BoardState::lenient(fen, chess960).map(Board::wrap),
        }
    }
}

/// Reads a board's state (`RuntimeError` while a method changes it).
#[inline]
pub fn read<'a>(board: &'a Bound<'_, Board>) -> PyResult<GilRef<'a, BoardState>> {
    board.get().state.borrow(board.py())
}

/// Changes a board's state (`RuntimeError` while a method uses it).
#[inline]
pub fn write<'a>(board: &'a Bound<'_, Board>) -> PyResult<GilRefMut<'a, BoardState>> {
    board.get().state.borrow_mut(board.py())
}

/// `on_rep!(state, r => body)`: `body` with `r` bound to the representation `state` holds
/// (`&BoardState` gives `&`, `&mut BoardState` gives `&mut`): the one place a board
/// branches on its representation, so that a variant's is one more arm here. Each arm is
/// compiled for its own type, so the trait methods are called statically and inlined.
macro_rules! on_rep {
    ($state:expr, $r:ident => $body:expr) => {
        match $state {
            $crate::board::BoardState::Legal($r) => $body,
            $crate::board::BoardState::Setup($r) => $body,
        }
    };
}
pub(crate) use on_rep;

//! `Board`: python-chess's `Board` over the rules crate's `History` (a position plus the
//! moves that led to it, with the repetition and clock rules).
//!
//! Speed notes. The legal moves of each ply are cached in `cache[ply]` (with an index, see
//! `cache.rs`) the first time `push`, `is_legal`, `san` and the like need them, so the usual
//! loop `for m in board.legal_moves: board.push(m); ...; board.pop()` generates the parent's
//! moves for the first push only. Pushing to ply `n` invalidates `cache[n]` only, because a
//! position at a ply can only change by a push to that ply (or by a reset, which clears
//! everything).
//!
//! Layout. The Python class `Board` is frozen and holds a `BoardState` in a `GilCell`
//! (`gil_cell.rs`): each `#[pymethods]` entry borrows the state through `read` or `write` and
//! calls the method of the same name on `BoardState`, where the work is done. `push` and
//! `pop` skip PyO3's wrappers altogether (`hot_methods.rs`). This file holds the class and its
//! one `#[pymethods]` block (PyO3 allows one per class without its `multiple-pymethods`
//! feature, which would add the `inventory` crate and link-time registration for no gain at
//! run time); the state and its methods are split by concern: `state.rs` (the state, the
//! move cache, push), `setup_mode.rs` (setup mode, the edits), `position.rs` (what is
//! on the board, equality), `fen.rs`, `query.rs` (attacks, checks, draws, outcome), `moves.rs`
//! (move predicates, push/pop, the move lists), `notation.rs` (SAN, LAN, UCI), `stack.rs` (the
//! move stack, copies), `export.rs` (planes, pickling, python-chess) and `display.rs`.
//!
//! Setup mode. python-chess's board holds any placement (no king, pawns on the back rank, the
//! side not to move in check); the rules crate's `Position` is always a legal position, and
//! stays the hot path. A FEN or an edit the `Position` refuses
//! puts the board in *setup mode*: `setup` then holds a [`setup_mode::SetupGame`], the rules
//! crate's `Setup` (`setup.rs`) with its legal moves and the move stack, from which every
//! method answers (each method's first line checks; on the hot path that is one untaken
//! branch). The edits (`set_piece_at`, `set_board_fen`, `board.turn = ...`) work on a `Setup`
//! of either kind of board and resolve the result again (`setup_mode.rs`: `adopt`): an edit
//! that makes the position legal returns the board to the hot path. A FEN that is legal once
//! its castling rights are cleaned or its impossible en-passant square dropped stays on the hot
//! path: `raw` keeps what was given, for `castling_rights`, `ep_square` and `status()`, until
//! the next move.
//!
//! Chess960. A legal Chess960 position is a `Position` in Chess960 mode on the hot path, with
//! `chess960` set: the one difference the board sees is how castling is written, the king
//! taking its own rook (python-chess's Chess960 convention), where the rules crate keeps the
//! king's destination; `resolve.rs` converts both ways (`key_in`, `resolve_960`), at the
//! boundary only, so push/pop and the move lists cost what they cost in standard chess.
//!
//! Differences from python-chess, all deliberate: `push` refuses illegal moves (python-chess

mod compat;
mod display;
mod epd;
mod export;
mod fen;
mod moves;
mod notation;
mod position;
mod query;
mod setup_mode;
mod stack;
mod state;

pub(crate) use fen::ep_mode;
pub use state::BoardState;

use compat::MoveFilter;

use crate::errors::fen_error;
use crate::gil_cell::{GilCell, GilRef, GilRefMut};
use crate::legal::{LegalMoveGenerator, PseudoLegalMoveGenerator};
use crate::moves::Move;
use crate::piece;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{IntoPyDict, PyDict, PyList, PyType};
use shatranj_chess::{History, Position};

/// python-chess's `STARTING_FEN`.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A chess board: a position and the moves that led to it, with python-chess's `Board` API.
/// `Board()` is the start position, `Board(fen)` any position (`Board(None)` an empty board),
/// and `chess960=True` makes a Chess960 board.
//
// A frozen class whose state sits in a [`GilCell`], so that a method call checks a plain
// borrow flag instead of PyO3's atomic one (a `lock cmpxchg` per call, about a sixth of
// `push` + `pop`). (A plain comment: the `///` lines above are Python's `Board.__doc__`.)
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

    pub(super) fn with_setup(game: setup_mode::SetupGame) -> Board {
        Board::wrap(BoardState::with_setup(game))
    }

    pub(super) fn lenient(fen: Option<&str>, chess960: bool) -> PyResult<Board> {
        BoardState::lenient(fen, chess960).map(Board::wrap)
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

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (fen = Some(STARTING_FEN), *, chess960 = false))]
    fn new(fen: Option<&str>, chess960: bool) -> PyResult<Self> {
        match fen {
            Some(STARTING_FEN) if !chess960 => Ok(Board::from_position(Position::new())),
            Some(text) if !chess960 => match shatranj_chess::fen::parse(text) {
                Ok(pos) => Ok(Board::from_position(pos)),
                // What python-chess cannot load either keeps the rules crate's typed error.
                Err(e) => Board::lenient(fen, false).map_err(|_| fen_error(e)),
            },
            _ => Board::lenient(fen, chess960),
        }
    }

    /// A copy of setup mode's current setup (a `Setup`), or `None` on the hot path (see the
    /// module docs).
    #[getter]
    fn _setup(slf: &Bound<'_, Self>) -> PyResult<Option<crate::setup::PySetup>> {
        Ok(read(slf)?._setup())
    }

    #[setter]
    fn set_castling_rights(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        write(slf)?.set_attribute("castling_rights", value)
    }

    #[setter]
    fn set_chess960(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        write(slf)?.set_attribute("chess960", value)
    }

    #[setter]
    fn set_turn(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        write(slf)?.set_attribute("turn", value)
    }

    #[setter]
    fn set_ep_square(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        write(slf)?.set_attribute("ep_square", value)
    }

    #[setter]
    fn set_halfmove_clock(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        write(slf)?.set_attribute("halfmove_clock", value)
    }

    #[setter]
    fn set_fullmove_number(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        write(slf)?.set_attribute("fullmove_number", value)
    }

    // ----- the position ------------------------------------------------------------------

    #[getter]
    fn turn(slf: &Bound<'_, Self>) -> PyResult<bool> {
        read(slf)?.turn()
    }

    /// Rook squares of the remaining castling rights, as python-chess's bitmask.
    #[getter]
    fn castling_rights(slf: &Bound<'_, Self>) -> PyResult<u64> {
        read(slf)?.castling_rights()
    }

    fn has_castling_rights(slf: &Bound<'_, Self>, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        read(slf)?.has_castling_rights(color)
    }

    fn has_kingside_castling_rights(
        slf: &Bound<'_, Self>,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        read(slf)?.has_kingside_castling_rights(color)
    }

    fn has_queenside_castling_rights(
        slf: &Bound<'_, Self>,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        read(slf)?.has_queenside_castling_rights(color)
    }

    /// Set after every double pawn step, capture possible or not, as in python-chess.
    #[getter]
    fn ep_square(slf: &Bound<'_, Self>) -> PyResult<Option<u8>> {
        read(slf)?.ep_square()
    }

    #[getter]
    fn halfmove_clock(slf: &Bound<'_, Self>) -> PyResult<u32> {
        read(slf)?.halfmove_clock()
    }

    #[getter]
    fn fullmove_number(slf: &Bound<'_, Self>) -> PyResult<u32> {
        read(slf)?.fullmove_number()
    }

    #[getter]
    fn occupied(slf: &Bound<'_, Self>) -> PyResult<u64> {
        read(slf)?.occupied()
    }

    /// `[black, white]` occupancy, indexable by colour as in python-chess.
    #[getter]
    fn occupied_co(slf: &Bound<'_, Self>) -> PyResult<[u64; 2]> {
        read(slf)?.occupied_co()
    }

    #[getter]
    fn pawns(slf: &Bound<'_, Self>) -> PyResult<u64> {
        read(slf)?.pawns()
    }
    #[getter]
    fn knights(slf: &Bound<'_, Self>) -> PyResult<u64> {
        read(slf)?.knights()
    }
    #[getter]
    fn bishops(slf: &Bound<'_, Self>) -> PyResult<u64> {
        read(slf)?.bishops()
    }
    #[getter]
    fn rooks(slf: &Bound<'_, Self>) -> PyResult<u64> {
        read(slf)?.rooks()
    }
    #[getter]
    fn queens(slf: &Bound<'_, Self>) -> PyResult<u64> {
        read(slf)?.queens()
    }
    #[getter]
    fn kings(slf: &Bound<'_, Self>) -> PyResult<u64> {
        read(slf)?.kings()
    }

    /// python-chess's `chess960` flag (castling written as the king taking its own rook).
    #[getter]
    fn chess960(slf: &Bound<'_, Self>) -> PyResult<bool> {
        read(slf)?.chess960()
    }

    #[pyo3(signature = (*, shredder = false, en_passant = "legal", promoted = None))]
    fn fen(
        slf: &Bound<'_, Self>,
        shredder: bool,
        en_passant: &str,
        promoted: Option<bool>,
    ) -> PyResult<String> {
        read(slf)?.fen(shredder, en_passant, promoted)
    }

    /// The EPD of the position (FEN without the clocks), then ``operations`` written as
    /// ``opcode operand;``: moves in SAN (a sorted set for ``bm``/``am``, a line for ``pv``),
    /// numbers, quoted strings, or ``None`` for a bare opcode.
    #[pyo3(signature = (*, shredder = false, en_passant = "legal", promoted = None, **operations))]
    fn epd(
        slf: &Bound<'_, Self>,
        shredder: bool,
        en_passant: &str,
        promoted: Option<bool>,
        operations: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<String> {
        let position = read(slf)?.epd(shredder, en_passant, promoted)?;
        match operations {
            Some(operations) if !operations.is_empty() => {
                epd::epd_with_operations(slf, position, operations)
            }
            _ => Ok(position),
        }
    }

    /// Sets the position of an EPD line and returns its operations (``hmvc`` and ``fmvn``
    /// set the clocks); the move stack is cleared.
    fn set_epd<'py>(slf: &Bound<'py, Self>, epd: &str) -> PyResult<Bound<'py, PyDict>> {
        epd::set_epd(slf, epd)
    }

    /// A new board at an EPD's position, and its operations.
    #[classmethod]
    #[pyo3(signature = (epd, *, chess960 = false))]
    fn from_epd<'py>(
        cls: &Bound<'py, PyType>,
        epd: &str,
        chess960: bool,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        epd::from_epd(cls, epd, chess960)
    }

    #[pyo3(signature = (*, promoted = false))]
    fn board_fen(slf: &Bound<'_, Self>, promoted: Option<bool>) -> PyResult<String> {
        read(slf)?.board_fen(promoted)
    }

    #[pyo3(signature = (fen))]
    fn set_fen(slf: &Bound<'_, Self>, fen: &str) -> PyResult<()> {
        write(slf)?.set_fen(fen)
    }

    /// Back to the start position, with an empty move stack.
    fn reset_board(slf: &Bound<'_, Self>) -> PyResult<()> {
        write(slf)?.reset_board();
        Ok(())
    }

    fn piece_at<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        square: i64,
    ) -> PyResult<Option<Bound<'py, piece::Piece>>> {
        read(slf)?.piece_at(py, square)
    }

    /// `{square: piece}` for every piece on `mask` (every square by default), as python-chess.
    #[pyo3(signature = (*, mask = u64::MAX))]
    fn piece_map<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        mask: u64,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        read(slf)?.piece_map(py, mask)
    }

    fn piece_type_at(slf: &Bound<'_, Self>, square: i64) -> PyResult<Option<u8>> {
        read(slf)?.piece_type_at(square)
    }

    fn color_at(slf: &Bound<'_, Self>, square: i64) -> PyResult<Option<bool>> {
        read(slf)?.color_at(square)
    }

    fn king(slf: &Bound<'_, Self>, color: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
        read(slf)?.king(color)
    }

    fn pieces_mask(
        slf: &Bound<'_, Self>,
        piece_type: i64,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<u64> {
        read(slf)?.pieces_mask(piece_type, color)
    }

    fn pieces<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        piece_type: i64,
        color: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        read(slf)?.pieces(py, piece_type, color)
    }

    fn attackers_mask(
        slf: &Bound<'_, Self>,
        color: &Bound<'_, PyAny>,
        square: i64,
    ) -> PyResult<u64> {
        read(slf)?.attackers_mask(color, square)
    }

    fn attackers<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        color: &Bound<'py, PyAny>,
        square: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        read(slf)?.attackers(py, color, square)
    }

    fn is_attacked_by(
        slf: &Bound<'_, Self>,
        color: &Bound<'_, PyAny>,
        square: i64,
    ) -> PyResult<bool> {
        read(slf)?.is_attacked_by(color, square)
    }

    fn is_pinned(slf: &Bound<'_, Self>, color: &Bound<'_, PyAny>, square: i64) -> PyResult<bool> {
        read(slf)?.is_pinned(color, square)
    }

    /// The line a pinned piece may move along, or every square when it is not pinned.
    fn pin<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        color: &Bound<'py, PyAny>,
        square: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        read(slf)?.pin(py, color, square)
    }

    fn checkers<'py>(slf: &Bound<'_, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        read(slf)?.checkers(py)
    }

    fn is_check(slf: &Bound<'_, Self>) -> PyResult<bool> {
        read(slf)?.is_check()
    }

    fn is_checkmate(slf: &Bound<'_, Self>) -> PyResult<bool> {
        read(slf)?.is_checkmate()
    }

    fn is_stalemate(slf: &Bound<'_, Self>) -> PyResult<bool> {
        read(slf)?.is_stalemate()
    }

    fn is_insufficient_material(slf: &Bound<'_, Self>) -> PyResult<bool> {
        read(slf)?.is_insufficient_material()
    }

    fn has_insufficient_material(
        slf: &Bound<'_, Self>,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        read(slf)?.has_insufficient_material(color)
    }

    /// Whether `color` can still checkmate by any sequence of legal moves (FIDE R4.9): never
    /// `False` while a mating sequence exists; `True` when unsure.
    fn can_checkmate(slf: &Bound<'_, Self>, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        read(slf)?.can_checkmate(color)
    }

    /// Whether neither side can checkmate by any sequence of legal moves (FIDE R4.6).
    fn is_dead_position(slf: &Bound<'_, Self>) -> PyResult<bool> {
        read(slf)?.is_dead_position()
    }

    /// Why `can_checkmate(color)` answers as it does: a `Winnability` whose `kind` is
    /// "unwinnable" (with the `proof`), "helpmate" (with the `line` of moves to the mate) or
    /// "unknown" (within the search budget; counted as "can"). `full=True` asks the full
    /// tier (CHA's solver where ours is undecided): practically always decided, in
    /// microseconds on real positions but up to seconds on hard constructed ones (the GIL
    /// is released meanwhile); `SolverError` when the solver cannot take the position.
    #[pyo3(signature = (color, full = false))]
    fn winnability<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        color: &Bound<'py, PyAny>,
        full: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        read(slf)?.winnability(py, color, full)
    }

    fn has_legal_en_passant(slf: &Bound<'_, Self>) -> PyResult<bool> {
        read(slf)?.has_legal_en_passant()
    }

    #[pyo3(signature = (count = 3))]
    fn is_repetition(slf: &Bound<'_, Self>, count: i64) -> PyResult<bool> {
        read(slf)?.is_repetition(count)
    }

    fn can_claim_threefold_repetition(slf: &Bound<'_, Self>) -> PyResult<bool> {
        read(slf)?.can_claim_threefold_repetition()
    }

    fn can_claim_fifty_moves(slf: &Bound<'_, Self>) -> PyResult<bool> {
        read(slf)?.can_claim_fifty_moves()
    }

    fn can_claim_draw(slf: &Bound<'_, Self>) -> PyResult<bool> {
        read(slf)?.can_claim_draw()
    }

    fn is_fifty_moves(slf: &Bound<'_, Self>) -> PyResult<bool> {
        read(slf)?.is_fifty_moves()
    }

    fn is_fivefold_repetition(slf: &Bound<'_, Self>) -> PyResult<bool> {
        read(slf)?.is_fivefold_repetition()
    }

    fn is_seventyfive_moves(slf: &Bound<'_, Self>) -> PyResult<bool> {
        read(slf)?.is_seventyfive_moves()
    }

    #[pyo3(signature = (*, claim_draw = false))]
    fn outcome<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        claim_draw: bool,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        read(slf)?.outcome(py, claim_draw)
    }

    #[pyo3(signature = (*, claim_draw = false))]
    fn is_game_over(slf: &Bound<'_, Self>, claim_draw: bool) -> PyResult<bool> {
        read(slf)?.is_game_over(claim_draw)
    }

    #[pyo3(signature = (*, claim_draw = false))]
    fn result(slf: &Bound<'_, Self>, claim_draw: bool) -> PyResult<String> {
        read(slf)?.result(claim_draw)
    }

    // ----- moves --------------------------------------------------------------------------

    #[getter]
    fn legal_moves(slf: &Bound<'_, Self>) -> LegalMoveGenerator {
        LegalMoveGenerator::new(slf.clone().unbind())
    }

    #[getter]
    fn pseudo_legal_moves(slf: &Bound<'_, Self>) -> PseudoLegalMoveGenerator {
        PseudoLegalMoveGenerator::new(slf.clone().unbind())
    }

    /// Does the move follow the pieces' movement rules (own king safety aside)?
    fn is_pseudo_legal(slf: &Bound<'_, Self>, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        read(slf)?.is_pseudo_legal(r#move)
    }

    /// An iterator over the legal moves from `from_mask` to `to_mask` (python-chess's
    /// masks: castling is selected by its king's and its rook's squares).
    #[pyo3(signature = (from_mask = None, to_mask = None), text_signature = "(self, from_mask=18446744073709551615, to_mask=18446744073709551615)")]
    fn generate_legal_moves<'py>(
        slf: &Bound<'py, Self>,
        from_mask: Option<&Bound<'_, PyAny>>,
        to_mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        compat::generate(slf, false, from_mask, to_mask, MoveFilter::Any)
    }

    fn is_legal(slf: &Bound<'_, Self>, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        write(slf)?.is_legal(r#move)
    }

    fn is_capture(slf: &Bound<'_, Self>, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        read(slf)?.is_capture(r#move)
    }

    fn is_en_passant(slf: &Bound<'_, Self>, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        read(slf)?.is_en_passant(r#move)
    }

    fn is_castling(slf: &Bound<'_, Self>, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        read(slf)?.is_castling(r#move)
    }

    fn is_kingside_castling(slf: &Bound<'_, Self>, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        read(slf)?.is_kingside_castling(r#move)
    }

    fn is_queenside_castling(slf: &Bound<'_, Self>, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        read(slf)?.is_queenside_castling(r#move)
    }

    fn is_zeroing(slf: &Bound<'_, Self>, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        read(slf)?.is_zeroing(r#move)
    }

    /// Does the move give check? Illegal moves give no check here.
    fn gives_check(slf: &Bound<'_, Self>, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        write(slf)?.gives_check(r#move)
    }

    // `push` and `pop` are plain CPython methods (`hot_methods.rs`).

    fn peek<'py>(slf: &Bound<'_, Self>, py: Python<'py>) -> PyResult<Bound<'py, Move>> {
        read(slf)?.peek(py)
    }

    #[getter]
    fn move_stack<'py>(slf: &Bound<'_, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        read(slf)?.move_stack(py)
    }

    /// python-chess's ply: half-moves since the start of the game, from the FEN's counters.
    fn ply(slf: &Bound<'_, Self>) -> PyResult<u32> {
        read(slf)?.ply()
    }

    fn clear_stack(slf: &Bound<'_, Self>) -> PyResult<()> {
        write(slf)?.clear_stack()
    }

    fn root(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<Py<Board>> {
        read(slf)?.root(py)
    }

    /// A copy; `stack` is `True` (whole move stack), `False` (none) or the number of last
    /// moves to keep.
    #[pyo3(signature = (*, stack = None))]
    fn copy(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        stack: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<Board>> {
        read(slf)?.copy(py, stack)
    }

    fn __copy__(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<Py<Board>> {
        read(slf)?.__copy__(py)
    }

    fn __deepcopy__(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        _memo: &Bound<'_, PyAny>,
    ) -> PyResult<Py<Board>> {
        read(slf)?.__deepcopy__(py, _memo)
    }

    /// The board with colours swapped and the position flipped; the stack is dropped.
    fn mirror(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<Py<Board>> {
        read(slf)?.mirror(py)
    }

    fn san(slf: &Bound<'_, Self>, r#move: &Bound<'_, Move>) -> PyResult<String> {
        write(slf)?.san(r#move)
    }

    fn lan(slf: &Bound<'_, Self>, r#move: &Bound<'_, Move>) -> PyResult<String> {
        write(slf)?.lan(r#move)
    }

    fn san_and_push(slf: &Bound<'_, Self>, r#move: &Bound<'_, Move>) -> PyResult<String> {
        write(slf)?.san_and_push(r#move)
    }

    /// `1. e4 e5 2. Nf3`, for moves played from this position (the board is not changed).
    fn variation_san(slf: &Bound<'_, Self>, variation: &Bound<'_, PyAny>) -> PyResult<String> {
        read(slf)?.variation_san(variation)
    }

    fn parse_san<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        san: &str,
    ) -> PyResult<Bound<'py, Move>> {
        read(slf)?.parse_san(py, san)
    }

    fn push_san<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        san: &str,
    ) -> PyResult<Bound<'py, Move>> {
        write(slf)?.push_san(py, san)
    }

    fn parse_uci<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        uci: &str,
    ) -> PyResult<Bound<'py, Move>> {
        read(slf)?.parse_uci(py, uci)
    }

    fn push_uci<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        uci: &str,
    ) -> PyResult<Bound<'py, Move>> {
        write(slf)?.push_uci(py, uci)
    }

    /// The legal move from `from_square` to `to_square`; a pawn reaching the last rank
    /// becomes a queen unless `promotion` says otherwise (python-chess's `find_move`).
    #[pyo3(signature = (from_square, to_square, promotion = None))]
    fn find_move<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        from_square: i64,
        to_square: i64,
        promotion: Option<i64>,
    ) -> PyResult<Bound<'py, Move>> {
        write(slf)?.find_move(py, from_square, to_square, promotion)
    }

    /// The Polyglot key of the position (see `shatranj.polyglot.zobrist_hash`).
    fn zobrist_hash(slf: &Bound<'_, Self>) -> PyResult<u64> {
        read(slf)?.zobrist_hash()
    }

    // ----- conversions --------------------------------------------------------------------

    /// `(12, 8, 8)` uint8 planes: white P N B R Q K, then black; `planes[p, rank, file]`.
    fn to_planes<'py>(slf: &Bound<'_, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        read(slf)?.to_planes(py)
    }

    /// `(13,)` uint8 features: side to move (1 = White), castling K Q k q, then a one-hot
    /// file of the en-passant square when an en-passant capture is legal.
    fn features<'py>(slf: &Bound<'_, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        read(slf)?.features(py)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        export::reduce(slf)
    }

    fn __setstate__(slf: &Bound<'_, Self>, state: &str) -> PyResult<()> {
        write(slf)?.__setstate__(state)
    }

    /// A board with the same start position and moves as the python-chess board `board`.
    #[classmethod]
    fn from_chess(_cls: &Bound<'_, PyType>, board: &Bound<'_, PyAny>) -> PyResult<Board> {
        export::from_chess(board)
    }

    /// The same game as a python-chess `chess.Board` (python-chess must be installed).
    fn to_chess<'py>(slf: &Bound<'_, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        read(slf)?.to_chess(py)
    }

    // ----- python-chess's extras (compat.rs) ------------------------------------------------
    // The `generate_*` masks default to python-chess's `BB_ALL` (the number in their
    // signatures); `None` reads as `BB_ALL` too.

    /// python-chess's UCI name of the variant.
    #[classattr]
    fn uci_variant() -> &'static str {
        "chess"
    }

    /// python-chess's XBoard name of the variant.
    #[classattr]
    fn xboard_variant() -> &'static str {
        "normal"
    }

    /// An empty board (python-chess's ``Board.empty()``).
    #[classmethod]
    #[pyo3(signature = (*, chess960 = false))]
    fn empty<'py>(cls: &Bound<'py, PyType>, chess960: bool) -> PyResult<Bound<'py, PyAny>> {
        let kwargs = [("chess960", chess960)].into_py_dict(cls.py())?;
        cls.call((None::<&str>,), Some(&kwargs))
    }

    /// The standard start position (python-chess's ``reset``).
    fn reset(slf: &Bound<'_, Self>) -> PyResult<()> {
        write(slf)?.set_fen(STARTING_FEN)
    }

    /// The FEN with Shredder-FEN castling (rook files: ``HAha``).
    #[pyo3(signature = (*, en_passant = "legal", promoted = None))]
    fn shredder_fen(
        slf: &Bound<'_, Self>,
        en_passant: &str,
        promoted: Option<bool>,
    ) -> PyResult<String> {
        read(slf)?.fen(true, en_passant, promoted)
    }

    /// ``move`` as XBoard writes it: coordinates (``@@@@`` for the null move), and
    /// ``O-O``/``O-O-O`` for castling on a Chess960 board.
    #[pyo3(signature = (r#move, chess960 = None))]
    fn xboard(
        slf: &Bound<'_, Self>,
        r#move: &Bound<'_, Move>,
        chess960: Option<bool>,
    ) -> PyResult<String> {
        read(slf)?.xboard(r#move, chess960)
    }

    /// A move as XBoard engines write it (SAN or coordinates).
    fn parse_xboard<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        xboard: &str,
    ) -> PyResult<Bound<'py, Move>> {
        read(slf)?.parse_san(py, xboard)
    }

    /// Plays a move written as XBoard engines write it; returns it.
    fn push_xboard<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        xboard: &str,
    ) -> PyResult<Bound<'py, Move>> {
        write(slf)?.push_san(py, xboard)
    }

    #[pyo3(signature = (from_mask = None, to_mask = None), text_signature = "(self, from_mask=18446744073709551615, to_mask=18446744073709551615)")]
    fn generate_pseudo_legal_moves<'py>(
        slf: &Bound<'py, Self>,
        from_mask: Option<&Bound<'_, PyAny>>,
        to_mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        compat::generate(slf, true, from_mask, to_mask, MoveFilter::Any)
    }

    #[pyo3(signature = (from_mask = None, to_mask = None), text_signature = "(self, from_mask=18446744073709551615, to_mask=18446744073709551615)")]
    fn generate_pseudo_legal_captures<'py>(
        slf: &Bound<'py, Self>,
        from_mask: Option<&Bound<'_, PyAny>>,
        to_mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        compat::generate(slf, true, from_mask, to_mask, MoveFilter::Capture)
    }

    #[pyo3(signature = (from_mask = None, to_mask = None), text_signature = "(self, from_mask=18446744073709551615, to_mask=18446744073709551615)")]
    fn generate_legal_captures<'py>(
        slf: &Bound<'py, Self>,
        from_mask: Option<&Bound<'_, PyAny>>,
        to_mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        compat::generate(slf, false, from_mask, to_mask, MoveFilter::Capture)
    }

    #[pyo3(signature = (from_mask = None, to_mask = None), text_signature = "(self, from_mask=18446744073709551615, to_mask=18446744073709551615)")]
    fn generate_pseudo_legal_ep<'py>(
        slf: &Bound<'py, Self>,
        from_mask: Option<&Bound<'_, PyAny>>,
        to_mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        compat::generate(slf, true, from_mask, to_mask, MoveFilter::EnPassant)
    }

    #[pyo3(signature = (from_mask = None, to_mask = None), text_signature = "(self, from_mask=18446744073709551615, to_mask=18446744073709551615)")]
    fn generate_legal_ep<'py>(
        slf: &Bound<'py, Self>,
        from_mask: Option<&Bound<'_, PyAny>>,
        to_mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        compat::generate(slf, false, from_mask, to_mask, MoveFilter::EnPassant)
    }

    /// Castling moves, selected as python-chess selects them: ``from_mask`` must hold the
    /// king and ``to_mask`` the rook it castles with (king takes rook).
    #[pyo3(signature = (from_mask = None, to_mask = None), text_signature = "(self, from_mask=18446744073709551615, to_mask=18446744073709551615)")]
    fn generate_castling_moves<'py>(
        slf: &Bound<'py, Self>,
        from_mask: Option<&Bound<'_, PyAny>>,
        to_mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        compat::generate(slf, false, from_mask, to_mask, MoveFilter::Castling)
    }

    fn has_pseudo_legal_en_passant(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<bool> {
        write(slf)?.has_pseudo_legal_en_passant(py)
    }

    /// The squares the piece on ``square`` attacks (empty for an empty square).
    fn attacks_mask(slf: &Bound<'_, Self>, square: i64) -> PyResult<u64> {
        read(slf)?.attacks_mask(square)
    }

    fn attacks<'py>(slf: &Bound<'py, Self>, square: i64) -> PyResult<Bound<'py, PyAny>> {
        compat::attacks(slf, square)
    }

    /// Whether the move can never be undone: a capture or pawn move, a loss of castling
    /// rights, or the passing of a legal en passant chance (python-chess's definition).
    fn is_irreversible(slf: &Bound<'_, Self>, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        read(slf)?.is_irreversible(r#move)
    }

    /// Mirrors the board in place (colours swapped, ranks flipped); the stack is cleared.
    fn apply_mirror(slf: &Bound<'_, Self>) -> PyResult<()> {
        compat::apply_mirror(slf)
    }

    /// A copy with every bitboard passed through ``f`` (``chess.flip_vertical`` …); the
    /// side to move and the clocks are kept, castling rights and en passant are not.
    fn transform(slf: &Bound<'_, Self>, f: &Bound<'_, PyAny>) -> PyResult<Py<Board>> {
        compat::transform(slf, f)
    }

    fn apply_transform(slf: &Bound<'_, Self>, f: &Bound<'_, PyAny>) -> PyResult<()> {
        compat::apply_transform(slf, f)
    }

    /// The Chess960 start position index of the board, or ``None``.
    #[pyo3(signature = (*, ignore_turn = false, ignore_castling = false, ignore_counters = true))]
    fn chess960_pos(
        slf: &Bound<'_, Self>,
        ignore_turn: bool,
        ignore_castling: bool,
        ignore_counters: bool,
    ) -> PyResult<Option<u32>> {
        let _ = ignore_castling;
        read(slf)?.chess960_pos(ignore_turn, ignore_counters)
    }

    // ----- edits (setup_mode.rs): any placement; the move stack is cleared ----------------

    /// Puts ``piece`` (or nothing, for ``None``) on ``square``; any placement is allowed
    /// (``status()`` says what is wrong). The move stack is cleared, as in python-chess.
    #[pyo3(signature = (square, piece, promoted = false))]
    fn set_piece_at(
        slf: &Bound<'_, Self>,
        square: &Bound<'_, PyAny>,
        piece: Option<&Bound<'_, PyAny>>,
        promoted: bool,
    ) -> PyResult<()> {
        let square = setup_mode::square_of(square)?;
        let piece = piece
            .filter(|p| !p.is_none())
            .map(setup_mode::piece_of)
            .transpose()?;
        write(slf)?.set_piece_at(square, piece, promoted)
    }

    /// Removes and returns the piece on ``square`` (``None`` if empty).
    fn remove_piece_at<'py>(
        slf: &Bound<'py, Self>,
        square: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, piece::Piece>>> {
        let square = setup_mode::square_of(square)?;
        let piece = read(slf)?.piece_at(slf.py(), square)?;
        write(slf)?.set_piece_at(square, None, false)?;
        Ok(piece)
    }

    fn set_piece_map(slf: &Bound<'_, Self>, pieces: &Bound<'_, PyAny>) -> PyResult<()> {
        let placed = setup_mode::piece_map(pieces)?;
        write(slf)?.set_piece_map(placed)
    }

    /// Sets the placement (the first FEN field); turn, castling rights and clocks stay.
    fn set_board_fen(slf: &Bound<'_, Self>, fen: &str) -> PyResult<()> {
        write(slf)?.set_board_fen(fen)
    }

    fn clear_board(slf: &Bound<'_, Self>) -> PyResult<()> {
        write(slf)?.clear_board()
    }

    /// An empty board, White to move, no castling rights or en-passant square, clocks reset.
    fn clear(slf: &Bound<'_, Self>) -> PyResult<()> {
        write(slf)?.clear();
        Ok(())
    }

    fn set_castling_fen(slf: &Bound<'_, Self>, castling_fen: &str) -> PyResult<()> {
        write(slf)?.set_castling_fen(castling_fen)
    }

    /// The castling rights that can be used: each right's rook and king on their squares.
    fn clean_castling_rights(slf: &Bound<'_, Self>) -> PyResult<u64> {
        read(slf)?.clean_castling_rights()
    }

    /// Whether the castling rights include one that only Chess960 has (a king off the
    /// e-file, or a rook off the corners).
    fn has_chess960_castling_rights(slf: &Bound<'_, Self>) -> PyResult<bool> {
        Ok(read(slf)?.has_chess960_castling_rights())
    }

    /// What is wrong with the position, as python-chess's ``STATUS_*`` flags
    /// (``STATUS_VALID``, 0, when nothing is).
    fn status<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        read(slf)?.status(slf.py())
    }

    fn is_valid(slf: &Bound<'_, Self>) -> PyResult<bool> {
        Ok(read(slf)?.is_valid())
    }

    #[getter]
    fn promoted(slf: &Bound<'_, Self>) -> PyResult<u64> {
        Ok(read(slf)?.promoted())
    }

    /// Chess960 start position ``scharnagl`` (0..959) on a Chess960 board.
    #[classmethod]
    fn from_chess960_pos<'py>(
        cls: &Bound<'py, PyType>,
        scharnagl: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        setup_mode::from_chess960_pos(cls, scharnagl)
    }

    /// Sets up Chess960 start position ``scharnagl`` (518 is the standard one), with
    /// castling rights for its rooks, on a Chess960 board (``chess960`` set, as python-chess
    /// sets it).
    fn set_chess960_pos(slf: &Bound<'_, Self>, scharnagl: i64) -> PyResult<()> {
        write(slf)?.set_chess960_pos(scharnagl)
    }

    // ----- text ---------------------------------------------------------------------------

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        read(slf)?.__repr__()
    }

    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        read(slf)?.__str__()
    }

    #[pyo3(signature = (*, invert_color = false, borders = false, empty_square = "⭘", orientation = true))]
    fn unicode(
        slf: &Bound<'_, Self>,
        invert_color: bool,
        borders: bool,
        empty_square: &str,
        orientation: bool,
    ) -> PyResult<String> {
        read(slf)?.unicode(invert_color, borders, empty_square, orientation)
    }

    /// The board as SVG for notebooks, drawn by `shatranj.svg` like python-chess does: last
    /// move and the checked king highlighted, 390 pixels.
    fn _repr_svg_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        display::repr_svg(slf)
    }

    /// python-chess equality: same placement, side, castling rights, legal en-passant square
    /// and clocks; the move stacks may differ.
    fn __richcmp__(
        slf: &Bound<'_, Self>,
        other: &Bound<'_, PyAny>,
        op: CompareOp,
    ) -> PyResult<Py<PyAny>> {
        read(slf)?.__richcmp__(other, op)
    }
}

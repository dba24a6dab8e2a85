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
//! `pop` skip PyO3's wrappers altogether (`hot_methods.rs`).
//!
//! Setup mode. python-chess's board holds any placement (no king, pawns on the back rank, the
//! side not to move in check) and Chess960; the rules crate's `Position` is always a legal
//! standard-chess position, and stays the hot path. A FEN or an edit the `Position` refuses
//! puts the board in *setup mode*: `setup` then holds a Python `shatranj._setup.SetupBoard`,
//! which answers every method (each method's first line hands the call over; on the hot path
//! that line is one untaken branch). Its rules are the rules crate's `Setup` (`setup.rs`);
//! the Python class keeps the move stack and python-chess's method names. A FEN that is legal once its
//! castling rights are cleaned or its impossible en-passant square dropped stays on the hot
//! path: `raw` keeps what was given, for `castling_rights`, `ep_square` and `status()`, until
//! the next move. Chess960 boards are always in setup mode.
//!
//! Differences from python-chess, all deliberate: `push` refuses illegal moves (python-chess
//! trusts the caller); a null move is refused in check; there are no variants.

use crate::args::{self, py_color, square_set};
use crate::cache::PlyMoves;
use crate::errors::{IllegalMoveError, fen_error, san_error, uci_error};
use crate::gil_cell::{GilCell, GilRef, GilRefMut};
use crate::legal::{LegalMoveGenerator, PseudoLegalMoveGenerator};
use crate::moves::{self, Move, interned, key_of, moves_list, uci_of};
use crate::outcome::py_outcome;
use crate::piece;
use crate::planes;
use crate::py_modules;
use crate::resolve::{castling_alias, is_castling, is_en_passant, resolve};
use crate::text;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{IntoPyDict, PyList, PyType};
use shatranj_chess::attacks::pawn_attacks;
use shatranj_chess::fen::{self, EnPassantMode};
use shatranj_chess::{Bitboard, CastlingSide, Color, History, MoveList, Position, Role, san, uci};

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
    fn wrap(state: BoardState) -> Board {
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

    fn with_setup(setup: Py<PyAny>) -> Board {
        Board::wrap(BoardState::with_setup(setup))
    }

    fn lenient(py: Python<'_>, fen: Option<&str>, chess960: bool) -> PyResult<Board> {
        BoardState::lenient(py, fen, chess960).map(Board::wrap)
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

/// The state behind a Python `Board`, borrowed through [`read`] and [`write`].
pub struct BoardState {
    game: History,
    /// Legal moves by ply, valid while `Some` (see the module docs).
    cache: Vec<Option<Box<PlyMoves>>>,
    /// The Python setup board of setup mode (see the module docs); `None` on the hot path.
    setup: Option<Py<PyAny>>,
    /// Castling rights (rook squares) and en-passant square as given, where the position
    /// cleaned them (see the module docs).
    raw: RawState,
}

/// Castling rights (rook squares) and en-passant square as given, when the position cleaned
/// them (see the module docs).
type RawState = Option<(u64, Option<u8>)>;

/// In setup mode, a method is answered by the Python setup board (see the module docs).
macro_rules! delegate {
    ($self:ident, $name:literal, $args:expr) => {
        if let Some(setup) = &$self.setup {
            return Python::attach(|py| {
                setup
                    .bind(py)
                    .call_method1($name, $args)?
                    .extract()
                    .map_err(Into::into)
            });
        }
    };
}

macro_rules! delegate_unit {
    ($self:ident, $name:literal, $args:expr) => {
        if let Some(setup) = &$self.setup {
            return Python::attach(|py| setup.bind(py).call_method1($name, $args).map(drop));
        }
    };
}

macro_rules! delegate_py {
    ($self:ident, $py:ident, $name:literal, $args:expr) => {
        if let Some(setup) = &$self.setup {
            return setup
                .bind($py)
                .call_method1($name, $args)?
                .extract()
                .map_err(Into::into);
        }
    };
}

macro_rules! delegate_get {
    ($self:ident, $name:literal) => {
        if let Some(setup) = &$self.setup {
            return Python::attach(|py| {
                setup.bind(py).getattr($name)?.extract().map_err(Into::into)
            });
        }
    };
}

macro_rules! delegate_get_py {
    ($self:ident, $py:ident, $name:literal) => {
        if let Some(setup) = &$self.setup {
            return setup
                .bind($py)
                .getattr($name)?
                .extract()
                .map_err(Into::into);
        }
    };
}

impl BoardState {
    pub fn from_history(game: History) -> BoardState {
        BoardState {
            game,
            cache: Vec::new(),
            setup: None,
            raw: None,
        }
    }

    fn with_setup(setup: Py<PyAny>) -> BoardState {
        let mut board = BoardState::from_position(Position::new());
        board.setup = Some(setup);
        board
    }

    /// The board `shatranj._setup` resolved a FEN or an edit to: the hot path when `clean`
    /// (a FEN with cleaned castling rights and en-passant square) is a legal position, else
    /// setup mode with `setup`.
    fn adopt(clean: Option<String>, raw: RawState, setup: Py<PyAny>) -> BoardState {
        if let Some(pos) = clean.and_then(|fen| fen::parse(&fen).ok()) {
            let mut board = BoardState::from_position(pos);
            board.raw = raw;
            return board;
        }
        BoardState::with_setup(setup)
    }

    /// A FEN the rules crate refused (or any FEN, for Chess960), resolved by
    /// `shatranj._setup.resolve_fen`, which raises `ValueError` for text no python-chess
    /// board would load.
    fn lenient(py: Python<'_>, fen: Option<&str>, chess960: bool) -> PyResult<BoardState> {
        let resolve = py_modules::setup_resolve_fen(py)?;
        let (clean, raw, setup): (Option<String>, RawState, Py<PyAny>) =
            resolve.call1((fen, chess960))?.extract()?;
        Ok(BoardState::adopt(clean, raw, setup))
    }

    /// The position, or `ValueError` in setup mode: for the Rust code outside this file
    /// (engines, planes, perft), which works on legal standard positions only.
    pub fn valid_position(&self) -> PyResult<&Position> {
        match &self.setup {
            None => Ok(self.game.position()),
            Some(_) => Err(PyValueError::new_err(
                "this board holds a position the rules do not allow (see Board.status()) or a Chess960 position; it needs a legal standard chess position here",
            )),
        }
    }

    /// The game, or `ValueError` in setup mode (see `valid_position`).
    pub fn valid_history(&self) -> PyResult<&History> {
        self.valid_position()?;
        Ok(&self.game)
    }

    pub fn from_position(pos: Position) -> BoardState {
        BoardState::from_history(History::new(pos))
    }

    #[inline]
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    #[inline]
    fn stack_len(&self) -> usize {
        self.game.moves().len()
    }

    /// The legal moves of the current position (with their index), from the cache or
    /// generated into it. Boxed: a ply's entry is about a kilobyte, and the Vec of plies
    /// grows by moving pointers.
    #[inline]
    fn ply_moves(&mut self) -> &PlyMoves {
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
        self.cache[ply]
            .get_or_insert_with(|| Box::new(PlyMoves::new(pos)))
            .find(pos, key)
    }

    fn find_legal_or_raise(&mut self, key: u16) -> PyResult<shatranj_chess::Move> {
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
    fn push_null(&mut self) -> PyResult<()> {
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

    fn reset(&mut self, game: History) {
        self.game = game;
        self.cache.clear();
        self.setup = None;
        self.raw = None;
    }

    /// The start position and move list, enough to rebuild the game (pickling, copies).
    fn replay(start: Position, moves: &[shatranj_chess::Move]) -> History {
        let mut game = History::new(start);
        for &m in moves {
            game.push_unchecked(m);
        }
        game
    }

    fn board_of(&self, py: Python<'_>, game: History) -> PyResult<Py<Board>> {
        Py::new(py, Board::from_history(game))
    }

    /// SAN of a legal move, disambiguated against the cached move list.
    fn san_of(&mut self, m: shatranj_chess::Move) -> String {
        let pos = *self.position();
        san::to_san_among(&pos, m, self.legal())
    }
}

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
fn shredder_of(epd: String, shredder: bool) -> String {
    if !shredder {
        return epd;
    }
    let mut fields: Vec<String> = epd.split(' ').map(str::to_owned).collect();
    if let Some(castling) = fields.get_mut(2) {
        *castling = castling
            .chars()
            .map(|c| match c {
                'K' => 'H',
                'Q' => 'A',
                'k' => 'h',
                'q' => 'a',
                other => other,
            })
            .collect();
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

/// python-chess's writable attributes (`board.turn = ...`, `board.castling_rights = ...`):
/// the edit goes through `shatranj._setup.set_attribute`, which re-resolves the board.
fn set_attribute(slf: &Bound<'_, Board>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
    py_modules::setup_set_attribute(slf.py())?.call1((slf, name, value))?;
    Ok(())
}

fn role_mask(pos: &Position, role: Role) -> u64 {
    pos.board().by_role(role).0
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (fen = Some(STARTING_FEN), *, chess960 = false))]
    fn new(py: Python<'_>, fen: Option<&str>, chess960: bool) -> PyResult<Self> {
        match fen {
            Some(STARTING_FEN) if !chess960 => Ok(Board::from_position(Position::new())),
            Some(text) if !chess960 => match fen::parse(text) {
                Ok(pos) => Ok(Board::from_position(pos)),
                // What python-chess cannot load either keeps the rules crate's typed error.
                Err(e) => Board::lenient(py, fen, false).map_err(|_| fen_error(e)),
            },
            _ => Board::lenient(py, fen, chess960),
        }
    }

    /// The setup board of setup mode, or `None` (see the module docs).
    #[getter]
    fn _setup(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        Ok(read(slf)?._setup(py))
    }

    /// Takes the state `shatranj._setup` resolved an edit to (see `adopt`); the move stack
    /// is cleared, as python-chess's edits clear it.
    fn _load(
        slf: &Bound<'_, Self>,
        clean: Option<String>,
        raw: RawState,
        setup: Py<PyAny>,
    ) -> PyResult<()> {
        write(slf)?._load(clean, raw, setup);
        Ok(())
    }

    #[setter]
    fn set_castling_rights(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        set_attribute(slf, "castling_rights", value)
    }

    #[setter]
    fn set_chess960(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        set_attribute(slf, "chess960", value)
    }

    #[setter]
    fn set_turn(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        set_attribute(slf, "turn", value)
    }

    #[setter]
    fn set_ep_square(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        set_attribute(slf, "ep_square", value)
    }

    #[setter]
    fn set_halfmove_clock(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        set_attribute(slf, "halfmove_clock", value)
    }

    #[setter]
    fn set_fullmove_number(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        set_attribute(slf, "fullmove_number", value)
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

    /// `False` on the hot path: Chess960 boards are in setup mode.
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

    /// The EPD position (the first four FEN fields); `shatranj._board_compat` wraps it to
    /// write EPD operations.
    #[pyo3(signature = (*, shredder = false, en_passant = "legal", promoted = None))]
    fn epd(
        slf: &Bound<'_, Self>,
        shredder: bool,
        en_passant: &str,
        promoted: Option<bool>,
    ) -> PyResult<String> {
        read(slf)?.epd(shredder, en_passant, promoted)
    }

    #[pyo3(signature = (*, promoted = false))]
    fn board_fen(slf: &Bound<'_, Self>, promoted: Option<bool>) -> PyResult<String> {
        read(slf)?.board_fen(promoted)
    }

    #[pyo3(signature = (fen))]
    fn set_fen(slf: &Bound<'_, Self>, py: Python<'_>, fen: &str) -> PyResult<()> {
        write(slf)?.set_fen(py, fen)
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

    /// An iterator over the legal moves (python-chess's generator, without its filters).
    fn generate_legal_moves<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, PyAny>> {
        read(slf)?.generate_legal_moves(py)
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
        let me = read(slf)?;
        if let Some(setup) = &me.setup {
            // (shatranj._setup.board_from_setup, (setup,)): the setup board pickles itself.
            return setup.bind(slf.py()).call_method0("reduce_board");
        }
        let start = fen::to_fen_with(me.game.start(), EnPassantMode::Always);
        let moves: Vec<String> = me
            .game
            .moves()
            .iter()
            .map(|m| key_of(*m))
            .map(uci_of)
            .collect();
        (slf.get_type(), (start,), moves.join(" "))
            .into_pyobject(slf.py())
            .map(Bound::into_any)
    }

    fn __setstate__(slf: &Bound<'_, Self>, state: &str) -> PyResult<()> {
        write(slf)?.__setstate__(state)
    }

    /// A board with the same start position and moves as the python-chess board `board`.
    #[classmethod]
    fn from_chess(_cls: &Bound<'_, PyType>, board: &Bound<'_, PyAny>) -> PyResult<Board> {
        let root = board.call_method0("root")?;
        let kwargs = [("en_passant", "fen")].into_py_dict(board.py())?;
        let fen: String = root.call_method("fen", (), Some(&kwargs))?.extract()?;
        let start = fen::parse(&fen).map_err(fen_error)?;
        let mut game = History::new(start);
        for m in board.getattr("move_stack")?.try_iter()? {
            let text: String = m?.call_method0("uci")?.extract()?;
            let m = uci::parse_uci(game.position(), &text).map_err(uci_error)?;
            game.push_unchecked(m);
        }
        Ok(Board::from_history(game))
    }

    /// The same game as a python-chess `chess.Board` (python-chess must be installed).
    fn to_chess<'py>(slf: &Bound<'_, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        read(slf)?.to_chess(py)
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
        let py = slf.py();
        let (lastmove, check) = if read(slf)?.setup.is_some() {
            (None, None)
        } else {
            let me = read(slf)?;
            let lastmove = me.game.moves().last().map(|&m| key_of(m));
            let pos = me.position();
            let check = pos.is_check().then(|| pos.king(pos.turn()).index() as u8);
            (lastmove, check)
        };
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("lastmove", lastmove.map(|k| interned(py, k)).transpose()?)?;
        kwargs.set_item("check", check)?;
        kwargs.set_item("size", 390)?;
        // No borrow is held while Python draws: `svg.board` reads the board through its
        // public methods.
        py_modules::svg_board(py)?.call((slf,), Some(&kwargs))
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

/// The methods Python calls, on the state (see `Board`).
impl BoardState {
    pub(crate) fn _setup(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.setup.as_ref().map(|s| s.clone_ref(py))
    }

    pub(crate) fn _load(&mut self, clean: Option<String>, raw: RawState, setup: Py<PyAny>) {
        *self = BoardState::adopt(clean, raw, setup);
    }

    pub(crate) fn turn(&self) -> PyResult<bool> {
        delegate_get!(self, "turn");
        Ok(py_color(self.position().turn()))
    }

    pub(crate) fn castling_rights(&self) -> PyResult<u64> {
        delegate_get!(self, "castling_rights");
        if let Some((raw, _)) = self.raw {
            return Ok(raw);
        }
        Ok({
            let rights = self.position().castling_rights();
            let mut mask = 0u64;
            for color in Color::ALL {
                for side in CastlingSide::ALL {
                    if rights.has(color, side) {
                        mask |= 1 << side.rook_from(color).index();
                    }
                }
            }
            mask
        })
    }

    pub(crate) fn has_castling_rights(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        delegate!(self, "has_castling_rights", (color,));
        let c = args::color(color)?;
        Ok(!self.position().castling_rights().of(c).is_empty())
    }

    pub(crate) fn has_kingside_castling_rights(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        delegate!(self, "has_kingside_castling_rights", (color,));
        let c = args::color(color)?;
        Ok(self
            .position()
            .castling_rights()
            .has(c, CastlingSide::KingSide))
    }

    pub(crate) fn has_queenside_castling_rights(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        delegate!(self, "has_queenside_castling_rights", (color,));
        let c = args::color(color)?;
        Ok(self
            .position()
            .castling_rights()
            .has(c, CastlingSide::QueenSide))
    }

    pub(crate) fn ep_square(&self) -> PyResult<Option<u8>> {
        delegate_get!(self, "ep_square");
        if let Some((_, raw)) = self.raw {
            return Ok(raw);
        }
        Ok(self.position().ep_square().map(|s| s.index() as u8))
    }

    pub(crate) fn halfmove_clock(&self) -> PyResult<u32> {
        delegate_get!(self, "halfmove_clock");
        Ok(self.position().halfmove_clock())
    }

    pub(crate) fn fullmove_number(&self) -> PyResult<u32> {
        delegate_get!(self, "fullmove_number");
        Ok(self.position().fullmove_number())
    }

    pub(crate) fn occupied(&self) -> PyResult<u64> {
        delegate_get!(self, "occupied");
        Ok(self.position().board().occupied().0)
    }

    pub(crate) fn occupied_co(&self) -> PyResult<[u64; 2]> {
        delegate_get!(self, "occupied_co");
        Ok({
            let b = self.position().board();
            [b.by_color(Color::Black).0, b.by_color(Color::White).0]
        })
    }

    pub(crate) fn pawns(&self) -> PyResult<u64> {
        delegate_get!(self, "pawns");
        Ok(role_mask(self.position(), Role::Pawn))
    }

    pub(crate) fn knights(&self) -> PyResult<u64> {
        delegate_get!(self, "knights");
        Ok(role_mask(self.position(), Role::Knight))
    }

    pub(crate) fn bishops(&self) -> PyResult<u64> {
        delegate_get!(self, "bishops");
        Ok(role_mask(self.position(), Role::Bishop))
    }

    pub(crate) fn rooks(&self) -> PyResult<u64> {
        delegate_get!(self, "rooks");
        Ok(role_mask(self.position(), Role::Rook))
    }

    pub(crate) fn queens(&self) -> PyResult<u64> {
        delegate_get!(self, "queens");
        Ok(role_mask(self.position(), Role::Queen))
    }

    pub(crate) fn kings(&self) -> PyResult<u64> {
        delegate_get!(self, "kings");
        Ok(role_mask(self.position(), Role::King))
    }

    pub(crate) fn chess960(&self) -> PyResult<bool> {
        delegate_get!(self, "chess960");
        Ok(false)
    }

    pub(crate) fn fen(
        &self,
        shredder: bool,
        en_passant: &str,
        promoted: Option<bool>,
    ) -> PyResult<String> {
        delegate!(self, "fen", (shredder, en_passant, promoted,));
        let _ = promoted;
        let pos = self.position();
        Ok(format!(
            "{} {} {}",
            shredder_of(epd_of(pos, en_passant)?, shredder),
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
        delegate!(self, "epd", (shredder, en_passant, promoted,));
        let _ = promoted;
        Ok(shredder_of(epd_of(self.position(), en_passant)?, shredder))
    }

    pub(crate) fn board_fen(&self, promoted: Option<bool>) -> PyResult<String> {
        delegate!(self, "board_fen", (promoted,));
        Ok({
            let _ = promoted;
            self.position().board().board_fen()
        })
    }

    pub(crate) fn set_fen(&mut self, py: Python<'_>, fen: &str) -> PyResult<()> {
        let chess960 = match &self.setup {
            Some(setup) => setup.bind(py).getattr("chess960")?.is_truthy()?,
            None => false,
        };
        if !chess960 {
            match fen::parse(fen) {
                Ok(pos) => {
                    self.reset(History::new(pos));
                    return Ok(());
                }
                Err(e) => {
                    *self = BoardState::lenient(py, Some(fen), false).map_err(|_| fen_error(e))?;
                    return Ok(());
                }
            }
        }
        *self = BoardState::lenient(py, Some(fen), true)?;
        Ok(())
    }

    pub(crate) fn reset_board(&mut self) {
        self.reset(History::new(Position::new()));
    }

    pub(crate) fn piece_at<'py>(
        &self,
        py: Python<'py>,
        square: i64,
    ) -> PyResult<Option<Bound<'py, piece::Piece>>> {
        delegate_py!(self, py, "piece_at", (square,));
        let sq = args::square(square)?;
        self.position()
            .piece_at(sq)
            .map(|p| piece::interned(py, p))
            .transpose()
    }

    pub(crate) fn piece_type_at(&self, square: i64) -> PyResult<Option<u8>> {
        delegate!(self, "piece_type_at", (square,));
        let sq = args::square(square)?;
        Ok(self.position().board().role_at(sq).map(args::piece_type))
    }

    pub(crate) fn color_at(&self, square: i64) -> PyResult<Option<bool>> {
        delegate!(self, "color_at", (square,));
        let sq = args::square(square)?;
        Ok(self.position().board().color_at(sq).map(py_color))
    }

    pub(crate) fn king(&self, color: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
        delegate!(self, "king", (color,));
        let c = args::color(color)?;
        Ok(self.position().board().king_of(c).map(|s| s.index() as u8))
    }

    pub(crate) fn pieces_mask(&self, piece_type: i64, color: &Bound<'_, PyAny>) -> PyResult<u64> {
        delegate!(self, "pieces_mask", (piece_type, color,));
        let piece = shatranj_chess::Piece::new(args::color(color)?, args::role(piece_type)?);
        Ok(self.position().board().by_piece(piece).0)
    }

    pub(crate) fn pieces<'py>(
        &self,
        py: Python<'py>,
        piece_type: i64,
        color: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        delegate_py!(self, py, "pieces", (piece_type, color,));
        square_set(py, Bitboard(self.pieces_mask(piece_type, color)?))
    }

    pub(crate) fn attackers_mask(&self, color: &Bound<'_, PyAny>, square: i64) -> PyResult<u64> {
        delegate!(self, "attackers_mask", (color, square,));
        Ok(self
            .position()
            .attackers(args::color(color)?, args::square(square)?)
            .0)
    }

    pub(crate) fn attackers<'py>(
        &self,
        py: Python<'py>,
        color: &Bound<'py, PyAny>,
        square: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        delegate_py!(self, py, "attackers", (color, square,));
        square_set(py, Bitboard(self.attackers_mask(color, square)?))
    }

    pub(crate) fn is_attacked_by(&self, color: &Bound<'_, PyAny>, square: i64) -> PyResult<bool> {
        delegate!(self, "is_attacked_by", (color, square,));
        Ok(self
            .position()
            .is_attacked_by(args::color(color)?, args::square(square)?))
    }

    pub(crate) fn is_pinned(&self, color: &Bound<'_, PyAny>, square: i64) -> PyResult<bool> {
        delegate!(self, "is_pinned", (color, square,));
        Ok(self
            .position()
            .is_pinned(args::color(color)?, args::square(square)?))
    }

    pub(crate) fn pin<'py>(
        &self,
        py: Python<'py>,
        color: &Bound<'py, PyAny>,
        square: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        delegate_py!(self, py, "pin", (color, square,));
        let mask = self
            .position()
            .pin_mask(args::color(color)?, args::square(square)?);
        square_set(py, mask)
    }

    pub(crate) fn checkers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        delegate_py!(self, py, "checkers", ());
        square_set(py, self.position().checkers())
    }

    pub(crate) fn is_check(&self) -> PyResult<bool> {
        delegate!(self, "is_check", ());
        Ok(self.position().is_check())
    }

    pub(crate) fn is_checkmate(&self) -> PyResult<bool> {
        delegate!(self, "is_checkmate", ());
        Ok(self.position().is_checkmate())
    }

    pub(crate) fn is_stalemate(&self) -> PyResult<bool> {
        delegate!(self, "is_stalemate", ());
        Ok(self.position().is_stalemate())
    }

    pub(crate) fn is_insufficient_material(&self) -> PyResult<bool> {
        delegate!(self, "is_insufficient_material", ());
        Ok(self.position().is_insufficient_material())
    }

    pub(crate) fn has_insufficient_material(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        delegate!(self, "has_insufficient_material", (color,));
        Ok(self
            .position()
            .has_insufficient_material(args::color(color)?))
    }

    pub(crate) fn can_checkmate(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        delegate!(self, "can_checkmate", (color,));
        Ok(self.position().can_checkmate(args::color(color)?))
    }

    pub(crate) fn is_dead_position(&self) -> PyResult<bool> {
        delegate!(self, "is_dead_position", ());
        Ok(self.position().is_dead_position())
    }

    pub(crate) fn winnability<'py>(
        &self,
        py: Python<'py>,
        color: &Bound<'py, PyAny>,
        full: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        delegate_py!(self, py, "winnability", (color, full));
        let color = args::color(color)?;
        let pos = *self.position();
        let answer = if full {
            py.detach(|| pos.winnability_full(color))
                .map_err(|e| crate::errors::SolverError::new_err(e.to_string()))?
        } else {
            pos.winnability(color)
        };
        crate::winnability::py_winnability(py, &answer)
    }

    pub(crate) fn has_legal_en_passant(&self) -> PyResult<bool> {
        delegate!(self, "has_legal_en_passant", ());
        Ok(self.position().has_legal_en_passant())
    }

    pub(crate) fn is_repetition(&self, count: i64) -> PyResult<bool> {
        delegate!(self, "is_repetition", (count,));
        if count <= 1 {
            return Ok(true);
        }
        Ok(self
            .game
            .is_repetition(usize::try_from(count).unwrap_or(usize::MAX)))
    }

    pub(crate) fn can_claim_threefold_repetition(&self) -> PyResult<bool> {
        delegate!(self, "can_claim_threefold_repetition", ());
        Ok(self.game.can_claim_threefold_repetition())
    }

    pub(crate) fn can_claim_fifty_moves(&self) -> PyResult<bool> {
        delegate!(self, "can_claim_fifty_moves", ());
        Ok(self.game.can_claim_fifty_moves())
    }

    pub(crate) fn can_claim_draw(&self) -> PyResult<bool> {
        delegate!(self, "can_claim_draw", ());
        Ok(self.game.can_claim_draw())
    }

    pub(crate) fn is_fifty_moves(&self) -> PyResult<bool> {
        delegate!(self, "is_fifty_moves", ());
        Ok(self.game.is_fifty_moves())
    }

    pub(crate) fn is_fivefold_repetition(&self) -> PyResult<bool> {
        delegate!(self, "is_fivefold_repetition", ());
        Ok(self.game.is_fivefold_repetition())
    }

    pub(crate) fn is_seventyfive_moves(&self) -> PyResult<bool> {
        delegate!(self, "is_seventyfive_moves", ());
        Ok(self.game.is_seventyfive_moves())
    }

    pub(crate) fn outcome<'py>(
        &self,
        py: Python<'py>,
        claim_draw: bool,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        delegate_py!(self, py, "outcome", (claim_draw,));
        self.game
            .outcome(claim_draw)
            .map(|o| py_outcome(py, o))
            .transpose()
    }

    pub(crate) fn is_game_over(&self, claim_draw: bool) -> PyResult<bool> {
        delegate!(self, "is_game_over", (claim_draw,));
        Ok(self.game.outcome(claim_draw).is_some())
    }

    pub(crate) fn result(&self, claim_draw: bool) -> PyResult<String> {
        delegate!(self, "result", (claim_draw,));
        Ok(self
            .game
            .outcome(claim_draw)
            .map_or("*", |o| o.result())
            .to_owned())
    }

    pub(crate) fn is_pseudo_legal(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        delegate!(self, "is_pseudo_legal", (r#move,));
        Ok({
            let pos = self.position();
            let key = r#move.get().key;
            let list = pos.pseudo_legal_moves();
            moves::find_key(&list, key)
                .or_else(|| {
                    castling_alias(pos, key).and_then(|alias| moves::find_key(&list, alias))
                })
                .is_some()
        })
    }

    pub(crate) fn generate_legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.legal_move_list(py)?.try_iter()?.into_any())
    }

    pub(crate) fn is_legal(&mut self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        delegate!(self, "is_legal", (r#move,));
        Ok(self.find_legal(r#move.get().key).is_some())
    }

    pub(crate) fn is_capture(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        delegate!(self, "is_capture", (r#move,));
        Ok({
            let pos = self.position();
            pos.is_capture(resolve(pos, r#move.get().key))
        })
    }

    pub(crate) fn is_en_passant(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        delegate!(self, "is_en_passant", (r#move,));
        Ok(is_en_passant(self.position(), r#move.get().key))
    }

    pub(crate) fn is_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        delegate!(self, "is_castling", (r#move,));
        Ok(is_castling(self.position(), r#move.get().key))
    }

    pub(crate) fn is_kingside_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        delegate!(self, "is_kingside_castling", (r#move,));
        Ok({
            let key = r#move.get().key;
            is_castling(self.position(), key)
                && moves::to_square(key).file() > moves::from_square(key).file()
        })
    }

    pub(crate) fn is_queenside_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        delegate!(self, "is_queenside_castling", (r#move,));
        Ok({
            let key = r#move.get().key;
            is_castling(self.position(), key)
                && moves::to_square(key).file() < moves::from_square(key).file()
        })
    }

    pub(crate) fn is_zeroing(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        delegate!(self, "is_zeroing", (r#move,));
        Ok({
            let pos = self.position();
            let key = r#move.get().key;
            // python-chess: any pawn on either square, or a capture.
            let touched =
                Bitboard::from_square(moves::from_square(key)).with(moves::to_square(key));
            (touched & pos.board().pawns()).any() || pos.is_capture(resolve(pos, key))
        })
    }

    pub(crate) fn gives_check(&mut self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        delegate!(self, "gives_check", (r#move,));
        Ok(match self.find_legal(r#move.get().key) {
            Some(m) => self.position().gives_check(m),
            None => false,
        })
    }

    pub(crate) fn push(&mut self, r#move: &Bound<'_, Move>) -> PyResult<()> {
        delegate_unit!(self, "push", (r#move,));
        let key = r#move.get().key;
        if key == moves::NULL_KEY {
            return self.push_null();
        }
        match self.find_legal(key) {
            Some(m) => {
                self.push_legal(m);
                Ok(())
            }
            None => Err(IllegalMoveError::new_err(format!(
                "illegal move {} in {}",
                uci_of(key),
                self.position().fen()
            ))),
        }
    }

    pub(crate) fn pop<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, Move>> {
        delegate_py!(self, py, "pop", ());
        match self.game.pop() {
            Some(m) => interned(py, key_of(m)),
            None => Err(PyIndexError::new_err("pop from empty move stack")),
        }
    }

    pub(crate) fn peek<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, Move>> {
        delegate_py!(self, py, "peek", ());
        match self.game.moves().last() {
            Some(&m) => interned(py, key_of(m)),
            None => Err(PyIndexError::new_err("peek into empty move stack")),
        }
    }

    pub(crate) fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        delegate_get_py!(self, py, "move_stack");
        moves_list(py, self.game.moves())
    }

    pub(crate) fn ply(&self) -> PyResult<u32> {
        delegate!(self, "ply", ());
        Ok({
            let pos = self.position();
            2 * (pos.fullmove_number() - 1) + u32::from(pos.turn() == Color::Black)
        })
    }

    pub(crate) fn clear_stack(&mut self) -> PyResult<()> {
        delegate_unit!(self, "clear_stack", ());
        let pos = *self.position();
        let raw = self.raw;
        self.reset(History::new(pos));
        self.raw = raw;
        Ok(())
    }

    pub(crate) fn root(&self, py: Python<'_>) -> PyResult<Py<Board>> {
        if let Some(setup) = &self.setup {
            return Py::new(
                py,
                Board::with_setup(setup.bind(py).call_method0("root")?.unbind()),
            );
        }
        self.board_of(py, History::new(*self.game.start()))
    }

    pub(crate) fn copy(
        &self,
        py: Python<'_>,
        stack: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<Board>> {
        if let Some(setup) = &self.setup {
            let copy = setup.bind(py).call_method1("copy", (stack,))?;
            return Py::new(py, Board::with_setup(copy.unbind()));
        }
        let keep = match stack {
            None => self.stack_len(),
            Some(s) if s.is_instance_of::<pyo3::types::PyBool>() => {
                if s.is_truthy()? {
                    self.stack_len()
                } else {
                    0
                }
            }
            Some(s) => {
                let n: i64 = s
                    .extract()
                    .map_err(|_| PyTypeError::new_err("stack must be a bool or an int"))?;
                usize::try_from(n).unwrap_or(0).min(self.stack_len())
            }
        };
        if keep == self.stack_len() {
            return self.board_of(py, self.game.clone());
        }
        let moves = self.game.moves();
        let split = moves.len() - keep;
        let mut start = *self.game.start();
        for &m in &moves[..split] {
            if m == shatranj_chess::Move::NULL {
                start.play_null();
            } else {
                start.play_unchecked(m);
            }
        }
        self.board_of(py, BoardState::replay(start, &moves[split..]))
    }

    pub(crate) fn __copy__(&self, py: Python<'_>) -> PyResult<Py<Board>> {
        if self.setup.is_some() {
            return self.copy(py, None);
        }
        self.board_of(py, self.game.clone())
    }

    pub(crate) fn __deepcopy__(
        &self,
        py: Python<'_>,
        _memo: &Bound<'_, PyAny>,
    ) -> PyResult<Py<Board>> {
        if self.setup.is_some() {
            return self.copy(py, None);
        }
        self.board_of(py, self.game.clone())
    }

    pub(crate) fn mirror(&self, py: Python<'_>) -> PyResult<Py<Board>> {
        if let Some(setup) = &self.setup {
            let mirrored = setup.bind(py).call_method0("mirror")?;
            return Py::new(py, Board::with_setup(mirrored.unbind()));
        }
        self.board_of(py, History::new(self.position().mirrored()))
    }

    pub(crate) fn san(&mut self, r#move: &Bound<'_, Move>) -> PyResult<String> {
        delegate!(self, "san", (r#move,));
        if r#move.get().key == moves::NULL_KEY {
            return Ok("--".to_owned());
        }
        let m = self.find_legal_or_raise(r#move.get().key)?;
        Ok(self.san_of(m))
    }

    pub(crate) fn lan(&mut self, r#move: &Bound<'_, Move>) -> PyResult<String> {
        delegate!(self, "lan", (r#move,));
        let m = self.find_legal_or_raise(r#move.get().key)?;
        Ok(san::to_lan(self.position(), m))
    }

    pub(crate) fn san_and_push(&mut self, r#move: &Bound<'_, Move>) -> PyResult<String> {
        delegate!(self, "san_and_push", (r#move,));
        if r#move.get().key == moves::NULL_KEY {
            self.push_null()?;
            return Ok("--".to_owned());
        }
        let m = self.find_legal_or_raise(r#move.get().key)?;
        let text = self.san_of(m);
        self.push_legal(m);
        Ok(text)
    }

    pub(crate) fn variation_san(&self, variation: &Bound<'_, PyAny>) -> PyResult<String> {
        delegate!(self, "variation_san", (variation,));
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
            let found = legal
                .iter()
                .copied()
                .find(|m| key_of(*m) == key)
                .or_else(|| {
                    castling_alias(&pos, key)
                        .and_then(|alias| legal.iter().copied().find(|m| key_of(*m) == alias))
                });
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

    pub(crate) fn parse_san<'py>(&self, py: Python<'py>, san: &str) -> PyResult<Bound<'py, Move>> {
        delegate_py!(self, py, "parse_san", (san,));
        if is_null_san(san) {
            return interned(py, moves::NULL_KEY);
        }
        let m = san::parse_san(self.position(), strict_san(san)?).map_err(san_error)?;
        interned(py, key_of(m))
    }

    pub(crate) fn push_san<'py>(
        &mut self,
        py: Python<'py>,
        san: &str,
    ) -> PyResult<Bound<'py, Move>> {
        delegate_py!(self, py, "push_san", (san,));
        if is_null_san(san) {
            self.push_null()?;
            return interned(py, moves::NULL_KEY);
        }
        let m = san::parse_san(self.position(), strict_san(san)?).map_err(san_error)?;
        self.push_legal(m);
        interned(py, key_of(m))
    }

    pub(crate) fn parse_uci<'py>(&self, py: Python<'py>, uci: &str) -> PyResult<Bound<'py, Move>> {
        delegate_py!(self, py, "parse_uci", (uci,));
        let m = uci::parse_uci(self.position(), uci).map_err(uci_error)?;
        interned(py, key_of(m))
    }

    pub(crate) fn push_uci<'py>(
        &mut self,
        py: Python<'py>,
        uci: &str,
    ) -> PyResult<Bound<'py, Move>> {
        delegate_py!(self, py, "push_uci", (uci,));
        let m = uci::parse_uci(self.position(), uci).map_err(uci_error)?;
        self.push_legal(m);
        interned(py, key_of(m))
    }

    pub(crate) fn find_move<'py>(
        &mut self,
        py: Python<'py>,
        from_square: i64,
        to_square: i64,
        promotion: Option<i64>,
    ) -> PyResult<Bound<'py, Move>> {
        delegate_py!(self, py, "find_move", (from_square, to_square, promotion,));
        let from = args::square(from_square)?;
        let to = args::square(to_square)?;
        let mut promotion = promotion.map(args::role).transpose()?;
        let b = self.position().board();
        if promotion.is_none()
            && b.pawns().contains(from)
            && (to.rank() == shatranj_chess::Rank::First
                || to.rank() == shatranj_chess::Rank::Eighth)
        {
            promotion = Some(Role::Queen);
        }
        let key = moves::make_key(from, to, promotion);
        let m = self.find_legal(key).ok_or_else(|| {
            IllegalMoveError::new_err(format!(
                "no matching legal move for {} in {}",
                uci_of(key),
                self.position().fen()
            ))
        })?;
        interned(py, key_of(m))
    }

    pub(crate) fn zobrist_hash(&self) -> PyResult<u64> {
        delegate!(self, "zobrist_hash", ());
        Ok(self.position().key())
    }

    pub(crate) fn to_planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        delegate_py!(self, py, "to_planes", ());
        planes::planes_array(py, std::slice::from_ref(self.position()))
    }

    pub(crate) fn features<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        delegate_py!(self, py, "features", ());
        planes::features_array(py, std::slice::from_ref(self.position()))
    }

    pub(crate) fn __setstate__(&mut self, state: &str) -> PyResult<()> {
        let mut game = History::new(*self.game.start());
        for text in state.split_ascii_whitespace() {
            let m = uci::parse_uci(game.position(), text).map_err(uci_error)?;
            game.push_unchecked(m);
        }
        self.reset(game);
        Ok(())
    }

    pub(crate) fn to_chess<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        delegate_py!(self, py, "to_chess", ());
        let board = py_modules::chess_board_class(py)?
            .call1((fen::to_fen_with(self.game.start(), EnPassantMode::Always),))?;
        let from_uci = py_modules::chess_move_class(py)?.getattr("from_uci")?;
        for &m in self.game.moves() {
            board.call_method1("push", (from_uci.call1((uci_of(key_of(m)),))?,))?;
        }
        Ok(board)
    }

    pub(crate) fn __repr__(&self) -> PyResult<String> {
        delegate!(self, "__repr__", ());
        Ok(format!("Board('{}')", self.position().fen()))
    }

    pub(crate) fn __str__(&self) -> PyResult<String> {
        delegate!(self, "__str__", ());
        Ok(text::ascii(self.position().board()))
    }

    pub(crate) fn unicode(
        &self,
        invert_color: bool,
        borders: bool,
        empty_square: &str,
        orientation: bool,
    ) -> PyResult<String> {
        delegate!(
            self,
            "unicode",
            (invert_color, borders, empty_square, orientation,)
        );
        Ok(text::unicode(
            self.position().board(),
            invert_color,
            borders,
            empty_square,
            orientation,
        ))
    }

    pub(crate) fn __richcmp__(
        &self,
        other: &Bound<'_, PyAny>,
        op: CompareOp,
    ) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<Board>() else {
            return Ok(py.NotImplemented());
        };
        let either_setup = self.setup.is_some() || read(other)?.setup.is_some();
        let same = if either_setup {
            // Setup boards compare by FEN (placement, side, castling, legal en passant,
            // clocks), which is python-chess's equality.
            let mine: String = match &self.setup {
                Some(setup) => setup
                    .bind(py)
                    .call_method1("fen", (false, "legal", None::<bool>))?
                    .extract()?,
                None => self.fen(false, "legal", None)?,
            };
            let theirs: String = other.call_method0("fen")?.extract()?;
            mine == theirs
        } else {
            let other = read(other)?;
            let (a, b) = (self.position(), other.position());
            a.board() == b.board()
                && a.turn() == b.turn()
                && a.castling_rights() == b.castling_rights()
                && a.legal_ep_square() == b.legal_ep_square()
                && a.halfmove_clock() == b.halfmove_clock()
                && a.fullmove_number() == b.fullmove_number()
        };
        Ok(match op {
            CompareOp::Eq => same.into_pyobject(py)?.to_owned().into_any().unbind(),
            CompareOp::Ne => (!same).into_pyobject(py)?.to_owned().into_any().unbind(),
            _ => py.NotImplemented(),
        })
    }
}

impl BoardState {
    pub fn legal_move_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if let Some(setup) = &self.setup {
            return Ok(setup
                .bind(py)
                .call_method0("legal_move_list")?
                .cast_into()?);
        }
        // Generated afresh even when `push`'s cache holds them: the cache keeps the rules
        // crate's order, and generating in python-chess's order costs less than reordering.
        moves::legal_list_python_order(py, self.position())
    }

    pub fn count_legal(&self, py: Python<'_>) -> PyResult<usize> {
        if let Some(setup) = &self.setup {
            return setup.bind(py).call_method0("count_legal")?.extract();
        }
        Ok(match self.cached_legal() {
            Some(list) => list.len(),
            None => self.position().count_legal_moves(),
        })
    }

    pub fn sans(&mut self, py: Python<'_>) -> PyResult<Vec<String>> {
        if let Some(setup) = &self.setup {
            return setup.bind(py).call_method0("legal_sans")?.extract();
        }
        let pos = *self.position();
        let legal = pos.legal_moves_python_order();
        Ok(legal
            .iter()
            .map(|&m| san::to_san_among(&pos, m, &legal))
            .collect())
    }

    pub fn pseudo_legal_list<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if let Some(setup) = &self.setup {
            return Ok(setup
                .bind(py)
                .call_method0("pseudo_legal_move_list")?
                .cast_into()?);
        }
        moves::list_of(py, &self.position().pseudo_legal_moves())
    }

    pub fn contains_legal(&mut self, py: Python<'_>, m: &Bound<'_, Move>) -> PyResult<bool> {
        if let Some(setup) = &self.setup {
            return setup.bind(py).call_method1("is_legal", (m,))?.extract();
        }
        Ok(self.find_legal(m.get().key).is_some())
    }
}

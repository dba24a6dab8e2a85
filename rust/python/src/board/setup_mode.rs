//! Setup mode (see the `board` module docs): a board holding what the rules crate's
//! `Position` refuses (no king, nine queens, pawns on a back rank, the side not to move in
//! check) holds a [`SetupGame`] instead, the rules crate's `Setup` and its move stack, and
//! every method answers from it. Here too is the seam between the two: a FEN or an edit
//! resolved to either the hot path or setup mode (`adopt`), the writable attributes and the
//! edits (`set_piece_at` and the rest), which work on a `Setup` of either kind of board.
//! One file, so that the seam between `Position` and `Setup` is in one place.

use super::compat::mask;
use super::{Board, BoardState, write};
use crate::args::{self, py_color, square_set};
use crate::errors::{IllegalMoveError, fen_error};
use crate::moves::{self, Move};
use crate::piece;
use crate::py_modules;
use crate::setup::PySetup;
use crate::text;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt};
use shatranj_chess::fen::{self, EnPassantMode};
use shatranj_chess::{
    Bitboard, CastlingMode, Color, Outcome, Position, Setup, Status, Termination, chess960,
};

/// A board in setup mode: the setups of the game, each kept with its legal moves once
/// listed (a `PySetup` is the rules crate's `Setup` and a once-filled cell for them; no
/// Python object is made), and the moves between them. `setups[i]` is the setup `moves[i]`
/// was played in and the last one the current setup, so there is always one more setup than
/// moves. A push appends and a pop drops: setups never change or move once made (moving one
/// in and out of a field per push cost a quarter of push+pop).
pub(crate) struct SetupGame {
    setups: Vec<PySetup>,
    moves: Vec<u16>,
}

impl Clone for SetupGame {
    fn clone(&self) -> SetupGame {
        SetupGame {
            setups: self.setups.clone(),
            moves: self.moves.clone(),
        }
    }
}

impl SetupGame {
    pub(super) fn new(setup: Setup) -> SetupGame {
        SetupGame {
            setups: vec![PySetup::wrap(setup)],
            moves: Vec::new(),
        }
    }

    /// The current setup, with its legal moves.
    #[inline]
    pub(super) fn now(&self) -> &PySetup {
        // Never empty: `new` makes one and `pop` keeps it (see the type's docs).
        &self.setups[self.setups.len() - 1]
    }

    #[inline]
    pub(super) fn setup(&self) -> &Setup {
        &self.now().inner
    }

    /// The moves of the stack, as played.
    pub(super) fn moves(&self) -> &[u16] {
        &self.moves
    }

    /// Forgets the moves (the current setup becomes the root).
    pub(super) fn clear_stack(&mut self) {
        let first = self.setups.len() - 1;
        self.setups.drain(..first);
        self.moves.clear();
    }

    /// The castling rights that can be used: cleaned before the first move; after a move
    /// they are clean already and only lost (python-chess).
    pub(super) fn clean_castling_rights(&self) -> u64 {
        if self.moves.is_empty() {
            self.setup().clean_castling_rights().0
        } else {
            self.setup().castling_rights.0
        }
    }

    /// Whether `color` may castle on the a-side (`a_side`) or the h-side of its king.
    pub(super) fn side_rights(&self, color: Color, a_side: bool) -> bool {
        let Some(king) = self.setup().king(color) else {
            return false;
        };
        let rooks = Bitboard(self.clean_castling_rights()) & backrank(color);
        rooks
            .into_iter()
            .filter(|sq| (sq.index() < king.index()) == a_side)
            .count()
            > 0
    }

    pub(super) fn push(&mut self, key: u16) -> PyResult<()> {
        let m = self.now().move_of_key(key)?;
        // The setup copied once, straight into its place, and the move played there: a
        // setup made on the stack and moved in cost a third of push (perf: stalls on its
        // copies).
        self.setups.push(PySetup::wrap(*self.setup()));
        let last = self.setups.len() - 1;
        self.setups[last].edit().play_unchecked(m);
        self.moves.push(crate::setup::played_key(key, m));
        Ok(())
    }

    pub(super) fn pop(&mut self) -> PyResult<u16> {
        let m = self
            .moves
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from empty move stack"))?;
        self.setups.pop();
        Ok(m)
    }

    pub(super) fn peek(&self) -> PyResult<u16> {
        self.moves
            .last()
            .copied()
            .ok_or_else(|| PyIndexError::new_err("peek into empty move stack"))
    }

    /// The board after `stack` as `copy(stack=...)` reads it: all, none or the last moves.
    pub(super) fn copy(&self, keep: usize) -> SetupGame {
        let keep = keep.min(self.moves.len());
        SetupGame {
            setups: self.setups[self.setups.len() - 1 - keep..].to_vec(),
            moves: self.moves[self.moves.len() - keep..].to_vec(),
        }
    }

    /// The setup before the first move of the stack.
    pub(super) fn root(&self) -> SetupGame {
        SetupGame::new(self.setups[0].inner)
    }

    pub(super) fn count_legal(&self) -> usize {
        self.now().count_legal()
    }

    pub(super) fn is_checkmate(&self) -> bool {
        self.setup().is_check() && self.count_legal() == 0
    }

    pub(super) fn is_stalemate(&self) -> bool {
        !self.setup().is_check() && self.count_legal() == 0
    }

    pub(super) fn has_insufficient_material(&self, color: Color) -> bool {
        self.setup().board.has_insufficient_material(color)
    }

    pub(super) fn is_insufficient_material(&self) -> bool {
        Color::ALL
            .into_iter()
            .all(|c| self.has_insufficient_material(c))
    }

    pub(super) fn is_fifty_moves(&self) -> bool {
        self.setup().halfmove_clock >= 100 && self.count_legal() > 0
    }

    /// python-chess's claim: fifty moves now, or after a legal move that does not zero the
    /// clock (with a clock at 99).
    pub(super) fn can_claim_fifty_moves(&self) -> bool {
        if self.is_fifty_moves() {
            return true;
        }
        let setup = self.setup();
        setup.halfmove_clock >= 99
            && self.now().legal().iter().any(|&m| {
                let mut after = *setup;
                !setup.is_zeroing(m) && {
                    after.play_unchecked(m);
                    after.halfmove_clock >= 100 && after.has_legal_moves()
                }
            })
    }

    pub(super) fn is_seventyfive_moves(&self) -> bool {
        self.setup().halfmove_clock >= 150 && self.count_legal() > 0
    }

    /// python-chess's outcome of a board with no position history to repeat: checkmate,
    /// material, stalemate, seventy-five moves, and fifty on a claim.
    pub(super) fn outcome(&self, claim_draw: bool) -> Option<Outcome> {
        let end = |termination, winner| {
            Some(Outcome {
                termination,
                winner,
            })
        };
        if self.is_checkmate() {
            return end(Termination::Checkmate, Some(self.setup().turn.other()));
        }
        if self.is_insufficient_material() {
            return end(Termination::InsufficientMaterial, None);
        }
        if self.count_legal() == 0 {
            return end(Termination::Stalemate, None);
        }
        if self.is_seventyfive_moves() {
            return end(Termination::SeventyfiveMoves, None);
        }
        if claim_draw && self.can_claim_fifty_moves() {
            return end(Termination::FiftyMoves, None);
        }
        None
    }

    pub(super) fn fen(
        &self,
        shredder: bool,
        en_passant: &str,
        promoted: Option<bool>,
    ) -> PyResult<String> {
        self.now()
            .fen(shredder, en_passant, promoted.unwrap_or(false))
    }

    pub(super) fn repr(&self) -> String {
        let fen = self.setup().fen(false, EnPassantMode::Legal, false);
        let flag = if self.setup().chess960 {
            ", chess960=True"
        } else {
            ""
        };
        format!("Board('{fen}'{flag})")
    }

    pub(super) fn variation_san(&self, variation: &Bound<'_, PyAny>) -> PyResult<String> {
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
            board.push(key)?;
        }
        Ok(parts.join(" "))
    }

    /// The error for what setup mode does not offer (the engine's and the network's
    /// methods, which need a legal standard position).
    pub(super) fn not_offered(&self, py: Python<'_>, name: &str) -> PyErr {
        let status = py_status(py, self.setup().status())
            .and_then(|s| s.repr().map(|r| r.to_string()))
            .unwrap_or_default();
        let chess960 = if self.setup().chess960 {
            ", Chess960"
        } else {
            ""
        };
        PyValueError::new_err(format!(
            "Board.{name} needs a legal standard chess position; this board (status {status}{chess960}) is played in setup mode, which does not offer it"
        ))
    }

    pub(super) fn unicode(
        &self,
        invert_color: bool,
        borders: bool,
        empty_square: &str,
        orientation: bool,
    ) -> String {
        text::unicode(
            &self.setup().board,
            invert_color,
            borders,
            empty_square,
            orientation,
        )
    }

    pub(super) fn ascii(&self) -> String {
        text::ascii(&self.setup().board)
    }

    pub(super) fn piece_at<'py>(
        &self,
        py: Python<'py>,
        square: i64,
    ) -> PyResult<Option<Bound<'py, piece::Piece>>> {
        self.now().piece_at(py, square)
    }

    pub(super) fn attackers<'py>(
        &self,
        py: Python<'py>,
        color: Color,
        square: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mask = self.now().attackers_mask(py_color(color), square, None)?;
        square_set(py, Bitboard(mask))
    }
}

/// One colour's first rank.
fn backrank(color: Color) -> Bitboard {
    Bitboard::from_rank(color.back_rank())
}

/// python-chess's `Status` flags (`shatranj._bitboards.Status`, an `enum.IntFlag`).
pub(super) fn py_status(py: Python<'_>, status: Status) -> PyResult<Bound<'_, PyAny>> {
    py_modules::status_class(py)?.call1((status.bits(),))
}

impl BoardState {
    pub(super) fn with_setup(game: SetupGame) -> BoardState {
        let mut board = BoardState::from_position(Position::new());
        board.chess960 = game.setup().chess960;
        board.setup = Some(Box::new(game));
        board
    }

    /// The board a setup resolves to (its move stack empty): the hot path when cleaning its
    /// castling rights and dropping an impossible en-passant square make it a legal position
    /// (the rights and square as given kept in `raw` for `castling_rights`, `ep_square` and
    /// `status()`), else setup mode. Promoted pieces stay in setup mode, which keeps them.
    pub(super) fn adopt(setup: Setup) -> BoardState {
        let chess960 = setup.chess960;
        let wrapped = PySetup::wrap(setup);
        let mode = CastlingMode::from_chess960(chess960);
        if let Some(pos) = wrapped
            .clean_fen()
            .and_then(|text| fen::parse_with(&text, mode).ok())
        {
            let mut board = BoardState::from_position(pos);
            let wrong = (Status::BAD_CASTLING_RIGHTS | Status::INVALID_EP_SQUARE).bits();
            board.raw = (setup.status().bits() & wrong != 0).then(|| {
                (
                    setup.castling_rights.0,
                    setup.ep_square.map(|s| s.index() as u8),
                )
            });
            board.chess960 = chess960;
            return board;
        }
        BoardState::with_setup(SetupGame::new(setup))
    }

    /// A FEN the rules crate refused (or any FEN, for Chess960), read as python-chess reads
    /// it (`ValueError` for text it refuses too) and resolved by [`BoardState::adopt`].
    pub(super) fn lenient(fen: Option<&str>, chess960: bool) -> PyResult<BoardState> {
        Ok(BoardState::adopt(PySetup::new(fen, chess960)?.inner))
    }

    /// The position as a setup, without the move stack: the setup of setup mode, or the
    /// native position with its castling rights and en-passant square as given. The
    /// edits work on this and [`BoardState::adopt`] the result.
    pub(super) fn setup_state(&self) -> Setup {
        if let Some(game) = &self.setup {
            return *game.setup();
        }
        let mut setup = Setup::from(self.position());
        setup.chess960 = self.chess960;
        if let Some((rights, ep)) = self.raw {
            setup.castling_rights = Bitboard(rights);
            setup.ep_square = ep.and_then(|s| shatranj_chess::Square::new(u32::from(s)));
        }
        setup
    }

    /// Puts an edited setup on the board, clearing the move stack (python-chess's edits).
    fn edit(&mut self, f: impl FnOnce(&mut PySetup) -> PyResult<()>) -> PyResult<()> {
        let mut setup = PySetup::wrap(self.setup_state());
        f(&mut setup)?;
        *self = BoardState::adopt(setup.inner);
        Ok(())
    }

    /// `status()`'s flags: the setup of either kind of board asked (after a move the native
    /// position's rights are clean, as python-chess has them).
    pub(super) fn status_flags(&self) -> Status {
        self.setup_state().status()
    }

    pub(crate) fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py_status(py, self.status_flags())
    }

    pub(crate) fn is_valid(&self) -> bool {
        self.status_flags() == Status::VALID
    }

    pub(crate) fn promoted(&self) -> u64 {
        self.setup
            .as_ref()
            .map_or(0, |game| game.setup().promoted.0)
    }

    pub(crate) fn clean_castling_rights(&self) -> PyResult<u64> {
        if let Some(game) = &self.setup {
            return Ok(game.clean_castling_rights());
        }
        if self.stack_len() == 0 {
            return Ok(self.setup_state().clean_castling_rights().0);
        }
        self.castling_rights()
    }

    /// Whether a castling right is one only Chess960 has: a king off the e-file or a rook
    /// off the corners.
    pub(crate) fn has_chess960_castling_rights(&self) -> bool {
        let mut setup = self.setup_state();
        setup.chess960 = true;
        let rights = setup.clean_castling_rights();
        if (rights & !Bitboard::CORNERS).any() {
            return true;
        }
        Color::ALL.into_iter().any(|color| {
            let home =
                shatranj_chess::Square::from_coords(shatranj_chess::File::E, color.back_rank());
            (rights & backrank(color)).any() && setup.king(color) != Some(home)
        })
    }

    pub(crate) fn set_piece_at(
        &mut self,
        square: i64,
        piece: Option<shatranj_chess::Piece>,
        promoted: bool,
    ) -> PyResult<()> {
        self.edit(|setup| put(setup, square, piece, promoted))
    }

    pub(crate) fn set_piece_map(
        &mut self,
        placed: Vec<(i64, shatranj_chess::Piece)>,
    ) -> PyResult<()> {
        self.edit(|setup| {
            let inner = setup.edit();
            inner.board = shatranj_chess::Board::empty();
            inner.promoted = Bitboard::EMPTY;
            for (square, piece) in placed {
                put(setup, square, Some(piece), false)?;
            }
            Ok(())
        })
    }

    pub(crate) fn set_board_fen(&mut self, fen: &str) -> PyResult<()> {
        self.edit(|setup| setup.set_board_fen(fen))
    }

    pub(crate) fn clear_board(&mut self) -> PyResult<()> {
        self.edit(|setup| {
            let inner = setup.edit();
            inner.board = shatranj_chess::Board::empty();
            inner.promoted = Bitboard::EMPTY;
            Ok(())
        })
    }

    pub(crate) fn clear(&mut self) {
        *self = BoardState::adopt(Setup {
            chess960: self.chess960,
            ..Setup::empty()
        });
    }

    pub(crate) fn set_castling_fen(&mut self, castling_fen: &str) -> PyResult<()> {
        self.edit(|setup| setup.set_castling_fen(castling_fen))
    }

    pub(crate) fn set_chess960_pos(&mut self, scharnagl: i64) -> PyResult<()> {
        let rank = u32::try_from(scharnagl)
            .ok()
            .and_then(|n| chess960::back_rank(n).ok())
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "chess960 position index not 0 <= {scharnagl} <= 959"
                ))
            })?;
        let white: String = rank.iter().map(|r| r.upper_char()).collect();
        let text = format!(
            "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w - - 0 1",
            white.to_lowercase()
        );
        // A Chess960 board afterwards, as python-chess makes it.
        let mut setup = Setup::from_fen(&text, true).map_err(fen_error)?;
        setup.castling_rights =
            setup.board.rooks() & (backrank(Color::White) | backrank(Color::Black));
        *self = BoardState::adopt(setup);
        Ok(())
    }

    /// python-chess's writable attributes (`board.turn = ...`, `board.castling_rights =
    /// ...`): the setup edited and resolved again, the move stack cleared.
    pub(super) fn set_attribute(&mut self, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let number = |value: &Bound<'_, PyAny>| -> PyResult<u32> {
            let n: i64 = value.py().get_type::<PyInt>().call1((value,))?.extract()?;
            if n < 0 {
                return Err(PyValueError::new_err(format!(
                    "{name} must not be negative: {}",
                    value.repr()?
                )));
            }
            u32::try_from(n).map_err(|_| {
                pyo3::exceptions::PyOverflowError::new_err(format!("{name} too large: {n}"))
            })
        };
        let mut setup = self.setup_state();
        match name {
            "castling_rights" => setup.castling_rights = Bitboard(mask(Some(value))?),
            "ep_square" => {
                setup.ep_square = if value.is_none() {
                    None
                } else {
                    let n: i64 = value.py().get_type::<PyInt>().call1((value,))?.extract()?;
                    Some(args::square(n)?)
                }
            }
            "turn" => {
                setup.turn = if value.is_truthy()? {
                    Color::White
                } else {
                    Color::Black
                }
            }
            "chess960" => setup.chess960 = value.is_truthy()?,
            "halfmove_clock" => setup.halfmove_clock = number(value)?,
            "fullmove_number" => setup.fullmove_number = number(value)?,
            _ => return Err(pyo3::exceptions::PyAttributeError::new_err(name.to_owned())),
        }
        *self = BoardState::adopt(setup);
        Ok(())
    }
}

/// `set_piece_map`'s argument read (`dict(pieces)`) before the board is borrowed: any
/// mapping or pairs of square and piece.
pub(super) fn piece_map(pieces: &Bound<'_, PyAny>) -> PyResult<Vec<(i64, shatranj_chess::Piece)>> {
    let pieces = pieces.py().get_type::<PyDict>().call1((pieces,))?;
    let mut placed = Vec::new();
    for item in pieces.call_method0("items")?.try_iter()? {
        let (square, piece): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
        placed.push((square_of(&square)?, piece_of(&piece)?));
    }
    Ok(placed)
}

/// A square argument of the edits: an `int` from 0 to 63 (`IndexError` otherwise).
pub(super) fn square_of(value: &Bound<'_, PyAny>) -> PyResult<i64> {
    if !value.is_instance_of::<PyInt>() {
        return Err(PyIndexError::new_err(format!(
            "square index {} out of range 0..=63",
            value.repr()?
        )));
    }
    let n: i64 = value.extract().unwrap_or(-1);
    args::square(n)?;
    Ok(n)
}

/// A piece argument as python-chess reads it: anything with `piece_type` and `color`.
pub(super) fn piece_of(value: &Bound<'_, PyAny>) -> PyResult<shatranj_chess::Piece> {
    if let Ok(p) = value.cast::<piece::Piece>() {
        return Ok(p.get().piece);
    }
    let role = args::role(value.getattr("piece_type")?.extract()?)?;
    let color = args::color(&value.getattr("color")?)?;
    Ok(shatranj_chess::Piece::new(color, role))
}

/// Puts `piece` (or nothing) on `square` of `setup`.
fn put(
    setup: &mut PySetup,
    square: i64,
    piece: Option<shatranj_chess::Piece>,
    promoted: bool,
) -> PyResult<()> {
    match piece {
        None => setup.set_piece_at(square, None, true, false),
        Some(p) => setup.set_piece_at(
            square,
            Some(i64::from(args::piece_type(p.role))),
            p.color == Color::White,
            promoted,
        ),
    }
}

/// `Board.from_chess960_pos`: `cls(None, chess960=True)` set to the start position.
pub(super) fn from_chess960_pos<'py>(
    cls: &Bound<'py, pyo3::types::PyType>,
    scharnagl: i64,
) -> PyResult<Bound<'py, PyAny>> {
    let py = cls.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("chess960", true)?;
    let board = cls.call((py.None(),), Some(&kwargs))?;
    let native = board.cast::<Board>()?;
    write(native)?.set_chess960_pos(scharnagl)?;
    Ok(board)
}

/// The methods Python calls, on the state (see `Board`).
impl BoardState {
    /// A copy of setup mode's current setup, or `None` on the hot path (for tests and
    /// benchmarks that ask which mode a board is in).
    pub(crate) fn _setup(&self) -> Option<PySetup> {
        self.setup.as_ref().map(|game| game.now().clone())
    }
}

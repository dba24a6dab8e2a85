//! The edits: python-chess's ways to change the position in place (`set_fen`, `set_piece_at`,
//! `set_board_fen`, `board.turn = ...` and the rest), each of which clears the move stack.
//! Here is the seam between the representations: an edit works on the position as a setup
//! ([`Placement::setup_state`]), of whichever representation, and the result is resolved
//! again (`adopt`) to the hot path when the rules crate's `Position` takes it, else to setup
//! mode. One file, so that the seam between `Position` and `Setup` is in one place.

use super::compat::mask;
use super::legal_game::LegalGame;
use super::position::Placement;
use super::setup_mode::{SetupGame, backrank};
use super::{Board, BoardState, on_rep, write};
use crate::args;
use crate::errors::fen_error;
use crate::rules::piece;
use crate::rules::setup::PySetup;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt};
use shatranj_chess::fen;
use shatranj_chess::{Bitboard, CastlingMode, Color, History, Position, Setup, Status, chess960};

impl BoardState {
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
            let mut board = LegalGame::new(History::new(pos), chess960);
            let wrong = (Status::BAD_CASTLING_RIGHTS | Status::INVALID_EP_SQUARE).bits();
            board.raw = (setup.status().bits() & wrong != 0).then(|| {
                (
                    setup.castling_rights.0,
                    setup.ep_square.map(|s| s.index() as u8),
                )
            });
            return BoardState::Legal(board);
        }
        BoardState::with_setup(SetupGame::new(setup))
    }

    /// A FEN the rules crate refused (or any FEN, for Chess960), read as python-chess reads
    /// it (`ValueError` for text it refuses too) and resolved by [`BoardState::adopt`].
    pub(super) fn lenient(fen: Option<&str>, chess960: bool) -> PyResult<BoardState> {
        Ok(BoardState::adopt(PySetup::new(fen, chess960)?.inner))
    }

    /// Puts an edited setup on the board, clearing the move stack (python-chess's edits).
    fn edit(&mut self, f: impl FnOnce(&mut PySetup) -> PyResult<()>) -> PyResult<()> {
        let mut setup = PySetup::wrap(on_rep!(&*self, r => r.setup_state()));
        f(&mut setup)?;
        *self = BoardState::adopt(setup.inner);
        Ok(())
    }

    /// Puts ``piece`` (or nothing, for ``None``) on ``square``; any placement is allowed
    /// (``status()`` says what is wrong).
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

    /// An empty board, White to move, no castling rights or en-passant square, clocks reset.
    pub(crate) fn clear(&mut self) -> PyResult<()> {
        let chess960 = on_rep!(&*self, r => r.chess960())?;
        *self = BoardState::adopt(Setup {
            chess960,
            ..Setup::empty()
        });
        Ok(())
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
        let mut setup = on_rep!(&*self, r => r.setup_state());
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

    pub(crate) fn set_fen(&mut self, fen: &str) -> PyResult<()> {
        let chess960 = on_rep!(&*self, r => r.chess960())?;
        if !chess960 {
            *self = match fen::parse(fen) {
                Ok(pos) => BoardState::Legal(LegalGame::new(History::new(pos), false)),
                Err(e) => BoardState::lenient(Some(fen), false).map_err(|_| fen_error(e))?,
            };
            return Ok(());
        }
        *self = BoardState::lenient(Some(fen), true)?;
        Ok(())
    }

    /// Back to the start position, with an empty move stack (the `chess960` flag stays).
    pub(crate) fn reset_board(&mut self) -> PyResult<()> {
        let chess960 = on_rep!(&*self, r => r.chess960())?;
        *self = BoardState::Legal(LegalGame::new(History::new(Position::new()), chess960));
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

/// `set_piece_at`'s piece: `None` (given or by default) removes, else a piece as
/// [`piece_of`] reads it.
pub(super) fn optional_piece(
    value: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<shatranj_chess::Piece>> {
    value.filter(|p| !p.is_none()).map(piece_of).transpose()
}

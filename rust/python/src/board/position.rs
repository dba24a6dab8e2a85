//! What is on the board ([`Placement`]): side to move, castling rights, en-passant square,
//! clocks, occupancy and pieces by square, type and colour, and python-chess's `status()`
//! of the position as a setup.

use super::legal_game::LegalGame;
use super::setup_mode::{SetupGame, backrank, not_offered, py_status};
use super::stack::Stack;
use crate::args::{self, py_color, square_set};
use crate::rules::piece;
use crate::rules::setup::PySetup;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use shatranj_chess::{Bitboard, CastlingSide, Color, Role, Setup, Square, Status};

/// What is on the board. The pieces are asked of `placement()` once for both
/// representations; the rest each answers from its own position.
pub(crate) trait Placement {
    /// The pieces on the board.
    fn placement(&self) -> &shatranj_chess::Board;

    /// The position as a setup, without the move stack: setup mode's setup, or the legal
    /// position with its castling rights and en-passant square as given. The edits
    /// (`edit.rs`) work on this, and `status()` asks it.
    fn setup_state(&self) -> Setup;

    /// A copy of setup mode's current setup, or `None` on the hot path (for tests and
    /// benchmarks that ask which representation a board has).
    fn _setup(&self) -> PyResult<Option<PySetup>> {
        Ok(None)
    }

    fn turn(&self) -> PyResult<bool>;
    fn castling_rights(&self) -> PyResult<u64>;
    fn has_castling_rights(&self, color: Color) -> PyResult<bool>;
    fn has_kingside_castling_rights(&self, color: Color) -> PyResult<bool>;
    fn has_queenside_castling_rights(&self, color: Color) -> PyResult<bool>;
    fn ep_square(&self) -> PyResult<Option<u8>>;
    fn halfmove_clock(&self) -> PyResult<u32>;
    fn fullmove_number(&self) -> PyResult<u32>;
    fn chess960(&self) -> PyResult<bool>;
    fn king(&self, color: Color) -> PyResult<Option<u8>>;
    fn clean_castling_rights(&self) -> PyResult<u64>;

    /// Promoted pieces: none on the hot path (a position with promoted pieces marked stays
    /// in setup mode, which keeps them).
    fn promoted(&self) -> PyResult<u64> {
        Ok(0)
    }

    fn occupied(&self) -> PyResult<u64> {
        Ok(self.placement().occupied().0)
    }

    fn occupied_co(&self) -> PyResult<[u64; 2]> {
        let b = self.placement();
        Ok([b.by_color(Color::Black).0, b.by_color(Color::White).0])
    }

    fn pawns(&self) -> PyResult<u64> {
        Ok(self.placement().by_role(Role::Pawn).0)
    }

    fn knights(&self) -> PyResult<u64> {
        Ok(self.placement().by_role(Role::Knight).0)
    }

    fn bishops(&self) -> PyResult<u64> {
        Ok(self.placement().by_role(Role::Bishop).0)
    }

    fn rooks(&self) -> PyResult<u64> {
        Ok(self.placement().by_role(Role::Rook).0)
    }

    fn queens(&self) -> PyResult<u64> {
        Ok(self.placement().by_role(Role::Queen).0)
    }

    fn kings(&self) -> PyResult<u64> {
        Ok(self.placement().by_role(Role::King).0)
    }

    fn piece_at<'py>(
        &self,
        py: Python<'py>,
        square: Square,
    ) -> PyResult<Option<Bound<'py, piece::Piece>>> {
        self.placement()
            .piece_at(square)
            .map(|p| piece::interned(py, p))
            .transpose()
    }

    /// Square → piece for the pieces on `mask`, highest square first (python-chess's order).
    fn piece_map<'py>(&self, py: Python<'py>, mask: u64) -> PyResult<Bound<'py, PyDict>> {
        let map = PyDict::new(py);
        let mut squares = self.placement().occupied().0 & mask;
        while squares != 0 {
            let sq = squares.ilog2();
            squares &= !(1u64 << sq);
            let Some(square) = Square::new(sq) else {
                continue;
            };
            if let Some(piece) = self.piece_at(py, square)? {
                map.set_item(sq, piece)?;
            }
        }
        Ok(map)
    }

    fn piece_type_at(&self, square: Square) -> PyResult<Option<u8>> {
        Ok(self.placement().role_at(square).map(args::piece_type))
    }

    fn color_at(&self, square: Square) -> PyResult<Option<bool>> {
        Ok(self.placement().color_at(square).map(py_color))
    }

    fn pieces_mask(&self, role: Role, color: Color) -> PyResult<u64> {
        Ok(self
            .placement()
            .by_piece(shatranj_chess::Piece::new(color, role))
            .0)
    }

    fn pieces<'py>(
        &self,
        py: Python<'py>,
        role: Role,
        color: Color,
    ) -> PyResult<Bound<'py, PyAny>> {
        square_set(py, Bitboard(self.pieces_mask(role, color)?))
    }

    /// What is wrong with the position, as python-chess's ``STATUS_*`` flags (after a move
    /// the legal position's rights are clean, as python-chess has them).
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py_status(py, self.setup_state().status())
    }

    fn is_valid(&self) -> PyResult<bool> {
        Ok(self.setup_state().status() == Status::VALID)
    }

    /// Whether a castling right is one only Chess960 has: a king off the e-file or a rook
    /// off the corners.
    fn has_chess960_castling_rights(&self) -> PyResult<bool> {
        let mut setup = self.setup_state();
        setup.chess960 = true;
        let rights = setup.clean_castling_rights();
        if (rights & !Bitboard::CORNERS).any() {
            return Ok(true);
        }
        Ok(Color::ALL.into_iter().any(|color| {
            let home = Square::from_coords(shatranj_chess::File::E, color.back_rank());
            (rights & backrank(color)).any() && setup.king(color) != Some(home)
        }))
    }

    /// The error of a method that needs a legal standard position (the engine's and the
    /// network's), for the representations that have none.
    fn not_offered(&self, py: Python<'_>, name: &str) -> PyErr {
        not_offered(py, &self.setup_state(), name)
    }
}

impl Placement for LegalGame {
    #[inline]
    fn placement(&self) -> &shatranj_chess::Board {
        self.position().board()
    }

    fn setup_state(&self) -> Setup {
        let mut setup = Setup::from(self.position());
        setup.chess960 = self.chess960;
        if let Some((rights, ep)) = self.raw {
            setup.castling_rights = Bitboard(rights);
            setup.ep_square = ep.and_then(|s| Square::new(u32::from(s)));
        }
        setup
    }

    fn turn(&self) -> PyResult<bool> {
        Ok(py_color(self.position().turn()))
    }

    fn castling_rights(&self) -> PyResult<u64> {
        if let Some((raw, _)) = self.raw {
            return Ok(raw);
        }
        let rights = self.position().castling_rights();
        let mut mask = 0u64;
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(rook) = rights.rook_square(color, side) {
                    mask |= 1 << rook.index();
                }
            }
        }
        Ok(mask)
    }

    fn has_castling_rights(&self, color: Color) -> PyResult<bool> {
        Ok(!self.position().castling_rights().of(color).is_empty())
    }

    fn has_kingside_castling_rights(&self, color: Color) -> PyResult<bool> {
        Ok(self
            .position()
            .castling_rights()
            .has(color, CastlingSide::KingSide))
    }

    fn has_queenside_castling_rights(&self, color: Color) -> PyResult<bool> {
        Ok(self
            .position()
            .castling_rights()
            .has(color, CastlingSide::QueenSide))
    }

    fn ep_square(&self) -> PyResult<Option<u8>> {
        if let Some((_, raw)) = self.raw {
            return Ok(raw);
        }
        Ok(self.position().ep_square().map(|s| s.index() as u8))
    }

    fn halfmove_clock(&self) -> PyResult<u32> {
        Ok(self.position().halfmove_clock())
    }

    fn fullmove_number(&self) -> PyResult<u32> {
        Ok(self.position().fullmove_number())
    }

    fn chess960(&self) -> PyResult<bool> {
        Ok(self.chess960)
    }

    fn king(&self, color: Color) -> PyResult<Option<u8>> {
        Ok(self
            .position()
            .board()
            .king_of(color)
            .map(|s| s.index() as u8))
    }

    fn clean_castling_rights(&self) -> PyResult<u64> {
        if self.stack_len() == 0 {
            return Ok(self.setup_state().clean_castling_rights().0);
        }
        self.castling_rights()
    }
}

impl Placement for SetupGame {
    #[inline]
    fn placement(&self) -> &shatranj_chess::Board {
        &self.setup().board
    }

    fn setup_state(&self) -> Setup {
        *self.setup()
    }

    fn _setup(&self) -> PyResult<Option<PySetup>> {
        Ok(Some(self.now().clone()))
    }

    fn turn(&self) -> PyResult<bool> {
        Ok(py_color(self.setup().turn))
    }

    fn castling_rights(&self) -> PyResult<u64> {
        Ok(self.setup().castling_rights.0)
    }

    fn has_castling_rights(&self, color: Color) -> PyResult<bool> {
        Ok(self.usable_castling_rights() & backrank(color).0 != 0)
    }

    fn has_kingside_castling_rights(&self, color: Color) -> PyResult<bool> {
        Ok(self.side_rights(color, false))
    }

    fn has_queenside_castling_rights(&self, color: Color) -> PyResult<bool> {
        Ok(self.side_rights(color, true))
    }

    fn ep_square(&self) -> PyResult<Option<u8>> {
        Ok(self.setup().ep_square.map(|s| s.index() as u8))
    }

    fn halfmove_clock(&self) -> PyResult<u32> {
        Ok(self.setup().halfmove_clock)
    }

    fn fullmove_number(&self) -> PyResult<u32> {
        Ok(self.setup().fullmove_number)
    }

    fn chess960(&self) -> PyResult<bool> {
        Ok(self.setup().chess960)
    }

    fn king(&self, color: Color) -> PyResult<Option<u8>> {
        Ok(self.setup().king(color).map(|s| s.index() as u8))
    }

    fn clean_castling_rights(&self) -> PyResult<u64> {
        Ok(self.usable_castling_rights())
    }

    fn promoted(&self) -> PyResult<u64> {
        Ok(self.setup().promoted.0)
    }
}

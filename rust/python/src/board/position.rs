//! What is on the board: side to move, castling rights, en-passant square, clocks, occupancy
//! and pieces by square, type and colour; and python-chess's equality, which compares these.

use super::{Board, BoardState, read};
use crate::args::{self, py_color, square_set};
use crate::piece;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use shatranj_chess::{Bitboard, CastlingSide, Color, Position, Role};

fn role_mask(pos: &Position, role: Role) -> u64 {
    pos.board().by_role(role).0
}

impl BoardState {
    pub(crate) fn turn(&self) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(py_color(g.setup().turn));
        }
        Ok(py_color(self.position().turn()))
    }

    pub(crate) fn castling_rights(&self) -> PyResult<u64> {
        if let Some(g) = &self.setup {
            return Ok(g.setup().castling_rights.0);
        }
        if let Some((raw, _)) = self.raw {
            return Ok(raw);
        }
        Ok({
            let rights = self.position().castling_rights();
            let mut mask = 0u64;
            for color in Color::ALL {
                for side in CastlingSide::ALL {
                    if let Some(rook) = rights.rook_square(color, side) {
                        mask |= 1 << rook.index();
                    }
                }
            }
            mask
        })
    }

    pub(crate) fn has_castling_rights(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            let rank = Bitboard::from_rank(args::color(color)?.back_rank());
            return Ok(g.clean_castling_rights() & rank.0 != 0);
        }
        let c = args::color(color)?;
        Ok(!self.position().castling_rights().of(c).is_empty())
    }

    pub(crate) fn has_kingside_castling_rights(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(g.side_rights(args::color(color)?, false));
        }
        let c = args::color(color)?;
        Ok(self
            .position()
            .castling_rights()
            .has(c, CastlingSide::KingSide))
    }

    pub(crate) fn has_queenside_castling_rights(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(g.side_rights(args::color(color)?, true));
        }
        let c = args::color(color)?;
        Ok(self
            .position()
            .castling_rights()
            .has(c, CastlingSide::QueenSide))
    }

    pub(crate) fn ep_square(&self) -> PyResult<Option<u8>> {
        if let Some(g) = &self.setup {
            return Ok(g.setup().ep_square.map(|s| s.index() as u8));
        }
        if let Some((_, raw)) = self.raw {
            return Ok(raw);
        }
        Ok(self.position().ep_square().map(|s| s.index() as u8))
    }

    pub(crate) fn halfmove_clock(&self) -> PyResult<u32> {
        if let Some(g) = &self.setup {
            return Ok(g.setup().halfmove_clock);
        }
        Ok(self.position().halfmove_clock())
    }

    pub(crate) fn fullmove_number(&self) -> PyResult<u32> {
        if let Some(g) = &self.setup {
            return Ok(g.setup().fullmove_number);
        }
        Ok(self.position().fullmove_number())
    }

    pub(crate) fn occupied(&self) -> PyResult<u64> {
        if let Some(g) = &self.setup {
            return Ok(g.setup().board.occupied().0);
        }
        Ok(self.position().board().occupied().0)
    }

    pub(crate) fn occupied_co(&self) -> PyResult<[u64; 2]> {
        if let Some(g) = &self.setup {
            let b = &g.setup().board;
            return Ok([b.by_color(Color::Black).0, b.by_color(Color::White).0]);
        }
        Ok({
            let b = self.position().board();
            [b.by_color(Color::Black).0, b.by_color(Color::White).0]
        })
    }

    pub(crate) fn pawns(&self) -> PyResult<u64> {
        if let Some(g) = &self.setup {
            return Ok(g.setup().board.by_role(Role::Pawn).0);
        }
        Ok(role_mask(self.position(), Role::Pawn))
    }

    pub(crate) fn knights(&self) -> PyResult<u64> {
        if let Some(g) = &self.setup {
            return Ok(g.setup().board.by_role(Role::Knight).0);
        }
        Ok(role_mask(self.position(), Role::Knight))
    }

    pub(crate) fn bishops(&self) -> PyResult<u64> {
        if let Some(g) = &self.setup {
            return Ok(g.setup().board.by_role(Role::Bishop).0);
        }
        Ok(role_mask(self.position(), Role::Bishop))
    }

    pub(crate) fn rooks(&self) -> PyResult<u64> {
        if let Some(g) = &self.setup {
            return Ok(g.setup().board.by_role(Role::Rook).0);
        }
        Ok(role_mask(self.position(), Role::Rook))
    }

    pub(crate) fn queens(&self) -> PyResult<u64> {
        if let Some(g) = &self.setup {
            return Ok(g.setup().board.by_role(Role::Queen).0);
        }
        Ok(role_mask(self.position(), Role::Queen))
    }

    pub(crate) fn kings(&self) -> PyResult<u64> {
        if let Some(g) = &self.setup {
            return Ok(g.setup().board.by_role(Role::King).0);
        }
        Ok(role_mask(self.position(), Role::King))
    }

    pub(crate) fn chess960(&self) -> PyResult<bool> {
        Ok(self.chess960)
    }

    pub(crate) fn piece_at<'py>(
        &self,
        py: Python<'py>,
        square: i64,
    ) -> PyResult<Option<Bound<'py, piece::Piece>>> {
        if let Some(g) = &self.setup {
            return g.piece_at(py, square);
        }
        let sq = args::square(square)?;
        self.position()
            .piece_at(sq)
            .map(|p| piece::interned(py, p))
            .transpose()
    }

    /// Square → piece for the pieces on `mask`, highest square first (python-chess's order).
    pub(crate) fn piece_map<'py>(
        &self,
        py: Python<'py>,
        mask: u64,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let occupied = match &self.setup {
            Some(g) => g.setup().board.occupied(),
            None => self.position().board().occupied(),
        };
        let map = pyo3::types::PyDict::new(py);
        let mut squares = occupied.0 & mask;
        while squares != 0 {
            let sq = 63 - squares.leading_zeros() as i64;
            squares &= !(1u64 << sq);
            if let Some(piece) = self.piece_at(py, sq)? {
                map.set_item(sq, piece)?;
            }
        }
        Ok(map)
    }

    pub(crate) fn piece_type_at(&self, square: i64) -> PyResult<Option<u8>> {
        if let Some(g) = &self.setup {
            return Ok(g
                .setup()
                .board
                .role_at(args::square(square)?)
                .map(args::piece_type));
        }
        let sq = args::square(square)?;
        Ok(self.position().board().role_at(sq).map(args::piece_type))
    }

    pub(crate) fn color_at(&self, square: i64) -> PyResult<Option<bool>> {
        if let Some(g) = &self.setup {
            return Ok(g
                .setup()
                .board
                .color_at(args::square(square)?)
                .map(py_color));
        }
        let sq = args::square(square)?;
        Ok(self.position().board().color_at(sq).map(py_color))
    }

    pub(crate) fn king(&self, color: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
        if let Some(g) = &self.setup {
            return Ok(g.setup().king(args::color(color)?).map(|s| s.index() as u8));
        }
        let c = args::color(color)?;
        Ok(self.position().board().king_of(c).map(|s| s.index() as u8))
    }

    pub(crate) fn pieces_mask(&self, piece_type: i64, color: &Bound<'_, PyAny>) -> PyResult<u64> {
        if let Some(g) = &self.setup {
            let piece = shatranj_chess::Piece::new(args::color(color)?, args::role(piece_type)?);
            return Ok(g.setup().board.by_piece(piece).0);
        }
        let piece = shatranj_chess::Piece::new(args::color(color)?, args::role(piece_type)?);
        Ok(self.position().board().by_piece(piece).0)
    }

    pub(crate) fn pieces<'py>(
        &self,
        py: Python<'py>,
        piece_type: i64,
        color: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        square_set(py, Bitboard(self.pieces_mask(piece_type, color)?))
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
            let mine = self.fen(false, "legal", None)?;
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

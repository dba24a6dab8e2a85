//! `CastlingRights`: which of the four castlings are still permanently possible (R3.8b).

use crate::types::{Color, Square};
use core::fmt;

/// A set of castling rights. A right is *permanently* lost when the king or that rook moves
/// (or the rook is captured); temporary obstacles never remove it (R3.8b, R4.8).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

/// Kingside or queenside.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    KingSide,
    QueenSide,
}

impl CastlingSide {
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// Where the king lands (g1/c1 for White).
    pub fn king_to(self, color: Color) -> Square {
        let sq = match self {
            CastlingSide::KingSide => Square::G1,
            CastlingSide::QueenSide => Square::C1,
        };
        color.fold_wb(sq, sq.flip_vertical())
    }

    /// Where the rook starts (h1/a1 for White).
    pub fn rook_from(self, color: Color) -> Square {
        let sq = match self {
            CastlingSide::KingSide => Square::H1,
            CastlingSide::QueenSide => Square::A1,
        };
        color.fold_wb(sq, sq.flip_vertical())
    }

    /// Where the rook lands: the square the king crossed (f1/d1 for White).
    pub fn rook_to(self, color: Color) -> Square {
        let sq = match self {
            CastlingSide::KingSide => Square::F1,
            CastlingSide::QueenSide => Square::D1,
        };
        color.fold_wb(sq, sq.flip_vertical())
    }
}

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights(0);
    pub const WHITE_KING: CastlingRights = CastlingRights(1);
    pub const WHITE_QUEEN: CastlingRights = CastlingRights(2);
    pub const BLACK_KING: CastlingRights = CastlingRights(4);
    pub const BLACK_QUEEN: CastlingRights = CastlingRights(8);
    pub const ALL: CastlingRights = CastlingRights(15);

    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.0
    }

    #[inline]
    pub const fn from_bits(bits: u8) -> CastlingRights {
        CastlingRights(bits & 15)
    }

    pub const fn single(color: Color, side: CastlingSide) -> CastlingRights {
        let bit = match side {
            CastlingSide::KingSide => 1,
            CastlingSide::QueenSide => 2,
        };
        CastlingRights(match color {
            Color::White => bit,
            Color::Black => bit << 2,
        })
    }

    #[inline]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & CastlingRights::single(color, side).0 != 0
    }

    #[inline]
    pub const fn contains(self, other: CastlingRights) -> bool {
        self.0 & other.0 == other.0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn union(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 | other.0)
    }

    #[inline]
    pub const fn without(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 & !other.0)
    }

    /// The rights of one colour only.
    #[inline]
    pub const fn of(self, color: Color) -> CastlingRights {
        CastlingRights(self.0 & if color.is_white() { 3 } else { 12 })
    }

    /// Rights that survive a move touching `sq` (as origin or destination): moving the king
    /// loses both, moving or capturing a rook on its corner loses that one (R3.8b).
    #[inline(always)]
    pub(crate) fn keep_mask(sq: Square) -> u8 {
        KEEP[sq.index()]
    }
}

static KEEP: [u8; 64] = {
    let mut t = [15u8; 64];
    t[0] = 15 & !2; // a1
    t[4] = 15 & !3; // e1
    t[7] = 15 & !1; // h1
    t[56] = 15 & !8; // a8
    t[60] = 15 & !12; // e8
    t[63] = 15 & !4; // h8
    t
};

impl fmt::Display for CastlingRights {
    /// The castling field of FEN: `KQkq`, or `-` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("-");
        }
        for (bit, c) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
            if self.0 & bit != 0 {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CastlingRights({self})")
    }
}

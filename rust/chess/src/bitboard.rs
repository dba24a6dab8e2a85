//! `Bitboard`: a set of squares as a 64-bit word, bit `i` standing for square `i` (a1 = bit 0).

use crate::{File, Rank, Square};
use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);
    pub const DARK_SQUARES: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);
    pub const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);
    pub const BACKRANKS: Bitboard = Bitboard(0xFF00_0000_0000_00FF);

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    #[inline]
    pub const fn from_file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file as u32)
    }

    #[inline]
    pub const fn from_rank(rank: Rank) -> Bitboard {
        Bitboard(0xFF << (8 * rank as u32))
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_masked(self.0.trailing_zeros()))
        }
    }

    /// The highest square, if any.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_masked(self.0.ilog2()))
        }
    }

    /// The only square, if there is exactly one.
    #[inline]
    pub const fn single_square(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            self.first()
        } else {
            None
        }
    }

    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    #[inline(always)]
    pub const fn toggled(self, sq: Square) -> Bitboard {
        Bitboard(self.0 ^ 1 << sq.index())
    }

    #[inline(always)]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// Rotates the board by `amount` bit positions; used with file masks to shift pawns
    /// forward for either colour without a branch.
    #[inline(always)]
    pub const fn rotate_left(self, amount: u32) -> Bitboard {
        Bitboard(self.0.rotate_left(amount))
    }

    /// Mirror vertically (rank 1 ↔ rank 8).
    #[inline]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }
}

// A bitboard is its own iterator of squares (pop the lowest bit), as in shakmaty and most
// engines; `for sq in bb` consumes a copy, so the original stays usable by design.
#[allow(clippy::copy_iterator)]
impl Iterator for Bitboard {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_index_masked(self.0.trailing_zeros());
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bit_ops {
    ($($tr:ident $f:ident $op:tt $tra:ident $fa:ident),*) => {$(
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $tr<Square> for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Square) -> Bitboard { Bitboard(self.0 $op (1u64 << rhs.index())) }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
        impl $tra<Square> for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Square) { self.0 = self.0 $op (1u64 << rhs.index()); }
        }
    )*};
}

bit_ops!(BitAnd bitand & BitAndAssign bitand_assign, BitOr bitor | BitOrAssign bitor_assign, BitXor bitxor ^ BitXorAssign bitxor_assign);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Set difference.
impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the board, rank 8 at the top, `1` for members.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let bit = self.0 >> (rank * 8 + file) & 1;
                write!(f, "{}", if bit == 1 { '1' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

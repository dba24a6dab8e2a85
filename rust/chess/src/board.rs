//! `Board`: piece placement only, as bitboards by role and by colour.

use crate::bitboard::Bitboard;
use crate::{Color, File, Piece, Rank, Role, Square};
use core::fmt;

/// Where the pieces stand. Invariant: the role boards are disjoint, the colour boards are
/// disjoint, and both partitions cover exactly the occupied squares.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    pub(crate) by_role: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
}

impl Board {
    /// python-chess's `has_insufficient_material`: `color` cannot mate even with the
    /// opponent's help, judged by material alone (the automatic-mode list of R5.2). On the
    /// board, so that positions and setups (any placement) share the one rule.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let b = self;
        let ours = b.by_color(color);
        if (ours & (b.pawns() | b.rooks() | b.queens())).any() {
            return false;
        }
        if (ours & b.knights()).any() {
            // A lone knight, and an opponent without pieces that could block a self-mate.
            return ours.count() <= 2
                && (b.by_color(color.other()) & !b.kings() & !b.queens()).is_empty();
        }
        if (ours & b.bishops()).any() {
            let same_colour = (b.bishops() & Bitboard::DARK_SQUARES).is_empty()
                || (b.bishops() & Bitboard::LIGHT_SQUARES).is_empty();
            return same_colour && b.pawns().is_empty() && b.knights().is_empty();
        }
        true
    }

    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
        }
    }

    /// The start position's placement (R1.2).
    pub const fn starting() -> Board {
        Board {
            by_role: [
                Bitboard(0x00FF_0000_0000_FF00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            by_color: [Bitboard(0xFFFF), Bitboard(0xFFFF_0000_0000_0000)],
        }
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    #[inline(always)]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_color(piece.color)
    }

    #[inline(always)]
    pub fn pawns(&self) -> Bitboard {
        self.by_role[0]
    }
    #[inline(always)]
    pub fn knights(&self) -> Bitboard {
        self.by_role[1]
    }
    #[inline(always)]
    pub fn bishops(&self) -> Bitboard {
        self.by_role[2]
    }
    #[inline(always)]
    pub fn rooks(&self) -> Bitboard {
        self.by_role[3]
    }
    #[inline(always)]
    pub fn queens(&self) -> Bitboard {
        self.by_role[4]
    }
    #[inline(always)]
    pub fn kings(&self) -> Bitboard {
        self.by_role[5]
    }
    /// Bishops and queens: the pieces that move diagonally.
    #[inline(always)]
    pub fn diagonal_sliders(&self) -> Bitboard {
        self.by_role[2] | self.by_role[4]
    }
    /// Rooks and queens: the pieces that move along ranks and files.
    #[inline(always)]
    pub fn orthogonal_sliders(&self) -> Bitboard {
        self.by_role[3] | self.by_role[4]
    }

    /// The king of `color`, if there is one (a legal `Position` always has exactly one).
    #[inline(always)]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.kings() & self.by_color(color)).first()
    }

    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|r| self.by_role[r.index()].contains(sq))
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece::new(self.color_at(sq)?, self.role_at(sq)?))
    }

    /// Puts a piece on a square, replacing whatever stood there.
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.discard_piece_at(sq);
        self.by_role[piece.role.index()] |= sq;
        self.by_color[piece.color.index()] |= sq;
    }

    /// Removes and returns the piece on `sq`.
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.discard_piece_at(sq);
        Some(piece)
    }

    #[inline(always)]
    pub(crate) fn discard_piece_at(&mut self, sq: Square) {
        let keep = !Bitboard::from_square(sq);
        for bb in &mut self.by_role {
            *bb &= keep;
        }
        self.by_color[0] &= keep;
        self.by_color[1] &= keep;
    }

    /// Every piece with its square, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .filter_map(move |sq| Some((sq, self.piece_at(sq)?)))
    }

    /// The placement field of FEN.
    pub fn board_fen(&self) -> String {
        crate::fen::FenText::board_fen(self).as_str().to_owned()
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::starting()
    }
}

impl fmt::Display for Board {
    /// The python-chess text diagram: rank 8 first, `.` for empty squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.into_iter().rev() {
            for file in File::ALL {
                if file != File::A {
                    f.write_str(" ")?;
                }
                let c = self
                    .piece_at(Square::from_coords(file, rank))
                    .map_or('.', Piece::char);
                write!(f, "{c}")?;
            }
            if rank != Rank::First {
                f.write_str("\n")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({:?})", self.board_fen())
    }
}

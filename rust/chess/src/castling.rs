//! `CastlingRights`: which of the four castlings are still permanently possible (R3.8b), and
//! with which rook: standard chess and Chess960 in one type.
//!
//! A right belongs to a colour and a side and names the king's home file and its rook's
//! file, as X-FEN and Shredder-FEN do. Standard chess is the layout with both kings on the
//! e-file and the rooks in the corners; move generation keeps its constant-square fast path
//! for it and works the squares out from the files otherwise. The Polyglot key hashes only
//! which (colour, side) rights are held, as python-chess does in both modes, so keys of
//! standard positions are unchanged.

use crate::attacks::between;
use crate::bitboard::Bitboard;
use crate::{Color, File, Square};
use core::fmt;

/// How castling rights are read from FEN and castling moves written in UCI (shakmaty's
/// `CastlingMode` is the model).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum CastlingMode {
    /// Kings on e1/e8, rooks in the corners, `KQkq`; castling written as the king's move
    /// (`e1g1`).
    #[default]
    Standard,
    /// Any king between two rooks on the first rank; X-FEN or Shredder-FEN rights; castling
    /// written as the king taking its own rook (`e1h1`).
    Chess960,
}

impl CastlingMode {
    pub const fn from_chess960(chess960: bool) -> CastlingMode {
        if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    pub const fn is_chess960(self) -> bool {
        matches!(self, CastlingMode::Chess960)
    }
}

/// A set of castling rights. A right is *permanently* lost when the king or that rook moves
/// (or the rook is captured); temporary obstacles never remove it (R3.8b, R4.8).
///
/// Packed in 32 bits: bits 0–3 the rights K, Q, k, q; bits 8–15 each king's home file
/// (White's in the low nibble); bits 16–31 each right's rook file (nibble `i` for right
/// bit `i`). A file that belongs to no held right is kept at its standard value (e, h, a),
/// so that equal rights compare and hash equal.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct CastlingRights(u32);

/// Kings on e, rooks on h, a, h, a: the standard layout above the rights bits.
const STANDARD_LAYOUT: u32 = 0x0707_4400;

/// Kingside or queenside.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    KingSide,
    QueenSide,
}

impl CastlingSide {
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// Where the king lands (g1/c1 for White), in standard chess and Chess960 alike.
    pub fn king_to(self, color: Color) -> Square {
        let sq = match self {
            CastlingSide::KingSide => Square::G1,
            CastlingSide::QueenSide => Square::C1,
        };
        color.fold_wb(sq, sq.flip_vertical())
    }

    /// Where the rook starts in standard chess (h1/a1 for White); in Chess960 see
    /// [`CastlingRights::rook_square`].
    pub fn rook_from(self, color: Color) -> Square {
        let sq = match self {
            CastlingSide::KingSide => Square::H1,
            CastlingSide::QueenSide => Square::A1,
        };
        color.fold_wb(sq, sq.flip_vertical())
    }

    /// Where the rook lands: f1/d1 for White, in standard chess and Chess960 alike.
    pub fn rook_to(self, color: Color) -> Square {
        let sq = match self {
            CastlingSide::KingSide => Square::F1,
            CastlingSide::QueenSide => Square::D1,
        };
        color.fold_wb(sq, sq.flip_vertical())
    }

    /// The side of a castling move by where its king lands (the g- or c-file). In Chess960
    /// the king may not move at all, so the origin cannot tell.
    pub fn of_king_to(king_to: Square) -> CastlingSide {
        if king_to.file() >= File::E {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    }

    /// The side a rook on `rook` is on, seen from a king on `king` (same rank).
    pub fn of_rook(king: Square, rook: Square) -> CastlingSide {
        if rook.file() > king.file() {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    }

    const fn index(self) -> u32 {
        match self {
            CastlingSide::KingSide => 0,
            CastlingSide::QueenSide => 1,
        }
    }
}

/// The squares of one castling (R3.8b, Chess960 included): where king and rook start and
/// land, which squares must be empty (all that either crosses or lands on, but the two
/// themselves), and which the king crosses or lands on (these must not be attacked).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Castling {
    pub side: CastlingSide,
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
    pub must_be_empty: Bitboard,
    pub king_path: Bitboard,
}

/// The index of a right's bit (and of its rook-file nibble).
const fn right_index(color: Color, side: CastlingSide) -> u32 {
    2 * color.index() as u32 + side.index()
}

/// The standard rook file of right `i`: h for kingside (even `i`), a for queenside.
const fn standard_rook_file(i: u32) -> u32 {
    if i & 1 == 0 { 7 } else { 0 }
}

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights(STANDARD_LAYOUT);
    pub const WHITE_KING: CastlingRights = CastlingRights(STANDARD_LAYOUT | 1);
    pub const WHITE_QUEEN: CastlingRights = CastlingRights(STANDARD_LAYOUT | 2);
    pub const BLACK_KING: CastlingRights = CastlingRights(STANDARD_LAYOUT | 4);
    pub const BLACK_QUEEN: CastlingRights = CastlingRights(STANDARD_LAYOUT | 8);
    pub const ALL: CastlingRights = CastlingRights(STANDARD_LAYOUT | 15);

    /// The rights held, one bit each: K 1, Q 2, k 4, q 8 (whatever the rooks' files).
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        (self.0 & 15) as u8
    }

    /// Standard-chess rights from their bits.
    #[inline]
    pub const fn from_bits(bits: u8) -> CastlingRights {
        CastlingRights(STANDARD_LAYOUT | (bits & 15) as u32)
    }

    /// One standard-chess right.
    pub const fn single(color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights(STANDARD_LAYOUT | 1 << right_index(color, side))
    }

    #[inline]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & 1 << right_index(color, side) != 0
    }

    /// Whether every right of `other` is held here (by colour and side).
    #[inline]
    pub const fn contains(self, other: CastlingRights) -> bool {
        self.bits() & other.bits() == other.bits()
    }

    #[inline]
    // The four right bits read as a mask; `trailing_zeros() >= 4` would hide that.
    #[allow(clippy::verbose_bit_mask)]
    pub const fn is_empty(self) -> bool {
        self.0 & 15 == 0
    }

    /// Both sets' rights; a right held by both keeps `self`'s files.
    pub fn union(self, other: CastlingRights) -> CastlingRights {
        let mut out = self;
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if !self.has(color, side) && other.has(color, side) {
                    let king = other.king_file(color).unwrap_or(File::E);
                    let rook = other.rook_file(color, side).unwrap_or(File::A);
                    out = out.with(color, side, king, rook);
                }
            }
        }
        out
    }

    /// These rights less those of `other` (by colour and side).
    pub fn without(self, other: CastlingRights) -> CastlingRights {
        let mut out = self;
        for i in 0..4 {
            if other.0 & 1 << i != 0 {
                out = out.without_index(i);
            }
        }
        out
    }

    /// The rights of one colour only.
    pub fn of(self, color: Color) -> CastlingRights {
        self.without(CastlingRights::from_bits(match color {
            Color::White => 12,
            Color::Black => 3,
        }))
    }

    /// These rights without any of `color`'s (its king has moved).
    pub fn without_color(self, color: Color) -> CastlingRights {
        self.without(CastlingRights::from_bits(match color {
            Color::White => 3,
            Color::Black => 12,
        }))
    }

    /// These rights plus the right of `color` on `side` with the king's home on `king` and
    /// the rook on `rook` (both on `color`'s first rank); replaces a right of the same colour
    /// and side. The colour's other right, if any, is assumed to share the king's file.
    pub fn with(self, color: Color, side: CastlingSide, king: File, rook: File) -> CastlingRights {
        let i = right_index(color, side);
        let king_shift = 8 + 4 * color.index() as u32;
        let rook_shift = 16 + 4 * i;
        let cleared = self.0 & !(0xF << king_shift) & !(0xF << rook_shift);
        CastlingRights(cleared | 1 << i | king.index() << king_shift | rook.index() << rook_shift)
    }

    /// Drops right `i`, restoring the standard files that no held right needs any more.
    fn without_index(self, i: u32) -> CastlingRights {
        let rook_shift = 16 + 4 * i;
        let mut bits =
            (self.0 & !(1 << i) & !(0xF << rook_shift)) | standard_rook_file(i) << rook_shift;
        let color_bits = 3 << (i & !1);
        if bits & color_bits == 0 {
            let king_shift = 8 + 4 * (i / 2);
            bits = (bits & !(0xF << king_shift)) | 4 << king_shift;
        }
        CastlingRights(bits)
    }

    /// The home file of `color`'s king, if it holds a right.
    pub fn king_file(self, color: Color) -> Option<File> {
        let bits = 3 << (2 * color.index());
        if self.0 & bits == 0 {
            return None;
        }
        File::new(self.0 >> (8 + 4 * color.index() as u32) & 7)
    }

    /// The home square of `color`'s king, if it holds a right.
    pub fn king_square(self, color: Color) -> Option<Square> {
        let file = self.king_file(color)?;
        Some(Square::from_coords(file, color.back_rank()))
    }

    /// The file of the rook of `color`'s right on `side`, if held.
    pub fn rook_file(self, color: Color, side: CastlingSide) -> Option<File> {
        if !self.has(color, side) {
            return None;
        }
        File::new(self.0 >> (16 + 4 * right_index(color, side)) & 7)
    }

    /// The square of the rook of `color`'s right on `side`, if held.
    pub fn rook_square(self, color: Color, side: CastlingSide) -> Option<Square> {
        let file = self.rook_file(color, side)?;
        Some(Square::from_coords(file, color.back_rank()))
    }

    /// Whether every right held is standard chess's (kings on e1/e8, rooks in the corners).
    /// Rights that are empty are standard too.
    #[inline(always)]
    pub const fn is_standard(self) -> bool {
        self.0 & !15 == STANDARD_LAYOUT
    }

    /// The squares of `color`'s castling on `side`, if the right is held.
    pub fn castling(self, color: Color, side: CastlingSide) -> Option<Castling> {
        let king_from = self.king_square(color)?;
        let rook_from = self.rook_square(color, side)?;
        let king_to = side.king_to(color);
        let rook_to = side.rook_to(color);
        let king_path = between(king_from, king_to) | Bitboard::from_square(king_to);
        let rook_path = between(rook_from, rook_to) | Bitboard::from_square(rook_to);
        let must_be_empty = (king_path | rook_path)
            & !Bitboard::from_square(king_from)
            & !Bitboard::from_square(rook_from);
        Some(Castling {
            side,
            king_from,
            king_to,
            rook_from,
            rook_to,
            must_be_empty,
            king_path,
        })
    }

    /// Rights that survive a move from `from` to `to` (the castling king's own move
    /// included): moving the king loses both of its colour's, moving or capturing a castling
    /// rook loses its right (R3.8b).
    #[inline(always)]
    pub(crate) fn after_move(self, from: Square, to: Square) -> CastlingRights {
        if self.is_standard() {
            let keep = KEEP[from.index()] & KEEP[to.index()];
            CastlingRights(self.0 & (u32::from(keep) | !15))
        } else {
            self.after_move_960(from, to)
        }
    }

    #[cold]
    #[inline(never)]
    fn after_move_960(self, from: Square, to: Square) -> CastlingRights {
        let mut out = self;
        for color in Color::ALL {
            if self.king_square(color) == Some(from) {
                out = out.without_color(color);
            }
            for side in CastlingSide::ALL {
                if let Some(rook) = self.rook_square(color, side)
                    && (rook == from || rook == to)
                {
                    out = out.without_index(right_index(color, side));
                }
            }
        }
        out
    }

    /// The same rights with the colours swapped (for a board mirrored top to bottom).
    pub fn mirrored(self) -> CastlingRights {
        let mut out = CastlingRights::NONE;
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let (Some(king), Some(rook)) =
                    (self.king_file(color), self.rook_file(color, side))
                {
                    out = out.with(color.other(), side, king, rook);
                }
            }
        }
        out
    }
}

impl Default for CastlingRights {
    fn default() -> CastlingRights {
        CastlingRights::NONE
    }
}

/// For the standard layout, by square: the rights that survive a move touching it.
static KEEP: [u8; 64] = {
    let mut t = [15u8; 64];
    t[0] = 0b1111 & !0b0010; // a1
    t[4] = 0b1111 & !0b0011; // e1
    t[7] = 0b1111 & !0b0001; // h1
    t[56] = 0b1111 & !0b1000; // a8
    t[60] = 0b1111 & !0b1100; // e8
    t[63] = 0b1111 & !0b0100; // h8
    t
};

impl fmt::Display for CastlingRights {
    /// `KQkq` (or `-` when empty) for standard rights; Shredder-FEN letters (`HAha`) for any
    /// other. A position's X-FEN needs the board: see [`crate::fen::castling_xfen`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(file) = self.rook_file(color, side) {
                    let c = if self.is_standard() {
                        match side {
                            CastlingSide::KingSide => 'k',
                            CastlingSide::QueenSide => 'q',
                        }
                    } else {
                        file.char()
                    };
                    let c = if color.is_white() {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    };
                    write!(f, "{c}")?;
                }
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

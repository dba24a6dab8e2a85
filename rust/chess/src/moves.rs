//! `Move`: a move packed in 16 bits, and `MoveList`, a fixed-capacity list on the stack.

use crate::{Role, Square};
use core::fmt;

/// What kind of move a [`Move`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A piece move, pawn push or capture without promotion.
    Normal,
    /// A pawn capturing en passant (R3.7d).
    EnPassant,
    /// Castling, written as the king's two-square move (R3.8b).
    Castle,
    /// A pawn reaching the last rank and becoming `Role` (R3.7e).
    Promotion(Role),
}

/// A move: origin, destination and kind, packed as `from | to << 6 | flag << 12`.
/// Castling is stored as the king's move (e1g1), as UCI writes it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

const FLAG_NORMAL: u16 = 0;
const FLAG_EN_PASSANT: u16 = 1;
const FLAG_CASTLE: u16 = 2;
// Promotion flags are 4 + (role index - 1): knight 4, bishop 5, rook 6, queen 7.
const FLAG_PROMOTION: u16 = 4;
// A "promotion" to pawn or king is never legal, but `Move::new` must still encode it
// faithfully (not as a normal move, and without overflowing), so `is_legal` can reject it.
const FLAG_PROMOTION_PAWN: u16 = 8;
const FLAG_PROMOTION_KING: u16 = 9;

impl Move {
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let flag = match kind {
            MoveKind::Normal => FLAG_NORMAL,
            MoveKind::EnPassant => FLAG_EN_PASSANT,
            MoveKind::Castle => FLAG_CASTLE,
            MoveKind::Promotion(Role::Pawn) => FLAG_PROMOTION_PAWN,
            MoveKind::Promotion(Role::King) => FLAG_PROMOTION_KING,
            MoveKind::Promotion(role) => FLAG_PROMOTION + (role as u16 - 2),
        };
        Move(from.index() as u16 | (to.index() as u16) << 6 | flag << 12)
    }

    /// The null move (a1 to a1, never a legal move): passes the turn, as python-chess's
    /// `Move.null()`; [`History::push_null`](crate::History::push_null) plays it.
    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_masked((self.0 & 63) as u32)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_masked((self.0 >> 6 & 63) as u32)
    }

    #[inline(always)]
    const fn flag(self) -> u16 {
        self.0 >> 12
    }

    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.flag() {
            FLAG_EN_PASSANT => MoveKind::EnPassant,
            FLAG_CASTLE => MoveKind::Castle,
            4 => MoveKind::Promotion(Role::Knight),
            5 => MoveKind::Promotion(Role::Bishop),
            6 => MoveKind::Promotion(Role::Rook),
            7 => MoveKind::Promotion(Role::Queen),
            FLAG_PROMOTION_PAWN => MoveKind::Promotion(Role::Pawn),
            FLAG_PROMOTION_KING => MoveKind::Promotion(Role::King),
            _ => MoveKind::Normal,
        }
    }

    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }

    #[inline]
    pub const fn is_castle(self) -> bool {
        self.flag() == FLAG_CASTLE
    }

    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.flag() == FLAG_EN_PASSANT
    }

    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.flag() >= FLAG_PROMOTION
    }

    /// The raw 16-bit encoding (stable within a version; for hash tables and the like).
    #[inline]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// UCI text: `e2e4`, `e7e8q`, castling as the king's move `e1g1`.
    pub fn to_uci(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    /// Writes the move in UCI notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// Moves stored inline. No position reachable from the start has more than 218 legal moves;
/// contrived but valid set-ups can have more (270 with fifteen queens), and those spill to
/// the heap instead of being cut off.
pub const INLINE_MOVES: usize = 256;

/// A list of moves stored inline, so generating moves does not allocate in practice.
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; INLINE_MOVES],
    /// Every move, once more than `INLINE_MOVES` were pushed; empty (unallocated) otherwise.
    spill: Vec<Move>,
}

impl MoveList {
    #[inline(always)]
    pub const fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [Move(0); INLINE_MOVES],
            spill: Vec::new(),
        }
    }

    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if self.len < INLINE_MOVES {
            self.moves[self.len] = m;
        } else {
            self.push_spilled(m);
        }
        self.len += 1;
    }

    #[cold]
    fn push_spilled(&mut self, m: Move) {
        if self.spill.is_empty() {
            self.spill.extend_from_slice(&self.moves);
        }
        self.spill.push(m);
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        if self.len <= INLINE_MOVES {
            &self.moves[..self.len]
        } else {
            &self.spill
        }
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        if self.len <= INLINE_MOVES {
            &mut self.moves[..self.len]
        } else {
            &mut self.spill
        }
    }

    pub fn contains(&self, m: &Move) -> bool {
        self.as_slice().contains(m)
    }

    pub fn iter(&self) -> core::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

//! Polyglot Zobrist keys. The key of a position equals python-chess's
//! `chess.polyglot.zobrist_hash`: pieces, castling rights, the en-passant file *only when a
//! pawn of the side to move stands beside the double-pushed pawn*, and the white-to-move key.

use crate::castling::CastlingRights;
// Polyglot's published numbers, copied digit for digit: separators would only hide typos.
#[allow(clippy::unreadable_literal)]
mod polyglot_randoms;

use crate::{Color, File, Piece, Square};
use polyglot_randoms::POLYGLOT;

#[inline(always)]
pub(crate) fn piece_key(piece: Piece, sq: Square) -> u64 {
    let kind = 2 * piece.role.index() + usize::from(piece.color.is_white());
    POLYGLOT[64 * kind + sq.index()]
}

/// XOR of the keys of every right in the set (precomputed for all 16 sets).
#[inline(always)]
pub(crate) fn castling_key(rights: CastlingRights) -> u64 {
    CASTLING_KEYS[rights.bits() as usize]
}

#[inline(always)]
pub(crate) fn ep_file_key(file: File) -> u64 {
    POLYGLOT[772 + file.index() as usize]
}

#[inline(always)]
pub(crate) fn turn_key(turn: Color) -> u64 {
    if turn.is_white() { POLYGLOT[780] } else { 0 }
}

/// The key flipped when the side to move changes.
pub(crate) const SIDE_KEY: u64 = POLYGLOT[780];

static CASTLING_KEYS: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut bits = 0;
    while bits < 16 {
        let mut k = 0u64;
        let mut i = 0;
        while i < 4 {
            if bits & (1 << i) != 0 {
                k ^= POLYGLOT[768 + i];
            }
            i += 1;
        }
        t[bits] = k;
        bits += 1;
    }
    t
};

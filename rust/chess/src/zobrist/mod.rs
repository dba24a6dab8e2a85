//! Polyglot Zobrist keys. The key of a position equals python-chess's
//! `chess.polyglot.zobrist_hash`: pieces, castling rights, the en-passant file *only when a
//! pawn of the side to move stands beside the double-pushed pawn*, and the white-to-move key.

use crate::board::Board;
use crate::castling::CastlingRights;
// Polyglot's published numbers, copied digit for digit: separators would only hide typos.
#[allow(clippy::unreadable_literal)]
mod polyglot_randoms;

use crate::{Color, File, Piece, Role, Square};
use polyglot_randoms::POLYGLOT;

#[inline(always)]
pub(crate) fn piece_key(piece: Piece, sq: Square) -> u64 {
    let kind = 2 * piece.role.index() + usize::from(piece.color.is_white());
    POLYGLOT[64 * kind + sq.index()]
}

/// The piece keys by piece code and square, for the FEN reader, which folds the placement's
/// key into its one pass over the placement: the code is the reader's `colour << 3 | role
/// index` (White 0, pawn 0 … king 5), and the codes that name no piece (6, 7, 14, 15) hold
/// zeros. Sixteen rows of 64, so that any 4-bit code and 6-bit square index it with no
/// bounds check. `PIECE_KEYS[code][sq]` is [`piece_key`] of that piece and square.
pub(crate) static PIECE_KEYS: [[u64; 64]; 16] = {
    let mut t = [[0u64; 64]; 16];
    let mut code = 0;
    while code < 16 {
        let (white, role) = (code >> 3 == 0, code & 7);
        if role < 6 {
            // Polyglot's piece kind: black pawn 0, white pawn 1, black knight 2, ...
            let kind = 2 * role + if white { 1 } else { 0 };
            let mut sq = 0;
            while sq < 64 {
                t[code][sq] = POLYGLOT[64 * kind + sq];
                sq += 1;
            }
        }
        code += 1;
    }
    t
};

/// The part of the key the placement gives: the XOR of every piece's key.
pub(crate) fn placement_key(board: &Board) -> u64 {
    let mut key = 0;
    // Piece by piece from the twelve bitboards: no per-square lookup of what stands there.
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = Piece::new(color, role);
            for sq in board.by_piece(piece) {
                key ^= piece_key(piece, sq);
            }
        }
    }
    key
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

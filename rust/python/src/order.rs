//! python-chess's move order, for the move lists handed to Python.
//!
//! A seeded script (`random.choice(list(board.legal_moves))`) replays the same game under
//! shatranj and python-chess only if both list the moves in the same order. The rules crate
//! generates in its own order (piece kind by piece kind, pawns set-wise), which perft and the
//! search want and which `push`'s cache keeps; so the order is made here, when a list is
//! built for Python, and only then. One pass files each move by kind into bitboards (per
//! origin where the order needs it), a second reads them back, highest square first, as
//! python-chess's `scan_reversed` does:
//!
//! 1. in check, the king's steps (python-chess generates evasions king first);
//! 2. the other piece moves (the king's too, out of check), by origin then destination;
//! 3. castling, h-side first (python-chess scans the rooks from h8 down);
//! 4. pawn captures, by origin then destination;
//! 5. single pawn pushes, then 6. double pushes, each by destination;
//! 7. en passant, by origin.
//!
//! A promotion is four moves in a row: queen, rook, bishop, knight. The pieces' and the
//! castling moves' ranks are python-chess's `generate_pseudo_legal_moves`; the evasions'
//! (its `_generate_evasions`) only move the king's steps to the front, since castling is
//! never legal in check and the rest keeps its relative order.

use shatranj_chess::{Move, Position};

/// Promotion piece types as Python numbers them, in python-chess's order.
const PROMOTIONS: [u16; 4] = [5, 4, 3, 2];

/// Squares of `bb`, highest first.
#[inline(always)]
fn descending(mut bb: u64) -> impl Iterator<Item = u16> {
    core::iter::from_fn(move || {
        (bb != 0).then(|| {
            let sq = 63 - bb.leading_zeros();
            bb ^= 1 << sq;
            sq as u16
        })
    })
}

/// Writes the Python keys of `moves` (moves of `pos`) into `out`, which must be exactly as
/// long, in python-chess's order: that of its legal-move generator when `legal` (`moves`
/// are the legal moves), else that of its pseudo-legal generator.
pub fn python_chess_keys(pos: &Position, moves: &[Move], legal: bool, out: &mut [u16]) {
    debug_assert_eq!(moves.len(), out.len());
    let board = pos.board();
    let us = pos.turn();
    let pawns = (board.pawns() & board.by_color(us)).0;
    // Out of check, python-chess's legal order is its pseudo-legal one, filtered. Attacks on
    // the king alone are cheaper than `is_check` (which also finds the pins).
    let evasions = legal && pos.is_attacked_by(us.other(), pos.king(us));
    let king = if evasions {
        pos.king(us).index() as u16
    } else {
        64 // no square: the king's steps are piece moves
    };
    // Destinations by origin, for pieces and capturing pawns (their origins differ).
    let mut targets = [0u64; 64];
    let (mut movers, mut capturers, mut singles, mut doubles) = (0u64, 0u64, 0u64, 0u64);
    let (mut king_steps, mut castles, mut en_passant) = (0u64, 0u64, 0u64);
    let (mut castle_from, mut ep_to) = (0u16, 0u16);
    for &m in moves {
        let bits = m.to_bits();
        let (from, to) = (bits & 63, bits >> 6 & 63);
        let t = 1u64 << to;
        if m.is_castle() {
            castles |= t;
            castle_from = from;
        } else if m.is_en_passant() {
            en_passant |= 1 << from;
            ep_to = to;
        } else if pawns >> from & 1 != 0 {
            // A promotion's four moves set the same bit four times.
            if (from ^ to) & 7 != 0 {
                targets[usize::from(from)] |= t;
                capturers |= 1 << from;
            } else if from.abs_diff(to) == 16 {
                doubles |= t;
            } else {
                singles |= t;
            }
        } else if from == king {
            king_steps |= t;
        } else {
            targets[usize::from(from)] |= t;
            movers |= 1 << from;
        }
    }

    let mut out = Out { keys: out, n: 0 };
    for to in descending(king_steps) {
        out.put(king | to << 6);
    }
    for from in descending(movers) {
        for to in descending(targets[usize::from(from)]) {
            out.put(from | to << 6);
        }
    }
    for to in descending(castles) {
        out.put(castle_from | to << 6);
    }
    for from in descending(capturers) {
        for to in descending(targets[usize::from(from)]) {
            out.pawn(from, to);
        }
    }
    // A push's origin is one (two) ranks behind its destination.
    let back = if us.is_white() {
        8u16.wrapping_neg()
    } else {
        8
    };
    for to in descending(singles) {
        out.pawn(to.wrapping_add(back), to);
    }
    for to in descending(doubles) {
        out.put(to.wrapping_add(2 * back) | to << 6);
    }
    for from in descending(en_passant) {
        out.put(from | ep_to << 6);
    }
    debug_assert_eq!(out.n, out.keys.len(), "every move listed once");
}

/// The keys written so far.
struct Out<'a> {
    keys: &'a mut [u16],
    n: usize,
}

impl Out<'_> {
    #[inline(always)]
    fn put(&mut self, key: u16) {
        self.keys[self.n] = key;
        self.n += 1;
    }

    /// A pawn move; onto the last rank, its four promotions.
    #[inline(always)]
    fn pawn(&mut self, from: u16, to: u16) {
        let key = from | to << 6;
        if matches!(to >> 3, 0 | 7) {
            for p in PROMOTIONS {
                self.put(key | p << 12);
            }
        } else {
            self.put(key);
        }
    }
}

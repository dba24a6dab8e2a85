//! The classical evaluation: the [`Evaluator`] trait (a batch call at its core, so a GPU back
//! end can take thousands of positions at once) and the CPU reference implementation, defined
//! on the [`PackedPosition`]'s bitboards.
//!
//! # The formula
//!
//! Every weight comes from [`EvalParams`]; all arithmetic is on `i32`, and every bitboard
//! operation is one a shader can do on a pair of `u32` halves (shifts by 7, 8, 9 across the
//! halves, AND/OR/NOT, popcount, ray walks for sliders). For each colour `c` (White `+`,
//! Black `-`) and each of its pieces of role `r` on square `s`:
//!
//! - `mg += piece_value_mg[r] + pst_mg[r][i]`, `eg += piece_value_eg[r] + pst_eg[r][i]` with
//!   `i = s ^ 56` for White and `i = s` for Black;
//! - `phase += phase_weight[r]`;
//! - knights, bishops, rooks, queens: `n` = the number of squares the piece attacks (sliders
//!   stop at the first occupied square, which counts) that hold no piece of colour `c` and are
//!   not attacked by a pawn of the other colour; `mg += (n - mobility_center[r]) *
//!   mobility_mg[r]`, likewise `eg`;
//! - rooks: on a file with no pawns `rook_open_file_*`; else on a file with no pawn of
//!   colour `c`, `rook_semi_open_file_*`;
//! - pawns on file `f`, rank `k` (0-based): isolated (no pawn of `c` on files `f ± 1`) adds
//!   `isolated_pawn_*`; passed (no enemy pawn on files `f-1..=f+1` on a rank ahead of `k` in
//!   `c`'s direction) adds `passed_pawn_*[k']` with `k' = k` for White, `7 - k` for Black;
//! - per file, `(pawns of c on it - 1) * doubled_pawn_*` when there are two or more;
//! - two or more bishops: `bishop_pair_*`;
//! - king attack: `zone` = the enemy king's square and the squares next to it; every knight,
//!   bishop, rook or queen whose attack set (as for mobility, but before removing any
//!   squares) meets the zone counts as an attacker and adds
//!   `king_attack_weight[r] * |attacks ∩ zone|` units; with two attackers or more,
//!   `mg += min(units * units * king_attack_scale / 64, king_attack_max)` (a non-negative
//!   division, so truncation is plain flooring).
//!
//! Then, from White's point of view, `p = min(phase, phase_full)` and
//! `white = (mg * p + eg * (phase_full - p)) / phase_full`, where `/` is integer division
//! **truncating toward zero** — Rust's `i32 /` and WGSL's `i32 /` both truncate, so the result
//! is identical for negative numbers. The score from the side to move is
//! `(white if White to move else -white) + tempo`.

use super::packed::PackedPosition;
use super::params::EvalParams;
use shatranj_chess::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use shatranj_chess::{Bitboard, Color, Position, Role, Square};

/// Something that scores positions: centipawns from the side to move's point of view.
pub trait Evaluator: Send + Sync {
    /// Scores every position of `positions` into the same index of `out`.
    ///
    /// # Panics
    /// If the slices differ in length (a programming error, not bad input).
    fn evaluate_batch(&self, positions: &[Position], out: &mut [i32]);

    /// Scores one position.
    fn evaluate(&self, pos: &Position) -> i32 {
        let mut out = [0];
        self.evaluate_batch(core::slice::from_ref(pos), &mut out);
        out[0]
    }
}

/// The reference evaluation on the CPU, reading its weights from an [`EvalParams`].
#[derive(Clone, Debug, Default)]
pub struct CpuEvaluator {
    pub params: EvalParams,
}

impl CpuEvaluator {
    pub fn new(params: EvalParams) -> CpuEvaluator {
        CpuEvaluator { params }
    }

    /// Scores a packed position (the definition the GPU must reproduce bit for bit).
    pub fn evaluate_packed(&self, packed: &PackedPosition) -> i32 {
        evaluate_bitboards(&self.params, &packed.bitboards(), packed.turn == 1)
    }
}

impl Evaluator for CpuEvaluator {
    fn evaluate_batch(&self, positions: &[Position], out: &mut [i32]) {
        assert_eq!(positions.len(), out.len(), "one output slot per position");
        for (pos, slot) in positions.iter().zip(out.iter_mut()) {
            *slot = evaluate(&self.params, pos);
        }
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        evaluate(&self.params, pos)
    }
}

/// The evaluation of `pos` with `params` (see the module docs for the formula).
#[inline]
pub fn evaluate(params: &EvalParams, pos: &Position) -> i32 {
    let b = pos.board();
    let mut bb = [[0u64; 6]; 2];
    for color in Color::ALL {
        let side = b.by_color(color);
        for role in Role::ALL {
            bb[color.index()][role.index()] = (side & b.by_role(role)).0;
        }
    }
    evaluate_bitboards(params, &bb, pos.turn() == Color::Black)
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

const fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

const fn adjacent_files(file: usize) -> u64 {
    let mut m = 0;
    if file > 0 {
        m |= file_mask(file - 1);
    }
    if file < 7 {
        m |= file_mask(file + 1);
    }
    m
}

/// Squares on files `f-1..=f+1` strictly ahead of `sq` for White (index 0) and Black (1).
const PASSED_SPAN: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let file = sq % 8;
        let rank = sq / 8;
        let files = file_mask(file) | adjacent_files(file);
        let mut r = 0;
        while r < 8 {
            let row = 0xFFu64 << (8 * r);
            if r > rank {
                t[0][sq] |= files & row;
            }
            if r < rank {
                t[1][sq] |= files & row;
            }
            r += 1;
        }
        sq += 1;
    }
    t
};

fn pawn_attacks_of(pawns: u64, white: bool) -> u64 {
    if white {
        ((pawns << 9) & !FILE_A) | ((pawns << 7) & !FILE_H)
    } else {
        ((pawns >> 7) & !FILE_A) | ((pawns >> 9) & !FILE_H)
    }
}

fn square(i: u32) -> Square {
    // Bits of a u64 are always 0..64.
    Square::new(i).unwrap_or(Square::A1)
}

/// The evaluation on raw bitboards `bb[color][role]`; `black_to_move` picks the point of view.
pub fn evaluate_bitboards(p: &EvalParams, bb: &[[u64; 6]; 2], black_to_move: bool) -> i32 {
    let occupied = bb[0].iter().chain(bb[1].iter()).fold(0, |a, &b| a | b);
    let all_pawns = bb[0][0] | bb[1][0];
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    let mut phase = 0;

    for c in 0..2 {
        let white = c == 0;
        let flip = if white { 56 } else { 0 };
        let own: u64 = bb[c].iter().fold(0, |a, &b| a | b);
        let own_pawns = bb[c][0];
        let enemy_pawns = bb[1 - c][0];
        let unsafe_squares = own | pawn_attacks_of(enemy_pawns, !white);
        let (mut m, mut e) = (0i32, 0i32);
        let enemy_king = bb[1 - c][5];
        let king_zone = if enemy_king == 0 {
            0
        } else {
            let k = square(enemy_king.trailing_zeros());
            king_attacks(k).0 | enemy_king
        };
        let (mut attackers, mut units) = (0, 0);

        for (r, &set) in bb[c].iter().enumerate() {
            let mut pieces = set;
            phase += p.phase_weight[r] * pieces.count_ones() as i32;
            while pieces != 0 {
                let s = pieces.trailing_zeros();
                pieces &= pieces - 1;
                let i = (s as usize) ^ flip;
                m += p.piece_value_mg[r] + p.pst_mg[r][i];
                e += p.piece_value_eg[r] + p.pst_eg[r][i];
                let sq = square(s);
                let occ = Bitboard(occupied);
                let attacks = match r {
                    1 => knight_attacks(sq).0,
                    2 => bishop_attacks(sq, occ).0,
                    3 => rook_attacks(sq, occ).0,
                    4 => (rook_attacks(sq, occ) | bishop_attacks(sq, occ)).0,
                    _ => 0,
                };
                if (1..=4).contains(&r) {
                    let hits = (attacks & king_zone).count_ones() as i32;
                    if hits > 0 {
                        attackers += 1;
                        units += p.king_attack_weight[r] * hits;
                    }
                    let n = (attacks & !unsafe_squares).count_ones() as i32;
                    m += (n - p.mobility_center[r]) * p.mobility_mg[r];
                    e += (n - p.mobility_center[r]) * p.mobility_eg[r];
                }
                let file = (s % 8) as usize;
                if r == 3 {
                    if all_pawns & file_mask(file) == 0 {
                        m += p.rook_open_file_mg;
                        e += p.rook_open_file_eg;
                    } else if own_pawns & file_mask(file) == 0 {
                        m += p.rook_semi_open_file_mg;
                        e += p.rook_semi_open_file_eg;
                    }
                }
                if r == 0 {
                    if own_pawns & adjacent_files(file) == 0 {
                        m += p.isolated_pawn_mg;
                        e += p.isolated_pawn_eg;
                    }
                    if enemy_pawns & PASSED_SPAN[c][s as usize] == 0 {
                        let rank = (s / 8) as usize;
                        let k = if white { rank } else { 7 - rank };
                        m += p.passed_pawn_mg[k];
                        e += p.passed_pawn_eg[k];
                    }
                }
            }
        }
        for file in 0..8 {
            let n = (own_pawns & file_mask(file)).count_ones() as i32;
            if n >= 2 {
                m += (n - 1) * p.doubled_pawn_mg;
                e += (n - 1) * p.doubled_pawn_eg;
            }
        }
        if bb[c][2].count_ones() >= 2 {
            m += p.bishop_pair_mg;
            e += p.bishop_pair_eg;
        }
        if attackers >= 2 {
            m += (units * units * p.king_attack_scale / 64).min(p.king_attack_max);
        }
        mg[c] = m;
        eg[c] = e;
    }

    let full = p.phase_full;
    let ph = phase.min(full);
    let mg_diff = mg[0] - mg[1];
    let eg_diff = eg[0] - eg[1];
    // Truncating division, identical in WGSL (see the module docs).
    let white = (mg_diff * ph + eg_diff * (full - ph)) / full;
    let relative = if black_to_move { -white } else { white };
    relative + p.tempo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::params::DEFAULT_PARAMS;

    #[test]
    fn start_position_is_the_tempo() {
        assert_eq!(
            evaluate(&DEFAULT_PARAMS, &Position::new()),
            DEFAULT_PARAMS.tempo
        );
    }

    #[test]
    fn passed_span_is_ahead_only() {
        // e4 (28) for White: d5..f8, nothing on rank 4 or below.
        let span = PASSED_SPAN[0][28];
        assert_eq!(span.count_ones(), 12);
        assert_eq!(span & 0xFFFF_FFFF, 0);
        assert_eq!(PASSED_SPAN[1][28].count_ones(), 9);
    }

    #[test]
    fn truncation_is_toward_zero() {
        assert_eq!(-7 / 24, 0);
        assert_eq!(-25 / 24, -1);
    }
}

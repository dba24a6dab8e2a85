//! The classical evaluation's parameter table: every weight of it, once, by name. (The
//! search's own tunable numbers are in [`crate::search::params`].)
//!
//! [`EvalParams`] is plain `#[repr(C)]` data made only of `i32`s, so the same numbers can be
//! uploaded to a GPU storage buffer ([`EvalParams::as_words`]) and read by a WGSL shader in
//! the field order below; nothing in the evaluation code is a literal weight.
//!
//! Piece-square tables are written as a chess player reads a diagram, from White's side:
//! index 0 is a8, index 7 is h8, index 56 is a1, index 63 is h1. A white piece on square `s`
//! (a1 = 0 … h8 = 63) reads entry `s ^ 56`; a black piece reads entry `s` (its square seen
//! from Black's side). Role indices are pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5.
//!
//! The starting values are `PeSTO`'s (Ronald Friederich's tapered piece-square evaluation), plus
//! a handful of classical terms with hand-chosen weights. Fixed-node self-play measured the
//! mobility term at about +90 Elo; the king-attack term was neutral at that depth (see
//! `benchmarks/RESULTS.md`). None of the weights is tuned yet.

use bytemuck::{Pod, Zeroable};

/// All evaluation weights, in centipawns. `mg` applies in the middlegame, `eg` in the
/// endgame; the evaluation blends them by the game phase (see [`crate::eval`]).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Pod, Zeroable)]
pub struct EvalParams {
    /// Material by role, middlegame (king 0).
    pub piece_value_mg: [i32; 6],
    /// Material by role, endgame (king 0).
    pub piece_value_eg: [i32; 6],
    /// Piece-square bonus by role, middlegame, diagram order (a8 first).
    pub pst_mg: [[i32; 64]; 6],
    /// Piece-square bonus by role, endgame, diagram order (a8 first).
    pub pst_eg: [[i32; 64]; 6],
    /// What each piece adds to the game phase.
    pub phase_weight: [i32; 6],
    /// The phase of a full middlegame; the sum of weights is capped here.
    pub phase_full: i32,
    /// Two bishops or more.
    pub bishop_pair_mg: i32,
    pub bishop_pair_eg: i32,
    /// Per pawn beyond the first on one file.
    pub doubled_pawn_mg: i32,
    pub doubled_pawn_eg: i32,
    /// Per pawn with no friendly pawn on a neighbouring file.
    pub isolated_pawn_mg: i32,
    pub isolated_pawn_eg: i32,
    /// Passed pawn (no enemy pawn ahead on its own or a neighbouring file) by its rank as seen
    /// from its own side (index 1 = second rank … 6 = seventh rank).
    pub passed_pawn_mg: [i32; 8],
    pub passed_pawn_eg: [i32; 8],
    /// Rook on a file without pawns.
    pub rook_open_file_mg: i32,
    pub rook_open_file_eg: i32,
    /// Rook on a file without friendly pawns but with enemy pawns.
    pub rook_semi_open_file_mg: i32,
    pub rook_semi_open_file_eg: i32,
    /// Mobility by role: `(squares - mobility_center[role]) * mobility_mg[role]`, counting
    /// attacked squares not occupied by friendly pieces nor attacked by enemy pawns. Pawn and
    /// king entries are unused (zero).
    pub mobility_center: [i32; 6],
    pub mobility_mg: [i32; 6],
    pub mobility_eg: [i32; 6],
    /// King attack: each knight, bishop, rook or queen adds `king_attack_weight[role]` for
    /// every square of the enemy king's zone (the king's square and its neighbours) it
    /// attacks. With two attackers or more the attacking side gains, in the middlegame,
    /// `min(units² × king_attack_scale / 64, king_attack_max)`.
    pub king_attack_weight: [i32; 6],
    pub king_attack_scale: i32,
    pub king_attack_max: i32,
    /// Bonus for the side to move, added after tapering.
    pub tempo: i32,
}

/// The number of `i32` words in [`EvalParams`], for shaders that declare a fixed array.
pub const EVAL_PARAMS_WORDS: usize = core::mem::size_of::<EvalParams>() / 4;

impl EvalParams {
    /// The table as a flat slice of words, in field order, ready for a storage buffer.
    pub fn as_words(&self) -> &[i32] {
        bytemuck::cast_slice(core::slice::from_ref(self))
    }
}

impl Default for EvalParams {
    fn default() -> EvalParams {
        DEFAULT_PARAMS
    }
}

/// The engine's evaluation weights.
pub const DEFAULT_PARAMS: EvalParams = EvalParams {
    piece_value_mg: [82, 337, 365, 477, 1025, 0],
    piece_value_eg: [94, 281, 297, 512, 936, 0],
    pst_mg: [
        // pawn
        [
            0, 0, 0, 0, 0, 0, 0, 0, //
            98, 134, 61, 95, 68, 126, 34, -11, //
            -6, 7, 26, 31, 65, 56, 25, -20, //
            -14, 13, 6, 21, 23, 12, 17, -23, //
            -27, -2, -5, 12, 17, 6, 10, -25, //
            -26, -4, -4, -10, 3, 3, 33, -12, //
            -35, -1, -20, -23, -15, 24, 38, -22, //
            0, 0, 0, 0, 0, 0, 0, 0, //
        ],
        // knight
        [
            -167, -89, -34, -49, 61, -97, -15, -107, //
            -73, -41, 72, 36, 23, 62, 7, -17, //
            -47, 60, 37, 65, 84, 129, 73, 44, //
            -9, 17, 19, 53, 37, 69, 18, 22, //
            -13, 4, 16, 13, 28, 19, 21, -8, //
            -23, -9, 12, 10, 19, 17, 25, -16, //
            -29, -53, -12, -3, -1, 18, -14, -19, //
            -105, -21, -58, -33, -17, -28, -19, -23, //
        ],
        // bishop
        [
            -29, 4, -82, -37, -25, -42, 7, -8, //
            -26, 16, -18, -13, 30, 59, 18, -47, //
            -16, 37, 43, 40, 35, 50, 37, -2, //
            -4, 5, 19, 50, 37, 37, 7, -2, //
            -6, 13, 13, 26, 34, 12, 10, 4, //
            0, 15, 15, 15, 14, 27, 18, 10, //
            4, 15, 16, 0, 7, 21, 33, 1, //
            -33, -3, -14, -21, -13, -12, -39, -21, //
        ],
        // rook
        [
            32, 42, 32, 51, 63, 9, 31, 43, //
            27, 32, 58, 62, 80, 67, 26, 44, //
            -5, 19, 26, 36, 17, 45, 61, 16, //
            -24, -11, 7, 26, 24, 35, -8, -20, //
            -36, -26, -12, -1, 9, -7, 6, -23, //
            -45, -25, -16, -17, 3, 0, -5, -33, //
            -44, -16, -20, -9, -1, 11, -6, -71, //
            -19, -13, 1, 17, 16, 7, -37, -26, //
        ],
        // queen
        [
            -28, 0, 29, 12, 59, 44, 43, 45, //
            -24, -39, -5, 1, -16, 57, 28, 54, //
            -13, -17, 7, 8, 29, 56, 47, 57, //
            -27, -27, -16, -16, -1, 17, -2, 1, //
            -9, -26, -9, -10, -2, -4, 3, -3, //
            -14, 2, -11, -2, -5, 2, 14, 5, //
            -35, -8, 11, 2, 8, 15, -3, 1, //
            -1, -18, -9, 10, -15, -25, -31, -50, //
        ],
        // king
        [
            -65, 23, 16, -15, -56, -34, 2, 13, //
            29, -1, -20, -7, -8, -4, -38, -29, //
            -9, 24, 2, -16, -20, 6, 22, -22, //
            -17, -20, -12, -27, -30, -25, -14, -36, //
            -49, -1, -27, -39, -46, -44, -33, -51, //
            -14, -14, -22, -46, -44, -30, -15, -27, //
            1, 7, -8, -64, -43, -16, 9, 8, //
            -15, 36, 12, -54, 8, -28, 24, 14, //
        ],
    ],
    pst_eg: [
        // pawn
        [
            0, 0, 0, 0, 0, 0, 0, 0, //
            178, 173, 158, 134, 147, 132, 165, 187, //
            94, 100, 85, 67, 56, 53, 82, 84, //
            32, 24, 13, 5, -2, 4, 17, 17, //
            13, 9, -3, -7, -7, -8, 3, -1, //
            4, 7, -6, 1, 0, -5, -1, -8, //
            13, 8, 8, 10, 13, 0, 2, -7, //
            0, 0, 0, 0, 0, 0, 0, 0, //
        ],
        // knight
        [
            -58, -38, -13, -28, -31, -27, -63, -99, //
            -25, -8, -25, -2, -9, -25, -24, -52, //
            -24, -20, 10, 9, -1, -9, -19, -41, //
            -17, 3, 22, 22, 22, 11, 8, -18, //
            -18, -6, 16, 25, 16, 17, 4, -18, //
            -23, -3, -1, 15, 10, -3, -20, -22, //
            -42, -20, -10, -5, -2, -20, -23, -44, //
            -29, -51, -23, -15, -22, -18, -50, -64, //
        ],
        // bishop
        [
            -14, -21, -11, -8, -7, -9, -17, -24, //
            -8, -4, 7, -12, -3, -13, -4, -14, //
            2, -8, 0, -1, -2, 6, 0, 4, //
            -3, 9, 12, 9, 14, 10, 3, 2, //
            -6, 3, 13, 19, 7, 10, -3, -9, //
            -12, -3, 8, 10, 13, 3, -7, -15, //
            -14, -18, -7, -1, 4, -9, -15, -27, //
            -23, -9, -23, -5, -9, -16, -5, -17, //
        ],
        // rook
        [
            13, 10, 18, 15, 12, 12, 8, 5, //
            11, 13, 13, 11, -3, 3, 8, 3, //
            7, 7, 7, 5, 4, -3, -5, -3, //
            4, 3, 13, 1, 2, 1, -1, 2, //
            3, 5, 8, 4, -5, -6, -8, -11, //
            -4, 0, -5, -1, -7, -12, -8, -16, //
            -6, -6, 0, 2, -9, -9, -11, -3, //
            -9, 2, 3, -1, -5, -13, 4, -20, //
        ],
        // queen
        [
            -9, 22, 22, 27, 27, 19, 10, 20, //
            -17, 20, 32, 41, 58, 25, 30, 0, //
            -20, 6, 9, 49, 47, 35, 19, 9, //
            3, 22, 24, 45, 57, 40, 57, 36, //
            -18, 28, 19, 47, 31, 34, 39, 23, //
            -16, -27, 15, 6, 9, 17, 10, 5, //
            -22, -23, -30, -16, -16, -23, -36, -32, //
            -33, -28, -22, -43, -5, -32, -20, -41, //
        ],
        // king
        [
            -74, -35, -18, -18, -11, 15, 4, -17, //
            -12, 17, 14, 17, 17, 38, 23, 11, //
            10, 17, 23, 15, 20, 45, 44, 13, //
            -8, 22, 24, 27, 26, 33, 26, 3, //
            -18, -4, 21, 24, 27, 23, 9, -11, //
            -19, -3, 11, 21, 23, 16, 7, -9, //
            -27, -11, 4, 13, 14, 4, -5, -17, //
            -53, -34, -21, -11, -28, -14, -24, -43, //
        ],
    ],
    phase_weight: [0, 1, 1, 2, 4, 0],
    phase_full: 24,
    bishop_pair_mg: 30,
    bishop_pair_eg: 50,
    doubled_pawn_mg: -10,
    doubled_pawn_eg: -20,
    isolated_pawn_mg: -12,
    isolated_pawn_eg: -8,
    // PeSTO's pawn tables already reward advanced pawns; these add what being passed is worth.
    passed_pawn_mg: [0, 0, 0, 5, 12, 25, 40, 0],
    passed_pawn_eg: [0, 5, 10, 20, 35, 60, 90, 0],
    rook_open_file_mg: 25,
    rook_open_file_eg: 10,
    rook_semi_open_file_mg: 12,
    rook_semi_open_file_eg: 6,
    mobility_center: [0, 4, 6, 6, 12, 0],
    mobility_mg: [0, 4, 5, 2, 1, 0],
    mobility_eg: [0, 4, 5, 4, 2, 0],
    king_attack_weight: [0, 2, 2, 3, 5, 0],
    king_attack_scale: 5,
    king_attack_max: 500,
    tempo: 10,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_follow_the_field_order() {
        let w = DEFAULT_PARAMS.as_words();
        assert_eq!(w.len(), EVAL_PARAMS_WORDS);
        assert_eq!(w[0], DEFAULT_PARAMS.piece_value_mg[0]);
        assert_eq!(w[6], DEFAULT_PARAMS.piece_value_eg[0]);
        // pst_mg[knight][a8] comes after 12 values and one 64-entry table.
        assert_eq!(w[12 + 64], -167);
        assert_eq!(*w.last().unwrap(), DEFAULT_PARAMS.tempo);
    }
}

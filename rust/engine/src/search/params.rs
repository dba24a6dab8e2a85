//! The search's tunable numbers, by name (Carp's `search_params.rs`, Viridithas's
//! `search/parameters.rs`). They are CPU-only (the GPU evaluates, it does not search), so they
//! are plain constants here rather than part of the evaluation's uploaded table
//! ([`crate::eval::EvalParams`]).

/// Piece values for static exchange evaluation and capture ordering (pawn … king).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];
/// Half-width of the first aspiration window, in centipawns.
pub const ASPIRATION_WINDOW: i32 = 20;
/// Aspiration windows start from this depth.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Reverse futility: prune when `eval - margin × depth >= beta` up to this depth.
pub const RFP_MAX_DEPTH: i32 = 7;
pub const RFP_MARGIN: i32 = 75;
/// Futility pruning of quiet moves: skip when `eval + base + per_depth × depth <= alpha`.
pub const FUTILITY_MAX_DEPTH: i32 = 6;
pub const FUTILITY_BASE: i32 = 80;
pub const FUTILITY_PER_DEPTH: i32 = 90;
/// Null move: from this depth, reduction `base + depth / divisor`.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// Late move reductions: `base + ln(depth) × ln(moves) / divisor` (scaled by 100).
pub const LMR_BASE_PERCENT: i32 = 75;
pub const LMR_DIVISOR_PERCENT: i32 = 225;
/// After a reduced search fails high, the full-depth search goes a ply deeper when the score
/// beat the best so far by more than `deeper + 2 × depth`, a ply shallower when by less than
/// `shallower` (Stockfish 17's 43 and 9, on its own scale).
pub const LMR_DEEPER_MARGIN: i32 = 40;
pub const LMR_SHALLOWER_MARGIN: i32 = 10;
/// Late move pruning of quiet moves at shallow depth: `base + depth²` moves are searched.
pub const LMP_BASE: i32 = 3;
pub const LMP_MAX_DEPTH: i32 = 8;
/// Quiet moves with SEE below `-margin × depth` are pruned at shallow depth.
pub const SEE_QUIET_MARGIN: i32 = 60;
/// Captures with SEE below `-margin × depth` are pruned at shallow depth.
pub const SEE_CAPTURE_MARGIN: i32 = 100;
/// Delta pruning in quiescence: captures that cannot lift the score near alpha.
pub const QS_DELTA_MARGIN: i32 = 200;
/// Singular extension: from this depth, the TT move is extended by one ply when every other
/// move fails low against `tt_score - margin × depth` in a half-depth search.
pub const SE_MIN_DEPTH: i32 = 6;
/// Twice Ethereal's `ttValue − depth` and Stockfish's ≈ 1 × depth; 1 × depth, gated with the
/// other small fixes, lost (48.0% in 300 games at 10,000 nodes, benchmarks/RESULTS.md), so it
/// waits for the double and negative extensions it usually comes with.
pub const SE_MARGIN_PER_DEPTH: i32 = 2;
/// Lazy SMP: from this depth, a thread defers a move another thread is searching
/// ([`crate::in_progress`]). Lower (3) was no better than none in time to depth: shallow
/// subtrees are cheaper to search twice than to coordinate.
pub const ABDADA_MIN_DEPTH: i32 = 6;
/// History scores saturate at this magnitude.
pub const HISTORY_MAX: i32 = 16_384;
/// A quiet move that cuts off earns `per_depth × depth - offset` (at most `max`), and each
/// quiet move tried before it loses as much: linear in depth, so the tables learn at the
/// shallow depths where most cut-offs happen (`16 × depth²` gave 16 at depth 1, 64 at 2).
pub const HISTORY_BONUS_PER_DEPTH: i32 = 300;
pub const HISTORY_BONUS_OFFSET: i32 = 250;
pub const HISTORY_BONUS_MAX: i32 = 2_500;
/// How much deeper than the node's own depth a tablebase result is stored in the table
/// (Stockfish's 6): no search below the node can overrule it.
pub const TB_DEPTH_BONUS: i32 = 6;

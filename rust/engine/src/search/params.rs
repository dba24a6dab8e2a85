//! The search's tunable numbers, by name (Carp's `search_params.rs`, Viridithas's
//! `search/parameters.rs`). They are CPU-only (the GPU evaluates, it does not search), so they
//! are plain numbers here rather than part of the evaluation's uploaded table
//! ([`crate::eval::EvalParams`]).
//!
//! Each tunable is declared once, in the `tunables!` list below, with its default, its range
//! and its SPSA step. The search reads it as `NAME.get()`. In the shipped build that is a
//! `const` whose `get` the compiler folds to the literal, so the search costs what it did
//! with plain constants (the bench signature and its instruction count are unchanged). Under
//! the cargo feature `tune` each is a process-wide atomic instead, announced as a UCI `spin`
//! option and set by `setoption`, so that `shatranj tune` can play engines with perturbed values
//! (the values are shared by every engine in the process: one engine per process when tuning).
//!
//! The numbers below the list stay plain constants: they are scales and switches, not margins
//! a match can tune (SEE piece values, the history's saturation, SMP and tablebase depths).

#[cfg(feature = "tune")]
use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable number: its UCI name, default, range and SPSA step (the perturbation at the
/// end of a tune, OpenBench's `c_end`), and, under `tune`, its current value.
#[derive(Debug)]
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub step: i32,
    #[cfg(feature = "tune")]
    value: AtomicI32,
}

impl Tunable {
    const fn new(name: &'static str, default: i32, min: i32, max: i32, step: i32) -> Tunable {
        Tunable {
            name,
            default,
            min,
            max,
            step,
            #[cfg(feature = "tune")]
            value: AtomicI32::new(default),
        }
    }

    /// The value the search uses: the default, a constant the compiler folds.
    #[cfg(not(feature = "tune"))]
    #[inline(always)]
    pub const fn get(&self) -> i32 {
        self.default
    }

    /// The value the search uses: the last one set.
    #[cfg(feature = "tune")]
    #[inline(always)]
    pub fn get(&self) -> i32 {
        self.value.load(Ordering::Relaxed)
    }

    /// Sets the value (a search already running may see it at once); out of range is an
    /// error naming the range, and the value is unchanged.
    #[cfg(feature = "tune")]
    pub fn set(&self, value: i32) -> Result<(), String> {
        if !(self.min..=self.max).contains(&value) {
            return Err(format!(
                "value {value} out of range {}..={}",
                self.min, self.max
            ));
        }
        self.value.store(value, Ordering::Relaxed);
        Ok(())
    }

    /// The UCI option line that announces it.
    pub fn uci_option(&self) -> String {
        format!(
            "option name {} type spin default {} min {} max {}",
            self.name, self.default, self.min, self.max
        )
    }

    /// The line of an SPSA parameter list in OpenBench's format (`name, int, start, min,
    /// max, c_end, r_end`), with fishtest's usual `r_end` of 0.002.
    pub fn spsa_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, 0.002",
            self.name, self.default, self.min, self.max, self.step
        )
    }
}

/// Declares every tunable once: `NAME = default, min..=max, step s;` with its doc comment.
/// The shipped build gets a `const` per name, `tune` a `static`; both get [`TUNABLES`].
macro_rules! tunables {
    ($($(#[$doc:meta])* $name:ident = $default:literal, $min:literal ..= $max:literal, step $step:literal;)*) => {
        $(
            $(#[$doc])*
            #[cfg(not(feature = "tune"))]
            pub const $name: Tunable = Tunable::new(stringify!($name), $default, $min, $max, $step);
            $(#[$doc])*
            #[cfg(feature = "tune")]
            pub static $name: Tunable = Tunable::new(stringify!($name), $default, $min, $max, $step);
        )*
        /// Every tunable, in declaration order.
        pub static TUNABLES: &[&Tunable] = &[$(&$name),*];
    };
}

tunables! {
    /// Half-width of the first aspiration window, in centipawns.
    ASPIRATION_WINDOW = 20, 5..=60, step 3;
    /// Aspiration windows start from this depth.
    ASPIRATION_MIN_DEPTH = 5, 1..=10, step 1;
    /// Reverse futility: prune when `eval - margin × depth >= beta` up to this depth.
    RFP_MAX_DEPTH = 7, 3..=12, step 1;
    RFP_MARGIN = 58, 30..=150, step 8;
    /// Futility pruning of quiet moves: skip when `eval + base + per_depth × depth <= alpha`.
    FUTILITY_MAX_DEPTH = 6, 2..=12, step 1;
    FUTILITY_BASE = 53, 0..=250, step 12;
    FUTILITY_PER_DEPTH = 59, 30..=200, step 10;
    /// Null move: from this depth, reduction `base + depth / divisor`.
    NMP_MIN_DEPTH = 3, 1..=6, step 1;
    NMP_BASE_REDUCTION = 4, 1..=6, step 1;
    NMP_DEPTH_DIVISOR = 4, 2..=8, step 1;
    /// Late move reductions: `base + ln(depth) × ln(moves) / divisor` (scaled by 100). The
    /// table is built from them by every search ([`super::Searcher::new`]), so a change
    /// takes effect at the next `go`.
    LMR_BASE_PERCENT = 94, 25..=150, step 8;
    LMR_DIVISOR_PERCENT = 215, 150..=350, step 12;
    /// After a reduced search fails high, the full-depth search goes a ply deeper when the score
    /// beat the best so far by more than `deeper + 2 × depth`, a ply shallower when by less than
    /// `shallower` (Stockfish 17's 43 and 9, on its own scale).
    LMR_DEEPER_MARGIN = 40, 10..=100, step 5;
    LMR_SHALLOWER_MARGIN = 10, 0..=40, step 3;
    /// Late move pruning of quiet moves at shallow depth: `base + depth²` moves are searched.
    LMP_BASE = 6, 1..=16, step 1;
    LMP_MAX_DEPTH = 8, 3..=12, step 1;
    /// Quiet moves with SEE below `-margin × depth` are pruned at shallow depth.
    SEE_QUIET_MARGIN = 40, 20..=150, step 8;
    /// Captures with SEE below `-margin × depth` are pruned at shallow depth.
    SEE_CAPTURE_MARGIN = 114, 40..=200, step 10;
    /// Delta pruning in quiescence: captures that cannot lift the score near alpha.
    QS_DELTA_MARGIN = 200, 50..=400, step 20;
    /// Singular extension: from this depth, the TT move is extended by one ply when every other
    /// move fails low against `tt_score - margin × depth` in a half-depth search.
    SE_MIN_DEPTH = 6, 4..=10, step 1;
    /// Twice Ethereal's `ttValue − depth` and Stockfish's ≈ 1 × depth; 1 × depth, gated with the
    /// other small fixes, lost (48.0% in 300 games at 10,000 nodes, benchmarks/RESULTS.md), so it
    /// waits for the double and negative extensions it usually comes with.
    SE_MARGIN_PER_DEPTH = 2, 1..=5, step 1;
    /// A quiet move that cuts off earns `per_depth × depth - offset` (at most `max`), and each
    /// quiet move tried before it loses as much: linear in depth, so the tables learn at the
    /// shallow depths where most cut-offs happen (`16 × depth²` gave 16 at depth 1, 64 at 2).
    HISTORY_BONUS_PER_DEPTH = 339, 100..=600, step 30;
    HISTORY_BONUS_OFFSET = 250, 0..=600, step 30;
    HISTORY_BONUS_MAX = 2500, 1000..=5000, step 200;
}

/// Piece values for static exchange evaluation and capture ordering (pawn … king).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];
/// Lazy SMP: from this depth, a thread defers a move another thread is searching
/// ([`crate::in_progress`]). Lower (3) was no better than none in time to depth: shallow
/// subtrees are cheaper to search twice than to coordinate.
pub const ABDADA_MIN_DEPTH: i32 = 6;
/// History scores saturate at this magnitude.
pub const HISTORY_MAX: i32 = 16_384;
/// How much deeper than the node's own depth a tablebase result is stored in the table
/// (Stockfish's 6): no search below the node can overrule it.
pub const TB_DEPTH_BONUS: i32 = 6;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_has_a_unique_name_and_its_default_in_range() {
        let mut names: Vec<&str> = TUNABLES.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TUNABLES.len(), "duplicate tunable names");
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
            assert!(t.step > 0 && t.step <= t.max - t.min, "{t:?}");
        }
        // The divisors (null move's reduction, LMR's formula) must never reach zero.
        for divisor in [&NMP_DEPTH_DIVISOR, &LMR_DIVISOR_PERCENT] {
            assert!(divisor.min >= 1, "{divisor:?}");
        }
        assert_eq!(
            RFP_MARGIN.spsa_line(),
            "RFP_MARGIN, int, 58, 30, 150, 8, 0.002"
        );
        assert_eq!(
            RFP_MARGIN.uci_option(),
            "option name RFP_MARGIN type spin default 58 min 30 max 150"
        );
    }

    #[cfg(feature = "tune")]
    #[test]
    fn a_tunable_is_set_within_its_range_only() {
        let t = &SE_MARGIN_PER_DEPTH;
        assert!(t.set(6).unwrap_err().contains("1..=5"));
        assert_eq!(t.get(), t.default);
    }
}

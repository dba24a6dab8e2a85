//! Search scores: centipawns, with mates encoded near the ends of the range and tablebase
//! wins and losses in a band just inside them.

/// A search score in centipawns from the side to move; mates are `±(MATE - plies)`.
pub type Value = i32;

/// The deepest ply a search reaches (search stack size).
pub const MAX_PLY: usize = 128;
/// Mate at the root (0 plies).
pub const MATE: Value = 32_000;
/// Scores at or beyond this (in magnitude) are mates.
pub const MATE_BOUND: Value = MATE - MAX_PLY as Value;
/// Beyond every score.
pub const INFINITE: Value = MATE + 1;
/// A draw.
pub const DRAW: Value = 0;

/// A tablebase win at the root: the position is won by the Syzygy tables, with no mate
/// found yet. Just below every mate score, so that a mate the search finds still ranks
/// above it (Stockfish's `VALUE_TB`); like mates, these count plies from the root, so the
/// search prefers the win it reaches sooner.
pub const TB_WIN: Value = MATE_BOUND - 1;
/// Scores at or beyond this (in magnitude) are tablebase wins or mates: the search treats
/// them as decided, not as evaluations ([`is_decisive`]). No static evaluation reaches it.
pub const TB_WIN_BOUND: Value = TB_WIN - MAX_PLY as Value;
/// What a tablebase win at the root is reported as: centipawns, far above any evaluation
/// and below mate (Stockfish reports the same 20000 minus the plies to the table).
pub const TB_WIN_CP: i32 = 20_000;

/// Mated in `ply` plies.
pub const fn mated_in(ply: usize) -> Value {
    -MATE + ply as Value
}

/// Mating in `ply` plies.
pub const fn mate_in(ply: usize) -> Value {
    MATE - ply as Value
}

/// A tablebase win reached `ply` plies from the root.
pub const fn tb_win_in(ply: usize) -> Value {
    TB_WIN - ply as Value
}

/// A tablebase loss reached `ply` plies from the root.
pub const fn tb_loss_in(ply: usize) -> Value {
    -TB_WIN + ply as Value
}

/// Whether `v` is a mate or a tablebase result rather than an evaluation: such scores are
/// not pruned on or widened around as evaluations are.
#[inline]
pub const fn is_decisive(v: Value) -> bool {
    v >= TB_WIN_BOUND || v <= -TB_WIN_BOUND
}

/// A score as UCI reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns, side to move.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move gets mated).
    Mate(i32),
}

impl Score {
    /// The reported form of a search score: mates as moves to mate, tablebase wins and
    /// losses as ±([`TB_WIN_CP`] − plies to the table), everything else as centipawns.
    pub fn from_value(v: Value) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-((MATE + v) / 2))
        } else if v >= TB_WIN_BOUND {
            Score::Cp(TB_WIN_CP - (TB_WIN - v))
        } else if v <= -TB_WIN_BOUND {
            Score::Cp(-TB_WIN_CP + (TB_WIN + v))
        } else {
            Score::Cp(v)
        }
    }
}

impl std::fmt::Display for Score {
    /// UCI form: `cp 35` or `mate -3`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_count_moves_not_plies() {
        assert_eq!(Score::from_value(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_value(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_value(mate_in(5)), Score::Mate(3));
        assert_eq!(Score::from_value(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_value(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_value(mated_in(4)), Score::Mate(-2));
        assert_eq!(Score::from_value(-35), Score::Cp(-35));
    }

    #[test]
    fn tablebase_results_are_large_centipawns_below_mate() {
        assert_eq!(Score::from_value(tb_win_in(0)), Score::Cp(TB_WIN_CP));
        assert_eq!(Score::from_value(tb_win_in(7)), Score::Cp(TB_WIN_CP - 7));
        assert_eq!(Score::from_value(tb_loss_in(4)), Score::Cp(-TB_WIN_CP + 4));
        // The deepest tablebase win is still one, and the shallowest mate still a mate.
        assert_eq!(
            Score::from_value(tb_win_in(MAX_PLY)),
            Score::Cp(TB_WIN_CP - MAX_PLY as i32)
        );
        assert_eq!(Score::from_value(mate_in(MAX_PLY)), Score::Mate(64));
        assert!(mate_in(MAX_PLY) > tb_win_in(0));
        assert!(is_decisive(tb_win_in(MAX_PLY)) && is_decisive(tb_loss_in(MAX_PLY)));
        assert!(!is_decisive(TB_WIN_BOUND - 1) && !is_decisive(-TB_WIN_BOUND + 1));
    }
}

//! Search scores: centipawns, with mates encoded near the ends of the range.

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

/// Mated in `ply` plies.
pub const fn mated_in(ply: usize) -> Value {
    -MATE + ply as Value
}

/// Mating in `ply` plies.
pub const fn mate_in(ply: usize) -> Value {
    MATE - ply as Value
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
    pub fn from_value(v: Value) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-((MATE + v) / 2))
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
}

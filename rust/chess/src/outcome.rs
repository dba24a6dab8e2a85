//! How a game ended: the termination and the winner (R4).

use crate::types::Color;
use core::fmt;

/// Why a game is over, with python-chess's names (R4.1, R4.5, R4.6, R4.8, R5.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// R4.1.
    Checkmate,
    /// R4.5.
    Stalemate,
    /// R4.6 as judged by material alone (R5.2's list).
    InsufficientMaterial,
    /// R4.8: 75 moves by each side without a pawn move or capture, automatic.
    SeventyfiveMoves,
    /// R4.8: the fifth occurrence of a position, automatic.
    FivefoldRepetition,
    /// R4.8: 50 moves by each side, on a claim.
    FiftyMoves,
    /// R4.8: the third occurrence of a position, on a claim.
    ThreefoldRepetition,
}

impl Termination {
    /// python-chess's `Termination` member name.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "CHECKMATE",
            Termination::Stalemate => "STALEMATE",
            Termination::InsufficientMaterial => "INSUFFICIENT_MATERIAL",
            Termination::SeventyfiveMoves => "SEVENTYFIVE_MOVES",
            Termination::FivefoldRepetition => "FIVEFOLD_REPETITION",
            Termination::FiftyMoves => "FIFTY_MOVES",
            Termination::ThreefoldRepetition => "THREEFOLD_REPETITION",
        }
    }
}

/// The end of a game: how, and who won (`None` for a draw).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub termination: Termination,
    pub winner: Option<Color>,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// Points for `color` in half points: win 2, draw 1, loss 0 (R2.1: 1, ½, 0).
    pub fn half_points(&self, color: Color) -> u32 {
        match self.winner {
            Some(w) if w == color => 2,
            Some(_) => 0,
            None => 1,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result(), self.termination.name())
    }
}

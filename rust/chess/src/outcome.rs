//! How a game ended: the termination and the winner (R4).

use crate::Color;
use crate::position::Position;
use core::fmt;

/// Why a game is over, with python-chess's names (R4.1, R4.5, R4.6, R4.8, R5.2) and, for the
/// endings python-chess does not know (R4.2–R4.4, R4.7), names in the same style.
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
    /// R4.2: a player resigned (a draw under R4.9 when the opponent cannot mate).
    Resignation,
    /// R4.3: a player's time ran out (a draw under R4.9 when the opponent cannot mate).
    TimeForfeit,
    /// R4.7: the players agreed to a draw.
    Agreement,
    /// R4.4: a player lost by repeated illegal moves (a draw when the opponent cannot mate,
    /// as FIDE Laws 7.5.5 say).
    IllegalMoves,
    /// R4.6 beyond the material list: neither side can ever mate (locked pawn walls, forced
    /// sequences), judged by `Position::is_dead_position` in FIDE mode (R5.1).
    DeadPosition,
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
            Termination::Resignation => "RESIGNATION",
            Termination::TimeForfeit => "TIME_FORFEIT",
            Termination::Agreement => "AGREEMENT",
            Termination::IllegalMoves => "ILLEGAL_MOVES",
            Termination::DeadPosition => "DEAD_POSITION",
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

/// The two ways of applying the rules of R4 (R5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rules {
    /// R5.1: a game with an arbiter. Threefold repetition and fifty moves are claims;
    /// fivefold and seventy-five moves end the game by themselves.
    #[default]
    Fide,
    /// R5.2: an online site without an arbiter. Threefold repetition and fifty moves end the
    /// game at once; after resignation or flag fall only a lone king saves the draw.
    Automatic,
}

/// Can `color` still checkmate, for deciding whether a resignation or flag fall loses or
/// draws (R4.9)? Under R5.2 only a lone king cannot. Under FIDE rules (R5.1) it is the real
/// test, `Position::can_checkmate`: material, locked pawn walls and forced sequences, and
/// "can" whenever that is not proven otherwise.
pub fn can_still_mate(pos: &Position, color: Color, rules: Rules) -> bool {
    match rules {
        Rules::Automatic => (pos.board().by_color(color) & !pos.board().kings()).any(),
        Rules::Fide => pos.can_checkmate(color),
    }
}

/// The outcome when `resigning` resigns in `pos` (R4.2): the opponent wins, unless the
/// opponent could never checkmate, which makes it a draw (R4.9).
pub fn resignation(pos: &Position, resigning: Color, rules: Rules) -> Outcome {
    win_unless_no_mate(pos, resigning.other(), Termination::Resignation, rules)
}

/// The outcome when `flagged` runs out of time in `pos` (R4.3): a loss, unless the opponent
/// could never checkmate, which makes it a draw (R4.9).
pub fn time_forfeit(pos: &Position, flagged: Color, rules: Rules) -> Outcome {
    win_unless_no_mate(pos, flagged.other(), Termination::TimeForfeit, rules)
}

/// The outcome when `offender` reaches the illegal-move limit in `pos` (R4.4): a loss,
/// unless the opponent could never checkmate, which makes it a draw. The digest's R4.9 names
/// resignation and flag fall; FIDE Laws 7.5.5 give illegal moves the same exception.
pub fn illegal_moves_forfeit(pos: &Position, offender: Color, rules: Rules) -> Outcome {
    win_unless_no_mate(pos, offender.other(), Termination::IllegalMoves, rules)
}

fn win_unless_no_mate(
    pos: &Position,
    winner: Color,
    termination: Termination,
    rules: Rules,
) -> Outcome {
    let winner = can_still_mate(pos, winner, rules).then_some(winner);
    Outcome {
        termination,
        winner,
    }
}

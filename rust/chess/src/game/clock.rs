//! `Clock`: a chess clock with equal time for both players and an optional increment (R6.1).

use crate::Color;
use core::fmt;
use std::time::Duration;

/// Two clocks, of which only the one of the player to move runs. Pressing it (recording a
/// move) stops it, adds the increment, and starts the opponent's (R6.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    remaining: [Duration; 2],
    increment: Duration,
    to_move: Color,
}

/// The player to move used more time than was left: the flag has fallen (R4.3).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FlagFall {
    pub color: Color,
}

impl fmt::Display for FlagFall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}'s time has run out", self.color)
    }
}

impl std::error::Error for FlagFall {}

impl Clock {
    /// Equal time `base` for both players, `increment` added after each move, `to_move`'s
    /// clock running.
    pub fn new(base: Duration, increment: Duration, to_move: Color) -> Clock {
        Clock {
            remaining: [base; 2],
            increment,
            to_move,
        }
    }

    pub fn remaining(&self, color: Color) -> Duration {
        self.remaining[color.index()]
    }

    /// Whose clock runs.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    pub fn increment(&self) -> Duration {
        self.increment
    }

    /// The player to move completed a move after thinking `spent`. If that was more than
    /// the time left, the flag fell before the move was complete: the clock stops at zero
    /// and the move does not count (R4.3).
    pub fn record_move(&mut self, spent: Duration) -> Result<(), FlagFall> {
        let color = self.to_move;
        let left = &mut self.remaining[color.index()];
        if spent > *left {
            *left = Duration::ZERO;
            return Err(FlagFall { color });
        }
        *left = (*left).checked_sub(spent).unwrap() + self.increment;
        self.to_move = color.other();
        Ok(())
    }

    /// The player to move thought for `spent` without completing a move (a refused illegal
    /// move, or time simply passing): the clock runs on, with no increment and no switch.
    /// More than the time left is a flag fall (R4.3), the clock stopping at zero.
    pub fn spend(&mut self, spent: Duration) -> Result<(), FlagFall> {
        let color = self.to_move;
        let left = &mut self.remaining[color.index()];
        if spent > *left {
            *left = Duration::ZERO;
            return Err(FlagFall { color });
        }
        *left -= spent;
        Ok(())
    }
}

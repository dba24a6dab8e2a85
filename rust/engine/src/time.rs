//! Time management: how long to think, from the clock or a fixed move time.
//!
//! Two budgets: the *soft* one is checked between iterations of iterative deepening (and
//! stretched or shrunk by how stable the best move is); the *hard* one is checked inside the
//! search and ends it at once. Pondering switches both off until `ponderhit`; the clock then
//! counts from the start of the `go`, as the time pondered was the opponent's.

use crate::limits::Limits;
use shatranj_chess::Color;
use std::time::{Duration, Instant};

/// Time budget of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    pub start: Instant,
    /// Do not start another iteration after this (scaled by stability).
    pub soft: Option<Duration>,
    /// Stop the search at this point.
    pub hard: Option<Duration>,
}

/// Moves left assumed when the clock has no `movestogo`.
const DEFAULT_MOVES_TO_GO: u32 = 30;

impl TimeManager {
    pub fn new(limits: &Limits, turn: Color, move_overhead: Duration) -> TimeManager {
        let start = Instant::now();
        if let Some(mt) = limits.movetime {
            let t = mt
                .saturating_sub(move_overhead)
                .max(Duration::from_millis(1));
            // UCI's movetime means "search exactly this long": no soft budget that a stable
            // best move could shrink, only the hard stop.
            return TimeManager {
                start,
                soft: None,
                hard: Some(t),
            };
        }
        let (time, inc) = match turn {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        };
        let inc = inc.unwrap_or_default();
        let left = time
            .saturating_sub(move_overhead)
            .max(Duration::from_millis(1));
        let mtg = limits
            .movestogo
            .map_or(DEFAULT_MOVES_TO_GO, |m| m.clamp(1, 50));
        let base = left / mtg + inc * 3 / 4;
        let soft = base.min(left / 2);
        // With one move to go the whole remainder (less a margin) may be spent.
        let hard_cap = if mtg == 1 {
            left * 9 / 10
        } else {
            left * 3 / 5
        };
        let hard = (soft * 4).min(hard_cap).max(soft);
        TimeManager {
            start,
            soft: Some(soft),
            hard: Some(hard),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Should the search stop now (checked inside the search)?
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Should iterative deepening stop before the next iteration? `scale_percent` stretches
    /// the soft budget (above 100 when the best move is unstable).
    pub fn soft_expired(&self, scale_percent: u32) -> bool {
        self.soft
            .is_some_and(|s| self.elapsed() >= s * scale_percent / 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_is_a_fraction_of_the_time_left() {
        let limits = Limits {
            wtime: Some(Duration::from_secs(60)),
            winc: Some(Duration::from_secs(1)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Color::White, Duration::from_millis(10));
        let soft = tm.soft.unwrap();
        let hard = tm.hard.unwrap();
        assert!(
            soft > Duration::from_secs(2) && soft < Duration::from_secs(4),
            "{soft:?}"
        );
        assert!(hard >= soft && hard <= Duration::from_secs(36));
        // Black's clock is not set: no limit for Black.
        assert!(
            TimeManager::new(&limits, Color::Black, Duration::ZERO)
                .hard
                .is_none()
        );
    }

    #[test]
    fn movetime_leaves_the_overhead() {
        let limits = Limits::movetime(Duration::from_millis(100));
        let tm = TimeManager::new(&limits, Color::Black, Duration::from_millis(30));
        assert_eq!(tm.hard, Some(Duration::from_millis(70)));
        assert_eq!(
            tm.soft, None,
            "a stable best move must not end a movetime search early"
        );
    }
}

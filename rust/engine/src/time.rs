//! Time management: how long to think, from the clock or a fixed move time.
//!
//! Two budgets: the *soft* one is checked between iterations of iterative deepening (and
//! stretched or shrunk by how settled the search is: [`soft_scale_percent`]); the *hard* one
//! is checked inside the search and ends it at once. Pondering switches both off until
//! `ponderhit`; the clock then counts from the start of the `go`, as the time pondered was
//! the opponent's.

use crate::limits::Limits;
use crate::score::Value;
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
        // The soft budget is an upper figure that the search's settling scales down (a settled
        // search stops at about half of it): a twentieth of the clock with the default
        // moves-to-go, as engines with node-fraction scaling allot.
        let base = left * 3 / (mtg * 2) + inc * 3 / 4;
        let soft = base.min(left / 2);
        // With one move to go the whole remainder (less a margin) may be spent.
        let hard_cap = if mtg == 1 {
            left * 9 / 10
        } else {
            left * 3 / 5
        };
        let hard = (soft * 3).min(hard_cap).max(soft);
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

/// The share of the soft budget, in percent, that iterative deepening may use before it
/// stops, from three signs of how settled the search is:
/// - `best_move_changes`: a best move that keeps changing wants more time (60 % when it
///   stays, up to 180 %);
/// - `best_move_effort_permille`: the share of the root's nodes spent below the best move; a
///   move that took nearly all of them is clear, one that took little had close rivals
///   (×0.68 at 1000 ‰, ×1.35 at 500 ‰, ×2.0 at none: the node-fraction scaling of
///   Stockfish, Alexandria and Weiss);
/// - `score_drop`: how far the best score fell over the last iterations, in centipawns; a
///   falling score is a threat found late and gets up to 1.6× (a rising one 0.9×).
pub fn soft_scale_percent(
    best_move_changes: u32,
    best_move_effort_permille: u64,
    score_drop: Option<Value>,
) -> u32 {
    let stability = (60 + 40 * best_move_changes).min(180);
    let effort = best_move_effort_permille.min(1000) as u32;
    let node_share = (1500 - effort) * 135 / 1000;
    let falling = score_drop.map_or(100, |d| (100 + d * 3 / 4).clamp(90, 160)) as u32;
    stability * node_share / 100 * falling / 100
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
    fn a_settled_search_stops_early_and_an_unsettled_one_late() {
        let settled = soft_scale_percent(0, 950, Some(0));
        let unclear = soft_scale_percent(0, 400, Some(0));
        let changing = soft_scale_percent(3, 950, Some(0));
        let falling = soft_scale_percent(0, 950, Some(60));
        assert!(settled < 60, "{settled}");
        assert!(unclear > settled && changing > settled && falling > settled);
        assert_eq!(
            soft_scale_percent(0, 950, None),
            settled,
            "no fall: as if level"
        );
        // Each factor is bounded: the largest scale is a few times the soft budget, so the
        // hard one still decides.
        assert!(soft_scale_percent(100, 0, Some(10_000)) <= 180 * 202 / 100 * 160 / 100);
        assert!(soft_scale_percent(0, 5000, Some(-10_000)) > 30);
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

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

    /// Should the search stop at `now`, a reading of the clock (checked inside the search,
    /// as often as [`ClockChecks`] says)?
    pub fn hard_expired_at(&self, now: Instant) -> bool {
        self.hard
            .is_some_and(|h| now.saturating_duration_since(self.start) >= h)
    }

    /// Should iterative deepening stop before the next iteration? `scale_percent` stretches
    /// the soft budget (above 100 when the best move is unstable).
    pub fn soft_expired(&self, scale_percent: u32) -> bool {
        self.soft
            .is_some_and(|s| self.elapsed() >= s * scale_percent / 100)
    }
}

/// How often the search reads the clock between reads, in nodes: the most. A fast
/// evaluation spends about a millisecond on this many nodes, so a faster clock check would
/// cost speed and buy nothing.
pub const MAX_CLOCK_INTERVAL: u32 = 1024;

/// The time the search aims to let pass between two reads of the clock.
pub const CLOCK_PERIOD: Duration = Duration::from_millis(1);

/// When the search's main thread reads the clock for its hard budget: every so many nodes,
/// the number adapting to what a node costs so that reads come about every
/// [`CLOCK_PERIOD`], whatever the evaluation.
///
/// Why not a fixed count: a node's cost depends on the evaluator, not the search. Inline on
/// the CPU 1,024 nodes take about a millisecond; through a slow GPU adapter each evaluation
/// waits a dispatch of a millisecond or more, and a search that read the clock every 1,024
/// nodes ran seconds (2–18× `movetime`) past its budget. Reading it every node instead would
/// cost the fast case a clock call per node. So the count starts at one and, at each read,
/// becomes the nodes the last stretch would have fitted into one period (at most twice the
/// last count, at most [`MAX_CLOCK_INTERVAL`]): the overshoot is about one period, or one
/// node when a single node takes longer. Nodes searched, and so the bench signature, do not
/// depend on it.
#[derive(Clone, Debug)]
pub struct ClockChecks {
    /// Nodes between reads now.
    interval: u32,
    /// Nodes left until the next read.
    left: u32,
    /// The last read.
    last: Instant,
}

impl ClockChecks {
    /// Checks of a search that started at `start`: the first read comes at the first node.
    pub fn new(start: Instant) -> ClockChecks {
        ClockChecks {
            interval: 1,
            left: 1,
            last: start,
        }
    }

    /// Counts a node; the clock's reading when it is due to be read.
    #[inline]
    pub fn count_node(&mut self) -> Option<Instant> {
        self.left -= 1;
        if self.left > 0 {
            return None;
        }
        Some(self.read())
    }

    #[cold]
    fn read(&mut self) -> Instant {
        let now = Instant::now();
        self.interval =
            next_clock_interval(self.interval, now.saturating_duration_since(self.last));
        self.left = self.interval;
        self.last = now;
        now
    }

    /// Nodes between reads now.
    pub fn interval(&self) -> u32 {
        self.interval
    }
}

/// The next count of nodes between clock reads, after `interval` nodes took `took`: the
/// nodes that fit into [`CLOCK_PERIOD`] at that pace, growing at most twofold per read (one
/// stretch of cheap nodes, table hits say, must not stretch it past what the next expensive
/// ones allow), within 1 ..= [`MAX_CLOCK_INTERVAL`].
pub fn next_clock_interval(interval: u32, took: Duration) -> u32 {
    let fits = u128::from(interval) * CLOCK_PERIOD.as_nanos() / took.as_nanos().max(1);
    let most = interval.saturating_mul(2).min(MAX_CLOCK_INTERVAL);
    u32::try_from(fits).unwrap_or(u32::MAX).clamp(1, most)
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

    /// The interval follows the pace: a fast evaluation's nodes reach the largest count
    /// (as the fixed 1,024 before), a slow one's come down to every node, and a change of
    /// pace moves it within a few reads.
    #[test]
    fn the_clock_is_read_about_once_a_period_whatever_a_node_costs() {
        let us = Duration::from_micros;
        let ns = Duration::from_nanos;
        // 0.5 µs a node (a fast CPU search): doubling from 1 up to the cap in ten reads.
        let mut interval = 1;
        let mut reads = 0;
        while interval < MAX_CLOCK_INTERVAL && reads < 100 {
            interval = next_clock_interval(interval, ns(500 * u64::from(interval)));
            reads += 1;
        }
        assert_eq!((interval, reads), (MAX_CLOCK_INTERVAL, 10));
        assert_eq!(
            next_clock_interval(MAX_CLOCK_INTERVAL, ns(500 * 1024)),
            MAX_CLOCK_INTERVAL
        );
        // 1 µs a node: the thousand nodes of one period.
        assert_eq!(next_clock_interval(MAX_CLOCK_INTERVAL, us(1024)), 1000);
        // 1 ms a node (a slow adapter): every node.
        assert_eq!(next_clock_interval(MAX_CLOCK_INTERVAL, us(1_024_000)), 1);
        assert_eq!(next_clock_interval(1, us(1000)), 1);
        assert_eq!(next_clock_interval(1, us(40_000)), 1);
        // 10 µs a node: about a hundred nodes a period.
        assert_eq!(next_clock_interval(MAX_CLOCK_INTERVAL, us(10_240)), 100);
        assert_eq!(next_clock_interval(100, us(1000)), 100);
        // No time measured at all (a coarse clock): grow, but only twofold.
        assert_eq!(next_clock_interval(8, Duration::ZERO), 16);
    }

    #[test]
    fn clock_checks_read_the_clock_at_the_first_node_then_by_interval() {
        let mut checks = ClockChecks::new(Instant::now());
        assert!(
            checks.count_node().is_some(),
            "the first node reads the clock"
        );
        let interval = checks.interval();
        assert!((1..=2).contains(&interval), "{interval}");
        for _ in 1..interval {
            assert!(checks.count_node().is_none());
        }
        assert!(checks.count_node().is_some());
    }

    #[test]
    fn hard_expiry_at_a_given_reading() {
        let tm = TimeManager::new(
            &Limits::movetime(Duration::from_millis(100)),
            Color::White,
            Duration::ZERO,
        );
        assert!(!tm.hard_expired_at(tm.start + Duration::from_millis(99)));
        assert!(tm.hard_expired_at(tm.start + Duration::from_millis(100)));
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

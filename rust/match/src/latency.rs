//! The per-move latency of a match, measured so that a time loss can be blamed on the right
//! party:
//! - **turnaround**, the runner's own: from the arrival of one engine's `bestmove` (stamped
//!   by the thread that reads the engine's output) to the runner writing the next `go`. It
//!   covers checking the rules and adjudication, keeping the clocks and writing `position`.
//!   No clock runs in it (the next engine's clock starts when its `go` is written), so it
//!   costs wall time, never a game;
//! - **think**, fastchess's `-show-latency`: the time the runner measured for a search (from
//!   writing `go` to the arrival of `bestmove`) less the time the engine reported for it
//!   (`info time`). It is what the pipe, the scheduler and the engine's own output cost
//!   against the engine's clock; an engine that reports the time of its last iteration, not
//!   of its whole search, shows more. A negative difference (an engine that rounds up)
//!   counts as zero.

use std::time::Duration;

/// Count, mean, maximum and tail of one latency.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spread {
    pub count: u64,
    pub total_us: u64,
    pub max_us: u64,
    /// Moves above 1 ms and above 10 ms.
    pub over_1ms: u64,
    pub over_10ms: u64,
}

impl Spread {
    pub fn add(&mut self, d: Duration) {
        let us = u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        self.count += 1;
        self.total_us = self.total_us.saturating_add(us);
        self.max_us = self.max_us.max(us);
        self.over_1ms += u64::from(us > 1_000);
        self.over_10ms += u64::from(us > 10_000);
    }

    pub fn merge(&mut self, other: &Spread) {
        self.count += other.count;
        self.total_us = self.total_us.saturating_add(other.total_us);
        self.max_us = self.max_us.max(other.max_us);
        self.over_1ms += other.over_1ms;
        self.over_10ms += other.over_10ms;
    }

    /// The mean in milliseconds (0 without moves).
    pub fn mean_ms(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.total_us as f64 / self.count as f64 / 1000.0
        }
    }

    pub fn to_json(self) -> serde_json::Value {
        serde_json::json!({
            "count": self.count,
            "total_us": self.total_us,
            "max_us": self.max_us,
            "over_1ms": self.over_1ms,
            "over_10ms": self.over_10ms,
        })
    }

    /// Missing fields read as zero: a state file from before latency was kept.
    pub fn from_json(v: &serde_json::Value) -> Spread {
        let n = |k: &str| v[k].as_u64().unwrap_or(0);
        Spread {
            count: n("count"),
            total_us: n("total_us"),
            max_us: n("max_us"),
            over_1ms: n("over_1ms"),
            over_10ms: n("over_10ms"),
        }
    }

    /// `0.041 ms mean, 0.210 ms max, 0 over 1 ms (1,234 moves)`.
    pub fn describe(&self) -> String {
        format!(
            "{:.3} ms mean, {:.3} ms max, {} over 1 ms, {} over 10 ms ({} moves)",
            self.mean_ms(),
            self.max_us as f64 / 1000.0,
            self.over_1ms,
            self.over_10ms,
            self.count
        )
    }
}

/// Both latencies of a game or a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Latency {
    pub turnaround: Spread,
    pub think: Spread,
}

impl Latency {
    pub fn merge(&mut self, other: &Latency) {
        self.turnaround.merge(&other.turnaround);
        self.think.merge(&other.think);
    }

    pub fn to_json(self) -> serde_json::Value {
        serde_json::json!({
            "turnaround": self.turnaround.to_json(),
            "think": self.think.to_json(),
        })
    }

    pub fn from_json(v: &serde_json::Value) -> Latency {
        Latency {
            turnaround: Spread::from_json(&v["turnaround"]),
            think: Spread::from_json(&v["think"]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreads_add_merge_and_round_trip() {
        let mut a = Spread::default();
        for us in [200, 1_500, 12_000] {
            a.add(Duration::from_micros(us));
        }
        assert_eq!(
            a,
            Spread {
                count: 3,
                total_us: 13_700,
                max_us: 12_000,
                over_1ms: 2,
                over_10ms: 1
            }
        );
        let mut b = Spread::default();
        b.add(Duration::from_millis(20));
        b.merge(&a);
        assert_eq!((b.count, b.max_us, b.over_10ms), (4, 20_000, 2));
        assert!((a.mean_ms() - 13.7 / 3.0).abs() < 1e-9);
        let l = Latency {
            turnaround: a,
            think: b,
        };
        assert_eq!(Latency::from_json(&l.to_json()), l);
        assert_eq!(
            Latency::from_json(&serde_json::Value::Null),
            Latency::default()
        );
    }
}

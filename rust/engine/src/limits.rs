//! What a search is asked to do: when to stop, and how many lines to report.

use shatranj_chess::Move;
use std::time::Duration;

/// Search limits, as UCI's `go` gives them. Unset fields do not limit; with nothing set
/// (and not `infinite`) the search runs until stopped or to the maximum depth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Remaining clock time of White and Black.
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    /// Increment per move of White and Black.
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search exactly this long.
    pub movetime: Option<Duration>,
    /// Search to this depth (plies).
    pub depth: Option<u32>,
    /// Search about this many nodes (all threads together).
    pub nodes: Option<u64>,
    /// Start no new iteration once this many nodes are searched (all threads together): a
    /// budget that ends only at iteration boundaries, so every move's search is complete to
    /// some depth (data generation's "soft nodes"). `nodes` still caps it.
    pub soft_nodes: Option<u64>,
    /// Search until a mate in this many moves is found.
    pub mate: Option<u32>,
    /// Search until stopped, even after finishing the maximum depth.
    pub infinite: bool,
    /// Pondering: search until `ponderhit` (then the clock limits apply) or `stop`.
    pub ponder: bool,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Number of principal variations to report (at least 1).
    pub multipv: usize,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Iterations until `soft` nodes are searched, never more than `hard` in all.
    pub fn soft_nodes(soft: u64, hard: u64) -> Limits {
        Limits {
            soft_nodes: Some(soft),
            nodes: Some(hard.max(soft)),
            ..Limits::default()
        }
    }

    pub fn movetime(t: Duration) -> Limits {
        Limits {
            movetime: Some(t),
            ..Limits::default()
        }
    }

    /// True when only an outside `stop` (or the depth cap) ends the search.
    pub fn is_unbounded(&self) -> bool {
        self.wtime.is_none()
            && self.btime.is_none()
            && self.movetime.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
            && self.soft_nodes.is_none()
            && self.mate.is_none()
    }
}

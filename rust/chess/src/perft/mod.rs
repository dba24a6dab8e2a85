//! Perft: counting the leaves of the legal move tree, the standard test of a move generator.
//!
//! Speed comes from five things: bulk counting (the last ply is a popcount of destination
//! sets, never a list), fused counting of the two plies above the leaves (`fused`: the
//! opponent's replies to each move counted from an analysis of the parent, without playing
//! the move), playing moves straight from the generator's visitor (no move list; the moving
//! role is already known), copy-make without the Zobrist update, and splitting the tree (not
//! just the root) across rayon's work-stealing threads. An optional table caches subtree
//! counts for deep runs; it is keyed by the whole position, so no collision can make a count
//! wrong. Runs report progress as a share of the work with an estimate of the time left,
//! and an interrupted run leaves the finished root moves in its [`PerftMonitor`].
//!
//! The rooms: this module is the API (`perft`, `perft_with`, `divide`, their options and
//! errors); `monitor` is the progress/interrupt state a watcher shares with a run; `split`
//! cuts the tree into units and spreads them over threads; `count` is the serial counting
//! core and its CPU-level dispatch; `fused` counts the last plies without playing them;
//! `table` caches subtree counts.

mod count;
mod fused;
mod monitor;
mod split;
mod table;

pub use count::counting_core;
pub use monitor::PerftMonitor;
pub use table::PerftTable;

use crate::moves::Move;
use crate::position::Position;
use core::fmt;
use count::count_dispatch;
use split::{Unit, in_pool, split, work_units};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Counts leaf nodes at `depth` on one thread, without a hash table.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    count_dispatch::<false>(pos, depth, None)
}

/// Settings for [`perft_with`] and [`divide`].
#[derive(Clone, Debug)]
pub struct PerftOptions {
    /// Worker threads; 0 means one per available core.
    pub threads: usize,
    /// Size of the subtree-count table in MiB; 0 disables it.
    pub hash_mb: usize,
}

impl Default for PerftOptions {
    fn default() -> Self {
        PerftOptions {
            threads: 1,
            hash_mb: 0,
        }
    }
}

/// Why a perft run produced no count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerftError {
    /// Stopped through [`PerftMonitor::stop`].
    Interrupted,
    /// The worker threads could not be started.
    ThreadPool(String),
    /// The table could not be allocated.
    HashAllocation { mb: usize },
}

impl fmt::Display for PerftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PerftError::Interrupted => f.write_str("perft interrupted"),
            PerftError::ThreadPool(e) => write!(f, "cannot start perft threads: {e}"),
            PerftError::HashAllocation { mb } => {
                write!(f, "cannot allocate a {mb} MiB perft table")
            }
        }
    }
}

impl std::error::Error for PerftError {}

/// Leaf count of every legal root move (the `divide` of perft tools), in move-list order.
pub fn divide(
    pos: &Position,
    depth: u32,
    opts: &PerftOptions,
    monitor: &PerftMonitor,
) -> Result<Vec<(Move, u64)>, PerftError> {
    let moves = pos.legal_moves();
    monitor.reset(moves.len());
    if depth == 0 {
        return Ok(Vec::new());
    }
    let table = PerftTable::new(opts.hash_mb)?;
    let run = || -> Result<Vec<(Move, u64)>, PerftError> {
        let (units, rest) = work_units(pos, &moves, depth);
        let total: u64 = units.iter().map(|u| u.weight).sum();
        monitor.work_total.store(total.max(1), Ordering::Relaxed);
        let counts: Vec<AtomicU64> = moves.iter().map(|_| AtomicU64::new(0)).collect();
        let pending: Vec<AtomicUsize> = moves.iter().map(|_| AtomicUsize::new(0)).collect();
        for u in &units {
            pending[u.root].fetch_add(1, Ordering::Relaxed);
        }
        for (i, &m) in moves.iter().enumerate() {
            if pending[i].load(Ordering::Relaxed) == 0 {
                monitor.finish_root(m, 0); // Every line below it ends before the units.
            }
        }
        let count = |u: &Unit| -> Result<(), PerftError> {
            let n = split(&u.pos, rest, table.as_ref(), monitor, opts.threads != 1)?;
            counts[u.root].fetch_add(n, Ordering::Relaxed);
            monitor.work_done.fetch_add(u.weight, Ordering::Relaxed);
            // The last unit of a root move sees every other unit's count (AcqRel).
            if pending[u.root].fetch_sub(1, Ordering::AcqRel) == 1 {
                monitor.finish_root(moves[u.root], counts[u.root].load(Ordering::Relaxed));
            }
            Ok(())
        };
        if opts.threads == 1 {
            units.iter().try_for_each(count)?;
        } else {
            use rayon::prelude::*;
            units.par_iter().try_for_each(count)?;
        }
        Ok(moves
            .iter()
            .zip(&counts)
            .map(|(&m, n)| (m, n.load(Ordering::Relaxed)))
            .collect())
    };
    in_pool(opts.threads, run)?
}

/// Leaf count with threads, an optional table, progress and interruption.
pub fn perft_with(
    pos: &Position,
    depth: u32,
    opts: &PerftOptions,
    monitor: &PerftMonitor,
) -> Result<u64, PerftError> {
    if depth <= 1 {
        let n = perft(pos, depth);
        monitor.nodes.fetch_add(n, Ordering::Relaxed);
        return Ok(n);
    }
    Ok(divide(pos, depth, opts, monitor)?
        .iter()
        .map(|&(_, n)| n)
        .sum())
}

/// The most worker threads a perft may ask for; more is a mistake, not a wish for speed.
pub const MAX_THREADS: usize = 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monitor_reports_work_and_finished_roots() {
        let pos = Position::new();
        let monitor = PerftMonitor::new();
        let opts = PerftOptions {
            threads: 2,
            hash_mb: 1,
        };
        let split = divide(&pos, 4, &opts, &monitor).unwrap();
        assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), 197_281);
        let (done, total) = monitor.work();
        assert!(total > 0 && done == total);
        assert_eq!(monitor.fraction_done(), 1.0);
        assert_eq!(monitor.roots(), (20, 20));
        let mut finished = monitor.finished_roots();
        finished.sort_by_key(|&(m, _)| m.to_string());
        let mut want = split.clone();
        want.sort_by_key(|&(m, _)| m.to_string());
        assert_eq!(finished, want);

        // Stopped before it starts: an error, and no root move reported as finished.
        let stopped = PerftMonitor::new();
        stopped.stop();
        assert_eq!(
            divide(&pos, 6, &PerftOptions::default(), &stopped),
            Err(PerftError::Interrupted)
        );
        assert!(stopped.finished_roots().is_empty());
    }
}

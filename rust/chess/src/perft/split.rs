//! Splitting a perft over threads: the tree cut into units a few plies below the root (the
//! grain of progress reports and of the threads' shares), the worker pool, and the recursive
//! split of each unit while it is deep.

use super::count::count_dispatch;
use super::{MAX_THREADS, PerftError, PerftMonitor, PerftTable};
use crate::moves::MoveList;
use crate::position::Position;
use std::sync::atomic::Ordering;

/// A subtree a few plies below the root: the root move it descends from, its position and
/// its share of the work (see [`PerftMonitor`]).
pub(super) struct Unit {
    pub(super) root: usize,
    pub(super) pos: Position,
    pub(super) weight: u64,
}

/// Units stop splitting once there are this many (or the subtrees get small).
const MIN_UNITS: usize = 1024;
/// Units are not cut below this many plies from the leaves.
const MIN_UNIT_DEPTH: u32 = 5;

/// Cuts the tree into units: the root's children, or their descendants a ply or two lower
/// for deep runs, so that progress and the threads' shares are fine-grained. Returns them
/// and the depth left below each.
pub(super) fn work_units(pos: &Position, moves: &MoveList, depth: u32) -> (Vec<Unit>, u32) {
    let mut units: Vec<Unit> = moves
        .iter()
        .enumerate()
        .map(|(root, &m)| {
            let mut c = *pos;
            c.play_unchecked(m);
            Unit {
                root,
                pos: c,
                weight: 0,
            }
        })
        .collect();
    let mut rest = depth - 1;
    while units.len() < MIN_UNITS && rest > MIN_UNIT_DEPTH {
        let mut next = Vec::with_capacity(units.len() * 32);
        for u in &units {
            for &m in &u.pos.legal_moves() {
                let mut c = u.pos;
                c.play_unchecked(m);
                next.push(Unit {
                    root: u.root,
                    pos: c,
                    weight: 0,
                });
            }
        }
        units = next;
        rest -= 1;
    }
    for u in &mut units {
        u.weight = count_dispatch::<false>(&u.pos, rest.saturating_sub(3), None).max(1);
    }
    (units, rest)
}

pub(super) fn in_pool<T: Send>(
    threads: usize,
    run: impl FnOnce() -> T + Send,
) -> Result<T, PerftError> {
    if threads == 1 {
        return Ok(run());
    }
    if threads > MAX_THREADS {
        return Err(PerftError::ThreadPool(format!(
            "{threads} threads requested, at most {MAX_THREADS} allowed"
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PerftError::ThreadPool(e.to_string()))?;
    Ok(pool.install(run))
}

/// Below this many plies a subtree is counted in one go, without checking the stop flag.
const SERIAL_DEPTH: u32 = 4;

/// Counts a subtree, splitting it over threads while it is deep.
pub(super) fn split(
    pos: &Position,
    depth: u32,
    table: Option<&PerftTable>,
    monitor: &PerftMonitor,
    parallel: bool,
) -> Result<u64, PerftError> {
    if monitor.is_stopped() {
        return Err(PerftError::Interrupted);
    }
    if depth <= SERIAL_DEPTH {
        let n = match table {
            Some(t) => count_dispatch::<true>(pos, depth, Some(t)),
            None => count_dispatch::<false>(pos, depth, None),
        };
        monitor.nodes.fetch_add(n, Ordering::Relaxed);
        return Ok(n);
    }
    if let Some(n) = table.and_then(|t| t.probe(pos, depth)) {
        monitor.nodes.fetch_add(n, Ordering::Relaxed);
        return Ok(n);
    }
    let children: Vec<Position> = pos
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut c = *pos;
            c.play_unchecked(m);
            c
        })
        .collect();
    let n: u64 = if parallel {
        use rayon::prelude::*;
        children
            .par_iter()
            .map(|c| split(c, depth - 1, table, monitor, true))
            .sum::<Result<u64, _>>()?
    } else {
        children
            .iter()
            .map(|c| split(c, depth - 1, table, monitor, false))
            .sum::<Result<u64, _>>()?
    };
    if let Some(t) = table {
        t.store(pos, depth, n);
    }
    Ok(n)
}

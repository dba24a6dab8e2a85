//! The state a running perft shares with whoever watches it: the stop flag, progress in
//! work units, and the root moves already finished.

use crate::moves::Move;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Shared state between a running perft and whoever watches it: a stop flag (Ctrl-C, a
/// Python `KeyboardInterrupt`), progress counters and the root moves already finished.
///
/// Progress is measured in *work*: the tree is cut into units a few plies below the root,
/// and each unit weighs the leaf count of its own subtree three plies shallower (counted
/// before the run starts, a few thousandths of the work). Subtrees keep roughly their
/// proportions from one depth to the next, so the finished share of the weight is an honest
/// estimate of the finished share of the time, and it only grows; with a table the later
/// units speed up, so the estimate errs on the late side.
#[derive(Debug, Default)]
pub struct PerftMonitor {
    pub(super) stop: AtomicBool,
    pub(super) nodes: AtomicU64,
    pub(super) roots_done: AtomicUsize,
    pub(super) roots_total: AtomicUsize,
    pub(super) work_done: AtomicU64,
    pub(super) work_total: AtomicU64,
    pub(super) finished: Mutex<Vec<(Move, u64)>>,
}

impl PerftMonitor {
    pub fn new() -> PerftMonitor {
        PerftMonitor::default()
    }
    /// Asks the run to stop; it returns [`PerftError::Interrupted`](super::PerftError::Interrupted)
    /// soon after.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// Leaf nodes counted so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
    /// Root moves finished and the number of root moves.
    pub fn roots(&self) -> (usize, usize) {
        (
            self.roots_done.load(Ordering::Relaxed),
            self.roots_total.load(Ordering::Relaxed),
        )
    }
    /// Work finished and the total work (see the type's docs); the total is 0 until the
    /// run has cut its tree into units.
    pub fn work(&self) -> (u64, u64) {
        (
            self.work_done.load(Ordering::Relaxed),
            self.work_total.load(Ordering::Relaxed),
        )
    }
    /// The share of the work finished, from 0 to 1.
    pub fn fraction_done(&self) -> f64 {
        let (done, total) = self.work();
        if total == 0 {
            0.0
        } else {
            done as f64 / total as f64
        }
    }
    /// Time still needed, extrapolated from `elapsed` and the work finished; `None` until
    /// some work is done.
    pub fn eta(&self, elapsed: std::time::Duration) -> Option<std::time::Duration> {
        let f = self.fraction_done();
        (f > 0.0).then(|| elapsed.mul_f64((1.0 - f) / f))
    }
    /// The root moves whose count is complete, with their counts, in the order they
    /// finished (all of them after a successful run; the finished part after an interrupt).
    pub fn finished_roots(&self) -> Vec<(Move, u64)> {
        self.finished.lock().map(|f| f.clone()).unwrap_or_default()
    }
    /// Starts a run that another driver of the tree walk (the GPU's) carries out: `roots`
    /// root moves and `work` units of work in all, reported through [`add_progress`] and
    /// [`record_root`].
    ///
    /// [`add_progress`]: PerftMonitor::add_progress
    /// [`record_root`]: PerftMonitor::record_root
    pub fn begin_run(&self, roots: usize, work: u64) {
        self.reset(roots);
        self.work_total.store(work.max(1), Ordering::Relaxed);
    }
    /// Adds finished work and the leaf nodes it counted (for [`begin_run`](Self::begin_run)).
    pub fn add_progress(&self, work: u64, nodes: u64) {
        self.work_done.fetch_add(work, Ordering::Relaxed);
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
    }
    /// Records root move `m` as complete with `n` leaves (for [`begin_run`](Self::begin_run)).
    pub fn record_root(&self, m: Move, n: u64) {
        self.finish_root(m, n);
    }
    pub(super) fn reset(&self, roots: usize) {
        self.roots_total.store(roots, Ordering::Relaxed);
        self.roots_done.store(0, Ordering::Relaxed);
        self.work_done.store(0, Ordering::Relaxed);
        self.work_total.store(0, Ordering::Relaxed);
        if let Ok(mut f) = self.finished.lock() {
            f.clear();
        }
    }
    pub(super) fn finish_root(&self, m: Move, n: u64) {
        if let Ok(mut f) = self.finished.lock() {
            f.push((m, n));
        }
        self.roots_done.fetch_add(1, Ordering::Relaxed);
    }
}

//! Perft: counting the leaves of the legal move tree, the standard test of a move generator.
//!
//! Speed comes from four things: bulk counting (the last ply is a popcount of destination
//! sets, never a list), playing moves straight from the generator's visitor (no move list;
//! the moving role is already known), copy-make without the Zobrist update when no hash
//! table is used, and splitting the tree (not just the root) across rayon's work-stealing
//! threads. An optional table caches subtree counts for deep runs; an entry is used only
//! when its full 64-bit key and its depth match.

use crate::attacks::{Magic, Pext, SliderBackend, Sliders, slider_backend};
use crate::bitboard::Bitboard;
use crate::movegen::{self, Counter, Visitor, from_offset};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Role, Square};
use core::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

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

/// Shared state between a running perft and whoever watches it: a stop flag (Ctrl-C, a
/// Python `KeyboardInterrupt`) and progress counters.
#[derive(Debug, Default)]
pub struct PerftMonitor {
    stop: AtomicBool,
    nodes: AtomicU64,
    roots_done: AtomicUsize,
    roots_total: AtomicUsize,
}

impl PerftMonitor {
    pub fn new() -> PerftMonitor {
        PerftMonitor::default()
    }
    /// Asks the run to stop; it returns [`PerftError::Interrupted`] soon after.
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
    monitor.roots_total.store(moves.len(), Ordering::Relaxed);
    if depth == 0 {
        return Ok(Vec::new());
    }
    let table = PerftTable::new(opts.hash_mb)?;
    let run = || -> Result<Vec<(Move, u64)>, PerftError> {
        let children: Vec<(Move, Position)> = moves
            .iter()
            .map(|&m| {
                let mut c = *pos;
                c.play_unchecked(m);
                (m, c)
            })
            .collect();
        let count = |c: &Position| -> Result<u64, PerftError> {
            let n = split(c, depth - 1, table.as_ref(), monitor, opts.threads != 1)?;
            monitor.roots_done.fetch_add(1, Ordering::Relaxed);
            Ok(n)
        };
        if opts.threads == 1 {
            children.iter().map(|(m, c)| Ok((*m, count(c)?))).collect()
        } else {
            use rayon::prelude::*;
            children
                .par_iter()
                .map(|(m, c)| Ok((*m, count(c)?)))
                .collect()
        }
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

fn in_pool<T: Send>(threads: usize, run: impl FnOnce() -> T + Send) -> Result<T, PerftError> {
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
fn split(
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
    if let Some(n) = table.and_then(|t| t.probe(pos.key(), depth)) {
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
        t.store(pos.key(), depth, n);
    }
    Ok(n)
}

/// The instruction-set level the counting core is compiled for. The core is one generic
/// body inlined into three entry points, each compiled with its own `#[target_feature]`s,
/// so `popcnt`/`tzcnt`/`pext` are emitted only in code that runs after detection.
trait Level: 'static {
    type S: Sliders;
    fn count<const HASH: bool>(pos: &Position, depth: u32, table: Option<&PerftTable>) -> u64;
}

/// Any x86-64: magic bitboards, software popcount.
struct Baseline;
/// x86-64-v2 (POPCNT): magic bitboards, hardware popcount.
struct Popcnt;
/// BMI2 with fast PEXT (and AVX2, which every such CPU has): PEXT bitboards, hardware
/// popcount and tzcnt, 32-byte copies of positions.
struct Bmi2;

impl Level for Baseline {
    type S = Magic;
    #[inline(always)]
    fn count<const HASH: bool>(pos: &Position, depth: u32, table: Option<&PerftTable>) -> u64 {
        count_baseline::<HASH>(pos, depth, table)
    }
}

impl Level for Popcnt {
    type S = Magic;
    #[inline(always)]
    fn count<const HASH: bool>(pos: &Position, depth: u32, table: Option<&PerftTable>) -> u64 {
        // SAFETY: `Popcnt` is selected only when the CPU reports POPCNT.
        unsafe { count_popcnt::<HASH>(pos, depth, table) }
    }
}

impl Level for Bmi2 {
    type S = Pext;
    #[inline(always)]
    fn count<const HASH: bool>(pos: &Position, depth: u32, table: Option<&PerftTable>) -> u64 {
        // SAFETY: `Bmi2` is selected only when the CPU reports BMI1, BMI2, POPCNT, LZCNT and AVX2.
        unsafe { count_bmi2::<HASH>(pos, depth, table) }
    }
}

fn count_baseline<const HASH: bool>(pos: &Position, depth: u32, table: Option<&PerftTable>) -> u64 {
    count_tree::<Baseline, HASH>(pos, depth, table)
}

#[cfg_attr(target_arch = "x86_64", target_feature(enable = "popcnt"))]
unsafe fn count_popcnt<const HASH: bool>(
    pos: &Position,
    depth: u32,
    table: Option<&PerftTable>,
) -> u64 {
    count_tree::<Popcnt, HASH>(pos, depth, table)
}

#[cfg_attr(
    target_arch = "x86_64",
    target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")
)]
unsafe fn count_bmi2<const HASH: bool>(
    pos: &Position,
    depth: u32,
    table: Option<&PerftTable>,
) -> u64 {
    count_tree::<Bmi2, HASH>(pos, depth, table)
}

fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn has_bmi_set() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The counting core perft uses on this CPU: `"bmi2-pext"`, `"popcnt-magic"` or
/// `"baseline-magic"` (for reports and for tests of the runtime dispatch).
pub fn counting_core() -> &'static str {
    match slider_backend() {
        SliderBackend::Pext if has_bmi_set() => "bmi2-pext",
        _ if has_popcnt() => "popcnt-magic",
        _ => "baseline-magic",
    }
}

/// Picks the fastest counting core this CPU can run.
fn count_dispatch<const HASH: bool>(pos: &Position, depth: u32, table: Option<&PerftTable>) -> u64 {
    match slider_backend() {
        SliderBackend::Pext if has_bmi_set() => Bmi2::count::<HASH>(pos, depth, table),
        _ if has_popcnt() => Popcnt::count::<HASH>(pos, depth, table),
        _ => Baseline::count::<HASH>(pos, depth, table),
    }
}

/// The serial counting core. With `HASH`, keys are maintained and the table consulted.
#[inline(always)]
fn count_tree<L: Level, const HASH: bool>(
    pos: &Position,
    depth: u32,
    table: Option<&PerftTable>,
) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut c = Counter(0);
            movegen::generate::<L::S, _>(pos, &mut c);
            c.0
        }
        _ => {
            if HASH {
                if let Some(n) = table.and_then(|t| t.probe(pos.key(), depth)) {
                    return n;
                }
            }
            let mut v = Expand::<L, HASH> {
                parent: pos,
                depth: depth - 1,
                nodes: 0,
                table,
                _level: core::marker::PhantomData,
            };
            movegen::generate::<L::S, _>(pos, &mut v);
            if HASH {
                if let Some(t) = table {
                    t.store(pos.key(), depth, v.nodes);
                }
            }
            v.nodes
        }
    }
}

/// Plays each generated move on a copy of the parent and counts the child's subtree.
struct Expand<'a, L, const HASH: bool> {
    parent: &'a Position,
    depth: u32,
    nodes: u64,
    table: Option<&'a PerftTable>,
    _level: core::marker::PhantomData<L>,
}

impl<L: Level, const HASH: bool> Expand<'_, L, HASH> {
    #[inline(always)]
    fn child(&mut self, play: impl FnOnce(&mut Position)) {
        let mut c = *self.parent;
        play(&mut c);
        self.nodes += L::count::<HASH>(&c, self.depth, self.table);
    }
}

impl<L: Level, const HASH: bool> Visitor for Expand<'_, L, HASH> {
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, to: Bitboard) {
        let their = self.parent.board.by_color(self.parent.turn.other());
        for t in to & their {
            self.child(|c| c.apply_normal::<HASH>(role, from, t));
        }
        for t in to - their {
            self.child(|c| c.apply_quiet::<HASH>(role, from, t));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, off: i32) {
        let their = self.parent.board.by_color(self.parent.turn.other());
        for t in to & their {
            self.child(|c| c.apply_normal::<HASH>(Role::Pawn, from_offset(t, off), t));
        }
        for t in to - their {
            self.child(|c| c.apply_quiet::<HASH>(Role::Pawn, from_offset(t, off), t));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, off: i32) {
        for t in to {
            for role in Role::PROMOTIONS {
                self.child(|c| c.apply_promotion::<HASH>(from_offset(t, off), t, role));
            }
        }
    }
    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.child(|c| c.apply_en_passant::<HASH>(from, to));
    }
    #[inline(always)]
    fn castle(&mut self, from: Square, to: Square) {
        self.child(|c| c.apply_castle::<HASH>(from, to));
    }
}

/// A lock-free table of subtree counts.
///
/// Each slot is two `AtomicU64`s: `check = key ^ data` and `data = count << 8 | depth`.
/// Writers store both words without a lock; a reader recomputes `check ^ data` and accepts
/// the entry only if it equals the full 64-bit key of the position *and* the stored depth
/// equals the requested depth. A torn read (words from two different writes) fails the key
/// check and is treated as a miss, so a race can cost time but never a wrong count.
/// Buckets hold two slots: one kept for the deepest subtree, one always replaced.
pub struct PerftTable {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

impl PerftTable {
    /// A table of about `mb` MiB (rounded down to a power of two), or `None` for 0.
    pub fn new(mb: usize) -> Result<Option<PerftTable>, PerftError> {
        if mb == 0 {
            return Ok(None);
        }
        let bytes = mb
            .checked_mul(1 << 20)
            .ok_or(PerftError::HashAllocation { mb })?;
        let buckets = (bytes / 32).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(buckets * 2)
            .map_err(|_| PerftError::HashAllocation { mb })?;
        slots.resize_with(buckets * 2, || [AtomicU64::new(0), AtomicU64::new(0)]);
        Ok(Some(PerftTable {
            slots,
            mask: buckets - 1,
        }))
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        2 * (key as usize & self.mask)
    }

    #[inline]
    pub fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let b = self.bucket(key);
        for slot in &self.slots[b..b + 2] {
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            if check ^ data == key && data & 0xFF == depth as u64 && data != 0 {
                return Some(data >> 8);
            }
        }
        None
    }

    #[inline]
    pub fn store(&self, key: u64, depth: u32, count: u64) {
        if count >= 1 << 56 {
            return; // Does not fit; simply not cached.
        }
        let data = count << 8 | depth as u64;
        let b = self.bucket(key);
        let deep = &self.slots[b];
        let slot = if depth as u64 >= deep[1].load(Ordering::Relaxed) & 0xFF {
            deep
        } else {
            &self.slots[b + 1]
        };
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

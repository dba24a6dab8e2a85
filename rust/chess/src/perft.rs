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

use crate::attacks::{Magic, Pext, SliderBackend, Sliders, slider_backend};
use crate::bitboard::Bitboard;
use crate::movegen::{self, Counter, Visitor, from_offset};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Role, Square};
use core::fmt;

mod fused;
use std::sync::Mutex;
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
    stop: AtomicBool,
    nodes: AtomicU64,
    roots_done: AtomicUsize,
    roots_total: AtomicUsize,
    work_done: AtomicU64,
    work_total: AtomicU64,
    finished: Mutex<Vec<(Move, u64)>>,
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
    fn reset(&self, roots: usize) {
        self.roots_total.store(roots, Ordering::Relaxed);
        self.roots_done.store(0, Ordering::Relaxed);
        self.work_done.store(0, Ordering::Relaxed);
        self.work_total.store(0, Ordering::Relaxed);
        if let Ok(mut f) = self.finished.lock() {
            f.clear();
        }
    }
    fn finish_root(&self, m: Move, n: u64) {
        if let Ok(mut f) = self.finished.lock() {
            f.push((m, n));
        }
        self.roots_done.fetch_add(1, Ordering::Relaxed);
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

/// A subtree a few plies below the root: the root move it descends from, its position and
/// its share of the work (see [`PerftMonitor`]).
struct Unit {
    root: usize,
    pos: Position,
    weight: u64,
}

/// Units stop splitting once there are this many (or the subtrees get small).
const MIN_UNITS: usize = 1024;
/// Units are not cut below this many plies from the leaves.
const MIN_UNIT_DEPTH: u32 = 5;

/// Cuts the tree into units: the root's children, or their descendants a ply or two lower
/// for deep runs, so that progress and the threads' shares are fine-grained. Returns them
/// and the depth left below each.
fn work_units(pos: &Position, moves: &MoveList, depth: u32) -> (Vec<Unit>, u32) {
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
            for &m in u.pos.legal_moves().iter() {
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
        // A fused depth-2 count costs about as much as a table miss: not worth caching.
        2 => fused::count2::<L>(pos),
        _ => {
            if HASH && let Some(n) = table.and_then(|t| t.probe(pos, depth)) {
                return n;
            }
            let mut v = Expand::<L, HASH> {
                parent: pos,
                depth: depth - 1,
                nodes: 0,
                table,
                _level: core::marker::PhantomData,
            };
            movegen::generate::<L::S, _>(pos, &mut v);
            if HASH && let Some(t) = table {
                t.store(pos, depth, v.nodes);
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
            self.child(|c| c.apply_normal::<false>(role, from, t));
        }
        for t in to - their {
            self.child(|c| c.apply_quiet::<false>(role, from, t));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, off: i32) {
        let their = self.parent.board.by_color(self.parent.turn.other());
        for t in to & their {
            self.child(|c| c.apply_normal::<false>(Role::Pawn, from_offset(t, off), t));
        }
        for t in to - their {
            self.child(|c| c.apply_quiet::<false>(Role::Pawn, from_offset(t, off), t));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, off: i32) {
        for t in to {
            for role in Role::PROMOTIONS {
                self.child(|c| c.apply_promotion::<false>(from_offset(t, off), t, role));
            }
        }
    }
    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.child(|c| c.apply_en_passant::<false>(from, to));
    }
    #[inline(always)]
    fn castle(&mut self, from: Square, to: Square) {
        self.child(|c| c.apply_castle::<false>(from, to));
    }
}

/// A table of subtree counts that can never return a wrong count.
///
/// Entries are keyed by the whole position, not a hash of it: the colour of every square and
/// three planes of its role code (1 to 6; 0 is an empty square), and a word of state (side
/// to move, castling rights, en-passant file). Two positions share an entry only if they are
/// the same position, so no key collision can corrupt a count; the hash of the key only
/// picks the bucket.
///
/// ```text
/// entry = 5 × u64:  white | plane0 | plane1 | plane2 | meta
/// meta  = count (48 bits) << 16 | depth (6 bits) << 10 | state (9 bits) << 1 | lock (1 bit)
/// state = ep file + 1 (4 bits, 0: none) << 5 | castling rights (4 bits) << 1 | side to move
/// bucket = 3 entries + 8 bytes of padding = 128 bytes, two cache lines
/// ```
///
/// Entries are written and read under a per-entry try-lock held in the meta word (readers
/// lock too): a reader compares the five words only while it holds the entry, so a torn
/// read cannot happen, and a thread that finds an entry locked treats it as a miss (a probe)
/// or skips it (a store). The table costs time, never correctness.
pub struct PerftTable {
    buckets: Vec<Bucket>,
}

#[repr(C, align(128))]
struct Bucket {
    entries: [[AtomicU64; 5]; 3],
    _pad: u64,
}

const LOCK: u64 = 1;
const STATE_SHIFT: u32 = 1;
const DEPTH_SHIFT: u32 = 10;
const COUNT_SHIFT: u32 = 16;
const MAX_DEPTH: u32 = 63;
const MAX_COUNT: u64 = (1 << 48) - 1;

/// The whole position as the table stores it (see [`PerftTable`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct FullKey {
    words: [u64; 4],
    state: u64,
}

impl FullKey {
    #[inline(always)]
    fn of(pos: &Position) -> FullKey {
        let r = &pos.board.by_role;
        // Role codes 1 (pawn) to 6 (king), one bit plane each.
        let plane0 = r[0] | r[2] | r[4];
        let plane1 = r[1] | r[2] | r[5];
        let plane2 = r[3] | r[4] | r[5];
        let ep = pos
            .ep_square
            .map_or(0, |sq| u64::from(sq.file().index()) + 1);
        FullKey {
            words: [pos.board.by_color[0].0, plane0.0, plane1.0, plane2.0],
            state: ep << 5 | u64::from(pos.castling.bits()) << 1 | pos.turn.index() as u64,
        }
    }

    #[inline(always)]
    fn hash(&self) -> u64 {
        let [a, b, c, d] = self.words;
        let mut h = a.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(17)
            ^ c.wrapping_mul(0x1656_67B1_9E37_79F9).rotate_left(31)
            ^ d.wrapping_mul(0x27D4_EB2F_1656_67C5).rotate_left(47)
            ^ self.state.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 29;
        h.wrapping_mul(0xBF58_476D_1CE4_E5B9)
    }
}

impl PerftTable {
    /// A table of about `mb` MiB, or `None` for 0.
    pub fn new(mb: usize) -> Result<Option<PerftTable>, PerftError> {
        if mb == 0 {
            return Ok(None);
        }
        let bytes = mb
            .checked_mul(1 << 20)
            .ok_or(PerftError::HashAllocation { mb })?;
        let n = (bytes / core::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(n)
            .map_err(|_| PerftError::HashAllocation { mb })?;
        buckets.resize_with(n, || Bucket {
            entries: Default::default(),
            _pad: 0,
        });
        Ok(Some(PerftTable { buckets }))
    }

    #[inline(always)]
    fn bucket(&self, key: &FullKey) -> &Bucket {
        let i = ((key.hash() as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// The stored leaf count of `pos` at `depth`, if there is one.
    #[inline]
    pub fn probe(&self, pos: &Position, depth: u32) -> Option<u64> {
        let key = FullKey::of(pos);
        let want = u64::from(depth) << DEPTH_SHIFT | key.state << STATE_SHIFT;
        let tag_mask = (1u64 << COUNT_SHIFT) - 1 - LOCK;
        for e in &self.bucket(&key).entries {
            let meta = e[4].load(Ordering::Relaxed);
            // Cheap filters first; the real comparison happens under the lock.
            if meta & LOCK != 0
                || meta & tag_mask != want
                || e[0].load(Ordering::Relaxed) != key.words[0]
            {
                continue;
            }
            if e[4]
                .compare_exchange(meta, meta | LOCK, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
            {
                continue;
            }
            let same = e
                .iter()
                .zip(&key.words)
                .all(|(word, &w)| word.load(Ordering::Relaxed) == w);
            e[4].store(meta, Ordering::Release);
            if same {
                return Some(meta >> COUNT_SHIFT);
            }
        }
        None
    }

    /// Remembers that `pos` has `count` leaves at `depth` (counts too big to hold, and
    /// depths above 63, are simply not kept).
    #[inline]
    pub fn store(&self, pos: &Position, depth: u32, count: u64) {
        if count > MAX_COUNT || depth > MAX_DEPTH || depth == 0 {
            return;
        }
        let key = FullKey::of(pos);
        let meta =
            count << COUNT_SHIFT | u64::from(depth) << DEPTH_SHIFT | key.state << STATE_SHIFT;
        let entries = &self.bucket(&key).entries;
        // Entry 0 keeps the deepest subtree; entries 1 and 2 take the rest, replacing the
        // shallower of the two.
        let depth_of = |m: u64| (m >> DEPTH_SHIFT) & 0x3F;
        let metas = [0, 1, 2].map(|i| entries[i][4].load(Ordering::Relaxed));
        let slot = if u64::from(depth) >= depth_of(metas[0]) {
            0
        } else if depth_of(metas[1]) <= depth_of(metas[2]) {
            1
        } else {
            2
        };
        let old = metas[slot];
        let e = &entries[slot];
        if old & LOCK != 0
            || e[4]
                .compare_exchange(old, old | LOCK, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return; // Someone else holds it: skip, it is only a cache.
        }
        for (word, &w) in e.iter().zip(&key.words) {
            word.store(w, Ordering::Relaxed);
        }
        e[4].store(meta, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_bucket() -> PerftTable {
        PerftTable {
            buckets: vec![Bucket {
                entries: Default::default(),
                _pad: 0,
            }],
        }
    }

    fn positions() -> Vec<Position> {
        let start = Position::new();
        let mut all = vec![start];
        for &m in start.legal_moves().iter() {
            all.push(start.after(m).unwrap());
        }
        all
    }

    // Every position lands in the one bucket: entries are told apart by the whole position,
    // never by a hash, and each keeps its own depth.
    #[test]
    fn table_tells_every_position_apart() {
        let t = one_bucket();
        let all = positions();
        for (i, p) in all.iter().enumerate() {
            t.store(p, 3, i as u64 + 100);
            assert_eq!(t.probe(p, 3), Some(i as u64 + 100));
            assert_eq!(t.probe(p, 4), None);
            for q in &all[..i] {
                if let Some(n) = t.probe(q, 3) {
                    assert_eq!(n, all.iter().position(|r| r == q).unwrap() as u64 + 100);
                }
            }
        }
        // Side to move, castling rights and the en-passant file are part of the key.
        let a: Position = "4k3/8/8/8/4P3/8/8/4K2R b K e3 0 1".parse().unwrap();
        let b: Position = "4k3/8/8/8/4P3/8/8/4K2R b K - 0 1".parse().unwrap();
        let c: Position = "4k3/8/8/8/4P3/8/8/4K2R b - - 0 1".parse().unwrap();
        let d: Position = "4k3/8/8/8/4P3/8/8/4K2R w K - 0 1".parse().unwrap();
        let t = one_bucket();
        t.store(&a, 2, 7);
        for other in [&b, &c, &d] {
            assert_eq!(t.probe(other, 2), None);
        }
        assert_eq!(t.probe(&a, 2), Some(7));
    }

    // Two threads store and probe one bucket as fast as they can: a hit is always the
    // count stored for that very position.
    #[test]
    fn table_is_exact_under_races() {
        let t = one_bucket();
        let all = positions();
        std::thread::scope(|s| {
            for id in 0..2u64 {
                let (t, all) = (&t, &all);
                s.spawn(move || {
                    for round in 0..20_000u64 {
                        let i = ((round * 7 + id * 3) % all.len() as u64) as usize;
                        t.store(&all[i], 2, 1000 + i as u64);
                        let j = ((round * 11 + id) % all.len() as u64) as usize;
                        if let Some(n) = t.probe(&all[j], 2) {
                            assert_eq!(n, 1000 + j as u64);
                        }
                    }
                });
            }
        });
    }

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

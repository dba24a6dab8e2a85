//! The transposition table: a lock-free hash table shared by every search thread.
//!
//! ```text
//!  bucket (64 bytes, one cache line) = 4 entries × 16 bytes
//!  entry  = [ check: AtomicU64 ][ data: AtomicU64 ]      check = key ^ data
//!
//!  data:  63      58 57 56 55     48 47            32 31            16 15             0
//!        [  age:6  |bound|  depth:8 |   eval: i16    |   score: i16   |   move: u16    ]
//!         bound: 0 empty, 1 upper (fail low), 2 lower (fail high), 3 exact
//! ```
//!
//! Readers and writers use relaxed atomics and no locks. A writer stores `key ^ data` and
//! `data` with two separate stores, so a reader racing with writers may see the `check` word
//! of one entry and the `data` word of another (a torn read). It accepts an entry only when
//! `check ^ data == key`: a torn pair passes that test only if the two writes' XORs happen to
//! collide on the 64-bit key, about 2⁻⁶⁴ per read. Even then the damage is bounded: the
//! move is used only after it is found in the position's legal move list, and the score is
//! just a search hint. So a torn read costs at most one poor decision, never a crash or an
//! illegal move.
//!
//! Replacement: an entry with the same key is overwritten (keeping its move when the new
//! result has none); otherwise the entry of the bucket with the lowest
//! `depth - 8 × (age distance)` gives way, so deep results from the current search stay and
//! old searches' entries fade. Mate and tablebase scores are stored relative to the node (see
//! [`score_to_tt`]).

mod memory;

use crate::score::{TB_WIN_BOUND, Value};
use memory::ZeroedSlice;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (the search failed low).
    Upper = 1,
    /// The true value is at least the score (the search failed high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

impl Bound {
    /// Whether a stored `score` with this bound settles a node searched with the window
    /// (`alpha`, `beta`): exact scores always do, bounds only on their side of the window.
    pub fn cuts(self, score: Value, alpha: Value, beta: Value) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// One probed entry, decoded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The raw bits of the best move (0 for none); match against the legal moves.
    pub move_bits: u16,
    pub score: Value,
    pub eval: Value,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const ENTRIES_PER_BUCKET: usize = 4;

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    slots: [Slot; ENTRIES_PER_BUCKET],
}

const AGE_BITS: u32 = 6;
const AGE_MASK: u64 = (1 << AGE_BITS) - 1;

fn pack(m: u16, score: Value, eval: Value, depth: i32, bound: Bound, age: u8) -> u64 {
    u64::from(m)
        | u64::from(score as i16 as u16) << 16
        | u64::from(eval as i16 as u16) << 32
        | (depth.clamp(0, 255) as u64) << 48
        | (bound as u64) << 56
        | (u64::from(age) & AGE_MASK) << 58
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(TtEntry {
        move_bits: data as u16,
        score: Value::from((data >> 16) as u16 as i16),
        eval: Value::from((data >> 32) as u16 as i16),
        depth: ((data >> 48) & 0xFF) as i32,
        bound,
    })
}

fn age_of(data: u64) -> u8 {
    ((data >> 58) & AGE_MASK) as u8
}

fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xFF) as i32
}

/// Why a table could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TtError {
    /// The size is outside what the table accepts.
    Size { mb: usize, max: usize },
    /// The memory could not be allocated.
    Allocation { mb: usize },
}

impl std::fmt::Display for TtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TtError::Size { mb, max } => {
                write!(f, "hash size {mb} MB is out of range (1..={max})")
            }
            TtError::Allocation { mb } => write!(f, "cannot allocate a {mb} MB hash table"),
        }
    }
}

impl std::error::Error for TtError {}

/// The largest table, in MiB (further limited to half the machine's memory).
pub const MAX_HASH_MB: usize = 65536;

/// The largest table this machine allows: [`MAX_HASH_MB`] or half the physical memory,
/// whichever is smaller (Linux; elsewhere [`MAX_HASH_MB`]).
pub fn max_hash_mb() -> usize {
    let physical_mb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kb / 1024)
        });
    match physical_mb {
        Some(mb) => (mb / 2).clamp(1, MAX_HASH_MB),
        None => MAX_HASH_MB,
    }
}

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: ZeroedSlice<Bucket>,
    age: std::sync::atomic::AtomicU8,
}

impl TranspositionTable {
    /// A table of `mb` MiB (1 ..= [`MAX_HASH_MB`], and at most half the machine's memory,
    /// so a large request is an error rather than the out-of-memory killer later).
    pub fn new(mb: usize) -> Result<TranspositionTable, TtError> {
        let max = max_hash_mb();
        if !(1..=max).contains(&mb) {
            return Err(TtError::Size { mb, max });
        }
        let n = mb * 1024 * 1024 / core::mem::size_of::<Bucket>();
        Self::with_buckets(n).map_err(|_| TtError::Allocation { mb })
    }

    /// A table of exactly `n` buckets (at least one); for tests of collisions.
    pub fn with_buckets(n: usize) -> Result<TranspositionTable, TtError> {
        let n = n.max(1);
        let too_big = || TtError::Allocation {
            mb: (n.saturating_mul(core::mem::size_of::<Bucket>())) >> 20,
        };
        // Zeroed memory that the operating system hands out lazily (see `memory`), so a
        // large table costs nothing until it is used.
        // SAFETY: all-zero bytes are a valid `Bucket` (atomics holding 0).
        let buckets = unsafe { ZeroedSlice::new(n) }.ok_or_else(too_big)?;
        Ok(TranspositionTable {
            buckets,
            age: std::sync::atomic::AtomicU8::new(0),
        })
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * ENTRIES_PER_BUCKET
    }

    /// Forgets everything. A large table is cleared by one thread per core (Stockfish
    /// clears with its search threads): writing gigabytes, and the first time having the
    /// operating system supply their pages, takes tens of seconds on one thread, during
    /// which `isready` waits.
    pub fn clear(&self) {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let threads = cores.min(self.buckets.len().div_ceil(CLEAR_BUCKETS_PER_THREAD));
        if threads <= 1 {
            clear_buckets(&self.buckets);
        } else {
            let part = self.buckets.len().div_ceil(threads);
            std::thread::scope(|s| {
                for buckets in self.buckets.chunks(part) {
                    let spawned = std::thread::Builder::new()
                        .name("tt-clear".into())
                        .spawn_scoped(s, move || clear_buckets(buckets));
                    // No thread to be had: this one does the part itself.
                    if spawned.is_err() {
                        clear_buckets(buckets);
                    }
                }
            });
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Forgets everything, as [`clear`](Self::clear) does, by taking a fresh zeroed block
    /// in place of the old one: the old pages go back to the operating system, and the new
    /// ones come zeroed as searches first touch them. So the cost follows what earlier
    /// searches used, not the table's size: clearing in place writes every page, and has
    /// the operating system supply each one no search touched (4 GB after a short search:
    /// 5.5 s on two busy cores, against 0.4 s once its memory was all in use). Where no
    /// fresh block can be had, the table is cleared in place.
    pub fn renew(&mut self) {
        // SAFETY: all-zero bytes are a valid `Bucket` (atomics holding 0).
        match unsafe { ZeroedSlice::new(self.buckets.len()) } {
            Some(fresh) => {
                self.buckets = fresh;
                self.age.store(0, Ordering::Relaxed);
            }
            None => self.clear(),
        }
    }

    /// Starts a new search: entries of older searches become preferred victims.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & AGE_MASK as u8, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table size without a power-of-two constraint.
        let i = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Prefetch hint: touch the bucket of `key` so a later probe finds it in cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is a hint; any address is allowed, and this one is valid.
        unsafe {
            use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(
                std::ptr::from_ref::<Bucket>(self.bucket(key)).cast::<i8>(),
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any (torn or foreign entries are rejected).
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for s in &self.bucket(key).slots {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a search result for `key`.
    pub fn store(
        &self,
        key: u64,
        move_bits: u16,
        score: Value,
        eval: Value,
        depth: i32,
        bound: Bound,
    ) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut victim_worth = i32::MAX;
        for s in &bucket.slots {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                if data != 0 && check ^ data == key {
                    // Same position: keep a deeper exact result of this search unless the
                    // new one is exact too or nearly as deep.
                    let old_depth = depth_of(data);
                    if age_of(data) == age && bound != Bound::Exact && old_depth > depth + 3 {
                        return;
                    }
                    let m = if move_bits == 0 {
                        data as u16
                    } else {
                        move_bits
                    };
                    Self::write(s, key, pack(m, score, eval, depth, bound, age));
                    return;
                }
                victim = s;
                break;
            }
            let age_distance = i32::from((age.wrapping_sub(age_of(data))) & AGE_MASK as u8);
            let worth = depth_of(data) - 8 * age_distance;
            if worth < victim_worth {
                victim_worth = worth;
                victim = s;
            }
        }
        Self::write(victim, key, pack(move_bits, score, eval, depth, bound, age));
    }

    fn write(slot: &Slot, key: u64, data: u64) {
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for s in &b.slots {
                let d = s.data.load(Ordering::Relaxed);
                if d != 0 && age_of(d) == age {
                    used += 1;
                }
            }
        }
        if sample == 0 {
            0
        } else {
            (used * 1000 / (sample * ENTRIES_PER_BUCKET)) as u32
        }
    }
}

/// The least work worth a thread of its own in [`TranspositionTable::clear`]: 64 MiB.
const CLEAR_BUCKETS_PER_THREAD: usize = (64 << 20) / core::mem::size_of::<Bucket>();

fn clear_buckets(buckets: &[Bucket]) {
    for b in buckets {
        for s in &b.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }
}

/// A score as stored: mate and tablebase scores count plies from this node rather than from
/// the root, so the entry stays true when the position is reached at another ply.
pub fn score_to_tt(score: Value, ply: usize) -> Value {
    if score >= TB_WIN_BOUND {
        score + ply as Value
    } else if score <= -TB_WIN_BOUND {
        score - ply as Value
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`] at `ply`.
pub fn score_from_tt(score: Value, ply: usize) -> Value {
    if score >= TB_WIN_BOUND {
        score - ply as Value
    } else if score <= -TB_WIN_BOUND {
        score + ply as Value
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips_negative_scores() {
        let d = pack(0x1234, -31_000, -5, 17, Bound::Lower, 63);
        let e = unpack(d).unwrap();
        assert_eq!(
            (e.move_bits, e.score, e.eval, e.depth, e.bound),
            (0x1234, -31_000, -5, 17, Bound::Lower)
        );
        assert_eq!(age_of(d), 63);
    }

    #[test]
    fn store_then_probe() {
        let tt = TranspositionTable::new(1).unwrap();
        assert!(tt.probe(42).is_none());
        tt.store(42, 7, 100, 50, 5, Bound::Exact);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.move_bits, e.score, e.depth), (7, 100, 5));
        tt.clear();
        assert!(tt.probe(42).is_none());
    }

    /// A table large enough to be cleared by several threads forgets entries in every part.
    #[test]
    fn clear_forgets_every_part_of_a_large_table() {
        let tt = TranspositionTable::new(128).unwrap();
        let keys: Vec<u64> = (1..=4000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for &k in &keys {
            tt.store(k, 1, 10, 10, 3, Bound::Exact);
        }
        assert!(keys.iter().all(|&k| tt.probe(k).is_some()));
        tt.clear();
        assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
    }

    /// A renewed table forgets every entry and its age, and keeps its size.
    #[test]
    fn renew_forgets_everything_and_keeps_the_size() {
        let mut tt = TranspositionTable::new(64).unwrap();
        let capacity = tt.capacity();
        let keys: Vec<u64> = (1..=4000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        tt.new_search();
        for &k in &keys {
            tt.store(k, 1, 10, 10, 3, Bound::Exact);
        }
        tt.renew();
        assert_eq!(tt.capacity(), capacity);
        assert_eq!(tt.age.load(Ordering::Relaxed), 0);
        assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
        tt.store(keys[0], 2, 20, 20, 4, Bound::Lower);
        assert_eq!(tt.probe(keys[0]).map(|e| e.move_bits), Some(2));
    }

    #[test]
    fn out_of_range_sizes_are_errors() {
        assert!(matches!(
            TranspositionTable::new(0),
            Err(TtError::Size { mb: 0, .. })
        ));
        assert!(TranspositionTable::new(MAX_HASH_MB + 1).is_err());
    }
}

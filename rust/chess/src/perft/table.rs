//! The perft table: subtree counts keyed by the whole position, so that no collision can
//! make a count wrong.

use super::PerftError;
use crate::position::Position;
use std::sync::atomic::{AtomicU64, Ordering};

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
        let i = ((u128::from(key.hash()) * self.buckets.len() as u128) >> 64) as usize;
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
        for &m in &start.legal_moves() {
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
}

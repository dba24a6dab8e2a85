//! Moves some search thread is searching right now, so that the others can look elsewhere
//! first (simplified ABDADA, after Tom Kerrigan's "simplified ABDADA").
//!
//! Under plain lazy SMP two threads that reach the same node walk its moves in the same order
//! and mostly repeat each other's work. Here a thread that is about to search a move at a node
//! (not the node's first move, which every thread needs for its bound) first asks whether
//! another thread is inside that move already; if so it puts the move at the back of its list
//! and searches the rest first. By the time it comes back, the other thread's result is
//! usually in the transposition table and the revisit is cheap.
//!
//! The table is a fixed array of `AtomicU64` tags, `position key ^ hash(move)`, indexed by the
//! tag's top bits, written and read with relaxed atomics. It is a hint, not a lock: a lost or
//! overwritten tag only means a move is searched twice (as in plain lazy SMP) or deferred once
//! for nothing; it never changes a search result, only which thread finds it first. A
//! one-thread search has no table, so its node counts (and the bench signature) are those of
//! the search without it.

use shatranj_chess::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// 2^15 slots (256 KiB): more than the moves that can be in progress at once at the depths
/// where the table is used, with room for few collisions.
const SLOT_BITS: u32 = 15;

/// The shared table of moves in progress.
pub struct MovesInProgress {
    slots: Box<[AtomicU64]>,
}

impl Default for MovesInProgress {
    fn default() -> Self {
        MovesInProgress {
            slots: (0..1usize << SLOT_BITS)
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }
}

/// A move marked as being searched; give it back with [`MovesInProgress::leave`].
#[must_use = "a marked move stays marked until it is left"]
pub struct Entered(u64);

impl MovesInProgress {
    /// The tag of `m` played from the position with `key`; never 0 (an empty slot).
    fn tag(key: u64, m: Move) -> u64 {
        let h = (u64::from(m.to_bits()) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (key ^ h).max(1)
    }

    fn slot(&self, tag: u64) -> &AtomicU64 {
        &self.slots[(tag >> (64 - SLOT_BITS)) as usize]
    }

    /// Whether another thread is searching `m` from the position with `key`.
    pub fn is_busy(&self, key: u64, m: Move) -> bool {
        let tag = Self::tag(key, m);
        self.slot(tag).load(Ordering::Relaxed) == tag
    }

    /// Marks `m` as being searched from the position with `key`.
    pub fn enter(&self, key: u64, m: Move) -> Entered {
        let tag = Self::tag(key, m);
        self.slot(tag).store(tag, Ordering::Relaxed);
        Entered(tag)
    }

    /// Clears the mark, unless another move has taken the slot since. The token is taken by
    /// value so that each `enter` is left once.
    #[allow(clippy::needless_pass_by_value)]
    pub fn leave(&self, entered: Entered) {
        let _ = self.slot(entered.0).compare_exchange(
            entered.0,
            0,
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(uci: &str) -> Move {
        let pos = shatranj_chess::Position::new();
        pos.legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_string() == uci)
            .unwrap()
    }

    #[test]
    fn a_move_is_busy_between_enter_and_leave_only() {
        let table = MovesInProgress::default();
        let (key, e4, d4) = (0x1234_5678_9abc_def0, mv("e2e4"), mv("d2d4"));
        assert!(!table.is_busy(key, e4));
        let entered = table.enter(key, e4);
        assert!(table.is_busy(key, e4));
        assert!(!table.is_busy(key, d4), "another move of the same position");
        assert!(
            !table.is_busy(key ^ 1, e4),
            "the same move of another position"
        );
        table.leave(entered);
        assert!(!table.is_busy(key, e4));
    }

    #[test]
    fn leaving_does_not_clear_a_slot_another_move_took() {
        let table = MovesInProgress::default();
        let e4 = mv("e2e4");
        let first = table.enter(1, e4);
        // Find a key whose tag lands in the same slot with a different value.
        let tag = MovesInProgress::tag(1, e4);
        #[allow(clippy::maybe_infinite_iter)] // a colliding key is found within 2^44 tries
        let other = (1u64..)
            .map(|k| k << 20)
            .find(|&k| {
                let t = MovesInProgress::tag(k, e4);
                t != tag && t >> (64 - SLOT_BITS) == tag >> (64 - SLOT_BITS)
            })
            .unwrap();
        let second = table.enter(other, e4);
        table.leave(first);
        assert!(table.is_busy(other, e4), "the newer mark survives");
        table.leave(second);
        assert!(!table.is_busy(other, e4));
    }
}

//! The serial counting core: one generic body, compiled once per instruction-set level and
//! picked at run time by what the CPU reports.

use super::PerftTable;
use crate::attacks::{Magic, Pext, SliderBackend, Sliders, slider_backend};
use crate::bitboard::Bitboard;
use crate::movegen::{self, Counter, Visitor, from_offset};
use crate::position::Position;
use crate::{Role, Square};

/// The instruction-set level the counting core is compiled for. The core is one generic
/// body inlined into three entry points, each compiled with its own `#[target_feature]`s,
/// so `popcnt`/`tzcnt`/`pext` are emitted only in code that runs after detection.
pub(super) trait Level: 'static {
    type S: Sliders;
    fn count<const HASH: bool>(pos: &Position, depth: u32, table: Option<&PerftTable>) -> u64;
}

/// Any x86-64: magic bitboards, software popcount.
pub(super) struct Baseline;
/// x86-64-v2 (POPCNT): magic bitboards, hardware popcount.
pub(super) struct Popcnt;
/// BMI2 with fast PEXT (and AVX2, which every such CPU has): PEXT bitboards, hardware
/// popcount and tzcnt, 32-byte copies of positions.
pub(super) struct Bmi2;

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

pub(super) fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

pub(super) fn has_bmi_set() -> bool {
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
pub(super) fn count_dispatch<const HASH: bool>(
    pos: &Position,
    depth: u32,
    table: Option<&PerftTable>,
) -> u64 {
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
        2 => super::fused::count2::<L>(pos),
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
pub(super) struct Expand<'a, L, const HASH: bool> {
    pub(super) parent: &'a Position,
    pub(super) depth: u32,
    pub(super) nodes: u64,
    pub(super) table: Option<&'a PerftTable>,
    pub(super) _level: core::marker::PhantomData<L>,
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

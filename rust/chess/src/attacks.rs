//! Attack sets: leaper tables computed at compile time, sliding attacks from the tables that
//! `build.rs` writes, and the `between`/`line` rays used for checks and pins.
//!
//! Sliding lookups come in two flavours behind the [`Sliders`] trait: fancy magic bitboards,
//! which run on every x86-64, and PEXT, used only when the CPU reports BMI2 *and* is not an
//! AMD processor before Zen 3 (where PEXT is microcoded and slower than magic multiplication).
//! Hot code is generic over `Sliders`, and the public entry points pick one implementation per
//! call with [`dispatch!`](crate::dispatch), so a wheel never executes an unsupported instruction.

use crate::bitboard::Bitboard;
use crate::{Color, Square};

pub(crate) struct MagicEntry {
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    pub offset: u32,
}

pub(crate) struct PextEntry {
    pub mask: u64,
    /// The empty-board rays: attack sets are stored as `pext(attacks, rays)`.
    pub rays: u64,
    pub offset: u32,
}

/// The slider tables build.rs writes: magic numbers and attack sets as literals that no one
/// reads, so long hex and decimal numbers stay unseparated.
#[allow(clippy::unreadable_literal)]
mod generated {
    use super::{MagicEntry, PextEntry};
    include!(concat!(env!("OUT_DIR"), "/sliders.rs"));
}
pub(crate) use generated::{
    BISHOP_MAGICS, BISHOP_PEXT, MAGIC_ATTACKS, PEXT_ATTACKS, ROOK_MAGICS, ROOK_PEXT,
};

const fn leaper_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT_ATTACKS: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING_ATTACKS: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN_ATTACKS: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

const fn step_ray(from: usize, df: i32, dr: i32) -> u64 {
    let (mut f, mut r) = ((from % 8) as i32 + df, (from / 8) as i32 + dr);
    let mut ray = 0u64;
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        ray |= 1 << (r * 8 + f);
        f += df;
        r += dr;
    }
    ray
}

const fn sign(x: i32) -> i32 {
    if x > 0 {
        1
    } else if x < 0 {
        -1
    } else {
        0
    }
}

/// `BETWEEN[a][b]`: squares strictly between `a` and `b` when they share a line, else empty.
/// `LINE[a][b]`: the whole line through `a` and `b` (edge to edge) when they share one.
// Runs at compile time only (it fills two `static`s), so its 32 KiB of locals never touch a
// run-time stack.
#[allow(clippy::large_stack_arrays)]
const fn ray_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let (df, dr) = (
                (b % 8) as i32 - (a % 8) as i32,
                (b / 8) as i32 - (a / 8) as i32,
            );
            if a != b && (df == 0 || dr == 0 || df == dr || df == -dr) {
                let (sf, sr) = (sign(df), sign(dr));
                let beyond_b = step_ray(b, sf, sr);
                between[a][b] = step_ray(a, sf, sr) & !beyond_b & !(1 << b);
                line[a][b] = step_ray(a, sf, sr) | step_ray(a, -sf, -sr) | (1 << a);
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

static RAYS: ([[u64; 64]; 64], [[u64; 64]; 64]) = ray_tables();

/// Empty-board rook and bishop rays, for cheap "could a slider see this square at all" tests.
static ROOK_RAYS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = step_ray(s, 1, 0) | step_ray(s, -1, 0) | step_ray(s, 0, 1) | step_ray(s, 0, -1);
        s += 1;
    }
    t
};
static BISHOP_RAYS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = step_ray(s, 1, 1) | step_ray(s, -1, 1) | step_ray(s, 1, -1) | step_ray(s, -1, -1);
        s += 1;
    }
    t
};

#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT_ATTACKS[sq.index()])
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING_ATTACKS[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (R3.7c).
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKS[color.index()][sq.index()])
}

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(RAYS.0[a.index()][b.index()])
}

/// The full line through `a` and `b`, or empty if they share none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(RAYS.1[a.index()][b.index()])
}

/// True if the three squares lie on one rank, file or diagonal.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index()])
}

#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index()])
}

/// A way to look up sliding attacks. Implemented by zero-sized types so that generic hot code
/// is monomorphised per implementation.
pub trait Sliders: Copy + Send + Sync + 'static {
    fn rook(sq: Square, occupied: Bitboard) -> Bitboard;
    fn bishop(sq: Square, occupied: Bitboard) -> Bitboard;
    #[inline(always)]
    fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
        Self::rook(sq, occupied) | Self::bishop(sq, occupied)
    }
}

/// Fancy magic bitboards: one multiply and shift per lookup; runs on any x86-64.
#[derive(Copy, Clone, Debug)]
pub struct Magic;

impl Sliders for Magic {
    #[inline(always)]
    fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
        let m = &ROOK_MAGICS[sq.index()];
        let idx =
            ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize + m.offset as usize;
        debug_assert!(idx < MAGIC_ATTACKS.len());
        // SAFETY: build.rs verified every subset of `mask` maps below `offset + 2^bits`, and the
        // table holds exactly those slots.
        Bitboard(unsafe { *MAGIC_ATTACKS.get_unchecked(idx) })
    }

    #[inline(always)]
    fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
        let m = &BISHOP_MAGICS[sq.index()];
        let idx =
            ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize + m.offset as usize;
        debug_assert!(idx < MAGIC_ATTACKS.len());
        // SAFETY: as for `rook`.
        Bitboard(unsafe { *MAGIC_ATTACKS.get_unchecked(idx) })
    }
}

/// PEXT bitboards. Only constructed through [`fast_pext_available`]; the instruction is
/// emitted with inline assembly so no function needs `#[target_feature]`, and generic code
/// instantiated with `Pext` inlines it like any other operation.
#[derive(Copy, Clone, Debug)]
pub struct Pext;

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pext(value: u64, mask: u64) -> u64 {
    let out: u64;
    // SAFETY: `Pext` lookups run only after `fast_pext_available()` confirmed BMI2 support.
    unsafe {
        core::arch::asm!("pext {out}, {v}, {m}", out = lateout(reg) out, v = in(reg) value, m = in(reg) mask,
            options(pure, nomem, nostack, preserves_flags));
    }
    out
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pdep(value: u64, mask: u64) -> u64 {
    let out: u64;
    // SAFETY: as for `pext`.
    unsafe {
        core::arch::asm!("pdep {out}, {v}, {m}", out = lateout(reg) out, v = in(reg) value, m = in(reg) mask,
            options(pure, nomem, nostack, preserves_flags));
    }
    out
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn pdep(value: u64, mask: u64) -> u64 {
    let (mut out, mut bit, mut m) = (0u64, 1u64, mask);
    while m != 0 {
        let low = m & m.wrapping_neg();
        if value & bit != 0 {
            out |= low;
        }
        bit <<= 1;
        m &= m - 1;
    }
    out
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn pext(value: u64, mask: u64) -> u64 {
    // Portable fallback (never selected by dispatch on other architectures, kept for completeness).
    let (mut out, mut bit, mut m) = (0u64, 1u64, mask);
    while m != 0 {
        let low = m & m.wrapping_neg();
        if value & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        m &= m - 1;
    }
    out
}

impl Sliders for Pext {
    #[inline(always)]
    fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
        let e = &ROOK_PEXT[sq.index()];
        let idx = pext(occupied.0, e.mask) as usize + e.offset as usize;
        debug_assert!(idx < PEXT_ATTACKS.len());
        // SAFETY: pext of a mask with n bits is below 2^n, and each square owns 2^n slots.
        let packed = unsafe { *PEXT_ATTACKS.get_unchecked(idx) };
        Bitboard(pdep(u64::from(packed), e.rays))
    }

    #[inline(always)]
    fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
        let e = &BISHOP_PEXT[sq.index()];
        let idx = pext(occupied.0, e.mask) as usize + e.offset as usize;
        debug_assert!(idx < PEXT_ATTACKS.len());
        // SAFETY: as for `rook`.
        let packed = unsafe { *PEXT_ATTACKS.get_unchecked(idx) };
        Bitboard(pdep(u64::from(packed), e.rays))
    }
}

/// Which slider implementation the dispatching entry points use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SliderBackend {
    Magic,
    Pext,
}

static BACKEND: std::sync::OnceLock<SliderBackend> = std::sync::OnceLock::new();

/// True when the CPU has BMI2 and executes PEXT in hardware at full speed.
pub fn fast_pext_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return false;
        }
        // AMD before Zen 3 (family 0x19) runs PEXT in microcode: tens of cycles.
        let vendor = core::arch::x86_64::__cpuid(0);
        let is_amd = vendor.ebx == 0x6874_7541; // "Auth"enticAMD
        if is_amd {
            let sig = core::arch::x86_64::__cpuid(1).eax;
            let family = ((sig >> 8) & 0xF) + ((sig >> 20) & 0xFF);
            return family >= 0x19;
        }
        true
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The backend in use: PEXT when fast, magic otherwise. `SHATRANJ_SLIDERS=magic|pext`
/// overrides the choice (pext is still refused on CPUs without BMI2).
pub fn slider_backend() -> SliderBackend {
    *BACKEND.get_or_init(|| {
        let pext_ok = fast_pext_available();
        match std::env::var("SHATRANJ_SLIDERS").as_deref() {
            Ok("magic") => SliderBackend::Magic,
            Ok("pext")
                if cfg!(target_arch = "x86_64") && std::arch::is_x86_feature_detected!("bmi2") =>
            {
                SliderBackend::Pext
            }
            _ if pext_ok => SliderBackend::Pext,
            _ => SliderBackend::Magic,
        }
    })
}

/// Runs a generic expression with the selected [`Sliders`] type bound to the given name.
#[macro_export]
#[doc(hidden)]
macro_rules! dispatch {
    ($s:ident => $e:expr) => {
        match $crate::attacks::slider_backend() {
            $crate::attacks::SliderBackend::Pext => {
                type $s = $crate::attacks::Pext;
                $e
            }
            $crate::attacks::SliderBackend::Magic => {
                type $s = $crate::attacks::Magic;
                $e
            }
        }
    };
}

/// Rook attacks from `sq` with the given blockers (R3.3, R3.5).
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    dispatch!(S => S::rook(sq, occupied))
}

/// Bishop attacks from `sq` with the given blockers (R3.2, R3.5).
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    dispatch!(S => S::bishop(sq, occupied))
}

/// Queen attacks from `sq` with the given blockers (R3.4, R3.5).
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

//! What can never move, and where everything else can ever go: the static analysis behind the
//! dead-position test (R4.6, R4.9). The proofs built on it live in `fortress`.
//!
//! Everything here over-approximates play, so that whatever it calls impossible is impossible
//! by any series of legal moves:
//!
//! - **Fixed pawns.** A set `S` of pawns that will never move and never be captured. It starts
//!   as every pawn with a pawn straight in front of it and shrinks to a fixed point: given `S`,
//!   the squares every other man can ever reach are flooded (below); a pawn of `S` whose front
//!   square leaves `S`, which an enemy man could stand diagonally in front of (so it could
//!   capture), or which an enemy man could capture, is dropped, and the floods are redone. When
//!   nothing is dropped, `S` is proven: the first move that disturbed a pawn of `S` would be
//!   made by a man standing where, with `S` intact, it cannot stand.
//! - **Reach of everything else**, given `S`: pieces flood through every square `S` does not
//!   occupy, one step of their own kind at a time (a slide is a series of one-square steps
//!   through empty squares, and other men may always step aside); a king also never enters a
//!   square a fixed enemy pawn attacks. A pawn not in `S` pushes through squares outside `S`
//!   and captures onto any square an enemy man may reach; reaching its last rank it may
//!   become a queen (which covers rook and bishop) or a knight, flooded from there.
//! - **Spans**: every square a side's men (kings apart) could ever attack: one more step of
//!   each man's kind from its region, which for a slider includes the fixed pawn its ray
//!   stops on.
//!
//! All of it is a few dozen bitboard shifts per pass, so it runs on every call.

use crate::{Bitboard, Color, Position, Role, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const FILE_AB: u64 = FILE_A | FILE_A << 1;
const FILE_GH: u64 = FILE_H | FILE_H >> 1;
const RANK_1: u64 = 0xFF;
const RANK_8: u64 = RANK_1 << 56;

/// The single steps a man takes; a region is flooded by repeating them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Knight,
    Diagonal,
    Orthogonal,
    /// Both: the king's steps, and the queen's.
    Any,
}

impl Step {
    pub(crate) fn of(role: Role) -> Step {
        match role {
            Role::Knight => Step::Knight,
            Role::Bishop => Step::Diagonal,
            Role::Rook => Step::Orthogonal,
            Role::Queen | Role::King | Role::Pawn => Step::Any,
        }
    }

    /// Every square one step away from some square of `b`.
    #[inline]
    pub(crate) fn from(self, b: u64) -> u64 {
        match self {
            Step::Knight => knight_steps(b),
            Step::Diagonal => diagonal_steps(b),
            Step::Orthogonal => orthogonal_steps(b),
            Step::Any => diagonal_steps(b) | orthogonal_steps(b),
        }
    }
}

#[inline]
fn east(b: u64) -> u64 {
    (b & !FILE_H) << 1
}

#[inline]
fn west(b: u64) -> u64 {
    (b & !FILE_A) >> 1
}

#[inline]
fn orthogonal_steps(b: u64) -> u64 {
    b << 8 | b >> 8 | east(b) | west(b)
}

#[inline]
fn diagonal_steps(b: u64) -> u64 {
    let sideways = east(b) | west(b);
    sideways << 8 | sideways >> 8
}

#[inline]
fn knight_steps(b: u64) -> u64 {
    let one = east(b) | west(b);
    let two = (b & !FILE_GH) << 2 | (b & !FILE_AB) >> 2;
    one << 16 | one >> 16 | two << 8 | two >> 8
}

/// The squares straight in front of the pawns `b` of `color`.
#[inline]
pub(crate) fn forward(color: Color, b: u64) -> u64 {
    match color {
        Color::White => b << 8,
        Color::Black => b >> 8,
    }
}

/// Every square a pawn of `color` on some square of `b` attacks.
#[inline]
pub(crate) fn pawn_attacks(color: Color, b: u64) -> u64 {
    forward(color, east(b) | west(b))
}

fn last_rank(color: Color) -> u64 {
    match color {
        Color::White => RANK_8,
        Color::Black => RANK_1,
    }
}

/// The squares reachable from `seed` by repeated `step`s through `allowed` (the seed
/// itself always included).
#[inline]
pub(crate) fn flood(seed: u64, allowed: u64, step: Step) -> u64 {
    let mut region = seed;
    loop {
        let next = region | (step.from(region) & allowed);
        if next == region {
            return region;
        }
        region = next;
    }
}

/// Where pawns of `color` starting on `pawns` can ever stand, pushing through squares
/// outside `fixed` and capturing onto `targets`; and the last-rank squares where they
/// promote.
fn pawn_flood(color: Color, pawns: u64, fixed: u64, targets: u64) -> (u64, u64) {
    let mut region = pawns;
    loop {
        let next = region
            | (forward(color, region) & !fixed)
            | (pawn_attacks(color, region) & targets & !fixed);
        if next == region {
            let promoted = region & last_rank(color);
            return (region & !promoted, promoted);
        }
        region = next;
    }
}

/// Indices into the per-role arrays: the non-king roles.
pub(crate) const PAWN: usize = 0;
pub(crate) const KNIGHT: usize = 1;
pub(crate) const BISHOP: usize = 2;
pub(crate) const ROOK: usize = 3;
pub(crate) const QUEEN: usize = 4;
pub(crate) const MAN_ROLES: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// Squares each role (kings apart) may ever stand on; promoted pieces count as queens
/// and knights.
pub(crate) type Occupancy = [u64; 5];

/// Every square men standing on `occ` could attack, with only fixed pawns in the way
/// (`occ[PAWN]` holds `color`'s pawns, fixed ones included where the caller wants them).
fn span(color: Color, occ: &Occupancy) -> u64 {
    knight_steps(occ[KNIGHT])
        | diagonal_steps(occ[BISHOP] | occ[QUEEN])
        | orthogonal_steps(occ[ROOK] | occ[QUEEN])
        | pawn_attacks(color, occ[PAWN])
}

/// The result of the analysis: the fixed pawns and, given them, where everything else goes.
#[derive(Clone, Debug)]
pub struct Reach {
    /// Pawns, of either colour, that never move and are never captured.
    pub fixed: u64,
    /// By colour: the squares its king may ever stand on.
    pub king: [u64; 2],
    /// By colour: where its men other than the king and the fixed pawns may stand, by role.
    pub men: [Occupancy; 2],
    /// By colour: every square its men other than the king could ever attack (fixed pawns'
    /// attacks included).
    pub attacks: [u64; 2],
    /// The placement the analysis was made of, for the per-man floods.
    pawns: [u64; 2],
}

impl Reach {
    /// The analysis of `pos`, or `None` when no pawn is fixed (then every region is the
    /// whole board, and nothing is gained over counting material). A pawn that may capture
    /// en passant right now gives up too: that capture's target is a square no man reaches.
    pub fn of(pos: &Position) -> Option<Reach> {
        let b = pos.board();
        let pawns = b.pawns().0;
        let white = pawns & b.by_color(Color::White).0;
        let black = pawns & b.by_color(Color::Black).0;
        let mut fixed = (white & pawns >> 8) | (black & pawns << 8);
        if fixed == 0 {
            return None;
        }
        if let Some(ep) = pos.ep_square() {
            let capturers = crate::attacks::pawn_attacks(pos.turn().other(), ep).0;
            if capturers & b.by_color(pos.turn()).0 & pawns != 0 {
                return None;
            }
        }
        loop {
            let reach = Reach::given(pos, fixed);
            let broken = reach.broken();
            if broken == 0 {
                return Some(reach);
            }
            fixed &= !broken;
            if fixed == 0 {
                return None;
            }
        }
    }

    /// The floods, assuming the pawns of `fixed` never move nor are taken.
    fn given(pos: &Position, fixed: u64) -> Reach {
        let b = pos.board();
        let pawns = [
            (b.pawns() & b.by_color(Color::White)).0,
            (b.pawns() & b.by_color(Color::Black)).0,
        ];
        let mut men = [[0u64; 5]; 2];
        let mut king = [0u64; 2];
        for side in Color::ALL {
            let s = side.index();
            let ours = b.by_color(side).0;
            for (i, &role) in MAN_ROLES.iter().enumerate() {
                men[s][i] = b.by_role(role).0 & ours & !fixed;
            }
            let enemy_fixed = fixed & pawns[side.other().index()];
            let allowed = !fixed & !pawn_attacks(side.other(), enemy_fixed);
            king[s] = flood(bit(pos.king(side)), allowed, Step::Any);
        }
        // Pawn captures depend on where the enemy may stand, which may grow with the enemy's
        // promotions: repeat until nothing grows (each pass only adds squares).
        loop {
            let before = men;
            for side in Color::ALL {
                let (s, e) = (side.index(), side.other().index());
                let targets = men[e].iter().fold(0, |acc, &r| acc | r);
                let (region, promoted) = pawn_flood(side, men[s][PAWN], fixed, targets);
                let occ = &mut men[s];
                occ[PAWN] = region;
                occ[KNIGHT] = flood(occ[KNIGHT] | promoted, !fixed, Step::Knight);
                occ[BISHOP] = flood(occ[BISHOP], !fixed, Step::Diagonal);
                occ[ROOK] = flood(occ[ROOK], !fixed, Step::Orthogonal);
                occ[QUEEN] = flood(occ[QUEEN] | promoted, !fixed, Step::Any);
            }
            if men == before {
                break;
            }
        }
        let attacks = [0, 1].map(|s| {
            let mut occ = men[s];
            occ[PAWN] |= fixed & pawns[s];
            span(if s == 0 { Color::White } else { Color::Black }, &occ)
        });
        Reach {
            fixed,
            king,
            men,
            attacks,
            pawns,
        }
    }

    /// The pawns of `self.fixed` that the floods show could move or be taken after all.
    fn broken(&self) -> u64 {
        let mut broken = 0;
        for side in Color::ALL {
            let (s, e) = (side.index(), side.other().index());
            let ours = self.fixed & self.pawns[s];
            // The front square must stay blocked by a fixed pawn.
            let blocked = match side {
                Color::White => self.fixed >> 8,
                Color::Black => self.fixed << 8,
            };
            broken |= ours & !blocked;
            // No enemy man may ever stand where one of them could capture it (the fixed enemy
            // pawns included: two fixed pawns must not attack each other).
            let enemy = self.men_of(side.other());
            broken |= ours & pawn_attacks(side.other(), enemy);
            // Nothing may ever capture one of them: the enemy's men, or the enemy king unless
            // a fixed pawn defends it (then taking it is never legal).
            broken |= ours & self.attacks[e];
            let defended = pawn_attacks(side, ours);
            broken |= ours & Step::Any.from(self.king[e]) & !defended;
        }
        broken
    }

    /// Where any man of `color` other than the king may stand, fixed pawns included.
    pub fn men_of(&self, color: Color) -> u64 {
        let s = color.index();
        self.men[s]
            .iter()
            .fold(self.fixed & self.pawns[s], |acc, &r| acc | r)
    }

    /// The occupancy of the single man of `color` on `sq` (not a king, not a fixed pawn),
    /// flooded the same way as the whole side's.
    pub(crate) fn man(&self, color: Color, role: Role, sq: Square) -> Occupancy {
        let fixed = self.fixed;
        let seed = bit(sq);
        let mut occ = [0u64; 5];
        match role {
            Role::Pawn => {
                let targets = self.men_of(color.other()) & !fixed;
                let (region, promoted) = pawn_flood(color, seed, fixed, targets);
                occ[PAWN] = region;
                occ[KNIGHT] = flood(promoted, !fixed, Step::Knight);
                occ[QUEEN] = flood(promoted, !fixed, Step::Any);
            }
            Role::King => {}
            _ => {
                let i = MAN_ROLES.iter().position(|&r| r == role).unwrap_or(QUEEN);
                occ[i] = flood(seed, !fixed, Step::of(role));
            }
        }
        occ
    }

    /// Every square the men of `occ` (one side's, or one man's) could ever attack.
    pub(crate) fn span_of(color: Color, occ: &Occupancy) -> u64 {
        span(color, occ)
    }
}

fn bit(sq: Square) -> u64 {
    Bitboard::from_square(sq).0
}

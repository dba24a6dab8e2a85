//! What can never move, and where everything else can ever go: the static analysis behind the
//! dead-position test (R4.6, R4.9). The proofs built on it live in `fortress`.
//!
//! Everything here over-approximates play, so that whatever it calls impossible is impossible
//! by any series of legal moves:
//!
//! - **Fixed men.** A set `S` of men that will never move and never be captured. It starts
//!   as every pawn with a pawn or a king straight in front of it, then, until nothing is
//!   added, every piece boxed in by its own men of `S` (each square one step of its kind away
//!   holds one: it has no move at all) and every pawn with a man of `S` in front; and it
//!   shrinks to a fixed point: given `S`, the squares every other man can ever reach are
//!   flooded (below); a man of `S` is dropped when it could move after all (a pawn's front
//!   square is no longer held by a man of `S` or by a king whose region is its own square; a
//!   boxed piece's box has a man that may leave), when an enemy man could stand diagonally in
//!   front of a pawn of `S` (so it could capture), or when an enemy man could capture it, or
//!   the enemy king could while no fixed man, nor a king that can never move, defends it;
//!   then the floods are redone. When
//!   nothing is dropped, `S` is proven: the first move that disturbed a man of `S` would be
//!   made by a man standing where, with `S` intact, it cannot stand.
//! - **Barrier pawns.** A set `B` of pawns, each facing an enemy pawn ahead of it on its
//!   file, that never leave their file, never promote and are never captured (ALGORITHM's
//!   confrontation rule). Then no enemy pawn ever pushes onto a barrier pawn's square: a
//!   pawn behind it on the file would have to jump it (it only comes nearer), and none can
//!   capture its way onto the file in between (that square would be one the barrier pawn
//!   may stand on, attacked by an enemy pawn: excluded below). `B` shrinks like `S`: a
//!   barrier pawn is dropped when its own flood leaves its file or reaches its last rank, or
//!   when any square of that flood could be attacked by an enemy man or stepped next to by
//!   the enemy king. Pawns facing each other on half-open files, neither of which can ever
//!   pass to promote, are the case it decides.
//! - **Reach of everything else**, given `S`: pieces flood through every square `S` does not
//!   occupy, one step of their own kind at a time (a slide is a series of one-square steps
//!   through empty squares, and other men may always step aside); a king also never enters a
//!   square a fixed enemy pawn attacks. A pawn not in `S` pushes through squares outside `S`
//!   and enemy barrier pawns' squares, and captures onto any square an enemy man may reach; reaching its last rank it may
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
/// outside `stops` (the fixed pawns, and the start squares of enemy barrier pawns) and
/// capturing onto `targets` outside `fixed`; and the last-rank squares where they promote.
fn pawn_flood(color: Color, pawns: u64, stops: u64, fixed: u64, targets: u64) -> (u64, u64) {
    let mut region = pawns;
    loop {
        let next = region
            | (forward(color, region) & !stops)
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
    /// Men, of either colour, that never move and are never captured: pawns blocked by
    /// such men, and pieces boxed in by their own.
    pub fixed: u64,
    /// Barrier pawns, of either colour: pawns facing an enemy pawn on their file that never
    /// leave the file, never promote and are never captured, so that no enemy pawn behind
    /// them on the file ever gets past (they may push towards it).
    pub barrier: u64,
    /// By colour: the squares its king may ever stand on.
    pub king: [u64; 2],
    /// By colour: where its men other than the king and the fixed pawns may stand, by role.
    pub men: [Occupancy; 2],
    /// By colour: every square its men other than the king could ever attack (fixed pawns'
    /// attacks included).
    pub attacks: [u64; 2],
    /// By colour and role: the pieces of `fixed`, boxed in by their own fixed men.
    boxed: [Occupancy; 2],
    /// By colour: every square its fixed men attack, and its king's neighbours where the
    /// king can never move.
    guarded: [u64; 2],
    /// The placement the analysis was made of, for the per-man floods.
    pawns: [u64; 2],
    /// By colour: the squares its pawns never push onto (`stops`).
    stops: [u64; 2],
}

/// The squares of the file of each square of `b`.
fn files(b: u64) -> u64 {
    let mut rank = b;
    for _ in 0..3 {
        rank |= rank >> 8 | rank << 8;
        rank |= rank >> 16 | rank << 16;
    }
    rank | rank >> 32 | rank << 32
}

/// The squares ahead of the pawns `b` of `color` on their files (the squares themselves
/// left out).
fn ahead(color: Color, b: u64) -> u64 {
    let mut span = forward(color, b);
    for _ in 0..6 {
        span |= forward(color, span);
    }
    span
}

/// Is some pawn blocked by a pawn or a king, or facing an enemy pawn ahead on its file? The
/// seeds of the analysis: without them no man is ever fixed, nor any pawn a barrier.
pub(crate) fn pawn_structure(pos: &Position) -> bool {
    let b = pos.board();
    let pawns = b.pawns().0;
    let white = pawns & b.by_color(Color::White).0;
    let black = pawns & b.by_color(Color::Black).0;
    let blockers = pawns | b.kings().0;
    (white & blockers >> 8) | (black & blockers << 8) != 0
        || ahead(Color::White, white) & black != 0
}

impl Reach {
    /// The analysis of `pos`, or `None` when no pawn is fixed nor a barrier (then every
    /// region is the whole board, and nothing is gained over counting material). A pawn
    /// that may capture en passant right now gives up too: that capture's target is a
    /// square no man reaches.
    pub fn of(pos: &Position) -> Option<Reach> {
        let b = pos.board();
        let pawns = b.pawns().0;
        let white = pawns & b.by_color(Color::White).0;
        let black = pawns & b.by_color(Color::Black).0;
        let own = [b.by_color(Color::White).0, b.by_color(Color::Black).0];
        let pieces = own[0] | own[1];
        let pieces = pieces & !pawns & !b.kings().0;
        // Seeds: pawns blocked by a pawn; then, until nothing is added, pieces boxed in by
        // their own seeds (every square one step of their kind away holds one) and pawns
        // blocked by a seed.
        // A king counts too: where it can never move (checked by `broken`), it blocks.
        let blockers = pawns | b.kings().0;
        let mut fixed = (white & blockers >> 8) | (black & blockers << 8);
        loop {
            let before = fixed;
            for sq in Bitboard(pieces & !fixed) {
                let side = usize::from(own[1] & bit(sq) != 0);
                let step = b.role_at(sq).map_or(Step::Any, Step::of);
                if step.from(bit(sq)) & !(fixed & own[side]) == 0 {
                    fixed |= bit(sq);
                }
            }
            fixed |= (white & fixed >> 8) | (black & fixed << 8);
            if fixed == before {
                break;
            }
        }
        // Barrier candidates: pawns with an enemy pawn ahead of them on their file.
        let facing = |ours: u64, theirs: u64, color: Color| {
            Bitboard(ours)
                .filter(|&sq| ahead(color, bit(sq)) & theirs != 0)
                .fold(0, |acc, sq| acc | bit(sq))
        };
        let candidates = facing(white, black, Color::White) | facing(black, white, Color::Black);
        let mut barrier = candidates & !fixed;
        if fixed | barrier == 0 {
            return None;
        }
        if let Some(ep) = pos.ep_square() {
            let capturers = crate::attacks::pawn_attacks(pos.turn().other(), ep).0;
            if capturers & b.by_color(pos.turn()).0 & pawns != 0 {
                return None;
            }
        }
        loop {
            let reach = Reach::given(pos, fixed, barrier);
            let (broken_fixed, broken_barrier) = reach.broken();
            if broken_fixed | broken_barrier == 0 {
                return Some(reach);
            }
            // A fixed pawn that may move after all may still be a barrier (it may only
            // push along its file); one that may be captured is neither.
            barrier = (barrier & !broken_barrier) | (broken_fixed & candidates & !broken_barrier);
            fixed &= !broken_fixed;
            if fixed | barrier == 0 {
                return None;
            }
        }
    }

    /// The floods, assuming the pawns of `fixed` never move nor are taken, and those of
    /// `barrier` never leave their file nor are taken.
    fn given(pos: &Position, fixed: u64, barrier: u64) -> Reach {
        let b = pos.board();
        let pawns = [
            (b.pawns() & b.by_color(Color::White)).0,
            (b.pawns() & b.by_color(Color::Black)).0,
        ];
        // A pawn never pushes onto an enemy barrier pawn's square: it would have to pass it.
        let stops = [fixed | (barrier & pawns[1]), fixed | (barrier & pawns[0])];
        let mut men = [[0u64; 5]; 2];
        let mut boxed = [[0u64; 5]; 2];
        let mut king = [0u64; 2];
        for side in Color::ALL {
            let s = side.index();
            let ours = b.by_color(side).0;
            for (i, &role) in MAN_ROLES.iter().enumerate() {
                men[s][i] = b.by_role(role).0 & ours & !fixed;
                if i != PAWN {
                    boxed[s][i] = b.by_role(role).0 & ours & fixed;
                }
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
                let (region, promoted) = pawn_flood(side, men[s][PAWN], stops[s], fixed, targets);
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
        let color = |s: usize| if s == 0 { Color::White } else { Color::Black };
        // What fixed men attack, and a king that can never move: it guards its neighbours
        // for ever, so the enemy king never takes a man there.
        let guarded = [0, 1].map(|s| {
            let mut occ = boxed[s];
            occ[PAWN] = fixed & pawns[s];
            let stuck = if king[s].is_power_of_two() {
                Step::Any.from(king[s])
            } else {
                0
            };
            span(color(s), &occ) | stuck
        });
        let attacks = [0, 1].map(|s| {
            let mut occ = boxed[s];
            occ[PAWN] = fixed & pawns[s];
            for (all, r) in occ.iter_mut().zip(men[s]) {
                *all |= r;
            }
            span(color(s), &occ)
        });
        Reach {
            fixed,
            barrier,
            king,
            men,
            attacks,
            boxed,
            guarded,
            pawns,
            stops,
        }
    }

    /// The pawns of `self.fixed`, and of `self.barrier`, that the floods show could move
    /// (leave their file), or be taken, after all.
    fn broken(&self) -> (u64, u64) {
        let mut broken = 0;
        let mut broken_barrier = 0;
        for side in Color::ALL {
            let (s, e) = (side.index(), side.other().index());
            // A boxed piece: every square one step of its kind away keeps a fixed man of its
            // own, and nothing ever captures it (as for the pawns below).
            let own_fixed = self.boxed[s]
                .iter()
                .fold(self.fixed & self.pawns[s], |acc, &r| acc | r);
            let mut pieces = 0;
            for (r, &role) in MAN_ROLES.iter().enumerate().skip(1) {
                for sq in Bitboard(self.boxed[s][r]) {
                    pieces |= bit(sq);
                    if Step::of(role).from(bit(sq)) & !own_fixed != 0 {
                        broken |= bit(sq);
                    }
                }
            }
            broken |= pieces & self.attacks[e];
            broken |= pieces & Step::Any.from(self.king[e]) & !self.guarded[s];
            let ours = self.fixed & self.pawns[s];
            // The front square must stay blocked by a fixed man, or by a king that can never
            // move (its region is its own square).
            let stuck = self.king.iter().filter(|k| k.is_power_of_two());
            let blocking = stuck.fold(self.fixed, |acc, &k| acc | k);
            let blocked = match side {
                Color::White => blocking >> 8,
                Color::Black => blocking << 8,
            };
            broken |= ours & !blocked;
            // No enemy man may ever stand where one of them could capture it (the fixed enemy
            // pawns included: two fixed pawns must not attack each other).
            let enemy = self.men_of(side.other());
            broken |= ours & pawn_attacks(side.other(), enemy);
            // Nothing may ever capture one of them: the enemy's men, or the enemy king unless
            // a fixed pawn defends it (then taking it is never legal).
            broken |= ours & self.attacks[e];
            broken |= ours & Step::Any.from(self.king[e]) & !self.guarded[s];
            // A barrier pawn: its own flood stays on its file and short of its last rank, and
            // no enemy man, king included, may ever attack a square of it.
            let targets = self.men[e].iter().fold(0, |acc, &r| acc | r);
            let exposed = self.attacks[e] | Step::Any.from(self.king[e]);
            for sq in Bitboard(self.barrier & self.pawns[s]) {
                let seed = bit(sq);
                let (region, promoted) = pawn_flood(side, seed, self.stops[s], self.fixed, targets);
                if promoted != 0 || region & !files(seed) != 0 || region & exposed != 0 {
                    broken_barrier |= seed;
                }
            }
        }
        (broken, broken_barrier)
    }

    /// Where any man of `color` other than the king may stand, fixed men included.
    pub fn men_of(&self, color: Color) -> u64 {
        let s = color.index();
        let fixed = self.fixed & self.pawns[s];
        let fixed = self.boxed[s].iter().fold(fixed, |acc, &r| acc | r);
        self.men[s].iter().fold(fixed, |acc, &r| acc | r)
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
                let stops = self.stops[color.index()];
                let (region, promoted) = pawn_flood(color, seed, stops, fixed, targets);
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

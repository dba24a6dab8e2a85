//! Fused counting of the last two plies: at a node two plies above the leaves, the
//! opponent's replies to each of our moves are counted without playing the move and
//! regenerating the child.
//!
//! The opponent ("them", to move in every child) is analysed once in the parent as if it
//! were their turn: their pins, the moves of each knight and slider, their pawn moves, and
//! which of the squares their king may step or castle onto we attack. A child differs from
//! the parent by one of our pieces going from `f` to `t` (and a capture on `t`), so most of
//! that stays true:
//!
//! * pins and slider checks against their king change only when `f` or `t` lies on a segment
//!   from their king to one of our sliders of the right kind with at most two men between
//!   (`danger`), or when a slider of ours lands where their king sees it through at most one
//!   man of theirs (`check_zone`); knight and pawn checks only when the piece lands on a
//!   checking square. All of these, en passant and promotions, and double pushes that leave
//!   them an en-passant capture, are counted the plain way: play the move, count the child.
//!   Our castlings move two men: their checks and pins are tested exactly on the child's
//!   board, the rest is counted fused. This is the only place checks are handled, so every
//!   fast-path child has its king out of check and the parent's pins;
//! * a slider's moves change only when `f` or `t` lies in its attack set; knights' counts
//!   change only by captures on `t`; pawn moves are recounted set-wise when `f` or `t` touches
//!   a pawn, a push square or a pawn-capture square;
//! * whether we attack a square `s` near their king can change only when `f` or `t` is in the
//!   "zone" of `s`: the squares a slider line from `s` reaches (their king lifted off), and the
//!   knight, king and pawn squares around it. Squares whose zone is touched are tested afresh
//!   on the child's placement.

use super::count::Level;
use crate::attacks::{
    Sliders, between, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_rays,
};
use crate::bitboard::Bitboard;
use crate::castling::CastlingSide;
use crate::movegen::{
    self, CASTLE_AVAIL, CASTLES, Castle, FILE_A, FILE_H, PAWN_DIRS, Visitor, attacked_by,
    from_offset, king_safety,
};
use crate::position::Position;
use crate::{Color, Role, Square};

/// Sliders one side can have: two rooks, two bishops, a queen and eight promoted pawns.
const MAX_SLIDERS: usize = 13;

/// Leaf count of `pos` at depth 2.
#[inline(always)]
pub(super) fn count2<L: Level>(pos: &Position) -> u64 {
    match pos.turn {
        Color::White => count2_for::<L>(pos, Color::White),
        Color::Black => count2_for::<L>(pos, Color::Black),
    }
}

#[inline(always)]
fn count2_for<L: Level>(pos: &Position, us: Color) -> u64 {
    let Some(mut f) = Fused::<L>::new(pos, us) else {
        // Their king is missing or attacked: not a legal position, but count it plainly.
        return plain_depth2::<L>(pos);
    };
    movegen::generate::<L::S, _>(pos, &mut f);
    f.nodes
}

/// The parent analysed from the opponent's side, and the running leaf count.
struct Fused<'a, L> {
    parent: &'a Position,
    nodes: u64,
    us: Color,
    them: Color,
    /// Their king.
    king: Square,
    our: Bitboard,
    their: Bitboard,
    occ: Bitboard,
    /// Squares whose change may make or break a pin or a check along a line from their king
    /// to one of our sliders (see `new`).
    danger: Bitboard,
    /// By the moving role: landing here gives check or, for a slider, may pin one of theirs.
    check_zone: [Bitboard; 6],
    /// Our double pushes landing here leave them an en-passant capture to check.
    ep_risk: Bitboard,
    /// Moves of their knights and sliders in the parent.
    base: u32,
    /// Each of their knights' and sliders' share of `base`, by square.
    contrib: [u8; 64],
    free_knights: Bitboard,
    slider_sq: [Square; MAX_SLIDERS],
    /// Its pin ray, or everything.
    slider_mask: [Bitboard; MAX_SLIDERS],
    /// Bit 0: moves along ranks and files, bit 1: along diagonals.
    slider_kind: [u8; MAX_SLIDERS],
    /// By square: the sliders (bit `i` for slider `i`) whose attack set holds the square,
    /// i.e. whose moves change when the square empties or fills.
    slider_touch: [u16; 64],
    /// By square: the bit of the slider standing there (0 if none), removed when captured.
    slider_bit: [u16; 64],
    pin_orth: Bitboard,
    pin_diag: Bitboard,
    their_pawns: Bitboard,
    pawn_count: u32,
    pawn_sensitive: Bitboard,
    /// Squares their king may step onto or cross castling in the parent, and the safe ones
    /// among them.
    needed: Bitboard,
    safe: Bitboard,
    /// Their castlings available in the parent (`CASTLE_AVAIL` bits), and the squares whose
    /// change may change that: their back rank while they hold a right (a capture on a
    /// rook's corner takes the right, a piece moving in or out opens or closes the way).
    avail: u8,
    castle_sensitive: Bitboard,
    /// By square: the squares of `needed` in whose zone it lies (see the module docs), i.e.
    /// whose safety may change when the square empties or fills. A map, so a child finds
    /// them with two loads instead of a loop of data-dependent branches.
    stale_by: [Bitboard; 64],
    _level: core::marker::PhantomData<L>,
}

/// The opponent's pawn moves when not in check, with the given pins.
#[inline(always)]
fn pawn_moves(
    mover: Color,
    pawns: Bitboard,
    occ: Bitboard,
    enemies: Bitboard,
    pin_orth: Bitboard,
    pin_diag: Bitboard,
) -> u32 {
    let dirs = &PAWN_DIRS[mover.index()];
    let last = dirs.last_rank;
    let empty = !occ;
    let free = pawns & !(pin_orth | pin_diag);
    let single = free.rotate_left(dirs.push) & empty;
    let double = (single & dirs.double_rank).rotate_left(dirs.push) & empty;
    let west = (free & !FILE_A).rotate_left(dirs.west) & enemies;
    let east = (free & !FILE_H).rotate_left(dirs.east) & enemies;
    let mut n =
        (single & !last).count() + double.count() + (west & !last).count() + (east & !last).count();
    let promo = (single | west | east) & last;
    if promo.any() {
        n += 4 * ((single & last).count() + (west & last).count() + (east & last).count());
    }
    for p in pawns & pin_orth {
        let single = Bitboard::from_square(p).rotate_left(dirs.push) & empty & pin_orth;
        let double = (single & dirs.double_rank).rotate_left(dirs.push) & empty;
        n += (single & !last).count() + double.count() + 4 * (single & last).count();
    }
    for p in pawns & pin_diag {
        let bb = Bitboard::from_square(p);
        let west = (bb & !FILE_A).rotate_left(dirs.west) & enemies & pin_diag;
        let east = (bb & !FILE_H).rotate_left(dirs.east) & enemies & pin_diag;
        n += (west & !last).count()
            + (east & !last).count()
            + 4 * ((west & last).count() + (east & last).count());
    }
    n
}

/// Squares whose change may change whether `s` is attacked (see the module docs).
#[inline(always)]
fn zone<S: Sliders>(s: Square, them: Color, occ_without_king: Bitboard) -> Bitboard {
    S::queen(s, occ_without_king) | knight_attacks(s) | king_attacks(s) | pawn_attacks(them, s)
}

impl<'a, L: Level> Fused<'a, L> {
    #[inline(always)]
    fn new(pos: &'a Position, us: Color) -> Option<Self> {
        let board = &pos.board;
        let them = us.other();
        let king = board.king_of(them)?;
        let our = board.by_color(us);
        let their = board.by_color(them);
        let occ = our | their;
        let safety = king_safety::<L::S>(board, them, king);
        if safety.checkers.any() || !pos.castling.is_standard() {
            // Chess960 castling (rook and king squares that are not constants) is left to
            // the plain count, like checks.
            return None;
        }
        let (pin_orth, pin_diag) = (safety.pin_orth, safety.pin_diag);
        let pinned = pin_orth | pin_diag;

        let our_orth = our & board.orthogonal_sliders();
        let our_diag = our & board.diagonal_sliders();
        let orth_lines = rook_rays(king);
        let diag_lines = bishop_rays(king);
        // A slider of ours on a line of their king's, with the men between: one (a pin, or a
        // discovered check waiting) makes the whole segment and the slider matter; two make
        // only the two men matter (taking either away leaves a pin or a check; a man added or
        // the slider moving leaves at least two); three or more make nothing matter.
        let mut danger = Bitboard::EMPTY;
        for o in (orth_lines & our_orth) | (diag_lines & our_diag) {
            let segment = between(king, o);
            let men = segment & occ;
            match men.count() {
                0 | 1 => danger |= segment | o,
                2 => danger |= men,
                _ => {}
            }
        }
        // A slider of ours landing on `t` checks their king or pins one of their men only
        // when at most one man of theirs, and none of ours, stands between: the squares the
        // king sees through its first blocker on each line, when that blocker is theirs. The
        // square it leaves cannot open its own line: moving along a line of its kind that
        // the king sees would mean it gave check already; any other line it opens is one
        // of `danger`'s.
        let xray_orth = L::S::rook(king, occ ^ (L::S::rook(king, occ) & their));
        let xray_diag = L::S::bishop(king, occ ^ (L::S::bishop(king, occ) & their));
        let check_zone = [
            pawn_attacks(them, king),
            knight_attacks(king),
            xray_diag,
            xray_orth,
            xray_diag | xray_orth,
            Bitboard::EMPTY,
        ];
        let their_pawns = their & board.pawns();
        let ep_risk = Bitboard((their_pawns & !FILE_A).0 >> 1 | (their_pawns & !FILE_H).0 << 1);

        let mut base = 0;
        let mut contrib = [0u8; 64];
        let free_knights = their & board.knights() & !pinned;
        for n in free_knights {
            let c = (knight_attacks(n) & !their).count();
            contrib[n.index()] = c as u8;
            base += c;
        }
        let mut n_sliders = 0;
        let mut slider_sq = [Square::A1; MAX_SLIDERS];
        let mut slider_mask = [Bitboard::FULL; MAX_SLIDERS];
        let mut slider_kind = [0u8; MAX_SLIDERS];
        let mut slider_touch = [0u16; 64];
        let mut slider_bit = [0u16; 64];
        let their_orth = their & board.orthogonal_sliders();
        let their_diag = their & board.diagonal_sliders();
        for sq in their_orth | their_diag {
            let mut kind =
                u8::from(their_orth.contains(sq)) | u8::from(their_diag.contains(sq)) << 1;
            let mut mask = Bitboard::FULL;
            if pin_orth.contains(sq) {
                kind &= 1;
                mask = pin_orth;
            } else if pin_diag.contains(sq) {
                kind &= 2;
                mask = pin_diag;
            }
            if kind == 0 || n_sliders == MAX_SLIDERS {
                if kind != 0 {
                    return None; // More sliders than a legal position holds.
                }
                continue;
            }
            let att = slider_attacks::<L::S>(sq, kind, occ);
            let c = (att & !their & mask).count();
            contrib[sq.index()] = c as u8;
            base += c;
            slider_sq[n_sliders] = sq;
            slider_mask[n_sliders] = mask;
            slider_kind[n_sliders] = kind;
            for a in att {
                slider_touch[a.index()] |= 1 << n_sliders;
            }
            slider_bit[sq.index()] = 1 << n_sliders;
            n_sliders += 1;
        }

        let dirs = &PAWN_DIRS[them.index()];
        let pushes = their_pawns.rotate_left(dirs.push);
        let pawn_sensitive = their_pawns
            | pushes
            | (pushes & dirs.double_rank).rotate_left(dirs.push)
            | (their_pawns & !FILE_A).rotate_left(dirs.west)
            | (their_pawns & !FILE_H).rotate_left(dirs.east);
        let pawn_count = pawn_moves(them, their_pawns, occ, our, pin_orth, pin_diag);

        let without_king = occ ^ king;
        let (needed, avail) = king_squares(king, their, pos.castling.bits(), occ, them);
        let castle_sensitive = if (pos.castling.bits() >> (2 * them.index())) & 3 != 0 {
            PAWN_DIRS[us.index()].last_rank
        } else {
            Bitboard::EMPTY
        };
        let mut safe = Bitboard::EMPTY;
        let mut stale_by = [Bitboard::EMPTY; 64];
        for s in needed {
            if !attacked_by::<L::S>(board, us, s, without_king) {
                safe |= s;
            }
            for z in zone::<L::S>(s, them, without_king) {
                stale_by[z.index()] |= s;
            }
        }
        Some(Fused {
            parent: pos,
            nodes: 0,
            us,
            them,
            king,
            our,
            their,
            occ,
            danger,
            check_zone,
            ep_risk,
            base,
            contrib,
            free_knights,
            slider_sq,
            slider_mask,
            slider_kind,
            slider_touch,
            slider_bit,
            pin_orth,
            pin_diag,
            their_pawns,
            pawn_count,
            pawn_sensitive,
            needed,
            safe,
            avail,
            castle_sensitive,
            stale_by,
            _level: core::marker::PhantomData,
        })
    }

    /// Counts the child the plain way: play the move on a copy, count its moves.
    #[inline(always)]
    fn plain(&mut self, play: impl FnOnce(&mut Position)) {
        let mut c = *self.parent;
        play(&mut c);
        self.nodes += L::count::<false>(&c, 1, None);
    }

    /// One of our piece or pawn moves from `f` to `t` (a capture when `CAPTURE`), with no
    /// promotion: counted fused unless it may give check or change a pin.
    #[inline(always)]
    fn normal<const CAPTURE: bool>(&mut self, role: Role, f: Square, t: Square) {
        let ft = Bitboard::from_square(f) | Bitboard::from_square(t);
        if (self.danger & ft).any() || self.check_zone[role.index()].contains(t) {
            if CAPTURE {
                self.plain(|c| c.apply_normal::<false>(role, f, t));
            } else {
                self.plain(|c| c.apply_quiet::<false>(role, f, t));
            }
            return;
        }
        let occ = if CAPTURE { self.occ ^ f } else { self.occ ^ ft };
        let their = if CAPTURE { self.their ^ t } else { self.their };
        let our = self.our ^ ft;

        // Knights and sliders.
        let mut n = self.base;
        if CAPTURE {
            n = n - u32::from(self.contrib[t.index()])
                + (knight_attacks(t) & self.free_knights).count();
        }
        // The sliders that see `f` or `t`, less one captured on `t`.
        let mut touched = (self.slider_touch[f.index()] | self.slider_touch[t.index()])
            & !self.slider_bit[t.index()];
        while touched != 0 {
            let i = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            if i < MAX_SLIDERS {
                let att = slider_attacks::<L::S>(self.slider_sq[i], self.slider_kind[i], occ);
                n = n + (att & !their & self.slider_mask[i]).count()
                    - u32::from(self.contrib[self.slider_sq[i].index()]);
            }
        }

        // Pawns.
        n += if (self.pawn_sensitive & ft).any() {
            let pawns = if CAPTURE {
                self.their_pawns & !Bitboard::from_square(t)
            } else {
                self.their_pawns
            };
            pawn_moves(self.them, pawns, occ, our, self.pin_orth, self.pin_diag)
        } else {
            self.pawn_count
        };

        // King steps and castling: the squares we may attack differently are tested afresh.
        // Their castling changes only when our move touches their back rank while they hold
        // a right; otherwise the parent's castlings stand and only a capture next to their
        // king adds a king step.
        let (needed, avail) = if (self.castle_sensitive & ft).any() {
            let rights = self.parent.castling.after_move(f, t).bits();
            king_squares(self.king, their, rights, occ, self.them)
        } else if CAPTURE {
            (
                self.needed | (king_attacks(self.king) & Bitboard::from_square(t)),
                self.avail,
            )
        } else {
            (self.needed, self.avail)
        };
        let stale = self.stale_by[f.index()] | self.stale_by[t.index()];
        let known = self.needed & !stale;
        let mut safe = self.safe & known;
        let fresh = needed & !known;
        if fresh.any() {
            let mut board = self.parent.board;
            if CAPTURE {
                board.discard_piece_at(t);
            }
            board.by_role[role.index()] ^= ft;
            board.by_color[self.us.index()] ^= ft;
            let without_king = occ ^ self.king;
            for s in fresh {
                if !attacked_by::<L::S>(&board, self.us, s, without_king) {
                    safe |= s;
                }
            }
        }
        n += (king_attacks(self.king) & !their & safe).count();
        if avail != 0 {
            // Taken or not the same way for most children of one parent: well predicted.
            n += castles_open(avail, &CASTLES[self.them.index()], safe);
        }
        self.nodes += u64::from(n);
    }
}

impl<L: Level> Fused<'_, L> {
    /// One of our castlings, counted fused like `normal` though four squares change: king
    /// and rook both move on our back rank. Checks and pins are tested exactly on the
    /// child's board (the rook may check through the square the king left); any change
    /// sends the child to the plain count. Our back rank is never theirs, so their castling
    /// rights and the way between their king and rooks stay as in the parent.
    #[inline(always)]
    fn castle_fused(&mut self, kf: Square, kt: Square) {
        let side = CastlingSide::of_king_to(kt);
        let (rf, rt) = (side.rook_from(self.us), side.rook_to(self.us));
        let king_move = Bitboard::from_square(kf) | Bitboard::from_square(kt);
        let rook_move = Bitboard::from_square(rf) | Bitboard::from_square(rt);
        let changed = king_move | rook_move;
        let mut board = self.parent.board;
        board.by_role[Role::King.index()] ^= king_move;
        board.by_role[Role::Rook.index()] ^= rook_move;
        board.by_color[self.us.index()] ^= changed;
        let safety = king_safety::<L::S>(&board, self.them, self.king);
        if safety.checkers.any()
            || safety.pin_orth != self.pin_orth
            || safety.pin_diag != self.pin_diag
        {
            self.plain(|c| c.apply_castle::<false>(kf, kt));
            return;
        }
        let occ = self.occ ^ changed;
        let our = self.our ^ changed;
        let their = self.their;
        let mut n = self.base;
        let mut touched = 0;
        for s in changed {
            touched |= self.slider_touch[s.index()];
        }
        while touched != 0 {
            let i = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            if i < MAX_SLIDERS {
                let att = slider_attacks::<L::S>(self.slider_sq[i], self.slider_kind[i], occ);
                n = n + (att & !their & self.slider_mask[i]).count()
                    - u32::from(self.contrib[self.slider_sq[i].index()]);
            }
        }
        n += if (self.pawn_sensitive & changed).any() {
            pawn_moves(
                self.them,
                self.their_pawns,
                occ,
                our,
                self.pin_orth,
                self.pin_diag,
            )
        } else {
            self.pawn_count
        };
        let mut stale = Bitboard::EMPTY;
        for s in changed {
            stale |= self.stale_by[s.index()];
        }
        let known = self.needed & !stale;
        let mut safe = self.safe & known;
        let without_king = occ ^ self.king;
        for s in self.needed & !known {
            if !attacked_by::<L::S>(&board, self.us, s, without_king) {
                safe |= s;
            }
        }
        n += (king_attacks(self.king) & !their & safe).count();
        n += castles_open(self.avail, &CASTLES[self.them.index()], safe);
        self.nodes += u64::from(n);
    }
}

/// How many of the castlings in `avail` (bit 0 kingside, bit 1 queenside) have every square
/// the king crosses in `safe`; without branches, the two answers are data.
#[inline(always)]
fn castles_open(avail: u8, castles: &[Castle; 2], safe: Bitboard) -> u32 {
    let open =
        |i: usize| u32::from(avail >> i & 1) & u32::from((castles[i].king_path & !safe).is_empty());
    open(0) + open(1)
}

/// The attacks of a slider of `kind` (bit 0 orthogonal, bit 1 diagonal).
#[inline(always)]
fn slider_attacks<S: Sliders>(sq: Square, kind: u8, occ: Bitboard) -> Bitboard {
    match kind {
        1 => S::rook(sq, occ),
        2 => S::bishop(sq, occ),
        _ => S::queen(sq, occ),
    }
}

/// The squares their king may step onto or must cross castling (not out of check: the
/// caller has excluded check), and the castlings available by rights and empty squares.
#[inline(always)]
fn king_squares(
    king: Square,
    their: Bitboard,
    rights: u8,
    occ: Bitboard,
    them: Color,
) -> (Bitboard, u8) {
    let mut needed = king_attacks(king) & !their;
    let back_rank = (occ.0 >> (1 + 56 * them.index() as u32)) & 0x3F;
    let rights = (rights >> (2 * them.index())) & 3;
    let avail = CASTLE_AVAIL[(rights as usize) << 6 | back_rank as usize];
    if avail != 0 {
        for (i, c) in CASTLES[them.index()].iter().enumerate() {
            if avail & (1 << i) != 0 {
                needed |= c.king_path;
            }
        }
    }
    (needed, avail)
}

impl<L: Level> Visitor for Fused<'_, L> {
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, to: Bitboard) {
        let their = self.their;
        for t in to & their {
            self.normal::<true>(role, from, t);
        }
        for t in to - their {
            self.normal::<false>(role, from, t);
        }
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, off: i32) {
        let their = self.their;
        for t in to & their {
            self.normal::<true>(Role::Pawn, from_offset(t, off), t);
        }
        if off == 16 || off == -16 {
            // Double pushes: en passant for them is left to the plain count.
            for t in to & self.ep_risk {
                let f = from_offset(t, off);
                self.plain(|c| c.apply_quiet::<false>(Role::Pawn, f, t));
            }
            for t in to - self.ep_risk {
                self.normal::<false>(Role::Pawn, from_offset(t, off), t);
            }
        } else {
            for t in to - their {
                self.normal::<false>(Role::Pawn, from_offset(t, off), t);
            }
        }
    }
    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, off: i32) {
        for t in to {
            for role in Role::PROMOTIONS {
                self.plain(|c| c.apply_promotion::<false>(from_offset(t, off), t, role));
            }
        }
    }
    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.plain(|c| c.apply_en_passant::<false>(from, to));
    }
    #[inline(always)]
    fn castle(&mut self, from: Square, to: Square) {
        self.castle_fused(from, to);
    }
}

/// The depth-2 count by playing every move and counting each child's moves.
fn plain_depth2<L: Level>(pos: &Position) -> u64 {
    let mut v = super::count::Expand::<L, false> {
        parent: pos,
        depth: 1,
        nodes: 0,
        table: None,
        _level: core::marker::PhantomData,
    };
    movegen::generate::<L::S, _>(pos, &mut v);
    v.nodes
}

#[cfg(test)]
mod tests {
    use super::super::count::{Baseline, Bmi2, Level, Popcnt, has_bmi_set, has_popcnt};
    use super::count2;
    use crate::position::Position;

    /// The depth-2 count by playing every move and counting the child's moves.
    fn plain2<L: Level>(pos: &Position) -> u64 {
        super::plain_depth2::<L>(pos)
    }

    /// Compares the fused and the plain depth-2 count at every node of the tree below `fen`
    /// to `plies` plies, on `L`'s counting core.
    fn walk<L: Level>(pos: &Position, plies: u32, fen: &str) -> usize {
        assert_eq!(
            count2::<L>(pos),
            plain2::<L>(pos),
            "fused depth-2 count of {} (reached from {fen})",
            crate::fen::to_fen(pos)
        );
        let mut nodes = 1;
        if plies > 0 {
            for m in &pos.legal_moves() {
                nodes += walk::<L>(&pos.after(*m).unwrap(), plies - 1, fen);
            }
        }
        nodes
    }

    fn check_all_levels(fen: &str, plies: u32) {
        let pos: Position = fen.parse().unwrap();
        walk::<Baseline>(&pos, plies, fen);
        if has_popcnt() {
            walk::<Popcnt>(&pos, plies, fen);
        }
        if has_bmi_set() {
            walk::<Bmi2>(&pos, plies, fen);
        }
    }

    // R3.7d: en passant after our double push: a legal capture, one that would expose their
    // king along the rank (illegal), one along a diagonal, and one that removes a checker.
    #[test]
    fn en_passant_left_to_them() {
        for fen in [
            "4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1",
            "8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1",
            "8/8/8/8/k2p3R/8/2P5/4K3 w - - 0 1",
            "8/8/8/8/3p4/8/4P3/4K1kB w - - 0 1",
            "8/8/8/3k4/3p4/8/4P3/4K3 w - - 0 1",
            "4k3/8/8/8/5p2/8/4P1P1/4K3 w - - 0 1",
            "4k3/2p5/8/1P1P4/8/8/8/4K3 b - - 0 1",
        ] {
            check_all_levels(fen, 3);
        }
    }

    // R3.7d: our double pushes beside their pawns, for a fused count of their en-passant
    // replies: a capture that would leave their king on the rank with our rook or queen
    // (the king left or right of the pawns), one that opens a diagonal through the square
    // their pawn leaves or ours leaves, a capturing pawn pinned on a file or a diagonal,
    // two capturers, pushes that give check, and the perft suites' en-passant positions.
    #[test]
    fn en_passant_after_our_double_push() {
        for fen in [
            "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
            "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
            "8/8/8/8/k1p4R/8/3P4/4K3 w - - 0 1",
            "8/8/8/8/Q1p4k/8/3P4/4K3 w - - 0 1",
            "8/8/8/8/2p1p2k/8/3P4/R3K3 w - - 0 1",
            "8/8/8/8/2p5/1k6/3P4/4K1B1 w - - 0 1",
            "8/8/2r5/8/2p5/8/3P4/2K1k3 w - - 0 1",
            "6b1/8/8/8/4p3/3k4/5P2/4K3 w - - 0 1",
            "4k3/8/8/8/2p1p3/8/3P4/4K2B w - - 0 1",
            "4k3/2p1p3/8/3P4/8/8/8/4K3 b - - 0 1",
            "8/2p5/8/1P1K4/8/8/8/4k3 b - - 0 1",
            "8/8/3k4/8/2p5/8/3P4/3RK3 w - - 0 1",
            "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
            "8/5k2/8/2Pp4/2B5/1K6/8/8 w - d6 0 1",
            "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
            "8/3p4/8/K1P4k/8/8/8/8 b - - 0 1",
            "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
        ] {
            check_all_levels(fen, 3);
        }
    }

    // R3.8b: their castling after our move: rights lost by capturing a rook on its corner,
    // paths attacked or freed by our move, our piece leaving their back rank, checks.
    #[test]
    fn castling_left_to_them() {
        for fen in [
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "rN2k2r/8/8/8/8/8/8/4K3 w kq - 0 1",
            "r3k1Nr/8/8/8/8/8/8/4K3 w kq - 0 1",
            "r3k2r/8/8/8/8/8/6B1/4K3 w kq - 0 1",
            "r3k2r/8/8/8/8/5Q2/8/4K3 w kq - 0 1",
            "r3k2r/8/8/8/8/8/1b6/R3K2R b KQkq - 0 1",
            "r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1",
            // Our bishop on b8 closes their queenside; leaving the back rank opens it.
            "rB2k2r/8/8/8/8/8/8/4K3 w kq - 0 1",
            // Our knight on d7 guards f8 and b8: moving off their back rank's zone, not the rank.
            "r3k2r/3N4/8/8/8/8/8/4K3 w kq - 0 1",
            // Captures next to their king while they keep both rights: a new king step.
            "r3k2r/3p4/8/8/8/8/8/3RK3 w kq - 0 1",
            "r3k2r/5p2/8/8/8/8/8/4KR2 w kq - 0 1",
            // Our rook on their back rank: capturing on the corner, along the rank, leaving
            // it; a knight taking the corner rook (the right lost, the king's path untouched);
            // a rook stepping onto the back rank beside their rook.
            "rRb1k2r/8/8/8/8/8/8/4K3 w kq - 0 1",
            "r3k3/8/1N6/8/8/8/8/4K3 w q - 0 1",
            "1r2k2r/R7/8/8/8/8/8/4K3 w k - 0 1",
        ] {
            check_all_levels(fen, 3);
        }
    }

    // R3.8b: our castlings counted fused: the rook checking through the square our king
    // left, or pinning one of theirs there; a castling that uncovers a line to their king;
    // their pawns and sliders that see the four squares; both colours, both sides.
    #[test]
    fn our_castling() {
        for fen in [
            "8/8/8/8/8/8/8/1k2K2R w K - 0 1",
            "8/8/8/8/8/8/8/R3K1k1 w Q - 0 1",
            "8/8/8/8/8/8/8/k1n1K2R w K - 0 1",
            "r3k1n1/8/8/8/8/8/8/2K5 b q - 0 1",
            "r3k2r/8/8/8/8/8/8/6K1 b kq - 0 1",
            "r3k2r/8/1b3P2/8/8/8/2q5/R3K2R w KQkq - 0 1",
            "4k2r/6P1/8/8/8/8/8/R3K2R b KQk - 0 1",
            "8/8/8/8/8/6k1/8/R3K2R w KQ - 0 1",
        ] {
            check_all_levels(fen, 3);
        }
    }

    // A slider of theirs whose moves change: captured by a piece it attacked (it must not be
    // recounted), uncovered or blocked by our move, pinned along the line we move on.
    #[test]
    fn their_sliders_change() {
        for fen in [
            "4k3/8/8/8/8/8/8/rR2K3 w - - 0 1",
            "4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1",
            "4k3/8/8/1b6/8/3B4/8/4K3 w - - 0 1",
            "4k3/8/1q6/8/8/4N3/8/R3K2R w KQ - 0 1",
            "4k3/4r3/8/8/8/8/8/4RK2 w - - 0 1",
            "2r1k2r/1q6/8/8/8/8/6B1/R3K2R w KQk - 0 1",
        ] {
            check_all_levels(fen, 3);
        }
    }

    // R3.9: pins made, broken and revealed by our move, discovered and double checks.
    #[test]
    fn pins_and_checks_change() {
        for fen in [
            "4k3/8/8/4n3/8/8/8/4R2K w - - 0 1",
            "4k3/4n3/8/8/8/4N3/8/4R2K w - - 0 1",
            "4k3/8/2n5/8/B7/8/8/7K w - - 0 1",
            "4k3/3pp3/8/1B6/8/8/8/4QK2 w - - 0 1",
            "3k4/8/3q4/8/3N4/8/8/3RK3 w - - 0 1",
            "k7/8/8/3Pp3/8/8/8/4K2B w - e6 0 1",
        ] {
            check_all_levels(fen, 3);
        }
    }

    // The standard test positions (Kiwipete, positions 3 to 5 of the chessprogramming wiki):
    // promotions on both sides, pinned pawns and pieces, castling through attacks.
    #[test]
    fn standard_positions() {
        for (fen, plies) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                2,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                2,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                2,
            ),
            (
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                2,
            ),
        ] {
            check_all_levels(fen, plies);
        }
    }
}

//! Strictly legal move generation with check and pin masks.
//!
//! One generic walk, [`generate`], reports moves to a [`Visitor`] as *sets* of destinations:
//! counting visitors add popcounts (bulk counting), list visitors push `Move`s, and perft
//! visitors play each move on a copy. Everything is generic over [`Sliders`], so the caller's
//! choice of magic or PEXT lookups is compiled in.
//!
//! Legality is decided without making moves: the king never steps onto an attacked square
//! (computed with the king removed, so it cannot hide behind itself, R3.8a); when in check
//! every other move must land on the check mask (capture the checker or interpose, R3.9); in
//! double check only the king moves; pinned pieces stay on their pin ray; en passant, the one
//! move that removes two pieces from a line, is checked by recomputing slider attacks.

use crate::attacks::{
    Sliders, between, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_rays,
};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::CastlingSide;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::{Color, Role, Square};

/// Receives the legal moves of a position.
pub(crate) trait Visitor {
    /// A non-pawn `role` on `from` may move to every square of `to`.
    fn piece(&mut self, role: Role, from: Square, to: Bitboard);
    /// Pawn moves without promotion; each destination `t` came from `t + from_offset`.
    fn pawns(&mut self, to: Bitboard, from_offset: i32);
    /// Pawn moves onto the last rank; each is four moves (R3.7e).
    fn promotions(&mut self, to: Bitboard, from_offset: i32);
    fn en_passant(&mut self, from: Square, to: Square);
    fn castle(&mut self, king_from: Square, king_to: Square);
}

pub(crate) const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
pub(crate) const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
const RANK_1: Bitboard = Bitboard(0xFF);
const RANK_3: Bitboard = Bitboard(0xFF_0000);
const RANK_6: Bitboard = Bitboard(0xFF << 40);
const RANK_8: Bitboard = Bitboard(0xFF00_0000_0000_0000);

/// Per-colour pawn geometry, so pawn code is one branch-free path for both sides: shifts are
/// rotations (pawns never stand on the first or last rank, so nothing wraps once the
/// edge file is masked off).
pub(crate) struct PawnDirs {
    pub push: u32,
    pub push_from: i32,
    pub west: u32,
    pub west_from: i32,
    pub east: u32,
    pub east_from: i32,
    pub double_rank: Bitboard,
    pub last_rank: Bitboard,
}

pub(crate) const PAWN_DIRS: [PawnDirs; 2] = [
    PawnDirs {
        push: 8,
        push_from: -8,
        west: 7,
        west_from: -7,
        east: 9,
        east_from: -9,
        double_rank: RANK_3,
        last_rank: RANK_8,
    },
    PawnDirs {
        push: 56,
        push_from: 8,
        west: 55,
        west_from: 9,
        east: 57,
        east_from: 7,
        double_rank: RANK_6,
        last_rank: RANK_1,
    },
];

/// The king's squares of one castling (R3.8b); `CASTLE_AVAIL` checks the squares between
/// king and rook.
pub(crate) struct Castle {
    /// Squares the king crosses and lands on, which must not be attacked.
    pub king_path: Bitboard,
    pub king_to: Square,
}

/// Indexed by colour, then kingside (0) / queenside (1), as the castling-rights bits.
pub(crate) const CASTLES: [[Castle; 2]; 2] = [
    [
        Castle {
            king_path: Bitboard(0x60),
            king_to: Square::G1,
        },
        Castle {
            king_path: Bitboard(0x0C),
            king_to: Square::C1,
        },
    ],
    [
        Castle {
            king_path: Bitboard(0x60 << 56),
            king_to: Square::G8,
        },
        Castle {
            king_path: Bitboard(0x0C << 56),
            king_to: Square::C8,
        },
    ],
];

/// Castlings possible by rights and empty squares between king and rook, indexed by
/// `rights << 6 | back-rank occupancy of files b–g` (the same for both colours, seen from
/// their own side): bit 0 kingside, bit 1 queenside.
pub(crate) static CASTLE_AVAIL: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let (rights, occ) = (i >> 6, (i & 0x3F) << 1); // occ: bits of files a–h, b..g present
        let mut avail = 0;
        if rights & 1 != 0 && occ & 0x60 == 0 {
            avail |= 1;
        }
        if rights & 2 != 0 && occ & 0x0E == 0 {
            avail |= 2;
        }
        t[i] = avail;
        i += 1;
    }
    t
};

/// Is `sq` attacked by `by`, with `occupied` as blockers? Pieces attack even when pinned (R3.8a).
#[inline(always)]
pub(crate) fn attacked_by<S: Sliders>(
    board: &Board,
    by: Color,
    sq: Square,
    occupied: Bitboard,
) -> bool {
    let them = board.by_color(by);
    if (knight_attacks(sq) & them & board.knights()).any()
        || (pawn_attacks(by.other(), sq) & them & board.pawns()).any()
        || (king_attacks(sq) & them & board.kings()).any()
    {
        return true;
    }
    let diag = them & board.diagonal_sliders();
    if (bishop_rays(sq) & diag).any() && (S::bishop(sq, occupied) & diag).any() {
        return true;
    }
    let orth = them & board.orthogonal_sliders();
    (rook_rays(sq) & orth).any() && (S::rook(sq, occupied) & orth).any()
}

/// All pieces of `by` attacking `sq` with `occupied` as blockers.
#[inline]
pub(crate) fn attackers_of<S: Sliders>(
    board: &Board,
    by: Color,
    sq: Square,
    occupied: Bitboard,
) -> Bitboard {
    board.by_color(by)
        & ((knight_attacks(sq) & board.knights())
            | (pawn_attacks(by.other(), sq) & board.pawns())
            | (king_attacks(sq) & board.kings())
            | (S::bishop(sq, occupied) & board.diagonal_sliders())
            | (S::rook(sq, occupied) & board.orthogonal_sliders()))
}

/// Every square `by` attacks, with `occupied` as blockers.
#[inline(always)]
pub(crate) fn enemy_attacks<S: Sliders>(board: &Board, by: Color, occupied: Bitboard) -> Bitboard {
    let them = board.by_color(by);
    let pawns = them & board.pawns();
    let mut att = match by {
        Color::White => (pawns & !FILE_A).rotate_left(7) | (pawns & !FILE_H).rotate_left(9),
        Color::Black => (pawns & !FILE_A).rotate_left(55) | (pawns & !FILE_H).rotate_left(57),
    };
    for sq in them & board.knights() {
        att |= knight_attacks(sq);
    }
    for sq in them & board.diagonal_sliders() {
        att |= S::bishop(sq, occupied);
    }
    for sq in them & board.orthogonal_sliders() {
        att |= S::rook(sq, occupied);
    }
    if let Some(k) = (them & board.kings()).first() {
        att |= king_attacks(k);
    }
    att
}

/// Checkers of the side to move's king and the pin rays through its pieces (each ray
/// includes the pinner), split by direction.
#[derive(Copy, Clone, Debug)]
pub(crate) struct KingSafety {
    pub checkers: Bitboard,
    pub pin_orth: Bitboard,
    pub pin_diag: Bitboard,
}

#[inline(always)]
pub(crate) fn king_safety<S: Sliders>(board: &Board, us: Color, king: Square) -> KingSafety {
    let them = us.other();
    let their = board.by_color(them);
    let occ = board.occupied();
    let mut checkers = (knight_attacks(king) & their & board.knights())
        | (pawn_attacks(us, king) & their & board.pawns());
    let mut pin_orth = Bitboard::EMPTY;
    let mut pin_diag = Bitboard::EMPTY;
    let their_orth = their & board.orthogonal_sliders();
    if (rook_rays(king) & their_orth).any() {
        // Seen through our own pieces: the first enemy piece on each ray.
        for sniper in S::rook(king, their) & their_orth {
            let ray = between(king, sniper);
            let blockers = ray & occ;
            if blockers.is_empty() {
                checkers |= sniper;
            } else if !blockers.more_than_one() {
                pin_orth |= ray | sniper;
            }
        }
    }
    let their_diag = their & board.diagonal_sliders();
    if (bishop_rays(king) & their_diag).any() {
        for sniper in S::bishop(king, their) & their_diag {
            let ray = between(king, sniper);
            let blockers = ray & occ;
            if blockers.is_empty() {
                checkers |= sniper;
            } else if !blockers.more_than_one() {
                pin_diag |= ray | sniper;
            }
        }
    }
    KingSafety {
        checkers,
        pin_orth,
        pin_diag,
    }
}

/// A sufficient test for a legal move, much cheaper than generating them: out of check, a
/// knight that is not pinned with a square not held by its own side, or a pawn that is not
/// pinned with an empty square ahead, can move. `false` says only that the test found none
/// (see `Position::has_free_knight_or_pawn_move`).
#[inline(always)]
pub(crate) fn has_quick_move<S: Sliders>(pos: &Position) -> bool {
    let board = &pos.board;
    let us = pos.turn;
    let Some(king) = board.king_of(us) else {
        return false;
    };
    let safety = king_safety::<S>(board, us, king);
    if safety.checkers.any() {
        return false;
    }
    // A pin ray runs from the king to the pinner, so it holds the pinned piece.
    let free = board.by_color(us) & !(safety.pin_orth | safety.pin_diag);
    for knight in free & board.knights() {
        if (knight_attacks(knight) & !board.by_color(us)).any() {
            return true;
        }
    }
    let pawns = (free & board.pawns()).0;
    let ahead = match us {
        Color::White => pawns << 8,
        Color::Black => pawns >> 8,
    };
    ahead & !board.occupied().0 != 0
}

/// Reports every legal move of `pos` to `v`.
#[inline(always)]
pub(crate) fn generate<S: Sliders, V: Visitor>(pos: &Position, v: &mut V) {
    // Two inlined copies, each with the side to move a constant.
    match pos.turn {
        Color::White => generate_for::<S, V>(pos, v, Color::White),
        Color::Black => generate_for::<S, V>(pos, v, Color::Black),
    }
}

#[inline(always)]
fn generate_for<S: Sliders, V: Visitor>(pos: &Position, v: &mut V, us: Color) {
    let board = &pos.board;
    let them = us.other();
    let Some(king) = board.king_of(us) else {
        return; // Unreachable for a validated position; no king means no moves.
    };
    let our = board.by_color(us);
    let their = board.by_color(them);
    let occ = our | their;
    let safety = king_safety::<S>(board, us, king);
    let checkers = safety.checkers;

    // King steps and castling need to know which squares the enemy attacks. The king is
    // lifted off the board for this, so it cannot hide behind itself (R3.8a); that is also
    // right for castling, which is only tried when no slider sees the king at all.
    let without_king = occ ^ king;
    let king_targets = king_attacks(king) & !our;
    let mut needed = king_targets;
    // Castling (R3.8b): not out of check, empty squares between king and rook, and the
    // squares the king crosses and lands on unattacked. The rook's path (b1) may be attacked.
    // A castling right implies king and rook on their original squares, so the squares are
    // constants: `avail` has bit 0 (kingside) and bit 1 (queenside) for each right held with
    // empty squares up to the rook, from a table indexed by the rights and the back rank.
    let back_rank = (occ.0 >> (1 + 56 * us.index() as u32)) & 0x3F;
    let rights = (pos.castling.bits() >> (2 * us.index())) & 3;
    let standard = pos.castling.is_standard();
    let avail = if checkers.is_empty() && standard {
        CASTLE_AVAIL[(rights as usize) << 6 | back_rank as usize]
    } else {
        0
    };
    let castles = &CASTLES[us.index()];
    if avail != 0 {
        for (i, c) in castles.iter().enumerate() {
            if avail & (1 << i) != 0 {
                needed |= c.king_path;
            }
        }
    }
    // Chess960 (any other layout): the squares follow from the rights' files; `open960` has
    // bit 0 (kingside) and bit 1 (queenside) for each right held with its squares empty.
    let mut open960 = 0u8;
    if rights != 0 && !standard && checkers.is_empty() {
        for (i, side) in CastlingSide::ALL.into_iter().enumerate() {
            if let Some(c) = pos.castling.castling(us, side)
                && (c.must_be_empty & occ).is_empty()
            {
                needed |= c.king_path;
                open960 |= 1 << i;
            }
        }
    }
    // Few squares: test each. Many: one attack map of the enemy is cheaper.
    let safe = if needed.count() > 2 {
        !enemy_attacks::<S>(board, them, without_king)
    } else {
        let mut safe = Bitboard::EMPTY;
        for t in needed {
            if !attacked_by::<S>(board, them, t, without_king) {
                safe |= t;
            }
        }
        safe
    };
    v.piece(Role::King, king, king_targets & safe);
    if avail != 0 {
        for (i, c) in castles.iter().enumerate() {
            if avail & (1 << i) != 0 && (c.king_path & !safe).is_empty() {
                v.castle(king, c.king_to);
            }
        }
    }
    if open960 != 0 {
        for (i, side) in CastlingSide::ALL.into_iter().enumerate() {
            if open960 & (1 << i) != 0
                && let Some(c) = pos.castling.castling(us, side)
            {
                // The king's landing square is tested once more on the board after
                // castling: the rook that leaves the king's side may have shielded it from a
                // slider on the first rank (king c1, castling rook b1, enemy queen a1).
                let after = occ ^ king ^ c.rook_from ^ c.rook_to;
                if (c.king_path & !safe).is_empty()
                    && !attacked_by::<S>(board, them, c.king_to, after)
                {
                    v.castle(king, c.king_to);
                }
            }
        }
    }

    if checkers.more_than_one() {
        return; // Double check: only the king may move (R3.9).
    }
    let check_mask = match checkers.first() {
        Some(checker) => between(king, checker) | checker,
        None => Bitboard::FULL,
    };
    let target = !our & check_mask;
    let pin_orth = safety.pin_orth;
    let pin_diag = safety.pin_diag;
    let pinned = pin_orth | pin_diag;

    // Knights: a pinned knight can never stay on its pin ray.
    for from in board.knights() & our & !pinned {
        v.piece(Role::Knight, from, knight_attacks(from) & target);
    }

    // Sliders. A piece pinned on a diagonal can only slide along that diagonal and one
    // pinned on a rank or file only along it; unpinned pieces (the common case) are handled
    // first, without any mask. Pinned pieces use the union of the pin rays of their kind:
    // a piece's own lines meet the other pin rays only on its own square.
    for from in our & board.bishops() & !pinned {
        v.piece(Role::Bishop, from, S::bishop(from, occ) & target);
    }
    for from in our & board.rooks() & !pinned {
        v.piece(Role::Rook, from, S::rook(from, occ) & target);
    }
    for from in our & board.queens() & !pinned {
        v.piece(Role::Queen, from, S::queen(from, occ) & target);
    }
    if pinned.any() {
        for from in our & board.diagonal_sliders() & pin_diag {
            let role = if board.queens().contains(from) {
                Role::Queen
            } else {
                Role::Bishop
            };
            v.piece(role, from, S::bishop(from, occ) & target & pin_diag);
        }
        for from in our & board.orthogonal_sliders() & pin_orth {
            let role = if board.queens().contains(from) {
                Role::Queen
            } else {
                Role::Rook
            };
            v.piece(role, from, S::rook(from, occ) & target & pin_orth);
        }
    }

    // Pawns, set-wise.
    let dirs = match us {
        Color::White => &PAWN_DIRS[0],
        Color::Black => &PAWN_DIRS[1],
    };
    let pawns = our & board.pawns();
    let empty = !occ;
    let enemies = their & check_mask;
    let last = dirs.last_rank;
    // Unpinned pawns, all at once.
    let free = pawns & !pinned;
    let single = free.rotate_left(dirs.push) & empty;
    let double = (single & dirs.double_rank).rotate_left(dirs.push) & empty & check_mask;
    let single = single & check_mask;
    let west = (free & !FILE_A).rotate_left(dirs.west) & enemies;
    let east = (free & !FILE_H).rotate_left(dirs.east) & enemies;
    v.pawns(single & !last, dirs.push_from);
    v.pawns(double, 2 * dirs.push_from);
    v.pawns(west & !last, dirs.west_from);
    v.pawns(east & !last, dirs.east_from);
    if ((single | west | east) & last).any() {
        v.promotions(single & last, dirs.push_from);
        v.promotions(west & last, dirs.west_from);
        v.promotions(east & last, dirs.east_from);
    }
    // Pinned pawns (rare), one by one: along a file they may only push, along a diagonal
    // only capture the pinner; along a rank they cannot move.
    for p in pawns & pin_orth {
        let single = Bitboard::from_square(p).rotate_left(dirs.push) & empty & pin_orth;
        let double = (single & dirs.double_rank).rotate_left(dirs.push) & empty & check_mask;
        v.pawns(single & check_mask & !last, dirs.push_from);
        v.pawns(double, 2 * dirs.push_from);
        v.promotions(single & check_mask & last, dirs.push_from);
    }
    for p in pawns & pin_diag {
        let bb = Bitboard::from_square(p);
        let west = (bb & !FILE_A).rotate_left(dirs.west) & enemies & pin_diag;
        let east = (bb & !FILE_H).rotate_left(dirs.east) & enemies & pin_diag;
        v.pawns(west & !last, dirs.west_from);
        v.pawns(east & !last, dirs.east_from);
        v.promotions(west & last, dirs.west_from);
        v.promotions(east & last, dirs.east_from);
    }

    // En passant (R3.7d): rare, so checked exactly by recomputing the king's slider lines.
    if let Some(ep) = pos.ep_square {
        let ep_capturers = pawn_attacks(them, ep) & pawns;
        if ep_capturers.any()
            && let Some(victim) = ep.offset(dirs.push_from)
        {
            let their_orth = their & board.orthogonal_sliders();
            let their_diag = their & board.diagonal_sliders();
            // A knight's or other pawn's check survives any en-passant capture.
            let leaper_checks =
                checkers & !(their_orth | their_diag) & !Bitboard::from_square(victim);
            if leaper_checks.is_empty() {
                for from in ep_capturers {
                    let after = occ ^ from ^ victim ^ ep;
                    if (S::rook(king, after) & their_orth).is_empty()
                        && (S::bishop(king, after) & their_diag).is_empty()
                    {
                        v.en_passant(from, ep);
                    }
                }
            }
        }
    }
}

/// Counts moves without listing them: the popcount of each destination set.
pub(crate) struct Counter(pub u64);

impl Visitor for Counter {
    #[inline(always)]
    fn piece(&mut self, _: Role, _: Square, to: Bitboard) {
        self.0 += u64::from(to.count());
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, _: i32) {
        self.0 += u64::from(to.count());
    }
    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, _: i32) {
        self.0 += 4 * u64::from(to.count());
    }
    #[inline(always)]
    fn en_passant(&mut self, _: Square, _: Square) {
        self.0 += 1;
    }
    #[inline(always)]
    fn castle(&mut self, _: Square, _: Square) {
        self.0 += 1;
    }
}

#[inline(always)]
pub(crate) fn from_offset(to: Square, offset: i32) -> Square {
    Square::from_index_masked((to.index() as i32 + offset) as u32)
}

/// Notes whether a legal en-passant capture exists, listing nothing (the legal-move
/// generation behind `Position::legal_ep_square`, which every recorded move asks).
pub(crate) struct EnPassantSeen(pub bool);

impl Visitor for EnPassantSeen {
    #[inline(always)]
    fn piece(&mut self, _: Role, _: Square, _: Bitboard) {}
    #[inline(always)]
    fn pawns(&mut self, _: Bitboard, _: i32) {}
    #[inline(always)]
    fn promotions(&mut self, _: Bitboard, _: i32) {}
    #[inline(always)]
    fn en_passant(&mut self, _: Square, _: Square) {
        self.0 = true;
    }
    #[inline(always)]
    fn castle(&mut self, _: Square, _: Square) {}
}

/// Collects moves into a [`MoveList`].
pub(crate) struct Collector<'a>(pub &'a mut MoveList);

/// Collects only captures (en passant included) and promotions: the moves a quiescence
/// search looks at, without listing the quiet ones first.
pub(crate) struct CaptureCollector<'a> {
    pub list: &'a mut MoveList,
    /// The opponent's pieces.
    pub their: Bitboard,
}

impl Visitor for CaptureCollector<'_> {
    #[inline(always)]
    fn piece(&mut self, _: Role, from: Square, to: Bitboard) {
        for t in to & self.their {
            self.list.push(Move::normal(from, t));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, off: i32) {
        // A push never lands on a piece, so masking keeps exactly the captures.
        for t in to & self.their {
            self.list.push(Move::normal(from_offset(t, off), t));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, off: i32) {
        Collector(self.list).promotions(to, off);
    }
    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.list.push(Move::new(from, to, MoveKind::EnPassant));
    }
    #[inline(always)]
    fn castle(&mut self, _: Square, _: Square) {}
}

impl Visitor for Collector<'_> {
    #[inline(always)]
    fn piece(&mut self, _: Role, from: Square, to: Bitboard) {
        for t in to {
            self.0.push(Move::normal(from, t));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, off: i32) {
        for t in to {
            self.0.push(Move::normal(from_offset(t, off), t));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, off: i32) {
        for t in to {
            let from = from_offset(t, off);
            for role in Role::PROMOTIONS {
                self.0.push(Move::new(from, t, MoveKind::Promotion(role)));
            }
        }
    }
    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.0.push(Move::new(from, to, MoveKind::EnPassant));
    }
    #[inline(always)]
    fn castle(&mut self, from: Square, to: Square) {
        self.0.push(Move::new(from, to, MoveKind::Castle));
    }
}

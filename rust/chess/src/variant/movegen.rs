//! The variants' move generator: pseudo-legal moves, then each variant's legality test on
//! the position after the move (copy-make). Atomic's explosions and racing kings' ban on
//! giving check are rules about the position after the move, so testing that position is
//! the one formulation every variant shares; standard chess keeps its own pin-and-check
//! generator in `crate::movegen`.

use super::position::{VariantMove, VariantPosition, attackers};
use super::rules::Variant;
use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::castling::CastlingSide;
use crate::moves::{Move, MoveKind};
use crate::{Rank, Role};

/// The promotion roles, as python-chess generates them (queen first); antichess adds the
/// king after the queen.
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

impl<V: Variant> VariantPosition<V> {
    /// The legal moves: none once the variant has ended; in antichess only captures when
    /// there is one.
    pub fn legal_moves(&self) -> Vec<VariantMove> {
        let mut out = Vec::with_capacity(64);
        if V::is_variant_end(self) {
            return out;
        }
        self.pseudo_legal_moves_into(&mut out);
        if V::ANTICHESS {
            if out.iter().any(|&m| self.is_capture(m)) {
                out.retain(|&m| self.is_capture(m));
            }
            return out;
        }
        out.retain(|&m| self.is_legal_pseudo(m));
        out
    }

    /// The number of legal moves.
    pub fn count_legal_moves(&self) -> usize {
        self.legal_moves().len()
    }

    pub fn has_legal_moves(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// Whether the pseudo-legal `m` is legal: the position after it, by the variant's rule.
    fn is_legal_pseudo(&self, m: VariantMove) -> bool {
        let us = self.turn;
        let mut after = *self;
        after.play_unchecked(m);
        let b = &after.board;
        if V::ATOMIC {
            // Our king must survive; theirs gone wins; touching kings cannot be checked.
            let Some(king) = b.king_of(us) else {
                return false;
            };
            if b.king_of(us.other()).is_none() || after.kings_touch() {
                return true;
            }
            return attackers(b, us.other(), king, b.occupied()).is_empty();
        }
        if let Some(king) = b.king_of(us)
            && attackers(b, us.other(), king, b.occupied()).any()
        {
            return false;
        }
        if V::NO_CHECKS
            && let Some(king) = b.king_of(us.other())
            && attackers(b, us, king, b.occupied()).any()
        {
            return false;
        }
        true
    }

    /// Is any square of `path` attacked by the opponent through `occupied`, for a castling
    /// king? Antichess has no attack on kings; atomic ignores squares beside the enemy king.
    fn attacked_for_king(&self, mut path: Bitboard, occupied: Bitboard) -> bool {
        if V::ANTICHESS {
            return false;
        }
        let them = self.turn.other();
        if V::ATOMIC
            && let Some(k) = self.board.king_of(them)
        {
            path &= !king_attacks(k);
        }
        Iterator::any(&mut path, |sq| {
            attackers(&self.board, them, sq, occupied).any()
        })
    }

    /// The pseudo-legal moves (python-chess's `pseudo_legal_moves` of a variant board): how
    /// the men move, castling only where it is legal, drops on every empty square (pawns
    /// not on the back ranks); a move may leave the mover's king attacked or exploded.
    pub fn pseudo_legal_moves(&self) -> Vec<VariantMove> {
        let mut out = Vec::with_capacity(64);
        self.pseudo_legal_moves_into(&mut out);
        out
    }

    fn pseudo_legal_moves_into(&self, out: &mut Vec<VariantMove>) {
        let b = &self.board;
        let us = self.turn;
        let ours = b.by_color(us);
        let theirs = b.by_color(us.other());
        let occ = b.occupied();
        let push = |out: &mut Vec<VariantMove>, from, to, kind| {
            out.push(VariantMove::Board(Move::new(from, to, kind)));
        };

        for from in ours & !b.pawns() {
            let targets = match b.role_at(from) {
                Some(Role::Knight) => knight_attacks(from),
                Some(Role::Bishop) => bishop_attacks(from, occ),
                Some(Role::Rook) => rook_attacks(from, occ),
                Some(Role::Queen) => bishop_attacks(from, occ) | rook_attacks(from, occ),
                Some(Role::King) => king_attacks(from),
                _ => Bitboard::EMPTY,
            };
            for to in targets & !ours {
                push(out, from, to, MoveKind::Normal);
            }
        }

        let last_rank = Bitboard::from_rank(Rank::Eighth.relative_to(us));
        let forward: i32 = us.fold_wb(8, -8);
        for from in ours & b.pawns() {
            let mut targets = pawn_attacks(us, from) & theirs;
            if let Some(one) = from.offset(forward)
                && !occ.contains(one)
            {
                targets = targets.with(one);
                let double_from = from.rank() == Rank::Second.relative_to(us)
                    || (V::FIRST_RANK_PAWNS && from.rank() == Rank::First.relative_to(us));
                if double_from
                    && let Some(two) = one.offset(forward)
                    && !occ.contains(two)
                {
                    targets = targets.with(two);
                }
            }
            for to in targets {
                if last_rank.contains(to) {
                    for role in PROMOTIONS {
                        push(out, from, to, MoveKind::Promotion(role));
                        if V::ANTICHESS && role == Role::Queen {
                            push(out, from, to, MoveKind::Promotion(Role::King));
                        }
                    }
                } else {
                    push(out, from, to, MoveKind::Normal);
                }
            }
        }

        if let Some(ep) = self.ep_square
            && !occ.contains(ep)
        {
            let fifth = Bitboard::from_rank(Rank::Fifth.relative_to(us));
            for from in pawn_attacks(us.other(), ep) & ours & b.pawns() & fifth {
                push(out, from, ep, MoveKind::EnPassant);
            }
        }

        self.castling_moves(out);

        if V::DROPS {
            let empty = !occ;
            for role in [
                Role::Pawn,
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
            ] {
                if V::pocket_count(&self.state, us, role) == 0 {
                    continue;
                }
                let squares = if role == Role::Pawn {
                    empty & !Bitboard::BACKRANKS
                } else {
                    empty
                };
                for to in squares {
                    out.push(VariantMove::Drop { role, to });
                }
            }
        }
    }

    /// Castling as python-chess allows it: the right's king (not a promoted one) and rook in
    /// place, the squares both pass and land on empty but for themselves, and the king's
    /// path and destination not attacked (by the variant's notion of attack).
    fn castling_moves(&self, out: &mut Vec<VariantMove>) {
        let b = &self.board;
        let us = self.turn;
        if V::is_variant_end(self) {
            return;
        }
        for side in CastlingSide::ALL {
            let Some(c) = self.castling.castling(us, side) else {
                continue;
            };
            if !b.kings().contains(c.king_from)
                || !b.by_color(us).contains(c.king_from)
                || V::promoted(&self.state).contains(c.king_from)
                || !(b.rooks() & b.by_color(us)).contains(c.rook_from)
            {
                continue;
            }
            let king = Bitboard::from_square(c.king_from);
            let rook = Bitboard::from_square(c.rook_from);
            let occ = b.occupied();
            let king_to = Bitboard::from_square(c.king_to);
            let rook_to = Bitboard::from_square(c.rook_to);
            let king_path = between(c.king_from, c.king_to);
            let rook_path = between(c.rook_from, c.rook_to);
            let others = occ & !king & !rook;
            if (others & (king_path | rook_path | king_to | rook_to)).any() {
                continue;
            }
            if self.attacked_for_king(king_path | king, occ & !king) {
                continue;
            }
            let occ_after = Bitboard((occ ^ king ^ rook).0 | rook_to.0);
            if self.attacked_for_king(king_to, occ_after) {
                continue;
            }
            out.push(VariantMove::Board(Move::new(
                c.king_from,
                c.king_to,
                MoveKind::Castle,
            )));
        }
    }
}

//! The variants' moves in python-chess's generation order, for the Python package's
//! `shatranj.variant` boards: a seeded script (`random.choice(list(board.legal_moves))`)
//! replays the same variant game under shatranj and python-chess only if both list the
//! moves in the same order.
//!
//! The variants' generator (`variant::movegen`) lists moves piece by piece from a1; this
//! sorts them into python-chess's order, which is standard chess's (see `python_order`):
//!
//! 0. in check, where the variant has check and the standard evasions (king of the hill,
//!    three-check, horde, crazyhouse), the king's steps;
//! 1. the other piece moves, by origin, then destination, highest square first;
//! 2. castling, the rook on the higher square first;
//! 3. pawn captures, by origin, then destination;
//! 4. single pawn pushes, then 5. double pushes (horde's from the first rank too), by
//!    destination;
//! 6. en passant, by origin;
//! 7. drops (crazyhouse), pawn to queen, then by square from a1;
//!
//! with a promotion as consecutive moves: king (antichess), queen, rook, bishop, knight.
//! Atomic, antichess and racing kings filter the pseudo-legal list, so they have no
//! evasion group. Sorting costs a little over listing; the perft counts never sort.

use crate::castling::CastlingSide;
use crate::moves::Move;
use crate::variant::{Variant, VariantMove, VariantPosition};
use crate::{Role, Square};

/// A square's rank in python-chess's `scan_reversed` (h8 first).
fn reversed(sq: Square) -> u32 {
    63 - sq.index() as u32
}

fn promotion_rank(m: Move) -> u32 {
    match m.promotion() {
        None | Some(Role::King) => 0,
        Some(Role::Queen) => 1,
        Some(Role::Rook) => 2,
        Some(Role::Bishop) => 3,
        Some(_) => 4,
    }
}

impl<V: Variant> VariantPosition<V> {
    /// The legal moves in python-chess's order (see the module docs).
    pub fn legal_moves_python_order(&self) -> Vec<VariantMove> {
        let mut moves = self.legal_moves();
        self.sort_python_order(&mut moves);
        moves
    }

    /// The pseudo-legal moves in python-chess's order, without drops (python-chess's
    /// `pseudo_legal_moves` of a crazyhouse board lists none).
    pub fn pseudo_legal_moves_python_order(&self) -> Vec<VariantMove> {
        let mut moves = self.pseudo_legal_moves();
        moves.retain(|m| matches!(m, VariantMove::Board(_)));
        moves.sort_by_key(|&m| self.python_rank(m, false));
        moves
    }

    fn sort_python_order(&self, moves: &mut [VariantMove]) {
        let evading = !V::ANTICHESS && !V::ATOMIC && !V::NO_CHECKS && self.is_check();
        moves.sort_by_key(|&m| self.python_rank(m, evading));
    }

    /// The sort key: group, then up to three bytes of order within it.
    fn python_rank(&self, m: VariantMove, evading: bool) -> u32 {
        let key = |group: u32, a: u32, b: u32, c: u32| group << 24 | a << 16 | b << 8 | c;
        let mv = match m {
            VariantMove::Drop { role, to } => {
                return key(7, role.index() as u32, to.index() as u32, 0);
            }
            VariantMove::Board(mv) => mv,
        };
        let (from, to) = (mv.from(), mv.to());
        if mv.is_castle() {
            let side = CastlingSide::of_king_to(to);
            let rook = self
                .castling
                .rook_square(self.turn, side)
                .unwrap_or_else(|| side.rook_from(self.turn));
            return key(2, reversed(rook), 0, 0);
        }
        match self.board.role_at(from) {
            Some(Role::King) if evading => key(0, reversed(to), 0, 0),
            Some(Role::Pawn) => {
                if mv.is_en_passant() {
                    key(6, reversed(from), 0, 0)
                } else if from.file() != to.file() {
                    key(3, reversed(from), reversed(to), promotion_rank(mv))
                } else if from.index().abs_diff(to.index()) == 8 {
                    key(4, reversed(to), promotion_rank(mv), 0)
                } else {
                    key(5, reversed(to), 0, 0)
                }
            }
            _ => key(1, reversed(from), reversed(to), 0),
        }
    }
}

//! Static proofs that a side can never checkmate (R4.6, R4.9), built on what the `reach`
//! analysis shows can never move and where everything else can ever go. Each proof is one
//! function: it returns `true` only when the argument in its doc comment holds, and `false`
//! for "not proven" (never "a mate exists").
//!
//! Both proofs rest on three facts of the analysis: the fixed pawns never change; no man
//! stands anywhere outside its flooded region; and a square next to the loser's king region
//! but outside it is one the loser's king can never enter (a fixed pawn stands on it — the
//! loser's own, or the winner's and defended by a fixed pawn — or a fixed pawn attacks it).

use super::reach::{self, MAN_ROLES, Occupancy, Reach, Step};
use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use crate::{Bitboard, Color, Position, Role, Square};

/// **No check is ever possible.** A mate is a check, and a check needs the loser's king on a
/// square one of the winner's men (kings never give check) attacks. If no square the winner
/// could ever attack lies in the loser's king region, `winner` never mates.
///
/// This covers kings sealed in a sector no piece can reach or see into, pieces shut in
/// behind a locked wall, and bishops of one colour against a king whose every square is of
/// the other colour.
pub(crate) fn no_check_possible(reach: &Reach, winner: Color) -> bool {
    reach.attacks[winner.index()] & reach.king[winner.other().index()] == 0
}

/// **No mating square: the mate would need a second piece that cannot arrive.** Where checks
/// are possible (otherwise `no_check_possible` decides), a mate on square `x` of the loser's
/// king region needs one of the winner's men `i`, on some square `z` it can reach, attacking
/// `x`; and every flight square next to `x` that the king could ever stand on must be
/// attacked by the winner — by `i` from `z` itself, by the winner's king, or by another of
/// the winner's men — or occupied by one of the loser's men, a different man on each such
/// square, each one able to reach its square. If no (`x`, `i`, `z`) passes, `winner` never
/// mates.
///
/// This is the argument that a lone bishop or knight which gets past a wall cannot mate a
/// king with flights of both colours when the winner's king is locked out, and that the
/// loser's men cannot help where they can never stand, nor stand on two flights at once
/// (a king in the corner with one bishop of its own to block two squares).
pub(crate) fn no_mating_square(pos: &Position, reach: &Reach, winner: Color) -> bool {
    let loser = winner.other();
    let (w, l) = (winner.index(), loser.index());
    let region = reach.king[l];
    let checks = reach.attacks[w] & region;
    if checks == 0 {
        return false;
    }
    let board = pos.board();
    let mut men: [(Occupancy, u64); 16] = [([0; 5], 0); 16];
    let mut count = 0;
    let movers = board.by_color(winner).0 & !board.kings().0 & !reach.fixed;
    for sq in Bitboard(movers) {
        let Some(role) = board.role_at(sq) else {
            continue;
        };
        if count == men.len() {
            return false; // more men than a legal position holds: do not try
        }
        let occ = reach.man(winner, role, sq);
        men[count] = (occ, Reach::span_of(winner, &occ));
        count += 1;
    }
    let men = &men[..count];
    // What the winner covers without the checker: its king, its fixed pawns, the others.
    let fixed_pawns = reach.fixed & (board.pawns() & board.by_color(winner)).0;
    let base = Step::Any.from(reach.king[w]) | reach::pawn_attacks(winner, fixed_pawns);
    let mut blockers = Blockers::new(pos, reach, loser);
    for x in Bitboard(checks) {
        let flights = king_attacks(x).0 & region;
        for (i, (occ, span)) in men.iter().enumerate() {
            if span & Bitboard::from_square(x).0 == 0 {
                continue;
            }
            let others = men
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .fold(base, |acc, (_, (_, s))| acc | s);
            let need = flights & !others;
            for (r, &role) in MAN_ROLES.iter().enumerate() {
                let from = occ[r] & checking_squares(role, winner, x, reach.fixed);
                for z in Bitboard(from) {
                    let open = need & !attacks_from(role, winner, z, reach.fixed);
                    if blockers.can_fill(open) {
                        return false;
                    }
                }
            }
        }
    }
    true
}

/// The loser's men that might block flight squares, each with the squares it can reach.
struct Blockers<'a> {
    reach: &'a Reach,
    pos: &'a Position,
    color: Color,
    /// Each mobile man's squares; made when first needed.
    men: Option<Vec<u64>>,
}

impl<'a> Blockers<'a> {
    fn new(pos: &'a Position, reach: &'a Reach, color: Color) -> Blockers<'a> {
        Blockers {
            reach,
            pos,
            color,
            men: None,
        }
    }

    /// Can the squares of `need` all be occupied at once, by a different loser man each?
    /// (A matching of squares to men by augmenting paths; at most eight squares.)
    fn can_fill(&mut self, need: u64) -> bool {
        if need == 0 {
            return true;
        }
        let (reach, pos, color) = (self.reach, self.pos, self.color);
        let men = self.men.get_or_insert_with(|| {
            let board = pos.board();
            let movers = board.by_color(color).0 & !board.kings().0 & !reach.fixed;
            Bitboard(movers)
                .filter_map(|sq| {
                    let role = board.role_at(sq)?;
                    Some(reach.man(color, role, sq).iter().fold(0, |a, &b| a | b))
                })
                .collect()
        });
        let squares: Vec<Square> = Bitboard(need).collect();
        if squares.len() > men.len() {
            return false;
        }
        // owner[m]: the index of the square man m fills.
        let mut owner = vec![usize::MAX; men.len()];
        (0..squares.len()).all(|s| {
            let mut seen = vec![false; men.len()];
            augment(s, &squares, men, &mut owner, &mut seen)
        })
    }
}

/// Finds a man for square `s`, moving other squares' men along if need be (Kuhn's method).
fn augment(
    s: usize,
    squares: &[Square],
    men: &[u64],
    owner: &mut [usize],
    seen: &mut [bool],
) -> bool {
    let bit = Bitboard::from_square(squares[s]).0;
    for m in 0..men.len() {
        if men[m] & bit != 0 && !seen[m] {
            seen[m] = true;
            if owner[m] == usize::MAX || augment(owner[m], squares, men, owner, seen) {
                owner[m] = s;
                return true;
            }
        }
    }
    false
}

/// The squares from which a man of `role` and `color` attacks `x`, with only `fixed` in the
/// way (sliding rays are symmetric; a pawn attacks `x` from where an enemy pawn on `x`
/// would attack).
fn checking_squares(role: Role, color: Color, x: Square, fixed: u64) -> u64 {
    match role {
        Role::Pawn => crate::attacks::pawn_attacks(color.other(), x).0,
        _ => attacks_from(role, color, x, fixed),
    }
}

/// The squares a man of `role` and `color` on `z` attacks, with only `fixed` in the way.
fn attacks_from(role: Role, color: Color, z: Square, fixed: u64) -> u64 {
    let fixed = Bitboard(fixed);
    match role {
        Role::Pawn => crate::attacks::pawn_attacks(color, z).0,
        Role::Knight => knight_attacks(z).0,
        Role::Bishop => bishop_attacks(z, fixed).0,
        Role::Rook => rook_attacks(z, fixed).0,
        Role::Queen => (bishop_attacks(z, fixed) | rook_attacks(z, fixed)).0,
        Role::King => king_attacks(z).0,
    }
}

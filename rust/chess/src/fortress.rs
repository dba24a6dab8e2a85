//! Static proofs that a side can never checkmate because the pawns are locked for good
//! (R4.6, R4.9): the "blocked pawn wall" positions that material counting misses.
//!
//! The proof over-approximates everything that moves, so it is sound: when it says "never",
//! no series of legal moves leads to a mate by that side. It holds when
//!
//! 1. every pawn has a pawn of either colour straight in front of it (so no pawn ever
//!    pushes or promotes, doubled pawns behind a locked pair included) and no pawn attacks
//!    an enemy pawn;
//! 2. no piece can ever capture a pawn or be captured by one: each piece's reach is flooded
//!    through every square a pawn does not occupy (other pieces move, so they are ignored);
//!    a king only floods through squares no enemy pawn attacks (it may never stand there), and
//!    may only fail to capture pawns that another pawn defends;
//! 3. so the pawns never change, and the only possible checks come from pieces; a side can
//!    never give check if no square any of its pieces could ever attack lies in the region
//!    the enemy king can ever reach.
//!
//! Kings that cannot cross the wall, and bishops or knights shut in on their own side, are
//! covered by (2) and (3).

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::{Bitboard, Color, Position, Role, Square};

/// Is it proven that `color` can never give check, hence never checkmate, from `pos`?
/// `false` means "not proven", never "a mate exists".
pub(crate) fn pawn_wall_stops_mate(pos: &Position, color: Color) -> bool {
    let b = pos.board();
    let white_pawns = b.pawns() & b.by_color(Color::White);
    let black_pawns = b.pawns() & b.by_color(Color::Black);
    let pawns = b.pawns();
    if pawns.is_empty() || pos.is_check() || pos.legal_ep_square().is_some() {
        return false;
    }
    // (1) Every pawn has a pawn straight in front of it (pawns never stand on the last rank).
    // Pawns of either colour block: no pawn is ever captured (checked below), so the first
    // pawn to move would need an empty square in front of it, and none ever moves.
    let fronts = Bitboard(white_pawns.0 << 8) | Bitboard(black_pawns.0 >> 8);
    if (fronts & !pawns).any() {
        return false;
    }
    let white_attacks = pawn_span(Color::White, white_pawns);
    let black_attacks = pawn_span(Color::Black, black_pawns);
    if white_attacks.intersects(black_pawns) || black_attacks.intersects(white_pawns) {
        return false;
    }
    // (2) For each side: the region its king can reach, and every square its pieces could
    // ever attack; give up as soon as some piece could break the wall.
    let mut king_region = [Bitboard::EMPTY; 2];
    let mut piece_span = [Bitboard::EMPTY; 2];
    for side in Color::ALL {
        let (enemy_pawns, enemy_attacks) = match side {
            Color::White => (black_pawns, black_attacks),
            Color::Black => (white_pawns, white_attacks),
        };
        for sq in b.by_color(side) & !pawns {
            let Some(role) = b.role_at(sq) else { continue };
            if role == Role::King {
                let region = flood(Role::King, sq, !pawns & !enemy_attacks, pawns);
                let reach = span(Role::King, region, pawns);
                if (reach & enemy_pawns & !enemy_attacks).any() {
                    return false; // the king could eat an undefended pawn
                }
                king_region[side.index()] = region;
            } else {
                let region = flood(role, sq, !pawns, pawns);
                let reach = span(role, region, pawns);
                if region.intersects(enemy_attacks) || reach.intersects(enemy_pawns) {
                    return false; // a pawn could take it, or it could take a pawn
                }
                piece_span[side.index()] |= reach;
            }
        }
    }
    // (3) No check is ever possible from `color`'s pieces.
    !piece_span[color.index()].intersects(king_region[color.other().index()])
}

/// Every square the pawns of `color` attack.
fn pawn_span(color: Color, pawns: Bitboard) -> Bitboard {
    pawns.fold(Bitboard::EMPTY, |acc, sq| acc | pawn_attacks(color, sq))
}

/// The squares `role` attacks from `sq`, with only the pawns in the way.
fn attacks_of(role: Role, sq: Square, pawns: Bitboard) -> Bitboard {
    match role {
        Role::King => king_attacks(sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, pawns),
        Role::Rook => rook_attacks(sq, pawns),
        Role::Queen => bishop_attacks(sq, pawns) | rook_attacks(sq, pawns),
        Role::Pawn => Bitboard::EMPTY,
    }
}

/// Every square `role` attacks from some square of `region`.
fn span(role: Role, region: Bitboard, pawns: Bitboard) -> Bitboard {
    region.fold(Bitboard::EMPTY, |acc, sq| acc | attacks_of(role, sq, pawns))
}

/// The squares `role` can ever reach from `start` moving only through `allowed`.
fn flood(role: Role, start: Square, allowed: Bitboard, pawns: Bitboard) -> Bitboard {
    let mut region = Bitboard::from_square(start);
    let mut frontier = region;
    while frontier.any() {
        let next = span(role, frontier, pawns) & allowed & !region;
        region |= next;
        frontier = next;
    }
    region
}

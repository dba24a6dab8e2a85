//! Static exchange evaluation: does a capture sequence on one square win material?

use crate::search::params::SEE_VALUE;
use shatranj_chess::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use shatranj_chess::{Bitboard, Color, Move, MoveKind, Position, Role, Square};

fn value(role: Role) -> i32 {
    SEE_VALUE[role.index()]
}

/// Every piece of either colour attacking `sq` through `occupied`.
fn attackers_to(pos: &Position, sq: Square, occupied: Bitboard) -> Bitboard {
    let b = pos.board();
    let white = b.by_color(Color::White);
    let black = b.by_color(Color::Black);
    let pawns = b.pawns();
    (pawn_attacks(Color::Black, sq) & pawns & white)
        | (pawn_attacks(Color::White, sq) & pawns & black)
        | (knight_attacks(sq) & b.knights())
        | (king_attacks(sq) & b.kings())
        | (bishop_attacks(sq, occupied) & b.diagonal_sliders())
        | (rook_attacks(sq, occupied) & b.orthogonal_sliders())
}

/// The material a move gains at once, before any recapture.
pub fn capture_gain(pos: &Position, m: Move) -> i32 {
    let captured = match m.kind() {
        MoveKind::EnPassant => value(Role::Pawn),
        MoveKind::Castle => 0,
        _ => pos.board().role_at(m.to()).map_or(0, value),
    };
    match m.promotion() {
        Some(r) => captured + value(r) - value(Role::Pawn),
        None => captured,
    }
}

/// Is the static exchange value of the legal move `m` at least `threshold`? Both sides
/// recapture on the destination with their least valuable attacker (x-rays included; pins
/// ignored) and may stop whenever continuing would lose.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.is_castle() {
        return 0 >= threshold;
    }
    let b = pos.board();
    let from = m.from();
    let to = m.to();
    let mut swap = capture_gain(pos, m) - threshold;
    if swap < 0 {
        return false;
    }
    let moved = match m.promotion() {
        Some(r) => r,
        None => match b.role_at(from) {
            Some(r) => r,
            None => return false,
        },
    };
    swap = value(moved) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = b.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
    if m.is_en_passant()
        && let Some(cap) = Square::new(to.index() as u32 ^ 8)
    {
        occupied ^= Bitboard::from_square(cap);
    }
    let mut attackers = attackers_to(pos, to, occupied);
    let mut stm = pos.turn();
    let mut res = 1;
    loop {
        stm = stm.other();
        attackers &= occupied;
        let ours = attackers & b.by_color(stm);
        if ours.is_empty() {
            break;
        }
        res ^= 1;
        let mut lowest = None;
        for role in Role::ALL {
            let set = ours & b.by_role(role);
            if let Some(sq) = set.first() {
                lowest = Some((role, sq));
                break;
            }
        }
        let Some((role, sq)) = lowest else { break };
        if role == Role::King {
            // The king may take last only if nothing defends the square.
            if (attackers & b.by_color(stm.other())).any() {
                res ^= 1;
            }
            break;
        }
        swap = value(role) - swap;
        if swap < res {
            break;
        }
        occupied ^= Bitboard::from_square(sq);
        // Uncover sliders behind the piece that just captured.
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occupied) & b.diagonal_sliders();
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occupied) & b.orthogonal_sliders();
        }
    }
    res == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use shatranj_chess::uci::parse_uci;

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let pos: Position = fen.parse().unwrap();
        let m = parse_uci(&pos, uci).unwrap();
        see_ge(&pos, m, threshold)
    }

    #[test]
    fn exchanges() {
        // Pawn takes an undefended knight: +knight.
        let fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
        assert!(see(fen, "e4d5", SEE_VALUE[1]));
        assert!(!see(fen, "e4d5", SEE_VALUE[1] + 1));
        // Queen takes a pawn defended by a pawn: loses the queen for a pawn.
        let fen = "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1";
        assert!(!see(fen, "d1d5", 0));
        // Rook takes a rook defended by a rook, with a second rook behind (x-ray): even.
        let fen = "3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d7", 0));
        assert!(!see(fen, "d2d7", 1));
    }
}

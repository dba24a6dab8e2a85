//! The common SAN forms resolved without listing every legal move: a piece move (`Nf3`,
//! `Rae1`, `Qxd5+`) and a pawn push or capture without promotion (`e4`, `exd5`). Movetext of a
//! database is almost all of these, and generating all legal moves per ply to find one was
//! the reader's largest cost.
//!
//! The answer is only ever a move [`crate::san::parse_san`] would also return: anything
//! unusual (castling, king moves, promotions, en passant, lenient spellings, double check, a
//! text that names no legal move or is ambiguous) gives `None`, and the caller asks
//! `parse_san`, which also words the error.

use crate::attacks::between;
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Role, Square};

fn square(file: u8, rank: u8) -> Option<Square> {
    if (b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank) {
        Square::new(u32::from(rank - b'1') * 8 + u32::from(file - b'a'))
    } else {
        None
    }
}

/// Where a non-king piece of the side to move may go without leaving its king in check:
/// `None` in double check (only the king may move; left to the full path).
fn evasion_mask(pos: &Position) -> Option<Bitboard> {
    let checkers = pos.checkers();
    if checkers.more_than_one() {
        return None;
    }
    Some(match checkers.single_square() {
        None => Bitboard::FULL,
        Some(checker) => between(pos.king(pos.turn()), checker).with(checker),
    })
}

/// The one legal move among `froms` to `to`, if exactly one is legal.
fn only_legal(pos: &Position, froms: Bitboard, to: Square) -> Option<Move> {
    let allowed = evasion_mask(pos)?;
    if !allowed.contains(to) {
        return None;
    }
    let us = pos.turn();
    let mut found = None;
    for from in froms {
        if pos.pin_mask(us, from).contains(to) {
            if found.is_some() {
                return None;
            }
            found = Some(Move::normal(from, to));
        }
    }
    found
}

/// The move `text` names, for the forms this module knows; `None` otherwise.
pub(crate) fn resolve(pos: &Position, text: &str) -> Option<Move> {
    let bytes = text.as_bytes();
    let end = bytes
        .iter()
        .rposition(|&b| b != b'+' && b != b'#')
        .map_or(0, |i| i + 1);
    let b = &bytes[..end];
    if b.len() < 2 {
        return None;
    }
    let to = square(b[b.len() - 2], b[b.len() - 1])?;
    let us = pos.turn();
    let board = pos.board();
    let ours = board.by_color(us);
    if ours.contains(to) {
        return None;
    }
    let role = match b[0] {
        b'N' => Role::Knight,
        b'B' => Role::Bishop,
        b'R' => Role::Rook,
        b'Q' => Role::Queen,
        b'a'..=b'h' => return pawn(pos, b, to),
        _ => return None,
    };
    // Between the letter and the square: an origin file and/or rank, then `x`, each optional.
    let mut mid = &b[1..b.len() - 2];
    if let [rest @ .., b'x'] = mid {
        mid = rest;
    }
    let mut froms = pos.attackers(us, to) & board.by_role(role) & ours;
    match mid {
        [] => {}
        [f @ b'a'..=b'h'] => froms &= Bitboard::from_file(square(*f, b'1')?.file()),
        [r @ b'1'..=b'8'] => froms &= Bitboard::from_rank(square(b'a', *r)?.rank()),
        [f, r] => froms &= Bitboard::from_square(square(*f, *r)?),
        _ => return None,
    }
    only_legal(pos, froms, to)
}

fn pawn(pos: &Position, b: &[u8], to: Square) -> Option<Move> {
    let us = pos.turn();
    let board = pos.board();
    let (step, last_rank, double_rank) = match us {
        Color::White => (8i32, 7u32, 3u32),
        Color::Black => (-8i32, 0u32, 4u32),
    };
    let to_rank = to.index() as u32 / 8;
    if to_rank == last_rank {
        return None;
    }
    let our_pawns = board.by_color(us) & board.by_role(Role::Pawn);
    let occupied = board.occupied();
    match b {
        [_, _] => {
            if occupied.contains(to) {
                return None;
            }
            let one = to.offset(-step)?;
            let from = if our_pawns.contains(one) {
                one
            } else if !occupied.contains(one) && to_rank == double_rank {
                let two = one.offset(-step)?;
                if !our_pawns.contains(two) {
                    return None;
                }
                two
            } else {
                return None;
            };
            only_legal(pos, Bitboard::from_square(from), to)
        }
        [f, b'x', _, _] => {
            // A plain capture: the square holds an enemy piece (en passant goes the full way).
            if !board.by_color(us.other()).contains(to) {
                return None;
            }
            let file = u32::from(f - b'a');
            let to_file = to.index() as u32 % 8;
            if file.abs_diff(to_file) != 1 {
                return None;
            }
            let from_rank = (to_rank as i32 - step / 8) as u32;
            let from = Square::new(from_rank * 8 + file)?;
            if !our_pawns.contains(from) {
                return None;
            }
            only_legal(pos, Bitboard::from_square(from), to)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::san::parse_san;

    /// Every legal move's SAN (and lenient spellings) resolves to what parse_san gives, or to
    /// nothing, over the positions of random games (fixed seed).
    #[test]
    fn agrees_with_parse_san() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut resolved = 0;
        for _game in 0..200 {
            let mut pos = Position::new();
            for _ply in 0..120 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                for &m in legal.iter() {
                    let san = crate::san::to_san(&pos, m);
                    let uci = m.to_uci();
                    for text in [
                        san.clone(),
                        format!("{san}+"),
                        uci[..2].to_owned() + &uci[2..4],
                    ] {
                        if let Some(fast) = resolve(&pos, &text) {
                            assert_eq!(Ok(fast), parse_san(&pos, &text), "{text} in {}", pos.fen());
                            resolved += 1;
                        }
                    }
                }
                // Texts that name no legal move must not resolve.
                for text in ["Nxe9", "Qh9", "e5", "exf3", "Rbb1", "Kf3"] {
                    if let Some(fast) = resolve(&pos, text) {
                        assert_eq!(Ok(fast), parse_san(&pos, text), "{text} in {}", pos.fen());
                    }
                }
                let m = legal.as_slice()[(next() % legal.len() as u64) as usize];
                pos.play_unchecked(m);
            }
        }
        assert!(resolved > 10_000, "{resolved}");
    }
}

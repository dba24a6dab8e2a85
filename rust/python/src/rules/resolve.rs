//! How python-chess reads a `Move` (origin, destination, promotion) in a position: which
//! moves castle (including king-takes-rook, `e1h1`), which capture en passant, and the
//! rules-crate move a Python key denotes; and how a rules-crate move is written back as a
//! key. A board's `chess960` flag changes only castling: python-chess's Chess960 board holds
//! it as the king taking its own rook (`b1a1`, and `e1h1` from the standard start), where
//! the rules crate keeps the king's destination (`b1c1`).

use crate::rules::moves;
use shatranj_chess::{CastlingSide, File, MoveKind, Position, Square};

/// `e1h1` style castling (king onto its own rook) as the key of the king's two-step move:
/// only from the king's original square and with that castling right, as python-chess's
/// standard chess reads it.
pub fn castling_alias(pos: &Position, key: u16) -> Option<u16> {
    let (from, to) = (moves::from_square(key), moves::to_square(key));
    let us = pos.turn();
    let b = pos.board();
    let ours = b.by_color(us);
    if moves::promotion(key).is_some()
        || from != us.fold_wb(Square::E1, Square::E8)
        || !(b.kings() & ours).contains(from)
    {
        return None;
    }
    CastlingSide::ALL
        .into_iter()
        .find(|&side| {
            to == side.rook_from(us)
                && (b.rooks() & ours).contains(to)
                && pos.castling_rights().has(us, side)
        })
        .map(|side| moves::make_key(from, side.king_to(us), None))
}

/// A Python key read as a rules-crate move in `pos`: castling and en passant get their kind
/// from the position, as python-chess infers them.
pub fn resolve(pos: &Position, key: u16) -> shatranj_chess::Move {
    let (from, to) = (moves::from_square(key), moves::to_square(key));
    if let Some(role) = moves::promotion(key) {
        return shatranj_chess::Move::new(from, to, MoveKind::Promotion(role));
    }
    if is_castling(pos, key) {
        let key = castling_alias(pos, key).unwrap_or(key);
        return shatranj_chess::Move::new(from, moves::to_square(key), MoveKind::Castle);
    }
    if is_en_passant(pos, key) {
        return shatranj_chess::Move::new(from, to, MoveKind::EnPassant);
    }
    shatranj_chess::Move::normal(from, to)
}

/// python-chess's `is_castling`: a king moving two files, or onto a rook of its own colour.
pub fn is_castling(pos: &Position, key: u16) -> bool {
    let (from, to) = (moves::from_square(key), moves::to_square(key));
    let b = pos.board();
    if !b.kings().contains(from) {
        return false;
    }
    let files = from.file().index().abs_diff(to.file().index());
    files > 1 || (b.rooks() & b.by_color(pos.turn())).contains(to)
}

/// python-chess's `is_en_passant`: a pawn moving diagonally onto the empty en-passant square.
pub fn is_en_passant(pos: &Position, key: u16) -> bool {
    let (from, to) = (moves::from_square(key), moves::to_square(key));
    pos.ep_square() == Some(to)
        && pos.board().pawns().contains(from)
        && matches!(to.index().abs_diff(from.index()), 7 | 9)
        && !pos.board().occupied().contains(to)
}

/// The Python key of `m`, a legal move of `pos`, on a board in `chess960` mode or not:
/// Chess960 castling is the king taking its own rook.
#[inline]
pub fn key_in(pos: &Position, m: shatranj_chess::Move, chess960: bool) -> u16 {
    // The flag and the move's own castle bit first: the position is read for castlings only.
    if chess960
        && m.is_castle()
        && let Some(rook) = pos.castling_rook(m)
    {
        return moves::make_key(m.from(), rook, None);
    }
    moves::key_of(m)
}

/// A Python key read as a rules-crate move of `pos` on a Chess960 board, or `None` for a
/// drop. Castling is the king onto the rook of a castling right, or, as python-chess's
/// `_to_chess960` reads it, the king's two-square move from e1/e8 with no rook on g/c
/// (`e1g1` for `e1h1`); a king move one file over stays a king move (`b1c1` beside `b1a1`).
pub fn resolve_960(pos: &Position, key: u16) -> Option<shatranj_chess::Move> {
    if moves::drop_of(key).is_some() {
        return None;
    }
    let (from, to) = (moves::from_square(key), moves::to_square(key));
    if let Some(role) = moves::promotion(key) {
        return Some(shatranj_chess::Move::new(
            from,
            to,
            MoveKind::Promotion(role),
        ));
    }
    let us = pos.turn();
    let b = pos.board();
    if (b.kings() & b.by_color(us)).contains(from) {
        let rook = king_takes_rook(pos, from, to);
        for side in CastlingSide::ALL {
            if pos.castling_rights().rook_square(us, side) == Some(rook) {
                return Some(shatranj_chess::Move::new(
                    from,
                    side.king_to(us),
                    MoveKind::Castle,
                ));
            }
        }
    }
    if is_en_passant(pos, key) {
        return Some(shatranj_chess::Move::new(from, to, MoveKind::EnPassant));
    }
    Some(shatranj_chess::Move::normal(from, to))
}

/// python-chess's `_to_chess960`: the king's two-square move from e1/e8 onto g/c without a
/// rook there, as the king taking the corner rook; any other destination unchanged.
fn king_takes_rook(pos: &Position, from: Square, to: Square) -> Square {
    if from != Square::E1 && from != Square::E8 {
        return to;
    }
    let rank = from.rank();
    for (king_to, rook) in [(File::G, File::H), (File::C, File::A)] {
        if to == Square::from_coords(king_to, rank) && !pos.board().rooks().contains(to) {
            return Square::from_coords(rook, rank);
        }
    }
    to
}

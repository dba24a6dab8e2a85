//! How python-chess reads a `Move` (origin, destination, promotion) in a position: which
//! moves castle (including king-takes-rook, `e1h1`), which capture en passant, and the
//! rules-crate move a Python key denotes.

use crate::moves;
use shatranj_chess::{CastlingSide, MoveKind, Position, Square};

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

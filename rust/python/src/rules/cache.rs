//! `PlyMoves`: the legal moves of one position, with an index for `push`'s legality check.
//!
//! `push(move)` must find the legal move a Python key denotes; scanning the list costs more
//! than the rest of `push`. The index holds, per origin square, the destinations of the legal
//! moves, so the check is one bit test; the move's kind (castling, en passant, promotion)
//! then follows from the position (`resolve`), and the promotion piece is checked against
//! the pawn and the rank.

use crate::rules::moves;
use shatranj_chess::{Bitboard, Move, MoveList, Position, Role};

pub struct PlyMoves {
    pub list: MoveList,
    targets: [Bitboard; 64],
}

impl PlyMoves {
    pub fn new(pos: &Position) -> PlyMoves {
        let list = pos.legal_moves();
        let mut targets = [Bitboard::EMPTY; 64];
        for m in &list {
            targets[m.from().index()] = targets[m.from().index()].with(m.to());
        }
        PlyMoves { list, targets }
    }

    /// The legal move with Python key `key` in `pos` (the position this list was made for).
    #[inline]
    pub fn find(&self, pos: &Position, key: u16) -> Option<Move> {
        let (from, to) = (moves::from_square(key), moves::to_square(key));
        if !self.targets[from.index()].contains(to) {
            // Castling written king-takes-rook (`e1h1`) is never a target (the king cannot
            // land on its own rook), so the alias is only looked up for keys that miss.
            let alias = crate::rules::resolve::castling_alias(pos, key)?;
            let (from, to) = (moves::from_square(alias), moves::to_square(alias));
            return self.targets[from.index()]
                .contains(to)
                .then(|| crate::rules::resolve::resolve(pos, alias));
        }
        if !promotion_fits(pos, key) {
            return None;
        }
        let m = crate::rules::resolve::resolve(pos, key);
        debug_assert!(self.list.contains(&m), "{m} resolved from a legal key");
        Some(m)
    }

    /// [`find`](Self::find) on a Chess960 board: the key read as python-chess's Chess960
    /// board reads it. A king's move is looked up in the list (the index cannot tell a
    /// castling from a king move to the same square: `b1c1` is both in Chess960); any other
    /// piece's by the index, as `find` does, since its key names one move at most.
    #[inline]
    pub fn find_960(&self, pos: &Position, key: u16) -> Option<Move> {
        let m = crate::rules::resolve::resolve_960(pos, key)?;
        if pos.board().kings().contains(m.from()) {
            return self.list.contains(&m).then_some(m);
        }
        let found = self.targets[m.from().index()].contains(m.to()) && promotion_fits(pos, key);
        debug_assert_eq!(found, self.list.contains(&m), "{m} by the index");
        found.then_some(m)
    }
}

/// Whether a key from a legal move's origin to its destination names a promotion exactly
/// when the move promotes (a pawn of the side to move reaching the last rank), and then a
/// piece a pawn may become.
#[inline]
fn promotion_fits(pos: &Position, key: u16) -> bool {
    let (from, to) = (moves::from_square(key), moves::to_square(key));
    let b = pos.board();
    let us = pos.turn();
    let pawn = (b.pawns() & b.by_color(us)).contains(from);
    let promotes = pawn && to.rank() == us.other().back_rank();
    match moves::promotion(key) {
        Some(Role::Knight | Role::Bishop | Role::Rook | Role::Queen) => promotes,
        None => !promotes,
        _ => false,
    }
}

//! Moves in python-chess's generation order, for the Python package: a seeded script
//! (`random.choice(list(board.legal_moves))`) replays the same game under shatranj and
//! python-chess only if both list the moves in the same order.
//!
//! python-chess scans its bitboards from h8 down (`scan_reversed`) and lists
//!
//! 1. in check, the king's steps (its evasions generator starts with them);
//! 2. the other piece moves (the king's too, out of check), by origin, then destination;
//! 3. castling, h-side first (it scans the castling rooks);
//! 4. pawn captures, by origin, then destination;
//! 5. single pawn pushes, then 6. double pushes, each by destination;
//! 7. en passant, by origin;
//!
//! with a promotion as four moves in a row: queen, rook, bishop, knight. Its evasions list
//! the rest in the same order (castling is never legal in check), so one order serves both.
//!
//! The legal generator (`movegen`) reports moves by piece kind and pawns set-wise; the
//! `ScanOrder` visitor files what it reports into bitboards (one per origin where the order
//! needs it) and reads them back highest square first. perft and the search keep their own
//! visitors and order; this one costs a few instructions per move on top of listing them.

use crate::bitboard::Bitboard;
use crate::dispatch;
use crate::movegen::{self, Visitor, from_offset};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::{Role, Square};

/// Collects moves, then lists them in python-chess's order (see the module docs).
pub(crate) struct ScanOrder {
    /// Destinations by origin, for pieces and for capturing pawns (their origins differ).
    targets: [u64; 64],
    /// Origins of piece moves with destinations in `targets`.
    movers: u64,
    /// Origins of pawn captures with destinations in `targets`.
    capturers: u64,
    /// In check, the king's square; its steps are listed first. `None` out of check.
    evading_king: Option<Square>,
    king_steps: u64,
    castle_from: Option<Square>,
    /// Destinations of castling moves.
    castles: u64,
    /// Destinations of single and double pawn pushes.
    singles: u64,
    doubles: u64,
    /// Pawns that may capture en passant, onto `ep_to`.
    en_passant: u64,
    ep_to: Option<Square>,
    /// Origin minus destination of a single push (8 for White).
    push_back: i32,
}

/// Squares of `bb`, highest first.
#[inline(always)]
fn descending(mut bb: u64) -> impl Iterator<Item = Square> {
    core::iter::from_fn(move || {
        (bb != 0).then(|| {
            let sq = bb.ilog2();
            bb ^= 1 << sq;
            Square::from_index_masked(sq)
        })
    })
}

impl ScanOrder {
    /// For the moves of `pos`; `evasions`: these are the legal moves of a side in check.
    pub(crate) fn new(pos: &Position, evasions: bool) -> ScanOrder {
        let us = pos.turn();
        ScanOrder {
            targets: [0; 64],
            movers: 0,
            capturers: 0,
            evading_king: if evasions { Some(pos.king(us)) } else { None },
            king_steps: 0,
            castle_from: None,
            castles: 0,
            singles: 0,
            doubles: 0,
            en_passant: 0,
            ep_to: None,
            push_back: if us.is_white() { -8 } else { 8 },
        }
    }

    /// A non-pawn piece on `from` may move to each square of `to`.
    #[inline(always)]
    pub(crate) fn add_piece(&mut self, role: Role, from: Square, to: Bitboard) {
        if role == Role::King && self.evading_king == Some(from) {
            self.king_steps |= to.0;
        } else {
            self.targets[from.index()] |= to.0;
            self.movers |= 1 << from.index();
        }
    }

    /// The pawn on `from` may capture on each square of `to` (promotions included).
    #[inline(always)]
    pub(crate) fn add_pawn_captures(&mut self, from: Square, to: Bitboard) {
        self.targets[from.index()] |= to.0;
        self.capturers |= 1 << from.index();
    }

    /// Pawn moves onto `to` from `to + from_offset`, as the generator reports them.
    #[inline(always)]
    fn add_pawns(&mut self, to: Bitboard, offset: i32) {
        match offset.abs() {
            8 => self.singles |= to.0,
            16 => self.doubles |= to.0,
            _ => {
                for t in to {
                    self.add_pawn_captures(from_offset(t, offset), Bitboard::from_square(t));
                }
            }
        }
    }

    /// Single and double pushes onto the squares of `singles` and `doubles`.
    #[inline(always)]
    pub(crate) fn add_pushes(&mut self, singles: Bitboard, doubles: Bitboard) {
        self.singles |= singles.0;
        self.doubles |= doubles.0;
    }

    #[inline(always)]
    pub(crate) fn add_en_passant(&mut self, from: Square, to: Square) {
        self.en_passant |= 1 << from.index();
        self.ep_to = Some(to);
    }

    #[inline(always)]
    pub(crate) fn add_castle(&mut self, from: Square, to: Square) {
        self.castles |= 1 << to.index();
        self.castle_from = Some(from);
    }

    /// Calls `f` with each move collected, in python-chess's order.
    #[inline(always)]
    pub(crate) fn emit(&self, mut f: impl FnMut(Move)) {
        if let Some(king) = self.evading_king {
            for to in descending(self.king_steps) {
                f(Move::normal(king, to));
            }
        }
        for from in descending(self.movers) {
            for to in descending(self.targets[from.index()]) {
                f(Move::normal(from, to));
            }
        }
        if let Some(from) = self.castle_from {
            for to in descending(self.castles) {
                f(Move::new(from, to, MoveKind::Castle));
            }
        }
        for from in descending(self.capturers) {
            for to in descending(self.targets[from.index()]) {
                pawn_move(&mut f, from, to);
            }
        }
        for to in descending(self.singles) {
            pawn_move(&mut f, from_offset(to, self.push_back), to);
        }
        for to in descending(self.doubles) {
            f(Move::normal(from_offset(to, 2 * self.push_back), to));
        }
        if let Some(ep) = self.ep_to {
            for from in descending(self.en_passant) {
                f(Move::new(from, ep, MoveKind::EnPassant));
            }
        }
    }
}

/// A pawn move; onto the first or last rank, its four promotions.
#[inline(always)]
fn pawn_move(f: &mut impl FnMut(Move), from: Square, to: Square) {
    if matches!(to.index() >> 3, 0 | 7) {
        for role in Role::PROMOTIONS {
            f(Move::new(from, to, MoveKind::Promotion(role)));
        }
    } else {
        f(Move::normal(from, to));
    }
}

impl Visitor for ScanOrder {
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, to: Bitboard) {
        self.add_piece(role, from, to);
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, from_offset: i32) {
        self.add_pawns(to, from_offset);
    }
    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, from_offset: i32) {
        // The four moves are made when listing, from the destination's rank.
        self.add_pawns(to, from_offset);
    }
    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.add_en_passant(from, to);
    }
    #[inline(always)]
    fn castle(&mut self, from: Square, to: Square) {
        self.add_castle(from, to);
    }
}

impl Position {
    /// Calls `f` with each legal move (as [`Position::legal_moves`] lists them) in
    /// python-chess's order: see the module docs of `python_order`.
    #[inline]
    pub fn for_each_legal_move_python_order(&self, f: impl FnMut(Move)) {
        let us = self.turn();
        // Attacks on the king alone: cheaper than `is_check`, which also finds the pins.
        let in_check = self.is_attacked_by(us.other(), self.king(us));
        let mut order = ScanOrder::new(self, in_check);
        dispatch!(S => movegen::generate::<S, _>(self, &mut order));
        order.emit(f);
    }

    /// The legal moves in python-chess's order.
    pub fn legal_moves_python_order(&self) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_legal_move_python_order(|m| list.push(m));
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ucis(fen: &str) -> Vec<String> {
        let pos: Position = fen.parse().unwrap();
        let ordered: Vec<String> = pos
            .legal_moves_python_order()
            .iter()
            .map(|m| m.to_uci())
            .collect();
        let mut sorted = ordered.clone();
        sorted.sort();
        let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_uci()).collect();
        legal.sort();
        assert_eq!(sorted, legal, "the same moves as legal_moves: {fen}");
        ordered
    }

    /// Lists written down from python-chess 1.11.2's `list(board.legal_moves)`.
    #[test]
    fn lists_as_python_chess_does() {
        let cases = [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "e5f7 e5d7 e5g6 e5c6 e5g4 e5c4 e5d3 f3f6 f3h5 f3f5 f3g4 f3f4 f3h3 f3g3 f3e3 f3d3 c3b5 \
                 c3a4 c3d1 c3b1 e2a6 e2b5 e2c4 e2d3 e2f1 e2d1 d2h6 d2g5 d2f4 d2e3 d2c1 h1g1 h1f1 e1f1 \
                 e1d1 a1d1 a1c1 a1b1 e1g1 e1c1 d5e6 g2h3 d5d6 g2g3 b2b3 a2a3 g2g4 a2a4",
            ),
            // In check: the king's steps first; a block by a double push last.
            (
                "4k3/8/8/b7/8/8/1PP2P2/RN2K1NR w KQ - 0 1",
                "e1e2 e1f1 e1d1 b1c3 b1d2 a1a5 c2c3 b2b4",
            ),
            // Promotions: captures, then pushes, queen first.
            (
                "1r2k1n1/P1P3PP/8/8/8/8/p1p3pp/1R2K1N1 w - - 0 1",
                "g1h3 g1f3 g1e2 e1f2 e1e2 e1d2 b1b8 b1b7 b1b6 b1b5 b1b4 b1b3 b1b2 b1d1 b1c1 b1a1 \
                 h7g8q h7g8r h7g8b h7g8n c7b8q c7b8r c7b8b c7b8n a7b8q a7b8r a7b8b a7b8n h7h8q h7h8r \
                 h7h8b h7h8n c7c8q c7c8r c7c8b c7c8n a7a8q a7a8r a7a8b a7a8n",
            ),
            // En passant out of check, after the king's steps.
            (
                "8/8/8/4k3/2pP4/8/8/4K3 b - d3 0 1",
                "e5f6 e5e6 e5d6 e5f5 e5d5 e5f4 e5e4 e5d4 c4d3",
            ),
        ];
        for (fen, expected) in cases {
            assert_eq!(ucis(fen).join(" "), expected, "{fen}");
        }
    }
}

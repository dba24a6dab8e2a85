//! Pseudo-legal moves: moves that follow how the pieces move (R3.1–R3.8) but may leave the
//! mover's own king in check, as python-chess's `pseudo_legal_moves` lists them. Castling
//! is only listed when fully legal, as python-chess does. Not used by the legal generator
//! (which never makes illegal moves); this exists for tools written against python-chess.

use super::python_order::ScanOrder;
use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::moves::MoveList;
use crate::position::Position;
use crate::{Rank, Role};

impl Position {
    /// Every pseudo-legal move (see the module docs), in python-chess's order (see
    /// `python_order`).
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let b = self.board();
        let us = self.turn();
        let ours = b.by_color(us);
        let theirs = b.by_color(us.other());
        let occupied = b.occupied();
        let mut order = ScanOrder::new(self, false);
        for from in b.knights() & ours {
            order.add_piece(Role::Knight, from, knight_attacks(from) & !ours);
        }
        for from in (b.bishops() | b.queens()) & ours {
            order.add_piece(Role::Bishop, from, bishop_attacks(from, occupied) & !ours);
        }
        for from in (b.rooks() | b.queens()) & ours {
            order.add_piece(Role::Rook, from, rook_attacks(from, occupied) & !ours);
        }
        for from in b.kings() & ours {
            order.add_piece(Role::King, from, king_attacks(from) & !ours);
        }
        for m in self.legal_moves().iter().filter(|m| m.is_castle()) {
            order.add_castle(m.from(), m.to());
        }
        let start_rank = Rank::Second.relative_to(us);
        let forward = if us.is_white() { 8 } else { -8 };
        for from in b.pawns() & ours {
            order.add_pawn_captures(from, pawn_attacks(us, from) & theirs);
            if let Some(one) = from.offset(forward).filter(|s| !occupied.contains(*s)) {
                let mut double = Bitboard::EMPTY;
                if from.rank() == start_rank
                    && let Some(two) = one.offset(forward).filter(|s| !occupied.contains(*s))
                {
                    double = Bitboard::from_square(two);
                }
                order.add_pushes(Bitboard::from_square(one), double);
            }
        }
        if let Some(ep) = self.ep_square() {
            for from in pawn_attacks(us.other(), ep) & b.pawns() & ours {
                order.add_en_passant(from, ep);
            }
        }
        let mut list = MoveList::new();
        order.emit(|m| list.push(m));
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;
    use crate::moves::{Move, MoveKind};

    fn pseudo(fen: &str) -> (Position, Vec<Move>) {
        let pos: Position = fen.parse().unwrap();
        let mut moves = pos.pseudo_legal_moves().to_vec();
        moves.sort();
        (pos, moves)
    }

    /// Pseudo-legal moves are the legal ones plus those that leave the own king attacked
    /// (R3.9 is the only rule they skip).
    #[test]
    fn pseudo_legal_moves_are_legal_moves_plus_self_checks() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
        ] {
            let (pos, moves) = pseudo(fen);
            let legal = pos.legal_moves();
            for m in &legal {
                assert!(moves.contains(m), "{fen}: legal {m} missing");
            }
            for m in &moves {
                if !legal.contains(m) {
                    let mut after = pos;
                    after.play_unchecked(*m);
                    assert!(
                        after.is_attacked_by(pos.turn().other(), after.king(pos.turn())),
                        "{fen}: {m} is neither legal nor a self-check"
                    );
                }
            }
            let mut dedup = moves.clone();
            dedup.dedup();
            assert_eq!(dedup.len(), moves.len(), "{fen}: duplicates");
        }
    }

    /// R3.9: the pinned knight and the en-passant capture that exposes the king are
    /// pseudo-legal but not legal.
    #[test]
    fn pinned_and_exposing_moves_are_pseudo_legal_only() {
        let (pos, moves) = pseudo("4k3/8/8/8/4n3/8/8/4RK2 b - - 0 1");
        assert_eq!(moves.len(), pos.legal_moves().len() + 8);
        let (pos, moves) = pseudo("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1");
        let ep = Move::new(Square::E4, Square::D3, MoveKind::EnPassant);
        assert!(moves.contains(&ep) && !pos.legal_moves().contains(&ep));
    }
}

//! Moves of a [`Setup`], generated and played python-chess's way: the same moves in the same
//! order, including on boards no game can reach (see the module docs of `setup`).
//!
//! The order is python-chess's: pieces other than pawns from h8 down (each piece's targets
//! from h8 down), then castling, pawn captures, single steps, double steps and en passant.
//! Legality is python-chess's too: with a king of the side to move (the highest one), a
//! pseudo-legal move is legal when it leaves that king safe, judged with the pinned pieces
//! ("blockers") of that king; in check, only the evasions are tried.

use super::{Setup, backrank, descending, msb};
use crate::attacks::{between, bishop_attacks, king_attacks, line, pawn_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::position::IllegalMoveError;
use crate::{Color, File, Piece, Rank, Role, Square};

/// Moves as python-chess makes them: origin, destination, promotion.
fn plain(from: Square, to: Square, promotion: Option<Role>) -> Move {
    match promotion {
        Some(role) => Move::new(from, to, MoveKind::Promotion(role)),
        None => Move::normal(from, to),
    }
}

/// A pawn's move to `to`, as the four promotions where `to` is on a back rank.
fn pawn_move(out: &mut Vec<Move>, from: Square, to: Square) {
    if Bitboard::BACKRANKS.contains(to) {
        for role in Role::PROMOTIONS {
            out.push(plain(from, to, Some(role)));
        }
    } else {
        out.push(Move::normal(from, to));
    }
}

fn shift(bb: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard(bb.0 << 8),
        Color::Black => Bitboard(bb.0 >> 8),
    }
}

impl Setup {
    /// The en-passant square python-chess generates captures to: none for a1, which its
    /// truth test reads as no square.
    fn ep_target(&self) -> Option<Square> {
        self.ep_square.filter(|&ep| ep != Square::A1)
    }

    /// Standard castling written as the king's two-square move where the king stands on
    /// e1/e8 (python-chess's `_from_chess960`); king-takes-rook otherwise.
    pub(crate) fn castling_move(&self, king: Square, rook: Square) -> Move {
        if !self.chess960
            && (king == Square::E1 || king == Square::E8)
            && self.board.kings().contains(king)
        {
            let to = if rook == Square::from_coords(File::H, king.rank()) {
                Some(Square::from_coords(File::G, king.rank()))
            } else if rook == Square::from_coords(File::A, king.rank()) {
                Some(Square::from_coords(File::C, king.rank()))
            } else {
                None
            };
            if let Some(to) = to {
                return Move::normal(king, to);
            }
        }
        Move::normal(king, rook)
    }

    /// A castling move written as the king's two-square move, as king-takes-rook
    /// (python-chess's `_to_chess960`); every other move unchanged.
    pub(crate) fn as_king_takes_rook(&self, m: Move) -> Move {
        let from = m.from();
        if (from == Square::E1 || from == Square::E8) && self.board.kings().contains(from) {
            let rank = from.rank();
            for (to, rook) in [(File::G, File::H), (File::C, File::A)] {
                let to = Square::from_coords(to, rank);
                if m.to() == to && !self.board.rooks().contains(to) {
                    return Move::normal(from, Square::from_coords(rook, rank));
                }
            }
        }
        m
    }

    fn pseudo_ep_into(&self, from_mask: Bitboard, to_mask: Bitboard, out: &mut Vec<Move>) {
        let Some(ep) = self.ep_target() else { return };
        if !to_mask.contains(ep) || self.board.occupied().contains(ep) {
            return;
        }
        let rank = Bitboard::from_rank(self.turn.fold_wb(Rank::Fifth, Rank::Fourth));
        let capturers =
            self.board.pawns() & self.us() & from_mask & pawn_attacks(self.turn.other(), ep) & rank;
        for from in descending(capturers) {
            out.push(Move::normal(from, ep));
        }
    }

    pub(super) fn castling_into(
        &self,
        from_mask: Bitboard,
        to_mask: Bitboard,
        out: &mut Vec<Move>,
    ) {
        let rank = backrank(self.turn);
        let b = &self.board;
        let Some(king) = (self.us() & b.kings() & !self.promoted & rank & from_mask).first() else {
            return;
        };
        let occupied = b.occupied();
        let back = self.turn.back_rank();
        for rook in descending(self.clean_castling_rights() & rank & to_mask) {
            let a_side = rook < king;
            let king_to = Square::from_coords(if a_side { File::C } else { File::G }, back);
            let rook_to = Square::from_coords(if a_side { File::D } else { File::F }, back);
            let king_path = between(king, king_to);
            let rook_path = between(rook, rook_to);
            let others = occupied.toggled(king).toggled(rook);
            let blocked = others.intersects(king_path | rook_path | king_to | rook_to);
            if !blocked
                && !self.path_attacked(king_path.with(king), occupied.toggled(king))
                && !self.path_attacked(
                    Bitboard::from_square(king_to),
                    occupied.toggled(king).toggled(rook).toggled(rook_to),
                )
            {
                out.push(self.castling_move(king, rook));
            }
        }
    }

    /// The pseudo-legal moves from `from_mask` to `to_mask`, in python-chess's order.
    fn pseudo_into(&self, from_mask: Bitboard, to_mask: Bitboard, out: &mut Vec<Move>) {
        let b = &self.board;
        let us = self.us();
        for from in descending(us & !b.pawns() & from_mask) {
            for to in descending(self.attacks(from) & !us & to_mask) {
                out.push(Move::normal(from, to));
            }
        }
        if from_mask.intersects(b.kings()) {
            self.castling_into(from_mask, to_mask, out);
        }
        let pawns = b.pawns() & us & from_mask;
        if pawns.is_empty() {
            return;
        }
        for from in descending(pawns) {
            for to in descending(pawn_attacks(self.turn, from) & self.them() & to_mask) {
                pawn_move(out, from, to);
            }
        }
        let empty = !b.occupied();
        let single = shift(pawns, self.turn) & empty;
        let double_ranks = match self.turn {
            Color::White => Bitboard::from_rank(Rank::Third) | Bitboard::from_rank(Rank::Fourth),
            Color::Black => Bitboard::from_rank(Rank::Sixth) | Bitboard::from_rank(Rank::Fifth),
        };
        let double = shift(single, self.turn) & empty & double_ranks & to_mask;
        let back = self.turn.fold_wb(-8, 8);
        for to in descending(single & to_mask) {
            if let Some(from) = to.offset(back) {
                pawn_move(out, from, to);
            }
        }
        for to in descending(double) {
            if let Some(from) = to.offset(2 * back) {
                out.push(Move::normal(from, to));
            }
        }
        self.pseudo_ep_into(from_mask, to_mask, out);
    }

    /// Our pieces that alone stand between `king` and an enemy slider.
    fn slider_blockers(&self, king: Square) -> Bitboard {
        let b = &self.board;
        let snipers = (rook_attacks(king, Bitboard::EMPTY) & b.orthogonal_sliders())
            | (bishop_attacks(king, Bitboard::EMPTY) & b.diagonal_sliders());
        let mut blockers = Bitboard::EMPTY;
        for sniper in descending(snipers & self.them()) {
            let inside = between(king, sniper) & b.occupied();
            if inside.count() == 1 {
                blockers |= inside;
            }
        }
        blockers & self.us()
    }

    /// The line `sq` may move along without exposing `color`'s king (python-chess's
    /// `pin_mask`): everywhere when not pinned.
    pub fn pin_mask(&self, color: Color, sq: Square) -> Bitboard {
        let Some(king) = self.king(color) else {
            return Bitboard::FULL;
        };
        let b = &self.board;
        let rook_rays = rook_attacks(king, Bitboard::EMPTY);
        let families = [
            (
                rook_rays & Bitboard::from_file(king.file()),
                b.orthogonal_sliders(),
            ),
            (
                rook_rays & Bitboard::from_rank(king.rank()),
                b.orthogonal_sliders(),
            ),
            (bishop_attacks(king, Bitboard::EMPTY), b.diagonal_sliders()),
        ];
        let square = Bitboard::from_square(sq);
        for (rays, sliders) in families {
            if rays.contains(sq) {
                let snipers = rays & sliders & b.by_color(color.other());
                for sniper in descending(snipers) {
                    if between(sniper, king) & (b.occupied() | square) == square {
                        return line(king, sniper);
                    }
                }
                break;
            }
        }
        Bitboard::FULL
    }

    /// Whether taking en passant with `capturer` opens a line to `king` through the two
    /// pawns leaving their rank.
    fn ep_skewered(&self, king: Square, capturer: Square) -> bool {
        let Some(ep) = self.ep_square else {
            return false;
        };
        let b = &self.board;
        let mut occupied = b.occupied().without(capturer).with(ep);
        if let Some(last_double) = ep.offset(self.turn.fold_wb(-8, 8)) {
            occupied = occupied.without(last_double);
        }
        let them = self.them();
        let rank = Bitboard::from_rank(king.rank());
        (rook_attacks(king, occupied) & rank & them & b.orthogonal_sliders()).any()
            || (bishop_attacks(king, occupied) & them & b.diagonal_sliders()).any()
    }

    /// Whether a pseudo-legal (or evasion) move leaves `king` safe, given its blockers.
    fn is_safe(&self, king: Square, blockers: Bitboard, m: Move) -> bool {
        if m.from() == king {
            self.is_castling(m)
                || self
                    .attackers(self.turn.other(), m.to(), self.board.occupied())
                    .is_empty()
        } else if self.is_en_passant(m) {
            self.pin_mask(self.turn, m.from()).contains(m.to()) && !self.ep_skewered(king, m.from())
        } else {
            !blockers.contains(m.from()) || line(m.from(), m.to()).contains(king)
        }
    }

    fn evasions_into(
        &self,
        king: Square,
        checkers: Bitboard,
        from_mask: Bitboard,
        to_mask: Bitboard,
        out: &mut Vec<Move>,
    ) {
        let b = &self.board;
        let sliders = checkers & (b.diagonal_sliders() | b.orthogonal_sliders());
        let mut attacked = Bitboard::EMPTY;
        for checker in descending(sliders) {
            attacked |= line(king, checker).without(checker);
        }
        if from_mask.contains(king) {
            for to in descending(king_attacks(king) & !self.us() & !attacked & to_mask) {
                out.push(Move::normal(king, to));
            }
        }
        let Some(checker) = checkers.single_square() else {
            return;
        };
        let target = between(king, checker) | checkers;
        self.pseudo_into(!b.kings() & from_mask, target & to_mask, out);
        if let Some(ep) = self.ep_target()
            && !target.contains(ep)
            && ep.offset(self.turn.fold_wb(-8, 8)) == Some(checker)
        {
            self.pseudo_ep_into(from_mask, to_mask, out);
        }
    }

    /// The legal moves from `from_mask` to `to_mask`, in python-chess's order.
    pub(crate) fn legal_into(&self, from_mask: Bitboard, to_mask: Bitboard, out: &mut Vec<Move>) {
        let b = &self.board;
        let Some(king) = msb(b.kings() & self.us()) else {
            self.pseudo_into(from_mask, to_mask, out);
            return;
        };
        let blockers = self.slider_blockers(king);
        let checkers = self.attackers(self.turn.other(), king, b.occupied());
        let start = out.len();
        if checkers.any() {
            self.evasions_into(king, checkers, from_mask, to_mask, out);
        } else {
            self.pseudo_into(from_mask, to_mask, out);
        }
        let mut kept = start;
        for i in start..out.len() {
            if self.is_safe(king, blockers, out[i]) {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// The legal moves, in python-chess's order.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_into(Bitboard::FULL, Bitboard::FULL, &mut out);
        out
    }

    /// The pseudo-legal moves, in python-chess's order.
    pub fn pseudo_legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.pseudo_into(Bitboard::FULL, Bitboard::FULL, &mut out);
        out
    }

    pub fn has_legal_moves(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// Whether a move of the side to move is castling: a king moving more than one file, or
    /// onto its own rook.
    pub fn is_castling(&self, m: Move) -> bool {
        let b = &self.board;
        b.kings().contains(m.from())
            && (m.from().file().index().abs_diff(m.to().file().index()) > 1
                || (b.rooks() & self.us()).contains(m.to()))
    }

    /// Whether a castling move goes to the h-side (python-chess's kingside).
    pub fn is_kingside_castling(&self, m: Move) -> bool {
        self.is_castling(m) && m.to().file() > m.from().file()
    }

    pub fn is_queenside_castling(&self, m: Move) -> bool {
        self.is_castling(m) && m.to().file() < m.from().file()
    }

    pub fn is_en_passant(&self, m: Move) -> bool {
        let b = &self.board;
        self.ep_square == Some(m.to())
            && b.pawns().contains(m.from())
            && matches!(m.from().index().abs_diff(m.to().index()), 7 | 9)
            && !b.occupied().contains(m.to())
    }

    pub fn is_capture(&self, m: Move) -> bool {
        let touched = Bitboard::from_square(m.from()).toggled(m.to());
        touched.intersects(self.them()) || self.is_en_passant(m)
    }

    /// A capture or a pawn move: it resets the half-move clock.
    pub fn is_zeroing(&self, m: Move) -> bool {
        let touched = Bitboard::from_square(m.from()).toggled(m.to());
        touched.intersects(self.board.pawns()) || touched.intersects(self.them())
    }

    /// python-chess's `is_pseudo_legal`: a move of the side to move's piece to a square it
    /// attacks or may step to, castling in either notation included.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let m = plain(m.from(), m.to(), m.promotion());
        if m == Move::NULL || m.from() == m.to() {
            return false;
        }
        let b = &self.board;
        let (from, to) = (m.from(), m.to());
        let Some(role) = b.role_at(from) else {
            return false;
        };
        if !self.us().contains(from) {
            return false;
        }
        if m.promotion().is_some()
            && (role != Role::Pawn || to.rank() != self.turn.other().back_rank())
        {
            return false;
        }
        if role == Role::King {
            let castle = self.castling_move(from, to);
            let mut castles = Vec::new();
            self.castling_into(Bitboard::FULL, Bitboard::FULL, &mut castles);
            if castles.contains(&castle) {
                return true;
            }
        }
        if self.us().contains(to) {
            return false;
        }
        if role == Role::Pawn {
            let mut moves = Vec::new();
            self.pseudo_into(
                Bitboard::from_square(from),
                Bitboard::from_square(to),
                &mut moves,
            );
            return moves.contains(&m);
        }
        self.attacks(from).contains(to)
    }

    /// python-chess's `is_into_check`: whether a pseudo-legal move leaves the side to move's
    /// king attacked.
    fn is_into_check(&self, m: Move) -> bool {
        let Some(king) = self.king(self.turn) else {
            return false;
        };
        let checkers = self.attackers(self.turn.other(), king, self.board.occupied());
        if checkers.any() {
            let mut evasions = Vec::new();
            self.evasions_into(
                king,
                checkers,
                Bitboard::from_square(m.from()),
                Bitboard::from_square(m.to()),
                &mut evasions,
            );
            if !evasions.contains(&m) {
                return true;
            }
        }
        !self.is_safe(king, self.slider_blockers(king), m)
    }

    /// python-chess's `is_legal` (castling accepted as king-takes-rook in standard chess).
    pub fn is_legal(&self, m: Move) -> bool {
        let m = plain(m.from(), m.to(), m.promotion());
        self.is_pseudo_legal(m) && !self.is_into_check(m)
    }

    /// The move as the legal move list writes it (castling in this board's notation), if
    /// the list holds it. This is the test `san`, `play` and the Python board apply: it can
    /// differ from [`Setup::is_legal`] only where a promoted king stands above the king
    /// (python-chess's generator and its `is_legal` then judge with different kings).
    pub fn legal_form(&self, m: Move) -> Option<Move> {
        let m = self.list_form(m);
        let mut moves = Vec::new();
        self.legal_into(Bitboard::from_square(m.from()), Bitboard::FULL, &mut moves);
        moves.contains(&m).then_some(m)
    }

    /// [`Setup::legal_form`] against `legal`, this setup's [`Setup::legal_moves`] kept by
    /// the caller (the Python board's setup mode checks each move against a list it keeps).
    pub fn legal_form_among(&self, m: Move, legal: &[Move]) -> Option<Move> {
        let m = self.list_form(m);
        legal.contains(&m).then_some(m)
    }

    /// A move as the move lists write it: castling as this board writes it.
    fn list_form(&self, m: Move) -> Move {
        let m = self.as_king_takes_rook(plain(m.from(), m.to(), m.promotion()));
        if self.is_castling(m) && m.promotion().is_none() {
            self.castling_move(m.from(), m.to())
        } else {
            m
        }
    }

    /// Whether an en-passant capture is legal (python-chess's `has_legal_en_passant`).
    pub fn has_legal_en_passant(&self) -> bool {
        let mut moves = Vec::new();
        self.pseudo_ep_into(Bitboard::FULL, Bitboard::FULL, &mut moves);
        moves.into_iter().any(|m| !self.is_into_check(m))
    }

    pub fn has_pseudo_legal_en_passant(&self) -> bool {
        let mut moves = Vec::new();
        self.pseudo_ep_into(Bitboard::FULL, Bitboard::FULL, &mut moves);
        !moves.is_empty()
    }

    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// Plays a legal move (or the null move) python-chess's way.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        if m == Move::NULL {
            self.play_unchecked(m);
            return Ok(());
        }
        let Some(legal) = self.legal_form(m) else {
            return Err(IllegalMoveError {
                mv: m,
                fen: self.fen(false, crate::fen::EnPassantMode::Legal, false),
            });
        };
        self.play_unchecked(legal);
        Ok(())
    }

    /// Plays a move python-chess's way (its `push`): castling rights cleaned first, the
    /// clocks, en passant, promotion and castling (either notation) as python-chess does
    /// them. The move should be pseudo-legal or null; any other move leaves some board
    /// (never a panic), as in python-chess, which trusts the caller.
    pub fn play_unchecked(&mut self, m: Move) {
        let m = self.as_king_takes_rook(m);
        self.castling_rights = self.clean_castling_rights();
        let ep = self.ep_square.take();
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        let us = self.turn;
        if m == Move::NULL {
            self.turn = us.other();
            return;
        }
        if self.is_zeroing(m) {
            self.halfmove_clock = 0;
        }
        let (from, to) = (m.from(), m.to());
        let was_promoted = self.promoted.contains(from);
        let Some(piece) = self.board.remove_piece_at(from) else {
            self.turn = us.other();
            return;
        };
        self.promoted = self.promoted.without(from);
        let captured = self.board.role_at(to);
        self.castling_rights &= !Bitboard::from_square(to).with(from);
        if piece.role == Role::King && !was_promoted {
            self.castling_rights &= !backrank(us);
        } else if captured == Some(Role::King) && !self.promoted.contains(to) {
            if us == Color::White && to.rank() == Rank::Eighth {
                self.castling_rights &= !backrank(Color::Black);
            } else if us == Color::Black && to.rank() == Rank::First {
                self.castling_rights &= !backrank(Color::White);
            }
        }
        let mut role = piece.role;
        let mut promoted = was_promoted;
        if role == Role::Pawn {
            let diff = to.index() as i32 - from.index() as i32;
            if diff == 16 && from.rank() == Rank::Second {
                self.ep_square = from.offset(8);
            } else if diff == -16 && from.rank() == Rank::Seventh {
                self.ep_square = from.offset(-8);
            } else if Some(to) == ep
                && matches!(diff.abs(), 7 | 9)
                && captured.is_none()
                && let Some(taken) = to.offset(us.fold_wb(-8, 8))
            {
                // En passant: the pawn that stepped twice goes.
                self.board.discard_piece_at(taken);
                self.promoted = self.promoted.without(taken);
            }
        }
        if let Some(p) = m.promotion() {
            promoted = true;
            role = p;
        }
        if role == Role::King && self.us().contains(to) {
            let back = us.back_rank();
            let a_side = to.file() < from.file();
            self.board.discard_piece_at(to);
            let king_to = Square::from_coords(if a_side { File::C } else { File::G }, back);
            let rook_to = Square::from_coords(if a_side { File::D } else { File::F }, back);
            self.board.set_piece_at(king_to, Piece::new(us, Role::King));
            self.board.set_piece_at(rook_to, Piece::new(us, Role::Rook));
            self.promoted = self.promoted.without(to).without(king_to).without(rook_to);
        } else {
            self.board.set_piece_at(to, Piece::new(us, role));
            self.promoted = if promoted {
                self.promoted.with(to)
            } else {
                self.promoted.without(to)
            };
        }
        self.turn = us.other();
    }

    /// The setup after a move (see [`Setup::play`]).
    pub fn after(&self, m: Move) -> Result<Setup, IllegalMoveError> {
        let mut next = *self;
        next.play(m)?;
        Ok(next)
    }
}

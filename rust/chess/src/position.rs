//! `Position`: placement, side to move, castling rights, en-passant square and clocks, with
//! an incrementally updated Polyglot key. Moves are played by copy-make: a `Position` is
//! small and `Copy`, so undo is keeping the old value.

use crate::attacks::{Sliders, between, pawn_attacks};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::{CastlingRights, CastlingSide};
use crate::dispatch;
use crate::movegen::{self, CaptureCollector, Collector, Counter, EnPassantSeen, KingSafety};
use crate::moves::{Move, MoveKind, MoveList};
use crate::zobrist;
use crate::{Color, Piece, Rank, Role, Square};
use core::fmt;

/// A chess position (R1–R3). Every `Position` reachable through the public API is valid:
/// one king each, no pawns on the first or last rank, the side not to move is not in check,
/// castling rights match kings and rooks on their original squares, and an en-passant
/// square is one a pawn has just crossed.
#[derive(Copy, Clone)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling: CastlingRights,
    /// Set after every double pawn step, like python-chess's `ep_square`, whether or not an
    /// en-passant capture is possible.
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
    pub(crate) key: u64,
}

/// Why a set of position fields does not form a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king or more than one.
    KingCount { color: Color, count: u32 },
    /// A pawn stands on the first or last rank, where no pawn can be (R3.7e).
    PawnOnBackRank { square: Square },
    /// The side that just moved left its own king in check (R3.9).
    OppositeCheck,
    /// A castling right whose king or rook is not on its original square (R3.8b).
    CastlingWithoutPieces { color: Color, side: CastlingSide },
    /// The en-passant square is not one an enemy pawn has just crossed (R3.7d).
    ImpossibleEnPassant { square: Square },
    /// The full-move number must be at least 1.
    FullmoveNumberZero,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::KingCount { color, count } => {
                write!(f, "{color} has {count} kings; exactly one is required")
            }
            PositionError::PawnOnBackRank { square } => write!(
                f,
                "pawn on {square}: pawns cannot stand on the first or last rank"
            ),
            PositionError::OppositeCheck => f.write_str("the side not to move is in check"),
            PositionError::CastlingWithoutPieces { color, side } => {
                let (k, r) = (color.fold_wb("e1", "e8"), side.rook_from(*color));
                write!(
                    f,
                    "{color} {side:?} castling right needs the king on {k} and a rook on {r} \
                     (in Chess960: the king on its first rank and the right's rook on that side of it)"
                )
            }
            PositionError::ImpossibleEnPassant { square } => {
                write!(
                    f,
                    "en-passant square {square} is not a square an enemy pawn has just crossed"
                )
            }
            PositionError::FullmoveNumberZero => {
                f.write_str("the full-move number must be at least 1")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// Whether `color`'s king stands on `king` and a rook of its on `rook`, on `side` of the
/// king: where its castling on `side` starts (R3.8b; in Chess960 the king stands between
/// its two rooks).
#[inline]
fn castling_pieces_in_place(
    board: &Board,
    color: Color,
    side: CastlingSide,
    king: Square,
    rook: Square,
) -> bool {
    let ours = board.by_color(color);
    // The role boards are disjoint, so a king and a rook on these squares are on two squares.
    (board.kings() & ours).contains(king)
        && (board.rooks() & ours).contains(rook)
        && CastlingSide::of_rook(king, rook) == side
        && king != rook
}

/// Why a move cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMoveError {
    pub mv: Move,
    pub fen: String,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {} in {}", self.mv, self.fen)
    }
}

impl std::error::Error for IllegalMoveError {}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl PartialEq for Position {
    /// Positions are equal when every FEN field is (the key follows from them).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.castling == other.castling
            && self.ep_square == other.ep_square
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
    }
}

impl Eq for Position {}

impl Position {
    /// The start position (R1.2), White to move (R2.1).
    pub fn new() -> Position {
        let mut pos = Position {
            board: Board::starting(),
            turn: Color::White,
            castling: CastlingRights::ALL,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            key: 0,
        };
        pos.key = pos.compute_key();
        pos
    }

    /// Builds and validates a position from its parts.
    pub fn from_parts(
        board: Board,
        turn: Color,
        castling: CastlingRights,
        ep_square: Option<Square>,
        halfmove_clock: u32,
        fullmove_number: u32,
    ) -> Result<Position, PositionError> {
        let placement_key = zobrist::placement_key(&board);
        Position::from_parts_keyed(
            board,
            turn,
            castling,
            ep_square,
            halfmove_clock,
            fullmove_number,
            placement_key,
        )
    }

    /// [`from_parts`](Self::from_parts) for a caller that has the placement's part of the
    /// key already (`zobrist::placement_key` of `board`): the FEN reader folds it into its
    /// pass over the placement, which is cheaper than a second walk over the pieces.
    /// Always inlined, so that the position is built in place.
    #[inline(always)]
    pub(crate) fn from_parts_keyed(
        board: Board,
        turn: Color,
        castling: CastlingRights,
        ep_square: Option<Square>,
        halfmove_clock: u32,
        fullmove_number: u32,
        placement_key: u64,
    ) -> Result<Position, PositionError> {
        debug_assert_eq!(placement_key, zobrist::placement_key(&board));
        let mut pos = Position::validated(
            board,
            turn,
            castling,
            ep_square,
            halfmove_clock,
            fullmove_number,
        )?;
        pos.key = pos.key_from(placement_key);
        Ok(pos)
    }

    /// The position if its parts form a legal one (see [`PositionError`]), its key not yet
    /// set. Each test reads the colour and role bitboards directly: the pieces a castling
    /// right or an en-passant square needs are one mask each, where `piece_at` would search
    /// the roles square by square (this runs for every parsed FEN). Always inlined: the
    /// position is built in its caller's result, not copied out of a call.
    #[inline(always)]
    fn validated(
        board: Board,
        turn: Color,
        castling: CastlingRights,
        ep_square: Option<Square>,
        halfmove_clock: u32,
        fullmove_number: u32,
    ) -> Result<Position, PositionError> {
        for color in Color::ALL {
            let count = (board.kings() & board.by_color(color)).count();
            if count != 1 {
                return Err(PositionError::KingCount { color, count });
            }
        }
        if let Some(square) = (board.pawns() & Bitboard::BACKRANKS).first() {
            return Err(PositionError::PawnOnBackRank { square });
        }
        // The rights in the order White's kingside, White's queenside, Black's (the order of
        // their bits): the first without its pieces is the one reported.
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let (Some(king), Some(rook)) = (
                    castling.king_square(color),
                    castling.rook_square(color, side),
                ) && !castling_pieces_in_place(&board, color, side, king, rook)
                {
                    return Err(PositionError::CastlingWithoutPieces { color, side });
                }
            }
        }
        if fullmove_number == 0 {
            return Err(PositionError::FullmoveNumberZero);
        }
        if let Some(ep) = ep_square {
            // The pawn that just moved is `turn`'s opponent's, two squares past its start.
            let mover = turn.other();
            let ok_rank = ep.rank() == Rank::Third.relative_to(mover);
            let pawn_sq = ep.offset(mover.fold_wb(8, -8));
            let origin = ep.offset(mover.fold_wb(-8, 8));
            let their_pawns = board.pawns() & board.by_color(mover);
            let ok = ok_rank
                && pawn_sq.is_some_and(|s| their_pawns.contains(s))
                && !board.occupied().contains(ep)
                && origin.is_some_and(|s| !board.occupied().contains(s));
            if !ok {
                return Err(PositionError::ImpossibleEnPassant { square: ep });
            }
        }
        let pos = Position {
            board,
            turn,
            castling,
            ep_square,
            halfmove_clock,
            fullmove_number,
            key: 0,
        };
        let their_king = board
            .king_of(turn.other())
            .ok_or(PositionError::KingCount {
                color: turn.other(),
                count: 0,
            })?;
        if pos.is_attacked_by(turn, their_king) {
            return Err(PositionError::OppositeCheck);
        }
        Ok(pos)
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }
    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }
    /// The square a pawn just crossed with a double step, whether or not it can be captured
    /// there (python-chess's `ep_square`).
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }
    /// The Polyglot Zobrist key, equal to python-chess's `chess.polyglot.zobrist_hash`.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The king of `color` (every valid position has one).
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        // A valid position always has the king; fall back to a1 rather than panic.
        self.board.king_of(color).unwrap_or(Square::A1)
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// Computes the key from scratch (the incremental key must always equal this).
    pub fn compute_key(&self) -> u64 {
        self.key_from(zobrist::placement_key(&self.board))
    }

    /// The key, given the placement's part of it (`zobrist::placement_key`).
    #[inline]
    fn key_from(&self, placement_key: u64) -> u64 {
        let mut key = placement_key ^ zobrist::castling_key(self.castling);
        if let Some(ep) = self.hashed_ep_square() {
            key ^= zobrist::ep_file_key(ep.file());
        }
        key ^ zobrist::turn_key(self.turn)
    }

    /// The en-passant square if a pawn of the side to move stands beside the pawn that just
    /// stepped twice (Polyglot's rule: legality of the capture is irrelevant for the key).
    #[inline(always)]
    fn hashed_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let ours = self.board.by_color(self.turn) & self.board.pawns();
        (pawn_attacks(self.turn.other(), ep) & ours)
            .any()
            .then_some(ep)
    }

    // ----- attacks and checks -------------------------------------------------------------

    /// Pieces of `color` that attack `sq` (R3.1: including pinned pieces).
    pub fn attackers(&self, color: Color, sq: Square) -> Bitboard {
        dispatch!(S => movegen::attackers_of::<S>(&self.board, color, sq, self.board.occupied()))
    }

    /// Is `sq` attacked by a piece of `color` (R3.1)?
    pub fn is_attacked_by(&self, color: Color, sq: Square) -> bool {
        dispatch!(S => movegen::attacked_by::<S>(&self.board, color, sq, self.board.occupied()))
    }

    fn safety<S: Sliders>(&self) -> KingSafety {
        movegen::king_safety::<S>(&self.board, self.turn, self.king(self.turn))
    }

    /// Pieces giving check to the side to move (R3.9).
    pub fn checkers(&self) -> Bitboard {
        dispatch!(S => self.safety::<S>().checkers)
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// The squares a piece of `color` on `sq` may move along without exposing its king: the
    /// whole board when not pinned, else the pin line (python-chess's `pin`). As in
    /// python-chess, `sq` need not hold a piece of `color`: the answer is for a piece of
    /// `color` standing there, so an empty square between king and enemy slider is "pinned".
    pub fn pin_mask(&self, color: Color, sq: Square) -> Bitboard {
        let Some(king) = self.board.king_of(color) else {
            return Bitboard::FULL;
        };
        if sq == king {
            return Bitboard::FULL;
        }
        let line = crate::attacks::line(king, sq);
        if line.is_empty() {
            return Bitboard::FULL;
        }
        let occ = self.board.occupied().with(sq);
        let them = self.board.by_color(color.other());
        let snipers = (crate::attacks::rook_rays(king) & them & self.board.orthogonal_sliders())
            | (crate::attacks::bishop_rays(king) & them & self.board.diagonal_sliders());
        for sniper in snipers & line {
            let b = between(king, sniper) & occ;
            if b == Bitboard::from_square(sq) {
                return line;
            }
        }
        Bitboard::FULL
    }

    /// Is the piece on `sq` pinned to its own king (R3.9)?
    pub fn is_pinned(&self, color: Color, sq: Square) -> bool {
        self.pin_mask(color, sq) != Bitboard::FULL
    }

    // ----- move generation -----------------------------------------------------------------

    /// All legal moves (R3).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        dispatch!(S => movegen::generate::<S, _>(self, &mut Collector(&mut list)));
        list
    }

    /// The legal captures (en passant included) and promotions, in move-list order: what a
    /// quiescence search looks at, without generating the quiet moves.
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        let their = self.board.by_color(self.turn.other());
        dispatch!(S => movegen::generate::<S, _>(
            self,
            &mut CaptureCollector { list: &mut list, their }
        ));
        list
    }

    /// The number of legal moves, counted without listing them.
    pub fn count_legal_moves(&self) -> usize {
        let mut c = Counter(0);
        dispatch!(S => movegen::generate::<S, _>(self, &mut c));
        c.0 as usize
    }

    pub fn has_legal_moves(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// A sufficient test for [`has_legal_moves`](Self::has_legal_moves), several times
    /// cheaper where it answers: out of check, a knight or pawn that is not pinned and has a
    /// square to go to (most positions have one). `false` says only that it found none; a
    /// caller asking whether a game is over tries it first. (The search asks only in
    /// check, where it never answers.)
    pub fn has_free_knight_or_pawn_move(&self) -> bool {
        dispatch!(S => movegen::has_quick_move::<S>(self))
    }

    /// Is `m` a legal move here?
    pub fn is_legal(&self, m: Move) -> bool {
        // Listing the moves of one piece would be faster; legality checks are not hot.
        self.legal_moves().contains(&m)
    }

    /// The en-passant square if an en-passant capture is actually legal (R4.8: only then
    /// does it distinguish positions).
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        if (pawn_attacks(self.turn.other(), ep)
            & self.board.by_color(self.turn)
            & self.board.pawns())
        .is_empty()
        {
            return None;
        }
        let mut seen = EnPassantSeen(false);
        dispatch!(S => movegen::generate::<S, _>(self, &mut seen));
        seen.0.then_some(ep)
    }

    pub fn has_legal_en_passant(&self) -> bool {
        self.legal_ep_square().is_some()
    }

    /// Checkmate: in check with no legal move (R4.1).
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Stalemate: not in check and no legal move (R4.5).
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// python-chess's `has_insufficient_material`: `color` cannot mate even with the
    /// opponent's help, judged by material alone. This is the automatic-mode list of R5.2.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        self.board.has_insufficient_material(color)
    }

    /// Neither side has mating material (R5.2's list; see `has_insufficient_material`).
    pub fn is_insufficient_material(&self) -> bool {
        Color::ALL
            .into_iter()
            .all(|c| self.has_insufficient_material(c))
    }

    // ----- move properties ----------------------------------------------------------------

    /// Does `m` capture (including en passant)?
    pub fn is_capture(&self, m: Move) -> bool {
        m.is_en_passant() || self.board.by_color(self.turn.other()).contains(m.to())
    }

    /// The square of the rook that castling move `m` moves (its origin), or `None` when `m`
    /// is no castling of the side to move. Chess960 writes castling as the king taking this
    /// rook, and only the position before the move knows where it stood.
    pub fn castling_rook(&self, m: Move) -> Option<Square> {
        if !m.is_castle() {
            return None;
        }
        self.castling
            .rook_square(self.turn, CastlingSide::of_king_to(m.to()))
    }

    /// Does `m` reset the fifty-move count (a pawn move or a capture)?
    pub fn is_zeroing(&self, m: Move) -> bool {
        self.is_capture(m) || self.board.pawns().contains(m.from())
    }

    /// The role of the piece `m` moves, if a piece stands on its origin.
    pub fn moved_role(&self, m: Move) -> Option<Role> {
        self.board.role_at(m.from())
    }

    /// Does the legal move `m` give check? Answered from the attack tables without playing
    /// the move (a search asks it of moves it then prunes unplayed): the pieces of the side
    /// to move, the mover on its new square (promoted; the castling rook on its own), that
    /// attack the other king through the occupancy after the move. That finds direct and
    /// discovered checks alike, en passant's two vacated squares included.
    pub fn gives_check(&self, m: Move) -> bool {
        use crate::attacks::{bishop_attacks, knight_attacks, rook_attacks};
        let us = self.turn;
        let Some(king) = self.board.king_of(us.other()) else {
            return false;
        };
        let (from, to) = (m.from(), m.to());
        let ours = self.board.by_color(us);
        let mut occupied = self.board.occupied().without(from).with(to);
        let mut knights = (self.board.knights() & ours).without(from);
        let mut pawns = (self.board.pawns() & ours).without(from);
        let mut diagonal = (self.board.diagonal_sliders() & ours).without(from);
        let mut orthogonal = (self.board.orthogonal_sliders() & ours).without(from);
        let role = match m.kind() {
            MoveKind::Normal => match self.board.role_at(from) {
                Some(role) => role,
                None => return false,
            },
            MoveKind::Promotion(role) => role,
            MoveKind::EnPassant => {
                occupied = occupied.without(Square::from_coords(to.file(), from.rank()));
                Role::Pawn
            }
            MoveKind::Castle => {
                let side = CastlingSide::of_king_to(to);
                let rook_from = self
                    .castling
                    .rook_square(us, side)
                    .unwrap_or_else(|| side.rook_from(us));
                let rook_to = side.rook_to(us);
                // In Chess960 the king may land where the rook stood: vacate, then fill.
                occupied = occupied.without(rook_from).with(to).with(rook_to);
                orthogonal = orthogonal.without(rook_from).with(rook_to);
                Role::King
            }
        };
        match role {
            Role::Pawn => pawns = pawns.with(to),
            Role::Knight => knights = knights.with(to),
            Role::Bishop => diagonal = diagonal.with(to),
            Role::Rook => orthogonal = orthogonal.with(to),
            Role::Queen => {
                diagonal = diagonal.with(to);
                orthogonal = orthogonal.with(to);
            }
            Role::King => {}
        }
        (knight_attacks(king) & knights).any()
            || (pawn_attacks(us.other(), king) & pawns).any()
            || (bishop_attacks(king, occupied) & diagonal).any()
            || (rook_attacks(king, occupied) & orthogonal).any()
    }

    // ----- playing moves -------------------------------------------------------------------

    /// Plays `m` if it is legal.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMoveError {
                mv: m,
                fen: crate::fen::to_fen(self),
            })
        }
    }

    /// The position after the legal move `m`.
    pub fn after(&self, m: Move) -> Result<Position, IllegalMoveError> {
        let mut p = *self;
        p.play(m)?;
        Ok(p)
    }

    /// Plays a move that must be legal here (for example one from [`legal_moves`]). An
    /// illegal move cannot cause undefined behaviour or a panic, but leaves a position that
    /// breaks the invariants.
    ///
    /// [`legal_moves`]: Position::legal_moves
    pub fn play_unchecked(&mut self, m: Move) {
        let from = m.from();
        let to = m.to();
        match m.kind() {
            MoveKind::Normal => {
                if let Some(role) = self.board.role_at(from) {
                    self.apply_normal::<true>(role, from, to);
                }
            }
            MoveKind::EnPassant => self.apply_en_passant::<true>(from, to),
            MoveKind::Castle => self.apply_castle::<true>(from, to),
            MoveKind::Promotion(role) => self.apply_promotion::<true>(from, to, role),
        }
    }

    /// [`play_unchecked`](Self::play_unchecked) without the bookkeeping that no move's
    /// legality depends on: the Zobrist key and the move clocks are left as they were, so
    /// the result is fit only for finding and checking moves (the PGN reader's positions, in
    /// `shatranj-pgn`; an error message replays the moves for the exact position).
    pub fn play_lean(&mut self, m: Move) {
        let from = m.from();
        let to = m.to();
        match m.kind() {
            MoveKind::Normal => {
                if let Some(role) = self.board.role_at(from) {
                    self.apply_normal::<false>(role, from, to);
                }
            }
            MoveKind::EnPassant => self.apply_en_passant::<false>(from, to),
            MoveKind::Castle => self.apply_castle::<false>(from, to),
            MoveKind::Promotion(role) => self.apply_promotion::<false>(from, to, role),
        }
    }

    /// Plays a move as a game record holds it: a legal move, or [`Move::NULL`] (a pass, PGN's
    /// `--`/`Z0`, never in check).
    pub fn play_recorded(&mut self, m: Move) {
        if m == Move::NULL {
            self.play_null();
        } else {
            self.play_unchecked(m);
        }
    }

    /// Passes the move to the other side without moving (a null move, for search and
    /// analysis; not a legal chess move). Not allowed in check.
    pub fn play_null(&mut self) -> bool {
        if self.is_check() {
            return false;
        }
        self.start_move::<true>();
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        self.finish_move::<true>();
        true
    }

    // The `apply_*` functions take `FULL`: with `true` they maintain everything (key and
    // clocks); with `false` only what move generation reads (placement, side, castling
    // rights, en-passant square), for perft's counting copies.

    /// Common prologue: forget the old en-passant square (and its key, if it was hashed).
    #[inline(always)]
    fn start_move<const FULL: bool>(&mut self) {
        if FULL && let Some(ep) = self.hashed_ep_square() {
            self.key ^= zobrist::ep_file_key(ep.file());
        }
        self.ep_square = None;
    }

    /// Common epilogue: hand the move to the other side.
    #[inline(always)]
    fn finish_move<const FULL: bool>(&mut self) {
        if FULL && self.turn == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.turn = self.turn.other();
        if FULL {
            self.key ^= zobrist::SIDE_KEY;
            if let Some(ep) = self.hashed_ep_square() {
                self.key ^= zobrist::ep_file_key(ep.file());
            }
        }
    }

    #[inline(always)]
    fn update_castling<const FULL: bool>(&mut self, from: Square, to: Square) {
        let old = self.castling;
        let new = old.after_move(from, to);
        if FULL && new.bits() != old.bits() {
            self.key ^= zobrist::castling_key(old) ^ zobrist::castling_key(new);
        }
        self.castling = new;
    }

    /// Removes whatever enemy piece stands on `sq`; returns whether there was one.
    #[inline(always)]
    fn capture_on<const FULL: bool>(&mut self, sq: Square) -> bool {
        let them = self.turn.other();
        let captured = self.board.by_color(them).contains(sq);
        if !FULL {
            self.board.discard_piece_at(sq);
        } else if captured && let Some(role) = self.board.role_at(sq) {
            // The full update knows the victim's role (for the key), so it clears two words.
            // Clearing all eight bitboards, as the lean path does, is vectorised into 16-byte
            // loads that straddle the stores of the copy `History::push_unchecked` has just
            // made of the position: a store-forwarding stall, a fifth of `Board.push`.
            self.key ^= zobrist::piece_key(Piece::new(them, role), sq);
            let bit = Bitboard::from_square(sq);
            self.board.by_role[role.index()] ^= bit;
            self.board.by_color[them.index()] ^= bit;
        } else if self.board.occupied().contains(sq) {
            // Not a legal move (the square holds a man of the side to move); cleared as
            // before, so an unchecked move leaves a consistent board.
            self.board.discard_piece_at(sq);
        }
        captured
    }

    #[inline(always)]
    fn move_piece<const FULL: bool>(&mut self, role: Role, from: Square, to: Square) {
        let us = self.turn;
        // XOR, not OR: a Chess960 king may castle without moving (`from == to`).
        let ft = Bitboard::from_square(from) ^ Bitboard::from_square(to);
        self.board.by_role[role.index()] ^= ft;
        self.board.by_color[us.index()] ^= ft;
        if FULL {
            let p = Piece::new(us, role);
            self.key ^= zobrist::piece_key(p, from) ^ zobrist::piece_key(p, to);
        }
    }

    /// A piece or pawn move without promotion; `role` is the moving piece's.
    #[inline(always)]
    pub(crate) fn apply_normal<const FULL: bool>(&mut self, role: Role, from: Square, to: Square) {
        self.start_move::<FULL>();
        let captured = self.capture_on::<FULL>(to);
        self.move_piece::<FULL>(role, from, to);
        self.update_castling::<FULL>(from, to);
        if role == Role::Pawn && from.index() ^ to.index() == 16 {
            self.ep_square = Some(Square::from_index_masked(usize::midpoint(
                from.index(),
                to.index(),
            ) as u32));
        }
        if FULL {
            self.halfmove_clock = if role == Role::Pawn || captured {
                0
            } else {
                self.halfmove_clock.saturating_add(1)
            };
        }
        self.finish_move::<FULL>();
    }

    /// A piece or pawn move onto an empty square (no capture, no promotion).
    #[inline(always)]
    pub(crate) fn apply_quiet<const FULL: bool>(&mut self, role: Role, from: Square, to: Square) {
        self.start_move::<FULL>();
        self.move_piece::<FULL>(role, from, to);
        if !self.castling.is_empty() {
            self.update_castling::<FULL>(from, to);
        }
        if role == Role::Pawn && from.index() ^ to.index() == 16 {
            self.ep_square = Some(Square::from_index_masked(usize::midpoint(
                from.index(),
                to.index(),
            ) as u32));
        }
        if FULL {
            self.halfmove_clock = if role == Role::Pawn {
                0
            } else {
                self.halfmove_clock.saturating_add(1)
            };
        }
        self.finish_move::<FULL>();
    }

    #[inline(always)]
    pub(crate) fn apply_promotion<const FULL: bool>(
        &mut self,
        from: Square,
        to: Square,
        promoted: Role,
    ) {
        self.start_move::<FULL>();
        self.capture_on::<FULL>(to);
        let us = self.turn;
        self.board.by_role[Role::Pawn.index()] ^= from;
        self.board.by_role[promoted.index()] ^= to;
        self.board.by_color[us.index()] ^= Bitboard::from_square(from) | Bitboard::from_square(to);
        if FULL {
            self.key ^= zobrist::piece_key(Piece::new(us, Role::Pawn), from)
                ^ zobrist::piece_key(Piece::new(us, promoted), to);
        }
        self.update_castling::<FULL>(from, to);
        if FULL {
            self.halfmove_clock = 0;
        }
        self.finish_move::<FULL>();
    }

    #[inline(always)]
    pub(crate) fn apply_en_passant<const FULL: bool>(&mut self, from: Square, to: Square) {
        self.start_move::<FULL>();
        let victim = Square::from_coords(to.file(), from.rank());
        self.capture_on::<FULL>(victim);
        self.move_piece::<FULL>(Role::Pawn, from, to);
        if FULL {
            self.halfmove_clock = 0;
        }
        self.finish_move::<FULL>();
    }

    /// Castling, given as the king's move (R3.8b). The rook is the one the castling right
    /// names; in Chess960 king and rook may land on each other's squares or stay put, which
    /// the XOR updates of `move_piece` handle.
    #[inline(always)]
    pub(crate) fn apply_castle<const FULL: bool>(&mut self, king_from: Square, king_to: Square) {
        self.start_move::<FULL>();
        let side = CastlingSide::of_king_to(king_to);
        let us = self.turn;
        let rook_from = self
            .castling
            .rook_square(us, side)
            .unwrap_or_else(|| side.rook_from(us));
        self.move_piece::<FULL>(Role::King, king_from, king_to);
        self.move_piece::<FULL>(Role::Rook, rook_from, side.rook_to(us));
        self.update_castling::<FULL>(king_from, king_from);
        if FULL {
            self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        }
        self.finish_move::<FULL>();
    }

    /// Swaps colours and mirrors the board vertically (for symmetry tests and evaluation).
    pub fn mirrored(&self) -> Position {
        let mut board = Board::empty();
        for (sq, p) in self.board.pieces() {
            board.set_piece_at(sq.flip_vertical(), Piece::new(p.color.other(), p.role));
        }
        let castling = self.castling.mirrored();
        let mut pos = Position {
            board,
            turn: self.turn.other(),
            castling,
            ep_square: self.ep_square.map(Square::flip_vertical),
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
            key: 0,
        };
        pos.key = pos.compute_key();
        pos
    }

    /// Squares attacked by `color` (every square some piece of `color` attacks, R3.1).
    pub fn attacked_squares(&self, color: Color) -> Bitboard {
        dispatch!(S => movegen::enemy_attacks::<S>(&self.board, color, self.board.occupied()))
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({:?})", crate::fen::to_fen(self))
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.board, f)
    }
}

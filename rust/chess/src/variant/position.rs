//! `VariantPosition<V>`: standard chess's placement, castling rights and clocks, plus the
//! variant's own state; playing moves (explosions, pockets, checks counted) and the end of
//! the game.

use super::rules::{KingRule, Variant};
use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::{CastlingMode, CastlingRights, CastlingSide};
use crate::moves::Move;
use crate::zobrist;
use crate::{Color, Piece, Rank, Role, Square};
use core::fmt;
use core::marker::PhantomData;

/// A move in a variant: a move on the board (standard chess's [`Move`], castling as the
/// king's move) or a crazyhouse drop.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VariantMove {
    Board(Move),
    Drop { role: Role, to: Square },
}

impl From<Move> for VariantMove {
    fn from(m: Move) -> VariantMove {
        VariantMove::Board(m)
    }
}

impl VariantMove {
    /// The destination square.
    pub fn to(self) -> Square {
        match self {
            VariantMove::Board(m) => m.to(),
            VariantMove::Drop { to, .. } => to,
        }
    }
}

/// How a variant game ended: the winner (`None` for a draw) and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct VariantOutcome {
    pub winner: Option<Color>,
    pub termination: VariantTermination,
}

/// Why a variant game ended (python-chess's `Termination` members that apply).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VariantTermination {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    VariantWin,
    VariantLoss,
    VariantDraw,
}

/// A position of variant `V`. Valid by construction (FEN parsing checks the variant's king
/// rule, pawns' ranks, the en-passant square and that the side not to move is not in
/// check where the variant has check).
#[derive(Clone, Copy)]
pub struct VariantPosition<V: Variant> {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling: CastlingRights,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
    pub(crate) mode: CastlingMode,
    pub(crate) state: V::State,
    pub(crate) rules: PhantomData<V>,
}

impl<V: Variant> PartialEq for VariantPosition<V> {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.castling == other.castling
            && self.ep_square == other.ep_square
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
            && self.state == other.state
    }
}
impl<V: Variant> Eq for VariantPosition<V> {}

impl<V: Variant> fmt::Debug for VariantPosition<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VariantPosition<{}>({:?})", V::UCI_NAME, self.fen())
    }
}

impl<V: Variant> fmt::Display for VariantPosition<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.board, f)
    }
}

impl<V: Variant> Default for VariantPosition<V> {
    fn default() -> Self {
        Self::new()
    }
}

/// Pieces of `by` that attack `sq` through `occupied` (kings included, as python-chess's
/// `attackers_mask`).
#[inline]
pub(crate) fn attackers(board: &Board, by: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    let hit = (knight_attacks(sq) & board.knights())
        | (king_attacks(sq) & board.kings())
        | (pawn_attacks(by.other(), sq) & board.pawns())
        | (rook_attacks(sq, occupied) & board.orthogonal_sliders())
        | (bishop_attacks(sq, occupied) & board.diagonal_sliders());
    hit & board.by_color(by) & occupied
}

/// The rights less any whose rook stood on `sq`.
fn lose_rook_rights(mut rights: CastlingRights, sq: Square) -> CastlingRights {
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if rights.rook_square(color, side) == Some(sq) {
                rights = rights.without(CastlingRights::single(color, side));
            }
        }
    }
    rights
}

impl<V: Variant> VariantPosition<V> {
    /// The variant's starting position.
    pub fn new() -> Self {
        // The starting FENs are constants of this crate, checked by the tests.
        Self::from_fen(V::STARTING_FEN).unwrap_or_else(|_| Self::bare())
    }

    /// An empty board, White to move (only a fallback that is never reached).
    fn bare() -> Self {
        VariantPosition {
            board: Board::empty(),
            turn: Color::White,
            castling: CastlingRights::NONE,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            mode: CastlingMode::Standard,
            state: V::State::default(),
            rules: PhantomData,
        }
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
    /// The castling notation the position was read with (Chess960 writes castling as the
    /// king taking its rook in UCI).
    #[inline]
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }
    /// The square a pawn just crossed with a double step from its second rank.
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
    /// The variant's own state (remaining checks, pockets).
    #[inline]
    pub fn state(&self) -> &V::State {
        &self.state
    }
    #[inline]
    pub(crate) fn state_mut(&mut self) -> &mut V::State {
        &mut self.state
    }
    /// How many `role`s `color` holds in hand (crazyhouse; 0 elsewhere).
    pub fn pocket_count(&self, color: Color, role: Role) -> u8 {
        V::pocket_count(&self.state, color, role)
    }

    /// Pieces of `color` attacking `sq` (kings included).
    pub fn attackers(&self, color: Color, sq: Square) -> Bitboard {
        attackers(&self.board, color, sq, self.board.occupied())
    }

    /// The pieces giving check to the side to move: none in antichess (no check), none in
    /// atomic while the kings touch, none for a side without a king.
    pub fn checkers(&self) -> Bitboard {
        if V::ANTICHESS {
            return Bitboard::EMPTY;
        }
        let Some(king) = self.board.king_of(self.turn) else {
            return Bitboard::EMPTY;
        };
        if V::ATOMIC && self.kings_touch() {
            return Bitboard::EMPTY;
        }
        self.attackers(self.turn.other(), king)
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Atomic: the two kings stand side by side (then neither can be checked).
    pub(crate) fn kings_touch(&self) -> bool {
        match (
            self.board.king_of(Color::White),
            self.board.king_of(Color::Black),
        ) {
            (Some(w), Some(b)) => king_attacks(w).contains(b),
            _ => false,
        }
    }

    /// Does `m` capture (en passant included; a drop never does)?
    pub fn is_capture(&self, m: VariantMove) -> bool {
        match m {
            VariantMove::Drop { .. } => false,
            VariantMove::Board(m) => {
                m.is_en_passant() || self.board.by_color(self.turn.other()).contains(m.to())
            }
        }
    }

    /// The Zobrist key: the Polyglot key of the placement, castling rights, en-passant file
    /// (when a pawn of the side to move stands beside) and side to move, as python-chess's
    /// `zobrist_hash` computes for variant boards, XOR the variant state's key. Computed
    /// on demand: the variants' generator does not maintain it move by move.
    pub fn key(&self) -> u64 {
        let mut key = 0;
        for (sq, piece) in self.board.pieces() {
            key ^= zobrist::piece_key(piece, sq);
        }
        key ^= zobrist::castling_key(self.castling);
        if let Some(ep) = self.ep_square {
            let ours = self.board.by_color(self.turn) & self.board.pawns();
            if (pawn_attacks(self.turn.other(), ep) & ours).any() {
                key ^= zobrist::ep_file_key(ep.file());
            }
        }
        key ^ zobrist::turn_key(self.turn) ^ V::state_key(&self.state)
    }

    // ----- the end of the game --------------------------------------------------------------

    pub fn is_variant_end(&self) -> bool {
        V::is_variant_end(self)
    }
    pub fn is_variant_win(&self) -> bool {
        V::is_variant_win(self)
    }
    pub fn is_variant_loss(&self) -> bool {
        V::is_variant_loss(self)
    }
    pub fn is_variant_draw(&self) -> bool {
        V::is_variant_draw(self)
    }

    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// No legal move, not in check, and the game not already over by the variant's rule
    /// (python-chess's `is_stalemate`: a racing king home or an exploded king is not a
    /// stalemate, though no move is left).
    pub fn is_stalemate(&self) -> bool {
        !self.is_variant_end() && !self.is_check() && !self.has_legal_moves()
    }

    pub fn has_insufficient_material(&self, color: Color) -> bool {
        V::has_insufficient_material(self, color)
    }

    pub fn is_insufficient_material(&self) -> bool {
        Color::ALL
            .into_iter()
            .all(|c| self.has_insufficient_material(c))
    }

    /// The end of the game that the position alone decides, in python-chess's order
    /// (`Board.outcome()` without the history's repetition and move-count rules).
    pub fn outcome(&self) -> Option<VariantOutcome> {
        let (us, them) = (self.turn, self.turn.other());
        let end = |winner, termination| {
            Some(VariantOutcome {
                winner,
                termination,
            })
        };
        if self.is_variant_loss() {
            return end(Some(them), VariantTermination::VariantLoss);
        }
        if self.is_variant_win() {
            return end(Some(us), VariantTermination::VariantWin);
        }
        if self.is_variant_draw() {
            return end(None, VariantTermination::VariantDraw);
        }
        if self.is_checkmate() {
            return end(Some(them), VariantTermination::Checkmate);
        }
        if self.is_insufficient_material() {
            return end(None, VariantTermination::InsufficientMaterial);
        }
        if !self.has_legal_moves() {
            return end(None, VariantTermination::Stalemate);
        }
        None
    }

    // ----- playing moves --------------------------------------------------------------------

    /// The position after the legal move `m`, or `None` if `m` is not legal here.
    pub fn after(&self, m: VariantMove) -> Option<Self> {
        if !self.is_legal(m) {
            return None;
        }
        let mut p = *self;
        p.play_unchecked(m);
        Some(p)
    }

    /// Is `m` legal here?
    pub fn is_legal(&self, m: VariantMove) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Plays a move that must be legal (from [`legal_moves`](Self::legal_moves)); an
    /// illegal one cannot panic but leaves an inconsistent position.
    pub fn play_unchecked(&mut self, m: VariantMove) {
        let us = self.turn;
        self.ep_square = None;
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        match m {
            VariantMove::Drop { role, to } => {
                self.board.set_piece_at(to, Piece::new(us, role));
                V::on_drop(&mut self.state, us, role);
            }
            VariantMove::Board(mv) => self.play_board_move(mv),
        }
        self.turn = us.other();
        V::after_play(self);
    }

    fn play_board_move(&mut self, mv: Move) {
        let (us, them) = (self.turn, self.turn.other());
        let (from, to) = (mv.from(), mv.to());
        let Some(role) = self.board.role_at(from) else {
            return;
        };
        if mv.is_castle() {
            let side = CastlingSide::of_king_to(to);
            let rook_from = self
                .castling
                .rook_square(us, side)
                .unwrap_or_else(|| side.rook_from(us));
            self.board.discard_piece_at(from);
            self.board.discard_piece_at(rook_from);
            self.board.set_piece_at(to, Piece::new(us, Role::King));
            self.board
                .set_piece_at(side.rook_to(us), Piece::new(us, Role::Rook));
            self.castling = self.castling.without_color(us);
            return;
        }
        let capture_sq = if mv.is_en_passant() {
            Square::from_coords(to.file(), from.rank())
        } else {
            to
        };
        let captured = if self.board.by_color(them).contains(capture_sq) {
            self.board.role_at(capture_sq)
        } else {
            None
        };
        if role == Role::Pawn || captured.is_some() {
            self.halfmove_clock = 0;
        }
        let king_home_of = |c: CastlingRights, color: Color| c.king_square(color);
        if let Some(victim) = captured {
            if victim == Role::King && king_home_of(self.castling, them) == Some(capture_sq) {
                self.castling = self.castling.without_color(them);
            }
            self.board.discard_piece_at(capture_sq);
            V::on_capture(&mut self.state, us, capture_sq, victim);
        }
        let promotion = mv.promotion();
        let was_promoted = V::promoted(&self.state).contains(from);
        self.board.discard_piece_at(from);
        self.board
            .set_piece_at(to, Piece::new(us, promotion.unwrap_or(role)));
        V::on_move(&mut self.state, from, to, promotion.is_some());
        // A promoted king (antichess) keeps no castling right of its own.
        if role == Role::King && !was_promoted {
            self.castling = self.castling.without_color(us);
        }
        self.castling = lose_rook_rights(self.castling, from);
        self.castling = lose_rook_rights(self.castling, to);
        if role == Role::Pawn
            && from.index() ^ to.index() == 16
            && from.rank() == Rank::Second.relative_to(us)
        {
            self.ep_square = Some(Square::from_index_masked(usize::midpoint(
                from.index(),
                to.index(),
            ) as u32));
        }
        if V::ATOMIC && captured.is_some() {
            self.explode(to);
        }
    }

    /// Atomic: the capturer on `at` and every piece but pawns around it are destroyed; a
    /// destroyed rook loses its right, a destroyed king its side's rights.
    fn explode(&mut self, at: Square) {
        let blast = king_attacks(at) & self.board.occupied() & !self.board.pawns();
        for sq in blast {
            if self.board.kings().contains(sq)
                && let Some(color) = self.board.color_at(sq)
            {
                self.castling = self.castling.without_color(color);
            }
            self.castling = lose_rook_rights(self.castling, sq);
            self.board.discard_piece_at(sq);
        }
        self.board.discard_piece_at(at);
    }

    /// Validates a position assembled by the FEN reader.
    pub(crate) fn validate(&self) -> Result<(), super::VariantFenError> {
        use super::VariantFenError as E;
        let b = &self.board;
        for color in Color::ALL {
            let kings = (b.kings() & b.by_color(color)).count();
            let ok = match V::KINGS {
                KingRule::OneEach => kings == 1,
                KingRule::Any => true,
                KingRule::AtMostOne => kings <= 1,
                KingRule::HordeWhiteNone => kings == u32::from(color == Color::Black),
            };
            if !ok {
                return Err(E::KingCount {
                    color,
                    count: kings,
                });
            }
        }
        let mut forbidden = b.pawns() & Bitboard::BACKRANKS;
        if V::FIRST_RANK_PAWNS {
            forbidden = (b.pawns() & Bitboard::from_rank(Rank::Eighth))
                | (b.pawns() & b.by_color(Color::Black) & Bitboard::from_rank(Rank::First));
        }
        if let Some(square) = forbidden.first() {
            return Err(E::PawnOnBackRank { square });
        }
        if V::DROPS {
            for color in Color::ALL {
                for role in [
                    Role::Pawn,
                    Role::Knight,
                    Role::Bishop,
                    Role::Rook,
                    Role::Queen,
                ] {
                    if self.pocket_count(color, role) > 64 {
                        return Err(E::BadPocket {
                            text: format!("{} {role:?}s", self.pocket_count(color, role)),
                        });
                    }
                }
            }
        }
        if let Some(ep) = self.ep_square {
            let mover = self.turn.other();
            let pawn_sq = ep.offset(mover.fold_wb(8, -8));
            let origin = ep.offset(mover.fold_wb(-8, 8));
            let ok = ep.rank() == Rank::Third.relative_to(mover)
                && pawn_sq.is_some_and(|s| b.piece_at(s) == Some(Piece::new(mover, Role::Pawn)))
                && !b.occupied().contains(ep)
                && origin.is_some_and(|s| !b.occupied().contains(s));
            if !ok {
                return Err(E::ImpossibleEnPassant { square: ep });
            }
        }
        // The side that just moved may not stand in check (racing kings: nobody may). Atomic
        // has no such rule: a check may stand while the kings touch or a king is gone.
        if !V::ANTICHESS && !V::ATOMIC {
            let mut flipped = *self;
            flipped.turn = self.turn.other();
            if flipped.is_check() || (V::NO_CHECKS && self.is_check()) {
                return Err(E::OppositeCheck);
            }
        }
        Ok(())
    }

    /// Keeps only the castling rights whose king and rook stand where the right says
    /// (python-chess's `clean_castling_rights`).
    pub(crate) fn clean_castling(&mut self) {
        let b = self.board;
        let promoted = V::promoted(&self.state);
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                let Some(c) = self.castling.castling(color, side) else {
                    continue;
                };
                let ok = b.piece_at(c.king_from) == Some(Piece::new(color, Role::King))
                    && !promoted.contains(c.king_from)
                    && b.piece_at(c.rook_from) == Some(Piece::new(color, Role::Rook))
                    && CastlingSide::of_rook(c.king_from, c.rook_from) == side
                    && c.king_from != c.rook_from;
                if !ok {
                    self.castling = self.castling.without(CastlingRights::single(color, side));
                }
            }
        }
    }
}

//! `Setup`: any placement python-chess's `Board` can hold, unvalidated (issue 38 step 2;
//! shakmaty's `Setup` is the model).
//!
//! [`Position`] is always a legal position of standard chess or Chess960, and stays the hot
//! path. python-chess also holds boards with no king, nine queens, pawns on the back rank or
//! the side not to move in check, says what is wrong with them in [`Setup::status`], and
//! still plays them: with a king of the side to move, the legal moves are the pseudo-legal
//! moves that leave that king safe; without one, every pseudo-legal move is legal. A `Setup`
//! does the same, in python-chess's order and with python-chess's corner cases (it is the
//! reference the Python board is differentially tested against), so that one rules engine
//! serves both: [`Setup::position`] turns a setup into a `Position` where that is possible,
//! and the methods in `moves.rs` and `notation.rs` play it python-chess's way otherwise.
//!
//! Moves of a setup are python-chess's moves: origin, destination and promotion only
//! ([`MoveKind::Normal`](crate::MoveKind) or `Promotion`). Castling is the king's two-square
//! move in standard chess (`e1g1`) and the king taking its own rook in Chess960 (`e1h1`);
//! en passant is a pawn's diagonal step onto the en-passant square. Which a move is follows
//! from the board, as in python-chess.

mod moves;
mod notation;

use crate::attacks::{
    bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::{CastlingRights, CastlingSide};
use crate::fen::FenError;
use crate::position::{Position, PositionError};
use crate::{Color, File, Piece, Rank, Role, Square};
use core::fmt;
use core::ops::{BitOr, BitOrAssign};

/// What is wrong with a setup: python-chess's `Status` flags, with its bit values, so that
/// the Python board hands them over as they are.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Status(u32);

impl Status {
    pub const VALID: Status = Status(0);
    pub const NO_WHITE_KING: Status = Status(1 << 0);
    pub const NO_BLACK_KING: Status = Status(1 << 1);
    pub const TOO_MANY_KINGS: Status = Status(1 << 2);
    pub const TOO_MANY_WHITE_PAWNS: Status = Status(1 << 3);
    pub const TOO_MANY_BLACK_PAWNS: Status = Status(1 << 4);
    pub const PAWNS_ON_BACKRANK: Status = Status(1 << 5);
    pub const TOO_MANY_WHITE_PIECES: Status = Status(1 << 6);
    pub const TOO_MANY_BLACK_PIECES: Status = Status(1 << 7);
    pub const BAD_CASTLING_RIGHTS: Status = Status(1 << 8);
    pub const INVALID_EP_SQUARE: Status = Status(1 << 9);
    pub const OPPOSITE_CHECK: Status = Status(1 << 10);
    pub const EMPTY: Status = Status(1 << 11);
    /// Racing Kings only (python-chess's variant flags; never set here).
    pub const RACE_CHECK: Status = Status(1 << 12);
    pub const RACE_OVER: Status = Status(1 << 13);
    pub const RACE_MATERIAL: Status = Status(1 << 14);
    pub const TOO_MANY_CHECKERS: Status = Status(1 << 15);
    pub const IMPOSSIBLE_CHECK: Status = Status(1 << 16);

    /// Every flag with python-chess's name for it, lowest bit first.
    pub const NAMES: [(Status, &'static str); 17] = [
        (Status::NO_WHITE_KING, "NO_WHITE_KING"),
        (Status::NO_BLACK_KING, "NO_BLACK_KING"),
        (Status::TOO_MANY_KINGS, "TOO_MANY_KINGS"),
        (Status::TOO_MANY_WHITE_PAWNS, "TOO_MANY_WHITE_PAWNS"),
        (Status::TOO_MANY_BLACK_PAWNS, "TOO_MANY_BLACK_PAWNS"),
        (Status::PAWNS_ON_BACKRANK, "PAWNS_ON_BACKRANK"),
        (Status::TOO_MANY_WHITE_PIECES, "TOO_MANY_WHITE_PIECES"),
        (Status::TOO_MANY_BLACK_PIECES, "TOO_MANY_BLACK_PIECES"),
        (Status::BAD_CASTLING_RIGHTS, "BAD_CASTLING_RIGHTS"),
        (Status::INVALID_EP_SQUARE, "INVALID_EP_SQUARE"),
        (Status::OPPOSITE_CHECK, "OPPOSITE_CHECK"),
        (Status::EMPTY, "EMPTY"),
        (Status::RACE_CHECK, "RACE_CHECK"),
        (Status::RACE_OVER, "RACE_OVER"),
        (Status::RACE_MATERIAL, "RACE_MATERIAL"),
        (Status::TOO_MANY_CHECKERS, "TOO_MANY_CHECKERS"),
        (Status::IMPOSSIBLE_CHECK, "IMPOSSIBLE_CHECK"),
    ];

    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The flags of `bits` that python-chess defines (others are dropped).
    pub const fn from_bits_truncate(bits: u32) -> Status {
        Status(bits & ((1 << 17) - 1))
    }

    pub const fn is_valid(self) -> bool {
        self.0 == 0
    }

    pub const fn contains(self, other: Status) -> bool {
        self.0 & other.0 == other.0
    }

    /// The names of the flags set, lowest bit first.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Status::NAMES
            .into_iter()
            .filter(move |(flag, _)| self.contains(*flag))
            .map(|(_, name)| name)
    }
}

impl BitOr for Status {
    type Output = Status;
    fn bitor(self, rhs: Status) -> Status {
        Status(self.0 | rhs.0)
    }
}

impl BitOrAssign for Status {
    fn bitor_assign(&mut self, rhs: Status) {
        self.0 |= rhs.0;
    }
}

impl fmt::Debug for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_valid() {
            return f.write_str("VALID");
        }
        let names: Vec<&str> = self.names().collect();
        f.write_str(&names.join(" | "))
    }
}

/// A board as python-chess holds it: any placement, with the fields of a FEN taken as given
/// (see the module docs). Fields are public: a setup checks nothing until asked.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    pub board: Board,
    /// Pieces that were pawns (FEN `~`, or promoted here): python-chess keeps them apart,
    /// so that a promoted king never castles and is not "the" king.
    pub promoted: Bitboard,
    pub turn: Color,
    /// Castling rights as the rook squares they name, as given (python-chess's
    /// `castling_rights`); [`Setup::clean_castling_rights`] keeps those that can be used.
    pub castling_rights: Bitboard,
    /// As given, whether or not a pawn has just crossed it.
    pub ep_square: Option<Square>,
    pub halfmove_clock: u32,
    pub fullmove_number: u32,
    /// Castling rights by rook file with the king anywhere between its rooks, castling written
    /// as the king taking its rook.
    pub chess960: bool,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::empty()
    }
}

impl From<&Position> for Setup {
    fn from(pos: &Position) -> Setup {
        let rights = pos.castling_rights();
        let mut castling_rights = Bitboard::EMPTY;
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(sq) = rights.rook_square(color, side) {
                    castling_rights |= sq;
                }
            }
        }
        Setup {
            board: *pos.board(),
            promoted: Bitboard::EMPTY,
            turn: pos.turn(),
            castling_rights,
            ep_square: pos.ep_square(),
            halfmove_clock: pos.halfmove_clock(),
            fullmove_number: pos.fullmove_number(),
            chess960: !rights.is_standard(),
        }
    }
}

/// The squares of one colour's first rank.
pub(crate) fn backrank(color: Color) -> Bitboard {
    Bitboard::from_rank(color.back_rank())
}

/// The highest square of a set (python-chess's `msb`, which its scans start from).
pub(crate) fn msb(bb: Bitboard) -> Option<Square> {
    bb.last()
}

/// The squares of a set from h8 down to a1, the order python-chess scans in.
pub(crate) fn descending(mut bb: Bitboard) -> impl Iterator<Item = Square> {
    core::iter::from_fn(move || {
        let sq = bb.last()?;
        bb = bb.without(sq);
        Some(sq)
    })
}

impl Setup {
    /// An empty board, White to move, no rights (python-chess's `Board(None)`).
    pub const fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            promoted: Bitboard::EMPTY,
            turn: Color::White,
            castling_rights: Bitboard::EMPTY,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            chess960: false,
        }
    }

    #[inline]
    pub(crate) fn us(&self) -> Bitboard {
        self.board.by_color(self.turn)
    }

    #[inline]
    pub(crate) fn them(&self) -> Bitboard {
        self.board.by_color(self.turn.other())
    }

    /// The king of `color` as python-chess names it: the highest unpromoted one, if any.
    pub fn king(&self, color: Color) -> Option<Square> {
        msb(self.board.kings() & self.board.by_color(color) & !self.promoted)
    }

    /// The pieces of `color` that attack `sq` when `occupied` blocks the sliders. Pieces
    /// missing from `occupied` still attack, as in python-chess.
    pub fn attackers(&self, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
        let b = &self.board;
        ((king_attacks(sq) & b.kings())
            | (knight_attacks(sq) & b.knights())
            | (rook_attacks(sq, occupied) & b.orthogonal_sliders())
            | (bishop_attacks(sq, occupied) & b.diagonal_sliders())
            | (pawn_attacks(color.other(), sq) & b.pawns()))
            & b.by_color(color)
    }

    /// Whether any square of `path` is attacked by the side not to move.
    pub(crate) fn path_attacked(&self, path: Bitboard, occupied: Bitboard) -> bool {
        Iterator::any(&mut path.into_iter(), |sq: Square| {
            self.attackers(self.turn.other(), sq, occupied).any()
        })
    }

    /// The squares the piece on `sq` attacks (none for an empty square).
    pub fn attacks(&self, sq: Square) -> Bitboard {
        let b = &self.board;
        let occupied = b.occupied();
        match b.piece_at(sq) {
            None => Bitboard::EMPTY,
            Some(Piece { role, color }) => match role {
                Role::Pawn => pawn_attacks(color, sq),
                Role::Knight => knight_attacks(sq),
                Role::King => king_attacks(sq),
                Role::Bishop => bishop_attacks(sq, occupied),
                Role::Rook => rook_attacks(sq, occupied),
                Role::Queen => bishop_attacks(sq, occupied) | rook_attacks(sq, occupied),
            },
        }
    }

    /// The pieces giving check to the side to move's king (none without a king).
    pub fn checkers(&self) -> Bitboard {
        match self.king(self.turn) {
            Some(king) => self.attackers(self.turn.other(), king, self.board.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Whether the side that just moved left its king attacked.
    pub fn was_into_check(&self) -> bool {
        self.king(self.turn.other())
            .is_some_and(|king| self.attackers(self.turn, king, self.board.occupied()).any())
    }

    /// The castling rights that can be used: each a rook on its colour's first rank with
    /// the unpromoted king there too (standard chess: king on e, rooks in the corners;
    /// Chess960: the outermost rook on each side of the king).
    pub fn clean_castling_rights(&self) -> Bitboard {
        let b = &self.board;
        let castling = self.castling_rights & b.rooks();
        let mut out = Bitboard::EMPTY;
        for color in Color::ALL {
            let rank = backrank(color);
            let mut mine = castling & rank & b.by_color(color);
            let kings = b.by_color(color) & b.kings() & !self.promoted;
            if !self.chess960 {
                mine &= Bitboard::CORNERS;
                let e = Square::from_coords(File::E, color.back_rank());
                if !kings.contains(e) {
                    mine = Bitboard::EMPTY;
                }
                out |= mine;
                continue;
            }
            let Some(king) = msb(kings & rank) else {
                continue;
            };
            if let Some(a_side) = mine.first().filter(|&rook| rook <= king) {
                out |= a_side;
            }
            if let Some(h_side) = msb(mine).filter(|&rook| rook >= king) {
                out |= h_side;
            }
        }
        out
    }

    /// The en-passant square if a pawn can just have crossed it: python-chess's
    /// `_valid_ep_square` (a1, which its truth test reads as none, is never valid).
    pub fn valid_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square.filter(|&ep| ep != Square::A1)?;
        let b = &self.board;
        let mover = self.turn.other();
        if ep.rank() != Rank::Third.relative_to(mover) {
            return None;
        }
        let pawn = ep.offset(mover.fold_wb(8, -8))?;
        let origin = ep.offset(mover.fold_wb(-8, 8))?;
        let ok = (b.pawns() & b.by_color(mover)).contains(pawn)
            && !b.occupied().contains(ep)
            && !b.occupied().contains(origin);
        ok.then_some(ep)
    }

    /// What is wrong with this setup, as python-chess's `status()` says it.
    pub fn status(&self) -> Status {
        let b = &self.board;
        let mut errors = Status::VALID;
        let (white, black) = (b.by_color(Color::White), b.by_color(Color::Black));
        if b.occupied().is_empty() {
            errors |= Status::EMPTY;
        }
        if (white & b.kings()).is_empty() {
            errors |= Status::NO_WHITE_KING;
        }
        if (black & b.kings()).is_empty() {
            errors |= Status::NO_BLACK_KING;
        }
        if b.kings().count() > 2 {
            errors |= Status::TOO_MANY_KINGS;
        }
        if white.count() > 16 {
            errors |= Status::TOO_MANY_WHITE_PIECES;
        }
        if black.count() > 16 {
            errors |= Status::TOO_MANY_BLACK_PIECES;
        }
        if (white & b.pawns()).count() > 8 {
            errors |= Status::TOO_MANY_WHITE_PAWNS;
        }
        if (black & b.pawns()).count() > 8 {
            errors |= Status::TOO_MANY_BLACK_PAWNS;
        }
        if (b.pawns() & Bitboard::BACKRANKS).any() {
            errors |= Status::PAWNS_ON_BACKRANK;
        }
        if self.castling_rights != self.clean_castling_rights() {
            errors |= Status::BAD_CASTLING_RIGHTS;
        }
        let valid_ep = self.valid_ep_square();
        if self.ep_square != valid_ep {
            errors |= Status::INVALID_EP_SQUARE;
        }
        if self.was_into_check() {
            errors |= Status::OPPOSITE_CHECK;
        }
        let checkers = self.checkers();
        let our_kings = b.kings() & self.us() & !self.promoted;
        if checkers.any() {
            let count = checkers.count();
            if count > 2 {
                errors |= Status::TOO_MANY_CHECKERS;
            }
            let impossible = match valid_ep {
                Some(ep) => {
                    // The double step that made the en-passant square may have uncovered
                    // at most the one check it gives itself.
                    let pushed_to = Square::new(ep.index() as u32 ^ 8).unwrap_or(ep);
                    let pushed_from = Square::new(ep.index() as u32 ^ 0b011_000).unwrap_or(ep);
                    let before = b.occupied().without(pushed_to).with(pushed_from);
                    count > 1
                        || (msb(checkers) != Some(pushed_to)
                            && self.path_attacked(our_kings, before))
                }
                None => {
                    count > 2
                        || (count == 2
                            && match (checkers.first(), msb(checkers)) {
                                (Some(a), Some(z)) => line(a, z).intersects(our_kings),
                                _ => false,
                            })
                }
            };
            if impossible {
                errors |= Status::IMPOSSIBLE_CHECK;
            }
        }
        errors
    }

    pub fn is_valid(&self) -> bool {
        self.status().is_valid()
    }

    /// The castling rights that can be used, as the rules crate's rights by file.
    pub fn castling(&self) -> CastlingRights {
        let clean = self.clean_castling_rights();
        let mut rights = CastlingRights::NONE;
        for color in Color::ALL {
            let Some(king) = self.king(color) else {
                continue;
            };
            for rook in clean & backrank(color) {
                let side = CastlingSide::of_rook(king, rook);
                rights = rights.with(color, side, king.file(), rook.file());
            }
        }
        rights
    }

    /// The legal position this setup describes, its castling rights cleaned and its
    /// en-passant square dropped where no pawn has just crossed it (as python-chess reads
    /// such a FEN); why not, where it describes none. Promoted pieces are forgotten.
    pub fn position(&self) -> Result<Position, PositionError> {
        Position::from_parts(
            self.board,
            self.turn,
            self.castling(),
            self.valid_ep_square(),
            self.halfmove_clock,
            self.fullmove_number.max(1),
        )
    }

    /// Parses a FEN as python-chess's `Board(fen, chess960=...)` does: any placement (with
    /// `~` after promoted pieces), X-FEN or Shredder-FEN castling read against the rooks on
    /// the board, any en-passant square, missing trailing fields defaulted. Only text that
    /// python-chess refuses too is an error.
    pub fn from_fen(text: &str, chess960: bool) -> Result<Setup, FenError> {
        notation::parse_fen(text, chess960)
    }
}

//! FEN: Forsyth–Edwards Notation, parsed strictly and written like python-chess.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::{CastlingMode, CastlingRights, CastlingSide};
use crate::position::{Position, PositionError};
use crate::zobrist;
use crate::{Color, File, Rank, Square};
use core::fmt;

/// The six fields of a FEN record.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FenField {
    Placement,
    SideToMove,
    Castling,
    EnPassant,
    HalfmoveClock,
    FullmoveNumber,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Placement => "piece placement",
            FenField::SideToMove => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en passant",
            FenField::HalfmoveClock => "halfmove clock",
            FenField::FullmoveNumber => "fullmove number",
        })
    }
}

/// What is wrong with a FEN, naming the field and the offending text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// FEN has 6 fields; the EPD-style 4 (no clocks) and 5 are accepted too.
    FieldCount { found: usize, text: String },
    /// A character in the placement that is neither a piece letter, a digit 1–8 nor `/`.
    BadPieceLetter { letter: char, text: String },
    /// A rank whose squares do not add up to 8.
    RankWidth { rank: u32, width: u32, text: String },
    /// The placement does not have exactly 8 ranks.
    RankCount { found: usize, text: String },
    /// The side-to-move field is not `w` or `b`.
    BadSideToMove { text: String },
    /// The castling field is not `-` or a subset of `KQkq` (in Chess960 also file letters)
    /// with at most one right per colour and side.
    BadCastling { text: String },
    /// The en-passant field is not `-` or a square name on rank 3 or 6.
    BadEnPassant { text: String },
    /// A clock that is not a non-negative whole number.
    BadClock { field: FenField, text: String },
    /// The fields parse, but do not describe a legal position.
    Setup {
        field: FenField,
        text: String,
        error: PositionError,
    },
}

impl FenError {
    /// The field at fault.
    pub fn field(&self) -> Option<FenField> {
        match self {
            FenError::FieldCount { .. } => None,
            FenError::BadPieceLetter { .. }
            | FenError::RankWidth { .. }
            | FenError::RankCount { .. } => Some(FenField::Placement),
            FenError::BadSideToMove { .. } => Some(FenField::SideToMove),
            FenError::BadCastling { .. } => Some(FenField::Castling),
            FenError::BadEnPassant { .. } => Some(FenField::EnPassant),
            FenError::BadClock { field, .. } | FenError::Setup { field, .. } => Some(*field),
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount { found, text } => {
                write!(
                    f,
                    "invalid FEN {text:?}: expected 6 space-separated fields (4 or 5 accepted), found {found}"
                )
            }
            FenError::BadPieceLetter { letter, text } => {
                write!(
                    f,
                    "invalid FEN piece placement {text:?}: {letter:?} is not a piece letter (KQRBNP, kqrbnp), digit 1-8 or '/'"
                )
            }
            FenError::RankWidth { rank, width, text } => {
                write!(
                    f,
                    "invalid FEN piece placement {text:?}: rank {rank} has {width} squares instead of 8"
                )
            }
            FenError::RankCount { found, text } => {
                write!(
                    f,
                    "invalid FEN piece placement {text:?}: {found} ranks instead of 8"
                )
            }
            FenError::BadSideToMove { text } => {
                write!(f, "invalid FEN side to move {text:?}: expected 'w' or 'b'")
            }
            FenError::BadCastling { text } => {
                write!(
                    f,
                    "invalid FEN castling {text:?}: expected '-' or some of 'KQkq' (in Chess960 also the rooks' file letters), one right per colour and side"
                )
            }
            FenError::BadEnPassant { text } => {
                write!(
                    f,
                    "invalid FEN en passant {text:?}: expected '-' or a square on rank 3 or 6"
                )
            }
            FenError::BadClock { field, text } => {
                write!(
                    f,
                    "invalid FEN {field} {text:?}: expected a non-negative whole number"
                )
            }
            FenError::Setup { field, text, error } => {
                write!(f, "invalid FEN {field} {text:?}: {error}")
            }
        }
    }
}

impl std::error::Error for FenError {}

const DIGIT: u8 = 0x10;
const PIECE: u8 = 0x20;

/// Placement characters by byte: `DIGIT | n` for the digits 1–8, `PIECE | colour << 3 | role
/// index` for piece letters, 0 for anything else (every byte has an entry, so a lookup needs
/// no bounds check).
const PLACEMENT_CODES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut d = 1;
    while d <= 8 {
        table[(b'0' + d) as usize] = DIGIT | d;
        d += 1;
    }
    let letters = *b"pnbrqk";
    let mut i = 0;
    while i < 6 {
        let lower = letters[i];
        table[lower.to_ascii_uppercase() as usize] = PIECE | (Color::White as u8) << 3 | i as u8;
        table[lower as usize] = PIECE | (Color::Black as u8) << 3 | i as u8;
        i += 1;
    }
    table
};

/// The error for the character starting at byte `at` of `rank_text`.
fn bad_letter(text: &str, rank_text: &str, at: usize) -> FenError {
    FenError::BadPieceLetter {
        letter: rank_text[at..].chars().next().unwrap_or('?'),
        text: text.to_owned(),
    }
}

/// Parses the placement field.
///
/// Hot in Python (`Board(fen)`): no allocation, and squares are set by OR-ing into local
/// bitboards (each square is written at most once, so no clearing is needed).
pub fn parse_board(text: &str) -> Result<Board, FenError> {
    match placement(text.as_bytes()) {
        Some(board) => Ok(board),
        None => placement_error(text),
    }
}

/// The placement of a well-formed field, in one pass over its bytes (a fifth of
/// `Board(fen)` went to counting and splitting ranks first); `None` for anything else,
/// which `placement_error` then names.
#[inline]
fn placement(text: &[u8]) -> Option<Board> {
    match placement_prefix(text)? {
        (board, _, end) if end == text.len() => Some(board),
        _ => None,
    }
}

/// [`placement`] of the bytes up to the first space (or the end), with the placement's part
/// of the Zobrist key (`zobrist::placement_key`) and where it stopped: a whole FEN's
/// placement is read without looking for its end first.
///
/// One table lookup and one branch per byte. Squares are counted from a8 (56) rightwards by
/// a running index; a piece is one OR into its own bitboard and one XOR of its key, both
/// indexed by its code (colour and role), and the board's role and colour sets are put
/// together once at the end. A rank's width is checked once, at its `/` (or the end): the
/// index only grows within a rank, so a rank that ends exactly on its last square never
/// went past it, and a piece written past it (its square taken modulo 64, so never out of
/// bounds) is thrown away with the rest when the width is wrong. Two digits in a row
/// ("44") are not FEN even if the width adds up: they are noted and refused at the end.
#[inline]
fn placement_prefix(text: &[u8]) -> Option<(Board, u64, usize)> {
    let mut pieces = [0u64; 16];
    let mut key = 0u64;
    // `usize`: eight squares a byte at most, so no text that fits in memory overflows it.
    let mut sq = 56usize;
    let mut rank_end = 64usize;
    let mut last_was_digit = false;
    let mut two_digits = false;
    let mut at = 0;
    while at < text.len() {
        let byte = text[at];
        let code = PLACEMENT_CODES[usize::from(byte)];
        if code & PIECE != 0 {
            let piece = usize::from(code & 15);
            pieces[piece] |= 1 << (sq & 63);
            key ^= zobrist::PIECE_KEYS[piece][sq & 63];
            sq += 1;
            last_was_digit = false;
        } else if code & DIGIT != 0 {
            two_digits |= last_was_digit;
            sq += usize::from(code & 15);
            last_was_digit = true;
        } else if byte == b'/' && sq == rank_end && rank_end > 8 {
            rank_end -= 8;
            sq = rank_end - 8;
            last_was_digit = false;
        } else if byte == b' ' {
            break;
        } else {
            return None;
        }
        at += 1;
    }
    if two_digits || rank_end != 8 || sq != 8 {
        return None;
    }
    let (white, black) = (&pieces[..6], &pieces[8..14]);
    let mut board = Board::empty();
    for role in 0..6 {
        board.by_role[role] = Bitboard(white[role] | black[role]);
    }
    board.by_color[0] = Bitboard(white.iter().fold(0, |all, bits| all | bits));
    board.by_color[1] = Bitboard(black.iter().fold(0, |all, bits| all | bits));
    Some((board, key, at))
}

/// The error for a placement field `placement` refused, checked rank by rank.
#[cold]
fn placement_error(text: &str) -> Result<Board, FenError> {
    let rank_count = text.bytes().filter(|&b| b == b'/').count() + 1;
    if rank_count != 8 {
        return Err(FenError::RankCount {
            found: rank_count,
            text: text.to_owned(),
        });
    }
    let mut board = Board::empty();
    for (i, rank_text) in text.split('/').enumerate() {
        let rank = 7 - i as u32;
        let mut file = 0u32;
        let mut last_was_digit = false;
        for (at, byte) in rank_text.bytes().enumerate() {
            // One table lookup per character instead of a `match`: its jump table
            // mispredicts on every piece letter.
            let code = PLACEMENT_CODES.get(usize::from(byte)).copied().unwrap_or(0);
            if code & DIGIT != 0 {
                // Two digits in a row ("44") is not FEN even if the width adds up.
                if last_was_digit {
                    return Err(bad_letter(text, rank_text, at));
                }
                file += u32::from(code & 0xf);
                last_was_digit = true;
            } else if code & PIECE != 0 {
                if file < 8 {
                    let sq = Bitboard(1 << (rank * 8 + file));
                    board.by_role[usize::from(code & 7)] |= sq;
                    board.by_color[usize::from(code >> 3 & 1)] |= sq;
                }
                file += 1;
                last_was_digit = false;
            } else {
                return Err(bad_letter(text, rank_text, at));
            }
            if file > 8 {
                break;
            }
        }
        if file != 8 {
            return Err(FenError::RankWidth {
                rank: rank + 1,
                width: file,
                text: text.to_owned(),
            });
        }
    }
    Ok(board)
}

fn parse_clock(field: FenField, text: &str) -> Result<u32, FenError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenError::BadClock {
            field,
            text: text.to_owned(),
        });
    }
    text.parse::<u32>().map_err(|_| FenError::BadClock {
        field,
        text: text.to_owned(),
    })
}

/// Parses a FEN (or a 4-field EPD position) into a validated [`Position`] of standard chess:
/// castling rights `KQkq` with the kings on e1/e8 and the rooks in the corners.
pub fn parse(fen: &str) -> Result<Position, FenError> {
    parse_with(fen, CastlingMode::Standard)
}

/// Parses a FEN with castling rights read in `mode`: in Chess960, X-FEN (`KQkq` for the
/// outermost rook on that side of the king, a file letter for any other) and Shredder-FEN
/// (file letters only, `HAha`) alike.
pub fn parse_with(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
    match parse_canonical(fen, mode) {
        Some(pos) => Ok(pos),
        None => parse_fields(fen, mode),
    }
}

/// A FEN as FEN writers write it (six fields, one space apart, no space around them), read
/// in one pass over its bytes; `None` for anything else: other spacing, four or five
/// fields, and every error, which [`parse_fields`] then reads or names. Each field is held
/// to `parse_fields`'s own rules (or a subset of them, where the rest falls through), so
/// the two read every FEN this one accepts alike. `Board(fen)` in Python is hot: this pass
/// is a third of `parse_fields`'s cost, which splits the text into fields first.
#[inline]
fn parse_canonical(fen: &str, mode: CastlingMode) -> Option<Position> {
    let bytes = fen.as_bytes();
    let (board, placement_key, placement_end) = placement_prefix(bytes)?;
    let (turn, castling_at) = match bytes.get(placement_end + 1..placement_end + 3)? {
        b"w " => (Color::White, placement_end + 3),
        b"b " => (Color::Black, placement_end + 3),
        _ => return None,
    };
    // Every slice bound below is just after or before an ASCII space, so on a character
    // boundary of `fen`.
    let (castling, castling_end) = if bytes.get(castling_at..castling_at + 2) == Some(b"- ") {
        // No rights, the usual field once the kings or rooks have moved.
        (CastlingRights::NONE, castling_at + 1)
    } else {
        let castling_end = castling_at + bytes[castling_at..].iter().position(|&b| b == b' ')?;
        if castling_end == castling_at {
            // Two spaces: the fields are not where this pass looks for them.
            return None;
        }
        let castling = parse_castling(&board, &fen[castling_at..castling_end], mode)?;
        (castling, castling_end)
    };
    let (ep_square, clocks_at) = match bytes.get(castling_end + 1..)? {
        [b'-', b' ', ..] => (None, castling_end + 3),
        [file @ b'a'..=b'h', rank @ (b'3' | b'6'), b' ', ..] => (
            Square::new(u32::from(*rank - b'1') * 8 + u32::from(*file - b'a')),
            castling_end + 4,
        ),
        _ => return None,
    };
    let clocks = &bytes[clocks_at..];
    let space = clocks.iter().position(|&b| b == b' ')?;
    let halfmove_clock = canonical_clock(&clocks[..space])?;
    let fullmove_number = canonical_clock(&clocks[space + 1..])?;
    Position::from_parts_keyed(
        board,
        turn,
        castling,
        ep_square,
        halfmove_clock,
        fullmove_number,
        placement_key,
    )
    .ok()
}

/// A clock as [`parse_clock`] reads it (ASCII digits, at least one), or `None`: also for
/// more than nine digits, which [`parse_fields`] reads instead (nine cannot overflow a
/// `u32`, so no step checks for overflow).
#[inline]
fn canonical_clock(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || digits.len() > 9 {
        return None;
    }
    let mut n = 0u32;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u32::from(d - b'0');
    }
    Some(n)
}

/// [`parse_with`] field by field: any spacing, four to six fields, and the error naming
/// what is wrong.
fn parse_fields(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
    let mut fields = [""; 6];
    let mut count = 0;
    for field in fen.split_ascii_whitespace() {
        if count < fields.len() {
            fields[count] = field;
        }
        count += 1;
    }
    if !(4..=6).contains(&count) {
        return Err(FenError::FieldCount {
            found: count,
            text: fen.to_owned(),
        });
    }
    let fields = &fields[..count];
    let board = parse_board(fields[0])?;
    let turn = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(FenError::BadSideToMove {
                text: other.to_owned(),
            });
        }
    };
    let castling_text = fields[2];
    let castling =
        parse_castling(&board, castling_text, mode).ok_or_else(|| FenError::BadCastling {
            text: castling_text.to_owned(),
        })?;
    let ep_text = fields[3];
    let ep_square = if ep_text == "-" {
        None
    } else {
        match Square::from_name(ep_text) {
            Some(sq) if sq.rank() == Rank::Third || sq.rank() == Rank::Sixth => Some(sq),
            _ => {
                return Err(FenError::BadEnPassant {
                    text: ep_text.to_owned(),
                });
            }
        }
    };
    let halfmove_clock = match fields.get(4) {
        Some(t) => parse_clock(FenField::HalfmoveClock, t)?,
        None => 0,
    };
    let fullmove_number = match fields.get(5) {
        Some(t) => parse_clock(FenField::FullmoveNumber, t)?,
        None => 1,
    };
    Position::from_parts(
        board,
        turn,
        castling,
        ep_square,
        halfmove_clock,
        fullmove_number,
    )
    .map_err(|error| {
        let (field, text) = match &error {
            PositionError::KingCount { .. } | PositionError::PawnOnBackRank { .. } => {
                (FenField::Placement, fields[0])
            }
            PositionError::OppositeCheck => (FenField::SideToMove, fields[1]),
            PositionError::CastlingWithoutPieces { .. } => (FenField::Castling, fields[2]),
            PositionError::ImpossibleEnPassant { .. } => (FenField::EnPassant, fields[3]),
            PositionError::FullmoveNumberZero => (
                FenField::FullmoveNumber,
                fields.get(5).copied().unwrap_or(""),
            ),
        };
        FenError::Setup {
            field,
            text: text.to_owned(),
            error,
        }
    })
}

/// Reads the castling field against the placement (Chess960 rights name rooks that only
/// the board can find). Only the syntax is refused here: a right whose king or rook is
/// missing is kept with the standard squares, so that `Position::from_parts` reports it
/// in its turn (after a missing king, say) as [`PositionError::CastlingWithoutPieces`].
pub(crate) fn parse_castling(
    board: &Board,
    text: &str,
    mode: CastlingMode,
) -> Option<CastlingRights> {
    let mut castling = CastlingRights::NONE;
    if text == "-" {
        return Some(castling);
    }
    if !mode.is_chess960() {
        // Standard chess: `K` and `Q` always name the e-file king and the h- and a-file rooks
        // (the general reading below comes to the same: a right whose pieces stand elsewhere
        // is kept with the standard squares), so each letter is one right.
        for byte in text.bytes() {
            let (color, side) = match byte {
                b'K' => (Color::White, CastlingSide::KingSide),
                b'Q' => (Color::White, CastlingSide::QueenSide),
                b'k' => (Color::Black, CastlingSide::KingSide),
                b'q' => (Color::Black, CastlingSide::QueenSide),
                _ => return None,
            };
            if castling.has(color, side) {
                return None;
            }
            castling = castling.with(color, side, File::E, side.rook_from(color).file());
        }
        return Some(castling);
    }
    let valid = |c: char| match c.to_ascii_lowercase() {
        'k' | 'q' => true,
        'a'..='h' => mode.is_chess960(),
        _ => false,
    };
    if !text.chars().all(valid) {
        return None;
    }
    for c in text.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let lower = c.to_ascii_lowercase();
        let back_rank = Bitboard::from_rank(color.back_rank());
        let king = (board.kings() & board.by_color(color) & back_rank).single_square();
        let rooks = board.rooks() & board.by_color(color) & back_rank;
        // The rook the letter names: the outermost on that side of the king for K and Q,
        // the one on that file for a file letter.
        let (side, rook) = match (lower, king) {
            ('k', k) => (
                CastlingSide::KingSide,
                rooks
                    .last()
                    .filter(|r| k.is_some_and(|k| r.file() > k.file())),
            ),
            ('q', k) => (
                CastlingSide::QueenSide,
                rooks
                    .first()
                    .filter(|r| k.is_some_and(|k| r.file() < k.file())),
            ),
            (letter, k) => {
                let file = File::from_char(letter).unwrap_or(File::A);
                let rook = Some(Square::from_coords(file, color.back_rank()))
                    .filter(|&r| rooks.contains(r) && Some(r) != k);
                let side = match (k, rook) {
                    (Some(k), Some(r)) => CastlingSide::of_rook(k, r),
                    // No rook there: the side the file is on for an e-file king.
                    _ if file >= File::E => CastlingSide::KingSide,
                    _ => CastlingSide::QueenSide,
                };
                (side, rook)
            }
        };
        if castling.has(color, side) {
            return None;
        }
        let standard = (File::E, side.rook_from(color).file());
        let (king_file, rook_file) = match (king, rook) {
            (Some(k), Some(r)) => (k.file(), r.file()),
            _ if lower == 'k' || lower == 'q' => standard,
            _ => (File::E, File::from_char(lower).unwrap_or(File::A)),
        };
        let added = castling.with(color, side, king_file, rook_file);
        castling = if mode.is_chess960() || added.is_standard() {
            added
        } else {
            castling.with(color, side, standard.0, standard.1)
        };
    }
    Some(castling)
}

/// The castling field in X-FEN, as python-chess writes it: `KQkq` for a right whose rook
/// is the outermost on its side of the king (always so in standard chess), the rook's file
/// letter otherwise; White's first, each colour's kingside first.
pub fn castling_xfen(pos: &Position) -> String {
    let mut text = FenText::new();
    text.castling(pos, false);
    text.as_str().to_owned()
}

/// The castling field of a placement and its rights (X-FEN, or Shredder-FEN when
/// `shredder`), for the variants' positions.
pub(crate) fn castling_field(board: &Board, rights: CastlingRights, shredder: bool) -> String {
    let mut text = FenText::new();
    text.castling_of(board, rights, shredder);
    text.as_str().to_owned()
}

/// The castling field in Shredder-FEN: the rooks' file letters (`HAha`), kingside first.
pub fn castling_shredder(pos: &Position) -> String {
    let mut text = FenText::new();
    text.castling(pos, true);
    text.as_str().to_owned()
}

/// How to write the en-passant field.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum EnPassantMode {
    /// Only when an en-passant capture is legal (python-chess's default, `"legal"`).
    #[default]
    Legal,
    /// Whenever a pawn has just stepped twice (python-chess's `"fen"`).
    Always,
}

/// Writes the FEN of a position, with the en-passant square only when a capture is legal.
pub fn to_fen(pos: &Position) -> String {
    to_fen_with(pos, EnPassantMode::Legal)
}

pub fn to_fen_with(pos: &Position, mode: EnPassantMode) -> String {
    FenText::fen(pos, mode, false).as_str().to_owned()
}

/// The first four FEN fields (an EPD position without operations), castling in X-FEN.
pub fn epd_with(pos: &Position, mode: EnPassantMode) -> String {
    FenText::epd(pos, mode, false).as_str().to_owned()
}

/// The FEN with the castling field in Shredder-FEN (`HAha`).
pub fn to_shredder_fen(pos: &Position, mode: EnPassantMode) -> String {
    FenText::fen(pos, mode, true).as_str().to_owned()
}

/// The longest text [`FenText`] holds: the placement (64 letters and digits at most, 7
/// slashes), the side, four castling letters, an en-passant square, two `u32` clocks of at
/// most ten digits, and the five spaces between the six fields.
const MAX_FEN: usize = 71 + 1 + 4 + 2 + 10 + 10 + 5;

/// A FEN, or its first four fields (an EPD position), written into a buffer of its own: the
/// one FEN writer, with no allocation and no formatting machinery, so that a caller that
/// needs the text only briefly (`Board.fen()` from Python copies it into a Python string)
/// pays for the text alone. [`to_fen_with`] and the others copy it into a `String`.
// The buffer has 256 bytes so that an index of type `u8` is always in bounds: `push` then
// needs no bounds check (`MAX_FEN` is what is used).
#[derive(Clone, Copy)]
pub struct FenText {
    bytes: [u8; 256],
    len: u8,
}

impl FenText {
    /// The FEN of `pos`: the en-passant square as `mode` says, castling in Shredder-FEN
    /// (rook files) when `shredder`, else in X-FEN.
    pub fn fen(pos: &Position, mode: EnPassantMode, shredder: bool) -> FenText {
        // Written in place, field after field: the 256-byte buffer is never copied between
        // the fields' writers.
        let mut text = FenText::new();
        text.write_epd(pos, mode, shredder);
        text.push(b' ');
        text.number(pos.halfmove_clock());
        text.push(b' ');
        text.number(pos.fullmove_number());
        text
    }

    /// The first four fields (see [`fen`](Self::fen)).
    pub fn epd(pos: &Position, mode: EnPassantMode, shredder: bool) -> FenText {
        let mut text = FenText::new();
        text.write_epd(pos, mode, shredder);
        text
    }

    fn write_epd(&mut self, pos: &Position, mode: EnPassantMode, shredder: bool) {
        self.placement(pos.board());
        self.push(b' ');
        self.push(pos.turn().char() as u8);
        self.push(b' ');
        self.castling(pos, shredder);
        self.push(b' ');
        let ep = match mode {
            EnPassantMode::Legal => pos.legal_ep_square(),
            EnPassantMode::Always => pos.ep_square(),
        };
        match ep {
            Some(square) => {
                self.push(square.file().char() as u8);
                self.push(square.rank().char() as u8);
            }
            None => self.push(b'-'),
        }
    }

    /// The placement field alone (python-chess's `board_fen`).
    pub fn board_fen(board: &Board) -> FenText {
        let mut text = FenText::new();
        text.placement(board);
        text
    }

    pub fn as_str(&self) -> &str {
        // Every byte pushed is an ASCII letter, digit, '/', '-' or space.
        let bytes = &self.bytes[..usize::from(self.len)];
        debug_assert!(bytes.is_ascii());
        // SAFETY: only ASCII bytes are pushed (the writers below push letters, digits, '/',
        // '-' and spaces), and ASCII is valid UTF-8.
        unsafe { core::str::from_utf8_unchecked(bytes) }
    }

    fn new() -> FenText {
        FenText {
            bytes: [0; 256],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, byte: u8) {
        debug_assert!(usize::from(self.len) < MAX_FEN);
        self.bytes[usize::from(self.len)] = byte;
        self.len += 1;
    }

    /// The placement, rank 8 first: the pieces' letters laid out by square first (one pass
    /// over each piece set, rather than a lookup per square), then each rank read off its
    /// occupied squares, the gaps between them as digits.
    fn placement(&mut self, board: &Board) {
        let mut letters = [0u8; 64];
        for color in Color::ALL {
            for role in crate::Role::ALL {
                let letter = crate::Piece::new(color, role).char() as u8;
                for square in board.by_color(color) & board.by_role(role) {
                    letters[square.index()] = letter;
                }
            }
        }
        let occupied = board.occupied().0;
        for rank in (0..8u32).rev() {
            let mut row = (occupied >> (rank * 8)) & 0xff;
            let mut file = 0;
            while row != 0 {
                let next = row.trailing_zeros();
                if next > file {
                    self.push(b'0' + (next - file) as u8);
                }
                self.push(letters[(rank * 8 + next) as usize]);
                file = next + 1;
                row &= row - 1;
            }
            if file < 8 {
                self.push(b'0' + (8 - file) as u8);
            }
            if rank > 0 {
                self.push(b'/');
            }
        }
    }

    /// The castling field: `-`, or per right White's first, kingside first, `K`/`Q` (`k`/`q`)
    /// when its rook is the outermost on that side of the king and not `shredder`, else the
    /// rook's file letter.
    fn castling(&mut self, pos: &Position, shredder: bool) {
        self.castling_of(pos.board(), pos.castling_rights(), shredder);
    }

    /// The castling field from the placement and the rights alone, so that the variants'
    /// positions (`crate::variant`) write theirs with the same code.
    #[inline]
    pub(crate) fn castling_of(&mut self, board: &Board, rights: CastlingRights, shredder: bool) {
        if rights.is_empty() {
            self.push(b'-');
            return;
        }
        for color in Color::ALL {
            let rooks =
                board.rooks() & board.by_color(color) & Bitboard::from_rank(color.back_rank());
            for side in CastlingSide::ALL {
                let Some(rook) = rights.rook_square(color, side) else {
                    continue;
                };
                let mut beyond = false;
                for other in rooks {
                    beyond |= match side {
                        CastlingSide::KingSide => other.file() > rook.file(),
                        CastlingSide::QueenSide => other.file() < rook.file(),
                    };
                }
                let c = if shredder || beyond {
                    rook.file().char()
                } else if side == CastlingSide::KingSide {
                    'k'
                } else {
                    'q'
                };
                let c = if color.is_white() {
                    c.to_ascii_uppercase()
                } else {
                    c
                };
                self.push(c as u8);
            }
        }
    }

    /// A clock in decimal.
    fn number(&mut self, mut n: u32) {
        let mut digits = [0u8; 10];
        let mut count = 0;
        loop {
            digits[count] = b'0' + (n % 10) as u8;
            count += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for &digit in digits[..count].iter().rev() {
            self.push(digit);
        }
    }
}

impl core::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        parse(s)
    }
}

impl Position {
    /// Parses a FEN; see [`fen::parse`](parse).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        parse(fen)
    }

    /// Parses a FEN with castling read in `mode`; see [`fen::parse_with`](parse_with).
    pub fn from_fen_with(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
        parse_with(fen, mode)
    }

    /// Writes the FEN (en-passant square only when legal, as python-chess does by default).
    pub fn fen(&self) -> String {
        to_fen(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Xorshift;

    /// The one-pass placement reader accepts exactly what the rank-by-rank reader accepts,
    /// with the same board, over placements mutated at random (seeded xorshift).
    #[test]
    fn one_pass_placement_agrees_with_the_checked_reader() {
        let fields = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8",
            "8/8/8/8/8/8/8/8",
        ];
        let alphabet = b"/12345678pnbrqkPNBRQK09x ";
        let mut rng = Xorshift::new(0x2545_f491_4f6c_dd1d);
        let (mut accepted, mut refused) = (0, 0);
        for round in 0..20_000 {
            let mut text = fields[round % fields.len()].as_bytes().to_vec();
            for _ in 0..=rng.below(3) {
                let at = rng.below(text.len() + 1);
                rng.mutate_at(&mut text, at, alphabet);
            }
            let text = String::from_utf8(text).expect("ASCII");
            let fast = placement(text.as_bytes());
            let checked = placement_error(&text).ok();
            assert_eq!(fast, checked, "{text}");
            // The key folded into the pass is the one the pieces give.
            if let Some((board, key, _)) = placement_prefix(text.as_bytes()) {
                assert_eq!(key, zobrist::placement_key(&board), "{text}");
            }
            if fast.is_some() {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
        // Both outcomes are exercised.
        assert!(
            accepted > 300 && refused > 1_000,
            "{accepted} accepted, {refused} refused"
        );
    }

    /// Whatever the one-pass reader of whole FENs accepts, the field-by-field reader reads
    /// as the same position, in both castling modes, over FENs mutated at random (seeded
    /// xorshift) in every field and in their spacing.
    #[test]
    fn canonical_reader_agrees_with_the_field_reader() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "rnbqkbnr/pppp1ppp/8/8/3pP3/8/PPP2PPP/RNBQKBNR b KQkq e3 0 3",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 99 120",
        ];
        let alphabet = b" -/KQkqAHahbcdefgw0123456789x\t";
        let mut rng = Xorshift::new(0x9e37_79b9_7f4a_7c15);
        let mut accepted = 0;
        for round in 0..40_000 {
            let mut text = fens[round % fens.len()].as_bytes().to_vec();
            // Mostly after the placement, where the fields this reader adds are.
            for _ in 0..rng.below(3) {
                let from = if rng.below(4) == 0 { 0 } else { text.len() / 2 };
                let at = from + rng.below(text.len() + 1 - from);
                rng.mutate_at(&mut text, at, alphabet);
            }
            let text = String::from_utf8(text).expect("ASCII");
            for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
                if let Some(pos) = parse_canonical(&text, mode) {
                    assert_eq!(parse_fields(&text, mode), Ok(pos), "{text}");
                    // `Position`'s equality leaves the key out: the key from the placement
                    // pass is the one computed from scratch.
                    assert_eq!(pos.key(), pos.compute_key(), "{text}");
                    accepted += 1;
                }
            }
        }
        assert!(accepted > 5_000, "{accepted} accepted");
    }
}

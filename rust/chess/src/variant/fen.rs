//! FEN and EPD of the variants as python-chess reads and writes them: crazyhouse pockets
//! (`[QRbp]`, or a ninth rank field) and promoted markers (`Q~`), three-check's remaining
//! checks (`3+3` after the en-passant field; lichess's `+0+0` given checks after the
//! clocks is read too).

use super::position::VariantPosition;
use super::rules::Variant;
use crate::bitboard::Bitboard;
use crate::castling::CastlingMode;
use crate::fen::{castling_field, parse_board, parse_castling};
use crate::{Color, File, Rank, Square};
use core::fmt;
use core::marker::PhantomData;

/// Why a text is not a FEN of the variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantFenError {
    /// Not 4 to 6 fields (besides the variant's own).
    FieldCount {
        found: usize,
        text: String,
    },
    BadPlacement {
        text: String,
    },
    BadSideToMove {
        text: String,
    },
    BadCastling {
        text: String,
    },
    BadEnPassant {
        text: String,
    },
    BadClock {
        text: String,
    },
    /// Three-check's field is not `N+M` (or lichess's `+N+M`) with counts 0 to 3.
    BadChecks {
        text: String,
    },
    /// A crazyhouse pocket holds something other than pawns to queens.
    BadPocket {
        text: String,
    },
    /// The variant's king rule is broken (see each variant's rules).
    KingCount {
        color: Color,
        count: u32,
    },
    PawnOnBackRank {
        square: Square,
    },
    ImpossibleEnPassant {
        square: Square,
    },
    /// The side not to move is in check (racing kings: either side).
    OppositeCheck,
}

impl fmt::Display for VariantFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use VariantFenError as E;
        match self {
            E::FieldCount { found, text } => {
                write!(f, "expected 4 to 6 FEN fields, found {found} in {text:?}")
            }
            E::BadPlacement { text } => write!(f, "invalid piece placement {text:?}"),
            E::BadSideToMove { text } => write!(f, "invalid side to move {text:?}"),
            E::BadCastling { text } => write!(f, "invalid castling field {text:?}"),
            E::BadEnPassant { text } => write!(f, "invalid en-passant field {text:?}"),
            E::BadClock { text } => write!(f, "invalid move clock {text:?}"),
            E::BadChecks { text } => write!(f, "invalid three-check field {text:?}"),
            E::BadPocket { text } => write!(f, "invalid crazyhouse pocket {text:?}"),
            E::KingCount { color, count } => {
                write!(
                    f,
                    "{color} has {count} kings, which this variant does not allow"
                )
            }
            E::PawnOnBackRank { square } => {
                write!(f, "pawn on {square}, where this variant allows none")
            }
            E::ImpossibleEnPassant { square } => write!(
                f,
                "en-passant square {square} is not a square an enemy pawn has just crossed"
            ),
            E::OppositeCheck => f.write_str("the side not to move is in check"),
        }
    }
}

impl std::error::Error for VariantFenError {}

/// Reads a placement that may mark promoted pieces with `~`: the board and the marked
/// squares.
fn placement(text: &str) -> Result<(crate::Board, Bitboard), VariantFenError> {
    let bad = || VariantFenError::BadPlacement {
        text: text.to_owned(),
    };
    let mut promoted = Bitboard::EMPTY;
    let (mut rank, mut file) = (7i32, 0i32);
    let mut last: Option<Square> = None;
    for c in text.chars() {
        match c {
            '/' => {
                rank -= 1;
                file = 0;
                last = None;
            }
            '1'..='8' => {
                file += c as i32 - '0' as i32;
                last = None;
            }
            '~' => promoted = promoted.with(last.take().ok_or_else(bad)?),
            _ => {
                last = match (File::new(file as u32), Rank::new(rank as u32)) {
                    (Some(f), Some(r)) if file >= 0 && rank >= 0 => Some(Square::from_coords(f, r)),
                    _ => None,
                };
                file += 1;
            }
        }
    }
    let cleaned: String = text.chars().filter(|&c| c != '~').collect();
    let board = parse_board(&cleaned).map_err(|_| bad())?;
    Ok((board, promoted & board.occupied()))
}

impl<V: Variant> VariantPosition<V> {
    /// Parses a FEN or an EPD position (4 fields) of the variant, castling in standard
    /// notation.
    pub fn from_fen(fen: &str) -> Result<Self, VariantFenError> {
        Self::from_fen_with(fen, CastlingMode::Standard)
    }

    /// Parses a FEN with castling read in `mode` (Chess960: X-FEN and Shredder-FEN).
    pub fn from_fen_with(fen: &str, mode: CastlingMode) -> Result<Self, VariantFenError> {
        let pos = Self::parse(fen, mode, false)?;
        pos.validate()?;
        Ok(pos)
    }

    /// Parses a FEN as python-chess's variant boards do: a position the variant's validity
    /// rules refuse (no king, a pawn on the back rank, the side not to move in check) is
    /// kept, with the reason beside it, for `status()` to report; a full-move number of 0
    /// reads as 1. The generator and make are total, so such a position never panics; its
    /// moves are what python-chess would list, not a game's.
    pub fn from_fen_unchecked(
        fen: &str,
        mode: CastlingMode,
    ) -> Result<(Self, Option<VariantFenError>), VariantFenError> {
        let pos = Self::parse(fen, mode, true)?;
        let problem = pos.validate().err();
        Ok((pos, problem))
    }

    fn parse(fen: &str, mode: CastlingMode, lenient: bool) -> Result<Self, VariantFenError> {
        use VariantFenError as E;
        let mut fields: Vec<String> = fen.split_ascii_whitespace().map(str::to_owned).collect();
        let mut state = V::parse_extra(&mut fields)?;
        if !(4..=6).contains(&fields.len()) {
            return Err(E::FieldCount {
                found: fields.len(),
                text: fen.to_owned(),
            });
        }
        let (board, promoted) = placement(&fields[0])?;
        V::set_promoted(&mut state, promoted);
        let turn = match fields[1].as_str() {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(E::BadSideToMove {
                    text: other.to_owned(),
                });
            }
        };
        let castling = parse_castling(&board, &fields[2], mode).ok_or_else(|| E::BadCastling {
            text: fields[2].clone(),
        })?;
        let ep_square = match fields[3].as_str() {
            "-" => None,
            text => Some(
                Square::from_name(text)
                    .filter(|s| s.rank() == Rank::Third || s.rank() == Rank::Sixth)
                    .ok_or_else(|| E::BadEnPassant {
                        text: text.to_owned(),
                    })?,
            ),
        };
        let clock = |i: usize, default: u32| -> Result<u32, VariantFenError> {
            fields.get(i).map_or(Ok(default), |t| {
                t.parse::<u32>()
                    .map_err(|_| E::BadClock { text: t.clone() })
            })
        };
        let halfmove_clock = clock(4, 0)?;
        let mut fullmove_number = clock(5, 1)?;
        if fullmove_number == 0 && lenient {
            fullmove_number = 1;
        }
        if fullmove_number == 0 {
            return Err(E::BadClock {
                text: "0".to_owned(),
            });
        }
        let mut pos = VariantPosition {
            board,
            turn,
            castling,
            ep_square,
            halfmove_clock,
            fullmove_number,
            mode,
            state,
            rules: PhantomData,
        };
        pos.clean_castling();
        Ok(pos)
    }

    /// The placement field: crazyhouse marks promoted pieces `~` and appends its pockets
    /// (antichess tracks promoted kings too, but python-chess writes no marks for them).
    pub fn board_fen(&self) -> String {
        let promoted = if V::DROPS {
            V::promoted(&self.state)
        } else {
            Bitboard::EMPTY
        };
        let mut out = String::with_capacity(80);
        for rank in Rank::ALL.into_iter().rev() {
            let mut empty = 0u8;
            for file in File::ALL {
                let sq = Square::from_coords(file, rank);
                match self.board.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            out.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        out.push(p.char());
                        if promoted.contains(sq) {
                            out.push('~');
                        }
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if rank != Rank::First {
                out.push('/');
            }
        }
        out.push_str(&V::placement_suffix(&self.state));
        out
    }

    /// The en-passant square if an en-passant capture is legal (python-chess's default
    /// `en_passant="legal"`).
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        self.legal_moves()
            .iter()
            .any(|m| matches!(m, super::VariantMove::Board(m) if m.is_en_passant()))
            .then_some(ep)
    }

    /// The EPD position (no operations): placement, side, castling (X-FEN), en passant, and
    /// three-check's counters.
    pub fn epd(&self) -> String {
        let castling = castling_field(&self.board, self.castling, false);
        let ep = self
            .legal_ep_square()
            .map_or_else(|| "-".to_owned(), |s| s.to_string());
        let mut out = format!(
            "{} {} {} {}",
            self.board_fen(),
            self.turn.char(),
            castling,
            ep
        );
        if let Some(extra) = V::extra_field(&self.state) {
            out.push(' ');
            out.push_str(&extra);
        }
        out
    }

    /// The FEN, as python-chess's `fen()` writes it for the variant.
    pub fn fen(&self) -> String {
        format!(
            "{} {} {}",
            self.epd(),
            self.halfmove_clock,
            self.fullmove_number
        )
    }
}

impl<V: Variant> core::str::FromStr for VariantPosition<V> {
    type Err = VariantFenError;
    fn from_str(s: &str) -> Result<Self, VariantFenError> {
        Self::from_fen(s)
    }
}

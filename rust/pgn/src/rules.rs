//! The rules a game is played under: what the `Variant` tag names ([`GameRules`]), and what
//! the reader and the writer ask of a position ([`PgnPosition`]), for standard chess and
//! Chess960 ([`Position`]) and for the lichess variants ([`AnyVariantPosition`]).
//!
//! The game model, the reader's tree builder and the writer are generic over
//! [`PgnPosition`], so a standard game is still read with standard chess's own SAN resolver
//! and lean make (the same machine code as before variants existed), and a variant game
//! with its variant's rules; [`PgnGame`](crate::PgnGame) without a parameter is the
//! standard game.

use core::fmt;
use shatranj_chess::Color;
use shatranj_chess::castling::CastlingMode;
use shatranj_chess::fen::{self, FenError};
use shatranj_chess::moves::Move;
use shatranj_chess::position::{IllegalMoveError, Position};
use shatranj_chess::san::{self, SanError};
use shatranj_chess::variant::{
    AnyVariantPosition, VariantFenError, VariantKind, VariantMove, VariantNotationError,
};

/// What a position must answer for a game of it to be read and written as PGN.
pub trait PgnPosition: Copy + PartialEq + fmt::Debug {
    /// A move of the game's tree.
    type Move: Copy + PartialEq + Eq + fmt::Debug;
    /// Why the writer refused a move of the tree.
    type IllegalMove: std::error::Error;

    /// The pass python-chess reads from `--` / `Z0`, where the rules have one.
    fn null_move() -> Option<Self::Move>;
    /// The legal move a SAN text names, with standard chess's errors.
    fn parse_san(&self, text: &str) -> Result<Self::Move, SanError>;
    /// The SAN of the legal move `m`, with its check or mate mark.
    fn san(&self, m: Self::Move) -> String;
    fn is_legal(&self, m: Self::Move) -> bool;
    /// `Err` naming the move and the position when `m` is not legal here.
    fn check_legal(&self, m: Self::Move) -> Result<(), Self::IllegalMove>;
    /// Plays a legal move as the reader does (standard chess: without the clocks).
    fn play_lean(&mut self, m: Self::Move);
    /// Plays a legal move exactly, clocks included.
    fn play_exact(&mut self, m: Self::Move);
    fn is_check(&self) -> bool;
    fn turn(&self) -> Color;
    fn fullmove_number(&self) -> u32;
    fn fen(&self) -> String;
}

impl PgnPosition for Position {
    type Move = Move;
    type IllegalMove = IllegalMoveError;

    #[inline]
    fn null_move() -> Option<Move> {
        Some(Move::NULL)
    }

    #[inline]
    fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        san::parse_san(self, text)
    }

    fn san(&self, m: Move) -> String {
        if m == Move::NULL {
            // A null move is written as python-chess writes it.
            "--".to_owned()
        } else {
            san::to_san(self, m)
        }
    }

    fn is_legal(&self, m: Move) -> bool {
        if m == Move::NULL {
            !Position::is_check(self)
        } else {
            Position::is_legal(self, m)
        }
    }

    fn check_legal(&self, m: Move) -> Result<(), IllegalMoveError> {
        if PgnPosition::is_legal(self, m) {
            Ok(())
        } else {
            Err(IllegalMoveError {
                mv: m,
                fen: Position::fen(self),
            })
        }
    }

    #[inline]
    fn play_lean(&mut self, m: Move) {
        if m == Move::NULL {
            self.play_null();
        } else {
            Position::play_lean(self, m);
        }
    }

    #[inline]
    fn play_exact(&mut self, m: Move) {
        self.play_recorded(m);
    }

    #[inline]
    fn is_check(&self) -> bool {
        Position::is_check(self)
    }

    fn turn(&self) -> Color {
        Position::turn(self)
    }

    fn fullmove_number(&self) -> u32 {
        Position::fullmove_number(self)
    }

    fn fen(&self) -> String {
        Position::fen(self)
    }
}

impl PgnPosition for AnyVariantPosition {
    type Move = VariantMove;
    type IllegalMove = VariantNotationError;

    /// python-chess's variant boards pass with a null move, but no variant's rules here
    /// define one: `--` in a variant game is reported as text that is not a move.
    fn null_move() -> Option<VariantMove> {
        None
    }

    fn parse_san(&self, text: &str) -> Result<VariantMove, SanError> {
        self.resolve_san(text)
    }

    fn san(&self, m: VariantMove) -> String {
        AnyVariantPosition::san(self, m)
    }

    fn is_legal(&self, m: VariantMove) -> bool {
        AnyVariantPosition::is_legal(self, m)
    }

    fn check_legal(&self, m: VariantMove) -> Result<(), VariantNotationError> {
        if AnyVariantPosition::is_legal(self, m) {
            Ok(())
        } else {
            Err(VariantNotationError::IllegalMove {
                text: self.to_uci(m),
                fen: AnyVariantPosition::fen(self),
            })
        }
    }

    fn play_lean(&mut self, m: VariantMove) {
        self.play_unchecked(m);
    }

    fn play_exact(&mut self, m: VariantMove) {
        self.play_unchecked(m);
    }

    fn is_check(&self) -> bool {
        AnyVariantPosition::is_check(self)
    }

    fn turn(&self) -> Color {
        AnyVariantPosition::turn(self)
    }

    fn fullmove_number(&self) -> u32 {
        AnyVariantPosition::fullmove_number(self)
    }

    fn fen(&self) -> String {
        AnyVariantPosition::fen(self)
    }
}

/// The rules a `Variant` tag names, as python-chess's `chess.pgn` reads the tag.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameRules {
    /// No tag, standard chess's names (`Standard`, `Chess`, `From Position`, …) or an ICS
    /// `wild/…` variant: standard chess.
    Standard,
    /// `Chess960`, `Fischerandom`, …: castling rights read as X-FEN or Shredder-FEN.
    Chess960,
    /// One of the lichess variants, by python-chess's names and aliases.
    Variant(VariantKind),
}

/// A `Variant` tag no rules here are known by (python-chess's `find_variant` refuses it
/// too, and reads the game as standard chess).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant {
    pub name: String,
}

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unsupported variant: {}", self.name)
    }
}

impl std::error::Error for UnknownVariant {}

/// Whether a `Variant` tag names Chess960 (python-chess's spellings, any case).
pub fn is_chess960_variant(variant: &str) -> bool {
    let v = variant.to_ascii_lowercase();
    [
        "chess960",
        "chess 960",
        "fischerandom",
        "fischerrandom",
        "fischer random",
    ]
    .contains(&v.as_str())
}

/// The ICS wild variants python-chess reads as standard chess.
const WILD: [&str; 10] = [
    "wild/0", "wild/1", "wild/2", "wild/3", "wild/4", "wild/5", "wild/6", "wild/7", "wild/8",
    "wild/8a",
];
/// python-chess's names of standard chess (`chess.Board.aliases`).
const STANDARD: [&str; 6] = [
    "standard",
    "chess",
    "classical",
    "normal",
    "illegal",
    "from position",
];

impl GameRules {
    /// The rules of a game whose `Variant` tag is `tag` (`None`: no tag).
    pub fn of_tag(tag: Option<&str>) -> Result<GameRules, UnknownVariant> {
        let Some(name) = tag else {
            return Ok(GameRules::Standard);
        };
        if is_chess960_variant(name) {
            return Ok(GameRules::Chess960);
        }
        let lower = name.to_ascii_lowercase();
        if WILD.contains(&lower.as_str()) || STANDARD.contains(&lower.as_str()) {
            return Ok(GameRules::Standard);
        }
        VariantKind::from_name(name)
            .map(GameRules::Variant)
            .ok_or_else(|| UnknownVariant {
                name: name.to_owned(),
            })
    }

    /// The `Variant` tag python-chess writes for these rules (`None` for standard chess):
    /// the first of the variant board's aliases.
    pub fn tag(self) -> Option<&'static str> {
        Some(match self {
            GameRules::Standard => return None,
            GameRules::Chess960 => "Chess960",
            GameRules::Variant(kind) => match kind {
                VariantKind::Antichess => "Antichess",
                VariantKind::Giveaway => "Giveaway",
                VariantKind::Suicide => "Suicide",
                VariantKind::Atomic => "Atomic",
                VariantKind::KingOfTheHill => "King of the Hill",
                VariantKind::ThreeCheck => "Three-check",
                VariantKind::RacingKings => "Racing Kings",
                VariantKind::Horde => "Horde",
                VariantKind::Crazyhouse => "Crazyhouse",
            },
        })
    }
}

/// A standard game's start position from its `FEN` tag: castling rights read as X-FEN or
/// Shredder-FEN when the `Variant` tag says Chess960, as python-chess reads them; standard
/// chess's otherwise.
pub(crate) fn start_position(fen_text: &str, variant: Option<&str>) -> Result<Position, FenError> {
    let mode = match variant {
        Some(v) if is_chess960_variant(v) => CastlingMode::Chess960,
        _ => CastlingMode::Standard,
    };
    fen::parse_with(fen_text, mode)
}

/// A variant game's start position: the `FEN` tag's (`None`: the variant's start), in
/// Chess960 mode when its castling rights are not standard chess's (python-chess sets
/// `chess960` from `has_chess960_castling_rights()` the same way).
pub fn variant_start(
    kind: VariantKind,
    fen_text: Option<&str>,
) -> Result<AnyVariantPosition, VariantFenError> {
    match fen_text {
        None => Ok(AnyVariantPosition::new(kind)),
        Some(text) => AnyVariantPosition::from_fen_detecting_960(kind, text, false),
    }
}

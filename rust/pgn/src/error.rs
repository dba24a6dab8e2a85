//! `PgnError`: what went wrong in a PGN text, and on which line.

use core::fmt;
use shatranj_chess::san::SanError;

/// A problem in a PGN text. `line` is 1-based, counted from the start of the whole input
/// (not of the game), so it points into the file a user opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    pub line: usize,
    pub kind: PgnErrorKind,
}

/// What was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// Reading the input failed; the reader stops.
    Io(String),
    /// A line in the tag section that is not `[Name "value"]`.
    BadTag { text: String },
    /// The `FEN` tag does not hold a legal position (the message is the FEN error's).
    BadFen { fen: String, message: String },
    /// A move that does not parse, is illegal or is ambiguous where it stands.
    Move(SanError),
    /// A null move (`--`, `Z0`, `0000`, `@@@@`) where the side to move is in check: a pass
    /// there cannot be played (elsewhere it is read as [`shatranj_chess::Move::NULL`]).
    NullMove { text: String },
    /// A `$` not followed by a number 0..=255.
    BadNag { text: String },
    /// A suffix of `!` and `?` that is none of `! ? !! ?? !? ?!`.
    BadSuffix { text: String },
    /// A result token inside a variation.
    ResultInVariation { text: String },
    /// A `)` with no open variation.
    UnmatchedParenthesis,
    /// A `(` never closed before the end of the game.
    UnterminatedVariation,
    /// A `{` never closed before the end of the game (the comment swallowed the rest).
    UnterminatedComment,
    /// Text that holds neither a tag nor a move.
    NoGame { text: String },
    /// A `Variant` tag that names no rules known here; the game is read as standard chess,
    /// as python-chess reads it.
    UnknownVariant { name: String },
    /// A lichess variant's game given to a reader of standard chess only ([`crate::parse_game`]
    /// and the database readers over it); [`crate::parse_any_game`] reads it.
    VariantGame { variant: String },
}

impl PgnError {
    pub fn new(line: usize, kind: PgnErrorKind) -> PgnError {
        PgnError { line, kind }
    }
}

impl fmt::Display for PgnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnErrorKind::Io(e) => write!(f, "read error: {e}"),
            PgnErrorKind::BadTag { text } => write!(f, "malformed tag pair {text:?}"),
            PgnErrorKind::BadFen { fen, message } => write!(f, "bad FEN tag {fen:?}: {message}"),
            PgnErrorKind::Move(e) => write!(f, "{e}"),
            PgnErrorKind::NullMove { text } => {
                write!(
                    f,
                    "null move {text:?} in check (a pass is no answer to a check)"
                )
            }
            PgnErrorKind::BadNag { text } => write!(f, "bad NAG {text:?} (want $0..$255)"),
            PgnErrorKind::BadSuffix { text } => {
                write!(f, "unknown move suffix {text:?} (want ! ? !! ?? !? ?!)")
            }
            PgnErrorKind::ResultInVariation { text } => {
                write!(f, "result {text:?} inside a variation")
            }
            PgnErrorKind::UnmatchedParenthesis => write!(f, "')' without an open variation"),
            PgnErrorKind::UnterminatedVariation => write!(f, "variation '(' never closed"),
            PgnErrorKind::UnterminatedComment => write!(f, "comment '{{' never closed"),
            PgnErrorKind::NoGame { text } => write!(f, "no game in {text:?}"),
            PgnErrorKind::UnknownVariant { name } => {
                write!(f, "unsupported variant: {name} (read as standard chess)")
            }
            PgnErrorKind::VariantGame { variant } => write!(
                f,
                "a {variant} game: this reader reads standard chess and Chess960 (parse_any_game reads the variants)"
            ),
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

impl std::error::Error for PgnError {}

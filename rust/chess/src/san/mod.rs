//! Standard Algebraic Notation (R7): writing with minimal disambiguation, lenient parsing,
//! and long algebraic notation (LAN). `fast` resolves the common forms without listing every
//! legal move; `parse_san` asks it first.

mod fast;

use crate::bitboard::Bitboard;
use crate::castling::CastlingSide;
use crate::moves::Move;
use crate::position::{IllegalMoveError, Position};
use crate::uci::UciMove;
use crate::{File, Rank, Role, Square};
use core::fmt;

/// Why SAN text did not give a move. The three cases python-chess distinguishes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// The text is not SAN at all.
    Invalid { text: String },
    /// Well-formed SAN, but no legal move matches.
    Illegal { text: String, fen: String },
    /// Well-formed SAN that matches more than one legal move.
    Ambiguous {
        text: String,
        fen: String,
        candidates: Vec<Move>,
    },
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Invalid { text } => write!(f, "invalid SAN {text:?}"),
            SanError::Illegal { text, fen } => write!(f, "illegal SAN {text:?} in {fen}"),
            SanError::Ambiguous {
                text,
                fen,
                candidates,
            } => {
                let list: Vec<String> = candidates.iter().map(Move::to_string).collect();
                write!(
                    f,
                    "ambiguous SAN {text:?} in {fen}: matches {}",
                    list.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for SanError {}

/// The side of a castling move, by where its king lands (a Chess960 king may not move).
fn castling_side(m: Move) -> CastlingSide {
    CastlingSide::of_king_to(m.to())
}

/// SAN of a legal move, with `+`/`#` (R7.1–R7.3). The move must be legal in `pos`; use
/// [`san`] for a checked version.
pub fn to_san(pos: &Position, m: Move) -> String {
    to_san_among(pos, m, &pos.legal_moves())
}

/// [`to_san`] for a caller that already holds the legal moves of `pos` (`legal` must be
/// exactly them): disambiguation then needs no second move generation.
pub fn to_san_among(pos: &Position, m: Move, legal: &[Move]) -> String {
    let mut out = san_without_suffix(pos, m, legal);
    let mut after = *pos;
    after.play_unchecked(m);
    if after.is_check() {
        out.push(if after.has_legal_moves() { '+' } else { '#' });
    }
    out
}

/// Checked SAN: an error for an illegal move.
pub fn san(pos: &Position, m: Move) -> Result<String, IllegalMoveError> {
    if pos.is_legal(m) {
        Ok(to_san(pos, m))
    } else {
        Err(IllegalMoveError {
            mv: m,
            fen: pos.fen(),
        })
    }
}

fn san_without_suffix(pos: &Position, m: Move, legal: &[Move]) -> String {
    if m.is_castle() {
        return match castling_side(m) {
            CastlingSide::KingSide => "O-O".to_owned(),
            CastlingSide::QueenSide => "O-O-O".to_owned(),
        };
    }
    let role = pos.moved_role(m).unwrap_or(Role::Pawn);
    let capture = pos.is_capture(m);
    let mut out = String::with_capacity(8);
    if role == Role::Pawn {
        if capture {
            out.push(m.from().file().char());
            out.push('x');
        }
    } else {
        out.push(role.upper_char());
        // R7.3: add the origin file, else the rank, else the whole square. The rivals'
        // origins are gathered in a bitboard (no allocation: SAN is hot in Python).
        let rivals: Bitboard = legal
            .iter()
            .filter(|o| {
                o.to() == m.to() && o.from() != m.from() && pos.moved_role(**o) == Some(role)
            })
            .map(|o| o.from())
            .collect();
        if rivals.any() {
            let same_file = (rivals & Bitboard::from_file(m.from().file())).any();
            let same_rank = (rivals & Bitboard::from_rank(m.from().rank())).any();
            if !same_file {
                out.push(m.from().file().char());
            } else if !same_rank {
                out.push(m.from().rank().char());
            } else {
                push_square(&mut out, m.from());
            }
        }
        if capture {
            out.push('x');
        }
    }
    push_square(&mut out, m.to());
    if let Some(p) = m.promotion() {
        out.push('=');
        out.push(p.upper_char());
    }
    out
}

/// Appends a square's name without going through `fmt`.
fn push_square(out: &mut String, sq: Square) {
    out.push(sq.file().char());
    out.push(sq.rank().char());
}

/// Long algebraic notation as python-chess writes it: `Ng1-f3`, `e2-e4`, `Nf3xe5`,
/// `e7-e8=Q`, `O-O`, with `+`/`#`.
pub fn to_lan(pos: &Position, m: Move) -> String {
    let mut out = String::with_capacity(10);
    if m.is_castle() {
        out.push_str(san_without_suffix(pos, m, &[]).as_str());
    } else {
        let role = pos.moved_role(m).unwrap_or(Role::Pawn);
        if role != Role::Pawn {
            out.push(role.upper_char());
        }
        out.push_str(&m.from().to_string());
        out.push(if pos.is_capture(m) { 'x' } else { '-' });
        out.push_str(&m.to().to_string());
        if let Some(p) = m.promotion() {
            out.push('=');
            out.push(p.upper_char());
        }
    }
    let mut after = *pos;
    after.play_unchecked(m);
    if after.is_check() {
        out.push(if after.has_legal_moves() { '+' } else { '#' });
    }
    out
}

/// The pieces of a SAN token, before matching it against legal moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SanToken {
    Castle(CastlingSide),
    /// `explicit` says whether the piece letter was written (a pawn has none, or `P`).
    Move {
        role: Role,
        explicit: bool,
        file: Option<File>,
        rank: Option<Rank>,
        to: Square,
        promotion: Option<Role>,
    },
}

/// (The variants' SAN reader, `variant::notation`, reads board moves with it too.)
pub(crate) fn tokenize(text: &str) -> Option<SanToken> {
    // Move comments (R7.4) and check marks, present, missing or surplus, are ignored.
    let core = text
        .trim_end_matches(['!', '?'])
        .trim_end_matches(['+', '#']);
    match core {
        "O-O" | "0-0" => return Some(SanToken::Castle(CastlingSide::KingSide)),
        "O-O-O" | "0-0-0" => return Some(SanToken::Castle(CastlingSide::QueenSide)),
        _ => {}
    }
    let bytes = core.as_bytes();
    if !core.is_ascii() || bytes.len() < 2 {
        return None;
    }
    let mut i = 0;
    let role = match bytes[0] {
        b'N' | b'B' | b'R' | b'Q' | b'K' | b'P' => {
            i = 1;
            Role::from_char(bytes[0] as char)?
        }
        _ => Role::Pawn,
    };
    // Promotion suffix: `=Q`, `Q` or `=q`. A king (or a promoting piece) is well-formed but
    // never legal, as python-chess classifies it.
    let mut end = bytes.len();
    let mut promotion = None;
    if let Some(&last) = bytes.last()
        && matches!(
            last,
            b'N' | b'B' | b'R' | b'Q' | b'K' | b'n' | b'b' | b'r' | b'q' | b'k'
        )
        && end >= 3
    {
        promotion = Role::from_char(last as char);
        end -= 1;
        if bytes[end - 1] == b'=' {
            end -= 1;
        }
    }
    if end < i + 2 {
        return None;
    }
    let to = Square::from_name(&core[end - 2..end])?;
    let middle = &bytes[i..end - 2];
    let (mut file, mut rank) = (None, None);
    let mut j = 0;
    if j < middle.len()
        && let Some(f) = File::from_char(middle[j] as char)
    {
        file = Some(f);
        j += 1;
    }
    if j < middle.len()
        && let Some(r) = Rank::from_char(middle[j] as char)
    {
        rank = Some(r);
        j += 1;
    }
    if j < middle.len() && (middle[j] == b'x' || middle[j] == b'-' || middle[j] == b':') {
        j += 1;
    }
    if j != middle.len() {
        return None;
    }
    Some(SanToken::Move {
        role,
        explicit: i == 1,
        file,
        rank,
        to,
        promotion,
    })
}

/// Parses SAN leniently: `0-0` for `O-O`, missing or extra `+`/`#`, move comments
/// (`! ? !! ?? !? ?!`, R7.4), over-disambiguation (`Nf4xg6`), `e8Q` for `e8=Q`, and, as
/// python-chess, fully specified moves without a piece letter (`g1f3`, `e1g1`, `e1h1`).
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, SanError> {
    // The common forms resolve without listing every legal move (`fast`): the same answer.
    if let Some(m) = fast::resolve(pos, text.trim()) {
        return Ok(m);
    }
    parse_san_listing(pos, text)
}

/// `parse_san`'s full path: every legal move listed and filtered by the text; it also words
/// the errors.
fn parse_san_listing(pos: &Position, text: &str) -> Result<Move, SanError> {
    let token = tokenize(text.trim()).ok_or_else(|| SanError::Invalid {
        text: text.to_owned(),
    })?;
    if let SanToken::Move {
        explicit: false,
        file: Some(file),
        rank: Some(rank),
        to,
        promotion,
        ..
    } = token
    {
        // A promotion still needs its piece: `e7e8` is illegal, as in python-chess.
        let from = Square::from_coords(file, rank);
        return UciMove::Normal {
            from,
            to,
            promotion,
        }
        .to_move(pos)
        .map_err(|_| SanError::Illegal {
            text: text.to_owned(),
            fen: pos.fen(),
        });
    }
    let legal = pos.legal_moves();
    let candidates: Vec<Move> = match token {
        SanToken::Castle(side) => legal
            .iter()
            .copied()
            .filter(|m| m.is_castle() && castling_side(*m) == side)
            .collect(),
        SanToken::Move {
            role,
            file,
            rank,
            to,
            promotion,
            ..
        } => legal
            .iter()
            .copied()
            .filter(|m| {
                m.to() == to
                    && !m.is_castle()
                    && pos.moved_role(*m) == Some(role)
                    && file.is_none_or(|f| m.from().file() == f)
                    && rank.is_none_or(|r| m.from().rank() == r)
                    // A pawn capture names its origin file (R7.1): `d5` is never `exd5`,
                    // as in python-chess.
                    && (role != Role::Pawn || file.is_some() || m.from().file() == to.file())
                    && m.promotion() == promotion
            })
            .collect(),
    };
    match candidates.as_slice() {
        [m] => Ok(*m),
        [] => Err(SanError::Illegal {
            text: text.to_owned(),
            fen: pos.fen(),
        }),
        _ => Err(SanError::Ambiguous {
            text: text.to_owned(),
            fen: pos.fen(),
            candidates,
        }),
    }
}

#[cfg(test)]
mod among_tests {
    use super::*;

    /// R7.3: `to_san_among` with the position's own move list writes what `to_san` writes,
    /// disambiguation included (Kiwipete has rival knights, rooks and promotions nearby).
    #[test]
    fn to_san_among_matches_to_san() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            let legal = pos.legal_moves();
            for &m in &legal {
                assert_eq!(to_san_among(&pos, m, &legal), to_san(&pos, m), "{fen} {m}");
            }
        }
    }
}

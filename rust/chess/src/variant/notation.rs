//! SAN and UCI for the variants: drops (`N@f3` in both; a pawn drop is `@e4` in SAN and
//! `P@e4` in UCI, as python-chess writes them), antichess's promotion to king (`=K`,
//! `e7e8k`), and check marks by the variant's notion of check (`#` also for a move that
//! ends the game by the variant's rule).

use super::position::{VariantMove, VariantPosition};
use super::rules::Variant;
use crate::bitboard::Bitboard;
use crate::castling::CastlingSide;
use crate::{Role, Square};
use core::fmt;

/// Why a move text is not a legal move here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantNotationError {
    /// The text is not a legal move's SAN or UCI in this position.
    IllegalMove { text: String, fen: String },
}

impl fmt::Display for VariantNotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantNotationError::IllegalMove { text, fen } => {
                write!(f, "no legal move {text:?} in {fen}")
            }
        }
    }
}

impl std::error::Error for VariantNotationError {}

impl<V: Variant> VariantPosition<V> {
    /// The UCI text of `m`: castling as the king's move (e1g1), or as the king taking its
    /// rook (e1h1) when the position was read in Chess960 mode.
    pub fn to_uci(&self, m: VariantMove) -> String {
        match m {
            VariantMove::Drop { role, to } => format!("{}@{to}", role.upper_char()),
            VariantMove::Board(mv) if mv.is_castle() && self.mode.is_chess960() => {
                let side = CastlingSide::of_king_to(mv.to());
                let rook = self
                    .castling
                    .rook_square(self.turn, side)
                    .unwrap_or_else(|| side.rook_from(self.turn));
                format!("{}{rook}", mv.from())
            }
            VariantMove::Board(mv) => match mv.promotion() {
                Some(role) => format!("{}{}{}", mv.from(), mv.to(), role.char()),
                None => format!("{}{}", mv.from(), mv.to()),
            },
        }
    }

    /// The legal move a UCI text names (castling in either form).
    pub fn parse_uci(&self, text: &str) -> Result<VariantMove, VariantNotationError> {
        let moves = self.legal_moves();
        for &m in &moves {
            if self.to_uci(m) == text {
                return Ok(m);
            }
            if let VariantMove::Board(mv) = m
                && mv.is_castle()
            {
                let side = CastlingSide::of_king_to(mv.to());
                let rook = self.castling.rook_square(self.turn, side);
                let king_to = format!("{}{}", mv.from(), mv.to());
                let takes_rook = rook.map(|r| format!("{}{r}", mv.from()));
                if text == king_to || takes_rook.as_deref() == Some(text) {
                    return Ok(m);
                }
            }
        }
        // Lower-case drop letters, as some programs write them.
        if text.len() == 4 && text.as_bytes()[1] == b'@' {
            let upper = text[..1].to_ascii_uppercase() + &text[1..];
            if upper != text {
                return self.parse_uci(&upper);
            }
        }
        Err(self.illegal(text))
    }

    fn illegal(&self, text: &str) -> VariantNotationError {
        VariantNotationError::IllegalMove {
            text: text.to_owned(),
            fen: self.fen(),
        }
    }

    /// SAN without the check suffix.
    fn san_body(&self, m: VariantMove, moves: &[VariantMove]) -> String {
        let mv = match m {
            VariantMove::Drop { role, to } => {
                let letter = if role == Role::Pawn {
                    String::new()
                } else {
                    role.upper_char().to_string()
                };
                return format!("{letter}@{to}");
            }
            VariantMove::Board(mv) => mv,
        };
        if mv.is_castle() {
            return match CastlingSide::of_king_to(mv.to()) {
                CastlingSide::KingSide => "O-O".to_owned(),
                CastlingSide::QueenSide => "O-O-O".to_owned(),
            };
        }
        let (from, to) = (mv.from(), mv.to());
        let role = self.board.role_at(from).unwrap_or(Role::Pawn);
        let capture = self.is_capture(m);
        let mut san = String::new();
        if role == Role::Pawn {
            if capture {
                san.push(from.file().char());
            }
        } else {
            san.push(role.upper_char());
            let mut others = Bitboard::EMPTY;
            for &o in moves {
                if let VariantMove::Board(om) = o
                    && !om.is_castle()
                    && om.to() == to
                    && om.from() != from
                    && self.board.role_at(om.from()) == Some(role)
                {
                    others = others.with(om.from());
                }
            }
            if others.any() {
                let same_rank = (others & Bitboard::from_rank(from.rank())).any();
                let same_file = (others & Bitboard::from_file(from.file())).any();
                let (mut column, mut row) = (same_rank, false);
                if same_file {
                    row = true;
                } else {
                    column = true;
                }
                if column {
                    san.push(from.file().char());
                }
                if row {
                    san.push(from.rank().char());
                }
            }
        }
        if capture {
            san.push('x');
        }
        san.push_str(&to.to_string());
        if let Some(p) = mv.promotion() {
            san.push('=');
            san.push(p.upper_char());
        }
        san
    }

    /// The SAN of the legal move `m`, with `+` for check and `#` for mate or a move that
    /// ends the game by the variant's rule.
    pub fn san(&self, m: VariantMove) -> String {
        let moves = self.legal_moves();
        let mut san = self.san_body(m, &moves);
        let mut after = *self;
        after.play_unchecked(m);
        let check = after.is_check();
        let mate = (check && !after.has_legal_moves())
            || after.is_variant_loss()
            || after.is_variant_win();
        if mate {
            san.push('#');
        } else if check {
            san.push('+');
        }
        san
    }

    /// The legal move a SAN text names (check marks and annotations ignored; `0-0` for
    /// `O-O`; a pawn drop as `@e4` or `P@e4`).
    pub fn parse_san(&self, text: &str) -> Result<VariantMove, VariantNotationError> {
        let core = text
            .trim_end_matches(['+', '#', '!', '?'])
            .replace('0', "O");
        let core = core
            .strip_prefix("P@")
            .map_or(core.clone(), |s| format!("@{s}"));
        let moves = self.legal_moves();
        moves
            .iter()
            .copied()
            .find(|&m| self.san_body(m, &moves) == core)
            // A move in UCI where SAN was expected, as python-chess's `parse_san` and
            // standard chess's parser read it (XBoard engines write either).
            .or_else(|| self.parse_uci(text.trim()).ok())
            .ok_or_else(|| self.illegal(text))
    }

    /// The square a drop or move lands on, for callers that hold only its text.
    pub fn destination(m: VariantMove) -> Square {
        m.to()
    }
}

impl<V: Variant> VariantPosition<V> {
    /// The legal move a SAN text names, read as leniently as standard chess's
    /// [`crate::san::parse_san`] reads it (`0-0`, missing or surplus `+`/`#`, move comments,
    /// over-disambiguation, `e8Q`, a fully specified `g1f3`), plus drops (`N@f3`, `@e4`,
    /// `P@e4`) and antichess's `=K`; with standard chess's errors, so a PGN reader reports
    /// a bad move in a variant game as it does in a standard one. [`parse_san`](Self::parse_san)
    /// is the strict reader that accepts only the SAN [`san`](Self::san) writes.
    pub fn resolve_san(&self, text: &str) -> Result<VariantMove, crate::san::SanError> {
        use crate::san::{SanError, SanToken, tokenize};
        let trimmed = text.trim();
        let invalid = || SanError::Invalid {
            text: text.to_owned(),
        };
        let legal = self.legal_moves();
        let candidates: Vec<VariantMove> = if let Some(at) = trimmed.find('@') {
            let core = trimmed
                .trim_end_matches(['!', '?'])
                .trim_end_matches(['+', '#']);
            let mut letters = core[..at].chars();
            let role = match (letters.next(), letters.next()) {
                (None, _) => Role::Pawn,
                (Some(c), None) if c.is_ascii_uppercase() => {
                    Role::from_char(c).ok_or_else(invalid)?
                }
                _ => return Err(invalid()),
            };
            let to = Square::from_name(&core[at + 1..]).ok_or_else(invalid)?;
            let drop = VariantMove::Drop { role, to };
            legal.iter().copied().filter(|&m| m == drop).collect()
        } else {
            match tokenize(trimmed).ok_or_else(invalid)? {
                SanToken::Castle(side) => legal
                    .iter()
                    .copied()
                    .filter(|m| {
                        matches!(m, VariantMove::Board(mv)
                            if mv.is_castle() && CastlingSide::of_king_to(mv.to()) == side)
                    })
                    .collect(),
                SanToken::Move {
                    role,
                    explicit,
                    file,
                    rank,
                    to,
                    promotion,
                } => legal
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let VariantMove::Board(mv) = m else {
                            return false;
                        };
                        let from = mv.from();
                        if let (false, Some(f), Some(r)) = (explicit, file, rank) {
                            // A fully specified move (`g1f3`, castling as `e1g1`), as UCI.
                            return from.file() == f
                                && from.rank() == r
                                && mv.to() == to
                                && mv.promotion() == promotion;
                        }
                        mv.to() == to
                            && !mv.is_castle()
                            && self.board.role_at(from) == Some(role)
                            && file.is_none_or(|f| from.file() == f)
                            && rank.is_none_or(|r| from.rank() == r)
                            // A pawn capture names its origin file (R7.1).
                            && (role != Role::Pawn || file.is_some() || from.file() == to.file())
                            && mv.promotion() == promotion
                    })
                    .collect(),
            }
        };
        match candidates.as_slice() {
            [m] => Ok(*m),
            [] => Err(SanError::Illegal {
                text: text.to_owned(),
                fen: self.fen(),
            }),
            _ => Err(SanError::Ambiguous {
                text: text.to_owned(),
                fen: self.fen(),
                candidates: candidates
                    .iter()
                    .filter_map(|m| match m {
                        VariantMove::Board(mv) => Some(*mv),
                        VariantMove::Drop { .. } => None,
                    })
                    .collect(),
            }),
        }
    }
}

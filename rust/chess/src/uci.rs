//! UCI move notation: `e2e4`, `e7e8q`, castling as the king's move `e1g1` in standard chess
//! and as the king taking its own rook (`e1h1`) in Chess960.

use crate::bitboard::Bitboard;
use crate::castling::{CastlingMode, CastlingSide};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::{Role, Square};
use core::fmt;

/// Why a UCI move was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciError {
    /// Not of the form `<from><to>[promotion]`, like `e2e4` or `e7e8q`.
    Invalid { text: String },
    /// Well-formed, but not a legal move in the position.
    Illegal { text: String, fen: String },
    /// `0000`: a null move is not a chess move.
    NullMove,
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::Invalid { text } => {
                write!(
                    f,
                    "invalid UCI move {text:?}: expected origin, destination and optional promotion, like e2e4 or e7e8q"
                )
            }
            UciError::Illegal { text, fen } => write!(f, "illegal UCI move {text:?} in {fen}"),
            UciError::NullMove => f.write_str("the null move 0000 is not a legal chess move"),
        }
    }
}

impl std::error::Error for UciError {}

/// A syntactically valid UCI move, not yet checked against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UciMove {
    Normal {
        from: Square,
        to: Square,
        promotion: Option<Role>,
    },
    /// `0000`.
    Null,
}

impl UciMove {
    pub fn parse(text: &str) -> Result<UciMove, UciError> {
        let invalid = || UciError::Invalid {
            text: text.to_owned(),
        };
        if text == "0000" {
            return Ok(UciMove::Null);
        }
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(invalid());
        }
        let from = Square::from_name(&text[0..2]).ok_or_else(invalid)?;
        let to = Square::from_name(&text[2..4]).ok_or_else(invalid)?;
        let promotion = match text[4..].chars().next() {
            None => None,
            // `k` and `p` are well-formed (as in python-chess) but never legal.
            Some(c @ ('n' | 'b' | 'r' | 'q' | 'k' | 'p')) => Role::from_char(c),
            Some(_) => return Err(invalid()),
        };
        if from == to {
            return Err(invalid());
        }
        Ok(UciMove::Normal {
            from,
            to,
            promotion,
        })
    }

    /// The legal move this denotes in `pos`. Castling is accepted as king-takes-rook
    /// (`e1h1`, Chess960 included) and, where standard chess has it, as the king's two-square
    /// move (`e1g1`), as python-chess does in either mode.
    pub fn to_move(self, pos: &Position) -> Result<Move, UciError> {
        let UciMove::Normal {
            from,
            to,
            promotion,
        } = self
        else {
            return Err(UciError::NullMove);
        };
        let illegal = || UciError::Illegal {
            text: self.to_string(),
            fen: pos.fen(),
        };
        let us = pos.turn();
        let is_our_king =
            pos.board().kings() & pos.board().by_color(us) & Bitboard::from_square(from);
        if is_our_king.any() && promotion.is_none() {
            // The king taking its own castling rook: castling, in either mode.
            for side in CastlingSide::ALL {
                if pos.castling_rights().rook_square(us, side) == Some(to) {
                    let m = Move::new(from, side.king_to(us), MoveKind::Castle);
                    return if pos.is_legal(m) {
                        Ok(m)
                    } else {
                        Err(illegal())
                    };
                }
            }
        }
        // The king's own move (`e1g1`) names castling only where standard chess would
        // write it so; in Chess960 it is a plain king move (`b1c1` next to castling b1a1).
        pos.legal_moves()
            .iter()
            .copied()
            .find(|m| {
                m.from() == from
                    && m.to() == to
                    && m.promotion() == promotion
                    && (!m.is_castle() || is_standard_castling(pos, *m))
            })
            .ok_or_else(illegal)
    }
}

/// Whether castling move `m` is standard chess's: the king from e1/e8, the rook from the
/// corner. Only such castlings may be written as the king's move.
fn is_standard_castling(pos: &Position, m: Move) -> bool {
    let us = pos.turn();
    let side = CastlingSide::of_king_to(m.to());
    m.from() == us.fold_wb(Square::E1, Square::E8)
        && pos.castling_rights().rook_square(us, side) == Some(side.rook_from(us))
}

/// UCI text of the legal move `m` of `pos`. Castling is the king's move (`e1g1`) in
/// standard chess; in Chess960 mode, and for any castling standard chess does not have, the
/// king takes its own rook (`e1h1`, `b1a1`), as python-chess writes it.
pub fn to_uci(pos: &Position, m: Move, mode: CastlingMode) -> String {
    if m.is_castle()
        && (mode.is_chess960() || !is_standard_castling(pos, m))
        && let Some(rook) = pos.castling_rook(m)
    {
        return format!("{}{rook}", m.from());
    }
    m.to_string()
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMove::Null => f.write_str("0000"),
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(r) = promotion {
                    write!(f, "{}", r.char())?;
                }
                Ok(())
            }
        }
    }
}

impl From<Move> for UciMove {
    fn from(m: Move) -> UciMove {
        UciMove::Normal {
            from: m.from(),
            to: m.to(),
            promotion: m.promotion(),
        }
    }
}

/// Parses UCI text into a legal move of `pos`.
pub fn parse_uci(pos: &Position, text: &str) -> Result<Move, UciError> {
    UciMove::parse(text)?.to_move(pos)
}

impl Move {
    /// Reads a UCI move in the context of a position (needed to know castling and en passant).
    pub fn from_uci(pos: &Position, text: &str) -> Result<Move, UciError> {
        parse_uci(pos, text)
    }
}

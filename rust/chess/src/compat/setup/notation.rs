//! FEN, SAN and UCI for a [`Setup`], read and written as python-chess does for any board.

use super::{Setup, backrank, descending, msb};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::fen::{EnPassantMode, FenError, FenField};
use crate::moves::{Move, MoveKind};
use crate::san::SanError;
use crate::uci::{UciError, UciMove};
use crate::{Color, File, Piece, Rank, Role, Square};

/// The placement field, with `~` after promoted pieces (python-chess's `_set_board_fen`).
fn parse_placement(text: &str) -> Result<(Board, Bitboard), FenError> {
    let text = text.trim();
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 8 {
        return Err(FenError::RankCount {
            found: rows.len(),
            text: text.to_owned(),
        });
    }
    let mut board = Board::empty();
    let mut promoted = Bitboard::EMPTY;
    for (i, row) in rows.iter().enumerate() {
        let rank = Rank::ALL[7 - i];
        let mut file = 0u32;
        let (mut after_digit, mut after_piece) = (false, false);
        let mut last = None;
        for c in row.chars() {
            let bad = || FenError::BadPieceLetter {
                letter: c,
                text: text.to_owned(),
            };
            if let Some(n) = c.to_digit(10).filter(|n| (1..=8).contains(n)) {
                if after_digit {
                    return Err(bad());
                }
                file += n;
                (after_digit, after_piece) = (true, false);
            } else if c == '~' {
                if !after_piece {
                    return Err(bad());
                }
                if let Some(sq) = last {
                    promoted |= sq;
                }
                (after_digit, after_piece) = (false, false);
            } else if let Some(piece) = Piece::from_char(c).filter(|_| c.is_ascii()) {
                last = None;
                if let Some(f) = File::new(file) {
                    let sq = Square::from_coords(f, rank);
                    board.set_piece_at(sq, piece);
                    last = Some(sq);
                }
                file += 1;
                (after_digit, after_piece) = (false, true);
            } else {
                return Err(bad());
            }
        }
        if file != 8 {
            return Err(FenError::RankWidth {
                rank: rank.index() + 1,
                width: file,
                text: text.to_owned(),
            });
        }
    }
    Ok((board, promoted))
}

/// A clock as Python's `int()` reads it (an optional sign, then digits); negative is
/// refused, as python-chess refuses it.
fn parse_clock(field: FenField, text: &str) -> Result<u32, FenError> {
    let bad = || FenError::BadClock {
        field,
        text: text.to_owned(),
    };
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let trimmed = digits.trim_start_matches('0');
    if negative && !trimmed.is_empty() {
        return Err(bad());
    }
    if trimmed.is_empty() {
        return Ok(0);
    }
    trimmed.parse().map_err(|_| bad())
}

/// The castling field as python-chess reads it: `-` or up to two white then two black
/// flags (`KQ`, files `A`-`H`); `K`/`Q` name the outermost rook on that side of the king,
/// or the corner without one.
fn set_castling(setup: &mut Setup, text: &str) -> Result<(), FenError> {
    setup.castling_rights = Bitboard::EMPTY;
    if text == "-" {
        return Ok(());
    }
    let bad = || FenError::BadCastling {
        text: text.to_owned(),
    };
    let white = text
        .chars()
        .take_while(|c| matches!(c, 'K' | 'Q' | 'A'..='H'))
        .count();
    let black = text[white..]
        .chars()
        .take_while(|c| matches!(c, 'k' | 'q' | 'a'..='h'))
        .count();
    if text.is_empty() || white > 2 || black > 2 || white + black != text.len() {
        return Err(bad());
    }
    let b = setup.board;
    for flag in text.chars() {
        let color = if flag.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = backrank(color);
        let rooks = b.by_color(color) & b.rooks() & rank;
        let king = setup.king(color);
        let corner = |file: File| Square::from_coords(file, color.back_rank());
        // python-chess compares with the lowest rook's index, -1 for none: a `q` with the
        // king on the rank and no rook there names nothing.
        let rook = match flag.to_ascii_lowercase() {
            'q' => match (king, rooks.first()) {
                (Some(_), None) => continue,
                (Some(king), Some(rook)) if rook < king => rook,
                _ => corner(File::A),
            },
            'k' => match (king, msb(rooks)) {
                (Some(king), Some(rook)) if king < rook => rook,
                _ => corner(File::H),
            },
            letter => corner(File::from_char(letter).ok_or_else(bad)?),
        };
        setup.castling_rights |= rook;
    }
    Ok(())
}

pub(super) fn parse_fen(text: &str, chess960: bool) -> Result<Setup, FenError> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    if parts.is_empty() || parts.len() > 6 {
        return Err(FenError::FieldCount {
            found: parts.len(),
            text: text.to_owned(),
        });
    }
    let (board, promoted) = parse_placement(parts[0])?;
    let mut setup = Setup {
        board,
        promoted,
        chess960,
        ..Setup::empty()
    };
    if let Some(&turn) = parts.get(1) {
        setup.turn = match turn {
            "w" => Color::White,
            "b" => Color::Black,
            _ => {
                return Err(FenError::BadSideToMove {
                    text: turn.to_owned(),
                });
            }
        };
    }
    set_castling(&mut setup, parts.get(2).copied().unwrap_or("-"))?;
    if let Some(&ep) = parts.get(3)
        && ep != "-"
    {
        setup.ep_square = Some(Square::from_name(ep).ok_or_else(|| FenError::BadEnPassant {
            text: ep.to_owned(),
        })?);
    }
    if let Some(&clock) = parts.get(4) {
        setup.halfmove_clock = parse_clock(FenField::HalfmoveClock, clock)?;
    }
    if let Some(&number) = parts.get(5) {
        setup.fullmove_number = parse_clock(FenField::FullmoveNumber, number)?.max(1);
    }
    Ok(setup)
}

const ROLE_LETTERS: &str = " PNBRQK";

fn role_letter(role: Role) -> char {
    role.upper_char()
}

impl Setup {
    /// The placement field, with `~` after promoted pieces when `promoted`.
    pub fn board_fen(&self, promoted: bool) -> String {
        let mut out = String::with_capacity(72);
        for rank in Rank::ALL.into_iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                let sq = Square::from_coords(file, rank);
                match self.board.piece_at(sq) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(piece.char());
                        if promoted && self.promoted.contains(sq) {
                            out.push('~');
                        }
                    }
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank != Rank::First {
                out.push('/');
            }
        }
        out
    }

    /// X-FEN castling: `K`/`Q` for the outermost rook on its side of the king, the rook's
    /// file otherwise.
    pub fn castling_xfen(&self) -> String {
        let clean = self.clean_castling_rights();
        let mut out = String::new();
        for color in Color::ALL {
            let Some(king) = self.king(color) else {
                continue;
            };
            let rank = backrank(color);
            let rooks = self.board.by_color(color) & self.board.rooks() & rank;
            for rook in descending(clean & rank) {
                let a_side = rook.file() < king.file();
                let outer = Iterator::any(&mut rooks.without(rook), |other: Square| {
                    (other.file() < rook.file()) == a_side
                });
                let letter = if outer {
                    rook.file().char()
                } else if a_side {
                    'q'
                } else {
                    'k'
                };
                out.push(if color == Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
        }
        if out.is_empty() { "-".to_owned() } else { out }
    }

    /// Shredder-FEN castling: the rooks' files.
    pub fn castling_shredder(&self) -> String {
        let clean = self.clean_castling_rights();
        let mut out = String::new();
        for color in Color::ALL {
            for rook in descending(clean & backrank(color)) {
                let letter = rook.file().char();
                out.push(if color == Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
        }
        if out.is_empty() { "-".to_owned() } else { out }
    }

    /// The en-passant square a FEN names: `Legal` where a legal capture exists, `Always` as
    /// given; `None` for X-FEN's rule (where a pseudo-legal capture exists).
    pub fn fen_ep_square(&self, mode: Option<EnPassantMode>) -> Option<Square> {
        let ep = self.ep_square?;
        let shown = match mode {
            Some(EnPassantMode::Always) => true,
            Some(EnPassantMode::Legal) => self.has_legal_en_passant(),
            None => self.has_pseudo_legal_en_passant(),
        };
        shown.then_some(ep)
    }

    fn epd_with(&self, shredder: bool, ep: Option<Square>, promoted: bool) -> String {
        let castling = if shredder {
            self.castling_shredder()
        } else {
            self.castling_xfen()
        };
        let ep = ep.map_or_else(|| "-".to_owned(), |sq| sq.to_string());
        format!(
            "{} {} {castling} {ep}",
            self.board_fen(promoted),
            self.turn.char()
        )
    }

    /// The EPD (the FEN without clocks); `mode` as in [`Setup::fen_ep_square`].
    pub fn epd(&self, shredder: bool, mode: Option<EnPassantMode>, promoted: bool) -> String {
        self.epd_with(shredder, self.fen_ep_square(mode), promoted)
    }

    pub fn fen_with(&self, shredder: bool, mode: Option<EnPassantMode>, promoted: bool) -> String {
        format!(
            "{} {} {}",
            self.epd(shredder, mode, promoted),
            self.halfmove_clock,
            self.fullmove_number
        )
    }

    /// The FEN as python-chess writes it: X-FEN (or Shredder-FEN) castling.
    pub fn fen(&self, shredder: bool, mode: EnPassantMode, promoted: bool) -> String {
        self.fen_with(shredder, Some(mode), promoted)
    }

    /// SAN or LAN without the check suffix; the move must be legal (or null).
    fn algebraic_without_suffix(&self, m: Move, long: bool) -> String {
        if m == Move::NULL {
            return "--".to_owned();
        }
        if self.is_castling(m) {
            return if m.to().file() < m.from().file() {
                "O-O-O"
            } else {
                "O-O"
            }
            .to_owned();
        }
        let Some(role) = self.board.role_at(m.from()) else {
            return m.to_string();
        };
        let capture = self.is_capture(m);
        let mut out = String::new();
        if role != Role::Pawn {
            out.push(role_letter(role));
        }
        if long {
            out.push_str(&m.from().to_string());
        } else if role != Role::Pawn {
            let mine = self
                .board
                .by_piece(Piece::new(self.turn, role))
                .without(m.from());
            let mut rivals = Vec::new();
            self.legal_into(mine, Bitboard::from_square(m.to()), &mut rivals);
            let others: Bitboard = rivals.iter().map(|r| r.from()).collect();
            if others.any() {
                let from = m.from();
                let mut column = others.intersects(Bitboard::from_rank(from.rank()));
                let row = others.intersects(Bitboard::from_file(from.file()));
                if !row {
                    column = true;
                }
                if column {
                    out.push(from.file().char());
                }
                if row {
                    out.push(from.rank().char());
                }
            }
        } else if capture {
            out.push(m.from().file().char());
        }
        if capture {
            out.push('x');
        } else if long {
            out.push('-');
        }
        out.push_str(&m.to().to_string());
        if let Some(role) = m.promotion() {
            out.push('=');
            out.push(role_letter(role));
        }
        out
    }

    fn algebraic(&self, m: Move, long: bool) -> String {
        let mut text = self.algebraic_without_suffix(m, long);
        if m != Move::NULL {
            let mut after = *self;
            after.play_unchecked(m);
            if after.is_check() {
                text.push(if after.has_legal_moves() { '+' } else { '#' });
            }
        }
        text
    }

    /// SAN of a legal move (or `--` for the null move), as python-chess writes it.
    pub fn san(&self, m: Move) -> Result<String, crate::IllegalMoveError> {
        let m = self.checked(m)?;
        Ok(self.algebraic(m, false))
    }

    /// Long algebraic notation of a legal move (`Ng1-f3`, `e7xd8=Q+`).
    pub fn lan(&self, m: Move) -> Result<String, crate::IllegalMoveError> {
        let m = self.checked(m)?;
        Ok(self.algebraic(m, true))
    }

    /// The legal form of a move (see [`Setup::legal_form`]), the null move as it is, or
    /// the error.
    fn checked(&self, m: Move) -> Result<Move, crate::IllegalMoveError> {
        if m == Move::NULL {
            return Ok(m);
        }
        self.legal_form(m).ok_or_else(|| crate::IllegalMoveError {
            mv: m,
            fen: self.fen(false, EnPassantMode::Legal, false),
        })
    }

    /// Reads SAN as python-chess's `parse_san` does (castling, `--` and the other null
    /// moves, fully specified moves like `e1g1`, pawn captures only with their file).
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let fen = || self.fen(false, EnPassantMode::Legal, false);
        let illegal = || SanError::Illegal {
            text: text.to_owned(),
            fen: fen(),
        };
        let castle_side = match text {
            "O-O" | "O-O+" | "O-O#" | "0-0" | "0-0+" | "0-0#" => Some(true),
            "O-O-O" | "O-O-O+" | "O-O-O#" | "0-0-0" | "0-0-0+" | "0-0-0#" => Some(false),
            _ => None,
        };
        if let Some(kingside) = castle_side {
            let mut castles = Vec::new();
            self.castling_into(Bitboard::FULL, Bitboard::FULL, &mut castles);
            return castles
                .into_iter()
                .find(|&m| {
                    if kingside {
                        self.is_kingside_castling(m)
                    } else {
                        self.is_queenside_castling(m)
                    }
                })
                .ok_or_else(illegal);
        }
        let Some(san) = SanPattern::parse(text) else {
            if matches!(text, "--" | "Z0" | "0000" | "@@@@") {
                return Ok(Move::NULL);
            }
            return Err(SanError::Invalid {
                text: text.to_owned(),
            });
        };
        let to_mask = Bitboard::from_square(san.to) & !self.us();
        let mut from_mask = Bitboard::FULL;
        if let Some(file) = san.file {
            from_mask &= Bitboard::from_file(file);
        }
        if let Some(rank) = san.rank {
            from_mask &= Bitboard::from_rank(rank);
        }
        if let Some(role) = san.role {
            from_mask &= self.board.by_piece(Piece::new(self.turn, role));
        } else if let (Some(file), Some(rank)) = (san.file, san.rank) {
            // Fully specified moves, even castling and pieces without their letter.
            let from = Square::from_coords(file, rank);
            let m = self
                .find_move(from, san.to, san.promotion)
                .map_err(|_| illegal())?;
            return if m.promotion() == san.promotion {
                Ok(m)
            } else {
                Err(illegal())
            };
        } else {
            from_mask &= self.board.pawns();
            if san.file.is_none() {
                from_mask &= Bitboard::from_file(san.to.file());
            }
        }
        let mut candidates = Vec::new();
        self.legal_into(from_mask, to_mask, &mut candidates);
        candidates.retain(|m| m.promotion() == san.promotion);
        match candidates.as_slice() {
            [m] => Ok(*m),
            [] => Err(illegal()),
            _ => Err(SanError::Ambiguous {
                text: text.to_owned(),
                fen: fen(),
                candidates,
            }),
        }
    }

    /// python-chess's `find_move`: the legal move from `from` to `to` (a pawn reaching the
    /// last rank becomes a queen unless told otherwise; standard castling as the king's
    /// two-square move).
    pub fn find_move(
        &self,
        from: Square,
        to: Square,
        promotion: Option<Role>,
    ) -> Result<Move, crate::IllegalMoveError> {
        let promotion = promotion.or_else(|| {
            (self.board.pawns().contains(from) && Bitboard::BACKRANKS.contains(to))
                .then_some(Role::Queen)
        });
        let m = match promotion {
            Some(role) => Move::new(from, to, MoveKind::Promotion(role)),
            None => self.castling_move(from, to),
        };
        if let Some(m) = self.legal_form(m) {
            Ok(m)
        } else {
            Err(crate::IllegalMoveError {
                mv: m,
                fen: self.fen(false, EnPassantMode::Legal, false),
            })
        }
    }

    /// Reads a UCI move as python-chess's `parse_uci` does: castling in either notation,
    /// written back in this board's; `0000` is the null move. Legal means in the legal move
    /// list (see [`Setup::legal_form`]).
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciError> {
        let (from, to, promotion) = match UciMove::parse(text)? {
            UciMove::Null => return Ok(Move::NULL),
            UciMove::Normal {
                from,
                to,
                promotion,
            } => (from, to, promotion),
        };
        let m = match promotion {
            Some(role) => Move::new(from, to, MoveKind::Promotion(role)),
            None => Move::normal(from, to),
        };
        if let Some(m) = self.legal_form(m) {
            Ok(m)
        } else {
            Err(UciError::Illegal {
                text: text.to_owned(),
                fen: self.fen(false, EnPassantMode::Legal, false),
            })
        }
    }

    /// UCI text of a move in this board's castling notation.
    pub fn to_uci(&self, m: Move) -> String {
        if m == Move::NULL {
            return "0000".to_owned();
        }
        let m = self.as_king_takes_rook(m);
        if m.promotion().is_none() {
            return self.castling_move(m.from(), m.to()).to_string();
        }
        m.to_string()
    }
}

/// python-chess's SAN pattern: `[NBKRQ]?[a-h]?[1-8]?[-x]?[a-h][1-8](=?[nbrqkNBRQK])?[+#]?`.
struct SanPattern {
    role: Option<Role>,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
}

impl SanPattern {
    fn parse(text: &str) -> Option<SanPattern> {
        let bytes = text.as_bytes();
        let mut end = bytes.len();
        if end > 0 && matches!(bytes[end - 1], b'+' | b'#') {
            end -= 1;
        }
        let mut promotion = None;
        if end >= 1
            && matches!(
                bytes[end - 1].to_ascii_lowercase(),
                b'n' | b'b' | b'r' | b'q' | b'k'
            )
        {
            let at = ROLE_LETTERS.find(char::from(bytes[end - 1].to_ascii_uppercase()))?;
            promotion = Role::from_index(at - 1);
            end -= 1;
            if end >= 1 && bytes[end - 1] == b'=' {
                end -= 1;
            }
        }
        if end < 2 {
            return None;
        }
        let to = Square::from_name(text.get(end - 2..end)?)?;
        let head = &bytes[..end - 2];
        let mut i = 0;
        let mut role = None;
        if let Some(&c) = head.first()
            && matches!(c, b'N' | b'B' | b'K' | b'R' | b'Q')
        {
            role = Role::from_index(ROLE_LETTERS.find(char::from(c))? - 1);
            i += 1;
        }
        let mut file = None;
        if let Some(&c) = head.get(i)
            && (b'a'..=b'h').contains(&c)
        {
            file = File::from_char(char::from(c));
            i += 1;
        }
        let mut rank = None;
        if let Some(&c) = head.get(i)
            && (b'1'..=b'8').contains(&c)
        {
            rank = Rank::from_char(char::from(c));
            i += 1;
        }
        if let Some(&c) = head.get(i)
            && matches!(c, b'-' | b'x')
        {
            i += 1;
        }
        (i == head.len()).then_some(SanPattern {
            role,
            file,
            rank,
            to,
            promotion,
        })
    }
}

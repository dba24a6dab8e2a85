//! Polyglot opening books, read from their bytes (the caller reads the file: the rules know
//! no files on disk beyond PGN and EPD text).
//!
//! The format, as Polyglot published it (and python-chess's `chess.polyglot` reads it): a
//! sequence of 16-byte big-endian entries sorted by key, each `key: u64, move: u16,
//! weight: u16, learn: u32`, the key being the position's Polyglot Zobrist key
//! ([`Position::key`]). The move packs, from bit 0 up, the destination file and rank (3 bits
//! each), the origin file and rank, and the promotion (0 none, 1 knight … 4 queen). Castling
//! is stored as the king taking its own rook (`e1h1`).
//!
//! Untrusted bytes are safe: a length that is not a multiple of 16 is refused, an entry
//! whose move is not legal in its position is skipped, and a book whose keys are not sorted
//! can make a lookup miss entries, never fail.

use crate::uci::parse_uci;
use crate::{Move, Position};
use std::fmt;

/// One entry of a book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    pub key: u64,
    /// The move as stored (see the module's documentation).
    pub raw_move: u16,
    pub weight: u16,
    pub learn: u32,
}

/// A book that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The length in bytes is not a multiple of 16.
    Length(usize),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Length(n) => write!(
                f,
                "a Polyglot book is 16-byte entries; {n} bytes is not a multiple of 16"
            ),
        }
    }
}

impl std::error::Error for BookError {}

/// A Polyglot book held in memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<BookEntry>,
}

impl Book {
    /// Reads a book's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if !bytes.len().is_multiple_of(16) {
            return Err(BookError::Length(bytes.len()));
        }
        let entries = bytes
            .chunks_exact(16)
            .map(|e| BookEntry {
                key: u64::from_be_bytes(e[0..8].try_into().expect("16-byte chunk")),
                raw_move: u16::from_be_bytes([e[8], e[9]]),
                weight: u16::from_be_bytes([e[10], e[11]]),
                learn: u32::from_be_bytes(e[12..16].try_into().expect("16-byte chunk")),
            })
            .collect();
        Ok(Book { entries })
    }

    /// Every entry, in the file's order.
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// The entries of `pos` (by its key), in the file's order.
    pub fn entries_of(&self, pos: &Position) -> &[BookEntry] {
        let key = pos.key();
        let first = self.entries.partition_point(|e| e.key < key);
        let len = self.entries[first..]
            .iter()
            .take_while(|e| e.key == key)
            .count();
        &self.entries[first..first + len]
    }

    /// The book's legal moves in `pos` with their weights, in the file's order; an entry
    /// whose move is not legal here (a corrupt book, or a key collision) is left out.
    pub fn moves(&self, pos: &Position) -> Vec<(Move, u16)> {
        self.entries_of(pos)
            .iter()
            .filter_map(|e| Some((decode_move(pos, e.raw_move)?, e.weight)))
            .collect()
    }
}

/// The legal move of `pos` a book's packed move names, if any (castling as the king taking
/// its own rook).
pub fn decode_move(pos: &Position, raw: u16) -> Option<Move> {
    let square = |bits: u16| {
        let file = b"abcdefgh"[usize::from(bits & 7)];
        let rank = b"12345678"[usize::from((bits >> 3) & 7)];
        [char::from(file), char::from(rank)]
    };
    let mut text: String = square(raw >> 6).iter().chain(&square(raw)).collect();
    match (raw >> 12) & 7 {
        0 => {}
        p @ 1..=4 => text.push(['n', 'b', 'r', 'q'][usize::from(p - 1)]),
        _ => return None,
    }
    parse_uci(pos, &text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(from: &str, to: &str, promotion: u16) -> u16 {
        let sq = |s: &str| {
            let b = s.as_bytes();
            u16::from(b[0] - b'a') | (u16::from(b[1] - b'1') << 3)
        };
        sq(to) | (sq(from) << 6) | (promotion << 12)
    }

    fn entry(pos: &Position, raw_move: u16, weight: u16) -> [u8; 16] {
        let mut e = [0u8; 16];
        e[0..8].copy_from_slice(&pos.key().to_be_bytes());
        e[8..10].copy_from_slice(&raw_move.to_be_bytes());
        e[10..12].copy_from_slice(&weight.to_be_bytes());
        e[12..16].copy_from_slice(&7u32.to_be_bytes());
        e
    }

    #[test]
    fn lookups_decode_castling_and_promotions_and_skip_illegal_moves() {
        let start = Position::new();
        let castle: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        let promote: Position = "8/P6k/8/8/8/8/8/K7 w - - 0 1".parse().unwrap();
        let mut entries = [
            entry(&start, raw("e2", "e4", 0), 30),
            entry(&start, raw("d2", "d4", 0), 10),
            // Not legal at the start: skipped.
            entry(&start, raw("e2", "e5", 0), 5),
            entry(&castle, raw("e1", "h1", 0), 2),
            entry(&castle, raw("e1", "a1", 0), 1),
            entry(&promote, raw("a7", "a8", 4), 1),
            entry(&promote, raw("a7", "a8", 1), 1),
        ];
        entries.sort_by_key(|e| u64::from_be_bytes(e[0..8].try_into().unwrap()));
        let bytes: Vec<u8> = entries.concat();
        let book = Book::from_bytes(&bytes).unwrap();
        assert_eq!(book.entries().len(), 7);
        assert_eq!(book.entries_of(&start).len(), 3);
        assert_eq!(book.entries_of(&start)[0].learn, 7);
        let uci = |pos: &Position| -> Vec<(String, u16)> {
            book.moves(pos)
                .into_iter()
                .map(|(m, w)| (m.to_uci(), w))
                .collect()
        };
        assert_eq!(
            uci(&start),
            vec![("e2e4".to_owned(), 30), ("d2d4".to_owned(), 10)]
        );
        let castles = book.moves(&castle);
        assert!(castles.iter().all(|(m, _)| m.is_castle()));
        assert_eq!(
            uci(&castle),
            vec![("e1g1".to_owned(), 2), ("e1c1".to_owned(), 1)]
        );
        assert_eq!(
            uci(&promote),
            vec![("a7a8q".to_owned(), 1), ("a7a8n".to_owned(), 1)]
        );
        let elsewhere: Position = "8/8/8/8/8/8/8/K1k5 w - - 0 1".parse().unwrap();
        assert!(book.moves(&elsewhere).is_empty());
    }

    #[test]
    fn bad_bytes_are_refused_or_harmless() {
        assert_eq!(Book::from_bytes(&[0; 17]), Err(BookError::Length(17)));
        assert!(Book::from_bytes(&[]).unwrap().entries().is_empty());
        // A promotion code past the queen names no move.
        assert_eq!(decode_move(&Position::new(), raw("e2", "e4", 7)), None);
        // Unsorted keys: lookups may miss, never fail.
        let start = Position::new();
        let other: Position = "8/8/8/8/8/8/8/K1k5 w - - 0 1".parse().unwrap();
        let bytes = [entry(&other, 0, 1), entry(&start, raw("e2", "e4", 0), 1)].concat();
        let book = Book::from_bytes(&bytes).unwrap();
        let _ = book.moves(&start);
        let _ = book.moves(&other);
    }
}

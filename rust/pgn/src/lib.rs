//! # shatranj-pgn: PGN, the Portable Game Notation (R7)
//!
//! Reading and writing recorded games, over the rules of `shatranj-chess`. A crate of its own
//! (as shakmaty's is pgn-reader) because a user of the rules need not take on a parser, the
//! chunked readers and the decompressors of PGN databases.
//!
//! The crate owns the game model ([`PgnGame`]: tag pairs, the start position, a tree of
//! moves with comments, NAGs and variations, the result), a streaming reader ([`PgnReader`],
//! one game at a time from any `BufRead`, recovering at the next game after a bad one) and
//! a writer ([`write_game`], [`write_mainline`]).
//!
//! The reader follows python-chess's `chess.pgn.read_game` where files are well formed, so a
//! game reads into the same tree in both libraries, and is stricter about reporting where
//! they are not: every problem is a [`PgnError`] with its line number, either kept in
//! [`PgnGame::errors`] (the game is still sound: a bad move inside a variation, an unknown
//! token) or, when the game itself cannot be trusted (a bad move in the main line, a bad
//! `FEN` tag, a comment never closed), returned instead of the game and counted as skipped.
//!
//! ```
//! use shatranj_pgn::{PgnReader, WriteOptions, write_game};
//!
//! let text = "[Event \"Casual\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 {threat} Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0\n\n\
//!             1. d4 Nf6 2. Ke2 d5 *\n";
//! let mut reader = PgnReader::new(text.as_bytes());
//! let game = reader.next().unwrap().unwrap();
//! assert_eq!(game.tag("Event"), Some("Casual"));
//! assert_eq!(game.mainline_moves().len(), 7);
//! let bad = reader.next().unwrap().unwrap_err();
//! assert_eq!(bad.line, 6);
//! assert!(reader.next().is_none());
//! assert_eq!((reader.games_read(), reader.games_skipped()), (1, 1));
//!
//! let pgn = write_game(&game, &WriteOptions::default()).unwrap();
//! assert!(pgn.starts_with("[Event \"Casual\"]\n[Site \"?\"]"));
//! assert!(pgn.contains("3. Bc4 Nf6 $4 4. Qxf7# 1-0"));
//! ```

pub mod annotations;
mod error;
mod game;
mod headers;
mod lexer;
mod mainline;
mod parse;
mod reader;
mod rules;
mod split;

/// Tests' random numbers: xorshift64 from `seed` (tests print their seed).
#[cfg(test)]
pub(crate) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
#[cfg(feature = "compression")]
pub mod chunk;
#[cfg(feature = "compression")]
pub mod stream;
mod tags;
mod tree;
mod writer;

pub use error::{PgnError, PgnErrorKind};
pub use game::{GamePgn, TagNameError};
pub use headers::{Condition, FilterError, HeaderFilter, Test, read_tags, scan_tags};
pub use mainline::{MainLine, MainLineRead, read_mainline};
pub use parse::{AnyPgnGame, parse_any_game, parse_game};
pub use reader::{PgnReader, ReadReport, read_all};
pub use rules::{GameRules, PgnPosition, UnknownVariant, is_chess960_variant, variant_start};
pub use split::{GameSplitter, LineAction, RawGame};
pub use tags::{TagIter, Tags, is_tag_name};
pub use tree::{Children, Nag, Node, NodeId, PgnGame};
pub use writer::{WriteOptions, write_game, write_mainline, write_with_tags};

/// The seven-tag roster (PGN standard 8.1.1), in the order it is written, with the value
/// written for a tag that is missing.
pub const TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// The game results a movetext may end with.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The move suffixes of R7.4 and the NAGs they stand for (`!` = 1 … `?!` = 6).
pub const SUFFIX_NAGS: [(&str, Nag); 6] = [
    ("!", 1),
    ("?", 2),
    ("!!", 3),
    ("??", 4),
    ("!?", 5),
    ("?!", 6),
];

// The crate README's example compiles and runs as a doctest, so the README cannot drift.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

//! # shatranj-syzygy: Syzygy endgame tablebases for shatranj-chess
//!
//! Win/draw/loss (WDL, `.rtbw`) and distance-to-zeroing (DTZ, `.rtbz`) probes of the Syzygy
//! tables, for [`shatranj_chess::Position`]s, with the ranking of root moves that engines
//! use to convert a won ending within the fifty-move rule.
//!
//! ```
//! use shatranj_syzygy::{Tablebase, Wdl};
//! use shatranj_chess::Position;
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/syzygy/regular");
//! let tables = Tablebase::open([dir]).unwrap();
//! assert_eq!(tables.max_pieces(), 4);
//!
//! // KNB v K: Black to move loses, and the next capture or pawn move is 53 plies away.
//! let knb: Position = "8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1".parse().unwrap();
//! assert_eq!(tables.probe_wdl(&knb).unwrap(), Wdl::Loss);
//! assert_eq!(tables.probe_dtz(&knb).unwrap(), -53);
//!
//! // A draw in the table, but White wins by capturing en passant.
//! let ep: Position = "8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2".parse().unwrap();
//! assert_eq!(tables.probe_wdl(&ep).unwrap(), Wdl::Win);
//!
//! // Every legal move, ranked by what it keeps: the best first.
//! let mut moves = tables.rank_root_moves(&knb, false).unwrap();
//! moves.sort_by_key(|m| -m.rank);
//! assert!(moves.iter().all(|m| m.wdl == Wdl::Loss));
//! ```
//!
//! - **Tables**: any table the format describes (the tests use the 3–4-man set; nothing
//!   assumes a size limit), from several directories ([`Tablebase::add_directory`]; a
//!   table's `.rtbw` and `.rtbz` may be in different ones). Directories are listed when
//!   added; each file is opened, memory-mapped and its header read on the first probe that
//!   needs it.
//! - **Threads**: [`Tablebase`] is `Send + Sync`; probes take `&self`, so search threads
//!   share one (in an `Arc`). Opening a table is done once, whichever thread gets there
//!   first.
//! - **Errors**: a missing table, a truncated or corrupt file are [`SyzygyError`]s, and a
//!   table that failed once fails the same way after. No bytes of a file are trusted: every
//!   offset is checked before it is read, so a damaged file cannot make a probe panic or read
//!   outside the file (`tests/corruption.rs` truncates and flips bytes of every table, and a
//!   seeded loop damages them at random). One thing no reader of mapped files can defend
//!   against: another process shrinking a file while it is mapped (the kernel then signals
//!   the reader, as with Fathom and Stockfish).
//! - **Rules**: positions with castling rights have no answer
//!   ([`SyzygyError::CastlingRights`]); an en-passant capture, which the tables do not
//!   store, is searched before the table is read. The halfmove clock is not looked at:
//!   [`Tablebase::probe_wdl`] and [`Tablebase::probe_dtz`] answer as if it were zero (as
//!   python-chess does), which is exact right after a capture or pawn move; what the
//!   fifty-move rule leaves of a result further on, the root ranking says.
//!
//! ## Where the code comes from
//!
//! The decoder and the probing algorithm are a port of Fathom (jdart1/Fathom, MIT: Ronald de
//! Man, basil00, Jon Dart), with its notice in `table.rs` and `probe.rs`; the move generation
//! is shatranj-chess's own. The crates.io crate `pyrrhic-rs` 0.2.0 (a `C2Rust` transliteration of
//! Pyrrhic, Fathom's descendant) was measured first and not taken: it was exact on the
//! 200-position `endgame.epd` set and on 2,000 random positions, but a truncated file made it
//! overflow the stack, a damaged header made it panic and a 3-byte file was read past its end;
//! it keeps its tables in process-wide `static mut`s, so a process has one set of tables, and
//! its DTZ is reachable only through a root probe that refuses to run while the handle is
//! shared between threads. python-chess's `chess.syzygy` (GPL-3) is the tests' oracle only.

#![deny(unsafe_code)]

mod error;
mod material;
mod probe;
mod table;
mod tablebase;

pub use error::{SyzygyError, TableKind};
pub use probe::{RootMove, Wdl};
pub use tablebase::Tablebase;

// The crate README's example compiles and runs as a doctest, so the README cannot drift.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

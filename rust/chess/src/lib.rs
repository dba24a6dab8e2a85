//! # shatranj-chess: the rules of chess
//!
//! Board types, strictly legal move generation, FEN, SAN/LAN/UCI notation, Polyglot Zobrist
//! keys and Polyglot opening books ([`polyglot`]), game history with repetition and the FIDE
//! draw rules, outcomes and perft. PGN reading and writing is the crate `shatranj-pgn`, built
//! on this one. The rules follow the FIDE Laws as digested in the project's `RULES.md` (ids
//! R1.1 … R8.1).
//!
//! ```
//! use shatranj_chess::{Position, perft::perft, san};
//!
//! let pos = Position::new();
//! assert_eq!(pos.legal_moves().len(), 20);
//! assert_eq!(perft(&pos, 3), 8_902);
//!
//! let kiwipete: Position =
//!     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
//! let castle = san::parse_san(&kiwipete, "O-O").unwrap();
//! assert_eq!(castle.to_string(), "e1g1");
//! let after = kiwipete.after(castle).unwrap();
//! assert_eq!(after.fen(), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1");
//! ```
//!
//! Game history and the draw rules (R4.8):
//!
//! ```
//! use shatranj_chess::{History, Position, san};
//!
//! let mut game = History::new(Position::new());
//! for text in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
//!     let m = san::parse_san(game.position(), text).unwrap();
//!     game.push(m).unwrap();
//! }
//! // Black may claim a draw: ...Ng8 would repeat the start position a third time.
//! assert!(game.can_claim_threefold_repetition());
//! assert!(!game.is_repetition(3));
//! ```

//! Who can still checkmate (R4.6 dead positions, R4.9): sound, with proofs beyond material.
//!
//! ```
//! use shatranj_chess::{Color, Position};
//!
//! let wall: Position = "8/8/8/1k6/p1p1p1p1/P1P1P1P1/8/5K2 w - - 0 1".parse().unwrap();
//! assert!(wall.is_dead_position());
//! let two_knights: Position = "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1".parse().unwrap();
//! assert!(two_knights.can_checkmate(Color::White));
//! assert!(!two_knights.can_checkmate(Color::Black));
//!
//! // Why: the proof, the helpmate found (its moves), or unknown within the budget.
//! use shatranj_chess::{Proof, Winnability};
//! assert_eq!(wall.winnability(Color::White), Winnability::Unwinnable(Proof::NoCheck));
//! let mated: Position = "k7/1Q6/2K5/8/8/8/8/8 b - - 0 1".parse().unwrap();
//! assert_eq!(mated.winnability(Color::White), Winnability::Helpmate(vec![]));
//! ```

//! A game with an arbiter (R4–R6): a clock, illegal moves counted, resignation, offers, claims.
//!
//! ```
//! use shatranj_chess::{Color, Game, Position, Rules, Termination};
//! use std::time::Duration;
//!
//! let mut game = Game::new(Position::new(), Rules::Fide, Some("5+3".parse().unwrap()));
//! game.push_san("e4", Duration::from_secs(10)).unwrap();
//! assert_eq!(game.remaining(Color::White), Some(Duration::from_secs(293)));
//! assert!(game.push_san("Ke6", Duration::ZERO).is_err()); // refused and counted (R4.4)
//! assert_eq!(game.illegal_moves(Color::Black), 1);
//! let outcome = game.resign(Color::Black).unwrap();
//! assert_eq!((outcome.termination, game.result()), (Termination::Resignation, "1-0"));
//! ```

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod castling;
pub mod chess960;
#[cfg(feature = "python-compat")]
pub mod compat;
pub mod dead;
pub mod fen;
pub mod game;
pub mod history;
mod movegen;
pub mod moves;
pub mod outcome;
pub mod perft;
mod piece;
pub mod polyglot;
pub mod position;
pub mod san;
mod square;
#[cfg(test)]
mod test_rng;
pub mod uci;
pub mod variant;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use castling::{Castling, CastlingMode, CastlingRights, CastlingSide};
#[cfg(feature = "python-compat")]
pub use compat::{Setup, Status};
pub use dead::{Budget, DeadOptions, Proof, Winnability};
pub use fen::{EnPassantMode, FenError, FenField};
pub use game::{Clock, FlagFall, Game, GameError, TimeControl, TimeControlError};
pub use history::{AgreementTooEarly, History};
pub use moves::{Move, MoveKind, MoveList};
pub use outcome::{Outcome, Rules, Termination};
pub use piece::{Color, Piece, Role};
pub use position::{IllegalMoveError, Position, PositionError};
pub use san::SanError;
pub use square::{File, InvalidSquareName, Rank, Square};
pub use uci::UciError;

// The crate README's examples compile and run as doctests, so the README cannot drift.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

//! The rules' values around `Board` (which has its own room, `crate::board`): `Move`
//! (`moves.rs`) and how python-chess's moves map onto the rules crate's (`resolve.rs`), the
//! legal moves of a ply and their view (`cache.rs`, `legal.rs`), `Piece`, the unvalidated
//! `Setup` behind setup mode, the arbitrated `Game`, outcomes and winnability as python-chess
//! shapes them, the board as text, the plain CPython `push`/`pop` (`hot_methods.rs`),
//! `Board(fen)` through the class's vectorcall slot (`hot_new.rs`) and a free list of boards
//! behind its allocation slots (`board_freelist.rs`).
//! Each is conversion only: the rules live in `shatranj-chess`.

pub mod board_freelist;
pub mod cache;
pub mod game;
pub mod hot_methods;
pub mod hot_new;
pub mod legal;
pub mod moves;
pub mod outcome;
pub mod piece;
pub mod resolve;
pub mod setup;
pub mod text;
pub mod winnability;

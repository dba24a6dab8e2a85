//! Whole games played by the engine, many at once: self-play matches ([`selfplay`]) and
//! training-data generation ([`datagen`]) are two policies over one pool ([`pool`]) and one
//! game loop ([`play`]).
//!
//! The contract both keep: game `i` is a function of `(seed, i, settings)` alone. Its opening
//! is drawn from `(seed, i)` ([`opening`]) or taken from a list, and its engine is fresh,
//! single-threaded and clockless; so a job can be split by game index across processes or
//! machines and give exactly the games one machine would have.
//!
//! Nothing else in the crate imports this folder.

pub mod datagen;
pub mod opening;
pub mod play;
pub mod pool;
pub mod selfplay;

pub use opening::{Opening, OpeningError, RandomOpenings, parse_openings, random_opening};
pub use play::{Control, GameRecord, GameTermination, play_game};

//! python-chess compatibility: what the Python package needs to behave exactly like
//! python-chess, and the engine never uses.
//!
//! - `setup`: [`Setup`], any placement python-chess's `Board` can hold, unvalidated, played
//!   python-chess's way;
//! - `python_order`: the legal moves in python-chess's generation order, so that a seeded
//!   script replays the same game under both;
//! - `pseudo`: pseudo-legal moves, as python-chess's `pseudo_legal_moves` lists them;
//! - `variant_order`: the variants' legal and pseudo-legal moves in python-chess's order.

mod pseudo;
pub(crate) mod python_order;
mod setup;
mod variant_order;

pub use setup::{Setup, Status};

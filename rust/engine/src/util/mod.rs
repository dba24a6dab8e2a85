//! Small tools the whole crate (and the trainer, the GPU tests) share: a seeded random
//! generator, SHA-256 with its hex form, and atomic file writes.
//!
//! They live here, below everything else, so that the network loader ([`crate::nnue`]) does
//! not depend on data generation, nor the trainer on self-play, just to hash bytes or draw a
//! number. **Seam:** nothing in `util` imports from the rest of the crate.

pub mod fs;
pub mod hash;
pub mod rng;

pub use fs::write_atomically;
pub use hash::{hex, sha256, sha256_hex};
pub use rng::SplitMix64;

//! Positions and games as tensors for machine learning: piece planes and features
//! (`planes.rs`), Lc0's input planes and the policy indices (`planes_lc0.rs`), the engine's
//! training shards read into numpy columns (`training_data.rs`), and positions in bulk as
//! compact records (`position_array.rs`, which the batch evaluation and the tablebase probes
//! also read). The numpy arrays are made over Rust's buffers by `crate::native_array`.

pub mod planes;
pub mod planes_lc0;
pub mod position_array;
pub mod training_data;

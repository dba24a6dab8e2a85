//! # shatranj-train: the network trainer
//!
//! Trains the engine's (768 → H) × 2 → 1 `SCReLU` network ([`shatranj_engine::nnue`]) on the
//! CPU from `shatranj datagen`'s shards: f32 weights, a sparse first layer (a sample touches
//! only its ≈ 30 active rows per view, forward and backward), mini-batches spread over
//! rayon's threads, `AdamW` with a cosine learning-rate schedule, and a target that blends the
//! game's result with the search's score ([`model`]). Checkpoints resume exactly; the
//! result is quantised into the engine's file format and checked against the float network.
//! [`TrainJob`] is the policy `shatranj train` runs: checkpoints, keep-best, the file's SCALE.
//!
//! ```no_run
//! use shatranj_train::{data, TrainConfig, Trainer};
//! use std::sync::atomic::AtomicBool;
//!
//! let dataset = data::load(&["data/nnue/gen0".into()], 50).unwrap();
//! let mut trainer = Trainer::new(TrainConfig { hidden: 128, epochs: 20, ..TrainConfig::default() }).unwrap();
//! trainer.train(&dataset, &AtomicBool::new(false), |_| {}, |_, epoch| {
//!     println!("epoch {}: validation loss {:?}", epoch.epoch, epoch.validation_loss);
//!     Ok(())
//! }).unwrap();
//! trainer.network().unwrap().save("net.nnue".as_ref()).unwrap();
//! ```

pub mod calibrate;
pub mod data;
pub mod job;
pub mod model;
pub mod trainer;

pub use data::{Dataset, Sample};
pub use job::{FileScale, TrainJob, TrainOutcome};
pub use model::Params;
pub use trainer::{
    EpochReport, QuantisationReport, TrainConfig, TrainError, TrainProgress, Trainer,
    loss_of_scores, quantisation_error,
};

//! The training policy of `shatranj train`, as a library: a checkpoint after every epoch and
//! on a stop, the latest (or best) epoch's network always on disk, the file's SCALE chosen
//! ([`FileScale`]), and the final network quantised and compared with the float one.
//!
//! It lives here rather than in the CLI so that every front end (the CLI, `shatranj.nnue`)
//! can run the same loop; the caller only parses arguments and prints.

use crate::data::Dataset;
use crate::trainer::{
    EpochReport, QuantisationReport, TrainError, TrainProgress, Trainer, loss_of_scores,
    quantisation_error,
};
use shatranj_engine::Network;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

/// How the written network's SCALE is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileScale {
    /// Fitted to the classical evaluation ([`crate::calibrate`]).
    Auto,
    Fixed(i32),
}

impl FromStr for FileScale {
    type Err = String;

    /// `auto` or a whole number in 1..=4096.
    fn from_str(s: &str) -> Result<FileScale, String> {
        if s == "auto" {
            return Ok(FileScale::Auto);
        }
        match s.parse::<i32>() {
            Ok(v) if (1..=4096).contains(&v) => Ok(FileScale::Fixed(v)),
            _ => Err(format!(
                "expected `auto` or a whole number in 1..=4096, got {s:?}"
            )),
        }
    }
}

impl FileScale {
    /// The SCALE to write for the trainer's current weights.
    pub fn for_weights(self, t: &Trainer, dataset: &Dataset) -> i32 {
        match self {
            FileScale::Fixed(v) => v,
            FileScale::Auto => t
                .classical_scale(&dataset.validation, &dataset.validation_classical)
                .unwrap_or(t.config.quantisation.scale),
        }
    }
}

/// Where a training job writes, and how it chooses what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainJob {
    /// The quantised network.
    pub out: PathBuf,
    /// The checkpoint, saved after every epoch and on a stop.
    pub checkpoint: PathBuf,
    /// Write the epoch with the lowest validation loss, not the last one.
    pub keep_best: bool,
    pub scale: FileScale,
}

/// What a finished job wrote.
#[derive(Debug)]
pub struct TrainOutcome {
    pub network: Network,
    /// The SCALE written.
    pub scale: i32,
    /// The validation loss of the kept epoch, when `keep_best` kept one.
    pub kept_best: Option<f32>,
    /// The quantised network against the float one on the validation positions.
    pub quantisation: QuantisationReport,
    /// Validation loss of the float weights and of the quantised network, when there are
    /// validation positions.
    pub float_loss: Option<f32>,
    pub quantised_loss: Option<f32>,
}

impl TrainJob {
    /// Trains `trainer` on `dataset` until its epochs are done or `stop` is set.
    /// `on_progress` hears about batches, `on_epoch` about each finished epoch (after its
    /// checkpoint and network are written). `Ok(None)`: stopped, with the checkpoint saved.
    pub fn run(
        &self,
        trainer: &mut Trainer,
        dataset: &Dataset,
        stop: &AtomicBool,
        on_progress: impl FnMut(&TrainProgress),
        mut on_epoch: impl FnMut(&EpochReport),
    ) -> Result<Option<TrainOutcome>, TrainError> {
        let mut best = f32::INFINITY;
        let mut best_params: Option<crate::Params> = None;
        let done = trainer.train(dataset, stop, on_progress, |t, r| {
            on_epoch(r);
            t.save_checkpoint(&self.checkpoint)?;
            // The latest (or best) epoch's network is always on disk.
            let loss = r.validation_loss.unwrap_or(f32::NEG_INFINITY);
            if !self.keep_best || loss < best {
                best = loss;
                let scale = self.scale.for_weights(t, dataset);
                self.save(&t.network_with_scale(scale)?)?;
                if self.keep_best {
                    best_params = Some(t.params.clone());
                }
            }
            Ok(())
        })?;
        if !done {
            trainer.save_checkpoint(&self.checkpoint)?;
            return Ok(None);
        }
        let kept_best = best_params.map(|p| {
            trainer.params = p;
            best
        });
        let scale = self.scale.for_weights(trainer, dataset);
        let network = trainer.network_with_scale(scale)?;
        self.save(&network)?;
        let quantisation = quantisation_error(
            &trainer.params,
            &network,
            &dataset.validation,
            scale as f32,
            100_000,
        );
        let validation = &dataset.validation[..quantisation.positions];
        // The loss reads scores in training centipawns (SCALE 400), the file's are at `scale`.
        let training_scale = trainer.config.quantisation.scale;
        let in_training_units: Vec<i16> = quantisation
            .scores
            .iter()
            .map(|&cp| {
                (i64::from(cp) * i64::from(training_scale) / i64::from(scale))
                    .clamp(-32_000, 32_000) as i16
            })
            .collect();
        Ok(Some(TrainOutcome {
            float_loss: trainer.validation_loss(validation),
            quantised_loss: loss_of_scores(validation, &in_training_units, trainer.config.wdl),
            network,
            scale,
            kept_best,
            quantisation,
        }))
    }

    fn save(&self, net: &Network) -> Result<(), TrainError> {
        net.save(&self.out)
            .map_err(|e| TrainError::Io(format!("cannot write {}: {e}", self.out.display())))
    }
}

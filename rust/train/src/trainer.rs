//! The training loop: shuffled mini-batches over rayon's threads, `AdamW` with a cosine
//! learning-rate schedule, a validation loss per epoch, and checkpoints that a later run
//! resumes from exactly where a stop left off.

use crate::data::{Dataset, Sample};
use crate::model::{CLIP, LossSettings, Params, Scratch, backward, output_clip, sample_loss};
use rayon::prelude::*;
use shatranj_engine::nnue::file::Quantisation;
use shatranj_engine::nnue::{Inputs, KingBuckets, NetError, Network, OutputBuckets};
use shatranj_engine::util::SplitMix64;
use shatranj_engine::util::write_atomically;
use std::fmt;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    pub hidden: usize,
    /// Plain inputs, or king-bucketed and mirrored ones (a file of architecture 3).
    pub inputs: Inputs,
    /// One output layer, or one per piece-count bucket.
    pub buckets: OutputBuckets,
    pub epochs: u32,
    pub batch_size: usize,
    /// The learning rate at the start; it falls along a cosine to `lr · final_lr_fraction`.
    pub lr: f32,
    pub final_lr_fraction: f32,
    /// `AdamW`'s decoupled weight decay.
    pub weight_decay: f32,
    /// The weight of the game result in the target.
    pub wdl: f32,
    /// Seeds the initial weights and each epoch's shuffle.
    pub seed: u64,
    /// Train on each position or its mirror image (files a↔h), one or the other at random
    /// each epoch: twice the distinct positions from the same games.
    pub mirror: bool,
    /// Train king-bucketed inputs with a factor ([`Params::factorised`]): one block of 768
    /// rows shared by every bucket, folded into each at export (the file is plain
    /// architecture 3). Needs king buckets.
    pub factoriser: bool,
    pub quantisation: Quantisation,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            hidden: 128,
            inputs: Inputs::Plain,
            buckets: OutputBuckets::Single,
            epochs: 30,
            batch_size: 16384,
            lr: 1e-3,
            final_lr_fraction: 0.01,
            weight_decay: 0.01,
            wdl: 0.3,
            seed: 1,
            mirror: false,
            factoriser: false,
            quantisation: Quantisation::default(),
        }
    }
}

/// Why training could not go on.
#[derive(Debug)]
pub enum TrainError {
    Config(String),
    Net(NetError),
    Io(String),
    /// A checkpoint that is damaged or does not fit this configuration.
    Checkpoint(String),
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Config(s) => write!(f, "bad training setting: {s}"),
            TrainError::Net(e) => write!(f, "{e}"),
            TrainError::Io(s) | TrainError::Checkpoint(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for TrainError {}

/// Numbers of one finished epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// 1-based.
    pub epoch: u32,
    pub train_loss: f32,
    pub validation_loss: Option<f32>,
    /// The learning rate at the epoch's end.
    pub lr: f32,
    pub samples_per_second: f64,
}

/// Live numbers within an epoch.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TrainProgress {
    pub epoch: u32,
    pub batch: usize,
    pub batches: usize,
    pub loss: f32,
    pub samples_per_second: f64,
}

/// A training run's state: parameters, optimiser moments and position in the schedule.
pub struct Trainer {
    pub config: TrainConfig,
    pub params: Params,
    m: Params,
    v: Params,
    step: u64,
    /// Epochs finished.
    epoch: u32,
    /// Batches of the current epoch finished.
    batch: usize,
}

const CHECKPOINT_MAGIC: &[u8; 8] = b"SHTRCKPT";
/// Version 3 added the output-bucket count; version 2 (one output layer) is still read.
const CHECKPOINT_VERSION: u32 = 3;
/// Bytes before the parameters (80 in version 2).
const CHECKPOINT_HEADER: usize = 84;
/// Version 4 is version 3 followed by the 32-byte king-bucket map: written only for
/// king-bucketed inputs, so a plain network's checkpoint stays version 3, byte for byte.
const CHECKPOINT_VERSION_KING_BUCKETS: u32 = 4;
const CHECKPOINT_HEADER_KING_BUCKETS: usize = CHECKPOINT_HEADER + 32;
/// Version 5 is version 4 for a factorised run: the same header, the parameters (and their
/// moments) each followed by the factor's 768 rows. Unfactorised runs still write 3 or 4.
const CHECKPOINT_VERSION_FACTORISED: u32 = 5;

impl Trainer {
    pub fn new(config: TrainConfig) -> Result<Trainer, TrainError> {
        if config.hidden == 0 || !config.hidden.is_multiple_of(32) {
            return Err(TrainError::Config(format!(
                "hidden size {} is not a positive multiple of 32",
                config.hidden
            )));
        }
        if config.batch_size == 0 || config.epochs == 0 {
            return Err(TrainError::Config(
                "batch size and epochs must be at least 1".into(),
            ));
        }
        config.quantisation.check().map_err(TrainError::Net)?;
        if !(0.0..=1.0).contains(&config.wdl) {
            return Err(TrainError::Config(format!(
                "wdl {} is not in 0..=1",
                config.wdl
            )));
        }
        if config.factoriser && config.inputs == Inputs::Plain {
            return Err(TrainError::Config(
                "the factoriser needs king-bucketed inputs (--king-buckets)".into(),
            ));
        }
        let (h, i, b) = (config.hidden, config.inputs, config.buckets);
        let mut params = Params::random(h, i, b, config.seed);
        if config.factoriser {
            params = params.with_factor();
        }
        Ok(Trainer {
            m: params.zeros_like(),
            v: params.zeros_like(),
            params,
            step: 0,
            epoch: 0,
            batch: 0,
            config,
        })
    }

    /// Starts from `net`'s weights rather than random ones (a fine-tune, a king-bucketed
    /// network seeded by a plain one, see [`Params::with_inputs`], or a wider network seeded
    /// by a narrower one, see [`Params::widened`]), so training begins at that network's
    /// loss. Only before the first step; the output buckets must be the configuration's, and
    /// the hidden size at most its.
    pub fn start_from(&mut self, net: &Network) -> Result<(), TrainError> {
        let c = &self.config;
        if self.step > 0 {
            return Err(TrainError::Config(
                "a network can seed only a run that has not started".into(),
            ));
        }
        if net.hidden() > c.hidden || net.buckets() != c.buckets {
            return Err(TrainError::Config(format!(
                "the starting network has {} hidden and {} output bucket(s), the run {} and {}",
                net.hidden(),
                net.buckets().count(),
                c.hidden,
                c.buckets.count()
            )));
        }
        let params = Params::from_network(net)
            .widened(c.hidden, c.seed)
            .and_then(|p| p.with_inputs(c.inputs, c.factoriser))
            .ok_or_else(|| {
                TrainError::Config(format!(
                    "a network with inputs {:?} cannot seed one with inputs {:?}",
                    net.inputs(),
                    c.inputs
                ))
            })?;
        self.m = params.zeros_like();
        self.v = params.zeros_like();
        self.params = params;
        Ok(())
    }

    /// Epochs finished so far.
    pub fn epochs_done(&self) -> u32 {
        self.epoch
    }

    fn loss_settings(&self) -> LossSettings {
        LossSettings {
            wdl: self.config.wdl,
            scale: self.config.quantisation.scale as f32,
        }
    }

    fn lr_at(&self, step: u64, total: u64) -> f32 {
        let c = &self.config;
        let t = (step as f64 / total.max(1) as f64).min(1.0);
        let low = c.lr * c.final_lr_fraction;
        low + (c.lr - low) * (0.5 * (1.0 + (std::f64::consts::PI * t).cos())) as f32
    }

    /// The training set's order in `epoch` (0-based): a shuffle seeded by the run's seed and
    /// the epoch, so a resumed run sees the same batches.
    fn order(&self, n: usize, epoch: u32) -> Vec<u32> {
        let mut idx: Vec<u32> = (0..n as u32).collect();
        let mut g = SplitMix64::for_game(self.config.seed ^ 0x5eed, u64::from(epoch));
        for i in (1..n).rev() {
            idx.swap(i, g.below(i + 1));
        }
        idx
    }

    /// Trains until every epoch is done or `stop` is set (then it returns after the batch
    /// under way; a checkpoint saved now resumes there). `on_epoch` may save checkpoints.
    /// Returns whether training is complete.
    pub fn train(
        &mut self,
        data: &Dataset,
        stop: &AtomicBool,
        mut on_progress: impl FnMut(&TrainProgress),
        mut on_epoch: impl FnMut(&Trainer, &EpochReport) -> Result<(), TrainError>,
    ) -> Result<bool, TrainError> {
        let n = data.train.len();
        if n == 0 {
            return Err(TrainError::Config("no training positions".into()));
        }
        let bs = self.config.batch_size.min(n);
        let batches = n.div_ceil(bs);
        let total_steps = u64::from(self.config.epochs) * batches as u64;
        let workers = rayon::current_num_threads().max(1);
        let (h, i, b) = (self.config.hidden, self.config.inputs, self.config.buckets);
        let pool: Vec<Mutex<(Params, Scratch, f64)>> = (0..workers)
            .map(|_| Mutex::new((Params::zeros(h, i, b), Scratch::new(h), 0.0)))
            .collect();
        // Samples read the folded network (a factor costs one fold a batch, not a second
        // row per feature); the factor's gradient is then the sum of the buckets'.
        let mut folded = Params::zeros(h, i, b);
        let mut grad = self.params.zeros_like();
        let loss = self.loss_settings();
        while self.epoch < self.config.epochs {
            let order = self.order(n, self.epoch);
            let start = Instant::now();
            let mut loss_sum = 0.0f64;
            let mut seen = 0usize;
            let first_batch = self.batch;
            while self.batch < batches {
                if stop.load(Ordering::Relaxed) {
                    return Ok(false);
                }
                let idx = &order[self.batch * bs..((self.batch + 1) * bs).min(n)];
                let per = idx.len().div_ceil(workers);
                let params = if self.params.factorised {
                    self.params.fold_into(&mut folded);
                    &folded
                } else {
                    &self.params
                };
                let mirror = self.config.mirror;
                let flip_seed = self.config.seed ^ (u64::from(self.epoch) << 32);
                pool.par_iter().enumerate().for_each(|(w, slot)| {
                    let mut guard = slot
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    let (g, scratch, l) = &mut *guard;
                    g.clear();
                    *l = 0.0;
                    let lo = (w * per).min(idx.len());
                    let hi = ((w + 1) * per).min(idx.len());
                    for &i in &idx[lo..hi] {
                        let s = &data.train[i as usize];
                        let flipped;
                        let s = if mirror && flips(flip_seed, i) {
                            flipped = s.mirrored();
                            &flipped
                        } else {
                            s
                        };
                        *l += f64::from(backward(params, s, loss, g, scratch));
                    }
                });
                let mut grads = pool[0]
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                let (g0, _, l0) = &mut *grads;
                let mut batch_loss = *l0;
                for slot in &pool[1..] {
                    let other = slot
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    g0.add(&other.0);
                    batch_loss += other.2;
                }
                let lr = self.lr_at(self.step, total_steps);
                let g = if self.params.factorised {
                    grad.unfold_gradient(g0);
                    &grad
                } else {
                    &*g0
                };
                adamw(
                    &mut self.params,
                    &mut self.m,
                    &mut self.v,
                    g,
                    1.0 / idx.len() as f32,
                    lr,
                    self.config.weight_decay,
                    self.step + 1,
                    output_clip(self.config.quantisation),
                );
                drop(grads);
                self.step += 1;
                self.batch += 1;
                loss_sum += batch_loss;
                seen += idx.len();
                on_progress(&TrainProgress {
                    epoch: self.epoch + 1,
                    batch: self.batch,
                    batches,
                    loss: (loss_sum / seen as f64) as f32,
                    samples_per_second: seen as f64 / start.elapsed().as_secs_f64().max(1e-9),
                });
            }
            let secs = start.elapsed().as_secs_f64().max(1e-9);
            let report = EpochReport {
                epoch: self.epoch + 1,
                train_loss: (loss_sum / seen.max(1) as f64) as f32,
                validation_loss: self.validation_loss(&data.validation),
                lr: self.lr_at(self.step, total_steps),
                samples_per_second: ((batches - first_batch) * bs).min(n) as f64 / secs,
            };
            self.epoch += 1;
            self.batch = 0;
            on_epoch(self, &report)?;
        }
        Ok(true)
    }

    /// The mean loss over `samples` (`None` if there are none).
    pub fn validation_loss(&self, samples: &[Sample]) -> Option<f32> {
        if samples.is_empty() {
            return None;
        }
        let loss = self.loss_settings();
        let h = self.config.hidden;
        let params = &self.params.folded();
        let sum: f64 = samples
            .par_chunks(4096)
            .map(|chunk| {
                let mut scratch = Scratch::new(h);
                chunk
                    .iter()
                    .map(|s| f64::from(sample_loss(params, s, loss, &mut scratch)))
                    .sum::<f64>()
            })
            .sum();
        Some((sum / samples.len() as f64) as f32)
    }

    /// The quantised network.
    pub fn network(&self) -> Result<Network, TrainError> {
        self.network_with_scale(self.config.quantisation.scale)
    }

    /// The quantised network with its file's SCALE set to `scale` (the weights do not depend
    /// on it: see [`crate::calibrate`]).
    pub fn network_with_scale(&self, scale: i32) -> Result<Network, TrainError> {
        let q = Quantisation {
            scale,
            ..self.config.quantisation
        };
        q.check().map_err(TrainError::Net)?;
        self.params.quantise(q).map_err(TrainError::Net)
    }

    /// The SCALE at which the current weights best match the classical scores `classical`
    /// of `samples` ([`crate::calibrate::fit_scale`]).
    pub fn classical_scale(&self, samples: &[Sample], classical: &[i16]) -> Option<i32> {
        let mut scratch = Scratch::new(self.params.hidden);
        let params = self.params.folded();
        let outputs: Vec<f32> = samples
            .iter()
            .map(|s| crate::model::forward(&params, s, &mut scratch))
            .collect();
        crate::calibrate::fit_scale(&outputs, classical)
    }

    /// Saves everything needed to resume, atomically.
    pub fn save_checkpoint(&self, path: &Path) -> Result<(), TrainError> {
        let c = &self.config;
        let mut out = Vec::with_capacity(64 + 12 * self.params.values.len());
        out.extend_from_slice(CHECKPOINT_MAGIC);
        let version = match c.inputs {
            Inputs::Plain => CHECKPOINT_VERSION,
            Inputs::KingBuckets(_) if c.factoriser => CHECKPOINT_VERSION_FACTORISED,
            Inputs::KingBuckets(_) => CHECKPOINT_VERSION_KING_BUCKETS,
        };
        for word in [
            version,
            c.hidden as u32,
            c.epochs,
            c.batch_size as u32,
            self.epoch,
            self.batch as u32,
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&self.step.to_le_bytes());
        out.extend_from_slice(&c.seed.to_le_bytes());
        for f in [c.lr, c.final_lr_fraction, c.weight_decay, c.wdl] {
            out.extend_from_slice(&f.to_le_bytes());
        }
        for q in [c.quantisation.qa, c.quantisation.qb, c.quantisation.scale] {
            out.extend_from_slice(&q.to_le_bytes());
        }
        out.extend_from_slice(&u32::from(c.mirror).to_le_bytes());
        out.extend_from_slice(&(c.buckets.count() as u32).to_le_bytes());
        debug_assert_eq!(out.len(), CHECKPOINT_HEADER);
        if let Inputs::KingBuckets(k) = c.inputs {
            out.extend_from_slice(k.map());
        }
        for p in [&self.params, &self.m, &self.v] {
            for x in &p.values {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        write_atomically(path, &out)
            .map_err(|e| TrainError::Io(format!("cannot write {}: {e}", path.display())))
    }

    /// A trainer in the state a checkpoint saved (its configuration included).
    pub fn resume(path: &Path) -> Result<Trainer, TrainError> {
        let bytes = std::fs::read(path)
            .map_err(|e| TrainError::Io(format!("cannot read {}: {e}", path.display())))?;
        let bad = |what: &str| TrainError::Checkpoint(format!("{}: {what}", path.display()));
        if bytes.len() < 80 || &bytes[..8] != CHECKPOINT_MAGIC {
            return Err(bad("not a shatranj training checkpoint"));
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let u64_at = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[i..i + 8]);
            u64::from_le_bytes(b)
        };
        let f32_at = |i: usize| f32::from_bits(u32_at(i));
        let (header, buckets) = match u32_at(8) {
            2 => (80, Some(OutputBuckets::Single)),
            CHECKPOINT_VERSION if bytes.len() >= CHECKPOINT_HEADER => (
                CHECKPOINT_HEADER,
                OutputBuckets::with_count(u32_at(80) as usize),
            ),
            CHECKPOINT_VERSION_KING_BUCKETS | CHECKPOINT_VERSION_FACTORISED
                if bytes.len() >= CHECKPOINT_HEADER_KING_BUCKETS =>
            {
                (
                    CHECKPOINT_HEADER_KING_BUCKETS,
                    OutputBuckets::with_count(u32_at(80) as usize),
                )
            }
            _ => return Err(bad("checkpoint version not supported")),
        };
        let factoriser = u32_at(8) == CHECKPOINT_VERSION_FACTORISED;
        let buckets = buckets.ok_or_else(|| bad("unknown output-bucket count"))?;
        let inputs = if header == CHECKPOINT_HEADER_KING_BUCKETS {
            let mut map = [0u8; 32];
            map.copy_from_slice(&bytes[CHECKPOINT_HEADER..header]);
            Inputs::KingBuckets(KingBuckets::new(map).map_err(|e| bad(&e.0))?)
        } else {
            Inputs::Plain
        };
        let hidden = u32_at(12) as usize;
        let config = TrainConfig {
            hidden,
            inputs,
            buckets,
            epochs: u32_at(16),
            batch_size: u32_at(20) as usize,
            seed: u64_at(40),
            lr: f32_at(48),
            final_lr_fraction: f32_at(52),
            weight_decay: f32_at(56),
            wdl: f32_at(60),
            mirror: u32_at(76) == 1,
            factoriser,
            quantisation: Quantisation {
                qa: u32_at(64) as i32,
                qb: u32_at(68) as i32,
                scale: u32_at(72) as i32,
            },
        };
        let factor_len = if factoriser {
            shatranj_engine::nnue::INPUTS * hidden
        } else {
            0
        };
        let len = Params::len_for(hidden, &inputs, buckets) + factor_len;
        if hidden == 0
            || !hidden.is_multiple_of(32)
            || hidden > 8192
            || bytes.len() != header + 12 * len
        {
            return Err(bad(
                "the checkpoint's length does not match its hidden size",
            ));
        }
        let floats = |k: usize| -> Vec<f32> {
            let at = header + 4 * len * k;
            (0..len).map(|i| f32_at(at + 4 * i)).collect()
        };
        let mut t = Trainer::new(config)?;
        t.params.values = floats(0);
        t.m.values = floats(1);
        t.v.values = floats(2);
        t.epoch = u32_at(24);
        t.batch = u32_at(28) as usize;
        t.step = u64_at(32);
        Ok(t)
    }

    /// Changes the epoch count of a resumed run (the schedule stretches to the new length).
    pub fn set_epochs(&mut self, epochs: u32) {
        self.config.epochs = epochs.max(1);
    }
}

/// Whether sample `i` is mirrored in the epoch `seed` stands for: a hash bit, so the choice
/// does not depend on threads or batches.
fn flips(seed: u64, i: u32) -> bool {
    SplitMix64::for_game(seed, u64::from(i)).next_u64() & 1 == 1
}

/// One `AdamW` step on every parameter, then the clip that keeps the network quantisable.
#[allow(clippy::too_many_arguments)]
fn adamw(
    p: &mut Params,
    m: &mut Params,
    v: &mut Params,
    g: &Params,
    grad_scale: f32,
    lr: f32,
    decay: f32,
    step: u64,
    out_clip: f32,
) {
    const B1: f32 = 0.9;
    const B2: f32 = 0.999;
    const EPS: f32 = 1e-8;
    let c1 = 1.0 - B1.powi(step.min(100_000) as i32);
    let c2 = 1.0 - B2.powi(step.min(100_000) as i32);
    // The output biases are the parameters left unclipped (they only shift the score); the
    // first layer's weights are clipped after the step, with the factor if there is one.
    let (bias_start, output_start, clip_end) = p.split();
    let n = p.values.len();
    for i in 0..n {
        let grad = g.values[i] * grad_scale;
        let mi = B1 * m.values[i] + (1.0 - B1) * grad;
        let vi = B2 * v.values[i] + (1.0 - B2) * grad * grad;
        m.values[i] = mi;
        v.values[i] = vi;
        let update = (mi / c1) / ((vi / c2).sqrt() + EPS);
        let mut x = p.values[i] * (1.0 - lr * decay) - lr * update;
        if i < bias_start {
            // The first layer's weights: clipped below, with the factor if there is one.
        } else if i < output_start {
            x = x.clamp(-CLIP, CLIP);
        } else if i < clip_end {
            x = x.clamp(-out_clip, out_clip);
        }
        p.values[i] = x;
    }
    p.clip_first_layer(CLIP);
}

/// The loss of fixed predictions (centipawns, e.g. the classical evaluation's) on `samples`:
/// what a network's validation loss is to be compared with.
pub fn loss_of_scores(samples: &[Sample], scores: &[i16], wdl: f32) -> Option<f32> {
    if samples.is_empty() || samples.len() != scores.len() {
        return None;
    }
    let loss = LossSettings {
        wdl,
        scale: crate::model::EVAL_SCALE,
    };
    let sum: f64 = samples
        .iter()
        .zip(scores)
        .map(|(s, &cp)| {
            let pred = 1.0 / (1.0 + (-f32::from(cp) / crate::model::EVAL_SCALE).exp());
            let d = pred - crate::model::target(s, loss);
            f64::from(d * d)
        })
        .sum();
    Some((sum / samples.len() as f64) as f32)
}

/// How far the quantised network's scores are from the float network's, in centipawns.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantisationReport {
    pub positions: usize,
    pub mean_abs: f64,
    pub max_abs: f64,
    /// The quantised network's scores, for [`loss_of_scores`]: what the engine plays with.
    pub scores: Vec<i16>,
}

/// Compares the float and quantised networks on up to `limit` samples.
pub fn quantisation_error(
    params: &Params,
    net: &Network,
    samples: &[Sample],
    scale: f32,
    limit: usize,
) -> QuantisationReport {
    let samples = &samples[..samples.len().min(limit)];
    let (mut sum, mut max) = (0.0f64, 0.0f64);
    let mut scratch = Scratch::new(params.hidden);
    let h = net.hidden();
    let (mut us, mut them) = (vec![0i16; h], vec![0i16; h]);
    let mut scores = Vec::with_capacity(samples.len());
    for s in samples {
        let float = f64::from(crate::model::forward(params, s, &mut scratch) * scale);
        let (fu, ft, n) = s.views(net.inputs());
        let wide = |v: &[u16]| v[..n].iter().map(|&f| usize::from(f)).collect::<Vec<_>>();
        net.accumulate(&mut us, &wide(&fu));
        net.accumulate(&mut them, &wide(&ft));
        let score = net.output(&us, &them, n);
        scores.push(score.clamp(-32_000, 32_000) as i16);
        let int = f64::from(score);
        let d = (float.clamp(-30_000.0, 30_000.0) - int).abs();
        sum += d;
        max = max.max(d);
    }
    QuantisationReport {
        positions: samples.len(),
        mean_abs: sum / samples.len().max(1) as f64,
        max_abs: max,
        scores,
    }
}

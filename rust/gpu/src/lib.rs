//! The GPU back end of shatranj's batch evaluation: the engine's evaluation as a WGSL compute
//! shader (`shaders/eval.wgsl`) run through wgpu, bit-identical to the CPU reference
//! [`shatranj_engine::eval::evaluate_bitboards`].
//!
//! - [`open`] is the entry point: a [`BatchEvaluator`] for a [`Device`] — the CPU, the GPU, or
//!   `auto`, which sends batches from a crossover size on (measured once by [`calibrate`]) to
//!   the GPU and smaller ones to the CPU, and falls back to the CPU (one warning on stderr)
//!   when there is no GPU.
//! - [`GpuEvaluator`] owns one [`GpuContext`] (device, queue, pipeline, reusable buffers);
//!   [`open`] shares a single one per process, since creating it compiles the shader.
//! - [`adapter`] picks the adapter from `SHATRANJ_WGPU_BACKEND`, `SHATRANJ_WGPU_ADAPTER` and
//!   `SHATRANJ_WGPU_POWER`; [`gpu_info`] says which one that is.
//! - [`layout`] derives the shader's view of the parameter table from the Rust struct.
//!
//! ```no_run
//! use shatranj_engine::eval::Device;
//! use shatranj_engine::eval::PackedPosition;
//!
//! let evaluator = shatranj_gpu::open(Device::Auto)?;
//! let start = PackedPosition::from_position(&shatranj_chess::Position::new());
//! let mut scores = vec![0; 4];
//! evaluator.evaluate_packed(&[start; 4], &mut scores)?;
//! # Ok::<(), shatranj_engine::eval::EvalError>(())
//! ```

pub mod adapter;
pub mod auto;
pub mod context;
pub mod counters;
pub mod layout;
pub mod pack;
pub mod perft;
pub mod quiet;
pub mod slot;

pub use adapter::{AdapterOptions, GpuInfo};
pub use auto::{AutoEvaluator, DEFAULT_CROSSOVER, ENV_CROSSOVER, calibrate};
pub use context::{GpuContext, Program};
pub use counters::{EvalCounters, Timestamps};
pub use shatranj_engine::eval::{BatchEvaluator, CpuBatchEvaluator, Device, EvalError};

use shatranj_engine::eval::EvalParams;
use shatranj_engine::eval::Evaluation;
use shatranj_engine::eval::PackedPosition;
use shatranj_engine::eval::cpu_evaluator;
use shatranj_engine::nnue::CompactPosition;
use std::sync::{Arc, Mutex, PoisonError};

/// The GPU [`BatchEvaluator`]: one [`GpuContext`], used by one batch at a time (concurrent
/// callers queue on a lock; each batch already fills the GPU).
pub struct GpuEvaluator {
    info: GpuInfo,
    evaluation: Evaluation,
    context: Mutex<GpuContext>,
}

impl GpuEvaluator {
    /// Opens the adapter `options` select, with the classical evaluation's weights `params`.
    pub fn new(options: &AdapterOptions, params: &EvalParams) -> Result<GpuEvaluator, EvalError> {
        GpuEvaluator::with_evaluation(options, &Evaluation::Classical(Box::new(*params)))
    }

    /// Opens the adapter `options` select for `evaluation` (classical or a network).
    pub fn with_evaluation(
        options: &AdapterOptions,
        evaluation: &Evaluation,
    ) -> Result<GpuEvaluator, EvalError> {
        let context = GpuContext::new(options, evaluation)?;
        Ok(GpuEvaluator {
            info: context.info().clone(),
            evaluation: evaluation.clone(),
            context: Mutex::new(context),
        })
    }

    /// The adapter the environment variables select, with the classical evaluation.
    pub fn from_env() -> Result<GpuEvaluator, EvalError> {
        GpuEvaluator::from_env_for(&Evaluation::classical())
    }

    /// The adapter the environment variables select, for `evaluation`.
    pub fn from_env_for(evaluation: &Evaluation) -> Result<GpuEvaluator, EvalError> {
        GpuEvaluator::with_evaluation(&AdapterOptions::from_env()?, evaluation)
    }

    /// The evaluation this evaluator computes.
    pub fn evaluation(&self) -> &Evaluation {
        &self.evaluation
    }

    pub fn info(&self) -> &GpuInfo {
        &self.info
    }

    /// What the context has done since it was opened (see [`EvalCounters`]).
    pub fn counters(&self) -> EvalCounters {
        self.lock().counters().clone()
    }

    /// Whether the device is gone (every later batch fails with [`EvalError::DeviceLost`]).
    pub fn is_lost(&self) -> bool {
        self.lock().is_lost()
    }

    /// Runs `f` on the context (tests and benchmarks inspect buffer sizes through it).
    pub fn with_context<T>(&self, f: impl FnOnce(&mut GpuContext) -> T) -> T {
        f(&mut self.lock())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, GpuContext> {
        self.context.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl BatchEvaluator for GpuEvaluator {
    fn describe(&self) -> String {
        match &self.evaluation {
            Evaluation::Classical(_) => format!("gpu: {}", self.info),
            e @ Evaluation::Network(_) => format!("gpu: {}, {}", self.info, e.describe()),
        }
    }

    fn evaluate_packed(
        &self,
        positions: &[PackedPosition],
        out: &mut [i32],
    ) -> Result<(), EvalError> {
        self.lock().evaluate(positions, out)
    }

    fn evaluate_compact(
        &self,
        positions: &[CompactPosition],
        out: &mut [i32],
    ) -> Result<(), EvalError> {
        self.lock().evaluate_compact(positions, out)
    }
}

/// How many evaluations (classical plus networks) keep a shared GPU context at once; the
/// least recently used is dropped beyond that.
const SHARED_CONTEXTS: usize = 4;

/// The process's shared GPU evaluator for the classical evaluation (environment-selected
/// adapter), created on first use. A failure is remembered (looking for adapters again costs
/// time and finds the same nothing); a lost device is replaced by a fresh one on the next call.
pub fn shared_gpu() -> Result<Arc<GpuEvaluator>, EvalError> {
    shared_gpu_for(&Evaluation::classical())
}

/// The process's shared GPU evaluator for `evaluation`: one context per evaluation (each
/// compiles its shader and uploads its weights once), the last few kept.
pub fn shared_gpu_for(evaluation: &Evaluation) -> Result<Arc<GpuEvaluator>, EvalError> {
    type Entry = (Evaluation, Result<Arc<GpuEvaluator>, EvalError>);
    static SHARED: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
    let mut shared = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    // No adapter is no adapter for every evaluation.
    if let Some((_, Err(e @ EvalError::NoAdapter(_)))) = shared.first() {
        return Err(e.clone());
    }
    shared.retain(|(_, r)| !matches!(r, Ok(gpu) if gpu.is_lost()));
    if let Some(i) = shared.iter().position(|(e, _)| e == evaluation) {
        let entry = shared.remove(i);
        let result = entry.1.clone();
        shared.push(entry);
        return result;
    }
    let result = GpuEvaluator::from_env_for(evaluation).map(Arc::new);
    if matches!(result, Err(EvalError::NoAdapter(_))) {
        shared.clear();
    }
    shared.push((evaluation.clone(), result.clone()));
    if shared.len() > SHARED_CONTEXTS {
        drop(shared.remove(0));
    }
    result
}

/// The process's shared `auto` evaluator for the classical evaluation.
pub fn shared_auto() -> Result<Arc<AutoEvaluator>, EvalError> {
    shared_auto_for(&Evaluation::classical())
}

/// The process's shared `auto` evaluator for `evaluation`, created (and calibrated) on first
/// use and again after its GPU is lost.
pub fn shared_auto_for(evaluation: &Evaluation) -> Result<Arc<AutoEvaluator>, EvalError> {
    static SHARED: Mutex<Vec<(Evaluation, Arc<AutoEvaluator>)>> = Mutex::new(Vec::new());
    let mut shared = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    shared.retain(|(_, a)| !a.gpu().is_some_and(|g| g.is_lost()));
    if let Some((_, auto)) = shared.iter().find(|(e, _)| e == evaluation) {
        return Ok(auto.clone());
    }
    let auto = Arc::new(AutoEvaluator::open_for(evaluation)?);
    shared.push((evaluation.clone(), auto.clone()));
    if shared.len() > SHARED_CONTEXTS {
        shared.remove(0);
    }
    Ok(auto)
}

/// The adapter GPU evaluation uses, or why there is none.
pub fn gpu_info() -> Result<GpuInfo, EvalError> {
    shared_gpu().map(|g| g.info().clone())
}

/// A [`BatchEvaluator`] of the classical evaluation for `device` (see [`open_for`]).
pub fn open(device: Device) -> Result<Arc<dyn BatchEvaluator>, EvalError> {
    open_for(device, &Evaluation::classical())
}

/// A [`BatchEvaluator`] of `evaluation` for `device`: the CPU on rayon's threads, the shared
/// GPU evaluator (an error if there is no adapter), or the shared [`AutoEvaluator`] choosing
/// per batch. Cheap after the first call of each kind: the GPU context and the calibration
/// are made once per process and evaluation.
pub fn open_for(
    device: Device,
    evaluation: &Evaluation,
) -> Result<Arc<dyn BatchEvaluator>, EvalError> {
    Ok(match device {
        Device::Cpu => cpu_evaluator(evaluation),
        Device::Gpu => shared_gpu_for(evaluation)?,
        Device::Auto => shared_auto_for(evaluation)?,
    })
}

// The crate README's examples compile and run as doctests, so the README cannot drift.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

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
//! use shatranj_engine::batch::Device;
//! use shatranj_engine::eval::PackedPosition;
//!
//! let evaluator = shatranj_gpu::open(Device::Auto)?;
//! let start = PackedPosition::from_position(&shatranj_chess::Position::new());
//! let mut scores = vec![0; 4];
//! evaluator.evaluate_packed(&[start; 4], &mut scores)?;
//! # Ok::<(), shatranj_engine::batch::EvalError>(())
//! ```

pub mod adapter;
pub mod auto;
pub mod context;
pub mod layout;

pub use adapter::{AdapterOptions, GpuInfo};
pub use auto::{AutoEvaluator, DEFAULT_CROSSOVER, ENV_CROSSOVER, calibrate};
pub use context::GpuContext;
pub use shatranj_engine::batch::{BatchEvaluator, CpuBatchEvaluator, Device, EvalError};

use shatranj_engine::eval::PackedPosition;
use shatranj_engine::params::{DEFAULT_PARAMS, EvalParams};
use std::sync::{Arc, Mutex, PoisonError};

/// The GPU [`BatchEvaluator`]: one [`GpuContext`], used by one batch at a time (concurrent
/// callers queue on a lock; each batch already fills the GPU).
pub struct GpuEvaluator {
    info: GpuInfo,
    context: Mutex<GpuContext>,
}

impl GpuEvaluator {
    /// Opens the adapter `options` select, with the evaluation weights `params`.
    pub fn new(options: &AdapterOptions, params: &EvalParams) -> Result<GpuEvaluator, EvalError> {
        let context = GpuContext::new(options, params)?;
        Ok(GpuEvaluator {
            info: context.info().clone(),
            context: Mutex::new(context),
        })
    }

    /// The adapter the environment variables select, with the engine's weights.
    pub fn from_env() -> Result<GpuEvaluator, EvalError> {
        GpuEvaluator::new(&AdapterOptions::from_env()?, &DEFAULT_PARAMS)
    }

    pub fn info(&self) -> &GpuInfo {
        &self.info
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
        format!("gpu: {}", self.info)
    }

    fn evaluate_packed(
        &self,
        positions: &[PackedPosition],
        out: &mut [i32],
    ) -> Result<(), EvalError> {
        self.lock().evaluate(positions, out)
    }
}

/// The process's shared GPU evaluator (environment-selected adapter, engine weights), created
/// on first use. A failure is remembered (looking for adapters again costs time and finds the
/// same nothing); a lost device is replaced by a fresh one on the next call.
pub fn shared_gpu() -> Result<Arc<GpuEvaluator>, EvalError> {
    type Shared = Option<Result<Arc<GpuEvaluator>, EvalError>>;
    static SHARED: Mutex<Shared> = Mutex::new(None);
    let mut shared = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    if matches!(shared.as_ref(), Some(Ok(gpu)) if gpu.is_lost()) {
        *shared = None;
    }
    shared
        .get_or_insert_with(|| GpuEvaluator::from_env().map(Arc::new))
        .clone()
}

/// The process's shared `auto` evaluator, created (and calibrated) on first use and again
/// after its GPU is lost.
pub fn shared_auto() -> Result<Arc<AutoEvaluator>, EvalError> {
    static SHARED: Mutex<Option<Arc<AutoEvaluator>>> = Mutex::new(None);
    let mut shared = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(auto) = shared.as_ref() {
        if !auto.gpu().is_some_and(|g| g.is_lost()) {
            return Ok(auto.clone());
        }
    }
    let auto = Arc::new(AutoEvaluator::open()?);
    *shared = Some(auto.clone());
    Ok(auto)
}

/// The adapter GPU evaluation uses, or why there is none.
pub fn gpu_info() -> Result<GpuInfo, EvalError> {
    shared_gpu().map(|g| g.info().clone())
}

/// A [`BatchEvaluator`] for `device`: the CPU on rayon's threads, the shared GPU evaluator
/// (an error if there is no adapter), or the shared [`AutoEvaluator`] choosing per batch.
/// Cheap after the first call of each kind: the GPU context and the calibration are made once
/// per process.
pub fn open(device: Device) -> Result<Arc<dyn BatchEvaluator>, EvalError> {
    Ok(match device {
        Device::Cpu => Arc::new(CpuBatchEvaluator::new(DEFAULT_PARAMS)),
        Device::Gpu => shared_gpu()?,
        Device::Auto => shared_auto()?,
    })
}

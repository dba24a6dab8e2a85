//! `device = auto`: the GPU for batches large enough to gain from it, the CPU otherwise.
//!
//! A GPU dispatch costs a fixed round trip (tens of microseconds on a discrete card, more on
//! a busy driver) while the CPU scores a position in well under a microsecond, so small
//! batches are faster on the CPU. The crossover batch size is measured by
//! `benchmarks/gpu_eval.py` and kept in [`DEFAULT_CROSSOVER`]; `SHATRANJ_GPU_CROSSOVER`
//! overrides it for a given machine.
//!
//! A software adapter (lavapipe, llvmpipe) runs the shader on the same CPU cores, slower than
//! the native evaluator at every size, so `auto` leaves it unused unless
//! `SHATRANJ_GPU_CROSSOVER` is set explicitly (how the tests route batches through it).

use crate::{GpuEvaluator, shared_gpu};
use shatranj_engine::batch::{BatchEvaluator, CpuBatchEvaluator, EvalError};
use shatranj_engine::eval::PackedPosition;
use shatranj_engine::params::DEFAULT_PARAMS;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Batches of at least this many positions go to the GPU (see the module docs).
pub const DEFAULT_CROSSOVER: usize = 16_384;

/// Overrides [`DEFAULT_CROSSOVER`].
pub const ENV_CROSSOVER: &str = "SHATRANJ_GPU_CROSSOVER";

/// The crossover from `SHATRANJ_GPU_CROSSOVER` if set (and a number), else the default; the
/// flag says whether it was set.
pub fn crossover() -> (usize, bool) {
    match std::env::var(ENV_CROSSOVER)
        .ok()
        .and_then(|v| v.trim().parse().ok())
    {
        Some(n) => (n, true),
        None => (DEFAULT_CROSSOVER, false),
    }
}

/// Prints `message` on stderr the first time any `auto` evaluator has something to say.
fn warn_once(message: &str) {
    static WARNED: AtomicBool = AtomicBool::new(false);
    if !WARNED.swap(true, Ordering::Relaxed) {
        eprintln!("shatranj: warning: {message}");
    }
}

/// Routes each batch to the GPU or the CPU by its size.
pub struct AutoEvaluator {
    cpu: CpuBatchEvaluator,
    gpu: Option<Arc<GpuEvaluator>>,
    crossover: usize,
}

impl AutoEvaluator {
    /// Explicit parts: `gpu` takes batches of `crossover` positions or more.
    pub fn new(
        cpu: CpuBatchEvaluator,
        gpu: Option<Arc<GpuEvaluator>>,
        crossover: usize,
    ) -> AutoEvaluator {
        AutoEvaluator {
            cpu,
            gpu,
            crossover,
        }
    }

    /// The shared GPU evaluator if there is a hardware one (or the crossover is set
    /// explicitly), else the CPU alone with a one-line warning. Never fails for want of a GPU.
    pub fn open() -> Result<AutoEvaluator, EvalError> {
        let cpu = CpuBatchEvaluator::new(DEFAULT_PARAMS);
        let (crossover, explicit) = crossover();
        let gpu = match shared_gpu() {
            Ok(gpu) if gpu.info().is_software() && !explicit => {
                warn_once(&format!(
                    "only a software GPU adapter ({}); device auto evaluates on the CPU \
                     (set {ENV_CROSSOVER} to use it anyway)",
                    gpu.info()
                ));
                None
            }
            Ok(gpu) => Some(gpu),
            Err(e) => {
                warn_once(&format!("{e}; device auto evaluates on the CPU"));
                None
            }
        };
        Ok(AutoEvaluator::new(cpu, gpu, crossover))
    }

    /// The GPU this evaluator may use.
    pub fn gpu(&self) -> Option<&Arc<GpuEvaluator>> {
        self.gpu.as_ref()
    }

    pub fn crossover(&self) -> usize {
        self.crossover
    }

    /// Whether a batch of `n` positions goes to the GPU.
    pub fn uses_gpu(&self, n: usize) -> bool {
        self.gpu.is_some() && n >= self.crossover
    }
}

impl BatchEvaluator for AutoEvaluator {
    fn describe(&self) -> String {
        match &self.gpu {
            Some(gpu) => format!(
                "auto: {} below {} positions, else {}",
                self.cpu.describe(),
                self.crossover,
                gpu.describe()
            ),
            None => format!("auto: {}", self.cpu.describe()),
        }
    }

    fn evaluate_packed(
        &self,
        positions: &[PackedPosition],
        out: &mut [i32],
    ) -> Result<(), EvalError> {
        if let Some(gpu) = self.gpu.as_ref().filter(|_| self.uses_gpu(positions.len())) {
            match gpu.evaluate_packed(positions, out) {
                Ok(()) => return Ok(()),
                // A length mismatch is the caller's error, on any device.
                Err(e @ EvalError::LengthMismatch { .. }) => return Err(e),
                Err(e) => warn_once(&format!("{e}; device auto evaluates on the CPU")),
            }
        }
        self.cpu.evaluate_packed(positions, out)
    }
}

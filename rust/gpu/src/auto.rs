//! `device = auto`: the GPU for batches large enough to gain from it, the CPU otherwise.
//!
//! A GPU dispatch costs a fixed round trip (tens of microseconds on a discrete card, more on
//! a busy driver) while the CPU scores a position in well under a microsecond, so small
//! batches are faster on the CPU. Where they cross depends on both devices, so
//! [`AutoEvaluator::open`] measures it once per process ([`calibrate`]: the GPU's batch-1
//! round trip `L` and both devices' rates `Rc`, `Rg` give the batch size `n` where
//! `n / Rc = L + n / Rg`). `SHATRANJ_GPU_CROSSOVER=N` replaces the measurement;
//! `benchmarks/gpu_eval.py` measures the crossover by sweeping batch sizes, a check on it.
//!
//! A software adapter (lavapipe, llvmpipe) runs the shader on the same CPU cores, slower than
//! the native evaluator at every size, so `auto` leaves it unused unless
//! `SHATRANJ_GPU_CROSSOVER` is set explicitly (how the tests route batches through it).

use crate::{GpuEvaluator, shared_gpu_for};
use shatranj_engine::eval::Evaluation;
use shatranj_engine::eval::PackedPosition;
use shatranj_engine::eval::{BatchEvaluator, EvalError, cpu_evaluator};
use shatranj_engine::nnue::CompactPosition;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The crossover when the calibration cannot measure one (a GPU call failed): an estimate
/// for a discrete GPU beside a many-core CPU (100 µs round trip, 100 M positions/s on the
/// CPU, the GPU much faster).
pub const DEFAULT_CROSSOVER: usize = 16_384;

/// Sets the crossover instead of measuring it.
pub const ENV_CROSSOVER: &str = "SHATRANJ_GPU_CROSSOVER";

/// The crossover `SHATRANJ_GPU_CROSSOVER` sets, if it is set to a number.
pub fn crossover_from_env() -> Option<usize> {
    std::env::var(ENV_CROSSOVER)
        .ok()
        .and_then(|v| v.trim().parse().ok())
}

/// Positions the calibration times on each device (the GPU's rate is measured on a batch
/// this large, where the round trip is a small part).
const CALIBRATION_BATCH: usize = 1 << 16;

/// Measures the batch size from which `gpu` is faster than `cpu` (see the module docs):
/// `usize::MAX` when the GPU is not faster at any size, [`DEFAULT_CROSSOVER`] if a GPU call
/// fails. Takes a few milliseconds on a real GPU.
pub fn calibrate(cpu: &dyn BatchEvaluator, gpu: &GpuEvaluator) -> usize {
    let start = PackedPosition::from_position(&shatranj_chess::Position::new());
    let positions = vec![start; CALIBRATION_BATCH];
    let mut out = vec![0; CALIBRATION_BATCH];
    let time = |f: &mut dyn FnMut() -> Result<(), EvalError>| -> Result<f64, EvalError> {
        f()?; // warm-up: buffers grow, caches fill
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let t = Instant::now();
            f()?;
            best = best.min(t.elapsed().as_secs_f64());
        }
        Ok(best)
    };
    let measured = (|| -> Result<usize, EvalError> {
        let (one, rest) = out.split_at_mut(1);
        let latency = time(&mut || gpu.evaluate_packed(&positions[..1], one))?;
        let gpu_all = time(&mut || gpu.evaluate_packed(&positions[1..], rest))?;
        let cpu_all = time(&mut || cpu.evaluate_packed(&positions[1..], rest))?;
        Ok(crossover_of(
            latency,
            gpu_all,
            cpu_all,
            CALIBRATION_BATCH - 1,
        ))
    })();
    measured.unwrap_or(DEFAULT_CROSSOVER)
}

/// The batch size `n` where the CPU (taking `cpu_s` for `batch` positions) and the GPU
/// (`latency_s` per call plus its rate from `gpu_s` for `batch`) take the same time, rounded
/// up to a power of two; `usize::MAX` if the GPU is not faster per position.
pub fn crossover_of(latency_s: f64, gpu_s: f64, cpu_s: f64, batch: usize) -> usize {
    let n = batch as f64;
    let per_cpu = cpu_s / n;
    // The GPU's marginal cost per position, its round trip taken out.
    let per_gpu = (gpu_s - latency_s).max(0.0) / n;
    if per_gpu >= per_cpu {
        return usize::MAX;
    }
    let cross = latency_s / (per_cpu - per_gpu);
    if cross >= (1u64 << 40) as f64 {
        usize::MAX
    } else {
        (cross.ceil() as usize).max(1).next_power_of_two()
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
    cpu: Arc<dyn BatchEvaluator>,
    gpu: Option<Arc<GpuEvaluator>>,
    crossover: usize,
}

impl AutoEvaluator {
    /// Explicit parts: `gpu` takes batches of `crossover` positions or more.
    pub fn new(
        cpu: impl BatchEvaluator + 'static,
        gpu: Option<Arc<GpuEvaluator>>,
        crossover: usize,
    ) -> AutoEvaluator {
        AutoEvaluator {
            cpu: Arc::new(cpu),
            gpu,
            crossover,
        }
    }

    /// The shared GPU evaluator if there is a hardware one (or the crossover is set
    /// explicitly), else the CPU alone with a one-line warning; the crossover measured by
    /// [`calibrate`] unless `SHATRANJ_GPU_CROSSOVER` sets it. Never fails for want of a GPU.
    pub fn open() -> Result<AutoEvaluator, EvalError> {
        AutoEvaluator::open_for(&Evaluation::classical())
    }

    /// As [`AutoEvaluator::open`], for `evaluation` (the crossover is measured for it: a
    /// network costs the CPU far more per position than the classical evaluation).
    pub fn open_for(evaluation: &Evaluation) -> Result<AutoEvaluator, EvalError> {
        let cpu = cpu_evaluator(evaluation);
        let explicit = crossover_from_env();
        let gpu = match shared_gpu_for(evaluation) {
            Ok(gpu) if gpu.info().is_software() && explicit.is_none() => {
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
        let crossover = match (&gpu, explicit) {
            (_, Some(n)) => n,
            (Some(gpu), None) => calibrate(cpu.as_ref(), gpu),
            (None, None) => usize::MAX,
        };
        Ok(AutoEvaluator {
            cpu,
            gpu,
            crossover,
        })
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
        match self.gpu.as_ref().filter(|_| self.crossover != usize::MAX) {
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

    fn evaluate_compact(
        &self,
        positions: &[CompactPosition],
        out: &mut [i32],
    ) -> Result<(), EvalError> {
        if let Some(gpu) = self.gpu.as_ref().filter(|_| self.uses_gpu(positions.len())) {
            match gpu.evaluate_compact(positions, out) {
                Ok(()) => return Ok(()),
                Err(e @ EvalError::LengthMismatch { .. }) => return Err(e),
                Err(e) => warn_once(&format!("{e}; device auto evaluates on the CPU")),
            }
        }
        self.cpu.evaluate_compact(positions, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossover_balances_round_trip_against_rates() {
        // 100 µs round trip; CPU 10 ns and GPU 1 ns per position: n · 9 ns = 100 µs.
        let batch = 100_000;
        let cross = crossover_of(
            100e-6,
            100e-6 + batch as f64 * 1e-9,
            batch as f64 * 10e-9,
            batch,
        );
        assert_eq!(cross, 16_384); // 11,112 rounded up to a power of two
        // A GPU no faster per position than the CPU never pays for its round trip.
        assert_eq!(crossover_of(1e-4, 2e-3, 1e-3, 1000), usize::MAX);
        assert_eq!(crossover_of(0.0, 0.5e-3, 1e-3, 1000), 1);
    }
}

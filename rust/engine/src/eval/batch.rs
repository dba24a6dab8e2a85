//! Evaluating many positions at once: the [`BatchEvaluator`] trait that every back end
//! implements (the CPU one here, spread over rayon's threads; the GPU one in `shatranj-gpu`),
//! the [`Device`] a caller asks for, and the [`EvalError`] a back end can fail with.
//!
//! Why a second trait beside [`crate::Evaluator`]: a batch back end works on
//! [`PackedPosition`]s (what a GPU buffer holds) and can fail — no adapter, a lost device, out
//! of memory — so its call returns a `Result`, while the search's per-node evaluation cannot
//! fail and must not pay for a `Result`.

use crate::eval::EvalParams;
use crate::eval::Evaluation;
use crate::eval::{PackedPosition, evaluate_bitboards};
use crate::nnue::{CompactPosition, Network};
use std::fmt;
use std::str::FromStr;

/// Which hardware evaluates a batch.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Device {
    /// The CPU, on every rayon thread.
    Cpu,
    /// The GPU through wgpu; an error when no adapter is found.
    Gpu,
    /// The GPU for batches large enough to gain from it, else the CPU; falls back to the CPU
    /// (with a one-line warning) when there is no GPU.
    #[default]
    Auto,
}

impl Device {
    pub const ALL: [Device; 3] = [Device::Cpu, Device::Gpu, Device::Auto];

    /// The name used in options and on the command line: `cpu`, `gpu`, `auto`.
    pub const fn name(self) -> &'static str {
        match self {
            Device::Cpu => "cpu",
            Device::Gpu => "gpu",
            Device::Auto => "auto",
        }
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Device {
    type Err = EvalError;

    fn from_str(s: &str) -> Result<Device, EvalError> {
        Device::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| EvalError::UnknownDevice(s.to_owned()))
    }
}

/// Why a batch could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// A device name other than `cpu`, `gpu` or `auto`.
    UnknownDevice(String),
    /// The output slice does not have one slot per position.
    LengthMismatch { positions: usize, outputs: usize },
    /// No GPU adapter matched (the text says what was looked for).
    NoAdapter(String),
    /// The GPU device was lost (driver reset, removal).
    DeviceLost(String),
    /// The GPU could not allocate the buffers for a batch.
    OutOfMemory(String),
    /// Any other failure reported by the GPU back end.
    Backend(String),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::UnknownDevice(name) => {
                write!(
                    f,
                    "unknown evaluation device {name:?} (expected cpu, gpu or auto)"
                )
            }
            EvalError::LengthMismatch { positions, outputs } => write!(
                f,
                "{positions} positions but {outputs} output slots; there must be one per position"
            ),
            EvalError::NoAdapter(what) => write!(f, "no GPU adapter: {what}"),
            EvalError::DeviceLost(what) => write!(f, "GPU device lost: {what}"),
            EvalError::OutOfMemory(what) => write!(f, "GPU out of memory: {what}"),
            EvalError::Backend(what) => write!(f, "GPU error: {what}"),
        }
    }
}

impl std::error::Error for EvalError {}

/// A back end that scores batches of packed positions: centipawns from the side to move,
/// exactly [`crate::eval::evaluate`]'s numbers whatever the hardware.
pub trait BatchEvaluator: Send + Sync {
    /// A short description for logs and summaries (`cpu (2 threads)`, `gpu: <adapter>`).
    fn describe(&self) -> String;

    /// Scores `positions[i]` into `out[i]`.
    fn evaluate_packed(
        &self,
        positions: &[PackedPosition],
        out: &mut [i32],
    ) -> Result<(), EvalError>;

    /// Scores compact positions (the GPU's 32-byte records, as a numpy array hands them
    /// over). By default they are unpacked on rayon's threads and scored as packed
    /// positions; the GPU uploads them as they are.
    fn evaluate_compact(
        &self,
        positions: &[CompactPosition],
        out: &mut [i32],
    ) -> Result<(), EvalError> {
        use rayon::prelude::*;
        let packed: Vec<PackedPosition> = positions
            .par_iter()
            .map(CompactPosition::to_packed)
            .collect();
        self.evaluate_packed(&packed, out)
    }
}

/// The CPU back end: the reference evaluation, split over rayon's thread pool in chunks large
/// enough that scheduling costs nothing next to the work.
#[derive(Clone, Debug, Default)]
pub struct CpuBatchEvaluator {
    pub params: EvalParams,
    /// Positions per rayon task.
    pub chunk: usize,
}

impl CpuBatchEvaluator {
    /// Positions per rayon task by default: about 20 µs of work.
    pub const DEFAULT_CHUNK: usize = 512;

    pub fn new(params: EvalParams) -> CpuBatchEvaluator {
        CpuBatchEvaluator {
            params,
            chunk: Self::DEFAULT_CHUNK,
        }
    }
}

/// The CPU back end of a network: each position from scratch, split over rayon's threads.
#[derive(Clone, Debug)]
pub struct NetworkBatchEvaluator {
    pub network: std::sync::Arc<Network>,
    /// Positions per rayon task.
    pub chunk: usize,
}

impl NetworkBatchEvaluator {
    pub fn new(network: std::sync::Arc<Network>) -> NetworkBatchEvaluator {
        NetworkBatchEvaluator {
            network,
            chunk: 256,
        }
    }
}

impl BatchEvaluator for NetworkBatchEvaluator {
    fn describe(&self) -> String {
        format!(
            "cpu ({} threads, network {})",
            rayon::current_num_threads(),
            &self.network.hash_hex()[..12]
        )
    }

    fn evaluate_packed(
        &self,
        positions: &[PackedPosition],
        out: &mut [i32],
    ) -> Result<(), EvalError> {
        par_evaluate(positions, out, self.chunk, |p| {
            self.network.evaluate_packed(p)
        })
    }
}

/// The CPU back end of an evaluation.
pub fn cpu_evaluator(evaluation: &Evaluation) -> std::sync::Arc<dyn BatchEvaluator> {
    match evaluation {
        Evaluation::Classical(p) => std::sync::Arc::new(CpuBatchEvaluator::new(**p)),
        Evaluation::Network(n) => {
            std::sync::Arc::new(NetworkBatchEvaluator::new(std::sync::Arc::clone(n)))
        }
    }
}

/// Scores `positions` into `out` with `score`, in rayon tasks of `chunk` positions.
fn par_evaluate(
    positions: &[PackedPosition],
    out: &mut [i32],
    chunk: usize,
    score: impl Fn(&PackedPosition) -> i32 + Sync,
) -> Result<(), EvalError> {
    use rayon::prelude::*;
    check_lengths(positions, out)?;
    let chunk = chunk.max(1);
    positions
        .par_chunks(chunk)
        .zip(out.par_chunks_mut(chunk))
        .for_each(|(ps, os)| {
            for (p, o) in ps.iter().zip(os.iter_mut()) {
                *o = score(p);
            }
        });
    Ok(())
}

/// Checks that `out` has one slot per position.
pub fn check_lengths(positions: &[PackedPosition], out: &[i32]) -> Result<(), EvalError> {
    if positions.len() == out.len() {
        Ok(())
    } else {
        Err(EvalError::LengthMismatch {
            positions: positions.len(),
            outputs: out.len(),
        })
    }
}

impl BatchEvaluator for CpuBatchEvaluator {
    fn describe(&self) -> String {
        format!("cpu ({} threads)", rayon::current_num_threads())
    }

    fn evaluate_packed(
        &self,
        positions: &[PackedPosition],
        out: &mut [i32],
    ) -> Result<(), EvalError> {
        par_evaluate(positions, out, self.chunk, |p| {
            evaluate_bitboards(&self.params, &p.bitboards(), p.turn == 1)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::DEFAULT_PARAMS;
    use crate::eval::evaluate;
    use shatranj_chess::Position;

    #[test]
    fn device_names_round_trip() {
        for d in Device::ALL {
            assert_eq!(d.name().parse::<Device>(), Ok(d));
        }
        assert_eq!("GPU".parse::<Device>(), Ok(Device::Gpu));
        assert_eq!(
            "tpu".parse::<Device>(),
            Err(EvalError::UnknownDevice("tpu".into()))
        );
    }

    #[test]
    fn cpu_batch_equals_the_reference() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
        ];
        let positions: Vec<Position> = fens.iter().map(|f| f.parse().unwrap()).collect();
        let packed: Vec<PackedPosition> = positions
            .iter()
            .map(PackedPosition::from_position)
            .collect();
        let cpu = CpuBatchEvaluator {
            params: DEFAULT_PARAMS,
            chunk: 2,
        };
        let mut out = vec![0; packed.len()];
        cpu.evaluate_packed(&packed, &mut out).unwrap();
        let expected: Vec<i32> = positions
            .iter()
            .map(|p| evaluate(&DEFAULT_PARAMS, p))
            .collect();
        assert_eq!(out, expected);
        assert_eq!(
            cpu.evaluate_packed(&packed, &mut out[..1]),
            Err(EvalError::LengthMismatch {
                positions: 3,
                outputs: 1
            })
        );
    }
}

//! Evaluation throughput against batch size on the CPU (one thread, all threads) and the GPU,
//! plus the round-trip latency of a batch of one. Driven by `benchmarks/gpu_eval.py`, which
//! builds it in release mode, plots the numbers and records them; it prints one JSON object
//! per measurement on stdout.
//!
//! ```sh
//! cargo run --release -p shatranj-gpu --example gpu_eval -- [--max-batch N] [--min-time S] \
//!     [--eval-file classical|<default>|PATH] [--array-only]
//! ```
//!
//! Every line names the evaluation it measured. The GPU is also timed on compact positions
//! packed beforehand (`gpu-compact`: evaluation from an array, the path of
//! `shatranj.evaluate(array)`, without the conversion from the 112-byte record that `gpu`
//! includes); each such measurement is followed by a `counters` line: the context's counters
//! over its calls (the timing's own warm-up call included: `calls` counts them; submits, bytes each way, buffers created, chunks in flight, packing
//! tasks, and the device's own upload / kernel / readback time where it has timestamps).
//!
//! Every GPU batch is also checked against the CPU's scores, so a run doubles as a
//! correctness check on whatever adapter it finds.

use shatranj_chess::Position;
use shatranj_engine::Evaluation;
use shatranj_engine::eval::PackedPosition;
use shatranj_engine::eval::cpu_evaluator;
use shatranj_engine::nnue::CompactPosition;
use shatranj_gpu::{BatchEvaluator, EvalError, GpuEvaluator};
use std::time::{Duration, Instant};

#[path = "../../chess/tests/support/rng.rs"]
mod rng;
use rng::Rng;

const SEED: u64 = 0xBE4C_0E7A;

struct Args {
    max_batch: usize,
    min_time: Duration,
    latency_calls: usize,
    eval_file: String,
    /// Only the GPU from compact records (`gpu-compact` and its counters): the eval-from-array
    /// step of `benchmarks/gpu_device_check.sh`.
    array_only: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        max_batch: 1 << 20,
        min_time: Duration::from_millis(300),
        latency_calls: 2000,
        eval_file: "classical".into(),
        array_only: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--max-batch" => {
                args.max_batch = value()?.parse().map_err(|e| format!("--max-batch: {e}"))?;
            }
            "--min-time" => {
                let s: f64 = value()?.parse().map_err(|e| format!("--min-time: {e}"))?;
                args.min_time = Duration::from_secs_f64(s.max(0.0));
            }
            "--latency-calls" => {
                args.latency_calls = value()?
                    .parse()
                    .map_err(|e| format!("--latency-calls: {e}"))?;
            }
            "--eval-file" => args.eval_file = value()?,
            "--array-only" => args.array_only = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(args)
}

/// Positions sampled from seeded random games: the mix a search or self-play would send.
fn positions(n: usize) -> Vec<PackedPosition> {
    let mut rng = Rng::mixed(SEED);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut pos = Position::new();
        for _ in 0..rng.below(300) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
            if rng.below(3) == 0 {
                out.push(PackedPosition::from_position(&pos));
            }
        }
    }
    out.truncate(n);
    out
}

/// Calls `run` on batches of `batch` positions until `min_time` has passed (at least twice,
/// after one warm-up call); returns (calls, seconds).
fn time_batches(
    min_time: Duration,
    mut run: impl FnMut() -> Result<(), EvalError>,
) -> Result<(usize, f64), EvalError> {
    run()?;
    let start = Instant::now();
    let mut calls = 0;
    while calls < 2 || start.elapsed() < min_time {
        run()?;
        calls += 1;
    }
    Ok((calls, start.elapsed().as_secs_f64()))
}

fn report(eval: &str, device: &str, describe: &str, batch: usize, calls: usize, seconds: f64) {
    let rate = (batch * calls) as f64 / seconds;
    let per_call_us = seconds / calls as f64 * 1e6;
    println!(
        "{{\"kind\": \"throughput\", \"evaluation\": {eval:?}, \"device\": \"{device}\", \
         \"describe\": {describe:?}, \"batch\": {batch}, \"calls\": {calls}, \
         \"seconds\": {seconds:.6}, \"positions_per_s\": {rate:.1}, \"per_call_us\": {per_call_us:.3}}}"
    );
}

/// Times the GPU on compact records (evaluation from an array) and prints the throughput and
/// the counters over the same calls.
fn array_row(
    g: &GpuEvaluator,
    name: &str,
    records: &[CompactPosition],
    out: &mut [i32],
    min_time: Duration,
) -> Result<(), EvalError> {
    let batch = records.len();
    // One untimed call first, so that the counters start after the slots grew.
    g.evaluate_compact(records, out)?;
    let before = g.counters();
    let (calls, secs) = time_batches(min_time, || g.evaluate_compact(records, out))?;
    report(name, "gpu-compact", &g.describe(), batch, calls, secs);
    let c = g.counters().since(&before);
    println!(
        "{{\"kind\": \"counters\", \"evaluation\": {name:?}, \"device\": \"gpu-compact\", \
         \"batch\": {batch}, \"seconds\": {secs:.6}, \"timestamps\": \"{}\", {}}}",
        g.with_context(|c| c.timestamps()).name(),
        c.json_fields()
    );
    Ok(())
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("gpu_eval: {e}");
            std::process::exit(2);
        }
    };
    let evaluation = match Evaluation::from_name(&args.eval_file) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("gpu_eval: --eval-file {}: {e}", args.eval_file);
            std::process::exit(2);
        }
    };
    let name = args.eval_file.as_str();
    let all = positions(args.max_batch);
    let compact: Vec<CompactPosition> = all.iter().map(CompactPosition::from_packed).collect();
    let mut batches = vec![1usize];
    while batches.last().is_some_and(|&b| b * 4 <= args.max_batch) {
        batches.push(batches.last().unwrap_or(&1) * 4);
    }
    if batches.last() != Some(&args.max_batch) {
        batches.push(args.max_batch);
    }

    let cpu = cpu_evaluator(&evaluation);
    let one = match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("gpu_eval: cannot build a one-thread pool: {e}");
            std::process::exit(1);
        }
    };
    let gpu = match GpuEvaluator::from_env_for(&evaluation) {
        Ok(g) => Some(g),
        Err(e) => {
            println!("{{\"kind\": \"no_gpu\", \"reason\": {:?}}}", e.to_string());
            None
        }
    };
    println!(
        "{{\"kind\": \"evaluation\", \"evaluation\": {name:?}, \"describe\": {:?}}}",
        evaluation.describe()
    );
    if let Some(g) = &gpu {
        let info = g.info();
        println!(
            "{{\"kind\": \"adapter\", \"name\": {:?}, \"backend\": {:?}, \"device_type\": {:?}, \
             \"driver\": {:?}, \"driver_info\": {:?}}}",
            info.name, info.backend, info.device_type, info.driver, info.driver_info
        );
    }
    if let Some(g) = gpu.as_ref().filter(|_| !args.array_only) {
        let crossover = shatranj_gpu::calibrate(cpu.as_ref(), g);
        println!(
            "{{\"kind\": \"calibration\", \"evaluation\": {name:?}, \"crossover\": {crossover}}}"
        );
    }
    let threads = rayon::current_num_threads();
    let mut expected = vec![0; args.max_batch];
    let mut out = vec![0; args.max_batch];
    let result = (|| -> Result<(), EvalError> {
        cpu.evaluate_packed(&all, &mut expected)?;
        let check = |out: &[i32], batch: usize, what: &str| {
            if out[..batch] == expected[..batch] {
                Ok(())
            } else {
                Err(EvalError::Backend(format!(
                    "{what} scores differ from the CPU's at batch size {batch}"
                )))
            }
        };
        for &batch in &batches {
            let ps = &all[..batch];
            if args.array_only {
                if let Some(g) = &gpu {
                    array_row(g, name, &compact[..batch], &mut out[..batch], args.min_time)?;
                    check(&out, batch, "GPU (compact input)")?;
                }
                continue;
            }
            let (calls, secs) = one.install(|| {
                time_batches(args.min_time, || cpu.evaluate_packed(ps, &mut out[..batch]))
            })?;
            report(name, "cpu1", "cpu (1 thread)", batch, calls, secs);
            let (calls, secs) =
                time_batches(args.min_time, || cpu.evaluate_packed(ps, &mut out[..batch]))?;
            let describe = format!("cpu ({threads} threads)");
            report(name, "cpu", &describe, batch, calls, secs);
            if let Some(g) = &gpu {
                let (calls, secs) =
                    time_batches(args.min_time, || g.evaluate_packed(ps, &mut out[..batch]))?;
                check(&out, batch, "GPU")?;
                report(name, "gpu", &g.describe(), batch, calls, secs);
                array_row(g, name, &compact[..batch], &mut out[..batch], args.min_time)?;
                check(&out, batch, "GPU (compact input)")?;
            }
        }
        if let Some(g) = &gpu {
            // Round trip of one position: upload, dispatch, read back.
            let mut samples = Vec::with_capacity(args.latency_calls);
            for i in 0..args.latency_calls {
                let p = &all[i % all.len()..][..1];
                let t = Instant::now();
                g.evaluate_packed(p, &mut out[..1])?;
                samples.push(t.elapsed().as_secs_f64() * 1e6);
            }
            samples.sort_by(f64::total_cmp);
            let q = |f: f64| samples[((samples.len() - 1) as f64 * f) as usize];
            println!(
                "{{\"kind\": \"latency\", \"evaluation\": {name:?}, \"device\": \"gpu\", \
                 \"calls\": {}, \"median_us\": {:.2}, \"p10_us\": {:.2}, \"p90_us\": {:.2}, \
                 \"min_us\": {:.2}}}",
                samples.len(),
                q(0.5),
                q(0.1),
                q(0.9),
                samples[0]
            );
        }
        Ok(())
    })();
    if let Err(e) = result {
        eprintln!("gpu_eval: {e}");
        std::process::exit(1);
    }
}

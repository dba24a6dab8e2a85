//! GPU perft speed and counters, as one JSON line per run:
//! `cargo run --release -p shatranj-gpu --example gpu_perft -- [--fen FEN] [--bitboards auto|halves|native] [--capacity N] [--hash MB] [--time-limit S] [--cpu-threads N] DEPTH...`
//!
//! Each depth is counted once on the GPU (after a warm-up of depth 3); the line gives the
//! nodes, seconds, nps and the device counters of that run (with `--hash MB`, a table on the
//! GPU, emptied before each depth: its probes and hits at the roots and two plies above the
//! leaves). With `--time-limit S` a count still running after S seconds is stopped and its
//! line says so (`"interrupted": true`), with the leaves counted, the share of the work done
//! and the time the whole count would take at that pace. With `--cpu-threads N` the CPU
//! perft (N threads, no table) counts the same tree right after, on its own line, and the
//! two counts must agree (exit status 1 otherwise). `benchmarks/gpu_perft.py` runs the CLI's
//! GPU and CPU perft side by side; `benchmarks/gpu_device_check.sh` runs this on the device.

use shatranj_chess::Position;
use shatranj_chess::perft::{PerftMonitor, PerftOptions, perft_with};
use shatranj_gpu::perft::{Bitboards, GpuPerft, GpuPerftError, GpuPerftSettings};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut fen = None;
    let mut settings = GpuPerftSettings::default();
    let mut depths = Vec::new();
    let mut cpu_threads = 0usize;
    let mut time_limit = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--fen" => fen = args.next(),
            "--bitboards" => {
                settings.bitboards = match args.next().as_deref() {
                    Some("halves") => Bitboards::Halves,
                    Some("native") => Bitboards::Native,
                    _ => Bitboards::Auto,
                }
            }
            "--capacity" => settings.capacity = args.next().and_then(|s| s.parse().ok()),
            "--hash" => settings.hash_mb = args.next().and_then(|s| s.parse().ok()).unwrap_or(0),
            "--time-limit" => {
                time_limit = args
                    .next()
                    .and_then(|s| s.parse::<f64>().ok())
                    .map(Duration::from_secs_f64);
            }
            "--cpu-threads" => cpu_threads = args.next().and_then(|s| s.parse().ok()).unwrap_or(0),
            d => depths.push(d.parse::<u32>().unwrap_or_else(|_| {
                eprintln!("not a depth: {d}");
                std::process::exit(2)
            })),
        }
    }
    let pos = match &fen {
        Some(f) => Position::from_fen(f).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        }),
        None => Position::new(),
    };
    let mut gpu = GpuPerft::from_env(&settings).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let _ = gpu.perft(&pos, 3);
    for depth in depths {
        // An empty table for each depth, as a first run would find it.
        gpu.clear_hash();
        let before = gpu.counters().clone();
        let t = Instant::now();
        let monitor = PerftMonitor::new();
        let finished = AtomicBool::new(false);
        let result = std::thread::scope(|s| {
            if let Some(limit) = time_limit {
                let (finished, monitor) = (&finished, &monitor);
                s.spawn(move || {
                    while !finished.load(Ordering::Relaxed) && t.elapsed() < limit {
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    monitor.stop();
                });
            }
            let r = gpu.divide(&pos, depth, &monitor);
            finished.store(true, Ordering::Relaxed);
            r
        });
        let secs = t.elapsed().as_secs_f64();
        let (nodes, partial) = match result {
            Ok(_) if depth == 0 => (1, String::new()),
            Ok(split) => (split.iter().map(|&(_, n)| n).sum::<u64>(), String::new()),
            Err(GpuPerftError::Interrupted) => {
                let done = monitor.fraction_done();
                (
                    monitor.nodes(),
                    format!(
                        "\"interrupted\": true, \"fraction_done\": {done:.4}, \
                         \"estimated_seconds\": {:.1}, ",
                        secs / done.max(1e-9)
                    ),
                )
            }
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1)
            }
        };
        let c = gpu.counters();
        let submits = c.submits - before.submits;
        println!(
            "{{\"device\": \"gpu\", \"adapter\": {:?}, \"u64\": {}, \"capacity\": {}, \"depth\": {depth}, {partial}\
             \"nodes\": {nodes}, \"seconds\": {secs:.4}, \"nps\": {:.0}, \"submits\": {submits}, \
             \"leaves_per_submit\": {}, \"bytes_uploaded\": {}, \"bytes_read_back\": {}, \
             \"overflows\": {}, \"buffers_created_after_warmup\": {}, \"max_in_flight\": {}, \
             \"hash_bytes\": {}, \"root_probes\": {}, \"root_hits\": {}, \"leaf_probes\": {}, \
             \"leaf_hits\": {}}}",
            gpu.info().to_string(),
            gpu.native_u64(),
            gpu.capacity(),
            nodes as f64 / secs.max(1e-9),
            (c.leaves - before.leaves) / submits.max(1),
            c.bytes_uploaded - before.bytes_uploaded,
            c.bytes_read_back - before.bytes_read_back,
            c.overflows - before.overflows,
            c.buffers_created - before.buffers_created,
            c.max_in_flight,
            gpu.hash_bytes(),
            c.table_root_probes - before.table_root_probes,
            c.table_root_hits - before.table_root_hits,
            c.table_leaf_probes - before.table_leaf_probes,
            c.table_leaf_hits - before.table_leaf_hits,
        );
        if cpu_threads > 0 && partial.is_empty() {
            let opts = PerftOptions {
                threads: cpu_threads,
                hash_mb: 0,
            };
            let t = Instant::now();
            let cpu = perft_with(&pos, depth, &opts, &PerftMonitor::new()).unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(1)
            });
            let secs = t.elapsed().as_secs_f64();
            println!(
                "{{\"device\": \"cpu\", \"threads\": {cpu_threads}, \"depth\": {depth}, \"nodes\": {cpu}, \
                 \"seconds\": {secs:.4}, \"nps\": {:.0}}}",
                cpu as f64 / secs.max(1e-9)
            );
            if cpu != nodes {
                eprintln!("count mismatch at depth {depth}: GPU {nodes}, CPU {cpu}");
                std::process::exit(1);
            }
        }
    }
}

//! GPU perft speed and counters, as one JSON line per run:
//! `cargo run --release -p shatranj-gpu --example gpu_perft -- [--fen FEN] [--bitboards auto|halves|native] [--capacity N] [--cpu-threads N] DEPTH...`
//!
//! Each depth is counted once on the GPU (after a warm-up of depth 3); the line gives the
//! nodes, seconds, nps and the device counters of that run. With `--cpu-threads N` the CPU
//! perft (N threads, no table) counts the same tree right after, on its own line, and the
//! two counts must agree (exit status 1 otherwise). `benchmarks/gpu_perft.py` runs the CLI's
//! GPU and CPU perft side by side; `benchmarks/gpu_device_check.sh` runs this on the device.

use shatranj_chess::Position;
use shatranj_chess::perft::{PerftMonitor, PerftOptions, perft_with};
use shatranj_gpu::perft::{Bitboards, GpuPerft, GpuPerftSettings};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut fen = None;
    let mut settings = GpuPerftSettings::default();
    let mut depths = Vec::new();
    let mut cpu_threads = 0usize;
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
        let before = gpu.counters().clone();
        let t = Instant::now();
        let nodes = gpu.perft(&pos, depth).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
        let secs = t.elapsed().as_secs_f64();
        let c = gpu.counters();
        let submits = c.submits - before.submits;
        println!(
            "{{\"device\": \"gpu\", \"adapter\": {:?}, \"u64\": {}, \"capacity\": {}, \"depth\": {depth}, \
             \"nodes\": {nodes}, \"seconds\": {secs:.4}, \"nps\": {:.0}, \"submits\": {submits}, \
             \"leaves_per_submit\": {}, \"bytes_uploaded\": {}, \"bytes_read_back\": {}, \
             \"overflows\": {}, \"buffers_created_after_warmup\": {}, \"max_in_flight\": {}}}",
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
        );
        if cpu_threads > 0 {
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

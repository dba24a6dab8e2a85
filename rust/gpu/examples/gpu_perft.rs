//! GPU perft speed and counters, as one JSON line per run:
//! `cargo run --release -p shatranj-gpu --example gpu_perft -- [--fen FEN] [--bitboards auto|halves|native] [--capacity N] DEPTH...`
//!
//! Each depth is counted once on the GPU (after a warm-up of depth 3); the line gives the
//! nodes, seconds, nps and the device counters of that run. `benchmarks/gpu_perft.py` runs
//! it beside the CPU perft.

use shatranj_chess::Position;
use shatranj_gpu::perft::{Bitboards, GpuPerft, GpuPerftSettings};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut fen = None;
    let mut settings = GpuPerftSettings::default();
    let mut depths = Vec::new();
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
             \"overflows\": {}, \"buffers_created_after_warmup\": {}}}",
            gpu.info().to_string(),
            gpu.native_u64(),
            gpu.capacity(),
            nodes as f64 / secs.max(1e-9),
            (c.leaves - before.leaves) / submits.max(1),
            c.bytes_uploaded - before.bytes_uploaded,
            c.bytes_read_back - before.bytes_read_back,
            c.overflows - before.overflows,
            c.buffers_created - before.buffers_created,
        );
    }
}

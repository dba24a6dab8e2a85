//! Counts one perft tree on one thread with the rules crate alone, for profiling the
//! counting core (callgrind, perf) without building the CLI:
//! `cargo run --release -p shatranj-chess --example perft_count -- DEPTH [FEN]`.
use shatranj_chess::Position;
use shatranj_chess::perft::{counting_core, perft};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5);
    let pos = match args.next() {
        Some(fen) => fen.parse::<Position>().expect("a valid FEN"),
        None => Position::new(),
    };
    let start = Instant::now();
    let nodes = perft(&pos, depth);
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {nodes}");
    println!(
        "Time: {secs:.3} s, {:.1} Mnps ({})",
        nodes as f64 / secs.max(1e-9) / 1e6,
        counting_core()
    );
}

//! Probe speed: WDL and DTZ probes per second and the time of one probe on warm tables, over
//! the 2,000 random 3–4-man positions of `tests/data/pychess_seed1.txt` (every table, both
//! sides to move, one in twenty with an en-passant square).
//!
//!     cargo run --release -p shatranj-syzygy --example syzygy_bench
//!     cargo run --release -p shatranj-syzygy --example syzygy_bench -- --seconds 3 \
//!         --tables data/syzygy/regular --positions FILE   # FILE: one FEN a line (`FEN;...` too)
//!
//! `benchmarks/syzygy.py` runs it beside python-chess's prober on the same positions. One
//! thread. "Cold" is the first sweep, which opens and maps every table; the rest is warm.
//! A probe's own time is read from the clock around it (the clock costs about 20 ns).

use shatranj_chess::Position;
use shatranj_syzygy::Tablebase;
use std::hint::black_box;
use std::time::{Duration, Instant};

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/syzygy/regular");
const POSITIONS: &str = include_str!("../tests/data/pychess_seed1.txt");

fn parse_positions(text: &str) -> Vec<Position> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let fen = l.split(';').next().unwrap();
            fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
        })
        .collect()
}

/// Probes per second: whole sweeps until `budget` has passed.
fn rate(positions: &[Position], budget: Duration, probe: impl Fn(&Position) -> i32) -> f64 {
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < budget {
        for p in positions {
            black_box(probe(black_box(p)));
        }
        n += positions.len() as u64;
    }
    n as f64 / start.elapsed().as_secs_f64()
}

/// Microseconds of single probes, sorted: every position, `sweeps` times.
fn latencies(positions: &[Position], sweeps: usize, probe: impl Fn(&Position) -> i32) -> Vec<f64> {
    let mut t = Vec::with_capacity(positions.len() * sweeps);
    for _ in 0..sweeps {
        for p in positions {
            let start = Instant::now();
            black_box(probe(black_box(p)));
            t.push(start.elapsed().as_secs_f64() * 1e6);
        }
    }
    t.sort_by(f64::total_cmp);
    t
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let mut tables = TABLES.to_owned();
    let mut positions_file = None;
    let mut seconds = 2.0f64;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--tables" => tables = value(),
            "--positions" => positions_file = Some(value()),
            "--seconds" => seconds = value().parse().expect("--seconds"),
            "-h" | "--help" => {
                println!("syzygy_bench [--tables DIR] [--positions FILE] [--seconds S]");
                return;
            }
            other => panic!("unknown argument {other}"),
        }
    }
    let text = match &positions_file {
        Some(f) => std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f}: {e}")),
        None => POSITIONS.to_owned(),
    };
    let positions = parse_positions(&text);
    let budget = Duration::from_secs_f64(seconds);

    let tb = Tablebase::open([&tables]).expect("tables");
    let wdl = |p: &Position| tb.probe_wdl(p).expect("wdl").value();
    let dtz = |p: &Position| tb.probe_dtz(p).expect("dtz");

    let start = Instant::now();
    for p in &positions {
        black_box(wdl(p));
        black_box(dtz(p));
    }
    let cold = start.elapsed();

    let wdl_rate = rate(&positions, budget, wdl);
    let dtz_rate = rate(&positions, budget, dtz);
    let wdl_lat = latencies(&positions, 5, wdl);
    let dtz_lat = latencies(&positions, 2, dtz);

    println!(
        "positions: {} ({} tables in {tables})",
        positions.len(),
        tb.tables().count()
    );
    println!(
        "cold sweep (opens every table, WDL + DTZ): {:.1} ms",
        cold.as_secs_f64() * 1e3
    );
    println!("wdl_per_s: {wdl_rate:.0}");
    println!("dtz_per_s: {dtz_rate:.0}");
    println!(
        "wdl_us: median {:.2} p90 {:.2} p99 {:.2}",
        quantile(&wdl_lat, 0.5),
        quantile(&wdl_lat, 0.9),
        quantile(&wdl_lat, 0.99)
    );
    println!(
        "dtz_us: median {:.2} p90 {:.2} p99 {:.2}",
        quantile(&dtz_lat, 0.5),
        quantile(&dtz_lat, 0.9),
        quantile(&dtz_lat, 0.99)
    );
}

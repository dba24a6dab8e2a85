//! Completeness and time per call of the dead-position tiers (R4.6, R4.9) on the
//! development set (`data/deadpos/dev-vector.txt`), beside CHA's solver used alone:
//!
//! - **quick (ours)**: `winnability` with the solver switched off: our own proofs and search;
//! - **arbiter**: `winnability` as `outcome()`, the arbiter and `is_dead_position` use it:
//!   ours, then the solver's bounded fast mode where ours is undecided;
//! - **full**: `winnability_full`: ours, then the solver in full;
//! - **chasolver alone**: `solver::solve` (the conversion and the replay of its line
//!   included), and its fast mode alone.
//!
//! For each: unwinnable sides found of those labelled so, dead positions found, unsound
//! answers ("cannot" on a side labelled "can": must be 0), and microseconds per call
//! (median, 99th percentile, max). Then the cost of converting our position to the solver's.
//!
//!     cargo run --release -p shatranj-chess --example dead_vector [-- WORD]
//!
//! With WORD, only the tiers whose name contains it run (`quick`, `arbiter`, `full`,
//! `chasolver`). With `DEAD_VECTOR_MISSES=1` in the environment, each tier's unproved
//! unwinnable sides are listed.

#[path = "../tests/support/dev_vector.rs"]
mod dev_vector;

use dev_vector::DevCase;
use shatranj_chess::Color;
use shatranj_chess::dead::solver;
use shatranj_chess::dead::{DeadOptions, Winnability, winnability_with};
use std::time::Instant;

struct Row {
    unwinnable: usize,
    found: usize,
    dead: usize,
    dead_found: usize,
    unsound: Vec<String>,
    /// Sides labelled "cannot" that the tier did not prove.
    missed: Vec<String>,
    unknown_or_error: usize,
    nanos: Vec<u64>,
}

/// Runs `tier` on every side of every case: `Some(true)` means "proved cannot".
fn run(cases: &[DevCase], tier: &dyn Fn(&DevCase, Color) -> Option<bool>) -> Row {
    let mut row = Row {
        unwinnable: 0,
        found: 0,
        dead: 0,
        dead_found: 0,
        unsound: Vec::new(),
        missed: Vec::new(),
        unknown_or_error: 0,
        nanos: Vec::new(),
    };
    for case in cases {
        let mut both = true;
        for color in Color::ALL {
            let start = Instant::now();
            let answer = std::hint::black_box(tier(case, color));
            row.nanos.push(start.elapsed().as_nanos() as u64);
            let cannot = answer == Some(true);
            row.unknown_or_error += usize::from(answer.is_none());
            both &= cannot;
            if case.can(color) {
                if cannot {
                    row.unsound.push(format!("{color:?}: {}", case.line));
                }
            } else {
                row.unwinnable += 1;
                row.found += usize::from(cannot);
                if !cannot {
                    row.missed.push(format!("{color:?}: {}", case.line));
                }
            }
        }
        if !case.can[0] && !case.can[1] {
            row.dead += 1;
            row.dead_found += usize::from(both);
        }
    }
    row
}

fn quantiles(mut nanos: Vec<u64>) -> (f64, f64, f64) {
    nanos.sort_unstable();
    let at = |q: f64| nanos[((nanos.len() - 1) as f64 * q).round() as usize] as f64 / 1000.0;
    (at(0.5), at(0.99), at(1.0))
}

/// `Some(true)`: proved unwinnable; `Some(false)`: a helpmate; `None`: unknown.
fn kind(w: &Winnability) -> Option<bool> {
    match w {
        Winnability::Unwinnable(_) => Some(true),
        Winnability::Helpmate(_) => Some(false),
        Winnability::Unknown => None,
    }
}

fn main() {
    type Tier<'a> = (&'a str, Box<dyn Fn(&DevCase, Color) -> Option<bool> + 'a>);
    let cases = dev_vector::load();
    let ours = DeadOptions {
        solver: false,
        ..DeadOptions::default()
    };
    let arbiter = DeadOptions::default();
    let tiers: Vec<Tier> = vec![
        (
            "quick (ours)",
            Box::new(|c, color| kind(&winnability_with(&c.pos, color, &ours))),
        ),
        (
            "arbiter (ours, then chasolver fast)",
            Box::new(|c, color| kind(&winnability_with(&c.pos, color, &arbiter))),
        ),
        (
            "full (ours, then chasolver full)",
            Box::new(|c, color| c.pos.winnability_full(color).ok().and_then(|w| kind(&w))),
        ),
        (
            "chasolver alone, full",
            Box::new(|c, color| solver::solve(&c.pos, color).ok().and_then(|w| kind(&w))),
        ),
        (
            "chasolver alone, fast",
            Box::new(|c, color| solver::solve_fast(&c.pos, color).ok()),
        ),
    ];
    println!(
        "dead_vector: {} positions of data/deadpos/dev-vector.txt, {} sides",
        cases.len(),
        cases.len() * 2
    );
    println!();
    println!(
        "| tier | unwinnable sides found | % | dead positions found | unsound | undecided | median µs | p99 µs | max µs |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let only = std::env::args().nth(1).unwrap_or_default();
    for (name, tier) in tiers.iter().filter(|(name, _)| name.contains(&only)) {
        let _ = run(&cases, tier.as_ref()); // warm-up
        let row = run(&cases, tier.as_ref());
        let (m, p99, max) = quantiles(row.nanos);
        println!(
            "| {name} | {}/{} | {:.1} | {}/{} | {} | {} | {m:.1} | {p99:.0} | {max:.0} |",
            row.found,
            row.unwinnable,
            100.0 * row.found as f64 / row.unwinnable as f64,
            row.dead_found,
            row.dead,
            row.unsound.len(),
            row.unknown_or_error,
        );
        for u in row.unsound.iter().take(10) {
            println!("  UNSOUND {u}");
        }
        if std::env::var_os("DEAD_VECTOR_MISSES").is_some() {
            for m in &row.missed {
                println!("  missed {m}");
            }
        }
    }
    // The conversion alone, on every position of the set, a hundred times each.
    let mut nanos = Vec::new();
    for case in &cases {
        let start = Instant::now();
        for _ in 0..100 {
            let _ = std::hint::black_box(solver::solver_board(std::hint::black_box(&case.pos)));
        }
        nanos.push(start.elapsed().as_nanos() as u64 / 100);
    }
    let (m, p99, max) = quantiles(nanos);
    println!();
    println!(
        "conversion to the solver's board: median {:.0} ns, p99 {:.0} ns, max {:.0} ns",
        m * 1000.0,
        p99 * 1000.0,
        max * 1000.0
    );
}

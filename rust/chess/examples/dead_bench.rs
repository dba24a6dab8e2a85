//! Benchmark of `Position::can_checkmate` (R4.6, R4.9): median and p99 time per call over
//! many final positions of games, side by side with the material test
//! `has_insufficient_material` (the anchor: what R5.2 uses) on the same positions.
//!
//! There is no PGN corpus on the build machines, so the games are seeded random playouts
//! from the start position that prefer captures (so they simplify into endgames the way
//! real games do). Three sets are measured: each game's final position (mate, stalemate,
//! bare material, or the ply cap); one position drawn from its last 60 plies; and one drawn
//! from plies 30–120, standing for the many real games that end by resignation or flag fall
//! with plenty of material left.
//!
//!     cargo run --release -p shatranj-chess --example dead_bench -- [GAMES] [SEED]

use shatranj_chess::{Color, Position};
use std::time::Instant;

// The seeded generator shared with the rules crate's tests (xorshift64*).
#[path = "../tests/support/rng.rs"]
mod rng;
use rng::Rng;

/// One playout: the positions of the game, start to end.
fn playout(rng: &mut Rng, max_plies: usize) -> Vec<Position> {
    let mut pos = Position::new();
    let mut game = vec![pos];
    while game.len() <= max_plies && !pos.is_insufficient_material() {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let captures: Vec<_> = moves.iter().filter(|&&m| pos.is_capture(m)).collect();
        let m = if !captures.is_empty() && rng.below(2) == 0 {
            *captures[rng.below(captures.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        pos.play_unchecked(m);
        game.push(pos);
    }
    game
}

/// Median and 99th percentile, in microseconds.
fn summary(mut nanos: Vec<u64>) -> (f64, f64) {
    nanos.sort_unstable();
    let at = |q: f64| nanos[((nanos.len() - 1) as f64 * q).round() as usize] as f64 / 1000.0;
    (at(0.5), at(0.99))
}

fn time_calls(
    positions: &[Position],
    call: impl Fn(&Position, Color) -> bool,
) -> (Vec<u64>, usize) {
    let mut nanos = Vec::with_capacity(positions.len() * 2);
    let mut cannot = 0;
    for p in positions {
        for color in Color::ALL {
            let start = Instant::now();
            let can = std::hint::black_box(call(std::hint::black_box(p), color));
            nanos.push(start.elapsed().as_nanos() as u64);
            cannot += usize::from(!can);
        }
    }
    (nanos, cannot)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5_000);
    let seed: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(0x00de_adb0_a7d5);
    println!("dead_bench: {games} seeded playouts, seed {seed}");
    let mut rng = Rng::new(seed);
    let (mut finals, mut late, mut resigned) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..games {
        let game = playout(&mut rng, 400);
        let tail = game.len().min(60);
        late.push(game[game.len() - 1 - rng.below(tail)]);
        finals.push(*game.last().unwrap());
        let ply = (30 + rng.below(91)).min(game.len() - 1);
        resigned.push(game[ply]);
    }
    println!();
    println!(
        "| positions | calls | can_checkmate median µs | p99 µs | max µs | says cannot | material test median µs | p99 µs | says cannot | median ratio |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, set) in [
        ("final", &finals),
        ("last 60 plies", &late),
        ("plies 30-120", &resigned),
    ] {
        // Interleave a warm-up pass, then the measured passes of both, on the same positions.
        let _ = time_calls(set, |p, c| p.can_checkmate(c));
        let (ours, cannot) = time_calls(set, |p, c| p.can_checkmate(c));
        let (anchor, anchor_cannot) = time_calls(set, |p, c| !p.has_insufficient_material(c));
        let max = *ours.iter().max().unwrap() as f64 / 1000.0;
        let ((m, p99), (am, ap99)) = (summary(ours), summary(anchor));
        println!(
            "| {name} | {} | {m:.2} | {p99:.2} | {max:.1} | {cannot} | {am:.3} | {ap99:.3} | {anchor_cannot} | {:.1}× |",
            set.len() * 2,
            m / am
        );
    }
    println!();
    println!("targets: median ≤ 10 µs, p99 ≤ 1000 µs per can_checkmate call");
}

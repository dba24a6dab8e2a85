//! Benchmark of `Position::can_checkmate` (R4.6, R4.9): median and p99 time per call on
//! positions from games, side by side with the material test `has_insufficient_material`
//! (the anchor: what R5.2 uses) on the same positions, and the deeper search tier's mean
//! time on the calls that reach it.
//!
//! Position sets:
//! - each `--pgn FILE` (real games: engine matches, self-play; plain or compressed): every
//!   game's final position, every position of its last 20 plies (the real game endings where
//!   a flag falls or a player resigns), and every position of every game. Without `--pgn`,
//!   the repository's own games: `benchmarks/games/gauntlet-2026-11-30.pgn.gz` (520 games of
//!   the engine against Stockfish at 10+0.1, recorded by `benchmarks/match.py --gauntlet`);
//! - seeded random playouts from the start position that prefer captures (so they simplify
//!   into endgames the way real games do): each game's final position (mate, stalemate,
//!   bare material, or the ply cap); one position drawn from its last 60 plies; one drawn
//!   from plies 30–120, standing for games that end by resignation or flag fall with
//!   plenty of material left;
//! - seeded locked pawn walls (a chain across the board, a file left open now and then, the
//!   kings and up to three pieces anywhere): not from games, but the positions where the
//!   static analysis and the deep tier do their work, so that the deep tier's cost shows.
//!
//! On the game endings of each PGN file, a last table sets the tiers side by side per call:
//! ours alone (the solver switched off), the arbiter (ours, then the solver's fast mode), and
//! CHA's solver alone, fast and full.
//!
//!     cargo run --release -p shatranj-chess --example dead_bench -- \
//!   [--games N] [--seed S] [--pgn FILE]...

use shatranj_chess::dead::solver;
use shatranj_chess::dead::{DeadOptions, Tier, analyse_with};
use shatranj_chess::outcome::{Rules, time_forfeit};
use shatranj_chess::{Board, CastlingRights, Color, Piece, Position, Role, Square};
use shatranj_pgn::PgnReader;
use shatranj_pgn::stream::Source;
use std::io::BufReader;
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

/// A seeded position around a locked pawn chain, the kind the dead-position tests build.
fn wall(rng: &mut Rng) -> Position {
    const POOL: [Role; 5] = [
        Role::Knight,
        Role::Bishop,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ];
    loop {
        let mut board = Board::empty();
        let mut rank = 1 + rng.below(5) as u32;
        for file in 0..8 {
            if rng.below(8) != 0 {
                let white = Square::new(rank * 8 + file).expect("a square");
                let black = Square::new((rank + 1) * 8 + file).expect("a square");
                board.set_piece_at(white, Piece::new(Color::White, Role::Pawn));
                board.set_piece_at(black, Piece::new(Color::Black, Role::Pawn));
            }
            rank = match (rank, rng.below(2)) {
                (1, _) => 2,
                (5, _) => 4,
                (r, 0) => r - 1,
                (r, _) => r + 1,
            };
        }
        let mut place = |rng: &mut Rng, piece: Piece| loop {
            let sq = Square::new(rng.below(64) as u32).expect("a square");
            if board.piece_at(sq).is_none() {
                board.set_piece_at(sq, piece);
                return;
            }
        };
        for color in Color::ALL {
            place(rng, Piece::new(color, Role::King));
        }
        for _ in 0..rng.below(4) {
            let piece = Piece::new(rng.pick(&Color::ALL), rng.pick(&POOL));
            place(rng, piece);
        }
        let turn = rng.pick(&Color::ALL);
        if let Ok(p) = Position::from_parts(board, turn, CastlingRights::NONE, None, 0, 1) {
            return p;
        }
    }
}

/// The main line of every game in a PGN file, as positions start to end.
fn pgn_games(path: &str) -> Vec<Vec<Position>> {
    let file = Source::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut games = Vec::new();
    for game in PgnReader::new(BufReader::new(file)).flatten() {
        if game.fatal.is_some() {
            continue;
        }
        let mut pos = game.start;
        let mut line = vec![pos];
        for m in game.mainline_moves() {
            pos.play_unchecked(m);
            line.push(pos);
        }
        games.push(line);
    }
    games
}

/// Median and 99th percentile, in microseconds.
fn summary(mut nanos: Vec<u64>) -> (f64, f64, f64) {
    nanos.sort_unstable();
    let at = |q: f64| nanos[((nanos.len() - 1) as f64 * q).round() as usize] as f64 / 1000.0;
    (at(0.5), at(0.99), at(1.0))
}

struct Timed {
    nanos: Vec<u64>,
    cannot: usize,
    /// Time of the calls that reached the deep tier.
    deep: Vec<u64>,
}

fn time_calls(positions: &[Position], options: &DeadOptions) -> Timed {
    let mut t = Timed {
        nanos: Vec::with_capacity(positions.len() * 2),
        cannot: 0,
        deep: Vec::new(),
    };
    for p in positions {
        for color in Color::ALL {
            let start = Instant::now();
            let a = std::hint::black_box(analyse_with(std::hint::black_box(p), color, options));
            let ns = start.elapsed().as_nanos() as u64;
            t.nanos.push(ns);
            t.cannot += usize::from(!a.winnability.can_checkmate());
            if a.tier == Some(Tier::Deep) {
                t.deep.push(ns);
            }
        }
    }
    t
}

fn time_anchor(positions: &[Position]) -> (Vec<u64>, usize) {
    let mut nanos = Vec::with_capacity(positions.len() * 2);
    let mut cannot = 0;
    for p in positions {
        for color in Color::ALL {
            let start = Instant::now();
            let insufficient = std::hint::black_box(p).has_insufficient_material(color);
            nanos.push(start.elapsed().as_nanos() as u64);
            cannot += usize::from(std::hint::black_box(insufficient));
        }
    }
    (nanos, cannot)
}

/// Per position: `is_dead_position` (what the arbiter asks after a capture or pawn move,
/// R4.6) and the outcome of a flag fall of the side to move under FIDE rules (R4.9, 6.9).
fn time_arbiter(positions: &[Position]) -> (Vec<u64>, Vec<u64>, usize, usize) {
    let (mut dead, mut flag) = (Vec::new(), Vec::new());
    let (mut dead_count, mut drawn) = (0, 0);
    for p in positions {
        let start = Instant::now();
        let d = std::hint::black_box(std::hint::black_box(p).is_dead_position());
        dead.push(start.elapsed().as_nanos() as u64);
        let start = Instant::now();
        let o = std::hint::black_box(time_forfeit(std::hint::black_box(p), p.turn(), Rules::Fide));
        flag.push(start.elapsed().as_nanos() as u64);
        dead_count += usize::from(d);
        drawn += usize::from(o.winner.is_none());
    }
    (dead, flag, dead_count, drawn)
}

fn main() {
    type Tier<'a> = Box<dyn Fn(&Position, Color) -> bool + 'a>;
    let mut games: usize = 5_000;
    let mut seed: u64 = 0x00de_adb0_a7d5;
    let mut pgns = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--games" => games = value().parse().expect("--games N"),
            "--seed" => seed = value().parse().expect("--seed S"),
            "--pgn" => pgns.push(value()),
            _ => panic!("usage: dead_bench [--games N] [--seed S] [--pgn FILE]..."),
        }
    }
    if pgns.is_empty() {
        pgns.push(
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../benchmarks/games/gauntlet-2026-11-30.pgn.gz"
            )
            .to_owned(),
        );
    }
    let mut sets: Vec<(String, Vec<Position>)> = Vec::new();
    let mut endings: Vec<(String, Vec<Position>)> = Vec::new();
    for path in &pgns {
        let games = pgn_games(path);
        let name = std::path::Path::new(path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        let finals = games.iter().filter_map(|g| g.last().copied()).collect();
        let every = games.iter().flatten().copied().collect();
        sets.push((format!("{name}: final ({} games)", games.len()), finals));
        let last: Vec<Position> = games
            .iter()
            .flat_map(|g| g[g.len().saturating_sub(20)..].iter().copied())
            .collect();
        endings.push((format!("{name}: last 20 plies"), last.clone()));
        sets.push((format!("{name}: last 20 plies"), last));
        sets.push((format!("{name}: every position"), every));
    }
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
    sets.push((format!("playouts: final ({games}, seed {seed})"), finals));
    sets.push(("playouts: last 60 plies".to_owned(), late));
    sets.push(("playouts: plies 30-120".to_owned(), resigned));
    let walls = (0..games).map(|_| wall(&mut rng)).collect();
    sets.push((format!("locked walls ({games}, not from games)"), walls));

    let options = DeadOptions::default();
    println!(
        "dead_bench: quick tier {:?}, deep tier {:?}, locked tier {:?}, solver's fast mode {}",
        options.quick, options.deep, options.locked, options.solver
    );
    println!();
    println!(
        "| positions | calls | median µs | p99 µs | max µs | says cannot | deep-tier calls | deep-tier mean µs | material test median µs | says cannot |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, set) in &sets {
        // A warm-up pass, then the measured passes of both, on the same positions.
        let _ = time_calls(set, &options);
        let t = time_calls(set, &options);
        let (anchor, anchor_cannot) = time_anchor(set);
        let deep_mean = if t.deep.is_empty() {
            "–".to_owned()
        } else {
            let sum: u64 = t.deep.iter().sum();
            format!("{:.1}", sum as f64 / t.deep.len() as f64 / 1000.0)
        };
        let deep_calls = t.deep.len();
        let ((m, p99, max), (am, _, _)) = (summary(t.nanos), summary(anchor));
        println!(
            "| {name} | {} | {m:.2} | {p99:.2} | {max:.1} | {} | {deep_calls} | {deep_mean} | {am:.3} | {anchor_cannot} |",
            set.len() * 2,
            t.cannot,
        );
    }
    println!();
    println!(
        "| positions | is_dead_position median µs | p99 µs | max µs | dead | flag fall (time_forfeit, FIDE) median µs | p99 µs | max µs | drawn |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, set) in &sets {
        let _ = time_arbiter(set);
        let (dead, flag, dead_count, drawn) = time_arbiter(set);
        let ((dm, dp, dx), (fm, fp, fx)) = (summary(dead), summary(flag));
        println!(
            "| {name} | {dm:.2} | {dp:.2} | {dx:.1} | {dead_count} | {fm:.2} | {fp:.2} | {fx:.1} | {drawn} |"
        );
    }
    println!();
    println!(
        "| game endings, per side | ours median µs | p99 | max | cannot | arbiter median µs | p99 | max | cannot | chasolver fast median µs | p99 | max | cannot | chasolver full median µs | p99 | max | cannot |"
    );
    println!(
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    let ours = DeadOptions {
        solver: false,
        ..DeadOptions::default()
    };
    let tiers: [Tier; 4] = [
        Box::new(|p, c| !analyse_with(p, c, &ours).winnability.can_checkmate()),
        Box::new(|p, c| !analyse_with(p, c, &options).winnability.can_checkmate()),
        Box::new(|p, c| solver::solve_fast(p, c) == Ok(true)),
        Box::new(|p, c| solver::solve(p, c).is_ok_and(|w| !w.can_checkmate())),
    ];
    for (name, set) in &endings {
        let mut cells = Vec::new();
        for tier in &tiers {
            let (mut nanos, mut cannot) = (Vec::new(), 0);
            for _pass in 0..2 {
                // The first pass warms up; the second is measured.
                nanos.clear();
                cannot = 0;
                for p in set {
                    for color in Color::ALL {
                        let start = Instant::now();
                        let c = std::hint::black_box(tier(std::hint::black_box(p), color));
                        nanos.push(start.elapsed().as_nanos() as u64);
                        cannot += usize::from(c);
                    }
                }
            }
            let (m, p99, max) = summary(nanos);
            cells.push(format!("{m:.2} | {p99:.1} | {max:.0} | {cannot}"));
        }
        println!(
            "| {name} ({} sides) | {} |",
            set.len() * 2,
            cells.join(" | ")
        );
    }
    println!();
    println!("targets: median ≤ 10 µs, p99 ≤ 1000 µs per call");
}

//! Differential test against Stockfish's `go perft`: for about 200 positions reached by seeded
//! random playouts from several starting FENs, shatranj's `divide` must agree with Stockfish's
//! split move by move, and the totals must agree.
//!
//! `cargo test --release -p shatranj-chess --test stockfish -- --ignored --nocapture`
//!
//! Stockfish is looked up as `$SHATRANJ_STOCKFISH`, then `stockfish` on `PATH`, then
//! `/usr/games/stockfish` (Debian's `apt-get install stockfish`). Without it the test fails,
//! unless `SHATRANJ_NO_STOCKFISH=1`. `SHATRANJ_SEED` replaces the fixed seed (printed).

#[path = "support/stockfish.rs"]
mod stockfish;

use shatranj_chess::perft::{PerftOptions, perft};
use shatranj_chess::{Move, Position};
use std::time::Instant;

#[path = "support/positions.rs"]
mod positions;
#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

const DEFAULT_SEED: u64 = 0x5EED_2024_C0FF_EE01;
const POSITIONS: usize = 200;
const DEPTH: u32 = 4;
/// Every this-many positions is also compared at depth 5.
const DEEPER_STRIDE: usize = 20;

/// Start positions after the classic ones: promotions, en passant, castling.
const EXTRA_STARTS: [&str; 4] = [
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 3",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "4k3/1P6/8/3pP3/8/8/6p1/4K2R w K d6 0 1",
];

/// A random move, biased towards pawn moves (to reach promotions and en passant), captures
/// and castling, so that the playouts reach the special moves often.
fn random_move(rng: &mut Rng, pos: &Position) -> Option<Move> {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let special: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion())
        .collect();
    let pawn: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| pos.board().pawns().contains(m.from()))
        .collect();
    let captures: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| pos.is_capture(*m))
        .collect();
    let r = rng.below(100);
    Some(if r < 25 && !special.is_empty() {
        rng.pick(&special)
    } else if (25..50).contains(&r) && !pawn.is_empty() {
        rng.pick(&pawn)
    } else if (50..65).contains(&r) && !captures.is_empty() {
        rng.pick(&captures)
    } else {
        rng.pick(&legal)
    })
}

/// The positions to compare: playouts of 0..60 plies from each start in turn.
fn positions(seed: u64) -> Vec<Position> {
    let starts = positions::classic_and(&EXTRA_STARTS);
    let mut rng = Rng::mixed(seed);
    let mut out = Vec::with_capacity(POSITIONS);
    for i in 0..POSITIONS {
        let mut pos = Position::from_fen(starts[i % starts.len()]).expect("bad start FEN");
        for _ in 0..rng.below(60) {
            match random_move(&mut rng, &pos) {
                Some(m) => pos.play_unchecked(m),
                None => break,
            }
        }
        // Every 4th position: end on a double step that allows an en-passant capture, if any.
        if i % 4 == 3 {
            let steps: Vec<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| {
                    pos.board().pawns().contains(m.from())
                        && m.from().index().abs_diff(m.to().index()) == 16
                        && pos.after(*m).is_ok_and(|p| p.has_legal_en_passant())
                })
                .collect();
            if !steps.is_empty() {
                pos.play_unchecked(rng.pick(&steps));
            }
        }
        out.push(pos);
    }
    out
}

#[test]
#[ignore = "needs stockfish; run with cargo test --release -- --ignored"]
fn divide_matches_stockfish() {
    let Some(path) = stockfish::find() else {
        if std::env::var("SHATRANJ_NO_STOCKFISH").as_deref() == Ok("1") {
            println!("stockfish not found; skipped because SHATRANJ_NO_STOCKFISH=1");
            return;
        }
        panic!(
            "stockfish not found ($SHATRANJ_STOCKFISH, PATH, /usr/games/stockfish). Install it \
             (Debian: apt-get install stockfish) or set SHATRANJ_NO_STOCKFISH=1 to skip this test."
        );
    };
    let mut sf = stockfish::Stockfish::start(path.clone()).unwrap_or_else(|e| panic!("{e}"));
    let seed = std::env::var("SHATRANJ_SEED")
        .ok()
        .map_or(DEFAULT_SEED, |s| {
            let s = s.trim();
            let parsed = match s.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => s.parse(),
            };
            parsed.unwrap_or_else(|_| panic!("SHATRANJ_SEED={s:?} is not a number"))
        });
    println!(
        "stockfish: {} ({}); seed {seed:#x} (set SHATRANJ_SEED to change)",
        sf.id,
        path.display()
    );

    let start = Instant::now();
    let positions = positions(seed);
    let (mut compared, mut nodes) = (0usize, 0u64);
    let mut failures = Vec::new();
    let mut specials = [0usize; 3]; // positions whose moves include castling, en passant, promotion
    for (i, pos) in positions.iter().enumerate() {
        let legal = pos.legal_moves();
        specials[0] += usize::from(legal.iter().any(|m| m.is_castle()));
        specials[1] += usize::from(legal.iter().any(|m| m.is_en_passant()));
        specials[2] += usize::from(legal.iter().any(|m| m.is_promotion()));
        let depths: &[u32] = if i % DEEPER_STRIDE == 0 {
            &[DEPTH, DEPTH + 1]
        } else {
            &[DEPTH]
        };
        for &depth in depths {
            // Alternate between the serial path and the threaded path with a table.
            let opts = if i % 2 == 0 {
                PerftOptions::default()
            } else {
                PerftOptions {
                    threads: 2,
                    hash_mb: 1,
                }
            };
            let fen = pos.fen();
            let ours = stockfish::our_split(pos, depth, &opts);
            let (theirs, total) = sf.perft(&fen, depth).unwrap_or_else(|e| panic!("{e}"));
            let plain = perft(pos, depth);
            let our_total: u64 = ours.values().sum();
            compared += 1;
            nodes += total;
            let diff = stockfish::split_diff(&ours, &theirs);
            if diff.is_empty() && our_total == total && plain == total {
                continue;
            }
            let mut msg = format!(
                "position #{i} (seed {seed:#x}) {fen} depth {depth} ({opts:?}): stockfish {total}, shatranj divide {our_total}, perft {plain}\n{}\n",
                diff.join("\n")
            );
            match stockfish::localise(&mut sf, pos, depth) {
                Ok(r) => msg.push_str(&r),
                Err(e) => msg.push_str(&format!("(localising failed: {e})")),
            }
            eprintln!("{msg}");
            failures.push(msg);
        }
    }
    println!(
        "{compared} splits compared over {} positions ({nodes} nodes) in {:.1} s; positions with castling {}, en passant {}, promotion {}",
        positions.len(),
        start.elapsed().as_secs_f64(),
        specials[0],
        specials[1],
        specials[2]
    );
    assert!(
        specials.iter().all(|&n| n > 0),
        "the playouts should reach castling, en passant and promotions"
    );
    assert!(
        failures.is_empty(),
        "{} of {compared} splits differ from stockfish:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

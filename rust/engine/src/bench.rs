//! `bench`: a fixed set of positions searched to a fixed depth with one thread and a cleared
//! table, giving a node-count signature that changes only when the search does.

use crate::engine::{Engine, EngineError, EngineOptions};
use crate::eval::Evaluation;
use crate::limits::Limits;
use shatranj_chess::Position;
use std::time::{Duration, Instant};

/// The default depth of `shatranj bench`.
pub const DEFAULT_BENCH_DEPTH: u32 = 11;

/// Middlegames, endgames and tactics (a subset of Stockfish's bench positions).
pub const BENCH_POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
    "2rqkb1r/ppp2p2/2npb1p1/1N1Nn2p/2P1PP2/8/PP2B1PP/R1BQK2R b KQ - 0 11",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/8 b - - 0 1",
    "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
    "8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - 0 1",
];

/// What a bench run measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// The signature: total nodes over all positions.
    pub nodes: u64,
    pub time: Duration,
}

/// Searches every bench position to `depth` with one thread and `evaluation`;
/// `on_position` sees each position's index and node count. Each evaluation has its own
/// signature.
pub fn run_bench(
    depth: u32,
    evaluation: Evaluation,
    mut on_position: impl FnMut(usize, u64),
) -> Result<BenchReport, EngineError> {
    let mut engine = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 16,
        evaluation,
        ..EngineOptions::default()
    })?;
    let start = Instant::now();
    let mut nodes = 0;
    for (i, fen) in BENCH_POSITIONS.iter().enumerate() {
        // The positions are constants of this file; a typo is caught by the tests.
        let Ok(pos) = fen.parse::<Position>() else {
            continue;
        };
        engine.new_game();
        let r = engine.search(pos, &Limits::depth(depth), |_| {});
        on_position(i, r.nodes);
        nodes += r.nodes;
    }
    Ok(BenchReport {
        nodes,
        time: start.elapsed(),
    })
}

/// What one static evaluation costs, in nanoseconds.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EvalSpeed {
    /// From the position alone.
    pub scratch_ns: f64,
    /// As the search computes it: a network updates the parent's accumulators by the move
    /// and then evaluates (the classical evaluation has no incremental form: its scratch cost).
    pub incremental_ns: f64,
    /// Evaluations timed for each number.
    pub evaluations: usize,
}

/// Times `evaluation` on lines of seeded random moves from the bench positions, the way a
/// search walks them (a move down, evaluate, sometimes back up), excluding move generation.
pub fn eval_speed(evaluation: &Evaluation, evaluations: usize) -> EvalSpeed {
    use crate::nnue::AccumulatorStack;
    use crate::util::SplitMix64;
    // The walk, made first: (ply of the child, parent, child).
    let mut g = SplitMix64::new(0xE7A1);
    let mut walk: Vec<(usize, Position, Position)> = Vec::with_capacity(evaluations);
    let roots: Vec<Position> = BENCH_POSITIONS
        .iter()
        .filter_map(|f| f.parse().ok())
        .collect();
    while walk.len() < evaluations && !roots.is_empty() {
        let mut line = vec![roots[g.below(roots.len())]];
        for _ in 0..200 {
            if walk.len() >= evaluations {
                break;
            }
            let ply = line.len() - 1;
            if ply >= 10 || (ply > 1 && g.below(3) == 0) {
                line.truncate(ply);
                continue;
            }
            let pos = line[ply];
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut child = pos;
            child.play_unchecked(moves.as_slice()[g.below(moves.len())]);
            walk.push((ply + 1, pos, child));
            line.push(child);
        }
    }
    let n = walk.len().max(1);
    let mut sink = 0i64;
    let start = std::time::Instant::now();
    for (_, _, child) in &walk {
        sink = sink.wrapping_add(i64::from(evaluation.evaluate(child)));
    }
    let scratch_ns = start.elapsed().as_secs_f64() * 1e9 / n as f64;
    let incremental_ns = match evaluation.network() {
        None => scratch_ns,
        Some(net) => {
            let mut stack = AccumulatorStack::new(std::sync::Arc::clone(net), 16);
            let start = std::time::Instant::now();
            for (ply, parent, child) in &walk {
                if *ply == 1 {
                    stack.reset(0, parent);
                }
                stack.push(*ply, parent, child);
                sink = sink.wrapping_add(i64::from(stack.evaluate(*ply, child)));
            }
            start.elapsed().as_secs_f64() * 1e9 / n as f64
        }
    };
    std::hint::black_box(sink);
    EvalSpeed {
        scratch_ns,
        incremental_ns,
        evaluations: n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_parse() {
        for fen in BENCH_POSITIONS {
            assert!(fen.parse::<Position>().is_ok(), "{fen}");
        }
    }
}

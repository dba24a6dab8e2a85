//! What the GPU tests share: the GPU evaluator of an evaluation, or a skip (or a failure when
//! `SHATRANJ_REQUIRE_GPU=1`); and positions from random games, from random placements of every
//! shape (bare kings, many queens, no pawns, anything at all), and a few hand-picked extremes.
//!
//! Included with `#[path = "support/common.rs"] mod common;`.
#![allow(dead_code)]

use shatranj_chess::Position;
use shatranj_engine::Evaluation;
use shatranj_engine::eval::PackedPosition;
use shatranj_gpu::{BatchEvaluator, GpuEvaluator};

/// The GPU evaluator of `evaluation`, or `None` (with a message) when there is no adapter and
/// none is required.
pub fn gpu_or_skip(test: &str, evaluation: &Evaluation) -> Option<GpuEvaluator> {
    match GpuEvaluator::from_env_for(evaluation) {
        Ok(gpu) => {
            println!("{test}: {}", gpu.describe());
            Some(gpu)
        }
        Err(e) => no_gpu(test, e),
    }
}

/// `None` with a message when a test finds no GPU, or a panic when `SHATRANJ_REQUIRE_GPU=1`.
pub fn no_gpu<T>(test: &str, e: impl std::fmt::Display) -> Option<T> {
    assert!(
        std::env::var("SHATRANJ_REQUIRE_GPU").as_deref() != Ok("1"),
        "{test}: SHATRANJ_REQUIRE_GPU=1 but {e}"
    );
    println!("{test}: skipped, {e} (set SHATRANJ_REQUIRE_GPU=1 to make this a failure)");
    None
}

#[path = "../../../chess/tests/support/rng.rs"]
mod rng;
pub use rng::Rng;

/// Positions of random games from the start, sampled along the way and at the end; long
/// random games promote pawns often and end in bare or near-bare material.
pub fn game_positions(rng: &mut Rng, n: usize) -> Vec<PackedPosition> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut pos = Position::new();
        let plies = 20 + rng.below(400);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
            if rng.below(4) == 0 {
                out.push(PackedPosition::from_position(&pos));
            }
        }
        out.push(PackedPosition::from_position(&pos));
    }
    out.truncate(n);
    out
}

/// The shapes of random placements: each a number of pieces per role to draw.
#[derive(Copy, Clone, Debug)]
pub enum Shape {
    BareKings,
    ManyQueens,
    NoPawns,
    Mixed,
    /// Anything at all, including no kings and pawns on the first and last ranks: the
    /// evaluation is defined on any bitboards, and so must the shader be.
    Anything,
}

const SHAPES: [Shape; 5] = [
    Shape::BareKings,
    Shape::ManyQueens,
    Shape::NoPawns,
    Shape::Mixed,
    Shape::Anything,
];

pub fn placed_positions(rng: &mut Rng, n: usize) -> Vec<PackedPosition> {
    (0..n)
        .map(|i| place(rng, SHAPES[i % SHAPES.len()]))
        .collect()
}

pub fn place(rng: &mut Rng, shape: Shape) -> PackedPosition {
    let mut bb = [[0u64; 6]; 2];
    let mut occupied = 0u64;
    let mut put = |rng: &mut Rng, color: usize, role: usize, pawn_ranks: bool| {
        for _ in 0..64 {
            let sq = if pawn_ranks {
                8 + rng.below(48)
            } else {
                rng.below(64)
            };
            if occupied & (1 << sq) == 0 {
                occupied |= 1 << sq;
                bb[color][role] |= 1 << sq;
                return;
            }
        }
    };
    for color in 0..2 {
        let (kings, counts): (usize, [usize; 5]) = match shape {
            Shape::BareKings => (1, [0; 5]),
            Shape::ManyQueens => (1, [rng.below(3), 0, 0, 0, 3 + rng.below(7)]),
            Shape::NoPawns => (
                1,
                [0, rng.below(3), rng.below(3), rng.below(3), rng.below(2)],
            ),
            Shape::Mixed => (
                1,
                [
                    rng.below(9),
                    rng.below(3),
                    rng.below(3),
                    rng.below(3),
                    rng.below(3),
                ],
            ),
            Shape::Anything => (
                rng.below(3),
                [
                    rng.below(10),
                    rng.below(4),
                    rng.below(4),
                    rng.below(4),
                    rng.below(4),
                ],
            ),
        };
        let anywhere = matches!(shape, Shape::Anything);
        for _ in 0..kings {
            put(rng, color, 5, false);
        }
        for (role, &count) in counts.iter().enumerate() {
            for _ in 0..count {
                put(rng, color, role, role == 0 && !anywhere);
            }
        }
    }
    let mut pieces = [0u32; 24];
    for (c, side) in bb.iter().enumerate() {
        for (r, &set) in side.iter().enumerate() {
            pieces[(c * 6 + r) * 2] = set as u32;
            pieces[(c * 6 + r) * 2 + 1] = (set >> 32) as u32;
        }
    }
    PackedPosition {
        pieces,
        turn: rng.below(2) as u32,
        reserved: [0; 3],
    }
}

/// Hand-picked extremes: the start, Kiwipete, nine queens a side, bare kings, an empty board.
pub fn fixed_positions() -> Vec<PackedPosition> {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "QQQQQQQ1/8/8/8/8/8/qqqqqq2/k6K w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/PPPPPPPP/8/8/pppppppp/8/4K3 b - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    let mut out: Vec<PackedPosition> = fens
        .iter()
        .map(|f| PackedPosition::from_position(&f.parse::<Position>().unwrap()))
        .collect();
    out.push(PackedPosition {
        pieces: [0; 24],
        turn: 1,
        reserved: [0; 3],
    });
    out
}

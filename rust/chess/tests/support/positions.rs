//! Start positions shared by the randomised tests.
//!
//! Included with `#[path = "support/positions.rs"] mod positions;`.
#![allow(dead_code)]

/// The start position and the five classic perft positions of chessprogramming.org
/// (Kiwipete and positions 3–6): castling, en passant, promotions, pins and discovered checks.
pub const CLASSIC: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

/// `CLASSIC` followed by `extra`, in that order.
pub fn classic_and(extra: &[&'static str]) -> Vec<&'static str> {
    CLASSIC.iter().chain(extra).copied().collect()
}

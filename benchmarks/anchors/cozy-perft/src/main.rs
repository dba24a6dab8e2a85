//! Benchmark anchor: bulk-counting perft with cozy-chess 0.3.4.
//!
//! Usage: `cozy-perft FEN DEPTH`
//!
//! The perft routine is cozy-chess's own `perft_bulk` from `examples/perft.rs` in the 0.3.4
//! crate sources, unchanged in substance: moves are generated per piece as `PieceMoves` sets,
//! and at depth 1 the node count is the sum of the sets' `len()` (no moves are played at the
//! leaves). Built with the `pext` feature and `-C target-cpu=native`, this is the fastest
//! single-threaded perft cozy-chess offers.
//!
//! Output (stdout), after the count finishes:
//!
//! ```text
//! Nodes searched: 119060324
//! Time: 0.812345678 s
//! ```
//!
//! `Time` covers only the perft call (FEN parsing and process start-up are excluded).

use std::process::ExitCode;
use std::time::Instant;

use cozy_chess::Board;

fn perft_bulk(board: &Board, depth: u8) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes += 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut board = board.clone();
                    board.play_unchecked(mv);
                    nodes += perft_bulk(&board, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [fen, depth] = args.as_slice() else {
        eprintln!("usage: cozy-perft FEN DEPTH");
        return ExitCode::from(2);
    };
    let board = match Board::from_fen(fen, false).or_else(|_| Board::from_fen(fen, true)) {
        Ok(board) => board,
        Err(err) => {
            eprintln!("error: invalid FEN {fen:?}: {err:?}");
            return ExitCode::from(2);
        }
    };
    let depth: u8 = match depth.parse() {
        Ok(depth) => depth,
        Err(_) => {
            eprintln!("error: invalid depth {depth:?}");
            return ExitCode::from(2);
        }
    };

    let start = Instant::now();
    let nodes = perft_bulk(std::hint::black_box(&board), depth);
    let elapsed = start.elapsed();

    println!("Nodes searched: {nodes}");
    println!("Time: {:.9} s", elapsed.as_secs_f64());
    ExitCode::SUCCESS
}

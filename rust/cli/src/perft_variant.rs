//! `shatranj perft DEPTH --variant NAME [--fen FEN] [--chess960] [--divide]`: perft of a
//! lichess variant (`shatranj_chess::variant`), on the CPU, the root's moves over rayon's
//! threads. The output has the standard perft's shape (`move: nodes`, `Nodes searched`).

use crate::perft_cmd::CliError;
use shatranj_chess::variant::{Variant, VariantKind, VariantPosition, perft_divide};
use shatranj_chess::{CastlingMode, with_variant};
use std::io::Write;
use std::time::Instant;

/// Reads a variant name as python-chess's `find_variant` accepts it.
pub fn parse_variant(name: &str) -> Result<VariantKind, String> {
    VariantKind::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = VariantKind::ALL.iter().map(|k| k.uci_name()).collect();
        format!("unknown variant {name:?}; one of {}", known.join(", "))
    })
}

pub fn run(
    kind: VariantKind,
    fen: Option<&str>,
    chess960: bool,
    depth: u32,
    divide: bool,
) -> Result<(), CliError> {
    with_variant!(kind, V => count::<V>(fen, chess960, depth, divide))
}

fn count<V: Variant>(
    fen: Option<&str>,
    chess960: bool,
    depth: u32,
    divide: bool,
) -> Result<(), CliError> {
    let mode = CastlingMode::from_chess960(chess960);
    let pos = VariantPosition::<V>::from_fen_with(fen.unwrap_or(V::STARTING_FEN), mode)
        .map_err(CliError::VariantFen)?;
    let start = Instant::now();
    let split = perft_divide(&pos, depth);
    let secs = start.elapsed().as_secs_f64();
    let nodes: u64 = split.iter().map(|&(_, n)| n).sum();
    let mut out = std::io::stdout().lock();
    let mut report = || -> std::io::Result<()> {
        if divide {
            for &(m, n) in &split {
                writeln!(out, "{}: {n}", pos.to_uci(m))?;
            }
            writeln!(out)?;
        }
        writeln!(out, "Nodes searched: {nodes}")?;
        writeln!(
            out,
            "Time: {secs:.3} s, {:.1} Mnps ({}, {} threads)",
            nodes as f64 / secs.max(1e-9) / 1e6,
            V::UCI_NAME,
            rayon::current_num_threads()
        )?;
        out.flush()
    };
    let _ = report();
    Ok(())
}

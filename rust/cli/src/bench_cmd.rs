//! `shatranj bench [DEPTH] [--eval-file NAME]`: the search's node-count signature, Stockfish
//! style, for the classical evaluation or a network.

use crate::perft_cmd::CliError;
use clap::Args;
use shatranj_engine::Evaluation;
use shatranj_engine::bench::{BENCH_POSITIONS, DEFAULT_BENCH_DEPTH, eval_speed, run_bench};
use shatranj_engine::engine::nps;
use std::io::Write;

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth per position.
    #[arg(default_value_t = DEFAULT_BENCH_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    #[arg(long, help = crate::evaluator::EVAL_FILE_HELP, default_value_t = Evaluation::default_name().to_string())]
    eval_file: String,
    /// Also time one static evaluation (from scratch, and incrementally as the search does).
    #[arg(long)]
    eval_speed: bool,
}

// A subcommand's entry owns the arguments clap parsed for it, as main hands them over.
#[allow(clippy::needless_pass_by_value)]
pub fn run(args: BenchArgs) -> Result<(), CliError> {
    let evaluation = Evaluation::from_name(&args.eval_file).map_err(CliError::Net)?;
    let total = BENCH_POSITIONS.len();
    match evaluation.network() {
        Some(net) => eprintln!(
            "evaluation: {}, {} kernels",
            evaluation.describe(),
            net.kernel().name()
        ),
        None => eprintln!("evaluation: {}", evaluation.describe()),
    }
    let speed = args.eval_speed.then(|| eval_speed(&evaluation, 1_000_000));
    let report = run_bench(args.depth, evaluation, |i, nodes| {
        eprintln!("position {}/{total}: {nodes} nodes", i + 1);
    })
    .map_err(CliError::Engine)?;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "Total time (ms): {}", report.time.as_millis());
    let _ = writeln!(out, "Nodes searched: {}", report.nodes);
    let _ = writeln!(out, "Nodes/second: {}", nps(report.nodes, report.time));
    if let Some(s) = speed {
        let _ = writeln!(out, "Evaluation ns (from scratch): {:.1}", s.scratch_ns);
        let _ = writeln!(out, "Evaluation ns (incremental): {:.1}", s.incremental_ns);
    }
    let _ = out.flush();
    Ok(())
}

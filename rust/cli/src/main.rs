//! `shatranj`: the command-line tool. Without arguments it is a UCI engine on stdin/stdout;
//! `shatranj bench` prints the search's node-count signature; `shatranj perft` counts trees;
//! `shatranj selfplay` plays many games at once; `shatranj review` reviews games as lichess does;
//! `shatranj match` plays a match between UCI engines with SPRT; `shatranj tune` tunes a tune
//! build's search parameters by SPSA over such matches.

mod bench_cmd;
mod datagen_cmd;
mod evaluator;
mod match_args;
mod match_cmd;
mod perft_cmd;
mod perft_variant;
mod progress;
mod review_cmd;
mod review_parquet;
mod review_table;
mod selfplay_cmd;
mod tables;
mod train_cmd;
mod tune_cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "shatranj",
    version,
    about = "A chess engine: UCI on stdin/stdout when run without arguments; bench, perft, selfplay, datagen, train, review, match and tune"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree to DEPTH (move generator test and benchmark).
    Perft(perft_cmd::PerftArgs),
    /// Search a fixed set of positions to a fixed depth (one thread) and print the node count
    /// signature and speed.
    Bench(bench_cmd::BenchArgs),
    /// Play many engine-vs-engine games at once (fixed depth or nodes per move) and write PGN.
    Selfplay(selfplay_cmd::SelfPlayArgs),
    /// Generate training data: self-play games with scores, written shard by shard.
    Datagen(datagen_cmd::DatagenArgs),
    /// Train a network on datagen's shards and write it quantised.
    Train(train_cmd::TrainArgs),
    /// Review games as lichess does: each position evaluated once, every move given its
    /// accuracy and judged (inaccuracy, mistake, blunder), each side its accuracy and ACPL;
    /// written as an annotated PGN, resumable with --checkpoint.
    Review(review_cmd::ReviewArgs),
    /// Play a match between two UCI engines (fastchess's options: -engine cmd=… -each tc=…
    /// -rounds … -sprt elo0=… elo1=…), with a live table, Elo, LOS and the SPRT.
    Match(match_cmd::MatchArgs),
    /// Tune the search's parameters by SPSA: a tune build (`--features tune`) against itself
    /// with the parameters perturbed, game pairs by the match runner; resumable.
    Tune(tune_cmd::TuneArgs),
    /// Speak UCI on stdin/stdout (also what running without arguments does).
    Uci,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // Usage errors: one line, status 2, like a bad FEN.
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("error: invalid arguments");
            eprintln!("{} (see --help)", first.trim_end());
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Some(Command::Perft(args)) => perft_cmd::run(args),
        Some(Command::Bench(args)) => bench_cmd::run(args),
        Some(Command::Uci) | None => {
            let stdin = std::io::BufReader::new(std::io::stdin());
            shatranj_engine::uci::run_with_evaluator(
                stdin,
                std::io::stdout(),
                evaluator::open_evaluator,
            );
            Ok(())
        }
        Some(Command::Datagen(args)) => {
            return match datagen_cmd::run(args) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(e.exit_code())
                }
            };
        }
        Some(Command::Train(args)) => {
            return match train_cmd::run(args) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(e.exit_code())
                }
            };
        }
        Some(Command::Review(args)) => {
            return match review_cmd::run(args) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(e.exit_code())
                }
            };
        }
        Some(Command::Match(args)) => {
            return match match_cmd::run(args) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(e.exit_code())
                }
            };
        }
        Some(Command::Tune(args)) => {
            return match tune_cmd::run(args) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(e.exit_code())
                }
            };
        }
        Some(Command::Selfplay(args)) => {
            return match selfplay_cmd::run(args) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(e.exit_code())
                }
            };
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// This build's name for the data it makes: version and commit.
pub fn generator() -> String {
    format!(
        "shatranj {} ({})",
        env!("CARGO_PKG_VERSION"),
        env!("SHATRANJ_COMMIT")
    )
}

#[cfg(test)]
mod source_state;

#[cfg(test)]
mod tests {
    /// The generator names the commit as `git` sees the checkout now: cargo reruns the build
    /// script when a source changes, so a test binary never names a stale state.
    #[test]
    fn the_generator_names_head_and_whether_the_sources_differ_from_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let expected = super::source_state::commit_name(&root);
        assert_eq!(
            super::generator(),
            format!("shatranj {} ({expected})", env!("CARGO_PKG_VERSION"))
        );
    }
}

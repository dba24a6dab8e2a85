//! `shatranj`: the command-line tool. For now it counts perft trees; the UCI engine joins
//! it with the search issue.

mod perft_cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "shatranj",
    version,
    about = "Chess rules, perft and (soon) a UCI engine"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree to DEPTH (move generator test and benchmark).
    Perft(perft_cmd::PerftArgs),
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
        Command::Perft(args) => perft_cmd::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

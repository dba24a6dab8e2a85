//! `shatranj perft DEPTH [--fen FEN] [--threads N] [--hash MB] [--divide]`.
//!
//! Output follows Stockfish's `go perft`: `move: nodes` lines when dividing, then
//! `Nodes searched: N`, then time and speed on their own line.

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use shatranj_chess::perft::{PerftError, PerftMonitor, PerftOptions, divide};
use shatranj_chess::{FenError, Position};
use std::fmt;
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct PerftArgs {
    /// Plies to count (1 or more).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Start position as FEN (default: the standard start position).
    #[arg(long)]
    fen: Option<String>,
    /// Worker threads (at most 1024); 0 means one per core.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(0..=1024))]
    threads: u16,
    /// Size of the subtree-count table in MiB (0: no table).
    #[arg(long, default_value_t = 0)]
    hash: usize,
    /// Print the node count under each legal move.
    #[arg(long)]
    divide: bool,
    /// Never draw a progress bar.
    #[arg(long)]
    quiet: bool,
}

pub enum CliError {
    Fen(FenError),
    Perft(PerftError),
    Engine(shatranj_engine::EngineError),
    /// A network that does not load (usage: exit status 2).
    Net(shatranj_engine::NetError),
}

impl CliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Fen(_) => 2,
            CliError::Perft(PerftError::Interrupted) => 130,
            CliError::Perft(_) => 1,
            CliError::Engine(_) => 1,
            CliError::Net(_) => 2,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Fen(e) => write!(f, "{e}"),
            CliError::Perft(e) => write!(f, "{e}"),
            CliError::Engine(e) => write!(f, "{e}"),
            CliError::Net(e) => write!(f, "{e}"),
        }
    }
}

pub fn run(args: PerftArgs) -> Result<(), CliError> {
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen).map_err(CliError::Fen)?,
        None => Position::new(),
    };
    let threads = if args.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        usize::from(args.threads)
    };
    let opts = PerftOptions {
        threads,
        hash_mb: args.hash,
    };
    let monitor = Arc::new(PerftMonitor::new());
    {
        let m = Arc::clone(&monitor);
        // A second Ctrl-C while stopping falls through to the default handler's exit.
        let _ = ctrlc::set_handler(move || m.stop());
    }

    let start = Instant::now();
    let result = std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel();
        let (pos, opts, monitor) = (&pos, &opts, &monitor);
        s.spawn(move || {
            let r = divide(pos, args.depth, opts, monitor);
            let _ = tx.send((r, start.elapsed()));
        });
        let bar = progress_bar(args.quiet);
        loop {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(done) => {
                    if let Some(bar) = &bar {
                        bar.finish_and_clear();
                    }
                    return done;
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if let Some(bar) = &bar {
                        let (done, total) = monitor.roots();
                        bar.set_length(total as u64);
                        bar.set_position(done as u64);
                        let secs = start.elapsed().as_secs_f64().max(1e-9);
                        let nodes = monitor.nodes();
                        bar.set_message(format!(
                            "{nodes} nodes, {:.1} Mnps",
                            nodes as f64 / secs / 1e6
                        ));
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return (Err(PerftError::Interrupted), start.elapsed());
                }
            }
        }
    });
    let (result, elapsed) = result;
    let split = result.map_err(CliError::Perft)?;
    let nodes: u64 = if args.depth == 0 {
        1
    } else {
        split.iter().map(|&(_, n)| n).sum()
    };
    // Write through a locked handle and stop quietly if the reader went away (`| head`).
    let mut out = std::io::stdout().lock();
    let mut report = || -> std::io::Result<()> {
        if args.divide {
            for (m, n) in &split {
                writeln!(out, "{m}: {n}")?;
            }
            writeln!(out)?;
        }
        writeln!(out, "Nodes searched: {nodes}")?;
        let secs = elapsed.as_secs_f64();
        let plural = if threads == 1 { "" } else { "s" };
        let core = shatranj_chess::perft::counting_core();
        writeln!(
            out,
            "Time: {secs:.3} s, {:.1} Mnps ({threads} thread{plural}, {core})",
            nodes as f64 / secs.max(1e-9) / 1e6
        )?;
        out.flush()
    };
    let _ = report();
    Ok(())
}

/// A bar over root moves, drawn on stderr only when it is a terminal.
fn progress_bar(quiet: bool) -> Option<ProgressBar> {
    if quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} root moves  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Some(bar)
}

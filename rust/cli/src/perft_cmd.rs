//! `shatranj perft DEPTH [--fen FEN] [--chess960] [--threads N] [--hash MB] [--divide] [--progress S]
//! [--device cpu|gpu|auto] [--variant NAME]`.
//!
//! Output follows Stockfish's `go perft`: `move: nodes` lines when dividing, then
//! `Nodes searched: N`, then time and speed on their own line. The counts come from the CPU
//! perft or the GPU one (`shatranj_gpu::perft`); progress, Ctrl-C and the output are the same.

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use shatranj_chess::perft::{PerftError, PerftMonitor, PerftOptions, divide};
use shatranj_chess::{CastlingMode, FenError, Move, Position};
use shatranj_gpu::perft::{GpuPerft, GpuPerftError, GpuPerftSettings};
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
    /// Read the FEN's castling rights as Chess960's (X-FEN or Shredder-FEN: rooks on any
    /// file); on the CPU and the GPU alike.
    #[arg(long)]
    chess960: bool,
    /// Worker threads (at most 1024); 0 means one per core.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(0..=1024))]
    threads: u16,
    /// Size of the subtree-count table in MiB (0: no table); with --device gpu, the table
    /// on the GPU.
    #[arg(long, default_value_t = 0)]
    hash: usize,
    /// Print the node count under each legal move.
    #[arg(long)]
    divide: bool,
    /// Never draw a progress bar.
    #[arg(long)]
    quiet: bool,
    /// Also print the progress line (nodes, speed, root moves, ETA) to stderr every this
    /// many seconds, for logs where no bar is drawn.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    progress: Option<u64>,
    /// Where to count: `cpu`, `gpu` (an error without a GPU adapter), or `auto` (a real GPU
    /// when there is one, never a software one such as lavapipe; else the CPU). The GPU
    /// does not use --threads.
    #[arg(long, default_value = "cpu", value_parser = ["cpu", "gpu", "auto"])]
    device: String,
    /// A lichess variant (python-chess's names: antichess, giveaway, suicide, atomic,
    /// kingofthehill, 3check, racingkings, horde, crazyhouse, and their aliases): counts that
    /// variant's tree on the CPU from its starting position or --fen (--threads, --hash and
    /// --device do not apply).
    #[arg(long, value_parser = crate::perft_variant::parse_variant)]
    variant: Option<shatranj_chess::variant::VariantKind>,
}

pub enum CliError {
    Fen(FenError),
    /// A FEN that is not a position of the chosen variant (usage: exit status 2).
    VariantFen(shatranj_chess::variant::VariantFenError),
    Perft(PerftError),
    Engine(shatranj_engine::EngineError),
    /// A network that does not load (usage: exit status 2).
    Net(shatranj_engine::NetError),
    /// GPU perft: no adapter, a device failure, or a position it does not handle.
    Gpu(GpuPerftError),
}

impl CliError {
    // One arm per kind of error: the table of exit codes reads as their documentation.
    #[allow(clippy::match_same_arms)]
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Fen(_) => 2,
            CliError::VariantFen(_) => 2,
            CliError::Perft(PerftError::Interrupted) => 130,
            CliError::Perft(_) => 1,
            CliError::Engine(_) => 1,
            CliError::Net(_) => 2,
            CliError::Gpu(GpuPerftError::Unsupported(_)) => 2,
            CliError::Gpu(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Fen(e) => write!(f, "{e}"),
            CliError::VariantFen(e) => write!(f, "{e}"),
            CliError::Perft(e) => write!(f, "{e}"),
            CliError::Engine(e) => write!(f, "{e}"),
            CliError::Net(e) => write!(f, "{e}"),
            CliError::Gpu(e) => write!(f, "GPU perft: {e}"),
        }
    }
}

// A subcommand's entry owns the arguments clap parsed for it, as main hands them over.
#[allow(clippy::needless_pass_by_value)]
pub fn run(args: PerftArgs) -> Result<(), CliError> {
    if let Some(kind) = args.variant {
        return crate::perft_variant::run(
            kind,
            args.fen.as_deref(),
            args.chess960,
            args.depth,
            args.divide,
        );
    }
    let pos = match &args.fen {
        Some(fen) => Position::from_fen_with(fen, CastlingMode::from_chess960(args.chess960))
            .map_err(CliError::Fen)?,
        None => Position::new(),
    };
    let threads = if args.threads == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        usize::from(args.threads)
    };
    let opts = PerftOptions {
        threads,
        hash_mb: args.hash,
    };
    let mut gpu = open_gpu(&args.device, args.hash)?;
    let monitor = Arc::new(PerftMonitor::new());
    {
        let m = Arc::clone(&monitor);
        // A second Ctrl-C while stopping falls through to the default handler's exit.
        let _ = ctrlc::set_handler(move || m.stop());
    }

    let start = Instant::now();
    let result = std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel();
        let (pos, opts, monitor, gpu) = (&pos, &opts, &monitor, &mut gpu);
        s.spawn(move || {
            let r: Result<Vec<(Move, u64)>, CliError> = match gpu {
                Some(gpu) => gpu.divide(pos, args.depth, monitor).map_err(|e| match e {
                    GpuPerftError::Interrupted => CliError::Perft(PerftError::Interrupted),
                    e => CliError::Gpu(e),
                }),
                None => divide(pos, args.depth, opts, monitor).map_err(CliError::Perft),
            };
            let _ = tx.send((r, start.elapsed()));
        });
        let bar = progress_bar(args.quiet);
        let every = args.progress.map(Duration::from_secs);
        let mut last_line = Instant::now();
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
                        let (done, total) = monitor.work();
                        bar.set_length(total.max(1));
                        bar.set_position(done);
                        bar.set_message(status_line(monitor, start.elapsed()));
                    }
                    if every.is_some_and(|e| last_line.elapsed() >= e) {
                        last_line = Instant::now();
                        let line = status_line(monitor, start.elapsed());
                        let pct = 100.0 * monitor.fraction_done();
                        match &bar {
                            Some(bar) => bar.println(format!("{pct:5.1}% {line}")),
                            None => eprintln!("{pct:5.1}% {line}"),
                        }
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return (
                        Err(CliError::Perft(PerftError::Interrupted)),
                        start.elapsed(),
                    );
                }
            }
        }
    });
    let (result, elapsed) = result;
    if let Err(CliError::Perft(PerftError::Interrupted)) = result {
        report_partial(&pos, &monitor, elapsed);
    }
    let split = result?;
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
        let counter = match &gpu {
            Some(gpu) => format!("gpu: {}", gpu.info()),
            None => format!(
                "{threads} thread{plural}, {}",
                shatranj_chess::perft::counting_core()
            ),
        };
        writeln!(
            out,
            "Time: {secs:.3} s, {:.1} Mnps ({counter})",
            nodes as f64 / secs.max(1e-9) / 1e6
        )?;
        out.flush()
    };
    let _ = report();
    Ok(())
}

/// The GPU perft `device` asks for, with a table of `hash_mb` MiB: none for `cpu`; for
/// `auto` only a real GPU (a software adapter counts slower than the CPU), and the CPU when
/// there is none.
fn open_gpu(device: &str, hash_mb: usize) -> Result<Option<GpuPerft>, CliError> {
    if device == "cpu" {
        return Ok(None);
    }
    let settings = GpuPerftSettings {
        hash_mb,
        ..GpuPerftSettings::default()
    };
    match GpuPerft::from_env(&settings) {
        Ok(gpu) if device == "auto" && gpu.info().is_software() => Ok(None),
        Ok(gpu) => Ok(Some(gpu)),
        Err(_) if device == "auto" => Ok(None),
        Err(e) => Err(CliError::Gpu(e)),
    }
}

/// Nodes, speed, root moves finished and the time still needed, for the progress bar.
fn status_line(monitor: &PerftMonitor, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64().max(1e-9);
    let nodes = monitor.nodes();
    let (roots_done, roots) = monitor.roots();
    let eta = monitor
        .eta(elapsed)
        .map_or_else(|| "ETA --".to_string(), |d| format!("ETA {}", clock(d)));
    format!(
        "{nodes} nodes, {:.1} Mnps, {roots_done}/{roots} root moves, {eta}",
        nodes as f64 / secs / 1e6
    )
}

/// `h:mm:ss`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// After Ctrl-C: what was counted, which root moves are complete (with their counts, in
/// move-list order), and how much of the work was done; on stderr, so that stdout never
/// holds a partial result that looks like a final one.
fn report_partial(pos: &Position, monitor: &PerftMonitor, elapsed: Duration) {
    let finished = monitor.finished_roots();
    let (done, total) = monitor.roots();
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "perft interrupted after {:.1} s: {} leaf nodes counted, {:.1}% of the work, \
         {done}/{total} root moves complete{}",
        elapsed.as_secs_f64(),
        monitor.nodes(),
        100.0 * monitor.fraction_done(),
        if finished.is_empty() { "" } else { ":" }
    );
    for m in &pos.legal_moves() {
        if let Some((_, n)) = finished.iter().find(|(f, _)| f == m) {
            let _ = writeln!(err, "{m}: {n}");
        }
    }
    if !finished.is_empty() {
        let sum: u64 = finished.iter().map(|&(_, n)| n).sum();
        let _ = writeln!(err, "complete root moves sum to {sum}");
    }
}

/// A bar over the run's work units, drawn on stderr only when it is a terminal.
fn progress_bar(quiet: bool) -> Option<ProgressBar> {
    if quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {percent:>3}%  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Some(bar)
}

//! `shatranj selfplay`: many engine-vs-engine games at once, PGN out, a summary at the end.

use crate::evaluator::open_evaluator;
use clap::Args;
use indicatif::ProgressBar;
use shatranj_engine::games::selfplay::{
    MoveLimit, OpeningSource, SelfPlayConfig, SelfPlayError, SelfPlayReport, play_games,
};
use shatranj_engine::games::{RandomOpenings, parse_openings};
use shatranj_engine::syzygy::SyzygySettings;
use shatranj_engine::{BatchConfig, BatchEvaluator, Device, EvalError, Evaluation, NetError};
use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[derive(Args)]
pub struct SelfPlayArgs {
    /// Games to play.
    #[arg(long, default_value_t = 10)]
    games: u64,
    /// Index of the first game (games FIRST .. FIRST+GAMES; a game depends only on seed and index).
    #[arg(long, default_value_t = 0)]
    first_game: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Search depth per move.
    #[arg(long, conflicts_with = "nodes")]
    depth: Option<u32>,
    /// Search nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Where evaluations run: cpu (inline), gpu (batched), auto (inline: measured fastest).
    #[arg(long, default_value = "auto")]
    device: String,
    /// Send evaluations through the batching service even on the CPU (for measurement).
    #[arg(long)]
    batched: bool,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Opening file: one per line, a FEN, `FEN moves <uci…>`, or UCI moves from the start.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Random plies of each random opening.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Chess960: each random opening starts from a starting position drawn by number from
    /// the seed (the PGN says `Variant "Chess960"`).
    #[arg(long, conflicts_with = "openings")]
    chess960: bool,
    /// Write the games here as PGN.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Draw games still running after this many plies.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Syzygy tables (directories, ':'-separated): a game reaching a position within them
    /// ends with their result (`Termination "adjudication: tablebase"`).
    #[arg(long)]
    syzygy_path: Option<String>,
    /// Transposition table per game, MiB.
    #[arg(long, default_value_t = 2)]
    hash: usize,
    /// Positions that make a batch full.
    #[arg(long, default_value_t = BatchConfig::DEFAULT_MAX_BATCH)]
    batch: usize,
    /// Longest wait of a queued evaluation for its batch to fill, microseconds.
    #[arg(long, default_value_t = BatchConfig::DEFAULT_MAX_WAIT.as_micros() as u64)]
    wait_us: u64,
    #[arg(long, help = crate::evaluator::EVAL_FILE_HELP, default_value_t = Evaluation::default_name().to_string())]
    eval_file: String,
    /// Never draw a progress bar.
    #[arg(long)]
    quiet: bool,
}

pub enum SelfPlayCliError {
    Usage(String),
    Net(NetError),
    Io(String),
    Eval(EvalError),
    Play(SelfPlayError),
    Interrupted,
}

impl SelfPlayCliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            SelfPlayCliError::Usage(_) | SelfPlayCliError::Net(_) => 2,
            SelfPlayCliError::Interrupted => 130,
            _ => 1,
        }
    }
}

impl fmt::Display for SelfPlayCliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelfPlayCliError::Usage(s) | SelfPlayCliError::Io(s) => f.write_str(s),
            SelfPlayCliError::Eval(e) => write!(f, "{e}"),
            SelfPlayCliError::Net(e) => write!(f, "{e}"),
            SelfPlayCliError::Play(e) => write!(f, "{e}"),
            SelfPlayCliError::Interrupted => f.write_str("interrupted"),
        }
    }
}

fn config(args: &SelfPlayArgs) -> Result<SelfPlayConfig, SelfPlayCliError> {
    let limit = match (args.depth, args.nodes) {
        (Some(d), None) => MoveLimit::Depth(d),
        (None, Some(n)) => MoveLimit::Nodes(n),
        _ => {
            return Err(SelfPlayCliError::Usage(
                "give one of --depth D or --nodes K".into(),
            ));
        }
    };
    let openings = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                SelfPlayCliError::Usage(format!("cannot read {}: {e}", path.display()))
            })?;
            let list = parse_openings(&text)
                .map_err(|e| SelfPlayCliError::Usage(format!("{}: {e}", path.display())))?;
            OpeningSource::List(list)
        }
        None => OpeningSource::Random(RandomOpenings {
            plies: args.random_plies,
            chess960: args.chess960,
            ..RandomOpenings::default()
        }),
    };
    let tablebases = match &args.syzygy_path {
        Some(list) => crate::tables::open(list).map_err(SelfPlayCliError::Usage)?,
        None => SyzygySettings::default(),
    };
    Ok(SelfPlayConfig {
        first_game: args.first_game,
        tablebases,
        games: args.games,
        concurrency: args.concurrency,
        limit,
        seed: args.seed,
        openings,
        max_plies: args.max_plies,
        hash_mb: args.hash,
        batch: BatchConfig {
            max_batch: args.batch,
            max_wait: Duration::from_micros(args.wait_us),
        },
        ..SelfPlayConfig::default()
    })
}

/// The back end, or `None` for inline CPU evaluation: `cpu` and `auto` evaluate inline
/// (measured fastest; benchmarks/RESULTS.md) unless `--batched`; `gpu` always batches.
fn evaluator(
    device: Device,
    batched: bool,
    evaluation: &Evaluation,
) -> Result<Option<Arc<dyn BatchEvaluator>>, EvalError> {
    match (device, batched) {
        (Device::Gpu, _) | (_, true) => open_evaluator(device, evaluation).map(Some),
        _ => Ok(None),
    }
}

// A subcommand's entry owns the arguments clap parsed for it, as main hands them over.
#[allow(clippy::needless_pass_by_value)]
pub fn run(args: SelfPlayArgs) -> Result<(), SelfPlayCliError> {
    let device: Device = args
        .device
        .parse()
        .map_err(|e: EvalError| SelfPlayCliError::Usage(e.to_string()))?;
    let mut config = config(&args)?;
    config
        .validate()
        .map_err(|e| SelfPlayCliError::Usage(e.to_string()))?;
    config.evaluation = Evaluation::from_name(&args.eval_file).map_err(SelfPlayCliError::Net)?;
    let evaluator =
        evaluator(device, args.batched, &config.evaluation).map_err(SelfPlayCliError::Eval)?;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let s = Arc::clone(&stop);
        // A second Ctrl-C while stopping falls through to the default handler's exit.
        let _ = ctrlc::set_handler(move || s.store(true, Ordering::SeqCst));
    }
    let bar = progress_bar(args.quiet, config.games);
    let report = play_games(&config, evaluator, &stop, |p| {
        if let Some(bar) = &bar {
            bar.set_position(p.games_done);
            let secs = p.elapsed.as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{} plies, {:.0} evals/s",
                p.plies,
                p.evaluations as f64 / secs
            ));
        }
    })
    .map_err(SelfPlayCliError::Play)?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if let Some(path) = &args.pgn {
        write_pgn(path, &report)?;
    }
    summary(&report);
    if report.interrupted {
        return Err(SelfPlayCliError::Interrupted);
    }
    Ok(())
}

fn write_pgn(path: &PathBuf, report: &SelfPlayReport) -> Result<(), SelfPlayCliError> {
    let mut text = String::new();
    for g in &report.games {
        text.push_str(&g.pgn());
        text.push('\n');
    }
    std::fs::write(path, text)
        .map_err(|e| SelfPlayCliError::Io(format!("cannot write {}: {e}", path.display())))
}

fn summary(report: &SelfPlayReport) {
    let s = &report.stats;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "Games: {} ({} plies) in {:.2} s{}",
        s.games,
        s.plies,
        s.wall.as_secs_f64(),
        if report.interrupted {
            ", interrupted"
        } else {
            ""
        }
    );
    let _ = writeln!(
        out,
        "Results: +{} ={} -{} (white wins, draws, black wins)",
        s.white_wins, s.draws, s.black_wins
    );
    if s.tablebase_adjudications > 0 {
        let _ = writeln!(
            out,
            "Adjudicated by the tablebases: {}",
            s.tablebase_adjudications
        );
    }
    let _ = writeln!(out, "Games/second: {:.3}", s.games_per_second());
    let _ = writeln!(
        out,
        "Evaluations: {} ({:.0}/s), nodes: {}",
        s.evaluations,
        s.evaluations_per_second(),
        s.nodes
    );
    let _ = writeln!(out, "Evaluator: {}", s.evaluator);
    if s.batches > 0 {
        let _ = writeln!(
            out,
            "Batches: {} (mean size {:.2}, largest {})",
            s.batches,
            s.mean_batch(),
            s.max_batch
        );
    }
    if let Some(e) = &s.eval_error {
        let _ = writeln!(
            out,
            "Evaluator errors: {} evaluations fell back to the CPU; first: {e}",
            s.fallbacks
        );
    }
    let _ = out.flush();
}

/// A bar over games, drawn on stderr only when it is a terminal.
fn progress_bar(quiet: bool, games: u64) -> Option<ProgressBar> {
    crate::progress::bar(
        quiet,
        games,
        "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} games  {msg}",
    )
}

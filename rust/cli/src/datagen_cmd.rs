//! `shatranj datagen`: self-play games written as training data, shard by shard.

use clap::Args;
use indicatif::ProgressBar;
use shatranj_engine::games::datagen::{
    Adjudication, DatagenConfig, DatagenError, DatagenReport, GameSettings, generate,
};
use shatranj_engine::games::{RandomOpenings, parse_openings};
use shatranj_engine::syzygy::SyzygySettings;
use shatranj_engine::{EngineOptions, Evaluation, NetError};
use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Args)]
pub struct DatagenArgs {
    /// Folder of the shards and their manifest (made if missing; a rerun resumes).
    #[arg(long)]
    out: PathBuf,
    /// Seed of the job: game I of seed S is the same game on every machine.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Index of the first game (games FIRST .. FIRST+GAMES).
    #[arg(long, default_value_t = 0)]
    first_game: u64,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Games played at once (one thread each); 0 means one per core.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Games per shard file (shards are aligned to multiples of this).
    #[arg(long, default_value_t = 1000)]
    shard_games: u64,
    /// Each move's search starts no new iteration after this many nodes.
    #[arg(long, default_value_t = 5000)]
    soft_nodes: u64,
    /// Each move's search stops at this many nodes.
    #[arg(long, default_value_t = 100_000)]
    hard_nodes: u64,
    /// Random plies of each opening.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Chess960: each opening starts from a starting position drawn by number from the seed.
    #[arg(long)]
    chess960: bool,
    /// Depth of the search that checks an opening's balance.
    #[arg(long, default_value_t = 6)]
    balance_depth: u32,
    /// Largest |score| (centipawns) a random opening may have.
    #[arg(long, default_value_t = 300)]
    balance_cp: i32,
    /// Plies before this one are not training positions.
    #[arg(long, default_value_t = 16)]
    min_ply: u32,
    /// Adjudicate a win after `WIN_PLIES` plies in a row at `WIN_CP` or more.
    #[arg(long, default_value_t = 2000)]
    win_cp: i32,
    #[arg(long, default_value_t = 8)]
    win_plies: u32,
    /// Adjudicate a draw after `DRAW_PLIES` plies in a row within ±`DRAW_CP`, from `DRAW_AFTER`.
    #[arg(long, default_value_t = 10)]
    draw_cp: i32,
    #[arg(long, default_value_t = 10)]
    draw_plies: u32,
    #[arg(long, default_value_t = 70)]
    draw_after: u32,
    /// Draw games still running after this many plies.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Transposition table per game, MiB.
    #[arg(long, default_value_t = 8)]
    hash: usize,
    /// Opening file instead of random openings: one per line, a FEN, `FEN moves <uci…>`, or
    /// UCI moves from the start; game I starts from line I modulo their number.
    #[arg(long, conflicts_with = "chess960")]
    openings: Option<PathBuf>,
    /// Syzygy tables (directories, ':'-separated): a game reaching a position within them
    /// ends with their result (or, with `--syzygy-label`, plays on, labelled).
    #[arg(long)]
    syzygy_path: Option<String>,
    /// Play on within the tables and label each position there with its WDL (format
    /// version 2) instead of ending the game.
    #[arg(long, requires = "syzygy_path")]
    syzygy_label: bool,
    #[arg(long, help = crate::evaluator::EVAL_FILE_HELP, default_value_t = Evaluation::default_name().to_string())]
    eval_file: String,
    /// Never draw a progress bar.
    #[arg(long)]
    quiet: bool,
}

pub enum DatagenCliError {
    /// A flag's value (an openings file, tables) that cannot be used.
    Usage(String),
    Net(NetError),
    Run(DatagenError),
    Interrupted,
}

impl DatagenCliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            DatagenCliError::Run(DatagenError::Config(_))
            | DatagenCliError::Net(_)
            | DatagenCliError::Usage(_) => 2,
            DatagenCliError::Run(_) => 1,
            DatagenCliError::Interrupted => 130,
        }
    }
}

impl fmt::Display for DatagenCliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenCliError::Run(e) => write!(f, "{e}"),
            DatagenCliError::Usage(s) => f.write_str(s),
            DatagenCliError::Net(e) => write!(f, "{e}"),
            DatagenCliError::Interrupted => {
                f.write_str("interrupted (finished games are written; run again to resume)")
            }
        }
    }
}

/// The settings as a command line that reproduces them (the manifest's recipe).
fn recipe(a: &DatagenArgs) -> String {
    format!(
        "shatranj datagen --seed {} --first-game {} --games {} --shard-games {} --soft-nodes {} \
         --hard-nodes {} --random-plies {} --balance-depth {} --balance-cp {} --min-ply {} \
         --win-cp {} --win-plies {} --draw-cp {} --draw-plies {} --draw-after {} --max-plies {} \
         --hash {} --eval-file {}{}{}{}",
        a.seed,
        a.first_game,
        a.games,
        a.shard_games,
        a.soft_nodes,
        a.hard_nodes,
        a.random_plies,
        a.balance_depth,
        a.balance_cp,
        a.min_ply,
        a.win_cp,
        a.win_plies,
        a.draw_cp,
        a.draw_plies,
        a.draw_after,
        a.max_plies,
        a.hash,
        a.eval_file,
        a.openings
            .as_ref()
            .map(|p| format!(" --openings {}", p.display()))
            .unwrap_or_default(),
        a.syzygy_path
            .as_ref()
            .map(|p| format!(" --syzygy-path {p}"))
            .unwrap_or_default(),
        if a.syzygy_label {
            " --syzygy-label"
        } else {
            ""
        }
    )
}

fn config(a: &DatagenArgs, evaluation: Evaluation) -> Result<DatagenConfig, DatagenCliError> {
    let opening_list = match &a.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                DatagenCliError::Usage(format!("cannot read {}: {e}", path.display()))
            })?;
            parse_openings(&text)
                .map_err(|e| DatagenCliError::Usage(format!("{}: {e}", path.display())))?
        }
        None => Vec::new(),
    };
    let tablebases = match &a.syzygy_path {
        Some(list) => crate::tables::open(list).map_err(DatagenCliError::Usage)?,
        None => SyzygySettings::default(),
    };
    let threads = match a.threads {
        0 => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        n => n,
    };
    Ok(DatagenConfig {
        first_game: a.first_game,
        games: a.games,
        threads,
        shard_games: a.shard_games,
        game: GameSettings {
            seed: a.seed,
            openings: RandomOpenings {
                plies: a.random_plies,
                max_eval: a.balance_cp,
                balance_depth: a.balance_depth,
                attempts: 64,
                chess960: a.chess960,
            },
            soft_nodes: a.soft_nodes,
            hard_nodes: a.hard_nodes,
            hash_mb: a.hash,
            min_ply: a.min_ply,
            adjudication: Adjudication {
                win_cp: a.win_cp,
                win_plies: a.win_plies,
                draw_cp: a.draw_cp,
                draw_plies: a.draw_plies,
                draw_after_ply: a.draw_after,
                max_plies: a.max_plies,
            },
            opening_list,
            tablebases,
            tablebase_labels: a.syzygy_label,
        },
        engine: EngineOptions {
            evaluation,
            ..EngineOptions::default()
        },
        generator: crate::generator(),
        recipe: recipe(a),
    })
}

// A subcommand's entry owns the arguments clap parsed for it, as main hands them over.
#[allow(clippy::needless_pass_by_value)]
pub fn run(args: DatagenArgs) -> Result<(), DatagenCliError> {
    let evaluation = Evaluation::from_name(&args.eval_file).map_err(DatagenCliError::Net)?;
    let config = config(&args, evaluation)?;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let s = Arc::clone(&stop);
        let _ = ctrlc::set_handler(move || s.store(true, Ordering::SeqCst));
    }
    let bar = progress_bar(args.quiet, config.games);
    let report = generate(&config, &args.out, &stop, |p| {
        if let Some(bar) = &bar {
            bar.set_position(p.games_done);
            let secs = p.elapsed.as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{} positions ({:.0}/s), {} shards",
                p.positions,
                p.positions as f64 / secs,
                p.shards_written
            ));
        }
    })
    .map_err(DatagenCliError::Run)?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    summary(&report, config.threads);
    if report.interrupted {
        return Err(DatagenCliError::Interrupted);
    }
    Ok(())
}

fn summary(r: &DatagenReport, threads: usize) {
    let secs = r.wall.as_secs_f64().max(1e-9);
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "Games: {} played, {} found from earlier runs, in {:.1} s",
        r.games_played, r.games_resumed, secs
    );
    let _ = writeln!(
        out,
        "Positions: {} ({:.0}/s, {:.0}/s per thread), plies: {}",
        r.positions,
        r.positions as f64 / secs,
        r.positions as f64 / secs / threads as f64,
        r.plies
    );
    if r.labelled_plies > 0 {
        let _ = writeln!(
            out,
            "Labelled by the tablebases: {} plies",
            r.labelled_plies
        );
    }
    let _ = writeln!(out, "Shards written: {}", r.shards.len());
    let _ = out.flush();
}

fn progress_bar(quiet: bool, games: u64) -> Option<ProgressBar> {
    crate::progress::bar(
        quiet,
        games,
        "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} games (eta {eta})  {msg}",
    )
}

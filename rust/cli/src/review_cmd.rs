//! `shatranj review`: every game of a PGN file reviewed as lichess reviews it (see
//! `shatranj_engine::review`), written as an annotated PGN, game by game in input order.
//!
//! ```text
//!   main thread: reads games → job queue → workers (one analyser each: an engine with its
//!        ▲                                  own hash, cleared per game) → formatted output
//!        └──── results, put back in input order, appended to the outputs; checkpoint ───┘
//! ```
//!
//! The checkpoint records how many games of the input are final and how many bytes of each
//! output hold them. A run that finds it truncates each output to that length and skips
//! those games, so an interrupted run (Ctrl-C, a kill, a crash) resumes without redoing or
//! losing a game; bytes written after the last checkpoint are simply written again.

use crate::review_table::{GAME_COLUMNS, MOVE_COLUMNS, TablePaths};
use clap::{Args, ValueEnum};
use indicatif::ProgressBar;
use shatranj_chess::{CastlingMode, Move};
use shatranj_engine::review::{
    self, AnalyseError, Analyser, EngineAnalyser, GameReview, analyse_game, annotate,
    evals_from_comments, review_moves,
};
use shatranj_engine::uci_client::{UciAnalyser, UciEngineConfig};
use shatranj_engine::util::write_atomically;
use shatranj_engine::{Engine, EngineOptions, Evaluation, Limits};
use shatranj_pgn::stream::Source;
use shatranj_pgn::{PgnError, PgnErrorKind, PgnGame, PgnReader, WriteOptions, write_game};
use std::collections::BTreeMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct ReviewArgs {
    /// The games: PGN, plain or compressed with zstd, gzip or bzip2 (told by the first bytes).
    games: PathBuf,
    /// Search each position to this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Search each position to this depth.
    #[arg(long)]
    depth: Option<u32>,
    /// Search each position for this many milliseconds (not deterministic).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// No engine: the evaluations of the games' own `[%eval]` comments (lichess exports).
    #[arg(long)]
    from_comments: bool,
    /// An external UCI engine (Stockfish, …) instead of the built-in search: one process per
    /// worker, `ucinewgame` per game; one that crashes or hangs is restarted and the position
    /// retried once.
    #[arg(long, value_name = "PATH")]
    engine: Option<PathBuf>,
    /// A UCI option for --engine, sent after --hash's `Hash` (repeatable).
    #[arg(long = "engine-option", value_name = "NAME=VALUE")]
    engine_options: Vec<String>,
    /// Seconds an external engine may take for one position (beyond --movetime) before it
    /// counts as hung.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    engine_timeout: f64,
    /// Games reviewed at once, one engine (one search thread) each; 0 means one per core.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table of each engine, MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    #[arg(long, help = crate::evaluator::EVAL_FILE_HELP, default_value_t = Evaluation::default_name().to_string())]
    eval_file: String,
    /// Write the annotated games here (default: standard output, unless --table is given).
    #[arg(long, value_name = "FILE")]
    pgn_out: Option<PathBuf>,
    /// Write one row per move here, as CSV (`NAME.csv`) or Parquet (`NAME.parquet`), and one
    /// row per game beside it (`NAME.games.csv`, `NAME.games.parquet`). Parquet is made from
    /// CSV spools (`NAME.spool.csv`, `NAME.games.spool.csv`) when the run ends; they are kept
    /// with --checkpoint, which resumes from them.
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// Record progress here; a rerun with the same file resumes where the last one stopped.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// What a game that cannot be reviewed (broken PGN, illegal move, failing engine) does:
    /// reported and skipped, or reported and the run stops.
    #[arg(long, value_enum, default_value_t = OnError::Skip)]
    on_error: OnError,
    /// Review only the first N games of the input (a resumed run counts the earlier ones).
    #[arg(long, value_name = "N")]
    max_games: Option<u64>,
    /// No progress on stderr (warnings and errors are still written).
    #[arg(long)]
    quiet: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum OnError {
    Skip,
    Fail,
}

pub enum ReviewError {
    /// Bad settings or files that cannot be opened: status 2.
    Usage(String),
    /// A failure during the run (a game with --on-error fail, a write error): status 1.
    Run(String),
    Interrupted,
}

impl ReviewError {
    pub fn exit_code(&self) -> u8 {
        match self {
            ReviewError::Usage(_) => 2,
            ReviewError::Run(_) => 1,
            ReviewError::Interrupted => 130,
        }
    }
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::Usage(e) | ReviewError::Run(e) => f.write_str(e),
            ReviewError::Interrupted => f.write_str(
                "interrupted (finished games are written; run again with the same --checkpoint to resume)",
            ),
        }
    }
}

fn usage(e: impl fmt::Display) -> ReviewError {
    ReviewError::Usage(e.to_string())
}

fn run_error(e: impl fmt::Display) -> ReviewError {
    ReviewError::Run(e.to_string())
}

/// Where the evaluations come from.
#[derive(Clone)]
enum EvalSource {
    InProcess {
        limits: Limits,
        evaluation: Evaluation,
    },
    External {
        config: UciEngineConfig,
        limits: Limits,
        timeout: Duration,
    },
    Comments,
}

/// The settings that decide the output: a checkpoint is only resumed under the same ones.
fn settings_line(a: &ReviewArgs) -> String {
    let limit = limit_text(a);
    let source = if a.from_comments {
        "comments".to_owned()
    } else if let Some(engine) = &a.engine {
        format!(
            "engine {} options {} hash {}",
            engine.display(),
            a.engine_options.join(" "),
            a.hash
        )
    } else {
        format!("shatranj eval {}", a.eval_file)
    };
    let path = |p: &Option<PathBuf>| {
        p.as_ref()
            .map_or("-".to_owned(), |p| p.display().to_string())
    };
    format!(
        "input {} | {} | {} | pgn {} | table {}",
        a.games.display(),
        source,
        limit,
        path(&a.pgn_out),
        path(&a.table),
    )
}

fn limit_text(a: &ReviewArgs) -> String {
    match (a.nodes, a.depth, a.movetime) {
        (Some(n), _, _) => format!("nodes {n}"),
        (_, Some(d), _) => format!("depth {d}"),
        (_, _, Some(t)) => format!("movetime {t}"),
        _ => "[%eval] comments".to_owned(),
    }
}

fn limits(a: &ReviewArgs) -> Result<Option<Limits>, ReviewError> {
    let given = [a.nodes.is_some(), a.depth.is_some(), a.movetime.is_some()]
        .iter()
        .filter(|&&x| x)
        .count();
    if a.from_comments {
        if a.engine.is_some() {
            return Err(usage("--from-comments needs no --engine"));
        }
        if given > 0 {
            return Err(usage(
                "--from-comments takes no --nodes, --depth or --movetime",
            ));
        }
        return Ok(None);
    }
    if given != 1 {
        return Err(usage(
            "give one of --nodes N, --depth D or --movetime MS (or --from-comments)",
        ));
    }
    Ok(Some(match (a.nodes, a.depth, a.movetime) {
        (Some(0), _, _) | (_, Some(0), _) | (_, _, Some(0)) => {
            return Err(usage("--nodes, --depth and --movetime must be at least 1"));
        }
        (Some(n), _, _) => Limits::nodes(n),
        (_, Some(d), _) => Limits::depth(d),
        (_, _, Some(t)) => Limits::movetime(Duration::from_millis(t)),
        _ => unreachable!("one limit was given"),
    }))
}

/// One game handed to a worker: its number (1-based, in the input) and what the reader made
/// of it.
struct Job {
    index: u64,
    game: Result<PgnGame, PgnError>,
}

/// What a worker made of one game.
enum Outcome {
    Done {
        /// The text of each output: annotated PGN, move rows, game row.
        texts: [String; 3],
        positions: u64,
    },
    Failed {
        message: String,
        /// The game table's row for it: its tags and the error.
        row: String,
    },
    /// Not started: the run was stopped first.
    Cancelled,
}

/// A worker's analyser.
enum WorkerAnalyser {
    InProcess(Box<EngineAnalyser>),
    External(Box<UciAnalyser>),
    Comments,
}

/// An analyser failure, as text with its position.
fn analyse<A: Analyser>(
    analyser: &mut A,
    game: &PgnGame,
    moves: &[Move],
    mode: CastlingMode,
) -> Result<Vec<review::PositionAnalysis>, AnalyseError<String>>
where
    A::Error: fmt::Display,
{
    analyse_game(analyser, &game.start, moves, mode).map_err(|e| AnalyseError {
        ply: e.ply,
        error: e.error.to_string(),
    })
}

pub(crate) fn castling_mode(game: &PgnGame) -> CastlingMode {
    match game.tag("Variant") {
        Some(v) if shatranj_pgn::is_chess960_variant(v) => CastlingMode::Chess960,
        _ => CastlingMode::Standard,
    }
}

/// Where the analysis of position `ply` of a game is, in words: "the start" or "after 6...
/// Nf6".
fn position_name(game: &PgnGame, moves: &[Move], ply: usize) -> String {
    if ply == 0 {
        return "the start position".to_owned();
    }
    let mut pos = game.start;
    for &m in &moves[..ply - 1] {
        pos.play_unchecked(m);
    }
    let number = pos.fullmove_number();
    let dots = if pos.turn() == shatranj_chess::Color::White {
        "."
    } else {
        "..."
    };
    format!(
        "ply {ply} (after {number}{dots} {})",
        shatranj_chess::san::to_san(&pos, moves[ply - 1])
    )
}

struct Settings {
    annotator: String,
    /// What evaluates the positions, for the game table (none from comments).
    engine: Option<String>,
}

fn review_game(analyser: &mut WorkerAnalyser, game: &PgnGame) -> Result<(GameReview, u64), String> {
    let moves = game.mainline_moves();
    if let Some(i) = moves.iter().position(|&m| m == Move::NULL) {
        return Err(format!(
            "a null move at ply {} of the main line: not reviewed",
            i + 1
        ));
    }
    let mode = castling_mode(game);
    let (analyses, positions) = match analyser {
        WorkerAnalyser::Comments => (evals_from_comments(game), moves.len() as u64 + 1),
        WorkerAnalyser::InProcess(a) => {
            let r = analyse(a.as_mut(), game, &moves, mode).map_err(|e| {
                format!(
                    "analysis failed at {}: {}",
                    position_name(game, &moves, e.ply),
                    e.error
                )
            })?;
            (r, moves.len() as u64 + 1)
        }
        WorkerAnalyser::External(a) => {
            let r = analyse(a.as_mut(), game, &moves, mode).map_err(|e| {
                format!(
                    "the engine failed at {} (after a restart and a retry): {}",
                    position_name(game, &moves, e.ply),
                    e.error
                )
            })?;
            (r, moves.len() as u64 + 1)
        }
    };
    Ok((
        review_moves(&game.start, &moves, &analyses, mode),
        positions,
    ))
}

fn work(job: Job, analyser: &mut WorkerAnalyser, settings: &Settings) -> Outcome {
    let index = job.index;
    let failed = |game: Option<&PgnGame>, message: String| Outcome::Failed {
        row: crate::review_table::failed_row(index, game, &message),
        message,
    };
    let game = match job.game {
        Ok(g) => g,
        Err(e) => return failed(None, format!("{e}")),
    };
    let (review, positions) = match review_game(analyser, &game) {
        Ok(r) => r,
        Err(e) => return failed(Some(&game), e),
    };
    let annotated = annotate(&game, &review, Some(&settings.annotator));
    let mut pgn = match write_game(&annotated, &WriteOptions::default()) {
        Ok(text) => text,
        Err(e) => return failed(Some(&game), format!("cannot write the annotated game: {e}")),
    };
    pgn.push_str("\n\n");
    let texts = [
        pgn,
        crate::review_table::move_rows(index, &review),
        crate::review_table::game_row(index, &game, &review, settings.engine.as_deref()),
    ];
    Outcome::Done { texts, positions }
}

/// An output file written game by game, with its length known.
struct Output {
    path: Option<PathBuf>,
    writer: Box<dyn Write>,
    bytes: u64,
}

impl Output {
    fn stdout() -> Output {
        Output {
            path: None,
            writer: Box::new(BufWriter::new(io::stdout())),
            bytes: 0,
        }
    }

    /// Opens `path`: truncated to `keep` bytes when resuming, emptied otherwise.
    fn open(path: &Path, keep: Option<u64>) -> Result<Output, ReviewError> {
        let name = path.display();
        let file = match keep {
            None => File::create(path).map_err(|e| usage(format!("cannot create {name}: {e}")))?,
            Some(len) => {
                let mut f = OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(|e| usage(format!("cannot open {name} to resume: {e}")))?;
                let have = f.metadata().map_err(usage)?.len();
                if have < len {
                    return Err(usage(format!(
                        "{name} has {have} bytes but the checkpoint counts {len}: it is not \
                         this run's output (remove the checkpoint to start again)"
                    )));
                }
                f.set_len(len).map_err(usage)?;
                f.seek(SeekFrom::End(0)).map_err(usage)?;
                f
            }
        };
        Ok(Output {
            path: Some(path.to_owned()),
            writer: Box::new(BufWriter::new(file)),
            bytes: keep.unwrap_or(0),
        })
    }

    fn write(&mut self, text: &str) -> Result<(), ReviewError> {
        self.writer
            .write_all(text.as_bytes())
            .map_err(|e| self.error(&e))?;
        self.bytes += text.len() as u64;
        Ok(())
    }

    fn flush(&mut self) -> Result<(), ReviewError> {
        self.writer.flush().map_err(|e| self.error(&e))
    }

    fn error(&self, e: &io::Error) -> ReviewError {
        match &self.path {
            Some(p) => run_error(format!("cannot write {}: {e}", p.display())),
            None => run_error(format!("cannot write the output: {e}")),
        }
    }
}

/// The checkpoint: the settings, the games done, each output's length.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Checkpoint {
    settings: String,
    games: u64,
    /// Bytes of each output, in the order of `OUTPUTS`.
    bytes: Vec<Option<u64>>,
}

const CHECKPOINT_HEADER: &str = "shatranj review checkpoint 1";

impl Checkpoint {
    fn to_text(&self) -> String {
        let mut s = format!(
            "{CHECKPOINT_HEADER}\nsettings {}\ngames {}\n",
            self.settings, self.games
        );
        for b in &self.bytes {
            match b {
                Some(b) => s.push_str(&format!("bytes {b}\n")),
                None => s.push_str("bytes -\n"),
            }
        }
        s
    }

    fn parse(text: &str) -> Option<Checkpoint> {
        let mut lines = text.lines();
        if lines.next()? != CHECKPOINT_HEADER {
            return None;
        }
        let settings = lines.next()?.strip_prefix("settings ")?.to_owned();
        let games = lines.next()?.strip_prefix("games ")?.parse().ok()?;
        let mut bytes = Vec::new();
        for line in lines {
            let b = line.strip_prefix("bytes ")?;
            bytes.push(if b == "-" {
                None
            } else {
                Some(b.parse().ok()?)
            });
        }
        Some(Checkpoint {
            settings,
            games,
            bytes,
        })
    }

    /// Written to a temporary file then renamed over the old one: a kill leaves one or
    /// the other, never half of each.
    fn save(&self, path: &Path) -> Result<(), ReviewError> {
        write_atomically(path, self.to_text().as_bytes()).map_err(|e| {
            run_error(format!(
                "cannot write the checkpoint {}: {e}",
                path.display()
            ))
        })
    }
}

/// The run's counters, for progress and the summary.
#[derive(Default)]
struct Counts {
    reviewed: u64,
    failed: u64,
    resumed: u64,
    positions: u64,
}

// A subcommand's entry owns the arguments clap parsed for it, as main hands them over.
#[allow(clippy::needless_pass_by_value)]
pub fn run(args: ReviewArgs) -> Result<(), ReviewError> {
    let limits = limits(&args)?;
    let threads = match args.threads {
        0 => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        n => n,
    };
    let source = match (limits, &args.engine) {
        (None, _) => EvalSource::Comments,
        (Some(limits), None) => EvalSource::InProcess {
            limits,
            evaluation: Evaluation::from_name(&args.eval_file).map_err(usage)?,
        },
        (Some(limits), Some(path)) => {
            let mut config = UciEngineConfig::new(path);
            for o in &args.engine_options {
                let (name, value) = o
                    .split_once('=')
                    .ok_or_else(|| usage(format!("--engine-option {o:?}: want NAME=VALUE")))?;
                config
                    .options
                    .push((name.trim().to_owned(), value.trim().to_owned()));
            }
            if !(args.engine_timeout > 0.0 && args.engine_timeout.is_finite()) {
                return Err(usage(
                    "--engine-timeout must be a positive number of seconds",
                ));
            }
            EvalSource::External {
                config,
                limits,
                timeout: Duration::from_secs_f64(args.engine_timeout),
            }
        }
    };
    // Each worker's analyser, made before anything is read: an engine that cannot start
    // is a usage error, not a run of failed games.
    let mut analysers = Vec::with_capacity(threads);
    for _ in 0..threads {
        analysers.push(match &source {
            EvalSource::Comments => WorkerAnalyser::Comments,
            EvalSource::InProcess { limits, evaluation } => {
                let engine = Engine::new(EngineOptions {
                    threads: 1,
                    hash_mb: args.hash,
                    evaluation: evaluation.clone(),
                    ..EngineOptions::default()
                })
                .map_err(usage)?;
                WorkerAnalyser::InProcess(Box::new(EngineAnalyser::new(engine, limits.clone())))
            }
            EvalSource::External {
                config,
                limits,
                timeout,
            } => {
                let mut config = config.clone();
                // The table size first, so that an --engine-option Hash still wins.
                config
                    .options
                    .insert(0, ("Hash".to_owned(), args.hash.to_string()));
                let a = UciAnalyser::start(config, limits.clone(), *timeout)
                    .map_err(|e| usage(format!("--engine {}: {e}", config_path(&args))))?;
                WorkerAnalyser::External(Box::new(a))
            }
        });
    }
    let settings = Arc::new(Settings {
        annotator: format!(
            "shatranj {} review: {}",
            env!("CARGO_PKG_VERSION"),
            match &analysers[0] {
                WorkerAnalyser::Comments => "[%eval] comments".to_owned(),
                WorkerAnalyser::InProcess(_) => format!("shatranj, {}", limit_text(&args)),
                WorkerAnalyser::External(a) => format!("{}, {}", a.name, limit_text(&args)),
            }
        ),
        engine: match &analysers[0] {
            WorkerAnalyser::Comments => None,
            WorkerAnalyser::InProcess(_) => Some("shatranj".to_owned()),
            WorkerAnalyser::External(a) => Some(a.name.clone()),
        },
    });
    let settings_text = settings_line(&args);

    // The checkpoint, if resuming.
    let resume = match &args.checkpoint {
        None => None,
        Some(path) if args.pgn_out.is_none() && args.table.is_none() => {
            return Err(usage(format!(
                "--checkpoint {} needs --pgn-out or --table: standard output cannot be resumed",
                path.display()
            )));
        }
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => {
                let c = Checkpoint::parse(&text).ok_or_else(|| {
                    usage(format!("{} is not a review checkpoint", path.display()))
                })?;
                if c.settings != settings_text {
                    return Err(usage(format!(
                        "the checkpoint {} was written for other settings ({}); use the same \
                         settings or remove it",
                        path.display(),
                        c.settings
                    )));
                }
                Some(c)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(usage(format!("cannot read {}: {e}", path.display()))),
        },
    };
    // The outputs: annotated PGN, move table, game table (see `Outcome::Done`).
    let table_paths = match &args.table {
        None => None,
        Some(t) => Some(crate::review_table::paths(t).map_err(usage)?),
    };
    let paths: [Option<PathBuf>; 3] = [
        args.pgn_out.clone(),
        table_paths.as_ref().map(|p| p.csv[0].clone()),
        table_paths.as_ref().map(|p| p.csv[1].clone()),
    ];
    let mut outputs: Vec<Option<Output>> = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        outputs.push(match path {
            Some(p) => {
                let keep = resume
                    .as_ref()
                    .map(|c| c.bytes.get(i).copied().flatten().unwrap_or(0));
                let mut out = Output::open(p, keep)?;
                if keep.is_none() && i > 0 {
                    out.write(crate::review_table::header(i))?;
                }
                Some(out)
            }
            None if i == 0 && args.table.is_none() => Some(Output::stdout()),
            None => None,
        });
    }

    let source_file = Source::open(&args.games)
        .map_err(|e| usage(format!("cannot open {}: {e}", args.games.display())))?;
    let mut reader = PgnReader::new(BufReader::with_capacity(1 << 16, source_file));
    let mut counts = Counts::default();
    let done_before = resume.as_ref().map_or(0, |c| c.games);
    for _ in 0..done_before {
        match reader.next_raw() {
            Some(Ok(_)) => counts.resumed += 1,
            Some(Err(e)) => return Err(run_error(format!("{}: {e}", args.games.display()))),
            None => break,
        }
    }

    let stop = Arc::new(AtomicBool::new(false));
    {
        let s = Arc::clone(&stop);
        let _ = ctrlc::set_handler(move || s.store(true, Ordering::SeqCst));
    }

    // Workers.
    let (job_tx, job_rx) = mpsc::sync_channel::<Job>(threads * 2);
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (out_tx, out_rx) = mpsc::channel::<(u64, Outcome)>();
    let mut handles = Vec::new();
    for mut analyser in analysers {
        let job_rx = Arc::clone(&job_rx);
        let out_tx = out_tx.clone();
        let stop = Arc::clone(&stop);
        let settings = Arc::clone(&settings);
        handles.push(std::thread::spawn(move || {
            loop {
                let job = match job_rx.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => return,
                };
                let Ok(job) = job else { return };
                let index = job.index;
                let outcome = if stop.load(Ordering::SeqCst) {
                    Outcome::Cancelled
                } else {
                    // A bug in the review of one game is that game's failure, not a
                    // worker gone with its job (the run would wait for it forever).
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        work(job, &mut analyser, &settings)
                    }))
                    .unwrap_or_else(|_| {
                        let message = "internal error (a panic) while reviewing it".to_owned();
                        Outcome::Failed {
                            row: crate::review_table::failed_row(index, None, &message),
                            message,
                        }
                    })
                };
                if out_tx.send((index, outcome)).is_err() {
                    return;
                }
            }
        }));
    }
    drop(out_tx);

    let mut progress = Progress::new(args.quiet);
    let started = Instant::now();
    let mut checkpoint = Checkpoint {
        settings: settings_text,
        games: done_before,
        bytes: byte_counts(&outputs, &paths),
    };
    if let Some(path) = &args.checkpoint {
        checkpoint.save(path)?;
    }
    let mut last_save = Instant::now();
    let mut next_index = done_before + 1;
    let mut next_to_write = done_before + 1;
    let mut in_flight = 0usize;
    let mut input_done = false;
    let mut pending: BTreeMap<u64, Outcome> = BTreeMap::new();
    let mut failure: Option<ReviewError> = None;
    let mut halted = false; // stop writing (a cancelled game, or --on-error fail)
    let mut job_tx = Some(job_tx);

    loop {
        // Keep the workers fed.
        while !input_done
            && !halted
            && !stop.load(Ordering::SeqCst)
            && in_flight < threads * 2
            && args.max_games.is_none_or(|m| next_index <= m)
        {
            let Some(tx) = &job_tx else { break };
            match reader.next() {
                None => input_done = true,
                Some(Err(e)) if matches!(e.kind, PgnErrorKind::Io(_)) => {
                    failure = Some(run_error(format!("{}: {e}", args.games.display())));
                    input_done = true;
                }
                Some(game) => {
                    if tx
                        .send(Job {
                            index: next_index,
                            game,
                        })
                        .is_err()
                    {
                        input_done = true;
                        break;
                    }
                    next_index += 1;
                    in_flight += 1;
                }
            }
        }
        if args.max_games.is_some_and(|m| next_index > m) || stop.load(Ordering::SeqCst) || halted {
            input_done = true;
        }
        if input_done {
            job_tx = None;
        }
        if in_flight == 0 {
            break;
        }
        let (index, outcome) = match out_rx.recv_timeout(Duration::from_millis(200)) {
            Ok(r) => r,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                progress.update(&counts, started);
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        in_flight -= 1;
        pending.insert(index, outcome);
        // Write what is next in order.
        while !halted && let Some(outcome) = pending.remove(&next_to_write) {
            match outcome {
                Outcome::Done { texts, positions } => {
                    if let Err(e) = write_all(&mut outputs, &texts) {
                        failure = Some(e);
                        halted = true;
                        break;
                    }
                    counts.reviewed += 1;
                    counts.positions += positions;
                }
                Outcome::Failed { message, row } => {
                    let text = format!("game {next_to_write}: {message}");
                    if args.on_error == OnError::Fail {
                        failure = Some(run_error(text));
                        halted = true;
                        break;
                    }
                    warn(progress.bar.as_ref(), &format!("warning: {text}; skipped"));
                    if let Err(e) = write_all(&mut outputs, &[String::new(), String::new(), row]) {
                        failure = Some(e);
                        halted = true;
                        break;
                    }
                    counts.failed += 1;
                }
                Outcome::Cancelled => {
                    halted = true;
                    break;
                }
            }
            next_to_write += 1;
            checkpoint.games = next_to_write - 1;
        }
        if let Some(path) = &args.checkpoint
            && last_save.elapsed() >= Duration::from_millis(500)
        {
            flush_all(&mut outputs)?;
            checkpoint.bytes = byte_counts(&outputs, &paths);
            checkpoint.save(path)?;
            last_save = Instant::now();
        }
        progress.update(&counts, started);
    }
    drop(job_tx);
    for h in handles {
        let _ = h.join();
    }
    flush_all(&mut outputs)?;
    if let Some(path) = &args.checkpoint {
        checkpoint.bytes = byte_counts(&outputs, &paths);
        checkpoint.save(path)?;
    }
    drop(outputs);
    if let Some(bar) = &progress.bar {
        bar.finish_and_clear();
    }
    // Parquet from the spools, however the run ended: the finished games are readable.
    if let Some(TablePaths {
        csv,
        parquet: Some(parquet),
        ..
    }) = &table_paths
    {
        for ((spool, out), columns) in csv
            .iter()
            .zip(parquet)
            .zip([&MOVE_COLUMNS[..], &GAME_COLUMNS[..]])
        {
            match crate::review_parquet::convert(spool, columns, out) {
                Ok(_) => {}
                // The run's own failure (a write error, say) is the one to report.
                Err(e) if failure.is_some() => eprintln!("error: {e}"),
                Err(e) => return Err(run_error(e)),
            }
        }
        // Without a checkpoint nothing can resume from the spools.
        if args.checkpoint.is_none() {
            for spool in csv {
                let _ = std::fs::remove_file(spool);
            }
        }
    }
    if !args.quiet {
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        eprintln!(
            "review: {} games reviewed, {} skipped, {} done before; {} positions in {:.1} s ({:.0} positions/s)",
            counts.reviewed,
            counts.failed,
            counts.resumed,
            counts.positions,
            secs,
            counts.positions as f64 / secs
        );
    }
    if let Some(e) = failure {
        return Err(e);
    }
    if stop.load(Ordering::SeqCst) {
        return Err(ReviewError::Interrupted);
    }
    Ok(())
}

fn write_all(outputs: &mut [Option<Output>], texts: &[String; 3]) -> Result<(), ReviewError> {
    for (out, text) in outputs.iter_mut().zip(texts) {
        if let Some(out) = out {
            out.write(text)?;
        }
    }
    Ok(())
}

fn flush_all(outputs: &mut [Option<Output>]) -> Result<(), ReviewError> {
    for out in outputs.iter_mut().flatten() {
        out.flush()?;
    }
    Ok(())
}

/// Each file output's length (`None` for an output not asked for, or standard output).
fn byte_counts(outputs: &[Option<Output>], paths: &[Option<PathBuf>; 3]) -> Vec<Option<u64>> {
    outputs
        .iter()
        .zip(paths)
        .map(|(o, p)| p.as_ref().and(o.as_ref()).map(|o| o.bytes))
        .collect()
}

fn config_path(args: &ReviewArgs) -> String {
    args.engine
        .as_ref()
        .map_or(String::new(), |p| p.display().to_string())
}

fn warn(bar: Option<&ProgressBar>, text: &str) {
    match bar {
        Some(bar) => bar.println(text),
        None => eprintln!("{text}"),
    }
}

fn progress_bar(quiet: bool) -> Option<ProgressBar> {
    let bar = crate::progress::bar(quiet, 0, "{spinner} [{elapsed_precise}] {msg}")?;
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}

/// Progress: the bar's message on a terminal; elsewhere (a log) a line every 30 seconds
/// unless --quiet.
struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
    last_line: Instant,
}

impl Progress {
    fn new(quiet: bool) -> Progress {
        Progress {
            bar: progress_bar(quiet),
            quiet,
            last_line: Instant::now(),
        }
    }

    fn update(&mut self, counts: &Counts, started: Instant) {
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        let text = format!(
            "{} games reviewed, {} skipped, {} positions ({:.0}/s)",
            counts.reviewed,
            counts.failed,
            counts.positions,
            counts.positions as f64 / secs
        );
        match &self.bar {
            Some(bar) => bar.set_message(text),
            None if !self.quiet && self.last_line.elapsed() >= Duration::from_secs(30) => {
                eprintln!("review: {text}");
                self.last_line = Instant::now();
            }
            None => {}
        }
    }
}

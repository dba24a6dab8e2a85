//! Self-play: many games at once, each move chosen by a fixed-depth or fixed-node search,
//! with the static evaluations of all games optionally gathered by one batching service.
//!
//! Game `i` of a match depends only on `(seed, i)` and the settings: its opening is drawn
//! from `(seed, i)` (or is `openings[i % len]`), its engine is fresh, single-threaded and
//! clockless. So a match can be split by game index across processes or machines
//! ([`SelfPlayConfig::first_game`] and [`SelfPlayConfig::games`] pick the indices), and the
//! same seed gives the same games whether evaluations run inline on the CPU or through the
//! service on any back end (all back ends compute the same numbers).
//!
//! ```
//! use shatranj_engine::games::selfplay::{play_games, SelfPlayConfig, MoveLimit};
//! use std::sync::atomic::AtomicBool;
//!
//! let config = SelfPlayConfig { games: 2, limit: MoveLimit::Depth(2), max_plies: 20, ..Default::default() };
//! let report = play_games(&config, None, &AtomicBool::new(false), |_| {}).unwrap();
//! assert_eq!(report.games.len(), 2);
//! assert!(report.games[0].pgn().contains("[Round \"0\"]"));
//! ```

mod pgn;

pub use pgn::format_pgn;

use super::opening::{Opening, RandomOpenings, random_opening};
use super::play::{Control, GameRecord, GameTermination, play_game};
use super::pool::{Event, Flow, WorkerFailed, run_indexed};
use crate::engine::{EngineError, EngineOptions, SearchResult};
use crate::eval::{BatchConfig, BatchEvaluator, EvalError, EvalRoute, EvalService, Evaluation};
use crate::limits::Limits;
use crate::syzygy::SyzygySettings;
use shatranj_chess::{Color, Move, Position};
use std::cell::Cell;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How each move is searched.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// To this depth (plies).
    Depth(u32),
    /// This many nodes (exact with one thread, so reproducible).
    Nodes(u64),
}

impl MoveLimit {
    fn limits(self) -> Limits {
        match self {
            MoveLimit::Depth(d) => Limits::depth(d),
            MoveLimit::Nodes(n) => Limits::nodes(n),
        }
    }

    /// `depth 6` or `nodes 10000`: how players are named in the PGN.
    pub fn describe(self) -> String {
        match self {
            MoveLimit::Depth(d) => format!("depth {d}"),
            MoveLimit::Nodes(n) => format!("nodes {n}"),
        }
    }
}

/// Where games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// Random balanced openings drawn from `(seed, game index)`.
    Random(RandomOpenings),
    /// Game `i` starts from `list[i % list.len()]`.
    List(Vec<Opening>),
}

/// A self-play match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayConfig {
    /// The first game index played: the match is games `first_game .. first_game + games`.
    pub first_game: u64,
    /// How many games to play.
    pub games: u64,
    /// Games played at once (one OS thread each).
    pub concurrency: usize,
    pub limit: MoveLimit,
    pub seed: u64,
    pub openings: OpeningSource,
    /// Games still running after this many plies (opening included) are drawn by adjudication.
    pub max_plies: u32,
    /// Transposition table per game, MiB.
    pub hash_mb: usize,
    /// The batching service's settings (when evaluations go through it).
    pub batch: BatchConfig,
    /// PGN `Event` tag.
    pub event: String,
    /// The static evaluation of both sides (a batch back end given to [`play_games`] must
    /// compute the same one).
    pub evaluation: Evaluation,
    /// Syzygy tables that adjudicate: a game reaching a position within them (at most
    /// `probe_limit` men, no castling rights) ends with their result
    /// ([`GameTermination::Tablebase`]). Only `tables` and `probe_limit` matter here; the
    /// engines search without tables, so the games up to there are those played without.
    pub tablebases: SyzygySettings,
}

impl Default for SelfPlayConfig {
    fn default() -> SelfPlayConfig {
        SelfPlayConfig {
            first_game: 0,
            games: 1,
            concurrency: 1,
            limit: MoveLimit::Depth(4),
            seed: 0,
            openings: OpeningSource::Random(RandomOpenings::default()),
            max_plies: 400,
            hash_mb: 2,
            batch: BatchConfig::default(),
            event: "shatranj self-play".into(),
            evaluation: Evaluation::default(),
            tablebases: SyzygySettings::default(),
        }
    }
}

/// Why a match could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SelfPlayError {
    /// A setting out of range; the text names it.
    Config(String),
    /// The batching service could not start.
    Eval(EvalError),
    Engine(EngineError),
    /// A game's thread panicked (a bug); the text says which game.
    Worker(String),
}

impl fmt::Display for SelfPlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelfPlayError::Config(what) => write!(f, "bad self-play setting: {what}"),
            SelfPlayError::Eval(e) => write!(f, "{e}"),
            SelfPlayError::Engine(e) => write!(f, "{e}"),
            SelfPlayError::Worker(what) => write!(f, "self-play worker failed: {what}"),
        }
    }
}

impl std::error::Error for SelfPlayError {}

/// Live counters, reported to the progress callback.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayProgress {
    pub games_done: u64,
    pub games_total: u64,
    pub plies: u64,
    pub evaluations: u64,
    pub elapsed: Duration,
}

/// What a match measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfPlayStats {
    /// Finished games.
    pub games: u64,
    /// Plies of the finished games (opening moves included).
    pub plies: u64,
    /// Static evaluations of every search, finished games or not.
    pub evaluations: u64,
    pub nodes: u64,
    /// Batches the service dispatched (0 when evaluations ran inline).
    pub batches: u64,
    /// The largest batch dispatched.
    pub max_batch: u64,
    /// Evaluations that fell back to the CPU after a batch failed.
    pub fallbacks: u64,
    /// The first evaluator error, if any.
    pub eval_error: Option<String>,
    pub wall: Duration,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    /// Games the tables adjudicated ([`GameTermination::Tablebase`]).
    pub tablebase_adjudications: u64,
    /// How the evaluations were computed (`cpu (inline)` or the service's back end).
    pub evaluator: String,
}

impl SelfPlayStats {
    /// Positions per dispatched batch (0 without the service).
    pub fn mean_batch(&self) -> f64 {
        if self.batches == 0 {
            0.0
        } else {
            self.evaluations as f64 / self.batches as f64
        }
    }

    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.wall.as_secs_f64().max(1e-9)
    }

    pub fn evaluations_per_second(&self) -> f64 {
        self.evaluations as f64 / self.wall.as_secs_f64().max(1e-9)
    }
}

/// The finished games, in index order, and the match's numbers.
#[derive(Clone, Debug)]
pub struct SelfPlayReport {
    pub games: Vec<SelfPlayGame>,
    pub stats: SelfPlayStats,
    /// Stopped before every game finished (only finished games are in `games`).
    pub interrupted: bool,
}

/// A finished game with the names it is recorded under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayGame {
    pub record: GameRecord,
    pub event: String,
    pub player: String,
    /// A Chess960 game (PGN `Variant "Chess960"`).
    pub chess960: bool,
}

impl SelfPlayGame {
    pub fn pgn(&self) -> String {
        format_pgn(
            &self.record,
            &self.event,
            &self.player,
            &self.player,
            self.chess960,
        )
    }
}

impl fmt::Display for SelfPlayGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.pgn())
    }
}

impl SelfPlayConfig {
    /// Games played at once, at most.
    pub const MAX_CONCURRENCY: usize = 4096;
    /// Random opening plies, at most (each is a legal move drawn at random: the bound keeps a
    /// typo from running for hours).
    pub const MAX_RANDOM_PLIES: u32 = 200;
    pub const MAX_PLIES: u32 = 100_000;
    pub const MAX_HASH_MB: usize = 1024;
    pub const MAX_BATCH: usize = 1 << 24;
    pub const MAX_WAIT: Duration = Duration::from_secs(10);

    /// Checks every setting's range: the one place they are checked (the CLI and the Python
    /// binding pass values through and call this). The text of an error names the setting.
    pub fn validate(&self) -> Result<(), SelfPlayError> {
        let bad = |s: String| Err(SelfPlayError::Config(s));
        if !(1..=Self::MAX_CONCURRENCY).contains(&self.concurrency) {
            let max = Self::MAX_CONCURRENCY;
            return bad(format!(
                "concurrency {} out of range 1..={max}",
                self.concurrency
            ));
        }
        match self.limit {
            MoveLimit::Depth(d) if !(1..=64).contains(&d) => {
                return bad(format!("depth {d} out of range 1..=64"));
            }
            MoveLimit::Nodes(0) => return bad("nodes must be at least 1".into()),
            _ => {}
        }
        match &self.openings {
            OpeningSource::List(list) if list.is_empty() => {
                return bad("the opening list is empty".into());
            }
            OpeningSource::Random(r) if r.plies > Self::MAX_RANDOM_PLIES => {
                let max = Self::MAX_RANDOM_PLIES;
                return bad(format!("random plies {} out of range 0..={max}", r.plies));
            }
            _ => {}
        }
        if !(1..=Self::MAX_PLIES).contains(&self.max_plies) {
            let max = Self::MAX_PLIES;
            return bad(format!(
                "max_plies {} out of range 1..={max}",
                self.max_plies
            ));
        }
        if !(1..=Self::MAX_HASH_MB).contains(&self.hash_mb) {
            let max = Self::MAX_HASH_MB;
            return bad(format!("hash {} MiB out of range 1..={max}", self.hash_mb));
        }
        if !(1..=Self::MAX_BATCH).contains(&self.batch.max_batch) {
            let max = Self::MAX_BATCH;
            return bad(format!(
                "batch size {} out of range 1..={max}",
                self.batch.max_batch
            ));
        }
        if self.batch.max_wait > Self::MAX_WAIT {
            return bad(format!(
                "batch wait {} µs out of range 0..={}",
                self.batch.max_wait.as_micros(),
                Self::MAX_WAIT.as_micros()
            ));
        }
        if self.first_game.checked_add(self.games).is_none() {
            return bad("first_game + games overflows".into());
        }
        Ok(())
    }
}

/// Plays the match. `evaluator`: `None` evaluates inline on the CPU (the fast path);
/// `Some` sends every evaluation through a batching service over that back end. `stop`
/// ends the match early (running searches are cut short; their games are dropped).
/// `progress` is called on this thread about every 50 ms and once at the end.
pub fn play_games(
    config: &SelfPlayConfig,
    evaluator: Option<Arc<dyn BatchEvaluator>>,
    stop: &AtomicBool,
    mut progress: impl FnMut(&SelfPlayProgress),
) -> Result<SelfPlayReport, SelfPlayError> {
    config.validate()?;
    let service = evaluator
        .map(|e| EvalService::new(e, config.batch).map(Arc::new))
        .transpose()
        .map_err(SelfPlayError::Eval)?;
    let route = service
        .as_ref()
        .map_or(EvalRoute::Direct, |s| EvalRoute::Service(Arc::clone(s)));
    let limits = config.limit.limits();
    let options = EngineOptions {
        hash_mb: config.hash_mb,
        eval_route: route,
        evaluation: config.evaluation.clone(),
        ..EngineOptions::default()
    };
    let (plies, evaluations) = (AtomicU64::new(0), AtomicU64::new(0));
    let mut records: Vec<GameRecord> = Vec::new();
    let mut first_error: Option<SelfPlayError> = None;
    let done = Cell::new(0u64);
    let start = Instant::now();
    let report_now = |progress: &mut dyn FnMut(&SelfPlayProgress)| {
        progress(&SelfPlayProgress {
            games_done: done.get(),
            games_total: config.games,
            plies: plies.load(Ordering::Relaxed),
            evaluations: evaluations.load(Ordering::Relaxed),
            elapsed: start.elapsed(),
        });
    };

    let pool = run_indexed(
        config.games,
        config.concurrency,
        "selfplay",
        stop,
        |i, halt, register| {
            let index = config.first_game + i;
            let opening = match &config.openings {
                OpeningSource::Random(r) => random_opening(config.seed, index, r),
                OpeningSource::List(list) => list[(index % list.len() as u64) as usize].clone(),
            };
            let count = |_: &Position, _: u32, _: Move, result: &SearchResult| {
                plies.fetch_add(1, Ordering::Relaxed);
                evaluations.fetch_add(result.evaluations, Ordering::Relaxed);
                Control::Continue
            };
            let cap = config.max_plies;
            let tables = &config.tablebases;
            play_game(
                index, &opening, &options, &limits, cap, tables, halt, register, count,
            )
        },
        |event| match event {
            Event::Finished(Ok(record)) => {
                records.push(record);
                done.set(done.get() + 1);
                Flow::Continue
            }
            Event::Finished(Err(e)) => {
                first_error.get_or_insert(SelfPlayError::Engine(e));
                Flow::Halt
            }
            Event::Tick => {
                report_now(&mut progress);
                Flow::Continue
            }
        },
    );
    report_now(&mut progress);
    if let Err(WorkerFailed(what)) = pool {
        return Err(SelfPlayError::Worker(what));
    }
    if let Some(e) = first_error {
        return Err(e);
    }
    let wall = start.elapsed();
    records.sort_by_key(|r| r.index);

    let mut stats = SelfPlayStats {
        games: records.len() as u64,
        evaluations: evaluations.load(Ordering::Relaxed),
        wall,
        ..SelfPlayStats::default()
    };
    for r in &records {
        stats.plies += r.moves.len() as u64;
        stats.nodes += r.nodes;
        match r.winner {
            Some(Color::White) => stats.white_wins += 1,
            Some(Color::Black) => stats.black_wins += 1,
            None => stats.draws += 1,
        }
        if r.termination == GameTermination::Tablebase {
            stats.tablebase_adjudications += 1;
        }
    }
    match &service {
        Some(s) => {
            let st = s.stats();
            stats.batches = st.batches;
            stats.max_batch = st.max_batch;
            stats.fallbacks = s.fallbacks();
            stats.eval_error = s.first_error().map(|e| e.to_string());
            stats.evaluator = format!("{} (batched)", s.describe());
        }
        None => stats.evaluator = "cpu (inline)".into(),
    }
    let player = format!("shatranj {}", config.limit.describe());
    let chess960 = matches!(&config.openings, OpeningSource::Random(r) if r.chess960);
    let games = records
        .into_iter()
        .map(|record| SelfPlayGame {
            record,
            event: config.event.clone(),
            player: player.clone(),
            chess960,
        })
        .collect();
    Ok(SelfPlayReport {
        games,
        stats,
        interrupted: stop.load(Ordering::Relaxed) && done.get() < config.games,
    })
}

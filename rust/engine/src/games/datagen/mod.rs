//! Training data from self-play: `shatranj datagen`.
//!
//! A job is a seed and a range of game indices. Game `i` depends only on the seed, `i` and
//! the settings ([`play_game`]): a fresh one-thread engine, a random opening drawn from
//! `(seed, i)` and node-limited searches. So two machines can split one job by index range
//! and produce exactly the games one machine would have.
//!
//! The games of a job are grouped into shards of [`DatagenConfig::shard_games`] consecutive
//! indices, aligned to multiples of that size, each a file `s{seed}-{first}-{end}.sgd` in the
//! output folder ([`mod@format`] describes it). A shard is written when its last game finishes,
//! atomically (a temporary file and a rename), and `manifest.tsv` beside the shards is
//! rewritten after it with the shard's seed, index range, counts, SHA-256, the generator's
//! version and the recipe. A stop (Ctrl-C) writes every unfinished shard's finished games as
//! a partial shard of the same name; the next run of the same job reads them back and
//! plays only the missing games, so no finished game is ever lost or played twice.

mod adjudicate;
pub mod format;

pub use adjudicate::{Adjudication, GameSettings, play_game};
pub use format::{DataError, GameData, Ply, TrainingPosition, read_shard, write_shard};

use super::pool::{Event, Flow, WorkerFailed, run_indexed};
use crate::engine::{EngineError, EngineOptions};
use crate::util::{sha256_hex, write_atomically};
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The name of the manifest file in a data folder.
pub const MANIFEST: &str = "manifest.tsv";
const MANIFEST_HEADER: &str =
    "file\tseed\tfirst_game\tend_game\tgames\tpositions\tbytes\tsha256\tgenerator\trecipe";

/// A data-generation job.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Games `first_game .. first_game + games`.
    pub first_game: u64,
    pub games: u64,
    /// Games played at once, one thread each.
    pub threads: usize,
    /// Games per shard.
    pub shard_games: u64,
    pub game: GameSettings,
    /// The engine's settings (its evaluation among them); threads and hash come from `game`.
    pub engine: EngineOptions,
    /// What made the data (a version and commit), recorded in the manifest.
    pub generator: String,
    /// How the data was made, as a command line, recorded in the manifest.
    pub recipe: String,
}

impl Default for DatagenConfig {
    fn default() -> DatagenConfig {
        DatagenConfig {
            first_game: 0,
            games: 1000,
            threads: 1,
            shard_games: 1000,
            game: GameSettings::default(),
            engine: EngineOptions::default(),
            generator: format!("shatranj {}", env!("CARGO_PKG_VERSION")),
            recipe: String::new(),
        }
    }
}

/// Why a job could not run.
#[derive(Debug)]
pub enum DatagenError {
    /// A setting out of range; the text names it.
    Config(String),
    Engine(EngineError),
    /// A shard could not be read (when resuming) or written.
    Data(DataError),
    /// The manifest or the folder could not be read or written.
    Io(String),
    /// A game's thread panicked (a bug).
    Worker(String),
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::Config(what) => write!(f, "bad datagen setting: {what}"),
            DatagenError::Engine(e) => write!(f, "{e}"),
            DatagenError::Data(e) => write!(f, "{e}"),
            DatagenError::Io(what) => f.write_str(what),
            DatagenError::Worker(what) => write!(f, "datagen worker failed: {what}"),
        }
    }
}

impl std::error::Error for DatagenError {}

/// Live counters for a progress bar.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DatagenProgress {
    /// Games finished, those read back from earlier runs included.
    pub games_done: u64,
    pub games_total: u64,
    /// Training positions of the finished games.
    pub positions: u64,
    pub shards_written: u64,
    pub elapsed: Duration,
}

/// What a job did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatagenReport {
    /// Games played by this run.
    pub games_played: u64,
    /// Games found finished by earlier runs.
    pub games_resumed: u64,
    /// Training positions of the games played by this run.
    pub positions: u64,
    /// Plies of the games played by this run (all of them searched but the openings').
    pub plies: u64,
    /// Plies of the games played by this run labelled with the tables' WDL.
    pub labelled_plies: u64,
    /// Shards written by this run (complete or partial).
    pub shards: Vec<PathBuf>,
    /// Stopped before every game finished.
    pub interrupted: bool,
    pub wall: Duration,
}

/// The shards of a job: ranges of `size` consecutive indices aligned to multiples of `size`,
/// cut to `first .. first + games`.
pub fn shard_ranges(first: u64, games: u64, size: u64) -> Vec<Range<u64>> {
    let end = first.saturating_add(games);
    let mut out = Vec::new();
    let mut a = first;
    while a < end {
        let b = ((a / size) + 1).saturating_mul(size).min(end);
        out.push(a..b);
        a = b;
    }
    out
}

/// The file name of the shard of `range` in the job seeded `seed`.
pub fn shard_name(seed: u64, range: &Range<u64>) -> String {
    format!("s{seed}-{:09}-{:09}.sgd", range.start, range.end)
}

impl DatagenConfig {
    /// Games played at once, at most.
    pub const MAX_THREADS: usize = 1024;
    pub const MAX_HASH_MB: usize = 1024;

    /// Checks every setting's range: the one place they are checked (the CLI passes values
    /// through and calls this). The text of an error names the setting.
    pub fn validate(&self) -> Result<(), DatagenError> {
        let bad = |s: &str| Err(DatagenError::Config(s.into()));
        if !(1..=Self::MAX_THREADS).contains(&self.threads) {
            return bad("threads must be in 1..=1024");
        }
        if self.shard_games == 0 {
            return bad("shard size must be at least 1 game");
        }
        if self.games == 0 {
            return bad("games must be at least 1");
        }
        if self.first_game.checked_add(self.games).is_none() {
            return bad("first game + games overflows");
        }
        let g = &self.game;
        if g.soft_nodes == 0 || g.hard_nodes < g.soft_nodes {
            return bad("soft nodes must be at least 1 and hard nodes at least the soft nodes");
        }
        if g.adjudication.max_plies == 0 || g.adjudication.max_plies > u32::from(u16::MAX) {
            return bad("max plies must be in 1..=65535");
        }
        if g.openings.plies > 64 {
            return bad("random opening plies must be at most 64");
        }
        if !(1..=32).contains(&g.openings.balance_depth) {
            return bad("the balance depth must be in 1..=32");
        }
        if !(1..=Self::MAX_HASH_MB).contains(&g.hash_mb) {
            return bad("hash must be in 1..=1024 MiB");
        }
        if g.tablebase_labels && g.tablebases.cardinality() == 0 {
            return bad("tablebase labels need Syzygy tables (a path with tables in it)");
        }
        Ok(())
    }
}

/// One shard being filled.
struct Pending {
    range: Range<u64>,
    path: PathBuf,
    games: BTreeMap<u64, GameData>,
    /// Games added by this run.
    fresh: u64,
}

impl Pending {
    fn is_complete(&self) -> bool {
        self.games.len() as u64 == self.range.end - self.range.start
    }
}

/// Runs the job, writing shards into `dir` (made if missing). `stop` ends it early (the
/// games under way are dropped, finished ones written); `progress` is called on this thread
/// after each finished game, at least every 100 ms, and once at the end.
pub fn generate(
    config: &DatagenConfig,
    dir: &Path,
    stop: &AtomicBool,
    mut progress: impl FnMut(&DatagenProgress),
) -> Result<DatagenReport, DatagenError> {
    config.validate()?;
    std::fs::create_dir_all(dir)
        .map_err(|e| DatagenError::Io(format!("cannot make {}: {e}", dir.display())))?;
    let start = Instant::now();
    let seed = config.game.seed;

    // Read back what earlier runs of this job finished.
    let mut pending: Vec<Pending> = Vec::new();
    let mut resumed = 0u64;
    let mut resumed_positions = 0u64;
    let mut todo: Vec<u64> = Vec::new();
    for range in shard_ranges(config.first_game, config.games, config.shard_games) {
        let path = dir.join(shard_name(seed, &range));
        let mut games = BTreeMap::new();
        if path.exists() {
            for g in read_shard(&path).map_err(DatagenError::Data)? {
                if range.contains(&g.index) {
                    resumed_positions += g.training_count() as u64;
                    games.insert(g.index, g);
                }
            }
        }
        resumed += games.len() as u64;
        todo.extend(range.clone().filter(|i| !games.contains_key(i)));
        let p = Pending {
            range,
            path,
            games,
            fresh: 0,
        };
        if !p.is_complete() {
            pending.push(p);
        }
    }

    let mut report = DatagenReport {
        games_played: 0,
        games_resumed: resumed,
        positions: 0,
        plies: 0,
        labelled_plies: 0,
        shards: Vec::new(),
        interrupted: false,
        wall: Duration::ZERO,
    };
    let mut failure: Option<DatagenError> = None;
    let mut shards_written = 0u64;

    let pool = run_indexed(
        todo.len() as u64,
        config.threads,
        "datagen",
        stop,
        |i, halt, register| {
            play_game(
                todo[i as usize],
                &config.game,
                &config.engine,
                halt,
                register,
            )
        },
        |event| {
            match event {
                Event::Finished(Ok(g)) => {
                    report.games_played += 1;
                    report.positions += g.training_count() as u64;
                    report.plies += g.plies.len() as u64;
                    report.labelled_plies +=
                        g.plies.iter().filter(|p| p.wdl.is_some()).count() as u64;
                    if let Some(p) = pending.iter_mut().find(|p| p.range.contains(&g.index)) {
                        p.games.insert(g.index, g);
                        p.fresh += 1;
                        if p.is_complete() && failure.is_none() {
                            match flush(p, config, dir) {
                                Ok(()) => {
                                    report.shards.push(p.path.clone());
                                    shards_written += 1;
                                    p.fresh = 0;
                                }
                                Err(e) => failure = Some(e),
                            }
                        }
                    }
                }
                Event::Finished(Err(e)) => {
                    failure.get_or_insert(DatagenError::Engine(e));
                }
                Event::Tick => progress(&DatagenProgress {
                    games_done: resumed + report.games_played,
                    games_total: config.games,
                    positions: resumed_positions + report.positions,
                    shards_written,
                    elapsed: start.elapsed(),
                }),
            }
            if failure.is_some() {
                Flow::Halt
            } else {
                Flow::Continue
            }
        },
    );

    // Unfinished shards keep their finished games (the next run completes them).
    for p in pending
        .iter_mut()
        .filter(|p| p.fresh > 0 && !p.is_complete())
    {
        match flush(p, config, dir) {
            Ok(()) => {
                report.shards.push(p.path.clone());
                shards_written += 1;
            }
            Err(e) => {
                failure.get_or_insert(e);
            }
        }
    }
    report.wall = start.elapsed();
    report.interrupted = resumed + report.games_played < config.games;
    progress(&DatagenProgress {
        games_done: resumed + report.games_played,
        games_total: config.games,
        positions: resumed_positions + report.positions,
        shards_written,
        elapsed: report.wall,
    });
    if let Err(WorkerFailed(what)) = pool {
        return Err(DatagenError::Worker(what));
    }
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(report)
}

/// Writes a shard's games and its manifest line.
fn flush(p: &Pending, config: &DatagenConfig, dir: &Path) -> Result<(), DatagenError> {
    let games: Vec<GameData> = p.games.values().cloned().collect();
    let bytes = write_shard(&p.path, &games).map_err(DatagenError::Data)?;
    let positions: usize = games.iter().map(GameData::training_count).sum();
    let file = p
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let line = [
        file.clone(),
        config.game.seed.to_string(),
        p.range.start.to_string(),
        p.range.end.to_string(),
        games.len().to_string(),
        positions.to_string(),
        bytes.len().to_string(),
        sha256_hex(&bytes),
        config.generator.replace(['\t', '\n'], " "),
        config.recipe.replace(['\t', '\n'], " "),
    ]
    .join("\t");
    update_manifest(dir, &file, &line)
}

/// Sets the manifest line of `file`, keeping the others (sorted by file name).
fn update_manifest(dir: &Path, file: &str, line: &str) -> Result<(), DatagenError> {
    let path = dir.join(MANIFEST);
    let io = |e: std::io::Error| DatagenError::Io(format!("{}: {e}", path.display()));
    let mut rows: BTreeMap<String, String> = BTreeMap::new();
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            for l in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
                let name = l.split('\t').next().unwrap_or("").to_string();
                rows.insert(name, l.to_string());
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(e)),
    }
    rows.insert(file.to_string(), line.to_string());
    let mut text = String::from(MANIFEST_HEADER);
    text.push('\n');
    for l in rows.values() {
        text.push_str(l);
        text.push('\n');
    }
    write_atomically(&path, text.as_bytes()).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::opening::RandomOpenings;
    use std::sync::atomic::Ordering;

    #[test]
    fn shards_are_aligned_ranges() {
        assert_eq!(shard_ranges(0, 5, 2), vec![0..2, 2..4, 4..5]);
        assert_eq!(shard_ranges(3, 6, 4), vec![3..4, 4..8, 8..9]);
        assert_eq!(shard_ranges(8, 4, 4), vec![8..12]);
        assert_eq!(shard_name(7, &(4..8)), "s7-000000004-000000008.sgd");
    }

    fn tiny(games: u64, threads: usize) -> DatagenConfig {
        DatagenConfig {
            first_game: 2,
            games,
            threads,
            shard_games: 2,
            game: GameSettings {
                seed: 5,
                soft_nodes: 200,
                hard_nodes: 2000,
                hash_mb: 1,
                openings: RandomOpenings {
                    balance_depth: 1,
                    ..GameSettings::default().openings
                },
                adjudication: Adjudication {
                    max_plies: 40,
                    ..Adjudication::default()
                },
                ..GameSettings::default()
            },
            recipe: "test".into(),
            ..DatagenConfig::default()
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("shatranj-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// The same job gives the same bytes with one thread or two, and a second run of a
    /// finished job plays nothing.
    #[test]
    fn a_job_is_deterministic_and_resumable() {
        let (a, b) = (temp_dir("datagen-a"), temp_dir("datagen-b"));
        let stop = AtomicBool::new(false);
        let one = generate(&tiny(5, 1), &a, &stop, |_| {}).unwrap();
        assert_eq!(one.games_played, 5);
        assert!(!one.interrupted);
        // Games 2..7 with shards aligned to 2: 2..4, 4..6, 6..7.
        assert_eq!(one.shards.len(), 3);
        generate(&tiny(5, 2), &b, &stop, |_| {}).unwrap();
        for name in [
            "s5-000000002-000000004.sgd",
            "s5-000000006-000000007.sgd",
            MANIFEST,
        ] {
            assert_eq!(
                std::fs::read(a.join(name)).unwrap(),
                std::fs::read(b.join(name)).unwrap(),
                "{name}"
            );
        }
        let games = read_shard(&a.join("s5-000000004-000000006.sgd")).unwrap();
        assert_eq!(
            games.iter().map(|g| g.index).collect::<Vec<_>>(),
            vec![4, 5]
        );
        let manifest = std::fs::read_to_string(a.join(MANIFEST)).unwrap();
        assert_eq!(manifest.lines().count(), 4);
        let row: Vec<&str> = manifest.lines().nth(2).unwrap().split('\t').collect();
        assert_eq!(row[..5], ["s5-000000004-000000006.sgd", "5", "4", "6", "2"]);
        let bytes = std::fs::read(a.join(row[0])).unwrap();
        assert_eq!(row[7], sha256_hex(&bytes));

        let again = generate(&tiny(5, 2), &a, &stop, |_| {}).unwrap();
        assert_eq!((again.games_played, again.games_resumed), (0, 5));
        std::fs::remove_dir_all(&a).unwrap();
        std::fs::remove_dir_all(&b).unwrap();
    }

    /// A stop keeps the finished games in partial shards, and the next run plays only the
    /// rest, ending with the same shards as an uninterrupted run.
    #[test]
    fn an_interrupted_job_loses_no_game() {
        let (full, cut) = (temp_dir("datagen-full"), temp_dir("datagen-cut"));
        let stop = AtomicBool::new(false);
        generate(&tiny(4, 1), &full, &stop, |_| {}).unwrap();
        let halt = AtomicBool::new(false);
        let first = generate(&tiny(4, 1), &cut, &halt, |p| {
            if p.games_done >= 1 {
                halt.store(true, Ordering::Relaxed);
            }
        })
        .unwrap();
        assert!(first.interrupted);
        assert!(first.games_played >= 1 && first.games_played < 4);
        let rest = generate(&tiny(4, 1), &cut, &stop, |_| {}).unwrap();
        assert_eq!(rest.games_resumed, first.games_played);
        assert_eq!(rest.games_resumed + rest.games_played, 4);
        for name in ["s5-000000002-000000004.sgd", "s5-000000004-000000006.sgd"] {
            assert_eq!(
                std::fs::read(full.join(name)).unwrap(),
                std::fs::read(cut.join(name)).unwrap(),
                "{name}"
            );
        }
        std::fs::remove_dir_all(&full).unwrap();
        std::fs::remove_dir_all(&cut).unwrap();
    }

    #[test]
    fn bad_settings_are_refused() {
        let dir = temp_dir("datagen-bad");
        let stop = AtomicBool::new(false);
        for (config, needle) in [
            (
                DatagenConfig {
                    threads: 0,
                    ..tiny(1, 1)
                },
                "threads",
            ),
            (
                DatagenConfig {
                    shard_games: 0,
                    ..tiny(1, 1)
                },
                "shard",
            ),
            (
                DatagenConfig {
                    games: 0,
                    ..tiny(1, 1)
                },
                "games",
            ),
            (
                DatagenConfig {
                    threads: DatagenConfig::MAX_THREADS + 1,
                    ..tiny(1, 1)
                },
                "threads",
            ),
        ] {
            let e = generate(&config, &dir, &stop, |_| {})
                .unwrap_err()
                .to_string();
            assert!(e.contains(needle), "{e}");
        }
        // The game settings' ranges, checked by the same one function.
        #[allow(clippy::items_after_statements)] // the type belongs with its table
        type Spoil = fn(&mut GameSettings);
        let game_cases: [(Spoil, &str); 5] = [
            (|g| g.openings.plies = 65, "opening plies"),
            (|g| g.openings.balance_depth = 0, "balance depth"),
            (|g| g.openings.balance_depth = 33, "balance depth"),
            (|g| g.hash_mb = 0, "hash"),
            (|g| g.adjudication.max_plies = 65_536, "max plies"),
        ];
        for (spoil, needle) in game_cases {
            let mut c = tiny(1, 1);
            spoil(&mut c.game);
            let e = c.validate().unwrap_err().to_string();
            assert!(e.contains(needle), "{e}");
        }
        assert!(tiny(1, 1).validate().is_ok());
        let mut c = tiny(1, 1);
        c.game.hard_nodes = 10;
        assert!(generate(&c, &dir, &stop, |_| {}).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

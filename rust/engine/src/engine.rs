//! The library face of the engine: [`Engine`] owns the transposition table and settings and
//! runs searches; [`StopHandle`] stops them from another thread.

use crate::eval::{EvalRoute, Evaluation};
use crate::in_progress::MovesInProgress;
use crate::limits::Limits;
use crate::ordering::Heuristics;
use crate::score::{MATE_BOUND, Score, Value};
use crate::search::{RootMove, SearchContext};
use crate::syzygy::{RootRanking, SyzygySettings, rank_root};
use crate::threads::{Progress, SharedState, Signals, lazy_smp};
use crate::time::TimeManager;
use crate::tt::{TranspositionTable, TtError};
use shatranj_chess::{History, Move, Position};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The most search threads an engine accepts.
pub const MAX_THREADS: usize = 256;

/// Settings fixed when an engine is made (and changeable between searches).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads, 1 ..= [`MAX_THREADS`].
    pub threads: usize,
    /// Transposition table size in MiB, 1 ..= [`crate::tt::MAX_HASH_MB`].
    pub hash_mb: usize,
    /// Time kept back per move for communication delays.
    pub move_overhead: Duration,
    /// Where the search's static evaluations go.
    pub eval_route: EvalRoute,
    /// The static evaluation: classical or a network.
    pub evaluation: Evaluation,
    /// Endgame tablebases and how the search uses them (none by default).
    pub syzygy: SyzygySettings,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            threads: 1,
            hash_mb: 16,
            move_overhead: Duration::from_millis(10),
            eval_route: EvalRoute::Direct,
            evaluation: Evaluation::default(),
            syzygy: SyzygySettings::default(),
        }
    }
}

/// Why an engine could not be made or reconfigured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The thread count is outside 1 ..= [`MAX_THREADS`].
    Threads { requested: usize, max: usize },
    /// The hash table could not be made.
    Hash(TtError),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Threads { requested, max } => {
                write!(f, "thread count {requested} is out of range (1..={max})")
            }
            EngineError::Hash(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// The position to search and the positions of the game before it (their Polyglot keys,
/// oldest first), so repetitions of earlier positions are seen as draws.
#[derive(Clone, Debug)]
pub struct SearchRoot {
    pub position: Position,
    pub previous_keys: Vec<u64>,
}

impl From<Position> for SearchRoot {
    fn from(position: Position) -> SearchRoot {
        SearchRoot {
            position,
            previous_keys: Vec::new(),
        }
    }
}

impl From<&History> for SearchRoot {
    fn from(history: &History) -> SearchRoot {
        let mut pos = *history.start();
        let mut previous_keys = Vec::with_capacity(history.moves().len());
        for &m in history.moves() {
            previous_keys.push(pos.key());
            pos.play_unchecked(m);
        }
        SearchRoot {
            position: pos,
            previous_keys,
        }
    }
}

/// One principal variation as reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    /// 1 for the best line, 2 for the second, …
    pub multipv: usize,
    pub score: Score,
    pub pv: Vec<Move>,
}

/// Progress reported after each completed line of each iteration (UCI `info`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: Score,
    /// Nodes of all threads.
    pub nodes: u64,
    pub nps: u64,
    /// Permille of the table used by this search.
    pub hashfull: u32,
    /// Tablebase probes that answered, the root's included (UCI `tbhits`).
    pub tbhits: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the root has no legal move (mate or stalemate).
    pub best_move: Option<Move>,
    /// The expected reply, if the principal variation has one.
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
    /// The best lines, best first (as many as `Limits::multipv` asked for).
    pub lines: Vec<PvLine>,
    /// Static evaluations computed by all threads (table hits excluded).
    pub evaluations: u64,
    /// Tablebase probes that answered, the root's included.
    pub tbhits: u64,
}

/// Stops a running search from any thread; cheap to clone.
#[derive(Clone, Debug, Default)]
pub struct StopHandle {
    inner: Arc<Signals>,
}

impl StopHandle {
    /// Stops the running search (or the one about to start after [`StopHandle::arm`]); it
    /// returns its best move so far. Without a search this does nothing.
    pub fn stop(&self) {
        self.inner.stop.store(true, Ordering::SeqCst);
    }

    /// Declares that a search is about to start, so a `stop` sent before it begins is kept
    /// rather than ignored (the UCI loop arms before handing the search to its thread).
    pub fn arm(&self) {
        if !self.inner.armed.swap(true, Ordering::SeqCst) {
            self.inner.stop.store(false, Ordering::SeqCst);
            self.inner.ponderhit.store(false, Ordering::SeqCst);
        }
    }

    /// The opponent played the expected move: pondering turns into a normal timed search.
    pub fn ponderhit(&self) {
        self.inner.ponderhit.store(true, Ordering::SeqCst);
    }

    pub fn is_stopped(&self) -> bool {
        self.inner.stop.load(Ordering::Relaxed)
    }

    fn disarm(&self) {
        self.inner.armed.store(false, Ordering::SeqCst);
        self.inner.stop.store(false, Ordering::SeqCst);
        self.inner.ponderhit.store(false, Ordering::SeqCst);
    }
}

/// A chess engine: a transposition table, settings, and the search.
///
/// See the crate documentation for an example.
pub struct Engine {
    options: EngineOptions,
    tt: TranspositionTable,
    /// No search has written to the table since it was made or cleared. Clearing it again
    /// would change nothing but would have the operating system supply every page of it
    /// (seconds for gigabytes): a GUI's `setoption Hash` then `ucinewgame` stays instant.
    tt_untouched: bool,
    /// Each search thread's move-ordering statistics (butterfly, continuation and
    /// counter-move tables). Kept from one search to the next, like the table: the next
    /// move's search starts with what this one learned. [`Engine::new_game`] forgets them.
    histories: Vec<Heuristics>,
    stop: StopHandle,
}

impl Engine {
    pub fn new(options: EngineOptions) -> Result<Engine, EngineError> {
        check_threads(options.threads)?;
        let tt = TranspositionTable::new(options.hash_mb).map_err(EngineError::Hash)?;
        Ok(Engine {
            options,
            tt,
            tt_untouched: true,
            histories: Vec::new(),
            stop: StopHandle::default(),
        })
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Changes the thread count (between searches).
    pub fn set_threads(&mut self, threads: usize) -> Result<(), EngineError> {
        check_threads(threads)?;
        self.options.threads = threads;
        Ok(())
    }

    /// Replaces the table with one of `mb` MiB (its contents are lost). An out-of-range size
    /// changes nothing; if the allocation itself fails, a 1 MiB table remains.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), EngineError> {
        let max = crate::tt::max_hash_mb();
        if !(1..=max).contains(&mb) {
            return Err(EngineError::Hash(TtError::Size { mb, max }));
        }
        // Free the old table first so the peak is one table, not two.
        self.tt = TranspositionTable::new(1).map_err(EngineError::Hash)?;
        self.options.hash_mb = 1;
        self.tt_untouched = true;
        self.tt = TranspositionTable::new(mb).map_err(EngineError::Hash)?;
        self.options.hash_mb = mb;
        Ok(())
    }

    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.options.move_overhead = overhead;
    }

    /// Changes the static evaluation of later searches (between searches). The table is
    /// cleared when it changes: its entries hold the old evaluation's numbers.
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        if evaluation != self.options.evaluation {
            self.options.evaluation = evaluation;
            self.clear_tt();
        }
    }

    /// Changes the tablebases and how the search uses them (between searches). The table is
    /// cleared when the tables change: its entries may hold tablebase scores from the old
    /// ones, or evaluations where the new ones know better.
    pub fn set_syzygy(&mut self, syzygy: SyzygySettings) {
        if syzygy != self.options.syzygy {
            self.options.syzygy = syzygy;
            self.clear_tt();
        }
    }

    /// Routes the static evaluations of later searches (between searches).
    pub fn set_eval_route(&mut self, route: EvalRoute) {
        self.options.eval_route = route;
    }

    /// Evaluations that went to the CPU because the batching service failed.
    pub fn eval_fallbacks(&self) -> u64 {
        match &self.options.eval_route {
            EvalRoute::Direct => 0,
            EvalRoute::Service(s) => s.fallbacks(),
        }
    }

    /// Forgets every stored search result (the table; the move-ordering statistics stay).
    pub fn clear_hash(&mut self) {
        self.clear_tt();
    }

    fn clear_tt(&mut self) {
        if !self.tt_untouched {
            self.tt.renew();
            self.tt_untouched = true;
        }
    }

    /// Forgets everything earlier searches learned: the table and the move-ordering
    /// statistics. A search after it depends only on its position and limits (with one
    /// thread it is deterministic), as at a new game (UCI `ucinewgame`).
    pub fn new_game(&mut self) {
        self.clear_tt();
        self.histories.clear();
    }

    /// A handle that stops this engine's searches from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    /// The static evaluation of `pos`, centipawns from the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.options.evaluation.evaluate(pos)
    }

    /// Searches `root` within `limits`, calling `on_info` from this thread after each
    /// completed line of each iteration. Blocks until done or stopped.
    pub fn search(
        &mut self,
        root: impl Into<SearchRoot>,
        limits: &Limits,
        mut on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        let root = root.into();
        self.stop.arm();
        // Within the tables, only the moves that keep their best outcome are searched.
        let ranking = rank_root(
            &self.options.syzygy,
            &root.position,
            &root.previous_keys,
            &limits.searchmoves,
        );
        let narrowed;
        let limits = match &ranking {
            Some(r) => {
                narrowed = Limits {
                    searchmoves: r.moves.clone(),
                    ..limits.clone()
                };
                &narrowed
            }
            None => limits,
        };
        let root_probes = ranking.as_ref().map_or(0, |r| r.probes);
        let shared = SharedState {
            stop: AtomicBool::new(false),
            ponder: limits.ponder,
            signals: Arc::clone(&self.stop.inner),
            fills_every_core: std::thread::available_parallelism()
                .is_ok_and(|cores| self.options.threads >= cores.get()),
            nodes: (0..self.options.threads)
                .map(|_| AtomicU64::new(0))
                .collect(),
            completed_depth: AtomicI32::new(0),
            deepest: Mutex::new((0, Vec::new())),
            in_progress: (self.options.threads > 1).then(MovesInProgress::default),
            evaluation: self.options.evaluation.clone(),
            service: match &self.options.eval_route {
                EvalRoute::Direct => None,
                EvalRoute::Service(s) => Some(Arc::clone(s)),
            },
            // With the root ranked by DTZ, no line can change the outcome the ranking keeps:
            // probes below it would cost time and tell nothing (as in Stockfish). Ranked by
            // WDL alone, a won root still probes, to find the way to convert.
            syzygy: match &ranking {
                Some(r) if r.by_dtz || r.score <= 0 => None,
                _ => self.options.syzygy.for_search(),
            },
            tb_hits: AtomicU64::new(root_probes),
        };
        let time = TimeManager::new(limits, root.position.turn(), self.options.move_overhead);
        self.tt.new_search();
        self.tt_untouched = false;
        let tt = &self.tt;
        let threads = self.options.threads;

        let reported_nodes = std::cell::Cell::new(0);
        let mut report = |p: Progress<'_>| {
            let nodes = shared.total_nodes();
            reported_nodes.set(nodes);
            let elapsed = time.elapsed();
            let info = SearchInfo {
                depth: p.depth as u32,
                seldepth: p.line.seldepth as u32,
                multipv: p.multipv,
                score: Score::from_value(tablebase_score(ranking.as_ref(), p.line.score)),
                nodes,
                nps: nps(nodes, elapsed),
                hashfull: tt.hashfull(),
                tbhits: shared.tb_hits.load(Ordering::Relaxed),
                time: elapsed,
                pv: p.line.pv.clone(),
            };
            on_info(&info);
        };
        let ctx = SearchContext {
            shared: &shared,
            tt,
            time: &time,
            limits,
            previous_keys: &root.previous_keys,
            root: &root.position,
        };
        self.histories.resize_with(threads, Heuristics::default);
        let outcome = lazy_smp(threads, ctx, &mut self.histories, &mut report);
        self.stop.disarm();
        // A search stopped inside an iteration last reported when the one before it ended:
        // say once more what it settled on, with the whole search's nodes and time, as
        // Stockfish does on a stop. A GUI's count then matches the search behind `bestmove`,
        // and a match runner's latency (its time less the engine's) measures the pipe, not
        // the unfinished iteration.
        if shared.total_nodes() > reported_nodes.get() {
            let finals: Vec<(usize, &RootMove)> = if limits.multipv <= 1 {
                outcome.best.iter().map(|rm| (1, rm)).collect()
            } else {
                outcome
                    .lines
                    .iter()
                    .enumerate()
                    .map(|(i, rm)| (i + 1, rm))
                    .collect()
            };
            for (multipv, line) in finals {
                report(Progress {
                    depth: outcome.depth.max(1),
                    multipv,
                    line,
                });
            }
        }

        let nodes = shared.total_nodes();
        let lines: Vec<PvLine> = outcome
            .lines
            .iter()
            .enumerate()
            .map(|(i, rm)| PvLine {
                multipv: i + 1,
                score: Score::from_value(tablebase_score(ranking.as_ref(), rm.score)),
                pv: rm.pv.clone(),
            })
            .collect();
        let best: Option<&RootMove> = outcome.best.as_ref();
        let score = match best {
            Some(rm) => Score::from_value(tablebase_score(ranking.as_ref(), rm.score)),
            None if root.position.is_check() => Score::Mate(0),
            None => Score::Cp(0),
        };
        SearchResult {
            best_move: best.map(|rm| rm.mv),
            ponder: best.and_then(|rm| rm.pv.get(1).copied()),
            score,
            depth: outcome.depth.max(0) as u32,
            seldepth: outcome.seldepth as u32,
            nodes,
            time: time.elapsed(),
            pv: best.map(|rm| rm.pv.clone()).unwrap_or_default(),
            lines,
            evaluations: outcome.evaluations,
            tbhits: shared.tb_hits.load(Ordering::Relaxed),
        }
    }

    /// Permille of the table written by the last search.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }
}

/// The score reported for a searched line: within the tables, their value for the root
/// unless the search found a mate (which says more: how soon).
fn tablebase_score(ranking: Option<&RootRanking>, searched: Value) -> Value {
    match ranking {
        Some(r) if searched.abs() < MATE_BOUND => r.score,
        _ => searched,
    }
}

fn check_threads(threads: usize) -> Result<(), EngineError> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(())
    } else {
        Err(EngineError::Threads {
            requested: threads,
            max: MAX_THREADS,
        })
    }
}

/// Nodes per second, without dividing by zero.
pub fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let us = elapsed.as_micros().max(1);
    (u128::from(nodes) * 1_000_000 / us) as u64
}

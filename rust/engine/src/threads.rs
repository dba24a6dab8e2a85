//! Lazy SMP: every thread runs its own iterative deepening on the shared transposition
//! table; they help each other through the entries they leave there. The main thread owns
//! the clock and the output; when it is done it stops the helpers, and the move played is
//! chosen by a vote over the threads, weighted by score and completed depth.
//!
//! Helpers skip depths (Stockfish 8's pattern) so that the threads work on different
//! iterations, and no thread finishes an iteration another has already completed: as soon as
//! one thread completes depth `d`, every thread still inside an iteration of depth `≤ d`
//! abandons it, takes that thread's root lines ([`SharedState::deepest`]) as its own result
//! for `d`, and starts on a deeper one. Without this, the main thread (which searches every
//! depth) spent about half its time repeating the helper's current iteration; with it, two
//! threads leapfrog each other (one on `d`, the other on `d + 1`).
//!
//! Where two threads do meet in the same node (at depth ≥ [`crate::search::params::ABDADA_MIN_DEPTH`]),
//! each leaves the moves the other is inside for last ([`crate::in_progress`], simplified
//! ABDADA), so they split the node's moves instead of searching them in the same order.
//! And a thread inside a node that the other has meanwhile finished (its table entry now cuts
//! the node off) leaves it at once with that result, instead of finishing its own moves there
//! ([`crate::search`], `Searcher::resolved_ancestor`). Paired against the search without
//! it, two threads reached depth 21 1.044×, 1.001× and 1.049× as fast (60, 60 and 120
//! positions; 1.036× pooled, not significant alone), with fewer nodes in every run.
//!
//! A helper that skipped depth `d` starts `d + 1` with a root window around its own score
//! for `d - 1`. When another thread completes `d` with a score outside that window, the
//! helper restarts `d + 1` around that score, in that iteration's move order
//! (`Searcher::aspiration`). Paired against the search without it, two threads reached
//! depth 21 1.047× and 1.054× as fast (120 and 60 positions; 1.050× pooled, 95% interval
//! 1.00–1.11).
//!
//! Two threads against one on a 2-core machine (geometric means of the per-position time to
//! depth ratios, benchmarks/RESULTS.md): about 1.5× with neither; with both, about 1.66× to
//! depth 20 (some 720 paired searches), 1.68× to depth 22 (240) and 1.66× to depth 21 (60);
//! with the window restart as well, 1.75× over 180 searches to depths 21 and 22 (95%
//! interval 1.67–1.85), on positions where it had been 1.56–1.66×.
//! Inside one search the depths the helper searches arrive about 1.6–1.7× sooner, the ones it
//! skips, where the main thread is alone, only about 1.3–1.4×: on those the main thread needs
//! as many nodes as one thread does, because the helper, a depth deeper and so slower, walks
//! the same tree behind it. Stockfish 15.1's lazy SMP on the same positions: 1.2–1.3×.

use crate::eval::EvalService;
use crate::eval::Evaluation;
use crate::in_progress::MovesInProgress;
use crate::ordering::Heuristics;
use crate::score::{MATE_BOUND, MAX_PLY, Value};
use crate::search::{Role, RootMove, SearchContext, Searcher};
use crate::syzygy::SearchProbe;
use shatranj_chess::Move;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the outside world tells a search while it runs (through
/// [`crate::engine::StopHandle`]). Every search thread reads these flags directly, so no
/// thread has to poll and relay them: on a machine with as many cores as search threads a
/// polling thread would take turns with the searchers thousands of times a second.
#[derive(Debug, Default)]
pub struct Signals {
    /// `stop`: end the search and answer.
    pub stop: AtomicBool,
    /// A search is running or about to start: a `stop` now is meant for it.
    pub armed: AtomicBool,
    /// `ponderhit`: pondering turns into a normal timed search.
    pub ponderhit: AtomicBool,
}

/// State every search thread reads: the stop flag, pondering, node counters, the weights.
pub struct SharedState {
    /// Set once to stop every thread (by the clock, the node limit or a finishing helper).
    pub stop: AtomicBool,
    /// The search began as pondering (`go ponder`); it ponders until `ponderhit`
    /// ([`SharedState::pondering`]).
    pub ponder: bool,
    /// `stop` and `ponderhit` from outside.
    pub signals: Arc<Signals>,
    /// There are at least as many search threads as cores. Then the thread that reads `stop`
    /// waits for a core until a search thread's scheduler slice ends (`stop` → `bestmove`
    /// took 2–4 ms, up to 8.4 ms, on a 2-core Linux machine with 2 threads), so the search
    /// threads yield every 1024 nodes (one cheap system call per ~1.7 ms; `stop` then
    /// answers within 1.5 ms). With a core to spare nothing waits, and nothing yields.
    pub fills_every_core: bool,
    /// Nodes per thread, published every 1024 nodes.
    pub nodes: Vec<AtomicU64>,
    /// The deepest iteration any thread has completed: threads skip or abandon the depths
    /// up to it.
    pub completed_depth: AtomicI32,
    /// The depth and root lines (best first) of the deepest iteration completed so far, for
    /// the threads that abandon theirs. Locked once per completed iteration.
    pub deepest: Mutex<(i32, Vec<RootMove>)>,
    /// The moves threads are inside right now (only with more than one thread).
    pub in_progress: Option<MovesInProgress>,
    /// The static evaluation (when not through the service).
    pub evaluation: Evaluation,
    /// The batching service static evaluations go through; `None`: the CPU, inline.
    pub service: Option<Arc<EvalService>>,
    /// The tablebases the search probes, if any (see [`crate::syzygy`]).
    pub(crate) syzygy: Option<SearchProbe>,
    /// Tablebase probes that answered, all threads together (UCI `tbhits`).
    pub tb_hits: AtomicU64,
}

impl SharedState {
    /// Whether the search must end now: stopped from outside or from inside.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.signals.stop.load(Ordering::Relaxed)
    }

    /// Whether the search is still pondering (no time limit applies): until `ponderhit`.
    #[inline]
    pub fn pondering(&self) -> bool {
        self.ponder && !self.signals.ponderhit.load(Ordering::Relaxed)
    }

    /// Records `lines` as those of the deepest completed iteration if `depth` is deeper than
    /// the one recorded. Called before `completed_depth` is raised, so a thread that sees the
    /// raised depth usually finds the lines too ([`SharedState::take_deepest`] checks).
    pub fn publish_deepest(&self, depth: i32, lines: &[RootMove]) {
        let mut deepest = self
            .deepest
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if deepest.0 < depth {
            deepest.0 = depth;
            deepest.1.clear();
            deepest.1.extend_from_slice(lines);
        }
    }

    /// Copies into `lines` the lines of the deepest completed iteration and returns its
    /// depth, if it is at least `depth` (and has as many root moves); otherwise leaves
    /// `lines` alone.
    pub fn take_deepest(&self, depth: i32, lines: &mut Vec<RootMove>) -> Option<i32> {
        let deepest = self
            .deepest
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if deepest.0 < depth || deepest.1.len() != lines.len() {
            return None;
        }
        lines.clone_from(&deepest.1);
        Some(deepest.0)
    }

    /// The best score of the deepest completed iteration, if that iteration is `depth`.
    pub fn best_score_at(&self, depth: i32) -> Option<Value> {
        let deepest = self
            .deepest
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (deepest.0 == depth)
            .then(|| deepest.1.first().map(|line| line.score))
            .flatten()
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

#[cfg(test)]
impl SharedState {
    /// The state of a search with `threads` threads, none started, for unit tests.
    pub(crate) fn for_tests(threads: usize) -> SharedState {
        SharedState {
            stop: AtomicBool::new(false),
            ponder: false,
            signals: Arc::default(),
            fills_every_core: false,
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            completed_depth: AtomicI32::new(0),
            deepest: Mutex::new((0, Vec::new())),
            in_progress: None,
            evaluation: Evaluation::default(),
            service: None,
            syzygy: None,
            tb_hits: AtomicU64::new(0),
        }
    }
}

/// What the threads found, after the vote.
pub struct SmpOutcome {
    /// The chosen line (the voted thread's best root move).
    pub best: Option<RootMove>,
    /// The main thread's lines, best first (`MultiPV`).
    pub lines: Vec<RootMove>,
    pub depth: i32,
    pub seldepth: usize,
    /// Static evaluations of all threads.
    pub evaluations: u64,
}

/// Progress of the main thread: one completed line of one iteration.
pub struct Progress<'a> {
    pub depth: i32,
    pub multipv: usize,
    pub line: &'a RootMove,
}

/// Runs a lazy-SMP search with `threads` threads (the caller's thread is the main one).
/// Thread `i` orders its moves with `histories[i]` and leaves what it learned there: the
/// statistics outlive the search, as the next move's search starts where this one ended.
pub fn lazy_smp(
    threads: usize,
    ctx: SearchContext<'_>,
    histories: &mut [Heuristics],
    report: &mut dyn FnMut(Progress<'_>),
) -> SmpOutcome {
    assert!(histories.len() >= threads, "one history per thread");
    let (shared, limits, root) = (ctx.shared, ctx.limits, ctx.root);
    let max_depth = limits.depth.map_or(MAX_PLY as i32 - 1, |d| {
        (d as i32).clamp(1, MAX_PLY as i32 - 1)
    });
    let (main_history, helper_histories) = histories.split_first_mut().expect("a thread");
    std::thread::scope(|s| {
        let helpers: Vec<_> = helper_histories[..threads - 1]
            .iter_mut()
            .enumerate()
            .map(|(i, history)| {
                s.spawn(move || {
                    let mut helper = Searcher::new(Role::Helper, i + 1, ctx);
                    std::mem::swap(&mut helper.heur, history);
                    helper.iterative_deepening(root, max_depth, &mut |_, _, _| {});
                    helper.flush_nodes();
                    std::mem::swap(&mut helper.heur, history);
                    (
                        (helper.root_moves.first().cloned(), helper.completed_depth),
                        helper.eval.evaluations(),
                    )
                })
            })
            .collect();

        let _stop_helpers = StopOnDrop(&shared.stop);
        let mut main = Searcher::new(Role::Main, 0, ctx);
        std::mem::swap(&mut main.heur, main_history);
        main.iterative_deepening(root, max_depth, &mut |searcher, pv_index, depth| {
            main_report(searcher, pv_index, depth, report);
        });
        main.flush_nodes();
        std::mem::swap(&mut main.heur, main_history);
        // `go infinite` and pondering may not answer before being told to.
        while !shared.stopped() && (limits.infinite || shared.pondering()) {
            std::thread::sleep(Duration::from_micros(500));
        }
        shared.stop.store(true, Ordering::Relaxed);

        let mut results = vec![(main.root_moves.first().cloned(), main.completed_depth)];
        let mut evaluations = main.eval.evaluations();
        for h in helpers {
            // A helper that panicked contributes nothing; the main thread's result stands.
            if let Ok((r, evals)) = h.join() {
                results.push(r);
                evaluations += evals;
            }
        }
        let voted = vote(&results);
        // The deepest iteration any thread completed: a helper ends a `go depth N` search
        // when it gets there before the main thread.
        let depth = results
            .iter()
            .filter(|(rm, _)| rm.is_some())
            .map(|&(_, d)| d)
            .max()
            .unwrap_or(main.completed_depth);
        let best = voted.and_then(|i| results[i].0.clone());
        // When the vote picks another thread's line, or a helper got deeper, that line is
        // reported too, so the last `info` line is the move played (with MultiPV the main
        // thread's lines stand).
        if let Some(line) = best
            .as_ref()
            .filter(|_| limits.multipv <= 1 && (voted != Some(0) || depth > main.completed_depth))
        {
            report(Progress {
                depth,
                multipv: 1,
                line,
            });
        }
        let multipv = limits.multipv.clamp(1, main.root_moves.len().max(1));
        // One line: the voted one, so the lines agree with the move played.
        let lines = match &best {
            Some(line) if multipv == 1 => vec![line.clone()],
            _ => main.root_moves.iter().take(multipv).cloned().collect(),
        };
        SmpOutcome {
            seldepth: best.as_ref().map_or(0, |r| r.seldepth),
            best,
            lines,
            depth,
            evaluations,
        }
    })
}

/// Raises a stop flag when dropped. The main thread holds one while the helpers run, so
/// that they stop even if it leaves by a panic: only the main thread tells them to (through
/// the clock or at the end of its search), and the thread scope waits for them.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

fn main_report(
    searcher: &Searcher<'_>,
    pv_index: usize,
    depth: i32,
    report: &mut dyn FnMut(Progress<'_>),
) {
    report(Progress {
        depth,
        multipv: pv_index + 1,
        line: &searcher.root_moves[pv_index],
    });
}

/// Picks the line to play: each thread votes for its best move with weight
/// `(score - worst score + 14) × depth`; a proven mate wins outright (the shortest one).
/// Returns the index in `results` of the thread whose line is played.
pub fn vote(results: &[(Option<RootMove>, i32)]) -> Option<usize> {
    let valid: Vec<(usize, &RootMove, i32)> = results
        .iter()
        .enumerate()
        .filter_map(|(i, (rm, d))| rm.as_ref().filter(|_| *d > 0).map(|rm| (i, rm, *d)))
        .collect();
    let Some(&first) = valid.first() else {
        return results.first().and_then(|(rm, _)| rm.as_ref()).map(|_| 0);
    };
    let min_score = valid.iter().map(|(_, rm, _)| rm.score).min().unwrap_or(0);
    let mut votes: HashMap<Move, i64> = HashMap::new();
    for (_, rm, d) in &valid {
        *votes.entry(rm.mv).or_default() += i64::from(rm.score - min_score + 14) * i64::from(*d);
    }
    let (mut best_index, mut best) = (first.0, first.1);
    for &(i, rm, _) in &valid[1..] {
        let better = if best.score >= MATE_BOUND {
            rm.score > best.score
        } else {
            rm.score >= MATE_BOUND || (rm.score > -MATE_BOUND && votes[&rm.mv] > votes[&best.mv])
        };
        if better {
            (best_index, best) = (i, rm);
        }
    }
    Some(best_index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use crate::time::TimeManager;
    use crate::tt::TranspositionTable;
    use shatranj_chess::Position;

    /// The lines another thread completed at depth 30, in an order no search of this
    /// position would give: the last legal move first.
    fn planted_lines(root: &Position) -> Vec<RootMove> {
        let mut moves: Vec<Move> = root.legal_moves().iter().copied().collect();
        moves.reverse();
        moves
            .into_iter()
            .enumerate()
            .map(|(i, mv)| RootMove {
                mv,
                score: -(i as i32),
                previous_score: 0,
                pv: vec![mv],
                seldepth: 30,
            })
            .collect()
    }

    /// The first helper searches every other depth and the last one, so that under a depth
    /// limit of either parity it is on the last depth while the main thread is on the one
    /// before; the main thread skips nothing.
    #[test]
    fn the_first_helper_searches_every_other_depth_ending_on_the_depth_limit() {
        let root = Position::new();
        let tt = TranspositionTable::new(1).unwrap();
        let state = SharedState::for_tests(2);
        let unlimited = MAX_PLY as i32 - 1;
        for (limits, max_depth, searched) in [
            (Limits::depth(10), 10, vec![1, 2, 4, 6, 8, 10]),
            (Limits::depth(9), 9, vec![1, 3, 5, 7, 9]),
            (
                Limits::movetime(Duration::from_secs(1)),
                unlimited,
                vec![1, 2, 4, 6, 8, 10],
            ),
        ] {
            let time = TimeManager::new(&limits, root.turn(), Duration::ZERO);
            let ctx = SearchContext::for_tests(&state, &tt, &time, &limits, &root);
            let (main, helper) = (
                Searcher::new(Role::Main, 0, ctx),
                Searcher::new(Role::Helper, 1, ctx),
            );
            let first_ten = 1..=max_depth.min(10);
            let by_helper: Vec<i32> = first_ten
                .clone()
                .filter(|&d| !helper.skips(d, max_depth))
                .collect();
            assert_eq!(by_helper, searched, "{limits:?}");
            assert!(first_ten.clone().all(|d| !main.skips(d, max_depth)));
        }
    }

    /// A helper that skipped the depth before its iteration restarts the iteration around
    /// that depth's score once another thread has completed it, if the score lies outside
    /// the helper's window; not if it lies inside, and the main thread never does.
    #[test]
    fn a_helper_restarts_its_window_around_the_score_of_the_depth_it_skipped() {
        let root = Position::new();
        let tt = TranspositionTable::new(1).unwrap();
        let limits = Limits::depth(6);
        let time = TimeManager::new(&limits, root.turn(), Duration::ZERO);
        // The depth-1 score, which centres a thread's window when it next searches depth 6.
        let one_thread = SharedState::for_tests(1);
        let ctx = SearchContext::for_tests(&one_thread, &tt, &time, &limits, &root);
        let mut probe = Searcher::new(Role::Main, 0, ctx);
        probe.iterative_deepening(&root, 1, &mut |_, _, _| {});
        let own = probe.root_moves[0].score;
        for (role, offset, restarts) in [
            (Role::Helper, 0, 0),
            (Role::Helper, 300, 1),
            (Role::Helper, -300, 1),
            (Role::Main, 300, 0),
        ] {
            tt.clear();
            let state = SharedState::for_tests(2);
            // Another thread has completed depth 5: this one searches depth 1, skips 2-5
            // and searches 6 with a window around its depth-1 score.
            let mut lines = planted_lines(&root);
            for (i, line) in lines.iter_mut().enumerate() {
                line.score = own + offset - i as i32;
            }
            state.completed_depth.store(5, Ordering::Relaxed);
            *state.deepest.lock().unwrap() = (5, lines);
            let ctx = SearchContext::for_tests(&state, &tt, &time, &limits, &root);
            let mut searcher = Searcher::new(role, usize::from(role == Role::Helper), ctx);
            searcher.iterative_deepening(&root, 6, &mut |_, _, _| {});
            let case = format!("{role:?}, depth-5 score {offset:+} from its own");
            assert_eq!(searcher.recenterings, restarts, "{case}");
            assert_eq!(searcher.completed_depth, 6, "{case}");
        }
    }

    /// A thread that finds its iteration already completed by another abandons it and takes
    /// the other thread's lines as its own result for that depth; with one thread nothing
    /// is ever abandoned.
    #[test]
    fn an_iteration_another_thread_completed_is_abandoned_and_its_lines_taken() {
        let root = Position::new();
        let tt = TranspositionTable::new(1).unwrap();
        let limits = Limits::depth(4);
        let time = TimeManager::new(&limits, root.turn(), Duration::ZERO);
        let planted = planted_lines(&root);
        for threads in [2, 1] {
            tt.clear();
            let state = SharedState::for_tests(threads);
            // Depth 1 runs (nothing is abandoned before a thread has a line of its own),
            // depths 2 and 3 are skipped, and depth 4, the last, is abandoned at once.
            state.completed_depth.store(30, Ordering::Relaxed);
            *state.deepest.lock().unwrap() = (30, planted.clone());
            let ctx = SearchContext::for_tests(&state, &tt, &time, &limits, &root);
            let mut main = Searcher::new(Role::Main, 0, ctx);
            let mut reported = Vec::new();
            main.iterative_deepening(&root, 4, &mut |s, _, depth| {
                reported.push((depth, s.root_moves[0].mv));
            });
            if threads == 2 {
                assert_eq!(main.completed_depth, 30);
                assert_eq!(main.root_moves, planted);
                assert_eq!(reported.last(), Some(&(30, planted[0].mv)));
                assert_eq!(
                    reported.len(),
                    2,
                    "depth 1, then the lines taken: {reported:?}"
                );
            } else {
                assert_eq!(main.completed_depth, 4, "one thread abandons nothing");
                assert_ne!(main.root_moves, planted);
            }
        }
    }
}

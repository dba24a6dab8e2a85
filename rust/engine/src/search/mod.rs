//! The alpha-beta search of one thread: iterative deepening, principal variation search with
//! aspiration windows, quiescence search, and the pruning and reduction rules.
//!
//! Several [`Searcher`]s run at once under lazy SMP ([`crate::threads`]); they share only the
//! transposition table, the stop flag and the node counters. Exactly one is the *main* thread:
//! it alone watches the clock and reports progress ([`Role::Main`]).

pub mod params;

use crate::eval::EvalState;
use crate::limits::Limits;
use crate::ordering::{
    Heuristics, OrderingHints, is_bad_tactical, is_tactical, pick_next, piece_to, score_captures,
    score_moves,
};
#[allow(clippy::wildcard_imports)] // the score arithmetic the search is written in
use crate::score::*;
use crate::see::{capture_gain, see_ge};
use crate::threads::SharedState;
use crate::time::{self, ClockChecks, TimeManager};
use crate::tt::{Bound, TranspositionTable, TtEntry, score_from_tt, score_to_tt};
#[allow(clippy::wildcard_imports)] // every tunable constant of the search, by name
use params::*;
use shatranj_chess::{Color, Move, Position, Role as PieceRole};
use std::sync::atomic::Ordering;

/// What a search thread is responsible for beyond searching.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// Watches the clock and node limit, reports `info`, decides when to stop.
    Main,
    /// Searches and fills the shared table; stops when told.
    Helper,
}

/// One principal variation of the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub mv: Move,
    pub score: Value,
    /// The score of the previous iteration (for ordering and aspiration).
    pub previous_score: Value,
    pub pv: Vec<Move>,
    pub seldepth: usize,
}

/// What every search thread of one search shares (all borrowed, so threads are scoped).
#[derive(Copy, Clone)]
pub struct SearchContext<'a> {
    pub shared: &'a SharedState,
    pub tt: &'a TranspositionTable,
    pub time: &'a TimeManager,
    pub limits: &'a Limits,
    /// Keys of the game's positions before the root, oldest first.
    pub previous_keys: &'a [u64],
    pub root: &'a Position,
}

#[cfg(test)]
impl<'a> SearchContext<'a> {
    /// The context of a unit test's search from `root`, with no game before it.
    pub(crate) fn for_tests(
        shared: &'a SharedState,
        tt: &'a TranspositionTable,
        time: &'a TimeManager,
        limits: &'a Limits,
        root: &'a Position,
    ) -> SearchContext<'a> {
        SearchContext {
            shared,
            tt,
            time,
            limits,
            previous_keys: &[],
            root,
        }
    }
}

/// Per-ply search state.
#[derive(Copy, Clone, Default)]
struct Frame {
    killers: [Option<Move>; 2],
    static_eval: Value,
    /// The move made from this ply (for counter-moves and null-move checks).
    current_move: Option<Move>,
    /// Piece index (colour × 6 + role) of `current_move`.
    moved_piece: usize,
    null_allowed: bool,
    /// A move left out of this node's search (the singular-extension test).
    excluded: Option<Move>,
    /// While this ply's node searches a move: the node, if another thread may finish it
    /// first ([`Searcher::resolved_ancestor`]).
    watch: Option<Watched>,
}

/// A null-window node that several threads may be searching at once: the table entry that
/// would have cut it off on arrival ends it, whichever thread stores that entry.
#[derive(Copy, Clone)]
struct Watched {
    key: u64,
    /// The depth the node searches to (after internal iterative reduction): the depth of
    /// the entry it would store itself.
    depth: i32,
    alpha: Value,
    beta: Value,
}

/// Everything a search thread owns.
pub struct Searcher<'a> {
    pub role: Role,
    pub id: usize,
    shared: &'a SharedState,
    tt: &'a TranspositionTable,
    time: &'a TimeManager,
    limits: &'a Limits,
    pub nodes: u64,
    unpublished_nodes: u64,
    /// When the main thread next reads the clock for the hard budget.
    clock: ClockChecks,
    pub seldepth: usize,
    /// Keys of the game before the root, then of the search path (for repetitions).
    keys: Vec<u64>,
    /// The length of `keys` just after each null move of the current line: a repetition is
    /// only looked for since the last one, as the opponent never allowed the positions
    /// before a null move to be reached again.
    null_barriers: Vec<usize>,
    frames: Vec<Frame>,
    /// Move-ordering statistics: the engine's, lent to this thread for the search
    /// ([`crate::threads::lazy_smp`]).
    pub(crate) heur: Heuristics,
    pv: Vec<Vec<Move>>,
    move_buffers: Vec<Vec<(Move, i32)>>,
    pub root_moves: Vec<RootMove>,
    /// Nodes this thread has spent below each root move over the whole search, for the time
    /// manager: a best move that took most of the effort is settled. Kept apart from
    /// `root_moves`, which a thread replaces with another thread's lines when it takes them.
    root_effort: Vec<(Move, u64)>,
    pv_index: usize,
    pub completed_depth: i32,
    pub stopped: bool,
    /// The iteration being searched is abandoned: another thread completed its depth.
    abandoned: bool,
    /// Abandon the iteration once any thread has completed this depth (`i32::MAX`: never).
    abandon_at: i32,
    /// Once any thread has completed this depth, a helper checks its root window against
    /// that iteration's score (`i32::MAX`: never; see [`Searcher::aspiration`]).
    recenter_at: i32,
    /// Unwinding to the root to restart the iteration around another thread's score.
    recentering: bool,
    /// Iterations this thread restarted around another thread's score.
    pub(crate) recenterings: u32,
    /// The window of the aspiration search under way at the root.
    root_window: (Value, Value),
    /// Unwinding (with `stopped` set) to the node at this ply, which another thread has
    /// finished: it returns the given score ([`Searcher::resolved_ancestor`]).
    unwind_to: Option<(usize, Value)>,
    lmr: Box<[[i32; 64]; 64]>,
    root_depth: i32,
    /// This thread's static evaluations (which evaluation, and how, is its business).
    pub eval: EvalState<'a>,
}

/// What the completed iterations say about how settled the search is: the time manager
/// stretches the soft budget while the best move keeps changing or its score falls.
#[derive(Default)]
struct Settling {
    /// Changes of the best move between iterations, forgotten one every fourth iteration.
    best_move_changes: u32,
    last_best: Option<Move>,
    /// The best line's score after each completed iteration.
    scores: Vec<Value>,
}

impl Settling {
    /// How many iterations back the score a fall is measured from.
    const FALL_SPAN: usize = 3;

    fn record(&mut self, depth: i32, best: &RootMove) {
        if self.last_best.is_some_and(|b| b != best.mv) {
            self.best_move_changes += 1;
        }
        self.best_move_changes = self
            .best_move_changes
            .saturating_sub(u32::from(depth % 4 == 0));
        self.last_best = Some(best.mv);
        self.scores.push(best.score);
    }

    /// How far the best score fell over the last few iterations (negative: it rose); none
    /// while either end is a mate or tablebase score.
    fn score_drop(&self) -> Option<Value> {
        let now = *self.scores.last()?;
        let then = self.scores[self.scores.len().saturating_sub(Self::FALL_SPAN + 1)];
        (!is_decisive(now) && !is_decisive(then)).then_some(then - now)
    }
}

impl<'a> Searcher<'a> {
    pub fn new(role: Role, id: usize, ctx: SearchContext<'a>) -> Searcher<'a> {
        let SearchContext {
            shared,
            tt,
            time,
            limits,
            previous_keys,
            root,
        } = ctx;
        let mut lmr = Box::new([[0; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = f64::from(LMR_BASE_PERCENT.get()) / 100.0
                    + (d as f64).ln() * (m as f64).ln() * 100.0
                        / f64::from(LMR_DIVISOR_PERCENT.get());
                *r = v as i32;
            }
        }
        let legal = root.legal_moves();
        let root_moves: Vec<RootMove> = legal
            .iter()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                previous_score: -INFINITE,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
        let root_effort = root_moves.iter().map(|rm| (rm.mv, 0)).collect();
        Searcher {
            role,
            id,
            shared,
            tt,
            time,
            limits,
            nodes: 0,
            unpublished_nodes: 0,
            clock: ClockChecks::new(time.start),
            seldepth: 0,
            keys: previous_keys.to_vec(),
            null_barriers: Vec::new(),
            frames: vec![
                Frame {
                    null_allowed: true,
                    ..Frame::default()
                };
                MAX_PLY + 4
            ],
            heur: Heuristics::default(),
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            move_buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            root_moves,
            root_effort,
            pv_index: 0,
            completed_depth: 0,
            stopped: false,
            abandoned: false,
            abandon_at: i32::MAX,
            recenter_at: i32::MAX,
            recentering: false,
            recenterings: 0,
            root_window: (-INFINITE, INFINITE),
            unwind_to: None,
            lmr,
            root_depth: 0,
            eval: EvalState::new(&shared.evaluation, shared.service.as_deref(), MAX_PLY + 4),
        }
    }

    fn multipv(&self) -> usize {
        self.limits.multipv.clamp(1, self.root_moves.len().max(1))
    }

    /// Iterative deepening to `max_depth`; `report` is called by the main thread after each
    /// completed line (with the index of the line).
    pub fn iterative_deepening(
        &mut self,
        root: &Position,
        max_depth: i32,
        report: &mut dyn FnMut(&Searcher<'_>, usize, i32),
    ) {
        if self.root_moves.is_empty() {
            return;
        }
        self.eval.reset(root);
        let mut settling = Settling::default();
        for depth in 1..=max_depth {
            if self.skips(depth, max_depth) {
                continue;
            }
            // Another thread already completed this depth: its results are in the table, and
            // this one moves on to the next. (The last depth is never skipped, and the main
            // thread first completes one of its own, so it always has a line to play.)
            if self.completed_depth >= 1
                && depth < max_depth
                && self.shared.completed_depth.load(Ordering::Relaxed) >= depth
            {
                continue;
            }
            self.root_depth = depth;
            self.abandon_at = if self.completed_depth >= 1 && self.abandons_iterations() {
                depth
            } else {
                i32::MAX
            };
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
            }
            let mut done = depth;
            for pv_index in 0..self.multipv() {
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.aspiration(root, depth);
                if self.stopped {
                    break;
                }
                // Stable: moves with equal scores keep their previous order.
                self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                // A later pass may score its line above an earlier one's (a move that failed
                // low behind the earlier line's bound can score more once that line is out
                // of the way): the lines stay best first, and all are reported again if any
                // moved.
                let reordered = !self.root_moves[..=pv_index]
                    .is_sorted_by_key(|rm| std::cmp::Reverse(rm.score));
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.role == Role::Main {
                    self.flush_nodes();
                    let first = if reordered { 0 } else { pv_index };
                    for line in first..=pv_index {
                        report(self, line, depth);
                    }
                }
            }
            if self.abandoned {
                // Another thread completed this depth first: take its lines and go on.
                self.stopped = false;
                self.abandoned = false;
                match self.shared.take_deepest(depth, &mut self.root_moves) {
                    Some(d) => {
                        done = d;
                        if self.role == Role::Main {
                            self.flush_nodes();
                            report(self, 0, done);
                        }
                    }
                    None => continue,
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = done;
            if self.abandons_iterations() && done == depth {
                self.shared.publish_deepest(depth, &self.root_moves);
            }
            self.shared
                .completed_depth
                .fetch_max(done, Ordering::Relaxed);
            if self.role == Role::Helper && self.finishes_the_search(done) {
                self.shared.stop.store(true, Ordering::Relaxed);
                break;
            }
            settling.record(depth, &self.root_moves[0]);
            if self.role == Role::Main && self.should_stop_after_iteration(&settling) {
                break;
            }
        }
    }

    /// Helpers skip some depths so that they run ahead of the main thread and of each other
    /// (the depth pattern of Stockfish 8's lazy SMP): the table then holds deeper results by
    /// the time the main thread needs them. The main thread searches every depth no thread
    /// has completed yet, and no thread skips the last one.
    ///
    /// Under a depth limit the pattern is anchored at that depth, so that the first helper
    /// searches the depths of its parity: for `go depth 21` the odd ones, a depth ahead of
    /// the main thread on the way into the last iteration, as for even limits. Unanchored it
    /// would search depth 20 and then start depth 21 at the same moment as the main thread.
    pub(crate) fn skips(&self, depth: i32, max_depth: i32) -> bool {
        const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
        const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
        if self.role == Role::Main || depth <= 1 || depth == max_depth {
            return false;
        }
        let i = (self.id - 1) % 20;
        let anchor = if self.limits.depth.is_some() {
            max_depth % 2
        } else {
            0
        };
        ((depth + anchor + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 != 0
    }

    /// Whether a helper that just completed `depth` has done what a `go depth N` search asked
    /// for: it then ends the search for every thread, and the vote weighs its deeper result
    /// against the main thread's. With `MultiPV` the main thread's lines are the answer, and
    /// `infinite` or pondering searches wait for `stop`, so then only the main thread ends it.
    fn finishes_the_search(&self, depth: i32) -> bool {
        self.limits.multipv <= 1
            && !self.limits.infinite
            && !self.shared.pondering()
            && self.limits.depth.is_some_and(|d| depth >= d as i32)
    }

    /// Whether this thread leaves an iteration as soon as another thread has completed its
    /// depth, taking that thread's lines (see [`crate::threads`]). Only with more than one
    /// thread, and not with `MultiPV`, where the main thread's own lines are the answer.
    fn abandons_iterations(&self) -> bool {
        self.shared.nodes.len() > 1 && self.multipv() == 1
    }

    fn should_stop_after_iteration(&self, settling: &Settling) -> bool {
        let score = self.root_moves[0].score;
        if let Some(n) = self.limits.mate
            && score >= MATE_BOUND
            && (MATE - score + 1) / 2 <= n as Value
        {
            return true;
        }
        if self.shared.pondering() {
            return false;
        }
        if self
            .limits
            .soft_nodes
            .is_some_and(|soft| self.shared.total_nodes() >= soft)
        {
            return true;
        }
        if self.root_moves.len() == 1 && self.time.soft.is_some() && self.completed_depth >= 6 {
            return true;
        }
        let best = self.root_moves[0].mv;
        let all_nodes: u64 = self.root_effort.iter().map(|&(_, nodes)| nodes).sum();
        let best_nodes = self
            .root_effort
            .iter()
            .find(|&&(mv, _)| mv == best)
            .map_or(0, |&(_, nodes)| nodes);
        let scale = time::soft_scale_percent(
            settling.best_move_changes,
            (best_nodes * 1000).checked_div(all_nodes).unwrap_or(1000),
            settling.score_drop(),
        );
        self.time.soft_expired(scale)
    }

    /// Searches the root with a window around the previous score, widened on each fail.
    ///
    /// A helper that skipped the depth before this one centres its window on its own score
    /// from two depths back, as the main thread, a depth behind, is still searching the
    /// depth in between. Once that iteration is completed, its score is the better guess: if
    /// it lies outside the helper's window, the helper restarts the iteration around it and
    /// takes that iteration's move order. Its work so far stays in the table. (Paired time
    /// to depth 21 with two threads: 1.050× over 180 positions, benchmarks/RESULTS.md.)
    fn aspiration(&mut self, root: &Position, depth: i32) {
        let prev = self.root_moves[self.pv_index].previous_score;
        let mut delta = ASPIRATION_WINDOW.get();
        let (mut alpha, mut beta) = Self::window_around(prev, depth, delta);
        self.recenter_at = if self.role == Role::Helper
            && self.abandons_iterations()
            && depth >= ASPIRATION_MIN_DEPTH.get()
            && self.completed_depth < depth - 1
        {
            depth - 1
        } else {
            i32::MAX
        };
        loop {
            self.root_window = (alpha, beta);
            let score = self.search(root, alpha, beta, depth, 0, false);
            if std::mem::take(&mut self.recentering) {
                self.stopped = false;
                // Without one line per root move (never with one search of one position)
                // the same window is searched again.
                if self
                    .shared
                    .take_deepest(depth - 1, &mut self.root_moves)
                    .is_some()
                {
                    for rm in &mut self.root_moves {
                        rm.previous_score = rm.score;
                    }
                    delta = ASPIRATION_WINDOW.get();
                    (alpha, beta) = Self::window_around(self.root_moves[0].score, depth, delta);
                    self.recenterings += 1;
                }
                continue;
            }
            if self.stopped {
                return;
            }
            self.root_moves[self.pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return;
            }
            delta += delta / 2 + 5;
        }
    }

    /// The first window of an aspiration search around the previous score `prev`; the full
    /// width at low depths and around mate and tablebase scores.
    fn window_around(prev: Value, depth: i32, delta: Value) -> (Value, Value) {
        if depth >= ASPIRATION_MIN_DEPTH.get() && !is_decisive(prev) {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        }
    }

    /// Counts a node; every 1024 nodes publishes the count; and, in the main thread of a
    /// timed search, reads the clock as often as [`ClockChecks`] says, which adapts to
    /// what a node costs (a node count alone let a slow evaluator run far past the budget).
    #[inline]
    fn visit(&mut self) {
        self.nodes += 1;
        self.unpublished_nodes += 1;
        if self.role == Role::Main
            && let Some(limit) = self.limits.nodes
        {
            // Exact for one thread, so fixed-node searches are reproducible.
            let total = self.shared.total_nodes() + self.unpublished_nodes;
            if total >= limit {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.unpublished_nodes >= 1024 {
            self.shared.nodes[self.id].fetch_add(self.unpublished_nodes, Ordering::Relaxed);
            self.unpublished_nodes = 0;
            if self.shared.fills_every_core {
                // Lets the thread reading `stop` from stdin have a core within ~2 ms rather
                // than at the end of a scheduler slice (see `SharedState`).
                std::thread::yield_now();
            }
        }
        if self.role == Role::Main
            && self.time.hard.is_some()
            && let Some(now) = self.clock.count_node()
            && !self.shared.pondering()
            && self.time.hard_expired_at(now)
        {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Publishes nodes counted since the last publication.
    pub fn flush_nodes(&mut self) {
        self.shared.nodes[self.id].fetch_add(self.unpublished_nodes, Ordering::Relaxed);
        self.unpublished_nodes = 0;
    }

    /// Whether the search must unwind now: stopped, the iteration abandoned because another
    /// thread has completed its depth ([`Searcher::abandons_iterations`]), or restarted
    /// around the score of the depth before ([`Searcher::aspiration`]).
    fn check_stop(&mut self) -> bool {
        let completed = self.shared.completed_depth.load(Ordering::Relaxed);
        if !self.stopped && completed >= self.abandon_at {
            self.stopped = true;
            self.abandoned = true;
        }
        if !self.stopped && completed >= self.recenter_at {
            let depth = std::mem::replace(&mut self.recenter_at, i32::MAX);
            let (alpha, beta) = self.root_window;
            if self
                .shared
                .best_score_at(depth)
                .is_some_and(|s| s <= alpha || s >= beta)
            {
                self.stopped = true;
                self.recentering = true;
            }
        }
        if !self.stopped && self.shared.stopped() {
            // Depth 1 must finish so there is always a move to play.
            if self.completed_depth >= 1 || self.role == Role::Helper {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn is_repetition(&self, pos: &Position) -> bool {
        let key = pos.key();
        let n = self.keys.len();
        let since_null = self.null_barriers.last().map_or(n, |&b| n - b);
        let reach = (pos.halfmove_clock() as usize).min(since_null);
        let mut d = 4;
        while d <= reach {
            if self.keys[n - d] == key {
                return true;
            }
            d += 2;
        }
        false
    }

    fn is_draw(&self, pos: &Position) -> bool {
        if pos.halfmove_clock() >= 100 {
            // Mate on the hundredth half-move still counts (R4.9).
            return !pos.is_check() || pos.has_legal_moves();
        }
        self.is_repetition(pos) || pos.is_insufficient_material()
    }

    fn has_non_pawn_material(pos: &Position, color: Color) -> bool {
        let b = pos.board();
        (b.by_color(color) & !b.pawns() & !b.kings()).any()
    }

    fn piece_index(pos: &Position, m: Move) -> usize {
        let role = pos.moved_role(m).unwrap_or(PieceRole::Pawn);
        pos.turn().index() * 6 + role.index()
    }

    fn tt_move(moves: &[Move], bits: u16) -> Option<Move> {
        // Only a move found among the legal moves is used: a stale or torn entry is harmless.
        if bits == 0 {
            return None;
        }
        moves.iter().copied().find(|m| m.to_bits() == bits)
    }

    /// Piece-to indices of the moves made one and two plies above `ply` (none for null moves
    /// or above the root).
    fn earlier_moves(&self, ply: usize) -> [Option<usize>; 2] {
        let at = |back: usize| -> Option<usize> {
            let f = &self.frames[ply.checked_sub(back)?];
            f.current_move.map(|m| f.moved_piece * 64 + m.to().index())
        };
        [at(1), at(2)]
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// Principal variation search of `pos` to `depth` within `(alpha, beta)`.
    fn search(
        &mut self,
        pos: &Position,
        mut alpha: Value,
        mut beta: Value,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Value {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv[ply].clear();
        self.frames[ply].watch = None;
        if depth <= 0 {
            // Quiescence tests the fifty-move rule and material but not repetitions (only
            // captures follow there): a quiet move into a repetition is a draw here, not a
            // static evaluation.
            if !root && self.is_repetition(pos) {
                return DRAW;
            }
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.visit();
        if self.check_stop() {
            return DRAW;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.is_check();

        if !root {
            if self.is_draw(pos) {
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check {
                    DRAW
                } else {
                    self.eval.evaluate(ply, pos)
                };
            }
            // Mate distance pruning: no line here can beat a shorter mate already found.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        let key = pos.key();
        let excluded = self.frames[ply].excluded;
        // A search without one move is not a search of the position: no table use.
        let tt_entry = if excluded.is_some() {
            None
        } else {
            self.tt.probe(key)
        };
        if let Some(e) = tt_entry {
            let score = score_from_tt(e.score, ply);
            if !pv_node && !root && e.depth >= depth && e.bound.cuts(score, alpha, beta) {
                return score;
            }
        }

        // Endgame tablebases (only with SyzygyPath set: one `Option` check otherwise). A win
        // or loss that settles the window ends the node; in a principal-variation node one
        // that does not bounds the search's result instead (Stockfish's rule).
        let mut tb_floor = -INFINITE;
        let mut tb_ceiling = INFINITE;
        if let Some(tb) = &self.shared.syzygy
            && !root
            && excluded.is_none()
            && let Some((value, bound)) = tb.probe(pos, depth, ply)
        {
            self.shared.tb_hits.fetch_add(1, Ordering::Relaxed);
            if bound.cuts(value, alpha, beta) {
                let eval = if in_check {
                    0
                } else {
                    self.eval.evaluate(ply, pos)
                };
                // Deeper than any search of the node: the tables' answer is final.
                let stored_depth = (depth + TB_DEPTH_BONUS).min(MAX_PLY as i32 - 1);
                self.tt
                    .store(key, 0, score_to_tt(value, ply), eval, stored_depth, bound);
                return value;
            }
            if pv_node {
                match bound {
                    Bound::Lower => {
                        tb_floor = value;
                        alpha = alpha.max(value);
                    }
                    _ => tb_ceiling = value,
                }
            }
        }

        // Static evaluation, refined by the table's score when its bound allows.
        let static_eval = if in_check {
            -INFINITE
        } else {
            match tt_entry {
                Some(e) => e.eval,
                None => self.eval.evaluate(ply, pos),
            }
        };
        let eval = refined_by_tt(static_eval, tt_entry, ply, in_check);
        self.frames[ply].static_eval = static_eval;
        self.frames[ply + 2].killers = [None, None];
        let improving = !in_check && ply >= 2 && static_eval > self.frames[ply - 2].static_eval;

        if !pv_node && !in_check && !root && excluded.is_none() {
            // Reverse futility: far above beta at low depth, a quiet move will not drop it.
            // Never against a mate-in-N beta: an ordinary score there would claim an escape
            // from a mate that was never searched (the mated side's node after 1. Kb6 in
            // k7/8/2K5/8/8/8/8/7R w, once 1. Ra1 has shown a mate in 3, hid the mate in 2).
            if depth <= RFP_MAX_DEPTH.get()
                && !is_decisive(eval)
                && !is_decisive(beta)
                && eval - RFP_MARGIN.get() * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }
            // Null move with a zugzwang guard: only with pieces besides pawns, and never
            // twice in a row.
            if depth >= NMP_MIN_DEPTH.get()
                && eval >= beta
                && self.frames[ply].null_allowed
                && Self::has_non_pawn_material(pos, pos.turn())
                && !is_decisive(beta)
            {
                let r = NMP_BASE_REDUCTION.get()
                    + depth / NMP_DEPTH_DIVISOR.get()
                    + ((eval - beta) / 200).min(3);
                let mut child = *pos;
                if child.play_null() {
                    self.eval.push_null(ply + 1);
                    self.frames[ply].current_move = None;
                    self.frames[ply + 1].null_allowed = false;
                    self.keys.push(key);
                    self.null_barriers.push(self.keys.len());
                    let score =
                        -self.search(&child, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                    self.null_barriers.pop();
                    self.keys.pop();
                    self.frames[ply + 1].null_allowed = true;
                    if self.stopped {
                        return DRAW;
                    }
                    if score >= beta {
                        // Verify deep cut-offs without a null move, against zugzwang.
                        if depth < 12 {
                            return if is_decisive(score) { beta } else { score };
                        }
                        self.frames[ply].null_allowed = false;
                        let v = self.search(pos, beta - 1, beta, depth - r, ply, false);
                        self.frames[ply].null_allowed = true;
                        if v >= beta {
                            return beta;
                        }
                    }
                }
            }
        }

        let moves = pos.legal_moves();
        let mut tt_move = tt_entry.and_then(|e| Self::tt_move(&moves, e.move_bits));
        if root {
            tt_move = Some(self.root_moves[self.pv_index].mv);
        }
        // Internal iterative reduction: without a hint, a deep search here is less promising.
        if tt_move.is_none() && depth >= 4 && !root && excluded.is_none() {
            depth -= 1;
        }

        if moves.is_empty() {
            return if in_check { mated_in(ply) } else { DRAW };
        }

        let counter = if ply > 0 {
            self.frames[ply - 1]
                .current_move
                .and_then(|pm| self.heur.counter[self.frames[ply - 1].moved_piece][pm.to().index()])
        } else {
            None
        };
        let earlier = self.earlier_moves(ply);
        let hints = OrderingHints {
            tt_move,
            killers: self.frames[ply].killers,
            counter,
            earlier,
        };
        let mut list = std::mem::take(&mut self.move_buffers[ply]);
        if root {
            // The root orders by the last iteration's results; lines already reported in
            // this iteration (MultiPV) are not searched again.
            list.clear();
            for (i, rm) in self.root_moves.iter().enumerate().skip(self.pv_index) {
                list.push((rm.mv, -(i as i32)));
            }
        } else {
            score_moves(pos, &moves, &hints, &self.heur, &mut list);
        }

        let turn = pos.turn();
        let mut best_score = tb_floor;
        let mut best_move = None;
        let mut moves_searched = 0;
        let mut quiets_tried: [Option<Move>; 64] = [None; 64];
        let mut n_quiets = 0;
        let mut skip_quiets = false;
        let original_alpha = alpha;
        let tt_move_tactical = tt_move.is_some_and(|t| is_tactical(pos, t));
        let lmp_limit = (LMP_BASE.get() + depth * depth) / if improving { 1 } else { 2 };
        // Moves another thread was inside when their turn came: searched after the rest
        // (not at the root, whose moves every thread needs in its own order).
        let shared = self.shared;
        let in_progress = shared
            .in_progress
            .as_ref()
            .filter(|_| !root && depth >= ABDADA_MIN_DEPTH);
        // Allocates only when a move is deferred, which is rare.
        let mut deferred: Vec<(Move, i32)> = Vec::new();
        let mut next_deferred = 0;
        // Where another thread may be inside this node too, its finishing first ends ours.
        let watch = (in_progress.is_some() && !pv_node && excluded.is_none()).then_some(Watched {
            key,
            depth,
            alpha,
            beta,
        });

        let mut i = 0;
        loop {
            let (m, order_score, revisit) = if let Some((m, s)) = pick_next(&mut list, i) {
                i += 1;
                (m, s, false)
            } else if let Some(&(m, s)) = deferred.get(next_deferred) {
                next_deferred += 1;
                (m, s, true)
            } else {
                break;
            };
            if Some(m) == excluded {
                continue;
            }
            let tactical = is_tactical(pos, m);
            let is_killer_or_counter = hints.killers.contains(&Some(m)) || hints.counter == Some(m);

            // Asked of the move unplayed: most moves pruned below are never played.
            let gives_check = pos.gives_check(m);

            // Shallow pruning, once a line that is not mated is known. Quiet moves that give
            // check are kept: they are where short mates hide.
            if !root && best_score > -TB_WIN_BOUND && Self::has_non_pawn_material(pos, turn) {
                if !tactical {
                    if !gives_check {
                        if skip_quiets {
                            continue;
                        }
                        if depth <= LMP_MAX_DEPTH.get() && moves_searched >= lmp_limit {
                            skip_quiets = true;
                            continue;
                        }
                        if depth <= FUTILITY_MAX_DEPTH.get()
                            && !in_check
                            && eval + FUTILITY_BASE.get() + FUTILITY_PER_DEPTH.get() * depth
                                <= alpha
                        {
                            skip_quiets = true;
                            continue;
                        }
                    }
                    if depth <= LMP_MAX_DEPTH.get()
                        && !see_ge(pos, m, -SEE_QUIET_MARGIN.get() * depth)
                    {
                        continue;
                    }
                } else if depth <= FUTILITY_MAX_DEPTH.get()
                    && is_bad_tactical(order_score)
                    && !see_ge(pos, m, -SEE_CAPTURE_MARGIN.get() * depth)
                {
                    continue;
                }
            }
            if !revisit && moves_searched > 0 && in_progress.is_some_and(|t| t.is_busy(key, m)) {
                deferred.push((m, order_score));
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(m);
            self.tt.prefetch(child.key());
            let mut extension = i32::from(gives_check && ply < 2 * self.root_depth as usize);
            // Singular extension: if the table's move is far better than every other one,
            // it is searched a ply deeper; if even the others beat beta, cut (multi-cut).
            if let Some(e) = tt_entry.filter(|e| {
                Some(m) == tt_move
                    && !root
                    && depth >= SE_MIN_DEPTH.get()
                    && e.depth >= depth - 3
                    && e.bound != Bound::Upper
                    && !is_decisive(e.score)
            }) {
                let s_beta = score_from_tt(e.score, ply) - SE_MARGIN_PER_DEPTH.get() * depth;
                self.frames[ply].excluded = Some(m);
                let v = self.search(pos, s_beta - 1, s_beta, (depth - 1) / 2, ply, cut_node);
                self.frames[ply].excluded = None;
                if self.stopped {
                    self.move_buffers[ply] = list;
                    return DRAW;
                }
                if v < s_beta {
                    extension = 1;
                } else if s_beta >= beta {
                    self.move_buffers[ply] = list;
                    return s_beta;
                }
            }
            let new_depth = depth - 1 + extension;
            // After the singular-extension search, whose children took this slot.
            self.eval.push(ply + 1, pos, &child);

            self.frames[ply].current_move = Some(m);
            self.frames[ply].moved_piece = Self::piece_index(pos, m);
            self.frames[ply + 1].null_allowed = true;
            self.keys.push(key);
            let entered = in_progress.map(|table| table.enter(key, m));
            // Set again for every move: a singular-extension search at this ply clears it.
            self.frames[ply].watch = watch;

            let nodes_before = self.nodes;
            let score = if moves_searched == 0 {
                -self.search(
                    &child,
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    !pv_node && !cut_node,
                )
            } else {
                let mut r = 0;
                if depth >= 3
                    && moves_searched > i32::from(pv_node)
                    && (!tactical || is_bad_tactical(order_score))
                {
                    r = self.lmr[depth.min(63) as usize][(moves_searched as usize).min(63)];
                    r += i32::from(!pv_node);
                    r += i32::from(cut_node);
                    r -= i32::from(improving);
                    r -= i32::from(is_killer_or_counter);
                    r -= i32::from(gives_check);
                    // The table's best move takes material: quiet moves after it rarely
                    // do better.
                    r += i32::from(tt_move_tactical);
                    if !tactical {
                        r -= self.heur.quiet_score(turn, m, piece_to(pos, m), &earlier) / 8000;
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let mut new_depth = new_depth;
                let reduced = new_depth - r;
                let mut s = -self.search(&child, -alpha - 1, -alpha, reduced, ply + 1, true);
                if s > alpha && r > 0 {
                    // The reduced search failed high: searched again a ply deeper when it did
                    // so by far, a ply shallower when it barely beat the best score so far.
                    new_depth += lmr_research_adjustment(s, best_score, new_depth);
                    if new_depth > reduced {
                        s = -self.search(&child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                        // What the deeper search found teaches the continuation histories of
                        // a quiet move, whether it cuts off here or not.
                        if !tactical {
                            let bonus = if s <= alpha {
                                -history_bonus(new_depth)
                            } else if s >= beta {
                                history_bonus(new_depth)
                            } else {
                                0
                            };
                            self.heur
                                .update_continuation(piece_to(pos, m), &earlier, bonus);
                        }
                    }
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.search(&child, -beta, -alpha, new_depth, ply + 1, false);
                }
                s
            };
            if let (Some(table), Some(entered)) = (in_progress, entered) {
                table.leave(entered);
            }
            self.keys.pop();
            if in_progress.is_some()
                && !self.stopped
                && let Some(target) = self.resolved_ancestor(ply)
            {
                self.stopped = true;
                self.unwind_to = Some(target);
            }
            if self.stopped {
                self.move_buffers[ply] = list;
                return match self.unwind_to {
                    Some((target, score)) if target == ply => {
                        self.unwind_to = None;
                        self.stopped = false;
                        score
                    }
                    _ => DRAW,
                };
            }
            moves_searched += 1;

            if root {
                if let Some(effort) = self.root_effort.iter_mut().find(|(mv, _)| *mv == m) {
                    effort.1 += self.nodes - nodes_before;
                }
                let (seldepth, child_pv) = (self.seldepth, self.pv[1].clone());
                if let Some(rm) = self.root_moves.iter_mut().find(|rm| rm.mv == m) {
                    if moves_searched == 1 || score > alpha {
                        rm.score = score;
                        rm.seldepth = seldepth;
                        rm.pv.clear();
                        rm.pv.push(m);
                        rm.pv.extend_from_slice(&child_pv);
                    } else {
                        rm.score = -INFINITE;
                    }
                }
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if !tactical {
                            self.reward_quiet(pos, ply, m, depth, &quiets_tried[..n_quiets]);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if !tactical && n_quiets < quiets_tried.len() {
                quiets_tried[n_quiets] = Some(m);
                n_quiets += 1;
            }
        }
        self.move_buffers[ply] = list;

        if moves_searched == 0 {
            // Everything was pruned (only possible when not in check and with a move).
            return alpha;
        }
        // A tablebase loss caps what the moves found (a principal-variation node only).
        best_score = best_score.min(tb_ceiling);
        if !(root && self.pv_index > 0) && excluded.is_none() {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha && best_move.is_some() {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(
                key,
                best_move.map_or(0, shatranj_chess::Move::to_bits),
                score_to_tt(best_score, ply),
                if in_check { 0 } else { static_eval },
                depth,
                bound,
            );
        }
        best_score
    }

    /// The outermost node on the current line (up to `ply`) that another thread has
    /// finished meanwhile, with the score it returns: the table now holds an entry for it,
    /// as deep as its search, whose bound lies outside its window. Searching on below it would
    /// only repeat that thread's work (simplified ABDADA leaves the threads inside the same
    /// nodes, each on different moves). Checked after each move at the nodes where threads
    /// defer moves to each other, so it costs a few table probes per thousand nodes.
    fn resolved_ancestor(&self, ply: usize) -> Option<(usize, Value)> {
        (1..=ply).find_map(|p| {
            let w = self.frames[p].watch?;
            let e = self.tt.probe(w.key)?;
            let score = score_from_tt(e.score, p);
            (e.depth >= w.depth && e.bound.cuts(score, w.alpha, w.beta)).then_some((p, score))
        })
    }

    fn reward_quiet(
        &mut self,
        pos: &Position,
        ply: usize,
        m: Move,
        depth: i32,
        tried: &[Option<Move>],
    ) {
        let bonus = history_bonus(depth);
        let turn = pos.turn();
        let earlier = self.earlier_moves(ply);
        self.heur.update_history(turn, m, bonus);
        self.heur
            .update_continuation(piece_to(pos, m), &earlier, bonus);
        for q in tried.iter().flatten() {
            if *q != m {
                self.heur.update_history(turn, *q, -bonus);
                self.heur
                    .update_continuation(piece_to(pos, *q), &earlier, -bonus);
            }
        }
        let k = &mut self.frames[ply].killers;
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        if ply > 0
            && let Some(pm) = self.frames[ply - 1].current_move
        {
            let piece = self.frames[ply - 1].moved_piece;
            self.heur.counter[piece][pm.to().index()] = Some(m);
        }
    }

    /// Quiescence search: captures (and queen promotions) until the position is quiet; all
    /// evasions when in check.
    fn qsearch(&mut self, pos: &Position, mut alpha: Value, beta: Value, ply: usize) -> Value {
        self.visit();
        if self.check_stop() {
            return DRAW;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.is_check();
        if (pos.halfmove_clock() >= 100 || pos.is_insufficient_material())
            && (!in_check || pos.has_legal_moves())
        {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check {
                DRAW
            } else {
                self.eval.evaluate(ply, pos)
            };
        }
        let pv_node = beta - alpha > 1;
        let key = pos.key();
        let tt_entry = self.tt.probe(key);
        if let Some(e) = tt_entry {
            let score = score_from_tt(e.score, ply);
            if !pv_node && e.bound.cuts(score, alpha, beta) {
                return score;
            }
        }

        let static_eval = if in_check {
            -INFINITE
        } else {
            match tt_entry {
                Some(e) => e.eval,
                None => self.eval.evaluate(ply, pos),
            }
        };
        // Standing pat is worth what the table's score says, where its bound allows.
        let mut best_score = refined_by_tt(static_eval, tt_entry, ply, in_check);
        if !in_check {
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }
        // Generated only past the stand-pat cut-off, where most quiescence nodes end. In
        // check every evasion is searched; otherwise only captures and queen promotions.
        let moves = if in_check {
            pos.legal_moves()
        } else {
            pos.legal_captures()
        };
        if in_check && moves.is_empty() {
            return mated_in(ply);
        }

        let mut list = std::mem::take(&mut self.move_buffers[ply]);
        if in_check {
            let hints = OrderingHints {
                tt_move: tt_entry.and_then(|e| Self::tt_move(&moves, e.move_bits)),
                killers: [None, None],
                counter: None,
                earlier: [None, None],
            };
            score_moves(pos, &moves, &hints, &self.heur, &mut list);
        } else {
            score_captures(pos, &moves, &mut list);
            list.retain(|(m, _)| m.promotion().is_none_or(|r| r == PieceRole::Queen));
            // The table's move first, when it is one of them.
            if let Some(tt_move) = tt_entry.and_then(|e| Self::tt_move(&moves, e.move_bits))
                && let Some(entry) = list.iter_mut().find(|(m, _)| *m == tt_move)
            {
                entry.1 = i32::MAX;
            }
        }

        let mut best_move = None;
        let mut i = 0;
        while let Some((m, _)) = pick_next(&mut list, i) {
            i += 1;
            if !in_check {
                // Delta pruning: even winning the piece leaves us well below alpha.
                if static_eval + capture_gain(pos, m) + QS_DELTA_MARGIN.get() <= alpha
                    && !m.is_promotion()
                {
                    continue;
                }
                if !see_ge(pos, m, 0) {
                    continue;
                }
            }
            let mut child = *pos;
            child.play_unchecked(m);
            self.eval.push(ply + 1, pos, &child);
            self.keys.push(key);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            self.keys.pop();
            if self.stopped {
                self.move_buffers[ply] = list;
                return DRAW;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.move_buffers[ply] = list;

        let bound = if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move.map_or(0, shatranj_chess::Move::to_bits),
            score_to_tt(best_score, ply),
            if in_check { 0 } else { static_eval },
            0,
            bound,
        );
        best_score
    }
}

/// `static_eval` refined by the table's score at `ply` where the entry's bound allows (an
/// exact score, a lower bound above it, an upper bound below it; never a decisive score): a
/// search below the position knew more than the evaluation. Unchanged in check.
fn refined_by_tt(
    static_eval: Value,
    tt_entry: Option<TtEntry>,
    ply: usize,
    in_check: bool,
) -> Value {
    match tt_entry {
        Some(e) if !in_check => {
            let s = score_from_tt(e.score, ply);
            let tighter = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s > static_eval,
                Bound::Upper => s < static_eval,
            };
            if tighter && !is_decisive(s) {
                s
            } else {
                static_eval
            }
        }
        _ => static_eval,
    }
}

/// The change of depth (−1, 0 or +1) of the search that follows a reduced search which
/// failed high with `score`, whose full depth was `new_depth`, at a node whose best score so
/// far is `best_score` (Stockfish 17's `doDeeper` and `doShallower`): deeper when the
/// reduced search beat the best score by far, shallower when barely.
fn lmr_research_adjustment(score: Value, best_score: Value, new_depth: i32) -> i32 {
    i32::from(score > best_score + LMR_DEEPER_MARGIN.get() + 2 * new_depth)
        - i32::from(score < best_score + LMR_SHALLOWER_MARGIN.get())
}

/// The history reward of a quiet move that cut off at `depth` (and the penalty of the quiet
/// moves tried before it).
fn history_bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_PER_DEPTH.get() * depth - HISTORY_BONUS_OFFSET.get())
        .clamp(0, HISTORY_BONUS_MAX.get())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluation;
    use crate::limits::Limits;
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn settling_counts_best_move_changes_and_measures_the_fall() {
        let start = Position::default();
        let moves = start.legal_moves();
        let line = |mv: Move, score: Value| RootMove {
            mv,
            score,
            previous_score: score,
            pv: vec![mv],
            seldepth: 0,
        };
        let mut settling = Settling::default();
        assert_eq!(settling.score_drop(), None, "no iteration yet");
        settling.record(1, &line(moves[0], 30));
        assert_eq!(settling.score_drop(), Some(0));
        settling.record(2, &line(moves[1], 20));
        settling.record(3, &line(moves[1], 10));
        assert_eq!(settling.best_move_changes, 1);
        assert_eq!(
            settling.score_drop(),
            Some(20),
            "from the first iteration's 30"
        );
        settling.record(5, &line(moves[1], -50));
        assert_eq!(
            settling.score_drop(),
            Some(80),
            "three iterations back: 30 to -50"
        );
        // A fourth depth forgets a change.
        settling.record(8, &line(moves[1], -50));
        assert_eq!(settling.best_move_changes, 0);
        assert_eq!(
            settling.score_drop(),
            Some(70),
            "the window moved on: 20 to -50"
        );
        settling.record(9, &line(moves[1], MATE - 3));
        assert_eq!(settling.score_drop(), None, "a mate score has no fall");
    }

    /// Every static evaluation a search makes with a network, incremental and lazy, equals
    /// the network's evaluation of the same position from scratch: over more than 100,000
    /// evaluations of searches from the bench positions (taken from games), with null moves,
    /// re-searches, singular-extension searches and quiescence.
    #[test]
    fn a_searchs_network_evaluations_equal_evaluations_from_scratch() {
        let net = crate::nnue::tests::random_network(2024, 64);
        println!("network seed 2024");
        let mut state = SharedState::for_tests(1);
        state.evaluation = Evaluation::Network(Arc::new(net));
        let tt = TranspositionTable::new(16).unwrap();
        let (mut checked, mut mismatches, mut updates) = (0, 0, 0);
        for fen in crate::bench::BENCH_POSITIONS {
            let root: Position = fen.parse().unwrap();
            let limits = Limits::nodes(12_000);
            let time = TimeManager::new(&limits, root.turn(), Duration::ZERO);
            let ctx = SearchContext::for_tests(&state, &tt, &time, &limits, &root);
            let mut searcher = Searcher::new(Role::Main, 0, ctx);
            let stack = searcher.eval.accumulators.as_mut().unwrap();
            stack.verify = true;
            searcher.iterative_deepening(&root, 64, &mut |_, _, _| {});
            let stack = searcher.eval.accumulators.as_ref().unwrap();
            checked += stack.checked;
            mismatches += stack.mismatches;
            updates += stack.updates;
            state.stop.store(false, Ordering::Relaxed);
            state.nodes[0].store(0, Ordering::Relaxed);
            tt.clear();
        }
        assert!(checked >= 100_000, "only {checked} evaluations");
        assert!(
            updates > checked / 2,
            "{updates} updates for {checked} evaluations"
        );
        assert_eq!(
            mismatches, 0,
            "{mismatches} of {checked} evaluations differ"
        );
    }

    /// After a reduced search fails high, the next search goes a ply deeper when the score
    /// beat the best so far by more than the margin (which grows with depth), a ply
    /// shallower when by less than the small margin, and to the planned depth otherwise.
    #[test]
    fn a_reduced_search_that_fails_high_is_searched_again_deeper_or_shallower() {
        let deeper = LMR_DEEPER_MARGIN.get();
        let shallower = LMR_SHALLOWER_MARGIN.get();
        let cases = [
            ("by far", 100 + deeper + 2 * 6 + 1, 100, 6, 1),
            (
                "by the deeper margin exactly",
                100 + deeper + 2 * 6,
                100,
                6,
                0,
            ),
            (
                "the margin grows with depth",
                100 + deeper + 2 * 6 + 1,
                100,
                7,
                0,
            ),
            ("by a middling amount", 100 + shallower, 100, 6, 0),
            ("barely", 100 + shallower - 1, 100, 6, -1),
            ("below the best so far", 90, 100, 6, -1),
        ];
        for (what, score, best, new_depth, expected) in cases {
            assert_eq!(
                lmr_research_adjustment(score, best, new_depth),
                expected,
                "{what}"
            );
        }
    }

    /// A repetition is looked for only since the last null move of the line. After White's
    /// null move, Black's king triangle (three moves) and White's king going and coming back
    /// rebuild the position before the null move, which the opponent never allowed: no
    /// draw. The position after the null move, rebuilt four plies later, is one.
    #[test]
    fn repetitions_are_not_looked_for_across_a_null_move() {
        let start: Position = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1".parse().unwrap();
        let state = SharedState::for_tests(1);
        let tt = TranspositionTable::new(1).unwrap();
        let limits = Limits::depth(1);
        let time = TimeManager::new(&limits, start.turn(), Duration::ZERO);
        let ctx = SearchContext::for_tests(&state, &tt, &time, &limits, &start);
        let mut searcher = Searcher::new(Role::Main, 0, ctx);
        // Replays `line` ("0000": a null move) as the search would record it.
        let mut repeats = |line: &str| {
            let mut pos = start;
            searcher.keys.clear();
            searcher.null_barriers.clear();
            for step in line.split_whitespace() {
                searcher.keys.push(pos.key());
                if step == "0000" {
                    assert!(pos.play_null());
                    searcher.null_barriers.push(searcher.keys.len());
                } else {
                    pos.play(Move::from_uci(&pos, step).unwrap()).unwrap();
                }
            }
            searcher.is_repetition(&pos)
        };
        let cases = [
            ("e1d1 e8d8 d1e1 d8e8", true),
            ("0000 e8d8 e1d1 d8d7 d1e1 d7e8", false),
            ("0000 e8d8 e1d1 d8e8 d1e1", true),
            ("e1d1 e8d8 d1e1 d8d7 0000 d7e8", false),
        ];
        for (line, expected) in cases {
            assert_eq!(repeats(line), expected, "{line}");
        }
    }

    /// A node another thread has finished ends this thread's search of it (and of everything
    /// below it) exactly when the table's entry would have cut it off on arrival: deep
    /// enough, with a bound outside the node's window. The outermost such node wins; nodes
    /// that are not watched (principal-variation nodes) never end early.
    #[test]
    fn a_node_another_thread_finished_is_left_with_that_threads_score() {
        let root = Position::new();
        let keys: Vec<u64> = ["", "e2e4", "e2e4 e7e5"]
            .iter()
            .map(|line| {
                let mut pos = root;
                for m in line.split_whitespace() {
                    pos.play(Move::from_uci(&pos, m).unwrap()).unwrap();
                }
                pos.key()
            })
            .collect();
        let watch = |key, depth, beta| Watched {
            key,
            depth,
            alpha: beta - 1,
            beta,
        };
        // Ply 1 watched at depth 8 with window (-1, 0); ply 2 a principal-variation node
        // (not watched); ply 3 watched at depth 6 with window (9, 10).
        let stored_mate = score_to_tt(mate_in(7), 3);
        /// (key index, depth, bound, score) of a table entry another thread stored.
        #[allow(clippy::items_after_statements)] // the types belong with their table
        type Stored = (usize, i32, Bound, Value);
        /// The ply left early and the score it returns.
        #[allow(clippy::items_after_statements)]
        type Left = Option<(usize, Value)>;
        let cases: [(&str, &[Stored], Left); 8] = [
            ("nothing stored", &[], None),
            (
                "a fail-high at ply 3",
                &[(2, 6, Bound::Lower, 10)],
                Some((3, 10)),
            ),
            ("too shallow", &[(2, 5, Bound::Lower, 50)], None),
            (
                "an upper bound above alpha",
                &[(2, 6, Bound::Upper, 20)],
                None,
            ),
            (
                "a deeper fail-low",
                &[(2, 7, Bound::Upper, 9)],
                Some((3, 9)),
            ),
            (
                "a mate, by ply",
                &[(2, 6, Bound::Lower, stored_mate)],
                Some((3, mate_in(7))),
            ),
            (
                "the outermost first",
                &[(2, 6, Bound::Lower, 10), (0, 8, Bound::Exact, 5)],
                Some((1, 5)),
            ),
            ("a node not watched", &[(1, 30, Bound::Exact, 0)], None),
        ];
        let state = SharedState::for_tests(2);
        let tt = TranspositionTable::new(1).unwrap();
        let limits = Limits::depth(10);
        let time = TimeManager::new(&limits, root.turn(), Duration::ZERO);
        let ctx = SearchContext::for_tests(&state, &tt, &time, &limits, &root);
        let mut searcher = Searcher::new(Role::Helper, 1, ctx);
        searcher.frames[1].watch = Some(watch(keys[0], 8, 0));
        searcher.frames[3].watch = Some(watch(keys[2], 6, 10));
        for (what, stored, expected) in cases {
            tt.clear();
            for &(k, depth, bound, score) in stored {
                tt.store(keys[k], 0, score, 0, depth, bound);
            }
            assert_eq!(searcher.resolved_ancestor(3), expected, "{what}");
            assert_eq!(
                searcher.resolved_ancestor(2),
                expected.filter(|&(p, _)| p <= 2),
                "{what}: above ply 3"
            );
        }
    }
}

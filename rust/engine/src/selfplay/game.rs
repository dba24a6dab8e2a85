//! One self-play game: moves chosen by a fixed-depth or fixed-node search until the rules
//! end the game or the ply cap adjudicates it a draw.

use crate::engine::{Engine, EngineError, EngineOptions, SearchRoot, StopHandle};
use crate::eval::{EvalRoute, Evaluation};
use crate::limits::Limits;
use shatranj_chess::{Color, History, Move, Position, Rules, Termination};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::opening::Opening;

/// How a self-play game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameTermination {
    Checkmate,
    Stalemate,
    /// Neither side has mating material (R5.2's list).
    InsufficientMaterial,
    /// Neither side can ever mate, proven beyond material (a locked pawn wall, R4.6).
    DeadPosition,
    SeventyfiveMoves,
    FivefoldRepetition,
    /// Ends the game at once: self-play applies the automatic rules (R5.2).
    FiftyMoves,
    /// Ends the game at once: self-play applies the automatic rules (R5.2).
    ThreefoldRepetition,
    /// The game reached the ply cap and was adjudicated a draw.
    PlyCap,
}

impl GameTermination {
    pub const ALL: [GameTermination; 9] = [
        GameTermination::Checkmate,
        GameTermination::Stalemate,
        GameTermination::InsufficientMaterial,
        GameTermination::DeadPosition,
        GameTermination::SeventyfiveMoves,
        GameTermination::FivefoldRepetition,
        GameTermination::FiftyMoves,
        GameTermination::ThreefoldRepetition,
        GameTermination::PlyCap,
    ];

    /// The text of the PGN `Termination` tag.
    pub const fn name(self) -> &'static str {
        match self {
            GameTermination::Checkmate => "checkmate",
            GameTermination::Stalemate => "stalemate",
            GameTermination::InsufficientMaterial => "insufficient material",
            GameTermination::DeadPosition => "dead position",
            GameTermination::SeventyfiveMoves => "seventy-five moves",
            GameTermination::FivefoldRepetition => "fivefold repetition",
            GameTermination::FiftyMoves => "fifty moves",
            GameTermination::ThreefoldRepetition => "threefold repetition",
            GameTermination::PlyCap => "adjudication: ply cap",
        }
    }

    fn from_rules(t: Termination) -> GameTermination {
        match t {
            Termination::Checkmate => GameTermination::Checkmate,
            Termination::Stalemate => GameTermination::Stalemate,
            Termination::InsufficientMaterial => GameTermination::InsufficientMaterial,
            Termination::SeventyfiveMoves => GameTermination::SeventyfiveMoves,
            Termination::FivefoldRepetition => GameTermination::FivefoldRepetition,
            Termination::FiftyMoves => GameTermination::FiftyMoves,
            Termination::ThreefoldRepetition => GameTermination::ThreefoldRepetition,
            Termination::DeadPosition => GameTermination::DeadPosition,
            // Self-play has no resignation, clock, agreement or illegal move; `outcome_under`
            // never returns these, and a draw is the neutral reading should it ever.
            Termination::Resignation
            | Termination::TimeForfeit
            | Termination::Agreement
            | Termination::IllegalMoves => GameTermination::PlyCap,
        }
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's index in the match (PGN `Round`).
    pub index: u64,
    /// The position the game (opening moves included) starts from.
    pub start: Position,
    /// Every move, the opening's first.
    pub moves: Vec<Move>,
    /// How many of `moves` came from the opening.
    pub opening_plies: usize,
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub termination: GameTermination,
    /// Static evaluations of the game's searches.
    pub evaluations: u64,
    /// Nodes of the game's searches.
    pub nodes: u64,
}

impl GameRecord {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The final position.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start;
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        pos
    }
}

/// What one game needs besides its opening.
pub struct GameSettings<'a> {
    pub limits: &'a Limits,
    pub max_plies: u32,
    pub hash_mb: usize,
    pub route: &'a EvalRoute,
    pub evaluation: &'a Evaluation,
    /// Stops the game between moves (it is then abandoned: `Ok(None)`).
    pub stop: &'a AtomicBool,
    /// Counts plies and evaluations as they happen, for progress reports.
    pub plies: &'a AtomicU64,
    pub evaluations: &'a AtomicU64,
}

/// Plays game `index` from `opening`. `on_engine` sees the game's engine's stop handle, so a
/// stop can also cut short the search in progress.
pub fn play_game(
    index: u64,
    opening: &Opening,
    s: &GameSettings<'_>,
    on_engine: impl FnOnce(StopHandle),
) -> Result<Option<GameRecord>, EngineError> {
    // A fresh engine per game: its table and history depend on this game alone, so the
    // game depends only on its opening, wherever and after whatever it is played.
    let mut engine = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: s.hash_mb,
        eval_route: s.route.clone(),
        evaluation: s.evaluation.clone(),
        ..EngineOptions::default()
    })?;
    on_engine(engine.stop_handle());
    let mut history = History::new(opening.start);
    for &m in &opening.moves {
        history.push_unchecked(m);
    }
    let mut evaluations = 0;
    let mut nodes = 0;
    let finish = |history: History, winner, termination, evaluations, nodes| {
        Ok(Some(GameRecord {
            index,
            start: opening.start,
            moves: history.moves().to_vec(),
            opening_plies: opening.moves.len(),
            winner,
            termination,
            evaluations,
            nodes,
        }))
    };
    loop {
        if let Some(o) = history.outcome_under(Rules::Automatic) {
            let t = GameTermination::from_rules(o.termination);
            return finish(history, o.winner, t, evaluations, nodes);
        }
        // The helpmate proof behind a dead position costs up to a millisecond; material and
        // pawn walls change only with captures and pawn moves, so that is when it is tried.
        let pos = *history.position();
        if pos.halfmove_clock() == 0 && pos.is_dead_position() {
            return finish(
                history,
                None,
                GameTermination::DeadPosition,
                evaluations,
                nodes,
            );
        }
        if history.moves().len() >= s.max_plies as usize {
            return finish(history, None, GameTermination::PlyCap, evaluations, nodes);
        }
        if s.stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let result = engine.search(SearchRoot::from(&history), s.limits, |_| {});
        if s.stop.load(Ordering::Relaxed) {
            // The search may have been cut short: its move is not the deterministic one.
            return Ok(None);
        }
        evaluations += result.evaluations;
        nodes += result.nodes;
        s.plies.fetch_add(1, Ordering::Relaxed);
        s.evaluations
            .fetch_add(result.evaluations, Ordering::Relaxed);
        let Some(m) = result.best_move else {
            // Unreachable: a position with a legal move always yields one.
            return Ok(None);
        };
        history.push_unchecked(m);
    }
}

//! The one game loop: self-play and data generation both play their games here.
//!
//! A game is a function of its opening and settings alone: a fresh one-thread engine (its
//! table and history depend on this game only), moves from a search with fixed limits, until
//! the rules end the game (automatic rules: fifty moves and threefold repetition end it at
//! once), the position is dead, the game is within the caller's Syzygy tables (their result
//! ends it), the ply cap adjudicates a draw, or the caller's `on_ply` hook adjudicates it. A stop between moves, or during a search, abandons the game: a cut search
//! is not the deterministic one.

use super::opening::Opening;
use crate::engine::{Engine, EngineError, EngineOptions, SearchResult, SearchRoot, StopHandle};
use crate::limits::Limits;
use crate::syzygy::{SyzygySettings, game_result};
use shatranj_chess::{Color, History, Move, Position, Rules, Termination};
use std::sync::atomic::{AtomicBool, Ordering};

/// How a game ended.
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
    /// The caller's `on_ply` hook decided the game (data generation's score adjudication).
    Adjudication,
    /// The game reached a position within the Syzygy tables it was given, and ended with
    /// their result (a cursed win or blessed loss is a draw: games apply the fifty-move rule).
    Tablebase,
}

impl GameTermination {
    pub const ALL: [GameTermination; 11] = [
        GameTermination::Checkmate,
        GameTermination::Stalemate,
        GameTermination::InsufficientMaterial,
        GameTermination::DeadPosition,
        GameTermination::SeventyfiveMoves,
        GameTermination::FivefoldRepetition,
        GameTermination::FiftyMoves,
        GameTermination::ThreefoldRepetition,
        GameTermination::PlyCap,
        GameTermination::Adjudication,
        GameTermination::Tablebase,
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
            GameTermination::Adjudication => "adjudication: score",
            GameTermination::Tablebase => "adjudication: tablebase",
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
    /// The game's index in its match or job (PGN `Round`).
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

/// What the `on_ply` hook of [`play_game`] decides after each searched move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    /// End the game now with this winner (`None`: a draw).
    Adjudicate(Option<Color>),
}

/// Plays game `index` from `opening`, each move found by a search to `limits` on a fresh
/// one-thread engine with `options` (its `threads` is ignored). Games still running after
/// `max_plies` plies (opening included) are drawn. A game that reaches a position within
/// `tables` (see [`game_result`]; no tables: never) ends there with their result; the
/// engine's own search uses `options.syzygy`, not these. `on_engine` sees the engine's stop handle,
/// so a stop can also cut short the search under way. After each searched move is played,
/// `on_ply(position before it, its ply, the move, the search's result)` may adjudicate the
/// game.
/// `Ok(None)`: `stop` abandoned the game.
#[allow(clippy::too_many_arguments)]
pub fn play_game(
    index: u64,
    opening: &Opening,
    options: &EngineOptions,
    limits: &Limits,
    max_plies: u32,
    tables: &SyzygySettings,
    stop: &AtomicBool,
    on_engine: impl FnOnce(StopHandle),
    mut on_ply: impl FnMut(&Position, u32, Move, &SearchResult) -> Control,
) -> Result<Option<GameRecord>, EngineError> {
    // A fresh engine per game: its table and history depend on this game alone, so the
    // game depends only on its opening, wherever and after whatever it is played.
    let mut engine = Engine::new(EngineOptions {
        threads: 1,
        ..options.clone()
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
            let t = GameTermination::DeadPosition;
            return finish(history, None, t, evaluations, nodes);
        }
        if let Some(winner) = game_result(tables, &pos) {
            let t = GameTermination::Tablebase;
            return finish(history, winner, t, evaluations, nodes);
        }
        let ply = history.moves().len();
        if ply >= max_plies as usize {
            return finish(history, None, GameTermination::PlyCap, evaluations, nodes);
        }
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let result = engine.search(SearchRoot::from(&history), limits, |_| {});
        if stop.load(Ordering::Relaxed) {
            // The search may have been cut short: its move is not the deterministic one.
            return Ok(None);
        }
        let Some(m) = result.best_move else {
            // Unreachable: the outcome check above ends games without a legal move.
            return Ok(None);
        };
        evaluations += result.evaluations;
        nodes += result.nodes;
        history.push_unchecked(m);
        if let Control::Adjudicate(winner) = on_ply(&pos, ply as u32, m, &result) {
            let t = GameTermination::Adjudication;
            return finish(history, winner, t, evaluations, nodes);
        }
    }
}

//! Game review as lichess does it: every position of a game evaluated once, every move given
//! its Win% before and after, its accuracy and, where it lost enough, a judgement
//! (inaccuracy, mistake, blunder); per side the accuracy, the average centipawn loss and the
//! count of each judgement.
//!
//! - [`definitions`]: lichess's formulas as pure functions (Win%, move and game accuracy,
//!   judgements, ACPL).
//! - [`analyse_game`]: evaluates a game's positions with any [`Analyser`]: the in-process
//!   [`EngineAnalyser`], an external UCI engine ([`crate::uci_client::UciAnalyser`]), or the
//!   `[%eval]` comments already in a PGN ([`evals_from_comments`]).
//! - [`review_moves`]: turns the evaluations into the per-move and per-side review.
//! - [`annotate()`]: the annotated PGN (lichess's `[%eval]` comments, NAGs, advice and best line).
//!
//! ```
//! use shatranj_engine::review::{self, Eval, EngineAnalyser, analyse_game, review_moves};
//! use shatranj_engine::{Engine, EngineOptions, Limits};
//! use shatranj_chess::{Color, Position, san::parse_san};
//!
//! assert_eq!(review::win_percent(Eval::Cp(0)), 50.0);
//! let start = Position::new();
//! let mut pos = start;
//! let mut moves = Vec::new();
//! for san in ["f3", "e5", "g4", "Qh4#"] {
//!     let m = parse_san(&pos, san).unwrap();
//!     pos.play(m).unwrap();
//!     moves.push(m);
//! }
//! let engine = Engine::new(EngineOptions { threads: 1, hash_mb: 8, ..Default::default() }).unwrap();
//! let mut analyser = EngineAnalyser::new(engine, Limits::depth(4));
//! let mode = shatranj_chess::CastlingMode::Standard;
//! let analyses = analyse_game(&mut analyser, &start, &moves, mode).unwrap();
//! let r = review_moves(&start, &moves, &analyses, mode);
//! assert_eq!(r.moves[3].after, Some(Eval::Mated(Color::White)));
//! assert_eq!(r.moves[2].advice.unwrap().judgement, review::Judgement::Blunder);
//! assert!(r.accuracy[0].unwrap() < r.accuracy[1].unwrap());
//! ```

pub mod annotate;
pub mod definitions;

pub use annotate::{advice_comment, annotate};
pub use definitions::{
    Advice, AdviceKind, CEILING, Eval, Judgement, START_EVAL, acpl, centipawn_loss, game_accuracy,
    judge, move_accuracy, mover_accuracy, win_percent, win_percent_cp, winning_chances,
};

use crate::engine::{Engine, SearchRoot};
use crate::limits::Limits;
use shatranj_chess::san::to_san;
use shatranj_chess::uci::to_uci;
use shatranj_chess::{CastlingMode, Color, History, Move, Position};
use shatranj_pgn::{PgnGame, annotations};

/// What an analyser says about one position: White's evaluation (unknown where a comment
/// lacked one), and the best move and its line where an engine gave them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionAnalysis {
    pub eval: Option<Eval>,
    pub best: Option<Move>,
    /// The best line, starting with `best`; empty when unknown.
    pub pv: Vec<Move>,
    /// The depth the search completed and the nodes it visited, as the engine reported them
    /// (`None` when it did not, or nothing was searched: a comment, a finished game).
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// Evaluates positions: an engine in process or in another process.
pub trait Analyser {
    type Error;
    /// A new game begins (clear the hash: the same game then gets the same review).
    fn new_game(&mut self, mode: CastlingMode) -> Result<(), Self::Error>;
    /// Analyses the position reached by `moves` from `start` (never a finished game).
    fn analyse(
        &mut self,
        start: &Position,
        moves: &[Move],
    ) -> Result<PositionAnalysis, Self::Error>;
}

/// The in-process engine as an [`Analyser`]: one search per position within `limits`, the
/// game's earlier positions given so repetitions count; [`Engine::new_game`] between games.
pub struct EngineAnalyser {
    pub engine: Engine,
    pub limits: Limits,
    /// Nodes searched so far.
    pub nodes: u64,
}

impl EngineAnalyser {
    pub fn new(engine: Engine, limits: Limits) -> EngineAnalyser {
        EngineAnalyser {
            engine,
            limits,
            nodes: 0,
        }
    }
}

impl Analyser for EngineAnalyser {
    type Error = std::convert::Infallible;

    fn new_game(&mut self, _mode: CastlingMode) -> Result<(), Self::Error> {
        self.engine.new_game();
        Ok(())
    }

    fn analyse(
        &mut self,
        start: &Position,
        moves: &[Move],
    ) -> Result<PositionAnalysis, Self::Error> {
        let mut pos = *start;
        let mut previous_keys = Vec::with_capacity(moves.len());
        for &m in moves {
            previous_keys.push(pos.key());
            pos.play_unchecked(m);
        }
        let turn = pos.turn();
        let root = SearchRoot {
            position: pos,
            previous_keys,
        };
        let result = self.engine.search(root, &self.limits, |_| {});
        self.nodes += result.nodes;
        Ok(PositionAnalysis {
            eval: Some(Eval::from_score(result.score, turn)),
            best: result.best_move,
            pv: result.pv,
            depth: Some(result.depth),
            nodes: Some(result.nodes),
        })
    }
}

/// A failure of the analyser at one position of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalyseError<E> {
    /// The position's index: 0 before the first move, `i` after move `i`.
    pub ply: usize,
    pub error: E,
}

/// Whether a game starts from lichess's standard start (its evaluation is then
/// [`START_EVAL`]): the standard position, move counters included, in standard chess (as
/// `shatranj.review` tells it: `board.fen() == STARTING_FEN and not board.chess960`).
pub fn is_standard_start(start: &Position, mode: CastlingMode) -> bool {
    mode == CastlingMode::Standard && start.fen() == Position::new().fen()
}

/// The evaluation of a position where the game is over on the board, by python-chess's
/// `Board.outcome()` without claims: checkmate (the side to move is mated), and the draws
/// that need no claim (insufficient material, stalemate, seventy-five moves, fivefold
/// repetition) as 0; `None` where play goes on.
pub fn game_over_eval(history: &History) -> Option<Eval> {
    let outcome = history.outcome(false)?;
    Some(match outcome.winner {
        Some(winner) => Eval::Mated(winner.other()),
        None => Eval::Cp(0),
    })
}

/// Analyses every position of a game once, after [`Analyser::new_game`]: `moves.len() + 1`
/// results, position 0 being the start. A position where the game is over is not searched
/// ([`game_over_eval`]). The standard start's evaluation is [`START_EVAL`] (it is still
/// searched, for its best move); any other start's is the analyser's.
pub fn analyse_game<A: Analyser>(
    analyser: &mut A,
    start: &Position,
    moves: &[Move],
    mode: CastlingMode,
) -> Result<Vec<PositionAnalysis>, AnalyseError<A::Error>> {
    analyser
        .new_game(mode)
        .map_err(|error| AnalyseError { ply: 0, error })?;
    let mut out = Vec::with_capacity(moves.len() + 1);
    let mut history = History::new(*start);
    for ply in 0..=moves.len() {
        if ply > 0 {
            history.push_unchecked(moves[ply - 1]);
        }
        let analysis = if let Some(eval) = game_over_eval(&history) {
            PositionAnalysis {
                eval: Some(eval),
                ..PositionAnalysis::default()
            }
        } else {
            let mut a = analyser
                .analyse(start, &moves[..ply])
                .map_err(|error| AnalyseError { ply, error })?;
            if ply == 0 && is_standard_start(start, mode) {
                a.eval = Some(START_EVAL);
            }
            a
        };
        out.push(analysis);
    }
    Ok(out)
}

/// The analyses of a game from its `[%eval]` comments (lichess exports carry them), no
/// engine: position `i`'s evaluation is the comment after move `i`, unknown where missing.
/// The start is [`START_EVAL`] for the standard start, else the `[%eval]` of the comment
/// before the first move if any. A position where the game is over is evaluated from the
/// board ([`game_over_eval`]) whatever its comment says; a `#0` elsewhere is unknown.
pub fn evals_from_comments(game: &PgnGame) -> Vec<PositionAnalysis> {
    let mode = match game.tag("Variant") {
        Some(v) if shatranj_pgn::is_chess960_variant(v) => CastlingMode::Chess960,
        _ => CastlingMode::Standard,
    };
    let mut out = Vec::new();
    let mut history = History::new(game.start);
    let mut node = Some(PgnGame::ROOT);
    while let Some(id) = node {
        if let Some(m) = game.node(id).mv {
            history.push_unchecked(m);
        }
        let eval = if let Some(e) = game_over_eval(&history) {
            Some(e)
        } else if id == PgnGame::ROOT && is_standard_start(&game.start, mode) {
            Some(START_EVAL)
        } else {
            annotations::eval(game.comment(id)).and_then(|c| match c.eval {
                annotations::Eval::Cp(cp) => Some(Eval::Cp(
                    cp.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
                )),
                annotations::Eval::Mate(0) => None,
                annotations::Eval::Mate(n) => Some(Eval::Mate(
                    n.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
                )),
            })
        };
        out.push(PositionAnalysis {
            eval,
            ..PositionAnalysis::default()
        });
        node = game.node(id).main_child();
    }
    out
}

/// One move of a review.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// 1 for the game's first move.
    pub ply: usize,
    /// The full-move number the move is played at (`12` for `12. Nf3` and `12... Nf6`).
    pub move_number: u32,
    pub color: Color,
    pub mv: Move,
    pub san: String,
    pub uci: String,
    /// White's evaluation before and after the move.
    pub before: Option<Eval>,
    pub after: Option<Eval>,
    /// The engine's best move in the position before, with its SAN, UCI and line (UCI).
    pub best: Option<Move>,
    pub best_san: Option<String>,
    pub best_uci: Option<String>,
    pub pv: Vec<Move>,
    pub pv_uci: Vec<String>,
    /// White's Win% before and after.
    pub win_before: Option<f64>,
    pub win_after: Option<f64>,
    /// The move's accuracy from the mover's side.
    pub accuracy: Option<f64>,
    pub advice: Option<Advice>,
    /// The depth and nodes of the search of the position before the move (see
    /// [`PositionAnalysis`]).
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl MoveReview {
    pub fn judgement(&self) -> Option<Judgement> {
        self.advice.map(|a| a.judgement)
    }
}

/// A game's review: its moves, and per side (index [`Color::index`]: White 0, Black 1) the
/// accuracy, ACPL and the count of inaccuracies, mistakes and blunders.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReview {
    pub start_eval: Option<Eval>,
    pub moves: Vec<MoveReview>,
    pub accuracy: [Option<f64>; 2],
    pub acpl: [Option<i64>; 2],
    /// `[inaccuracies, mistakes, blunders]` per side.
    pub counts: [[u32; 3]; 2],
}

/// The review of a game from its positions' analyses (`moves.len() + 1` of them, as
/// [`analyse_game`] and [`evals_from_comments`] give). A move is judged only where the best
/// move is unknown or is not the move played (lichess's rule: its analysis has no variation
/// where the move played was the engine's).
pub fn review_moves(
    start: &Position,
    moves: &[Move],
    analyses: &[PositionAnalysis],
    mode: CastlingMode,
) -> GameReview {
    assert_eq!(analyses.len(), moves.len() + 1, "one analysis per position");
    let mut out = Vec::with_capacity(moves.len());
    let mut counts = [[0u32; 3]; 2];
    let mut pos = *start;
    for (i, &m) in moves.iter().enumerate() {
        let (a, b) = (&analyses[i], &analyses[i + 1]);
        let color = pos.turn();
        let legal = pos.legal_moves();
        // The engine's line, as far as it is legal.
        let mut pv = Vec::new();
        let mut pv_uci = Vec::new();
        let mut p = pos;
        for &x in &a.pv {
            if !p.is_legal(x) {
                break;
            }
            pv_uci.push(to_uci(&p, x, mode));
            pv.push(x);
            p.play_unchecked(x);
        }
        let best = a.best.filter(|&x| legal.contains(&x));
        let win_before = a.eval.map(win_percent);
        let win_after = b.eval.map(win_percent);
        let accuracy = match (win_before, win_after) {
            (Some(x), Some(y)) => Some(mover_accuracy(x, y, color)),
            _ => None,
        };
        let advice = match (a.eval, b.eval) {
            (Some(x), Some(y)) if best != Some(m) => judge(x, y, color),
            _ => None,
        };
        if let Some(advice) = advice {
            counts[color.index()][advice.judgement as usize] += 1;
        }
        out.push(MoveReview {
            ply: i + 1,
            move_number: pos.fullmove_number(),
            color,
            mv: m,
            san: to_san(&pos, m),
            uci: to_uci(&pos, m, mode),
            before: a.eval,
            after: b.eval,
            best,
            best_san: best.map(|x| to_san(&pos, x)),
            best_uci: best.map(|x| to_uci(&pos, x, mode)),
            pv,
            pv_uci,
            win_before,
            win_after,
            accuracy,
            advice,
            depth: a.depth,
            nodes: a.nodes,
        });
        pos.play_unchecked(m);
    }
    let evals: Vec<Option<Eval>> = analyses[1..].iter().map(|a| a.eval).collect();
    let first = start.turn();
    let (wa, ba) = game_accuracy(&evals, first, analyses[0].eval);
    let (wl, bl) = acpl(&evals, first, analyses[0].eval);
    GameReview {
        start_eval: analyses[0].eval,
        moves: out,
        accuracy: [wa, ba],
        acpl: [wl, bl],
        counts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shatranj_pgn::{PgnReader, WriteOptions, write_game};

    fn game(text: &str) -> PgnGame {
        PgnReader::new(text.as_bytes()).next().unwrap().unwrap()
    }

    #[test]
    fn comments_give_the_evaluations_and_the_board_ends_the_game() {
        let g = game(
            "1. f3 { [%eval -0.30] } e5 { [%eval -0.2] } 2. g4 { [%eval #-1] } Qh4# { [%eval #0] } 0-1\n",
        );
        let a = evals_from_comments(&g);
        let evals: Vec<_> = a.iter().map(|x| x.eval).collect();
        assert_eq!(
            evals,
            [
                Some(START_EVAL),
                Some(Eval::Cp(-30)),
                Some(Eval::Cp(-20)),
                Some(Eval::Mate(-1)),
                Some(Eval::Mated(Color::White)),
            ]
        );
        let moves = g.mainline_moves();
        let r = review_moves(&g.start, &moves, &a, CastlingMode::Standard);
        let judged: Vec<_> = r.moves.iter().map(super::MoveReview::judgement).collect();
        // 15 -> -30: a drop of 0.083 in winning chances; -20 -> mate against: a blunder.
        assert_eq!(judged, [None, None, Some(Judgement::Blunder), None]);
        assert_eq!(r.counts, [[0, 0, 1], [0, 0, 0]]);

        let annotated = annotate(&g, &r, Some("test"));
        let one_line = WriteOptions {
            columns: None,
            ..WriteOptions::default()
        };
        let pgn = write_game(&annotated, &one_line).unwrap();
        // White lost 45 then 980 centipawns (a mate counts 1000): 512.5 rounds up.
        assert!(pgn.contains("[WhiteACPL \"513\"]"), "{pgn}");
        assert!(
            pgn.contains(
                "2. g4 $4 { [%eval #-1] (-0.20 → Mate in 1) Checkmate is now unavoidable. }"
            ),
            "{pgn}"
        );
        assert!(pgn.contains("2... Qh4# { [%eval #-0] } 0-1"), "{pgn}");
    }

    #[test]
    fn a_draw_on_the_board_is_zero_whatever_the_comment() {
        // 1. Kxb2 leaves a king and a bishop against a king: insufficient material.
        let g = game("[FEN \"k7/8/8/8/8/8/1r6/KB6 w - - 0 1\"]\n\n1. Kxb2 { [%eval 5.0] } *\n");
        let evals: Vec<_> = evals_from_comments(&g).iter().map(|a| a.eval).collect();
        assert_eq!(evals, [None, Some(Eval::Cp(0))]);
        assert!(!is_standard_start(&g.start, CastlingMode::Standard));
        assert!(is_standard_start(&Position::new(), CastlingMode::Standard));
        assert!(!is_standard_start(&Position::new(), CastlingMode::Chess960));
    }

    #[test]
    fn a_move_the_engine_chose_is_not_judged() {
        let start = Position::new();
        let e4 = shatranj_chess::san::parse_san(&start, "e4").unwrap();
        let analyses = |best| {
            vec![
                PositionAnalysis {
                    eval: Some(Eval::Cp(15)),
                    best,
                    pv: best.into_iter().collect(),
                    ..Default::default()
                },
                PositionAnalysis {
                    eval: Some(Eval::Cp(-400)),
                    ..Default::default()
                },
            ]
        };
        let r = review_moves(&start, &[e4], &analyses(Some(e4)), CastlingMode::Standard);
        assert_eq!(r.moves[0].judgement(), None);
        let d4 = shatranj_chess::san::parse_san(&start, "d4").unwrap();
        let r = review_moves(&start, &[e4], &analyses(Some(d4)), CastlingMode::Standard);
        assert_eq!(r.moves[0].judgement(), Some(Judgement::Blunder));
        assert_eq!(r.moves[0].best_san.as_deref(), Some("d4"));
        assert_eq!(
            advice_comment(&r.moves[0]),
            "(0.15 → -4.00) Blunder. d4 was best."
        );
        let r = review_moves(&start, &[e4], &analyses(None), CastlingMode::Standard);
        assert_eq!(r.moves[0].judgement(), Some(Judgement::Blunder));
    }
}

//! Data generation's policy for one game over the shared game loop ([`crate::games::play`]):
//! a random balanced opening, moves from a soft-node search, score adjudication (and,
//! given Syzygy tables, adjudication or WDL labels by them), and which positions are kept
//! for training.

use super::format::{GameData, Ply};
use crate::engine::{EngineError, EngineOptions, StopHandle};
use crate::games::opening::{Opening, RandomOpenings, random_opening};
use crate::games::play::{Control, play_game as play};
use crate::limits::Limits;
use crate::score::Score;
use crate::syzygy::{SyzygySettings, probe_within};
use shatranj_chess::{Color, Move, Position};
use std::sync::atomic::AtomicBool;

/// When a game is decided before the rules end it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// A side wins once every score for `win_plies` plies in a row (both sides' searches)
    /// says it is at least this far ahead (mates included).
    pub win_cp: i32,
    pub win_plies: u32,
    /// The game is drawn once, from ply `draw_after_ply` on, every score for `draw_plies`
    /// plies in a row is within `±draw_cp`.
    pub draw_cp: i32,
    pub draw_plies: u32,
    pub draw_after_ply: u32,
    /// Still running at this many plies (opening included): a draw.
    pub max_plies: u32,
}

impl Default for Adjudication {
    fn default() -> Adjudication {
        Adjudication {
            win_cp: 2000,
            win_plies: 8,
            draw_cp: 10,
            draw_plies: 10,
            draw_after_ply: 70,
            max_plies: 400,
        }
    }
}

/// What a game needs to be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSettings {
    pub seed: u64,
    pub openings: RandomOpenings,
    /// Each move's search starts no iteration after this many nodes…
    pub soft_nodes: u64,
    /// …and stops at this many.
    pub hard_nodes: u64,
    pub hash_mb: usize,
    /// Plies before this one (opening included) are never training positions.
    pub min_ply: u32,
    pub adjudication: Adjudication,
    /// When not empty, game `i` starts from `opening_list[i % len]` (its moves are not
    /// training positions) instead of a random opening: endgame positions, say, to reach
    /// the tables.
    pub opening_list: Vec<Opening>,
    /// Syzygy tables (only `tables` and `probe_limit` matter; the engine searches without
    /// them). Without `tablebase_labels`, a game that reaches a position within them ends
    /// there with their result ([`crate::games::GameTermination::Tablebase`]), so every
    /// training position of the game is labelled with the tables' verdict on where the
    /// game went rather than a score adjudication's.
    pub tablebases: SyzygySettings,
    /// With tables: play on within them instead, and label every ply whose position is
    /// within them with its WDL ([`Ply::wdl`]): the truth for the positions a trainer would
    /// otherwise label by the game's result.
    pub tablebase_labels: bool,
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            seed: 0,
            openings: RandomOpenings {
                plies: 8,
                max_eval: 300,
                balance_depth: 6,
                attempts: 64,
                chess960: false,
            },
            soft_nodes: 5000,
            hard_nodes: 100_000,
            hash_mb: 8,
            min_ply: 16,
            adjudication: Adjudication::default(),
            opening_list: Vec::new(),
            tablebases: SyzygySettings::default(),
            tablebase_labels: false,
        }
    }
}

/// A search score as centipawns for the side to move, mates as ±32000.
fn centipawns(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 32_000,
        Score::Mate(_) => -32_000,
    }
}

/// Tracks the scores of the game so far against the adjudication rules.
#[derive(Default)]
struct Adjudicator {
    white_ahead: u32,
    black_ahead: u32,
    level: u32,
}

impl Adjudicator {
    /// Takes the score (White's view) of the search at `ply`; `Some` once the game is decided
    /// (`Some(None)`: a draw), as [`Control::Adjudicate`] takes the winner.
    #[allow(clippy::option_option)]
    fn decide(&mut self, rules: &Adjudication, white_cp: i32, ply: u32) -> Option<Option<Color>> {
        self.white_ahead = if white_cp >= rules.win_cp {
            self.white_ahead + 1
        } else {
            0
        };
        self.black_ahead = if white_cp <= -rules.win_cp {
            self.black_ahead + 1
        } else {
            0
        };
        self.level = if ply >= rules.draw_after_ply && white_cp.abs() <= rules.draw_cp {
            self.level + 1
        } else {
            0
        };
        if self.white_ahead >= rules.win_plies {
            Some(Some(Color::White))
        } else if self.black_ahead >= rules.win_plies {
            Some(Some(Color::Black))
        } else if self.level >= rules.draw_plies {
            Some(None)
        } else {
            None
        }
    }
}

/// Whether the position before `best` is a training position.
fn is_training_position(pos: &Position, best: Move, score: Score, ply: u32, min_ply: u32) -> bool {
    ply >= min_ply
        && !pos.is_check()
        && !pos.is_capture(best)
        && !best.is_promotion()
        && matches!(score, Score::Cp(_))
}

/// Plays game `index`; `None` if `stop` cut it short (a cut search is not the deterministic
/// one, so the game is dropped). `on_engine` sees the engine's stop handle.
pub fn play_game(
    index: u64,
    s: &GameSettings,
    options: &EngineOptions,
    stop: &AtomicBool,
    on_engine: impl FnOnce(StopHandle),
) -> Result<Option<GameData>, EngineError> {
    let opening = if s.opening_list.is_empty() {
        random_opening(s.seed, index, &s.openings)
    } else {
        s.opening_list[(index % s.opening_list.len() as u64) as usize].clone()
    };
    let options = EngineOptions {
        hash_mb: s.hash_mb,
        ..options.clone()
    };
    let mut plies: Vec<Ply> = Vec::with_capacity(200);
    plies.extend(opening.moves.iter().map(|&mv| Ply {
        mv,
        score: None,
        wdl: None,
    }));
    let no_tables = SyzygySettings::default();
    let adjudicating = if s.tablebase_labels {
        &no_tables
    } else {
        &s.tablebases
    };
    let limits = Limits::soft_nodes(s.soft_nodes, s.hard_nodes);
    let mut adjudicator = Adjudicator::default();
    let record = play(
        index,
        &opening,
        &options,
        &limits,
        s.adjudication.max_plies,
        adjudicating,
        stop,
        on_engine,
        |pos, ply, best, result| {
            let cp = centipawns(result.score);
            let kept = is_training_position(pos, best, result.score, ply, s.min_ply);
            let wdl = if s.tablebase_labels {
                probe_within(&s.tablebases, pos)
            } else {
                None
            };
            plies.push(Ply {
                mv: best,
                score: kept.then_some(cp.clamp(-32_000, 32_000) as i16),
                wdl,
            });
            let white_cp = if pos.turn() == Color::White { cp } else { -cp };
            match adjudicator.decide(&s.adjudication, white_cp, ply) {
                Some(winner) => Control::Adjudicate(winner),
                None => Control::Continue,
            }
        },
    )?;
    Ok(record.map(|r| GameData {
        index,
        start: opening.start,
        winner: r.winner,
        plies,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn adjudication_needs_a_run_of_scores() {
        let rules = Adjudication {
            win_plies: 3,
            draw_plies: 2,
            draw_after_ply: 10,
            ..Adjudication::default()
        };
        let mut a = Adjudicator::default();
        assert_eq!(a.decide(&rules, 2500, 20), None);
        assert_eq!(a.decide(&rules, 2100, 21), None);
        assert_eq!(a.decide(&rules, 1900, 22), None, "the run is broken");
        assert_eq!(a.decide(&rules, 2000, 23), None);
        assert_eq!(a.decide(&rules, 32_000, 24), None);
        assert_eq!(a.decide(&rules, 2000, 25), Some(Some(Color::White)));
        let mut a = Adjudicator::default();
        assert_eq!(a.decide(&rules, -2001, 30), None);
        assert_eq!(a.decide(&rules, -2002, 31), None);
        assert_eq!(a.decide(&rules, -2003, 32), Some(Some(Color::Black)));
        let mut a = Adjudicator::default();
        assert_eq!(a.decide(&rules, 0, 8), None, "too early to draw");
        assert_eq!(a.decide(&rules, 5, 9), None);
        assert_eq!(a.decide(&rules, -10, 10), None);
        assert_eq!(a.decide(&rules, 3, 11), Some(None));
    }

    #[test]
    fn a_game_is_a_function_of_its_index() {
        let settings = GameSettings {
            seed: 11,
            soft_nodes: 300,
            hard_nodes: 3000,
            hash_mb: 1,
            openings: RandomOpenings {
                balance_depth: 2,
                ..GameSettings::default().openings
            },
            adjudication: Adjudication {
                max_plies: 60,
                ..Adjudication::default()
            },
            ..GameSettings::default()
        };
        let stop = AtomicBool::new(false);
        let play = |i| {
            play_game(i, &settings, &EngineOptions::default(), &stop, |_| {})
                .unwrap()
                .unwrap()
        };
        let a = play(5);
        assert_eq!(a, play(5));
        assert_ne!(a.plies, play(6).plies);
        assert!(a.plies.len() > 8 && a.plies.len() <= 60);
        // The opening and the plies before min_ply are never training positions.
        assert!(a.plies[..16].iter().all(|p| p.score.is_none()));
        assert!(a.training_count() > 0);
        for t in a.training_positions() {
            assert!(!t.position.is_check());
        }
        // A stop before the game starts drops it.
        stop.store(true, Ordering::Relaxed);
        assert_eq!(
            play_game(5, &settings, &EngineOptions::default(), &stop, |_| {}).unwrap(),
            None
        );
    }
}

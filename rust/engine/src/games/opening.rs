//! Where self-play games start: a given list of openings (FEN and/or UCI moves), or random
//! balanced ones drawn from a seed (from the standard start, or from a Chess960 starting
//! position drawn by number).
//!
//! A random opening for game `i` depends only on `(seed, i)`: its generator is seeded from
//! both, and the balance test is a fixed-depth search with a fresh table. So any subset of
//! game indices can be played on any machine and give the same games.

use crate::engine::{Engine, EngineOptions};
use crate::limits::Limits;
use crate::score::Score;
use crate::util::SplitMix64;
use shatranj_chess::uci::parse_uci;
use shatranj_chess::{CastlingMode, FenError, Move, Position, chess960};
use std::fmt;

/// A start position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Move>,
}

/// Why an opening line was rejected; `line` counts from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// The FEN part of the line does not parse.
    Fen {
        line: usize,
        fen: String,
        error: String,
    },
    /// A move is not a legal UCI move in the position reached so far.
    Move {
        line: usize,
        mv: String,
        error: String,
    },
    /// The opening ends the game (no legal move is left).
    GameOver { line: usize },
    /// The list has no opening at all.
    Empty,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Fen { line, fen, error } => {
                write!(f, "opening line {line}: bad FEN {fen:?}: {error}")
            }
            OpeningError::Move { line, mv, error } => {
                write!(f, "opening line {line}: move {mv:?}: {error}")
            }
            OpeningError::GameOver { line } => {
                write!(f, "opening line {line}: the game is over after it")
            }
            OpeningError::Empty => f.write_str("the opening list is empty"),
        }
    }
}

impl std::error::Error for OpeningError {}

impl Opening {
    /// The position the engines start from.
    pub fn position(&self) -> Position {
        let mut pos = self.start;
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        pos
    }

    /// One opening: `<FEN>`, `<FEN> moves <uci…>`, or `<uci…>` from the standard start
    /// (an empty line is the standard start itself). `line` numbers the errors.
    pub fn parse(text: &str, line: usize) -> Result<Opening, OpeningError> {
        let text = text.trim();
        let (fen, moves) = if text.contains('/') {
            match text.split_once(" moves") {
                Some((fen, moves)) => (Some(fen.trim()), moves),
                None => (Some(text), ""),
            }
        } else {
            (None, text)
        };
        let start = match fen {
            Some(fen) => start_from_fen(fen).map_err(|e| OpeningError::Fen {
                line,
                fen: fen.to_owned(),
                error: e.to_string(),
            })?,
            None => Position::new(),
        };
        let mut pos = start;
        let mut played = Vec::new();
        for word in moves.split_whitespace() {
            let m = parse_uci(&pos, word).map_err(|e| OpeningError::Move {
                line,
                mv: word.to_owned(),
                error: e.to_string(),
            })?;
            pos.play_unchecked(m);
            played.push(m);
        }
        if !pos.has_legal_moves() {
            return Err(OpeningError::GameOver { line });
        }
        Ok(Opening {
            start,
            moves: played,
        })
    }
}

/// A game's start position from its FEN: standard chess's, or X-FEN/Shredder-FEN where only
/// Chess960 explains the castling rights. (Where both read a FEN they read the same
/// position: `KQkq` with the king on e1/e8 and rooks in the corners.)
pub fn start_from_fen(fen: &str) -> Result<Position, FenError> {
    fen.parse::<Position>()
        .or_else(|e| Position::from_fen_with(fen, CastlingMode::Chess960).map_err(|_| e))
}

/// Parses an opening file: one opening per line (see [`Opening::parse`]); blank lines and
/// lines starting with `#` are skipped.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, OpeningError> {
    let openings = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| Opening::parse(l, i + 1))
        .collect::<Result<Vec<_>, _>>()?;
    if openings.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(openings)
}

/// How random openings are drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RandomOpenings {
    /// Uniformly random legal moves from the start position.
    pub plies: u32,
    /// The largest |score| (centipawns, a `balance_depth` search) an opening may have.
    pub max_eval: i32,
    /// Depth of the balance-check search.
    pub balance_depth: u32,
    /// Draws tried before the most balanced one seen is taken.
    pub attempts: u32,
    /// Chess960: the random moves start from a Chess960 starting position whose number
    /// (0–959) is drawn from the game's generator, instead of the standard start.
    pub chess960: bool,
}

impl Default for RandomOpenings {
    fn default() -> RandomOpenings {
        RandomOpenings {
            plies: 8,
            max_eval: 100,
            balance_depth: 4,
            attempts: 64,
            chess960: false,
        }
    }
}

/// The random opening of game `index`: up to `attempts` draws of `plies` random moves,
/// the first whose balance search scores within `max_eval`; else the best-balanced draw.
pub fn random_opening(seed: u64, index: u64, cfg: &RandomOpenings) -> Opening {
    let mut rng = SplitMix64::for_game(seed, index);
    // One start per game, drawn before the moves so every attempt starts from it.
    let start = if cfg.chess960 {
        let number = rng.below(chess960::COUNT as usize) as u32;
        Position::chess960(number).unwrap_or_default()
    } else {
        Position::new()
    };
    let mut best: Option<(i32, Opening)> = None;
    for _ in 0..cfg.attempts.max(1) {
        let mut pos = start;
        let mut moves = Vec::with_capacity(cfg.plies as usize);
        for _ in 0..cfg.plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal.as_slice()[rng.below(legal.len())];
            pos.play_unchecked(m);
            moves.push(m);
        }
        if !pos.has_legal_moves() || pos.is_insufficient_material() {
            continue;
        }
        let imbalance = balance(&pos, cfg.balance_depth);
        let opening = Opening { start, moves };
        if imbalance <= cfg.max_eval {
            return opening;
        }
        if best.as_ref().is_none_or(|(b, _)| imbalance < *b) {
            best = Some((imbalance, opening));
        }
    }
    best.map_or_else(
        || Opening {
            start,
            moves: Vec::new(),
        },
        |(_, o)| o,
    )
}

/// |score| of a fixed-depth search with a fresh table (a mate counts as infinitely
/// unbalanced); deterministic because the search has one thread and no clock.
fn balance(pos: &Position, depth: u32) -> i32 {
    let Ok(mut engine) = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 1,
        ..EngineOptions::default()
    }) else {
        return 0;
    };
    match engine
        .search(*pos, &Limits::depth(depth.max(1)), |_| {})
        .score
    {
        Score::Cp(cp) => cp.abs(),
        Score::Mate(_) => i32::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_lines_parse() {
        let o = Opening::parse("e2e4 e7e5 g1f3", 1).unwrap();
        assert_eq!(o.start, Position::new());
        assert_eq!(o.moves.len(), 3);
        let o = Opening::parse("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 moves e1c1", 2).unwrap();
        assert_eq!(o.moves.len(), 1);
        // Chess960: castling rights by file, castling as king-takes-rook.
        let o = Opening::parse("1r4k1/8/8/8/8/8/PPP5/RK6 w A - 0 1 moves b1a1", 2).unwrap();
        assert_eq!(o.position().fen(), "1r4k1/8/8/8/8/8/PPP5/2KR4 b - - 1 1");
        assert_eq!(Opening::parse("", 3).unwrap().moves, vec![]);
        let bad = [
            ("e2e5", "move"),
            ("8/8/8 w - - 0 1", "FEN"),
            ("f2f3 e7e5 g2g4 d8h4", "over"),
        ];
        for (text, needle) in bad {
            let e = Opening::parse(text, 7).unwrap_err().to_string();
            assert!(e.contains("line 7") && e.contains(needle), "{text}: {e}");
        }
        assert_eq!(
            parse_openings("# only a comment\n\n"),
            Err(OpeningError::Empty)
        );
        let list = parse_openings("e2e4\n# c\n\nd2d4 d7d5\n").unwrap();
        assert_eq!(list.len(), 2);
        assert!(matches!(
            parse_openings("e2e4\nzz").unwrap_err(),
            OpeningError::Move { line: 2, .. }
        ));
    }

    #[test]
    fn random_openings_depend_on_seed_and_index_only() {
        let cfg = RandomOpenings {
            balance_depth: 2,
            ..RandomOpenings::default()
        };
        let a = random_opening(7, 3, &cfg);
        assert_eq!(a, random_opening(7, 3, &cfg));
        assert_eq!(a.moves.len(), cfg.plies as usize);
        let others: Vec<Opening> = (0..6).map(|i| random_opening(7, i, &cfg)).collect();
        assert!(others.windows(2).any(|w| w[0] != w[1]));
        assert_ne!(random_opening(8, 3, &cfg), a);
    }

    /// Chess960 openings start from a starting position drawn by number, the same for the
    /// same seed and index, and different numbers over a few games.
    #[test]
    fn chess960_openings_start_from_a_drawn_number() {
        let cfg = RandomOpenings {
            plies: 2,
            balance_depth: 1,
            attempts: 1,
            chess960: true,
            ..RandomOpenings::default()
        };
        let numbers: Vec<u32> = (0..8)
            .map(|i| {
                let o = random_opening(5, i, &cfg);
                assert_eq!(o, random_opening(5, i, &cfg));
                assert_eq!(o.moves.len(), 2);
                o.start.chess960_number().unwrap()
            })
            .collect();
        println!("seed 5: {numbers:?}");
        assert!(numbers.windows(2).any(|w| w[0] != w[1]), "{numbers:?}");
    }
}

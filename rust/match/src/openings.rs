//! Openings: the start position and the moves both games of a round begin with, read from
//! an EPD file (one position a line: the four FEN fields, then optionally the clocks or EPD
//! operations, which are ignored) or a PGN file (each game's main line, cut at `plies`), and
//! the order they are dealt in.

use crate::options::{OpeningOptions, OpeningOrder};
use shatranj_chess::pgn::PgnReader;
use shatranj_chess::{Move, Position};
use shatranj_engine::util::rng::SplitMix64;
use std::io::BufReader;

/// One opening: a start position and moves already played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Move>,
}

impl Default for Opening {
    /// The standard start position, no moves.
    fn default() -> Opening {
        Opening {
            start: Position::new(),
            moves: Vec::new(),
        }
    }
}

/// Reads an EPD line's position: the four FEN fields, with the clocks when the next two
/// fields are numbers.
pub fn epd_position(line: &str) -> Result<Position, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!("not an EPD position: {line:?}"));
    }
    let clocks = fields.len() >= 6
        && fields[4].parse::<u32>().is_ok()
        && fields[5].trim_end_matches(';').parse::<u32>().is_ok();
    let fen = if clocks {
        format!(
            "{} {}",
            fields[..5].join(" "),
            fields[5].trim_end_matches(';')
        )
    } else {
        fields[..4].join(" ")
    };
    fen.parse::<Position>()
        .map_err(|e| format!("{line:?}: {e}"))
}

/// Reads every opening of the file `options` names.
pub fn read_openings(options: &OpeningOptions) -> Result<Vec<Opening>, String> {
    let name = options.file.display();
    let file = std::fs::File::open(&options.file).map_err(|e| format!("openings {name}: {e}"))?;
    let mut openings = Vec::new();
    if options.pgn {
        for (i, game) in PgnReader::new(BufReader::new(file)).enumerate() {
            let game = game.map_err(|e| format!("openings {name}, game {}: {e}", i + 1))?;
            let mut moves = game.mainline_moves();
            if let Some(plies) = options.plies {
                moves.truncate(plies);
            }
            openings.push(Opening {
                start: game.start,
                moves,
            });
        }
    } else {
        let text = std::io::read_to_string(file).map_err(|e| format!("openings {name}: {e}"))?;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let start = epd_position(line).map_err(|e| format!("{name}:{}: {e}", i + 1))?;
            openings.push(Opening {
                start,
                moves: Vec::new(),
            });
        }
    }
    if openings.is_empty() {
        return Err(format!("openings {name}: no openings in the file"));
    }
    Ok(openings)
}

/// The order rounds take the openings in: from `start` (counted from 1) on, wrapping
/// around; `random` shuffles the list once with the match's seed first (Fisher–Yates over
/// SplitMix64), so a seed names the whole order.
pub fn deal(count: usize, order: OpeningOrder, start: usize, seed: u64) -> Vec<usize> {
    let mut indices: Vec<usize> = (0..count).collect();
    if order == OpeningOrder::Random {
        let mut rng = SplitMix64::new(seed);
        for i in (1..count).rev() {
            let j = rng.below(i + 1);
            indices.swap(i, j);
        }
    }
    let first = (start.max(1) - 1) % count.max(1);
    indices.rotate_left(first);
    indices
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines_with_and_without_clocks() {
        let p =
            epd_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"x\";")
                .unwrap();
        assert_eq!(
            p.fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        let p = epd_position("8/8/8/8/8/8/8/K1k5 w - - 12 40").unwrap();
        assert_eq!(p.fen(), "8/8/8/8/8/8/8/K1k5 w - - 12 40");
        assert!(epd_position("8/8/8 w").is_err());
    }

    #[test]
    fn dealing_is_a_permutation_fixed_by_the_seed() {
        assert_eq!(deal(4, OpeningOrder::Sequential, 3, 0), vec![2, 3, 0, 1]);
        let a = deal(50, OpeningOrder::Random, 1, 7);
        assert_eq!(a, deal(50, OpeningOrder::Random, 1, 7));
        assert_ne!(a, deal(50, OpeningOrder::Random, 1, 8));
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }
}

//! Openings: the start position and the moves both games of a round begin with, read from
//! an EPD file (one position a line: the four FEN fields, then optionally the clocks or EPD
//! operations, which are ignored), a PGN file (each game's main line, cut at `plies`) or a
//! Polyglot book (a weighted walk through it per round), and the order they are dealt in.

use crate::options::{OpeningFormat, OpeningOptions, OpeningOrder};
use shatranj_chess::polyglot::Book;
use shatranj_chess::{Move, Position};
use shatranj_engine::util::rng::SplitMix64;
use shatranj_pgn::PgnReader;
use std::io::BufReader;

/// The length of a walk through a Polyglot book when `plies=` is not given.
pub const BOOK_PLIES: usize = 8;

/// One opening: a start position and moves already played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Move>,
}

/// The 960 Chess960 start positions, numbered as Scharnagl numbers them (518 is
/// standard chess's).
pub fn chess960_starts() -> Vec<Opening> {
    (0..960)
        .map(|n| Opening {
            start: Position::chess960(n).expect("0..960 are Chess960 numbers"),
            moves: Vec::new(),
        })
        .collect()
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
    epd_position_with(line, shatranj_chess::CastlingMode::Standard)
}

/// [`epd_position`] with castling rights read in `mode` (Chess960: X-FEN or Shredder-FEN).
pub fn epd_position_with(
    line: &str,
    mode: shatranj_chess::CastlingMode,
) -> Result<Position, String> {
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
    Position::from_fen_with(&fen, mode).map_err(|e| format!("{line:?}: {e}"))
}

/// `count` walks through `book` from the start position, each of at most `plies` moves:
/// at every ply a book move is drawn by its weight (moves of weight 0 never), and a walk
/// ends early where the book has no move. Walk `i` draws from its own generator, seeded by
/// `seed` and `i`, so a seed names every walk whatever the count.
pub fn book_walks(book: &Book, count: usize, plies: usize, seed: u64) -> Vec<Opening> {
    (0..count)
        .map(|i| {
            let mut rng = SplitMix64::for_game(seed, i as u64);
            let start = Position::new();
            let mut pos = start;
            let mut moves = Vec::new();
            while moves.len() < plies {
                let choices: Vec<(Move, u64)> = book
                    .moves(&pos)
                    .into_iter()
                    .filter(|&(_, w)| w > 0)
                    .map(|(m, w)| (m, u64::from(w)))
                    .collect();
                let total: u64 = choices.iter().map(|&(_, w)| w).sum();
                if total == 0 {
                    break;
                }
                let mut pick = rng.next_u64() % total;
                let mut chosen = choices[0].0;
                for &(m, w) in &choices {
                    if pick < w {
                        chosen = m;
                        break;
                    }
                    pick -= w;
                }
                pos.play_unchecked(chosen);
                moves.push(chosen);
            }
            Opening { start, moves }
        })
        .collect()
}

/// Reads every opening of the file `options` names; a Polyglot book gives `walks` walks
/// through it, drawn with `seed` (see [`book_walks`]).
pub fn read_openings(
    options: &OpeningOptions,
    walks: usize,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    let name = options.file.display();
    if options.format == OpeningFormat::Polyglot {
        let bytes = std::fs::read(&options.file).map_err(|e| format!("openings {name}: {e}"))?;
        let book = Book::from_bytes(&bytes).map_err(|e| format!("openings {name}: {e}"))?;
        if book.moves(&Position::new()).iter().all(|&(_, w)| w == 0) {
            return Err(format!(
                "openings {name}: the book has no move from the start position"
            ));
        }
        return Ok(book_walks(
            &book,
            walks.max(1),
            options.plies.unwrap_or(BOOK_PLIES),
            seed,
        ));
    }
    let file = std::fs::File::open(&options.file).map_err(|e| format!("openings {name}: {e}"))?;
    let mut openings = Vec::new();
    if options.format == OpeningFormat::Pgn {
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
            let mode = shatranj_chess::CastlingMode::from_chess960(options.chess960);
            let start =
                epd_position_with(line, mode).map_err(|e| format!("{name}:{}: {e}", i + 1))?;
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
/// `SplitMix64`), so a seed names the whole order.
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
    fn chess960_epd_reads_shredder_and_x_fen_only_in_chess960() {
        use shatranj_chess::CastlingMode;
        let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let p = epd_position_with(shredder, CastlingMode::Chess960).unwrap();
        assert_eq!(p.fullmove_number(), 9);
        assert!(
            epd_position(shredder).is_err(),
            "file letters are not standard chess"
        );
        let starts = chess960_starts();
        assert_eq!(starts.len(), 960);
        assert_eq!(starts[518].start, Position::new());
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

    /// A book's bytes: `(position, uci, weight)` entries, sorted by key.
    fn book(entries: &[(&Position, &str, u16)]) -> Book {
        let mut rows: Vec<[u8; 16]> = entries
            .iter()
            .map(|(pos, uci, weight)| {
                let sq = |s: &[u8]| u16::from(s[0] - b'a') | (u16::from(s[1] - b'1') << 3);
                let b = uci.as_bytes();
                let raw = sq(&b[2..4]) | (sq(&b[0..2]) << 6);
                let mut e = [0u8; 16];
                e[0..8].copy_from_slice(&pos.key().to_be_bytes());
                e[8..10].copy_from_slice(&raw.to_be_bytes());
                e[10..12].copy_from_slice(&weight.to_be_bytes());
                e
            })
            .collect();
        rows.sort_by_key(|e| u64::from_be_bytes(e[0..8].try_into().unwrap()));
        Book::from_bytes(&rows.concat()).unwrap()
    }

    #[test]
    fn book_walks_follow_the_weights_and_the_seed() {
        let start = Position::new();
        let after = |uci: &str| {
            let mut p = start;
            p.play_unchecked(shatranj_chess::uci::parse_uci(&p, uci).unwrap());
            p
        };
        let (e4, d4) = (after("e2e4"), after("d2d4"));
        let b = book(&[
            (&start, "e2e4", 3),
            (&start, "d2d4", 1),
            (&start, "g1f3", 0),
            (&e4, "c7c5", 1),
            (&d4, "d7d5", 2),
            (&d4, "g8f6", 2),
        ]);
        let walks = book_walks(&b, 400, 8, 7);
        assert_eq!(walks, book_walks(&b, 400, 8, 7), "a seed names the walks");
        assert_ne!(walks, book_walks(&b, 400, 8, 8));
        // The first walks do not depend on how many are drawn.
        assert_eq!(walks[..10], book_walks(&b, 10, 8, 7)[..]);
        let text = |o: &Opening| {
            o.moves
                .iter()
                .map(|m| m.to_uci())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut seen = std::collections::BTreeMap::new();
        for w in &walks {
            assert_eq!(w.start, start);
            *seen.entry(text(w)).or_insert(0) += 1;
        }
        // Out of book after two plies; Nf3 (weight 0) never; e4 about three times in four.
        assert_eq!(
            seen.keys().cloned().collect::<Vec<_>>(),
            vec!["d2d4 d7d5", "d2d4 g8f6", "e2e4 c7c5"]
        );
        let e4_walks = seen["e2e4 c7c5"];
        assert!((260..340).contains(&e4_walks), "{e4_walks} of 400");
        // plies cuts a walk short.
        assert!(book_walks(&b, 5, 1, 7).iter().all(|w| w.moves.len() == 1));
    }
}

//! Reading the parameters of UCI's `go` command.
//!
//! A GUI that sends `go` waits for one `bestmove`, whatever else it wrote on the line, so
//! nothing here refuses the command: like Stockfish, the search runs with what was
//! understood. Each thing that was not is named in a note (an `info string` line):
//! - an unknown word is skipped (with any words after it up to the next parameter);
//! - a number that does not parse, or is missing, drops its parameter;
//! - a number out of range (negative, zero where that means nothing, too large for any
//!   clock) is clamped into range: a negative clock moves at once, a huge one is as good as
//!   none;
//! - a `searchmoves` entry that is not a legal move is skipped; when none of them is legal,
//!   there is nothing to search, and the caller answers `bestmove 0000`.
//!
//! Where Stockfish 15.1 differs, it is by accident of C++ stream parsing: it stops reading at
//! the first bad number (so `go depth x movetime 50` searches without limit), reads every
//! word after `searchmoves` as a move (so `depth 5` after it is lost), and takes a negative
//! depth or node count as "no search" or "no limit". Here a bad parameter costs only itself.

use crate::limits::Limits;
use shatranj_chess::Position;
use shatranj_chess::uci::parse_uci;
use std::time::Duration;

/// The words that start a `go` parameter; anything else is unknown.
const PARAMETERS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// The deepest `depth` or longest `mate` a `go` may ask for: past anything a search reaches.
const MAX_PLIES: i128 = 1000;
/// The largest `movestogo` (the time manager caps it lower anyway).
const MAX_MOVES_TO_GO: i128 = 1000;
/// The deepest `go perft`.
const MAX_PERFT_DEPTH: i128 = 64;
/// The longest clock time or increment, in milliseconds; a larger one is read as this
/// (about 292 million years, as good as no clock, and still far from overflowing the time
/// manager's arithmetic).
const MAX_CLOCK_MS: i128 = i64::MAX as i128;

/// What a `go` line asks for.
#[derive(Debug, Default)]
pub(super) struct GoCommand {
    /// The search limits (`multipv` is the caller's to fill in).
    pub limits: Limits,
    /// `go perft N`: count the move tree to depth N instead of searching.
    pub perft: Option<u32>,
    /// One line for each part of the command that was skipped, dropped or clamped.
    pub notes: Vec<String>,
    /// Why there is nothing to search (every `searchmoves` entry was illegal).
    pub nothing_to_search: Option<String>,
}

/// Reads the parameters of `go` (the words after it) for a search from `root`.
pub(super) fn parse_go(args: &[&str], root: &Position) -> GoCommand {
    let mut go = GoCommand::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        match key {
            "infinite" => go.limits.infinite = true,
            "ponder" => go.limits.ponder = true,
            "searchmoves" => i = go.read_searchmoves(args, i, root),
            "wtime" | "btime" | "winc" | "binc" | "movetime" | "movestogo" | "depth" | "nodes"
            | "mate" | "perft" => {
                // The value is the next word, unless that word starts another parameter.
                let value = args.get(i).filter(|w| !PARAMETERS.contains(w));
                if value.is_some() {
                    i += 1;
                }
                go.set_number(key, value.copied());
            }
            _ => {
                let start = i - 1;
                while i < args.len() && !PARAMETERS.contains(&args[i]) {
                    i += 1;
                }
                let words = args[start..i].join(" ");
                go.notes.push(format!(
                    "go: unknown parameter '{}' ignored",
                    super::truncate(&words)
                ));
            }
        }
    }
    go
}

impl GoCommand {
    /// Reads the moves after `searchmoves` from `args[i..]`, up to the next parameter, and
    /// returns where that parameter starts.
    fn read_searchmoves(&mut self, args: &[&str], mut i: usize, root: &Position) -> usize {
        let mut listed = 0;
        while i < args.len() && !PARAMETERS.contains(&args[i]) {
            listed += 1;
            match parse_uci(root, args[i]) {
                Ok(m) if !self.limits.searchmoves.contains(&m) => self.limits.searchmoves.push(m),
                Ok(_) => {}
                Err(e) => self.notes.push(format!(
                    "go: searchmoves skips {}: {e}",
                    super::truncate(args[i])
                )),
            }
            i += 1;
        }
        if listed > 0 && self.limits.searchmoves.is_empty() {
            self.nothing_to_search = Some("no legal move among searchmoves".into());
        }
        i
    }

    /// Sets the numeric parameter `key` from its `value` (absent: there was none).
    fn set_number(&mut self, key: &str, value: Option<&str>) {
        let Some(text) = value else {
            return self
                .notes
                .push(format!("go: {key} needs a number; ignored"));
        };
        let Some(n) = integer(text) else {
            return self.notes.push(format!(
                "go: {key} '{}' is not a number; ignored",
                super::truncate(text)
            ));
        };
        let (min, max) = match key {
            "depth" | "mate" => (1, MAX_PLIES),
            "movestogo" => (1, MAX_MOVES_TO_GO),
            "nodes" => (1, i128::from(u64::MAX)),
            "perft" => (0, MAX_PERFT_DEPTH),
            // The clock times and increments; a negative clock (a flag about to fall, as
            // some GUIs send it) means no time at all.
            _ => (0, MAX_CLOCK_MS),
        };
        let v = n.clamp(min, max);
        if v != n {
            self.notes.push(format!(
                "go: {key} {} is out of range {min}..={max}; {v} used",
                super::truncate(text)
            ));
        }
        let ms = || Some(Duration::from_millis(v as u64));
        let limits = &mut self.limits;
        match key {
            "wtime" => limits.wtime = ms(),
            "btime" => limits.btime = ms(),
            "winc" => limits.winc = ms(),
            "binc" => limits.binc = ms(),
            "movetime" => limits.movetime = ms(),
            "movestogo" => limits.movestogo = Some(v as u32),
            "depth" => limits.depth = Some(v as u32),
            "mate" => limits.mate = Some(v as u32),
            "nodes" => limits.nodes = Some(v as u64),
            "perft" => self.perft = Some(v as u32),
            _ => unreachable!("{key} is not a numeric go parameter"),
        }
    }
}

/// A decimal integer with an optional sign; one with more digits than any type holds is
/// read as the largest (or smallest) value, so that it clamps rather than fails.
fn integer(text: &str) -> Option<i128> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // All digits: parsing fails only on overflow.
    let magnitude = digits.parse::<i128>().unwrap_or(i128::MAX);
    Some(if negative { -magnitude } else { magnitude })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_saturate_instead_of_failing() {
        for (text, want) in [
            ("42", Some(42)),
            ("+7", Some(7)),
            ("-500", Some(-500)),
            ("0", Some(0)),
            (
                "99999999999999999999999999999999999999999999",
                Some(i128::MAX),
            ),
            (
                "-99999999999999999999999999999999999999999999",
                Some(-i128::MAX),
            ),
            ("", None),
            ("-", None),
            ("x", None),
            ("12ms", None),
            ("1.5", None),
            ("1e3", None),
            ("--3", None),
        ] {
            assert_eq!(integer(text), want, "{text:?}");
        }
    }

    /// Each line: the `go` words, then what the command reads from them, then how many notes.
    #[test]
    fn what_each_go_line_searches() {
        let root = Position::new();
        let ms = |n: u64| Some(Duration::from_millis(n));
        let cases: Vec<(&str, Limits, Option<u32>, usize)> = vec![
            ("depth 5", Limits::depth(5), None, 0),
            ("depth x", Limits::default(), None, 1),
            ("depth", Limits::default(), None, 1),
            ("depth -3", Limits::depth(1), None, 1),
            ("depth 0", Limits::depth(1), None, 1),
            ("depth 99999999999999999999", Limits::depth(1000), None, 1),
            (
                "depth x movetime 50",
                Limits::movetime(Duration::from_millis(50)),
                None,
                1,
            ),
            ("wtime depth 4", Limits::depth(4), None, 1),
            ("sideways 3 depth 2", Limits::depth(2), None, 1),
            ("depth 2 sideways", Limits::depth(2), None, 1),
            ("nodes -5", Limits::nodes(1), None, 1),
            (
                "nodes 18446744073709551615",
                Limits::nodes(u64::MAX),
                None,
                0,
            ),
            (
                "nodes 18446744073709551616",
                Limits::nodes(u64::MAX),
                None,
                1,
            ),
            ("movetime -5", Limits::movetime(Duration::ZERO), None, 1),
            (
                "movetime 99999999999999999999999",
                Limits::movetime(Duration::from_millis(i64::MAX as u64)),
                None,
                1,
            ),
            (
                "wtime -20 btime 1000 winc 0 binc 0 movestogo 0",
                Limits {
                    wtime: ms(0),
                    btime: ms(1000),
                    winc: ms(0),
                    binc: ms(0),
                    movestogo: Some(1),
                    ..Limits::default()
                },
                None,
                2,
            ),
            (
                "mate -2",
                Limits {
                    mate: Some(1),
                    ..Limits::default()
                },
                None,
                1,
            ),
            (
                "infinite ponder",
                Limits {
                    infinite: true,
                    ponder: true,
                    ..Limits::default()
                },
                None,
                0,
            ),
            ("perft 3", Limits::default(), Some(3), 0),
            ("perft -1", Limits::default(), Some(0), 1),
            ("perft 99", Limits::default(), Some(64), 1),
            ("perft x", Limits::default(), None, 1),
        ];
        for (line, limits, perft, notes) in cases {
            let args: Vec<&str> = line.split_whitespace().collect();
            let go = parse_go(&args, &root);
            assert_eq!(go.limits, limits, "{line}");
            assert_eq!(go.perft, perft, "{line}");
            assert_eq!(go.notes.len(), notes, "{line}: {:?}", go.notes);
            assert_eq!(go.nothing_to_search, None, "{line}");
        }
    }

    #[test]
    fn searchmoves_skips_what_is_not_a_legal_move() {
        let root = Position::new();
        let moves = |texts: &[&str]| -> Vec<shatranj_chess::Move> {
            texts.iter().map(|t| parse_uci(&root, t).unwrap()).collect()
        };
        for (line, searched, notes, nothing) in [
            ("searchmoves e2e4 d2d4", moves(&["e2e4", "d2d4"]), 0, false),
            ("searchmoves e2e5 d2d4", moves(&["d2d4"]), 1, false),
            (
                "searchmoves e2e4 banana d2d4 depth 5",
                moves(&["e2e4", "d2d4"]),
                1,
                false,
            ),
            ("searchmoves e2e4 e2e4", moves(&["e2e4"]), 0, false),
            ("searchmoves e2e5", vec![], 1, true),
            ("searchmoves 0000 e7e5 depth 3", vec![], 2, true),
            // Nothing listed: every move, as in Stockfish.
            ("searchmoves depth 2", vec![], 0, false),
        ] {
            let args: Vec<&str> = line.split_whitespace().collect();
            let go = parse_go(&args, &root);
            assert_eq!(go.limits.searchmoves, searched, "{line}");
            assert_eq!(go.notes.len(), notes, "{line}: {:?}", go.notes);
            assert_eq!(go.nothing_to_search.is_some(), nothing, "{line}");
            if line.ends_with("depth 5") || line.ends_with("depth 3") {
                assert!(
                    go.limits.depth.is_some(),
                    "{line}: depth after searchmoves lost"
                );
            }
        }
    }
}

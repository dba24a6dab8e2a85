//! The dead-position development set (`data/deadpos/dev-vector.txt`, half of the labelled
//! test vector of the Chess Unwinnability Analyzer; its README says where it comes from):
//! reading it. Read by `tests/dead_vector.rs` and `examples/dead_vector.rs`.
//!
//! One position a line: two label characters (White's, then Black's: `W`/`B` that side can
//! still mate by some series of legal moves, `-` it never can), a space, a FEN that may stop
//! after the side to move or before the move counters. `#` starts a comment line.
//!
//! Included with `#[path = "support/dev_vector.rs"] mod dev_vector;`.
#![allow(dead_code)]

use shatranj_chess::{Color, Position};

/// Where the file is in the repository. Read at run time, not compiled in: the rules crate's
/// package (`scripts/crates`) holds only the crate's own files.
pub const PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/deadpos/dev-vector.txt"
);

/// One labelled position.
#[derive(Clone, Debug)]
pub struct DevCase {
    pub pos: Position,
    /// By colour index: can that side still mate?
    pub can: [bool; 2],
    /// The line as written, for messages.
    pub line: String,
}

impl DevCase {
    pub fn can(&self, color: Color) -> bool {
        self.can[color.index()]
    }
}

/// Every case of the file, in order; a malformed line is an error naming it.
pub fn parse(text: &str) -> Result<Vec<DevCase>, String> {
    let mut cases = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| format!("dev-vector line {}: {why}: {line}", n + 1);
        let (labels, fen) = line.split_once(' ').ok_or_else(|| bad("no FEN"))?;
        let can = match labels {
            "WB" => [true, true],
            "W-" => [true, false],
            "-B" => [false, true],
            "--" => [false, false],
            _ => return Err(bad("labels are WB, W-, -B or --")),
        };
        let mut fields: Vec<&str> = fen.split_whitespace().collect();
        // Short FENs: no castling or en-passant field means none; counters 0 and 1.
        let missing: &[&str] = match fields.len() {
            2 => &["-", "-", "0", "1"],
            3 => &["-", "0", "1"],
            4 => &["0", "1"],
            5 => &["1"],
            6 => &[],
            _ => return Err(bad("a FEN has 2 to 6 fields")),
        };
        fields.extend_from_slice(missing);
        let full = fields.join(" ");
        let pos = full
            .parse::<Position>()
            .map_err(|e| bad(&format!("FEN {full}: {e}")))?;
        cases.push(DevCase {
            pos,
            can,
            line: line.to_owned(),
        });
    }
    Ok(cases)
}

/// The development set.
pub fn load() -> Vec<DevCase> {
    let text = std::fs::read_to_string(PATH).unwrap_or_else(|e| panic!("{PATH}: {e}"));
    parse(&text).unwrap_or_else(|e| panic!("{e}"))
}

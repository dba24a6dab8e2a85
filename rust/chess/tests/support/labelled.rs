//! The labelled set of dead-position cases (`tests/data/dead_labelled.txt`): reading it, and
//! the symmetries its positions come in. Written by `examples/dead_label.rs`, read by
//! `tests/dead_positions.rs` and `examples/dead_bench.rs`.
//!
//! One case a line, four fields separated by ` | `:
//!
//! ```text
//! KIND | FEN | WHITE | BLACK
//! ```
//!
//! where WHITE and BLACK label that side: `can M1 M2 …` (a helpmate by that side, the UCI
//! moves from FEN; checkable by replaying it), or "cannot" with its evidence:
//! - `cannot N`: no position reachable from FEN is a mate by that side; an exhaustive search
//!   visited all N reachable positions;
//! - `cannot bare-king`: the side has nothing but its king, and a king never gives check;
//! - `cannot sealed`: by construction, a full locked chain with every man behind its own
//!   pawns and only bishops of its own pawns' colour besides the kings (see
//!   `examples/dead_label.rs`, `sealed`).
//!
//! Lines starting with `#` are comments.
//!
//! Included with `#[path = "support/labelled.rs"] mod labelled;`.
#![allow(dead_code)]

use shatranj_chess::{Board, CastlingRights, Color, Piece, Position, Square, uci};

/// How one side of a case is labelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Label {
    /// No mate by this side is reachable, on this evidence.
    Cannot(Evidence),
    /// A helpmate by this side, in UCI.
    Can(Vec<String>),
}

/// Why a side is labelled "cannot".
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// An exhaustive search visited this many reachable positions, none a mate by the side.
    Searched(u64),
    /// The side has nothing but its king.
    BareKing,
    /// A sealed locked chain, by construction.
    Sealed,
}

impl Label {
    pub fn can(&self) -> bool {
        matches!(self, Label::Can(_))
    }

    pub fn text(&self) -> String {
        match self {
            Label::Cannot(Evidence::Searched(n)) => format!("cannot {n}"),
            Label::Cannot(Evidence::BareKing) => "cannot bare-king".to_owned(),
            Label::Cannot(Evidence::Sealed) => "cannot sealed".to_owned(),
            Label::Can(line) if line.is_empty() => "can".to_owned(),
            Label::Can(line) => format!("can {}", line.join(" ")),
        }
    }

    fn parse(text: &str) -> Result<Label, String> {
        let mut words = text.split_whitespace();
        match words.next() {
            Some("cannot") => match words.next() {
                Some("bare-king") => Ok(Label::Cannot(Evidence::BareKing)),
                Some("sealed") => Ok(Label::Cannot(Evidence::Sealed)),
                n => n
                    .and_then(|n| n.parse().ok())
                    .map(|n| Label::Cannot(Evidence::Searched(n)))
                    .ok_or_else(|| format!("`cannot` needs evidence: {text}")),
            },
            Some("can") => Ok(Label::Can(words.map(str::to_owned).collect())),
            _ => Err(format!("a label is `cannot N` or `can MOVES`: {text}")),
        }
    }
}

/// One labelled position.
#[derive(Clone, Debug)]
pub struct Case {
    pub kind: String,
    pub pos: Position,
    /// By colour index: White's label, Black's.
    pub labels: [Label; 2],
}

impl Case {
    pub fn line(&self) -> String {
        format!(
            "{} | {} | {} | {}",
            self.kind,
            self.pos.fen(),
            self.labels[0].text(),
            self.labels[1].text()
        )
    }

    /// Does the "can" label of `color` replay to a mate by `color`? (`Ok` for "cannot".)
    pub fn check_line(&self, color: Color) -> Result<(), String> {
        let Label::Can(line) = &self.labels[color.index()] else {
            return Ok(());
        };
        let mut pos = self.pos;
        for text in line {
            let m = uci::parse_uci(&pos, text).map_err(|e| format!("{}: {e}", pos.fen()))?;
            pos.play_unchecked(m);
        }
        if pos.is_checkmate() && pos.turn() != color {
            Ok(())
        } else {
            Err(format!(
                "{} does not end in {color:?}'s mate",
                line.join(" ")
            ))
        }
    }
}

/// Parses the set; errors name the line.
pub fn parse(text: &str) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |e: String| format!("line {}: {e}", i + 1);
        let fields: Vec<&str> = line.split(" | ").collect();
        let [kind, fen, white, black] = fields[..] else {
            return Err(err(format!("four fields expected: {line}")));
        };
        let pos: Position = fen.parse().map_err(|e| err(format!("{fen}: {e}")))?;
        cases.push(Case {
            kind: kind.to_owned(),
            pos,
            labels: [
                Label::parse(white).map_err(err)?,
                Label::parse(black).map_err(err)?,
            ],
        });
    }
    Ok(cases)
}

/// The set as committed.
pub fn load() -> Vec<Case> {
    const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dead_labelled.txt");
    let text = std::fs::read_to_string(PATH).unwrap_or_else(|e| panic!("{PATH}: {e}"));
    parse(&text).unwrap_or_else(|e| panic!("{PATH}: {e}"))
}

/// `pos` with files a and h swapped (every rule of chess is symmetric so, castling apart;
/// `None` when castling rights would not survive).
pub fn flip_files(pos: &Position) -> Option<Position> {
    if pos.castling_rights() != CastlingRights::NONE {
        return None;
    }
    let mut board = Board::empty();
    for (sq, piece) in pos.board().pieces() {
        board.set_piece_at(flip_file(sq), piece);
    }
    Position::from_parts(
        board,
        pos.turn(),
        CastlingRights::NONE,
        pos.ep_square().map(flip_file),
        pos.halfmove_clock(),
        pos.fullmove_number(),
    )
    .ok()
}

fn flip_file(sq: Square) -> Square {
    Square::new(sq.index() as u32 ^ 7).expect("a square")
}

/// The four images of a case: itself, colours swapped (`Position::mirrored`: the board
/// flipped top to bottom, colours and labels swapped), files flipped, and both. Every rule of
/// chess is symmetric so (castling apart, and the cases have no castling rights), so each
/// image keeps its labels; helpmate lines are mapped square by square.
pub fn images(case: &Case) -> Vec<Case> {
    let map = |l: &Label, f: &dyn Fn(u32) -> u32| match l {
        Label::Cannot(n) => Label::Cannot(*n),
        Label::Can(line) => Label::Can(line.iter().map(|m| map_uci(m, f)).collect()),
    };
    let ranks = |sq: u32| sq ^ 0b111_000;
    let files = |sq: u32| sq ^ 7;
    let [white, black] = &case.labels;
    let swapped = Case {
        kind: case.kind.clone(),
        pos: case.pos.mirrored(),
        labels: [map(black, &ranks), map(white, &ranks)],
    };
    let mut out = vec![case.clone(), swapped.clone()];
    for c in [case, &swapped] {
        if let Some(pos) = flip_files(&c.pos) {
            out.push(Case {
                kind: c.kind.clone(),
                pos,
                labels: [map(&c.labels[0], &files), map(&c.labels[1], &files)],
            });
        }
    }
    out
}

/// A UCI move with both squares mapped by `f` (the promotion letter kept).
fn map_uci(text: &str, f: &dyn Fn(u32) -> u32) -> String {
    let square = |s: &str| {
        let sq = Square::from_name(s).expect("a square in a UCI move");
        Square::new(f(sq.index() as u32))
            .expect("a square")
            .to_string()
    };
    format!(
        "{}{}{}",
        square(&text[0..2]),
        square(&text[2..4]),
        &text[4..]
    )
}

/// A piece of `color` and `role` (for the generators).
pub fn piece(color: Color, role: shatranj_chess::Role) -> Piece {
    Piece::new(color, role)
}

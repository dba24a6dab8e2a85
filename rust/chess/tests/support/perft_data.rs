//! The perft reference data in `data/perft/` (see its README.md), read once for every test
//! that checks counts against it: the rules crate's perft suites and the GPU perft tests.
//! Chess960 cases are marked, not dropped, so each test decides what to do with them.
#![allow(dead_code)]

use shatranj_chess::{CastlingMode, Position};

/// The repository's `data/perft` (facts copied in with their sources; see its README.md).
const DATA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/perft");

/// Chess960 castling cases in tricky.perft whose ids lack the `xfen-` prefix: a Shredder-FEN
/// castling field (`Ff`), and castling rights for kings off the e-file.
const CHESS960_IDS: [&str; 3] = [
    "hside-rook-blocks-aside-castling",
    "two-knight-checkers",
    "asymmetrical-and-king-on-h",
];

#[derive(Clone)]
pub struct Case {
    pub file: &'static str,
    pub id: String,
    pub fen: String,
    /// Read with Chess960 castling.
    pub chess960: bool,
    /// (depth, expected leaf count), as listed.
    pub counts: Vec<(u32, u64)>,
}

impl Case {
    pub fn position(&self) -> Position {
        let mode = CastlingMode::from_chess960(self.chess960);
        Position::from_fen_with(&self.fen, mode).unwrap_or_else(|e| {
            panic!(
                "{} {}: cannot parse {:?}: {e}",
                self.file, self.id, self.fen
            )
        })
    }
}

pub struct Suite {
    pub cases: Vec<Case>,
}

impl Suite {
    pub fn chess960_count(&self) -> usize {
        self.cases.iter().filter(|c| c.chess960).count()
    }
}

fn read(name: &str) -> String {
    let path = format!("{DATA_DIR}/{name}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {path}: {e}. The perft data lives in data/perft at the repository root."
        )
    })
}

/// `FEN ;D1 n ;D2 n …` with CRLF line ends.
pub fn load_perftsuite() -> Suite {
    let mut cases = Vec::new();
    for (i, line) in read("perftsuite.epd").lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';');
        let fen = fields.next().unwrap().trim().to_owned();
        let counts = fields
            .map(|f| {
                let (d, n) = f
                    .trim()
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("perftsuite.epd:{}: bad field {f:?}", i + 1));
                let d = d
                    .strip_prefix('D')
                    .unwrap_or_else(|| panic!("perftsuite.epd:{}: bad depth {d:?}", i + 1));
                (d.parse().unwrap(), n.trim().parse().unwrap())
            })
            .collect();
        cases.push(Case {
            file: "perftsuite.epd",
            id: format!("line {}", i + 1),
            fen,
            chess960: false,
            counts,
        });
    }
    Suite { cases }
}

/// `id NAME` / `epd FEN` / `perft DEPTH NODES` blocks; ids starting `xfen-` (and those in
/// `CHESS960_IDS`) are Chess960, and so is every position of chess960.perft.
pub fn load_blocks(file: &'static str) -> Suite {
    let mut suite = Suite { cases: Vec::new() };
    for (i, line) in read(file).lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match key {
            "id" => suite.cases.push(Case {
                file,
                id: rest.to_owned(),
                fen: String::new(),
                chess960: file == "chess960.perft"
                    || rest.starts_with("xfen-")
                    || CHESS960_IDS.contains(&rest),
                counts: Vec::new(),
            }),
            "epd" => {
                rest.clone_into(
                    &mut suite
                        .cases
                        .last_mut()
                        .unwrap_or_else(|| panic!("{file}:{}: epd before id", i + 1))
                        .fen,
                );
            }
            "perft" => {
                let (d, n) = rest
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("{file}:{}: bad perft line", i + 1));
                let case = suite
                    .cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("{file}:{}: perft before id", i + 1));
                case.counts
                    .push((d.parse().unwrap(), n.trim().parse().unwrap()));
            }
            _ => panic!("{file}:{}: unexpected line {line:?}", i + 1),
        }
    }
    for c in &suite.cases {
        assert!(
            !c.fen.is_empty() && !c.counts.is_empty(),
            "{file} {}: no epd or no perft lines",
            c.id
        );
    }
    suite
}

/// `fen-or-startpos ; depth ; nodes ; chess960`.
pub fn load_deep() -> Suite {
    let mut suite = Suite { cases: Vec::new() };
    for (i, line) in read("deep.txt").lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(
            fields.len(),
            4,
            "deep.txt:{}: expected 4 fields in {line:?}",
            i + 1
        );
        let id = format!("line {}", i + 1);
        let chess960 = match fields[3] {
            "true" => true,
            "false" => false,
            other => panic!("deep.txt:{}: chess960 field {other:?}", i + 1),
        };
        let fen = if fields[0] == "startpos" {
            Position::new().fen()
        } else {
            fields[0].to_owned()
        };
        suite.cases.push(Case {
            file: "deep.txt",
            id,
            fen,
            chess960,
            counts: vec![(fields[1].parse().unwrap(), fields[2].parse().unwrap())],
        });
    }
    suite
}

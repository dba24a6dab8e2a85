//! The perft reference data in `data/perft/` (see its README.md) for the GPU perft tests:
//! positions with their listed (depth, leaf count) pairs. Chess960 cases (`xfen-` ids and the
//! three Chess960 castling ids of tricky.perft) are left out by name and counted.
#![allow(dead_code)]

pub struct Case {
    pub id: String,
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

const DATA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/perft");

/// Chess960 castling cases of tricky.perft whose ids lack the `xfen-` prefix.
const CHESS960_IDS: [&str; 3] = [
    "hside-rook-blocks-aside-castling",
    "two-knight-checkers",
    "asymmetrical-and-king-on-h",
];

fn read(name: &str) -> String {
    let path = format!("{DATA_DIR}/{name}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn depth_count(text: &str) -> (u32, u64) {
    let (d, n) = text.trim().split_once(' ').expect("depth and count");
    let d = d.trim_start_matches('D');
    (d.parse().expect("depth"), n.trim().parse().expect("count"))
}

/// perftsuite.epd: `FEN ;D1 n ;D2 n …`.
pub fn perftsuite() -> Vec<Case> {
    read("perftsuite.epd")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .enumerate()
        .map(|(i, line)| {
            let mut fields = line.split(';');
            let fen = fields.next().unwrap().trim().to_owned();
            Case {
                id: format!("perftsuite {}", i + 1),
                fen,
                counts: fields.map(depth_count).collect(),
            }
        })
        .collect()
}

/// A block file (`id` / `epd` / `perft` lines): the cases, and how many were Chess960.
pub fn blocks(file: &str) -> (Vec<Case>, usize) {
    let mut cases: Vec<Case> = Vec::new();
    let mut skipped = 0;
    let mut skipping = false;
    for line in read(file).lines().map(str::trim) {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match key {
            "id" => {
                skipping = rest.starts_with("xfen-") || CHESS960_IDS.contains(&rest);
                if skipping {
                    skipped += 1;
                } else {
                    cases.push(Case {
                        id: format!("{file} {rest}"),
                        fen: String::new(),
                        counts: Vec::new(),
                    });
                }
            }
            _ if skipping => {}
            "epd" => cases.last_mut().expect("epd after id").fen = rest.to_owned(),
            "perft" => cases
                .last_mut()
                .expect("perft after id")
                .counts
                .push(depth_count(rest)),
            _ => {}
        }
    }
    (cases, skipped)
}

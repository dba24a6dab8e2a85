//! Variant perft counts against python-chess 1.11.2's reference files in
//! `data/perft/variants/` (see its README.md). Every position is read with Chess960
//! castling, as the source's driver reads them.
//!
//! * `cargo test` (debug): every count up to `SHALLOW_NODE_CAP` nodes.
//! * `cargo test --profile ci -- --ignored` (the optimised suite `scripts/test` runs): every
//!   count of the six files.

use shatranj_chess::CastlingMode;
use shatranj_chess::variant::{
    Atomic, Crazyhouse, Giveaway, Horde, RacingKings, ThreeCheck, Variant, VariantPosition, perft,
    perft_divide,
};

/// Debug runs check every count at most this big (depth 1 always).
const SHALLOW_NODE_CAP: u64 = 200_000;

struct Case {
    id: String,
    epd: String,
    counts: Vec<(u32, u64)>,
}

fn load(name: &str) -> Vec<Case> {
    let path = format!(
        "{}/../../data/perft/variants/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases: Vec<Case> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (cmd, arg) = line.split_once(' ').expect("a command and its argument");
        match cmd {
            "id" => cases.push(Case {
                id: arg.to_owned(),
                epd: String::new(),
                counts: Vec::new(),
            }),
            "epd" => arg.clone_into(&mut cases.last_mut().expect("an id first").epd),
            "perft" => {
                let (d, n) = arg.split_once(' ').expect("depth and nodes");
                let case = cases.last_mut().expect("an id first");
                case.counts.push((d.parse().unwrap(), n.parse().unwrap()));
            }
            other => panic!("{path}: unknown command {other}"),
        }
    }
    cases
}

/// Checks the counts of `file` (those up to `cap` nodes); returns how many were checked.
fn check<V: Variant>(file: &str, positions: usize, cap: u64) -> usize {
    let cases = load(file);
    assert_eq!(cases.len(), positions, "{file}: positions");
    let mut checked = 0;
    for case in &cases {
        let pos = VariantPosition::<V>::from_fen_with(&case.epd, CastlingMode::Chess960)
            .unwrap_or_else(|e| panic!("{file} {}: {e}", case.id));
        for &(depth, nodes) in &case.counts {
            if depth > 1 && nodes > cap {
                continue;
            }
            let got = perft(&pos, depth);
            if got != nodes {
                let mut divide: Vec<String> = perft_divide(&pos, depth)
                    .into_iter()
                    .map(|(m, n)| format!("{} {n}", pos.to_uci(m)))
                    .collect();
                divide.sort();
                panic!(
                    "{file} {}: perft {depth} of {} is {got}, expected {nodes}\n{}",
                    case.id,
                    case.epd,
                    divide.join("\n")
                );
            }
            checked += 1;
        }
    }
    println!("{file}: {checked} counts checked");
    checked
}

#[test]
fn atomic_shallow() {
    assert!(check::<Atomic>("atomic.perft", 7, SHALLOW_NODE_CAP) >= 20);
}
#[test]
fn crazyhouse_shallow() {
    assert!(check::<Crazyhouse>("crazyhouse.perft", 5, SHALLOW_NODE_CAP) >= 10);
}
#[test]
fn racingkings_shallow() {
    assert!(check::<RacingKings>("racingkings.perft", 2, SHALLOW_NODE_CAP) >= 6);
}
#[test]
fn three_check_shallow() {
    assert!(check::<ThreeCheck>("3check.perft", 2, SHALLOW_NODE_CAP) >= 6);
}
#[test]
fn giveaway_shallow() {
    assert!(check::<Giveaway>("giveaway.perft", 3, SHALLOW_NODE_CAP) >= 20);
}
#[test]
fn horde_shallow() {
    assert!(check::<Horde>("horde.perft", 3, SHALLOW_NODE_CAP) >= 10);
}

/// Every count of the six files (1.2e8 nodes in all, the largest 3.1e7).
#[test]
#[ignore = "deep: run with cargo test --profile ci -- --ignored"]
fn every_variant_count() {
    let all = u64::MAX;
    let checked = check::<Atomic>("atomic.perft", 7, all)
        + check::<Crazyhouse>("crazyhouse.perft", 5, all)
        + check::<RacingKings>("racingkings.perft", 2, all)
        + check::<ThreeCheck>("3check.perft", 2, all)
        + check::<Giveaway>("giveaway.perft", 3, all)
        + check::<Horde>("horde.perft", 3, all);
    assert_eq!(checked, 100);
}

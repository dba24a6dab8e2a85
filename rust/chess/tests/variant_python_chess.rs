//! Differential test of the variants against python-chess's `chess.variant` boards:
//! `tests/pychess/gen_variant_games.py` plays seeded random games of every variant and
//! records what python-chess says of each position; this test replays each game and
//! compares the FEN, the legal moves, the SAN of each (and reads it back), check, and the
//! outcome after every move.
//!
//! `cargo test --profile ci -p shatranj-chess --test variant_python_chess -- --ignored --nocapture`
//!
//! The interpreter is found as in `support/pychess.rs`. `SHATRANJ_PYCHESS_GAMES` (games per
//! variant, default 100) and `SHATRANJ_SEED` (default 1) change the run.

#[path = "support/pychess.rs"]
mod pychess;

use pychess::{env_number, python, require_pychess, run_script};
use serde_json::Value as Json;
use shatranj_chess::variant::{
    Variant, VariantKind, VariantOutcome, VariantPosition, VariantTermination,
};
use shatranj_chess::{Color, with_variant};

const SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/pychess/gen_variant_games.py"
);

fn outcome_json(outcome: Option<VariantOutcome>) -> Json {
    let Some(o) = outcome else {
        return Json::Null;
    };
    let termination = match o.termination {
        VariantTermination::Checkmate => "CHECKMATE",
        VariantTermination::Stalemate => "STALEMATE",
        VariantTermination::InsufficientMaterial => "INSUFFICIENT_MATERIAL",
        VariantTermination::VariantWin => "VARIANT_WIN",
        VariantTermination::VariantLoss => "VARIANT_LOSS",
        VariantTermination::VariantDraw => "VARIANT_DRAW",
    };
    let winner = match o.winner {
        Some(Color::White) => Json::from("white"),
        Some(Color::Black) => Json::from("black"),
        None => Json::Null,
    };
    serde_json::json!({"termination": termination, "winner": winner})
}

/// Replays one game; returns descriptions of the differences found.
fn replay<V: Variant>(start: &str, records: &[Json]) -> (usize, Vec<String>) {
    let mut diffs = Vec::new();
    let mut pos = VariantPosition::<V>::from_fen(start)
        .unwrap_or_else(|e| panic!("{}: start {start}: {e}", V::UCI_NAME));
    if pos != VariantPosition::<V>::new() {
        diffs.push(format!("start {start} is not {}", pos.fen()));
    }
    let mut played = Vec::new();
    for rec in records {
        let at = || format!("{} after {}: ", V::UCI_NAME, played.join(" "));
        let fen = rec["fen"].as_str().expect("fen");
        if pos.fen() != fen {
            diffs.push(format!("{}fen {} != {fen}", at(), pos.fen()));
            return (records.len(), diffs);
        }
        let reparsed = VariantPosition::<V>::from_fen(fen).map(|p| p.fen());
        if reparsed.as_deref() != Ok(fen) {
            diffs.push(format!("{}FEN {fen} reads back as {reparsed:?}", at()));
        }
        let moves = pos.legal_moves();
        let mut ours: Vec<String> = moves.iter().map(|&m| pos.to_uci(m)).collect();
        ours.sort();
        let theirs: Vec<String> = rec["legal"]
            .as_array()
            .expect("legal")
            .iter()
            .map(|v| v.as_str().expect("uci").to_owned())
            .collect();
        if ours != theirs {
            let extra: Vec<_> = ours.iter().filter(|m| !theirs.contains(m)).collect();
            let missing: Vec<_> = theirs.iter().filter(|m| !ours.contains(m)).collect();
            diffs.push(format!(
                "{}{fen}: legal moves differ: extra {extra:?}, missing {missing:?}",
                at()
            ));
            return (records.len(), diffs);
        }
        for &m in &moves {
            let uci = pos.to_uci(m);
            let expected = rec["san"][&uci].as_str().expect("san");
            let san = pos.san(m);
            if san != expected {
                diffs.push(format!("{}{fen}: san of {uci} {san} != {expected}", at()));
            }
            if pos.parse_san(expected).ok() != Some(m) {
                diffs.push(format!("{}{fen}: parse_san({expected}) is not {uci}", at()));
            }
        }
        if pos.is_check() != rec["is_check"].as_bool().expect("is_check") {
            diffs.push(format!("{}{fen}: is_check {}", at(), pos.is_check()));
        }
        let expected = &rec["outcome"];
        let automatic = matches!(
            expected["termination"].as_str(),
            Some("FIVEFOLD_REPETITION" | "SEVENTYFIVE_MOVES")
        );
        let outcome = outcome_json(pos.outcome());
        if !automatic && &outcome != expected {
            diffs.push(format!("{}{fen}: outcome {outcome} != {expected}", at()));
        }
        let Some(uci) = rec["move"].as_str() else {
            break;
        };
        let m = pos.parse_uci(uci).unwrap_or_else(|e| panic!("{}{e}", at()));
        pos.play_unchecked(m);
        played.push(uci.to_owned());
    }
    (records.len(), diffs)
}

#[test]
#[ignore = "needs python-chess; run with cargo test --profile ci -- --ignored"]
fn variant_games_match_python_chess() {
    let python = python();
    let Some(version) = require_pychess(&python) else {
        return;
    };
    let games = env_number("SHATRANJ_PYCHESS_GAMES", 100);
    let seed = env_number("SHATRANJ_SEED", 1);
    println!("python-chess {version}; {games} games per variant, seed {seed}");
    let text = run_script(
        &python,
        SCRIPT,
        &[
            "--seed".to_owned(),
            seed.to_string(),
            "--games".to_owned(),
            games.to_string(),
        ],
    );
    let mut lines = text
        .lines()
        .map(|l| serde_json::from_str::<Json>(l).expect("JSON"))
        .peekable();
    let (mut positions, mut all_diffs, mut finished) = (0, Vec::new(), false);
    let mut per_variant = std::collections::BTreeMap::new();
    while let Some(head) = lines.next() {
        if head["done"].as_bool() == Some(true) {
            assert_eq!(head["positions"].as_u64(), Some(positions as u64));
            finished = true;
            break;
        }
        let name = head["variant"].as_str().expect("variant").to_owned();
        let start = head["start"].as_str().expect("start").to_owned();
        let mut records = Vec::new();
        while let Some(rec) = lines.next_if(|r| r.get("ply").is_some()) {
            records.push(rec);
        }
        let kind = VariantKind::from_name(&name).expect("a known variant");
        let (n, diffs) = with_variant!(kind, V => replay::<V>(&start, &records));
        positions += n;
        *per_variant.entry(name).or_insert(0) += n;
        all_diffs.extend(diffs);
    }
    assert!(finished, "the script's output ended early");
    println!("positions compared: {per_variant:?} ({positions} in all)");
    assert!(
        all_diffs.is_empty(),
        "{} differences (seed {seed}); the first:\n{}",
        all_diffs.len(),
        all_diffs[..all_diffs.len().min(12)].join("\n")
    );
}

//! Differential test of [`Setup`] against python-chess (`PyPI` `chess`, 1.11) on boards no game
//! need reach: `tests/pychess/gen_setups.py` builds seeded random setup positions (missing and
//! extra kings, pawns on the back ranks, rights and en-passant squares as given, standard and
//! Chess960), loads each as FEN text, and plays random legal moves; this test loads the same
//! text with `Setup::from_fen`, plays the same moves with `Setup::play`, and compares at every
//! position: `status()`, the legal and pseudo-legal moves in python-chess's order, SAN and
//! LAN of every legal move (and reading them back), the FENs (three en-passant modes and
//! Shredder-FEN), the raw castling rights, check and mate.
//!
//! `cargo test -p shatranj-chess --test setup_python_chess -- --ignored --nocapture`
//!
//! Finding python-chess: see `support/pychess.rs`. `SHATRANJ_SETUPS` and `SHATRANJ_SEED`
//! change the number of setups (default 300) and the seed (default 1).

use serde_json::Value as Json;
use shatranj_chess::Setup;
use shatranj_chess::fen::EnPassantMode;
use std::collections::BTreeMap;

#[path = "support/pychess.rs"]
mod pychess;
use pychess::{env_number, python, require_pychess, run_script};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pychess/gen_setups.py");

fn strings(v: &Json) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Everything compared at one position, in the script's field names.
fn ours(setup: &Setup) -> BTreeMap<&'static str, Json> {
    let legal = setup.legal_moves();
    let uci = |m: &shatranj_chess::Move| m.to_string();
    BTreeMap::from([
        (
            "fen",
            Json::from(setup.fen(false, EnPassantMode::Legal, false)),
        ),
        (
            "fen_ep",
            Json::from(setup.fen(false, EnPassantMode::Always, false)),
        ),
        ("xfen", Json::from(setup.fen_with(false, None, false))),
        (
            "shredder",
            Json::from(setup.fen(true, EnPassantMode::Legal, false)),
        ),
        ("status", Json::from(setup.status().bits())),
        ("castling_rights", Json::from(setup.castling_rights.0)),
        (
            "legal",
            Json::from(legal.iter().map(uci).collect::<Vec<_>>()),
        ),
        (
            "pseudo",
            Json::from(
                setup
                    .pseudo_legal_moves()
                    .iter()
                    .map(uci)
                    .collect::<Vec<_>>(),
            ),
        ),
        (
            "san",
            Json::from(
                legal
                    .iter()
                    .map(|&m| setup.san(m).unwrap_or_else(|e| format!("error: {e}")))
                    .collect::<Vec<_>>(),
            ),
        ),
        (
            "lan",
            Json::from(
                legal
                    .iter()
                    .map(|&m| setup.lan(m).unwrap_or_else(|e| format!("error: {e}")))
                    .collect::<Vec<_>>(),
            ),
        ),
        ("is_check", Json::from(setup.is_check())),
        ("is_checkmate", Json::from(setup.is_checkmate())),
    ])
}

/// SAN and UCI read back to the moves python-chess wrote them for.
fn read_back(setup: &Setup, rec: &Json) -> Vec<String> {
    let mut out = Vec::new();
    for (uci, san) in strings(&rec["legal"]).iter().zip(strings(&rec["san"])) {
        match setup.parse_san(&san) {
            Ok(m) if m.to_string() == *uci => {}
            other => out.push(format!(
                "parse_san({san:?}) = {other:?}, python-chess: {uci}"
            )),
        }
        match setup.parse_uci(uci) {
            Ok(m) if m.to_string() == *uci => {}
            other => out.push(format!("parse_uci({uci:?}) = {other:?}")),
        }
    }
    out
}

#[test]
#[ignore = "needs python-chess; run with cargo test -- --ignored"]
fn setups_match_python_chess() {
    let python = python();
    let Some(version) = require_pychess(&python) else {
        return;
    };
    let count = env_number("SHATRANJ_SETUPS", 300);
    let seed = env_number("SHATRANJ_SEED", 1);
    println!(
        "python-chess {version}; {count} setups, seed {seed} (SHATRANJ_SETUPS, SHATRANJ_SEED)"
    );
    let text = run_script(
        &python,
        SCRIPT,
        &[
            "--seed".into(),
            seed.to_string(),
            "--count".into(),
            count.to_string(),
        ],
    );
    let mut setup: Option<(u64, String, Setup)> = None;
    let (mut positions, mut done) = (0u64, false);
    let mut diffs: Vec<String> = Vec::new();
    for line in text.lines() {
        let rec: Json = serde_json::from_str(line).expect("script writes JSON lines");
        if rec["done"].as_bool() == Some(true) {
            done = true;
            break;
        }
        let id = rec["setup"].as_u64().expect("a setup id");
        if let Some(input) = rec["input"].as_str() {
            let chess960 = rec["chess960"].as_bool() == Some(true);
            let s = Setup::from_fen(input, chess960).unwrap_or_else(|e| {
                panic!("setup {id}: python-chess reads {input:?}, we fail: {e}")
            });
            let given = (
                s.board_fen(true),
                s.castling_rights.0,
                s.ep_square.map(|sq| sq.index() as u64),
            );
            let theirs = (
                rec["board_fen"].as_str().unwrap_or_default().to_owned(),
                rec["castling_rights"].as_u64().unwrap_or_default(),
                rec["ep_square"].as_u64(),
            );
            if given != theirs {
                diffs.push(format!(
                    "setup {id} {input:?}: read as {given:?}, python-chess {theirs:?}"
                ));
            }
            setup = Some((id, input.to_owned(), s));
            continue;
        }
        // None after a difference: the rest of that setup's game would only repeat it.
        let Some((sid, input, s)) = setup.as_mut() else {
            continue;
        };
        assert_eq!(*sid, id, "positions follow their setup");
        positions += 1;
        let ply = rec["ply"].as_u64().unwrap_or_default();
        let before = diffs.len();
        for (field, mine) in ours(s) {
            if rec[field] != mine {
                diffs.push(format!(
                    "[{field}] setup {id} ply {ply} ({input:?}, now {}): python-chess {}, shatranj {mine}",
                    s.fen(false, EnPassantMode::Always, true),
                    rec[field]
                ));
            }
        }
        for what in read_back(s, &rec) {
            diffs.push(format!("[read] setup {id} ply {ply}: {what}"));
        }
        if diffs.len() > before {
            setup = None;
            continue;
        }
        if let Some(uci) = rec["move"].as_str() {
            let m = s
                .parse_uci(uci)
                .unwrap_or_else(|e| panic!("setup {id} ply {ply}: {e}"));
            s.play(m)
                .unwrap_or_else(|e| panic!("setup {id} ply {ply}: {e}"));
        }
    }
    assert!(done, "the script stopped early");
    println!("{positions} positions compared");
    for d in diffs.iter().take(15) {
        println!("{d}");
    }
    assert!(
        diffs.is_empty(),
        "{} differences from python-chess (seed {seed})",
        diffs.len()
    );
}

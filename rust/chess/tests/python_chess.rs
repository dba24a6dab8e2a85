//! Differential test against python-chess (`PyPI` `chess`, 1.11): `tests/pychess/gen_games.py`
//! plays seeded random games (biased towards repetitions, en passant, castling, promotions,
//! mates and the move-count rules) and records, for every position, what python-chess says;
//! this test replays each game with `History` and compares every field: FEN (both
//! en-passant modes), the legal moves, the SAN of each, the Polyglot key, check / mate /
//! stalemate / insufficient material, repetition and draw claims, and both outcomes.
//!
//! `cargo test --release -p shatranj-chess --test python_chess -- --ignored --nocapture`
//!
//! The interpreter is `$SHATRANJ_PYTHON`, else the repository's `.venv/bin/python` if it exists
//! (scripts/test creates it with python-chess), else `python3`. Without python-chess the test
//! fails, unless `SHATRANJ_NO_PYCHESS=1`. `SHATRANJ_PYCHESS_GAMES` and `SHATRANJ_SEED` change
//! the number of games (default 200) and the seed (default 1).

use serde_json::Map;
use shatranj_chess::fen::{EnPassantMode, to_fen_with};
use shatranj_chess::san::{parse_san, to_san};
use shatranj_chess::uci::{parse_uci, to_uci};
use shatranj_chess::{CastlingMode, Color, History, Outcome, Position};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::Command;
use std::time::Instant;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pychess/gen_games.py");
const DEFAULT_GAMES: usize = 200;
const DEFAULT_SEED: u64 = 1;
/// At most this many differences are described in full (the first of each field first).
const SHOWN: usize = 12;

type Json = serde_json::Value;

#[path = "support/pychess.rs"]
mod pychess;
use pychess::{env_number, python, require_pychess};

// ----- comparing --------------------------------------------------------------------------

fn outcome_json(o: Option<Outcome>) -> Json {
    match o {
        None => Json::Null,
        Some(o) => serde_json::json!({
            "termination": o.termination.name(),
            "winner": o.winner.map(|w| if w == Color::White { "white" } else { "black" }),
        }),
    }
}

/// Everything shatranj says about the current position, in the script's field names.
fn ours(history: &History, mode: CastlingMode) -> BTreeMap<&'static str, Json> {
    let pos = history.position();
    let mut legal: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| to_uci(pos, m, mode))
        .collect();
    legal.sort();
    let san: Map<String, Json> = pos
        .legal_moves()
        .iter()
        .map(|&m| (to_uci(pos, m, mode), Json::String(to_san(pos, m))))
        .collect();
    let b = Json::Bool;
    BTreeMap::from([
        ("fen", Json::String(pos.fen())),
        (
            "fen_ep",
            Json::String(to_fen_with(pos, EnPassantMode::Always)),
        ),
        (
            "legal",
            Json::Array(legal.into_iter().map(Json::String).collect()),
        ),
        ("san", Json::Object(san)),
        ("zobrist", Json::String(format!("{:#018x}", pos.key()))),
        ("is_check", b(pos.is_check())),
        ("is_checkmate", b(pos.is_checkmate())),
        ("is_stalemate", b(pos.is_stalemate())),
        (
            "is_insufficient_material",
            b(pos.is_insufficient_material()),
        ),
        ("is_repetition3", b(history.is_repetition(3))),
        (
            "can_claim_threefold_repetition",
            b(history.can_claim_threefold_repetition()),
        ),
        ("can_claim_fifty_moves", b(history.can_claim_fifty_moves())),
        (
            "is_fivefold_repetition",
            b(history.is_fivefold_repetition()),
        ),
        ("is_seventyfive_moves", b(history.is_seventyfive_moves())),
        ("outcome", outcome_json(history.outcome(false))),
        ("outcome_claim", outcome_json(history.outcome(true))),
    ])
}

/// Consistency checks that need no reference: keys, FEN round trips, SAN round trips.
fn self_checks(history: &History, rec: &Json, mode: CastlingMode) -> Vec<(&'static str, String)> {
    let pos = history.position();
    let mut out = Vec::new();
    if pos.key() != pos.compute_key() {
        out.push((
            "key_incremental",
            format!(
                "incremental key {:#018x}, recomputed {:#018x}",
                pos.key(),
                pos.compute_key()
            ),
        ));
    }
    if let Some(fen_ep) = rec["fen_ep"].as_str() {
        match Position::from_fen_with(fen_ep, mode) {
            Ok(p) if p == *pos && p.key() == pos.key() => {}
            Ok(p) => out.push((
                "parse_fen_ep",
                format!(
                    "from_fen({fen_ep:?}) gives {} (key {:#018x}), not the played position",
                    to_fen_with(&p, EnPassantMode::Always),
                    p.key()
                ),
            )),
            Err(e) => out.push(("parse_fen_ep", format!("from_fen({fen_ep:?}) fails: {e}"))),
        }
    }
    if let Some(fen) = rec["fen"].as_str() {
        match Position::from_fen_with(fen, mode) {
            Ok(p) if p.fen() == fen => {}
            Ok(p) => out.push((
                "parse_fen",
                format!("from_fen({fen:?}).fen() = {:?}", p.fen()),
            )),
            Err(e) => out.push(("parse_fen", format!("from_fen({fen:?}) fails: {e}"))),
        }
    }
    if let Some(sans) = rec["san"].as_object() {
        for (uci, san) in sans {
            let Some(san) = san.as_str() else { continue };
            match parse_san(pos, san) {
                Ok(m) if to_uci(pos, m, mode) == *uci => {}
                Ok(m) => out.push((
                    "parse_san",
                    format!("parse_san({san:?}) = {m}, python-chess means {uci}"),
                )),
                Err(e) => out.push((
                    "parse_san",
                    format!("parse_san({san:?}) (python-chess: {uci}) fails: {e}"),
                )),
            }
        }
    }
    out
}

struct Game {
    id: u64,
    start: String,
    history: History,
    /// Set when a move could not be replayed; the rest of the game is not compared.
    broken: bool,
}

#[test]
#[ignore = "needs python-chess; run with cargo test --release -- --ignored"]
fn replays_match_python_chess() {
    replays_match(CastlingMode::Standard);
}

/// The same from Chess960 starting positions (and a few Chess960 middlegames), with
/// python-chess's `chess960=True` boards: X-FEN, UCI castling as king-takes-rook.
#[test]
#[ignore = "needs python-chess; run with cargo test --release -- --ignored"]
fn chess960_replays_match_python_chess() {
    replays_match(CastlingMode::Chess960);
}

fn replays_match(mode: CastlingMode) {
    let python = python();
    let Some(version) = require_pychess(&python) else {
        return;
    };
    let games = env_number("SHATRANJ_PYCHESS_GAMES", DEFAULT_GAMES as u64);
    let seed = env_number("SHATRANJ_SEED", DEFAULT_SEED);
    println!(
        "python-chess {version} ({}); {games} games, seed {seed} (SHATRANJ_PYCHESS_GAMES, SHATRANJ_SEED)",
        python.display()
    );

    let start = Instant::now();
    let out = Command::new(&python)
        .arg(SCRIPT)
        .args(["--seed", &seed.to_string(), "--games", &games.to_string()])
        .args(mode.is_chess960().then_some("--chess960"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {SCRIPT}: {e}"));
    assert!(
        out.status.success(),
        "{SCRIPT} failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("script output is not UTF-8");
    let python_secs = start.elapsed().as_secs_f64();

    let mut game: Option<Game> = None;
    let mut positions = 0u64;
    let mut done = false;
    // field -> (count, first few descriptions)
    let mut diffs: BTreeMap<String, (usize, Vec<String>)> = BTreeMap::new();
    let mut note = |field: &str, g: &Game, ply: u64, what: String| {
        let e = diffs.entry(field.to_owned()).or_default();
        e.0 += 1;
        if e.1.len() < 3 {
            let moves: Vec<String> = g
                .history
                .moves()
                .iter()
                .map(std::string::ToString::to_string)
                .collect();
            e.1.push(format!(
                "[{field}] game {} ply {ply}: {what}\n    start {}\n    moves {}\n    now   {}",
                g.id,
                g.start,
                moves.join(" "),
                to_fen_with(g.history.position(), EnPassantMode::Always)
            ));
        }
    };

    for (lineno, line) in text.lines().enumerate() {
        let rec: Json = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("line {}: bad JSON ({e}): {line}", lineno + 1));
        if rec["done"].as_bool() == Some(true) {
            done = true;
            break;
        }
        if let Some(start) = rec["start"].as_str() {
            let id = rec["game"]
                .as_u64()
                .unwrap_or_else(|| panic!("line {}: no game id", lineno + 1));
            let pos = Position::from_fen_with(start, mode)
                .unwrap_or_else(|e| panic!("game {id}: cannot parse start {start:?}: {e}"));
            game = Some(Game {
                id,
                start: start.to_owned(),
                history: History::new(pos),
                broken: false,
            });
            continue;
        }
        let g = game
            .as_mut()
            .unwrap_or_else(|| panic!("line {}: position before any game", lineno + 1));
        if g.broken {
            continue;
        }
        let ply = rec["ply"]
            .as_u64()
            .unwrap_or_else(|| panic!("line {}: no ply", lineno + 1));
        assert_eq!(
            ply as usize,
            g.history.moves().len(),
            "line {}: ply out of step",
            lineno + 1
        );
        positions += 1;
        for (field, mine) in ours(&g.history, mode) {
            let theirs = &rec[field];
            if *theirs == mine {
                continue;
            }
            let what = match (theirs, &mine) {
                (Json::Object(t), Json::Object(m)) if field == "san" => {
                    let mut s = String::new();
                    for (k, v) in t {
                        if m.get(k) != Some(v) {
                            let _ = write!(
                                s,
                                "{k}: python-chess {}, shatranj {}; ",
                                v,
                                m.get(k).map_or("-".into(), Json::to_string)
                            );
                        }
                    }
                    for (k, v) in m {
                        if !t.contains_key(k) {
                            let _ = write!(s, "{k}: python-chess -, shatranj {v}; ");
                        }
                    }
                    s
                }
                _ => format!("python-chess {theirs}, shatranj {mine}"),
            };
            note(field, g, ply, what);
        }
        for (field, what) in self_checks(&g.history, &rec, mode) {
            note(field, g, ply, what);
        }
        if let Some(uci) = rec["move"].as_str() {
            match parse_uci(g.history.position(), uci) {
                Ok(m) => g
                    .history
                    .push(m)
                    .unwrap_or_else(|e| panic!("game {} ply {ply}: push {uci}: {e}", g.id)),
                Err(e) => {
                    note(
                        "move",
                        g,
                        ply,
                        format!(
                            "python-chess plays {uci}, shatranj cannot: {e}; rest of game skipped"
                        ),
                    );
                    g.broken = true;
                }
            }
        }
    }
    assert!(done, "the script's output ended early (no \"done\" line)");
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{mode:?}: {games} games, {positions} positions compared in {secs:.1} s ({python_secs:.1} s of it in python-chess)"
    );
    if !diffs.is_empty() {
        let mut msg = String::new();
        let summary: Vec<String> = diffs
            .iter()
            .map(|(f, (n, _))| format!("{f}: {n}"))
            .collect();
        let _ = writeln!(
            msg,
            "shatranj differs from python-chess {version} ({mode:?}, seed {seed}); positions per field: {}",
            summary.join(", ")
        );
        let mut shown = 0;
        for (_, examples) in diffs.values() {
            for e in examples.iter().take(1) {
                if shown < SHOWN {
                    let _ = writeln!(msg, "{e}");
                    shown += 1;
                }
            }
        }
        for (_, examples) in diffs.values() {
            for e in examples.iter().skip(1) {
                if shown < SHOWN {
                    let _ = writeln!(msg, "{e}");
                    shown += 1;
                }
            }
        }
        panic!("{msg}");
    }
}

//! `shatranj match` with three engines (ours at three node counts): a fixed-node round-robin
//! is the same PGN on every run and its standings are the PGN's count; a gauntlet plays the
//! expected pairings; a tournament killed again and again resumes without losing or
//! repeating a game; `-sprt` is refused with more than two engines.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const EXE: &str = env!("CARGO_BIN_EXE_shatranj");

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shatranj-tourn-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Four quiet openings, one a line (EPD).
const OPENINGS: &str = "\
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2
rnbqkb1r/pppppppp/5n2/8/2P5/8/PP1PPPPP/RNBQKBNR w KQkq - 1 2
";

/// The arguments of a fixed-node tournament of our engine at 800, 400 and 200 nodes.
fn tournament_args(dir: &Path, pgn: &str, extra: &[&str]) -> Vec<String> {
    let book = dir.join("book.epd");
    std::fs::write(&book, OPENINGS).unwrap();
    let cmd = format!("cmd={EXE}");
    let mut args: Vec<String> = ["match"].map(str::to_owned).to_vec();
    for (name, nodes) in [("n800", "800"), ("n400", "400"), ("n200", "200")] {
        args.extend(
            [
                "-engine",
                &cmd,
                &format!("name={name}"),
                &format!("nodes={nodes}"),
            ]
            .map(str::to_owned),
        );
    }
    args.extend(
        [
            "-each",
            "option.Hash=4",
            "option.Threads=1",
            "-rounds",
            "2",
            "-repeat",
            "-openings",
            &format!("file={}", s(&book)),
            "order=random",
            "-srand",
            "5",
            "-maxmoves",
            "100",
            "-pgnout",
            &format!("file={}", s(&dir.join(pgn))),
            "min=true",
        ]
        .map(str::to_owned),
    );
    args.extend(extra.iter().map(|a| (*a).to_owned()));
    args
}

fn run(args: &[String]) -> Output {
    Command::new(EXE).args(args).output().expect("run shatranj")
}

/// Points per engine and the pairings (White, Black) of each game, counted from a PGN.
fn count_pgn(pgn: &str) -> (BTreeMap<String, f64>, Vec<(String, String)>) {
    let mut points = BTreeMap::new();
    let mut games = Vec::new();
    let (mut white, mut black) = (String::new(), String::new());
    for line in pgn.lines() {
        let tag = |t: &str| {
            line.strip_prefix(t)
                .map(|v| v.trim_end_matches("\"]").to_owned())
        };
        if let Some(w) = tag("[White \"") {
            white = w;
        } else if let Some(b) = tag("[Black \"") {
            black = b;
        } else if let Some(r) = tag("[Result \"") {
            let (pw, pb) = match r.as_str() {
                "1-0" => (1.0, 0.0),
                "0-1" => (0.0, 1.0),
                _ => (0.5, 0.5),
            };
            *points.entry(white.clone()).or_insert(0.0) += pw;
            *points.entry(black.clone()).or_insert(0.0) += pb;
            games.push((white.clone(), black.clone()));
        }
    }
    (points, games)
}

/// The standings rows of the table: name, games, points.
fn standings(out: &str) -> BTreeMap<String, (u64, f64)> {
    out.lines()
        .skip_while(|l| !l.starts_with("Standings"))
        .skip(2)
        .take_while(|l| !l.starts_with("---") && !l.starts_with("Faults"))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                f[1].to_owned(),
                (f[4].parse().unwrap(), f[5].parse().unwrap()),
            )
        })
        .collect()
}

#[test]
fn a_fixed_node_round_robin_is_deterministic_and_its_standings_are_the_pgns() {
    let dir = temp("rr");
    let a = run(&tournament_args(&dir, "a.pgn", &[]));
    assert!(a.status.success(), "{}", text(&a));
    let b = run(&tournament_args(&dir, "b.pgn", &["-concurrency", "2"]));
    assert!(b.status.success(), "{}", text(&b));
    let pgn = std::fs::read_to_string(dir.join("a.pgn")).unwrap();
    assert_eq!(pgn, std::fs::read_to_string(dir.join("b.pgn")).unwrap());
    let (points, games) = count_pgn(&pgn);
    // Three pairings of two rounds of a pair each, both names in every game.
    assert_eq!(games.len(), 12);
    let mut pairs: Vec<(String, String)> = games
        .iter()
        .map(|(w, b)| {
            if w < b {
                (w.clone(), b.clone())
            } else {
                (b.clone(), w.clone())
            }
        })
        .collect();
    pairs.dedup();
    assert_eq!(pairs.len(), 3, "{pairs:?}");
    let table = standings(&text(&a));
    assert_eq!(table.len(), 3, "{}", text(&a));
    for (name, p) in &points {
        assert_eq!(table[name], (8, *p), "{name}: {}", text(&a));
    }
    assert!((points.values().sum::<f64>() - 12.0).abs() < 1e-9);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_gauntlet_plays_its_seeds_against_the_rest() {
    let dir = temp("gauntlet");
    let g = run(&tournament_args(
        &dir,
        "g.pgn",
        &["-tournament", "gauntlet"],
    ));
    assert!(g.status.success(), "{}", text(&g));
    let (_, games) = count_pgn(&std::fs::read_to_string(dir.join("g.pgn")).unwrap());
    let order: Vec<(&str, &str)> = games
        .iter()
        .map(|(w, b)| (w.as_str(), b.as_str()))
        .collect();
    let pair = |a, b| [(a, b), (b, a), (a, b), (b, a)];
    let expected: Vec<(&str, &str)> = pair("n800", "n400")
        .into_iter()
        .chain(pair("n800", "n200"))
        .collect();
    assert_eq!(order, expected);
    // Two seeds of three engines: both play n200.
    let g2 = run(&tournament_args(
        &dir,
        "g2.pgn",
        &["-tournament", "gauntlet", "-seeds", "2"],
    ));
    assert!(g2.status.success(), "{}", text(&g2));
    let (_, games) = count_pgn(&std::fs::read_to_string(dir.join("g2.pgn")).unwrap());
    let order: Vec<(&str, &str)> = games
        .iter()
        .map(|(w, b)| (w.as_str(), b.as_str()))
        .collect();
    let expected: Vec<(&str, &str)> = pair("n800", "n200")
        .into_iter()
        .chain(pair("n400", "n200"))
        .collect();
    assert_eq!(order, expected);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_tournament_resumes_without_losing_or_repeating_a_game() {
    let dir = temp("resume");
    let full = run(&tournament_args(&dir, "full.pgn", &[]));
    assert!(full.status.success(), "{}", text(&full));
    let state = dir.join("state.json");
    let config = format!("file={}", s(&state));
    let pgn = dir.join("killed.pgn");
    let args = tournament_args(&dir, "killed.pgn", &["-config", &config]);
    // Killed once each of 2, 5 and 9 games are in the PGN: inside the first, second and
    // third pairings; each later run resumes from the state file alone.
    for (k, games) in [2, 5, 9].into_iter().enumerate() {
        let mut child = if k == 0 {
            Command::new(EXE)
                .args(&args[..])
                .stdout(std::process::Stdio::null())
                .spawn()
        } else {
            Command::new(EXE)
                .args(["match", "-config", &config])
                .stdout(std::process::Stdio::null())
                .spawn()
        }
        .unwrap();
        let began = Instant::now();
        while began.elapsed() < Duration::from_secs(120) {
            let written = std::fs::read_to_string(&pgn).unwrap_or_default();
            if written.matches("[Event ").count() >= games || child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = child.kill();
        child.wait().unwrap();
    }
    let out = run(&["match".to_owned(), "-config".to_owned(), config.clone()]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        std::fs::read_to_string(&pgn).unwrap(),
        std::fs::read_to_string(dir.join("full.pgn")).unwrap()
    );
    assert_eq!(standings(&text(&out)), standings(&text(&full)));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_is_for_two_engines_only() {
    let dir = temp("sprt");
    let out = run(&tournament_args(
        &dir,
        "x.pgn",
        &["-sprt", "elo0=0", "elo1=5"],
    ));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("-sprt applies only to a match of two engines"),
        "{}",
        text(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

//! `shatranj review` as a user sees it: annotated PGN, determinism, checkpoints, bad games.
//! The definitions themselves are unit-tested in `shatranj_engine::review`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shatranj(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shatranj"))
        .args(args)
        .output()
        .expect("run shatranj")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shatranj-review-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Six games: a fool's mate, an opening, a long middlegame, one from a FEN, one with an
/// illegal move (game 5), and one after it.
const GAMES: &str = r#"[Event "fool"]
[White "w1"]
[Black "b1"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "ruy"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Qe2 b5 7. Bb3 O-O 8. c3 d5 *

[Event "long"]
[White "ethereal-12"]
[Black "shatranj-gen7"]
[Result "*"]

1. c4 e5 2. Qc2 c5 3. e4 d6 4. d3 Be7 5. Nc3 Nc6 6. Nf3 Nf6 7. Be2 O-O 8. O-O a6
9. Nd5 Bd7 10. Bd2 b5 11. Rac1 b4 12. h3 a5 13. a3 Rb8 14. Qd1 h6 15. Ra1 Ne8
16. Re1 Nc7 17. axb4 axb4 18. Qc1 f5 19. Bd1 f4 20. Ba4 Bf6 21. Qd1 Ne6 22. Bb5 Ned4 *

[Event "fen"]
[SetUp "1"]
[FEN "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"]
[Result "*"]

1. Kf1 h6 2. Ra8+ Kh7 *

[Event "broken"]
[Result "*"]

1. e4 e5 2. Ke3 Nf6 *

[Event "after"]
[Result "*"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 *
"#;

fn games_file(dir: &Path) -> PathBuf {
    let p = dir.join("games.pgn");
    std::fs::write(&p, GAMES).unwrap();
    p
}

#[test]
fn reviews_are_annotated_pgn_and_deterministic() {
    let dir = temp("determinism");
    let games = games_file(&dir);
    let mut outputs = Vec::new();
    for (i, threads) in ["1", "1", "2"].iter().enumerate() {
        let out = dir.join(format!("out{i}.pgn"));
        let o = shatranj(&[
            "review",
            s(&games),
            "--nodes",
            "1500",
            "--threads",
            threads,
            "--pgn-out",
            s(&out),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("warning: game 5: line ")
                && err.contains("Ke3")
                && err.contains("skipped"),
            "{err}"
        );
        assert!(err.contains("5 games reviewed, 1 skipped"), "{err}");
        outputs.push(std::fs::read_to_string(&out).unwrap());
    }
    assert_eq!(outputs[0], outputs[1], "two runs, same bytes");
    assert_eq!(outputs[0], outputs[2], "two threads, same bytes");
    let pgn = &outputs[0];
    assert_eq!(pgn.matches("[Annotator \"shatranj ").count(), 5, "{pgn}");
    assert!(!pgn.contains("[Event \"broken\"]"));
    // Games in input order, the one after the broken game included.
    let events: Vec<&str> = pgn
        .lines()
        .filter_map(|l| l.strip_prefix("[Event \""))
        .collect();
    assert_eq!(
        events,
        ["fool\"]", "ruy\"]", "long\"]", "fen\"]", "after\"]"]
    );
    // The fool's mate: White's 2. g4 is a blunder into a mate, the mate is #-0.
    assert!(pgn.contains("2. g4 $4"), "{pgn}");
    assert!(pgn.contains("Checkmate is now unavoidable."), "{pgn}");
    assert!(pgn.contains("2... Qh4# { [%eval #-0] } 0-1"), "{pgn}");
    // Every move has an evaluation: 4 + 16 + 44 + 4 + 8 moves.
    assert_eq!(pgn.matches("[%eval ").count(), 76, "{pgn}");
    // The FEN game: 1. Kf1 misses the mate in one.
    assert!(
        pgn.contains("Lost forced checkmate sequence. Ra8# was best.")
            && pgn.contains("( 1. Ra8# )"),
        "{pgn}"
    );
}

#[test]
fn a_broken_game_fails_the_run_with_on_error_fail() {
    let dir = temp("fail");
    let games = games_file(&dir);
    let out = dir.join("out.pgn");
    let o = shatranj(&[
        "review",
        s(&games),
        "--depth",
        "2",
        "--on-error",
        "fail",
        "--pgn-out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("error: game 5: line "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // The four games before it are written.
    let pgn = std::fs::read_to_string(&out).unwrap();
    assert_eq!(pgn.matches("[Annotator ").count(), 4);
}

#[test]
fn bad_settings_are_one_line_and_status_2() {
    let dir = temp("usage");
    let games = games_file(&dir);
    for args in [
        &["review", s(&games)][..],
        &["review", s(&games), "--nodes", "10", "--depth", "2"][..],
        &["review", s(&games), "--from-comments", "--nodes", "10"][..],
        &["review", s(&dir.join("missing.pgn")), "--nodes", "10"][..],
        &[
            "review",
            s(&games),
            "--nodes",
            "10",
            "--checkpoint",
            s(&dir.join("c")),
        ][..],
    ] {
        let o = shatranj(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{err}");
    }
}

/// A run stopped after two games, then after four, then resumed to the end, equals one run
/// over everything; so does a run killed in the middle and resumed.
#[test]
fn a_checkpointed_run_resumes_where_it_stopped() {
    let dir = temp("checkpoint");
    let games = games_file(&dir);
    let whole = dir.join("whole.pgn");
    let base = ["--nodes", "1500", "--quiet"];
    let run = |extra: &[&str]| {
        let mut args = vec!["review", s(&games)];
        args.extend_from_slice(&base);
        args.extend_from_slice(extra);
        let o = shatranj(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        o
    };
    run(&["--pgn-out", s(&whole)]);
    let expected = std::fs::read(&whole).unwrap();

    let part = dir.join("part.pgn");
    let ck = dir.join("part.ck");
    run(&[
        "--pgn-out",
        s(&part),
        "--checkpoint",
        s(&ck),
        "--max-games",
        "2",
    ]);
    let first = std::fs::read_to_string(&part).unwrap();
    assert_eq!(first.matches("[Annotator ").count(), 2);
    // Garbage after the checkpointed bytes (a write the kill cut short) is dropped.
    std::fs::write(&part, format!("{first}[Event \"half a ga")).unwrap();
    run(&[
        "--pgn-out",
        s(&part),
        "--checkpoint",
        s(&ck),
        "--max-games",
        "4",
    ]);
    run(&["--pgn-out", s(&part), "--checkpoint", s(&ck)]);
    assert_eq!(std::fs::read(&part).unwrap(), expected);
    // A finished run's checkpoint makes a rerun do nothing.
    run(&["--pgn-out", s(&part), "--checkpoint", s(&ck)]);
    assert_eq!(std::fs::read(&part).unwrap(), expected);

    // Other settings refuse the checkpoint.
    let o = shatranj(&[
        "review",
        s(&games),
        "--nodes",
        "999",
        "--pgn-out",
        s(&part),
        "--checkpoint",
        s(&ck),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("other settings"), "{}", stderr(&o));

    // Killed while running (SIGKILL: no chance to tidy up) once a few games are final,
    // then resumed: a longer input, so the kill lands in the middle.
    let many = dir.join("many.pgn");
    std::fs::write(&many, GAMES.repeat(8)).unwrap();
    let many_whole = dir.join("many-whole.pgn");
    let o = shatranj(&[
        "review",
        s(&many),
        "--nodes",
        "1500",
        "--quiet",
        "--pgn-out",
        s(&many_whole),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let killed = dir.join("killed.pgn");
    let ck2 = dir.join("killed.ck");
    let mut child = Command::new(env!("CARGO_BIN_EXE_shatranj"))
        .args(["review", s(&many), "--nodes", "1500", "--quiet"])
        .args(["--pgn-out", s(&killed), "--checkpoint", s(&ck2)])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let games_done = |ck: &Path| -> u64 {
        std::fs::read_to_string(ck)
            .ok()
            .and_then(|t| {
                t.lines()
                    .find_map(|l| l.strip_prefix("games ")?.parse().ok())
            })
            .unwrap_or(0)
    };
    let waited = std::time::Instant::now();
    while games_done(&ck2) < 3 && waited.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    let at_kill = games_done(&ck2);
    assert!((3..48).contains(&at_kill), "killed after {at_kill} games");
    let o = shatranj(&[
        "review",
        s(&many),
        "--nodes",
        "1500",
        "--quiet",
        "--pgn-out",
        s(&killed),
        "--checkpoint",
        s(&ck2),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&killed).unwrap(),
        std::fs::read(&many_whole).unwrap()
    );
}

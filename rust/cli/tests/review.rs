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

/// The rows of a Parquet table written as the CSV writes them (its header first), and
/// the physical type of each column.
fn parquet_as_csv(path: &Path) -> (String, Vec<String>) {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let columns = reader
        .metadata()
        .file_metadata()
        .schema_descr()
        .columns()
        .to_vec();
    let names: Vec<&str> = columns.iter().map(|c| c.name()).collect();
    let types = columns
        .iter()
        .map(|c| format!("{} {:?}", c.physical_type(), c.logical_type_ref()))
        .collect();
    let mut text = names.join(",") + "\n";
    for row in reader.get_row_iter(None).unwrap() {
        let row = row.unwrap();
        let fields: Vec<String> = row
            .get_column_iter()
            .map(|(_, field)| match field {
                Field::Null => String::new(),
                Field::Int(n) => n.to_string(),
                Field::Long(n) => n.to_string(),
                Field::Double(x) => x.to_string(),
                Field::Str(t) if t.contains([',', '"', '\n', '\r']) => {
                    format!("\"{}\"", t.replace('"', "\"\""))
                }
                Field::Str(t) => t.clone(),
                other => panic!("{}: unexpected {other:?}", path.display()),
            })
            .collect();
        text.push_str(&fields.join(","));
        text.push('\n');
    }
    (text, types)
}

/// `--table F.parquet` writes F.parquet and F.games.parquet holding the rows of the CSV
/// tables, typed; an interrupted (Ctrl-C) run leaves the finished games readable, and resumed
/// it ends with the same files as a run never interrupted.
#[test]
fn parquet_tables_hold_the_csv_rows_and_resume_exactly() {
    let dir = temp("parquet");
    let games = games_file(&dir);
    let run = |args: &[&str]| {
        let mut all = vec!["review", s(&games), "--nodes", "500", "--quiet"];
        all.extend_from_slice(args);
        let o = shatranj(&all);
        assert!(o.status.success(), "{all:?}: {}", stderr(&o));
    };
    let csv = dir.join("t.csv");
    let pq = dir.join("t.parquet");
    run(&["--table", s(&csv)]);
    run(&["--table", s(&pq)]);
    for (csv, pq) in [
        (&csv, &pq),
        (&dir.join("t.games.csv"), &dir.join("t.games.parquet")),
    ] {
        let (text, types) = parquet_as_csv(pq);
        assert_eq!(text, std::fs::read_to_string(csv).unwrap(), "{pq:?}");
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let kind = |name: &str| {
            header
                .iter()
                .position(|&c| c == name)
                .map(|i| types[i].as_str())
        };
        let int32 = Some("INT32 None");
        let string = Some("BYTE_ARRAY Some(String)");
        assert_eq!(kind("game"), Some("INT64 None"));
        if kind("ply").is_some() {
            assert_eq!(
                [kind("ply"), kind("san"), kind("nodes")],
                [int32, string, Some("INT64 None")]
            );
            assert_eq!(kind("accuracy"), Some("DOUBLE None"));
        } else {
            assert_eq!(
                [kind("event"), kind("white_elo"), kind("plies")],
                [string, int32, int32]
            );
            assert_eq!(kind("white_accuracy"), Some("DOUBLE None"));
        }
    }
    let (moves, _) = parquet_as_csv(&pq);
    assert_eq!(moves.lines().count(), 1 + 76);
    let (games_table, types) = parquet_as_csv(&dir.join("t.games.parquet"));
    assert_eq!(games_table.lines().count(), 1 + 6, "{games_table}");
    assert_eq!(types[0], "INT64 None");
    // The skipped game has its row, with the error.
    let broken = games_table.lines().nth(5).unwrap();
    assert!(
        broken.starts_with("5,") && broken.contains("illegal SAN"),
        "{broken}"
    );
    // No checkpoint: nothing to resume, so the spools are gone.
    assert!(!dir.join("t.spool.csv").exists() && !dir.join("t.games.spool.csv").exists());

    // Interrupted with Ctrl-C (SIGINT) once a few games are final (the checkpoint is saved
    // every half second: enough nodes that the run takes some seconds), then resumed.
    let many = dir.join("many.pgn");
    std::fs::write(&many, GAMES.repeat(8)).unwrap();
    let whole = dir.join("whole.parquet");
    let o = shatranj(&[
        "review",
        s(&many),
        "--nodes",
        "5000",
        "--quiet",
        "--table",
        s(&whole),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let part = dir.join("part.parquet");
    let ck = dir.join("part.ck");
    let args = [
        "review",
        s(&many),
        "--nodes",
        "5000",
        "--quiet",
        "--table",
        s(&part),
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_shatranj"))
        .args(args)
        .args(["--checkpoint", s(&ck)])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let games_done = || -> u64 {
        std::fs::read_to_string(&ck)
            .ok()
            .and_then(|t| {
                t.lines()
                    .find_map(|l| l.strip_prefix("games ")?.parse().ok())
            })
            .unwrap_or(0)
    };
    let waited = std::time::Instant::now();
    while games_done() < 3 && waited.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    let at_stop = games_done();
    if status.code() == Some(130) {
        assert!((3..48).contains(&at_stop), "stopped after {at_stop} games");
        // The finished games are readable: one row each.
        let (stopped, _) = parquet_as_csv(&dir.join("part.games.parquet"));
        assert_eq!(stopped.lines().count() as u64, 1 + at_stop, "{stopped}");
    } else {
        // The run finished before the signal came: nothing left to check of the stop.
        assert!(status.success(), "{status:?}");
    }
    assert!(
        dir.join("part.spool.csv").exists(),
        "kept for the checkpoint"
    );
    let o = shatranj(&[&args[..], &["--checkpoint", s(&ck)]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    for name in ["", ".games"] {
        let a = std::fs::read(dir.join(format!("part{name}.parquet"))).unwrap();
        let b = std::fs::read(dir.join(format!("whole{name}.parquet"))).unwrap();
        assert!(
            a == b,
            "part{name}.parquet differs from whole{name}.parquet"
        );
    }
}

/// A lichess-style export: evaluations in `[%eval]` comments, one missing.
const COMMENTED: &str = r#"[Event "commented"]
[Result "*"]

1. e4 { [%eval 0.2] } 1... e5 { [%eval 0.25] } 2. Nf3 { [%eval -0.4] } 2... Nc6 { [%eval 0.9] }
3. Bb5 { no eval here } 3... a6 { [%eval 1.0] } 4. Ba4 { [%eval -2.0] } 4... Nf6 { [%eval #-2] }
5. O-O { [%eval #-5] } 5... Be7 { [%eval -3.0] } 6. Qe2 { [%eval -3.1] } 6... b5 { [%eval -12.0] }
7. Bb3 { [%eval #-3] } 7... O-O { [%eval -8.0] } 8. c3 { [%eval #-4] } 8... d5 { [%eval #-4] } *

[Event "scholar"]
[Result "1-0"]

1. e4 { [%eval 0.3] } 1... e5 { [%eval 0.25] } 2. Bc4 { [%eval 0.2] } 2... Nc6 { [%eval 0.3] }
3. Qh5 { [%eval 0.1] } 3... Nf6 { [%eval #1] } 4. Qxf7# 1-0
"#;

/// Lichess's definitions again, in the plainest form, for the check below.
mod plain {
    // Lichess's published constants, digit for digit.
    #[allow(clippy::unreadable_literal)]
    pub fn win(cp: i32) -> f64 {
        let cp = f64::from(cp.clamp(-1000, 1000));
        50.0 + 50.0 * (2.0 / (1.0 + (-0.00368208 * cp).exp()) - 1.0)
    }

    // Lichess's published constants, digit for digit.
    #[allow(clippy::unreadable_literal)]
    pub fn accuracy(before: f64, after: f64) -> f64 {
        if after >= before {
            return 100.0;
        }
        let d = before - after;
        (103.1668100711649 * (-0.04354415386753951 * d).exp() - 3.166924740191411 + 1.0)
            .clamp(0.0, 100.0)
    }

    /// White's and Black's accuracy from White's centipawns (a mate as ±1000) after each
    /// move, the start at +15, White moving first; `None` values skip their moves.
    pub fn game(cps: &[Option<i32>]) -> [f64; 2] {
        let mut wins = vec![Some(win(15))];
        wins.extend(cps.iter().map(|c| c.map(win)));
        let size = (cps.len() / 10).clamp(2, 8);
        let mut moves = [Vec::new(), Vec::new()];
        for i in 0..cps.len() {
            let from = i.saturating_sub(size - 2).min(wins.len() - size);
            let window: Option<Vec<f64>> = wins[from..from + size].iter().copied().collect();
            let (Some(w), Some(a), Some(b)) = (window, wins[i], wins[i + 1]) else {
                continue;
            };
            let mean = w.iter().sum::<f64>() / w.len() as f64;
            let sd = (w.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / w.len() as f64).sqrt();
            let acc = if i % 2 == 0 {
                accuracy(a, b)
            } else {
                accuracy(100.0 - a, 100.0 - b)
            };
            moves[i % 2].push((acc, sd.clamp(0.5, 12.0)));
        }
        moves.map(|m| {
            let weighted =
                m.iter().map(|(a, w)| a * w).sum::<f64>() / m.iter().map(|(_, w)| w).sum::<f64>();
            let harmonic = m.len() as f64 / m.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
            f64::midpoint(weighted, harmonic)
        })
    }
}

#[test]
fn from_comments_judges_and_scores_as_lichess_defines() {
    let dir = temp("comments");
    let games = dir.join("commented.pgn");
    std::fs::write(&games, COMMENTED).unwrap();
    let table = dir.join("t.csv");
    let pgn_out = dir.join("out.pgn");
    let o = shatranj(&[
        "review",
        s(&games),
        "--from-comments",
        "--quiet",
        "--table",
        s(&table),
        "--pgn-out",
        s(&pgn_out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let moves = std::fs::read_to_string(&table).unwrap();
    let rows: Vec<Vec<&str>> = moves
        .lines()
        .skip(1)
        .map(|l| l.splitn(19, ',').collect())
        .collect();
    let judged: Vec<&str> = rows.iter().filter(|r| r[0] == "1").map(|r| r[16]).collect();
    // By hand: 2. Nf3 drops 0.12 of winning chances, 2... Nc6 0.24, 4. Ba4 0.53; 5... Be7
    // lets a mate go (to -3.00 from Black's side: under 7), 7. Bb3 walks into a mate from
    // -12.00 (below -9.99), 7... O-O lets a mate go to 8.00 (above 7), 8. c3 walks into a
    // mate from -8.00 (below -7). A mate delayed (5. O-O) or found (4... Nf6) is not
    // judged, nor a move next to the missing evaluation (3. Bb5, 3... a6).
    assert_eq!(
        judged,
        [
            "",
            "",
            "Inaccuracy",
            "Mistake",
            "",
            "",
            "Blunder",
            "",
            "",
            "Blunder",
            "",
            "",
            "Inaccuracy",
            "Mistake",
            "Mistake",
            ""
        ]
    );
    // The scholar's mate: 3... Nf6 walks into a mate in one (a blunder), and the board
    // says Black is mated after 4. Qxf7# though the comment has no evaluation.
    let scholar: Vec<&Vec<&str>> = rows.iter().filter(|r| r[0] == "2").collect();
    assert_eq!(scholar[5][16], "Blunder");
    assert_eq!((scholar[6][8], scholar[6][9]), ("", "0"));

    // Accuracy and ACPL per side against the plain restatement.
    let cps = |text: &str| -> Vec<Option<i32>> {
        text.split(' ')
            .map(|t| match t {
                "-" => None,
                t if t.starts_with('#') => Some(if t.starts_with("#-") { -1000 } else { 1000 }),
                t => Some(t.parse().unwrap()),
            })
            .collect()
    };
    let first = cps("20 25 -40 90 - 100 -200 #-2 #-5 -300 -310 -1200 #-3 -800 #-4 #-4");
    let second = cps("30 25 20 30 10 #1 #1");
    let table_games = std::fs::read_to_string(dir.join("t.games.csv")).unwrap();
    let games_rows: Vec<Vec<&str>> = table_games
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let header: Vec<&str> = table_games.lines().next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|&c| c == name).unwrap();
    let (accuracy, acpl) = (column("white_accuracy"), column("white_acpl"));
    assert_eq!(column("black_accuracy"), accuracy + 1);
    assert_eq!(column("black_acpl"), acpl + 1);
    for (row, cps) in games_rows.iter().zip([&first, &second]) {
        let [white, black] = plain::game(cps);
        let got_white: f64 = row[accuracy].parse().unwrap();
        let got_black: f64 = row[accuracy + 1].parse().unwrap();
        assert!((got_white - white).abs() < 1e-9, "{got_white} {white}");
        assert!((got_black - black).abs() < 1e-9, "{got_black} {black}");
        // ACPL: the mean loss over each side's moves with both evaluations known.
        let mut losses = [Vec::new(), Vec::new()];
        let mut prev = Some(15);
        for (i, &next) in cps.iter().enumerate() {
            if let (Some(b), Some(a)) = (prev, next) {
                let loss = if i % 2 == 0 { b - a } else { a - b };
                losses[i % 2].push(loss.clamp(0, 2000));
            }
            prev = next;
        }
        for side in 0..2 {
            let l = &losses[side];
            let mean = f64::from(l.iter().sum::<i32>()) / l.len() as f64;
            assert_eq!(row[acpl + side], ((mean + 0.5).floor() as i64).to_string());
        }
    }
    // The annotated PGN: NAGs and lichess's comments, the evaluations written back.
    let pgn = std::fs::read_to_string(&pgn_out)
        .unwrap()
        .replace('\n', " ");
    assert!(pgn.contains("2. Nf3 $6"), "{pgn}");
    assert!(pgn.contains("(0.25 → -0.40) Inaccuracy."), "{pgn}");
    assert!(pgn.contains("7. Bb3 $6"), "{pgn}");
    assert!(
        pgn.contains("(-12.00 → Mate in 3) Checkmate is now unavoidable."),
        "{pgn}"
    );
    assert!(
        pgn.contains("(Mate in 3 → -8.00) Lost forced checkmate sequence."),
        "{pgn}"
    );
    assert!(pgn.contains("{ no eval here }"), "{pgn}");
    assert!(pgn.contains("4. Qxf7# { [%eval #+0] } 1-0"), "{pgn}");
}

/// Stockfish, where the machine has it: `$SHATRANJ_STOCKFISH`, `stockfish` on `PATH`, or
/// Debian's `/usr/games/stockfish`. `None` (the test then says it is skipped) only when
/// none is there and `SHATRANJ_REQUIRE_ENGINES` is unset: scripts/test installs it.
fn stockfish() -> Option<PathBuf> {
    let found = std::env::var_os("SHATRANJ_STOCKFISH")
        .map(PathBuf::from)
        .filter(|p| p.is_file())
        .or_else(|| {
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
                .map(|d| d.join("stockfish"))
                .find(|p| p.is_file())
        })
        .or_else(|| Some(PathBuf::from("/usr/games/stockfish")).filter(|p| p.is_file()));
    if found.is_none() {
        assert!(
            std::env::var_os("SHATRANJ_REQUIRE_ENGINES").is_none(),
            "SHATRANJ_REQUIRE_ENGINES is set but no Stockfish was found"
        );
        eprintln!("skipped: no Stockfish (set SHATRANJ_STOCKFISH or install it)");
    }
    found
}

#[test]
fn stockfish_reviews_deterministically_at_fixed_nodes() {
    let Some(sf) = stockfish() else { return };
    let dir = temp("stockfish");
    let games = games_file(&dir);
    let mut outputs = Vec::new();
    for (i, threads) in ["1", "2"].iter().enumerate() {
        let out = dir.join(format!("out{i}.pgn"));
        let table = dir.join(format!("t{i}.csv"));
        let o = shatranj(&[
            "review",
            s(&games),
            "--nodes",
            "5000",
            "--engine",
            s(&sf),
            "--engine-option",
            "Threads=1",
            "--threads",
            threads,
            "--pgn-out",
            s(&out),
            "--table",
            s(&table),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("5 games reviewed, 1 skipped"),
            "{}",
            stderr(&o)
        );
        outputs.push((
            std::fs::read_to_string(&out).unwrap(),
            std::fs::read_to_string(&table).unwrap(),
        ));
    }
    assert_eq!(outputs[0], outputs[1], "same bytes with one worker and two");
    let pgn = outputs[0].0.replace('\n', " ");
    assert!(pgn.contains("review: Stockfish"), "{pgn}");
    assert!(pgn.contains("2. g4 $4"), "{pgn}");
    assert!(
        pgn.contains("Lost forced checkmate sequence. Ra8# was best."),
        "{pgn}"
    );
    // Every position before a move was searched: each move row names the best move.
    let moves = &outputs[0].1;
    assert!(
        moves
            .lines()
            .skip(1)
            .all(|l| l.split(',').nth(10) != Some("")),
        "{moves}"
    );
}

/// A fake UCI engine that answers everything with a score and no move, and crashes (or,
/// with `FAKE_MODE=hang`, stops answering) when the position holds `FAKE_ON`.
const FAKE_ENGINE: &str = r#"#!/bin/sh
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name fake"; echo "option name Hash type spin default 16 min 1 max 64"; echo "uciok" ;;
    isready) echo "readyok" ;;
    position*) pos="$line" ;;
    go*)
      case "$pos" in
        *"$FAKE_ON"*) if [ "$FAKE_MODE" = hang ]; then continue; else exit 3; fi ;;
      esac
      echo "info depth 1 score cp 7 pv"
      echo "bestmove 0000" ;;
    quit) exit 0 ;;
  esac
done
"#;

#[test]
fn an_engine_that_crashes_or_hangs_fails_its_game_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp("fake");
    let games = games_file(&dir);
    let fake = dir.join("fake-engine");
    std::fs::write(&fake, FAKE_ENGINE).unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    for mode in ["crash", "hang"] {
        let out = dir.join(format!("{mode}.pgn"));
        let o = Command::new(env!("CARGO_BIN_EXE_shatranj"))
            .args(["review", s(&games), "--nodes", "100", "--engine", s(&fake)])
            .args([
                "--engine-timeout",
                "0.5",
                "--threads",
                "2",
                "--pgn-out",
                s(&out),
            ])
            .env("FAKE_ON", "g2g4")
            .env("FAKE_MODE", mode)
            .output()
            .unwrap();
        let err = stderr(&o);
        assert!(o.status.success(), "{mode}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        // The fool's mate's 2. g4 is where it fails, twice; the other games go on.
        assert!(
            err.contains("warning: game 1: the engine failed at ply 3 (after 2. g4) (after a restart and a retry)"),
            "{mode}: {err}"
        );
        let what = if mode == "crash" {
            "exited"
        } else {
            "sent no bestmove"
        };
        assert!(err.contains(what), "{mode}: {err}");
        assert!(err.contains("4 games reviewed, 2 skipped"), "{mode}: {err}");
        let pgn = std::fs::read_to_string(&out).unwrap();
        assert!(!pgn.contains("[Event \"fool\"]") && pgn.contains("[Event \"after\"]"));
    }
    // An engine that cannot start is a usage error.
    let o = shatranj(&[
        "review",
        s(&games),
        "--nodes",
        "100",
        "--engine",
        s(&dir.join("no-such-engine")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot start the engine"),
        "{}",
        stderr(&o)
    );
}

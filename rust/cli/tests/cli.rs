//! The `shatranj perft` command as a user sees it: output format, exit codes, errors.

use std::process::{Command, Output};

fn shatranj(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shatranj"))
        .args(args)
        .output()
        .expect("run shatranj")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn perft_prints_nodes_and_speed_like_stockfish() {
    let o = shatranj(&["perft", "3", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Nodes searched: 8902");
    assert!(
        lines[1].starts_with("Time: ") && lines[1].contains(" Mnps ("),
        "{out}"
    );
}

#[test]
fn divide_lists_every_root_move_then_the_total() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let o = shatranj(&["perft", "2", "--divide", "--quiet", "--fen", fen]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let split: Vec<(&str, u64)> = out
        .lines()
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let (m, n) = l.split_once(": ").expect("`move: count`");
            (m, n.parse().expect("count"))
        })
        .collect();
    assert_eq!(split.len(), 48);
    assert!(
        split.iter().any(|&(m, _)| m == "e1g1"),
        "castling written as the king's move"
    );
    assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), 2039);
    assert!(out.contains("\nNodes searched: 2039\n"), "{out}");
}

#[test]
fn threads_and_hash_give_the_same_count() {
    for args in [
        &["perft", "5", "--quiet"][..],
        &["perft", "5", "--quiet", "--threads", "2", "--hash", "8"][..],
    ] {
        let o = shatranj(args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stdout(&o).starts_with("Nodes searched: 4865609\n"),
            "{args:?}: {}",
            stdout(&o)
        );
    }
}

#[test]
fn bad_input_is_one_line_on_stderr_and_status_2() {
    let cases: [&[&str]; 7] = [
        &["perft", "3", "--threads", "100000"],
        &["perft", "3", "--hash", "lots"],
        &[
            "perft",
            "3",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        ],
        &[
            "perft",
            "3",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        ],
        &["perft", "three"],
        &["perft", "0"],
        &["perft", "-1"],
    ];
    for args in cases {
        let o = shatranj(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("backtrace"),
            "{err}"
        );
        assert!(stdout(&o).is_empty());
    }
    // The FEN error names the field and the offending text.
    let o = shatranj(&[
        "perft",
        "3",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    ]);
    let err = stderr(&o);
    assert!(
        err.contains("side to move") && err.contains("\"x\""),
        "{err}"
    );
}

#[test]
fn a_closed_pipe_is_not_a_crash() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_shatranj"))
        .args(["perft", "3", "--divide", "--quiet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take()); // The reader goes away, as with `| head -0`.
    let status = child.wait().expect("wait");
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("read");
    assert!(status.success(), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

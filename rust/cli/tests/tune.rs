//! `shatranj tune` as a user sees it, on the tune build (`cargo test -p shatranj-cli
//! --features tune`: the binary is then both the tuner and the engine it tunes): a tune
//! stopped by SIGINT and run again ends where an uninterrupted one does.
#![cfg(feature = "tune")]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

const EXE: &str = env!("CARGO_BIN_EXE_shatranj");

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shatranj-tune-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn args(openings: &str, state: &str) -> Vec<String> {
    format!(
        "tune -engine cmd={EXE} -each nodes=400 option.Hash=4 -openings file={openings} \
         format=epd order=sequential -maxmoves 60 -concurrency 2 \
         -spsa iterations=6 pairs=2 seed=5 params=RFP_MARGIN,NMP_BASE_REDUCTION r_end=0.05 \
         state={state}"
    )
    .split_whitespace()
    .map(str::to_owned)
    .collect()
}

/// The parameters' values (the state file's text from `"params"` on: the file is
/// pretty-printed JSON with the parameters last) and the iteration.
fn outcome(state: &PathBuf) -> (String, u64) {
    let text = std::fs::read_to_string(state).unwrap();
    let params = text[text.find("\"params\"").unwrap()..].to_owned();
    let iteration = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("\"iteration\": "))
        .unwrap()
        .trim_end_matches(',')
        .parse()
        .unwrap();
    (params, iteration)
}

#[test]
fn a_tune_stopped_by_sigint_resumes_on_the_same_trajectory() {
    let dir = temp("resume");
    let openings = dir.join("openings.epd");
    std::fs::write(
        &openings,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\
         rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\
         rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2\n",
    )
    .unwrap();
    let openings = openings.to_str().unwrap();
    let (straight, stopped) = (dir.join("straight.json"), dir.join("stopped.json"));

    let out = Command::new(EXE)
        .args(args(openings, straight.to_str().unwrap()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let (values, iteration) = outcome(&straight);
    assert_eq!(iteration, 6);

    // SIGINT once the first iteration is reported.
    let mut child = Command::new(EXE)
        .args(args(openings, stopped.to_str().unwrap()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert!(lines.any(|l| l.unwrap().starts_with("iteration 1/6")));
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    for _ in lines {}
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "Ctrl-C's exit status");
    let (_, at) = outcome(&stopped);
    assert!((1..6).contains(&at), "stopped at {at}");

    // Only the state file: the saved arguments finish the tune.
    let out = Command::new(EXE)
        .args([
            "tune",
            "-spsa",
            &format!("state={}", stopped.to_str().unwrap()),
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Resuming"));
    assert_eq!(outcome(&stopped), (values, 6));
    let _ = std::fs::remove_dir_all(&dir);
}

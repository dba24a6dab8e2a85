//! `shatranj match` as a user sees it: a fixed-node match of our engine against itself with a
//! handicap is the same PGN at any concurrency and on every run; fake engines (shell
//! scripts) that crash, hang, play an illegal move or overstep their clock lose their games
//! with the reason, are restarted, and the match goes on; a killed run resumes exactly.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const EXE: &str = env!("CARGO_BIN_EXE_shatranj");

fn shatranj(args: &[&str]) -> Output {
    Command::new(EXE)
        .arg("match")
        .args(args)
        .output()
        .expect("run shatranj")
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shatranj-match-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Six quiet openings, one a line (EPD).
const OPENINGS: &str = "\
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2
rnbqkb1r/pppppppp/5n2/8/2P5/8/PP1PPPPP/RNBQKBNR w KQkq - 1 2
rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
rnbqkbnr/pp1ppppp/2p5/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
";

fn handicap_match(dir: &Path, tag: &str, concurrency: &str, rounds: &str) -> (Output, PathBuf) {
    let book = dir.join("book.epd");
    std::fs::write(&book, OPENINGS).unwrap();
    let pgn = dir.join(format!("{tag}.pgn"));
    let book_arg = format!("file={}", s(&book));
    let pgn_arg = format!("file={}", s(&pgn));
    let cmd = format!("cmd={EXE}");
    let out = shatranj(&[
        "-engine",
        &cmd,
        "name=n2000",
        "nodes=2000",
        "-engine",
        &cmd,
        "name=n1000",
        "nodes=1000",
        "-each",
        "option.Hash=4",
        "option.Threads=1",
        "-rounds",
        rounds,
        "-repeat",
        "-concurrency",
        concurrency,
        "-openings",
        &book_arg,
        "format=epd",
        "order=random",
        "-srand",
        "3",
        "-pgnout",
        &pgn_arg,
        "min=true",
        "-maxmoves",
        "120",
    ]);
    (out, pgn)
}

#[test]
fn a_fixed_node_match_is_the_same_pgn_every_time_at_any_concurrency() {
    let dir = temp("determinism");
    let (a, pgn_a) = handicap_match(&dir, "a", "2", "6");
    assert!(a.status.success(), "{}", text(&a));
    let (b, pgn_b) = handicap_match(&dir, "b", "2", "6");
    assert!(b.status.success(), "{}", text(&b));
    let (c, pgn_c) = handicap_match(&dir, "c", "1", "6");
    assert!(c.status.success(), "{}", text(&c));
    let a_text = std::fs::read_to_string(&pgn_a).unwrap();
    assert_eq!(a_text.matches("[Event ").count(), 12);
    assert_eq!(a_text, std::fs::read_to_string(&pgn_b).unwrap());
    assert_eq!(a_text, std::fs::read_to_string(&pgn_c).unwrap());
    // The table is the PGN's: count the results from the file, from n2000's side.
    let (mut w, mut d, mut l) = (0, 0, 0);
    let mut white = "";
    for line in a_text.lines() {
        if let Some(name) = line.strip_prefix("[White \"") {
            white = if name.starts_with("n2000") { "a" } else { "b" };
        }
        match (line, white) {
            ("[Result \"1-0\"]", "a") | ("[Result \"0-1\"]", "b") => w += 1,
            ("[Result \"1-0\"]", "b") | ("[Result \"0-1\"]", "a") => l += 1,
            ("[Result \"1/2-1/2\"]", _) => d += 1,
            _ => {}
        }
    }
    let out = text(&a);
    assert!(
        out.contains(&format!("Games: 12, Wins: {w}, Losses: {l}, Draws: {d},")),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fake UCI engine: handshakes, then does `on_go` when told to search.
fn fake_engine(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\n\
         while read -r line; do\n\
           case \"$line\" in\n\
             uci) echo 'id name {name}'; echo uciok ;;\n\
             isready) echo readyok ;;\n\
             go*) {on_go} ;;\n\
             quit) exit 0 ;;\n\
           esac\n\
         done\n"
    );
    std::fs::write(&path, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// Two rounds (four games) of a fake engine against ours with -recover: every game is the
/// fake's loss, for `reason`.
fn faulty_match(name: &str, on_go: &str, limits: &[&str], reason: &str, termination: &str) {
    let dir = temp(name);
    let fake = fake_engine(&dir, name, on_go);
    let pgn = dir.join("games.pgn");
    let state = dir.join("state.json");
    let mut args = vec![
        "-engine".to_owned(),
        format!("cmd={}", s(&fake)),
        format!("name={name}"),
        "-engine".to_owned(),
        format!("cmd={EXE}"),
        "name=ours".to_owned(),
        "-each".to_owned(),
    ];
    args.extend(limits.iter().map(std::string::ToString::to_string));
    args.extend(
        [
            "-rounds",
            "2",
            "-repeat",
            "-recover",
            "-movetimeout",
            "1",
            "-pgnout",
            &format!("file={}", s(&pgn)),
            "-config",
            &format!("file={}", s(&state)),
        ]
        .map(str::to_owned),
    );
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = shatranj(&refs);
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    assert!(
        all.contains("Games: 4, Wins: 0, Losses: 4, Draws: 0"),
        "{all}"
    );
    assert!(
        all.contains(&format!("Faults: {name} {reason}: 4")),
        "{all}"
    );
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Event ").count(), 4, "{games}");
    assert_eq!(
        games
            .matches(&format!("[Termination \"{termination}\"]"))
            .count(),
        4,
        "{games}"
    );
    let saved = std::fs::read_to_string(&state).unwrap();
    assert!(saved.contains("\"next_round\": 2"), "{saved}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_crashes_loses_and_is_restarted() {
    faulty_match("crasher", "exit 3", &["nodes=300"], "crash", "abandoned");
}

#[test]
fn an_engine_that_hangs_loses_and_is_restarted() {
    faulty_match("hanger", "sleep 3", &["nodes=300"], "hang", "abandoned");
}

#[test]
fn an_illegal_move_loses() {
    faulty_match(
        "illegal",
        "echo 'info depth 1 score cp 0'; echo 'bestmove e2e5'",
        &["nodes=300"],
        "illegal move",
        "rules infraction",
    );
}

#[test]
fn an_engine_past_its_clock_loses_on_time() {
    faulty_match(
        "slow",
        "sleep 1; echo 'bestmove 0000'",
        &["tc=0.3+0.01", "timemargin=0"],
        "time loss",
        "time forfeit",
    );
}

#[test]
fn without_recover_a_crash_stops_the_match() {
    let dir = temp("norecover");
    let fake = fake_engine(&dir, "crasher", "exit 3");
    let cmd = format!("cmd={}", s(&fake));
    let ours = format!("cmd={EXE}");
    let out = shatranj(&[
        "-engine",
        &cmd,
        "name=crasher",
        "-engine",
        &ours,
        "name=ours",
        "-each",
        "nodes=300",
        "-rounds",
        "5",
        "-repeat",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("crasher: crash; the match stops"),
        "{}",
        text(&out)
    );
    assert!(text(&out).contains("Games: 2,"), "{}", text(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_match_resumes_without_losing_or_repeating_a_game() {
    let dir = temp("resume");
    let (full, pgn_full) = handicap_match(&dir, "full", "1", "6");
    assert!(full.status.success(), "{}", text(&full));
    // The same match with a state file, killed once a round or more is counted.
    let book = dir.join("book.epd");
    let pgn = dir.join("killed.pgn");
    let state = dir.join("state.json");
    let cmd = format!("cmd={EXE}");
    let args: Vec<String> = [
        "match",
        "-engine",
        &cmd,
        "name=n2000",
        "nodes=2000",
        "-engine",
        &cmd,
        "name=n1000",
        "nodes=1000",
        "-each",
        "option.Hash=4",
        "option.Threads=1",
        "-rounds",
        "6",
        "-repeat",
        "-concurrency",
        "1",
        "-openings",
        &format!("file={}", s(&book)),
        "format=epd",
        "order=random",
        "-srand",
        "3",
        "-pgnout",
        &format!("file={}", s(&pgn)),
        "min=true",
        "-maxmoves",
        "120",
        "-config",
        &format!("file={}", s(&state)),
    ]
    .map(str::to_owned)
    .to_vec();
    let mut child = Command::new(EXE)
        .args(&args)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let began = Instant::now();
    while !state.exists() && began.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // Resume with the state file alone.
    let out = shatranj(&["-config", &format!("file={}", s(&state))]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("Resuming from"), "{}", text(&out));
    assert_eq!(
        std::fs::read_to_string(&pgn).unwrap(),
        std::fs::read_to_string(&pgn_full).unwrap()
    );
    // Other options with the same state file are refused, and so are fewer rounds than
    // counted.
    let config = format!("file={}", s(&state));
    let out = shatranj(&["-config", &config, "-concurrency", "2"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("other options"), "{}", text(&out));
    let out = shatranj(&["-config", &config, "-rounds", "4"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("already counts 6 rounds"),
        "{}",
        text(&out)
    );
    // More rounds go on from the last counted one: the PGN grows by their games.
    let out = shatranj(&["-config", &config, "-rounds", "7"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("Games: 14,"), "{}", text(&out));
    let extended = std::fs::read_to_string(&pgn).unwrap();
    let six = std::fs::read_to_string(&pgn_full).unwrap();
    assert!(extended.starts_with(&six) && extended.len() > six.len());
    assert_eq!(extended.matches("[Event ").count(), 14);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_errors_name_the_option() {
    let out = shatranj(&[
        "-engine", "cmd=x", "nodes=1", "-engine", "cmd=y", "nodes=1", "-sprt", "elo0=1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("-sprt needs elo0= and elo1="),
        "{}",
        text(&out)
    );
}

//! Differential test against python-chess's `chess.syzygy` (`PyPI` `chess` 1.11, GPL-3, run as
//! a separate program: an oracle, never a source). `tests/pychess/gen_syzygy.py` draws
//! seeded random legal positions from every table in `data/syzygy/regular` (both colourings,
//! both sides to move, one in twenty with an en-passant square) and prints python-chess's WDL
//! and DTZ for each; this test probes the same positions and requires equality everywhere.
//!
//! `cargo test --profile ci -p shatranj-syzygy --test python_chess -- --ignored --nocapture`
//!
//! `SHATRANJ_SEED` (default 1) and `SHATRANJ_SYZYGY_POSITIONS` (default 100,000: about a
//! minute of python-chess) change the draw. The interpreter is `$SHATRANJ_PYTHON`, else the
//! repository's `.venv/bin/python` if it exists, else `python3`; without python-chess the
//! test fails, unless `SHATRANJ_NO_PYCHESS=1`.

use shatranj_chess::Position;
use shatranj_syzygy::{Tablebase, Wdl};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/syzygy/regular");
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pychess/gen_syzygy.py");
const VENV_PYTHON: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../.venv/bin/python");

fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("SHATRANJ_PYTHON") {
        return p.into();
    }
    let venv = PathBuf::from(VENV_PYTHON);
    if venv.is_file() {
        venv
    } else {
        PathBuf::from("python3")
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().map_or(default, |s| {
        s.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={s:?} is not a number"))
    })
}

#[test]
#[ignore = "runs python-chess over 100,000 positions (about a minute); see the file's doc"]
fn random_positions_match_python_chess() {
    let python = python();
    let version = Command::new(&python)
        .args(["-c", "import chess, chess.syzygy; print(chess.__version__)"])
        .output();
    let version = match version {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_owned(),
        other => {
            let why = match other {
                Ok(out) => String::from_utf8_lossy(&out.stderr).trim().to_owned(),
                Err(e) => e.to_string(),
            };
            if std::env::var("SHATRANJ_NO_PYCHESS").as_deref() == Ok("1") {
                println!("python-chess unavailable ({why}); skipped because SHATRANJ_NO_PYCHESS=1");
                return;
            }
            panic!(
                "{} cannot import chess.syzygy: {why}\nInstall python-chess, point SHATRANJ_PYTHON at an \
                 interpreter that has it, or set SHATRANJ_NO_PYCHESS=1 to skip this test.",
                python.display()
            );
        }
    };
    let seed = env_number("SHATRANJ_SEED", 1);
    let count = env_number("SHATRANJ_SYZYGY_POSITIONS", 100_000);
    println!(
        "python-chess {version}: {count} positions, seed {seed} (SHATRANJ_SEED={seed} reproduces)"
    );

    let start = Instant::now();
    let out = Command::new(&python)
        .args([SCRIPT, TABLES, &seed.to_string(), &count.to_string()])
        .output()
        .expect("run gen_syzygy.py");
    assert!(
        out.status.success(),
        "gen_syzygy.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    println!("python-chess: {:.1} s", start.elapsed().as_secs_f64());

    let tb = Tablebase::open([TABLES]).unwrap();
    let start = Instant::now();
    let mut wrong = Vec::new();
    let mut per_table: BTreeMap<String, usize> = BTreeMap::new();
    let (mut n, mut with_ep) = (0usize, 0usize);
    for line in text.lines() {
        let mut f = line.split(';');
        let (fen, wdl, dtz) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
        let (wdl, dtz): (i32, i32) = (wdl.parse().unwrap(), dtz.parse().unwrap());
        let p: Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        let got = (tb.probe_wdl(&p).map(Wdl::value), tb.probe_dtz(&p));
        if got != (Ok(wdl), Ok(dtz)) {
            wrong.push(format!(
                "{fen}: shatranj {got:?}, python-chess wdl {wdl}, dtz {dtz}"
            ));
        }
        n += 1;
        with_ep += usize::from(p.ep_square().is_some());
        let board = fen.split(' ').next().unwrap();
        let mut white: Vec<char> = board.chars().filter(char::is_ascii_uppercase).collect();
        let mut black: Vec<char> = board
            .chars()
            .filter(char::is_ascii_lowercase)
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let order = |c: &char| "KQRBNP".find(*c).unwrap();
        let strength = |side: &str| -> Vec<usize> {
            side.chars().map(|c| "KQRBNP".find(c).unwrap()).collect()
        };
        white.sort_by_key(order);
        black.sort_by_key(order);
        let (a, b): (String, String) = (white.into_iter().collect(), black.into_iter().collect());
        let name = if (a.len(), std::cmp::Reverse(strength(&a)))
            >= (b.len(), std::cmp::Reverse(strength(&b)))
        {
            format!("{a}v{b}")
        } else {
            format!("{b}v{a}")
        };
        *per_table.entry(name).or_default() += 1;
    }
    println!(
        "shatranj: {n} positions ({with_ep} with an en-passant square) from {} materials in {:.2} s",
        per_table.len(),
        start.elapsed().as_secs_f64()
    );
    assert_eq!(n as u64, count);
    assert!(
        wrong.is_empty(),
        "{} of {n} differ (seed {seed}); the first:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(12)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

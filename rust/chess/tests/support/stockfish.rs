//! A small driver for a Stockfish process (`go perft N`), shared by the integration tests that
//! compare node counts with it, and a helper that walks down a perft tree to the smallest
//! subtree where shatranj and Stockfish disagree.
//!
//! Included with `#[path = "support/stockfish.rs"] mod stockfish;` (not every test uses every
//! item, hence the `dead_code` allowance).
#![allow(dead_code)]

use shatranj_chess::Position;
use shatranj_chess::perft::{PerftMonitor, PerftOptions, divide};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// Where to find Stockfish: `$SHATRANJ_STOCKFISH`, else `stockfish` on `PATH`, else
/// `/usr/games/stockfish` (where Debian installs it, a directory root's `PATH` often lacks).
pub fn find() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SHATRANJ_STOCKFISH") {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let candidate = dir.join("stockfish");
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    let debian = PathBuf::from("/usr/games/stockfish");
    debian.is_file().then_some(debian)
}

/// A running Stockfish in UCI mode.
pub struct Stockfish {
    child: Child,
    /// `None` once closed (on drop, so that a wrapper script sees the end of its input).
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    pub path: PathBuf,
    pub id: String,
}

/// A perft split: UCI move -> leaf count.
pub type Split = BTreeMap<String, u64>;

impl Stockfish {
    pub fn start(path: PathBuf) -> Result<Stockfish, String> {
        let mut child = Command::new(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut sf = Stockfish {
            child,
            stdin,
            stdout,
            path,
            id: String::new(),
        };
        sf.send("uci")?;
        loop {
            let line = sf.read_line()?;
            if let Some(name) = line.strip_prefix("id name ") {
                name.clone_into(&mut sf.id);
            }
            if line == "uciok" {
                break;
            }
        }
        Ok(sf)
    }

    fn send(&mut self, cmd: &str) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("stockfish input closed")?;
        writeln!(stdin, "{cmd}")
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("writing to stockfish: {e}"))
    }

    fn read_line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(0) => Err("stockfish closed its output".to_owned()),
            Ok(_) => Ok(line.trim().to_owned()),
            Err(e) => Err(format!("reading from stockfish: {e}")),
        }
    }

    /// `go perft depth` on `fen`: the split by root move and the total.
    pub fn perft(&mut self, fen: &str, depth: u32) -> Result<(Split, u64), String> {
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go perft {depth}"))?;
        let mut split = Split::new();
        loop {
            let line = self.read_line()?;
            if let Some(n) = line.strip_prefix("Nodes searched:") {
                let total = n
                    .trim()
                    .parse()
                    .map_err(|_| format!("bad stockfish line {line:?}"))?;
                return Ok((split, total));
            }
            // `e2e4: 20`; anything else (info strings) is skipped.
            if let Some((mv, n)) = line.split_once(": ")
                && (4..=5).contains(&mv.len())
                && mv.bytes().all(|b| b.is_ascii_alphanumeric())
                && let Ok(n) = n.trim().parse::<u64>()
            {
                split.insert(mv.to_owned(), n);
            }
        }
    }
}

impl Drop for Stockfish {
    fn drop(&mut self) {
        let _ = self.send("quit");
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

/// shatranj's split at `depth` (single thread, no table unless `opts` say otherwise).
pub fn our_split(pos: &Position, depth: u32, opts: &PerftOptions) -> Split {
    divide(pos, depth, opts, &PerftMonitor::new())
        .expect("divide failed")
        .into_iter()
        .map(|(m, n)| (m.to_string(), n))
        .collect()
}

/// Lines describing how two splits differ (empty if they agree).
pub fn split_diff(ours: &Split, theirs: &Split) -> Vec<String> {
    let mut out = Vec::new();
    for (mv, &n) in ours {
        match theirs.get(mv) {
            None => out.push(format!("  {mv}: shatranj {n}, stockfish has no such move")),
            Some(&m) if m != n => out.push(format!("  {mv}: shatranj {n}, stockfish {m}")),
            _ => {}
        }
    }
    for (mv, &m) in theirs {
        if !ours.contains_key(mv) {
            out.push(format!("  {mv}: shatranj has no such move, stockfish {m}"));
        }
    }
    out
}

/// Walks down from `pos` at `depth`, following the first root move whose count differs, to the
/// shallowest position where the move lists themselves differ (or the deepest differing
/// split). Returns a report: the path of moves, the position and the diff there.
pub fn localise(sf: &mut Stockfish, pos: &Position, depth: u32) -> Result<String, String> {
    let mut pos = *pos;
    let mut path = Vec::new();
    let mut report = String::new();
    for d in (1..=depth).rev() {
        let ours = our_split(&pos, d, &PerftOptions::default());
        let (theirs, _) = sf.perft(&pos.fen(), d)?;
        let diff = split_diff(&ours, &theirs);
        if diff.is_empty() {
            if path.is_empty() {
                return Ok(format!(
                    "single-threaded divide of {} at depth {d} agrees with stockfish",
                    pos.fen()
                ));
            }
            report.push_str(&format!(
                "after {} the split agrees at depth {d} (fen {})\n",
                path.join(" "),
                pos.fen()
            ));
            return Ok(report);
        }
        report = format!(
            "smallest disagreement found: after moves [{}] from the start, fen {} depth {d}:\n{}\n",
            path.join(" "),
            pos.fen(),
            diff.join("\n")
        );
        // Missing or extra moves are the bug itself; otherwise descend into a differing move.
        let next = ours
            .keys()
            .find(|mv| theirs.get(*mv).is_some_and(|n| *n != ours[*mv]));
        match next {
            Some(mv) if d > 1 && diff.iter().all(|l| !l.contains("no such move")) => {
                let m = shatranj_chess::uci::parse_uci(&pos, mv).map_err(|e| e.to_string())?;
                pos.play_unchecked(m);
                path.push(mv.clone());
            }
            _ => break,
        }
    }
    Ok(report)
}

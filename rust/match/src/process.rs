//! An engine process as a match drives it: started with its own deadlines, its output read
//! on a thread of its own that stamps each line with the moment it arrived.
//!
//! The engine crate's `uci_client` serves analysis, where one deadline for every handshake
//! is enough; a match runner needs more, as fastchess does:
//! - a deadline per phase, fastchess's `-startup-ms` (`uci` to `uciok`), `-ucinewgame-ms`
//!   (`ucinewgame` to `readyok`) and `-ping-ms` (every other `isready`);
//! - the arrival time of `bestmove` as the reader saw it, so that a runner thread that was
//!   slow to wake does not charge its delay to the engine's clock, and the runner's own
//!   per-move latency can be measured apart from the engine's;
//! - output that is not UTF-8 read lossily: garbage from an engine is ignored, not taken
//!   for the end of its output.

use shatranj_chess::uci::{parse_uci, to_uci};
use shatranj_chess::{CastlingMode, Move, Position};
use shatranj_engine::limits::Limits;
use shatranj_engine::score::Score;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long a search that missed its deadline is given, after `stop`, to answer.
pub const LATE_GRACE: Duration = Duration::from_millis(500);

/// The deadlines of the protocol's handshakes (fastchess's names and defaults).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// `-startup-ms`: from starting the program to `uciok`.
    pub startup: Duration,
    /// `-ucinewgame-ms`: from `ucinewgame` to `readyok`.
    pub ucinewgame: Duration,
    /// `-ping-ms`: any other `isready` to its `readyok`.
    pub ping: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            startup: Duration::from_secs(10),
            ucinewgame: Duration::from_secs(60),
            ping: Duration::from_secs(60),
        }
    }
}

/// What went wrong with an engine process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProcessError {
    /// The program could not be started.
    Start(String),
    /// Its output ended (it exited or crashed) while the runner waited for `waiting_for`.
    Exited { waiting_for: &'static str },
    /// No `waiting_for` within `after`.
    Timeout {
        waiting_for: &'static str,
        after: Duration,
    },
    /// Writing to it failed (it is gone).
    Write(String),
    /// Its `bestmove` is not a legal move in the position.
    IllegalMove { text: String, reason: String },
}

impl fmt::Display for ProcessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProcessError::Start(e) => write!(f, "cannot start the engine: {e}"),
            ProcessError::Exited { waiting_for } => {
                write!(
                    f,
                    "the engine exited while the runner waited for {waiting_for}"
                )
            }
            ProcessError::Timeout { waiting_for, after } => {
                write!(f, "no {waiting_for} within {:.3} s", after.as_secs_f64())
            }
            ProcessError::Write(e) => write!(f, "cannot write to the engine: {e}"),
            ProcessError::IllegalMove { text, reason } => {
                write!(f, "bestmove {text} is illegal: {reason}")
            }
        }
    }
}

impl std::error::Error for ProcessError {}

/// One search's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    /// `None`: `bestmove (none)` or `0000`.
    pub best_move: Option<Move>,
    /// The last score of the main line, from the side to move.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The search time the engine reported last (`info time`).
    pub reported: Option<Duration>,
    /// From writing `go` to the arrival of `bestmove` (as the reader thread saw it).
    pub elapsed: Duration,
    /// When `bestmove` arrived.
    pub arrived: Instant,
    /// When `go` was written.
    pub sent: Instant,
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    /// `id name`, as the engine gave it.
    pub name: String,
    timeouts: Timeouts,
}

impl EngineProcess {
    /// Starts the program, waits for `uciok` (within `startup`), sets the options and waits
    /// for `readyok` (within `ping`).
    pub fn start(
        cmd: &Path,
        args: &[String],
        options: &[(String, String)],
        timeouts: Timeouts,
    ) -> Result<EngineProcess, ProcessError> {
        let mut command = Command::new(cmd);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // Its own process group: a Ctrl-C at the terminal reaches the runner, which decides
        // when to stop, not the engines.
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command
            .spawn()
            .map_err(|e| ProcessError::Start(format!("{}: {e}", cmd.display())))?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| ProcessError::Start("no stdout".to_owned()))?;
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::Builder::new()
            .name("match-engine-read".to_owned())
            .spawn(move || {
                let mut out = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match out.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let at = Instant::now();
                            let line = String::from_utf8_lossy(&buf).trim_end().to_owned();
                            if tx.send((at, line)).is_err() {
                                break;
                            }
                        }
                    }
                }
            });
        if let Err(e) = reader {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ProcessError::Start(e.to_string()));
        }
        let mut engine = EngineProcess {
            child,
            stdin,
            lines: rx,
            name: cmd.display().to_string(),
            timeouts,
        };
        engine.send("uci")?;
        let deadline = Deadline::after(timeouts.startup);
        loop {
            let (_, line) = engine.recv(deadline, "uciok")?;
            let line = line.trim();
            if line == "uciok" {
                break;
            }
            if let Some(name) = line.strip_prefix("id name ") {
                engine.name = name.trim().to_owned();
            }
        }
        for (name, value) in options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.ready(timeouts.ping, "readyok")?;
        Ok(engine)
    }

    /// `isready`, then `readyok` within `ping`: the engine still answers.
    pub fn ping(&mut self) -> Result<(), ProcessError> {
        self.ready(self.timeouts.ping, "readyok")
    }

    /// `ucinewgame`, then `readyok` within `ucinewgame`.
    pub fn new_game(&mut self) -> Result<(), ProcessError> {
        self.send("ucinewgame")?;
        self.ready(self.timeouts.ucinewgame, "readyok after ucinewgame")
    }

    fn ready(&mut self, within: Duration, waiting_for: &'static str) -> Result<(), ProcessError> {
        self.send("isready")?;
        let deadline = Deadline::after(within);
        while self.recv(deadline, waiting_for)?.1.trim() != "readyok" {}
        Ok(())
    }

    /// Searches the position reached by `moves` from `start` within `limits` (nodes, depth,
    /// movetime and the clocks), waiting `within` after writing `go` for `bestmove`. Then
    /// the engine is sent `stop`: a `bestmove` within [`LATE_GRACE`] more is returned with
    /// its (late) elapsed time, for the caller to judge; none is a timeout, and the caller
    /// ends the process.
    pub fn go(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: &Limits,
        within: Duration,
    ) -> Result<Search, ProcessError> {
        let mut position = if *start == Position::new() {
            "position startpos".to_owned()
        } else {
            format!("position fen {}", start.fen())
        };
        let mut pos = *start;
        if !moves.is_empty() {
            position.push_str(" moves");
            for &m in moves {
                position.push(' ');
                position.push_str(&to_uci(&pos, m, CastlingMode::Standard));
                pos.play_unchecked(m);
            }
        }
        // Lines left from an earlier search (none in a well-behaved engine) are not this
        // search's answer.
        while self.lines.try_recv().is_ok() {}
        self.send(&position)?;
        let go = go_command(limits);
        let sent = Instant::now();
        self.send(&go)?;
        let mut deadline = Deadline {
            at: sent + within,
            after: within,
        };
        let mut stopped = false;
        let mut result = Search {
            best_move: None,
            score: None,
            depth: None,
            nodes: None,
            reported: None,
            elapsed: Duration::ZERO,
            arrived: sent,
            sent,
        };
        loop {
            let (at, line) = match self.recv(deadline, "bestmove") {
                Ok(l) => l,
                // Past the deadline the engine is told to stop and given a moment more: a
                // late bestmove tells how late it was and what the engine counted (an
                // engine that overran its own budget), where silence is a hang.
                Err(ProcessError::Timeout { .. }) if !stopped => {
                    let _ = self.send("stop");
                    stopped = true;
                    deadline.at = Instant::now() + LATE_GRACE;
                    continue;
                }
                Err(e) => return Err(e),
            };
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => read_info(&line, &mut result),
                Some("bestmove") => {
                    result.arrived = at;
                    result.elapsed = at.saturating_duration_since(sent);
                    let text = words.next().unwrap_or("(none)");
                    result.best_move = match text {
                        "(none)" | "0000" => None,
                        t => Some(parse_uci(&pos, t).map_err(|e| ProcessError::IllegalMove {
                            text: t.to_owned(),
                            reason: e.to_string(),
                        })?),
                    };
                    return Ok(result);
                }
                _ => {}
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<(), ProcessError> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| ProcessError::Write("stdin closed".to_owned()))?;
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| ProcessError::Write(e.to_string()))
    }

    /// The next line and its arrival, or an error at the deadline or when the output ends.
    /// A line that arrived before the deadline counts even if the runner reads it late.
    fn recv(
        &mut self,
        deadline: Deadline,
        waiting_for: &'static str,
    ) -> Result<(Instant, String), ProcessError> {
        let left = deadline.at.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ProcessError::Timeout {
                waiting_for,
                after: deadline.after,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(ProcessError::Exited { waiting_for }),
        }
    }
}

impl Drop for EngineProcess {
    /// `quit`, then a kill if the engine has not exited after a moment.
    fn drop(&mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Clone, Copy)]
struct Deadline {
    at: Instant,
    after: Duration,
}

impl Deadline {
    fn after(d: Duration) -> Deadline {
        Deadline {
            at: Instant::now() + d,
            after: d,
        }
    }
}

/// UCI's `go` for the limits a match uses; clocks in milliseconds.
fn go_command(limits: &Limits) -> String {
    let mut go = "go".to_owned();
    if let Some(n) = limits.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    if let Some(d) = limits.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(t) = limits.movetime {
        go.push_str(&format!(" movetime {}", t.as_millis()));
    }
    for (word, time) in [
        ("wtime", limits.wtime),
        ("btime", limits.btime),
        ("winc", limits.winc),
        ("binc", limits.binc),
    ] {
        if let Some(t) = time {
            go.push_str(&format!(" {word} {}", t.as_millis()));
        }
    }
    if let Some(n) = limits.movestogo {
        go.push_str(&format!(" movestogo {n}"));
    }
    go
}

/// An `info` line's score, depth, nodes and time (the main line only: `multipv 1` or
/// none), each replacing the one before.
fn read_info(line: &str, result: &mut Search) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
    let (mut score, mut depth, mut nodes, mut time) = (None, None, None, None);
    let mut multipv = 1;
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => depth = number(i + 1).and_then(|d| u32::try_from(d).ok()),
            "nodes" => nodes = number(i + 1),
            "time" => time = number(i + 1).map(Duration::from_millis),
            "multipv" => multipv = number(i + 1).unwrap_or(1),
            "score" => {
                let value = words.get(i + 2).and_then(|w| w.parse::<i32>().ok());
                score = match (words.get(i + 1).copied(), value) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
                i += 1;
            }
            // The line and a string run to the end.
            "pv" | "string" => break,
            _ => {}
        }
        i += 1;
    }
    if multipv != 1 {
        return;
    }
    result.depth = depth.or(result.depth);
    result.nodes = nodes.or(result.nodes);
    result.reported = time.or(result.reported);
    result.score = score.or(result.score);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blank() -> Search {
        let now = Instant::now();
        Search {
            best_move: None,
            score: None,
            depth: None,
            nodes: None,
            reported: None,
            elapsed: Duration::ZERO,
            arrived: now,
            sent: now,
        }
    }

    #[test]
    fn info_lines() {
        let mut s = blank();
        read_info(
            "info depth 7 seldepth 9 multipv 1 score cp -31 upperbound nodes 4096 nps 1 time 12 pv e2e4",
            &mut s,
        );
        assert_eq!(
            (s.depth, s.score, s.nodes, s.reported),
            (
                Some(7),
                Some(Score::Cp(-31)),
                Some(4096),
                Some(Duration::from_millis(12))
            )
        );
        // A second line keeps what it does not say; another PV's line changes nothing.
        read_info("info depth 8 score mate 3", &mut s);
        read_info("info multipv 2 depth 9 score cp 5 time 99", &mut s);
        read_info("info string depth 99 nonsense", &mut s);
        assert_eq!(
            (s.depth, s.score, s.nodes, s.reported),
            (
                Some(8),
                Some(Score::Mate(3)),
                Some(4096),
                Some(Duration::from_millis(12))
            )
        );
    }

    #[test]
    fn go_commands() {
        let limits = Limits {
            wtime: Some(Duration::from_millis(1500)),
            btime: Some(Duration::from_micros(999_999)),
            winc: Some(Duration::from_millis(10)),
            movestogo: Some(7),
            ..Limits::default()
        };
        assert_eq!(
            go_command(&limits),
            "go wtime 1500 btime 999 winc 10 movestogo 7"
        );
        assert_eq!(go_command(&Limits::nodes(500)), "go nodes 500");
    }
}

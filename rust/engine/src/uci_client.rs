//! A small client for external UCI engines (Stockfish, Ethereal, …): start the process, set
//! options, search positions within limits, read the score and line, and notice a crash or a
//! hang. [`UciEngine`] speaks the protocol; [`UciAnalyser`] makes it a review
//! [`Analyser`] that restarts a failed engine and retries the position once.
//!
//! The engine's output is read on a thread of its own into a channel, so every wait has a
//! deadline: an engine that stops answering is a [`UciClientError::Timeout`], one whose
//! output ends is a [`UciClientError::Crashed`]. The process runs in its own process group,
//! so a Ctrl-C at the terminal reaches the caller, which decides when to stop, not the engine.
//!
//! The same client drives the engines of a match (the match crate's `process`), which needs
//! more than analysis does, as fastchess does:
//! - a deadline per handshake ([`Timeouts`]: `uci` to `uciok`, `ucinewgame` to `readyok`,
//!   any other `isready`), where analysis gives one deadline to all three;
//! - each line stamped with its arrival by the reading thread, so that `bestmove` is timed
//!   as it arrived ([`UciSearch::elapsed`]), not when a slow-to-wake caller read it, and a
//!   runner's own latency can be measured apart from the engine's;
//! - a late `bestmove` waited for a moment after `stop` ([`UciEngine::go_with_grace`]), to
//!   tell an engine that overran its clock from one that hangs;
//! - output that is not UTF-8 read lossily: garbage from an engine is ignored, not taken for
//!   the end of its output.

use crate::limits::Limits;
use crate::review::{Analyser, Eval, PositionAnalysis};
use shatranj_chess::uci::{parse_uci, to_uci};
use shatranj_chess::{CastlingMode, Move, Position};
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// What went wrong with an external engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciClientError {
    /// The program could not be started.
    Start(String),
    /// Its output ended (it exited or crashed) while we waited for `waiting_for`.
    Crashed { waiting_for: String },
    /// No `waiting_for` within the deadline.
    Timeout {
        waiting_for: String,
        after: Duration,
    },
    /// Writing to it failed (it is gone).
    Write(String),
    /// It said something we cannot use (an unknown option, a search without limits).
    Protocol(String),
    /// Its `bestmove` is not a legal move in the position (`text` as sent, `reason` why).
    IllegalMove { text: String, reason: String },
}

impl fmt::Display for UciClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciClientError::Start(e) => write!(f, "cannot start the engine: {e}"),
            UciClientError::Crashed { waiting_for } => {
                write!(f, "the engine exited while we waited for {waiting_for}")
            }
            UciClientError::Timeout { waiting_for, after } => write!(
                f,
                "the engine sent no {waiting_for} within {:.1} s",
                after.as_secs_f64()
            ),
            UciClientError::Write(e) => write!(f, "cannot write to the engine: {e}"),
            UciClientError::Protocol(e) => write!(f, "engine protocol error: {e}"),
            UciClientError::IllegalMove { text, reason } => {
                write!(
                    f,
                    "the engine played an illegal move, bestmove {text}: {reason}"
                )
            }
        }
    }
}

impl std::error::Error for UciClientError {}

/// The deadlines of the protocol's handshakes (fastchess's `-startup-ms`, `-ucinewgame-ms`
/// and `-ping-ms`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// From starting the program to `uciok`.
    pub startup: Duration,
    /// From `ucinewgame` to `readyok`.
    pub ucinewgame: Duration,
    /// Any other `isready` to its `readyok`.
    pub ping: Duration,
}

impl Timeouts {
    /// One deadline for every handshake (what analysis needs).
    pub fn uniform(d: Duration) -> Timeouts {
        Timeouts {
            startup: d,
            ucinewgame: d,
            ping: d,
        }
    }
}

impl Default for Timeouts {
    /// 30 s for every handshake.
    fn default() -> Timeouts {
        Timeouts::uniform(Duration::from_secs(30))
    }
}

/// How to start an engine and what to tell it first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciEngineConfig {
    pub path: PathBuf,
    pub args: Vec<String>,
    /// `setoption` pairs sent after `uciok`, in order.
    pub options: Vec<(String, String)>,
    /// The handshakes' deadlines.
    pub timeouts: Timeouts,
}

impl UciEngineConfig {
    pub fn new(path: impl AsRef<Path>) -> UciEngineConfig {
        UciEngineConfig {
            path: path.as_ref().to_owned(),
            args: Vec::new(),
            options: Vec::new(),
            timeouts: Timeouts::default(),
        }
    }
}

/// The result of one `go`: the best move and the last score and line of the main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciSearch {
    pub best_move: Option<Move>,
    /// The score from the side to move, as the engine reported it last (a bound included,
    /// as python-chess's `analyse` reports it: a search stopped by its node limit often
    /// ends on a bound).
    pub score: Option<crate::score::Score>,
    pub pv: Vec<Move>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The search time the engine reported last (`info time`).
    pub reported: Option<Duration>,
    /// When `go` was written.
    pub sent: Instant,
    /// When `bestmove` arrived, as the reading thread saw it.
    pub arrived: Instant,
    /// From writing `go` to the arrival of `bestmove`.
    pub elapsed: Duration,
}

impl UciSearch {
    fn new(sent: Instant) -> UciSearch {
        UciSearch {
            best_move: None,
            score: None,
            pv: Vec::new(),
            depth: None,
            nodes: None,
            reported: None,
            sent,
            arrived: sent,
            elapsed: Duration::ZERO,
        }
    }
}

/// A deadline and how long it was set for (for the error that reports it).
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

/// A running UCI engine.
pub struct UciEngine {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Each line of the engine's output and the moment the reading thread received it.
    lines: Receiver<(Instant, String)>,
    /// `id name`, as the engine gave it.
    pub name: String,
    /// The options the engine declared (`option name X type …`).
    pub declared: Vec<String>,
    config: UciEngineConfig,
}

impl UciEngine {
    /// Starts the engine, waits for `uciok`, sets the options and waits for `readyok`.
    pub fn start(config: &UciEngineConfig) -> Result<UciEngine, UciClientError> {
        let mut command = Command::new(&config.path);
        command
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command
            .spawn()
            .map_err(|e| UciClientError::Start(format!("{}: {e}", config.path.display())))?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| UciClientError::Start("no stdout".to_owned()))?;
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::Builder::new()
            .name("uci-client-read".to_owned())
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
            return Err(UciClientError::Start(e.to_string()));
        }
        let mut engine = UciEngine {
            child,
            stdin,
            lines: rx,
            name: config.path.display().to_string(),
            declared: Vec::new(),
            config: config.clone(),
        };
        engine.send("uci")?;
        let deadline = Deadline::after(config.timeouts.startup);
        loop {
            let (_, line) = engine.recv_until(deadline, "uciok")?;
            let line = line.trim();
            if line == "uciok" {
                break;
            }
            if let Some(name) = line.strip_prefix("id name ") {
                name.trim().clone_into(&mut engine.name);
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                engine.declared.push(name.to_owned());
            }
        }
        for (name, value) in &config.options {
            engine.set_option(name, value)?;
        }
        engine.ready()?;
        Ok(engine)
    }

    /// Whether the engine declared an option of this name (case-insensitive, as UCI says).
    pub fn has_option(&self, name: &str) -> bool {
        self.declared.iter().any(|d| d.eq_ignore_ascii_case(name))
    }

    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), UciClientError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `isready`, then `readyok` within the ping deadline: the engine still answers.
    pub fn ready(&mut self) -> Result<(), UciClientError> {
        self.ready_within(self.config.timeouts.ping, "readyok")
    }

    /// `ucinewgame`, then `readyok` within the `ucinewgame` deadline.
    pub fn new_game(&mut self) -> Result<(), UciClientError> {
        self.send("ucinewgame")?;
        self.ready_within(self.config.timeouts.ucinewgame, "readyok after ucinewgame")
    }

    fn ready_within(&mut self, within: Duration, waiting_for: &str) -> Result<(), UciClientError> {
        self.send("isready")?;
        let deadline = Deadline::after(within);
        while self.recv_until(deadline, waiting_for)?.1.trim() != "readyok" {}
        Ok(())
    }

    /// Searches the position reached by `moves` from `start` within `limits` (its nodes,
    /// depth, movetime, and the clocks: wtime, btime, winc, binc, movestogo), waiting at most
    /// `timeout` for `bestmove`; on a timeout the engine is sent `stop` and the error
    /// returned (the caller should restart it).
    pub fn go(
        &mut self,
        start: &Position,
        moves: &[Move],
        mode: CastlingMode,
        limits: &Limits,
        timeout: Duration,
    ) -> Result<UciSearch, UciClientError> {
        self.search(start, moves, mode, limits, timeout, None)
    }

    /// As [`UciEngine::go`], but past `timeout` the engine is sent `stop` and given `grace`
    /// more: a late `bestmove` is returned with its (late) [`UciSearch::elapsed`] and the
    /// engine's own count of its time, for the caller to judge (an engine that overran its
    /// clock); silence is still a timeout (a hang), and the caller ends the process.
    pub fn go_with_grace(
        &mut self,
        start: &Position,
        moves: &[Move],
        mode: CastlingMode,
        limits: &Limits,
        timeout: Duration,
        grace: Duration,
    ) -> Result<UciSearch, UciClientError> {
        self.search(start, moves, mode, limits, timeout, Some(grace))
    }

    fn search(
        &mut self,
        start: &Position,
        moves: &[Move],
        mode: CastlingMode,
        limits: &Limits,
        timeout: Duration,
        grace: Option<Duration>,
    ) -> Result<UciSearch, UciClientError> {
        let mut command = if *start == Position::new() {
            "position startpos".to_owned()
        } else {
            format!("position fen {}", start.fen())
        };
        let mut pos = *start;
        if !moves.is_empty() {
            command.push_str(" moves");
            for &m in moves {
                command.push(' ');
                command.push_str(&to_uci(&pos, m, mode));
                pos.play_unchecked(m);
            }
        }
        let go = go_command(limits);
        if go == "go" {
            return Err(UciClientError::Protocol(
                "a search needs nodes, depth, movetime or clocks".to_owned(),
            ));
        }
        // Lines left from an earlier search (none from a well-behaved engine) are not this
        // search's answer.
        while self.lines.try_recv().is_ok() {}
        self.send(&command)?;
        let sent = Instant::now();
        self.send(&go)?;
        let mut deadline = Deadline {
            at: sent + timeout,
            after: timeout,
        };
        let mut grace = grace;
        let mut result = UciSearch::new(sent);
        loop {
            let (at, line) = match self.recv_until(deadline, "bestmove") {
                Ok(line) => line,
                // Past the deadline the engine is told to stop and, with a grace, given a
                // moment more: a late bestmove tells how late it was.
                Err(UciClientError::Timeout { .. }) if grace.is_some() => {
                    let _ = self.send("stop");
                    deadline.at = Instant::now() + grace.take().unwrap_or_default();
                    continue;
                }
                Err(e) => {
                    let _ = self.send("stop");
                    return Err(e);
                }
            };
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => read_info(&line, &pos, &mut result),
                Some("bestmove") => {
                    result.arrived = at;
                    result.elapsed = at.saturating_duration_since(sent);
                    let text = words.next().unwrap_or("(none)");
                    result.best_move = match text {
                        "(none)" | "0000" => None,
                        t => Some(parse_uci(&pos, t).map_err(|e| UciClientError::IllegalMove {
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

    fn send(&mut self, line: &str) -> Result<(), UciClientError> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| UciClientError::Write("stdin closed".to_owned()))?;
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| UciClientError::Write(e.to_string()))
    }

    /// The next line and its arrival, or an error at the deadline or when the engine's
    /// output ends. A line that arrived before the deadline counts even if it is read late.
    fn recv_until(
        &mut self,
        deadline: Deadline,
        waiting_for: &str,
    ) -> Result<(Instant, String), UciClientError> {
        let left = deadline.at.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(UciClientError::Timeout {
                waiting_for: waiting_for.to_owned(),
                after: deadline.after,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(UciClientError::Crashed {
                waiting_for: waiting_for.to_owned(),
            }),
        }
    }

    /// Asks the engine to quit, and kills it if it has not after a moment.
    pub fn quit(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// UCI's `go` for `limits`; times in milliseconds, as UCI counts them.
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
    // The clocks, for games (the match runner).
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

/// Reads an `info` line's score, line, depth, nodes and time into `result` (the main line
/// only: `multipv 1` or none); each replaces the one before, as in python-chess.
fn read_info(line: &str, pos: &Position, result: &mut UciSearch) {
    use crate::score::Score;
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    let mut score = None;
    let mut pv = None;
    let mut multipv = 1;
    let (mut depth, mut nodes, mut time) = (None, None, None);
    while i < words.len() {
        match words[i] {
            "depth" => depth = words.get(i + 1).and_then(|w| w.parse().ok()),
            "nodes" => nodes = words.get(i + 1).and_then(|w| w.parse().ok()),
            "time" => {
                time = words
                    .get(i + 1)
                    .and_then(|w| w.parse().ok())
                    .map(Duration::from_millis);
            }
            "multipv" => multipv = words.get(i + 1).and_then(|w| w.parse().ok()).unwrap_or(1),
            "score" => {
                let kind = words.get(i + 1).copied();
                let value: Option<i32> = words.get(i + 2).and_then(|w| w.parse().ok());
                score = match (kind, value) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
                i += 2;
                if matches!(words.get(i + 1), Some(&"lowerbound" | &"upperbound")) {
                    i += 1;
                }
            }
            "pv" => {
                let mut p = *pos;
                let mut line = Vec::new();
                for w in &words[i + 1..] {
                    match parse_uci(&p, w) {
                        Ok(m) => {
                            p.play_unchecked(m);
                            line.push(m);
                        }
                        Err(_) => break,
                    }
                }
                pv = Some(line);
                break;
            }
            // `string` runs to the end of the line.
            "string" => break,
            _ => {}
        }
        i += 1;
    }
    if multipv != 1 {
        return;
    }
    if depth.is_some() {
        result.depth = depth;
    }
    if nodes.is_some() {
        result.nodes = nodes;
    }
    if time.is_some() {
        result.reported = time;
    }
    if score.is_some() {
        result.score = score;
    }
    if let Some(pv) = pv {
        result.pv = pv;
    }
}

/// An external engine as a review analyser: one `go` per position within `limits`,
/// `ucinewgame` per game, the engine restarted and the position retried once when it
/// crashes, hangs or answers nonsense.
pub struct UciAnalyser {
    config: UciEngineConfig,
    engine: Option<UciEngine>,
    pub limits: Limits,
    /// How long one position may take beyond its movetime.
    pub timeout: Duration,
    /// The engine's `id name` (set once started).
    pub name: String,
    /// Restarts so far.
    pub restarts: u64,
    mode: CastlingMode,
}

impl UciAnalyser {
    /// Starts the engine now, so a bad path or option fails before any game.
    pub fn start(
        config: UciEngineConfig,
        limits: Limits,
        timeout: Duration,
    ) -> Result<UciAnalyser, UciClientError> {
        let engine = UciEngine::start(&config)?;
        Ok(UciAnalyser {
            name: engine.name.clone(),
            engine: Some(engine),
            config,
            limits,
            timeout,
            restarts: 0,
            mode: CastlingMode::Standard,
        })
    }

    fn engine(&mut self) -> Result<&mut UciEngine, UciClientError> {
        if self.engine.is_none() {
            let mut e = UciEngine::start(&self.config)?;
            self.restarts += 1;
            if e.has_option("UCI_Chess960") {
                e.set_option("UCI_Chess960", &self.mode.is_chess960().to_string())?;
            }
            e.new_game()?;
            self.engine = Some(e);
        }
        Ok(self.engine.as_mut().expect("started above"))
    }

    fn try_analyse(
        &mut self,
        start: &Position,
        moves: &[Move],
    ) -> Result<PositionAnalysis, UciClientError> {
        let limits = self.limits.clone();
        let timeout = self.timeout + limits.movetime.unwrap_or_default();
        let mode = self.mode;
        let search = self.engine()?.go(start, moves, mode, &limits, timeout)?;
        let mut pos = *start;
        for &m in moves {
            pos.play_unchecked(m);
        }
        let score = search.score.ok_or_else(|| {
            UciClientError::Protocol("bestmove without a score in any info line".to_owned())
        })?;
        let mut pv = search.pv;
        if let Some(best) = search.best_move
            && pv.first() != Some(&best)
        {
            pv = vec![best];
        }
        Ok(PositionAnalysis {
            eval: Some(Eval::from_score(score, pos.turn())),
            best: search.best_move,
            pv,
            depth: search.depth,
            nodes: search.nodes,
        })
    }
}

impl Analyser for UciAnalyser {
    type Error = UciClientError;

    fn new_game(&mut self, mode: CastlingMode) -> Result<(), UciClientError> {
        let changed = mode != self.mode;
        self.mode = mode;
        let result = (|| {
            let e = self.engine()?;
            if changed && e.has_option("UCI_Chess960") {
                e.set_option("UCI_Chess960", &mode.is_chess960().to_string())?;
            }
            e.new_game()
        })();
        if result.is_err() {
            // Once more with a fresh process.
            self.engine = None;
            return self.engine().map(|_| ());
        }
        result
    }

    fn analyse(
        &mut self,
        start: &Position,
        moves: &[Move],
    ) -> Result<PositionAnalysis, UciClientError> {
        if let Ok(a) = self.try_analyse(start, moves) {
            Ok(a)
        } else {
            // Restart and retry once; a second failure is the caller's.
            self.engine = None;
            self.try_analyse(start, moves).inspect_err(|_| {
                self.engine = None;
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::Score;

    #[test]
    fn info_lines_give_the_last_score_and_line() {
        let pos = Position::new();
        let mut r = UciSearch::new(Instant::now());
        read_info(
            "info depth 10 seldepth 12 multipv 1 score cp 31 nodes 9000 nps 1 pv e2e4 e7e5 g1f3",
            &pos,
            &mut r,
        );
        assert_eq!(r.score, Some(Score::Cp(31)));
        assert_eq!(r.pv.len(), 3);
        read_info("info depth 11 multipv 2 score mate 3 pv d2d4", &pos, &mut r);
        assert_eq!(r.score, Some(Score::Cp(31)), "a second line");
        read_info(
            "info depth 11 score cp 50 lowerbound nodes 9500 pv d2d4",
            &pos,
            &mut r,
        );
        assert_eq!(r.score, Some(Score::Cp(50)), "a bound, as python-chess");
        assert_eq!(r.pv.len(), 1);
        read_info("info depth 12 score mate -4 pv d2d4 e7e5 zz", &pos, &mut r);
        assert_eq!(r.score, Some(Score::Mate(-4)));
        assert_eq!(r.pv.len(), 2, "the line up to its first bad move");
        assert_eq!((r.depth, r.nodes), (Some(12), Some(9500)));
        read_info("info string score cp 1 pv a2a3", &pos, &mut r);
        assert_eq!(r.score, Some(Score::Mate(-4)));
    }

    #[test]
    fn info_lines_give_the_time_the_engine_counted() {
        // From the match's process module: the search time reported last, kept through
        // lines that do not say it, and another PV's line changes nothing.
        let pos = Position::new();
        let mut s = UciSearch::new(Instant::now());
        read_info(
            "info depth 7 seldepth 9 multipv 1 score cp -31 upperbound nodes 4096 nps 1 time 12 pv e2e4",
            &pos,
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
        read_info("info depth 8 score mate 3", &pos, &mut s);
        read_info("info multipv 2 depth 9 score cp 5 time 99", &pos, &mut s);
        read_info("info string depth 99 nonsense", &pos, &mut s);
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
        assert_eq!(go_command(&Limits::default()), "go");
    }
}

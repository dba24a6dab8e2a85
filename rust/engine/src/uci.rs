//! The UCI protocol: a loop over text lines that drives an [`Engine`].
//!
//! [`run`] reads its input on a thread of its own, so `stop`, `ponderhit`, `isready` and
//! `quit` are handled while a search runs on another thread; the search thread writes the
//! `info` lines and the final `bestmove`. Tests drive [`Uci::handle_line`] directly.
//!
//! Malformed input — unknown commands, a bad FEN, an illegal move in `position`, an
//! out-of-range option, a line that is not UTF-8 — is answered with an `info string` line
//! and otherwise ignored; the session goes on with the next line. A refused `position`
//! leaves no stale position to search: until the next accepted one, `go` says why in an
//! `info string` and answers `bestmove 0000`.
//!
//! Every `go` is answered by exactly one `bestmove` (a GUI waits for it), so a `go` is never
//! refused for what is on its line: it searches with what it understood and names the rest
//! in `info string` lines (see `uci/go.rs`), or answers `bestmove 0000` when nothing can be
//! searched. Only a `go` sent while a search runs is ignored: that search's `bestmove` is
//! still to come.
//!
//! `UCI_Chess960` reads castling rights as X-FEN or Shredder-FEN and writes castling as the
//! king taking its own rook (`e1h1`); moves in are read in either form.

mod go;

use crate::engine::{Engine, EngineOptions, MAX_THREADS, SearchInfo, SearchRoot, StopHandle, nps};
use crate::eval::{BatchConfig, Device, EvalRoute, Evaluation, OpenEvaluator, cpu_only_evaluator};
use crate::syzygy::{self, MAX_PROBE_DEPTH, MAX_PROBE_LIMIT, SyzygySettings};
use crate::tt::max_hash_mb;
use go::parse_go;
use shatranj_chess::perft::{PerftMonitor, PerftOptions, divide};
use shatranj_chess::uci::{parse_uci, to_uci};
use shatranj_chess::{CastlingMode, Move, Position};
use std::io::{BufRead, Write};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The most lines `MultiPV` can ask for.
pub const MAX_MULTIPV: usize = 256;
/// The largest `Move Overhead`, in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
const DEFAULT_HASH_MB: usize = 16;

/// Whether the loop should go on after a line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    Quit,
}

/// A shared, line-oriented output.
type Output<W> = Arc<Mutex<W>>;

fn send<W: Write>(out: &Mutex<W>, line: &str) {
    // A poisoned lock means a writer panicked mid-line; the stream itself is still usable.
    let mut w = out
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // The GUI going away is not an engine error: there is nobody left to tell.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// The state of a UCI session.
pub struct Uci<W: Write + Send + 'static> {
    out: Output<W>,
    /// The engine, when no search holds it.
    engine: Option<Engine>,
    /// The running search, which hands the engine back when joined (or, if the search
    /// panicked, the options to make a fresh one with).
    search: Option<JoinHandle<Result<Engine, EngineOptions>>>,
    /// Set by the search thread just before it writes `bestmove`: from then on the search is
    /// over for the GUI, which may send the next `go` at once, so it is joined, not refused.
    answered: Arc<AtomicBool>,
    /// A running `go perft` and its stop switch.
    perft: Option<(JoinHandle<()>, Arc<PerftMonitor>)>,
    stop: StopHandle,
    root: SearchRoot,
    multipv: usize,
    ponder: bool,
    /// Opens the back end `EvalDevice gpu` asks for.
    open: OpenEvaluator,
    /// The `EvalDevice` in force (a new `EvalFile` reopens its back end).
    device: Device,
    /// `UCI_Chess960`: how castling rights are read and castling moves written.
    castling: CastlingMode,
    /// Why the last `position` command was refused, until one is accepted.
    refused: Option<String>,
}

impl<W: Write + Send + 'static> Uci<W> {
    /// A session writing to `out`, with default options, in a build without a GPU back end.
    pub fn new(out: W) -> Uci<W> {
        Uci::with_evaluator(out, cpu_only_evaluator)
    }

    /// A session whose `EvalDevice` option opens back ends with `open`.
    pub fn with_evaluator(out: W, open: OpenEvaluator) -> Uci<W> {
        let engine = match Engine::new(EngineOptions {
            hash_mb: DEFAULT_HASH_MB,
            ..EngineOptions::default()
        }) {
            Ok(e) => e,
            // 16 MiB not available: fall back to the smallest table.
            Err(_) => match Engine::new(EngineOptions {
                hash_mb: 1,
                ..EngineOptions::default()
            }) {
                Ok(e) => e,
                Err(e) => panic!("cannot allocate even a 1 MiB table: {e}"),
            },
        };
        let stop = engine.stop_handle();
        Uci {
            out: Arc::new(Mutex::new(out)),
            engine: Some(engine),
            search: None,
            answered: Arc::new(AtomicBool::new(false)),
            perft: None,
            stop,
            root: SearchRoot::from(Position::new()),
            multipv: 1,
            ponder: false,
            open,
            device: Device::Auto,
            castling: CastlingMode::Standard,
            refused: None,
        }
    }

    fn say(&self, line: &str) {
        send(&self.out, line);
    }

    fn info_string(&self, text: &str) {
        self.say(&format!("info string {text}"));
    }

    /// Is a search running right now?
    pub fn is_searching(&self) -> bool {
        self.search.is_some() && !self.answered.load(Ordering::SeqCst)
    }

    /// Waits for the search thread (if any) and takes the engine back.
    fn join_search(&mut self) {
        if let Some(h) = self.search.take() {
            match h.join() {
                Ok(Ok(engine)) => self.engine = Some(engine),
                Ok(Err(options)) => self.fresh_engine(options),
                Err(_) => {
                    self.info_string("search thread failed; starting a fresh engine");
                    self.fresh_engine(EngineOptions::default());
                }
            }
        }
    }

    /// Replaces an engine lost to a failed search: one with `options` if it can be made,
    /// else one with the defaults.
    fn fresh_engine(&mut self, options: EngineOptions) {
        if let Ok(e) = Engine::new(options).or_else(|_| Engine::new(EngineOptions::default())) {
            self.stop = e.stop_handle();
            self.engine = Some(e);
        }
    }

    /// Reaps a search that has answered (or finished) on its own.
    fn reap(&mut self) {
        if self
            .search
            .as_ref()
            .is_some_and(std::thread::JoinHandle::is_finished)
            || self.answered.load(Ordering::SeqCst)
        {
            self.join_search();
        }
    }

    /// The engine for a command that needs it idle; `None` (after saying why) while searching.
    fn idle_engine(&mut self, what: &str) -> Option<&mut Engine> {
        self.reap();
        if self.search.is_some() {
            self.info_string(&format!(
                "{what} ignored: a search is running (send stop first)"
            ));
            return None;
        }
        self.engine.as_mut()
    }

    /// Handles one line of input as read, without its line ending. A line that is not
    /// UTF-8 (a Latin-1 file name, say) is reported, lossily decoded, and not run: read
    /// with its bad bytes replaced, it could name another file or option than was meant.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Control {
        if let Ok(text) = std::str::from_utf8(line) {
            self.handle_line(text)
        } else {
            let text = String::from_utf8_lossy(line);
            self.info_string(&format!(
                "line ignored, not valid UTF-8: {}",
                truncate(text.trim())
            ));
            Control::Continue
        }
    }

    /// Handles one line of input.
    pub fn handle_line(&mut self, line: &str) -> Control {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return Control::Continue;
        };
        let rest: Vec<&str> = words.collect();
        // As in Stockfish, whose `go perft` answers before the next command is read: every
        // command waits for a running count, so a script that pipes `go perft 3` and more
        // always gets the whole divide first; only `stop` (which ends the count) and
        // `isready` (a liveness ping, answered at once) do not wait.
        if cmd != "stop" && cmd != "isready" {
            self.wait_perft();
        }
        match cmd {
            "uci" => self.cmd_uci(),
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                if let Some(e) = self.idle_engine("ucinewgame") {
                    e.new_game();
                }
                self.root = SearchRoot::from(Position::new());
                self.refused = None;
            }
            "setoption" => self.cmd_setoption(&rest),
            "position" => self.cmd_position(&rest),
            "go" => self.cmd_go(&rest),
            "stop" => {
                self.stop.stop();
                self.join_search();
                self.finish_perft();
            }
            "ponderhit" => self.stop.ponderhit(),
            "quit" => {
                self.shutdown();
                return Control::Quit;
            }
            "d" => self.info_string(&format!("fen {}", self.root.position.fen())),
            "eval" => match self.engine.as_ref() {
                Some(e) => {
                    let v = e.evaluate(&self.root.position);
                    self.info_string(&format!("static eval cp {v} (side to move)"));
                }
                None => self.info_string("eval ignored: a search is running"),
            },
            // The tune build lists its tunables in OpenBench's SPSA format (`shatranj tune`
            // reads this list).
            #[cfg(feature = "tune")]
            "spsa" => {
                for t in crate::search::params::TUNABLES {
                    self.say(&t.spsa_line());
                }
            }
            "debug" | "register" => {}
            _ => self.info_string(&format!("unknown command: {}", truncate(line))),
        }
        Control::Continue
    }

    fn cmd_uci(&self) {
        let cores = max_threads();
        let lines = [
            format!("id name shatranj {}", env!("CARGO_PKG_VERSION")),
            "id author the shatranj authors".to_string(),
            format!(
                "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {}",
                max_hash_mb()
            ),
            format!("option name Threads type spin default 1 min 1 max {cores}"),
            format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
            "option name Clear Hash type button".to_string(),
            format!(
                "option name Move Overhead type spin default 10 min 0 max {MAX_MOVE_OVERHEAD_MS}"
            ),
            "option name Ponder type check default false".to_string(),
            "option name EvalDevice type combo default auto var auto var cpu var gpu".to_string(),
            "option name UCI_Chess960 type check default false".to_string(),
            "option name UCI_AnalyseMode type check default false".to_string(),
            format!(
                "option name EvalFile type string default {}",
                Evaluation::default_name()
            ),
            "option name SyzygyPath type string default <empty>".to_string(),
            format!(
                "option name SyzygyProbeDepth type spin default {} min 1 max {MAX_PROBE_DEPTH}",
                syzygy::DEFAULT_PROBE_DEPTH
            ),
            "option name Syzygy50MoveRule type check default true".to_string(),
            format!(
                "option name SyzygyProbeLimit type spin default {MAX_PROBE_LIMIT} min 0 max {MAX_PROBE_LIMIT}"
            ),
        ];
        for l in lines {
            self.say(&l);
        }
        // The tune build announces the search's tunable numbers (`search::params`).
        #[cfg(feature = "tune")]
        for t in crate::search::params::TUNABLES {
            self.say(&t.uci_option());
        }
        self.say("uciok");
    }

    fn cmd_setoption(&mut self, args: &[&str]) {
        // setoption name <words…> [value <words…>]
        let Some(name_at) = args.iter().position(|w| w.eq_ignore_ascii_case("name")) else {
            return self.info_string("setoption needs: name <id> [value <x>]");
        };
        let value_at = args.iter().position(|w| w.eq_ignore_ascii_case("value"));
        let name_end = value_at.unwrap_or(args.len());
        if name_end <= name_at + 1 {
            return self.info_string("setoption: missing option name");
        }
        let name = args[name_at + 1..name_end].join(" ").to_ascii_lowercase();
        let value = value_at.map(|v| args[v + 1..].join(" "));
        let spin = |v: &Option<String>, min: u64, max: u64| -> Result<u64, String> {
            let text = v.as_deref().unwrap_or("");
            match text.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                Ok(n) => Err(format!("value {n} out of range {min}..={max}")),
                Err(_) => Err(format!("value '{}' is not a number", truncate(text))),
            }
        };
        match name.as_str() {
            "hash" => match spin(&value, 1, max_hash_mb() as u64) {
                Ok(mb) => {
                    if let Some(e) = self.idle_engine("setoption Hash")
                        && let Err(err) = e.set_hash_mb(mb as usize)
                    {
                        let msg = format!("Hash: {err}");
                        self.info_string(&msg);
                    }
                }
                Err(e) => self.info_string(&format!("Hash: {e}; unchanged")),
            },
            "threads" => match spin(&value, 1, max_threads() as u64) {
                Ok(n) => {
                    if let Some(e) = self.idle_engine("setoption Threads")
                        && let Err(err) = e.set_threads(n as usize)
                    {
                        let msg = format!("Threads: {err}");
                        self.info_string(&msg);
                    }
                }
                Err(e) => self.info_string(&format!("Threads: {e}; unchanged")),
            },
            "multipv" => match spin(&value, 1, MAX_MULTIPV as u64) {
                Ok(n) => self.multipv = n as usize,
                Err(e) => self.info_string(&format!("MultiPV: {e}; unchanged")),
            },
            "move overhead" => match spin(&value, 0, MAX_MOVE_OVERHEAD_MS) {
                Ok(ms) => {
                    if let Some(e) = self.idle_engine("setoption Move Overhead") {
                        e.set_move_overhead(Duration::from_millis(ms));
                    }
                }
                Err(e) => self.info_string(&format!("Move Overhead: {e}; unchanged")),
            },
            "clear hash" => {
                if let Some(e) = self.idle_engine("Clear Hash") {
                    e.clear_hash();
                }
            }
            "ponder" => match value.as_deref().map(str::to_ascii_lowercase).as_deref() {
                Some("true") => self.ponder = true,
                Some("false") => self.ponder = false,
                _ => self.info_string("Ponder: value must be true or false; unchanged"),
            },
            "uci_chess960" => match value.as_deref().map(str::to_ascii_lowercase).as_deref() {
                Some("true") => self.castling = CastlingMode::Chess960,
                Some("false") => self.castling = CastlingMode::Standard,
                _ => self.info_string("UCI_Chess960: value must be true or false; unchanged"),
            },
            // Offered because GUIs and libraries (python-chess) set it around analysis; it
            // changes nothing here: the engine has no contempt (a draw scores 0 in both
            // modes), book or playing style that analysis would turn off, and its one
            // time-saving shortcut (a lone legal move ends the search at depth 6) applies
            // only to a search on the clock, which analysis (`infinite`, `movetime`,
            // `depth`, `nodes`) never is. So it searches the same way in both modes.
            "uci_analysemode" => match value.as_deref().map(str::to_ascii_lowercase).as_deref() {
                Some("true" | "false") => {}
                _ => self.info_string("UCI_AnalyseMode: value must be true or false; unchanged"),
            },
            "syzygypath" => self.set_syzygy_path(value.as_deref().unwrap_or("")),
            "syzygyprobedepth" => match spin(&value, 1, MAX_PROBE_DEPTH as u64) {
                Ok(d) => self.change_syzygy("SyzygyProbeDepth", |s| s.probe_depth = d as i32),
                Err(e) => self.info_string(&format!("SyzygyProbeDepth: {e}; unchanged")),
            },
            "syzygyprobelimit" => match spin(&value, 0, MAX_PROBE_LIMIT as u64) {
                Ok(n) => self.change_syzygy("SyzygyProbeLimit", |s| s.probe_limit = n as usize),
                Err(e) => self.info_string(&format!("SyzygyProbeLimit: {e}; unchanged")),
            },
            "syzygy50moverule" => match value.as_deref().map(str::to_ascii_lowercase).as_deref() {
                Some(v @ ("true" | "false")) => {
                    let rule50 = v == "true";
                    self.change_syzygy("Syzygy50MoveRule", |s| s.rule50 = rule50);
                }
                _ => self.info_string("Syzygy50MoveRule: value must be true or false; unchanged"),
            },
            "evaldevice" => self.set_eval_device(value.as_deref().unwrap_or("")),
            "evalfile" => self.set_eval_file(value.as_deref().unwrap_or("")),
            _ => {
                // The tune build's tunables (`search::params`), by name.
                #[cfg(feature = "tune")]
                if let Some(t) = crate::search::params::TUNABLES
                    .iter()
                    .find(|t| t.name.eq_ignore_ascii_case(&name))
                {
                    let text = value.as_deref().unwrap_or("");
                    let set = text
                        .parse::<i32>()
                        .map_err(|_| format!("value '{}' is not a number", truncate(text)))
                        .and_then(|v| t.set(v));
                    if let Err(e) = set {
                        self.info_string(&format!("{}: {e}; unchanged", t.name));
                    }
                    return;
                }
                self.info_string(&format!("unknown option: {}", truncate(&name)));
            }
        }
    }

    /// Applies `change` to the engine's tablebase settings (between searches).
    fn change_syzygy(&mut self, what: &str, change: impl FnOnce(&mut SyzygySettings)) {
        let Some(engine) = self.idle_engine(&format!("setoption {what}")) else {
            return;
        };
        let mut settings = engine.options().syzygy.clone();
        change(&mut settings);
        engine.set_syzygy(settings);
    }

    /// `SyzygyPath`: directories of Syzygy tables, separated by `:` (`;` on Windows);
    /// `<empty>` or nothing for none. Each directory that cannot be read is named in an
    /// `info string` and left out; the tables of the others are used.
    fn set_syzygy_path(&mut self, value: &str) {
        if self.idle_engine("setoption SyzygyPath").is_none() {
            return;
        }
        let opened = syzygy::open_path_list(value);
        for (dir, e) in &opened.failures {
            self.info_string(&format!("SyzygyPath: {} left out: {e}", dir.display()));
        }
        let found = match &opened.tables {
            Some(t) => {
                let tables = t.tables().count();
                format!(
                    "SyzygyPath: {tables} tables found, up to {} men",
                    t.max_pieces()
                )
            }
            None if value.trim().is_empty() || value.trim() == "<empty>" => {
                "SyzygyPath: no tables".to_string()
            }
            None => "SyzygyPath: no tables found; probing is off".to_string(),
        };
        let tables = opened.tables;
        self.change_syzygy("SyzygyPath", |s| s.tables = tables);
        self.info_string(&found);
    }

    /// `EvalDevice`: `cpu` and `auto` evaluate inline, `gpu` through the batching service
    /// (see [`EvalRoute::for_device`]). A device that cannot be opened changes nothing.
    fn set_eval_device(&mut self, value: &str) {
        let device = match value.trim().parse::<Device>() {
            Ok(d) => d,
            Err(e) => return self.info_string(&format!("EvalDevice: {e}; unchanged")),
        };
        let open = self.open;
        let Some(engine) = self.idle_engine("setoption EvalDevice") else {
            return;
        };
        let evaluation = engine.options().evaluation.clone();
        match EvalRoute::for_device(device, open, BatchConfig::default(), &evaluation) {
            Ok(route) => {
                engine.set_eval_route(route);
                let what = engine.options().eval_route.describe();
                self.device = device;
                self.info_string(&format!("EvalDevice {device}: evaluating on {what}"));
            }
            Err(e) => self.info_string(&format!("EvalDevice: {e}; unchanged")),
        }
    }

    /// `EvalFile`: a network file's path, `<default>` (the built-in network) or `classical`.
    /// A file that cannot be loaded changes nothing, and says why.
    fn set_eval_file(&mut self, value: &str) {
        let evaluation = match Evaluation::from_name(value) {
            Ok(e) => e,
            Err(e) => return self.info_string(&format!("EvalFile: {e}; unchanged")),
        };
        let (open, device) = (self.open, self.device);
        let Some(engine) = self.idle_engine("setoption EvalFile") else {
            return;
        };
        // A batching service computes one evaluation: the new one needs its own back end.
        if !engine.options().eval_route.is_direct() {
            match EvalRoute::for_device(device, open, BatchConfig::default(), &evaluation) {
                Ok(route) => engine.set_eval_route(route),
                Err(e) => return self.info_string(&format!("EvalFile: {e}; unchanged")),
            }
        }
        engine.set_evaluation(evaluation);
        let what = engine.options().evaluation.describe();
        self.info_string(&format!("EvalFile: evaluating with {what}"));
    }

    fn cmd_position(&mut self, args: &[&str]) {
        match self.read_position(args) {
            Ok(root) => {
                self.root = root;
                self.refused = None;
            }
            Err(why) => {
                self.info_string(&format!(
                    "{why}; go answers bestmove 0000 until a position is accepted"
                ));
                self.refused = Some(why);
            }
        }
    }

    /// The root a `position` command sets, or why it is refused.
    fn read_position(&self, args: &[&str]) -> Result<SearchRoot, String> {
        let moves_at = args.iter().position(|&w| w == "moves");
        let setup = &args[..moves_at.unwrap_or(args.len())];
        let start = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => Position::new(),
            Some(&"fen") if setup.len() > 1 => {
                Position::from_fen_with(&setup[1..].join(" "), self.castling).map_err(|e| {
                    let hint = if self.castling.is_chess960() {
                        ""
                    } else {
                        " (Chess960 castling needs setoption name UCI_Chess960 value true)"
                    };
                    format!("bad fen: {e}{hint}")
                })?
            }
            _ => {
                return Err("position needs: startpos | fen <fen>, then optionally moves …".into());
            }
        };
        let mut pos = start;
        let mut keys = Vec::new();
        if let Some(at) = moves_at {
            for text in &args[at + 1..] {
                let m = parse_uci(&pos, text)
                    .map_err(|e| format!("illegal move {} in position: {e}", truncate(text)))?;
                keys.push(pos.key());
                pos.play_unchecked(m);
            }
        }
        Ok(SearchRoot {
            position: pos,
            previous_keys: keys,
        })
    }

    fn cmd_go(&mut self, args: &[&str]) {
        self.reap();
        if self.perft.as_ref().is_some_and(|(h, _)| h.is_finished()) {
            self.finish_perft();
        }
        if self.search.is_some() || self.perft.is_some() {
            // The running search's `bestmove` is still to come; a second one would answer
            // for it.
            return self.info_string("go ignored: a search is already running");
        }
        let go = parse_go(args, &self.root.position);
        for note in &go.notes {
            self.info_string(note);
        }
        let mut limits = go.limits;
        limits.multipv = self.multipv;
        if let Some(why) = &self.refused {
            return self.answer_null_move(&format!("no position to search: {why}"));
        }
        if let Some(why) = &go.nothing_to_search {
            return self.answer_null_move(&format!("nothing to search: {why}"));
        }
        if let Some(depth) = go.perft {
            return self.go_perft(depth);
        }
        let Some(mut engine) = self.engine.take() else {
            return self.answer_null_move("the engine is unavailable");
        };
        self.stop.arm();
        let answered = Arc::new(AtomicBool::new(false));
        self.answered = Arc::clone(&answered);
        let out = Arc::clone(&self.out);
        let root = self.root.clone();
        let mode = self.castling;
        let options = engine.options().clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn({
                let options = options.clone();
                move || {
                    let position = root.position;
                    // A panic in the search is a bug, but a GUI waits for `bestmove`
                    // whatever happens: answer with a legal move, and leave the engine,
                    // whose state is unknown, for a fresh one with the same options.
                    let searched = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        engine.search(root, &limits, |info| {
                            send(&out, &info_line_in(info, &position, mode));
                        })
                    }));
                    let (best, ponder, engine) = if let Ok(result) = searched {
                        (result.best_move, result.ponder, Ok(engine))
                    } else {
                        send(&out, "info string the search failed (an engine bug); answering with a legal move");
                        let any_legal = position.legal_moves().iter().next().copied();
                        (any_legal, None, Err(options))
                    };
                    let line = match (best, ponder) {
                        (Some(b), Some(p)) => {
                            let uci = uci_moves(&position, &[b, p], mode);
                            format!("bestmove {} ponder {}", uci[0], uci[1])
                        }
                        (Some(b), None) => format!("bestmove {}", to_uci(&position, b, mode)),
                        // No legal move: UCI's null move.
                        (None, _) => "bestmove 0000".to_string(),
                    };
                    answered.store(true, Ordering::SeqCst);
                    send(&out, &line);
                    engine
                }
            });
        match handle {
            Ok(h) => self.search = Some(h),
            Err(e) => {
                // The engine moved into the closure that failed to start; make a new one.
                self.answer_null_move(&format!("cannot start the search thread: {e}"));
                self.fresh_engine(options);
            }
        }
    }

    /// Answers a `go` that cannot search: the reason, then UCI's null move, so the GUI that
    /// waits for a `bestmove` gets one. This comes at once, even for `go infinite` or
    /// `go ponder`, which would otherwise wait for `stop`: there is nothing to wait for.
    fn answer_null_move(&self, why: &str) {
        self.info_string(why);
        self.say("bestmove 0000");
    }

    /// `go perft N` runs on a thread of its own, like a search, so `stop` can end a long
    /// count; every other command waits for it (see [`Uci::handle_line`]).
    fn go_perft(&mut self, depth: u32) {
        self.finish_perft();
        let monitor = Arc::new(PerftMonitor::new());
        let out = Arc::clone(&self.out);
        let pos = self.root.position;
        let mode = self.castling;
        let m = Arc::clone(&monitor);
        let handle = std::thread::Builder::new()
            .name("perft".into())
            .spawn(move || {
                let start = Instant::now();
                // A panic here is a bug; it must not cut the output short without a word.
                let counted = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    divide(&pos, depth, &PerftOptions::default(), &m).map(|split| {
                        report_perft(&out, &pos, mode, depth, &split, start.elapsed());
                    })
                }));
                match counted {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => send(&out, &format!("info string perft stopped: {e}")),
                    Err(_) => send(&out, "info string perft failed (an engine bug)"),
                }
            });
        match handle {
            Ok(h) => self.perft = Some((h, monitor)),
            Err(e) => self.info_string(&format!("cannot start perft: {e}")),
        }
    }

    /// Waits for a running `go perft` to finish (and print).
    fn wait_perft(&mut self) {
        if let Some((h, _)) = self.perft.take() {
            let _ = h.join();
        }
    }

    /// Stops a running `go perft` (if any) and waits for it.
    fn finish_perft(&mut self) {
        if let Some((h, monitor)) = self.perft.take() {
            monitor.stop();
            let _ = h.join();
        }
    }

    /// Ends the session: stops and joins a running search.
    pub fn shutdown(&mut self) {
        self.stop.stop();
        self.join_search();
        self.finish_perft();
    }
}

impl<W: Write + Send + 'static> Drop for Uci<W> {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Prints a finished `go perft` as Stockfish does: one line per root move, then the total.
fn report_perft<W: Write>(
    out: &Mutex<W>,
    pos: &Position,
    mode: CastlingMode,
    depth: u32,
    split: &[(Move, u64)],
    took: Duration,
) {
    let total: u64 = if depth == 0 {
        1
    } else {
        split.iter().map(|&(_, n)| n).sum()
    };
    for &(mv, n) in split {
        send(out, &format!("{}: {n}", to_uci(pos, mv, mode)));
    }
    send(out, "");
    send(out, &format!("Nodes searched: {total}"));
    send(
        out,
        &format!(
            "info string perft time {} ms, nps {}",
            took.as_millis(),
            nps(total, took)
        ),
    );
}

fn max_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .clamp(1, MAX_THREADS)
}

/// Keeps echoed user input short.
fn truncate(s: &str) -> String {
    const MAX: usize = 80;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(MAX).collect();
        t.push('…');
        t
    }
}

/// The `info` line of one completed line of an iteration, castling as the king's move.
pub fn info_line(info: &SearchInfo) -> String {
    let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
    info_text(info, &pv)
}

/// The `info` line of a search from `root`, castling written for `mode`.
fn info_line_in(info: &SearchInfo, root: &Position, mode: CastlingMode) -> String {
    info_text(info, &uci_moves(root, &info.pv, mode))
}

/// The UCI text of a line of legal moves from `root`: castling needs the position it is
/// played in (its rook), so the line is played out.
fn uci_moves(root: &Position, moves: &[Move], mode: CastlingMode) -> Vec<String> {
    let mut pos = *root;
    moves
        .iter()
        .map(|&m| {
            let text = to_uci(&pos, m, mode);
            pos.play_unchecked(m);
            text
        })
        .collect()
}

fn info_text(info: &SearchInfo, pv: &[String]) -> String {
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score,
        info.nodes,
        info.nps,
        info.hashfull,
        info.tbhits,
        info.time.as_millis(),
        pv.join(" ")
    )
}

/// Runs a UCI session over `input` and `output` until `quit` or the end of the input.
/// The input is read on its own thread, so commands are seen while a search runs.
pub fn run<R, W>(input: R, output: W)
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    run_with_evaluator(input, output, cpu_only_evaluator);
}

/// [`run`] with `EvalDevice` back ends opened by `open`.
pub fn run_with_evaluator<R, W>(input: R, output: W, open: OpenEvaluator)
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
    // The reader may block forever on a terminal; it is detached and dies with the process.
    let _reader = std::thread::Builder::new()
        .name("uci-input".into())
        .spawn(move || read_lines(input, |line| tx.send(line).is_ok()));
    let mut uci = Uci::with_evaluator(output, open);
    while let Ok(line) = rx.recv() {
        if uci.handle_bytes(&line) == Control::Quit {
            return;
        }
    }
    // End of input: behave as `quit`, letting a bounded search finish would block forever
    // for `go infinite`.
    uci.shutdown();
}

/// Passes each line of `input` to `line`, as bytes without the line ending, until the end
/// of the input, a read error, or `line` returning false. Bytes, not text: one line that is
/// not UTF-8 must not end the session (`BufRead::lines` stops there), and is the session's
/// to report.
fn read_lines<R: BufRead>(mut input: R, mut line: impl FnMut(Vec<u8>) -> bool) {
    loop {
        let mut buf = Vec::new();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if buf.ends_with(b"\n") {
                    buf.pop();
                    if buf.ends_with(b"\r") {
                        buf.pop();
                    }
                }
                if !line(buf) {
                    return;
                }
            }
        }
    }
}

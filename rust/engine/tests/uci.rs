//! The UCI loop driven in-process: protocol answers, robustness against bad input, `stop`
//! latency, pondering, perft.

use shatranj_engine::uci::{Control, Uci};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A writer the test can read while the engine writes.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Sink {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
    fn lines(&self) -> Vec<String> {
        self.text().lines().map(str::to_string).collect()
    }
    fn clear(&self) {
        self.0.lock().unwrap().clear();
    }
    /// Waits up to `timeout` for a line starting with `prefix`.
    fn wait_for(&self, prefix: &str, timeout: Duration) -> Option<String> {
        let start = Instant::now();
        loop {
            if let Some(l) = self.lines().into_iter().find(|l| l.starts_with(prefix)) {
                return Some(l);
            }
            if start.elapsed() > timeout {
                return None;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

fn session() -> (Uci<Sink>, Sink) {
    let sink = Sink::default();
    (Uci::new(sink.clone()), sink)
}

/// `Clear Hash` empties the table but the move-ordering statistics carry over to the next
/// `go`; `ucinewgame` forgets both, so the search repeats the first one node for node.
#[test]
fn ucinewgame_forgets_what_earlier_searches_learned() {
    let (mut uci, out) = session();
    let mut nodes_after = |commands: &[&str]| -> u64 {
        out.clear();
        for c in commands {
            uci.handle_line(c);
        }
        uci.handle_line(
            "position fen r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
        );
        uci.handle_line("go depth 7");
        out.wait_for("bestmove", Duration::from_secs(60)).unwrap();
        let last = out
            .lines()
            .into_iter()
            .rfind(|l| l.starts_with("info depth"))
            .unwrap();
        let words: Vec<&str> = last.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "nodes").unwrap();
        words[at + 1].parse().unwrap()
    };
    let first = nodes_after(&[]);
    let after_clear_hash = nodes_after(&["setoption name Clear Hash"]);
    let after_new_game = nodes_after(&["ucinewgame"]);
    assert_ne!(first, after_clear_hash, "histories kept across go");
    assert_eq!(first, after_new_game, "ucinewgame clears them");
}

/// The shipped build keeps the search's numbers constant: no option names them (the tune
/// build's own test is `tests/tune.rs`).
#[cfg(not(feature = "tune"))]
#[test]
fn the_shipped_build_offers_no_search_tunables() {
    let (mut uci, out) = session();
    uci.handle_line("uci");
    assert!(!out.text().contains("RFP_MARGIN"));
    out.clear();
    uci.handle_line("setoption name RFP_MARGIN value 80");
    uci.handle_line("spsa");
    let said = out.lines();
    assert!(said[0].contains("unknown option: rfp_margin"), "{said:?}");
    assert!(said[1].contains("unknown command: spsa"), "{said:?}");
}

#[test]
fn handshake_lists_the_options() {
    let (mut uci, out) = session();
    uci.handle_line("uci");
    let text = out.text();
    for needle in [
        "id name shatranj",
        "option name Hash type spin",
        "option name Threads type spin",
        "option name MultiPV type spin",
        "option name Clear Hash type button",
        "option name Move Overhead type spin",
        "option name Ponder type check",
        "option name EvalDevice type combo default auto var auto var cpu var gpu",
        "option name EvalFile type string default ",
        "option name UCI_Chess960 type check default false",
        "option name UCI_AnalyseMode type check default false",
    ] {
        assert!(text.contains(needle), "{needle} missing in {text}");
    }
    assert_eq!(out.lines().last().unwrap(), "uciok");
    uci.handle_line("isready");
    assert_eq!(out.lines().last().unwrap(), "readyok");
    // GUIs (and python-chess) set UCI_AnalyseMode around analysis: accepted without a word.
    out.clear();
    uci.handle_line("setoption name UCI_AnalyseMode value true");
    uci.handle_line("setoption name UCI_AnalyseMode value false");
    assert!(out.text().is_empty(), "{}", out.text());
}

/// `EvalFile` takes `classical`, `<default>` or a path; one that does not load says why and
/// changes nothing.
#[test]
fn eval_file_switches_the_evaluation_or_says_why_not() {
    let (mut uci, out) = session();
    uci.handle_line("setoption name EvalFile value /no/such/net.nnue");
    let said = out.lines().last().cloned().unwrap_or_default();
    assert!(
        said.starts_with("info string EvalFile:") && said.contains("/no/such/net.nnue"),
        "{said}"
    );
    assert!(said.ends_with("unchanged"), "{said}");
    out.clear();
    uci.handle_line("setoption name EvalFile value classical");
    assert_eq!(
        out.lines().last().map(String::as_str),
        Some("info string EvalFile: evaluating with classical")
    );
    uci.handle_line("position startpos");
    uci.handle_line("eval");
    assert!(out.text().contains("static eval cp"), "{}", out.text());
}

#[test]
fn bad_input_is_reported_and_ignored() {
    let (mut uci, out) = session();
    uci.handle_line("position startpos moves e2e4");
    // Each of these must answer with one `info string` and change nothing.
    let bad = [
        "xyzzy",
        "position",
        "position fen",
        "position fen not/a/fen w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves e2e5",
        "position startpos moves banana",
        "setoption name Hash value 0",
        "setoption name Hash value 99999999",
        "setoption name Hash value lots",
        "setoption name Threads value 0",
        "setoption name Threads value 100000",
        "setoption name MultiPV value 0",
        "setoption name Move Overhead value -5",
        "setoption name Ponder value maybe",
        "setoption name NoSuchOption value 1",
        "setoption",
        "setoption name",
        "setoption name UCI_AnalyseMode value maybe",
        "\u{0}\u{1}\u{7f}garbage ünïcödé",
    ];
    for line in bad {
        out.clear();
        assert_eq!(uci.handle_line(line), Control::Continue);
        let lines = out.lines();
        assert_eq!(lines.len(), 1, "{line:?} gave {lines:?}");
        assert!(
            lines[0].starts_with("info string "),
            "{line:?} gave {lines:?}"
        );
    }
    // Blank lines are silently ignored.
    out.clear();
    uci.handle_line("   ");
    assert!(out.text().is_empty());
    // The position is still the one after 1.e4.
    uci.handle_line("d");
    assert!(
        out.text()
            .contains("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
        "{}",
        out.text()
    );
    uci.handle_line("isready");
    assert_eq!(out.lines().last().unwrap(), "readyok");
}

/// A `go` is answered by exactly one `bestmove`, whatever else is on its line: what cannot
/// be read is named in an `info string` and the search runs with the rest, or, when nothing
/// is left to search, answers `bestmove 0000` at once. Each case: the line, a part of the
/// `info string` it must give, whether the search ends without `stop`, and the move (or a
/// move of the start position when empty).
#[test]
fn every_go_is_answered_by_one_bestmove() {
    #[rustfmt::skip]
    let cases = [
        ("go depth x movetime 50", "depth 'x' is not a number", true, ""),
        ("go wtime", "wtime needs a number", false, ""),
        ("go sideways 3 depth 2", "unknown parameter 'sideways 3'", true, ""),
        ("go depth 2 sideways", "unknown parameter 'sideways'", true, ""),
        ("go depth -3", "depth -3 is out of range", true, ""),
        ("go nodes -5", "nodes -5 is out of range", true, ""),
        ("go movetime -5", "movetime -5 is out of range", true, ""),
        ("go depth 99999999999999999999", "out of range", false, ""),
        ("go movetime 99999999999999999999999", "out of range", false, ""),
        ("go searchmoves e2e5 d2d4 depth 3", "searchmoves skips e2e5", true, "d2d4"),
        ("go searchmoves e2e5 banana", "nothing to search", true, "0000"),
        ("go infinite searchmoves e7e5", "nothing to search", true, "0000"),
    ];
    let (mut uci, out) = session();
    uci.handle_line("position startpos");
    for (line, said, ends, best) in cases {
        out.clear();
        uci.handle_line(line);
        // The notes come before the search starts.
        assert!(
            out.lines()
                .iter()
                .any(|l| l.starts_with("info string ") && l.contains(said)),
            "{line}: {:?}",
            out.lines()
        );
        if ends {
            out.wait_for("bestmove", Duration::from_secs(20))
                .unwrap_or_else(|| panic!("{line}: no bestmove: {:?}", out.lines()));
        } else {
            std::thread::sleep(Duration::from_millis(100));
            assert!(!out.text().contains("bestmove"), "{line}: ended early");
        }
        // `stop` after the answer (or to get it) adds nothing.
        uci.handle_line("stop");
        out.wait_for("bestmove", Duration::from_secs(1));
        let answers: Vec<String> = out
            .lines()
            .into_iter()
            .filter(|l| l.starts_with("bestmove"))
            .collect();
        assert_eq!(answers.len(), 1, "{line}: {:?}", out.lines());
        let mv = answers[0].split_whitespace().nth(1).unwrap_or_default();
        if best.is_empty() {
            assert!(
                shatranj_chess::uci::parse_uci(&shatranj_chess::Position::new(), mv).is_ok(),
                "{line}: {}",
                answers[0]
            );
        } else {
            assert_eq!(mv, best, "{line}");
        }
    }
}

/// The loop reads bytes: a line that is not UTF-8 (a Latin-1 file name) is reported and the
/// session goes on, where reading text stopped at it and lost every later command.
#[test]
fn a_line_that_is_not_utf8_is_reported_and_the_session_goes_on() {
    let input: &[u8] = b"isready\n\
        setoption name EvalFile value caf\xe9.nnue\n\
        \xff\xfe\n\
        isready\n\
        position startpos moves e2e4\r\n\
        d\n\
        isready";
    let out = Sink::default();
    shatranj_engine::uci::run(std::io::Cursor::new(input), out.clone());
    let lines = out.lines();
    assert_eq!(
        lines,
        [
            "readyok",
            "info string line ignored, not valid UTF-8: setoption name EvalFile value caf\u{fffd}.nnue",
            "info string line ignored, not valid UTF-8: \u{fffd}\u{fffd}",
            "readyok",
            "info string fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "readyok",
        ]
    );
}

/// A GUI's set-up of a large `Hash` (then `ucinewgame`, `Clear Hash`, `isready`) is answered
/// at once and takes memory only as the search uses it: the table's pages come zeroed from
/// the operating system when first touched, and a table no search has written to is not
/// cleared again (clearing a fresh 12 GB table on one thread kept `isready` waiting 26 s).
#[cfg(target_os = "linux")]
#[test]
fn a_large_hash_costs_memory_only_when_used() {
    fn resident_mb() -> usize {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace()
            .nth(1)
            .unwrap()
            .parse::<usize>()
            .unwrap()
            / 1024
    }
    let mb = shatranj_engine::tt::max_hash_mb().min(2048);
    let (mut uci, out) = session();
    let before = resident_mb();
    uci.handle_line(&format!("setoption name Hash value {mb}"));
    uci.handle_line("ucinewgame");
    uci.handle_line("setoption name Clear Hash");
    uci.handle_line("isready");
    let grew = resident_mb().saturating_sub(before);
    assert_eq!(out.lines(), ["readyok"]);
    // Other tests run beside this one and take some memory of their own.
    assert!(grew < mb / 4 + 64, "{grew} MB resident after Hash {mb}");
    uci.handle_line("go depth 3");
    assert!(out.wait_for("bestmove", Duration::from_secs(20)).is_some());
    // Clearing the used table gives its pages back rather than writing every one of them.
    out.clear();
    uci.handle_line("ucinewgame");
    uci.handle_line("isready");
    assert_eq!(out.lines(), ["readyok"]);
    let grew = resident_mb().saturating_sub(before);
    assert!(
        grew < mb / 4 + 64,
        "{grew} MB resident after clearing Hash {mb}"
    );
}

#[test]
fn go_before_position_searches_the_start_position() {
    let (mut uci, out) = session();
    uci.handle_line("go depth 3");
    let best = out.wait_for("bestmove", Duration::from_secs(20)).unwrap();
    let m = best.split_whitespace().nth(1).unwrap();
    assert!(
        shatranj_chess::uci::parse_uci(&shatranj_chess::Position::new(), m).is_ok(),
        "{best}"
    );
    let info = out
        .wait_for("info depth 3", Duration::from_secs(1))
        .unwrap();
    for field in [
        " seldepth ",
        " multipv 1 ",
        " score cp ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{field} missing: {info}");
    }
}

#[test]
fn stop_answers_promptly_during_go_infinite() {
    let (mut uci, out) = session();
    uci.handle_line("position startpos moves e2e4 e7e5 g1f3");
    uci.handle_line("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    assert!(uci.is_searching());
    assert!(
        !out.text().contains("bestmove"),
        "infinite must wait for stop"
    );
    let t = Instant::now();
    uci.handle_line("stop");
    let best = out.wait_for("bestmove", Duration::from_millis(500));
    let latency = t.elapsed();
    println!("stop → bestmove: {latency:?}");
    assert!(best.is_some(), "no bestmove after stop");
    assert!(latency < Duration::from_millis(500), "{latency:?}");
    // Stop with no search running is harmless; the next search is not stopped by it.
    uci.handle_line("stop");
    out.clear();
    uci.handle_line("go depth 4");
    let best = out.wait_for("bestmove", Duration::from_secs(20));
    assert!(best.is_some());
    assert!(out.text().contains("info depth 4"), "{}", out.text());
}

#[test]
fn quit_during_a_search_ends_the_session() {
    let (mut uci, out) = session();
    uci.handle_line("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    let t = Instant::now();
    assert_eq!(uci.handle_line("quit"), Control::Quit);
    assert!(t.elapsed() < Duration::from_millis(500));
    assert!(out.text().contains("bestmove"));
}

#[test]
fn isready_and_commands_during_a_search() {
    let (mut uci, out) = session();
    uci.handle_line("go infinite");
    out.clear();
    uci.handle_line("isready");
    assert_eq!(out.lines(), vec!["readyok".to_string()]);
    out.clear();
    uci.handle_line("go depth 3");
    uci.handle_line("setoption name Hash value 32");
    assert_eq!(
        out.lines()
            .iter()
            .filter(|l| l.starts_with("info string"))
            .count(),
        2,
        "{:?}",
        out.lines()
    );
    uci.handle_line("stop");
    assert!(
        out.wait_for("bestmove", Duration::from_millis(500))
            .is_some()
    );
}

#[test]
fn ponder_waits_for_ponderhit() {
    let (mut uci, out) = session();
    uci.handle_line("setoption name Ponder value true");
    uci.handle_line("position startpos moves e2e4 e7e5");
    uci.handle_line("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !out.text().contains("bestmove"),
        "pondering must not answer"
    );
    uci.handle_line("ponderhit");
    assert!(out.wait_for("bestmove", Duration::from_secs(2)).is_some());
}

#[test]
fn go_perft_divides_like_stockfish() {
    let (mut uci, out) = session();
    uci.handle_line("position startpos");
    uci.handle_line("go perft 3");
    out.wait_for("info string perft time", Duration::from_secs(20))
        .unwrap();
    let lines = out.lines();
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains(": ") && !l.starts_with("info"))
            .count(),
        21
    );
    assert!(
        lines.contains(&"Nodes searched: 8902".to_string()),
        "{lines:?}"
    );
    assert!(lines.contains(&"e2e4: 600".to_string()));
}

/// A script that pipes `go perft` and more commands at once gets the whole divide before
/// the answers to the rest; `quit` right after `go perft` still prints it.
#[test]
fn commands_after_go_perft_wait_for_its_divide() {
    let (mut uci, out) = session();
    for line in ["position startpos", "go perft 4", "go depth 3"] {
        uci.handle_line(line);
    }
    out.wait_for("bestmove", Duration::from_secs(30)).unwrap();
    let lines = out.lines();
    let at = |needle: &str| lines.iter().position(|l| l.starts_with(needle)).unwrap();
    assert!(
        at("Nodes searched: 197281") < at("info depth 1"),
        "{lines:?}"
    );
    assert!(!out.text().contains("already running"), "{lines:?}");
    let (mut uci, out) = session();
    uci.handle_line("go perft 4");
    assert_eq!(uci.handle_line("quit"), Control::Quit);
    assert!(
        out.text().contains("Nodes searched: 197281"),
        "{}",
        out.text()
    );
}

#[test]
fn multipv_and_clock_limits() {
    let (mut uci, out) = session();
    uci.handle_line("setoption name MultiPV value 3");
    uci.handle_line("setoption name Clear Hash");
    uci.handle_line("setoption name Move Overhead value 0");
    uci.handle_line("position startpos");
    uci.handle_line("go depth 4");
    out.wait_for("bestmove", Duration::from_secs(20)).unwrap();
    let text = out.text();
    assert!(
        text.contains("info depth 4 ") && text.contains(" multipv 3 "),
        "{text}"
    );
    out.clear();
    uci.handle_line("setoption name MultiPV value 1");
    let t = Instant::now();
    uci.handle_line("go wtime 2000 btime 2000 winc 0 binc 0 movestogo 20");
    out.wait_for("bestmove", Duration::from_secs(3)).unwrap();
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "{:?}",
        t.elapsed()
    );
    out.clear();
    let t = Instant::now();
    uci.handle_line("go movetime 150");
    out.wait_for("bestmove", Duration::from_secs(3)).unwrap();
    let el = t.elapsed();
    assert!(
        el >= Duration::from_millis(100) && el < Duration::from_millis(600),
        "{el:?}"
    );
    out.clear();
    uci.handle_line("go nodes 3000");
    out.wait_for("bestmove", Duration::from_secs(10)).unwrap();
    // A mated position answers with the null move.
    out.clear();
    uci.handle_line("position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    uci.handle_line("go depth 3");
    assert_eq!(
        out.wait_for("bestmove", Duration::from_secs(5)).unwrap(),
        "bestmove 0000"
    );
    out.clear();
    uci.handle_line("position startpos moves f2f3 e7e5 g2g4");
    uci.handle_line("go mate 2");
    let best = out.wait_for("bestmove", Duration::from_secs(10)).unwrap();
    assert_eq!(best.split_whitespace().nth(1), Some("d8h4"));
    assert!(out.text().contains("score mate 1"));
}

#[test]
fn go_right_after_bestmove_is_not_refused() {
    // A GUI sends the next `ucinewgame`/`go` the moment it reads `bestmove`, while the search
    // thread may still be returning: that must start the next search, not be refused.
    let (mut uci, out) = session();
    for i in 0..30 {
        out.clear();
        uci.handle_line("ucinewgame");
        uci.handle_line("position startpos moves e2e4");
        uci.handle_line(if i % 2 == 0 {
            "go depth 2"
        } else {
            "go nodes 500"
        });
        assert!(
            out.wait_for("bestmove", Duration::from_secs(10)).is_some(),
            "round {i}: {:?}",
            out.lines()
        );
        assert!(
            !out.text().contains("ignored"),
            "round {i}: {:?}",
            out.lines()
        );
    }
}

#[test]
fn a_long_perft_can_be_stopped() {
    let (mut uci, out) = session();
    uci.handle_line("go perft 9");
    std::thread::sleep(Duration::from_millis(100));
    out.clear();
    uci.handle_line("isready");
    assert_eq!(out.lines(), vec!["readyok".to_string()]);
    let t = Instant::now();
    uci.handle_line("stop");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert!(out.text().contains("perft stopped"), "{}", out.text());
}

/// A back end for the `gpu` device in a build without one: the CPU behind the service.
#[allow(clippy::unnecessary_wraps)] // the signature of a back-end opener
fn cpu_as_gpu(
    _: shatranj_engine::Device,
    evaluation: &shatranj_engine::Evaluation,
) -> Result<std::sync::Arc<dyn shatranj_engine::BatchEvaluator>, shatranj_engine::EvalError> {
    Ok(shatranj_engine::eval::cpu_evaluator(evaluation))
}

#[test]
fn eval_device_routes_the_search_and_rejects_what_it_cannot_open() {
    let (mut uci, out) = session();
    uci.handle_line("setoption name EvalDevice value gpu");
    assert!(
        out.text()
            .contains("EvalDevice: no GPU adapter: built without the GPU back end; unchanged"),
        "{}",
        out.text()
    );
    uci.handle_line("setoption name EvalDevice value tpu");
    assert!(out.text().contains("unknown evaluation device \"tpu\""));
    uci.handle_line("setoption name EvalDevice value cpu");
    assert!(
        out.text()
            .contains("EvalDevice cpu: evaluating on cpu (inline)")
    );

    // With a back end for `gpu`, searches go through the service and still answer.
    let sink = Sink::default();
    let mut uci = Uci::with_evaluator(sink.clone(), cpu_as_gpu);
    uci.handle_line("setoption name EvalDevice value GPU");
    assert!(sink.text().contains("(batched)"), "{}", sink.text());
    uci.handle_line("go depth 5");
    let best = sink.wait_for("bestmove", Duration::from_secs(60));
    assert!(best.is_some_and(|b| b != "bestmove 0000"));
    uci.handle_line("setoption name EvalDevice value auto");
    assert!(
        sink.text()
            .contains("EvalDevice auto: evaluating on cpu (inline)")
    );
}

/// How long each dispatch of [`SlowAdapter`] waits: a slow GPU adapter's round trip.
const SLOW_DISPATCH: Duration = Duration::from_millis(1);

/// A back end for the `gpu` device as slow as a weak adapter: each batch waits
/// [`SLOW_DISPATCH`], then the CPU scores it.
struct SlowAdapter(Arc<dyn shatranj_engine::BatchEvaluator>);

impl shatranj_engine::BatchEvaluator for SlowAdapter {
    fn describe(&self) -> String {
        "a slow adapter (test)".into()
    }

    fn evaluate_packed(
        &self,
        positions: &[shatranj_engine::eval::PackedPosition],
        out: &mut [i32],
    ) -> Result<(), shatranj_engine::EvalError> {
        std::thread::sleep(SLOW_DISPATCH);
        self.0.evaluate_packed(positions, out)
    }
}

#[allow(clippy::unnecessary_wraps)] // the signature of a back-end opener
fn slow_gpu(
    _: shatranj_engine::Device,
    evaluation: &shatranj_engine::Evaluation,
) -> Result<Arc<dyn shatranj_engine::BatchEvaluator>, shatranj_engine::EvalError> {
    Ok(Arc::new(SlowAdapter(shatranj_engine::eval::cpu_evaluator(
        evaluation,
    ))))
}

/// A search through a slow evaluator keeps to its time: the clock is read as often as a
/// node's cost calls for. Read every 1,024 nodes, it let a 1 ms dispatch carry a 300 ms
/// `movetime` search a second past its budget (issue 53: 2–18× `movetime` on a slow
/// adapter). Each case: the `go` line and its hard budget (`Move Overhead` 0).
#[test]
fn eval_device_searches_keep_to_their_time() {
    let sink = Sink::default();
    let mut uci = Uci::with_evaluator(sink.clone(), slow_gpu);
    uci.handle_line("setoption name EvalDevice value gpu");
    assert!(sink.text().contains("(batched)"), "{}", sink.text());
    uci.handle_line("setoption name Move Overhead value 0");
    uci.handle_line("position startpos moves e2e4 e7e5 g1f3");
    // The clock's hard budget with 30 moves assumed: 3 × 3000 × 3 / 60 ms.
    for (go, budget_ms) in [
        ("go movetime 300", 300),
        ("go wtime 3000 btime 3000", 450),
        ("go movetime 100", 100),
    ] {
        sink.clear();
        let t = Instant::now();
        uci.handle_line(go);
        let best = sink.wait_for("bestmove", Duration::from_secs(30));
        let took = t.elapsed();
        assert!(
            best.is_some_and(|b| b != "bestmove 0000"),
            "{go}: {}",
            sink.text()
        );
        let nodes = sink
            .lines()
            .iter()
            .rev()
            .find_map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let at = words.iter().position(|w| *w == "nodes")?;
                words.get(at + 1)?.parse::<u64>().ok()
            })
            .unwrap_or(0);
        let over = took.saturating_sub(Duration::from_millis(budget_ms));
        println!("{go}: bestmove after {took:?} ({over:?} past the budget, {nodes}+ nodes)");
        // A few dispatches, the unwinding and a loaded machine's scheduling; 1,024
        // dispatches would be over a second.
        assert!(over < Duration::from_millis(150), "{go}: {took:?}");
    }
}

/// An output that panics the first time it is given a line starting with `trap`. The search
/// reports through it, so this is a panic inside the search, as a bug would cause.
#[derive(Clone)]
struct Trapped {
    sink: Sink,
    trap: &'static str,
    sprung: Arc<AtomicBool>,
}

impl Write for Trapped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        assert!(
            !buf.starts_with(self.trap.as_bytes()) || self.sprung.swap(true, Ordering::SeqCst),
            "the trap on {:?} sprung",
            self.trap
        );
        self.sink.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Trapped {
    /// A session whose output panics once, on the first line starting with `trap`; the
    /// sink sees everything else.
    fn session(trap: &'static str) -> (Uci<Trapped>, Sink, Trapped) {
        let sink = Sink::default();
        let trapped = Trapped {
            sink: sink.clone(),
            trap,
            sprung: Arc::default(),
        };
        (Uci::new(trapped.clone()), sink, trapped)
    }
}

/// A search that panics (in the main search thread of two, in a search only `stop` would
/// end) still answers `bestmove` with a legal move: the helper stops with it. The session
/// then goes on with a fresh engine.
#[test]
fn a_search_that_panics_still_answers_with_a_legal_move() {
    // Depth 1 is the one depth the main thread always reports itself: it may skip later
    // ones that the helper completed first.
    let (mut uci, sink, trapped) = Trapped::session("info depth 1 ");
    uci.handle_line("setoption name Threads value 2");
    uci.handle_line("position startpos moves e2e4");
    uci.handle_line("go infinite");
    let best = sink
        .wait_for("bestmove", Duration::from_secs(20))
        .unwrap_or_else(|| panic!("no bestmove after the search panicked: {}", sink.text()));
    assert!(trapped.sprung.load(Ordering::SeqCst));
    assert!(
        sink.text().contains("info string the search failed"),
        "{}",
        sink.text()
    );
    let mut after_e4 = shatranj_chess::Position::new();
    after_e4
        .play(shatranj_chess::uci::parse_uci(&after_e4, "e2e4").unwrap())
        .unwrap();
    let answer = best.split_whitespace().nth(1).unwrap();
    assert!(
        shatranj_chess::uci::parse_uci(&after_e4, answer).is_ok(),
        "{best}"
    );

    sink.clear();
    uci.handle_line("isready");
    assert_eq!(
        sink.wait_for("readyok", Duration::from_secs(5)).as_deref(),
        Some("readyok")
    );
    uci.handle_line("go depth 4");
    let best = sink.wait_for("bestmove", Duration::from_secs(20));
    assert!(
        best.is_some_and(|b| b != "bestmove 0000"),
        "{}",
        sink.text()
    );
}

/// A `go perft` that panics (here in the middle of its output) says so instead of falling
/// silent, and the session goes on: the next count prints in full.
#[test]
fn a_perft_that_panics_says_so_and_the_session_goes_on() {
    let (mut uci, sink, trapped) = Trapped::session("Nodes searched");
    uci.handle_line("go perft 2");
    sink.wait_for("info string perft failed", Duration::from_secs(20))
        .unwrap_or_else(|| panic!("no word of the failed perft: {}", sink.text()));
    assert!(trapped.sprung.load(Ordering::SeqCst));
    uci.handle_line("isready");
    assert!(sink.wait_for("readyok", Duration::from_secs(5)).is_some());
    uci.handle_line("go perft 1");
    assert!(
        sink.wait_for("Nodes searched: 20", Duration::from_secs(20))
            .is_some(),
        "{}",
        sink.text()
    );
}

/// A refused `position` leaves nothing stale behind: `go` says why and answers the null move,
/// until a position is accepted.
#[test]
fn go_after_a_refused_position_answers_the_null_move() {
    let (mut uci, out) = session();
    uci.handle_line("position startpos moves e2e4");
    // A Chess960 start (number 0) with KQkq castling, refused in standard mode.
    let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
    uci.handle_line(&format!("position fen {fen}"));
    let said = out.lines().last().cloned().unwrap_or_default();
    assert!(
        said.starts_with("info string bad fen") && said.contains("UCI_Chess960"),
        "{said}"
    );
    for go in ["go depth 3", "go movetime 50", "go perft 2"] {
        out.clear();
        uci.handle_line(go);
        let lines = out.lines();
        assert_eq!(lines.len(), 2, "{go}: {lines:?}");
        assert!(
            lines[0].starts_with("info string no position to search: bad fen"),
            "{go}: {lines:?}"
        );
        assert_eq!(lines[1], "bestmove 0000", "{go}");
    }
    // An illegal move refuses the whole command too.
    uci.handle_line("position startpos");
    uci.handle_line("position startpos moves e2e4 e2e4");
    out.clear();
    uci.handle_line("go depth 2");
    assert_eq!(
        out.lines().last().map(String::as_str),
        Some("bestmove 0000")
    );
    // An accepted position ends it.
    uci.handle_line("position startpos moves e2e4");
    out.clear();
    uci.handle_line("go depth 2");
    let best = out.wait_for("bestmove", Duration::from_secs(20)).unwrap();
    assert_ne!(best, "bestmove 0000");
}

/// `UCI_Chess960`: X-FEN and Shredder-FEN read, castling read and written as the king taking
/// its own rook, in moves, `searchmoves`, the principal variation and `go perft`.
#[test]
fn chess960_castling_over_uci() {
    let (mut uci, out) = session();
    uci.handle_line("setoption name UCI_Chess960 value true");
    assert!(out.text().is_empty(), "{}", out.text());
    // King b1 beside its a1 rook: b1a1 castles (king c1, rook d1), b1c1 steps.
    let fen = "1r4k1/8/8/8/8/8/PPP5/RK6 w A - 0 1";
    uci.handle_line(&format!("position fen {fen} moves b1a1"));
    uci.handle_line("d");
    assert!(
        out.text().contains("1r4k1/8/8/8/8/8/PPP5/2KR4 b - - 1 1"),
        "{}",
        out.text()
    );
    out.clear();
    uci.handle_line(&format!("position fen {fen}"));
    uci.handle_line("go depth 2 searchmoves b1a1");
    let best = out.wait_for("bestmove", Duration::from_secs(20)).unwrap();
    assert!(best.starts_with("bestmove b1a1"), "{best}");
    assert!(
        out.lines()
            .iter()
            .any(|l| l.starts_with("info depth") && l.contains(" pv b1a1")),
        "{}",
        out.text()
    );
    out.clear();
    uci.handle_line("go perft 1");
    out.wait_for("Nodes searched", Duration::from_secs(20))
        .unwrap();
    let text = out.text();
    assert!(
        text.contains("b1a1: 1") && text.contains("b1c1: 1"),
        "{text}"
    );
    // Shredder-FEN; standard chess's castling is king-takes-rook too in this mode.
    out.clear();
    uci.handle_line("position fen r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    uci.handle_line("go depth 1 searchmoves e1g1");
    let best = out.wait_for("bestmove", Duration::from_secs(20)).unwrap();
    assert!(best.starts_with("bestmove e1h1"), "{best}");
    // Back to standard chess: e1g1 again.
    uci.handle_line("setoption name UCI_Chess960 value false");
    uci.handle_line("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    out.clear();
    uci.handle_line("go depth 1 searchmoves e1h1");
    let best = out.wait_for("bestmove", Duration::from_secs(20)).unwrap();
    assert!(best.starts_with("bestmove e1g1"), "{best}");
    out.clear();
    uci.handle_line("setoption name UCI_Chess960 value maybe");
    assert!(
        out.lines()[0].starts_with("info string UCI_Chess960"),
        "{}",
        out.text()
    );
}

/// Chess960 castling both ways over UCI: the GUI's castling as king-takes-rook is played
/// (Black's f8h8: king g8, rook f8), and the engine's own comes back the same way: here the
/// only mate is castling b1a1 (king c1, rook d1 checking down the open d-file).
#[test]
fn chess960_castling_in_and_out_over_uci() {
    let (mut uci, out) = session();
    uci.handle_line("setoption name UCI_Chess960 value true");
    uci.handle_line("position fen 5k1r/8/8/8/8/8/8/4K3 b h - 0 1 moves f8h8");
    uci.handle_line("d");
    assert!(
        out.text().contains("5rk1/8/8/8/8/8/8/4K3 w - - 1 2"),
        "{}",
        out.text()
    );
    out.clear();
    uci.handle_line("position fen 2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1");
    uci.handle_line("go depth 3");
    let best = out.wait_for("bestmove", Duration::from_secs(60)).unwrap();
    assert_eq!(best, "bestmove b1a1", "{}", out.text());
    assert!(out.text().contains("score mate 1"), "{}", out.text());
}

//! The engine with Syzygy tables (the 3–4-man set in data/syzygy/regular): the UCI options,
//! the root narrowed to the moves that keep the tables' outcome, tablebase scores from probes
//! in the search, `tbhits`, and won endings played out to mate within the tables' DTZ.

use shatranj_chess::{Move, Position};
use shatranj_engine::score::TB_WIN_CP;
use shatranj_engine::syzygy::{SyzygySettings, open_path_list};
use shatranj_engine::uci::Uci;
use shatranj_engine::{Engine, EngineOptions, Limits, Score, SearchRoot};
use shatranj_syzygy::{Tablebase, Wdl};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/syzygy/regular");

fn tables() -> Arc<Tablebase> {
    Arc::new(Tablebase::open([TABLES]).unwrap())
}

/// One thread, 8 MiB of hash, with the test tables (`settings` adjusts the defaults).
fn engine_with(settings: impl FnOnce(&mut SyzygySettings)) -> Engine {
    let mut syzygy = SyzygySettings {
        tables: Some(tables()),
        ..SyzygySettings::default()
    };
    settings(&mut syzygy);
    Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 8,
        syzygy,
        ..EngineOptions::default()
    })
    .unwrap()
}

fn engine() -> Engine {
    engine_with(|_| {})
}

fn position(fen: &str) -> Position {
    fen.parse().unwrap()
}

/// The WDL for the side that just moved, after `m`.
fn wdl_after(tables: &Tablebase, pos: &Position, m: Move) -> Wdl {
    let mut after = *pos;
    after.play_unchecked(m);
    let them = tables.probe_wdl(&after).unwrap();
    Wdl::from_value(-them.value()).unwrap()
}

fn is_tablebase_win(score: Score) -> bool {
    matches!(score, Score::Cp(cp) if cp > TB_WIN_CP - 200 && cp <= TB_WIN_CP)
}

#[test]
fn a_won_ending_keeps_the_win_with_a_tablebase_score() {
    let tb = tables();
    for fen in [
        "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",    // KQvK
        "8/8/3k4/8/8/8/8/R3K3 w - - 0 1",    // KRvK
        "4Q3/8/1K6/8/1r6/8/1k6/8 w - - 0 1", // KQvKR
        "8/8/8/8/2K5/7k/5P2/8 w - - 0 1",    // KPvK
        "8/8/8/8/5K2/8/8/1q3k2 b - - 10 30", // KQvK for Black, the clock running
    ] {
        let pos = position(fen);
        let result = engine().search(pos, &Limits::nodes(3_000), |_| {});
        let best = result.best_move.unwrap();
        assert_eq!(wdl_after(&tb, &pos, best), Wdl::Win, "{fen}: {best}");
        assert!(
            is_tablebase_win(result.score) || matches!(result.score, Score::Mate(n) if n > 0),
            "{fen}: {:?}",
            result.score
        );
        assert!(result.tbhits > 0, "{fen}: no tbhits");
    }
}

#[test]
fn a_drawn_ending_is_held_and_scored_as_a_draw() {
    let tb = tables();
    for fen in [
        // KRvKR with the rooks facing each other on a pinned file.
        "8/8/3k4/3r4/8/8/3R4/3K4 w - - 0 1",
        // KvKP: two king moves lose.
        "8/8/8/1p6/5K2/8/4k3/8 w - - 0 1",
        // KQvKQ: three moves lose.
        "6Q1/8/8/8/8/q7/2k3K1/8 b - - 0 1",
    ] {
        let pos = position(fen);
        let result = engine().search(pos, &Limits::nodes(3_000), |_| {});
        let best = result.best_move.unwrap();
        assert_eq!(
            tb.probe_wdl(&pos).unwrap(),
            Wdl::Draw,
            "{fen}: the test position is no draw"
        );
        assert_eq!(wdl_after(&tb, &pos, best), Wdl::Draw, "{fen}: {best}");
        assert_eq!(result.score, Score::Cp(0), "{fen}");
        assert!(result.tbhits > 0, "{fen}");
    }
}

#[test]
fn positions_with_castling_rights_are_not_probed() {
    let limits = Limits::depth(4);
    let with_rights = engine().search(position("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), &limits, |_| {});
    assert_eq!(with_rights.tbhits, 0);
    assert!(
        !is_tablebase_win(with_rights.score),
        "{:?}",
        with_rights.score
    );
    let without = engine().search(position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), &limits, |_| {});
    assert!(without.tbhits > 0);
    assert!(is_tablebase_win(without.score), "{:?}", without.score);
}

/// From five men (beyond the tables), capturing the rook reaches `KQPvK`: the search's probe
/// after the capture scores it as a tablebase win a ply from the root. With the probe limit
/// at 3 it is not probed (only lines that lose more material reach three men), and without
/// tables nothing is.
#[test]
fn the_search_scores_captures_into_the_tables_as_tablebase_wins() {
    let pos = position("k7/8/8/8/3r4/8/4P3/3QK3 w - - 0 1");
    let result = engine().search(pos, &Limits::depth(6), |_| {});
    assert_eq!(result.best_move.unwrap().to_string(), "d1d4");
    assert!(result.tbhits > 0);
    assert_eq!(result.score, Score::Cp(TB_WIN_CP - 1), "{:?}", result.score);

    let limited = engine_with(|s| s.probe_limit = 3).search(pos, &Limits::depth(6), |_| {});
    assert!(
        matches!(limited.score, Score::Cp(cp) if cp < 10_000),
        "{:?}",
        limited.score
    );
    assert_eq!(limited.best_move.unwrap().to_string(), "d1d4");

    let mut plain = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 8,
        ..EngineOptions::default()
    })
    .unwrap();
    let without = plain.search(pos, &Limits::depth(6), |_| {});
    assert_eq!(without.tbhits, 0);
    assert!(matches!(without.score, Score::Cp(cp) if cp < 10_000));
}

/// Several threads share one tablebase: the result is as with one.
#[test]
fn threads_share_the_tables() {
    let pos = position("k7/8/8/8/3r4/8/4P3/3QK3 w - - 0 1");
    let mut engine = engine();
    engine.set_threads(2).unwrap();
    let result = engine.search(pos, &Limits::depth(7), |_| {});
    assert_eq!(result.best_move.unwrap().to_string(), "d1d4");
    assert!(result.tbhits > 0);
    assert!(is_tablebase_win(result.score), "{:?}", result.score);
}

/// Won endings played by the engine against itself, both sides with the tables and a few
/// thousand nodes a move: the winner reaches the next capture, pawn move or mate within the
/// DTZ the table gives the start (the loser puts it off as long as it can), and then mates.
#[test]
fn won_endings_are_converted_within_the_tables_dtz() {
    let tb = tables();
    for fen in [
        "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",    // KQvK
        "8/8/3k4/8/8/8/8/R3K3 w - - 0 1",    // KRvK
        "4Q3/8/1K6/8/1r6/8/1k6/8 w - - 0 1", // KQvKR
        "8/8/8/8/2K5/7k/5P2/8 w - - 0 1",    // KPvK
    ] {
        let start = position(fen);
        let dtz = tb.probe_dtz(&start).unwrap();
        assert!(dtz > 0, "{fen}: not a win");
        let winner = start.turn();
        let mut engines = [engine(), engine()];
        let mut pos = start;
        let mut keys = Vec::new();
        let mut zeroed_at = None;
        let mut ply = 0;
        while !pos.legal_moves().is_empty() && ply < 300 {
            let root = SearchRoot {
                position: pos,
                previous_keys: keys.clone(),
            };
            let side = usize::from(pos.turn() != winner);
            let result = engines[side].search(root, &Limits::nodes(2_000), |_| {});
            let m = result.best_move.unwrap();
            let zeroing = pos.is_zeroing(m);
            keys.push(pos.key());
            pos.play_unchecked(m);
            ply += 1;
            if zeroed_at.is_none() && (zeroing || pos.is_checkmate()) {
                zeroed_at = Some(ply);
            }
        }
        let zeroed_at = zeroed_at.unwrap_or(ply);
        println!("{fen}: DTZ {dtz}, zeroed after {zeroed_at} plies, over after {ply}");
        assert!(
            zeroed_at <= dtz,
            "{fen}: zeroed after {zeroed_at} plies, DTZ {dtz}"
        );
        assert!(
            pos.is_checkmate(),
            "{fen}: no mate after {ply} plies: {}",
            pos.fen()
        );
        assert_ne!(pos.turn(), winner, "{fen}: the wrong side was mated");
    }
}

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
    fn lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.0.lock().unwrap())
            .lines()
            .map(str::to_string)
            .collect()
    }
    fn clear(&self) {
        self.0.lock().unwrap().clear();
    }
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

/// The value after `word` in a UCI line.
fn field<'a>(line: &'a str, word: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == word)?;
    words.next()
}

#[test]
fn uci_offers_the_syzygy_options_as_stockfish_names_them() {
    let sink = Sink::default();
    let mut uci = Uci::new(sink.clone());
    uci.handle_line("uci");
    let lines = sink.lines();
    for option in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option} missing");
    }
}

#[test]
fn uci_reports_bad_syzygy_settings_and_keeps_going() {
    let sink = Sink::default();
    let mut uci = Uci::new(sink.clone());
    let missing = "/nonexistent/syzygy/dir";
    let cases = [
        (
            format!("setoption name SyzygyPath value {missing}"),
            vec![
                "info string SyzygyPath: /nonexistent/syzygy/dir left out",
                "info string SyzygyPath: no tables found",
            ],
        ),
        (
            format!("setoption name SyzygyPath value {missing}:{TABLES}"),
            vec![
                "info string SyzygyPath: /nonexistent/syzygy/dir left out",
                "info string SyzygyPath: 35 tables found, up to 4 men",
            ],
        ),
        (
            "setoption name SyzygyProbeDepth value 0".to_string(),
            vec!["info string SyzygyProbeDepth: value 0 out of range 1..=100; unchanged"],
        ),
        (
            "setoption name SyzygyProbeLimit value 8".to_string(),
            vec!["info string SyzygyProbeLimit: value 8 out of range 0..=7; unchanged"],
        ),
        (
            "setoption name SyzygyProbeLimit value four".to_string(),
            vec!["info string SyzygyProbeLimit: value 'four' is not a number; unchanged"],
        ),
        (
            "setoption name Syzygy50MoveRule value maybe".to_string(),
            vec!["info string Syzygy50MoveRule: value must be true or false; unchanged"],
        ),
        (
            "setoption name SyzygyPath value <empty>".to_string(),
            vec!["info string SyzygyPath: no tables"],
        ),
    ];
    for (command, expected) in cases {
        sink.clear();
        uci.handle_line(&command);
        let lines = sink.lines();
        assert_eq!(lines.len(), expected.len(), "{command}: {lines:?}");
        for (line, prefix) in lines.iter().zip(expected) {
            assert!(line.starts_with(prefix), "{command}: {line}");
        }
    }
    // Good values say nothing.
    for command in [
        "setoption name SyzygyProbeDepth value 3",
        "setoption name SyzygyProbeLimit value 0",
        "setoption name Syzygy50MoveRule value false",
    ] {
        sink.clear();
        uci.handle_line(command);
        assert_eq!(sink.lines(), Vec::<String>::new(), "{command}");
    }
    // The session still searches.
    uci.handle_line("position startpos");
    uci.handle_line("go depth 2");
    assert!(sink.wait_for("bestmove", Duration::from_secs(20)).is_some());
}

#[test]
fn uci_search_with_tables_reports_tbhits_and_a_tablebase_score() {
    let tb = tables();
    let sink = Sink::default();
    let mut uci = Uci::new(sink.clone());
    uci.handle_line(&format!("setoption name SyzygyPath value {TABLES}"));
    let fen = "8/8/3k4/8/8/8/8/R3K3 w - - 0 1";
    uci.handle_line(&format!("position fen {fen}"));
    sink.clear();
    uci.handle_line("go nodes 5000");
    let best = sink.wait_for("bestmove", Duration::from_secs(30)).unwrap();
    let lines = sink.lines();
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let tbhits: u64 = field(info, "tbhits").unwrap().parse().unwrap();
    assert!(tbhits > 0, "{info}");
    assert_eq!(field(info, "score"), Some("cp"), "{info}");
    let cp: i32 = field(info, "cp").unwrap().parse().unwrap();
    assert_eq!(cp, TB_WIN_CP, "{info}");
    let pos = position(fen);
    let m = shatranj_chess::uci::parse_uci(&pos, field(&best, "bestmove").unwrap()).unwrap();
    assert_eq!(wdl_after(&tb, &pos, m), Wdl::Win);

    // Without tables the same search probes nothing.
    uci.handle_line("setoption name SyzygyPath value <empty>");
    sink.clear();
    uci.handle_line("go nodes 5000");
    sink.wait_for("bestmove", Duration::from_secs(30)).unwrap();
    let lines = sink.lines();
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert_eq!(field(info, "tbhits"), Some("0"), "{info}");
}

#[test]
fn a_path_list_keeps_the_directories_that_can_be_read() {
    let opened = open_path_list(&format!("/nonexistent:{TABLES}:"));
    assert_eq!(opened.failures.len(), 1);
    assert!(opened.failures[0].0.ends_with("nonexistent"));
    assert_eq!(opened.tables.unwrap().max_pieces(), 4);
    let none = open_path_list("<empty>");
    assert!(none.tables.is_none() && none.failures.is_empty());
}

//! The tune build (`--features tune`): the search's tunables as UCI options. The values are
//! process-wide, so everything that sets them is one test in a test binary of its own.
#![cfg(feature = "tune")]

use shatranj_engine::search::params::{LMR_BASE_PERCENT, RFP_MARGIN, TUNABLES};
use shatranj_engine::uci::Uci;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
}

/// The node count of a fixed-depth search from a fresh game.
fn nodes(uci: &mut Uci<Sink>, out: &Sink) -> u64 {
    out.clear();
    uci.handle_line("ucinewgame");
    uci.handle_line("position fen r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16");
    uci.handle_line("go depth 8");
    let start = Instant::now();
    while !out.lines().iter().any(|l| l.starts_with("bestmove")) {
        assert!(start.elapsed() < Duration::from_secs(120), "no bestmove");
        std::thread::sleep(Duration::from_millis(2));
    }
    let last = out
        .lines()
        .into_iter()
        .rfind(|l| l.starts_with("info depth"))
        .unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "nodes").unwrap();
    words[at + 1].parse().unwrap()
}

#[test]
fn tunables_are_uci_options_the_search_reads() {
    let out = Sink::default();
    let mut uci = Uci::new(out.clone());
    uci.handle_line("uci");
    let lines = out.lines();
    for t in TUNABLES {
        assert!(lines.contains(&t.uci_option()), "{} not announced", t.name);
    }
    assert_eq!(lines.last().unwrap(), "uciok");
    out.clear();
    uci.handle_line("spsa");
    let spsa = out.lines();
    assert_eq!(spsa.len(), TUNABLES.len());
    assert!(spsa.contains(&"RFP_MARGIN, int, 58, 30, 150, 8, 0.002".to_owned()));

    // Set (the name in any case), refused out of range or not a number, value unchanged.
    uci.handle_line("setoption name rfp_margin value 90");
    assert_eq!(RFP_MARGIN.get(), 90);
    out.clear();
    uci.handle_line("setoption name RFP_MARGIN value 151");
    uci.handle_line("setoption name RFP_MARGIN value many");
    let said = out.lines();
    assert!(said[0].contains("out of range 30..=150"), "{said:?}");
    assert!(said[1].contains("not a number"), "{said:?}");
    assert_eq!(RFP_MARGIN.get(), 90);
    uci.handle_line("setoption name RFP_MARGIN value 75");

    // The LMR table is rebuilt from its parameters by the next search: another value
    // changes the tree, and the default gives the first tree back.
    let default = nodes(&mut uci, &out);
    uci.handle_line("setoption name LMR_BASE_PERCENT value 150");
    assert_eq!(LMR_BASE_PERCENT.get(), 150);
    let reduced_more = nodes(&mut uci, &out);
    uci.handle_line(&format!(
        "setoption name LMR_BASE_PERCENT value {}",
        LMR_BASE_PERCENT.default
    ));
    let again = nodes(&mut uci, &out);
    println!("nodes at depth 8: {default} default, {reduced_more} with LMR base 150");
    assert_ne!(default, reduced_more);
    assert_eq!(default, again);
}

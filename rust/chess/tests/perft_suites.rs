//! Perft node counts against the reference data in `data/perft/` (see its README.md): the
//! classic perftsuite.epd, Marcel van Kervinck's 6,838 random positions, shakmaty's tricky
//! positions and Stockfish's deep.txt.
//!
//! * `cargo test` (debug): every position to a shallow depth, split over the cores.
//! * `cargo test --release -- --ignored`: deep.txt, the whole perftsuite and tricky set,
//!   depths 4 and 5 of every random position and depth 6 of every 20th (see the constants).
//!
//! Chess960 data is skipped by name until Chess960 castling exists: `chess960.perft`, ids
//! starting `xfen-` and three more Chess960 castling ids of tricky.perft (`CHESS960_IDS`),
//! and deep.txt lines whose last field is `true`. Every test prints how many
//! positions it skipped. On a mismatch the failure message has the FEN, the depth, both
//! counts and shatranj's divide; when Stockfish is found (see `support/stockfish.rs`) also the
//! smallest subtree where the two disagree.

#[path = "support/stockfish.rs"]
mod stockfish;

use shatranj_chess::Position;
use shatranj_chess::perft::{PerftMonitor, PerftOptions, divide, perft, perft_with};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The repository's `data/perft` (facts copied in with their sources; see its README.md).
const DATA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/perft");

/// Positions in each file (after skipping), so that a parsing slip cannot shrink a suite.
const PERFTSUITE_POSITIONS: usize = 126;
const RANDOM_POSITIONS: usize = 6_838;
const TRICKY_POSITIONS: usize = 18;

/// Chess960 castling cases in tricky.perft whose ids lack the `xfen-` prefix: a Shredder-FEN
/// castling field (`Ff`), and castling rights for kings off the e-file.
const CHESS960_IDS: [&str; 3] = [
    "hside-rook-blocks-aside-castling",
    "two-knight-checkers",
    "asymmetrical-and-king-on-h",
];
const DEEP_POSITIONS: usize = 7;

/// Debug runs check every listed depth whose expected count is at most this (depth 1 always).
const SHALLOW_NODE_CAP: u64 = 5_000_000;
/// Debug runs check the random set to this depth (all 6,838 positions: 1.4e8 nodes at depth 3)
const RANDOM_SHALLOW_DEPTH: u32 = 3;
/// and one depth more for positions whose index is a multiple of this (1: all of them,
/// 4.1e9 nodes; about 6 s at the dev profile's opt-level 1 on 2 idle cores, 30 s loaded).
const RANDOM_SHALLOW_EXTRA_STRIDE: usize = 1;
/// Depth 6 of the random set is checked for positions whose index is a multiple of this
/// (342 positions, 2.1e11 nodes; 2 to 3 minutes on 2 cores with threads=2 and a 64 MiB table).
const RANDOM_DEPTH6_STRIDE: usize = 20;
/// Table size for the deep counts. Each `perft_with` call allocates and zeroes its own table,
/// so larger tables cost more than they save at these depths (256 MiB was ~2x slower).
const DEEP_HASH_MB: usize = 64;
/// In the deep perftsuite run, counts at least this big use 2 threads and a table; smaller ones
/// run plainly, one position per core.
const BIG_COUNT: u64 = 50_000_000;

/// Ignored (deep) tests take both cores each; run them one at a time.
static HEAVY: Mutex<()> = Mutex::new(());

struct Case {
    file: &'static str,
    id: String,
    fen: String,
    /// (depth, expected leaf count), as listed.
    counts: Vec<(u32, u64)>,
}

impl Case {
    fn position(&self) -> Position {
        Position::from_fen(&self.fen).unwrap_or_else(|e| {
            panic!(
                "{} {}: cannot parse {:?}: {e}",
                self.file, self.id, self.fen
            )
        })
    }
}

struct Suite {
    cases: Vec<Case>,
    /// Ids (or lines) skipped as Chess960.
    skipped: Vec<String>,
}

fn read(name: &str) -> String {
    let path = format!("{DATA_DIR}/{name}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {path}: {e}. The perft data lives in data/perft at the repository root."
        )
    })
}

/// `FEN ;D1 n ;D2 n …` with CRLF line ends.
fn load_perftsuite() -> Suite {
    let mut cases = Vec::new();
    for (i, line) in read("perftsuite.epd").lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';');
        let fen = fields.next().unwrap().trim().to_owned();
        let counts = fields
            .map(|f| {
                let (d, n) = f
                    .trim()
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("perftsuite.epd:{}: bad field {f:?}", i + 1));
                let d = d
                    .strip_prefix('D')
                    .unwrap_or_else(|| panic!("perftsuite.epd:{}: bad depth {d:?}", i + 1));
                (d.parse().unwrap(), n.trim().parse().unwrap())
            })
            .collect();
        cases.push(Case {
            file: "perftsuite.epd",
            id: format!("line {}", i + 1),
            fen,
            counts,
        });
    }
    Suite {
        cases,
        skipped: Vec::new(),
    }
}

/// `id NAME` / `epd FEN` / `perft DEPTH NODES` blocks; ids starting `xfen-` are Chess960.
fn load_blocks(file: &'static str) -> Suite {
    let mut suite = Suite {
        cases: Vec::new(),
        skipped: Vec::new(),
    };
    let mut skipping = false;
    for (i, line) in read(file).lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match key {
            "id" => {
                skipping = rest.starts_with("xfen-") || CHESS960_IDS.contains(&rest);
                if skipping {
                    suite.skipped.push(rest.to_owned());
                } else {
                    suite.cases.push(Case {
                        file,
                        id: rest.to_owned(),
                        fen: String::new(),
                        counts: Vec::new(),
                    });
                }
            }
            _ if skipping => {}
            "epd" => {
                suite
                    .cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("{file}:{}: epd before id", i + 1))
                    .fen = rest.to_owned()
            }
            "perft" => {
                let (d, n) = rest
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("{file}:{}: bad perft line", i + 1));
                let case = suite
                    .cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("{file}:{}: perft before id", i + 1));
                case.counts
                    .push((d.parse().unwrap(), n.trim().parse().unwrap()));
            }
            _ => panic!("{file}:{}: unexpected line {line:?}", i + 1),
        }
    }
    for c in &suite.cases {
        assert!(
            !c.fen.is_empty() && !c.counts.is_empty(),
            "{file} {}: no epd or no perft lines",
            c.id
        );
    }
    suite
}

/// `fen-or-startpos ; depth ; nodes ; chess960`.
fn load_deep() -> Suite {
    let mut suite = Suite {
        cases: Vec::new(),
        skipped: Vec::new(),
    };
    for (i, line) in read("deep.txt").lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(
            fields.len(),
            4,
            "deep.txt:{}: expected 4 fields in {line:?}",
            i + 1
        );
        let id = format!("line {}", i + 1);
        match fields[3] {
            "true" => {
                suite.skipped.push(id);
                continue;
            }
            "false" => {}
            other => panic!("deep.txt:{}: chess960 field {other:?}", i + 1),
        }
        let fen = if fields[0] == "startpos" {
            Position::new().fen()
        } else {
            fields[0].to_owned()
        };
        suite.cases.push(Case {
            file: "deep.txt",
            id,
            fen,
            counts: vec![(fields[1].parse().unwrap(), fields[2].parse().unwrap())],
        });
    }
    suite
}

/// chess960.perft is skipped as a whole; the number of positions in it.
fn chess960_file_positions() -> usize {
    read("chess960.perft")
        .lines()
        .filter(|l| l.trim_start().starts_with("id "))
        .count()
}

fn report_skips(what: &str, suite: &Suite) {
    println!(
        "{what}: {} positions, {} skipped as Chess960 (by name)",
        suite.cases.len(),
        suite.skipped.len()
    );
}

/// How to count.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// `perft`, one thread, no table; positions are split over the cores.
    Plain,
    /// `perft_with` with these options; with one thread, positions are split over the cores,
    /// otherwise they run one after another.
    With { threads: usize, hash_mb: usize },
}

struct Job<'a> {
    case: &'a Case,
    depth: u32,
    expected: u64,
}

fn count(pos: &Position, depth: u32, mode: Mode) -> u64 {
    match mode {
        Mode::Plain => perft(pos, depth),
        Mode::With { threads, hash_mb } => perft_with(
            pos,
            depth,
            &PerftOptions { threads, hash_mb },
            &PerftMonitor::new(),
        )
        .expect("perft_with failed"),
    }
}

/// A failure message: the position, both counts, our divide, and Stockfish's view if found.
fn explain(job: &Job, mode: Mode, actual: u64) -> String {
    let pos = job.case.position();
    let mut msg = format!(
        "MISMATCH {} {}: perft {} of {}\n  expected {}, shatranj {} ({mode:?})\n",
        job.case.file, job.case.id, job.depth, job.case.fen, job.expected, actual
    );
    if job.depth <= 7 {
        let split = divide(
            &pos,
            job.depth,
            &PerftOptions::default(),
            &PerftMonitor::new(),
        )
        .expect("divide failed");
        let sum: u64 = split.iter().map(|(_, n)| n).sum();
        msg.push_str(&format!(
            "  shatranj divide (one thread, no table; total {sum}):\n"
        ));
        let mut lines: Vec<String> = split.iter().map(|(m, n)| format!("    {m}: {n}")).collect();
        lines.sort();
        msg.push_str(&lines.join("\n"));
        msg.push('\n');
    }
    match stockfish::find().map(stockfish::Stockfish::start) {
        Some(Ok(mut sf)) if job.depth <= 6 => match stockfish::localise(&mut sf, &pos, job.depth) {
            Ok(r) => msg.push_str(&format!("  vs {}: {r}\n", sf.id)),
            Err(e) => msg.push_str(&format!("  (stockfish comparison failed: {e})\n")),
        },
        Some(Err(e)) => msg.push_str(&format!("  ({e})\n")),
        _ => {}
    }
    msg
}

/// Runs the jobs; returns the nodes counted and the failure messages.
fn run(jobs: &[Job], mode: Mode) -> (u64, Vec<String>) {
    let workers = match mode {
        Mode::Plain => std::thread::available_parallelism().map_or(2, |n| n.get()),
        Mode::With { threads: 1, .. } => {
            std::thread::available_parallelism().map_or(2, |n| n.get())
        }
        Mode::With { .. } => 1,
    };
    let next = AtomicUsize::new(0);
    let results: Mutex<(u64, Vec<String>)> = Mutex::new((0, Vec::new()));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    let actual = count(&job.case.position(), job.depth, mode);
                    let failure = (actual != job.expected).then(|| explain(job, mode, actual));
                    let mut r = results.lock().unwrap();
                    r.0 += actual;
                    if let Some(f) = failure {
                        eprintln!("{f}");
                        r.1.push(f);
                    }
                }
            });
        }
    });
    results.into_inner().unwrap()
}

/// Runs the jobs, prints a summary line, and panics with every failure.
fn check(what: &str, jobs: &[Job], mode: Mode) {
    let start = Instant::now();
    let (nodes, failures) = run(jobs, mode);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{what}: {} counts, {nodes} nodes in {secs:.1} s ({:.1} Mnps), {mode:?}",
        jobs.len(),
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    if !failures.is_empty() {
        let shown: Vec<&str> = failures.iter().take(10).map(String::as_str).collect();
        panic!(
            "{what}: {} of {} counts wrong; the first:\n{}",
            failures.len(),
            jobs.len(),
            shown.join("\n")
        );
    }
}

/// Every listed depth up to `max_depth` whose expected count is at most `cap`; depth 1 always.
fn jobs<'a>(suite: &'a Suite, max_depth: u32, cap: u64) -> Vec<Job<'a>> {
    suite
        .cases
        .iter()
        .flat_map(|case| {
            case.counts
                .iter()
                .filter(move |&&(d, n)| d <= max_depth && (d == 1 || n <= cap))
                .map(move |&(depth, expected)| Job {
                    case,
                    depth,
                    expected,
                })
        })
        .collect()
}

/// Depth 1 against the full move list too (perft counts the last ply without listing it).
fn check_move_lists(suite: &Suite) {
    let mut bad = Vec::new();
    for case in &suite.cases {
        if let Some(&(_, n)) = case.counts.iter().find(|(d, _)| *d == 1) {
            let pos = case.position();
            let listed = pos.legal_moves().len() as u64;
            if listed != n || pos.count_legal_moves() as u64 != n {
                bad.push(format!(
                    "{} {}: {} has {n} legal moves; legal_moves() lists {listed}, count_legal_moves() says {}",
                    case.file,
                    case.id,
                    case.fen,
                    pos.count_legal_moves()
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "move lists disagree with perft 1:\n{}",
        bad.join("\n")
    );
}

// ----- debug (shallow) tests --------------------------------------------------------------

#[test]
fn skips_are_by_name_and_counted() {
    let suite = load_perftsuite();
    report_skips("perftsuite.epd", &suite);
    assert_eq!(suite.cases.len(), PERFTSUITE_POSITIONS);
    let random = load_blocks("random.perft");
    report_skips("random.perft", &random);
    assert_eq!(random.cases.len(), RANDOM_POSITIONS);
    assert!(
        random
            .cases
            .iter()
            .all(|c| c.counts.iter().map(|&(d, _)| d).eq(1..=6)),
        "random.perft: depths 1..=6 expected"
    );
    let tricky = load_blocks("tricky.perft");
    report_skips("tricky.perft", &tricky);
    println!("tricky.perft skipped ids: {}", tricky.skipped.join(", "));
    assert_eq!(tricky.cases.len(), TRICKY_POSITIONS);
    assert_eq!(tricky.skipped.len(), 8);
    assert_eq!(
        tricky
            .skipped
            .iter()
            .filter(|id| id.starts_with("xfen-"))
            .count(),
        5
    );
    let deep = load_deep();
    report_skips("deep.txt", &deep);
    assert_eq!(deep.cases.len(), DEEP_POSITIONS);
    assert_eq!(deep.skipped.len(), 13);
    let n960 = chess960_file_positions();
    println!("chess960.perft: {n960} positions, all skipped (Chess960)");
    assert_eq!(n960, 960);
}

#[test]
fn perftsuite_shallow() {
    let suite = load_perftsuite();
    report_skips("perftsuite.epd", &suite);
    check_move_lists(&suite);
    let jobs = jobs(&suite, 6, SHALLOW_NODE_CAP);
    check("perftsuite.epd shallow", &jobs, Mode::Plain);
    // The table path (incremental keys, probes at depth >= 2) on the deepest shallow count.
    let deepest: Vec<Job> = suite
        .cases
        .iter()
        .filter_map(|case| {
            let &(depth, expected) = case
                .counts
                .iter()
                .rfind(|&&(d, n)| d == 1 || n <= SHALLOW_NODE_CAP)?;
            Some(Job {
                case,
                depth,
                expected,
            })
        })
        .collect();
    check(
        "perftsuite.epd shallow, with table",
        &deepest,
        Mode::With {
            threads: 1,
            hash_mb: 1,
        },
    );
}

#[test]
fn tricky_shallow() {
    let suite = load_blocks("tricky.perft");
    report_skips("tricky.perft", &suite);
    // The whole file is small (3.7e6 nodes): every listed depth, both ways.
    let jobs = jobs(&suite, 99, u64::MAX);
    check("tricky.perft", &jobs, Mode::Plain);
    check(
        "tricky.perft, with table",
        &jobs,
        Mode::With {
            threads: 1,
            hash_mb: 1,
        },
    );
}

/// Includes `max-legals-too-much-material` (270 legal moves; a FEN the parser accepts).
#[test]
fn tricky_move_lists() {
    check_move_lists(&load_blocks("tricky.perft"));
}

#[test]
fn random_shallow() {
    let suite = load_blocks("random.perft");
    report_skips("random.perft", &suite);
    check_move_lists(&suite);
    let mut jobs = jobs(&suite, RANDOM_SHALLOW_DEPTH, u64::MAX);
    let extra = RANDOM_SHALLOW_DEPTH + 1;
    for case in suite.cases.iter().step_by(RANDOM_SHALLOW_EXTRA_STRIDE) {
        let &(depth, expected) = case
            .counts
            .iter()
            .find(|&&(d, _)| d == extra)
            .expect("depth missing");
        jobs.push(Job {
            case,
            depth,
            expected,
        });
    }
    // The deeper jobs first, so that the two workers finish together.
    jobs.reverse();
    check(
        &format!(
            "random.perft depths 1..={RANDOM_SHALLOW_DEPTH}, and {extra} for one position in {RANDOM_SHALLOW_EXTRA_STRIDE}"
        ),
        &jobs,
        Mode::Plain,
    );
}

// ----- release (deep, ignored) tests ------------------------------------------------------

fn heavy() -> std::sync::MutexGuard<'static, ()> {
    HEAVY.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
#[ignore = "deep: run with cargo test --release -- --ignored"]
fn deep_txt() {
    let _g = heavy();
    let suite = load_deep();
    report_skips("deep.txt", &suite);
    let jobs = jobs(&suite, 99, u64::MAX);
    check(
        "deep.txt",
        &jobs,
        Mode::With {
            threads: 2,
            hash_mb: DEEP_HASH_MB,
        },
    );
}

#[test]
#[ignore = "deep: run with cargo test --release -- --ignored"]
fn perftsuite_and_tricky_all_depths() {
    let _g = heavy();
    let suite = load_perftsuite();
    report_skips("perftsuite.epd", &suite);
    let (big, small): (Vec<Job>, Vec<Job>) = jobs(&suite, 99, u64::MAX)
        .into_iter()
        .partition(|j| j.expected >= BIG_COUNT);
    check(
        "perftsuite.epd all depths, small counts",
        &small,
        Mode::Plain,
    );
    check(
        "perftsuite.epd all depths, big counts",
        &big,
        Mode::With {
            threads: 2,
            hash_mb: DEEP_HASH_MB,
        },
    );
    let tricky = load_blocks("tricky.perft");
    report_skips("tricky.perft", &tricky);
    check(
        "tricky.perft all depths, 2 threads",
        &jobs(&tricky, 99, u64::MAX),
        Mode::With {
            threads: 2,
            hash_mb: 1,
        },
    );
}

#[test]
#[ignore = "deep: run with cargo test --release -- --ignored"]
fn random_depth5_all() {
    let _g = heavy();
    let suite = load_blocks("random.perft");
    report_skips("random.perft", &suite);
    let (d5, d4): (Vec<Job>, Vec<Job>) = jobs(&suite, 5, u64::MAX)
        .into_iter()
        .filter(|j| j.depth >= 4)
        .partition(|j| j.depth == 5);
    check("random.perft depth 4, all positions", &d4, Mode::Plain);
    // A small table per call: measured fastest (2 MiB: 4.6 s, 4 MiB: 4.9 s, 8 MiB: 5.4 s,
    // none: 6.8 s for every 20th position).
    check(
        "random.perft depth 5, all positions",
        &d5,
        Mode::With {
            threads: 1,
            hash_mb: 2,
        },
    );
}

#[test]
#[ignore = "deep: run with cargo test --release -- --ignored"]
fn random_depth6_subset() {
    let _g = heavy();
    let suite = load_blocks("random.perft");
    report_skips("random.perft", &suite);
    let picked = Suite {
        cases: suite
            .cases
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % RANDOM_DEPTH6_STRIDE == 0)
            .map(|(_, c)| Case {
                counts: c.counts.into_iter().filter(|&(d, _)| d == 6).collect(),
                ..c
            })
            .collect(),
        skipped: Vec::new(),
    };
    println!(
        "random.perft depth 6: every {RANDOM_DEPTH6_STRIDE}th position, {} positions",
        picked.cases.len()
    );
    check(
        "random.perft depth 6 subset",
        &jobs(&picked, 6, u64::MAX),
        Mode::With {
            threads: 2,
            hash_mb: DEEP_HASH_MB,
        },
    );
}

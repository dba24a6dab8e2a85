//! Perft node counts against the reference data in `data/perft/` (see its README.md): the
//! classic perftsuite.epd, Marcel van Kervinck's 6,838 random positions, shakmaty's tricky
//! positions and Stockfish's deep.txt.
//!
//! * `cargo test` (debug): every position to a shallow depth, split over the cores.
//! * `cargo test --release -- --ignored`: deep.txt, the whole perftsuite and tricky set,
//!   depths 4 and 5 of every random position and depth 6 of every 20th (see the constants).
//!
//! Chess960 positions (`chess960.perft`, tricky.perft's ids starting `xfen-` and three more
//! in `support/perft_data.rs`, deep.txt lines whose last field is `true`) are read with Chess960
//! castling (X-FEN and Shredder-FEN); every test prints how many of its positions are
//! Chess960. On a mismatch the failure message has the FEN, the depth, both
//! counts and shatranj's divide; when Stockfish is found (see `support/stockfish.rs`) also the
//! smallest subtree where the two disagree.

#[path = "support/perft_data.rs"]
mod perft_data;
#[path = "support/stockfish.rs"]
mod stockfish;

use perft_data::{Case, Suite, load_blocks, load_deep, load_perftsuite};
use shatranj_chess::fen::{EnPassantMode, to_shredder_fen};
use shatranj_chess::perft::{PerftMonitor, PerftOptions, divide, perft, perft_with};
use shatranj_chess::{CastlingMode, Position};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Positions in each file, so that a parsing slip cannot shrink a suite.
const PERFTSUITE_POSITIONS: usize = 126;
const RANDOM_POSITIONS: usize = 6_838;
const TRICKY_POSITIONS: usize = 26;
const CHESS960_POSITIONS: usize = 960;

const DEEP_POSITIONS: usize = 20;
/// Debug runs check chess960.perft to this depth (1.5e7 nodes), and one depth more for
/// every position whose index is a multiple of `CHESS960_SHALLOW_EXTRA_STRIDE`.
const CHESS960_SHALLOW_DEPTH: u32 = 3;
const CHESS960_SHALLOW_EXTRA_STRIDE: usize = 4;
/// The deep run checks chess960.perft to depth 4 (4.6e8 nodes), and depth 5 for every
/// position whose index is a multiple of this.
const CHESS960_DEPTH5_STRIDE: usize = 8;

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
/// deep.txt's Chess960 counts above this are left out of the deep run (8.7e9 nodes in all,
/// mostly in three counts above 1e9).
const DEEP_CHESS960_CAP: u64 = 1_000_000_000;
/// Table size for the deep counts. Each `perft_with` call allocates and zeroes its own table,
/// so larger tables cost more than they save at these depths (256 MiB was ~2x slower).
const DEEP_HASH_MB: usize = 64;
/// In the deep perftsuite run, counts at least this big use 2 threads and a table; smaller ones
/// run plainly, one position per core.
const BIG_COUNT: u64 = 50_000_000;

/// Ignored (deep) tests take both cores each; run them one at a time.
static HEAVY: Mutex<()> = Mutex::new(());

fn report(what: &str, suite: &Suite) {
    println!(
        "{what}: {} positions, {} of them Chess960",
        suite.cases.len(),
        suite.chess960_count()
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
        Mode::Plain => std::thread::available_parallelism().map_or(2, std::num::NonZero::get),
        Mode::With { threads: 1, .. } => {
            std::thread::available_parallelism().map_or(2, std::num::NonZero::get)
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
fn jobs(suite: &Suite, max_depth: u32, cap: u64) -> Vec<Job<'_>> {
    jobs_where(suite, |_, d, n| d <= max_depth && (d == 1 || n <= cap))
}

/// Every position to `depth`, and one depth more for every `stride`th position; the deeper
/// jobs first, so that the workers finish together.
fn shallow_jobs(suite: &Suite, depth: u32, stride: usize) -> Vec<Job<'_>> {
    let mut jobs = jobs(suite, depth, u64::MAX);
    for case in suite.cases.iter().step_by(stride) {
        let &(depth, expected) = case
            .counts
            .iter()
            .find(|&&(d, _)| d == depth + 1)
            .expect("depth missing");
        jobs.push(Job {
            case,
            depth,
            expected,
        });
    }
    jobs.reverse();
    jobs
}

/// The listed counts `keep(case, depth, nodes)` accepts.
fn jobs_where(suite: &Suite, keep: impl Fn(&Case, u32, u64) -> bool) -> Vec<Job<'_>> {
    suite
        .cases
        .iter()
        .flat_map(|case| {
            case.counts
                .iter()
                .filter(|&&(d, n)| keep(case, d, n))
                .map(move |&(depth, expected)| Job {
                    case,
                    depth,
                    expected,
                })
        })
        .collect()
}

/// Depth 1 against the full move list too (perft counts the last ply without listing it),
/// and each listed move's `gives_check` (answered without playing the move) against the
/// position after it.
fn check_move_lists(suite: &Suite) {
    let mut bad = Vec::new();
    for case in &suite.cases {
        let pos = case.position();
        for &m in &pos.legal_moves() {
            let after = pos.after(m).unwrap();
            if pos.gives_check(m) != after.is_check() {
                bad.push(format!(
                    "{} {}: {} gives_check({m}) says {}",
                    case.file,
                    case.id,
                    case.fen,
                    pos.gives_check(m)
                ));
            }
        }
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
fn every_file_is_read_whole() {
    let suite = load_perftsuite();
    report("perftsuite.epd", &suite);
    assert_eq!(suite.cases.len(), PERFTSUITE_POSITIONS);
    let random = load_blocks("random.perft");
    report("random.perft", &random);
    assert_eq!(random.cases.len(), RANDOM_POSITIONS);
    assert!(
        random
            .cases
            .iter()
            .all(|c| c.counts.iter().map(|&(d, _)| d).eq(1..=6)),
        "random.perft: depths 1..=6 expected"
    );
    let tricky = load_blocks("tricky.perft");
    report("tricky.perft", &tricky);
    assert_eq!(tricky.cases.len(), TRICKY_POSITIONS);
    assert_eq!(tricky.chess960_count(), 8);
    assert_eq!(
        tricky
            .cases
            .iter()
            .filter(|c| c.id.starts_with("xfen-"))
            .count(),
        5
    );
    let deep = load_deep();
    report("deep.txt", &deep);
    assert_eq!(deep.cases.len(), DEEP_POSITIONS);
    assert_eq!(deep.chess960_count(), 13);
    let c960 = load_blocks("chess960.perft");
    report("chess960.perft", &c960);
    assert_eq!(c960.cases.len(), CHESS960_POSITIONS);
    assert_eq!(c960.chess960_count(), CHESS960_POSITIONS);
}

/// Every Chess960 position of the suites is read, written back in Shredder-FEN as the file
/// has it, and read again from its X-FEN as the same position; most hold rights that
/// standard chess does not have (so the Chess960 paths are what the counts test).
#[test]
fn chess960_fens_round_trip() {
    let mut non_standard = 0;
    let mut total = 0;
    for suite in [
        load_blocks("chess960.perft"),
        load_blocks("tricky.perft"),
        load_deep(),
    ] {
        for case in suite.cases.iter().filter(|c| c.chess960) {
            let pos = case.position();
            total += 1;
            non_standard += usize::from(!pos.castling_rights().is_standard());
            let xfen = pos.fen();
            let again =
                Position::from_fen_with(&xfen, CastlingMode::Chess960).unwrap_or_else(|e| {
                    panic!("{} {}: X-FEN {xfen:?} refused: {e}", case.file, case.id)
                });
            assert_eq!(again, pos, "{} {}: X-FEN {xfen}", case.file, case.id);
            let shredder = to_shredder_fen(&pos, EnPassantMode::Always);
            let again = Position::from_fen_with(&shredder, CastlingMode::Chess960).unwrap();
            assert_eq!(
                again, pos,
                "{} {}: Shredder-FEN {shredder}",
                case.file, case.id
            );
            if case.file == "chess960.perft" {
                assert_eq!(shredder, case.fen, "{}", case.id);
            }
        }
    }
    println!("{total} Chess960 positions, {non_standard} with rights standard chess lacks");
    assert_eq!(total, CHESS960_POSITIONS + 8 + 13);
    assert!(non_standard > 900, "{non_standard}");
}

#[test]
fn chess960_shallow() {
    let suite = load_blocks("chess960.perft");
    check_move_lists(&suite);
    let jobs = shallow_jobs(
        &suite,
        CHESS960_SHALLOW_DEPTH,
        CHESS960_SHALLOW_EXTRA_STRIDE,
    );
    let extra = CHESS960_SHALLOW_DEPTH + 1;
    check(
        &format!(
            "chess960.perft depths 1..={CHESS960_SHALLOW_DEPTH}, and {extra} for one position in {CHESS960_SHALLOW_EXTRA_STRIDE}"
        ),
        &jobs,
        Mode::Plain,
    );
    // deep.txt's small Chess960 counts too.
    let deep = load_deep();
    let small: Vec<Job> = jobs_where(&deep, |c, _, n| c.chess960 && n <= SHALLOW_NODE_CAP);
    assert!(!small.is_empty());
    check("deep.txt small Chess960 counts", &small, Mode::Plain);
}

#[test]
fn perftsuite_shallow() {
    let suite = load_perftsuite();
    report("perftsuite.epd", &suite);
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
    report("tricky.perft", &suite);
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
    report("random.perft", &suite);
    check_move_lists(&suite);
    let jobs = shallow_jobs(&suite, RANDOM_SHALLOW_DEPTH, RANDOM_SHALLOW_EXTRA_STRIDE);
    let extra = RANDOM_SHALLOW_DEPTH + 1;
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
    HEAVY
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[test]
#[ignore = "deep: run with cargo test --release -- --ignored"]
fn deep_txt() {
    let _g = heavy();
    let suite = load_deep();
    report("deep.txt", &suite);
    let jobs = jobs_where(&suite, |c, _, n| !c.chess960 || n <= DEEP_CHESS960_CAP);
    check(
        "deep.txt (Chess960 counts up to DEEP_CHESS960_CAP)",
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
    report("perftsuite.epd", &suite);
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
    report("tricky.perft", &tricky);
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
fn chess960_depth4_all_depth5_subset() {
    let _g = heavy();
    let suite = load_blocks("chess960.perft");
    report("chess960.perft", &suite);
    let d4 = jobs_where(&suite, |_, d, _| d == 4);
    check("chess960.perft depth 4, all positions", &d4, Mode::Plain);
    let d5: Vec<Job> = jobs_where(&suite, |_, d, _| d == 5)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % CHESS960_DEPTH5_STRIDE == 0)
        .map(|(_, j)| j)
        .collect();
    check(
        &format!("chess960.perft depth 5, every {CHESS960_DEPTH5_STRIDE}th position"),
        &d5,
        Mode::With {
            threads: 1,
            hash_mb: 2,
        },
    );
}

#[test]
#[ignore = "deep: run with cargo test --release -- --ignored"]
fn random_depth5_all() {
    let _g = heavy();
    let suite = load_blocks("random.perft");
    report("random.perft", &suite);
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
    report("random.perft", &suite);
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

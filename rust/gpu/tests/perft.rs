//! GPU perft against the reference counts in `data/perft/` and against the CPU perft: every
//! position of perftsuite.epd and tricky.perft (its Chess960 cases included), a seeded sample
//! of chess960.perft on both bitboard representations, a seeded sample of random.perft, 300 positions from seeded random playouts, the divide split, both bitboard
//! representations, batches split because they do not fit, interruption, and the counters
//! (submits, leaves per submit, bytes each way, no buffer created after start-up); the hash
//! table with a tiny table (collisions and replacements) on both representations, its probe
//! and hit counters, and entries written by the host that the shader must accept (whole) or
//! reject (torn).
//!
//! Depths are chosen for lavapipe (Mesa's software Vulkan) in a debug build on two cores;
//! without an adapter each test is skipped, or fails when `SHATRANJ_REQUIRE_GPU=1`.

#[path = "support/common.rs"]
mod common;
#[path = "../../chess/tests/support/perft_data.rs"]
mod perft_data;

use common::Rng;
use perft_data::{Case, load_blocks, load_perftsuite};
use shatranj_chess::perft::{PerftMonitor, PerftOptions, divide, perft};
use shatranj_chess::{Move, Position};
use shatranj_gpu::perft::{
    Bitboards, GpuPerft, GpuPerftError, GpuPerftSettings, GpuPosition, table,
};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

/// Reference counts up to this many leaves are checked (depth 1 always).
const NODE_CAP: u64 = 300_000;
/// random.perft positions checked (a seeded sample of the 6,838), to depth 3.
const RANDOM_SAMPLE: usize = 150;
const RANDOM_DEPTH: u32 = 3;
/// Random playouts checked against the CPU perft at depths 2 to 4.
const PLAYOUTS: usize = 300;
const SEED: u64 = 0x005E_ED34;
/// chess960.perft positions checked (a seeded sample of the 960) to this depth, on the
/// shared perft and again on the 2 x u32 representation.
const CHESS960_SAMPLE: usize = 40;
const CHESS960_DEPTH: u32 = 3;

/// The GPU perft with default settings, opened once for all tests (opening compiles the
/// shader: seconds on lavapipe), or `None` when there is no adapter and none is required.
fn shared_or_skip(test: &str) -> Option<MutexGuard<'static, GpuPerft>> {
    static SHARED: OnceLock<Option<Mutex<GpuPerft>>> = OnceLock::new();
    let gpu =
        SHARED.get_or_init(|| gpu_or_skip("shared", &GpuPerftSettings::default()).map(Mutex::new));
    let mut gpu = gpu.as_ref()?.lock().unwrap_or_else(PoisonError::into_inner);
    println!("{test}: on the shared GPU perft");
    gpu.set_limits(None, None);
    gpu.set_hash_mb(0).unwrap();
    Some(gpu)
}

fn gpu_or_skip(test: &str, settings: &GpuPerftSettings) -> Option<GpuPerft> {
    match GpuPerft::from_env(settings) {
        Ok(gpu) => {
            println!(
                "{test}: {} ({} bitboards, {} positions a level)",
                gpu.info(),
                if gpu.native_u64() { "u64" } else { "2 x u32" },
                gpu.capacity()
            );
            Some(gpu)
        }
        Err(e) => common::no_gpu(test, e),
    }
}

/// Checks every listed depth of `cases` up to [`NODE_CAP`] leaves (and up to `max_depth`);
/// returns the number of counts checked.
fn check_reference(gpu: &mut GpuPerft, cases: &[Case], max_depth: u32) -> usize {
    let mut checked = 0;
    for case in cases {
        let pos = case.position();
        for &(depth, expected) in &case.counts {
            if depth > max_depth || (depth > 1 && expected > NODE_CAP) {
                continue;
            }
            let got = gpu
                .perft(&pos, depth)
                .unwrap_or_else(|e| panic!("{} {} depth {depth}: {e}", case.file, case.id));
            assert_eq!(
                got, expected,
                "{} {} ({}) depth {depth}: GPU {got}, reference {expected}",
                case.file, case.id, case.fen
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn perftsuite_and_tricky_match_the_reference() {
    let Some(mut gpu) = shared_or_skip("suites") else {
        return;
    };
    let suite = load_perftsuite().cases;
    assert_eq!(suite.len(), 126);
    let tricky = load_blocks("tricky.perft");
    assert!(tricky.chess960_count() > 0);
    let tricky = tricky.cases;
    println!("tricky.perft: {} cases, Chess960's included", tricky.len());
    let checked =
        check_reference(&mut gpu, &suite, u32::MAX) + check_reference(&mut gpu, &tricky, u32::MAX);
    println!("suites: {checked} counts checked, {:?}", gpu.counters());
    assert!(checked >= 400, "only {checked} counts checked");
}

#[test]
fn random_perft_sample_matches_the_reference() {
    let Some(mut gpu) = shared_or_skip("random.perft") else {
        return;
    };
    let cases = load_blocks("random.perft").cases;
    assert_eq!(cases.len(), 6_838);
    let mut rng = Rng::new(SEED);
    println!("random.perft: {RANDOM_SAMPLE} positions sampled with seed {SEED:#x}");
    let sample: Vec<Case> = (0..RANDOM_SAMPLE)
        .map(|_| cases[rng.below(cases.len())].clone())
        .collect();
    let checked = check_reference(&mut gpu, &sample, RANDOM_DEPTH);
    assert!(
        checked >= RANDOM_SAMPLE * 2,
        "only {checked} counts checked"
    );
}

/// Settings that force the 2 x u32 bitboards (the portable path), whatever the adapter.
fn halves() -> GpuPerftSettings {
    GpuPerftSettings {
        bitboards: Bitboards::Halves,
        ..GpuPerftSettings::default()
    }
}

/// A seeded sample of chess960.perft (castling with rooks and kings anywhere on the back rank).
fn chess960_sample() -> Vec<Case> {
    let cases = load_blocks("chess960.perft").cases;
    assert_eq!(cases.len(), 960);
    assert!(cases.iter().all(|c| c.chess960));
    let mut rng = Rng::new(SEED);
    println!("chess960.perft: {CHESS960_SAMPLE} positions sampled with seed {SEED:#x}");
    (0..CHESS960_SAMPLE)
        .map(|_| cases[rng.below(cases.len())].clone())
        .collect()
}

#[test]
fn chess960_sample_matches_the_reference_on_both_representations() {
    let sample = chess960_sample();
    if let Some(mut gpu) = shared_or_skip("chess960 u64") {
        let checked = check_reference(&mut gpu, &sample, CHESS960_DEPTH);
        assert_eq!(checked, CHESS960_SAMPLE * CHESS960_DEPTH as usize);
    }
    let Some(mut gpu) = gpu_or_skip("chess960 2 x u32", &halves()) else {
        return;
    };
    assert!(!gpu.native_u64());
    let checked = check_reference(&mut gpu, &sample, CHESS960_DEPTH);
    assert_eq!(checked, CHESS960_SAMPLE * CHESS960_DEPTH as usize);
}

/// Positions of random games from the start position, `plies` of them deep at most (a game
/// that ends earlier gives its last position).
fn playouts(seed: u64, n: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let mut pos = Position::new();
            for _ in 0..rng.below(120) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
            pos
        })
        .collect()
}

fn check_playouts(gpu: &mut GpuPerft, positions: &[Position], test: &str) {
    for (i, pos) in positions.iter().enumerate() {
        let depth = 2 + (i % 3) as u32;
        let cpu = perft(pos, depth);
        let got = gpu.perft(pos, depth).unwrap();
        assert_eq!(
            got, cpu,
            "{test}: position {i} ({pos}) depth {depth}: GPU {got}, CPU {cpu}"
        );
    }
}

#[test]
fn random_playouts_match_the_cpu() {
    let Some(mut gpu) = shared_or_skip("playouts") else {
        return;
    };
    println!("playouts: {PLAYOUTS} positions, seed {SEED:#x}");
    check_playouts(&mut gpu, &playouts(SEED, PLAYOUTS), "playouts");
}

#[test]
fn both_bitboard_representations_agree_with_the_cpu() {
    let Some(mut gpu) = gpu_or_skip("halves", &halves()) else {
        return;
    };
    assert!(!gpu.native_u64());
    let positions = playouts(SEED + 1, 60);
    check_playouts(&mut gpu, &positions, "2 x u32");
    tiny_table_stays_exact(&mut gpu, "2 x u32");
    // The shared perft takes native u64 bitboards wherever the adapter offers them
    // (lavapipe does), so every other test of this file runs on that path.
    drop(gpu);
    let Some(mut gpu) = shared_or_skip("u64") else {
        return;
    };
    if gpu.native_u64() {
        check_playouts(&mut gpu, &positions, "u64");
        println!("u64 bitboards: checked on {}", gpu.info());
    } else {
        println!("u64 bitboards: not offered by {}", gpu.info());
        let native = GpuPerftSettings {
            bitboards: Bitboards::Native,
            ..GpuPerftSettings::default()
        };
        assert!(
            GpuPerft::from_env(&native).is_err(),
            "Native must fail where not offered"
        );
    }
}

#[test]
fn divide_equals_the_cpu_divide() {
    let Some(mut gpu) = shared_or_skip("divide") else {
        return;
    };
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for (fen, depth) in [
        (kiwipete, 3),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let monitor = PerftMonitor::new();
        let cpu = divide(&pos, depth, &PerftOptions::default(), &PerftMonitor::new()).unwrap();
        let got = gpu.divide(&pos, depth, &monitor).unwrap();
        assert_eq!(got, cpu, "{fen} depth {depth}");
        let mut finished = monitor.finished_roots();
        finished.sort_by_key(|(m, _)| cpu.iter().position(|(c, _)| c == m));
        assert_eq!(finished, cpu, "{fen}: the monitor's finished roots");
        assert_eq!(monitor.fraction_done(), 1.0);
        assert_eq!(monitor.nodes(), cpu.iter().map(|&(_, n)| n).sum::<u64>());
    }
}

#[test]
fn small_buffers_split_batches_and_stay_exact() {
    // 256 positions a level and four plies per batch: levels overflow, batches are halved
    // and single subtrees expanded on the host.
    let Some(mut gpu) = shared_or_skip("split") else {
        return;
    };
    gpu.set_limits(Some(256), Some(4));
    assert_eq!(gpu.capacity(), 256);
    let before = gpu.counters().clone();
    let kiwipete: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
        .parse()
        .unwrap();
    assert_eq!(gpu.perft(&Position::new(), 5).unwrap(), 4_865_609);
    assert_eq!(gpu.perft(&kiwipete, 4).unwrap(), 4_085_603);
    let c = gpu.counters().clone();
    println!("split: {c:?}");
    assert!(
        c.overflows > before.overflows,
        "no batch overflowed: the split path went untested"
    );
}

#[test]
fn counters_show_whole_subtrees_per_submit_and_no_new_buffers() {
    let Some(mut gpu) = shared_or_skip("counters") else {
        return;
    };
    let start = Position::new();
    // Warm-up.
    assert_eq!(gpu.perft(&start, 3).unwrap(), 8_902);
    let before = gpu.counters().clone();
    assert_eq!(gpu.perft(&start, 5).unwrap(), 4_865_609);
    let after = gpu.counters().clone();
    println!("counters: {after:?}");
    assert_eq!(
        after.buffers_created, before.buffers_created,
        "buffers created after warm-up"
    );
    let submits = after.submits - before.submits;
    // Perft 5 from the start: the GPU takes every root move's whole 4-ply subtree, and the
    // 20 subtrees go in one batch: one submit.
    assert_eq!(submits, 1, "submits for startpos perft 5");
    assert_eq!(after.leaves - before.leaves, 4_865_609);
    // One batch of 20 positions up, its control words and 20 totals back.
    assert_eq!(
        after.bytes_uploaded - before.bytes_uploaded,
        20 * 64 + 128 + 12
    );
    assert_eq!(after.bytes_read_back - before.bytes_read_back, 128 + 20 * 8);
    assert_eq!(after.overflows, before.overflows);
}

#[test]
fn a_deep_count_puts_over_ten_million_leaves_in_each_submit() {
    let Some(mut gpu) = shared_or_skip("leaves per submit") else {
        return;
    };
    if gpu.capacity() < 1 << 18 {
        println!(
            "leaves per submit: skipped, levels of {} positions",
            gpu.capacity()
        );
        return;
    }
    // Perft 6 gives the GPU 4-ply subtrees below the 400 positions two plies down, 81 to a
    // batch with 2^18 positions a level: 5 submits. Depth 7 and beyond batch the same way,
    // with more batches of the same size.
    gpu.set_limits(Some(1 << 18), None);
    let before = gpu.counters().clone();
    assert_eq!(gpu.perft(&Position::new(), 6).unwrap(), 119_060_324);
    let after = gpu.counters().clone();
    let submits = after.submits - before.submits;
    let per_submit = (after.leaves - before.leaves) / submits;
    println!("leaves per submit: {submits} submits, {per_submit} leaves each on average");
    assert_eq!(submits, 5);
    assert!(per_submit >= 10_000_000, "{per_submit} leaves per submit");
    // The host gathers each batch while the GPU counts the one before.
    assert_eq!(after.max_in_flight, 2);
    assert_eq!(after.buffers_created, before.buffers_created);
}

#[test]
fn an_interrupted_run_keeps_the_finished_root_moves_exact() {
    let Some(mut gpu) = shared_or_skip("interrupted mid-run") else {
        return;
    };
    // Batches of 256 positions one ply deep: root moves finish one submit after another,
    // some 770 submits in all.
    gpu.set_limits(Some(256), Some(1));
    let pos = Position::new();
    let cpu = divide(&pos, 5, &PerftOptions::default(), &PerftMonitor::new()).unwrap();
    let monitor = PerftMonitor::new();
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            while monitor.roots().0 < 3 && !monitor.is_stopped() {
                std::thread::yield_now();
            }
            monitor.stop();
        });
        let r = gpu.divide(&pos, 5, &monitor);
        monitor.stop();
        r
    });
    let finished = monitor.finished_roots();
    println!(
        "interrupted mid-run: {} root moves finished, {}",
        finished.len(),
        if result.is_ok() {
            "run complete"
        } else {
            "interrupted"
        }
    );
    assert!(finished.len() >= 3);
    for (m, n) in &finished {
        let expected = cpu.iter().find(|(c, _)| c == m).map(|&(_, n)| n);
        assert_eq!(Some(*n), expected, "{m}");
    }
    match result {
        Err(GpuPerftError::Interrupted) => assert!(finished.len() < cpu.len()),
        Ok(split) => assert_eq!(split, cpu), // Finished before the stop arrived.
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn a_stopped_monitor_interrupts_the_run() {
    let Some(mut gpu) = shared_or_skip("interrupt") else {
        return;
    };
    let monitor = PerftMonitor::new();
    monitor.stop();
    let r = gpu.divide(&Position::new(), 4, &monitor);
    assert_eq!(r, Err(GpuPerftError::Interrupted));
    assert!(monitor.finished_roots().is_empty());
}

/// The hash table cut to four buckets (eight entries) with three plies per batch: every
/// store replaces another entry and most probes meet another position's entry; counts of
/// the suites' positions and startpos perft 5 stay exact. Perft 5 twice: the second finds
/// the roots the first left in the table (the deeper entry of a bucket stays).
fn tiny_table_stays_exact(gpu: &mut GpuPerft, test: &str) {
    gpu.set_hash_mb(1).unwrap();
    gpu.limit_table(Some(4));
    gpu.set_limits(None, Some(3));
    let before = gpu.counters().clone();
    for _ in 0..2 {
        assert_eq!(gpu.perft(&Position::new(), 5).unwrap(), 4_865_609);
    }
    let suite: Vec<Case> = load_perftsuite().cases.into_iter().step_by(6).collect();
    let mut checked = 0;
    for case in &suite {
        let pos = case.position();
        for &(depth, expected) in &case.counts {
            if (3..=4).contains(&depth) && expected <= NODE_CAP {
                let got = gpu.perft(&pos, depth).unwrap();
                assert_eq!(
                    got, expected,
                    "{test}: {} depth {depth} with a tiny table",
                    case.fen
                );
                checked += 1;
            }
        }
    }
    let c = gpu.counters().since(&before);
    println!("{test}: tiny table, {checked} suite counts and startpos 5: {c:?}");
    assert!(checked >= 10, "only {checked} suite counts");
    assert!(
        c.table_root_probes >= 800 && c.table_leaf_probes >= 100 * 8,
        "{c:?}"
    );
    assert!(c.table_root_hits > 0, "the second perft 5 finds no root");
    assert!(c.table_root_hits <= 8, "more root hits than entries");
    gpu.limit_table(None);
}

#[test]
fn hash_table_counts_are_exact_and_its_counters_add_up() {
    let Some(mut gpu) = shared_or_skip("hash table") else {
        return;
    };
    tiny_table_stays_exact(&mut gpu, "hash table");
    // Four plies a batch: the roots' buffer holds level 2 by the time their totals are
    // stored, so the keys stored must be the roots' own. Startpos perft 5 stores the 20
    // root moves' positions; perft 5 below 1.e4 e5 then probes positions three plies from
    // the start with four plies left, and must find none of them; perft 5 again finds all.
    gpu.set_hash_mb(0).unwrap();
    gpu.set_hash_mb(1).unwrap();
    gpu.set_limits(None, Some(4));
    let start = Position::new();
    let e4e5: Position = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
        .parse()
        .unwrap();
    let runs = [
        (start, 4_865_609, 0),
        (e4e5, perft(&e4e5, 5), 0),
        (start, 4_865_609, 20),
    ];
    for (pos, expected, root_hits) in runs {
        let before = gpu.counters().clone();
        assert_eq!(
            gpu.perft(&pos, 5).unwrap(),
            expected,
            "{pos} with four plies a batch"
        );
        let c = gpu.counters().since(&before);
        assert_eq!(c.table_root_hits, root_hits, "{pos}: {c:?}");
    }
    // A fresh 1 MiB table (32,768 buckets) and three plies a batch: perft 6 of perftsuite's
    // position 3 gives the GPU the positions three plies down, in batches of about 50
    // (levels of 4,096 positions). Every repeat of a root after its first batch is found,
    // unless the root's entry was replaced.
    gpu.set_hash_mb(0).unwrap();
    gpu.set_hash_mb(1).unwrap();
    assert_eq!(gpu.hash_bytes(), 1 << 20);
    gpu.set_limits(Some(4096), Some(3));
    let pos: Position = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1".parse().unwrap();
    let mut roots = vec![pos];
    for _ in 0..3 {
        roots = roots
            .iter()
            .flat_map(|p| {
                p.legal_moves()
                    .iter()
                    .map(|&m| p.after(m).unwrap())
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    let distinct: std::collections::HashSet<table::Key> = roots
        .iter()
        .map(|p| table::key(&GpuPosition::new(p, 0), 3))
        .collect();
    let repeats = (roots.len() - distinct.len()) as u64;
    let before = gpu.counters().clone();
    assert_eq!(gpu.perft(&pos, 6).unwrap(), 11_030_083);
    let first = gpu.counters().since(&before);
    println!(
        "hash table, position 3 perft 6: {} roots, {} distinct: {first:?}",
        roots.len(),
        distinct.len()
    );
    assert_eq!(first.table_root_probes, roots.len() as u64);
    assert!(first.table_root_hits <= repeats);
    assert!(
        first.table_root_hits * 4 >= repeats * 3,
        "{repeats} repeats"
    );
    assert!(first.table_leaf_hits * 10 >= first.table_leaf_probes);
    // The same count again: the table has kept the roots' counts.
    let before = gpu.counters().clone();
    assert_eq!(gpu.perft(&pos, 6).unwrap(), 11_030_083);
    let again = gpu.counters().since(&before);
    println!("hash table, the same again: {again:?}");
    assert!(
        again.table_root_hits * 5 >= again.table_root_probes * 4,
        "{again:?}"
    );
    assert_eq!(
        again.buffers_created, first.buffers_created,
        "no new buffer"
    );
    gpu.limit_table(None);
}

/// Entries written by the host: one for a root with a wrong count is taken (the shader's key
/// and entry format are the host's), then the same words torn (a mix of two entries' words
/// in every one of the 14 ways) are rejected and the count is exact.
#[test]
fn the_shader_takes_host_entries_and_rejects_torn_ones() {
    let Some(mut gpu) = shared_or_skip("host entries") else {
        return;
    };
    // Startpos perft 4, three plies a batch: the 20 root moves' positions are the batch's
    // roots, probed with three plies left before anything is stored. One bucket: every key
    // lands in it.
    gpu.set_hash_mb(1).unwrap();
    gpu.limit_table(Some(1));
    gpu.set_limits(None, Some(3));
    let start = Position::new();
    let root = |uci: &str| {
        let m = Move::from_uci(&start, uci).unwrap();
        let child = start.after(m).unwrap();
        (
            table::key(&GpuPosition::new(&child, 0), 3),
            perft(&child, 3),
        )
    };
    let (e4, e4_count) = root("e2e4");
    let (d4, d4_count) = root("d2d4");
    // Wrong counts that differ in both data words, so that every mix is torn.
    let planted = table::encode(&e4, 3, e4_count + (1 << 40));
    let other = table::encode(&d4, 3, d4_count + (2 << 40) + 1);
    gpu.device().write_table(0, &[planted, [0; 4]].concat());
    let before = gpu.counters().clone();
    assert_eq!(
        gpu.perft(&start, 4).unwrap(),
        197_281 + (1 << 40),
        "the planted entry"
    );
    assert_eq!(gpu.counters().since(&before).table_root_hits, 1);
    for mask in 1..15u32 {
        let torn: [u32; 4] = std::array::from_fn(|w| {
            if mask >> w & 1 == 1 {
                other[w]
            } else {
                planted[w]
            }
        });
        gpu.device().write_table(0, &[torn, torn].concat());
        let before = gpu.counters().clone();
        assert_eq!(
            gpu.perft(&start, 4).unwrap(),
            197_281,
            "torn entry, mask {mask:04b}"
        );
        assert_eq!(gpu.counters().since(&before).table_root_hits, 0);
    }
    gpu.limit_table(None);
}

//! What the search finds: mates with the right distance, stalemates avoided, repetitions
//! seen, legal moves only, and a reproducible node count.

use shatranj_chess::{History, Move, Position, san, uci::parse_uci};
use shatranj_engine::bench::run_bench;
use shatranj_engine::{Engine, EngineOptions, Evaluation, Limits, Score, SearchResult};

fn engine() -> Engine {
    engine_with(&Evaluation::default())
}

/// One thread and 8 MiB of hash, evaluating with `evaluation`.
fn engine_with(evaluation: &Evaluation) -> Engine {
    Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 8,
        evaluation: evaluation.clone(),
        ..EngineOptions::default()
    })
    .unwrap()
}

/// Mates in one to three: FEN, the best moves (UCI, space-separated where several mate as
/// fast), mate distance in moves.
const MATES: &[(&str, &str, i32)] = &[
    // Back-rank mate.
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", 1),
    // Black mates with the queen next to the king.
    ("8/8/8/8/8/5k1q/8/6K1 b - - 0 1", "h3g2", 1),
    // Smothered mate.
    ("6rk/6pp/7N/8/8/8/8/6QK w - - 0 1", "h6f7", 1),
    // Scholar's mate.
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "h5f7",
        1,
    ),
    // Rook ladder: either rook may take the seventh rank first.
    ("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", "a2a7 b1b7", 2),
    // The king takes the opposition (a quiet move) after a longer rook mate was seen first.
    ("k7/8/2K5/8/8/8/8/7R w - - 0 1", "c6b6", 2),
    // Rook sacrifice, then the other rook mates.
    (
        "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
        "g2g1",
        2,
    ),
    // Queen hunt of the king on h5 (mate values checked against Stockfish 15.1).
    (
        "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1",
        "b1g6",
        3,
    ),
];

#[test]
fn finds_mates_with_the_right_distance() {
    // A mate's distance does not depend on the static evaluation: both must find it.
    for evaluation in [Evaluation::classical(), Evaluation::default()] {
        for &(fen, best, n) in MATES {
            let pos: Position = fen.parse().unwrap();
            let mut e = engine_with(&evaluation);
            let r = e.search(pos, &mate_limits(n), |_| {});
            assert_mate(&r, &evaluation.describe(), fen, best, n);
        }
    }
}

/// The depth a search of a mate in `n` is given: the depth at which a search first sees a
/// mate depends on the evaluation (move order and reductions follow it): the rook ladder's
/// mate in 2 shows at depth 4 with gen7, at depth 8 with gen8.
fn mate_limits(n: i32) -> Limits {
    Limits::depth(2 * n.unsigned_abs() + 5)
}

/// `r` mates in `n` moves with one of the `best` moves (space-separated UCI).
fn assert_mate(r: &SearchResult, context: &str, fen: &str, best: &str, n: i32) {
    assert_eq!(r.score, Score::Mate(n), "{context}: {fen}: {r:?}");
    let found = r.best_move.unwrap().to_string();
    assert!(
        best.split_whitespace().any(|m| m == found),
        "{context}: {fen}: {found} is not one of {best}"
    );
}

#[test]
fn mated_side_reports_a_negative_mate() {
    // Black to move must push the a-pawn, then Rb8# (the king is boxed in by h7 and Kg6).
    let pos: Position = "7k/p6P/6K1/8/8/8/8/1R6 b - - 0 1".parse().unwrap();
    let mut e = engine();
    let r = e.search(pos, &Limits::depth(5), |_| {});
    assert_eq!(r.score, Score::Mate(-1), "{r:?}");
}

#[test]
fn avoids_stalemate_when_winning() {
    // Queen and king against king: several queen moves stalemate, the engine must mate.
    // (FEN, mate expected within the depth)
    for (fen, mate) in [
        ("7k/8/6QK/8/8/8/8/8 w - - 0 1", true),
        ("k7/8/1Q6/8/8/8/8/6K1 w - - 0 1", false),
        ("7k/5Q2/5K2/8/8/8/8/8 w - - 0 1", true),
        ("k7/2Q5/1K6/8/8/8/8/8 w - - 0 1", true),
    ] {
        let pos: Position = fen.parse().unwrap();
        let mut e = engine();
        let r = e.search(pos, &Limits::depth(8), |_| {});
        let m = r.best_move.unwrap();
        let after = pos.after(m).unwrap();
        assert!(!after.is_stalemate(), "{fen}: {m} stalemates");
        if mate {
            assert!(matches!(r.score, Score::Mate(n) if n > 0), "{fen}: {r:?}");
        } else {
            assert!(matches!(r.score, Score::Cp(cp) if cp > 500), "{fen}: {r:?}");
        }
    }
}

#[test]
fn no_legal_move_gives_no_best_move() {
    let mate: Position = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1".parse().unwrap();
    let r = engine().search(mate, &Limits::depth(3), |_| {});
    assert_eq!((r.best_move, r.score), (None, Score::Mate(0)));
    let stalemate: Position = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse().unwrap();
    let r = engine().search(stalemate, &Limits::depth(3), |_| {});
    assert_eq!((r.best_move, r.score), (None, Score::Cp(0)));
}

#[test]
fn repetition_of_a_game_position_is_a_draw() {
    // Black is a queen up. The game went Nf3 Nf6 Ng1 Ng8: playing Nf3 again repeats the
    // position after White's first move, which the engine must score as a draw and prefer.
    let start: Position = "rn1qkbnr/ppp1pppp/8/8/8/8/PPP1PPPP/RNB1KBNR w KQkq - 0 1"
        .parse()
        .unwrap();
    let mut game = History::new(start);
    for m in ["Nf3", "Nf6", "Ng1", "Ng8"] {
        let mv = san::parse_san(game.position(), m).unwrap();
        game.push(mv).unwrap();
    }
    let mut e = engine();
    // Depth 1 too: Nf3 leads straight into quiescence, which looks for no repetition.
    for depth in [1, 6] {
        let r = e.search(&game, &Limits::depth(depth), |_| {});
        assert_eq!(
            r.best_move.unwrap().to_string(),
            "g1f3",
            "depth {depth}: {r:?}"
        );
        assert_eq!(r.score, Score::Cp(0), "depth {depth}");
    }
    // Without the history the same position is simply lost material: far below the draw
    // (a queen is worth what the network says; gen9 scores it −486 here, gen8 below −500).
    let r = e.search(*game.position(), &Limits::depth(6), |_| {});
    assert!(matches!(r.score, Score::Cp(cp) if cp < -300), "{r:?}");
}

#[test]
fn fifty_move_rule_draws_inside_the_tree() {
    // A queen up but with the count at 99 half-moves: any non-mating, non-zeroing move draws.
    let pos: Position = "8/8/8/4k3/8/8/8/3QK3 w - - 99 80".parse().unwrap();
    let r = engine().search(pos, &Limits::depth(4), |_| {});
    assert_eq!(r.score, Score::Cp(0), "{r:?}");
}

#[test]
fn insufficient_material_is_a_draw() {
    // Taking the last pawn leaves bare kings: the draw is seen.
    let pos: Position = "8/8/4k3/8/4p3/3K4/8/8 w - - 0 1".parse().unwrap();
    let r = engine().search(pos, &Limits::depth(6), |_| {});
    assert_eq!(r.best_move.unwrap().to_string(), "d3e4");
    assert_eq!(r.score, Score::Cp(0));
}

// The seeded generator shared with the rules crate's tests (xorshift64*).
#[path = "../../chess/tests/support/rng.rs"]
mod rng;
use rng::Rng;

#[test]
fn never_an_illegal_move() {
    let seed = 0x5EED_0004_u64;
    println!("seed {seed:#x}");
    let mut rng = Rng::new(seed);
    let mut e = engine();
    for game in 0..30 {
        let mut pos = Position::new();
        let plies = 4 + rng.next() % 60;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next() % moves.len() as u64) as usize];
            pos.play_unchecked(m);
        }
        let limits = if game % 2 == 0 {
            Limits::depth(1 + (rng.next() % 4) as u32)
        } else {
            Limits::nodes(200 + rng.next() % 3000)
        };
        let r = e.search(pos, &limits, |_| {});
        match r.best_move {
            Some(m) => {
                assert!(pos.is_legal(m), "seed {seed:#x}, {}: {m}", pos.fen());
                let mut p = pos;
                for &pm in &r.pv {
                    assert!(
                        p.is_legal(pm),
                        "seed {seed:#x}, pv {:?} from {}",
                        r.pv,
                        pos.fen()
                    );
                    p.play_unchecked(pm);
                }
            }
            None => assert!(!pos.has_legal_moves(), "{}", pos.fen()),
        }
    }
}

#[test]
fn searchmoves_restricts_the_root() {
    let pos = Position::new();
    let only = parse_uci(&pos, "a2a3").unwrap();
    let limits = Limits {
        depth: Some(4),
        searchmoves: vec![only],
        ..Limits::default()
    };
    let r = engine().search(pos, &limits, |_| {});
    assert_eq!(r.best_move, Some(only));
}

/// A score as a number that orders like the score: mates beyond every centipawn value.
fn order_key(s: Score) -> i64 {
    match s {
        Score::Cp(c) => i64::from(c),
        Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
        Score::Mate(n) => -1_000_000 - i64::from(n),
    }
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    // (FEN, depth). In the second, with the built-in network, the third pass scores 1. Qb3
    // above the second pass's 1. Bxf7+ (a move that failed low behind 1. Bxf7+'s bound scores
    // more once it is out of the way): the lines must be re-sorted and reported again.
    let cases = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            5,
        ),
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1",
            4,
        ),
    ];
    for evaluation in [Evaluation::classical(), Evaluation::default()] {
        for (fen, depth) in cases {
            let pos: Position = fen.parse().unwrap();
            let limits = Limits {
                depth: Some(depth),
                multipv: 3,
                ..Limits::default()
            };
            let mut e = engine_with(&evaluation);
            // The last report of each line at the last depth, as a GUI would show them.
            let mut shown: Vec<Option<(Move, Score)>> = vec![None; 3];
            let r = e.search(pos, &limits, |info| {
                if info.depth == depth {
                    shown[info.multipv - 1] = Some((info.pv[0], info.score));
                }
            });
            let context = format!("{}: {fen}", evaluation.describe());
            assert_eq!(r.lines.len(), 3, "{context}");
            let firsts: Vec<Move> = r.lines.iter().map(|l| l.pv[0]).collect();
            assert!(
                firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
                "{context}"
            );
            let keys: Vec<i64> = r.lines.iter().map(|l| order_key(l.score)).collect();
            assert!(keys.is_sorted_by(|a, b| a >= b), "{context}: {:?}", r.lines);
            let final_lines: Vec<Option<(Move, Score)>> =
                r.lines.iter().map(|l| Some((l.pv[0], l.score))).collect();
            assert_eq!(shown, final_lines, "{context}");
        }
    }
}

/// A search stopped inside an iteration (here by its node limit) reports once more at the
/// end: the last report carries the whole search's nodes, the move it plays and its score,
/// so a GUI shows what `bestmove` stands on. A search that ends with an iteration reports
/// nothing after it.
#[test]
fn the_last_report_is_the_whole_search() {
    let pos: Position = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
        .parse()
        .unwrap();
    for (limits, stopped) in [(Limits::nodes(20_000), true), (Limits::depth(5), false)] {
        let mut reports = Vec::new();
        let r = engine().search(pos, &limits, |info| {
            reports.push((info.depth, info.nodes, info.pv[0], info.score));
        });
        let last = *reports.last().unwrap();
        assert_eq!(last.1, r.nodes, "{limits:?}: {reports:?}");
        assert_eq!(
            (last.2, last.3),
            (r.best_move.unwrap(), r.score),
            "{limits:?}"
        );
        let repeated = reports.len() > 1 && reports[reports.len() - 2].0 == last.0;
        assert_eq!(repeated, stopped, "{limits:?}: {reports:?}");
    }
}

#[test]
fn bench_signature_is_stable_with_one_thread() {
    let a = run_bench(5, Evaluation::classical(), |_, _| {}).unwrap();
    let b = run_bench(5, Evaluation::classical(), |_, _| {}).unwrap();
    println!("bench 5: {} nodes", a.nodes);
    assert!(a.nodes > 1000);
    assert_eq!(a.nodes, b.nodes);
}

/// The move-ordering statistics outlive a search, so the next search starts from them;
/// clearing the table alone keeps them, and a new game forgets them too: with one thread
/// the search after `new_game` repeats the first one exactly.
#[test]
fn histories_outlive_a_search_until_a_new_game() {
    let pos: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10"
        .parse()
        .unwrap();
    let limits = Limits::depth(7);
    let mut e = engine();
    let first = e.search(pos, &limits, |_| {});
    e.clear_hash();
    let second = e.search(pos, &limits, |_| {});
    assert_ne!(
        first.nodes, second.nodes,
        "the second search orders its moves by what the first learned"
    );
    e.new_game();
    let third = e.search(pos, &limits, |_| {});
    assert_eq!((third.nodes, &third.pv), (first.nodes, &first.pv));
}

/// A soft node limit ends the search between iterations: past the limit, never inside an
/// iteration (so every move it plays is a completed depth's), and deterministically.
#[test]
fn soft_node_limit_ends_at_an_iteration_boundary() {
    let mut e = engine();
    let limits = Limits::soft_nodes(3000, 1_000_000);
    let mut completed = Vec::new();
    let a = e.search(Position::new(), &limits, |info| {
        completed.push((info.depth, info.nodes));
    });
    assert!(a.nodes >= 3000, "{} nodes", a.nodes);
    let &(last_depth, last_nodes) = completed.last().unwrap();
    assert_eq!(a.depth, last_depth);
    assert_eq!(
        a.nodes, last_nodes,
        "nothing searched after the last iteration"
    );
    // The iteration before the last ended below the limit.
    assert!(completed[completed.len() - 2].1 < 3000);
    e.new_game();
    let b = e.search(Position::new(), &limits, |_| {});
    assert_eq!((a.nodes, a.best_move), (b.nodes, b.best_move));
    // The hard limit still caps it.
    e.new_game();
    let capped = Limits {
        soft_nodes: Some(10_000_000),
        nodes: Some(2000),
        ..Limits::default()
    };
    let c = e.search(Position::new(), &capped, |_| {});
    assert!(c.nodes <= 2100, "{} nodes", c.nodes);
}

#[test]
fn node_limit_is_exact_with_one_thread() {
    let mut e = engine();
    let a = e.search(Position::new(), &Limits::nodes(5000), |_| {});
    e.new_game();
    let b = e.search(Position::new(), &Limits::nodes(5000), |_| {});
    assert_eq!(a.nodes, b.nodes);
    assert!(a.nodes >= 5000 && a.nodes < 5100, "{}", a.nodes);
}

#[test]
fn lazy_smp_threads_agree_on_mates_and_stop_together() {
    let mut e = Engine::new(EngineOptions {
        threads: 3,
        hash_mb: 8,
        ..EngineOptions::default()
    })
    .unwrap();
    for &(fen, best, n) in MATES {
        let pos: Position = fen.parse().unwrap();
        e.new_game();
        let r = e.search(pos, &mate_limits(n), |_| {});
        assert_mate(&r, "3 threads", fen, best, n);
    }
    // An infinite search with three threads ends promptly on stop, with a legal move.
    let stop = e.stop_handle();
    let t = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        let at = std::time::Instant::now();
        stop.stop();
        at
    });
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let r = e.search(Position::new(), &limits, |_| {});
    let stopped_at = t.join().unwrap();
    assert!(stopped_at.elapsed() < std::time::Duration::from_millis(500));
    assert!(Position::new().is_legal(r.best_move.unwrap()));
}

/// With several threads, whichever completes the requested depth first ends a `go depth`
/// search: the result has exactly that depth, and the last `info` line and the reported line
/// are the move played.
#[test]
fn lazy_smp_depth_limit_ends_at_that_depth_with_a_consistent_line() {
    let mut e = Engine::new(EngineOptions {
        threads: 2,
        hash_mb: 8,
        ..EngineOptions::default()
    })
    .unwrap();
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ];
    for fen in fens {
        for depth in [5u32, 8] {
            let pos: Position = fen.parse().unwrap();
            e.new_game();
            let mut last = None;
            let r = e.search(pos, &Limits::depth(depth), |info| {
                last = Some((info.depth, info.pv.first().copied()));
            });
            assert_eq!(r.depth, depth, "{fen}");
            assert_eq!(last, Some((depth, r.best_move)), "{fen} depth {depth}");
            assert_eq!(r.lines.len(), 1);
            assert_eq!(r.lines[0].pv.first().copied(), r.best_move);
        }
    }
}

#[test]
fn engine_options_out_of_range_are_errors() {
    use shatranj_engine::EngineError;
    assert!(matches!(
        Engine::new(EngineOptions {
            threads: 0,
            ..EngineOptions::default()
        }),
        Err(EngineError::Threads { .. })
    ));
    assert!(matches!(
        Engine::new(EngineOptions {
            hash_mb: 0,
            ..EngineOptions::default()
        }),
        Err(EngineError::Hash(_))
    ));
    let mut e = engine();
    assert!(e.set_hash_mb(usize::MAX / 2).is_err());
    assert!(e.set_threads(100_000).is_err());
    // The engine still works after refused changes.
    assert!(
        e.search(Position::new(), &Limits::depth(2), |_| {})
            .best_move
            .is_some()
    );
}

//! Self-play: the same seed gives the same games — whatever the concurrency, whether the
//! evaluations run inline or through the batching service, and for any subset of game
//! indices — and games end by the rules (or the ply cap) with the right result and PGN.

use shatranj_chess::san::parse_san;
use shatranj_chess::{Color, Position};
use shatranj_engine::eval::cpu_evaluator;
use shatranj_engine::games::selfplay::{
    MoveLimit, OpeningSource, SelfPlayConfig, SelfPlayReport, play_games,
};
use shatranj_engine::games::{GameTermination, RandomOpenings, parse_openings};
use shatranj_engine::{BatchConfig, BatchEvaluator, Evaluation};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn quick(seed: u64, games: u64) -> SelfPlayConfig {
    SelfPlayConfig {
        games,
        concurrency: 2,
        limit: MoveLimit::Depth(3),
        seed,
        openings: OpeningSource::Random(RandomOpenings {
            balance_depth: 2,
            ..RandomOpenings::default()
        }),
        max_plies: 60,
        ..SelfPlayConfig::default()
    }
}

/// Plays `config`, inline or with every evaluation batched through the service (whose back end
/// computes the config's own evaluation, as `play_games` requires).
fn run(config: &SelfPlayConfig, batched: bool) -> SelfPlayReport {
    let evaluator: Option<Arc<dyn BatchEvaluator>> =
        batched.then(|| cpu_evaluator(&config.evaluation));
    play_games(config, evaluator, &AtomicBool::new(false), |_| {}).unwrap()
}

fn pgns(r: &SelfPlayReport) -> Vec<String> {
    r.games
        .iter()
        .map(shatranj_engine::games::selfplay::SelfPlayGame::pgn)
        .collect()
}

#[test]
fn same_seed_same_games_across_concurrency_route_and_index_ranges() {
    let seed = 11;
    println!("seed {seed}");
    let base = quick(seed, 4);
    let a = run(&base, false);
    assert_eq!(a.games.len(), 4);
    assert!(!a.interrupted);
    let b = run(
        &SelfPlayConfig {
            concurrency: 1,
            ..base.clone()
        },
        false,
    );
    assert_eq!(pgns(&a), pgns(&b));

    let batched = run(
        &SelfPlayConfig {
            concurrency: 4,
            batch: BatchConfig {
                max_batch: 16,
                max_wait: Duration::from_micros(300),
            },
            ..base.clone()
        },
        true,
    );
    assert_eq!(pgns(&a), pgns(&batched), "service-routed games differ");
    assert!(batched.stats.batches > 0);
    assert!(
        batched.stats.max_batch > 1,
        "four concurrent games never shared a batch"
    );
    assert_eq!(a.stats.evaluations, batched.stats.evaluations);
    println!(
        "batched: {} evaluations in {} batches (mean {:.2})",
        batched.stats.evaluations,
        batched.stats.batches,
        batched.stats.mean_batch()
    );

    let subset = run(
        &SelfPlayConfig {
            first_game: 2,
            games: 2,
            ..base.clone()
        },
        false,
    );
    assert_eq!(pgns(&subset), pgns(&a)[2..].to_vec());
    assert_eq!(subset.games[0].record.index, 2);

    let other = run(&quick(seed + 1, 4), false);
    assert_ne!(
        pgns(&other),
        pgns(&a),
        "a different seed gave the same games"
    );
}

#[test]
fn fixed_node_searches_are_reproducible() {
    for evaluation in [Evaluation::classical(), Evaluation::default()] {
        let config = SelfPlayConfig {
            limit: MoveLimit::Nodes(400),
            evaluation,
            ..quick(3, 2)
        };
        assert_eq!(
            pgns(&run(&config, false)),
            pgns(&run(&config, true)),
            "{}",
            config.evaluation.describe()
        );
    }
}

/// Opening, expected termination, expected result, the most plies the game may have.
const ENDINGS: &[(&str, GameTermination, &str, usize)] = &[
    // Back-rank mate in one.
    (
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        GameTermination::Checkmate,
        "1-0",
        1,
    ),
    // King and knight against king: drawn at once.
    (
        "8/8/8/8/8/2k5/2n5/K7 w - - 0 1",
        GameTermination::InsufficientMaterial,
        "1/2-1/2",
        0,
    ),
    // A locked pawn wall: dead although there is material.
    (
        "8/8/8/1k6/p1p1p1p1/P1P1P1P1/8/5K2 w - - 0 1",
        GameTermination::DeadPosition,
        "1/2-1/2",
        0,
    ),
    // The hundredth half-move without capture or pawn move ends it (automatic rules).
    (
        "1r5k/8/8/8/8/8/8/K5R1 w - - 99 80",
        GameTermination::FiftyMoves,
        "1/2-1/2",
        1,
    ),
    // Moves from the standard start; the ply cap adjudicates.
    ("e2e4 e7e5", GameTermination::PlyCap, "1/2-1/2", 6),
];

#[test]
fn games_end_by_the_rules_with_consistent_results_and_pgn() {
    let text: String = ENDINGS.iter().flat_map(|e| [e.0, "\n"]).collect();
    let openings = parse_openings(&text).unwrap();
    let config = SelfPlayConfig {
        games: ENDINGS.len() as u64,
        concurrency: 3,
        limit: MoveLimit::Depth(4),
        openings: OpeningSource::List(openings),
        max_plies: 6,
        ..SelfPlayConfig::default()
    };
    let report = run(&config, false);
    assert_eq!(report.games.len(), ENDINGS.len());
    for (g, (opening, termination, result, max_plies)) in report.games.iter().zip(ENDINGS) {
        let r = &g.record;
        let pgn = g.pgn();
        println!("{pgn}");
        assert_eq!(r.termination, *termination, "{opening}");
        assert_eq!(r.result(), *result, "{opening}");
        assert!(
            r.moves.len() <= *max_plies,
            "{opening}: {} plies",
            r.moves.len()
        );
        assert!(pgn.contains(&format!("[Result \"{result}\"]")));
        assert!(pgn.contains(&format!("[Termination \"{}\"]", termination.name())));
        assert!(pgn.contains(&format!("[PlyCount \"{}\"]", r.moves.len())));
        assert!(pgn.trim_end().ends_with(result));
        assert_eq!(pgn.contains("[FEN "), opening.contains('/'), "{opening}");
        // The SAN movetext replays to the recorded final position.
        let mut pos = r.start;
        let movetext = pgn.split("\n\n").nth(1).unwrap();
        for token in movetext.split_whitespace() {
            if token.ends_with('.') || token == *result {
                continue;
            }
            let m = parse_san(&pos, token).unwrap();
            pos.play_unchecked(m);
        }
        assert_eq!(pos, r.final_position());
        let fin = r.final_position();
        match termination {
            GameTermination::Checkmate => {
                assert!(fin.is_checkmate());
                assert_eq!(r.winner, Some(fin.turn().other()));
            }
            GameTermination::Stalemate => assert!(fin.is_stalemate()),
            _ => assert_eq!(r.winner, None),
        }
    }
    assert_eq!(report.stats.white_wins, 1);
    assert_eq!(report.stats.black_wins, 0);
    assert_eq!(report.stats.draws, ENDINGS.len() as u64 - 1);
}

#[test]
fn a_black_start_numbers_its_first_move_with_an_ellipsis() {
    let openings = parse_openings("6k1/8/8/8/8/8/r4PPP/6K1 b - - 0 30").unwrap();
    let config = SelfPlayConfig {
        limit: MoveLimit::Depth(2),
        openings: OpeningSource::List(openings),
        max_plies: 3,
        ..SelfPlayConfig::default()
    };
    let report = run(&config, false);
    let pgn = report.games[0].pgn();
    assert!(pgn.contains("\n30... Ra"), "{pgn}");
    assert_eq!(report.games[0].record.start.turn(), Color::Black);
}

#[test]
fn bad_settings_are_errors_and_a_stop_ends_the_match() {
    let bad = [
        SelfPlayConfig {
            concurrency: 0,
            ..SelfPlayConfig::default()
        },
        SelfPlayConfig {
            limit: MoveLimit::Depth(0),
            ..SelfPlayConfig::default()
        },
        SelfPlayConfig {
            limit: MoveLimit::Nodes(0),
            ..SelfPlayConfig::default()
        },
        SelfPlayConfig {
            openings: OpeningSource::List(vec![]),
            ..SelfPlayConfig::default()
        },
        SelfPlayConfig {
            max_plies: 0,
            ..SelfPlayConfig::default()
        },
        SelfPlayConfig {
            concurrency: SelfPlayConfig::MAX_CONCURRENCY + 1,
            ..SelfPlayConfig::default()
        },
        SelfPlayConfig {
            openings: OpeningSource::Random(RandomOpenings {
                plies: SelfPlayConfig::MAX_RANDOM_PLIES + 1,
                ..RandomOpenings::default()
            }),
            ..SelfPlayConfig::default()
        },
        SelfPlayConfig {
            max_plies: SelfPlayConfig::MAX_PLIES + 1,
            ..SelfPlayConfig::default()
        },
        SelfPlayConfig {
            hash_mb: 0,
            ..SelfPlayConfig::default()
        },
        SelfPlayConfig {
            hash_mb: SelfPlayConfig::MAX_HASH_MB + 1,
            ..SelfPlayConfig::default()
        },
        SelfPlayConfig {
            batch: BatchConfig {
                max_batch: 0,
                ..BatchConfig::default()
            },
            ..SelfPlayConfig::default()
        },
        SelfPlayConfig {
            batch: BatchConfig {
                max_wait: SelfPlayConfig::MAX_WAIT + std::time::Duration::from_micros(1),
                ..BatchConfig::default()
            },
            ..SelfPlayConfig::default()
        },
        SelfPlayConfig {
            first_game: u64::MAX,
            games: 1,
            ..SelfPlayConfig::default()
        },
    ];
    // The one check, as the CLI and the binding call it before anything starts, and again
    // inside `play_games`.
    for c in &bad {
        let e = c.validate().unwrap_err();
        assert!(e.to_string().starts_with("bad self-play setting"), "{e}");
        let e = play_games(c, None, &AtomicBool::new(false), |_| {}).unwrap_err();
        assert!(e.to_string().starts_with("bad self-play setting"), "{e}");
    }
    assert_eq!(SelfPlayConfig::default().validate(), Ok(()));
    // Stopped before it starts: nothing is played, and the report says so.
    let stopped = play_games(&quick(1, 3), None, &AtomicBool::new(true), |_| {}).unwrap();
    assert!(stopped.interrupted);
    assert!(stopped.games.is_empty());
    let _ = Position::new();
}

/// Chess960 self-play: each game starts from a starting position drawn by number from the
/// seed, the same games for the same seed, and its PGN (`Variant "Chess960"`, `SetUp`, an
/// X-FEN `FEN`) reads back through the PGN reader to the recorded moves.
#[test]
fn chess960_games_start_from_drawn_numbers_and_read_back() {
    let mut config = quick(38, 4);
    config.limit = MoveLimit::Depth(2);
    config.max_plies = 40;
    config.openings = OpeningSource::Random(RandomOpenings {
        plies: 2,
        balance_depth: 1,
        chess960: true,
        ..RandomOpenings::default()
    });
    println!("seed 38");
    let report = run(&config, false);
    assert_eq!(pgns(&report), pgns(&run(&config, false)));
    let text: String = pgns(&report).concat();
    let read = shatranj_pgn::read_all(text.as_bytes(), &AtomicBool::new(false));
    assert_eq!(read.games.len(), 4);
    let mut numbers = Vec::new();
    for (g, pgn) in report.games.iter().zip(&read.games) {
        numbers.push(g.record.start.chess960_number().unwrap());
        assert_eq!(pgn.tag("Variant"), Some("Chess960"));
        assert_eq!(pgn.tag("SetUp"), Some("1"));
        assert!(pgn.errors.is_empty(), "{:?}", pgn.errors);
        assert_eq!(pgn.start, g.record.start);
        assert_eq!(pgn.mainline_moves(), g.record.moves);
    }
    println!("numbers {numbers:?}");
    assert!(numbers.windows(2).any(|w| w[0] != w[1]), "{numbers:?}");
}

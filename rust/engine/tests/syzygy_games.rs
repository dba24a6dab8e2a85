//! Self-play and data generation with Syzygy tables (the 3–4-man set in
//! data/syzygy/regular): a game that reaches the tables ends there with their result, and
//! datagen's WDL labels are the prober's values, position by position.

use shatranj_chess::{Color, Position};
use shatranj_engine::games::datagen::{
    Adjudication, DatagenConfig, GameSettings, generate, read_shard,
};
use shatranj_engine::games::selfplay::{MoveLimit, OpeningSource, SelfPlayConfig, play_games};
use shatranj_engine::games::{GameTermination, parse_openings};
use shatranj_engine::syzygy::SyzygySettings;
use shatranj_syzygy::{Tablebase, Wdl};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/syzygy/regular");

fn tables() -> Arc<Tablebase> {
    Arc::new(Tablebase::open([TABLES]).unwrap())
}

fn with_tables() -> SyzygySettings {
    SyzygySettings {
        tables: Some(tables()),
        ..SyzygySettings::default()
    }
}

/// The winner the tables give the side to move's game at `pos` (a draw: `None`).
fn table_winner(tables: &Tablebase, pos: &Position) -> Option<Color> {
    match tables.probe_wdl(pos).unwrap() {
        Wdl::Win => Some(pos.turn()),
        Wdl::Loss => Some(pos.turn().other()),
        _ => None,
    }
}

/// Pawnless five-man starts where a capture comes at once (a queen or a checking bishop en
/// prise to a rook), then four-man endings: `KRNvK` (won) and `KRvKR` (drawn).
const FIVE_MEN: &str = "4k3/8/8/8/q7/8/8/R3K1N1 w - - 0 1\n8/8/3k4/8/b7/8/7r/R2K4 w - - 0 1\n";

#[test]
fn self_play_games_end_by_the_tables_with_their_result() {
    let starts = [
        // KQvKR, KRvKR, KQvK with the loser to move: within the tables from the start.
        "4Q3/8/1K6/8/1r6/8/1k6/8 w - - 0 1",
        "8/8/3k4/3r4/8/8/3R4/3K4 w - - 0 1",
        "8/8/8/4k3/8/8/8/3QK3 b - - 0 1",
    ];
    let text = format!("{}\n{FIVE_MEN}", starts.join("\n"));
    let config = SelfPlayConfig {
        games: 5,
        concurrency: 2,
        limit: MoveLimit::Depth(4),
        openings: OpeningSource::List(parse_openings(&text).unwrap()),
        max_plies: 200,
        tablebases: with_tables(),
        ..SelfPlayConfig::default()
    };
    let report = play_games(&config, None, &AtomicBool::new(false), |_| {}).unwrap();
    let tb = tables();
    assert_eq!(report.games.len(), 5);
    for (i, g) in report.games.iter().enumerate() {
        let r = &g.record;
        let pgn = g.pgn();
        println!("{pgn}");
        assert_eq!(r.termination, GameTermination::Tablebase, "game {i}");
        let end = r.final_position();
        assert!(end.board().occupied().count() <= 4, "game {i}");
        assert_eq!(r.winner, table_winner(&tb, &end), "game {i}");
        assert!(pgn.contains("[Termination \"adjudication: tablebase\"]"));
        // The starts within the tables end at once; the five-man ones after the capture.
        assert_eq!(r.moves.len(), usize::from(i >= 3), "game {i}");
    }
    let results: Vec<_> = report.games.iter().map(|g| g.record.result()).collect();
    assert_eq!(results, ["1-0", "1/2-1/2", "1-0", "1-0", "1/2-1/2"]);
    assert_eq!(report.stats.tablebase_adjudications, 5);

    // Without tables the same five-man game is played on.
    let without = SelfPlayConfig {
        games: 1,
        first_game: 3,
        max_plies: 12,
        tablebases: SyzygySettings::default(),
        ..config.clone()
    };
    let report = play_games(&without, None, &AtomicBool::new(false), |_| {}).unwrap();
    assert_ne!(
        report.games[0].record.termination,
        GameTermination::Tablebase
    );
    assert!(report.games[0].record.moves.len() > 1);
    assert_eq!(report.stats.tablebase_adjudications, 0);
}

fn datagen_config(labels: bool) -> DatagenConfig {
    DatagenConfig {
        first_game: 0,
        games: 2,
        threads: 2,
        shard_games: 2,
        game: GameSettings {
            seed: 3,
            soft_nodes: 300,
            hard_nodes: 3000,
            hash_mb: 1,
            min_ply: 0,
            adjudication: Adjudication {
                // No score adjudication: the games run into the tables.
                win_plies: 10_000,
                draw_plies: 10_000,
                max_plies: 60,
                ..Adjudication::default()
            },
            opening_list: parse_openings(FIVE_MEN).unwrap(),
            tablebases: with_tables(),
            tablebase_labels: labels,
            ..GameSettings::default()
        },
        ..DatagenConfig::default()
    }
}

#[test]
fn datagen_labels_positions_within_the_tables_by_their_wdl() {
    let dir = std::env::temp_dir().join(format!("shatranj-tb-labels-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = datagen_config(true);
    let report = generate(&config, &dir, &AtomicBool::new(false), |_| {}).unwrap();
    assert_eq!(report.games_played, 2);
    let games = read_shard(&report.shards[0]).unwrap();
    let tb = tables();
    let mut labelled = [0usize; 5];
    let mut training = 0;
    for g in &games {
        let mut pos = g.start;
        for (ply, p) in g.plies.iter().enumerate() {
            let within = pos.board().occupied().count() <= 4;
            let expected = within.then(|| tb.probe_wdl(&pos).unwrap());
            assert_eq!(p.wdl, expected, "game {} ply {ply}: {}", g.index, pos.fen());
            if let Some(w) = p.wdl {
                labelled[(w.value() + 2) as usize] += 1;
            }
            pos.play_unchecked(p.mv);
        }
        for t in g.training_positions() {
            let within = t.position.board().occupied().count() <= 4;
            assert_eq!(t.wdl.is_some(), within);
            training += usize::from(t.wdl.is_some());
        }
    }
    println!("labels by WDL -2..=2: {labelled:?}, training positions labelled: {training}");
    // The won game gives wins and losses (both sides move), the drawn one draws.
    assert!(
        labelled[0] > 0 && labelled[4] > 0 && labelled[2] > 0,
        "{labelled:?}"
    );
    assert!(training > 0);
    assert_eq!(report.labelled_plies, labelled.iter().sum::<usize>() as u64);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_games_end_where_they_reach_the_tables() {
    let dir = std::env::temp_dir().join(format!("shatranj-tb-adjudicate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let report = generate(
        &datagen_config(false),
        &dir,
        &AtomicBool::new(false),
        |_| {},
    )
    .unwrap();
    let games = read_shard(&report.shards[0]).unwrap();
    let tb = tables();
    for g in &games {
        // The capture into the tables is the last ply, and the result is theirs.
        assert_eq!(g.plies.len(), 1, "game {}", g.index);
        let mut end = g.start;
        end.play_unchecked(g.plies[0].mv);
        assert_eq!(g.winner, table_winner(&tb, &end), "game {}", g.index);
        assert!(g.plies.iter().all(|p| p.wdl.is_none()));
    }
    assert_eq!(report.labelled_plies, 0);
    // Labels without tables are refused.
    let mut bad = datagen_config(true);
    bad.game.tablebases = SyzygySettings::default();
    let e = bad.validate().unwrap_err().to_string();
    assert!(e.contains("tablebase labels"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

//! How games end beyond the board itself: resignation, flag fall, agreement, the two modes of
//! applying the draw rules, and the clock (R4.2, R4.3, R4.7, R4.9, R5.1, R5.2, R6.1).

use shatranj_chess::outcome::{can_still_mate, resignation, time_forfeit};
use shatranj_chess::san::parse_san;
use shatranj_chess::{Clock, Color, FlagFall, History, Position, Rules, Termination};
use std::time::Duration;

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn game(fen: &str, sans: &[&str]) -> History {
    let mut h = History::new(pos(fen));
    for san in sans {
        let m = parse_san(h.position(), san).unwrap_or_else(|e| panic!("{san}: {e}"));
        h.push(m).unwrap();
    }
    h
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn r4_2_resignation_ends_the_game_and_the_opponent_wins() {
    // R4.2: resignation ends the game at once; the other side wins.
    let p = pos(START);
    for rules in [Rules::Fide, Rules::Automatic] {
        let o = resignation(&p, Color::White, rules);
        assert_eq!(
            (o.termination, o.winner, o.result()),
            (Termination::Resignation, Some(Color::Black), "0-1")
        );
        let o = resignation(&p, Color::Black, rules);
        assert_eq!((o.winner, o.result()), (Some(Color::White), "1-0"));
        assert_eq!(o.termination.name(), "RESIGNATION");
    }
}

#[test]
fn r4_3_flag_fall_loses() {
    // R4.3: the player whose time runs out loses.
    let p = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    let o = time_forfeit(&p, Color::Black, Rules::Fide);
    assert_eq!(
        (o.termination, o.winner),
        (Termination::TimeForfeit, Some(Color::White))
    );
    assert_eq!(o.termination.name(), "TIME_FORFEIT");
}

#[test]
fn r4_9_resignation_or_flag_fall_draws_when_the_opponent_cannot_mate() {
    // R4.9: a draw, not a loss, when the opponent cannot checkmate by any series of moves.
    // White resigns or flags with only Black's king, or king and knight against a lone king,
    // left to mate with.
    for fen in [
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/8/8/2n5/8/8/8/4K3 w - - 0 1",
    ] {
        let p = pos(fen);
        assert!(!can_still_mate(&p, Color::Black, Rules::Fide), "{fen}");
        for o in [
            resignation(&p, Color::White, Rules::Fide),
            time_forfeit(&p, Color::White, Rules::Fide),
        ] {
            assert_eq!(o.winner, None, "{fen}");
            assert_eq!(o.result(), "1/2-1/2");
        }
    }
    // A pawn can promote and mate: the flag fall loses. So can a knight when the loser's own
    // pawn may box its king in (a helpmate exists), so "cannot mate" is never said wrongly.
    for fen in [
        "4k3/4p3/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/2n5/8/8/4P3/4K3 w - - 0 1",
    ] {
        let p = pos(fen);
        assert!(can_still_mate(&p, Color::Black, Rules::Fide), "{fen}");
        assert_eq!(
            time_forfeit(&p, Color::White, Rules::Fide).winner,
            Some(Color::Black),
            "{fen}"
        );
    }
}

#[test]
fn r4_9_r5_1_a_locked_pawn_wall_saves_the_flagged_player_in_fide_mode() {
    // R4.9 with R5.1's real test: behind a wall no king can cross, Black can never mate, so
    // White's flag fall or resignation is a draw. R5.2 judges by material only: a loss.
    let p = pos("8/8/8/1k6/p1p1p1p1/P1P1P1P1/8/5K2 w - - 0 1");
    assert!(!can_still_mate(&p, Color::Black, Rules::Fide));
    assert_eq!(time_forfeit(&p, Color::White, Rules::Fide).winner, None);
    assert_eq!(resignation(&p, Color::White, Rules::Fide).winner, None);
    assert_eq!(
        time_forfeit(&p, Color::White, Rules::Automatic).winner,
        Some(Color::Black)
    );
}

#[test]
fn r5_2_after_resignation_only_a_lone_king_saves_the_draw() {
    // R5.2: automatically judged, resignation or flag fall is a draw only against a lone king;
    // a lone knight that cannot mate still wins. R5.1: FIDE mode uses the real test.
    let p = pos("4k3/8/8/2n5/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        time_forfeit(&p, Color::White, Rules::Automatic).winner,
        Some(Color::Black)
    );
    assert_eq!(time_forfeit(&p, Color::White, Rules::Fide).winner, None);
    let lone = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(
        resignation(&lone, Color::White, Rules::Automatic).winner,
        None
    );
}

#[test]
fn r5_1_fide_mode_threefold_and_fifty_are_claims_only() {
    // R5.1: in FIDE mode the third occurrence and the fifty-move condition do not end the
    // game by themselves; the player may claim. R5.2: automatic mode ends it at once.
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
    let h = game(START, &shuffle);
    assert!(h.is_repetition(3));
    assert!(h.can_claim_threefold_repetition());
    assert_eq!(h.outcome_under(Rules::Fide), None);
    let o = h.outcome_under(Rules::Automatic).unwrap();
    assert_eq!(
        (o.termination, o.winner),
        (Termination::ThreefoldRepetition, None)
    );

    let fifty = History::new(pos("4k3/8/8/8/8/8/R7/4K3 w - - 100 80"));
    assert!(fifty.can_claim_fifty_moves());
    assert_eq!(fifty.outcome_under(Rules::Fide), None);
    assert_eq!(
        fifty.outcome_under(Rules::Automatic).unwrap().termination,
        Termination::FiftyMoves
    );

    // Both modes end the game at the fifth occurrence and at seventy-five moves.
    let h = game(START, &[&shuffle[..], &shuffle[..]].concat());
    assert_eq!(
        h.outcome_under(Rules::Fide).unwrap().termination,
        Termination::FivefoldRepetition
    );
    let h = History::new(pos("4k3/8/8/8/8/8/R7/4K3 w - - 150 100"));
    for rules in [Rules::Fide, Rules::Automatic] {
        assert_eq!(
            h.outcome_under(rules).unwrap().termination,
            Termination::SeventyfiveMoves
        );
    }
    // Checkmate comes first in both.
    let mate = game(START, &["f3", "e5", "g4", "Qh4#"]);
    for rules in [Rules::Fide, Rules::Automatic] {
        let o = mate.outcome_under(rules).unwrap();
        assert_eq!(
            (o.termination, o.winner),
            (Termination::Checkmate, Some(Color::Black))
        );
    }
}

#[test]
fn r4_6_r5_1_fide_outcome_ends_a_dead_position() {
    // R4.6: under FIDE rules a dead position ends the game at once, by the real test; the
    // python-chess outcome (and automatic mode, R5.2) judge by the material list alone.
    let wall = History::new(pos("8/8/8/1k6/p1p1p1p1/P1P1P1P1/8/5K2 w - - 0 1"));
    let o = wall.outcome_under(Rules::Fide).unwrap();
    assert_eq!((o.termination, o.winner), (Termination::DeadPosition, None));
    assert_eq!(wall.outcome(false), None);
    assert_eq!(wall.outcome_under(Rules::Automatic), None);
    // Barrier pawns (issue 39): no pawn ever passes, and behind the wall no king is checked.
    let facing = History::new(pos(
        "3k4/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/3K4 w - - 0 1",
    ));
    assert_eq!(
        facing.outcome_under(Rules::Fide).map(|o| o.termination),
        Some(Termination::DeadPosition)
    );
    // The material list keeps its own name, and a live position is not over.
    let bare = History::new(pos("8/8/4k3/8/8/3K4/8/8 w - - 0 1"));
    assert_eq!(
        bare.outcome_under(Rules::Fide).map(|o| o.termination),
        Some(Termination::InsufficientMaterial)
    );
    assert_eq!(History::new(pos(START)).outcome_under(Rules::Fide), None);
}

#[test]
fn r4_7_agreement_needs_a_move_from_each_player() {
    // R4.7: a draw by agreement, once each player has made at least one move.
    let h = game(START, &[]);
    assert_eq!(h.draw_by_agreement().unwrap_err().moves, 0);
    let h = game(START, &["e4"]);
    let err = h.draw_by_agreement().unwrap_err();
    assert_eq!(err.moves, 1);
    assert!(err.to_string().contains("each player"), "{err}");
    let h = game(START, &["e4", "e5"]);
    let o = h.draw_by_agreement().unwrap();
    assert_eq!(
        (o.termination, o.winner, o.result()),
        (Termination::Agreement, None, "1/2-1/2")
    );
    assert_eq!(o.termination.name(), "AGREEMENT");
}

#[test]
fn r6_1_clocks_start_equal_and_switch_when_a_move_is_made() {
    // R6.1: equal time; after moving, a player's clock stops (plus the increment) and the
    // opponent's starts. R4.3: using more than the time left is a flag fall.
    let mut c = Clock::new(
        Duration::from_secs(300),
        Duration::from_secs(3),
        Color::White,
    );
    assert_eq!(c.remaining(Color::White), c.remaining(Color::Black));
    assert_eq!(c.to_move(), Color::White);
    c.record_move(Duration::from_secs(10)).unwrap();
    assert_eq!(c.remaining(Color::White), Duration::from_secs(293));
    assert_eq!(c.remaining(Color::Black), Duration::from_secs(300));
    assert_eq!(c.to_move(), Color::Black);
    c.record_move(Duration::from_secs(300)).unwrap(); // exactly all the time left: in time
    assert_eq!(c.remaining(Color::Black), Duration::from_secs(3));
    assert_eq!(c.to_move(), Color::White);
    c.record_move(Duration::from_secs(1)).unwrap();
    let flag = c.record_move(Duration::from_millis(3001)).unwrap_err();
    assert_eq!(
        flag,
        FlagFall {
            color: Color::Black
        }
    );
    assert_eq!(c.remaining(Color::Black), Duration::ZERO);
    assert_eq!(
        c.to_move(),
        Color::Black,
        "a move not completed in time does not pass the turn"
    );
    assert!(flag.to_string().contains("black"));
}

/// A null move (python-chess's `Move.null()`, for analysis; not a chess move) passes the turn,
/// is refused in check (R3.9: it would leave the king in check), bounds repetitions, and
/// replays from `moves()` like any other move.
#[test]
fn null_moves_pass_the_turn_and_are_refused_in_check() {
    let mut game = History::new(Position::new());
    assert!(game.push_null());
    assert_eq!(
        game.position().fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 1 1"
    );
    assert_eq!(game.moves(), &[shatranj_chess::Move::NULL]);
    let mut replay = History::new(Position::new());
    for &m in game.moves() {
        replay.push_unchecked(m);
    }
    assert_eq!(replay.position().fen(), game.position().fen());
    assert_eq!(game.pop(), Some(shatranj_chess::Move::NULL));
    assert_eq!(game.position().fen(), Position::new().fen());
    let mut in_check = History::new(pos("4k3/8/8/8/8/8/8/4K2r w - - 0 1"));
    assert!(!in_check.push_null());
    assert!(in_check.moves().is_empty());
}

//! `Game`: games played through to every ending, with the arbiter's decisions (R2.1, R4.1–R4.9,
//! R5.1, R5.2, R6.1, R7).
//!
//! Most cases are scripts: a start position, the rules, a time control and a list of actions,
//! each checked as it happens, then the expected ending. Script tokens:
//! - `e4`, `e4@12.5`: a move in SAN (thinking time in seconds after `@`), which must be played;
//! - `?Ke2`, `?uci:e2e5@3`: an illegal move, which must be refused;
//! - `uci:e2e4`: a move in UCI notation;
//! - `resign:w`, `offer:b`, `accept:w`, `decline:b`: a player's act (w or b);
//! - `claim`, `claim:Ng8`: the player to move claims a draw (with an announced move) and the
//!   claim must succeed; `-claim`, `-claim:e5`: it must fail;
//! - `spend@30`: time passes on the clock of the player to move.

use shatranj_chess::game::FIDE_ILLEGAL_MOVE_LIMIT;
use shatranj_chess::san::parse_san;
use shatranj_chess::{Color, Game, GameError, Outcome, Position, Rules, Termination, TimeControl};
use shatranj_pgn::GamePgn;
use std::num::NonZeroU32;
use std::time::Duration;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const SHUFFLE: &str = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8";

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn color(text: &str) -> Color {
    match text {
        "w" => Color::White,
        "b" => Color::Black,
        _ => panic!("colour {text:?}"),
    }
}

fn secs(text: Option<&str>) -> Duration {
    Duration::from_secs_f64(text.map_or(0.0, |t| t.parse().unwrap()))
}

/// Plays `script` (see the module docs) on `game`, checking each action as it goes.
fn play(game: &mut Game, script: &str) {
    for token in script.split_whitespace() {
        let (action, time) = match token.split_once('@') {
            Some((a, t)) => (a, Some(t)),
            None => (token, None),
        };
        let spent = secs(time);
        let context = format!("{token} in {}", game.position().fen());
        if let Some(illegal) = action.strip_prefix('?') {
            let err = match illegal.strip_prefix("uci:") {
                Some(uci) => game.push_uci(uci, spent),
                None => game.push_san(illegal, spent),
            }
            .expect_err(&context);
            assert!(
                matches!(err, GameError::IllegalMove { .. }),
                "{context}: {err}"
            );
            continue;
        }
        if let Some((verb, arg)) = action.split_once(':') {
            match verb {
                "uci" => {
                    game.push_uci(arg, spent).expect(&context);
                }
                "resign" => {
                    game.resign(color(arg)).expect(&context);
                }
                "offer" => {
                    game.offer_draw(color(arg)).expect(&context);
                }
                "accept" => {
                    game.accept_draw(color(arg)).expect(&context);
                }
                "decline" => game.decline_draw(color(arg)).expect(&context),
                "claim" | "-claim" => {
                    let m = parse_san(game.position(), arg).expect(&context);
                    let ok = game.claim_draw(Some(m)).expect(&context);
                    assert_eq!(ok, verb == "claim", "{context}");
                }
                _ => panic!("unknown action {token}"),
            }
            continue;
        }
        match action {
            "claim" | "-claim" => {
                let ok = game.claim_draw(None).expect(&context);
                assert_eq!(ok, action == "claim", "{context}");
            }
            "spend" => {
                game.spend(spent).expect(&context);
            }
            san => {
                let before = game.moves().len();
                let result = game.push_san(san, spent).expect(&context);
                if game.moves().len() != before + 1 {
                    // Only a flag fall may keep a legal move off the board (R4.3).
                    assert_eq!(
                        result.map(|o| o.termination),
                        Some(Termination::TimeForfeit),
                        "{context}"
                    );
                }
            }
        }
    }
}

struct Case {
    /// The rule ids the case checks, and what it shows.
    about: &'static str,
    fen: &'static str,
    rules: Rules,
    time_control: Option<&'static str>,
    script: &'static str,
    /// The ending: termination and winner (`None` a draw), or `None` when play goes on.
    end: Option<(Termination, Option<Color>)>,
}

const W: Option<Color> = Some(Color::White);
const B: Option<Color> = Some(Color::Black);
const DRAW: Option<Color> = None;
const FIDE: Rules = Rules::Fide;
const AUTO: Rules = Rules::Automatic;

#[rustfmt::skip]
fn cases() -> Vec<Case> {
    use Termination::*;
    let case = |about, fen, rules, time_control, script, end| Case {
        about,
        fen,
        rules,
        time_control,
        script,
        end,
    };
    vec![
        case("R4.1 fool's mate (FIDE)", START, FIDE, None, "f3 e5 g4 Qh4#", Some((Checkmate, B))),
        case("R4.1 fool's mate (automatic)", START, AUTO, None, "f3 e5 g4 Qh4#", Some((Checkmate, B))),
        case("R4.5 stalemate", "k7/8/8/1Q6/8/8/8/7K w - - 0 1", FIDE, None, "Qb6", Some((Stalemate, DRAW))),
        case(
            "R4.6 K+B v K after a capture: the material list, both modes",
            "4k3/8/8/8/8/8/3r4/3BK3 w - - 0 1", AUTO, None, "Kxd2", Some((InsufficientMaterial, DRAW)),
        ),
        case(
            "R4.6 R5.1 a locked wall left after a capture is dead in FIDE mode",
            "8/8/8/1k6/p1p1p1p1/P1P1P1P1/5n2/5K2 w - - 0 1", FIDE, None, "Kxf2", Some((DeadPosition, DRAW)),
        ),
        case(
            "R4.6 R5.2 automatic mode knows only the material list: the wall plays on",
            "8/8/8/1k6/p1p1p1p1/P1P1P1P1/5n2/5K2 w - - 0 1", AUTO, None, "Kxf2", None,
        ),
        case(
            "R4.6 K+N+N v K is not dead: play goes on",
            "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", FIDE, None, "Ke4 Kf6", None,
        ),
        case("R4.8 R5.1 the third occurrence does not end a FIDE game", START, FIDE, None, SHUFFLE, None),
        case(
            "R4.8 R5.1 the fifth occurrence ends a FIDE game by itself",
            START, FIDE, None, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", Some((FivefoldRepetition, DRAW)),
        ),
        case(
            "R5.2 automatic mode draws at the third occurrence",
            START, AUTO, None, SHUFFLE, Some((ThreefoldRepetition, DRAW)),
        ),
        case(
            "R4.8 seventy-five moves end the game without a claim",
            "4k3/8/8/8/8/8/R7/4K3 w - - 149 100", FIDE, None, "Rb2", Some((SeventyfiveMoves, DRAW)),
        ),
        case(
            "R4.8 a mate on the 75th move stands",
            "k7/8/1K6/8/8/8/8/7R w - - 149 100", FIDE, None, "Rh8#", Some((Checkmate, W)),
        ),
        case(
            "R5.1 fifty moves is only a claim in FIDE mode",
            "4k3/8/8/8/8/8/R7/4K3 w - - 99 80", FIDE, None, "Rb2", None,
        ),
        case(
            "R5.2 fifty moves ends an automatic game at once",
            "4k3/8/8/8/8/8/R7/4K3 w - - 99 80", AUTO, None, "Rb2", Some((FiftyMoves, DRAW)),
        ),
        case(
            "R4.8 threefold claim in the position now",
            START, FIDE, None, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 claim", Some((ThreefoldRepetition, DRAW)),
        ),
        case(
            "R4.8 threefold claim with the announced move",
            START, FIDE, None, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 -claim -claim:e5 claim:Ng8", Some((ThreefoldRepetition, DRAW)),
        ),
        case(
            "R4.8 fifty-move claim now",
            "4k3/8/8/8/8/8/R7/4K3 w - - 99 80", FIDE, None, "-claim Rb2 claim", Some((FiftyMoves, DRAW)),
        ),
        case(
            "R4.8 fifty-move claim with the announced move; a pawn move or capture does not complete it",
            "4k3/8/8/8/8/8/R5P1/4K3 w - - 99 80", FIDE, None, "-claim:g4 claim:Rb2", Some((FiftyMoves, DRAW)),
        ),
        case("R4.2 resignation: the opponent wins", START, FIDE, None, "e4 resign:b", Some((Resignation, W))),
        case("R4.2 resignation off move", START, AUTO, None, "e4 resign:w", Some((Resignation, B))),
        case(
            "R4.9 resigning against a lone king draws",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", FIDE, None, "resign:w", Some((Resignation, DRAW)),
        ),
        case(
            "R4.9 R5.1 resigning against K+N draws in FIDE mode",
            "4k3/8/8/2n5/8/8/8/Q3K3 w - - 0 1", FIDE, None, "Kd1 resign:w", Some((Resignation, DRAW)),
        ),
        case(
            "R5.2 resigning against K+N loses in automatic mode",
            "4k3/8/8/2n5/8/8/8/Q3K3 w - - 0 1", AUTO, None, "Kd1 resign:w", Some((Resignation, B)),
        ),
        case(
            "R4.3 using more than the time left loses on time; the move is not played",
            START, FIDE, Some("1+0"), "e4@30 e5@59 Nf3@30.5", Some((TimeForfeit, B)),
        ),
        case(
            "R4.3 R6.1 exactly the time left is in time, and the increment follows",
            START, FIDE, Some("1+1"), "e4@60 e5@60 Nf3@1 Nc6@1", None,
        ),
        case(
            "R4.9 a flag fall against a lone king draws",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", FIDE, Some("1+0"), "e4@61", Some((TimeForfeit, DRAW)),
        ),
        case(
            "R5.2 a flag fall against K+N loses in automatic mode",
            "4k3/8/8/2n5/8/8/8/Q3K3 w - - 0 1", AUTO, Some("1+0"), "Kd1@61", Some((TimeForfeit, B)),
        ),
        case(
            "R4.9 R5.1 a flag fall against K+N draws in FIDE mode",
            "4k3/8/8/2n5/8/8/8/Q3K3 w - - 0 1", FIDE, Some("1+0"), "Kd1@61", Some((TimeForfeit, DRAW)),
        ),
        case(
            "R4.3 time passing without a move",
            START, FIDE, Some("1+0"), "e4 spend@30 spend@31", Some((TimeForfeit, W)),
        ),
        case(
            "R4.3 R4.4 a refused move's time is charged: the flag falls on the next",
            START, FIDE, Some("1+0"), "?Ke2@40 e4@21", Some((TimeForfeit, B)),
        ),
        case("R4.4 two illegal moves are warnings", START, FIDE, None, "?Ke2 e4 ?uci:e8e6 e5 ?Ke3", None),
        case(
            "R4.4 the third illegal move loses",
            START, FIDE, None, "?Ke2 e4 e5 ?uci:e1e3 ?uci:0000", Some((IllegalMoves, B)),
        ),
        case(
            "R4.4 R4.9 the third illegal move draws when the opponent cannot mate",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", FIDE, None, "?Ke3 ?uci:e1e3 ?Kd3", Some((IllegalMoves, DRAW)),
        ),
        case(
            "R4.4 R5.2 automatic mode refuses illegal moves without a penalty",
            START, AUTO, None, "?Ke2 ?Ke2 ?Ke2 ?Ke2 e4", None,
        ),
        case(
            "R4.7 agreement: offer and acceptance",
            START, FIDE, None, "e4 e5 offer:w accept:b", Some((Agreement, DRAW)),
        ),
        case(
            "R4.7 two offers are an agreement",
            START, FIDE, None, "e4 e5 offer:b offer:w", Some((Agreement, DRAW)),
        ),
        case(
            "R4.7 the offer stands while the offerer moves, until the opponent answers",
            START, FIDE, None, "e4 e5 offer:w Nf3 accept:b", Some((Agreement, DRAW)),
        ),
        case("R4.7 a declined offer: play goes on", START, FIDE, None, "e4 e5 offer:w decline:b Nf3", None),
    ]
}

#[test]
fn r4_r5_scripted_games_end_as_the_rules_say() {
    for case in cases() {
        let tc = case.time_control.map(|t| t.parse::<TimeControl>().unwrap());
        let mut game = Game::new(pos(case.fen), case.rules, tc);
        assert!(!game.is_over(), "{}: over before the script", case.about);
        play(&mut game, case.script);
        let got = game.outcome().map(|o| (o.termination, o.winner));
        assert_eq!(got, case.end, "{}", case.about);
        assert_eq!(game.is_over(), case.end.is_some(), "{}", case.about);
    }
}

#[test]
fn r4_7_an_offer_lapses_when_the_opponent_moves() {
    // FIDE 9.1.2.2: playing on instead of accepting lets the offer lapse.
    let mut game = Game::default();
    play(&mut game, "e4 e5 offer:w Nf3");
    assert_eq!(game.draw_offer(), Some(Color::White));
    play(&mut game, "Nc6");
    assert_eq!(game.draw_offer(), None);
    let err = game.accept_draw(Color::Black).unwrap_err();
    assert_eq!(
        err,
        GameError::NoDrawOffer {
            color: Color::Black
        }
    );
    // Nor may a player accept his own offer.
    play(&mut game, "offer:w");
    assert!(matches!(
        game.accept_draw(Color::White),
        Err(GameError::NoDrawOffer { .. })
    ));
    assert!(!game.is_over());
}

#[test]
fn r4_7_no_offer_or_agreement_before_each_player_has_moved() {
    for script in ["", "e4"] {
        let mut game = Game::default();
        play(&mut game, script);
        for c in Color::ALL {
            let err = game.offer_draw(c).unwrap_err();
            assert!(matches!(err, GameError::TooEarlyForDraw(_)), "{script:?}");
            assert!(err.to_string().contains("each player"), "{err}");
            assert!(game.accept_draw(c).is_err());
        }
        assert_eq!(game.draw_offer(), None);
    }
}

#[test]
fn r4_4_illegal_moves_are_counted_per_player_and_the_limit_is_configurable() {
    let mut game = Game::default();
    assert_eq!(game.illegal_move_limit(), Some(FIDE_ILLEGAL_MOVE_LIMIT));
    assert_eq!(FIDE_ILLEGAL_MOVE_LIMIT.get(), 3);
    let err = game.push_san("Ke2", Duration::ZERO).unwrap_err();
    match &err {
        GameError::IllegalMove {
            color,
            count,
            limit,
            lost,
            ..
        } => {
            assert_eq!((*color, *count, *lost), (Color::White, 1, None));
            assert_eq!(limit.map(NonZeroU32::get), Some(3));
        }
        other => panic!("{other}"),
    }
    assert!(
        err.to_string()
            .contains("number 1; illegal move number 3 loses"),
        "{err}"
    );
    play(&mut game, "e4 ?Ke7 ?Ke7");
    assert_eq!(game.illegal_moves(Color::White), 1);
    assert_eq!(game.illegal_moves(Color::Black), 2);
    // A limit of one: the next illegal move loses at once.
    game.set_illegal_move_limit(NonZeroU32::new(1));
    let err = game.push_san("Ke7", Duration::ZERO).unwrap_err();
    let GameError::IllegalMove { lost: Some(o), .. } = err else {
        panic!("{err}");
    };
    assert_eq!((o.termination, o.winner), (Termination::IllegalMoves, W));
    assert_eq!(game.ended_by(), Some(Color::Black));

    // Automatic mode: no limit by default; one may be set.
    let mut game = Game::new(Position::new(), AUTO, None);
    assert_eq!(game.illegal_move_limit(), None);
    play(&mut game, "?Ke2 ?Ke2 ?Ke2");
    assert_eq!(game.illegal_moves(Color::White), 3);
    game.set_illegal_move_limit(NonZeroU32::new(4));
    play(&mut game, "?Ke2");
    assert_eq!(
        game.outcome().unwrap().termination,
        Termination::IllegalMoves
    );
}

#[test]
fn r4_4_bad_notation_is_not_a_move_and_not_counted() {
    let mut game = Game::new(Position::new(), FIDE, Some("1+0".parse().unwrap()));
    for text in ["", "Zz9", "e9", "hello"] {
        let err = game.push_san(text, Duration::from_secs(5)).unwrap_err();
        assert!(matches!(err, GameError::Notation(_)), "{text:?}: {err}");
    }
    let err = game.push_uci("e2", Duration::from_secs(5)).unwrap_err();
    assert!(matches!(err, GameError::UciNotation(_)), "{err}");
    // Ambiguous SAN is not counted either.
    let mut knights = Game::new(pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"), FIDE, None);
    assert!(matches!(
        knights.push_san("Nd2", Duration::ZERO),
        Err(GameError::Notation(_))
    ));
    assert_eq!(knights.illegal_moves(Color::White), 0);
    assert_eq!(game.illegal_moves(Color::White), 0);
    assert_eq!(game.remaining(Color::White), Some(Duration::from_secs(60)));
}

#[test]
fn r6_1_thinking_time_and_increment_on_the_clocks() {
    let tc: TimeControl = "3+2".parse().unwrap();
    let mut game = Game::new(Position::new(), FIDE, Some(tc));
    let left = |g: &Game, c| g.remaining(c).unwrap().as_secs_f64();
    assert_eq!(left(&game, Color::White), 180.0);
    assert_eq!(left(&game, Color::Black), 180.0);
    play(&mut game, "e4@10");
    assert_eq!(left(&game, Color::White), 172.0, "180 - 10 + 2");
    assert_eq!(left(&game, Color::Black), 180.0);
    // A refused move costs its time but earns no increment; the turn stays.
    play(&mut game, "?Ke7@5 e5@2.5");
    assert_eq!(left(&game, Color::Black), 174.5, "180 - 5 - 2.5 + 2");
    assert_eq!(game.position().turn(), Color::White);
    // No clock without a time control.
    assert_eq!(Game::default().remaining(Color::White), None);
}

#[test]
fn r4_3_the_flag_falls_before_the_move_is_complete() {
    let mut game = Game::new(Position::new(), FIDE, Some("1+5".parse().unwrap()));
    let outcome = game
        .push_san("e4", Duration::from_millis(60_001))
        .unwrap()
        .unwrap();
    assert_eq!(
        (outcome.termination, outcome.winner),
        (Termination::TimeForfeit, B)
    );
    assert!(game.moves().is_empty(), "the move was not completed");
    assert_eq!(game.remaining(Color::White), Some(Duration::ZERO));
    assert_eq!(game.ended_by(), Some(Color::White));
}

#[test]
fn r4_after_the_end_nothing_more_happens() {
    let mut game = Game::default();
    play(&mut game, "f3 e5 g4 Qh4#");
    let over = GameError::GameOver {
        outcome: game.outcome().unwrap(),
    };
    let m = parse_san(&pos(START), "e4").unwrap();
    assert_eq!(game.push(m, Duration::ZERO), Err(over.clone()));
    assert_eq!(game.push_san("Kf2", Duration::ZERO), Err(over.clone()));
    assert_eq!(game.push_uci("e1f2", Duration::ZERO), Err(over.clone()));
    assert_eq!(game.resign(Color::White), Err(over.clone()));
    assert_eq!(game.offer_draw(Color::White), Err(over.clone()));
    assert_eq!(game.accept_draw(Color::White), Err(over.clone()));
    assert_eq!(game.claim_draw(None), Err(over.clone()));
    assert_eq!(game.spend(Duration::ZERO), Err(over.clone()));
    assert!(over.to_string().contains("over"), "{over}");
    assert_eq!(game.moves().len(), 4);
}

#[test]
fn r4_a_start_position_already_over_is_a_game_over() {
    for (fen, rules, termination) in [
        (
            "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
            FIDE,
            Termination::Checkmate,
        ),
        (
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            FIDE,
            Termination::Stalemate,
        ),
        (
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            AUTO,
            Termination::InsufficientMaterial,
        ),
        (
            "8/8/8/1k6/p1p1p1p1/P1P1P1P1/8/5K2 w - - 0 1",
            FIDE,
            Termination::DeadPosition,
        ),
        (
            "4k3/8/8/8/8/8/R7/4K3 w - - 100 80",
            AUTO,
            Termination::FiftyMoves,
        ),
    ] {
        let game = Game::new(pos(fen), rules, None);
        assert_eq!(
            game.outcome().map(|o| o.termination),
            Some(termination),
            "{fen}"
        );
    }
}

#[test]
fn r4_8_r5_2_claims() {
    // R5.2: no claims in automatic mode, where the draws come by themselves.
    let mut game = Game::new(Position::new(), AUTO, None);
    assert_eq!(game.claim_draw(None), Err(GameError::ClaimInAutomaticMode));
    // R4.8: the announced move must be legal; an illegal one is an error, not a claim.
    let mut game = Game::default();
    let bad = shatranj_chess::Move::normal(shatranj_chess::Square::E2, shatranj_chess::Square::E5);
    assert!(matches!(
        game.claim_draw(Some(bad)),
        Err(GameError::IllegalAnnouncedMove { .. })
    ));
    assert_eq!(game.illegal_moves(Color::White), 0);
    // A correct claim with an announced move ends the game without playing it.
    play(&mut game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 claim:Ng8");
    assert_eq!(game.moves().len(), 7);
    assert_eq!(game.ended_by(), Some(Color::Black));
}

#[test]
fn r2_1_results_and_scores() {
    // R2.1: win 1, draw ½, loss 0, as half points 2, 1, 0.
    for (script, result, white, black) in [
        ("f3 e5 g4 Qh4#", "0-1", 0, 2),
        ("e4 resign:b", "1-0", 2, 0),
        ("e4 e5 offer:w accept:b", "1/2-1/2", 1, 1),
    ] {
        let mut game = Game::default();
        assert_eq!((game.result(), game.half_points(Color::White)), ("*", None));
        play(&mut game, script);
        assert_eq!(game.result(), result, "{script}");
        assert_eq!(game.half_points(Color::White), Some(white), "{script}");
        assert_eq!(game.half_points(Color::Black), Some(black), "{script}");
    }
}

#[test]
fn r6_1_time_controls_read_and_refused() {
    let s = Duration::from_secs;
    for (text, base, increment) in [
        ("5+3", s(300), s(3)),
        ("90+30", s(5400), s(30)),
        ("300+0", s(18000), s(0)),
        (" 3 + 2 ", s(180), s(2)),
        ("0.5+0", s(30), s(0)),
        ("300s+0", s(300), s(0)),
        ("1m+2s", s(60), s(2)),
        ("10+0.5", s(600), Duration::from_millis(500)),
        ("2+1m", s(120), s(60)),
    ] {
        let tc: TimeControl = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!((tc.base, tc.increment), (base, increment), "{text}");
        assert_eq!(tc.to_string().parse::<TimeControl>().unwrap(), tc, "{text}");
    }
    for (text, base, increment) in [("300+3", 300, 3), ("180", 180, 0), ("5400+30", 5400, 30)] {
        let tc = TimeControl::from_pgn(text).unwrap();
        assert_eq!((tc.base, tc.increment), (s(base), s(increment)), "{text}");
        assert_eq!(TimeControl::from_pgn(&tc.to_pgn()).unwrap(), tc);
    }
    for (text, why) in [
        ("", "'+'"),
        ("5", "'+'"),
        ("5+", "number"),
        ("+3", "number"),
        ("a+b", "number"),
        ("-5+3", "number"),
        ("5+-3", "number"),
        ("0+3", "positive"),
        ("5+3+1", "number"),
        ("inf+0", "number"),
        ("NaN+0", "number"),
        ("1e3+0", "number"),
        ("5h+0", "number"),
        ("99999999999999999999+0", "large"),
    ] {
        let err = text.parse::<TimeControl>().unwrap_err();
        assert_eq!(err.text, text);
        assert!(err.to_string().contains(why), "{text:?}: {err}");
    }
    assert!(TimeControl::from_pgn("?").is_err());
    assert!(TimeControl::new(Duration::ZERO, s(1)).is_err());
}

#[test]
fn r7_movetext_numbers_moves_from_either_side() {
    let mut game = Game::default();
    play(&mut game, "e4 e5 Nf3");
    assert!(game.pgn(&[]).unwrap().contains("\n\n1. e4 e5 2. Nf3 *"));
    let black = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7");
    let mut game = Game::new(black, FIDE, None);
    play(&mut game, "e5 Qh5 Nc6 Bc4 Nf6 Qxf7#");
    assert!(
        game.pgn(&[])
            .unwrap()
            .contains("\n\n7... e5 8. Qh5 Nc6 9. Bc4 Nf6 10. Qxf7# { Black is checkmated. } 1-0"),
        "{}",
        game.pgn(&[]).unwrap()
    );
}

#[test]
fn r7_pgn_export_has_the_roster_the_result_and_the_termination() {
    let mut game = Game::new(Position::new(), FIDE, Some("5+3".parse().unwrap()));
    play(&mut game, "e4@1 e5@1 offer:b Nf3@2 Nc6 Bb5 a6 resign:w");
    let pgn = game
        .pgn(&[
            ("White", "Ann \"A\" Lee"),
            ("Event", "Club"),
            ("Annotator", "x\\y"),
        ])
        .unwrap();
    let expected = "[Event \"Club\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
        [White \"Ann \\\"A\\\" Lee\"]\n[Black \"?\"]\n[Result \"0-1\"]\n[TimeControl \"300+3\"]\n\
        [Termination \"normal\"]\n[Annotator \"x\\\\y\"]\n\n\
        1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 { White resigns. } 0-1\n\n";
    assert_eq!(pgn, expected);

    // From a set-up position, on time, the result cannot be overridden.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let mut game = Game::new(pos(fen), FIDE, Some("1+0".parse().unwrap()));
    play(&mut game, "e4@61");
    let pgn = game.pgn(&[("Result", "1-0")]).unwrap();
    assert!(
        pgn.contains("[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n"),
        "{pgn}"
    );
    assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
    assert!(pgn.ends_with(
        "{ White's time ran out; Black cannot checkmate, so the game is drawn. } 1/2-1/2\n\n"
    ));

    // Unfinished: "*" and "unterminated"; long games wrap at 80 columns.
    let mut game = Game::default();
    play(&mut game, &format!("{SHUFFLE} Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"));
    let pgn = game.pgn(&[]).unwrap();
    assert!(pgn.contains("[Termination \"unterminated\"]"), "{pgn}");
    assert!(pgn.trim_end().ends_with(" *"), "{pgn}");
    assert!(pgn.lines().all(|l| l.len() <= 80), "{pgn}");
    assert!(game.pgn(&[("Bad Name", "x")]).is_err());
    assert!(game.pgn(&[("", "x")]).is_err());
}

#[test]
fn r7_pgn_says_how_every_kind_of_game_ended() {
    // The closing comment and Termination tag for each kind of ending.
    for (fen, rules, tc, script, comment, tag) in [
        (
            START,
            FIDE,
            None,
            "f3 e5 g4 Qh4#",
            "White is checkmated",
            "normal",
        ),
        (
            START,
            FIDE,
            None,
            "?Ke2 ?Ke2 ?Ke2",
            "White forfeits by illegal moves",
            "rules infraction",
        ),
        (
            START,
            FIDE,
            None,
            "e4 e5 offer:w accept:b",
            "Drawn by agreement",
            "normal",
        ),
        (
            START,
            FIDE,
            None,
            "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 claim:Ng8",
            "Black claims a draw by threefold repetition",
            "normal",
        ),
        (START, AUTO, None, SHUFFLE, "Threefold repetition", "normal"),
        (
            START,
            FIDE,
            Some("1+0"),
            "e4@61",
            "White's time ran out",
            "time forfeit",
        ),
        (
            "k7/8/8/1Q6/8/8/8/7K w - - 0 1",
            FIDE,
            None,
            "Qb6",
            "Stalemate",
            "normal",
        ),
    ] {
        let mut game = Game::new(pos(fen), rules, tc.map(|t: &str| t.parse().unwrap()));
        play(&mut game, script);
        // Lines wrap at 80 columns, inside comments too.
        let pgn = game.pgn(&[]).unwrap().replace('\n', " ");
        assert!(pgn.contains(&format!("{{ {comment}")), "{script}: {pgn}");
        assert!(
            pgn.contains(&format!("[Termination \"{tag}\"]")),
            "{script}: {pgn}"
        );
        let outcome: Outcome = game.outcome().unwrap();
        assert!(pgn.trim_end().ends_with(outcome.result()), "{pgn}");
    }
}

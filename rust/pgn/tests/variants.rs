//! PGN of the lichess variants (issue 54): games read under the rules their `Variant` tag
//! names, written back as python-chess writes them.
//!
//! `pgn/variants.pgn` holds one seeded random game per variant (plus atomic from a Chess960
//! position and crazyhouse from a FEN with pockets), played and exported by python-chess
//! 1.11.2 (`pgn/make_variants.py` made it), each with its final FEN in a `FinalFEN` tag.

use shatranj_chess::SanError;
use shatranj_chess::variant::{AnyVariantPosition, VariantKind, VariantMove};
use shatranj_chess::{Role, Square};
use shatranj_pgn::{
    AnyPgnGame, GameRules, PgnErrorKind, PgnGame, PgnPosition, PgnReader, RawGame, WriteOptions,
    parse_any_game, parse_game, write_game,
};

const VARIANTS: &str = include_str!("pgn/variants.pgn");

fn one_line() -> WriteOptions {
    WriteOptions {
        columns: None,
        ..WriteOptions::default()
    }
}

fn raw(text: &str) -> RawGame {
    RawGame {
        text: text.to_owned(),
        first_line: 1,
    }
}

fn variant_game(text: &str) -> PgnGame<AnyVariantPosition> {
    match parse_any_game(&raw(text)) {
        AnyPgnGame::Variant(g) => g,
        AnyPgnGame::Standard(g) => panic!("read as standard: {:?}", g.errors),
    }
}

fn end_fen(game: &PgnGame<AnyVariantPosition>) -> String {
    let mut pos = game.start;
    for m in game.mainline_moves() {
        pos.play(m).unwrap();
    }
    pos.fen()
}

/// Every game of the file reads under its variant's rules, ends where python-chess's board
/// ended, and writes back exactly as python-chess exported it; read again, it is the same game.
#[test]
fn python_chess_variant_games_read_and_write_back() {
    let texts: Vec<&str> = VARIANTS.split("\n\n[Event").collect();
    assert_eq!(texts.len(), 11);
    let mut reader = PgnReader::new(VARIANTS.as_bytes());
    let mut kinds = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let text = if i == 0 {
            text.to_string()
        } else {
            format!("[Event{text}")
        };
        let game = match reader.next_any().unwrap().unwrap() {
            AnyPgnGame::Variant(g) => g,
            AnyPgnGame::Standard(_) => panic!("game {i} read as standard chess"),
        };
        assert!(game.errors.is_empty(), "game {i}: {:?}", game.errors);
        assert!(!game.mainline_moves().is_empty());
        assert_eq!(
            Some(end_fen(&game).as_str()),
            game.tag("FinalFEN"),
            "game {i}"
        );
        let written = write_game(&game, &one_line()).unwrap();
        assert_eq!(written, text.trim_end(), "game {i}");
        let mut again = variant_game(&format!("{written}\n"));
        again.first_line = game.first_line;
        assert_eq!(again, game, "game {i}");
        kinds.push(game.start.kind());
    }
    assert!(reader.next_any().is_none());
    assert_eq!(reader.games_read(), 11);
    for kind in VariantKind::ALL {
        assert!(kinds.contains(&kind), "no {kind:?} game");
    }
}

/// Drops, promoted pieces going back to the pocket as pawns, antichess's king promotion and
/// atomic's Chess960 castling, each resolved from its SAN.
#[test]
fn variant_san_resolves_drops_promotions_and_castling() {
    let zh = variant_game(
        "[Variant \"Crazyhouse\"]\n[FEN \"4k3/1P6/8/8/8/8/8/4K3[N] w - - 0 1\"]\n\n1. b8=Q+ Kd7 2. N@c5+ Kc6 *\n",
    );
    let moves = zh.mainline_moves();
    assert_eq!(
        moves[2],
        VariantMove::Drop {
            role: Role::Knight,
            to: Square::from_name("c5").unwrap()
        }
    );
    assert_eq!(end_fen(&zh), "1Q~6/8/2k5/2N5/8/8/8/4K3[] w - - 3 3");
    let anti = variant_game(
        "[Variant \"antichess\"]\n[FEN \"8/P7/8/8/8/8/8/7k w - - 0 1\"]\n\n1. a8=K Kg1 *\n",
    );
    assert_eq!(end_fen(&anti), "K7/8/8/8/8/8/8/6k1 w - - 1 2");
    let atomic = variant_game(
        "[Variant \"Atomic\"]\n[FEN \"rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ w KQkq - 0 1\"]\n\n\
         1. g3 d5 2. Nf3 e5 3. Ng5 Bxg5 4. Qf3 Ne6 5. Qa3 a5 6. d4 g6 7. c3 h5 8. h4 Qh6 9. Bd2 Qxd2 10. O-O-O *\n",
    );
    assert!(atomic.start.castling_mode().is_chess960());
    assert_eq!(
        end_fen(&atomic),
        "rkr1b1n1/1pp2p2/4n1p1/p2pp2p/3P3P/Q1P3P1/PP2PP2/2KR1N2 b kq - 1 10"
    );
    // Three-check's counters and the written check marks.
    let three = variant_game("[Variant \"3check\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Bxf7+ Kxf7 *\n");
    assert_eq!(
        end_fen(&three),
        "r1bq1bnr/pppp1kpp/2n5/4p3/4P3/8/PPPP1PPP/RNBQK1NR w KQ - 2+3 0 4"
    );
    assert!(
        write_game(&three, &one_line())
            .unwrap()
            .ends_with("3. Bxf7+ Kxf7 *")
    );
}

/// A move that is illegal, ambiguous or no move at all under the variant's rules gives the
/// errors a standard game gives (the main line's is fatal, as in standard chess).
#[test]
fn variant_move_errors_are_standard_move_errors() {
    // Captures are compulsory in antichess: after 1. e3 b5, only 2. Bxb5 is legal.
    let anti = variant_game("[Variant \"Antichess\"]\n\n1. e3 b5 2. Nf3 *\n");
    assert!(matches!(
        anti.fatal_error().map(|e| &e.kind),
        Some(PgnErrorKind::Move(SanError::Illegal { .. }))
    ));
    assert_eq!(anti.mainline_moves().len(), 2);
    // A drop from an empty pocket.
    let zh = variant_game("[Variant \"Crazyhouse\"]\n\n1. N@f3 *\n");
    assert!(matches!(
        zh.fatal_error().map(|e| &e.kind),
        Some(PgnErrorKind::Move(SanError::Illegal { fen, .. }))
            if fen == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
    ));
    let amb = variant_game(
        "[Variant \"Atomic\"]\n[FEN \"4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1\"]\n\n1. Nb3 *\n",
    );
    assert!(matches!(
        amb.fatal_error().map(|e| &e.kind),
        Some(PgnErrorKind::Move(SanError::Ambiguous { candidates, .. })) if candidates.len() == 2
    ));
    // Not a move: reported, skipped, not fatal, as in standard games.
    let junk = variant_game("[Variant \"Horde\"]\n\n1. e5 Xyz e6 *\n");
    assert!(junk.fatal_error().is_none());
    assert!(matches!(
        &junk.errors[0].kind,
        PgnErrorKind::Move(SanError::Invalid { text }) if text == "Xyz"
    ));
    assert_eq!(junk.mainline_moves().len(), 2);
    // A FEN the variant refuses.
    let bad_fen =
        variant_game("[Variant \"Racing Kings\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*\n");
    assert!(matches!(
        bad_fen.fatal_error().map(|e| (&e.kind, e.line)),
        Some((PgnErrorKind::BadFen { .. }, 2))
    ));
}

/// The `Variant` tag as python-chess reads it: names and aliases in any case, standard
/// chess's names and ICS wild variants as standard chess, Chess960's spellings, and a name
/// no rules are known by reported (with the value) while the game is read as standard chess.
#[test]
fn variant_tag_names() {
    for (tag, kind) in [
        ("Atomic", VariantKind::Atomic),
        ("crazyhouse", VariantKind::Crazyhouse),
        ("Antichess", VariantKind::Antichess),
        ("Three-check", VariantKind::ThreeCheck),
        ("King of the Hill", VariantKind::KingOfTheHill),
        ("Racing Kings", VariantKind::RacingKings),
        ("Horde", VariantKind::Horde),
        ("Giveaway", VariantKind::Giveaway),
        ("Suicide", VariantKind::Suicide),
        ("ZH", VariantKind::Crazyhouse),
    ] {
        assert_eq!(
            GameRules::of_tag(Some(tag)),
            Ok(GameRules::Variant(kind)),
            "{tag}"
        );
        assert_eq!(
            GameRules::of_tag(GameRules::Variant(kind).tag()),
            Ok(GameRules::Variant(kind))
        );
    }
    for tag in ["Standard", "From Position", "wild/0", "Normal"] {
        assert_eq!(
            GameRules::of_tag(Some(tag)),
            Ok(GameRules::Standard),
            "{tag}"
        );
    }
    for tag in ["Chess960", "Fischerandom", "chess 960"] {
        assert_eq!(
            GameRules::of_tag(Some(tag)),
            Ok(GameRules::Chess960),
            "{tag}"
        );
    }
    let unknown = parse_any_game(&raw("[Event \"x\"]\n[Variant \"Shogi\"]\n\n1. e4 e5 *\n"));
    let AnyPgnGame::Standard(game) = unknown else {
        panic!("an unknown variant is read as standard chess");
    };
    assert!(game.fatal.is_none());
    assert_eq!(game.mainline_moves().len(), 2);
    assert!(matches!(
        &game.errors[..],
        [e] if e.kind == PgnErrorKind::UnknownVariant { name: "Shogi".to_owned() } && e.line == 2
    ));
    assert_eq!(
        game.errors[0].to_string(),
        "line 2: unsupported variant: Shogi (read as standard chess)"
    );
}

/// The standard-chess readers (`parse_game`, the database readers over it) refuse a
/// variant's game with a typed error naming it, instead of misreading its moves.
#[test]
fn standard_reader_refuses_variant_games() {
    let text = "[Event \"x\"]\n[Variant \"Three-check\"]\n\n1. e4 e5 *\n";
    let game = parse_game(&raw(text));
    assert!(matches!(
        game.fatal_error().map(|e| (&e.kind, e.line)),
        Some((PgnErrorKind::VariantGame { variant }, 2)) if variant == "Three-check"
    ));
    let standard = parse_any_game(&raw("[Variant \"Standard\"]\n\n1. e4 e5 *\n"));
    assert!(matches!(standard, AnyPgnGame::Standard(g) if g.errors.is_empty()));
}

/// The writer refuses a tree holding a move that is illegal under the variant's rules.
#[test]
fn variant_writer_refuses_illegal_moves() {
    let mut game = PgnGame::new(AnyVariantPosition::new(VariantKind::Crazyhouse));
    game.add_child(
        PgnGame::ROOT,
        VariantMove::Drop {
            role: Role::Queen,
            to: Square::from_name("e4").unwrap(),
        },
    );
    let err = write_game(&game, &one_line()).unwrap_err();
    assert!(err.to_string().contains("Q@e4"), "{err}");
    assert!(
        game.start
            .check_legal(VariantMove::Drop {
                role: Role::Queen,
                to: Square::from_name("e4").unwrap()
            })
            .is_err()
    );
}

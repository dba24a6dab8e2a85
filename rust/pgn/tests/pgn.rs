//! PGN (R7): reading, writing, recovery from malformed input.
//!
//! The expected exports were produced by python-chess 1.11 (`str(game)` and
//! `game.accept(StringExporter())`) from the same input, so they pin the writer to its output.

use shatranj_chess::{Position, SanError, san};
use shatranj_pgn::{
    PgnError, PgnErrorKind, PgnGame, PgnReader, WriteOptions, read_all, write_game,
};
use std::sync::atomic::AtomicBool;

fn read(text: &str) -> (Vec<Result<PgnGame, PgnError>>, usize, usize) {
    let mut reader = PgnReader::new(text.as_bytes());
    let items: Vec<_> = reader.by_ref().collect();
    (items, reader.games_read(), reader.games_skipped())
}

fn one_line() -> WriteOptions {
    WriteOptions {
        columns: None,
        ..WriteOptions::default()
    }
}

const ANNOTATED: &str = include_str!("pgn/annotated.pgn");

/// R7.1–R7.4: comments, NAGs, suffixes (`!` `!?` `?!` as NAGs 1, 5, 6), nested variations and
/// the result, written back exactly as python-chess writes them, on one line and at 80 columns.
#[test]
fn r7_4_annotated_game_writes_as_python_chess() {
    let (items, read_count, skipped) = read(ANNOTATED);
    assert_eq!((read_count, skipped), (1, 0));
    let game = items.into_iter().next().unwrap().unwrap();
    assert!(game.errors.is_empty(), "{:?}", game.errors);
    assert_eq!(game.tag("ECO"), Some("C20"));
    assert_eq!(game.mainline_moves().len(), 20);
    assert_eq!(game.comment(PgnGame::ROOT), "Start of the game.");
    let want_one_line = "[Event \"Annotated\"]\n[Site \"Here\"]\n[Date \"2024.01.02\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[ECO \"C20\"]\n\n{ Start of the game. } 1. e4 e5 $1 2. Nf3 ( 2. f4 { King's gambit } 2... exf4 ( 2... d5 3. exd5 ) 3. Nf3 ) ( 2. Bc4 $5 ) 2... Nc6 $1 3. Bb5 a6 $6 4. Ba4 Nf6 5. O-O { castles } 5... Be7 $14 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 1-0";
    assert_eq!(write_game(&game, &one_line()).unwrap(), want_one_line);
    let want_80 = "[Event \"Annotated\"]\n[Site \"Here\"]\n[Date \"2024.01.02\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[ECO \"C20\"]\n\n{ Start of the game. } 1. e4 e5 $1 2. Nf3 ( 2. f4 { King's gambit } 2... exf4 (\n2... d5 3. exd5 ) 3. Nf3 ) ( 2. Bc4 $5 ) 2... Nc6 $1 3. Bb5 a6 $6 4. Ba4 Nf6 5.\nO-O { castles } 5... Be7 $14 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4\nNbd7 1-0";
    let wrapped = write_game(&game, &WriteOptions::default()).unwrap();
    assert_eq!(wrapped, want_80);
    assert!(wrapped.lines().all(|l| l.chars().count() <= 80));
    // Reading the output again gives the same tree.
    let again = PgnReader::new(wrapped.as_bytes()).next().unwrap().unwrap();
    let shape = |g: &PgnGame| -> Vec<_> {
        (0..g.nodes.len())
            .map(|id| {
                let n = g.node(id);
                let links = (n.parent(), n.main_child(), n.next_sibling());
                let comments = (g.comment(id).to_owned(), g.starting_comment(id).to_owned());
                (n.mv, n.nags.clone(), links, comments)
            })
            .collect()
    };
    assert_eq!(shape(&again), shape(&game));
    assert_eq!(again.tags, game.tags);
}

/// Options: no comments drops comments and NAGs, no variations drops the side lines.
#[test]
fn r7_4_writer_options() {
    let game = PgnReader::new(ANNOTATED.as_bytes())
        .next()
        .unwrap()
        .unwrap();
    let bare = WriteOptions {
        columns: None,
        headers: false,
        comments: false,
        variations: false,
    };
    assert_eq!(
        write_game(&game, &bare).unwrap(),
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 1-0"
    );
}

/// A game without tags gets the seven-tag roster with defaults; the movetext's result fills
/// `Result`; a `FEN` start numbers moves from the FEN and writes `N...` for Black first.
#[test]
fn r7_roster_defaults_and_fen_start() {
    let text = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n[SetUp \"1\"]\n\nKd7 e4 Ke6 1/2-1/2\n";
    let game = PgnReader::new(text.as_bytes()).next().unwrap().unwrap();
    assert_eq!(game.result(), "1/2-1/2");
    assert_eq!(
        write_game(&game, &one_line()).unwrap(),
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n\
         [Result \"1/2-1/2\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n[SetUp \"1\"]\n\n\
         30... Kd7 31. e4 Ke6 1/2-1/2"
    );
}

/// R7.2: lenient SAN as real files write it: `0-0`, missing and surplus check marks, `e8Q`,
/// over-disambiguation, move numbers glued to moves, suffixes glued or apart.
#[test]
fn r7_2_lenient_san() {
    let text = "1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.0-0 Nf6 5.Ng1f3?? 5...d6 6.Bxf7 Kxf7+ 7. Nxe5+ Nxe5 \
                8. d4 !? Bxd4 9. c3 Bxf2+ 10. Rxf2 Nfg4 11. h3 Nxf2 12. Kxf2 *\n\n\
                [FEN \"8/4P1k1/8/8/8/8/8/4K3 w - - 0 1\"]\n\ne8Q Kh6 *\n";
    let mut reader = PgnReader::new(text.as_bytes());
    let game = reader.next().unwrap().unwrap_err();
    // `Ng1f3` names a knight on g1, which has left: illegal, so the main line stops there.
    assert_eq!(game.line, 1);
    assert!(matches!(
        game.kind,
        PgnErrorKind::Move(SanError::Illegal { .. })
    ));
    let promo = reader.next().unwrap().unwrap();
    let moves = promo.mainline_moves();
    assert_eq!(moves[0].to_string(), "e7e8q");
    assert_eq!(moves.len(), 2);

    let good =
        "1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.0-0 Nf6 5.Nf3e5 5...Nxe5 6.Bxf7 Kxf7+ 7.d4!? Bxd4# 8.Qxd4 *";
    let game = PgnReader::new(good.as_bytes()).next().unwrap().unwrap();
    assert!(game.errors.is_empty(), "{:?}", game.errors);
    let sans: Vec<String> = {
        let mut pos = Position::new();
        game.mainline_moves()
            .into_iter()
            .map(|m| {
                let s = san::to_san(&pos, m);
                pos.play(m).unwrap();
                s
            })
            .collect()
    };
    assert_eq!(
        sans.join(" "),
        "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O Nf6 Nxe5 Nxe5 Bxf7+ Kxf7 d4 Bxd4 Qxd4"
    );
    let d4 = game.mainline().nth(12).unwrap();
    assert_eq!(game.node(d4).nags, vec![5]);
}

/// R7.4: every suffix maps to its NAG; `$n` NAGs collect as a sorted set.
#[test]
fn r7_4_suffixes_are_nags() {
    for (suffix, nag) in [
        ("!", 1),
        ("?", 2),
        ("!!", 3),
        ("??", 4),
        ("!?", 5),
        ("?!", 6),
    ] {
        for text in [format!("1. e4{suffix} *"), format!("1. e4 {suffix} *")] {
            let game = PgnReader::new(text.as_bytes()).next().unwrap().unwrap();
            let e4 = game.mainline().next().unwrap();
            assert_eq!(game.node(e4).nags, vec![nag], "{text}");
        }
    }
    let game = PgnReader::new("1. e4 $18 $1 $18 ! *".as_bytes())
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(game.node(1).nags, vec![1, 18]);
}

/// One malformed case: the input, then per item `Ok(number of main-line moves)` or
/// `Err(line)`, and the errors kept inside sound games as (game index, line).
struct Case {
    name: &'static str,
    text: &'static str,
    items: &'static [Result<usize, usize>],
    kept: &'static [(usize, usize)],
}

const CASES: &[Case] = &[
    Case {
        name: "unterminated comment, next game after a blank line",
        text: "[Event \"a\"]\n\n1. e4 { never closed e5\n\n[Event \"b\"]\n\n1. d4 d5 *\n",
        items: &[Err(3), Ok(2)],
        kept: &[],
    },
    Case {
        name: "unterminated variation",
        text: "[Event \"a\"]\n\n1. e4 e5 (1... c5 2. Nf3\n2. Nf3 *\n",
        items: &[Ok(2)],
        kept: &[(0, 4), (0, 4)],
    },
    Case {
        name: "illegal SAN in the main line",
        text: "1. e4 e5\n2. Ke3 Nc6 *\n\n1. d4 *\n",
        items: &[Err(2), Ok(1)],
        kept: &[],
    },
    Case {
        name: "illegal SAN in a variation skips only the variation",
        text: "1. e4 (1. Ke2 d5 (1... Nf6)) e5 2. Nf3 *\n",
        items: &[Ok(3)],
        kept: &[(0, 1)],
    },
    Case {
        name: "junk between games",
        text: "1. e4 *\n\nthis is not chess\n\n[Event \"b\"]\n1. d4 *\n",
        items: &[Ok(1), Err(3), Ok(1)],
        kept: &[],
    },
    Case {
        name: "missing blank line between games",
        text: "[Event \"a\"]\n1. e4 e5 1-0\n[Event \"b\"]\n1. d4 0-1\n",
        items: &[Ok(2), Ok(1)],
        kept: &[],
    },
    Case {
        name: "bad FEN tag",
        text: "[Event \"a\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n1. e4 *\n",
        items: &[Err(2), Ok(1)],
        kept: &[],
    },
    Case {
        name: "stray tokens are kept as errors of a sound game",
        text: "[Event \"a\"]\n[Bad tag]\n\n1. e4 ) e5 $300 2. Nf3 ?!! hello 2... Nc6 *\n",
        items: &[Ok(4)],
        kept: &[(0, 2), (0, 4), (0, 4), (0, 4), (0, 4)],
    },
    Case {
        name: "escape lines, semicolon comments, BOM, CRLF, many games",
        text: "\u{feff}% header\r\n[Event \"a\"]\r\n\r\n1. e4 ; a comment\r\n% skipped ( e5\r\ne5 *\r\n\r\n\r\n1. d4 *\r\n",
        items: &[Ok(2), Ok(1)],
        kept: &[],
    },
    Case {
        name: "a null move passes the turn; in check it cuts the line",
        text: "1. e4 -- 2. d4 *\n\n1. e4 f6 2. Qh5+\n-- *\n",
        items: &[Ok(3), Err(4)],
        kept: &[],
    },
    Case {
        name: "headers only, end of input without a newline",
        text: "[Event \"a\"]\n[Result \"1-0\"]\n\n\n[Event \"b\"]\n\n1. e4",
        items: &[Ok(0), Ok(1)],
        kept: &[],
    },
];

/// Malformed input: each bad game is an error with its line, the reader recovers at the next
/// game, and the counters add up to every game in the input.
#[test]
fn r7_malformed_input_recovers_with_line_numbers() {
    for case in CASES {
        let (items, read_count, skipped) = read(case.text);
        let got: Vec<Result<usize, usize>> = items
            .iter()
            .map(|item| match item {
                Ok(game) => Ok(game.mainline_moves().len()),
                Err(e) => Err(e.line),
            })
            .collect();
        assert_eq!(got, case.items, "{}: {items:?}", case.name);
        let kept: Vec<(usize, usize)> = items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| item.as_ref().ok().map(|g| (i, g)))
            .flat_map(|(i, g)| g.errors.iter().map(move |e| (i, e.line)))
            .collect();
        assert_eq!(kept, case.kept, "{}: {items:?}", case.name);
        let oks = case.items.iter().filter(|i| i.is_ok()).count();
        assert_eq!(
            (read_count, skipped),
            (oks, case.items.len() - oks),
            "{}",
            case.name
        );
        // The parallel reader sees the same games.
        let report = read_all(case.text.as_bytes(), &AtomicBool::new(false));
        assert_eq!(report.games_read(), oks, "{}", case.name);
        assert_eq!(
            report.games_skipped(),
            case.items.len() - oks,
            "{}",
            case.name
        );
    }
}

/// A file that is not UTF-8 (Latin-1 names) still reads; the name comes out right.
#[test]
fn r7_latin1_lines() {
    let bytes = b"[White \"Sch\xf6n\"]\n\n1. e4 *\n";
    let game = PgnReader::new(&bytes[..]).next().unwrap().unwrap();
    assert_eq!(game.tag("White"), Some("Schön"));
}

/// Deep nesting and long input neither overflow the stack nor hang.
#[test]
fn r7_deep_variations() {
    let mut text = String::from("1. e4 e5 ");
    for _ in 0..5000 {
        text.push_str("( 1... c5 ");
    }
    for _ in 0..5000 {
        text.push_str(") ");
    }
    text.push_str("*\n");
    let game = PgnReader::new(text.as_bytes()).next().unwrap().unwrap();
    assert!(game.errors.is_empty());
    let out = write_game(&game, &one_line()).unwrap();
    assert_eq!(out.matches('(').count(), 5000);
}

/// The writer refuses a tree holding an illegal move instead of writing nonsense.
#[test]
fn r7_writer_refuses_illegal_moves() {
    let mut game = PgnGame::new(Position::new());
    let pos = Position::new();
    let e4 = san::parse_san(&pos, "e4").unwrap();
    let n = game.add_child(PgnGame::ROOT, e4);
    game.add_child(n, e4);
    assert!(write_game(&game, &WriteOptions::default()).is_err());
}

// The rules crate's seeded generator: one for the workspace's randomised tests.
#[path = "../../chess/tests/support/rng.rs"]
mod rng;

/// Mangled PGN never panics or hangs: the annotated game with random bytes replaced, cut or
/// inserted (PGN's own punctuation most often). Every item is counted, every sound game
/// writes, and what it writes reads back and writes again as the same text (not always the
/// same tree: the writer drops `}` from comments, as python-chess does, and a `;` comment may
/// hold one).
#[test]
fn r7_mangled_input_never_panics() {
    const SEED: u64 = 0x5047_4e21;
    println!("seed {SEED:#x}");
    let mut rng = rng::Rng::new(SEED);
    let base = format!("{ANNOTATED}\n{ANNOTATED}");
    let alphabet = b"{}()[];%$!?\"\n 0123456789.-=+#xOKQRBNabcdefgh*/\\\xc3\xa9";
    for _ in 0..300 {
        let mut bytes = base.clone().into_bytes();
        for _ in 0..=rng.below(12) {
            let at = rng.below(bytes.len());
            match rng.below(3) {
                0 => bytes[at] = rng.pick(alphabet),
                1 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, rng.pick(alphabet)),
            }
        }
        let mut reader = PgnReader::new(&bytes[..]);
        let items: Vec<_> = reader.by_ref().collect();
        assert_eq!(items.len(), reader.games_read() + reader.games_skipped());
        for game in items.into_iter().flatten() {
            let text = write_game(&game, &one_line()).unwrap();
            let again = PgnReader::new(text.as_bytes()).next().unwrap();
            let again = again.unwrap_or_else(|e| panic!("{e}: {text}"));
            assert_eq!(write_game(&again, &one_line()).unwrap(), text);
        }
    }
}

//! No public parser panics on garbage: random bytes, random text drawn from the characters
//! the notations use, and small mutations of valid FEN, SAN and UCI strings must all give
//! `Err`/`None` (or a valid result), never a panic. A fixed seed, printed at the start,
//! makes any failure reproducible.

use shatranj_chess::fen::{self, EnPassantMode, to_fen_with};
use shatranj_chess::perft::perft;
use shatranj_chess::san::{self, parse_san, to_lan, to_san};
use shatranj_chess::uci::{UciMove, parse_uci};
use shatranj_chess::{Color, File, History, Move, MoveKind, Piece, Position, Rank, Role, Square};

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

const SEED: u64 = 0x0BAD_F00D_DEAD_BEEF;

/// Characters that appear in FEN, SAN and UCI, plus a few that never should.
const ALPHABET: &[char] = &[
    'K', 'Q', 'R', 'B', 'N', 'P', 'k', 'q', 'r', 'b', 'n', 'p', 'a', 'c', 'd', 'e', 'f', 'g', 'h',
    'i', 'x', 'O', 'o', 'w', 'W', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '/', ' ', '-',
    '=', '+', '#', '!', '?', ':', '.', '\t', '\n', '\u{0}', '\u{e9}', '\u{265a}', '\u{301}',
    '\u{feff}',
];

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
];

const SANS: &[&str] = &[
    "e4", "exd5", "Nf3", "Nbd2", "R1a3", "Nf4xg6", "O-O", "O-O-O", "0-0", "e8=Q+", "exd8=N#",
    "Qh4#", "Kxe2", "e4!?", "Pe4", "Ng1-f3",
];

const UCIS: &[&str] = &["e2e4", "e7e8q", "e1g1", "e1h1", "0000", "a7a8n", "h2h1r"];

fn random_bytes(rng: &mut Rng) -> String {
    let len = rng.below(48);
    let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn random_text(rng: &mut Rng, max: usize) -> String {
    let len = rng.below(max + 1);
    (0..len).map(|_| rng.pick(ALPHABET)).collect()
}

/// One to three random edits of a valid string: replace, insert, delete, swap, truncate,
/// duplicate a slice.
fn mutate(rng: &mut Rng, s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    for _ in 0..=rng.below(3) {
        let n = chars.len();
        match rng.below(6) {
            0 if n > 0 => {
                let i = rng.below(n);
                chars[i] = rng.pick(ALPHABET);
            }
            1 => {
                let i = rng.below(n + 1);
                chars.insert(i, rng.pick(ALPHABET));
            }
            2 if n > 0 => {
                let i = rng.below(n);
                chars.remove(i);
            }
            3 if n > 1 => {
                let i = rng.below(n - 1);
                chars.swap(i, i + 1);
            }
            4 => {
                let i = rng.below(n + 1);
                chars.truncate(i);
            }
            _ if n > 0 => {
                let i = rng.below(n);
                let j = i + rng.below(n - i);
                let copy: Vec<char> = chars[i..=j.min(n - 1)].to_vec();
                chars.splice(i..i, copy);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Everything a caller may do with a position the parser accepted; none of it may panic and
/// the usual invariants must hold.
fn exercise(pos: &Position, rng: &mut Rng) {
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), pos.count_legal_moves(), "{}", pos.fen());
    assert_eq!(pos.key(), pos.compute_key());
    let again = fen::parse(&to_fen_with(pos, EnPassantMode::Always)).unwrap();
    assert_eq!(&again, pos);
    let _ = pos.fen();
    let _ = pos.outcome();
    let _ = pos.is_insufficient_material();
    let _ = pos.is_dead_position();
    let _ = pos.to_string();
    let _ = format!("{pos:?}");
    let m = pos.mirrored();
    assert_eq!(m.count_legal_moves(), moves.len());
    let _ = perft(pos, 2);
    let h = History::new(*pos);
    let _ = h.outcome(true);
    for &mv in &moves {
        let s = to_san(pos, mv);
        assert_eq!(parse_san(pos, &s), Ok(mv));
        let _ = to_lan(pos, mv);
        let _ = pos.gives_check(mv);
    }
    // Random, mostly illegal, moves through the checked interfaces.
    for _ in 0..8 {
        let mv = Move::new(
            Square::new(rng.below(64) as u32).unwrap(),
            Square::new(rng.below(64) as u32).unwrap(),
            match rng.below(4) {
                0 => MoveKind::Normal,
                1 => MoveKind::EnPassant,
                2 => MoveKind::Castle,
                _ => MoveKind::Promotion(rng.pick(&Role::ALL)),
            },
        );
        let mut p = *pos;
        let _ = p.play(mv);
        let _ = san::san(pos, mv);
        let _ = pos.is_capture(mv);
        let _ = pos.is_zeroing(mv);
        let _ = pos.moved_role(mv);
        // `play_unchecked` promises no panic (only a broken position) for illegal moves.
        let mut broken = *pos;
        broken.play_unchecked(mv);
    }
}

#[test]
fn fen_parser_never_panics() {
    println!("seed {SEED:#018x}");
    let mut rng = Rng::new(SEED);
    let mut accepted = 0;
    for i in 0..20_000 {
        let text = match i % 3 {
            0 => random_bytes(&mut rng),
            1 => random_text(&mut rng, 90),
            _ => {
                let base = rng.pick(FENS);
                mutate(&mut rng, base)
            }
        };
        match fen::parse(&text) {
            Ok(pos) => {
                accepted += 1;
                exercise(&pos, &mut rng);
            }
            Err(e) => {
                let _ = e.to_string();
                let _ = e.field();
            }
        }
        let _ = fen::parse_board(&text);
        let _ = text.parse::<Position>();
    }
    println!("{accepted} mutated FENs were still valid positions");
    assert!(accepted > 100, "the mutations should sometimes stay valid");
}

#[test]
fn san_parser_never_panics() {
    println!("seed {SEED:#018x}");
    let mut rng = Rng::new(SEED ^ 1);
    let positions: Vec<Position> = FENS.iter().map(|f| f.parse().unwrap()).collect();
    for i in 0..30_000 {
        let text = match i % 3 {
            0 => random_bytes(&mut rng),
            1 => random_text(&mut rng, 10),
            _ => {
                let base = rng.pick(SANS);
                mutate(&mut rng, base)
            }
        };
        for pos in &positions {
            match parse_san(pos, &text) {
                Ok(m) => assert!(pos.is_legal(m)),
                Err(e) => {
                    let _ = e.to_string();
                }
            }
        }
    }
}

#[test]
fn uci_parser_never_panics() {
    println!("seed {SEED:#018x}");
    let mut rng = Rng::new(SEED ^ 2);
    let positions: Vec<Position> = FENS.iter().map(|f| f.parse().unwrap()).collect();
    for i in 0..30_000 {
        let text = match i % 4 {
            0 => random_bytes(&mut rng),
            1 => random_text(&mut rng, 6),
            2 => (0..rng.below(7))
                .map(|_| {
                    rng.pick(&[
                        'a', 'e', 'h', 'i', '0', '1', '8', '9', 'q', 'k', 'Q', '\u{e9}',
                    ])
                })
                .collect(),
            _ => {
                let base = rng.pick(UCIS);
                mutate(&mut rng, base)
            }
        };
        if let Ok(u) = UciMove::parse(&text) {
            assert_eq!(UciMove::parse(&u.to_string()), Ok(u));
        }
        for pos in &positions {
            match parse_uci(pos, &text) {
                Ok(m) => assert!(pos.is_legal(m)),
                Err(e) => {
                    let _ = e.to_string();
                }
            }
        }
    }
}

#[test]
fn small_parsers_never_panic() {
    println!("seed {SEED:#018x}");
    let mut rng = Rng::new(SEED ^ 3);
    for i in 0..50_000 {
        let text = if i % 2 == 0 {
            random_bytes(&mut rng)
        } else {
            random_text(&mut rng, 4)
        };
        match Square::from_name(&text) {
            Some(s) => assert_eq!(s.to_string(), text),
            None => assert!(text.parse::<Square>().is_err()),
        }
        if let Err(e) = text.parse::<Square>() {
            let _ = e.to_string();
        }
    }
    // Every char, including multi-byte and control characters.
    for c in (0..0x3000u32).filter_map(char::from_u32) {
        let _ = Role::from_char(c);
        let _ = Role::from_italian_char(c);
        let _ = Piece::from_char(c);
        let _ = File::from_char(c);
        let _ = Rank::from_char(c);
        let _ = Color::from_char(c);
        let s = c.to_string();
        assert_eq!(Square::from_name(&s), None);
        let _ = Square::from_name(&format!("{c}1"));
        let _ = Square::from_name(&format!("a{c}"));
    }
    for i in 0..200u32 {
        assert_eq!(Square::new(i).is_some(), i < 64);
        assert_eq!(File::new(i).is_some(), i < 8);
        assert_eq!(Rank::new(i).is_some(), i < 8);
        assert_eq!(Role::from_index(i as usize).is_some(), i < 6);
    }
}

#[test]
fn huge_clocks_do_not_overflow() {
    // The FEN parser accepts any u32 clock; playing a move must then neither panic (debug
    // overflow check) nor wrap to 0: the clocks saturate at u32::MAX.
    let cases = [
        ("4k3/8/8/8/8/8/8/4K2R w - - 4294967295 1", "h1h2"),
        ("4k3/8/8/8/8/8/8/4K2R b - - 0 4294967295", "e8d8"),
        ("r3k3/8/8/8/8/8/8/4K2R b q - 4294967295 4294967295", "e8c8"),
    ];
    for (fen, uci) in cases {
        let result = std::panic::catch_unwind(|| {
            let mut p: Position = fen.parse().unwrap();
            let before = (p.halfmove_clock(), p.fullmove_number());
            p.play(parse_uci(&p, uci).unwrap()).unwrap();
            assert!(
                p.halfmove_clock() >= before.0,
                "halfmove clock wrapped: {}",
                p.fen()
            );
            assert!(
                p.fullmove_number() >= before.1,
                "fullmove number wrapped: {}",
                p.fen()
            );
            let mut q: Position = fen.parse().unwrap();
            q.play_null();
            assert!(q.halfmove_clock() >= before.0);
            let _ = perft(&q, 2);
        });
        assert!(result.is_ok(), "{fen} {uci} panicked");
    }
}

//! `Setup`: boards python-chess holds but a game need not reach (the differential test
//! against python-chess itself is `setup_python_chess.rs`). Cases are python-chess 1.11's
//! answers, written down.

#[path = "support/rng.rs"]
mod rng;

use rng::Rng;
use shatranj_chess::fen::EnPassantMode;
use shatranj_chess::{FenError, Move, Position, Setup, Square, Status};

fn setup(fen: &str) -> Setup {
    Setup::from_fen(fen, false).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn status_flags_are_python_chess_s() {
    let cases: &[(&str, Status)] = &[
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Status::VALID,
        ),
        (
            "8/8/8/8/8/8/8/8 w - - 0 1",
            Status::EMPTY | Status::NO_WHITE_KING | Status::NO_BLACK_KING,
        ),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", Status::NO_WHITE_KING),
        ("4k3/8/8/8/8/8/8/K3K3 w - - 0 1", Status::TOO_MANY_KINGS),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", Status::PAWNS_ON_BACKRANK),
        (
            "4k3/8/8/8/8/8/PPPPPPPP/P3K3 w - - 0 1",
            Status::TOO_MANY_WHITE_PAWNS | Status::PAWNS_ON_BACKRANK,
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
            Status::BAD_CASTLING_RIGHTS,
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", Status::INVALID_EP_SQUARE),
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", Status::OPPOSITE_CHECK),
        ("4k3/8/8/8/8/8/8/r3K2r w - - 0 1", Status::IMPOSSIBLE_CHECK),
        (
            "4k3/8/8/8/8/3nrn2/8/4K3 w - - 0 1",
            Status::TOO_MANY_CHECKERS | Status::IMPOSSIBLE_CHECK,
        ),
        (
            "QQQQQQQQ/QQQQQQQQ/QQQk4/8/8/8/8/4K3 b - - 0 1",
            Status::TOO_MANY_WHITE_PIECES | Status::IMPOSSIBLE_CHECK | Status::TOO_MANY_CHECKERS,
        ),
    ];
    for &(fen, status) in cases {
        assert_eq!(setup(fen).status(), status, "{fen}");
    }
    assert_eq!(
        Status::from_bits_truncate((Status::NO_WHITE_KING | Status::EMPTY).bits())
            .names()
            .collect::<Vec<_>>(),
        ["NO_WHITE_KING", "EMPTY"]
    );
}

#[test]
fn a_valid_setup_is_the_position() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let pos: Position = fen.parse().unwrap();
    let s = setup(fen);
    assert_eq!(s.position().unwrap(), pos);
    assert_eq!(Setup::from(&pos), s);
    // Castling rights and an en-passant square cleaned, as python-chess plays such a FEN.
    let s = setup("4k3/8/8/8/8/8/8/R3K3 w KQkq e6 0 1");
    assert_eq!(
        s.position().unwrap().fen(),
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"
    );
    assert!(setup("8/8/8/8/8/8/8/4K3 w - - 0 1").position().is_err());
}

#[test]
fn without_a_king_every_pseudo_legal_move_is_legal() {
    // No white king: the pinned-looking rook moves anywhere, pawns on the first rank step.
    let s = setup("4k3/8/8/8/8/8/8/P3R2q w - - 0 1");
    assert_eq!(s.legal_moves(), s.pseudo_legal_moves());
    let uci: Vec<String> = s.legal_moves().iter().map(Move::to_string).collect();
    assert!(uci.contains(&"a1a3".to_owned()), "{uci:?}");
    // With a king, moves that leave it attacked are not.
    let s = setup("4k3/8/8/8/8/8/8/K2R3q w - - 0 1");
    assert!(
        s.legal_moves()
            .iter()
            .all(|m| m.from() != Square::D1 || m.to().rank() == Square::D1.rank())
    );
}

#[test]
fn plays_python_chess_s_way() {
    let mut s = setup("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1h1"] {
        let m = s.parse_uci(uci).unwrap();
        s.play(m).unwrap();
    }
    assert_eq!(
        s.fen(false, EnPassantMode::Legal, false),
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
    );
    let mut s = setup("4k3/P7/8/8/8/8/8/8 w - - 0 1");
    let m = s.parse_san("a8=Q+").unwrap();
    assert_eq!(s.san(m).unwrap(), "a8=Q+");
    s.play(m).unwrap();
    assert_eq!(
        s.fen(false, EnPassantMode::Legal, true),
        "Q~3k3/8/8/8/8/8/8/8 b - - 0 1"
    );
}

#[test]
fn bad_input_is_a_typed_error() {
    for fen in [
        "",
        "8/8/8 w - - 0 1",
        "9/8/8/8/8/8/8/8",
        "8/8/8/8/8/8/8/7X",
        "~7/8/8/8/8/8/8/8",
        "8/8/8/8/8/8/8/8 x",
        "8/8/8/8/8/8/8/8 w KQkqK",
        "8/8/8/8/8/8/8/8 w - e9",
        "8/8/8/8/8/8/8/8 w - - -1",
        "8/8/8/8/8/8/8/8 w - - 0 1 extra",
    ] {
        let error: FenError = Setup::from_fen(fen, false).expect_err(fen);
        assert!(!error.to_string().is_empty());
    }
    let s = setup("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(s.parse_san("Qh5").is_err());
    assert!(s.parse_uci("e1e3").is_err());
    assert!(s.parse_uci("zz").is_err());
    assert!(
        s.clone()
            .play(Move::normal(Square::A1, Square::A2))
            .is_err()
    );
}

/// Random text and random moves (legal or not) never panic; printed seed.
#[test]
fn random_input_never_panics() {
    let seed = 0x5e7u64;
    println!("seed {seed}");
    let mut rng = Rng::mixed(seed);
    let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/~ wb-KQkqAHah036e".chars().collect();
    for _ in 0..2000 {
        let len = rng.below(60);
        let text: String = (0..len).map(|_| rng.pick(&alphabet)).collect();
        if let Ok(mut s) = Setup::from_fen(&text, rng.below(2) == 0) {
            let _ = (
                s.status(),
                s.fen(true, EnPassantMode::Legal, true),
                s.position(),
            );
            for _ in 0..4 {
                let from = Square::new(rng.below(64) as u32).unwrap();
                let to = Square::new(rng.below(64) as u32).unwrap();
                let m = Move::normal(from, to);
                let _ = (s.san(m), s.is_legal(m), s.is_pseudo_legal(m));
                s.play_unchecked(m);
            }
            for m in s.legal_moves() {
                let _ = s.san(m).expect("a listed move has SAN");
            }
        }
    }
}

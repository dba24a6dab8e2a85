//! Move notation: UCI reading, lenient SAN reading with its three kinds of error, and LAN
//! writing. Expected values were checked against python-chess (`parse_uci`, `parse_san`,
//! `lan`); where this crate is deliberately more lenient the test says so.

use shatranj_chess::san::{parse_san, san, to_lan, to_san};
use shatranj_chess::uci::{UciMove, parse_uci};
use shatranj_chess::{Move, MoveKind, Position, Role, SanError, Square, UciError};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const CASTLE: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
const PROMO: &str = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
const KNIGHTS: &str = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
const EP: &str = "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::from_name(name).unwrap()
}

// ----- UCI ----------------------------------------------------------------------------------

#[test]
fn uci_round_trips_every_legal_move() {
    for fen in [
        START,
        CASTLE,
        PROMO,
        KNIGHTS,
        EP,
        KIWIPETE,
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    ] {
        let p = pos(fen);
        for &m in &p.legal_moves() {
            assert_eq!(parse_uci(&p, &m.to_uci()), Ok(m), "{fen}: {m}");
            assert_eq!(Move::from_uci(&p, &m.to_string()), Ok(m));
            assert_eq!(UciMove::parse(&m.to_uci()).unwrap().to_string(), m.to_uci());
            assert_eq!(UciMove::from(m).to_move(&p), Ok(m));
        }
    }
}

#[test]
fn uci_castling_as_king_move_and_as_king_takes_rook() {
    let p = pos(CASTLE);
    for (text, to) in [
        ("e1g1", Square::G1),
        ("e1h1", Square::G1),
        ("e1c1", Square::C1),
        ("e1a1", Square::C1),
    ] {
        let m = parse_uci(&p, text).unwrap();
        assert_eq!(m.kind(), MoveKind::Castle, "{text}");
        assert_eq!((m.from(), m.to()), (Square::E1, to), "{text}");
        // Always written as the king's two-square move.
        assert_eq!(m.to_uci(), format!("e1{to}"));
    }
    let b = pos("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    assert_eq!(parse_uci(&b, "e8h8").unwrap().to_uci(), "e8g8");
    assert_eq!(parse_uci(&b, "e8a8").unwrap().to_uci(), "e8c8");
    // Without the right, king-takes-rook is just an illegal move.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1");
    assert!(matches!(
        parse_uci(&p, "e1h1"),
        Err(UciError::Illegal { .. })
    ));
    assert!(matches!(
        parse_uci(&p, "e1g1"),
        Err(UciError::Illegal { .. })
    ));
    // With the right but castling impossible now (in check).
    let p = pos("r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1");
    assert!(matches!(
        parse_uci(&p, "e1h1"),
        Err(UciError::Illegal { .. })
    ));
    assert!(matches!(
        parse_uci(&p, "e1g1"),
        Err(UciError::Illegal { .. })
    ));
}

#[test]
fn uci_promotions() {
    let p = pos(PROMO);
    for (text, to, role) in [
        ("e7e8q", "e8", Role::Queen),
        ("e7e8n", "e8", Role::Knight),
        ("e7d8r", "d8", Role::Rook),
        ("e7d8b", "d8", Role::Bishop),
    ] {
        let m = parse_uci(&p, text).unwrap();
        assert_eq!(
            (m.from(), m.to(), m.kind()),
            (sq("e7"), sq(to), MoveKind::Promotion(role))
        );
        assert!(m.is_promotion());
        assert_eq!(m.to_uci(), text);
    }
    // The promotion piece is required, and only for promotions.
    assert!(matches!(
        parse_uci(&p, "e7e8"),
        Err(UciError::Illegal { .. })
    ));
    assert!(matches!(
        parse_uci(&p, "e1e2q"),
        Err(UciError::Illegal { .. })
    ));
    // Uppercase and other letters are not UCI promotion letters.
    for text in ["e7e8Q", "e7e8x", "e7e8N"] {
        assert!(
            matches!(parse_uci(&p, text), Err(UciError::Invalid { .. })),
            "{text}"
        );
        assert!(
            matches!(UciMove::parse(text), Err(UciError::Invalid { .. })),
            "{text}"
        );
    }
    // King and pawn are well-formed (as python-chess reads them) but never legal.
    for text in ["e7e8k", "e7e8p"] {
        assert!(
            matches!(parse_uci(&p, text), Err(UciError::Illegal { .. })),
            "{text}"
        );
        assert_eq!(UciMove::parse(text).unwrap().to_string(), text);
    }
}

#[test]
fn uci_invalid_text() {
    let p = Position::new();
    for text in [
        "",
        "e",
        "e2",
        "e2e",
        "e2e4qq",
        "e2e4q5",
        "i2e4",
        "e2e9",
        "e0e4",
        "E2E4",
        "e2-e4",
        "e2 e4",
        " e2e4",
        "e2e4 ",
        "e2e2",
        "\u{e9}2e4",
        "e2\u{e9}4",
        "0001",
        "00000",
        "--",
        "null",
        "e2e4\n",
    ] {
        let e = parse_uci(&p, text).unwrap_err();
        assert!(matches!(e, UciError::Invalid { .. }), "{text:?}: {e:?}");
        assert!(e.to_string().contains(&format!("{text:?}")), "{e}");
    }
}

#[test]
fn uci_illegal_moves() {
    let p = Position::new();
    for text in [
        "e2e5", "e1e2", "e7e5", "g1g3", "a1a3", "e1g1", "b1d2", "d1h5",
    ] {
        let e = parse_uci(&p, text).unwrap_err();
        assert_eq!(
            e,
            UciError::Illegal {
                text: text.to_owned(),
                fen: p.fen()
            },
            "{text}"
        );
        let msg = e.to_string();
        assert!(msg.contains(text) && msg.contains(&p.fen()), "{msg}");
    }
}

#[test]
fn uci_null_move_is_an_error() {
    assert_eq!(UciMove::parse("0000"), Ok(UciMove::Null));
    assert_eq!(UciMove::Null.to_string(), "0000");
    let p = Position::new();
    assert_eq!(parse_uci(&p, "0000"), Err(UciError::NullMove));
    assert_eq!(UciMove::Null.to_move(&p), Err(UciError::NullMove));
    assert!(UciError::NullMove.to_string().contains("0000"));
}

#[test]
fn uci_en_passant() {
    let p = pos(EP);
    let m = parse_uci(&p, "e5d6").unwrap();
    assert_eq!(m.kind(), MoveKind::EnPassant);
}

// ----- SAN reading --------------------------------------------------------------------------

/// (FEN, SAN as typed, the UCI move it must denote).
const SAN_ACCEPTED: &[(&str, &str, &str)] = &[
    // Castling, with letter O or digit zero, with or without check signs.
    (CASTLE, "O-O", "e1g1"),
    (CASTLE, "0-0", "e1g1"),
    (CASTLE, "O-O-O", "e1c1"),
    (CASTLE, "0-0-0", "e1c1"),
    (CASTLE, "O-O+", "e1g1"),
    (CASTLE, "0-0-0#", "e1c1"),
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "O-O", "e1g1"),
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "O-O+", "e1g1"),
    // Check and mate signs: present, missing or surplus are all accepted.
    ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "Ra8+", "a1a8"),
    ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "Ra8", "a1a8"),
    ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "Ra8#", "a1a8"),
    (
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        "Qh4#",
        "d8h4",
    ),
    (
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        "Qh4",
        "d8h4",
    ),
    (
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        "Qh4+",
        "d8h4",
    ),
    (START, "e4+", "e2e4"),
    (START, "Nf3#", "g1f3"),
    // Move comments (R7.4).
    (START, "e4!", "e2e4"),
    (START, "e4!!", "e2e4"),
    (START, "e4?", "e2e4"),
    (START, "e4??", "e2e4"),
    (START, "e4!?", "e2e4"),
    (START, "e4?!", "e2e4"),
    (START, "Nf3+!?", "g1f3"),
    // Surrounding whitespace.
    (START, " e4 ", "e2e4"),
    // Over-disambiguation: file, rank, square, with or without x or -.
    (START, "Ngf3", "g1f3"),
    (START, "N1f3", "g1f3"),
    (START, "Ng1f3", "g1f3"),
    (START, "Ng1-f3", "g1f3"),
    ("4k3/8/6p1/8/5N2/8/8/4K3 w - - 0 1", "Nf4xg6", "f4g6"),
    ("4k3/8/6p1/8/5N2/8/8/4K3 w - - 0 1", "Nxg6", "f4g6"),
    ("4k3/8/6p1/8/5N2/8/8/4K3 w - - 0 1", "Ng6", "f4g6"),
    ("k4N2/8/6p1/8/5N1N/8/8/4K3 w - - 0 1", "Nf4xg6", "f4g6"),
    ("k4N2/8/6p1/8/5N1N/8/8/4K3 w - - 0 1", "Nf4g6", "f4g6"),
    ("k4N2/8/6p1/8/5N1N/8/8/4K3 w - - 0 1", "Nhxg6", "h4g6"),
    ("k4N2/8/6p1/8/5N1N/8/8/4K3 w - - 0 1", "N8xg6", "f8g6"),
    // Needed disambiguation.
    (KNIGHTS, "Nbd2", "b1d2"),
    (KNIGHTS, "Nfd2", "f3d2"),
    (KNIGHTS, "N1d2", "b1d2"),
    (KNIGHTS, "N3d2", "f3d2"),
    (KNIGHTS, "Nb1xd2", "b1d2"),
    // Pawns: pushes, captures (file required), long forms, the P letter (R1.3).
    (START, "e4", "e2e4"),
    (START, "e3", "e2e3"),
    (START, "e2e4", "e2e4"),
    (START, "e2-e4", "e2e4"),
    (START, "Pe4", "e2e4"),
    (
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "exd5",
        "e4d5",
    ),
    (
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "ed5",
        "e4d5",
    ),
    (
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "e4xd5",
        "e4d5",
    ),
    (
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "e4d5",
        "e4d5",
    ),
    (EP, "exd6", "e5d6"),
    (EP, "ed6", "e5d6"),
    // Promotion: =Q, Q, =q, q, with capture and check.
    (PROMO, "e8=Q", "e7e8q"),
    (PROMO, "e8=Q+", "e7e8q"),
    (PROMO, "e8Q", "e7e8q"),
    (PROMO, "e8=q", "e7e8q"),
    (PROMO, "e8q", "e7e8q"),
    (PROMO, "e8=N", "e7e8n"),
    (PROMO, "e8=R#", "e7e8r"),
    (PROMO, "exd8=Q+", "e7d8q"),
    (PROMO, "exd8Q", "e7d8q"),
    (PROMO, "exd8=N+", "e7d8n"),
    (PROMO, "ed8=B", "e7d8b"),
    (PROMO, "e7e8=Q", "e7e8q"),
    // Fully specified moves without a piece letter, as python-chess reads them: any piece,
    // castling as the king's move or king-takes-rook; a promotion still names its piece.
    (START, "g1f3", "g1f3"),
    (START, "b1-c3", "b1c3"),
    (CASTLE, "e1g1", "e1g1"),
    (CASTLE, "e1h1", "e1g1"),
    (CASTLE, "e1a1", "e1c1"),
    (CASTLE, "a1a8", "a1a8"),
    (CASTLE, "a1xa8", "a1a8"),
    (PROMO, "e7d8n", "e7d8n"),
    ("4k3/8/8/8/8/8/3p4/K7 b - - 0 1", "d1=Q+", "d2d1q"),
    // The capture sign is not checked (python-chess does not either).
    (
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "Ne5",
        "f3e5",
    ),
    (
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "Nxe5",
        "f3e5",
    ),
    // Kings.
    (KNIGHTS, "Kd2", "e1d2"),
    (KNIGHTS, "Ke2", "e1e2"),
];

#[test]
fn san_accepted_forms() {
    for (fen, text, expected) in SAN_ACCEPTED {
        let p = pos(fen);
        match parse_san(&p, text) {
            Ok(m) => assert_eq!(m.to_uci(), *expected, "{fen}: {text:?}"),
            Err(e) => panic!("{fen}: {text:?}: {e}"),
        }
    }
}

#[test]
fn san_invalid_text() {
    let p = Position::new();
    for text in [
        "", " ", "xyz", "Nz9", "N", "e", "e9", "i4", "O-O-O-O", "OO", "o-o", "O-0", "Qxx4",
        "e4e5e6", "\u{e9}4", "N-", "Ka", "--", "+", "!!", "e8=", "e8=P", "e8==Q", "0000", "Zf3",
        "nf3", "e2e4e",
    ] {
        match parse_san(&p, text) {
            Err(SanError::Invalid { text: t }) => assert_eq!(t, text),
            other => panic!("{text:?}: expected Invalid, got {other:?}"),
        }
    }
    let e = parse_san(&p, "xyz").unwrap_err();
    assert!(
        e.to_string().contains("invalid") && e.to_string().contains("\"xyz\""),
        "{e}"
    );
}

#[test]
fn san_illegal_moves() {
    let p = Position::new();
    for text in [
        "Ke2", "Ke3", "O-O", "O-O-O", "e5", "Qd4", "Bb5", "exd5", "Nd2", "Nhf3", "N2f3", "a1",
        "Ra3", "e8=Q", "Pe5", "Nf3e5", "e8=K", "Ne8=Q", "Bb8=Q", "g1g3", "e1g1", "e2e5", "Pe2e4q",
    ] {
        match parse_san(&p, text) {
            Err(SanError::Illegal { text: t, fen }) => {
                assert_eq!(t, text);
                assert_eq!(fen, p.fen());
            }
            other => panic!("{text:?}: expected Illegal, got {other:?}"),
        }
    }
    // O-O when only O-O-O is possible, and the other way round.
    let q = pos("r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1");
    assert!(matches!(
        parse_san(&q, "O-O"),
        Err(SanError::Illegal { .. })
    ));
    assert!(parse_san(&q, "O-O-O").is_ok());
    // A promotion written without the piece is not a move (the piece is required).
    let q = pos(PROMO);
    assert!(matches!(parse_san(&q, "e8"), Err(SanError::Illegal { .. })));
    assert!(matches!(
        parse_san(&q, "exd8"),
        Err(SanError::Illegal { .. })
    ));
    assert!(matches!(
        parse_san(&q, "e7e8"),
        Err(SanError::Illegal { .. })
    ));
    assert!(matches!(
        parse_san(&q, "e7d8"),
        Err(SanError::Illegal { .. })
    ));
    // A pawn capture must name its file: `d5` is not `exd5` (python-chess agrees), nor is
    // `d6` the en-passant capture.
    let q = pos("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    assert!(matches!(parse_san(&q, "d5"), Err(SanError::Illegal { .. })));
    assert!(matches!(
        parse_san(&q, "xd5"),
        Err(SanError::Illegal { .. })
    ));
    let q = pos(EP);
    assert!(matches!(parse_san(&q, "d6"), Err(SanError::Illegal { .. })));
    assert!(matches!(
        parse_san(&PROMO.parse().unwrap(), "d8=Q"),
        Err(SanError::Illegal { .. })
    ));
    // A pinned knight's move does not count.
    let q = pos("4k3/8/8/3b4/8/5N2/8/1N5K w - - 0 1");
    assert!(matches!(
        parse_san(&q, "Nfd2"),
        Err(SanError::Illegal { .. })
    ));
    assert_eq!(parse_san(&q, "Nd2").unwrap().to_uci(), "b1d2");
    let e = parse_san(&p, "Ke3").unwrap_err();
    assert!(
        e.to_string().contains("illegal") && e.to_string().contains(&p.fen()),
        "{e}"
    );
}

#[test]
fn san_ambiguous_moves() {
    // Two knights reach d2.
    let p = pos(KNIGHTS);
    for text in ["Nd2", "Nxd2", "Nd2+", "Nd2!?"] {
        match parse_san(&p, text) {
            Err(SanError::Ambiguous {
                text: t,
                fen,
                candidates,
            }) => {
                assert_eq!(t, text);
                assert_eq!(fen, p.fen());
                let mut c: Vec<String> = candidates.iter().map(|m| m.to_uci()).collect();
                c.sort();
                assert_eq!(c, ["b1d2", "f3d2"]);
            }
            other => panic!("{text:?}: expected Ambiguous, got {other:?}"),
        }
    }
    let msg = parse_san(&p, "Nd2").unwrap_err().to_string();
    assert!(
        msg.contains("ambiguous") && msg.contains("b1d2") && msg.contains("f3d2"),
        "{msg}"
    );
    // Rooks on one file need the rank; the file alone is still ambiguous.
    let p = pos("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    assert!(matches!(
        parse_san(&p, "Ra3"),
        Err(SanError::Ambiguous { .. })
    ));
    assert!(matches!(
        parse_san(&p, "Raa3"),
        Err(SanError::Ambiguous { .. })
    ));
    assert_eq!(parse_san(&p, "R1a3").unwrap().to_uci(), "a1a3");
    // Three knights on g6: file and rank each leave two.
    let p = pos("k4N2/8/6p1/8/5N1N/8/8/4K3 w - - 0 1");
    for text in ["Nxg6", "Nfxg6", "N4xg6"] {
        match parse_san(&p, text) {
            Err(SanError::Ambiguous { candidates, .. }) => {
                assert_eq!(candidates.len(), 2 + usize::from(text == "Nxg6"), "{text}");
            }
            other => panic!("{text:?}: expected Ambiguous, got {other:?}"),
        }
    }
}

#[test]
fn san_write_then_read_in_many_positions() {
    // Every legal move's SAN reads back as that move; the checked `san` agrees with `to_san`
    // and refuses illegal moves.
    for fen in [
        START,
        CASTLE,
        PROMO,
        KNIGHTS,
        EP,
        KIWIPETE,
        "k4N2/8/6p1/8/5N1N/8/8/4K3 w - - 0 1",
        "8/k7/8/8/4Q2Q/8/8/1K5Q w - - 0 1",
    ] {
        let p = pos(fen);
        for &m in &p.legal_moves() {
            let s = to_san(&p, m);
            assert_eq!(san(&p, m).unwrap(), s);
            assert_eq!(parse_san(&p, &s), Ok(m), "{fen}: {s}");
            let l = to_lan(&p, m);
            assert_eq!(parse_san(&p, &l), Ok(m), "{fen}: LAN {l}");
        }
    }
    let p = Position::new();
    assert!(san(&p, Move::normal(Square::E2, Square::E5)).is_err());
}

// ----- LAN writing --------------------------------------------------------------------------

/// (FEN, UCI move, LAN as python-chess writes it).
const LAN: &[(&str, &str, &str)] = &[
    (START, "g1f3", "Ng1-f3"),
    (START, "e2e4", "e2-e4"),
    (
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "f3e5",
        "Nf3xe5",
    ),
    ("7k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e7-e8=Q+"),
    ("7k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", "e7-e8=N"),
    (PROMO, "e7d8q", "e7xd8=Q+"),
    (CASTLE, "e1g1", "O-O"),
    (CASTLE, "e1c1", "O-O-O"),
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+"),
    (EP, "e5d6", "e5xd6"),
    (
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        "d8h4",
        "Qd8-h4#",
    ),
    (KNIGHTS, "b1d2", "Nb1-d2"),
    ("4k3/8/8/8/8/8/3p4/K7 b - - 0 1", "d2d1q", "d2-d1=Q+"),
    ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", "Ra1-a8+"),
    ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1d2", "Ke1-d2"),
];

#[test]
fn lan_writing() {
    for (fen, m, expected) in LAN {
        let p = pos(fen);
        let mv = parse_uci(&p, m).unwrap();
        assert_eq!(to_lan(&p, mv), *expected, "{fen}: {m}");
    }
}

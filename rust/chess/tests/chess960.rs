//! Chess960 (R3.8b as FIDE's Chess960 guidelines extend it): start positions by number,
//! castling rights by rook file in X-FEN and Shredder-FEN, castling's own rules (king and rook
//! end on the standard squares; everything either crosses empty but the two; the king not in
//! check, not crossing or landing on an attacked square, nor uncovered by its own rook), UCI
//! (king takes rook) and SAN (`O-O`, `O-O-O`), and random games that check the incremental
//! key and rights against a position rebuilt from its FEN. Expected values were checked
//! against python-chess 1.11 (`Board(fen, chess960=True)`, `from_chess960_pos`).

#[path = "support/rng.rs"]
mod rng;

use shatranj_chess::chess960::{COUNT, back_rank, start_position};
use shatranj_chess::fen::{
    EnPassantMode, FenError, castling_shredder, castling_xfen, to_fen_with, to_shredder_fen,
};
use shatranj_chess::position::PositionError;
use shatranj_chess::san::{parse_san, to_san};
use shatranj_chess::uci::{parse_uci, to_uci};
use shatranj_chess::{
    CastlingMode, CastlingSide, Color, File, History, Move, MoveKind, Position, Role,
};

const C960: CastlingMode = CastlingMode::Chess960;
const STANDARD: CastlingMode = CastlingMode::Standard;

fn pos960(fen: &str) -> Position {
    Position::from_fen_with(fen, C960).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn castles(p: &Position) -> Vec<Move> {
    p.legal_moves()
        .iter()
        .copied()
        .filter(|m| m.is_castle())
        .collect()
}

// ----- start positions ----------------------------------------------------------------------

#[test]
fn start_positions_by_number() {
    // Numbers and ranks as python-chess's Board.from_chess960_pos gives them.
    for (n, fen) in [
        (
            0,
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
        ),
        (
            518,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        (
            959,
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1",
        ),
        (
            1,
            "bqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/BQNBNRKR w KQkq - 0 1",
        ),
    ] {
        let p = Position::chess960(n).unwrap();
        assert_eq!(p.fen(), fen, "number {n}");
        assert_eq!(p, pos960(fen), "number {n}");
        assert_eq!(p.chess960_number(), Some(n));
    }
    assert_eq!(Position::chess960(518).unwrap(), Position::new());
    assert_eq!(Position::new().chess960_number(), Some(518));
    let e = Position::chess960(COUNT).unwrap_err();
    assert_eq!(e.number, 960);
    assert!(e.to_string().contains("0 to 959"), "{e}");
    assert!(Position::chess960(u32::MAX).is_err());
}

/// All 960 first ranks differ, and each obeys the rules of the draw: bishops on squares of
/// both colours, the king between the rooks; each reads back from its Shredder-FEN.
#[test]
fn every_start_position_is_a_distinct_legal_draw() {
    let mut seen = std::collections::HashSet::new();
    for n in 0..COUNT {
        let rank = back_rank(n).unwrap();
        assert!(seen.insert(rank), "number {n} repeats a rank");
        let files = |role| (0..8).filter(move |&i| rank[i] == role);
        let bishops: Vec<usize> = files(Role::Bishop).collect();
        assert_eq!(bishops.len(), 2);
        assert_ne!(
            bishops[0] % 2,
            bishops[1] % 2,
            "number {n}: bishops on one colour"
        );
        let rooks: Vec<usize> = files(Role::Rook).collect();
        let king = files(Role::King).next().unwrap();
        assert!(rooks[0] < king && king < rooks[1], "number {n}");
        assert_eq!(files(Role::Knight).count(), 2);
        assert_eq!(files(Role::Queen).count(), 1);
        let p = start_position(n).unwrap();
        if n % 37 == 0 {
            assert_eq!(p.chess960_number(), Some(n));
        }
        assert_eq!(castling_xfen(&p), "KQkq");
        assert_eq!(p, pos960(&to_shredder_fen(&p, EnPassantMode::Legal)));
    }
    assert_eq!(seen.len(), 960);
}

// ----- FEN ----------------------------------------------------------------------------------

#[test]
fn xfen_and_shredder_fields() {
    // deep.txt's king on b1 with rooks on e1 and h1: the inner rook's right is `E` in both.
    let p = pos960("rr6/2kpp3/1ppn2p1/p2b1q1p/P4P1P/1PNN2P1/2PP4/1K2R2R b E - 1 20");
    assert_eq!(castling_xfen(&p), "E");
    assert_eq!(castling_shredder(&p), "E");
    assert_eq!(
        p.castling_rights()
            .rook_file(Color::White, CastlingSide::KingSide),
        Some(File::E)
    );
    // `K` means the outermost rook: h1 here.
    let p = pos960("rr6/2kpp3/1ppn2p1/p2b1q1p/P4P1P/1PNN2P1/2PP4/1K2R2R b K - 1 20");
    assert_eq!(
        p.castling_rights()
            .rook_file(Color::White, CastlingSide::KingSide),
        Some(File::H)
    );
    assert_eq!(castling_xfen(&p), "K");
    assert_eq!(castling_shredder(&p), "H");
    // Shredder-FEN in, X-FEN out, and back.
    let p = pos960("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert_eq!(
        p.fen(),
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
    );
    assert_eq!(pos960(&p.fen()), p);
    // Standard positions read the same in both modes, and write KQkq.
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(pos960(kiwipete), Position::from_fen(kiwipete).unwrap());
    assert!(pos960(kiwipete).castling_rights().is_standard());
    assert_eq!(castling_shredder(&pos960(kiwipete)), "HAha");
    assert_eq!(
        pos960("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").fen(),
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    );
}

#[test]
fn chess960_rights_are_refused_in_standard_mode_and_checked_in_chess960() {
    // King on f1 with the h1 rook: Chess960 castling, not standard chess's.
    let fen = "4k3/8/8/8/8/8/8/R4K1R w KQ - 0 1";
    let e = Position::from_fen(fen).unwrap_err();
    assert!(
        matches!(
            e,
            FenError::Setup {
                error: PositionError::CastlingWithoutPieces {
                    color: Color::White,
                    ..
                },
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("Chess960"), "{e}");
    let p = Position::from_fen_with(fen, C960).unwrap();
    assert!(!p.castling_rights().is_standard());
    assert_eq!(p.castling_rights().king_file(Color::White), Some(File::F));
    // File letters are Chess960 only.
    assert!(matches!(
        Position::from_fen_with("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", STANDARD),
        Err(FenError::BadCastling { .. })
    ));
    for (fen, why) in [
        ("4k3/8/8/8/8/8/8/R4K1R w C - 0 1", "no rook on c1"),
        ("4k3/8/8/8/8/8/8/R4K1R w F - 0 1", "the king's own file"),
        (
            "4k3/8/8/8/8/8/5K2/R6R w A - 0 1",
            "the king off its first rank",
        ),
        (
            "4k3/8/8/8/8/8/8/5K1R w Q - 0 1",
            "no rook on the queen's side",
        ),
    ] {
        assert!(
            matches!(
                Position::from_fen_with(fen, C960),
                Err(FenError::Setup {
                    error: PositionError::CastlingWithoutPieces { .. },
                    ..
                })
            ),
            "{why}: {fen}"
        );
    }
    // Two rights for one side, however written.
    for castling in ["KH", "AQ", "KK", "Aa", "HK"] {
        let fen = format!("4k3/8/8/8/8/8/8/R4K1R w {castling} - 0 1");
        if castling == "Aa" {
            // Black's `a` names a rook Black lacks: refused later, as missing pieces.
            assert!(Position::from_fen_with(&fen, C960).is_err());
            continue;
        }
        assert!(
            matches!(
                Position::from_fen_with(&fen, C960),
                Err(FenError::BadCastling { .. })
            ),
            "{fen}"
        );
    }
}

// ----- castling rules -----------------------------------------------------------------------

#[test]
fn king_and_rook_end_on_the_standard_squares() {
    for (fen, uci, san, after) in [
        // The king stays put on g1; the rook goes from h1 to f1.
        (
            "4k3/8/8/8/8/8/8/6KR w H - 0 1",
            "g1h1",
            "O-O",
            "4k3/8/8/8/8/8/8/5RK1 b - - 1 1",
        ),
        // The king lands on the rook's square and the rook on the king's.
        (
            "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
            "f1g1",
            "O-O",
            "4k3/8/8/8/8/8/8/5RK1 b - - 1 1",
        ),
        // Queenside from b1 with the rook on a1: king c1, rook d1.
        (
            "4k3/8/8/8/8/8/8/RK6 w A - 0 1",
            "b1a1",
            "O-O-O",
            "4k3/8/8/8/8/8/8/2KR4 b - - 1 1",
        ),
        // The king already on its c1 destination: only the rook moves, a1 to d1.
        (
            "4k3/8/8/8/8/8/8/R1K5 w A - 0 1",
            "c1a1",
            "O-O-O",
            "4k3/8/8/8/8/8/8/2KR4 b - - 1 1",
        ),
        // King c1, rook d1 on its kingside (an h1 rook beside it): king g1, rook f1.
        (
            "4k3/8/8/8/8/8/8/2KR3R w D - 0 1",
            "c1d1",
            "O-O",
            "4k3/8/8/8/8/8/8/5RKR b - - 1 1",
        ),
        // Black, the king on b8 and the rook on c8 (kingside).
        (
            "1kr5/8/8/8/8/8/8/4K3 b c - 0 1",
            "b8c8",
            "O-O",
            "5rk1/8/8/8/8/8/8/4K3 w - - 1 2",
        ),
    ] {
        let p = pos960(fen);
        let m = parse_uci(&p, uci).unwrap_or_else(|e| panic!("{fen} {uci}: {e}"));
        assert_eq!(m.kind(), MoveKind::Castle, "{fen} {uci}");
        assert_eq!(to_uci(&p, m, C960), uci);
        // The rook castling moves is the one the king takes in UCI.
        assert_eq!(
            p.castling_rook(m).map(|s| s.to_string()),
            Some(uci[2..].to_owned())
        );
        assert_eq!(
            p.castling_rook(Move::normal(m.from(), m.to())),
            None,
            "{fen}"
        );
        assert_eq!(to_san(&p, m), san);
        assert_eq!(parse_san(&p, san).unwrap(), m);
        let a = p.after(m).unwrap();
        assert_eq!(a.fen(), after, "{fen} {uci}");
        assert_eq!(a.key(), a.compute_key(), "{fen} {uci}");
        assert_eq!(a, pos960(after));
    }
}

#[test]
fn every_square_either_crosses_must_be_empty_but_the_two() {
    // King d1, rook a1, queenside: the rook crosses b1 and c1 and lands on d1 (the king's).
    assert_eq!(castles(&pos960("4k3/8/8/8/8/8/8/R2K4 w A - 0 1")).len(), 1);
    assert!(castles(&pos960("4k3/8/8/8/8/8/8/RN1K4 w A - 0 1")).is_empty());
    // King b1, rook c1 (kingside): the king crosses c1 to g1 and the rook lands on f1.
    assert_eq!(castles(&pos960("4k3/8/8/8/8/8/8/1KR5 w C - 0 1")).len(), 1);
    assert!(castles(&pos960("4k3/8/8/8/8/8/8/1KR3N1 w C - 0 1")).is_empty());
    assert!(castles(&pos960("4k3/8/8/8/8/8/8/1KR2N2 w C - 0 1")).is_empty());
    // A piece beyond both destinations does not matter.
    assert_eq!(castles(&pos960("4k3/8/8/8/8/8/8/1KR4N w C - 0 1")).len(), 1);
}

#[test]
fn the_king_may_not_castle_out_of_through_or_into_check() {
    let base = "4k3/8/8/8/8/8/8/1KR5 w C - 0 1";
    assert_eq!(castles(&pos960(base)).len(), 1);
    for (fen, why) in [
        ("1r2k3/8/8/8/8/8/8/1KR5 w C - 0 1", "in check"),
        ("4kr2/8/8/8/8/8/8/1KR5 w C - 0 1", "crossing f1"),
        ("4k1r1/8/8/8/8/8/8/1KR5 w C - 0 1", "landing on g1"),
        ("3rk3/8/8/8/8/8/8/1KR5 w C - 0 1", "crossing d1"),
    ] {
        assert!(castles(&pos960(fen)).is_empty(), "{why}: {fen}");
    }
    // King b1, rook a1: the rook may land on an attacked d1, the king not on c1.
    assert_eq!(castles(&pos960("4k3/8/8/8/8/8/8/RK6 w A - 0 1")).len(), 1);
    assert_eq!(castles(&pos960("4k3/8/8/8/8/8/3r4/RK6 w A - 0 1")).len(), 1);
    assert_eq!(castles(&pos960("4k3/8/8/8/8/8/2r5/RK6 w A - 0 1")).len(), 0);
}

/// The castling rook may be what shields the king's destination from a slider on the first
/// rank: with the queen on a1, castling from c1 with the b1 rook would uncover the king.
#[test]
fn the_castling_rook_may_not_uncover_the_king() {
    let shielded = "4k3/8/8/8/8/8/8/qRK5 w B - 0 1";
    let p = pos960(shielded);
    assert!(!p.is_check());
    assert!(castles(&p).is_empty());
    assert!(parse_uci(&p, "c1b1").is_err());
    // A knight there attacks neither c1 nor d1: castling is legal.
    let p = pos960("4k3/8/8/8/8/8/8/nRK5 w B - 0 1");
    let m = parse_uci(&p, "c1b1").unwrap();
    assert_eq!(p.after(m).unwrap().fen(), "4k3/8/8/8/8/8/8/n1KR4 b - - 1 1");
    // The same for Black.
    let p = pos960("Qrk5/8/8/8/8/8/8/4K3 b b - 0 1");
    assert!(!p.is_check());
    assert!(
        castles(&p).is_empty(),
        "the a8 queen sees c8 once the rook leaves"
    );
}

#[test]
fn castling_rights_follow_their_rooks() {
    // Moving the e1 rook (the `E` right) spends it; the h1 rook's move does not.
    let p = pos960("rr6/2kpp3/1ppn2p1/p2b1q1p/P4P1P/1PNN2P1/2PP4/1K2R2R w E - 0 20");
    let moved_h = p.after(parse_uci(&p, "h1g1").unwrap()).unwrap();
    assert_eq!(castling_xfen(&moved_h), "E");
    let moved_e = p.after(parse_uci(&p, "e1e2").unwrap()).unwrap();
    assert_eq!(castling_xfen(&moved_e), "-");
    // Capturing the castling rook spends the right; the key follows.
    let p = pos960("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1");
    let after = p.after(parse_uci(&p, "b1b8").unwrap()).unwrap();
    assert_eq!(castling_shredder(&after), "Gg");
    assert_eq!(after.key(), after.compute_key());
    // A king move spends both.
    let after = p.after(parse_uci(&p, "e1d1").unwrap()).unwrap();
    assert_eq!(castling_shredder(&after), "gb");
}

// ----- notation -----------------------------------------------------------------------------

#[test]
fn uci_castling_in_each_mode() {
    // Standard start and castling: e1g1 in standard mode, e1h1 in Chess960 mode; both read.
    let p = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let m = parse_uci(&p, "e1g1").unwrap();
    assert_eq!(parse_uci(&p, "e1h1").unwrap(), m);
    assert_eq!(to_uci(&p, m, STANDARD), "e1g1");
    assert_eq!(to_uci(&p, m, C960), "e1h1");
    let q = parse_uci(&p, "e1c1").unwrap();
    assert_eq!(to_uci(&p, q, C960), "e1a1");
    // King b1 beside its a1 rook: b1c1 is the king's step, b1a1 castling; in either mode a
    // castling standard chess lacks is written king-takes-rook.
    let p = pos960("4k3/8/8/8/8/8/8/RK6 w A - 0 1");
    let step = parse_uci(&p, "b1c1").unwrap();
    assert_eq!(step.kind(), MoveKind::Normal);
    let castle = parse_uci(&p, "b1a1").unwrap();
    assert_eq!(castle.kind(), MoveKind::Castle);
    assert_ne!(step, castle);
    assert_eq!(to_uci(&p, castle, STANDARD), "b1a1");
    assert_eq!(to_uci(&p, step, C960), "b1c1");
    assert_eq!(to_san(&p, step), "Kc1");
    assert_eq!(to_san(&p, castle), "O-O-O");
    // e1g1 names castling only with the rook on h1: here the rook is on f1.
    let p = pos960("4k3/8/8/8/8/8/8/4KR2 w F - 0 1");
    assert!(parse_uci(&p, "e1g1").is_err());
    assert_eq!(to_uci(&p, parse_uci(&p, "e1f1").unwrap(), STANDARD), "e1f1");
}

/// Random games from random start positions (seeded): after every move the incremental key
/// equals the key computed afresh, the position equals the one read back from its X-FEN and
/// its Shredder-FEN, and every legal move's UCI (Chess960 mode) and SAN read back as it.
#[test]
fn random_games_keep_keys_rights_and_notation_consistent() {
    let seed = 960;
    println!("seed {seed}");
    let mut rng = rng::Rng::mixed(seed);
    let (mut castlings, mut positions) = (0, 0);
    for _ in 0..60 {
        let n = rng.below(960) as u32;
        let mut p = Position::chess960(n).unwrap();
        let mut game = History::new(p);
        for _ in 0..120 {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            positions += 1;
            assert_eq!(p.key(), p.compute_key(), "{}", p.fen());
            assert_eq!(pos960(&to_fen_with(&p, EnPassantMode::Always)), p);
            assert_eq!(pos960(&to_shredder_fen(&p, EnPassantMode::Always)), p);
            for &m in &legal {
                assert_eq!(
                    parse_uci(&p, &to_uci(&p, m, C960)).unwrap(),
                    m,
                    "{}",
                    p.fen()
                );
                assert_eq!(parse_san(&p, &to_san(&p, m)).unwrap(), m, "{}", p.fen());
            }
            // Castle whenever possible, to reach the Chess960 cases often.
            let castles: Vec<Move> = legal.iter().copied().filter(|m| m.is_castle()).collect();
            let m = if !castles.is_empty() && rng.below(2) == 0 {
                castlings += 1;
                rng.pick(&castles)
            } else {
                legal[rng.below(legal.len())]
            };
            p.play(m).unwrap();
            game.push(m).unwrap();
        }
        // The game keeps each position a move was played in, the current one last.
        let before: Vec<&Position> = game.positions().collect();
        assert_eq!(before.len(), game.moves().len() + 1);
        assert_eq!(*before[before.len() - 1], p);
        for (i, &m) in game.moves().iter().enumerate() {
            assert_eq!(before[i].after(m).unwrap(), *before[i + 1]);
        }
    }
    println!("{positions} positions, {castlings} castlings");
    assert!(castlings >= 30, "{castlings}");
}

//! Unit tests of the variants' pieces that the perft files and the python-chess differential
//! (tests/variant_*.rs) do not pin down on their own.

use super::*;
use crate::test_rng::Xorshift;
use crate::{Color, Position, Role, Square};

fn starting_fen_round_trips<V: Variant>() {
    let pos = VariantPosition::<V>::new();
    assert_eq!(pos.fen(), V::STARTING_FEN, "{}", V::UCI_NAME);
}

#[test]
fn every_starting_fen_reads_and_writes_back() {
    for kind in VariantKind::ALL {
        with_variant!(kind, V => starting_fen_round_trips::<V>());
        assert_eq!(VariantKind::from_name(kind.uci_name()), Some(kind));
    }
}

#[test]
fn the_key_is_polyglots_where_there_is_no_state() {
    let koth = KingOfTheHillPosition::new();
    assert_eq!(koth.key(), Position::new().key());
    let three: ThreeCheckPosition = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+3 0 1"
        .parse()
        .unwrap();
    assert_ne!(three.key(), ThreeCheckPosition::new().key());
    let zh: CrazyhousePosition = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N] w KQkq - 0 1"
        .parse()
        .unwrap();
    assert_ne!(zh.key(), CrazyhousePosition::new().key());
}

#[test]
fn crazyhouse_drops_in_san_and_uci() {
    let pos: CrazyhousePosition = "4k3/8/8/8/8/8/8/4K3[PNq] w - - 0 1".parse().unwrap();
    let pawn = pos.parse_san("@e4").unwrap();
    assert_eq!(
        pawn,
        VariantMove::Drop {
            role: Role::Pawn,
            to: Square::E4
        }
    );
    assert_eq!(pos.parse_san("P@e4").unwrap(), pawn);
    assert_eq!(pos.to_uci(pawn), "P@e4");
    assert_eq!(pos.parse_uci("P@e4").unwrap(), pawn);
    let knight = pos.parse_uci("N@d6").unwrap();
    assert_eq!(pos.san(knight), "N@d6+");
    // No pawn drops on the first or last rank; the queen is Black's.
    assert!(pos.parse_uci("P@e8").is_err());
    assert!(pos.parse_uci("Q@d4").is_err());
    let after = pos.after(knight).unwrap();
    assert_eq!(after.fen(), "4k3/8/3N4/8/8/8/8/4K3[Pq] b - - 1 1");
    assert_eq!(after.pocket_count(Color::White, Role::Knight), 0);
}

#[test]
fn a_promoted_piece_goes_back_as_a_pawn() {
    let pos: CrazyhousePosition = "4k3/1Q~6/8/8/8/K7/8/7r[] b - - 0 1".parse().unwrap();
    assert_eq!(pos.fen(), "4k3/1Q~6/8/8/8/K7/8/7r[] b - - 0 1");
    let pos = pos.after(pos.parse_san("Rh7").unwrap()).unwrap();
    let pos = pos.after(pos.parse_san("Ka4").unwrap()).unwrap();
    let takes = pos.parse_san("Rxb7").unwrap();
    let after = pos.after(takes).unwrap();
    assert_eq!(after.pocket_count(Color::Black, Role::Pawn), 1);
    assert_eq!(after.pocket_count(Color::Black, Role::Queen), 0);
}

#[test]
fn atomic_captures_explode() {
    let pos: AtomicPosition = "rnbqkbnr/ppp1pppp/8/3p4/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1"
        .parse()
        .unwrap();
    let after = pos.after(pos.parse_san("exd5").unwrap()).unwrap();
    // The capturer and the captured pawn go; pawns beside survive.
    assert_eq!(
        after.fen(),
        "rnbqkbnr/ppp1pppp/8/8/8/5N2/PPPP1PPP/RNBQKB1R b KQkq - 0 1"
    );
    // A knight capture on e5 next to nothing but pawns; on d7 it would take the king's
    // neighbours: here Nxe5-style explosions remove pieces, not pawns.
    let pos: AtomicPosition = "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1"
        .parse()
        .unwrap();
    let after = pos.after(pos.parse_san("Nxe5").unwrap()).unwrap();
    assert_eq!(
        after.fen(),
        "rnbqkbnr/pppp1ppp/8/8/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 1"
    );
    // Kings never capture, and touching kings cannot check.
    let pos: AtomicPosition = "8/8/8/8/8/3kq3/8/3K4 w - - 0 1".parse().unwrap();
    assert!(!pos.is_check());
}

#[test]
fn antichess_forces_captures_and_promotes_to_king() {
    let pos: AntichessPosition = "8/4P3/8/8/8/8/p7/8 w - - 0 1".parse().unwrap();
    let moves: Vec<String> = pos.legal_moves().iter().map(|&m| pos.to_uci(m)).collect();
    assert!(moves.contains(&"e7e8k".to_owned()), "{moves:?}");
    let pos: AntichessPosition = "8/8/8/3p4/4P3/8/8/8 w - - 0 1".parse().unwrap();
    let moves: Vec<String> = pos.legal_moves().iter().map(|&m| pos.to_uci(m)).collect();
    assert_eq!(moves, ["e4d5"]);
    let won: AntichessPosition = "8/8/8/8/8/8/8/k7 w - - 0 1".parse().unwrap();
    assert_eq!(
        won.outcome().map(|o| (o.winner, o.termination)),
        Some((Some(Color::White), VariantTermination::VariantWin))
    );
}

#[test]
fn three_check_counts_checks_in_both_fen_forms() {
    let pos: ThreeCheckPosition = "4k3/8/8/8/8/8/8/4K2R w - - 0 1 +2+0".parse().unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K2R w - - 1+3 0 1");
    let after = pos.after(pos.parse_san("Rh8+").unwrap()).unwrap();
    assert_eq!(after.fen(), "4k2R/8/8/8/8/8/8/4K3 b - - 0+3 1 1");
    assert_eq!(
        after.outcome().map(|o| (o.winner, o.termination)),
        Some((Some(Color::White), VariantTermination::VariantLoss))
    );
    assert!(after.legal_moves().is_empty());
}

fn no_panic_on<V: Variant>(text: &str) {
    let _ = VariantPosition::<V>::from_fen(text).map(|p| {
        let moves = p.legal_moves();
        for &m in &moves {
            let _ = p.san(m);
        }
        p.fen()
    });
    // The positions python-chess's boards hold though the variant's rules refuse them (no
    // king, pawns on the back rank, the side not to move in check) must not panic either.
    let _ = VariantPosition::<V>::from_fen_unchecked(text, crate::CastlingMode::Standard).map(
        |(p, _)| {
            for m in p.pseudo_legal_moves() {
                let mut after = p;
                after.play_unchecked(m);
                let _ = (p.san(m), after.fen(), after.outcome(), after.key());
            }
            #[cfg(feature = "python-compat")]
            let _ = p.legal_moves_python_order();
            (p.outcome(), p.is_stalemate())
        },
    );
}

#[test]
fn suicide_stalemate_goes_to_the_side_with_fewer_men() {
    let outcome = |fen: &str| {
        let pos: SuicidePosition = fen.parse().unwrap();
        assert!(pos.is_stalemate(), "{fen}");
        pos.outcome().map(|o| (o.winner, o.termination))
    };
    // White, to move, has no move: one man each is a draw, more men than Black a loss.
    assert_eq!(
        outcome("8/8/8/8/8/p7/P7/8 w - - 0 1"),
        Some((None, VariantTermination::VariantDraw))
    );
    assert_eq!(
        outcome("8/8/8/8/7p/p6P/P6P/8 w - - 0 1"),
        Some((Some(Color::Black), VariantTermination::VariantLoss))
    );
    assert_eq!(
        outcome("8/8/8/8/8/p7/P6P/8 b - - 0 1"),
        Some((Some(Color::Black), VariantTermination::VariantWin))
    );
    // Giveaway gives every stalemate to the stalemated side.
    let pos: GiveawayPosition = "8/8/8/8/7p/p6P/P6P/8 w - - 0 1".parse().unwrap();
    assert_eq!(
        pos.outcome().map(|o| (o.winner, o.termination)),
        Some((Some(Color::White), VariantTermination::VariantWin))
    );
    assert_eq!(
        VariantKind::from_name("Suicide chess"),
        Some(VariantKind::Suicide)
    );
}

#[test]
fn no_stalemate_once_the_variant_has_ended() {
    // White reached the eighth rank and Black cannot follow: no moves, but not stalemate.
    let pos: RacingKingsPosition = "1k5b/5b2/8/8/8/8/3N3K/N4B2 w - - 0 1".parse().unwrap();
    assert!(pos.is_variant_end() && pos.is_variant_loss());
    assert!(pos.legal_moves().is_empty());
    assert!(!pos.is_stalemate());
}

#[test]
fn unchecked_fens_keep_what_the_rules_refuse() {
    let (pos, problem) = CrazyhousePosition::from_fen_unchecked(
        "8/8/8/8/8/8/8/8 w - - 0 0",
        crate::CastlingMode::Standard,
    )
    .unwrap();
    assert!(matches!(problem, Some(VariantFenError::KingCount { .. })));
    assert_eq!(pos.fen(), "8/8/8/8/8/8/8/8[] w - - 0 1");
    assert!(CrazyhousePosition::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
    assert!(
        CrazyhousePosition::from_fen_unchecked(
            "8/8/8/8/8/8/8 w - -",
            crate::CastlingMode::Standard
        )
        .is_err()
    );
}

/// Mutated FENs of every variant give a position or an error, never a panic (seeded
/// xorshift; the seed is printed).
#[test]
fn bad_fens_are_errors_not_panics() {
    let seed = 0x9E37_79B9_7F4A_7C15u64;
    println!("seed {seed:#x}");
    let mut rng = Xorshift::new(seed);
    let alphabet = b"/12345678pnbrqkPNBRQK~[]+-@ 09wbx";
    for round in 0..4_000 {
        let kind = VariantKind::ALL[round % VariantKind::ALL.len()];
        let mut text = kind.starting_fen().as_bytes().to_vec();
        for _ in 0..=rng.below(3) {
            let at = rng.below(text.len() + 1);
            rng.mutate_at(&mut text, at, alphabet);
        }
        let text = String::from_utf8(text).expect("ASCII");
        with_variant!(kind, V => no_panic_on::<V>(&text));
    }
    for bad in [
        "",
        "8/8/8/8/8/8/8/8 w - -",
        "k7/8/8/8/8/8/8/K7[Z] w - - 0 1",
    ] {
        assert!(CrazyhousePosition::from_fen(bad).is_err(), "{bad}");
    }
    assert!(ThreeCheckPosition::from_fen("k7/8/8/8/8/8/8/K7 w - - 9+1 0 1").is_err());
    assert!(HordePosition::from_fen("k7/8/8/8/8/8/8/K7 w - - 0 1").is_err());
}

#[test]
fn san_text_may_be_a_uci_move() {
    // python-chess's parse_san reads `e2e4` too; an XBoard engine may write either form.
    let pos = AtomicPosition::new();
    assert_eq!(pos.parse_san("e2e4").ok(), pos.parse_uci("e2e4").ok());
    assert!(pos.parse_san("e2e4").is_ok());
    assert!(pos.parse_san("e2e5").is_err());
    let zh: CrazyhousePosition = "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1".parse().unwrap();
    assert_eq!(zh.parse_san("N@f3").ok(), zh.parse_uci("N@f3").ok());
}

//! Randomised invariants over random games. The games are reproducible: a tiny xorshift
//! generator with a fixed seed (printed at the start of each test) picks the moves, so a
//! failure names a FEN that can be replayed.
//!
//! Every test walks the same games from several start positions and checks one family of
//! properties in every position visited: copy-make and keys, FEN round trips, SAN/LAN round
//! trips, move counting and legality, and colour symmetry.

use shatranj_chess::fen::{self, EnPassantMode, to_fen_with};
use shatranj_chess::perft::perft;
use shatranj_chess::san::{parse_san, to_lan, to_san};
use shatranj_chess::uci::parse_uci;
use shatranj_chess::{Color, History, Move, MoveKind, Position, Role, Square};

#[path = "support/positions.rs"]
mod positions;
#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

const SEED: u64 = 0x5EED_2024_C0FF_EE01;

/// Positions to start the random games from, after the classic ones: promotions, e.p. and a
/// pawn ending.
const EXTRA_STARTS: &[&str] = &[
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
];

/// Walks random games from every start position until `plies` positions have been
/// visited in all, calling `check` on each (with the game so far) before the next move.
/// A game ends at mate, stalemate, dead material or after `MAX_GAME` plies.
fn walk(name: &str, plies: usize, mut check: impl FnMut(&History, &mut Rng)) {
    const MAX_GAME: usize = 160;
    println!("{name}: seed {SEED:#018x}, {plies} positions");
    let mut rng = Rng::new(SEED);
    let mut check_rng = Rng::new(SEED ^ 0x9E37_79B9_7F4A_7C15);
    let mut visited = 0;
    let mut game = 0;
    let starts = positions::classic_and(EXTRA_STARTS);
    while visited < plies {
        let start: Position = starts[game % starts.len()].parse().unwrap();
        game += 1;
        let mut h = History::new(start);
        for _ in 0..MAX_GAME {
            check(&h, &mut check_rng);
            visited += 1;
            let moves = h.position().legal_moves();
            if moves.is_empty() || h.position().is_insufficient_material() || visited >= plies {
                break;
            }
            let m = moves[rng.below(moves.len())];
            h.push(m).unwrap();
        }
    }
}

/// The FEN to show in a failure.
fn at(p: &Position) -> String {
    to_fen_with(p, EnPassantMode::Always)
}

#[test]
fn copy_make_and_incremental_keys() {
    walk("copy-make", 6000, |h, _| {
        let pos = *h.position();
        assert_eq!(pos.key(), pos.compute_key(), "{}", at(&pos));
        let mut game = h.clone();
        for &m in &pos.legal_moves() {
            game.push(m).unwrap();
            let after = *game.position();
            assert_eq!(after.key(), after.compute_key(), "{} {m}", at(&pos));
            assert_eq!(after, pos.after(m).unwrap());
            assert_ne!(
                after.key(),
                pos.key(),
                "{} {m}: the side to move is hashed",
                at(&pos)
            );
            // Playing on a copy leaves the original untouched.
            let mut copy = pos;
            copy.play_unchecked(m);
            assert_eq!(copy, after);
            assert_eq!(copy.key(), after.key());
            assert_eq!(game.pop(), Some(m));
            assert_eq!(*game.position(), pos, "{} {m}", at(&pos));
            assert_eq!(game.position().key(), pos.key(), "{} {m}", at(&pos));
            assert_eq!(game.moves(), h.moves());
        }
        // The clocks follow the rules of the move.
        for &m in &pos.legal_moves() {
            let after = pos.after(m).unwrap();
            let expected = if pos.is_zeroing(m) {
                0
            } else {
                pos.halfmove_clock() + 1
            };
            assert_eq!(after.halfmove_clock(), expected, "{} {m}", at(&pos));
            let full = pos.fullmove_number() + u32::from(pos.turn() == Color::Black);
            assert_eq!(after.fullmove_number(), full);
            assert_eq!(after.turn(), !pos.turn());
        }
    });
}

#[test]
fn fen_round_trips() {
    walk("fen", 8000, |h, _| {
        let pos = *h.position();
        // Always writing the e.p. square loses nothing.
        let always = to_fen_with(&pos, EnPassantMode::Always);
        let back = fen::parse(&always).unwrap_or_else(|e| panic!("{always}: {e}"));
        assert_eq!(back, pos, "{always}");
        assert_eq!(back.key(), pos.key(), "{always}");
        assert_eq!(to_fen_with(&back, EnPassantMode::Always), always);
        // The default drops an e.p. square no capture can use, and nothing else.
        let legal = pos.fen();
        assert_eq!(legal, to_fen_with(&pos, EnPassantMode::Legal));
        let back = fen::parse(&legal).unwrap_or_else(|e| panic!("{legal}: {e}"));
        assert_eq!(back.fen(), legal);
        assert_eq!(back.board(), pos.board());
        assert_eq!(back.turn(), pos.turn());
        assert_eq!(back.castling_rights(), pos.castling_rights());
        assert_eq!(back.ep_square(), pos.legal_ep_square(), "{always}");
        assert_eq!(
            (back.halfmove_clock(), back.fullmove_number()),
            (pos.halfmove_clock(), pos.fullmove_number())
        );
        assert_eq!(back.legal_moves().len(), pos.legal_moves().len());
        if pos.ep_square() == pos.legal_ep_square() {
            assert_eq!(back, pos);
        }
        // The e.p. square is written only when an e.p. capture is among the legal moves.
        let has_ep_capture = pos.legal_moves().iter().any(|m| m.is_en_passant());
        assert_eq!(pos.legal_ep_square().is_some(), has_ep_capture, "{always}");
        assert_eq!(
            legal.split(' ').nth(3) != Some("-"),
            has_ep_capture,
            "{always}"
        );
    });
}

#[test]
fn san_and_lan_round_trips() {
    walk("san", 5000, |h, _| {
        let pos = *h.position();
        for &m in &pos.legal_moves() {
            let s = to_san(&pos, m);
            assert_eq!(parse_san(&pos, &s), Ok(m), "{} {m}: {s}", at(&pos));
            let after = pos.after(m).unwrap();
            // The suffix says check or mate, and nothing else does.
            let suffix = if after.is_checkmate() {
                Some('#')
            } else if after.is_check() {
                Some('+')
            } else {
                None
            };
            assert_eq!(
                s.chars().last().filter(|c| *c == '+' || *c == '#'),
                suffix,
                "{} {m}: {s}",
                at(&pos)
            );
            assert_eq!(pos.gives_check(m), after.is_check());
            // SAN starts with the piece letter, or with a file for a pawn, or is castling.
            let role = pos.moved_role(m).unwrap();
            let l = to_lan(&pos, m);
            if m.is_castle() {
                assert!(s.starts_with("O-O") && l.starts_with("O-O"), "{s} {l}");
                assert_eq!(s, l);
            } else if role == Role::Pawn {
                assert_eq!(s.chars().next(), Some(m.from().file().char()), "{s}");
                assert!(
                    l.starts_with(&m.from().to_string()),
                    "{} {m}: LAN {l}",
                    at(&pos)
                );
            } else {
                assert!(s.starts_with(role.upper_char()), "{s}");
                assert!(
                    l.starts_with(&format!("{}{}", role.upper_char(), m.from())),
                    "{} {m}: LAN {l}",
                    at(&pos)
                );
            }
            if !m.is_castle() {
                let sep = if pos.is_capture(m) { 'x' } else { '-' };
                assert!(
                    l.contains(&format!("{sep}{}", m.to())),
                    "{} {m}: LAN {l}",
                    at(&pos)
                );
                assert_eq!(s.contains('x'), pos.is_capture(m), "{s}");
            }
            if let Some(p) = m.promotion() {
                assert!(
                    s.contains(&format!("={}", p.upper_char()))
                        && l.contains(&format!("={}", p.upper_char()))
                );
            }
            assert_eq!(parse_san(&pos, &l), Ok(m), "{} {m}: LAN {l}", at(&pos));
            // And UCI.
            assert_eq!(parse_uci(&pos, &m.to_uci()), Ok(m));
        }
    });
}

#[test]
fn move_counts_and_legality() {
    // How often the special moves were among the legal ones, to be sure the games reach them.
    let (mut castles, mut en_passants, mut promotions, mut checks) = (0, 0, 0, 0);
    walk("legality", 8000, |h, rng| {
        let pos = *h.position();
        let moves = pos.legal_moves();
        castles += moves.iter().filter(|m| m.is_castle()).count();
        en_passants += moves.iter().filter(|m| m.is_en_passant()).count();
        promotions += moves.iter().filter(|m| m.is_promotion()).count();
        checks += usize::from(pos.is_check());
        assert_eq!(moves.len(), pos.count_legal_moves(), "{}", at(&pos));
        // The quick sufficient test: it finds a move exactly when a free knight or pawn has one.
        let free_move = moves.iter().any(|m| {
            let role = pos.board().role_at(m.from());
            matches!(role, Some(Role::Knight | Role::Pawn))
                && !m.is_en_passant()
                && (role == Some(Role::Knight) || !pos.is_capture(*m))
                && !pos.is_pinned(pos.turn(), m.from())
        });
        assert_eq!(
            pos.has_free_knight_or_pawn_move(),
            free_move && !pos.is_check(),
            "{}",
            at(&pos)
        );
        // legal_captures is exactly the captures and promotions of legal_moves, in order.
        let tactical: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m) || m.is_promotion())
            .collect();
        assert_eq!(
            pos.legal_captures().as_slice(),
            &tactical[..],
            "{}",
            at(&pos)
        );
        assert_eq!(moves.len() as u64, perft(&pos, 1));
        assert_eq!(pos.has_legal_moves(), !moves.is_empty());
        assert_eq!(pos.is_checkmate(), pos.is_check() && moves.is_empty());
        assert_eq!(pos.is_stalemate(), !pos.is_check() && moves.is_empty());
        let mut sorted: Vec<Move> = moves.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), moves.len(), "{}: duplicate moves", at(&pos));
        let us = pos.turn();
        for &m in &moves {
            assert!(pos.is_legal(m));
            assert_eq!(
                pos.piece_at(m.from()).map(|p| p.color),
                Some(us),
                "{} {m}",
                at(&pos)
            );
            // R3.9: the mover's king is never left attacked; R3.1: kings are never taken.
            let after = pos.after(m).unwrap();
            assert!(
                !after.is_attacked_by(!us, after.king(us)),
                "{} {m}",
                at(&pos)
            );
            assert!(!pos.board().kings().contains(m.to()), "{} {m}", at(&pos));
            assert_eq!(after.board().kings().count(), 2);
        }
        // Random moves that are not legal are refused and change nothing.
        for _ in 0..24 {
            let from = Square::new(rng.below(64) as u32).unwrap();
            let to = Square::new(rng.below(64) as u32).unwrap();
            let kind = match rng.below(8) {
                0 => MoveKind::EnPassant,
                1 => MoveKind::Castle,
                2 => MoveKind::Promotion(Role::ALL[rng.below(6)]),
                _ => MoveKind::Normal,
            };
            let m = Move::new(from, to, kind);
            assert_eq!((m.from(), m.to(), m.kind()), (from, to, kind));
            if moves.contains(&m) {
                continue;
            }
            let mut p = pos;
            assert!(!pos.is_legal(m));
            assert!(p.play(m).is_err(), "{} {m:?}", at(&pos));
            assert_eq!(p, pos);
            assert_eq!(p.key(), pos.key());
            assert!(pos.after(m).is_err());
            let mut game = h.clone();
            assert!(game.push(m).is_err());
            assert_eq!(game.moves().len(), h.moves().len());
        }
        // A legal move with its kind changed is not legal (unless that is a legal move too).
        if !moves.is_empty() {
            let m = moves[rng.below(moves.len())];
            for kind in [
                MoveKind::Normal,
                MoveKind::EnPassant,
                MoveKind::Castle,
                MoveKind::Promotion(Role::King),
                MoveKind::Promotion(Role::Pawn),
            ] {
                let twisted = Move::new(m.from(), m.to(), kind);
                if !moves.contains(&twisted) {
                    let mut p = pos;
                    assert!(p.play(twisted).is_err(), "{} {twisted:?}", at(&pos));
                    assert_eq!(p, pos);
                }
            }
        }
    });
    println!(
        "seen: {castles} castlings, {en_passants} e.p. captures, {promotions} promotions, {checks} checks"
    );
    assert!(castles > 0 && en_passants > 0 && promotions > 0 && checks > 0);
}

#[test]
fn mirrored_positions_are_symmetric() {
    walk("mirror", 4000, |h, _| {
        let pos = *h.position();
        let m = pos.mirrored();
        assert_eq!(m.mirrored(), pos);
        assert_eq!(m.mirrored().key(), pos.key());
        assert_eq!(m.key(), m.compute_key());
        assert_eq!(m.turn(), !pos.turn());
        assert_eq!(
            m.legal_moves().len(),
            pos.legal_moves().len(),
            "{}",
            at(&pos)
        );
        assert_eq!(m.is_check(), pos.is_check());
        assert_eq!(
            m.legal_ep_square(),
            pos.legal_ep_square().map(Square::flip_vertical)
        );
        assert_eq!(perft(&m, 2), perft(&pos, 2), "{}", at(&pos));
        // The mirror is a valid position in its own right.
        let reparsed = fen::parse(&to_fen_with(&m, EnPassantMode::Always)).unwrap();
        assert_eq!(reparsed, m);
        // Each move has its mirror image.
        let mut a: Vec<String> = pos.legal_moves().iter().map(|mv| flip_uci(*mv)).collect();
        let mut b: Vec<String> = m.legal_moves().iter().map(|mv| mv.to_uci()).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{}", at(&pos));
    });
}

fn flip_uci(m: Move) -> String {
    let mut s = format!("{}{}", m.from().flip_vertical(), m.to().flip_vertical());
    if let Some(r) = m.promotion() {
        s.push(r.char());
    }
    s
}

#[test]
fn positions_with_more_than_256_moves() {
    // Unrestricted material (the FEN parser allows fifteen queens) goes past the 218 moves of
    // reachable positions; no list may cut moves off.
    for (fen, n) in [
        ("QQQQQQQQ/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/Q5RB/KQQQQQBk w - - 0 1", 270),
        ("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", 218),
    ] {
        let pos: Position = fen.parse().unwrap();
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), n, "{fen}");
        assert_eq!(pos.count_legal_moves(), n);
        assert_eq!(perft(&pos, 1), n as u64);
        for &m in &moves {
            assert!(pos.is_legal(m), "{fen}: {m}");
            assert_eq!(parse_uci(&pos, &m.to_uci()), Ok(m));
            assert_eq!(parse_san(&pos, &to_san(&pos, m)), Ok(m));
        }
        let m = pos.mirrored();
        assert_eq!(m.legal_moves().len(), n);
    }
}

//! Who can still checkmate (R4.6 dead positions, R4.9 resignation and flag fall, R5.1 FIDE
//! mode's real test): the known cases, locked pawn walls, forced sequences, and a property
//! test against a brute-force helpmate search.

#[path = "support/rng.rs"]
mod rng;

use rng::Rng;
use shatranj_chess::dead::{Budget, DeadOptions, can_checkmate_with};
use shatranj_chess::{Board, CastlingRights, Color, Piece, Position, Role, Square};

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// (FEN, White can mate, Black can mate, why).
const CASES: &[(&str, bool, bool, &str)] = &[
    // R4.6: the material cases named by the Laws.
    ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", false, false, "K v K"),
    ("8/8/4k3/8/8/3KB3/8/8 w - - 0 1", false, false, "K+B v K"),
    ("8/8/4k3/8/8/3KN3/8/8 b - - 0 1", false, false, "K+N v K"),
    (
        "8/2b5/4k3/8/8/3KB3/3B4/8 w - - 0 1",
        false,
        false,
        "bishops all on light squares",
    ),
    (
        "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1",
        true,
        false,
        "K+N+N v K is not dead: the defender may err",
    ),
    (
        "8/8/4k3/8/8/3KB3/8/3b4 w - - 0 1",
        true,
        true,
        "opposite-coloured bishops: a bishop may block its own king",
    ),
    (
        "8/8/4k3/4p3/8/3KN3/8/8 w - - 0 1",
        true,
        true,
        "a knight mates a king boxed in by its own pawn; the pawn promotes",
    ),
    // Locked pawn walls: the kings can never cross nor take a pawn.
    (
        "8/8/8/1k6/p1p1p1p1/P1P1P1P1/8/5K2 w - - 0 1",
        false,
        false,
        "a full locked wall",
    ),
    (
        "8/8/8/1k6/p1p1p1p1/P1P1P1P1/8/5K2 b - - 0 1",
        false,
        false,
        "a full locked wall, Black to move",
    ),
    (
        "8/8/2p5/1kp5/p1p1p1p1/P1P1P1P1/P5P1/5K2 w - - 0 1",
        false,
        false,
        "doubled pawns behind the locked pairs stay put too",
    ),
    (
        "8/8/8/1k6/p1p1p3/P1P1P3/8/5K2 w - - 0 1",
        true,
        true,
        "the h-file gap lets a king through to take a pawn",
    ),
    (
        "7k/8/8/p1p1p1p1/P1P1P1P1/8/8/K4B2 w - - 0 1",
        false,
        false,
        "a light-squared bishop stays shut in behind the wall of light white pawns",
    ),
    (
        "7k/8/8/p1p1p1p1/P1P1P1P1/8/8/K4B2 b - - 0 1",
        false,
        false,
        "the shut-in bishop, Black to move",
    ),
    (
        "7k/8/8/p1p1p1p1/P1P1P1P1/8/8/K1B5 w - - 0 1",
        true,
        true,
        "a dark-squared bishop can go to b4, where a5 or c5 may take it: the wall may open",
    ),
    (
        "k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K6R w - - 0 1",
        true,
        true,
        "a rook goes round by the h-file and takes a pawn",
    ),
    // Forced sequences: every legal move leads to a proven draw.
    (
        "k7/1Q6/8/3K4/8/8/8/8 b - - 0 1",
        false,
        false,
        "Black must take the queen: bare kings",
    ),
    (
        "k7/1Q6/2K5/8/8/8/8/8 b - - 0 1",
        true,
        false,
        "Black is checkmated already",
    ),
    (
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        false,
        false,
        "Black is stalemated",
    ),
    (
        "8/8/8/4k3/8/8/1q6/K6N w - - 0 1",
        false,
        false,
        "White's only move takes the queen: K+N v K",
    ),
    (
        "8/8/8/8/8/2k5/1p6/K7 w - - 0 1",
        false,
        true,
        "Black's pawn may promote; White's lone king never mates",
    ),
];

#[test]
fn r4_6_r4_9_known_cases() {
    for &(fen, white, black, why) in CASES {
        let p = pos(fen);
        assert_eq!(p.can_checkmate(Color::White), white, "White, {why}: {fen}");
        assert_eq!(p.can_checkmate(Color::Black), black, "Black, {why}: {fen}");
        assert_eq!(p.is_dead_position(), !white && !black, "dead? {why}: {fen}");
        // The answers do not depend on which side is White.
        let m = p.mirrored();
        assert_eq!(m.can_checkmate(Color::Black), white, "mirrored, {why}");
        assert_eq!(m.can_checkmate(Color::White), black, "mirrored, {why}");
    }
}

#[test]
fn r4_6_out_of_budget_means_can() {
    // With no plies to search, a position that needs search is answered "can" (sound).
    let p = pos("k7/1Q6/8/3K4/8/8/8/8 b - - 0 1");
    let zero = Budget {
        max_plies: 0,
        max_nodes: 0,
    };
    let none = DeadOptions {
        quick: zero,
        deep: zero,
        ..DeadOptions::default()
    };
    assert!(can_checkmate_with(&p, Color::White, &none));
    // Static proofs need no budget.
    let wall = pos("8/8/8/1k6/p1p1p1p1/P1P1P1P1/8/5K2 w - - 0 1");
    assert!(!can_checkmate_with(&wall, Color::White, &none));
}

/// Is there a cooperative mate by `color` within `plies` plies? Plain brute force, the
/// reference for the property test.
fn helpmate(pos: &Position, color: Color, plies: u32) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return pos.is_check() && pos.turn() != color;
    }
    if plies == 0 {
        return false;
    }
    moves.iter().any(|&m| {
        let mut child = *pos;
        child.play_unchecked(m);
        helpmate(&child, color, plies - 1)
    })
}

/// A random legal position with the two kings and up to `extra` other men.
fn random_position(rng: &mut Rng, extra: usize) -> Position {
    const POOL: [Role; 8] = [
        Role::Pawn,
        Role::Pawn,
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ];
    loop {
        let mut board = Board::empty();
        let mut free: Vec<u32> = (0..64).collect();
        let mut take = |rng: &mut Rng, pawn: bool| loop {
            let i = rng.below(free.len());
            let sq = Square::new(free[i]).unwrap();
            if pawn && (sq.rank().index() == 0 || sq.rank().index() == 7) {
                continue;
            }
            free.swap_remove(i);
            return sq;
        };
        for color in Color::ALL {
            let sq = take(rng, false);
            board.set_piece_at(sq, Piece::new(color, Role::King));
        }
        for _ in 0..rng.below(extra + 1) {
            let role = rng.pick(&POOL);
            let color = rng.pick(&Color::ALL);
            let sq = take(rng, role == Role::Pawn);
            board.set_piece_at(sq, Piece::new(color, role));
        }
        let turn = rng.pick(&Color::ALL);
        if let Ok(p) = Position::from_parts(board, turn, CastlingRights::NONE, None, 0, 1) {
            return p;
        }
    }
}

/// The property: whenever brute force finds a helpmate, `can_checkmate` says yes. Returns
/// how many (position, side) pairs had a short helpmate and how many were answered "cannot".
fn check_helpmates(seed: u64, positions: usize, extra: usize, plies: u32) -> (usize, usize) {
    println!(
        "seed {seed}: {positions} positions, up to {extra} men besides the kings, {plies} plies"
    );
    let mut rng = Rng::mixed(seed);
    let (mut mates, mut cannot) = (0, 0);
    for _ in 0..positions {
        let p = random_position(&mut rng, extra);
        for color in Color::ALL {
            let says = p.can_checkmate(color);
            if helpmate(&p, color, plies) {
                mates += 1;
                assert!(
                    says,
                    "seed {seed}: {} has a helpmate for {color:?}",
                    p.fen()
                );
            }
            cannot += usize::from(!says);
        }
    }
    println!("  {mates} with a short helpmate, {cannot} answered cannot");
    (mates, cannot)
}

/// A random legal position built around a locked pawn chain across the board (a white pawn
/// with a black pawn straight in front of it, the chain zigzagging a rank per file, some
/// files left open with probability `gap_in_8`/8, some pawns doubled), two kings and up to `extra` other men:
/// the walls the static proof looks for, some of them broken.
fn random_wall_position(rng: &mut Rng, gap_in_8: usize, extra: usize) -> Position {
    const POOL: [Role; 5] = [
        Role::Knight,
        Role::Bishop,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ];
    loop {
        let mut board = Board::empty();
        let mut rank = 1 + rng.below(5) as u32;
        for file in 0..8 {
            if rng.below(8) >= gap_in_8 {
                let white = Square::new(rank * 8 + file).unwrap();
                let black = Square::new((rank + 1) * 8 + file).unwrap();
                board.set_piece_at(white, Piece::new(Color::White, Role::Pawn));
                board.set_piece_at(black, Piece::new(Color::Black, Role::Pawn));
                // Now and then a doubled pawn behind the pair.
                match rng.below(8) {
                    0 if rank >= 2 => board.set_piece_at(
                        Square::new((rank - 1) * 8 + file).unwrap(),
                        Piece::new(Color::White, Role::Pawn),
                    ),
                    1 if rank <= 4 => board.set_piece_at(
                        Square::new((rank + 2) * 8 + file).unwrap(),
                        Piece::new(Color::Black, Role::Pawn),
                    ),
                    _ => {}
                }
            }
            rank = match (rank, rng.below(2)) {
                (1, _) => 2,
                (5, _) => 4,
                (r, 0) => r - 1,
                (r, _) => r + 1,
            };
        }
        let mut place = |rng: &mut Rng, piece: Piece| loop {
            let sq = Square::new(rng.below(64) as u32).unwrap();
            if board.piece_at(sq).is_none() {
                board.set_piece_at(sq, piece);
                return;
            }
        };
        for color in Color::ALL {
            place(rng, Piece::new(color, Role::King));
        }
        for _ in 0..rng.below(extra + 1) {
            let piece = Piece::new(rng.pick(&Color::ALL), rng.pick(&POOL));
            place(rng, piece);
        }
        let turn = rng.pick(&Color::ALL);
        if let Ok(p) = Position::from_parts(board, turn, CastlingRights::NONE, None, 0, 1) {
            return p;
        }
    }
}

/// For wall positions: every "cannot" survives `walks` random walks of `plies` plies, on
/// which no position reached has a helpmate of `mate_plies` plies (a mate found anywhere
/// down the line would prove the "cannot" wrong). Returns how many "cannot" were checked.
fn check_walls(seed: u64, positions: usize, walks: usize, plies: usize, mate_plies: u32) -> usize {
    println!("seed {seed}: {positions} wall positions, {walks} walks of {plies} plies each");
    let mut rng = Rng::mixed(seed);
    let mut checked = 0;
    for _ in 0..positions {
        let p = random_wall_position(&mut rng, 1, 2);
        for color in Color::ALL {
            if p.can_checkmate(color) {
                continue;
            }
            checked += 1;
            for _ in 0..walks {
                let mut q = p;
                for _ in 0..plies {
                    assert!(
                        !helpmate(&q, color, mate_plies),
                        "seed {seed}: {} said {color:?} cannot mate, but {} has a helpmate",
                        p.fen(),
                        q.fen()
                    );
                    let moves = q.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    q.play_unchecked(rng.pick(&moves));
                }
            }
        }
    }
    println!("  {checked} answers of cannot walked");
    checked
}

#[test]
fn r4_6_short_helpmates_are_always_found() {
    let (mates, cannot) = check_helpmates(0x6465_6164, 1_500, 3, 3);
    // The test means something only if both answers occur.
    assert!(mates > 20, "{mates}");
    assert!(cannot > 20, "{cannot}");
}

#[test]
fn r4_6_locked_walls_never_lead_to_mate() {
    let checked = check_walls(0x7761_6c6c, 2_500, 2, 30, 2);
    assert!(checked > 60, "{checked}");
}

#[test]
#[ignore = "release sweep: 4-ply brute force on many positions"]
fn r4_6_short_helpmates_are_always_found_deep() {
    for (seed, extra) in [(1u64, 2), (2, 3), (3, 4)] {
        let (mates, cannot) = check_helpmates(seed, 600, extra, 4);
        assert!(mates > 20 && cannot > 200, "{mates} {cannot}");
    }
    let checked = check_walls(4, 5_000, 2, 50, 3);
    assert!(checked > 120, "{checked}");
}

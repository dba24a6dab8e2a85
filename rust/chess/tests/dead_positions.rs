//! Who can still checkmate (R4.6 dead positions, R4.9 resignation and flag fall, R5.1 FIDE
//! mode's real test): the known cases, locked pawn walls, forced sequences, one case named
//! for each proof and a mutation check that each proof is needed, the labelled set of hard
//! cases (`tests/data/dead_labelled.txt`), a property test against a brute-force helpmate
//! search, and random walks from every "cannot" answer. Every randomised test prints its
//! seed.

#[path = "support/labelled.rs"]
mod labelled;
#[path = "support/rng.rs"]
mod rng;

use labelled::Label;
use rng::Rng;
use shatranj_chess::dead::{
    Budget, DeadOptions, Proof, ProofRules, Tier, Winnability, can_checkmate_with, winnability_with,
};
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
        locked: zero,
        solver: false,
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

/// One case for each proof, decided by that proof (FEN, side asked about, proof).
const PROOFS: &[(&str, Color, Proof)] = &[
    // Stalemate: the game is over, nobody mates.
    (
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        Color::White,
        Proof::GameOver,
    ),
    (
        "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",
        Color::White,
        Proof::Material,
    ),
    // A full locked wall: White's men never attack a square Black's king can reach.
    (
        "8/8/8/1k6/p1p1p1p1/P1P1P1P1/8/5K2 w - - 0 1",
        Color::White,
        Proof::NoCheck,
    ),
    // A light-squared bishop shut in behind White's own light pawns.
    (
        "7k/8/8/p1p1p1p1/P1P1P1P1/8/8/K4B2 w - - 0 1",
        Color::White,
        Proof::NoCheck,
    ),
    // White's bishop c8 can check Black's king on b7's side of the chain, but the king's
    // flights need a second white man and White has none that gets there.
    (
        "1kB5/2p1p3/1pP1Pp2/pP3Pp1/P5Pp/7P/5K2/8 b - - 0 1",
        Color::White,
        Proof::NoMatingSquare,
    ),
    // Black must take the queen: bare kings.
    (
        "k7/1Q6/8/3K4/8/8/8/8 b - - 0 1",
        Color::White,
        Proof::Search(Tier::Quick),
    ),
    // White's only move takes the queen, and the wall is sealed behind it.
    (
        "8/8/4k2p/p1p3pP/PpPp1pP1/1P1P1P2/K7/q7 w - - 0 1",
        Color::Black,
        Proof::Search(Tier::Quick),
    ),
];

/// Each proof, by name: the case decides `color` by exactly that proof.
#[test]
fn r4_6_each_proof_named() {
    for &(fen, color, proof) in PROOFS {
        let p = pos(fen);
        assert_eq!(
            p.winnability(color),
            Winnability::Unwinnable(proof),
            "{fen} ({color:?}) should be decided by {}",
            proof.name()
        );
        // And the colour-swapped image by the same proof.
        let m = p.mirrored();
        assert_eq!(
            m.winnability(color.other()),
            Winnability::Unwinnable(proof),
            "mirrored {fen}"
        );
    }
}

/// The static analysis's rules beyond pawns blocked by pawns (`reach`), each with positions
/// of the development set (`data/deadpos/dev-vector.txt`, from CHA's test vector) that it
/// alone lets the static proofs decide, with no search at all: (FEN, side that cannot mate,
/// the rule).
const STATIC_RULES: &[(&str, Color, &str)] = &[
    // Barrier pawns: White's a2, c2, e2, g2 face Black's a5, c5, e5, g5 on their files and
    // nothing can ever take one or be taken by one, so neither side's pawns ever pass to
    // promote; behind the locked wall on ranks 6-7 no king can ever be checked.
    (
        "3k4/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/3K4 w - - 0 1",
        Color::White,
        "barrier pawns",
    ),
    (
        "3k4/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/3K4 w - - 0 1",
        Color::Black,
        "barrier pawns",
    ),
    (
        "2k5/p1p1p1p1/P1P1P1P1/2p1p2K/8/8/2P1P1P1/8 w - - 0 1",
        Color::Black,
        "barrier pawns (White's king may take c5 and e5: White's c2 and e2 still stop Black's)",
    ),
    // Boxed pieces: the bishop a4 is boxed in by its own fixed pawns b3 and b5, the knight h8
    // by g6 and f7; with them fixed, the pawns they block are fixed too.
    (
        "k4bBN/b3pPp1/3pP1Pp/2pP3P/BpP5/1P6/K7/8 b - - 0 1",
        Color::White,
        "boxed pieces",
    ),
    // A king that can never move blocks: Black's king a8 has no square (b7 is its own fixed
    // pawn, b8 is attacked by White's a7, a7 is defended by the fixed b6), so a7, whose
    // front square the king holds, is fixed; the same in the corner a1 for White's king.
    (
        "k1b5/Pp6/1P6/8/8/1p6/pP1B4/K1B5 w - - 0 1",
        Color::White,
        "a king that never moves",
    ),
    (
        "k1b5/Pp6/1P6/8/8/1p6/pP1B4/K1B5 w - - 0 1",
        Color::Black,
        "a king that never moves",
    ),
    // A king that can never move guards its neighbours: White's king a1 has no square (b1 is
    // attacked by Black's a2, a2 is defended by b3, b2 is its own), so the enemy king can
    // never take b2, which stays fixed with b3 and a2; Black's light bishops never check a1.
    (
        "k7/1b6/2b5/8/8/1pB5/pP6/K7 w - - 0 1",
        Color::Black,
        "a king that never moves guards its neighbours",
    ),
];

/// Each rule of `STATIC_RULES` decides its cases by a static proof (no search), in the
/// position and in its colour-swapped image.
#[test]
fn r4_6_static_rules_named() {
    let static_only = DeadOptions {
        quick: Budget::NONE,
        deep: Budget::NONE,
        locked: Budget::NONE,
        probe: 0,
        solver: false,
        ..DeadOptions::default()
    };
    for &(fen, color, rule) in STATIC_RULES {
        let p = pos(fen);
        for (q, c) in [(p, color), (p.mirrored(), color.other())] {
            let w = winnability_with(&q, c, &static_only);
            assert!(
                matches!(
                    w,
                    Winnability::Unwinnable(Proof::NoCheck | Proof::NoMatingSquare)
                ),
                "{rule}: {} ({c:?}) answered {w:?}",
                q.fen()
            );
        }
    }
}

/// The mutation check: each proof rule, and each search tier, switched off on its own
/// changes some answer that a test expects, so none of them can silently stop working.
#[test]
fn r4_6_each_proof_is_needed() {
    // Our own proofs, without the solver's fast mode behind them, nor the locked tier's
    // closure, which proves the walls here again by exhaustion (the mutation checks of both
    // are in tests/dead_vector.rs).
    let ours = DeadOptions {
        solver: false,
        locked: Budget::NONE,
        ..DeadOptions::default()
    };
    let rules = |f: fn(&mut ProofRules)| {
        let mut o = ours;
        f(&mut o.rules);
        o
    };
    let off: [(&str, DeadOptions); 4] = [
        ("material", rules(|r| r.material = false)),
        ("no_check", rules(|r| r.no_check = false)),
        ("no_mating_square", rules(|r| r.no_mating_square = false)),
        (
            "quick search",
            DeadOptions {
                quick: Budget::NONE,
                deep: Budget::NONE,
                locked: Budget::NONE,
                ..ours
            },
        ),
    ];
    for (name, options) in off {
        let caught: Vec<&str> = PROOFS
            .iter()
            .filter(|&&(fen, color, _)| can_checkmate_with(&pos(fen), color, &options))
            .map(|&(fen, _, _)| fen)
            .collect();
        println!(
            "{name} switched off: {} case(s) turn to \"can\": {caught:?}",
            caught.len()
        );
        assert!(
            !caught.is_empty(),
            "switching off {name} changes no tested answer"
        );
    }
}

/// A helpmate answer's line is legal and ends in `color`'s mate.
fn assert_helpmate(p: &Position, color: Color, line: &[shatranj_chess::Move]) {
    let mut q = *p;
    for &m in line {
        assert!(
            q.is_legal(m),
            "{}: {m} is not legal in {}",
            p.fen(),
            q.fen()
        );
        q.play_unchecked(m);
    }
    assert!(
        q.is_checkmate() && q.turn() != color,
        "{}: the line does not end in {color:?}'s mate",
        p.fen()
    );
}

#[test]
fn r4_6_answer_kinds() {
    // A helpmate, with its line.
    let p = pos("8/8/4k3/8/8/3KNN2/8/8 w - - 0 1");
    match p.winnability(Color::White) {
        Winnability::Helpmate(line) => assert_helpmate(&p, Color::White, &line),
        w => assert!(matches!(w, Winnability::Unknown), "{w:?}"),
    }
    let mated = pos("k7/1Q6/2K5/8/8/8/8/8 b - - 0 1");
    assert_eq!(
        mated.winnability(Color::White),
        Winnability::Helpmate(Vec::new())
    );
    // Unknown within a budget too small for anything: counted as "can".
    let tiny = DeadOptions {
        quick: Budget {
            max_nodes: 1,
            max_plies: 1,
        },
        deep: Budget::NONE,
        locked: Budget::NONE,
        ..DeadOptions::default()
    };
    let start = Position::new();
    let w = winnability_with(&start, Color::White, &tiny);
    assert_eq!(w, Winnability::Unknown);
    assert!(w.can_checkmate());
    // Proved unwinnable.
    assert!(!Winnability::Unwinnable(Proof::Material).can_checkmate());
}

/// The labelled set: every "can" label replays to a mate, no side labelled "can" is ever
/// answered "cannot" (soundness), every helpmate answered replays, and at least 95% of the
/// sides labelled "cannot" are proved so (completeness).
#[test]
fn r4_6_labelled_set() {
    let cases = labelled::load();
    let (mut unwinnable, mut found, mut winnable) = (0, 0, 0);
    for case in &cases {
        for color in Color::ALL {
            case.check_line(color)
                .unwrap_or_else(|e| panic!("{}: {e}", case.pos.fen()));
            let answer = case.pos.winnability(color);
            if let Winnability::Helpmate(line) = &answer {
                assert_helpmate(&case.pos, color, line);
            }
            match &case.labels[color.index()] {
                Label::Can(_) => {
                    winnable += 1;
                    assert!(
                        answer.can_checkmate(),
                        "unsound: {} ({color:?}) has a helpmate, answered {answer:?}",
                        case.pos.fen()
                    );
                }
                Label::Cannot(_) => {
                    unwinnable += 1;
                    found += usize::from(!answer.can_checkmate());
                }
            }
        }
    }
    println!(
        "{} cases: {found} of {unwinnable} unwinnable sides proved ({:.1}%), {winnable} winnable sides, none answered cannot",
        cases.len(),
        100.0 * found as f64 / unwinnable as f64
    );
    assert!(
        unwinnable > 200 && winnable > 200,
        "{unwinnable} {winnable}"
    );
    assert!(found * 100 >= unwinnable * 95, "{found} of {unwinnable}");
}

/// Random walks from every "cannot" answer on the labelled set: along `walks` walks of
/// `plies` random legal moves, no position reached is a mate by the side said to be unable
/// to mate, nor has a mate by it one move away.
#[test]
fn r4_6_random_walks_from_every_cannot() {
    let seed = 0x7761_6c6b;
    let (walks, plies) = (2, 40);
    println!("seed {seed}: {walks} walks of {plies} plies from every labelled case's cannot");
    let mut rng = Rng::mixed(seed);
    let mut checked = 0;
    for case in labelled::load() {
        for color in Color::ALL {
            if case.pos.can_checkmate(color) {
                continue;
            }
            checked += 1;
            for _ in 0..walks {
                let mut q = case.pos;
                for _ in 0..plies {
                    assert!(
                        !helpmate(&q, color, 1),
                        "seed {seed}: {} said {color:?} cannot mate, but {} has a mate",
                        case.pos.fen(),
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
    assert!(checked > 200, "{checked}");
}

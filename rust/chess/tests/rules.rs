//! One test (or more) per rule of the repository's `RULES.md`. Every test names its rule id, so
//! `grep -w R3.7` finds the tests of the pawn rules. Positions are FEN strings checked
//! against python-chess when the tests were written; expected move sets are listed in full
//! so a regression shows exactly which move appeared or disappeared.

use shatranj_chess::fen::{EnPassantMode, epd_with};
use shatranj_chess::san::{parse_san, to_san};
use shatranj_chess::uci::parse_uci;
use shatranj_chess::{
    Bitboard, CastlingRights, CastlingSide, Color, File, History, Move, MoveKind, Outcome, Piece,
    Position, Rank, Role, Square, Termination,
};

// ----- helpers ------------------------------------------------------------------------------

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::from_name(name).unwrap_or_else(|| panic!("bad square {name}"))
}

/// The legal moves in SAN, sorted (the form python-chess lists were checked in).
fn sans(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|&m| to_san(p, m)).collect();
    v.sort();
    v
}

/// Sorted destinations of the legal moves starting on `from`.
fn dests(p: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from() == from)
        .map(|m| m.to().to_string())
        .collect();
    v.sort();
    v.dedup();
    v
}

fn sorted(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(std::string::ToString::to_string).collect();
    v.sort();
    v
}

fn has_uci(p: &Position, uci: &str) -> bool {
    p.legal_moves().iter().any(|m| m.to_uci() == uci)
}

fn uci(p: &Position, text: &str) -> Move {
    parse_uci(p, text).unwrap_or_else(|e| panic!("{text} in {}: {e}", p.fen()))
}

/// Plays UCI moves from a FEN and returns the position.
fn play(fen: &str, moves: &[&str]) -> Position {
    let mut p = pos(fen);
    for m in moves {
        let mv = uci(&p, m);
        p.play(mv).unwrap();
    }
    p
}

/// Plays UCI moves into a history.
fn history(fen: &str, moves: &[&str]) -> History {
    let mut h = History::new(pos(fen));
    for m in moves {
        let mv = uci(h.position(), m);
        h.push(mv).unwrap();
    }
    h
}

fn castles(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.is_castle())
        .map(|&m| to_san(p, m))
        .collect();
    v.sort();
    v
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// ----- R1 Board and pieces ------------------------------------------------------------------

#[test]
fn r1_1_board_coordinates_and_colours() {
    // R1.1: files a–h left to right, ranks 1–8 from White's side; a1 = 0 … h8 = 63.
    assert_eq!(Square::A1.index(), 0);
    assert_eq!(Square::H1.index(), 7);
    assert_eq!(Square::A8.index(), 56);
    assert_eq!(Square::H8.index(), 63);
    assert_eq!(Square::all().count(), 64);
    for (i, s) in Square::all().enumerate() {
        assert_eq!(s.index(), i);
        assert_eq!(s.file().index() as usize, i % 8);
        assert_eq!(s.rank().index() as usize, i / 8);
        assert_eq!(Square::from_name(&s.to_string()), Some(s));
        assert_eq!(Square::from_coords(s.file(), s.rank()), s);
    }
    let names: String = File::ALL.iter().map(|f| f.char()).collect();
    assert_eq!(names, "abcdefgh");
    let ranks: String = Rank::ALL.iter().map(|r| r.char()).collect();
    assert_eq!(ranks, "12345678");
    assert_eq!(sq("e4").file(), File::E);
    assert_eq!(sq("e4").rank(), Rank::Fourth);
    // R1.1: the right-hand corner nearest each player is light: h1 (White) and a8 (Black).
    assert!(Square::H1.is_light());
    assert!(Square::A8.is_light());
    assert!(!Square::A1.is_light());
    assert!(!Square::H8.is_light());
    assert!(Bitboard::LIGHT_SQUARES.contains(Square::H1));
    assert!(Bitboard::DARK_SQUARES.contains(Square::A1));
    assert_eq!(Bitboard::LIGHT_SQUARES.count(), 32);
    assert_eq!(
        Bitboard::LIGHT_SQUARES | Bitboard::DARK_SQUARES,
        Bitboard::FULL
    );
    for s in Square::all() {
        assert_eq!(Bitboard::LIGHT_SQUARES.contains(s), s.is_light(), "{s}");
        // Neighbours along a rank or file alternate colour.
        if let Some(n) = s.offset(1).filter(|n| n.rank() == s.rank()) {
            assert_ne!(s.is_light(), n.is_light());
        }
    }
}

#[test]
fn r1_2_start_position() {
    // R1.2: rooks in the corners, then knights, bishops; queen on her own colour; pawns on
    // ranks 2 and 7.
    let p = Position::new();
    assert_eq!(p.fen(), START);
    assert_eq!(p, pos(START));
    let back = [
        Role::Rook,
        Role::Knight,
        Role::Bishop,
        Role::Queen,
        Role::King,
        Role::Bishop,
        Role::Knight,
        Role::Rook,
    ];
    for (file, role) in File::ALL.into_iter().zip(back) {
        assert_eq!(
            p.piece_at(Square::from_coords(file, Rank::First)),
            Some(Piece::new(Color::White, role))
        );
        assert_eq!(
            p.piece_at(Square::from_coords(file, Rank::Eighth)),
            Some(Piece::new(Color::Black, role))
        );
        assert_eq!(
            p.piece_at(Square::from_coords(file, Rank::Second)),
            Some(Piece::new(Color::White, Role::Pawn))
        );
        assert_eq!(
            p.piece_at(Square::from_coords(file, Rank::Seventh)),
            Some(Piece::new(Color::Black, Role::Pawn))
        );
        for rank in [Rank::Third, Rank::Fourth, Rank::Fifth, Rank::Sixth] {
            assert_eq!(p.piece_at(Square::from_coords(file, rank)), None);
        }
    }
    // Queen on her own colour: white queen d1 (light), black queen d8 (dark); kings e1, e8.
    assert!(Square::D1.is_light());
    assert!(!Square::D8.is_light());
    assert_eq!(p.king(Color::White), Square::E1);
    assert_eq!(p.king(Color::Black), Square::E8);
    assert_eq!(p.board().occupied().count(), 32);
    assert_eq!(p.castling_rights(), CastlingRights::ALL);
    assert_eq!(p.legal_moves().len(), 20);
}

#[test]
fn r1_3_piece_letters() {
    // R1.3: K Q R B N, P may stand for the pawn.
    for (c, role) in [
        ('K', Role::King),
        ('Q', Role::Queen),
        ('R', Role::Rook),
        ('B', Role::Bishop),
        ('N', Role::Knight),
        ('P', Role::Pawn),
    ] {
        assert_eq!(Role::from_char(c), Some(role));
        assert_eq!(Role::from_char(c.to_ascii_lowercase()), Some(role));
        assert_eq!(role.upper_char(), c);
        assert_eq!(Piece::from_char(c), Some(Piece::new(Color::White, role)));
        assert_eq!(
            Piece::from_char(c.to_ascii_lowercase()),
            Some(Piece::new(Color::Black, role))
        );
    }
    for c in ['X', 'C', 'F', 'T', 'D', '1', ' '] {
        assert_eq!(Role::from_char(c), None, "{c:?}");
    }
    // R1.3: the pawn has no letter in SAN, but "P" is accepted when reading.
    let p = Position::new();
    assert_eq!(to_san(&p, uci(&p, "e2e4")), "e4");
    assert_eq!(parse_san(&p, "Pe4").unwrap(), uci(&p, "e2e4"));
}

#[test]
fn r1_3_italian_letters() {
    // R1.3: C (cavallo) knight, F (alfiere) bishop, T (torre) rook, D (donna) queen, R (re) king.
    for (c, role) in [
        ('C', Role::Knight),
        ('F', Role::Bishop),
        ('T', Role::Rook),
        ('D', Role::Queen),
        ('R', Role::King),
    ] {
        assert_eq!(Role::from_italian_char(c), Some(role), "{c}");
        assert_eq!(
            Role::from_italian_char(c.to_ascii_lowercase()),
            Some(role),
            "{c}"
        );
    }
    for c in ['N', 'B', 'Q', 'K', 'P', 'A', 'x'] {
        assert_eq!(Role::from_italian_char(c), None, "{c:?}");
    }
}

#[test]
fn r1_4_seed_values() {
    // R1.4: pawn 1, knight 3, bishop 3.5, rook 5, queen 9 (in tenths); the king has none.
    let expected = [
        (Role::Pawn, 10),
        (Role::Knight, 30),
        (Role::Bishop, 35),
        (Role::Rook, 50),
        (Role::Queen, 90),
        (Role::King, 0),
    ];
    for (role, tenths) in expected {
        assert_eq!(role.seed_value_tenths(), tenths, "{role}");
    }
    // The start position has 39.5 pawns of material a side with these values.
    let p = Position::new();
    let white: u32 = p
        .board()
        .pieces()
        .filter(|(_, pc)| pc.color == Color::White)
        .map(|(_, pc)| pc.role.seed_value_tenths())
        .sum();
    assert_eq!(white, 8 * 10 + 2 * 30 + 2 * 35 + 2 * 50 + 90);
}

// ----- R2 Turns -----------------------------------------------------------------------------

#[test]
fn r2_1_white_moves_first_and_turns_alternate() {
    // R2.1: White moves first; the players alternate.
    let mut p = Position::new();
    assert_eq!(p.turn(), Color::White);
    assert!(
        p.legal_moves()
            .iter()
            .all(|m| p.piece_at(m.from()).unwrap().color == Color::White)
    );
    let line = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"];
    for (i, m) in line.iter().enumerate() {
        assert_eq!(
            p.turn(),
            if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            }
        );
        assert_eq!(p.fullmove_number(), 1 + i as u32 / 2);
        let mv = uci(&p, m);
        p.play(mv).unwrap();
        assert!(
            p.legal_moves()
                .iter()
                .all(|m| p.piece_at(m.from()).unwrap().color == p.turn())
        );
    }
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(p.fullmove_number(), 3);
    // Black cannot move first.
    let start = Position::new();
    assert!(parse_uci(&start, "e7e5").is_err());
}

#[test]
fn r2_1_scoring() {
    // R2.1: win 1, draw ½, loss 0 (in half points 2, 1, 0).
    let win = Outcome {
        termination: Termination::Checkmate,
        winner: Some(Color::White),
    };
    let draw = Outcome {
        termination: Termination::Stalemate,
        winner: None,
    };
    assert_eq!(
        (win.half_points(Color::White), win.half_points(Color::Black)),
        (2, 0)
    );
    assert_eq!(
        (
            draw.half_points(Color::White),
            draw.half_points(Color::Black)
        ),
        (1, 1)
    );
    assert_eq!(win.result(), "1-0");
    assert_eq!(
        Outcome {
            termination: Termination::Checkmate,
            winner: Some(Color::Black)
        }
        .result(),
        "0-1"
    );
    assert_eq!(draw.result(), "1/2-1/2");
    assert_eq!(win.to_string(), "1-0 (CHECKMATE)");
}

// ----- R3 How pieces move -------------------------------------------------------------------

#[test]
fn r3_1_no_move_onto_own_piece() {
    // R3.1: never to a square occupied by one's own piece.
    for fen in [
        START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ] {
        let p = pos(fen);
        let ours = p.board().by_color(p.turn());
        for m in &p.legal_moves() {
            assert!(!ours.contains(m.to()) || m.is_castle(), "{fen}: {m}");
        }
    }
}

#[test]
fn r3_1_capture_removes_the_opponent_piece() {
    // R3.1: moving onto an opponent's piece captures it as part of the same move.
    let p = play(START, &["e2e4", "d7d5"]);
    let m = uci(&p, "e4d5");
    assert!(p.is_capture(m));
    let after = p.after(m).unwrap();
    assert_eq!(
        after.piece_at(Square::D5),
        Some(Piece::new(Color::White, Role::Pawn))
    );
    assert_eq!(after.board().by_color(Color::Black).count(), 15);
    assert_eq!(after.board().occupied().count(), 31);
    assert_eq!(after.halfmove_clock(), 0);
}

#[test]
fn r3_1_kings_are_never_captured() {
    // R3.1: the king is never captured: a position where the side to move could take the
    // enemy king is not a position (the FEN is rejected), and no legal move lands on a king.
    assert!(pos_err("4k3/8/8/8/8/8/8/R3K2r b - - 0 1"));
    let p = pos("4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1");
    let kings = p.board().kings();
    assert!(p.legal_moves().iter().all(|m| !kings.contains(m.to())));
}

fn pos_err(fen: &str) -> bool {
    fen.parse::<Position>().is_err()
}

#[test]
fn r3_1_attacks_count_pinned_pieces() {
    // R3.1/R3.8a: a piece attacks a square even if it is pinned to its king.
    let p = pos("4k3/4b3/8/8/6K1/8/8/4R3 w - - 0 1");
    assert!(p.is_pinned(Color::Black, Square::E7));
    assert!(p.is_attacked_by(Color::Black, Square::G5));
    assert!(p.is_attacked_by(Color::Black, Square::H4));
    assert_eq!(
        p.attackers(Color::Black, Square::G5),
        Bitboard::from_square(Square::E7)
    );
    assert!(p.attacked_squares(Color::Black).contains(Square::G5));
}

/// (rule, FEN, origin square, every legal destination from it).
const PIECE_MOVES: &[(&str, &str, &str, &[&str])] = &[
    // R3.2 bishop along diagonals.
    (
        "R3.2",
        "4k3/8/8/8/3B4/8/8/4K3 w - - 0 1",
        "d4",
        &[
            "a1", "a7", "b2", "b6", "c3", "c5", "e3", "e5", "f2", "f6", "g1", "g7", "h8",
        ],
    ),
    // R3.3 rook along rank and file.
    (
        "R3.3",
        "4k3/8/8/8/3R4/8/8/4K3 w - - 0 1",
        "d4",
        &[
            "a4", "b4", "c4", "e4", "f4", "g4", "h4", "d1", "d2", "d3", "d5", "d6", "d7", "d8",
        ],
    ),
    // R3.4 queen: both.
    (
        "R3.4",
        "4k3/8/8/8/3Q4/8/8/4K3 w - - 0 1",
        "d4",
        &[
            "a1", "a7", "b2", "b6", "c3", "c5", "e3", "e5", "f2", "f6", "g1", "g7", "h8", "a4",
            "b4", "c4", "e4", "f4", "g4", "h4", "d1", "d2", "d3", "d5", "d6", "d7", "d8",
        ],
    ),
    // R3.5 no passing over pieces: own knight c1 stops the rank; enemy pawn a5 is taken, not passed.
    (
        "R3.5",
        "4k3/8/8/p7/8/8/8/Q1N1K3 w - - 0 1",
        "a1",
        &[
            "a2", "a3", "a4", "a5", "b1", "b2", "c3", "d4", "e5", "f6", "g7", "h8",
        ],
    ),
    // R3.5 bishop stopped by an enemy pawn on c3 (which it may take) and by the board edge.
    (
        "R3.5",
        "4k3/8/8/8/8/2p5/1B6/4K3 w - - 0 1",
        "b2",
        &["a1", "a3", "c1", "c3"],
    ),
    // R3.5 rook blocked by its own pawn on a3 and an enemy knight on d1.
    (
        "R3.5",
        "4k3/8/8/8/8/P7/8/R2nK3 w - - 0 1",
        "a1",
        &["a2", "b1", "c1", "d1"],
    ),
    // R3.6 knight: the far end of an L, eight squares in the open.
    (
        "R3.6",
        "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1",
        "d4",
        &["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"],
    ),
    // R3.6 knight in the corner.
    ("R3.6", "k7/8/8/8/8/8/8/N3K3 w - - 0 1", "a1", &["b3", "c2"]),
    // R3.6 knight jumps over the surrounding pawns (start position).
    ("R3.6", START, "b1", &["a3", "c3"]),
    ("R3.6", START, "g1", &["f3", "h3"]),
    // R3.7 (R3.7a, R3.7b): pawn one or two squares from its first rank.
    (
        "R3.7a",
        "k7/8/8/8/8/8/P7/4K3 w - - 0 1",
        "a2",
        &["a3", "a4"],
    ),
    // R3.7 (R3.7a): one square only from a later rank.
    ("R3.7a", "k7/8/8/8/8/P7/8/4K3 w - - 0 1", "a3", &["a4"]),
    // R3.7 (R3.7a): blocked by a piece straight ahead (its own or the opponent's): no move, no capture.
    ("R3.7a", "k7/8/8/8/8/p7/P7/4K3 w - - 0 1", "a2", &[]),
    ("R3.7a", "k7/8/8/8/4p3/4P3/8/4K3 w - - 0 1", "e3", &[]),
    // R3.7 (R3.7b): two squares only if both are empty.
    ("R3.7b", "k7/8/8/8/p7/8/P7/4K3 w - - 0 1", "a2", &["a3"]),
    ("R3.7b", "k7/8/8/8/8/n7/P7/4K3 w - - 0 1", "a2", &[]),
    // R3.7 (R3.7b) for Black, moving down the board.
    (
        "R3.7b",
        "k7/1p6/8/8/8/8/8/4K3 b - - 0 1",
        "b7",
        &["b5", "b6"],
    ),
    // R3.7 (R3.7c): captures diagonally forward only, never to an empty diagonal square.
    (
        "R3.7c",
        "k7/8/8/8/4p3/3P4/8/4K3 w - - 0 1",
        "d3",
        &["d4", "e4"],
    ),
    (
        "R3.7c",
        "k7/8/8/8/8/2p1p3/3P4/4K3 w - - 0 1",
        "d2",
        &["c3", "d3", "d4", "e3"],
    ),
    // R3.7 (R3.7c): no capturing backwards.
    ("R3.7c", "k7/8/8/8/8/3P4/2p1p3/K7 w - - 0 1", "d3", &["d4"]),
    // R3.8 (R3.8a): king one square in any direction.
    (
        "R3.8a",
        "k7/8/8/8/3K4/8/8/8 w - - 0 1",
        "d4",
        &["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"],
    ),
    // R3.8 (R3.8a): not onto squares the rook d8 attacks.
    (
        "R3.8a",
        "3rk3/8/8/8/8/8/8/4K3 w - - 0 1",
        "e1",
        &["e2", "f1", "f2"],
    ),
    // R3.8 (R3.8a): the pinned bishop e7 still guards g5 and h4.
    (
        "R3.8a",
        "4k3/4b3/8/8/6K1/8/8/4R3 w - - 0 1",
        "g4",
        &["f3", "f4", "f5", "g3", "h3", "h5"],
    ),
    // R3.8 (R3.8a): kings never stand side by side.
    (
        "R3.8a",
        "8/8/8/4k3/8/4K3/8/8 w - - 0 1",
        "e3",
        &["d2", "d3", "e2", "f2", "f3"],
    ),
    // R3.8 (R3.8a): a king may capture an unprotected piece, not a protected one.
    ("R3.8a", "4k3/8/8/8/8/1n6/3q4/4K3 w - - 0 1", "e1", &["f1"]),
    (
        "R3.8a",
        "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
        "e1",
        &["d2", "f1"],
    ),
    // R3.9: a pinned rook moves only along the pin line (and may take the pinner).
    (
        "R3.9",
        "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1",
        "e2",
        &["e3", "e4", "e5", "e6", "e7"],
    ),
    // R3.9: a pinned knight cannot move at all; a pinned bishop on a file neither.
    ("R3.9", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "e2", &[]),
    ("R3.9", "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "e2", &[]),
    // R3.9: a bishop pinned on a diagonal slides along it.
    (
        "R3.9",
        "4k3/8/8/8/1b6/8/3B4/4K3 w - - 0 1",
        "d2",
        &["b4", "c3"],
    ),
];

/// Checks the rows of `PIECE_MOVES` for one rule (and its sub-rules).
fn piece_moves(rule: &str) {
    let rows: Vec<_> = PIECE_MOVES
        .iter()
        .filter(|row| row.0.starts_with(rule))
        .collect();
    assert!(!rows.is_empty(), "no rows for {rule}");
    for (rule, fen, from, expected) in rows {
        let p = pos(fen);
        assert_eq!(
            dests(&p, from),
            sorted(expected),
            "{rule}: {fen} from {from}"
        );
    }
}

#[test]
fn r3_2_bishop_moves() {
    piece_moves("R3.2"); // R3.2
}

#[test]
fn r3_3_rook_moves() {
    piece_moves("R3.3"); // R3.3
}

#[test]
fn r3_4_queen_moves() {
    piece_moves("R3.4"); // R3.4
}

#[test]
fn r3_5_no_passing_over_pieces() {
    piece_moves("R3.5"); // R3.5
}

#[test]
fn r3_6_knight_moves() {
    piece_moves("R3.6"); // R3.6
}

#[test]
fn r3_7a_pawn_single_step() {
    piece_moves("R3.7a"); // R3.7 (R3.7a)
}

#[test]
fn r3_7b_pawn_double_step() {
    piece_moves("R3.7b"); // R3.7 (R3.7b)
}

#[test]
fn r3_7c_pawn_captures() {
    piece_moves("R3.7c"); // R3.7 (R3.7c)
}

#[test]
fn r3_8a_king_moves_table() {
    piece_moves("R3.8a"); // R3.8 (R3.8a)
}

#[test]
fn r3_9_pinned_pieces_table() {
    piece_moves("R3.9"); // R3.9
}

#[test]
fn r3_2_bishop_stays_on_its_colour() {
    // R3.2: a bishop moves along diagonals, so it never changes square colour.
    let p = pos("4k3/8/8/8/3B4/8/8/4K3 w - - 0 1");
    for m in p.legal_moves().iter().filter(|m| m.from() == Square::D4) {
        assert_eq!(m.to().is_light(), Square::D4.is_light());
    }
}

#[test]
fn r3_6_knight_changes_colour() {
    // R3.6: the far end of an L is always the other colour.
    let p = pos("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
    for m in p.legal_moves().iter().filter(|m| m.from() == Square::D4) {
        assert_ne!(m.to().is_light(), Square::D4.is_light());
    }
}

#[test]
fn r3_7d_en_passant_right_after_the_double_step() {
    // R3.7 (R3.7d): 1.e4 a6 2.e5 d5 3.exd6 e.p.
    let p = play(START, &["e2e4", "a7a6", "e4e5", "d7d5"]);
    assert_eq!(p.ep_square(), Some(Square::D6));
    let m = uci(&p, "e5d6");
    assert_eq!(m.kind(), MoveKind::EnPassant);
    assert!(p.is_capture(m));
    assert_eq!(to_san(&p, m), "exd6");
    let after = p.after(m).unwrap();
    assert_eq!(
        after.piece_at(Square::D5),
        None,
        "the captured pawn is removed"
    );
    assert_eq!(
        after.piece_at(Square::D6),
        Some(Piece::new(Color::White, Role::Pawn))
    );
    assert_eq!(after.board().by_color(Color::Black).count(), 15);
    assert_eq!(after.halfmove_clock(), 0);
    assert_eq!(
        after.fen(),
        "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
    );
}

#[test]
fn r3_7d_en_passant_only_on_the_immediately_following_move() {
    // R3.7 (R3.7d): the right lapses if not used at once.
    let p = play(START, &["e2e4", "a7a6", "e4e5", "d7d5", "h2h3", "h7h6"]);
    assert!(!has_uci(&p, "e5d6"));
    assert_eq!(p.ep_square(), None);
    // Only the pawn that just stepped twice: f5 stepped earlier, d5 just now.
    let p = play(START, &["e2e4", "a7a6", "e4e5", "f7f5", "h2h3", "d7d5"]);
    assert!(has_uci(&p, "e5d6"));
    assert!(!has_uci(&p, "e5f6"));
    // A single step is not a double step, even if it passes the capturer.
    let p = play(START, &["e2e4", "d7d6", "e4e5", "d6d5"]);
    assert!(!has_uci(&p, "e5d6"));
}

#[test]
fn r3_7d_en_passant_for_black_and_both_sides() {
    // R3.7 (R3.7d) for Black: ...exd3 e.p., and two pawns may both take.
    let p = play("4k3/8/8/8/2p1p3/8/3P4/4K3 w - - 0 1", &["d2d4"]);
    let eps: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.is_en_passant())
        .map(|m| m.to_uci())
        .collect();
    assert_eq!(
        sorted(&eps.iter().map(String::as_str).collect::<Vec<_>>()),
        sorted(&["c4d3", "e4d3"])
    );
    let after = p.after(uci(&p, "e4d3")).unwrap();
    assert_eq!(after.piece_at(Square::D4), None);
    assert_eq!(after.fen(), "4k3/8/8/8/2p5/3p4/8/4K3 w - - 0 2");
}

#[test]
fn r3_7d_en_passant_that_would_expose_the_king_is_illegal() {
    // R3.7 (R3.7d) + R3.9: taking d4 e.p. would clear rank 4 and expose the king a4 to the queen h4.
    let p = pos("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1");
    assert_eq!(p.ep_square(), Some(Square::D3));
    assert!(!has_uci(&p, "e4d3"));
    assert_eq!(sans(&p), sorted(&["Ka3", "Ka5", "Kb3", "Kb4", "Kb5", "e3"]));
    assert_eq!(p.legal_ep_square(), None);
}

#[test]
fn r3_7d_en_passant_can_answer_a_check() {
    // R3.7 (R3.7d) + R3.9: the pawn that just stepped to f4 checks g5 and is captured e.p.
    let p = pos("8/8/8/6k1/4pP2/8/8/4K3 b - f3 0 1");
    assert!(p.is_check());
    assert_eq!(p.checkers(), Bitboard::from_square(Square::F4));
    let m = uci(&p, "e4f3");
    assert!(m.is_en_passant());
    assert!(!p.after(m).unwrap().is_check());
    assert_eq!(p.legal_ep_square(), Some(Square::F3));
}

#[test]
fn r3_7e_promotion_to_each_piece() {
    // R3.7 (R3.7e): the pawn must become Q, R, B or N as part of the move; staying a pawn is no move.
    let p = pos("7k/4P3/8/8/8/8/8/4K3 w - - 0 1");
    let mut promos: Vec<Role> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from() == Square::E7)
        .map(|m| m.promotion().unwrap())
        .collect();
    promos.sort();
    assert_eq!(
        promos,
        vec![Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
    );
    assert!(!p.is_legal(Move::normal(Square::E7, Square::E8)));
    assert!(parse_uci(&p, "e7e8").is_err());
    for role in Role::PROMOTIONS {
        let m = Move::new(Square::E7, Square::E8, MoveKind::Promotion(role));
        let after = p.after(m).unwrap();
        assert_eq!(
            after.piece_at(Square::E8),
            Some(Piece::new(Color::White, role))
        );
        assert_eq!(after.board().pawns().count(), 0);
        // The new piece acts at once: a queen or rook on e8 checks h8.
        assert_eq!(
            after.is_check(),
            matches!(role, Role::Queen | Role::Rook),
            "{role}"
        );
    }
    assert!(!p.is_legal(Move::new(
        Square::E7,
        Square::E8,
        MoveKind::Promotion(Role::King)
    )));
    assert!(!p.is_legal(Move::new(
        Square::E7,
        Square::E8,
        MoveKind::Promotion(Role::Pawn)
    )));
}

#[test]
fn r3_7e_promotion_with_capture_and_second_queen() {
    // R3.7 (R3.7e): capturing onto the last rank promotes too; a second queen is fine.
    let p = pos("3r3k/4P3/8/8/8/8/8/1Q2K3 w - - 0 1");
    assert_eq!(dests(&p, "e7"), sorted(&["d8", "e8"]));
    assert_eq!(
        p.legal_moves()
            .iter()
            .filter(|m| m.from() == Square::E7)
            .count(),
        8
    );
    let after = p.after(uci(&p, "e7d8q")).unwrap();
    assert_eq!(
        (after.board().queens() & after.board().by_color(Color::White)).count(),
        2
    );
    assert!(after.is_check());
    assert_eq!(after.halfmove_clock(), 0);
    // Black promotes on rank 1.
    let p = pos("4k3/8/8/8/8/8/3p4/K7 b - - 0 1");
    let after = p.after(uci(&p, "d2d1n")).unwrap();
    assert_eq!(
        after.piece_at(Square::D1),
        Some(Piece::new(Color::Black, Role::Knight))
    );
}

#[test]
fn r3_8a_king_moves_and_attacked_squares() {
    // R3.8 (R3.8a) (see also the table): the king may not step next to the other king nor onto a
    // square attacked by a pinned piece.
    let p = pos("8/8/8/4k3/8/4K3/8/8 w - - 0 1");
    for m in &p.legal_moves() {
        assert!(m.to().distance(p.king(Color::Black)) > 1, "{m}");
    }
    let p = pos("4k3/4b3/8/8/6K1/8/8/4R3 w - - 0 1");
    assert!(!has_uci(&p, "g4g5"));
    assert!(!has_uci(&p, "g4h4"));
}

// ----- R3.8b castling -----------------------------------------------------------------------

const CASTLE: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

#[test]
fn r3_8b_castling_both_sides() {
    // R3.8 (R3.8b): king two squares towards the rook, the rook to the square the king crossed.
    let p = pos(CASTLE);
    assert_eq!(castles(&p), sorted(&["O-O", "O-O-O"]));
    let short = uci(&p, "e1g1");
    assert_eq!(short.kind(), MoveKind::Castle);
    let after = p.after(short).unwrap();
    assert_eq!(
        after.piece_at(Square::G1),
        Some(Piece::new(Color::White, Role::King))
    );
    assert_eq!(
        after.piece_at(Square::F1),
        Some(Piece::new(Color::White, Role::Rook))
    );
    assert_eq!(after.piece_at(Square::H1), None);
    assert_eq!(after.piece_at(Square::E1), None);
    assert_eq!(after.castling_rights().to_string(), "kq");
    // One king move: the clock counts it as a non-pawn move; the turn passes.
    assert_eq!(after.halfmove_clock(), 1);
    assert_eq!(after.turn(), Color::Black);
    let long = uci(&p, "e1c1");
    assert_eq!(long.kind(), MoveKind::Castle);
    let after = p.after(long).unwrap();
    assert_eq!(
        after.piece_at(Square::C1),
        Some(Piece::new(Color::White, Role::King))
    );
    assert_eq!(
        after.piece_at(Square::D1),
        Some(Piece::new(Color::White, Role::Rook))
    );
    assert_eq!(after.piece_at(Square::A1), None);
    assert_eq!(
        after.fen(),
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1"
    );
    // Black likewise.
    let b = play(CASTLE, &["a2a3"]);
    assert_eq!(castles(&b), sorted(&["O-O", "O-O-O"]));
    assert_eq!(
        b.after(uci(&b, "e8g8")).unwrap().fen(),
        "r4rk1/pppppppp/8/8/8/P7/1PPPPPPP/R3K2R w KQ - 1 2"
    );
    assert_eq!(
        b.after(uci(&b, "e8c8")).unwrap().fen(),
        "2kr3r/pppppppp/8/8/8/P7/1PPPPPPP/R3K2R w KQ - 1 2"
    );
}

#[test]
fn r3_8b_castling_only_once() {
    // R3.8 (R3.8b): at most once per game: castling removes both of that side's rights.
    let p = play(CASTLE, &["e1g1", "a7a6"]);
    assert_eq!(p.castling_rights().of(Color::White), CastlingRights::NONE);
    assert_eq!(
        p.castling_rights().of(Color::Black),
        CastlingRights::BLACK_KING.union(CastlingRights::BLACK_QUEEN)
    );
    assert!(castles(&p).is_empty());
    // Black, after White castled long.
    let p = play(CASTLE, &["e1c1", "e8g8", "a2a3"]);
    assert!(p.castling_rights().is_empty());
    assert!(castles(&p).is_empty());
}

#[test]
fn r3_8b_king_moved_loses_both_rights_even_after_returning() {
    // R3.8 (R3.8b): once the king has moved, both rights are lost; moving back does not restore them.
    let p = play(CASTLE, &["e1d1", "a7a6", "d1e1", "a6a5"]);
    assert_eq!(p.castling_rights().to_string(), "kq");
    assert!(castles(&p).is_empty());
    assert_eq!(p.fen(), "r3k2r/1ppppppp/8/p7/8/8/PPPPPPPP/R3K2R w kq - 0 3");
    // Black too.
    let p = play(CASTLE, &["a2a3", "e8f8", "a3a4", "f8e8", "a4a5"]);
    assert_eq!(p.castling_rights().to_string(), "KQ");
    assert!(castles(&p).is_empty());
}

#[test]
fn r3_8b_rook_moved_loses_that_side_even_after_returning() {
    // R3.8 (R3.8b): moving a rook loses that side only; moving it back does not restore it.
    let p = play(CASTLE, &["h1g1", "a7a6", "g1h1", "a6a5"]);
    assert_eq!(p.castling_rights().to_string(), "Qkq");
    assert_eq!(castles(&p), sorted(&["O-O-O"]));
    let p = play(CASTLE, &["a1b1", "a7a6", "b1a1", "a6a5"]);
    assert_eq!(p.castling_rights().to_string(), "Kkq");
    assert_eq!(castles(&p), sorted(&["O-O"]));
    let p = play(CASTLE, &["a2a3", "h8g8", "a3a4", "g8h8", "a4a5"]);
    assert_eq!(p.castling_rights().to_string(), "KQq");
    assert_eq!(castles(&p), sorted(&["O-O-O"]));
}

#[test]
fn r3_8b_rook_captured_loses_the_right() {
    // R3.8 (R3.8b): a rook captured on its corner takes its castling right with it.
    let p = pos("r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1");
    let after = p.after(uci(&p, "g2h1")).unwrap();
    assert_eq!(after.castling_rights().to_string(), "Qkq");
    assert_eq!(castles(&after), sorted(&["O-O-O"]));
    // Rook takes rook: White loses Q (rook moved), Black loses q (rook captured).
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let after = p.after(uci(&p, "a1a8")).unwrap();
    assert_eq!(after.castling_rights().to_string(), "Kk");
}

/// (FEN with White to move, expected castling moves in SAN, what makes the difference).
const CASTLING_CONDITIONS: &[(&str, &[&str], &str)] = &[
    (
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        &["O-O", "O-O-O"],
        "nothing in the way",
    ),
    // Temporarily impossible: in check from the rook e4.
    ("r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1", &[], "in check"),
    // The king would cross f1, attacked by the bishop c4.
    (
        "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1",
        &["O-O-O"],
        "f1 attacked",
    ),
    // The king would cross d1, attacked by the bishop g4.
    (
        "r3k2r/8/8/8/6b1/8/8/R3K2R w KQkq - 0 1",
        &["O-O"],
        "d1 attacked",
    ),
    // The king would land on g1, attacked by the knight h3.
    (
        "r3k2r/8/8/8/8/7n/8/R3K2R w KQkq - 0 1",
        &["O-O-O"],
        "g1 attacked",
    ),
    // The king would land on c1, attacked by the knight b3.
    (
        "r3k2r/8/8/8/8/1n6/8/R3K2R w KQkq - 0 1",
        &["O-O"],
        "c1 attacked",
    ),
    // A piece between king and rook: own knight g1, own knight b1 (b1 is not a king square).
    (
        "r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1",
        &["O-O-O"],
        "knight g1",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R4KNR w kq - 0 1",
        &[],
        "king not home, no rights",
    ),
    (
        "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1",
        &["O-O"],
        "knight b1",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R2QK2R w KQkq - 0 1",
        &["O-O"],
        "queen d1",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R3KB1R w KQkq - 0 1",
        &["O-O-O"],
        "bishop f1",
    ),
    // An opponent's piece between blocks too.
    (
        "r3k2r/8/8/8/8/8/8/Rn2K2R w KQkq - 0 1",
        &["O-O"],
        "enemy knight b1",
    ),
    // Only the king's squares must be safe: b1 attacked by the rook b8, long castling legal.
    (
        "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
        &["O-O", "O-O-O"],
        "b1 attacked",
    ),
    // The rook itself attacked does not matter either.
    (
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        &["O-O", "O-O-O"],
        "rooks attacked by rooks",
    ),
    // Castling that gives check.
    (
        "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
        &["O-O+"],
        "check by the rook",
    ),
    // No right: nothing.
    ("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", &[], "no rights"),
];

#[test]
fn r3_8b_castling_conditions_table() {
    // R3.8 (R3.8b): each temporary condition, one at a time.
    for (fen, expected, why) in CASTLING_CONDITIONS {
        let p = pos(fen);
        assert_eq!(castles(&p), sorted(expected), "{why}: {fen}");
    }
}

#[test]
fn r3_8b_black_b8_attacked_long_castling_legal() {
    // R3.8 (R3.8b): the rook crosses b8 under attack; long castling is still legal.
    let p = pos("r3k2r/8/8/8/8/8/8/1R2K2R b Kkq - 0 1");
    assert!(p.is_attacked_by(Color::White, Square::B8));
    assert_eq!(castles(&p), sorted(&["O-O", "O-O-O"]));
    // But not when d8 (crossed) or c8 (landing) is attacked.
    assert_eq!(
        castles(&pos("r3k2r/8/8/8/8/8/8/3RK2R b Kkq - 0 1")),
        sorted(&["O-O"])
    );
    assert_eq!(
        castles(&pos("r3k2r/8/8/8/8/8/8/2R1K2R b Kkq - 0 1")),
        sorted(&["O-O"])
    );
    assert_eq!(
        castles(&pos("r3k2r/8/8/8/8/8/8/4KR1R b Kkq - 0 1")),
        sorted(&["O-O-O"])
    );
}

#[test]
fn r3_8b_temporary_obstacles_keep_the_rights() {
    // R3.8 (R3.8b): check, attacked squares and pieces between never remove a right.
    for (fen, _, _) in CASTLING_CONDITIONS {
        let p = pos(fen);
        let reparsed = pos(&p.fen());
        assert_eq!(reparsed.castling_rights(), p.castling_rights());
    }
    // The knight leaves g1 and comes back: the right is still there and castling works.
    let p = play(
        "r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1",
        &["g1f3", "a8b8", "f3g1", "b8a8"],
    );
    assert_eq!(p.castling_rights().to_string(), "KQk");
    assert_eq!(castles(&p), sorted(&["O-O-O"]));
    let p = play("r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1", &["g1f3", "a8b8"]);
    assert_eq!(castles(&p), sorted(&["O-O", "O-O-O"]));
    // Rights per side.
    assert!(
        p.castling_rights()
            .has(Color::White, CastlingSide::KingSide)
    );
    assert!(
        !p.castling_rights()
            .has(Color::Black, CastlingSide::QueenSide)
    );
}

// ----- R3.9 check ---------------------------------------------------------------------------

#[test]
fn r3_9_a_pinned_piece_still_gives_check() {
    // R3.9: the knight f3, pinned to its king a8 by the bishop h1, checks e1.
    let p = pos("k7/8/8/8/8/5n2/8/4K2B w - - 0 1");
    assert!(p.is_pinned(Color::Black, Square::F3));
    assert!(p.is_check());
    assert_eq!(p.checkers(), Bitboard::from_square(Square::F3));
    assert_eq!(sans(&p), sorted(&["Bxf3+", "Kd1", "Ke2", "Kf1", "Kf2"]));
}

#[test]
fn r3_9_gives_check_sees_direct_discovered_en_passant_promotion_and_castling_checks() {
    // (position, move, gives check): gives_check answers without playing the move, so each
    // way a move can uncover or deliver check is listed, and checked against the move played.
    let cases = [
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", true), // direct
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a7", false),
        ("4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", "e2c3", true), // discovered
        ("8/8/8/R2Pp2k/8/8/8/4K3 w - e6 0 2", "d5e6", true), // en passant opens the rank
        ("8/8/8/2k5/8/8/8/4K3 w - - 0 1", "e1e2", false),
        ("8/1P6/2k5/8/8/8/8/4K3 w - - 0 1", "b7b8n", true), // promotion to a knight
        ("8/1P6/2k5/8/8/8/8/4K3 w - - 0 1", "b7b8q", false),
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", true), // the castling rook checks
        ("6k1/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", false),
        ("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", "d2d4", false), // a pawn that checks nobody
        ("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", "d5d6", false),
        ("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", "d6d7", true), // pawn check
    ];
    for (fen, uci, want) in cases {
        let p = pos(fen);
        let m = parse_uci(&p, uci).unwrap();
        assert_eq!(p.gives_check(m), want, "{fen} {uci}");
        assert_eq!(p.after(m).unwrap().is_check(), want, "{fen} {uci} played");
    }
}

#[test]
fn r3_9_no_move_leaves_or_puts_the_king_in_check() {
    // R3.9: after every legal move, the mover's king is not attacked; and every pseudo-move
    // that would leave it attacked is missing.
    for fen in [
        "k7/8/8/8/8/5n2/8/4K2B w - - 0 1",
        "4k3/4r3/8/8/2B5/8/8/4K3 w - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    ] {
        let p = pos(fen);
        let us = p.turn();
        for m in &p.legal_moves() {
            let after = p.after(*m).unwrap();
            assert!(
                !after.is_attacked_by(us.other(), after.king(us)),
                "{fen}: {m}"
            );
        }
    }
}

#[test]
fn r3_9_ways_out_of_check() {
    // R3.9: against a distant rook: move the king, or interpose on e2..e6 (Be2, Be6).
    let p = pos("4k3/4r3/8/8/2B5/8/8/4K3 w - - 0 1");
    assert_eq!(
        sans(&p),
        sorted(&["Be2", "Be6", "Kd1", "Kd2", "Kf1", "Kf2"])
    );
    // Against a knight: no interposing, only king moves or capturing it.
    let p = pos("4k3/8/8/8/8/R2n4/8/4K3 w - - 0 1");
    assert_eq!(sans(&p), sorted(&["Kd1", "Kd2", "Ke2", "Kf1", "Rxd3"]));
    // Double check (knight d3 and rook h1): only the king may move, Rxd3 is not enough.
    let p = pos("4k3/8/8/8/8/R2n4/8/4K2r w - - 0 1");
    assert_eq!(p.checkers().count(), 2);
    assert_eq!(sans(&p), sorted(&["Kd2", "Ke2"]));
    // Adjacent checker: nothing can come between; take it or step away.
    let p = pos("4k3/8/8/8/8/8/3q4/R3K3 w - - 0 1");
    assert!(p.is_check());
    assert_eq!(sans(&p), sorted(&["Kf1", "Kxd2"]));
    for m in &p.legal_moves() {
        assert!(
            m.from() == p.king(Color::White) || m.to() == Square::D2,
            "{m}"
        );
    }
}

#[test]
fn r3_9_pinned_piece_moves_along_the_pin_line() {
    // R3.9: pin_mask is the pin line; every legal move of a pinned piece stays on it.
    let p = pos("4k3/8/8/8/1b6/8/3B4/4K2R w K - 0 1");
    assert!(p.is_pinned(Color::White, Square::D2));
    assert!(!p.is_pinned(Color::White, Square::H1));
    let line = p.pin_mask(Color::White, Square::D2);
    for s in ["a5", "b4", "c3", "d2", "e1"] {
        assert!(line.contains(sq(s)), "{s}");
    }
    for m in p.legal_moves().iter().filter(|m| m.from() == Square::D2) {
        assert!(line.contains(m.to()), "{m}");
    }
    assert_eq!(dests(&p, "d2"), sorted(&["b4", "c3"]));
    // As python-chess: a square is judged as if a piece of that colour stood on it, so the
    // empty c3 (between d2's pinner and the king only if d2 were empty) is not pinned, and
    // after removing the d2 bishop the empty d2 and c3 are.
    assert!(!p.is_pinned(Color::White, Square::C3));
    let q = pos("4k3/8/8/8/1b6/8/8/4K2R w K - 0 1");
    assert!(q.is_pinned(Color::White, Square::D2));
    assert!(q.is_pinned(Color::White, Square::C3));
    assert!(!q.is_pinned(Color::White, Square::F2));
}

// ----- R4 How the game ends -----------------------------------------------------------------

#[test]
fn r4_1_checkmate() {
    // R4.1: fool's mate: in check with no legal move; the game ends at once.
    let h = history(START, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    let p = *h.position();
    assert!(p.is_check());
    assert!(p.is_checkmate());
    assert!(!p.is_stalemate());
    assert_eq!(p.legal_moves().len(), 0);
    let outcome = Some(Outcome {
        termination: Termination::Checkmate,
        winner: Some(Color::Black),
    });
    assert_eq!(p.outcome(), outcome);
    assert_eq!(h.outcome(false), outcome);
    assert_eq!(h.outcome(true), outcome);
    // Back-rank mate.
    let p = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    assert!(p.is_checkmate());
    assert_eq!(p.outcome().unwrap().winner, Some(Color::White));
    // Check that can be answered is not mate.
    let p = pos("R5k1/5pp1/8/8/8/8/8/6K1 b - - 0 1");
    assert!(p.is_check() && !p.is_checkmate());
    assert_eq!(p.outcome(), None);
}

#[test]
fn r4_5_stalemate() {
    // R4.5: not in check, no legal move: a draw.
    let p = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(!p.is_check());
    assert!(p.is_stalemate());
    assert!(!p.is_checkmate());
    assert_eq!(
        p.outcome(),
        Some(Outcome {
            termination: Termination::Stalemate,
            winner: None
        })
    );
    let p = pos("k7/8/1Q6/8/8/8/8/K7 b - - 0 1");
    assert!(p.is_stalemate());
    assert_eq!(p.outcome().unwrap().termination, Termination::Stalemate);
    // A blocked pawn has no move either.
    let p = pos("k7/P7/K7/8/8/8/8/8 b - - 0 1");
    assert!(p.is_stalemate());
    // One pawn move is enough to avoid stalemate.
    let p = pos("k7/8/1Q6/8/8/8/7p/K7 b - - 0 1");
    assert!(!p.is_stalemate());
    assert_eq!(p.legal_moves().len(), 4);
    assert_eq!(p.outcome(), None);
}

#[test]
fn r4_6_dead_positions_by_material() {
    // R4.6: K v K, K+B v K and K+N v K are dead (python-chess `is_insufficient_material`).
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1",
        "2b1k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "1n2k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        let p = pos(fen);
        assert!(p.is_insufficient_material(), "{fen}");
        assert_eq!(
            p.outcome(),
            Some(Outcome {
                termination: Termination::InsufficientMaterial,
                winner: None
            }),
            "{fen}"
        );
    }
    // R4.6: K+N+N v K is not dead; the game goes on.
    let p = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    assert!(!p.is_insufficient_material());
    assert_eq!(p.outcome(), None);
}

#[test]
fn r4_8_threefold_claim() {
    // R4.8: Nf3 Nf6 Ng1 Ng8 twice: the start position for the third time (not consecutive).
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
    let mut h = History::new(Position::new());
    for (i, m) in moves.iter().enumerate() {
        assert!(!h.is_repetition(3), "ply {i}");
        let mv = uci(h.position(), m);
        h.push(mv).unwrap();
    }
    assert_eq!(h.repetition_count(), 3);
    assert!(h.can_claim_threefold_repetition());
    assert!(h.can_claim_draw());
    // A claim, not automatic.
    assert_eq!(h.outcome(false), None);
    assert_eq!(
        h.outcome(true),
        Some(Outcome {
            termination: Termination::ThreefoldRepetition,
            winner: None
        })
    );
    assert_eq!(
        h.position().castling_rights(),
        CastlingRights::ALL,
        "shuffling knights keeps the rights"
    );
}

#[test]
fn r4_8_threefold_claim_with_announced_move() {
    // R4.8: Black may claim before playing ...Ng8, which would bring the third occurrence.
    let h = history(
        START,
        &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"],
    );
    assert_eq!(h.repetition_count(), 2);
    assert!(!h.is_repetition(3));
    assert!(h.can_claim_threefold_repetition());
    assert_eq!(
        h.outcome(true),
        Some(Outcome {
            termination: Termination::ThreefoldRepetition,
            winner: None
        })
    );
    // One ply earlier no move reaches a third occurrence.
    let h = history(START, &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6"]);
    assert_eq!(h.repetition_count(), 2);
    assert!(!h.can_claim_threefold_repetition());
    assert_eq!(h.outcome(true), None);
}

#[test]
fn r4_8_fivefold_is_automatic() {
    // R4.8: the fifth occurrence ends the game without a claim.
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut h = History::new(Position::new());
    for round in 1..=4 {
        for m in shuffle {
            let mv = uci(h.position(), m);
            h.push(mv).unwrap();
        }
        assert_eq!(h.repetition_count(), round + 1);
        assert_eq!(h.is_fivefold_repetition(), round + 1 >= 5);
        // The shortest cycle: occurrence n comes 4 (n - 1) plies in, with the clock at that
        // (`is_repetition` skips the walk below it).
        assert_eq!(h.position().halfmove_clock() as usize, 4 * round);
        assert!(h.is_repetition(round + 1));
        assert!(!h.is_repetition(round + 2));
    }
    assert_eq!(
        h.outcome(false),
        Some(Outcome {
            termination: Termination::FivefoldRepetition,
            winner: None
        })
    );
    // Taking back a move undoes it.
    h.pop();
    assert!(!h.is_fivefold_repetition());
    assert_eq!(h.outcome(false), None);
}

#[test]
fn r4_8_fifty_move_claim() {
    // R4.8: halfmove clock 100 may be claimed; 99 with a quiet move to announce too.
    let h = History::new(pos("8/8/8/4k3/8/8/8/R3K3 w - - 100 80"));
    assert!(h.is_fifty_moves());
    assert!(h.can_claim_fifty_moves());
    assert_eq!(h.outcome(false), None);
    assert_eq!(
        h.outcome(true),
        Some(Outcome {
            termination: Termination::FiftyMoves,
            winner: None
        })
    );

    let mut h = History::new(pos("8/8/8/4k3/8/8/8/R3K3 w - - 99 80"));
    assert!(!h.is_fifty_moves());
    assert!(
        h.can_claim_fifty_moves(),
        "the announced move Ra2 completes the fifty moves"
    );
    assert_eq!(
        h.outcome(true),
        Some(Outcome {
            termination: Termination::FiftyMoves,
            winner: None
        })
    );
    h.push(uci(h.position(), "a1a2")).unwrap();
    assert!(h.is_fifty_moves());

    let h = History::new(pos("8/8/8/4k3/8/8/8/R3K3 w - - 98 80"));
    assert!(!h.can_claim_fifty_moves());
    // At 99 with only zeroing moves available, nothing can be announced: the king a1 is
    // boxed in by the king c2 and only the pawns can move.
    let h = History::new(pos("8/8/8/8/8/8/P1k4P/K7 w - - 99 80"));
    assert!(
        !h.can_claim_fifty_moves(),
        "{:?}",
        h.position().legal_moves()
    );
}

#[test]
fn r4_8_seventyfive_moves_automatic() {
    // R4.8: 150 half-moves without pawn move or capture end the game without a claim.
    let p = pos("8/8/8/4k3/8/8/8/R3K3 w - - 150 120");
    assert_eq!(
        p.outcome(),
        Some(Outcome {
            termination: Termination::SeventyfiveMoves,
            winner: None
        })
    );
    let h = History::new(p);
    assert!(h.is_seventyfive_moves());
    assert_eq!(
        h.outcome(false).unwrap().termination,
        Termination::SeventyfiveMoves
    );
    let p = pos("8/8/8/4k3/8/8/8/R3K3 w - - 149 120");
    assert_eq!(p.outcome(), None);
    assert_eq!(
        History::new(p).outcome(true).unwrap().termination,
        Termination::FiftyMoves
    );
}

#[test]
fn r4_8_seventyfive_moves_with_mate_on_the_last_move() {
    // R4.8: the 150th half-move mates: checkmate takes precedence.
    let h = history("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100", &["a1a8"]);
    assert_eq!(h.position().halfmove_clock(), 150);
    assert!(!h.is_seventyfive_moves());
    assert!(!h.is_fifty_moves());
    assert_eq!(
        h.outcome(false),
        Some(Outcome {
            termination: Termination::Checkmate,
            winner: Some(Color::White)
        })
    );
    assert_eq!(h.outcome(true).unwrap().termination, Termination::Checkmate);
}

#[test]
fn r4_8_en_passant_counts_only_when_legal() {
    // R4.8: after ...e5 the pawn d5 could take e.p. but is pinned by the rook d8, so the
    // position after ...e5 is the same as after the kings shuffle back.
    let pinned = "3rk3/4p3/8/3P4/8/8/8/3K4 b - - 0 1";
    let moves = [
        "e7e5", "d1c1", "e8f8", "c1d1", "f8e8", "d1c1", "e8f8", "c1d1", "f8e8",
    ];
    let h = history(pinned, &moves[..1]);
    assert_eq!(h.position().ep_square(), Some(Square::E6));
    assert_eq!(h.position().legal_ep_square(), None);
    let h = history(pinned, &moves);
    assert_eq!(h.repetition_count(), 3);
    assert!(h.can_claim_threefold_repetition());
    // FEN agrees: the e.p. square is not written when no capture is legal.
    let s1 = *history(pinned, &moves[..1]).position();
    let s5 = *history(pinned, &moves[..5]).position();
    assert_eq!(
        epd_with(&s1, EnPassantMode::Legal),
        epd_with(&s5, EnPassantMode::Legal)
    );
    assert_ne!(
        epd_with(&s1, EnPassantMode::Always),
        epd_with(&s5, EnPassantMode::Always)
    );

    // Without the rook the capture is legal, so the first position differs.
    let free = "4k3/4p3/8/3P4/8/8/8/3K4 b - - 0 1";
    let moves = [
        "e7e5", "d1c1", "e8f8", "c1d1", "f8e8", "d1c1", "e8f8", "c1d1", "f8e8",
    ];
    let h0 = history(free, &moves[..1]);
    assert_eq!(h0.position().legal_ep_square(), Some(Square::E6));
    let h = history(free, &moves);
    assert_eq!(h.repetition_count(), 2);
    assert!(!h.is_repetition(3));
}

#[test]
fn r4_8_lost_castling_right_makes_positions_differ() {
    // R4.8: Ra1-b1-a1 and Ra8-b8-a8 restore the board but not the rights.
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let round = ["a1b1", "a8b8", "b1a1", "b8a8"];
    let h = history(fen, &round);
    assert_eq!(h.position().board(), h.start().board());
    assert_eq!(
        h.repetition_count(),
        1,
        "rights KQkq then Kk: different positions"
    );
    let moves: Vec<&str> = round
        .iter()
        .chain(round.iter())
        .chain(round.iter())
        .copied()
        .collect();
    let h = history(fen, &moves[..8]);
    assert_eq!(h.repetition_count(), 2);
    assert!(!h.can_claim_threefold_repetition());
    let h = history(fen, &moves);
    assert_eq!(h.repetition_count(), 3);
    assert!(h.can_claim_threefold_repetition());
}

// ----- R5.2 the automatic list --------------------------------------------------------------

/// (FEN, White insufficient, Black insufficient), as python-chess's
/// `has_insufficient_material` answers.
const MATERIAL: &[(&str, bool, bool)] = &[
    // Kings alone.
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true, true),
    // King and one minor piece versus a king.
    ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true),
    ("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", true, true),
    // Bishops only, all on one colour (c1 and f4 dark... c1 is dark, e3 dark, f8 dark).
    ("4kb2/8/8/8/8/4B3/8/2B1K3 w - - 0 1", true, true),
    ("4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1", true, true),
    // Opposite-coloured bishops: a mate exists.
    ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", false, true),
    ("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false, false),
    // Bishops on one colour, one each side (c1 and d8 are both dark).
    ("3bk3/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true),
    // Two knights: not insufficient (python-chess counts pieces: more than one knight).
    ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", false, true),
    // A knight each: each could mate with the other's help.
    ("1n2k3/8/8/8/8/8/8/1N2K3 w - - 0 1", false, false),
    // A knight versus a queen: the knight side cannot mate (python-chess ignores queens).
    ("3qk3/8/8/8/8/8/8/1N2K3 w - - 0 1", true, false),
    // Bishop and knight.
    ("4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1", false, true),
    // Bishop v knight: neither is insufficient with the other's piece on the board.
    ("1n2k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false, false),
    // Pawns, rooks, queens are always enough.
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false, true),
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false, true),
    ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false, true),
    // A bishop with pawns of the other side: a self-block makes mate possible.
    ("4k3/4p3/8/8/8/8/8/2B1K3 w - - 0 1", false, false),
];

#[test]
fn r5_2_insufficient_material_list() {
    // R5.2: kings alone; K+B or K+N v K; bishops only, all on one colour — and no more.
    for (fen, white, black) in MATERIAL {
        let p = pos(fen);
        assert_eq!(
            p.has_insufficient_material(Color::White),
            *white,
            "white: {fen}"
        );
        assert_eq!(
            p.has_insufficient_material(Color::Black),
            *black,
            "black: {fen}"
        );
        assert_eq!(p.is_insufficient_material(), *white && *black, "{fen}");
        // Mirroring swaps the answers.
        let m = p.mirrored();
        assert_eq!(
            m.has_insufficient_material(Color::Black),
            *white,
            "mirrored: {fen}"
        );
        assert_eq!(
            m.has_insufficient_material(Color::White),
            *black,
            "mirrored: {fen}"
        );
    }
}

// ----- R7 Recording moves -------------------------------------------------------------------

/// (rule, FEN, UCI move, SAN), checked against python-chess.
const SAN_CASES: &[(&str, &str, &str, &str)] = &[
    // R7.1: pawn moves by destination, pieces by letter.
    ("R7.1", START, "e2e4", "e4"),
    ("R7.1", START, "g1f3", "Nf3"),
    (
        "R7.1",
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "e4d5",
        "exd5",
    ),
    // R7.2: x for captures.
    (
        "R7.2",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "f3e5",
        "Nxe5",
    ),
    ("R7.2", "4k3/8/8/8/6p1/8/8/3QK3 w - - 0 1", "d1g4", "Qxg4"),
    // R7.2: castling.
    (
        "R7.2",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "e1g1",
        "O-O",
    ),
    (
        "R7.2",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "e1c1",
        "O-O-O",
    ),
    (
        "R7.2",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        "e8g8",
        "O-O",
    ),
    (
        "R7.2",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        "e8c8",
        "O-O-O",
    ),
    ("R7.2", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+"),
    // R7.2: check and mate.
    ("R7.2", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", "Ra8+"),
    (
        "R7.2",
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        "d8h4",
        "Qh4#",
    ),
    ("R7.2", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#"),
    // R7.2: promotion e8=Q, with check, capture, under-promotion.
    ("R7.2", "7k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e8=Q+"),
    ("R7.2", "7k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", "e8=N"),
    (
        "R7.2",
        "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1",
        "e7d8q",
        "exd8=Q+",
    ),
    (
        "R7.2",
        "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1",
        "e7d8b",
        "exd8=B",
    ),
    ("R7.2", "4k3/8/8/8/8/8/3p4/K7 b - - 0 1", "d2d1q", "d1=Q+"),
    // R7.1: en passant is written as a pawn capture.
    (
        "R7.1",
        "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        "e5d6",
        "exd6",
    ),
    // R7.3: file first (knights b1 and f3 both reach d2).
    ("R7.3", "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2", "Nbd2"),
    ("R7.3", "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "f3d2", "Nfd2"),
    // R7.3: rank when the file is shared (rooks a1 and a5).
    ("R7.3", "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"),
    ("R7.3", "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a5a3", "R5a3"),
    // R7.3: the whole square when both file and rank are shared (knights f4, h4, f8).
    (
        "R7.3",
        "k4N2/8/6p1/8/5N1N/8/8/4K3 w - - 0 1",
        "f4g6",
        "Nf4xg6",
    ),
    (
        "R7.3",
        "k4N2/8/6p1/8/5N1N/8/8/4K3 w - - 0 1",
        "h4g6",
        "Nhxg6",
    ),
    (
        "R7.3",
        "k4N2/8/6p1/8/5N1N/8/8/4K3 w - - 0 1",
        "f8g6",
        "N8xg6",
    ),
    (
        "R7.3",
        "k4N2/8/6p1/8/5N1N/8/8/4K3 w - - 0 1",
        "f4e6",
        "N4e6",
    ),
    // R7.3: three queens, the classic Qh4e1.
    ("R7.3", "8/k7/8/8/4Q2Q/8/8/1K5Q w - - 0 1", "h4e1", "Qh4e1"),
    ("R7.3", "8/k7/8/8/4Q2Q/8/8/1K5Q w - - 0 1", "e4e1", "Qee1"),
    ("R7.3", "8/k7/8/8/4Q2Q/8/8/1K5Q w - - 0 1", "h1e1", "Q1e1"),
    // R7.3: a pinned rival cannot move there, so no disambiguation.
    ("R7.3", "4k3/8/8/3b4/8/5N2/8/1N5K w - - 0 1", "b1d2", "Nd2"),
    // R7.3: pawns never need it (the origin file is part of the capture).
    (
        "R7.3",
        "4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1",
        "c4d5",
        "cxd5",
    ),
];

#[test]
fn r7_1_to_r7_3_san_writing() {
    // R7.1 R7.2 R7.3: SAN as python-chess writes it.
    for (rule, fen, m, expected) in SAN_CASES {
        let p = pos(fen);
        let mv = uci(&p, m);
        assert_eq!(to_san(&p, mv), *expected, "{rule}: {fen} {m}");
        assert_eq!(parse_san(&p, expected), Ok(mv), "{rule}: {fen} {expected}");
    }
}

#[test]
fn r7_2_castling_notation_parses() {
    // R7.2: O-O / O-O-O, and the zero spellings seen in the wild.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for (text, to) in [
        ("O-O", "e1g1"),
        ("O-O-O", "e1c1"),
        ("0-0", "e1g1"),
        ("0-0-0", "e1c1"),
    ] {
        assert_eq!(parse_san(&p, text).unwrap().to_uci(), to, "{text}");
    }
}

#[test]
fn r7_4_move_comments_are_accepted() {
    // R7.4: ! good, !! excellent, ? weak, ?? very weak, !? and ?! by convention.
    let p = Position::new();
    let e4 = uci(&p, "e2e4");
    for suffix in ["!", "?", "!!", "??", "!?", "?!"] {
        assert_eq!(parse_san(&p, &format!("e4{suffix}")), Ok(e4), "e4{suffix}");
        assert_eq!(
            parse_san(&p, &format!("Nf3{suffix}")),
            Ok(uci(&p, "g1f3")),
            "Nf3{suffix}"
        );
    }
    // After a check or mate sign as well.
    let p = pos("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
    for text in ["Qh4#!!", "Qh4#?", "Qh4+!?", "Qh4!"] {
        assert_eq!(parse_san(&p, text), Ok(uci(&p, "d8h4")), "{text}");
    }
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(parse_san(&p, "O-O-O?!").unwrap().to_uci(), "e1c1");
}

// ----- R8 ----------------------------------------------------------------------------------

#[test]
fn r8_1_a_move_counts_when_made() {
    // R8.1: in software a move is final when made: `play` changes the position at once,
    // and an illegal attempt changes nothing.
    let mut p = Position::new();
    let before = p;
    assert!(p.play(Move::normal(Square::E2, Square::E5)).is_err());
    assert_eq!(p, before);
    p.play(uci(&p, "e2e4")).unwrap();
    assert_ne!(p, before);
    assert_eq!(p.turn(), Color::Black);
}

#[test]
fn r3_7d_en_passant_fen_fields() {
    // R3.7 (R3.7d), R4.8: the e.p. square is remembered after every double step, but FEN writes it
    // only when a capture is legal (unless asked to always write it).
    let p = play(START, &["e2e4"]);
    assert_eq!(p.ep_square(), Some(Square::E3));
    assert_eq!(p.legal_ep_square(), None);
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(
        shatranj_chess::fen::to_fen_with(&p, EnPassantMode::Always),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
}

// ----- R4.4 --------------------------------------------------------------------------------

#[test]
fn r4_4_illegal_moves_are_refused_and_change_nothing() {
    // R4.4: the two kinds of illegal move the rule names — leaving the king in check, and a
    // piece going to a square it cannot reach — are refused with a typed error naming the move
    // and the position; the position stays as it was. (Counting them towards a forfeit is the
    // arbiter's job.)
    let pinned = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    for (p, m) in [
        (pinned, Move::normal(Square::E2, Square::C3)), // exposes the king to the rook
        (
            pos("4k3/8/8/8/8/8/8/4K2r w - - 0 1"),
            Move::normal(Square::E1, Square::F1),
        ), // stays in check
        (Position::new(), Move::normal(Square::B1, Square::B3)), // a knight cannot go there
        (Position::new(), Move::normal(Square::E2, Square::E5)), // nor a pawn
    ] {
        let mut q = p;
        let err = q.play(m).unwrap_err();
        assert_eq!(err.mv, m);
        assert_eq!(err.fen, p.fen());
        assert!(err.to_string().contains(&m.to_string()), "{err}");
        assert_eq!(q, p);
        assert_eq!(q.key(), p.key());
    }
}

//! FEN reading and writing: every way a FEN is rejected (with the field at fault and the
//! offending text in the message), the en-passant field, and round trips.

use shatranj_chess::fen::{self, EnPassantMode, FenError, FenField, epd_with, to_fen_with};
use shatranj_chess::position::PositionError;
use shatranj_chess::uci::parse_uci;
use shatranj_chess::{CastlingSide, Color, Position, Square};
use std::path::PathBuf;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn err(fen: &str) -> FenError {
    match fen::parse(fen) {
        Ok(p) => panic!("accepted {fen:?} as {}", p.fen()),
        Err(e) => e,
    }
}

/// A rejection: the FEN, the field at fault, what the error must look like, and text the
/// message must contain besides the field's name.
struct Reject {
    fen: &'static str,
    field: Option<FenField>,
    check: fn(&FenError) -> bool,
    shows: &'static str,
}

const fn r(
    fen: &'static str,
    field: Option<FenField>,
    check: fn(&FenError) -> bool,
    shows: &'static str,
) -> Reject {
    Reject {
        fen,
        field,
        check,
        shows,
    }
}

use FenField::*;

const REJECTS: &[Reject] = &[
    // Wrong number of fields: too few, too many.
    r(
        "",
        None,
        |e| matches!(e, FenError::FieldCount { found: 0, .. }),
        "found 0",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        None,
        |e| matches!(e, FenError::FieldCount { found: 1, .. }),
        "found 1",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
        None,
        |e| matches!(e, FenError::FieldCount { found: 2, .. }),
        "found 2",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
        None,
        |e| matches!(e, FenError::FieldCount { found: 3, .. }),
        "found 3",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        None,
        |e| matches!(e, FenError::FieldCount { found: 7, .. }),
        "found 7",
    ),
    // Piece placement: a letter that is no piece, digits 0 and 9, two digits in a row.
    r(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        Some(Placement),
        |e| matches!(e, FenError::BadPieceLetter { letter: 'X', .. }),
        "'X'",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNx w KQkq - 0 1",
        Some(Placement),
        |e| matches!(e, FenError::BadPieceLetter { letter: 'x', .. }),
        "'x'",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/0/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Some(Placement),
        |e| matches!(e, FenError::BadPieceLetter { letter: '0', .. }),
        "'0'",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/9/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Some(Placement),
        |e| matches!(e, FenError::BadPieceLetter { letter: '9', .. }),
        "'9'",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/44/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Some(Placement),
        |e| matches!(e, FenError::BadPieceLetter { letter: '4', .. }),
        "44",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN\u{e9} w KQkq - 0 1",
        Some(Placement),
        |e| {
            matches!(
                e,
                FenError::BadPieceLetter {
                    letter: '\u{e9}',
                    ..
                }
            )
        },
        "RNBQKBN\u{e9}",
    ),
    // A rank not adding up to 8: too short, too long, empty.
    r(
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Some(Placement),
        |e| {
            matches!(
                e,
                FenError::RankWidth {
                    rank: 7,
                    width: 7,
                    ..
                }
            )
        },
        "rank 7 has 7",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Some(Placement),
        |e| {
            matches!(
                e,
                FenError::RankWidth {
                    rank: 2,
                    width: 9,
                    ..
                }
            )
        },
        "rank 2 has 9",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR1 w KQkq - 0 1",
        Some(Placement),
        |e| {
            matches!(
                e,
                FenError::RankWidth {
                    rank: 1,
                    width: 9,
                    ..
                }
            )
        },
        "rank 1",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/71/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Some(Placement),
        |e| {
            matches!(
                e,
                FenError::BadPieceLetter { .. } | FenError::RankWidth { .. }
            )
        },
        "71",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/p8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Some(Placement),
        |e| {
            matches!(
                e,
                FenError::RankWidth {
                    rank: 3,
                    width: 9,
                    ..
                }
            )
        },
        "rank 3",
    ),
    r(
        "rnbqkbnr/pppppppp/8//8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Some(Placement),
        |e| {
            matches!(
                e,
                FenError::RankWidth {
                    rank: 5,
                    width: 0,
                    ..
                }
            )
        },
        "rank 5 has 0",
    ),
    // Wrong number of ranks.
    r(
        "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Some(Placement),
        |e| matches!(e, FenError::RankCount { found: 7, .. }),
        "7 ranks",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        Some(Placement),
        |e| matches!(e, FenError::RankCount { found: 9, .. }),
        "9 ranks",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
        Some(Placement),
        |e| matches!(e, FenError::RankCount { found: 9, .. }),
        "9 ranks",
    ),
    // Kings: a side without one, a side with two.
    r(
        "8/8/8/8/8/8/8/4K3 w - - 0 1",
        Some(Placement),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::KingCount {
                        color: Color::Black,
                        count: 0
                    },
                    ..
                }
            )
        },
        "black has 0 kings",
    ),
    r(
        "4k3/8/8/8/8/8/8/8 b - - 0 1",
        Some(Placement),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::KingCount {
                        color: Color::White,
                        count: 0
                    },
                    ..
                }
            )
        },
        "white has 0 kings",
    ),
    r(
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
        Some(Placement),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::KingCount {
                        color: Color::White,
                        count: 2
                    },
                    ..
                }
            )
        },
        "white has 2 kings",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w - - 0 1",
        Some(Placement),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::KingCount {
                        color: Color::White,
                        count: 0
                    },
                    ..
                }
            )
        },
        "RNBQQBNR",
    ),
    // Pawns on the first and last ranks, of either colour.
    r(
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        Some(Placement),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::PawnOnBackRank { square: Square::A1 },
                    ..
                }
            )
        },
        "pawn on a1",
    ),
    r(
        "4k2P/8/8/8/8/8/8/4K3 w - - 0 1",
        Some(Placement),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::PawnOnBackRank { square: Square::H8 },
                    ..
                }
            )
        },
        "pawn on h8",
    ),
    r(
        "p3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        Some(Placement),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::PawnOnBackRank { square: Square::A8 },
                    ..
                }
            )
        },
        "pawn on a8",
    ),
    r(
        "4k3/8/8/8/8/8/8/4K2p b - - 0 1",
        Some(Placement),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::PawnOnBackRank { square: Square::H1 },
                    ..
                }
            )
        },
        "pawn on h1",
    ),
    // The side not to move is in check.
    r(
        "4k3/8/8/8/8/8/8/R3K2r b - - 0 1",
        Some(SideToMove),
        |e| matches!(e, FenError::Setup { error: PositionError::OppositeCheck, text, .. } if text == "b"),
        "\"b\"",
    ),
    r(
        "4k3/8/8/8/8/5n2/8/4K3 b - - 0 1",
        Some(SideToMove),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::OppositeCheck,
                    ..
                }
            )
        },
        "not to move is in check",
    ),
    r(
        "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 1",
        Some(SideToMove),
        |e| matches!(e, FenError::Setup { error: PositionError::OppositeCheck, text, .. } if text == "w"),
        "\"w\"",
    ),
    // Side to move not w or b.
    r(
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
        Some(SideToMove),
        |e| matches!(e, FenError::BadSideToMove { text } if text == "x"),
        "\"x\"",
    ),
    r(
        "4k3/8/8/8/8/8/8/4K3 W - - 0 1",
        Some(SideToMove),
        |e| matches!(e, FenError::BadSideToMove { .. }),
        "\"W\"",
    ),
    r(
        "4k3/8/8/8/8/8/8/4K3 white - - 0 1",
        Some(SideToMove),
        |e| matches!(e, FenError::BadSideToMove { .. }),
        "\"white\"",
    ),
    // A castling right without its king or rook, for each of K, Q, k, q.
    r(
        "r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1",
        Some(Castling),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::CastlingWithoutPieces {
                        color: Color::White,
                        side: CastlingSide::KingSide
                    },
                    ..
                }
            )
        },
        "\"KQkq\"",
    ),
    r(
        "r3k2r/8/8/8/8/8/8/4K2R w Q - 0 1",
        Some(Castling),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::CastlingWithoutPieces {
                        color: Color::White,
                        side: CastlingSide::QueenSide
                    },
                    ..
                }
            )
        },
        "a1",
    ),
    r(
        "r3k3/8/8/8/8/8/8/R3K2R w k - 0 1",
        Some(Castling),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::CastlingWithoutPieces {
                        color: Color::Black,
                        side: CastlingSide::KingSide
                    },
                    ..
                }
            )
        },
        "h8",
    ),
    r(
        "4k2r/8/8/8/8/8/8/R3K2R w q - 0 1",
        Some(Castling),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::CastlingWithoutPieces {
                        color: Color::Black,
                        side: CastlingSide::QueenSide
                    },
                    ..
                }
            )
        },
        "a8",
    ),
    // The king off its square.
    r(
        "r3k2r/8/8/8/8/8/8/R4K1R w K - 0 1",
        Some(Castling),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::CastlingWithoutPieces {
                        color: Color::White,
                        side: CastlingSide::KingSide
                    },
                    ..
                }
            )
        },
        "e1",
    ),
    r(
        "r4k1r/8/8/8/8/8/8/R3K2R w q - 0 1",
        Some(Castling),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::CastlingWithoutPieces {
                        color: Color::Black,
                        side: CastlingSide::QueenSide
                    },
                    ..
                }
            )
        },
        "e8",
    ),
    // A piece of the wrong kind or colour on the rook's square.
    r(
        "r3k2r/8/8/8/8/8/8/R3K2N w K - 0 1",
        Some(Castling),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::CastlingWithoutPieces { .. },
                    ..
                }
            )
        },
        "\"K\"",
    ),
    r(
        "r3k2R/8/8/8/8/8/8/R3K3 b k - 0 1",
        Some(Castling),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::CastlingWithoutPieces { .. },
                    ..
                }
            )
        },
        "\"k\"",
    ),
    // Bad castling letters, duplicates, X-FEN file letters, a dash mixed in.
    r(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkx - 0 1",
        Some(Castling),
        |e| matches!(e, FenError::BadCastling { .. }),
        "\"KQkx\"",
    ),
    r(
        "r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1",
        Some(Castling),
        |e| matches!(e, FenError::BadCastling { .. }),
        "\"KK\"",
    ),
    r(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkqq - 0 1",
        Some(Castling),
        |e| matches!(e, FenError::BadCastling { .. }),
        "\"KQkqq\"",
    ),
    r(
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
        Some(Castling),
        |e| matches!(e, FenError::BadCastling { .. }),
        "\"HAha\"",
    ),
    r(
        "r3k2r/8/8/8/8/8/8/R3K2R w K- - 0 1",
        Some(Castling),
        |e| matches!(e, FenError::BadCastling { .. }),
        "\"K-\"",
    ),
    r(
        "r3k2r/8/8/8/8/8/8/R3K2R w -- - 0 1",
        Some(Castling),
        |e| matches!(e, FenError::BadCastling { .. }),
        "\"--\"",
    ),
    // En passant: not a square, wrong rank, not matching the side to move, no pawn in front,
    // occupied, or the pawn's origin square occupied.
    r(
        START_EP_E4,
        Some(EnPassant),
        |e| matches!(e, FenError::BadEnPassant { text } if text == "e4"),
        "\"e4\"",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq z9 0 1",
        Some(EnPassant),
        |e| matches!(e, FenError::BadEnPassant { .. }),
        "\"z9\"",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq E3 0 1",
        Some(EnPassant),
        |e| matches!(e, FenError::BadEnPassant { .. }),
        "\"E3\"",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e33 0 1",
        Some(EnPassant),
        |e| matches!(e, FenError::BadEnPassant { .. }),
        "\"e33\"",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1",
        Some(EnPassant),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::ImpossibleEnPassant { square: Square::E3 },
                    ..
                }
            )
        },
        "en-passant square e3",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1",
        Some(EnPassant),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::ImpossibleEnPassant { square: Square::D3 },
                    ..
                }
            )
        },
        "\"d3\"",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
        Some(EnPassant),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::ImpossibleEnPassant { square: Square::E6 },
                    ..
                }
            )
        },
        "\"e6\"",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/R1BQKBNR b KQkq e3 0 1",
        Some(EnPassant),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::ImpossibleEnPassant { .. },
                    ..
                }
            )
        },
        "\"e3\"",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
        Some(EnPassant),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::ImpossibleEnPassant { .. },
                    ..
                }
            )
        },
        "\"e3\"",
    ),
    r(
        "rnbqkbnr/pppppppp/8/8/4p3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        Some(EnPassant),
        |e| {
            matches!(
                e,
                FenError::Setup {
                    error: PositionError::ImpossibleEnPassant { .. },
                    ..
                }
            )
        },
        "\"e3\"",
    ),
    // Clocks: not numbers, negative, fractional, too large; full-move number zero.
    r(
        "4k3/8/8/8/8/8/8/4K3 w - - x 1",
        Some(HalfmoveClock),
        |e| {
            matches!(
                e,
                FenError::BadClock {
                    field: HalfmoveClock,
                    ..
                }
            )
        },
        "\"x\"",
    ),
    r(
        "4k3/8/8/8/8/8/8/4K3 w - - -1 1",
        Some(HalfmoveClock),
        |e| {
            matches!(
                e,
                FenError::BadClock {
                    field: HalfmoveClock,
                    ..
                }
            )
        },
        "\"-1\"",
    ),
    r(
        "4k3/8/8/8/8/8/8/4K3 w - - +1 1",
        Some(HalfmoveClock),
        |e| matches!(e, FenError::BadClock { .. }),
        "\"+1\"",
    ),
    r(
        "4k3/8/8/8/8/8/8/4K3 w - - 1.5 1",
        Some(HalfmoveClock),
        |e| matches!(e, FenError::BadClock { .. }),
        "\"1.5\"",
    ),
    r(
        "4k3/8/8/8/8/8/8/4K3 w - - 99999999999 1",
        Some(HalfmoveClock),
        |e| matches!(e, FenError::BadClock { .. }),
        "99999999999",
    ),
    r(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 one",
        Some(FullmoveNumber),
        |e| {
            matches!(
                e,
                FenError::BadClock {
                    field: FullmoveNumber,
                    ..
                }
            )
        },
        "\"one\"",
    ),
    r(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 -3",
        Some(FullmoveNumber),
        |e| {
            matches!(
                e,
                FenError::BadClock {
                    field: FullmoveNumber,
                    ..
                }
            )
        },
        "\"-3\"",
    ),
    r(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 -",
        Some(FullmoveNumber),
        |e| {
            matches!(
                e,
                FenError::BadClock {
                    field: FullmoveNumber,
                    ..
                }
            )
        },
        "\"-\"",
    ),
    r(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
        Some(FullmoveNumber),
        |e| matches!(e, FenError::Setup { error: PositionError::FullmoveNumberZero, text, .. } if text == "0"),
        "at least 1",
    ),
];

const START_EP_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1";

#[test]
fn every_rejection_names_its_field_and_text() {
    for case in REJECTS {
        let e = err(case.fen);
        assert!((case.check)(&e), "{:?}: unexpected error {e:?}", case.fen);
        assert_eq!(e.field(), case.field, "{:?}: {e:?}", case.fen);
        let msg = e.to_string();
        match case.field {
            Some(field) => assert!(
                msg.contains(&field.to_string()),
                "{msg:?} should name the field {field}"
            ),
            None => assert!(msg.contains("fields"), "{msg:?} should talk about fields"),
        }
        assert!(
            msg.contains(case.shows),
            "{msg:?} should contain {:?}",
            case.shows
        );
        // The field's own text is in the message as well (the whole FEN for a field count).
        let fields: Vec<&str> = case.fen.split_whitespace().collect();
        let offending = match case.field {
            None => case.fen.to_owned(),
            Some(f) => fields.get(field_index(f)).copied().unwrap_or("").to_owned(),
        };
        assert!(
            msg.contains(&format!("{offending:?}")),
            "{msg:?} should quote {offending:?}"
        );
        // FenError is a std error.
        let _: &dyn std::error::Error = &e;
    }
}

fn field_index(f: FenField) -> usize {
    match f {
        Placement => 0,
        SideToMove => 1,
        Castling => 2,
        EnPassant => 3,
        HalfmoveClock => 4,
        FullmoveNumber => 5,
    }
}

#[test]
fn field_names() {
    let names: Vec<String> = [
        Placement,
        SideToMove,
        Castling,
        EnPassant,
        HalfmoveClock,
        FullmoveNumber,
    ]
    .iter()
    .map(std::string::ToString::to_string)
    .collect();
    assert_eq!(
        names,
        [
            "piece placement",
            "side to move",
            "castling",
            "en passant",
            "halfmove clock",
            "fullmove number"
        ]
    );
}

#[test]
fn accepted_variants() {
    // EPD-style 4 fields and 5 fields are accepted, with default clocks.
    let p = fen::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
    assert_eq!(p.fen(), START);
    let p = fen::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7").unwrap();
    assert_eq!(p.halfmove_clock(), 7);
    assert_eq!(p.fullmove_number(), 1);
    // Extra whitespace around and between fields.
    let p = fen::parse("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w KQkq -  0 1 \n").unwrap();
    assert_eq!(p.fen(), START);
    // Castling letters in any order are written in KQkq order.
    let p = fen::parse("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1").unwrap();
    assert_eq!(p.fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    // Large clocks within u32.
    let p = fen::parse("4k3/8/8/8/8/8/8/4K3 w - - 4000 9999").unwrap();
    assert_eq!((p.halfmove_clock(), p.fullmove_number()), (4000, 9999));
    // FromStr and Position::from_fen agree with fen::parse.
    assert_eq!(START.parse::<Position>().unwrap(), Position::new());
    assert_eq!(Position::from_fen(START).unwrap(), Position::new());
    assert!("nonsense".parse::<Position>().is_err());
}

#[test]
fn en_passant_written_only_when_legal() {
    // After 1.e4 no black pawn can take: the square is remembered but not written.
    let mut p = Position::new();
    p.play(parse_uci(&p, "e2e4").unwrap()).unwrap();
    assert_eq!(p.ep_square(), Some(Square::E3));
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(to_fen_with(&p, EnPassantMode::Legal), p.fen());
    assert_eq!(
        to_fen_with(&p, EnPassantMode::Always),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    assert_eq!(
        epd_with(&p, EnPassantMode::Always),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3"
    );
    assert_eq!(EnPassantMode::default(), EnPassantMode::Legal);

    // A capture is legal: written in both modes.
    let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    let p = fen::parse(fen).unwrap();
    assert_eq!(p.fen(), fen);
    assert_eq!(to_fen_with(&p, EnPassantMode::Always), fen);

    // A pseudo-legal capture exists but the capturer is pinned: not written by default.
    let fen = "3rk3/8/8/3Pp3/8/8/8/3K4 w - e6 0 2";
    let p = fen::parse(fen).unwrap();
    assert_eq!(p.ep_square(), Some(Square::E6));
    assert_eq!(p.legal_ep_square(), None);
    assert_eq!(p.fen(), "3rk3/8/8/3Pp3/8/8/8/3K4 w - - 0 2");
    assert_eq!(to_fen_with(&p, EnPassantMode::Always), fen);

    // The pawn that could take is on the wrong side of the board: not written.
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let p = fen::parse(fen).unwrap();
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(to_fen_with(&p, EnPassantMode::Always), fen);
}

/// FENs that must come back unchanged: the classic perft positions and some with e.p.
const ROUND_TRIP: &[&str] = &[
    START,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 3",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 b - - 149 300",
];

#[test]
fn round_trips() {
    for fen in ROUND_TRIP {
        let p = fen::parse(fen).unwrap();
        assert_eq!(p.fen(), *fen);
        assert_eq!(to_fen_with(&p, EnPassantMode::Always), *fen);
        assert_eq!(fen::parse(&p.fen()).unwrap(), p);
        let m = p.mirrored();
        assert_eq!(fen::parse(&m.fen()).unwrap().fen(), m.fen());
    }
}

/// The perft reference data, kept in the repository's `data/perft`.
fn perft_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/perft")
}

#[test]
fn round_trips_of_the_perft_files() {
    let dir = perft_dir();
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
    };
    let mut count = 0;
    // perftsuite.epd: `FEN ;D1 n ...` (six fields, CRLF line ends).
    for line in read("perftsuite.epd").lines() {
        let fen = line.split(';').next().unwrap().trim();
        if fen.is_empty() {
            continue;
        }
        let p = fen::parse(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(to_fen_with(&p, EnPassantMode::Always), fen);
        count += 1;
    }
    // random.perft and tricky.perft: `epd FEN` lines with four fields (Chess960 skipped).
    for name in ["random.perft", "tricky.perft"] {
        let mut chess960 = false;
        for line in read(name).lines() {
            if let Some(id) = line.strip_prefix("id ") {
                // tricky.perft mixes standard positions (`pos-…`) with Chess960 ones.
                chess960 = name == "tricky.perft" && !id.starts_with("pos-");
            } else if let Some(epd) = line.strip_prefix("epd ") {
                let epd = epd.trim();
                // Chess960 castling (Shredder-FEN file letters) is not supported yet.
                let castling = epd.split_whitespace().nth(2).unwrap_or("-");
                if chess960 || !castling.chars().all(|c| "KQkq-".contains(c)) {
                    continue;
                }
                let p = fen::parse(epd).unwrap_or_else(|e| panic!("{epd}: {e}"));
                assert_eq!(epd_with(&p, EnPassantMode::Always), epd);
                assert_eq!(
                    p.fen(),
                    format!("{} 0 1", epd_with(&p, EnPassantMode::Legal))
                );
                count += 1;
            }
        }
    }
    println!("round-tripped {count} FENs from {}", dir.display());
    assert!(count > 100);
}

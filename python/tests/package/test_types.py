"""Wrong argument types raise TypeError; out-of-range values raise IndexError/ValueError."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import shatranj

BOARD = shatranj.Board()
E4 = shatranj.Move.from_uci("e2e4")

WRONG_TYPES: list[tuple[str, Callable[[], Any]]] = [
    ("Board(fen=int)", lambda: shatranj.Board(42)),  # type: ignore[arg-type]
    ("Board(fen=bytes)", lambda: shatranj.Board(b"8/8/8/8/8/8/8/8 w - - 0 1")),  # type: ignore[arg-type]
    ("set_fen(None)", lambda: shatranj.Board().set_fen(None)),  # type: ignore[arg-type]
    ("push(str)", lambda: shatranj.Board().push("e2e4")),  # type: ignore[arg-type]
    ("push(None)", lambda: shatranj.Board().push(None)),  # type: ignore[arg-type]
    ("push(chess.Move-like)", lambda: shatranj.Board().push(object())),  # type: ignore[arg-type]
    ("push_san(int)", lambda: shatranj.Board().push_san(5)),  # type: ignore[arg-type]
    ("push_uci(list)", lambda: shatranj.Board().push_uci(["e2e4"])),  # type: ignore[arg-type]
    ("parse_san(None)", lambda: BOARD.parse_san(None)),  # type: ignore[arg-type]
    ("parse_uci(float)", lambda: BOARD.parse_uci(1.5)),  # type: ignore[arg-type]
    ("san(str)", lambda: BOARD.san("e4")),  # type: ignore[arg-type]
    ("lan(int)", lambda: BOARD.lan(12)),  # type: ignore[arg-type]
    ("is_legal(str)", lambda: BOARD.is_legal("e2e4")),  # type: ignore[arg-type]
    ("gives_check(None)", lambda: BOARD.gives_check(None)),  # type: ignore[arg-type]
    ("is_capture(tuple)", lambda: BOARD.is_capture((12, 28))),  # type: ignore[arg-type]
    ("piece_at(str)", lambda: BOARD.piece_at("e4")),  # type: ignore[arg-type]
    ("piece_at(float)", lambda: BOARD.piece_at(4.0)),  # type: ignore[arg-type]
    ("attackers(sq=str)", lambda: BOARD.attackers(True, "e4")),  # type: ignore[arg-type]
    ("pieces(type=str)", lambda: BOARD.pieces("p", True)),  # type: ignore[arg-type]
    ("is_repetition(str)", lambda: BOARD.is_repetition("3")),  # type: ignore[arg-type]
    ("Move(str, int)", lambda: shatranj.Move("e2", 28)),  # type: ignore[arg-type]
    ("Move(promotion=str)", lambda: shatranj.Move(52, 60, "q")),  # type: ignore[arg-type]
    ("Move.from_uci(bytes)", lambda: shatranj.Move.from_uci(b"e2e4")),  # type: ignore[arg-type]
    ("Piece(str, bool)", lambda: shatranj.Piece("p", True)),  # type: ignore[arg-type]
    ("Piece.from_symbol(int)", lambda: shatranj.Piece.from_symbol(1)),  # type: ignore[arg-type]
    ("variation_san([str])", lambda: BOARD.variation_san(["e4"])),  # type: ignore[list-item]
    ("variation_san(int)", lambda: BOARD.variation_san(5)),  # type: ignore[arg-type]
    ("perft(board=str)", lambda: shatranj.perft("startpos", 1)),  # type: ignore[arg-type]
    ("perft(depth=str)", lambda: shatranj.perft(BOARD, "3")),  # type: ignore[arg-type]
    ("perft(progress=int)", lambda: shatranj.perft(BOARD, 2, progress=5)),  # type: ignore[arg-type]
    ("boards_to_planes([str])", lambda: shatranj.boards_to_planes(["fen"])),  # type: ignore[list-item]
    ("boards_to_planes(int)", lambda: shatranj.boards_to_planes(3)),  # type: ignore[arg-type]
    ("copy(stack=str)", lambda: BOARD.copy(stack="all")),  # type: ignore[arg-type]
    ("fen(en_passant=int)", lambda: BOARD.fen(en_passant=1)),  # type: ignore[arg-type]
    ("SquareSet(str)", lambda: shatranj.SquareSet("a1")),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("name,call", WRONG_TYPES, ids=[n for n, _ in WRONG_TYPES])
def test_wrong_types_raise_type_error(name: str, call: Callable[[], Any]) -> None:
    with pytest.raises(TypeError):
        call()


OUT_OF_RANGE: list[tuple[str, Callable[[], Any], type]] = [
    ("piece_at(64)", lambda: BOARD.piece_at(64), IndexError),
    ("piece_at(-1)", lambda: BOARD.piece_at(-1), IndexError),
    ("Move(0, 64)", lambda: shatranj.Move(0, 64), IndexError),
    ("Move(promotion=7)", lambda: shatranj.Move(52, 60, 7), ValueError),
    ("Move(drop=7)", lambda: shatranj.Move(60, 60, None, 7), ValueError),
    ("Move(promotion and drop)", lambda: shatranj.Move(60, 60, 5, 1), ValueError),
    ("pieces(0, WHITE)", lambda: BOARD.pieces(0, True), ValueError),
    ("perft(depth=-1)", lambda: shatranj.perft(BOARD, -1), ValueError),
    ("perft(threads=-2)", lambda: shatranj.perft(BOARD, 1, threads=-2), ValueError),
    ("perft(hash_mb=-1)", lambda: shatranj.perft(BOARD, 1, hash_mb=-1), ValueError),
    ("fen(en_passant='x')", lambda: BOARD.fen(en_passant="x"), ValueError),  # type: ignore[arg-type]
    (
        "Board(chess960=True) bad castling",
        lambda: shatranj.Board("8/8/8/8/8/8/8/8 w KX - 0 1", chess960=True),
        ValueError,
    ),
    ("pop() on empty", lambda: shatranj.Board().pop(), IndexError),
    ("peek() on empty", lambda: shatranj.Board().peek(), IndexError),
    ("parse_square('z9')", lambda: shatranj.parse_square("z9"), ValueError),
]


@pytest.mark.parametrize("name,call,error", OUT_OF_RANGE, ids=[n for n, _, _ in OUT_OF_RANGE])
def test_bad_values_raise_value_or_index_errors(
    name: str, call: Callable[[], Any], error: type
) -> None:
    with pytest.raises(error):
        call()


def test_move_errors_are_value_errors_as_in_python_chess() -> None:
    for exc in (shatranj.InvalidMoveError, shatranj.IllegalMoveError, shatranj.AmbiguousMoveError):
        assert issubclass(exc, ValueError)
    board = shatranj.Board("4k3/8/8/8/8/8/8/N3K2N w - - 0 1")
    with pytest.raises(shatranj.InvalidMoveError):
        board.parse_san("Zz9")
    with pytest.raises(shatranj.IllegalMoveError):
        board.parse_san("Qh5")
    with pytest.raises(shatranj.AmbiguousMoveError):
        shatranj.Board("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").parse_san("Nd2")
    with pytest.raises(shatranj.InvalidMoveError):
        board.push_uci("e2e")
    with pytest.raises(shatranj.IllegalMoveError):
        board.push_uci("e2e4")
    with pytest.raises(shatranj.IllegalMoveError):
        board.push(shatranj.Move.from_uci("e2e4"))
    with pytest.raises(shatranj.IllegalMoveError):  # a null move in check
        shatranj.Board("4k3/8/8/8/8/8/8/4K2r w - - 0 1").push(shatranj.Move.null())
    with pytest.raises(shatranj.InvalidMoveError):
        shatranj.Move.from_uci("e2e2")
    # A drop parses (python-chess's Move holds one) but no board plays it.
    drop = shatranj.Move.from_uci("P@e4")
    assert (drop.drop, drop.to_square, drop.uci(), drop.promotion) == (
        shatranj.PAWN,
        shatranj.E4,
        "P@e4",
        None,
    )
    with pytest.raises(shatranj.IllegalMoveError):
        shatranj.Board().push(drop)


def test_boards_hold_any_placement_and_report_it_in_status() -> None:
    # A missing king loads, as in python-chess, and status() says what is wrong.
    board = shatranj.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1")
    assert board.status() == shatranj.STATUS_NO_WHITE_KING | shatranj.STATUS_BAD_CASTLING_RIGHTS
    assert (
        not board.is_valid()
        and board.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1"
    )
    # A null move passes the turn and pops back.
    board = shatranj.Board()
    board.push(shatranj.Move.null())
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 1 1"
    assert board.pop() == shatranj.Move.null() and board.fen() == shatranj.STARTING_FEN
    # Edits that make the position legal again go back to the native position.
    board = shatranj.Board.empty()
    board.set_piece_at(shatranj.E1, shatranj.Piece(shatranj.KING, shatranj.WHITE))
    assert board._setup is not None and board.legal_moves.count() == 5
    board.set_piece_at(shatranj.E8, shatranj.Piece(shatranj.KING, shatranj.BLACK))
    assert board._setup is None and board.is_valid() and board.legal_moves.count() == 5


FEN_FIELDS = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "piece placement"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "piece placement"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkX - 0 1", "castling"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1", "en passant"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1", "fullmove number"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 7", "space-separated fields"),
]


@pytest.mark.parametrize("fen,field", FEN_FIELDS)
def test_bad_fen_is_a_value_error_naming_the_field(fen: str, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        shatranj.Board(fen)

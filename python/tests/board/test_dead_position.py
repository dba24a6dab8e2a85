"""Board.can_checkmate / Board.is_dead_position (FIDE R4.6, R4.9) from Python."""

from __future__ import annotations

import pytest

import shatranj


@pytest.mark.parametrize(
    "fen, white_can, black_can",
    [
        ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", False, False),  # K v K
        ("8/8/4k3/8/8/3KB3/8/8 w - - 0 1", False, False),  # K+B v K
        ("8/8/4k3/8/8/3KN3/8/8 w - - 0 1", False, False),  # K+N v K
        ("8/8/4k3/8/8/2NKN3/8/8 w - - 0 1", True, False),  # K+N+N v K: a helpmate exists
        ("8/8/4k3/8/8/2RK4/8/8 w - - 0 1", True, False),
        # A locked pawn wall that no capture can open: dead although material is plentiful.
        ("8/2k5/8/p1p1p1p1/P1P1P1P1/8/5K2/8 w - - 0 1", False, False),
        # The same wall with a breakable point (the h-pawns can meet the g-pawns).
        ("8/2k5/8/p1p1p1pp/P1P1P1P1/8/5K2/8 w - - 0 1", True, True),
    ],
)
def test_r4_6_r4_9_can_checkmate(fen: str, white_can: bool, black_can: bool) -> None:
    board = shatranj.Board(fen)
    assert board.can_checkmate(shatranj.WHITE) is white_can
    assert board.can_checkmate(shatranj.BLACK) is black_can
    assert board.is_dead_position() is (not white_can and not black_can)


def test_r4_6_winnability_kinds() -> None:
    # Proved unwinnable, with the proof named.
    wall = shatranj.Board("8/8/8/1k6/p1p1p1p1/P1P1P1P1/8/5K2 w - - 0 1")
    w = wall.winnability(shatranj.WHITE)
    assert isinstance(w, shatranj.Winnability)
    assert (w.kind, w.proof, w.line) == ("unwinnable", "no_check", None)
    assert w.can_checkmate is False
    assert (
        shatranj.Board("8/8/4k3/8/8/3KB3/8/8 w - - 0 1").winnability(shatranj.WHITE).proof
        == "material"
    )
    forced = shatranj.Board("k7/1Q6/8/3K4/8/8/8/8 b - - 0 1").winnability(shatranj.WHITE)
    assert (forced.kind, forced.proof) == ("unwinnable", "search_quick")
    # A helpmate found, with the line: it replays to the side's mate.
    board = shatranj.Board("8/8/4k3/4p3/8/3KN3/8/8 w - - 0 1")
    h = board.winnability(shatranj.WHITE)
    if h.kind == "helpmate":
        assert h.proof is None and h.line is not None and h.can_checkmate
        for move in h.line:
            assert move in board.legal_moves
            board.push(move)
        assert board.is_checkmate() and board.turn == shatranj.BLACK
    else:
        assert h.kind == "unknown" and h.can_checkmate
    # Mated already: a helpmate with an empty line.
    mated = shatranj.Board("k7/1Q6/2K5/8/8/8/8/8 b - - 0 1").winnability(shatranj.WHITE)
    assert (mated.kind, mated.line) == ("helpmate", [])
    # Unknown within the budget: counted as "can".
    start = shatranj.Board().winnability(shatranj.WHITE)
    assert start.kind == "unknown" and start.can_checkmate


def test_r4_6_winnability_agrees_with_can_checkmate() -> None:
    for fen in [
        "8/2k5/8/p1p1p1p1/P1P1P1P1/8/5K2/8 w - - 0 1",
        "8/2k5/8/p1p1p1pp/P1P1P1P1/8/5K2/8 w - - 0 1",
        "8/8/4k3/8/8/2NKN3/8/8 w - - 0 1",
        shatranj.STARTING_FEN,
    ]:
        board = shatranj.Board(fen)
        for color in shatranj.COLORS:
            assert board.winnability(color).can_checkmate is board.can_checkmate(color)


def test_r4_6_winnability_bad_colour_raises_not_panics() -> None:
    # Colours are truth values, as in python-chess; one that cannot say which raises its
    # own error through the call instead of ending the interpreter.
    class NoTruth:
        def __bool__(self) -> bool:
            raise ZeroDivisionError("no truth value")

    with pytest.raises(ZeroDivisionError):
        shatranj.Board().winnability(NoTruth())  # type: ignore[arg-type]
    assert shatranj.Board().winnability(1) == shatranj.Board().winnability(shatranj.WHITE)  # type: ignore[arg-type]


def test_r4_6_r4_9_winnability_full_tier() -> None:
    # A position our own tiers leave open (from the development set: White's king walled in on
    # h1, the pawns elsewhere still free to move): the full tier decides it, by CHA's solver.
    # (The wall of pawns that stood here before is now decided by the quick tier's barrier rule.)
    board = shatranj.Board("k7/p1p1p3/8/8/8/P1P1P1p1/6Pp/7K w - - 0 1")
    for color in (shatranj.WHITE, shatranj.BLACK):
        full = board.winnability(color, full=True)
        assert (full.kind, full.proof, full.line) == ("unwinnable", "solver", None)
        assert not full.can_checkmate
    # A helpmate in the full tier: our Move objects, replaying to the side's mate.
    board = shatranj.Board("8/8/4k3/8/8/3KBN2/8/8 w - - 0 1")
    h = board.winnability(shatranj.WHITE, True)
    assert h.kind == "helpmate" and h.line
    for move in h.line:
        assert isinstance(move, shatranj.Move) and move in board.legal_moves
        board.push(move)
    assert board.is_checkmate() and board.turn == shatranj.BLACK
    # Decided by our own proofs first: the proof keeps its name.
    wall = shatranj.Board("8/8/8/1k6/p1p1p1p1/P1P1P1P1/8/5K2 w - - 0 1")
    assert wall.winnability(shatranj.WHITE, full=True).proof == "no_check"
    assert issubclass(shatranj.SolverError, ValueError)

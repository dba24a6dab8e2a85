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


"""Polyglot opening-book keys, as python-chess's ``chess.polyglot.zobrist_hash``."""

from __future__ import annotations

from ._core import Board

__all__ = ["zobrist_hash"]


def zobrist_hash(board: Board) -> int:
    """The 64-bit Polyglot Zobrist key of the position (equal to python-chess's)."""
    if not isinstance(board, Board):
        raise TypeError(f"expected a shatranj.Board, got {type(board).__name__}")
    return board.zobrist_hash()

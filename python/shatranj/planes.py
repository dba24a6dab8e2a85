"""Training tensors from positions: batch encoders to numpy and policy indices both ways.

All encoders run in Rust over the whole batch (no Python loop), without the GIL where they
take long. Layouts are from the side to move's view: when Black is to move the board is
mirrored top to bottom, so "our" pawns always move up (row 0 is our first rank, column 0 the
a-file).

``board(boards)`` → ``(n, 12, 8, 8)`` uint8: planes White P N B R Q K, then Black's; plane
``p``, row ``r``, column ``f`` is 1 when that piece stands on file ``f``, rank ``r`` (White's
view, not mirrored: today's ``Board.to_planes``; ``Board.to_planes_bytes`` gives one board's
planes as 768 ``bytes`` in the same C order, without a numpy array).

``lc0(boards)`` → ``(n, 112, 8, 8)`` float32, Lc0's classical input with 8 positions of
history taken from each board's move stack: for step ``t`` = 0 (now) … 7 (seven plies
ago), planes ``13t … 13t+12`` are our P N B R Q K, their P N B R Q K and a plane of ones when
that position occurred earlier in the game (all zeros for a step before the start). Then 104
we can castle queenside, 105 kingside, 106 they queenside, 107 kingside, 108 ones when Black
is to move, 109 the halfmove clock in every square, 110 zeros, 111 ones.

Policy indices: ``lc0_move_index(board, move)`` in 0 … 1857 (Lc0's move table: for each
from-square a1 … h8 of our view, every queen-line and knight destination in increasing
square order, then the queen, rook and bishop promotions of each last-rank pawn move; a
knight promotion is its plain move; castling is the king's two-square move), and
``alphazero_move_index`` in 0 … 4671 (``plane * 64 + from``: 56 queen-line planes,
direction N NE E SE S SW W NW times distance 1 … 7; 8 knight planes; 9 underpromotion
planes knight/bishop/rook × capture-left/forward/capture-right). ``*_index_move(board, i)``
is the legal move with index ``i``, or ``None`` when no legal move has it; ``*_legal(board)``
maps every legal move's index to the move, to mask a policy head's output.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import _core
from ._core import Board, Move

LC0_PLANES = 112
LC0_POLICY = 1858
ALPHAZERO_POLICY = 4672


def board(boards: Iterable[Board]) -> Any:
    """``(n, 12, 8, 8)`` uint8 piece planes (White P N B R Q K, then Black's)."""
    return _core.boards_to_planes(list(boards))


def lc0(boards: Iterable[Board]) -> Any:
    """``(n, 112, 8, 8)`` float32: Lc0's input planes with 8 plies of history (module docs)."""
    return _core.planes_lc0(list(boards))


def _index_move(scheme: str, size: int, board: Board, index: int) -> Move | None:
    if not 0 <= index < size:
        raise ValueError(f"{scheme} policy index {index} out of range 0..{size - 1}")
    for i, uci in _core.policy_legal(scheme, board):
        if i == index:
            return Move.from_uci(uci)
    return None


def _legal(scheme: str, board: Board) -> dict[int, Move]:
    return {i: Move.from_uci(uci) for i, uci in _core.policy_legal(scheme, board)}


def lc0_move_index(board: Board, move: Move) -> int:
    """Lc0's policy index (0 … 1857) of a legal move; ``ValueError`` for an illegal one."""
    return _core.policy_index("lc0", board, move)


def lc0_index_move(board: Board, index: int) -> Move | None:
    """The legal move with Lc0 policy index ``index``, or ``None``."""
    return _index_move("lc0", LC0_POLICY, board, index)


def lc0_legal(board: Board) -> dict[int, Move]:
    """Every legal move by its Lc0 policy index."""
    return _legal("lc0", board)


def alphazero_move_index(board: Board, move: Move) -> int:
    """AlphaZero's policy index (0 … 4671, ``plane * 64 + from``) of a legal move."""
    return _core.policy_index("alphazero", board, move)


def alphazero_index_move(board: Board, index: int) -> Move | None:
    """The legal move with AlphaZero policy index ``index``, or ``None``."""
    return _index_move("alphazero", ALPHAZERO_POLICY, board, index)


def alphazero_legal(board: Board) -> dict[int, Move]:
    """Every legal move by its AlphaZero policy index."""
    return _legal("alphazero", board)


__all__ = [
    "LC0_PLANES", "LC0_POLICY", "ALPHAZERO_POLICY", "board", "lc0", "lc0_move_index", "lc0_index_move", "lc0_legal",
    "alphazero_move_index", "alphazero_index_move", "alphazero_legal",
]  # fmt: skip

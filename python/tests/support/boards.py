"""Boards from seeded random games, for the evaluation tests (CPU, GPU, networks)."""

from __future__ import annotations

import random

import shatranj


def random_boards(seed: int, n: int) -> list[shatranj.Board]:
    """``n`` positions from random games: snapshots along the way (one ply in six) and each
    game's last position."""
    rng = random.Random(seed)
    boards: list[shatranj.Board] = []
    while len(boards) < n:
        board = shatranj.Board()
        for _ in range(rng.randrange(1, 300)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            if rng.randrange(6) == 0:
                boards.append(board.copy(stack=False))
        boards.append(board)
    return boards[:n]

"""Horde's insufficient material, ``shatranj.variant.HordeBoard`` against python-chess's
``chess.variant.HordeBoard`` (the oracle; issue 54) on seeded random positions: the horde
(White) with few men, where lichess's mating-material analysis decides, against a Black
king and a random army. ``has_insufficient_material`` for both colours and
``is_insufficient_material`` must be equal. The labelled cases and their sources are the
rules crate's (``rust/chess/tests/data/horde_material.txt``).

``SHATRANJ_HORDE_POSITIONS`` sets how many positions (default 4000); the seed is printed.
"""

from __future__ import annotations

import os
import random

import chess
import chess.variant

import shatranj
import shatranj.variant

SEED = 5454
POSITIONS = int(os.environ.get("SHATRANJ_HORDE_POSITIONS", "4000"))


def random_horde(rng: random.Random) -> chess.variant.HordeBoard:
    """A valid horde position, Black to move: up to five White men (the analysis's cases lie
    below four) and up to eight Black men besides the king."""
    while True:
        board = chess.variant.HordeBoard(None)
        board.turn = chess.BLACK
        squares = list(range(64))
        rng.shuffle(squares)
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.BLACK))
        men = [
            (chess.WHITE, rng.choice("PNBBRQ"))
            for _ in range(rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 4, 5]))
        ]
        men += [
            (chess.BLACK, rng.choice("pnbbrq"))
            for _ in range(rng.choice([0, 1, 2, 2, 3, 3, 4, 6, 8]))
        ]
        for color, symbol in men:
            piece = chess.Piece.from_symbol(symbol if color else symbol.lower())
            for i, square in enumerate(squares):
                rank = chess.square_rank(square)
                if piece.piece_type == chess.PAWN and (rank == 7 if color else rank in (0, 7)):
                    continue
                board.set_piece_at(squares.pop(i), piece)
                break
        if board.is_valid():
            return board


def test_horde_material_matches_python_chess() -> None:
    print(f"seed {SEED}, {POSITIONS} positions")
    rng = random.Random(SEED)
    answers = {True: 0, False: 0}
    for _ in range(POSITIONS):
        theirs = random_horde(rng)
        ours = shatranj.variant.HordeBoard(theirs.fen())
        for color in (chess.WHITE, chess.BLACK):
            expected = theirs.has_insufficient_material(color)
            assert ours.has_insufficient_material(color) == expected, (theirs.fen(), color)
        assert ours.is_insufficient_material() == theirs.is_insufficient_material(), theirs.fen()
        answers[theirs.has_insufficient_material(chess.WHITE)] += 1
    # Both answers occur often, so the comparison is not of a constant.
    assert min(answers.values()) >= POSITIONS // 10, answers


def test_python_chess_s_two_horde_cases() -> None:
    # BoardTestCase.test_insufficient_material's HordeBoard cases (python-chess 1.11.2).
    board = shatranj.variant.HordeBoard("8/5k2/8/8/8/4NN2/8/8 w - - 0 1")
    assert board.has_insufficient_material(shatranj.WHITE)
    assert not board.has_insufficient_material(shatranj.BLACK)
    board = shatranj.variant.HordeBoard("8/1b5r/1P6/1Pk3q1/1PP5/r1P5/P1P5/2P5 b - - 0 52")
    assert not board.has_insufficient_material(shatranj.WHITE)
    assert not board.is_insufficient_material()

"""Seeded random games of every variant, ``shatranj.variant`` against python-chess's
``chess.variant`` (the oracle; issue 54): after every move the FEN, the legal moves in
python-chess's order, the SAN of each (read back by ``parse_san``), check, checkmate,
stalemate, the variant's end, insufficient material and the outcome must be equal; the
games are then taken back move by move and the FENs compared again.

The move is drawn from python-chess's list with a seed per variant (printed), so the games
are the same every run. ``SHATRANJ_VARIANT_GAMES`` sets the games per variant (the default
suite plays 3; the issue's run is 100).
"""

from __future__ import annotations

import os
import random
from typing import Any

import chess
import chess.variant
import pytest

import shatranj
import shatranj.variant

GAMES = int(os.environ.get("SHATRANJ_VARIANT_GAMES", "3"))
SEED = 20261206
MAX_PLIES = 160
NAMES = [
    "suicide", "giveaway", "antichess", "atomic", "kingofthehill", "racingkings", "horde",
    "3check", "crazyhouse",
]  # fmt: skip


def describe(board: Any) -> dict[str, Any]:
    """What is compared at each ply, from either library's board."""
    moves = list(board.legal_moves)
    outcome = board.outcome()
    return {
        "fen": board.fen(),
        "legal": [m.uci() for m in moves],
        "san": [board.san(m) for m in moves],
        "check": board.is_check(),
        "checkmate": board.is_checkmate(),
        "stalemate": board.is_stalemate(),
        "variant": (
            board.is_variant_end(),
            board.is_variant_win(),
            board.is_variant_loss(),
            board.is_variant_draw(),
        ),
        "insufficient": [board.has_insufficient_material(c) for c in (True, False)],
        "outcome": None if outcome is None else (outcome.termination.name, outcome.winner),
    }


@pytest.mark.parametrize("name", NAMES)
def test_random_games_match_python_chess(name: str) -> None:
    theirs_class = chess.variant.find_variant(name)
    ours_class = shatranj.variant.find_variant(name)
    assert ours_class.uci_variant == theirs_class.uci_variant
    seed = f"{SEED}-{name}"
    print(f"{name}: seed {seed!r}, {GAMES} games")
    rng = random.Random(seed)
    positions = 0
    for game in range(GAMES):
        theirs, ours = theirs_class(), ours_class()
        fens = []
        for ply in range(MAX_PLIES):
            want, got = describe(theirs), describe(ours)
            where = f"{name} game {game} ply {ply} ({want['fen']})"
            assert got == want, where
            for text in want["san"]:
                assert ours.parse_san(text).uci() == theirs.parse_san(text).uci(), (
                    f"{where}: {text}"
                )
            positions += 1
            fens.append(want["fen"])
            if want["outcome"] is not None:
                break
            move = rng.choice(list(theirs.legal_moves))
            theirs.push(move)
            ours.push(shatranj.Move.from_uci(move.uci()))
        while ours.move_stack:
            ply = len(ours.move_stack)
            if ply < len(fens):
                assert ours.fen() == fens[ply], f"{name} game {game}: taking back ply {ply}"
            ours.pop()
        assert ours.fen() == fens[0]
    assert positions >= GAMES

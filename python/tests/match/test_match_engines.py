"""The match runner against a real engine from Debian: our engine against Stockfish at fixed
nodes, in pairs with colours swapped. Every game ends without a fault, its PGN replays move by
move in python-chess (the reference reader) to the result it states, and the counts are the
PGN's. Skips without Stockfish (``apt-get install stockfish``) or our release binary."""

from __future__ import annotations

import io
from pathlib import Path

import chess
import chess.pgn
import pytest

from shatranj import match
from support.engines import which
from support.repo import ROOT

OPENINGS = ROOT / "benchmarks" / "openings" / "balanced-8ply.fen"


def test_our_engine_against_stockfish_at_fixed_nodes(shatranj_binary: Path) -> None:
    stockfish = which("stockfish")
    if stockfish is None:
        pytest.skip("needs Debian's stockfish")
    r = match.run(
        [
            {"cmd": shatranj_binary, "name": "shatranj", "nodes": 2000},
            {"cmd": stockfish, "name": "stockfish", "nodes": 2000},
        ],
        each={"options": {"Hash": 16, "Threads": 1}},
        rounds=3,
        games=2,
        concurrency=2,
        openings={"file": OPENINGS, "format": "epd", "order": "random"},
        srand=9,
        maxmoves=150,
    )
    print("seed 9:", r.trinomial, r.pentanomial)
    assert r.games == 6 and r.faults == {} and r.stopped_by is None
    ours = 0
    for rr in r.rounds:
        for game in rr.games:
            assert game.fault is None and game.termination in ("normal", "adjudication"), game
            read = chess.pgn.read_game(io.StringIO(game.pgn))
            assert read is not None and not read.errors
            board = read.board()
            assert board.fen() != chess.STARTING_FEN, "played from the opening's position"
            for move in read.mainline_moves():
                assert move in board.legal_moves
                board.push(move)
            # python-chess knows no dead position beyond bare material: those are ours alone.
            if game.termination == "normal" and "dead position" not in game.reason:
                assert board.is_game_over(claim_draw=True), game.reason
                assert board.result(claim_draw=True) == game.result
            ours += game.first_half_points
    assert ours == 2 * r.wins + r.draws

"""shatranj.match.run(variant="fischerandom"): Chess960 games of our engine against itself,
each from a Chess960 start, replayed move by move by python-chess (the oracle) in its
Chess960 mode without an error; the starts follow the seed."""

from __future__ import annotations

import io
from pathlib import Path

import chess
import chess.pgn

from shatranj import match


def test_chess960_games_replay_in_python_chess(shatranj_binary: Path) -> None:
    def once() -> match.MatchResult:
        return match.run(
            [
                {"cmd": shatranj_binary, "name": "n400", "nodes": 400},
                {"cmd": shatranj_binary, "name": "n200", "nodes": 200},
            ],
            each={"options": {"Hash": 4, "Threads": 1}},
            rounds=4,
            maxmoves=80,
            srand=11,
            variant="fischerandom",
        )

    r = once()
    assert r.faults == {}
    starts = []
    castled = 0
    for rr in r.rounds:
        for g in rr.games:
            game = chess.pgn.read_game(io.StringIO(g.pgn))
            assert game is not None and not game.errors, g.pgn
            assert game.headers["Variant"] == "Chess960"
            board = game.board()
            assert board.chess960
            starts.append(board.chess960_pos())
            for move in game.mainline_moves():
                castled += board.is_castling(move)
                board.push(move)
            assert board.fen() == game.end().board().fen()
    assert len(starts) == 8 and None not in starts
    assert len(set(starts)) == 4, starts  # one start a round, both colours on it
    assert castled > 0
    assert starts == [
        chess.pgn.read_game(io.StringIO(g.pgn)).board().chess960_pos()  # type: ignore[union-attr]
        for rr in once().rounds
        for g in rr.games
    ]

"""Our UCI binary in Chess960 with python-chess as the GUI (which sets ``UCI_Chess960`` for a
Chess960 board): castling both ways over the protocol, and the lines it sends after them.

The binary is the release build (SHATRANJ_BIN in scripts/test); without it the tests skip.
"""

from __future__ import annotations

from pathlib import Path

import chess
import chess.engine


def test_the_engine_castles_as_king_takes_rook(shatranj_binary: Path) -> None:
    # The only mate: castling b1a1 (king c1, rook d1 down the open d-file).
    board = chess.Board("2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1", chess960=True)
    with chess.engine.SimpleEngine.popen_uci(str(shatranj_binary)) as engine:
        result = engine.play(board, chess.engine.Limit(depth=3))
        assert result.move == chess.Move.from_uci("b1a1")
        assert board.is_castling(result.move)
        # Black's mirror image: b8a8 (king c8, rook d8).
        board = chess.Board("rk6/8/8/8/8/8/2P1P3/2RKR3 b a - 0 1", chess960=True)
        result = engine.play(board, chess.engine.Limit(depth=3))
        assert result.move == chess.Move.from_uci("b8a8")


def test_the_engine_follows_castling_in_the_moves_it_is_sent(shatranj_binary: Path) -> None:
    # White castles b1e1 (king g1, rook f1), Black b8a8 (king c8, rook d8): python-chess
    # sends them as king-takes-rook, and the engine's line after each is legal.
    board = chess.Board("rk5r/ppp5/8/8/8/8/PPP5/RK2R3 w KQkq - 0 1", chess960=True)
    with chess.engine.SimpleEngine.popen_uci(str(shatranj_binary)) as engine:
        for uci in ["b1e1", "b8a8"]:
            move = chess.Move.from_uci(uci)
            assert board.is_castling(move)
            board.push(move)
            info = engine.analyse(board, chess.engine.Limit(depth=4))
            pv = info.get("pv", [])
            assert len(pv) >= 2, info
            line = board.copy()
            for reply in pv:
                assert reply in line.legal_moves, (line.fen(), pv)
                line.push(reply)
    assert board.fen() == "2kr3r/ppp5/8/8/8/8/PPP5/R4RK1 w - - 2 2"

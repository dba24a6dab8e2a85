"""shatranj.Engine: in-process analysis with python-chess's shapes; and the UCI binary under
python-chess's own engine driver."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

import shatranj
from shatranj.engine import Cp, Mate, MateGiven, PovScore
from support.interrupt import assert_ctrl_c_interrupts


@pytest.fixture(scope="module")
def engine() -> shatranj.Engine:
    return shatranj.Engine(threads=1, hash_mb=16)


@pytest.mark.parametrize(
    "fen, mate",
    [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1),  # Ra8#
        ("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1", 1),  # Qxf7#
        ("k7/8/1K6/8/8/8/8/7R w - - 0 1", 1),
        ("k7/8/2K5/8/8/8/8/7R w - - 0 1", 2),
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3),
    ],
)
def test_finds_mates_with_the_right_score(engine: shatranj.Engine, fen: str, mate: int) -> None:
    board = shatranj.Board(fen)
    info = engine.analyse(board, depth=2 * mate + 2)
    score = info["score"]
    assert isinstance(score, PovScore)
    assert score.relative == Mate(mate), (fen, score)
    assert score.white() == Mate(mate)
    assert score.black() == Mate(-mate)
    assert score.relative.mate() == mate
    assert score.relative.score() is None
    # The principal variation is legal and ends in mate after `mate` moves of the winner.
    line = info["pv"]
    assert len(line) == 2 * mate - 1, line
    for move in line:
        assert move in board.legal_moves
        board.push(move)
    assert board.is_checkmate()


def test_info_dict_has_python_chess_keys(engine: shatranj.Engine) -> None:
    board = shatranj.Board()
    info = engine.analyse(board, depth=5)
    for key in ("score", "pv", "depth", "seldepth", "nodes", "nps", "time", "hashfull"):
        assert key in info, key
    assert info["depth"] == 5
    assert info["seldepth"] >= 5
    assert info["nodes"] > 0 and info["time"] >= 0.0
    assert isinstance(info["score"].relative, Cp)
    assert all(isinstance(m, shatranj.Move) for m in info["pv"])
    assert info["pv"][0] in board.legal_moves


def test_multipv_returns_distinct_lines_best_first(engine: shatranj.Engine) -> None:
    board = shatranj.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1")
    infos = engine.analyse(board, depth=4, multipv=3)
    assert isinstance(infos, list) and len(infos) == 3
    assert [info["multipv"] for info in infos] == [1, 2, 3]
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3
    assert firsts[0] == shatranj.Move.from_uci("f3f7")
    scores = [info["score"].relative for info in infos]
    assert scores == sorted(scores, reverse=True)


def test_play_returns_a_legal_move_and_none_when_the_game_is_over(engine: shatranj.Engine) -> None:
    board = shatranj.Board()
    for limits in ({"depth": 3}, {"nodes": 2000}, {"time": 0.05}):
        move = engine.play(board, **limits)  # type: ignore[arg-type]
        assert move is not None and move in board.legal_moves, limits
    mated = shatranj.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert mated.is_checkmate()
    assert engine.play(mated, depth=3) is None
    info = engine.analyse(mated, depth=3)
    assert info["score"].relative == Mate(0)
    assert info["score"].black() == MateGiven()
    assert info["pv"] == []


def test_avoids_stalemate_when_winning(engine: shatranj.Engine) -> None:
    # Qb6?? stalemates; any mate or quiet win keeps the game going.
    board = shatranj.Board("k7/8/8/2Q5/8/8/8/6K1 w - - 0 1")
    for depth in (1, 2, 4):
        move = engine.play(board, depth=depth)
        assert move is not None
        board.push(move)
        assert not board.is_stalemate(), (depth, move)
        board.pop()


def test_perpetual_check_is_seen_as_a_draw(engine: shatranj.Engine) -> None:
    # White is a rook down but checks forever: Qg5+ Kf8 Qd8+ Kg7 Qg5+ ... repeats. Without
    # the repetition rule inside the tree the engine would score this as lost.
    board = shatranj.Board("6k1/5p1p/8/8/8/8/qr1Q2PP/7K w - - 0 1")
    engine.clear_hash()
    info = engine.analyse(board, depth=10)
    assert info["pv"][0] == shatranj.Move.from_uci("d2g5")
    assert info["score"].relative == Cp(0), info["score"]


def test_evaluate_is_side_to_move_relative_and_symmetric(engine: shatranj.Engine) -> None:
    start = shatranj.Board()
    assert engine.evaluate(start) > 0  # the side to move has the tempo
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
    board = shatranj.Board(fen)
    assert engine.evaluate(board) == engine.evaluate(board.mirror())
    # A queen up is worth pawns to the side that has it, and less than nothing to the other
    # side. How many the network says in a lone-king ending, which its training games rarely
    # reach (adjudicated as won earlier), varies by generation: gen7 413, gen8 283.
    up = shatranj.Board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    assert engine.evaluate(up) > 200
    up_black = shatranj.Board("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")
    assert engine.evaluate(up_black) < -200


def test_bad_arguments_raise_typed_errors(engine: shatranj.Engine) -> None:
    board = shatranj.Board()
    with pytest.raises(ValueError, match="limit"):
        engine.analyse(board)
    with pytest.raises(ValueError, match="depth"):
        engine.analyse(board, depth=0)
    with pytest.raises(ValueError, match="nodes"):
        engine.analyse(board, nodes=-5)
    with pytest.raises(ValueError, match="time"):
        engine.analyse(board, time=float("nan"))
    with pytest.raises(ValueError, match="multipv"):
        engine.analyse(board, depth=1, multipv=0)
    with pytest.raises(TypeError):
        engine.analyse("8/8/8/8/8/8/8/8 w - - 0 1", depth=1)  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        engine.analyse(board, depth="3")  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        engine.evaluate(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads"):
        shatranj.Engine(threads=0)
    with pytest.raises(ValueError, match="hash_mb"):
        shatranj.Engine(hash_mb=0)
    with pytest.raises(TypeError):
        shatranj.Engine(threads=1.5)  # type: ignore[arg-type]


def test_stop_from_another_thread_ends_a_long_search(engine: shatranj.Engine) -> None:
    board = shatranj.Board()
    result: list[object] = []
    worker = threading.Thread(target=lambda: result.append(engine.play(board, time=60.0)))
    worker.start()
    time.sleep(0.3)
    stopped = time.monotonic()
    engine.stop()
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert time.monotonic() - stopped < 2.0
    assert len(result) == 1 and result[0] in board.legal_moves


def test_search_releases_the_gil() -> None:
    engine = shatranj.Engine(threads=2, hash_mb=8)
    ticks = 0
    worker = threading.Thread(target=lambda: engine.analyse(shatranj.Board(), time=0.5))
    worker.start()
    while worker.is_alive():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert ticks >= 50, ticks


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT delivery is POSIX")
def test_ctrl_c_stops_the_search_with_keyboard_interrupt() -> None:
    assert_ctrl_c_interrupts("shatranj.Engine().analyse(shatranj.Board(), time=600)")


def test_uci_binary_works_under_python_chess(shatranj_binary: Path) -> None:
    chess = pytest.importorskip("chess")
    import chess.engine  # noqa: F811 (the same module, its engine submodule loaded)

    with chess.engine.SimpleEngine.popen_uci([str(shatranj_binary)]) as uci:
        assert "shatranj" in uci.id.get("name", "").lower()
        assert "Hash" in uci.options and "Threads" in uci.options
        uci.configure({"Hash": 8, "Threads": 1})
        board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
        info = uci.analyse(board, chess.engine.Limit(depth=4))
        assert info["score"].white() == chess.engine.Mate(1)
        assert info["pv"][0] == chess.Move.from_uci("a1a8")
        infos = uci.analyse(chess.Board(), chess.engine.Limit(depth=3), multipv=2)
        assert len(infos) == 2
        board = chess.Board()
        for _ in range(6):
            result = uci.play(board, chess.engine.Limit(nodes=3000))
            assert result.move in board.legal_moves
            board.push(result.move)


def test_chess960_boards_need_chess960_and_castle_as_king_takes_rook() -> None:
    # The only mate is castling b1a1 (king c1, rook d1 down the open d-file).
    board = shatranj.Board("2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1", chess960=True)
    with pytest.raises(ValueError, match="chess960=True"):
        shatranj.Engine(hash_mb=4).analyse(board, depth=2)
    engine = shatranj.Engine(hash_mb=4, chess960=True)
    assert engine.chess960 and "chess960=True" in repr(engine)
    info = engine.analyse(board, depth=3)
    assert info["pv"][0] == shatranj.Move.from_uci("b1a1")
    assert info["score"].white() == Mate(1)
    assert board.is_castling(info["pv"][0])
    # The castling in the move stack is sent on: after b1a1 and a black move, the search
    # starts from the castled position (its line is legal there).
    board.push(info["pv"][0])
    assert board.is_checkmate()
    board = shatranj.Board("rk5r/ppp5/8/8/8/8/PPP5/RK2R3 w KQkq - 0 1", chess960=True)
    for uci in ["b1e1", "b8a8"]:
        board.push(shatranj.Move.from_uci(uci))
        line = board.copy()
        for move in engine.analyse(line, depth=3)["pv"]:
            assert move in line.legal_moves, (line.fen(), move)
            line.push(move)
    assert isinstance(engine.evaluate(board), int)
    # Standard boards are unchanged: castling is the king's move.
    standard = shatranj.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert engine.play(standard, depth=1) in standard.legal_moves

"""shatranj.selfplay: reproducible by seed (and by game index), PGN that python-chess reads
back and replays legally, results that match the final position, openings honoured, the
batching service giving the same games, bad arguments refused, Ctrl-C honoured."""

from __future__ import annotations

import io
import threading
from typing import Any

import chess
import chess.pgn
import pytest

import shatranj
from support.interrupt import assert_ctrl_c_interrupts

SEED = 2024
QUICK: dict[str, Any] = dict(depth=2, max_plies=60, concurrency=2)


@pytest.fixture(scope="module")
def match() -> shatranj.SelfPlayResult:
    print(f"seed {SEED}")
    return shatranj.selfplay(games=6, seed=SEED, **QUICK)


def replay(pgn: str) -> chess.pgn.Game:
    game = chess.pgn.read_game(io.StringIO(pgn))
    assert game is not None, pgn
    assert not game.errors, (game.errors, pgn)
    return game


def test_same_seed_same_games_and_any_index_range(match: shatranj.SelfPlayResult) -> None:
    again = shatranj.selfplay(games=6, seed=SEED, **{**QUICK, "concurrency": 3})
    assert [str(g) for g in again.games] == [str(g) for g in match.games]
    tail = shatranj.selfplay(games=2, first_game=4, seed=SEED, **QUICK)
    assert [g.index for g in tail.games] == [4, 5]
    assert [g.pgn for g in tail.games] == [g.pgn for g in match.games[4:]]
    other = shatranj.selfplay(games=6, seed=SEED + 1, **QUICK)
    assert [g.pgn for g in other.games] != [g.pgn for g in match.games]


def test_batched_games_equal_inline_games(match: shatranj.SelfPlayResult) -> None:
    batched = shatranj.selfplay(
        games=6, seed=SEED, batched=True, batch_size=8, wait_us=300, **{**QUICK, "concurrency": 6}
    )
    assert [g.pgn for g in batched.games] == [g.pgn for g in match.games]
    assert batched.stats["batches"] > 0
    assert batched.stats["max_batch"] > 1
    assert batched.stats["evaluations"] == match.stats["evaluations"]
    assert "(batched)" in batched.stats["evaluator"]
    assert match.stats["batches"] == 0


def test_pgn_replays_legally_and_results_match_the_final_position(
    match: shatranj.SelfPlayResult,
) -> None:
    assert len(match.games) == 6
    for g in match.games:
        game = replay(str(g))
        headers = game.headers
        assert headers["Round"] == str(g.index)
        assert headers["Result"] == g.result
        assert headers["Termination"] == g.termination
        assert int(headers["PlyCount"]) == g.plies
        assert "FEN" not in headers  # random openings start from the standard position
        board = game.board()
        for move in game.mainline_moves():
            assert board.is_legal(move)
            board.push(move)
        assert board.ply() == g.plies
        if g.termination == "checkmate":
            assert board.is_checkmate()
            assert g.result == ("0-1" if board.turn == chess.WHITE else "1-0")
        elif g.termination == "adjudication: ply cap":
            assert g.plies == QUICK["max_plies"]
            assert g.result == "1/2-1/2"
        else:
            assert g.result == "1/2-1/2"
            outcome = board.outcome(claim_draw=True)
            if g.termination != "dead position":
                assert outcome is not None, (g.termination, board.fen())
    stats = match.stats
    assert stats["games"] == 6
    assert stats["white_wins"] + stats["draws"] + stats["black_wins"] == 6
    assert stats["plies"] == sum(g.plies for g in match.games)
    assert stats["evaluations"] > 0 and stats["evaluations_per_second"] > 0
    assert match.pgn().count("[Event ") == 6


def test_openings_are_honoured() -> None:
    fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
    result = shatranj.selfplay(
        games=3, depth=3, openings=["e2e4 c7c5", fen, f"{shatranj.STARTING_FEN} moves d2d4"]
    )
    first, mate, third = result.games
    assert [m.uci() for m in replay(first.pgn).mainline_moves()][:2] == ["e2e4", "c7c5"]
    game = replay(mate.pgn)
    assert game.headers["FEN"] == fen and game.headers["SetUp"] == "1"
    assert mate.termination == "checkmate" and mate.result == "1-0" and mate.plies == 1
    assert [m.uci() for m in replay(third.pgn).mainline_moves()][0] == "d2d4"


def test_progress_is_reported() -> None:
    seen: list[dict[str, Any]] = []
    shatranj.selfplay(games=2, depth=2, max_plies=20, progress=seen.append)
    assert seen, "progress never called"
    assert seen[-1]["games_done"] == 2 and seen[-1]["games_total"] == 2
    assert all(
        set(p) == {"games_done", "games_total", "plies", "evaluations", "elapsed"} for p in seen
    )


def test_nodes_limit_is_reproducible() -> None:
    a = shatranj.selfplay(games=2, nodes=300, max_plies=30, seed=5)
    b = shatranj.selfplay(games=2, nodes=300, max_plies=30, seed=5, concurrency=2)
    assert [g.pgn for g in a.games] == [g.pgn for g in b.games]


@pytest.mark.parametrize(
    "kwargs, error",
    [
        (dict(games=1), ValueError),  # neither depth nor nodes
        (dict(games=1, depth=2, nodes=10), ValueError),
        (dict(games=1, depth=0), ValueError),
        (dict(games=1, depth=2, concurrency=0), ValueError),
        (dict(games=-1, depth=2), ValueError),
        (dict(games=1, depth=2, device="tpu"), ValueError),
        (dict(games=1, depth=2, openings=[]), ValueError),
        (dict(games=1, depth=2, openings=["e2e5"]), ValueError),
        (dict(games=1, depth=2, openings=["8/8/8 w - - 0 1"]), ValueError),
        (dict(games=1, depth=2, max_plies=0), ValueError),
        (dict(games=1, depth=2, seed=-1), ValueError),
        (dict(games="3", depth=2), TypeError),
        (dict(games=1, depth=2.5), TypeError),
        (dict(games=1, depth=True), TypeError),
        (dict(games=1, depth=2, openings="e2e4"), TypeError),
        (dict(games=1, depth=2, openings=[1]), TypeError),
        (dict(games=1, depth=2, device=None), TypeError),
        (dict(games=1, depth=2, progress=3), TypeError),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        shatranj.selfplay(**kwargs)


def test_engine_device_option() -> None:
    for device in ("auto", "cpu", "CPU"):
        engine = shatranj.Engine(device=device)
        assert engine.evaluator == "cpu (inline)"
        assert engine.play(shatranj.Board(), depth=3) is not None
    with pytest.raises(ValueError, match="tpu"):
        shatranj.Engine(device="tpu")
    with pytest.raises(TypeError):
        shatranj.Engine(device=1)  # type: ignore[arg-type]


def test_other_threads_run_while_games_play() -> None:
    ticks = 0
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1

    t = threading.Thread(target=count)
    t.start()
    try:
        shatranj.selfplay(games=2, depth=3, max_plies=40)
    finally:
        done.set()
        t.join()
    assert ticks > 1000, "the GIL was held during self-play"


def test_ctrl_c_stops_a_match() -> None:
    assert_ctrl_c_interrupts("shatranj.selfplay(games=100000, depth=6, concurrency=2)")


def test_chess960_games_replay_in_python_chess() -> None:
    result = shatranj.selfplay(
        games=2, depth=2, seed=38, max_plies=30, random_plies=2, chess960=True
    )
    print("seed 38")
    numbers = []
    for game in result.games:
        read = chess.pgn.read_game(io.StringIO(game.pgn))
        assert read is not None and not read.errors
        assert read.headers["Variant"] == "Chess960"
        board = read.board()
        assert board.chess960
        numbers.append(board.chess960_pos())
        for move in read.mainline_moves():
            assert move in board.legal_moves
            board.push(move)
        assert len(board.move_stack) == game.plies
    assert all(n is not None for n in numbers), numbers
    with pytest.raises(ValueError, match="chess960"):
        shatranj.selfplay(games=1, depth=1, openings=["e2e4"], chess960=True)

"""shatranj.distributed on a local Ray cluster: equality with local perft and analysis, input
order, retries after a worker dies, Ctrl-C and bad input.

One local cluster (2 CPUs) serves the whole module. Without Ray the module is skipped, unless
SHATRANJ_REQUIRE_RAY=1 (scripts/test sets it), where a missing Ray fails instead.
"""

from __future__ import annotations

import _thread
import operator
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import shatranj
from shatranj.engine import Cp, Mate, MateGiven, PovScore
from support.optional import require

# With SHATRANJ_REQUIRE_RAY=1 (CI installs Ray) a missing Ray fails here instead of skipping.
require("ray", "SHATRANJ_REQUIRE_RAY", reason="Ray is not installed (pip install 'shatranj[ray]')")
import ray  # noqa: E402 (after the check that Ray is installed)

from shatranj import distributed  # noqa: E402

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"


@pytest.fixture(scope="module", autouse=True)
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A local Ray cluster of 2 CPUs for the module; yields the fault-hook folder its workers
    watch (set before the cluster starts, so every worker inherits it)."""
    faults = tmp_path_factory.mktemp("faults")
    os.environ[distributed.FAULTS_ENV] = str(faults)
    ray.init(
        num_cpus=2,
        object_store_memory=80 * 1024 * 1024,
        include_dashboard=False,
        configure_logging=False,
        log_to_driver=False,
    )
    try:
        yield faults
    finally:
        ray.shutdown()
        del os.environ[distributed.FAULTS_ENV]


@pytest.mark.parametrize(
    "fen, depth, split_depth",
    [
        (shatranj.STARTING_FEN, 4, None),
        (shatranj.STARTING_FEN, 5, 3),  # transpositions merge at ply 3
        (KIWIPETE, 4, None),
        (KIWIPETE, 3, 2),
        (POSITION_3, 5, None),
        (POSITION_4, 4, 1),
        (POSITION_5, 3, None),
    ],
)
def test_perft_equals_local_perft(fen: str, depth: int, split_depth: Any) -> None:
    board = shatranj.Board(fen)
    expected = shatranj.perft(board, depth)
    assert distributed.perft(board, depth, split_depth=split_depth) == expected
    assert board.fen() == fen, "the board is left alone"


def test_perft_of_a_board_with_a_move_stack() -> None:
    played = shatranj.Board()
    for san in ("e4", "e5", "Nf3", "Nc6"):
        played.push_san(san)
    assert distributed.perft(played, 3) == shatranj.perft(played, 3)


@pytest.mark.parametrize(
    "fen, counts",
    [
        (shatranj.STARTING_FEN, [1, 20]),
        # Fool's mate: White is mated, nothing below at any depth.
        ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", [1, 0, 0, 0]),
        # Black is stalemated.
        ("k7/8/1Q6/8/8/8/8/7K b - - 0 1", [1, 0, 0, 0]),
        # Every White move mates: the split ply is empty.
        ("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", None),
    ],
)
def test_shallow_depths_and_terminal_positions(fen: str, counts: Any) -> None:
    board = shatranj.Board(fen)
    if counts is None:
        counts = [shatranj.perft(board, depth) for depth in range(5)]
    for depth, nodes in enumerate(counts):
        assert distributed.perft(board, depth) == nodes, depth
        if depth >= 2:
            assert distributed.perft(board, depth, split_depth=depth - 1) == nodes, depth


@pytest.fixture
def small_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small perfts in several tasks: the grouping (done here, in the driver) stops preferring
    one task for a job of a few million nodes."""
    monkeypatch.setattr(distributed, "MIN_PERFT_TASK_NODES", 1)


def test_perft_progress_reaches_the_total(small_tasks: None) -> None:
    calls: list[tuple[int, int, int]] = []
    nodes = distributed.perft(
        shatranj.Board(KIWIPETE), 4, split_depth=2, progress=lambda *a: calls.append(a)
    )
    assert nodes == 4085603
    assert calls[0] == (0, 0, calls[0][2])
    counted, done, total = calls[-1]
    assert done == total == 2 * distributed.TASKS_PER_CPU and counted == nodes
    assert [c[1] for c in calls] == list(range(total + 1))


def test_text_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    assert distributed.perft(shatranj.Board(), 4, progress=True) == 197281
    err = capsys.readouterr().err
    assert "perft [" in err and "197,281 nodes" in err and err.endswith("\n")


def test_perft_tasks_group_subtrees_evenly() -> None:
    """The grouping itself: every split position lands in exactly one task, and the tasks'
    estimated sizes are within a factor of two of each other (LPT over ~400 positions)."""
    board = shatranj.Board(KIWIPETE)
    positions = distributed._split(board, 2)
    assert sum(positions.values()) == shatranj.perft(board, 2)
    tasks = distributed._perft_tasks(positions, 3, cpus=2)
    assert 1 < len(tasks) <= distributed.TASKS_PER_CPU * 2
    grouped = [entry for _, group in tasks for entry in group]
    assert sorted(grouped) == sorted(positions.items())
    sizes = [
        sum(paths * shatranj.perft(shatranj.Board(fen), 3) for fen, paths in group)
        for _, group in tasks
    ]
    assert sum(sizes) == shatranj.perft(board, 5)
    assert max(sizes) < 2 * min(sizes), sizes


def test_a_worker_that_dies_mid_task_is_retried_and_counted_once(
    cluster: Path, small_tasks: None
) -> None:
    board = shatranj.Board(KIWIPETE)
    markers = [cluster / "crash-perft-0", cluster / "crash-perft-2"]
    for marker in markers:
        marker.touch()
    assert distributed.perft(board, 4, split_depth=2, max_retries=2) == 4085603
    assert not any(marker.exists() for marker in markers), "the hook fired: workers died"


def test_a_worker_dying_beyond_max_retries_is_a_distributed_error(
    cluster: Path, small_tasks: None
) -> None:
    marker = cluster / "crash-perft-1"
    marker.touch()
    with pytest.raises(distributed.DistributedError, match="perft 1 of"):
        distributed.perft(shatranj.Board(KIWIPETE), 4, split_depth=2, max_retries=0)
    assert not marker.exists()
    # The cluster still works afterwards.
    assert distributed.perft(shatranj.Board(KIWIPETE), 3) == 97862


def _free_cpus() -> float:
    return float(ray.available_resources().get("CPU", 0))


def test_ctrl_c_cancels_outstanding_tasks() -> None:
    """KeyboardInterrupt while waiting cancels the (hours-long) tasks, freeing the workers."""
    # interrupt_main does nothing while SIGINT is ignored, as it is for a suite started in the
    # background by a shell without job control: install Python's handler for the test.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(1.5, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            distributed.perft(shatranj.Board(), 9, split_depth=1)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - started < 10
    # Both CPUs are free again. Polled first, so that a task left running fails the test
    # here instead of holding up the small job below for hours.
    deadline = time.monotonic() + 15
    while _free_cpus() < ray.cluster_resources()["CPU"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _free_cpus() == ray.cluster_resources()["CPU"], "a cancelled task still runs"
    started = time.monotonic()
    assert distributed.perft(shatranj.Board(), 4, split_depth=1) == 197281
    assert time.monotonic() - started < 60


ANALYSIS_FENS = [
    shatranj.STARTING_FEN,
    KIWIPETE,
    POSITION_3,
    POSITION_4,
    POSITION_5,
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",  # mate in one
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",  # mated
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "8/8/4k3/8/2K5/8/3P4/8 w - - 0 1",
]

STABLE_KEYS = ("score", "pv", "depth", "seldepth", "nodes")


def _local(board: shatranj.Board, **limits: Any) -> Any:
    return shatranj.Engine(threads=1, hash_mb=16).analyse(board, **limits)


def test_analyse_equals_local_analysis_in_input_order() -> None:
    boards = [shatranj.Board(fen) for fen in ANALYSIS_FENS]
    # Mixed input: FEN strings and boards; one position per task so the order is exercised.
    inputs: list[Any] = [
        fen if i % 2 else board for i, (fen, board) in enumerate(zip(ANALYSIS_FENS, boards))
    ]
    infos = distributed.analyse(inputs, depth=5, positions_per_task=1)
    assert len(infos) == len(boards)
    for board, info in zip(boards, infos):
        expected = _local(board, depth=5)
        assert isinstance(info, dict)
        for key in STABLE_KEYS:
            assert info[key] == expected[key], (board.fen(), key)
        assert isinstance(info["score"], PovScore)
        assert all(isinstance(move, shatranj.Move) for move in info["pv"])
    assert infos[5]["score"].white() == Mate(1)
    assert infos[6]["score"].relative == Mate(0)


def test_analyse_multipv_nodes_and_move_stacks() -> None:
    board = shatranj.Board()
    for san in ("e4", "e5", "Nf3"):
        board.push_san(san)
    boards = [board, shatranj.Board(KIWIPETE)]
    infos = distributed.analyse(boards, nodes=3000, multipv=2)
    for position, lines in zip(boards, infos):
        assert isinstance(lines, list) and [line["multipv"] for line in lines] == [1, 2]
        expected = _local(position, nodes=3000, multipv=2)
        assert [(line["score"], line["pv"]) for line in lines] == [
            (e["score"], e["pv"]) for e in expected
        ]
    assert infos[0][0]["pv"][0] in board.legal_moves
    # Boards travel with their move stacks (repetition counts on the worker too).
    worker_stacks = distributed.run_tasks(
        operator.attrgetter("move_stack"), [board, shatranj.Board()]
    )
    assert worker_stacks == [board.move_stack, []] and len(board.move_stack) == 3


def test_analyse_progress_and_empty_input() -> None:
    calls: list[tuple[int, int]] = []
    infos = distributed.analyse(
        ANALYSIS_FENS[:4], depth=2, positions_per_task=3, progress=lambda *a: calls.append(a)
    )
    assert len(infos) == 4
    assert calls[0] == (0, 4) and calls[-1] == (4, 4)
    assert distributed.analyse([], depth=3) == []


def test_analyse_task_retried_after_a_worker_dies(cluster: Path) -> None:
    marker = cluster / "crash-analyse-1"
    marker.touch()
    infos = distributed.analyse(ANALYSIS_FENS[:4], depth=4, positions_per_task=1)
    assert not marker.exists()
    assert [info["pv"] for info in infos] == [
        _local(shatranj.Board(f), depth=4)["pv"] for f in ANALYSIS_FENS[:4]
    ]


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: distributed.perft("startpos", 3), TypeError, "board"),  # type: ignore[arg-type]
        (lambda: distributed.perft(shatranj.Board(), -1), ValueError, "depth"),
        (lambda: distributed.perft(shatranj.Board(), 2.0), TypeError, "depth"),  # type: ignore[arg-type]
        (lambda: distributed.perft(shatranj.Board(), 3, split_depth=3), ValueError, "split_depth"),
        (lambda: distributed.perft(shatranj.Board(), 3, split_depth=0), ValueError, "split_depth"),
        (lambda: distributed.perft(shatranj.Board(), 3, max_retries=-1), ValueError, "max_retries"),
        (lambda: distributed.perft(shatranj.Board(), 3, progress="yes"), TypeError, "progress"),  # type: ignore[arg-type]
        (lambda: distributed.analyse([shatranj.STARTING_FEN]), ValueError, "limit"),
        (lambda: distributed.analyse([shatranj.STARTING_FEN], depth=0), ValueError, "depth"),
        (
            lambda: distributed.analyse([shatranj.STARTING_FEN], time=float("nan")),
            ValueError,
            "time",
        ),
        (
            lambda: distributed.analyse([shatranj.STARTING_FEN], depth=2, multipv=0),
            ValueError,
            "multipv",
        ),
        (
            lambda: distributed.analyse([shatranj.STARTING_FEN], depth=2, threads=0),
            ValueError,
            "threads",
        ),
        (lambda: distributed.analyse(shatranj.STARTING_FEN, depth=2), TypeError, "iterable"),
        (lambda: distributed.analyse(["not a fen"], depth=2), ValueError, "position 0"),
        (lambda: distributed.analyse([shatranj.Board(), 7], depth=2), TypeError, "position 1"),  # type: ignore[list-item]
        (lambda: distributed.run_tasks(len, [[1]], num_cpus=-1), ValueError, "num_cpus"),
        (lambda: distributed.connect(address=6379), TypeError, "address"),  # type: ignore[arg-type]
        (lambda: distributed.connect(address="10.9.9.9:6379"), ValueError, "already connected"),
    ],
)
def test_bad_input_raises_typed_errors(call: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        call()


def test_an_exception_inside_a_task_propagates_as_itself() -> None:
    # A task whose payload is bad raises there; the caller sees the same exception class.
    with pytest.raises(ValueError, match="fen"):
        distributed.run_tasks(distributed._perft_task, [(2, [("not a fen", 1)])], name="perft-bad")
    assert distributed.run_tasks(len, [[1, 2], [], "abc"]) == [2, 0, 3]


SELFPLAY = dict(depth=2, seed=11, max_plies=60, random_plies=4)


def test_selfplay_equals_local_selfplay_split_into_tasks(cluster: Path) -> None:
    local = shatranj.selfplay(games=5, first_game=3, **SELFPLAY)  # type: ignore[arg-type]
    seen: list[tuple[int, int]] = []
    marker = cluster / "crash-selfplay-1"
    marker.touch()  # the second task's worker dies once: its games are played again, not twice
    remote = distributed.selfplay(
        games=5,
        first_game=3,
        games_per_task=2,
        progress=lambda done, total: seen.append((done, total)),
        **SELFPLAY,  # type: ignore[arg-type]
    )
    assert not marker.exists(), "the hook fired: a worker died"
    assert [str(g) for g in remote.games] == [str(g) for g in local.games]
    assert [g.index for g in remote.games] == [3, 4, 5, 6, 7]
    stats = remote.stats
    assert stats["tasks"] == 3 and stats["games"] == 5
    assert stats["plies"] == local.stats["plies"] == sum(g.plies for g in local.games)
    assert stats["white_wins"] + stats["draws"] + stats["black_wins"] == 5
    assert seen[-1] == (5, 5)


def test_selfplay_bad_settings_fail_before_any_task() -> None:
    with pytest.raises(ValueError):
        distributed.selfplay(games=2, depth=2, nodes=100)
    with pytest.raises(ValueError, match="games_per_task"):
        distributed.selfplay(games=2, depth=2, games_per_task=0)
    assert distributed.selfplay(games=0, depth=2).games == []


@pytest.mark.parametrize("score", [Cp(35), Cp(-12), Mate(3), Mate(-2), Mate(0), MateGiven()])
def test_scores_moves_and_boards_survive_pickling(score: Any) -> None:
    pov = PovScore(score, shatranj.BLACK)
    copy = pickle.loads(pickle.dumps(pov))
    assert copy == pov and type(copy.relative) is type(score) and copy.turn is False
    assert copy.white() == pov.white() and repr(copy) == repr(pov)
    board = shatranj.Board(KIWIPETE)
    board.push_san("O-O")
    move = shatranj.Move.from_uci("e7e8q")
    board_copy, move_copy = pickle.loads(pickle.dumps((board, move)))
    assert board_copy == board and board_copy.move_stack == board.move_stack
    assert move_copy == move and move_copy.promotion == shatranj.QUEEN


def test_info_dicts_survive_pickling() -> None:
    info = shatranj.Engine(threads=1, hash_mb=1).analyse(shatranj.Board(KIWIPETE), depth=3)
    copy = pickle.loads(pickle.dumps(info))
    assert copy == info
    assert copy["score"].relative == info["score"].relative


def test_without_ray_the_module_imports_and_says_what_to_install() -> None:
    """In a child interpreter where ``import ray`` fails: importing the module and counting
    depth 1 work, a real job raises ImportError naming the extra."""
    import subprocess

    code = (
        "import sys; sys.modules['ray'] = None\n"
        "import shatranj; from shatranj import distributed\n"
        "assert distributed.perft(shatranj.Board(), 1) == 20\n"
        "try:\n"
        "    distributed.perft(shatranj.Board(), 3)\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert out.returncode == 0, out.stderr
    assert "pip install 'shatranj[ray]'" in out.stdout


def test_max_in_flight_runs_one_task_at_a_time_and_keeps_the_order(tmp_path: Path) -> None:
    """The task function lives in this test module, which the workers cannot import: it
    travels by value. With one task in flight the tasks run one after another (their run intervals do not
    overlap); with the default two tasks run at once on the two CPUs, which each proves by
    seeing the other's marker file while it waits (a rendezvous: no guess at how fast a loaded
    machine starts a second worker). Results stay in payload order."""
    import ray.cloudpickle

    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    spans = distributed.run_tasks(_timed_sleep, [0.3] * 4, max_in_flight=1)
    assert [index for index, _, _ in spans] == [0.3] * 4
    starts = sorted((start, end) for _, start, end in spans)
    assert all(later[0] >= earlier[1] for earlier, later in zip(starts, starts[1:])), starts
    pair = [(str(tmp_path / "a"), str(tmp_path / "b")), (str(tmp_path / "b"), str(tmp_path / "a"))]
    assert distributed.run_tasks(_rendezvous, pair) == [True, True]
    with pytest.raises(ValueError, match="max_in_flight"):
        distributed.run_tasks(len, [[1]], max_in_flight=0)


def _timed_sleep(seconds: float) -> tuple[float, float, float]:
    start = time.time()
    time.sleep(seconds)
    return seconds, start, time.time()


def _rendezvous(markers: tuple[str, str]) -> bool:
    """Leaves this task's marker, then waits up to 60 s for the other task's: True when the
    two tasks were running at the same time."""
    mine, other = markers
    Path(mine).touch()
    deadline = time.time() + 60
    while time.time() < deadline:
        if Path(other).exists():
            return True
        time.sleep(0.01)
    return False


def test_review_pgn_on_the_cluster_equals_a_local_review(tmp_path: Path) -> None:
    import random

    import pyarrow.parquet as pq

    import shatranj.pgn
    from shatranj import review
    from shatranj.engine import Limit

    seed = 11
    print("seed", seed)
    rng = random.Random(seed)
    texts = []
    for _ in range(7):
        board = shatranj.Board()
        for _ in range(rng.randint(6, 24)):
            board.push(rng.choice(list(board.legal_moves)))
        texts.append(str(shatranj.pgn.Game.from_board(board)))
    source = tmp_path / "games.pgn"
    source.write_text("\n\n".join(texts) + "\n")
    limit = Limit(nodes=1500)
    outputs = {}
    for name, run in (("local", review.review_pgn), ("cluster", distributed.review_pgn)):
        folder = tmp_path / name
        folder.mkdir()
        done = run(
            source,
            None,
            limit,
            pgn_out=folder / "out.pgn",
            moves_table=folder / "moves.parquet",
            games_table=folder / "games.parquet",
            progress=False,
        )
        assert done.games == 7
        outputs[name] = folder
    assert (outputs["local"] / "out.pgn").read_bytes() == (
        outputs["cluster"] / "out.pgn"
    ).read_bytes()
    for table in ("moves.parquet", "games.parquet"):
        assert pq.read_table(outputs["local"] / table).equals(
            pq.read_table(outputs["cluster"] / table)
        )

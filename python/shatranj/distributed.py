"""Perft and analysis spread over a Ray cluster (``pip install 'shatranj[ray]'``).

This module owns the distribution of work: split a job into tasks, run them on the cluster's
workers with retries, merge the results in task order and report progress. Chess stays in the
native code; every task calls the same ``shatranj.perft`` or ``shatranj.Engine`` that runs in
this process.

- :func:`perft` splits the move tree a few plies below the root, merges transpositions (a
  position reached by several move orders is counted once, times the number of paths) and
  groups the subtrees into tasks of similar estimated size.
- :func:`analyse` searches many positions, a slice of the input per task, and returns the info
  dicts in input order.
- :func:`selfplay` plays a match of self-play games, a contiguous range of game indices per
  task (game *i* depends only on the seed and *i*, so the games equal a local
  :func:`shatranj.selfplay` of the same settings), each task on its own GPU when asked.
- :func:`review_pgn` reviews a PGN database as :func:`shatranj.review.review_pgn` does, a few
  games per task, with the same outputs and checkpoint.
- :func:`match` plays a match between two UCI engines, or a tournament of more, as
  :func:`shatranj.match.run` does, a contiguous range of one pairing's rounds per task (each
  played by the same Rust runner), pooled here in play order into one table and one SPRT,
  which stops every worker when it decides.
- :func:`run_tasks` is the core they all use: it takes a module-level function and a list of
  payloads and returns the results in payload order. A new distributed job is a payload type,
  a module-level task function and a call of :func:`run_tasks`, with :class:`TextProgress` or
  a callback for progress and ``on_result`` to stream results.

Ray is imported only when a function here runs, so ``import shatranj.distributed`` works without
it. A cluster is joined if one is running (``address=``, ``ray.init`` already called, or the
``RAY_ADDRESS`` environment variable); otherwise a local one is started on this machine.

Exactly-once counting: a task is a pure function of its payload, and its result is stored under
its task index, once. When a worker process dies mid-task, Ray runs the task again (up to
``max_retries`` times) and only the attempt that finishes delivers a result, so a retried subtree
is never counted twice. Exceptions raised by the task itself (bad input) are not retried: they
are raised here as they were raised there.
"""

from __future__ import annotations

import heapq
import math
import os
import sys
import time as _time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import (
    Any,
    Literal,
    TypeVar,
    overload,
)

from . import _core
from .engine import Engine, InfoDict
from .selfplay import SelfPlayResult
from .selfplay import selfplay as _local_selfplay

__all__ = [
    "DistributedError",
    "Progress",
    "TextProgress",
    "analyse",
    "cluster_cpus",
    "connect",
    "match",
    "perft",
    "review_pgn",
    "run_tasks",
    "selfplay",
]

P = TypeVar("P")
R = TypeVar("R")

#: A progress callback of :func:`run_tasks`: ``(tasks done, tasks in all)``.
Progress = Callable[[int, int], object]

# Tasks per CPU of the cluster: enough that a slow task near the end leaves little idle time and
# the progress moves in visible steps, few enough that Ray's per-task cost (a few ms) is noise.
TASKS_PER_CPU = 4
# The smallest perft task worth shipping, in estimated leaf nodes: about 0.1 s of one core.
MIN_PERFT_TASK_NODES = 10_000_000
# Splitting stops once this many distinct positions are found at the split ply (the
# enumeration runs here, in Python).
MAX_SPLIT_POSITIONS = 50_000
# A Ctrl-C is noticed within this many seconds while waiting for tasks.
_WAIT_SLICE = 0.1

# Test hook: when this environment variable names a folder on the worker's machine, a task
# finding the file ``crash-<name>-<index>`` there deletes it and kills its own worker process
# (os._exit), so the first attempt of that task dies and the retry runs normally.
FAULTS_ENV = "SHATRANJ_DISTRIBUTED_FAULTS"


class DistributedError(RuntimeError):
    """A task could not be run on the cluster: its worker died more often than ``max_retries``
    allowed, or the cluster lost it. (An exception raised by the task's own code is raised
    as itself instead.)"""


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError(
            "shatranj.distributed needs Ray: pip install 'shatranj[ray]' (on every node)"
        ) from error
    return ray


def connect(address: str | None = None) -> None:
    """Joins the Ray cluster at ``address`` (``"auto"``, ``"host:6379"``, ``"ray://…"``), or
    with ``None`` the cluster Ray finds by itself (``RAY_ADDRESS``), else a new local one.

    Does nothing when Ray is already initialised in this process; an explicit ``address`` that
    differs from the current cluster is an error rather than a silent reuse.
    """
    if address is not None and not isinstance(address, str):
        raise TypeError(f"address must be a str or None, not {type(address).__name__}")
    ray = _import_ray()
    if ray.is_initialized():
        if address not in (None, "auto"):
            current = ray.get_runtime_context().gcs_address
            if address.split("://")[-1] != current:
                raise ValueError(
                    f"Ray is already connected to {current}, not {address}; "
                    "call ray.shutdown() first to switch clusters"
                )
        return
    if address is None and not os.environ.get("RAY_ADDRESS"):
        # A local cluster for this process: no dashboard (it costs a second and a port).
        ray.init(include_dashboard=False, configure_logging=False)
    else:
        try:
            ray.init(address=address, configure_logging=False)
        except ConnectionError as error:
            raise ConnectionError(
                f"cannot join the Ray cluster at {address or os.environ.get('RAY_ADDRESS')}: {error}. "
                "Recent Ray clusters require a token: set RAY_AUTH_MODE=token here and give this "
                "machine the head's token (~/.ray/auth_token, or RAY_AUTH_TOKEN)"
            ) from error


def cluster_cpus() -> int:
    """The CPUs of the cluster (connected first with :func:`connect`), at least 1."""
    ray = _import_ray()
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _execute(function: Callable[[Any], Any], payload: Any, name: str, index: int) -> Any:
    """The body of every task: the fault hook, then ``function(payload)``."""
    faults = os.environ.get(FAULTS_ENV)
    if faults:
        marker = Path(faults) / f"crash-{name}-{index}"
        try:
            marker.unlink()
        except FileNotFoundError:
            pass
        else:
            os._exit(1)
    return function(payload)


_REMOTE: dict[str, Any] = {}


def _remote_execute() -> Any:
    """``_execute`` as a Ray remote function, made once per process."""
    if "execute" not in _REMOTE:
        _REMOTE["execute"] = _import_ray().remote(_execute)
    return _REMOTE["execute"]


def _check_count(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {value}")
    return value


def run_tasks(
    function: Callable[[P], R],
    payloads: Sequence[P],
    *,
    name: str = "task",
    address: str | None = None,
    max_retries: int = 3,
    num_cpus: float = 1,
    num_gpus: float = 0,
    max_in_flight: int | None = None,
    progress: Progress | None = None,
    on_result: Callable[[int, R], object] | None = None,
) -> list[R]:
    """Runs ``function(payload)`` for every payload on the cluster; returns the results in
    payload order.

    ``function`` must be importable by the workers (a module-level function of an installed
    module: it travels by reference) and idempotent: a task whose worker dies is run again, up
    to ``max_retries`` times, and each task index delivers exactly one result. ``num_cpus`` and
    ``num_gpus`` are the resources one task reserves (a task running a 4-thread engine asks for
    4 CPUs; a self-play task for its GPU). ``progress(done, total)`` is called here after each
    finished task, ``on_result(index, result)`` as each result arrives (in completion order).
    ``name`` labels the tasks (the fault hook and error messages use it). ``max_in_flight``
    caps the tasks submitted and not yet finished (default: all at once); the next is
    submitted as one finishes, which bounds the payloads held by the cluster and the workers
    busy with one job.

    Ctrl-C (``KeyboardInterrupt``) cancels every outstanding task, killing its worker, and
    propagates. An exception raised by ``function`` propagates as itself and cancels the rest.
    """
    _check_count("max_retries", max_retries, 0)
    if max_in_flight is not None:
        _check_count("max_in_flight", max_in_flight, 1)
    for label, amount in (("num_cpus", num_cpus), ("num_gpus", num_gpus)):
        if isinstance(amount, bool) or not isinstance(amount, (int, float)) or not amount >= 0:
            raise ValueError(f"{label} must be a number ≥ 0, not {amount!r}")
    payloads = list(payloads)
    total = len(payloads)
    if total == 0:
        return []
    connect(address)
    ray = _import_ray()
    remote = _remote_execute().options(
        num_cpus=num_cpus,
        num_gpus=num_gpus,
        max_retries=max_retries,
        retry_exceptions=False,
        name=f"shatranj.{name}",
    )
    # The payloads go through the object store once each; the refs are the task ids' handles.
    pending: dict[Any, int] = {}
    unsubmitted = iter(enumerate(payloads))
    limit = total if max_in_flight is None else max_in_flight

    def submit() -> None:
        while len(pending) < limit:
            task = next(unsubmitted, None)
            if task is None:
                return
            index, payload = task
            pending[remote.remote(function, payload, name, index)] = index

    results: dict[int, R] = {}
    try:
        submit()
        if progress is not None:
            progress(0, total)
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=_WAIT_SLICE)
            for ref in ready:
                index = pending.pop(ref)
                try:
                    value = ray.get(ref)
                except ray.exceptions.RayTaskError as error:
                    # The task's own exception (its class is preserved): raise it as such.
                    cause = error.cause if isinstance(error.cause, BaseException) else error
                    raise cause from None
                except ray.exceptions.RayError as error:
                    raise DistributedError(
                        f"{name} {index} of {total} failed on the cluster (after up to {max_retries} retries): {error}"
                    ) from error
                # Keyed by task index: one result per task, whatever the attempts.
                results.setdefault(index, value)
                if on_result is not None:
                    on_result(index, value)
                if progress is not None:
                    progress(len(results), total)
            submit()
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    return [results[index] for index in range(total)]


class TextProgress:
    """A one-line text bar on stderr (no tqdm): ``perft [#####-----] 12/40 tasks 3.1 s``."""

    def __init__(self, label: str, *, width: int = 30, stream: Any = None) -> None:
        self.label = label
        self.width = width
        self.stream = stream if stream is not None else sys.stderr
        self.started = _time.monotonic()

    def __call__(self, done: int, total: int, extra: str = "") -> None:
        filled = self.width * done // max(total, 1)
        bar = "#" * filled + "-" * (self.width - filled)
        elapsed = _time.monotonic() - self.started
        line = f"\r{self.label} [{bar}] {done}/{total} tasks {elapsed:.1f} s{extra}"
        self.stream.write(line)
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


# --- perft ----------------------------------------------------------------------------------

PerftProgress = Callable[[int, int, int], object]
# One perft task: the depth left below the split, and the split positions (FEN) with the
# number of move orders that reach each.
PerftPayload = tuple[int, list[tuple[str, int]]]


def _perft_task(payload: PerftPayload) -> int:
    depth, positions = payload
    return sum(paths * _core.perft(_core.Board(fen), depth, threads=1) for fen, paths in positions)


def _split(board: _core.Board, plies: int) -> dict[str, int]:
    """The distinct positions ``plies`` plies below ``board`` (as FEN), with the number of move
    sequences reaching each. Perft below a position depends on the position alone, not the
    clocks or the path, so transpositions merge."""
    level: dict[str, int] = {board.fen(): 1}
    for _ in range(plies):
        below: dict[str, int] = {}
        for fen, paths in level.items():
            position = _core.Board(fen)
            for move in position.legal_moves:
                position.push(move)
                # The clocks do not change the count; dropping them lets more positions merge.
                key = position.epd() + " 0 1"
                below[key] = below.get(key, 0) + paths
                position.pop()
        level = below
    return level


def _default_split(board: _core.Board, depth: int, cpus: int) -> int:
    """The shallowest split that yields a couple of positions for each task.

    Shallow, because deeper splits mean more and smaller subtrees, and each native perft call
    costs a fixed 0.1-0.3 ms (a worker thread for Ctrl-C): counting Kiwipete 5 as 2,038
    depth-3 subtrees takes twice as long as one call. Two positions per task still let the
    grouping even out the tasks."""
    wanted = 2 * TASKS_PER_CPU * cpus
    split, count = 1, board.legal_moves.count()
    while split < depth - 1 and count < wanted and count * 35 <= MAX_SPLIT_POSITIONS:
        split += 1
        count = len(_split(board, split))
    return split


def _perft_tasks(positions: dict[str, int], depth: int, cpus: int) -> list[PerftPayload]:
    """Groups the split positions into tasks of similar estimated size (largest first).

    A subtree of ``depth`` plies below a position with ``b`` legal moves is estimated at
    ``b × mean_b^(depth-1)``: exact in its first ply, an average below.
    """
    branching = {fen: _core.Board(fen).legal_moves.count() for fen in positions}
    mean = max(1.0, sum(branching.values()) / max(len(branching), 1))
    sizes = {fen: paths * branching[fen] * mean ** (depth - 1) for fen, paths in positions.items()}
    total = sum(sizes.values())
    count = max(
        1, min(len(positions), TASKS_PER_CPU * cpus, math.ceil(total / MIN_PERFT_TASK_NODES))
    )
    # Longest processing time first: each position to the currently lightest task.
    heap: list[tuple[float, int]] = [(0.0, task) for task in range(count)]
    groups: list[list[tuple[str, int]]] = [[] for _ in range(count)]
    for fen in sorted(positions, key=lambda key: -sizes[key]):
        load, task = heapq.heappop(heap)
        groups[task].append((fen, positions[fen]))
        heapq.heappush(heap, (load + sizes[fen], task))
    loads = {task: load for load, task in heap}
    order = sorted(range(count), key=lambda task: -loads[task])
    return [(depth, groups[task]) for task in order if groups[task]]


def perft(
    board: _core.Board,
    depth: int,
    *,
    split_depth: int | None = None,
    address: str | None = None,
    max_retries: int = 3,
    progress: None | bool | PerftProgress = None,
) -> int:
    """The number of leaf nodes ``depth`` plies below ``board``, counted on the cluster; equal
    to :func:`shatranj.perft`.

    The tree is split ``split_depth`` plies below the root (default: the shallowest ply with
    two distinct positions for each of the ``TASKS_PER_CPU`` tasks per cluster CPU); each task
    counts a group of those subtrees with one thread. ``progress`` is ``True`` for a text bar
    on stderr, or a callback ``(nodes counted so far, tasks done, tasks in all)`` — the shape of
    :func:`shatranj.perft`'s, with tasks in place of root moves. Depth 0 and 1 are counted here
    without the cluster.
    """
    if not isinstance(board, _core.Board):
        raise TypeError(f"board must be a shatranj.Board, not {type(board).__name__}")
    _check_count("depth", depth, 0)
    if split_depth is not None:
        _check_count("split_depth", split_depth, 1)
        if split_depth >= depth:
            raise ValueError(f"split_depth must be less than depth ({depth}), not {split_depth}")
    if progress is not None and not isinstance(progress, bool) and not callable(progress):
        raise TypeError(f"progress must be a bool or a callable, not {type(progress).__name__}")
    _check_count("max_retries", max_retries, 0)
    if depth <= 1:
        return _core.perft(board, depth)
    connect(address)
    cpus = cluster_cpus()
    # The move stack does not change the count; the split starts from the position alone.
    root = _core.Board(board.fen())
    plies = split_depth if split_depth is not None else _default_split(root, depth, cpus)
    positions = _split(root, plies)
    if not positions:  # mate or stalemate within the split: nothing below
        return 0
    tasks = _perft_tasks(positions, depth - plies, cpus)

    counted = [0]
    bar = TextProgress("perft") if progress is True else None

    def on_result(_index: int, nodes: int) -> None:
        counted[0] += nodes

    def report(done: int, total: int) -> None:
        if bar is not None:
            bar(done, total, f" {counted[0]:,} nodes")
        elif callable(progress):
            progress(counted[0], done, total)

    counts = run_tasks(
        _perft_task,
        tasks,
        name="perft",
        max_retries=max_retries,
        progress=report if progress else None,
        on_result=on_result,
    )
    return sum(counts)


# --- analysis -------------------------------------------------------------------------------

# One analysis task: the limits, the engine's size, and a slice of the positions.
AnalysePayload = tuple[dict[str, Any], tuple[int, int], list[_core.Board]]
AnalyseResult = InfoDict | list[InfoDict]

# One engine per (threads, hash_mb) per worker process, kept between tasks: Ray reuses worker
# processes, so the table is allocated once per worker rather than once per task.
_ENGINES: dict[tuple[int, int], Engine] = {}


def _analyse_task(payload: AnalysePayload) -> list[AnalyseResult]:
    limits, (threads, hash_mb), boards = payload
    engine = _ENGINES.get((threads, hash_mb))
    if engine is None:
        engine = _ENGINES[(threads, hash_mb)] = Engine(threads=threads, hash_mb=hash_mb)
    results: list[AnalyseResult] = []
    for board in boards:
        # A fresh table per position: the result does not depend on which positions this
        # worker happened to search before (with one thread the search is deterministic).
        engine.clear_hash()
        results.append(engine.analyse(board, **limits))
    return results


def _positions(boards_or_fens: Iterable[_core.Board | str]) -> list[_core.Board]:
    if isinstance(boards_or_fens, (str, _core.Board)):
        raise TypeError("boards_or_fens must be an iterable of boards or FENs, not a single one")
    boards: list[_core.Board] = []
    for index, item in enumerate(boards_or_fens):
        if isinstance(item, _core.Board):
            boards.append(item)
        elif isinstance(item, str):
            try:
                boards.append(_core.Board(item))
            except ValueError as error:
                raise ValueError(f"position {index}: {error}") from None
        else:
            raise TypeError(
                f"position {index} must be a shatranj.Board or a FEN str, not {type(item).__name__}"
            )
    return boards


def _check_limits(
    depth: int | None, nodes: int | None, time: float | None, multipv: int
) -> dict[str, Any]:
    if depth is None and nodes is None and time is None:
        raise ValueError("at least one limit is required: depth, nodes or time")
    if depth is not None:
        _check_count("depth", depth, 1)
    if nodes is not None:
        _check_count("nodes", nodes, 1)
    if time is not None:
        if isinstance(time, bool) or not isinstance(time, (int, float)):
            raise TypeError(f"time must be a number of seconds, not {type(time).__name__}")
        if not (math.isfinite(time) and time > 0):
            raise ValueError(f"time must be a positive number of seconds, not {time!r}")
    _check_count("multipv", multipv, 1)
    return {"depth": depth, "nodes": nodes, "time": time, "multipv": multipv}


@overload
def analyse(  # type: ignore[overload-overlap]  # multipv=1: one info dict per position
    boards_or_fens: Iterable[_core.Board | str],
    *,
    depth: int | None = ...,
    nodes: int | None = ...,
    time: float | None = ...,
    multipv: Literal[1] = ...,
    threads: int = ...,
    hash_mb: int = ...,
    positions_per_task: int | None = ...,
    address: str | None = ...,
    max_retries: int = ...,
    progress: None | bool | Progress = ...,
) -> list[InfoDict]: ...
@overload
def analyse(
    boards_or_fens: Iterable[_core.Board | str],
    *,
    depth: int | None = ...,
    nodes: int | None = ...,
    time: float | None = ...,
    multipv: int,
    threads: int = ...,
    hash_mb: int = ...,
    positions_per_task: int | None = ...,
    address: str | None = ...,
    max_retries: int = ...,
    progress: None | bool | Progress = ...,
) -> list[list[InfoDict]]: ...
def analyse(
    boards_or_fens: Iterable[_core.Board | str],
    *,
    depth: int | None = None,
    nodes: int | None = None,
    time: float | None = None,
    multipv: int = 1,
    threads: int = 1,
    hash_mb: int = 16,
    positions_per_task: int | None = None,
    address: str | None = None,
    max_retries: int = 3,
    progress: None | bool | Progress = None,
) -> list[InfoDict] | list[list[InfoDict]]:
    """Analyses every position on the cluster; returns :meth:`shatranj.Engine.analyse`'s result
    for each (an info dict, or a list of them with ``multipv > 1``), in input order.

    Positions are :class:`shatranj.Board` objects (their move stacks travel with them and
    count for repetition draws) or FEN strings. Each worker runs an in-process engine of
    ``threads`` threads (a task reserves that many CPUs) and a ``hash_mb`` MiB table, cleared
    before every position, so with ``threads=1`` and a depth or node limit the result equals a
    local ``Engine(threads=1).analyse`` of the same position. Consecutive positions are
    grouped ``positions_per_task`` to a task (default: about four tasks per CPU). ``progress``
    is ``True`` for a text bar on stderr or a callback ``(positions done, positions)``.
    """
    limits = _check_limits(depth, nodes, time, multipv)
    _check_count("threads", threads, 1)
    _check_count("hash_mb", hash_mb, 1)
    _check_count("max_retries", max_retries, 0)
    if positions_per_task is not None:
        _check_count("positions_per_task", positions_per_task, 1)
    if progress is not None and not isinstance(progress, bool) and not callable(progress):
        raise TypeError(f"progress must be a bool or a callable, not {type(progress).__name__}")
    boards = _positions(boards_or_fens)
    if not boards:
        return []
    connect(address)
    per_task = positions_per_task
    if per_task is None:
        slots = max(1, cluster_cpus() // threads) * TASKS_PER_CPU
        per_task = max(1, math.ceil(len(boards) / slots))
    tasks: list[AnalysePayload] = [
        (limits, (threads, hash_mb), boards[start : start + per_task])
        for start in range(0, len(boards), per_task)
    ]
    sizes = [len(task[2]) for task in tasks]
    finished = [0]
    bar = TextProgress("analyse") if progress is True else None

    def on_result(index: int, _infos: list[AnalyseResult]) -> None:
        finished[0] += sizes[index]

    def report(done: int, total: int) -> None:
        if bar is not None:
            bar(done, total, f" {finished[0]}/{len(boards)} positions")
        elif callable(progress):
            progress(finished[0], len(boards))

    groups = run_tasks(
        _analyse_task,
        tasks,
        name="analyse",
        max_retries=max_retries,
        num_cpus=threads,
        progress=report if progress else None,
        on_result=on_result,
    )
    flat: list[Any] = [info for group in groups for info in group]
    return flat


# --- self-play ------------------------------------------------------------------------------

# One self-play task: the settings of shatranj.selfplay, the first game index and the count.
SelfPlayPayload = tuple[dict[str, Any], int, int]

# Counters of the match statistics that add up over tasks.
_SUMMED_STATS = (
    "games",
    "plies",
    "evaluations",
    "nodes",
    "batches",
    "fallbacks",
    "white_wins",
    "draws",
    "black_wins",
)


def _selfplay_task(payload: SelfPlayPayload) -> SelfPlayResult:
    settings, first_game, games = payload
    return _local_selfplay(games=games, first_game=first_game, **settings)


def _merge_stats(parts: list[dict[str, Any]], wall: float) -> dict[str, Any]:
    stats: dict[str, Any] = {key: sum(int(p.get(key, 0)) for p in parts) for key in _SUMMED_STATS}
    batches = stats["batches"]
    stats["mean_batch"] = (
        sum(float(p.get("mean_batch", 0.0)) * int(p.get("batches", 0)) for p in parts) / batches
        if batches
        else 0.0
    )
    stats["max_batch"] = max((int(p.get("max_batch", 0)) for p in parts), default=0)
    stats["eval_error"] = next((p["eval_error"] for p in parts if p.get("eval_error")), None)
    stats["evaluator"] = ", ".join(sorted({str(p.get("evaluator", "")) for p in parts}))
    stats["wall"] = wall
    stats["games_per_second"] = stats["games"] / wall if wall > 0 else 0.0
    stats["evaluations_per_second"] = stats["evaluations"] / wall if wall > 0 else 0.0
    stats["tasks"] = len(parts)
    return stats


def selfplay(
    games: int,
    depth: int | None = None,
    nodes: int | None = None,
    device: str = "auto",
    concurrency: int = 1,
    seed: int = 0,
    openings: Sequence[str] | None = None,
    max_plies: int = 400,
    *,
    first_game: int = 0,
    games_per_task: int | None = None,
    gpus_per_task: float = 1,
    address: str | None = None,
    max_retries: int = 3,
    progress: None | bool | Progress = None,
    **settings: Any,
) -> SelfPlayResult:
    """Plays the self-play match of :func:`shatranj.selfplay` on the cluster and returns the
    same :class:`~shatranj.selfplay.SelfPlayResult`: the games in index order (equal to a local
    run with the same arguments) and the merged statistics (``wall`` and the rates measured
    here, ``tasks`` the number of tasks).

    Each task plays ``games_per_task`` consecutive game indices (default: about four tasks per
    CPU) with ``concurrency`` games at once, reserving ``concurrency`` CPUs; with
    ``device="gpu"`` it also reserves ``gpus_per_task`` GPUs, so the tasks of one machine
    share its GPU in that proportion and each batches its own games there. Other keyword
    arguments (``random_plies``, ``hash_mb``, ``batched``, ``batch_size``, ``wait_us``,
    ``eval_file``) go to every task's :func:`shatranj.selfplay`; an ``eval_file`` path must
    exist on every node, while a :class:`shatranj.nnue.Network` travels with the tasks. A task whose worker dies is played again from its
    seed, so it yields the same games and none is counted twice. ``progress`` is ``True`` for
    a text bar on stderr or a callback ``(games done, games)``.
    """
    for name, value, minimum in (
        ("games", games, 0),
        ("concurrency", concurrency, 1),
        ("first_game", first_game, 0),
    ):
        _check_count(name, value, minimum)
    _check_count("max_retries", max_retries, 0)
    if games_per_task is not None:
        _check_count("games_per_task", games_per_task, 1)
    if progress is not None and not isinstance(progress, bool) and not callable(progress):
        raise TypeError(f"progress must be a bool or a callable, not {type(progress).__name__}")
    common: dict[str, Any] = dict(
        depth=depth,
        nodes=nodes,
        device=device,
        concurrency=concurrency,
        seed=seed,
        openings=None if openings is None else list(openings),
        max_plies=max_plies,
        **settings,
    )
    # Bad settings fail here, before anything is shipped: a local run of no game checks them
    # all (the device included).
    _local_selfplay(games=0, **common)
    if games == 0:
        return _local_selfplay(games=0, first_game=first_game, **common)
    connect(address)
    num_gpus = 0.0
    if device == "gpu":
        ray = _import_ray()
        if ray.cluster_resources().get("GPU", 0) <= 0:
            raise DistributedError(
                "device='gpu' but the cluster has no GPUs; use device='cpu' or 'auto'"
            )
        num_gpus = float(gpus_per_task)
    per_task = games_per_task
    if per_task is None:
        slots = max(1, cluster_cpus() // concurrency) * TASKS_PER_CPU
        per_task = max(1, math.ceil(games / slots))
    tasks: list[SelfPlayPayload] = [
        (common, first_game + start, min(per_task, games - start))
        for start in range(0, games, per_task)
    ]
    finished = [0]
    bar = TextProgress("selfplay") if progress is True else None

    def on_result(index: int, _result: SelfPlayResult) -> None:
        finished[0] += tasks[index][2]

    def report(done: int, total: int) -> None:
        if bar is not None:
            bar(done, total, f" {finished[0]}/{games} games")
        elif callable(progress):
            progress(finished[0], games)

    started = _time.monotonic()
    parts = run_tasks(
        _selfplay_task,
        tasks,
        name="selfplay",
        max_retries=max_retries,
        num_cpus=concurrency,
        num_gpus=num_gpus,
        progress=report if progress else None,
        on_result=on_result,
    )
    wall = _time.monotonic() - started
    return SelfPlayResult(
        games=[game for part in parts for game in part.games],
        stats=_merge_stats([part.stats for part in parts], wall),
        interrupted=any(part.interrupted for part in parts),
    )


# --- game review ----------------------------------------------------------------------------

# One review task: the review's settings and a run of consecutive games, as (index, PGN text).
ReviewPayload = tuple[dict[str, Any], list[tuple[int, str]]]


def _review_task(payload: ReviewPayload) -> list[tuple[int, Any, int]]:
    import dataclasses
    import io

    from . import pgn
    from .review import GameFailure, iter_reviews

    settings, texts = payload
    games = [pgn.read_game(io.StringIO(text)) for _, text in texts]
    results: list[tuple[int, Any, int]] = []
    for i, _, review, positions in iter_reviews(None, games=games, workers=1, **settings):
        # iter_reviews numbers these games from 0: give back their index in the source.
        index = texts[i][0]
        if isinstance(review, GameFailure):
            review = dataclasses.replace(review, game=index)
        results.append((index, review, positions))
    return results


def review_pgn(
    source: Any,
    engine: None | str | Sequence[str] = None,
    limit: Any = None,
    *,
    address: str | None = None,
    pgn_out: str | os.PathLike[str] | None = None,
    moves_table: str | os.PathLike[str] | None = None,
    games_table: str | os.PathLike[str] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    filter: Any | None = None,
    from_comments: bool = False,
    multipv: int = 1,
    threads: int = 1,
    hash_mb: int = 64,
    timeout: float | None = 10.0,
    position_timeout: float | None = None,
    on_error: Literal["skip", "raise"] = "skip",
    games_per_task: int = 4,
    max_retries: int = 3,
    progress: bool | Callable[[int, int], object] = True,
) -> Any:
    """:func:`shatranj.review.review_pgn` on a Ray cluster: the same arguments and outputs, with
    the games of the source read here and reviewed ``games_per_task`` to a task on the
    cluster's workers (``engine`` is ``None`` for the in-process search, or a UCI engine's
    command that exists on every node). Each game's review depends only on the game, so the
    results equal a local review's; they are written here in the source's order, a wave of
    tasks at a time, with the same checkpoint and resumption. Returns a
    :class:`shatranj.review.DatabaseReview`.
    """
    from .review import check_limit
    from .review._database import DatabaseWriter, settings, write_database

    _check_count("games_per_task", games_per_task, 1)
    if engine is not None and not isinstance(engine, (str, list, tuple)):
        raise TypeError(
            "engine must be None or a UCI engine's command (an engine object cannot travel)"
        )
    if not from_comments:
        check_limit(limit)
    writer = DatabaseWriter(
        settings(source, engine, limit, filter, from_comments, multipv),
        pgn_out=pgn_out, moves_table=moves_table, games_table=games_table, checkpoint=checkpoint,
        progress=progress, commit_every=1 << 30,
    )  # fmt: skip
    review_settings: dict[str, Any] = {
        "engine": engine, "limit": limit, "from_comments": from_comments, "multipv": multipv,
        "threads": threads, "hash_mb": hash_mb, "timeout": timeout, "position_timeout": position_timeout,
        "on_error": on_error,
    }  # fmt: skip

    def reviews(games: Any) -> Any:
        connect(address)
        wave_size = max(1, cluster_cpus() // threads) * TASKS_PER_CPU * games_per_task
        numbered = ((i, g) for i, g in enumerate(games) if i >= writer.resume_at)
        while True:
            wave = [item for _, item in zip(range(wave_size), numbered)]
            if not wave:
                return
            tasks: list[ReviewPayload] = [
                (review_settings, [(i, str(g)) for i, g in wave[start : start + games_per_task]])
                for start in range(0, len(wave), games_per_task)
            ]
            results = run_tasks(
                _review_task, tasks, name="review", max_retries=max_retries, num_cpus=threads
            )
            originals = dict(wave)
            for group in results:
                for index, reviewed, positions in group:
                    yield index, originals[index], reviewed, positions
            writer.commit()  # every game of the wave is added by now: the wave is one commit

    return write_database(writer, source, filter, reviews)


# A match: rounds ``first..`` of a match's arguments (which end at the task's last round).
MatchPayload = tuple[list[str], int]


def _match_task(payload: MatchPayload) -> str:
    args, first_round = payload
    return _core.match_run(args, first_round)


class _MatchOver(Exception):
    """Raised from the result callback when the pooled match is decided (the SPRT, or a
    fault without ``recover``): run_tasks then cancels every outstanding task."""


def match(
    engines: Sequence[Any],
    *,
    each: Any | None = None,
    rounds: int = 1,
    games: int = 2,
    openings: Any = None,
    srand: int | None = None,
    sprt: Any | None = None,
    draw: Any | None = None,
    resign: Any | None = None,
    maxmoves: int | None = None,
    pgnout: str | os.PathLike[str] | None = None,
    recover: bool = False,
    variant: Literal["standard", "fischerandom"] | None = None,
    tournament: Literal["roundrobin", "gauntlet"] | None = None,
    seeds: int | None = None,
    extra: Sequence[str] = (),
    address: str | None = None,
    rounds_per_task: int | None = None,
    max_retries: int = 3,
    progress: bool | Callable[[int, int], object] = False,
) -> Any:
    """:func:`shatranj.match.run` on a Ray cluster: the same settings and the same
    :class:`shatranj.match.MatchResult`, or for three engines or more (``tournament``:
    ``"roundrobin"`` or ``"gauntlet"``, with ``seeds``) the same
    :class:`shatranj.match.TournamentResult`.

    The rounds are dealt to tasks ``rounds_per_task`` at a time (contiguous ranges of one
    pairing, no round twice; default: about four tasks per CPU, at most 25 rounds each); each
    task plays its rounds with the Rust runner, one game at a time on one CPU, its engines
    started on the worker (``cmd`` and the openings file must exist on every node). The
    results are pooled here in the order the local runner plays them (pairing by pairing,
    round by round): the SPRT is consulted after every round, and when it decides (or an
    engine crashes or hangs without ``recover``) the outstanding tasks are cancelled and the
    rounds after the deciding one dropped. So a fixed-node match or tournament gives the same
    counts, games, standings and decision as a local one. ``pgnout`` is written here, in that
    order; a run on a cluster keeps no state file (a task that dies is run again by Ray).
    ``latency`` sums the tasks' measurements.
    """
    from . import match as _match

    _check_count("rounds", rounds, 1)
    if rounds_per_task is not None:
        _check_count("rounds_per_task", rounds_per_task, 1)
    for flag in ("-config", "-pgnout", "-concurrency", "-tournament", "-seeds"):
        if flag in extra:
            raise ValueError(
                f"{flag} in extra: a match on a cluster writes its PGN here, keeps no state file"
                " and takes tournament= and seeds= as keywords"
            )

    def settings(players: Sequence[Any], last_round: int, test: Any | None = None) -> list[str]:
        # The tasks play without the SPRT: it is consulted here, on the pooled rounds.
        return _match.arguments(
            players, each=each, rounds=last_round, games=games, openings=openings, srand=srand,
            sprt=test, draw=draw, resign=resign, maxmoves=maxmoves, recover=recover,
            variant=variant, extra=extra,
        )  # fmt: skip

    # Checks every setting here, before any task starts (the same parser as the workers').
    if tournament is not None:
        if len(engines) < 3:
            raise ValueError("a tournament needs three engines or more (two play a match)")
        plan_args = settings(engines, rounds, sprt) + ["-tournament", tournament]
        if seeds is not None:
            plan_args += ["-seeds", str(int(seeds))]
        names, plan = _core.match_plan(plan_args)
    else:
        if len(engines) > 2:
            raise ValueError(
                f"{len(engines)} engines play a tournament: pass tournament='roundrobin' or"
                " 'gauntlet'"
            )
        names = list(_core.match_check(settings(engines, rounds, sprt)))
        plan = [(0, 1)]
    connect(address)
    per = rounds_per_task or max(1, min(25, rounds * len(plan) // (TASKS_PER_CPU * cluster_cpus())))
    payloads: list[MatchPayload] = []
    for i, j in plan:
        for first in range(0, rounds, per):
            players = [engines[i], engines[j]]
            payloads.append((settings(players, min(rounds, first + per)), first))
    tasks_per_pairing = len(range(0, rounds, per))

    import json

    # Rounds are counted in play order, by (pairing, round); those that arrive early wait.
    waiting: dict[tuple[int, int], Any] = {}
    counted: list[tuple[int, Any]] = []
    state: dict[str, Any] = {"next": (0, 0), "stopped_by": None}
    latency: dict[str, dict[str, int]] = {}

    def add_latency(part: dict[str, dict[str, int]]) -> None:
        for kind, spread in part.items():
            mine = latency.setdefault(kind, {k: 0 for k in spread})
            for key, value in spread.items():
                mine[key] = (
                    max(mine.get(key, 0), value) if key == "max_us" else mine.get(key, 0) + value
                )

    def on_result(index: int, text: str) -> None:
        summary = json.loads(text)
        add_latency(summary["latency"])
        pairing = index // tasks_per_pairing
        for r in _match._rounds(summary):
            waiting[(pairing, r.round)] = r
        while state["next"] in waiting:
            pairing, number = state["next"]
            r = waiting.pop(state["next"])
            counted.append((pairing, r))
            state["next"] = (pairing, number + 1) if number + 1 < rounds else (pairing + 1, 0)
            if not recover:
                failed = next(
                    (g.fault for g in r.games if g.fault and g.fault.endswith((" crash", " hang"))),
                    None,
                )
                if failed is not None:
                    name, _, fault = failed.rpartition(" ")
                    state["stopped_by"] = (
                        f"{name}: {fault}; the match stops (-recover restarts the engine and plays on)"
                    )
                    raise _MatchOver
            if sprt is not None and tournament is None:
                pooled = _match._pooled(
                    (names[0], names[1]), [r for _, r in counted], games, sprt, latency, None
                )
                if pooled.sprt is not None and pooled.sprt.decision is not None:
                    raise _MatchOver

    report: Progress | None
    if progress is True:
        report = TextProgress("match")
    elif progress is False:
        report = None
    else:
        report = progress
    try:
        run_tasks(
            _match_task, payloads, name="match", address=address, max_retries=max_retries,
            max_in_flight=cluster_cpus() * TASKS_PER_CPU, progress=report, on_result=on_result,
        )  # fmt: skip
    except _MatchOver:
        pass
    if pgnout is not None:
        with open(pgnout, "w", encoding="utf-8") as out:
            for _, r in counted:
                for g in r.games:
                    out.write(g.pgn)
    if tournament is None:
        return _match._pooled(
            (names[0], names[1]), [r for _, r in counted], games, sprt, latency,
            state["stopped_by"],
        )  # fmt: skip
    return _pooled_tournament(tournament, names, plan, counted, games, latency, state["stopped_by"])


def _pooled_tournament(
    kind: str,
    names: list[str],
    plan: list[tuple[int, int]],
    counted: list[tuple[int, Any]],
    games: int,
    latency: dict[str, dict[str, int]],
    stopped_by: str | None,
) -> Any:
    """A tournament's result from its counted rounds, as the local runner gives it: the
    pairings begun (the last one possibly stopped early) and the standings ranked by the
    runner's own rule (``_core.match_standings``)."""
    import json

    from . import match as _match

    played = sorted({k for k, _ in counted}) if counted else []
    begun = range(played[-1] + 1) if played else range(0)
    pairings = []
    for k in begun:
        i, j = plan[k]
        part = _match._pooled(
            (names[i], names[j]), [r for p, r in counted if p == k], games, None, {}, None
        )
        pairings.append((k, part))
    standings = json.loads(
        _core.match_standings(names, [(*plan[k], list(p.trinomial)) for k, p in pairings])
    )
    faults: dict[str, int] = {}
    for _, part in pairings:
        for fault, n in part.faults.items():
            faults[fault] = faults.get(fault, 0) + n
    return _match.TournamentResult(
        kind=kind,
        names=tuple(names),
        standings=tuple(_match._standing(s) for s in standings),
        pairings=tuple(_match.Pairing(*p.names, p.trinomial, p.pentanomial) for _, p in pairings),
        faults=faults,
        latency=latency,
        stopped_by=stopped_by,
        rounds=tuple(counted),
    )

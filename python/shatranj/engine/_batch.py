"""``analyse_many``: analyse many positions with several engines at once.

With an engine command, N engine processes run side by side, all driven from the calling
thread: one ``select`` over every engine's pipes, no thread or process pool, no event loop.
An engine that dies or stops answering is killed and replaced, and its position tried once
more. With ``command=None`` the in-process engine (:class:`shatranj.Engine`) runs on N
threads (its search releases the GIL).

Each position starts a new game (``ucinewgame``, or a cleared hash table in process) unless
``new_game=False``, so a position's result depends only on the position and the settings,
not on which engine happened to analyse it after which other position: with a node limit
and one search thread the results are reproducible.

Ctrl-C stops every engine (engine processes are killed and reaped) and raises
``KeyboardInterrupt`` in the caller.
"""

from __future__ import annotations

import collections
import concurrent.futures
import math
import os
import select
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import (
    Any,
    Literal,
    overload,
)

from .._core import Board
from ._analysis import AnalysisResult
from ._commands import _Slot
from ._errors import EngineError, EngineTerminatedError, EngineTimeoutError, _with_output
from ._local import Engine
from ._simple import _POLL_INTERVAL, SimpleEngine
from ._values import INFO_ALL, ConfigMapping, Info, InfoDict, Limit

Position = Board | str
#: One position's result: its info dict (a list of them with ``multipv``), or the exception
#: that stopped its analysis.
BatchResult = InfoDict | list[InfoDict] | BaseException
ProgressCallback = Callable[[int, int], None]

COLUMNS = ("fen", "score_cp", "mate", "best", "pv", "depth", "nodes", "error")


@overload
def analyse_many(
    positions: Iterable[Position],
    command: str | Sequence[str] | None,
    *,
    limit: Limit,
    processes: int | None = ...,
    options: ConfigMapping = ...,
    multipv: int | None = ...,
    info: Info = ...,
    columns: Literal[False] = ...,
    pov: Literal["white", "turn"] = ...,
    new_game: bool = ...,
    timeout: float | None = ...,
    progress: bool | ProgressCallback = ...,
    popen_args: Mapping[str, Any] | None = ...,
) -> list[BatchResult]: ...
@overload
def analyse_many(
    positions: Iterable[Position],
    command: str | Sequence[str] | None,
    *,
    limit: Limit,
    processes: int | None = ...,
    options: ConfigMapping = ...,
    multipv: int | None = ...,
    info: Info = ...,
    columns: Literal[True],
    pov: Literal["white", "turn"] = ...,
    new_game: bool = ...,
    timeout: float | None = ...,
    progress: bool | ProgressCallback = ...,
    popen_args: Mapping[str, Any] | None = ...,
) -> dict[str, list[Any]]: ...
def analyse_many(
    positions: Iterable[Position],
    command: str | Sequence[str] | None,
    *,
    limit: Limit,
    processes: int | None = None,
    options: ConfigMapping = {},  # noqa: B006 (python-chess's signature; never mutated)
    multipv: int | None = None,
    info: Info = INFO_ALL,
    columns: bool = False,
    pov: Literal["white", "turn"] = "white",
    new_game: bool = True,
    timeout: float | None = 10.0,
    progress: bool | ProgressCallback = True,
    popen_args: Mapping[str, Any] | None = None,
) -> list[BatchResult] | dict[str, list[Any]]:
    """Analyses every position (a :class:`shatranj.Board`, whose move stack is sent, or a
    FEN) within ``limit``, with ``processes`` engines at once (default: one per CPU).

    ``command`` is a UCI engine (a program, or a list of a program and its arguments), or
    ``None`` for the in-process engine on threads (``options`` then takes ``Hash``,
    ``Threads`` and ``EvalFile``; ``limit`` depth, nodes and time). ``options`` configure
    every engine; ``multipv``, ``info`` and ``timeout`` are as in
    :meth:`SimpleEngine.analyse`; ``popen_args`` go to ``subprocess.Popen`` (``cwd``,
    ``env``...).

    Returns one result per position, in input order: the info dict (a list of them with
    ``multipv``), or the exception for a position that failed (an invalid FEN, an engine
    error, an engine that died or hung twice on it). A failure never aborts the batch.

    ``columns=True`` returns a dict of equally long lists instead, ready for
    ``pandas.DataFrame(...)`` or ``numpy.asarray(...)``: ``fen``; ``score_cp`` and ``mate``
    (floats, NaN when absent; from White's point of view, or the side to move's with
    ``pov="turn"``; ``mate`` is python-chess's ``Score.mate()``: 0 when the game is over by
    mate); ``best`` and ``pv`` (UCI text, ``None`` when absent); ``depth`` and ``nodes``
    (ints, 0 when absent); ``error`` (the message, ``None`` when the position succeeded).
    With ``multipv`` the columns describe the best line.

    ``progress``: ``True`` prints a progress line to stderr, a callable is called with
    ``(done, total)`` as results come in, ``False`` is silent.
    """
    items = list(positions)
    if processes is None:
        processes = os.cpu_count() or 1
    if isinstance(processes, bool) or not isinstance(processes, int) or processes < 1:
        raise ValueError(f"processes must be a positive int, not {processes!r}")
    if not isinstance(limit, Limit):
        raise TypeError(f"limit must be a shatranj.engine.Limit, not {type(limit).__name__}")
    if pov not in ("white", "turn"):
        raise ValueError(f"pov must be 'white' or 'turn', not {pov!r}")
    if multipv is not None and (
        isinstance(multipv, bool) or not isinstance(multipv, int) or multipv < 1
    ):
        raise ValueError(f"multipv must be a positive int, not {multipv!r}")
    reporter = _Progress(len(items), progress)
    processes = max(1, min(processes, len(items)))
    if not items:
        results: list[BatchResult] = []
    elif command is None:
        if popen_args:
            raise ValueError("popen_args needs an engine command")
        results = _in_process(items, limit, options, processes, multipv, new_game, reporter)
    else:
        argv = [command] if isinstance(command, (str, os.PathLike)) else list(command)
        batch = _Batch(
            items,
            argv,
            limit,
            options,
            processes,
            multipv,
            info,
            new_game,
            timeout,
            popen_args or {},
            reporter,
        )
        results = batch.run()
    reporter.finish()
    return _to_columns(items, results, pov) if columns else results


def _board(position: Position) -> Board:
    if isinstance(position, Board):
        return position
    if isinstance(position, str):
        return Board(position)
    raise TypeError(f"a position is a shatranj.Board or a FEN, not {type(position).__name__}")


class _Progress:
    """Progress on stderr: a line rewritten in place on a terminal, else every 10 s."""

    def __init__(self, total: int, setting: bool | ProgressCallback) -> None:
        self.total = total
        self.callback = setting if callable(setting) else None
        self.printing = setting is True
        self.tty = self.printing and sys.stderr.isatty()
        self.start = time.monotonic()
        self.last = 0.0
        self.done = 0
        self.errors = 0

    def update(self, done: int, errors: int) -> None:
        self.done, self.errors = done, errors
        if self.callback is not None:
            self.callback(done, self.total)
        if self.printing:
            now = time.monotonic()
            if now - self.last >= (0.2 if self.tty else 10.0):
                self.last = now
                self._print(final=False)

    def _print(self, *, final: bool) -> None:
        elapsed = max(time.monotonic() - self.start, 1e-9)
        rate = self.done / elapsed
        line = (
            f"analyse_many: {self.done}/{self.total} positions, {rate:.1f}/s, {self.errors} errors"
        )
        if not final and rate > 0:
            line += f", {((self.total - self.done) / rate):.0f} s left"
        end = "\n" if final or not self.tty else ""
        sys.stderr.write(("\r" if self.tty else "") + line + end)
        sys.stderr.flush()

    def finish(self) -> None:
        if self.printing and self.total:
            self._print(final=True)


class _Worker:
    """One engine process and the position it is on."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.engine: SimpleEngine | None = None
        self.index: int | None = None
        self.attempt = 0
        self.slot: _Slot[AnalysisResult] | None = None
        self.analysis: AnalysisResult | None = None
        self.deadline: float | None = None


class _Batch:
    def __init__(
        self,
        items: list[Position],
        argv: list[Any],
        limit: Limit,
        options: ConfigMapping,
        processes: int,
        multipv: int | None,
        info: Info,
        new_game: bool,
        timeout: float | None,
        popen_args: Mapping[str, Any],
        reporter: _Progress,
    ) -> None:
        self.items, self.argv, self.limit, self.options = items, argv, limit, dict(options)
        self.multipv, self.info, self.new_game, self.timeout = multipv, info, new_game, timeout
        self.popen_args = dict(popen_args)
        self.reporter = reporter
        self.results: list[BatchResult | None] = [None] * len(items)
        self.todo: collections.deque[tuple[int, int]] = collections.deque(
            (i, 1) for i in range(len(items))
        )
        self.workers = [_Worker(n) for n in range(processes)]
        self.done = 0
        self.errors = 0
        self.game: object = object()
        self.start_error: BaseException | None = None

    def run(self) -> list[BatchResult]:
        try:
            for worker in self.workers:
                self._start(worker)
            while self.done < len(self.items):
                self._assign()
                if not any(w.index is not None for w in self.workers):
                    self._fail_rest()
                    break
                self._round()
        finally:
            for worker in self.workers:
                if worker.engine is not None:
                    worker.engine.close()
        return self.results  # type: ignore[return-value]

    # Engines.

    def _start(self, worker: _Worker) -> None:
        try:
            engine = SimpleEngine.popen_uci(self.argv, timeout=self.timeout, **self.popen_args)
        except (OSError, EngineError) as err:
            # Python's own errors (a missing program: FileNotFoundError) say enough.
            self.start_error = err
            worker.engine = None
            return
        try:
            if self.options:
                engine.configure(self.options)
        except BaseException:
            engine.close()
            raise
        worker.engine = engine

    def _restart(self, worker: _Worker) -> None:
        if worker.engine is not None:
            worker.engine.close()
            worker.engine = None
        self._start(worker)

    # Positions.

    def _assign(self) -> None:
        for worker in self.workers:
            while worker.index is None and worker.engine is not None and self.todo:
                index, attempt = self.todo.popleft()
                try:
                    board = _board(self.items[index])
                    engine = worker.engine
                    protocol = engine.protocol
                    with engine._lock:
                        game = object() if self.new_game else self.game
                        command = protocol._cmd_analysis(
                            board, self.limit, self.multipv, game, self.info, None, {}
                        )
                        slot = protocol._submit(command)
                except (ValueError, TypeError, EngineError) as err:
                    self._finish(index, err)
                    continue
                engine.transport.touch()
                worker.index, worker.attempt, worker.slot, worker.analysis = (
                    index,
                    attempt,
                    slot,
                    None,
                )
                worker.deadline = None
                if self.timeout is not None and self.limit.time is not None:
                    worker.deadline = time.monotonic() + self.timeout + self.limit.time

    def _finish(self, index: int, result: BatchResult) -> None:
        self.results[index] = result
        self.done += 1
        if isinstance(result, BaseException):
            self.errors += 1
        self.reporter.update(self.done, self.errors)

    def _fail_rest(self) -> None:
        error = self.start_error or EngineError("no engine is running")
        while self.todo:
            index, _ = self.todo.popleft()
            self._finish(index, error)

    def _round(self) -> None:
        now = time.monotonic()
        wait = _POLL_INTERVAL
        owner: dict[int, _Worker] = {}
        readable: list[int] = []
        writable: list[int] = []
        for worker in self.workers:
            if worker.index is None or worker.engine is None:
                continue
            if worker.deadline is not None:
                wait = min(wait, worker.deadline - now)
            try:
                again = worker.engine._liveness(now)
            except EngineTimeoutError as err:
                self._engine_failed(worker, err)
                return
            if again is not None:
                wait = min(wait, again - now)
            timer = worker.engine.transport.next_timer()
            if timer is not None:
                wait = min(wait, timer - now)
            r, w = worker.engine.transport.fds()
            readable += r
            writable += w
            for fd in r + w:
                owner[fd] = worker
        if readable or writable:
            ready_r, ready_w, _ = select.select(readable, writable, [], max(0.0, wait))
        else:
            ready_r = ready_w = []
        touched = {owner[fd] for fd in list(ready_r) + list(ready_w)}
        for worker in self.workers:
            if worker.engine is None or worker.index is None:
                continue
            transport = worker.engine.transport
            if worker in touched:
                transport.handle(
                    [fd for fd in ready_r if owner[fd] is worker],
                    [fd for fd in ready_w if owner[fd] is worker],
                )
            else:
                transport.idle()
                transport.run_timers()
            self._check(worker)

    def _check(self, worker: _Worker) -> None:
        assert worker.engine is not None and worker.index is not None and worker.slot is not None
        with worker.engine._lock:
            if worker.analysis is None and worker.slot.done():
                error = worker.slot.exception()
                if error is not None:
                    self._analysis_failed(worker, error)
                    return
                worker.analysis = worker.slot.result()
            analysis = worker.analysis
            if analysis is not None and analysis._done:
                if analysis._error is not None:
                    self._analysis_failed(worker, analysis._error)
                    return
                result: BatchResult = (
                    analysis.multipv if self.multipv is not None else analysis.info
                )
                index = worker.index
                worker.index = None
                self._finish(index, result)
                return
        if worker.deadline is not None and time.monotonic() >= worker.deadline:
            error = EngineTimeoutError(
                f"engine did not finish the analysis within the timeout ({self.timeout} s)"
            )
            self._engine_failed(worker, _with_output(error, worker.engine.protocol._recent))

    def _analysis_failed(self, worker: _Worker, error: BaseException) -> None:
        if isinstance(error, EngineTerminatedError):
            self._engine_failed(worker, error)
            return
        index = worker.index
        assert index is not None
        worker.index = None
        self._finish(index, error)

    def _engine_failed(self, worker: _Worker, error: BaseException) -> None:
        """The engine died or hung on this position: replace it; try the position once more."""
        index, attempt = worker.index, worker.attempt
        assert index is not None
        worker.index = None
        if attempt == 1:
            self.todo.appendleft((index, 2))
        else:
            self._finish(index, error)
        self._restart(worker)


def _in_process(
    items: list[Position],
    limit: Limit,
    options: ConfigMapping,
    processes: int,
    multipv: int | None,
    new_game: bool,
    reporter: _Progress,
) -> list[BatchResult]:
    for field in (
        "mate",
        "white_clock",
        "black_clock",
        "white_inc",
        "black_inc",
        "remaining_moves",
    ):
        if getattr(limit, field) is not None:
            raise ValueError(
                f"the in-process engine takes depth, nodes and time limits, not {field}"
            )
    if limit.depth is None and limit.nodes is None and limit.time is None:
        raise ValueError("the in-process engine needs a depth, nodes or time limit")
    settings: dict[str, Any] = {"threads": 1, "hash_mb": 16}
    for name, value in options.items():
        key = {"hash": "hash_mb", "threads": "threads", "evalfile": "eval_file"}.get(name.lower())
        if key is None:
            raise ValueError(
                f"the in-process engine has no option {name!r} (it takes Hash, Threads, EvalFile)"
            )
        settings[key] = value
    Engine(**settings)  # bad settings fail here, before any thread starts

    local = threading.local()
    engines: list[Engine] = []
    engines_lock = threading.Lock()
    cancelled = threading.Event()

    def analyse(index: int) -> BatchResult:
        if cancelled.is_set():
            raise KeyboardInterrupt
        engine = getattr(local, "engine", None)
        if engine is None:
            engine = local.engine = Engine(**settings)
            with engines_lock:
                engines.append(engine)
        try:
            board = _board(items[index])
            if new_game:
                engine.clear_hash()
            result = engine.analyse(
                board, depth=limit.depth, nodes=limit.nodes, time=limit.time, multipv=multipv or 1
            )
        except (ValueError, TypeError, RuntimeError) as err:
            return err
        if multipv is not None and isinstance(result, dict):
            return [result]
        return result

    results: list[BatchResult | None] = [None] * len(items)
    executor = concurrent.futures.ThreadPoolExecutor(
        max_workers=processes, thread_name_prefix="analyse_many"
    )
    futures = {executor.submit(analyse, i): i for i in range(len(items))}
    pending = set(futures)
    done = errors = 0
    try:
        while pending:
            finished, pending = concurrent.futures.wait(
                pending, timeout=0.2, return_when="FIRST_COMPLETED"
            )
            for future in finished:
                result = future.result()
                results[futures[future]] = result
                done += 1
                errors += isinstance(result, BaseException)
            if finished:
                reporter.update(done, errors)
    except BaseException:
        cancelled.set()
        for future in pending:
            future.cancel()
        with engines_lock:
            for engine in engines:
                engine.stop()
        executor.shutdown(wait=True, cancel_futures=True)
        raise
    executor.shutdown(wait=True)
    return results  # type: ignore[return-value]


def _to_columns(
    items: list[Position], results: list[BatchResult], pov: str
) -> dict[str, list[Any]]:
    table: dict[str, list[Any]] = {name: [] for name in COLUMNS}
    nan = math.nan
    for position, result in zip(items, results):
        if isinstance(position, Board):
            fen = position.fen()
        else:
            fen = position if isinstance(position, str) else repr(position)
        table["fen"].append(fen)
        info: InfoDict | None
        if isinstance(result, BaseException):
            info = None
            table["error"].append(str(result).split("\n", 1)[0] or type(result).__name__)
        else:
            info = result[0] if isinstance(result, list) else result
            if isinstance(result, list) and not result:
                info = {}
            table["error"].append(None)
        info = info or {}
        score = info.get("score")
        if score is not None:
            relative = score.white() if pov == "white" else score.relative
            cp, mate = relative.score(), relative.mate()
            table["score_cp"].append(float(cp) if cp is not None else nan)
            table["mate"].append(float(mate) if mate is not None else nan)
        else:
            table["score_cp"].append(nan)
            table["mate"].append(nan)
        pv = info.get("pv")
        table["best"].append(pv[0].uci() if pv else None)
        table["pv"].append(" ".join(move.uci() for move in pv) if pv else None)
        table["depth"].append(int(info.get("depth", 0)))
        table["nodes"].append(int(info.get("nodes", 0)))
    return table

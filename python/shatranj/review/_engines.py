"""The engines a review can use, behind one small interface: the lines of a position.

A review asks one thing of an engine: the best lines of a position within a limit, with
scores from White's point of view. :class:`Analyser` answers it for the shatranj search in
this process (:class:`shatranj.engine.Engine`), for any engine driven through
:class:`shatranj.engine.SimpleEngine` (Stockfish and co.), and for an engine given by its
command, which it starts, restarts when it dies or hangs, and closes.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any, NamedTuple, Union

from .._core import Board, Move
from ..engine._errors import EngineError
from ..engine._local import Engine
from ..engine._scores import Score
from ..engine._simple import SimpleEngine
from ..engine._values import Limit

#: What ``engine=`` takes: ``None`` (the shatranj search in this process, made for the
#: review), an :class:`~shatranj.engine.Engine`, a :class:`~shatranj.engine.SimpleEngine`, or
#: a UCI engine's command (a path, or a list of the program and its arguments).
EngineSpec = Union[None, Engine, SimpleEngine, str, "os.PathLike[str]", Sequence[str]]

#: The limit of a review when none is given: deterministic, and about a tenth of a second per
#: position for the built-in search on one core.
DEFAULT_LIMIT = Limit(nodes=100_000)


class Line(NamedTuple):
    """One line of an engine's answer: its score (White's view) and moves, best line first."""

    score: Score
    pv: list[Move]
    depth: int | None
    nodes: int | None


class ReviewEngineError(RuntimeError):
    """The engine failed on a position even after a restart: ``ply`` says which (0 is the
    position before the first move) and ``__cause__`` what the engine did."""

    def __init__(self, message: str, ply: int) -> None:
        super().__init__(message)
        self.ply = ply


def check_limit(limit: Limit | None) -> Limit:
    """``limit``, or the default; a limit must bound the search by nodes, depth or time."""
    if limit is None:
        return DEFAULT_LIMIT
    if not isinstance(limit, Limit):
        raise TypeError(f"limit must be a shatranj.engine.Limit, not {type(limit).__name__}")
    if limit.nodes is None and limit.depth is None and limit.time is None:
        raise ValueError("a review's limit needs nodes, depth or time (clocks are for games)")
    return limit


class Analyser:
    """An engine as a review drives it. Close it (or use ``with``) to stop an engine it started.

    ``engine`` is an :data:`EngineSpec`. Engines passed in are used as they are and left open;
    engines made here (``None`` or a command) are owned and closed. ``threads`` and
    ``hash_mb`` configure engines made here (the in-process one plays Chess960 games too). A
    command's engine that dies, stops answering (``timeout`` seconds of silence), or searches one
    position longer than ``position_timeout`` seconds is killed, started again and the position
    retried ``retries`` times.
    """

    def __init__(
        self,
        engine: EngineSpec = None,
        limit: Limit | None = None,
        *,
        multipv: int = 1,
        threads: int = 1,
        hash_mb: int = 64,
        timeout: float | None = 10.0,
        position_timeout: float | None = None,
        retries: int = 1,
    ) -> None:
        if isinstance(multipv, bool) or not isinstance(multipv, int) or multipv < 1:
            raise ValueError(f"multipv must be an int ≥ 1, not {multipv!r}")
        self.limit = check_limit(limit)
        self.multipv = multipv
        self._threads = threads
        self._hash_mb = hash_mb
        self._timeout = timeout
        self._position_timeout = position_timeout
        self._retries = retries
        self._command: Any | None = None
        self._owned = False
        self._game = object()
        if engine is None:
            self._engine: Engine | SimpleEngine = Engine(
                threads=threads, hash_mb=hash_mb, chess960=True
            )
            self._owned = True
        elif isinstance(engine, (Engine, SimpleEngine)):
            self._engine = engine
        elif isinstance(engine, (str, os.PathLike)) or (
            isinstance(engine, Sequence) and all(isinstance(part, str) for part in engine)
        ):
            self._command = os.fspath(engine) if isinstance(engine, os.PathLike) else engine
            self._engine = self._start()
            self._owned = True
        else:
            raise TypeError(
                f"engine must be None, a shatranj Engine or SimpleEngine, or a command, not {type(engine).__name__}"
            )

    @property
    def name(self) -> str:
        """The engine's name, for the review's record."""
        if isinstance(self._engine, Engine):
            return "shatranj"
        return str(self._engine.id.get("name", self._command or "UCI engine"))

    def _start(self) -> SimpleEngine:
        assert self._command is not None
        engine = SimpleEngine.popen_uci(self._command, timeout=self._timeout)
        options = {"Threads": self._threads, "Hash": self._hash_mb}
        engine.configure({name: value for name, value in options.items() if name in engine.options})
        return engine

    def new_game(self) -> None:
        """Forgets earlier positions, so a game's review depends only on the game."""
        if isinstance(self._engine, Engine):
            self._engine.clear_hash()
        else:
            self._game = object()  # SimpleEngine sends ucinewgame for a new game token

    def lines(self, board: Board, ply: int) -> list[Line]:
        """The engine's best lines of ``board`` (its move stack counts for repetitions)."""
        attempts = 0
        while True:
            watchdog = None
            if self._command is not None and self._position_timeout is not None:
                watchdog = threading.Timer(self._position_timeout, self.stop)
                watchdog.daemon = True
                watchdog.start()
            try:
                return self._analyse(board)
            except (EngineError, OSError) as error:
                attempts += 1
                overran = watchdog is not None and watchdog.finished.is_set()
                why = f"no answer within {self._position_timeout} s" if overran else str(error)
                if self._command is None or attempts > self._retries:
                    raise ReviewEngineError(
                        f"the engine failed at ply {ply}: {why}", ply
                    ) from error
                self._restart()
            finally:
                if watchdog is not None:
                    watchdog.cancel()

    def _restart(self) -> None:
        try:
            self._engine.close()  # type: ignore[union-attr]
        except Exception:  # noqa: BLE001 - a dead engine may fail to close: it is replaced anyway
            pass
        self._engine = self._start()
        self._game = object()

    def _analyse(self, board: Board) -> list[Line]:
        limit = self.limit
        if isinstance(self._engine, Engine):
            infos: Any = self._engine.analyse(
                board, depth=limit.depth, nodes=limit.nodes, time=limit.time, multipv=self.multipv
            )
        else:
            infos = self._engine.analyse(board, limit, multipv=self.multipv, game=self._game)
        if isinstance(infos, dict):
            infos = [infos]
        lines = [
            Line(
                info["score"].white(),
                list(info.get("pv", [])),
                info.get("depth"),
                info.get("nodes"),
            )
            for info in infos
            if "score" in info
        ]
        if not lines:
            raise EngineError("the engine gave no score")
        return lines

    def close(self) -> None:
        """Stops an engine this analyser started."""
        if self._owned and isinstance(self._engine, SimpleEngine):
            self._engine.close()

    def stop(self) -> None:
        """Interrupts a search in progress (from another thread): the in-process search stops;
        an engine process started here is killed."""
        if isinstance(self._engine, Engine):
            self._engine.stop()
        elif self._owned:
            try:
                self._engine.transport.kill()  # type: ignore[union-attr]
            except Exception:  # noqa: BLE001 - already gone
                pass

    def __enter__(self) -> Analyser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

"""The UCI and XBoard (CECP) protocols, with python-chess's ``chess.engine`` names and shapes.

What this module owns: the engine's state as the client sees it (options, configuration, the
position last sent, the game, pondering), the commands that drive it, and the parsing of what
engines print. It does no input or output itself. A *transport* carries lines: asyncio's
subprocess transport (the ``async`` API, as in python-chess), :class:`MockTransport` (tests),
or the blocking transport of :class:`shatranj.engine.SimpleEngine`, which reads the engine's
pipes in the caller's thread (no event loop, no thread hop per call).

Commands run one at a time. A new command cancels the running one (``stop`` for a search)
and starts when it has finished, exactly as python-chess sequences them, so the lines an
engine receives are the same as python-chess would send (python-chess's own engine tests,
run against this module by ``python/tests/engine/test_engine_conformance.py``, check them).

Differences from python-chess, all deliberate:

- Errors carry the engine's last output lines (:attr:`EngineError.output`, also in the
  message), and timeouts raise :class:`EngineTimeoutError`, which is both an
  :class:`EngineError` and an ``asyncio.TimeoutError``.
- A command whose caller has given up before it started (timeout, cancellation) never starts.
- An engine that dies while an analysis is starting fails the caller instead of leaving it
  waiting, and an error in a running analysis reaches its reader.
- An option whose default does not parse (a spin without one) gets the default ``None``
  and a warning, rather than failing the initialisation.
- The null move (``0000``) in a principal variation is refused (shatranj's boards do not
  play null moves): that pv is left out, with the error logged.
"""

from __future__ import annotations

import abc
import asyncio
import collections
import concurrent.futures
import copy
import dataclasses
import enum
import inspect
import logging
import re
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import (
    Callable,
    Coroutine,
    Iterable,
    Iterator,
    Mapping,
    MutableMapping,
    Sequence,
)
from typing import (
    TYPE_CHECKING,
    Any,
    Generic,
    TypeVar,
    overload,
)

from . import _core
from ._core import STARTING_FEN, Board, Move
from ._engine_scores import Cp, Mate, MateGiven, PovScore, PovWdl, Score, Wdl
from ._outcome import Termination

if TYPE_CHECKING:
    from typing_extensions import Self  # the checker's; not a runtime dependency

LOGGER = logging.getLogger("shatranj.engine")

T = TypeVar("T")
ProtocolT = TypeVar("ProtocolT", bound="Protocol")

ConfigValue = str | int | bool | None
ConfigMapping = Mapping[str, ConfigValue]

#: Options the client sets itself for each search; ``configure`` refuses them.
MANAGED_OPTIONS = ["uci_chess960", "uci_variant", "multipv", "ponder"]

#: How many of the engine's last output lines an error carries.
RECENT_OUTPUT_LINES = 20


# ---------------------------------------------------------------------------------------
# Errors


class EngineError(RuntimeError):
    """A misbehaving engine or a wrong use of it.

    ``output`` holds the engine's last output lines (stdout, and stderr lines prefixed
    ``stderr:``) when the error came from a running engine; the message ends with them."""

    output: Sequence[str] = ()

    def __str__(self) -> str:
        message = super().__str__()
        if not self.output:
            return message
        tail = "\n".join(f"  {line}" for line in self.output)
        return f"{message}\nlast engine output:\n{tail}"


class EngineTerminatedError(EngineError):
    """The engine process exited (or was never running). ``returncode``: its exit status,
    when known (negative: killed by that signal)."""

    returncode: int | None = None


_TIMEOUT_BASES: tuple[type, ...] = (
    (asyncio.TimeoutError,)
    if asyncio.TimeoutError is TimeoutError
    else (asyncio.TimeoutError, TimeoutError)
)


class EngineTimeoutError(EngineError, *_TIMEOUT_BASES):  # type: ignore[misc]
    """The engine did not answer in time (``SimpleEngine.timeout`` past what the command
    needs). Also an ``asyncio.TimeoutError``, which python-chess raises in this case."""


class AnalysisComplete(Exception):
    """The analysis is over and every info dict has been consumed."""


def _with_output(exc: BaseException, output: Iterable[str]) -> BaseException:
    if isinstance(exc, EngineError) and not exc.output:
        exc.output = tuple(output)
    return exc


def run_in_background(
    coroutine: Callable[[concurrent.futures.Future[T]], Coroutine[Any, Any, None]],
    *,
    name: str | None = None,
    debug: bool | None = None,
) -> T:
    """Runs ``coroutine(future)`` in a new event loop on a thread of its own, blocks until
    ``future`` has a result and returns it (the coroutine may go on running). An exception
    that escapes the coroutine before the result is set is raised here."""
    if not inspect.iscoroutinefunction(coroutine):
        raise TypeError("run_in_background needs a coroutine function")
    future: concurrent.futures.Future[T] = concurrent.futures.Future()

    def background() -> None:
        try:
            asyncio.run(coroutine(future), debug=debug)
            future.cancel()
        except BaseException as exc:  # noqa: B036 - handed to the waiting thread
            if not future.done():
                future.set_exception(exc)

    threading.Thread(target=background, name=name, daemon=True).start()
    return future.result()


# ---------------------------------------------------------------------------------------
# Value types


@dataclasses.dataclass(frozen=True)
class Option:
    """An option the engine declared: ``type`` is ``check``, ``spin``, ``combo``,
    ``button``, ``reset``, ``save``, ``string``, ``file`` or ``path``."""

    name: str
    type: str
    default: ConfigValue
    min: int | None
    max: int | None
    var: list[str] | None

    def parse(self, value: ConfigValue) -> ConfigValue:
        """``value`` as the engine takes it; :class:`EngineError` if it does not fit."""
        if self.type == "check":
            return bool(value) and value != "false"
        if self.type == "spin":
            try:
                number = int(value)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                raise EngineError(
                    f"expected integer for spin option {self.name!r}, got: {value!r}"
                ) from None
            if self.min is not None and number < self.min:
                raise EngineError(
                    f"expected value for option {self.name!r} to be at least {self.min}, got: {number}"
                )
            if self.max is not None and number > self.max:
                raise EngineError(
                    f"expected value for option {self.name!r} to be at most {self.max}, got: {number}"
                )
            return number
        if self.type == "combo":
            text = str(value)
            if text not in (self.var or []):
                choices = ", ".join(self.var) if self.var else "-"
                raise EngineError(
                    f"invalid value for combo option {self.name!r}, got: {text} (available: {choices})"
                )
            return text
        if self.type in ("button", "reset", "save"):
            return None
        if self.type in ("string", "file", "path"):
            text = str(value)
            if "\n" in text or "\r" in text:
                raise EngineError(f"invalid line-break in string option {self.name!r}: {text!r}")
            return text
        raise EngineError(f"unknown option type: {self.type!r}")

    def is_managed(self) -> bool:
        """Whether the client sets this option itself (``UCI_Chess960``, ``UCI_Variant``,
        ``MultiPV``, ``Ponder``)."""
        return self.name.lower() in MANAGED_OPTIONS


@dataclasses.dataclass
class Limit:
    """When to stop searching: ``time`` (seconds), ``depth`` (plies), ``nodes``, ``mate``
    (moves), the clocks and increments (seconds), ``remaining_moves`` to the next time
    control, and ``clock_id`` (XBoard: a new id sends the time control again)."""

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None
    white_clock: float | None = None
    black_clock: float | None = None
    white_inc: float | None = None
    black_inc: float | None = None
    remaining_moves: int | None = None
    clock_id: object = None

    def __repr__(self) -> str:
        fields = (
            "time", "depth", "nodes", "mate", "white_clock", "black_clock",
            "white_inc", "black_inc", "remaining_moves",
        )  # fmt: skip
        shown = ", ".join(
            f"{f}={getattr(self, f)!r}" for f in fields if getattr(self, f) is not None
        )
        return f"{type(self).__name__}({shown})"


#: An info dict: ``score`` (:class:`PovScore`), ``pv`` (moves), ``depth``, ``seldepth``,
#: ``time`` (s), ``nodes``, ``nps``, ``multipv``, ``tbhits``, ``currmove``,
#: ``currmovenumber``, ``hashfull``, ``cpuload``, ``refutation``, ``currline``, ``ebf``,
#: ``wdl`` (:class:`PovWdl`), ``string``, ``lowerbound``/``upperbound``.
InfoDict = dict[str, Any]


class PlayResult:
    """What :meth:`Protocol.play` returns: the move, the expected reply (``ponder``), the
    ``info`` selected with ``info=``, and whether the engine offered a draw or resigned."""

    def __init__(
        self,
        move: Move | None,
        ponder: Move | None,
        info: InfoDict | None = None,
        *,
        draw_offered: bool = False,
        resigned: bool = False,
    ) -> None:
        self.move = move
        self.ponder = ponder
        self.info: InfoDict = info or {}
        self.draw_offered = draw_offered
        self.resigned = resigned

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} at {id(self):#x} (move={self.move}, ponder={self.ponder}, "
            f"info={self.info}, draw_offered={self.draw_offered}, resigned={self.resigned})>"
        )


class Info(enum.IntFlag):
    """Which parts of the engine's info lines to parse."""

    NONE = 0
    BASIC = 1
    SCORE = 2
    PV = 4
    REFUTATION = 8
    CURRLINE = 16
    ALL = BASIC | SCORE | PV | REFUTATION | CURRLINE


INFO_NONE = Info.NONE
INFO_BASIC = Info.BASIC
INFO_SCORE = Info.SCORE
INFO_PV = Info.PV
INFO_REFUTATION = Info.REFUTATION
INFO_CURRLINE = Info.CURRLINE
INFO_ALL = Info.ALL


@dataclasses.dataclass
class Opponent:
    """The engine's opponent, for ``UCI_Opponent`` or XBoard's ``name``/``rating``."""

    name: str | None
    title: str | None
    rating: int | None
    is_engine: bool | None


class BestMove:
    """What :meth:`AnalysisResult.wait` returns."""

    def __init__(self, move: Move | None, ponder: Move | None) -> None:
        self.move = move
        self.ponder = ponder

    def __repr__(self) -> str:
        return f"<{type(self).__name__} at {id(self):#x} (move={self.move}, ponder={self.ponder}>"


class UciOptionMap(MutableMapping[str, T]):
    """A dict with case-insensitive keys that remembers each key's spelling."""

    def __init__(self, data: Iterable[tuple[str, T]] | None = None, **kwargs: T) -> None:
        self._store: dict[str, tuple[str, T]] = {}
        self.update(data if data is not None else {}, **kwargs)

    def __setitem__(self, key: str, value: T) -> None:
        self._store[key.lower()] = (key, value)

    def __getitem__(self, key: str) -> T:
        return self._store[key.lower()][1]

    def __delitem__(self, key: str) -> None:
        del self._store[key.lower()]

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key.lower() in self._store

    def __iter__(self) -> Iterator[str]:
        return (key for key, _ in self._store.values())

    # Faster than the MutableMapping defaults (the client reads these for every search).
    def get(self, key: str, default: Any = None) -> Any:
        entry = self._store.get(key.lower())
        return default if entry is None else entry[1]

    def items(self) -> list[tuple[str, T]]:  # type: ignore[override]
        return list(self._store.values())

    def __len__(self) -> int:
        return len(self._store)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        if len(self) != len(other):
            return False
        for key, value in self.items():
            if key not in other or other[key] != value:
                return False
        return all(not (key not in self or self[key] != value) for key, value in other.items())

    def copy(self) -> UciOptionMap[T]:
        return type(self)(self._store.values())

    def __copy__(self) -> UciOptionMap[T]:
        return self.copy()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self.items())!r})"


# ---------------------------------------------------------------------------------------
# Analysis results

_KORK: InfoDict = {}  # the end-of-analysis marker in the queue (an identity, not a value)
_EMPTY = object()


class AnalysisResult:
    """A running analysis: iterate over its info dicts as they come, read the aggregated
    ``info``/``multipv``, :meth:`stop` it, :meth:`wait` for the best move. As a context
    manager it stops the analysis on exit. Returned by :meth:`Protocol.analysis`."""

    def __init__(self, stop: Callable[[], None] | None = None) -> None:
        self._stop = stop
        self._queue: collections.deque[InfoDict] = collections.deque()
        self._posted_kork = False
        self._seen_kork = False
        self._best: BestMove | None = None
        self._error: BaseException | None = None
        self._done = False
        self._waiters: list[asyncio.Future[None]] = []
        #: One aggregated info dict per line of MultiPV (``multipv[0]`` is ``info``).
        self.multipv: list[InfoDict] = [{}]

    def post(self, info: InfoDict) -> None:
        if not info:
            return
        index = info.get("multipv", 1)
        while len(self.multipv) < index:
            self.multipv.append({})
        self.multipv[index - 1].update(info)
        self._queue.append(info)
        self._wake()

    def _kork(self) -> None:
        if not self._posted_kork:
            self._posted_kork = True
            self._queue.append(_KORK)
            self._wake()

    def _wake(self) -> None:
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def set_finished(self, best: BestMove) -> None:
        if not self._done:
            self._done = True
            self._best = best
        self._kork()

    def set_exception(self, exc: BaseException) -> None:
        if not self._done:
            self._done = True
            self._error = exc
        self._kork()

    @property
    def info(self) -> InfoDict:
        """The aggregated information of the main line (``multipv[0]``)."""
        return self.multipv[0]

    def stop(self) -> None:
        """Stops the analysis as soon as possible."""
        if self._stop is not None and not self._posted_kork:
            stop, self._stop = self._stop, None
            stop()

    def _outcome(self) -> BestMove:
        if self._error is not None:
            raise self._error
        assert self._best is not None
        return self._best

    def _pop(self) -> Any:
        """The next info dict, ``_EMPTY`` if none is there yet; raises at the end."""
        if self._seen_kork:
            raise AnalysisComplete()
        if not self._queue:
            return _EMPTY
        info = self._queue.popleft()
        if info is _KORK:
            self._seen_kork = True
            self._outcome()  # the engine's failure, if it failed
            raise AnalysisComplete()
        return info

    async def _changed(self) -> None:
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        await waiter

    async def wait(self) -> BestMove:
        """Waits for the end of the analysis and returns the best move."""
        while not self._done:
            await self._changed()
        return self._outcome()

    async def get(self) -> InfoDict:
        """The next info dict; :class:`AnalysisComplete` once all have been consumed."""
        while True:
            info = self._pop()
            if info is not _EMPTY:
                return info  # type: ignore[no-any-return]
            await self._changed()

    def would_block(self) -> bool:
        """Whether :meth:`get` would have to wait for the engine."""
        return not self._seen_kork and not self._queue

    def empty(self) -> bool:
        """Whether every info dict received so far has been consumed."""
        return self._seen_kork or len(self._queue) <= self._posted_kork

    async def next(self) -> InfoDict | None:
        try:
            return await self.get()
        except AnalysisComplete:
            return None

    def __aiter__(self) -> AnalysisResult:
        return self

    async def __anext__(self) -> InfoDict:
        try:
            return await self.get()
        except AnalysisComplete:
            raise StopAsyncIteration from None

    def __enter__(self) -> AnalysisResult:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# ---------------------------------------------------------------------------------------
# Commands


class _Slot(Generic[T]):
    """A command's result: pending, then a value, an exception or cancelled. Callbacks run
    synchronously (unlike asyncio's futures), so the protocol works without an event loop."""

    __slots__ = ("_callbacks", "_error", "_state", "_value")

    def __init__(self) -> None:
        self._state = 0  # 0 pending, 1 value, 2 exception, 3 cancelled
        self._value: T | None = None
        self._error: BaseException | None = None
        self._callbacks: list[Callable[[_Slot[T]], None]] = []

    def done(self) -> bool:
        return self._state != 0

    def cancelled(self) -> bool:
        return self._state == 3

    def set_result(self, value: T) -> None:
        if self._state == 0:
            self._state, self._value = 1, value
            self._fire()

    def set_exception(self, exc: BaseException) -> None:
        if self._state == 0:
            self._state, self._error = 2, exc
            self._fire()

    def cancel(self) -> bool:
        if self._state != 0:
            return False
        self._state = 3
        self._fire()
        return True

    def exception(self) -> BaseException | None:
        return self._error

    def result(self) -> T:
        if self._state == 1:
            return self._value  # type: ignore[return-value]
        if self._state == 2:
            assert self._error is not None
            raise self._error
        if self._state == 3:
            raise concurrent.futures.CancelledError()
        raise concurrent.futures.InvalidStateError("result is not ready")

    def add_done_callback(self, callback: Callable[[_Slot[T]], None]) -> None:
        if self._state != 0:
            callback(self)
        else:
            self._callbacks.append(callback)

    def _fire(self) -> None:
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(self)


class CommandState(enum.Enum):
    NEW = enum.auto()
    ACTIVE = enum.auto()
    CANCELLING = enum.auto()
    DONE = enum.auto()


class BaseCommand(Generic[T]):
    """One exchange with the engine. Subclasses override :meth:`start` (send the command),
    :meth:`line_received`, :meth:`cancel` (ask the engine to stop) and
    :meth:`engine_terminated`; they report through ``self.result`` and
    :meth:`set_finished`. An :class:`EngineError` raised by a hook fails the command."""

    def __init__(self, engine: Protocol) -> None:
        self._engine = engine
        self.state = CommandState.NEW
        self.result: _Slot[T] = _Slot()
        self.finished = False
        self._finished_callbacks: list[Callable[[], None]] = []
        self._timers: list[Any] = []

    # Hooks.

    def check_initialized(self) -> None:
        if not self._engine.initialized:
            raise EngineError("tried to run command, but engine is not initialized")

    def start(self) -> None:
        raise NotImplementedError

    def line_received(self, line: str) -> None:
        pass

    def cancel(self) -> None:
        pass

    def engine_terminated(self, exc: EngineTerminatedError) -> None:
        self._handle_exception(exc)

    # Machinery.

    def call_later(self, delay: float, callback: Callable[[], None]) -> None:
        """Runs ``callback`` after ``delay`` seconds unless the command has finished."""

        def fire() -> None:
            if not self.finished:
                try:
                    callback()
                except EngineError as err:
                    self._handle_exception(err)

        self._timers.append(self._engine._call_later(delay, fire))

    def add_finished_callback(self, callback: Callable[[], None]) -> None:
        if self.finished:
            callback()
        else:
            self._finished_callbacks.append(callback)

    def _mark_finished(self) -> None:
        if self.finished:
            return
        self.finished = True
        self.state = CommandState.DONE
        for timer in self._timers:
            timer.cancel()
        callbacks, self._finished_callbacks = self._finished_callbacks, []
        for callback in callbacks:
            callback()

    def _handle_exception(self, exc: BaseException) -> None:
        exc = _with_output(exc, self._engine._recent)
        if not self.result.done():
            self.result.set_exception(exc)
        else:
            LOGGER.error(
                "%s: %s failed after returning its result: %s",
                self._engine,
                type(self).__name__,
                exc,
            )
        self._mark_finished()

    def set_finished(self) -> None:
        if not self.result.done():
            self.result.set_exception(
                _with_output(
                    EngineError(f"engine command finished before returning result: {self!r}"),
                    self._engine._recent,
                )
            )
        self._mark_finished()

    def _start(self) -> None:
        self.state = CommandState.ACTIVE
        try:
            self.check_initialized()
            self.start()
        except EngineError as err:
            self._handle_exception(err)

    def _line_received(self, line: str) -> None:
        try:
            self.line_received(line)
        except EngineError as err:
            self._handle_exception(err)

    def _cancel(self) -> None:
        if self.state == CommandState.ACTIVE:
            self.state = CommandState.CANCELLING
            try:
                self.cancel()
            except EngineError as err:
                self._handle_exception(err)

    def _engine_terminated(self, code: int | None) -> None:
        hint = ", binary not compatible with cpu?" if code in (-4, 0xC000001D) else ""
        exc = EngineTerminatedError(f"engine process died unexpectedly (exit code: {code}{hint})")
        exc.returncode = code
        _with_output(exc, self._engine._recent)
        if self.state == CommandState.ACTIVE:
            self.engine_terminated(exc)
        elif self.state == CommandState.CANCELLING:
            self._mark_finished()
        elif self.state == CommandState.NEW:
            self._handle_exception(exc)
        # The hooks may leave the command unfinished; a dead engine sends nothing more.
        if not self.result.done():
            self.result.set_exception(exc)
        self._mark_finished()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} at {id(self):#x} (state={self.state}, finished={self.finished})>"


class _Immediate(BaseCommand[None]):
    """Runs ``action`` (which may send lines) and finishes at once."""

    def __init__(self, engine: Protocol, action: Callable[[], None]) -> None:
        super().__init__(engine)
        self._action = action

    def start(self) -> None:
        self._action()
        self.result.set_result(None)
        self.set_finished()


# ---------------------------------------------------------------------------------------
# The protocol base


class Protocol(asyncio.SubprocessProtocol, metaclass=abc.ABCMeta):
    """The client side of one engine: its options (``options``), ``id`` and state.

    Driven by asyncio (``await protocol.play(...)``; create it with :func:`popen_uci` or
    :func:`popen_xboard`) or by :class:`shatranj.engine.SimpleEngine`."""

    options: MutableMapping[str, Option]
    id: dict[str, str]

    def __init__(self) -> None:
        try:
            self.loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            self.loop = None  # driven by SimpleEngine's blocking transport
        self.transport: Any | None = None
        self._buffers = {1: bytearray(), 2: bytearray()}
        self.command: BaseCommand[Any] | None = None
        self.next_command: BaseCommand[Any] | None = None
        self.initialized = False
        self._exit_code: int | None = None
        self._terminated = False
        self._recent: collections.deque[str] = collections.deque(maxlen=RECENT_OUTPUT_LINES)
        self.returncode: asyncio.Future[int] | concurrent.futures.Future[int] = (
            self.loop.create_future() if self.loop is not None else concurrent.futures.Future()
        )

    # asyncio.SubprocessProtocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        LOGGER.debug("%s: connection made", self)

    def connection_lost(self, exc: Exception | None) -> None:
        code = self.transport.get_returncode() if self.transport is not None else None
        LOGGER.debug("%s: connection lost (exit code: %s, error: %s)", self, code, exc)
        self._engine_terminated(code)

    def process_exited(self) -> None:
        LOGGER.debug("%s: process exited", self)

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        buffer = self._buffers[fd]
        buffer.extend(data.encode("utf-8") if isinstance(data, str) else data)
        if b"\n" not in buffer:
            return
        *lines, rest = buffer.split(b"\n")
        self._buffers[fd] = bytearray(rest)
        for raw in lines:
            if raw.endswith(b"\r"):
                raw = raw[:-1]
            line = raw.decode("utf-8", errors="replace")
            if fd == 1:
                self._line_received(line)
            else:
                self.error_line_received(line)

    # Lines.

    def send_line(self, line: str) -> None:
        LOGGER.debug("%s: << %s", self, line)
        if self.transport is None:
            raise EngineError("cannot send a line before the connection is made")
        stdin = self.transport.get_pipe_transport(0)
        stdin.write((line + "\n").encode("utf-8"))

    def error_line_received(self, line: str) -> None:
        self._recent.append(f"stderr: {line}")
        LOGGER.warning("%s: stderr >> %s", self, line)

    def _line_received(self, line: str) -> None:
        LOGGER.debug("%s: >> %s", self, line)
        self._recent.append(line)
        self.line_received(line)
        command = self.command
        if command is not None and not command.finished:
            command._line_received(line)

    def line_received(self, line: str) -> None:
        """Called for every line the engine prints, before the running command sees it."""

    def _call_later(self, delay: float, callback: Callable[[], None]) -> Any:
        call_later = getattr(self.transport, "call_later", None)
        if call_later is not None:
            return call_later(delay, callback)
        if self.loop is None:
            raise EngineError("no event loop and no transport to run timers")
        return self.loop.call_later(delay, callback)

    def _engine_terminated(self, code: int | None) -> None:
        if self._terminated:
            return
        self._terminated = True
        self._exit_code = code
        command, self.command = self.command, None
        next_command, self.next_command = self.next_command, None
        for pending in (command, next_command):
            if pending is not None:
                pending._engine_terminated(code)
        if not self.returncode.done():
            self.returncode.set_result(code if code is not None else -1)

    # Scheduling.

    def _submit(self, command: BaseCommand[T]) -> _Slot[T]:
        """Queues ``command``: it starts once the running command has finished (which a
        new command cancels). Returns its result slot."""
        if self._terminated:
            raise _with_output(
                EngineTerminatedError(f"engine process dead (exit code: {self._exit_code})"),
                self._recent,
            )
        if command.state != CommandState.NEW:
            raise EngineError(f"command already submitted: {command!r}")
        if self.next_command is not None:
            superseded, self.next_command = self.next_command, None
            superseded.result.cancel()
            superseded._mark_finished()
        self.next_command = command
        current = self.command
        if current is None or current.finished:
            self._advance()
        elif not current.result.done():
            current.result.cancel()  # its done callback cancels the command
        elif not current.result.cancelled():
            current._cancel()
        return command.result

    def _advance(self) -> None:
        while True:
            command, self.next_command = self.next_command, None
            self.command = command
            if command is None:
                return
            if command.result.cancelled():
                # Its caller has given up before it started: drop it.
                command._mark_finished()
                continue
            self._watch(command)
            command._start()
            return

    def _watch(self, command: BaseCommand[Any]) -> None:
        """A cancelled result cancels the command; a finished command starts the next."""

        def cancelled(slot: _Slot[Any]) -> None:
            if slot.cancelled():
                command._cancel()

        command.result.add_done_callback(cancelled)
        command.add_finished_callback(lambda: self._finished(command))

    def _finished(self, command: BaseCommand[Any]) -> None:
        if self.command is command:
            self._advance()

    async def _await(self, slot: _Slot[T]) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()

        def resolve(done: _Slot[T]) -> None:
            if future.done():
                return
            if done.cancelled():
                future.cancel()
            elif done.exception() is not None:
                future.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                future.set_result(done.result())

        slot.add_done_callback(resolve)
        try:
            return await future
        except asyncio.CancelledError:
            slot.cancel()
            raise

    async def communicate(self, command_factory: Callable[[Any], BaseCommand[T]]) -> T:
        """Runs a command built by ``command_factory(self)`` and returns its result."""
        return await self._await(self._submit(command_factory(self)))

    def __repr__(self) -> str:
        pid = self.transport.get_pid() if self.transport is not None else "?"
        return f"<{type(self).__name__} (pid={pid})>"

    # The API. Each coroutine builds a command with the matching `_cmd_*` method, which
    # SimpleEngine calls directly.

    @abc.abstractmethod
    def _cmd_initialize(self) -> BaseCommand[None]: ...

    @abc.abstractmethod
    def _cmd_ping(self) -> BaseCommand[None]: ...

    @abc.abstractmethod
    def _cmd_configure(self, options: ConfigMapping) -> BaseCommand[None]: ...

    @abc.abstractmethod
    def _cmd_send_opponent_information(
        self, opponent: Opponent | None, engine_rating: int | None
    ) -> BaseCommand[None]: ...

    @abc.abstractmethod
    def _cmd_play(
        self,
        board: Board,
        limit: Limit,
        game: object,
        info: Info,
        ponder: bool,
        draw_offered: bool,
        root_moves: Iterable[Move] | None,
        options: ConfigMapping,
        opponent: Opponent | None,
    ) -> BaseCommand[PlayResult]: ...

    @abc.abstractmethod
    def _cmd_analysis(
        self,
        board: Board,
        limit: Limit | None,
        multipv: int | None,
        game: object,
        info: Info,
        root_moves: Iterable[Move] | None,
        options: ConfigMapping,
    ) -> BaseCommand[AnalysisResult]: ...

    @abc.abstractmethod
    def _cmd_send_game_result(
        self, board: Board, winner: bool | None, game_ending: str | None, game_complete: bool
    ) -> BaseCommand[None] | None:
        """``None``: the protocol has nothing to send (UCI)."""

    @abc.abstractmethod
    def _send_quit(self) -> None: ...

    async def initialize(self) -> None:
        """Initialises the engine (``uci`` / ``xboard``); reads its id and options."""
        await self._await(self._submit(self._cmd_initialize()))

    async def ping(self) -> None:
        """Waits until the engine answers (``isready`` / ``ping``): it is alive and idle."""
        await self._await(self._submit(self._cmd_ping()))

    async def configure(self, options: ConfigMapping) -> None:
        """Sets engine options for all later commands (not the managed ones)."""
        await self._await(self._submit(self._cmd_configure(options)))

    async def send_opponent_information(
        self, *, opponent: Opponent | None = None, engine_rating: int | None = None
    ) -> None:
        """Tells the engine who it plays (sent with the next new game)."""
        await self._await(
            self._submit(self._cmd_send_opponent_information(opponent, engine_rating))
        )

    async def play(
        self,
        board: Board,
        limit: Limit,
        *,
        game: object = None,
        info: Info = INFO_NONE,
        ponder: bool = False,
        draw_offered: bool = False,
        root_moves: Iterable[Move] | None = None,
        options: ConfigMapping = {},  # noqa: B006 (python-chess's signature; never mutated)
        opponent: Opponent | None = None,
    ) -> PlayResult:
        """The engine's move in ``board`` (its move stack is sent) within ``limit``.

        ``game``: any object naming the game; a different one starts a new game.
        ``info``: which info to collect. ``ponder``: keep thinking on the expected reply.
        ``options``: options for this search only. ``opponent``: for this move only."""
        return await self._await(
            self._submit(
                self._cmd_play(
                    board, limit, game, info, ponder, draw_offered, root_moves, options, opponent
                )
            )
        )

    @overload
    async def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        game: object = ...,
        info: Info = ...,
        root_moves: Iterable[Move] | None = ...,
        options: ConfigMapping = ...,
    ) -> InfoDict: ...
    @overload
    async def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int,
        game: object = ...,
        info: Info = ...,
        root_moves: Iterable[Move] | None = ...,
        options: ConfigMapping = ...,
    ) -> list[InfoDict]: ...
    @overload
    async def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int | None = ...,
        game: object = ...,
        info: Info = ...,
        root_moves: Iterable[Move] | None = ...,
        options: ConfigMapping = ...,
    ) -> list[InfoDict] | InfoDict: ...
    async def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int | None = None,
        game: object = None,
        info: Info = INFO_ALL,
        root_moves: Iterable[Move] | None = None,
        options: ConfigMapping = {},  # noqa: B006 (python-chess's signature; never mutated)
    ) -> list[InfoDict] | InfoDict:
        """Analyses ``board`` within ``limit``: the aggregated info dict, or with
        ``multipv`` a list of them, best first."""
        analysis = await self.analysis(
            board,
            limit,
            multipv=multipv,
            game=game,
            info=info,
            root_moves=root_moves,
            options=options,
        )
        with analysis:
            await analysis.wait()
        return analysis.info if multipv is None else analysis.multipv

    async def analysis(
        self,
        board: Board,
        limit: Limit | None = None,
        *,
        multipv: int | None = None,
        game: object = None,
        info: Info = INFO_ALL,
        root_moves: Iterable[Move] | None = None,
        options: ConfigMapping = {},  # noqa: B006 (python-chess's signature; never mutated)
    ) -> AnalysisResult:
        """Starts analysing ``board`` (forever without ``limit``); returns the running
        :class:`AnalysisResult`."""
        return await self._await(
            self._submit(self._cmd_analysis(board, limit, multipv, game, info, root_moves, options))
        )

    async def send_game_result(
        self,
        board: Board,
        winner: bool | None = None,
        game_ending: str | None = None,
        game_complete: bool = True,
    ) -> None:
        """Tells the engine how the game ended (XBoard; UCI engines get nothing)."""
        command = self._cmd_send_game_result(board, winner, game_ending, game_complete)
        if command is not None:
            await self._await(self._submit(command))

    async def quit(self) -> None:
        """Asks the engine to exit and waits until it has."""
        self._send_quit()
        future = self.returncode
        if isinstance(future, concurrent.futures.Future):
            await asyncio.wrap_future(future)
        else:
            await asyncio.shield(future)

    @classmethod
    async def popen(
        cls, command: str | list[str], *, setpgrp: bool = False, **popen_args: Any
    ) -> tuple[asyncio.SubprocessTransport, Self]:
        """Starts the engine as an asyncio subprocess (not yet initialised)."""
        argv = command if isinstance(command, list) else [command]
        _process_group(popen_args, setpgrp)
        loop = asyncio.get_running_loop()
        return await loop.subprocess_exec(cls, *argv, **popen_args)  # type: ignore[return-value]


def _process_group(popen_args: dict[str, Any], setpgrp: bool) -> None:
    """``setpgrp``: start the engine in a process group of its own, so that a Ctrl-C in the
    terminal (SIGINT to the foreground group) reaches only this process."""
    if not setpgrp:
        return
    if sys.platform == "win32":
        popen_args["creationflags"] = (
            popen_args.get("creationflags", 0) | subprocess.CREATE_NEW_PROCESS_GROUP
        )  # type: ignore[attr-defined]
    elif sys.version_info >= (3, 11):
        popen_args["process_group"] = 0
    else:
        popen_args["start_new_session"] = True


def _chain_config(first: ConfigMapping, then: ConfigMapping) -> Iterator[tuple[str, ConfigValue]]:
    """``first``'s items, then those of ``then`` whose names ``first`` lacks."""
    yield from first.items()
    for name, value in then.items():
        if name not in first:
            yield name, value


def _next_token(line: str) -> tuple[str, str]:
    """The first whitespace-separated word of ``line`` and the rest (leading blanks gone)."""
    parts = line.split(None, 1)
    return (parts[0] if parts else "", parts[1] if len(parts) == 2 else "")


def _uci_variant(board: Board) -> str:
    return getattr(type(board), "uci_variant", None) or "chess"


def _xboard_variant(board: Board) -> str:
    return getattr(type(board), "xboard_variant", None) or "normal"


def _xboard_move(board: Board, move: Move) -> str:
    """A move as XBoard reads it (shatranj has no Chess960: UCI notation)."""
    return move.uci() if move else "@@@@"


def _push_xboard(board: Board, text: str) -> Move:
    """Plays a move an XBoard engine wrote (SAN or coordinates)."""
    if text in ("@@@@", "--", "0000", "Z0", "null"):
        raise ValueError(f"null move {text!r} is not supported")
    return board.push_san(text)


# ---------------------------------------------------------------------------------------
# UCI


class UciProtocol(Protocol):
    """The `Universal Chess Interface <https://www.chessprogramming.org/UCI>`_."""

    def __init__(self) -> None:
        super().__init__()
        self.options: UciOptionMap[Option] = UciOptionMap()
        #: What the engine has been told.
        self.config: UciOptionMap[ConfigValue] = UciOptionMap()
        #: What the user configured (and every later search restores).
        self.target_config: UciOptionMap[ConfigValue] = UciOptionMap()
        self.id: dict[str, str] = {}
        #: The position last sent (without its move stack).
        self.board = Board()
        self.game: object = None
        self.first_game = True
        self.may_ponderhit: Board | None = None
        self.ponderhit = False
        #: The running search: searching (``go`` sent) and not yet answered.
        self.searching = False

    # Building blocks.

    def _isready(self) -> None:
        self.send_line("isready")

    def _opponent_info(self) -> None:
        opponent = self.config.get("UCI_Opponent") or self.target_config.get("UCI_Opponent")
        if opponent:
            self.send_line(f"setoption name UCI_Opponent value {opponent}")

    def _ucinewgame(self) -> None:
        self.send_line("ucinewgame")
        self._opponent_info()
        self.first_game = False
        self.ponderhit = False

    def debug(self, on: bool = True) -> None:
        """Switches the engine's debug mode (does not interrupt anything)."""
        self.send_line("debug on" if on else "debug off")

    def _changed_options(self, options: ConfigMapping) -> bool:
        return any(
            value is None or value != self.config.get(name)
            for name, value in _chain_config(options, self.target_config)
        )

    def _setoption(self, name: str, value: ConfigValue) -> None:
        try:
            option = self.options[name]
        except KeyError:
            raise EngineError(
                f"engine does not support option {name} (available options: {', '.join(self.options)})"
            ) from None
        value = option.parse(value)
        if value is not None and value == self.config.get(name):
            return
        line = f"setoption name {name}"
        if value is True:
            line += " value true"
        elif value is False:
            line += " value false"
        elif value is not None:
            line += f" value {value}"
        if name != "UCI_Opponent":  # sent after ucinewgame
            self.send_line(line)
        self.config[name] = value

    def _configure(self, options: ConfigMapping) -> None:
        for name, value in options.items():
            if name.lower() in MANAGED_OPTIONS:
                raise EngineError(f"cannot set {name} which is automatically managed")
            self._setoption(name, value)
        # Restore what the user configured where a search changed it. The common case, no
        # change, is decided without parsing: a value equal to the engine's is one the
        # engine already has (parsing it would give that same value).
        config = self.config
        for name, value in self.target_config.items():
            if name in options or (value is not None and value == config.get(name)):
                continue
            if name.lower() in MANAGED_OPTIONS:
                raise EngineError(f"cannot set {name} which is automatically managed")
            self._setoption(name, value)

    def _opponent_configuration(self, opponent: Opponent | None) -> dict[str, ConfigValue]:
        if opponent is None or not opponent.name or "UCI_Opponent" not in self.options:
            return {}
        rating = opponent.rating or "none"
        title = opponent.title or "none"
        kind = "computer" if opponent.is_engine else "human"
        return {"UCI_Opponent": f"{title} {rating} {kind} {opponent.name}"}

    def _position(self, board: Board) -> None:
        variant = _uci_variant(board)
        if "UCI_Variant" in self.options:
            self._setoption("UCI_Variant", variant)
        elif variant != "chess":
            raise EngineError("engine does not support UCI_Variant")
        if "UCI_Chess960" in self.options:
            self._setoption("UCI_Chess960", board.chess960)
        elif board.chess960:
            raise EngineError("engine does not support UCI_Chess960")

        stack = board.move_stack
        safe_history = all(stack)
        root = board.root() if safe_history else board
        fen = root.fen(shredder=board.chess960, en_passant="fen")
        line = (
            "position startpos"
            if variant == "chess" and fen == STARTING_FEN
            else f"position fen {fen}"
        )
        if not safe_history:
            LOGGER.warning("Not transmitting history with null moves to UCI engine")
        elif stack:
            line += " moves " + " ".join(move.uci() for move in stack)
        self.send_line(line)
        self.board = board.copy(stack=False)

    def _go(
        self,
        limit: Limit,
        *,
        root_moves: Iterable[Move] | None = None,
        ponder: bool = False,
        infinite: bool = False,
    ) -> None:
        words = ["go"]
        if ponder:
            words.append("ponder")
        if limit.white_clock is not None:
            words += ["wtime", str(max(1, round(limit.white_clock * 1000)))]
        if limit.black_clock is not None:
            words += ["btime", str(max(1, round(limit.black_clock * 1000)))]
        if limit.white_inc is not None:
            words += ["winc", str(round(limit.white_inc * 1000))]
        if limit.black_inc is not None:
            words += ["binc", str(round(limit.black_inc * 1000))]
        if limit.remaining_moves is not None and int(limit.remaining_moves) > 0:
            words += ["movestogo", str(int(limit.remaining_moves))]
        if limit.depth is not None:
            words += ["depth", str(max(1, int(limit.depth)))]
        if limit.nodes is not None:
            words += ["nodes", str(max(1, int(limit.nodes)))]
        if limit.mate is not None:
            words += ["mate", str(max(1, int(limit.mate)))]
        if limit.time is not None:
            words += ["movetime", str(max(1, round(limit.time * 1000)))]
        if infinite:
            words.append("infinite")
        if root_moves is not None:
            moves = [move.uci() for move in root_moves]
            # "searchmoves" followed by nothing would mean all moves to some engines.
            words += ["searchmoves"] + (moves or ["0000"])
        self.send_line(" ".join(words))
        self.searching = True

    # Commands.

    def _cmd_initialize(self) -> BaseCommand[None]:
        return _UciInitialize(self)

    def _cmd_ping(self) -> BaseCommand[None]:
        return _UciPing(self)

    def _cmd_configure(self, options: ConfigMapping) -> BaseCommand[None]:
        def configure() -> None:
            self._configure(options)
            self.target_config.update(
                {name: value for name, value in options.items() if value is not None}
            )

        return _Immediate(self, configure)

    def _cmd_send_opponent_information(
        self, opponent: Opponent | None, engine_rating: int | None
    ) -> BaseCommand[None]:
        return self._cmd_configure(self._opponent_configuration(opponent))

    def _cmd_play(
        self,
        board: Board,
        limit: Limit,
        game: object,
        info: Info,
        ponder: bool,
        draw_offered: bool,
        root_moves: Iterable[Move] | None,
        options: ConfigMapping,
        opponent: Opponent | None,
    ) -> BaseCommand[PlayResult]:
        new_options: dict[str, ConfigValue] = dict(options)
        new_options.update(self._opponent_configuration(opponent))
        return _UciPlay(self, board, limit, game, info, ponder, root_moves, new_options)

    def _cmd_analysis(
        self,
        board: Board,
        limit: Limit | None,
        multipv: int | None,
        game: object,
        info: Info,
        root_moves: Iterable[Move] | None,
        options: ConfigMapping,
    ) -> BaseCommand[AnalysisResult]:
        return _UciAnalysis(self, board, limit, multipv, game, info, root_moves, options)

    def _cmd_send_game_result(
        self, board: Board, winner: bool | None, game_ending: str | None, game_complete: bool
    ) -> BaseCommand[None] | None:
        return None  # UCI has no end-of-game command

    def _send_quit(self) -> None:
        self.send_line("quit")


_OPTION_FIELDS = ("name", "type", "default", "min", "max", "var")
_OPTION_SPLIT = re.compile(r"\s*\b(name|type|default|min|max|var)\b\s*")


class _UciInitialize(BaseCommand[None]):
    def __init__(self, engine: UciProtocol) -> None:
        super().__init__(engine)
        self.engine = engine

    def check_initialized(self) -> None:
        if self.engine.initialized:
            raise EngineError("engine already initialized")

    def start(self) -> None:
        self.engine.send_line("uci")

    def line_received(self, line: str) -> None:
        token, rest = _next_token(line)
        if token == "uciok" and not rest.strip():
            self.engine.initialized = True
            self.result.set_result(None)
            self.set_finished()
        elif token == "option":
            self._option(rest)
        elif token == "id":
            key, value = _next_token(rest)
            self.engine.id[key] = value.strip()

    def _option(self, text: str) -> None:
        # A field name starts a new field unless that field is already set (an option may
        # be called "Skill Level type"); "var" always starts a new choice.
        fields: dict[str, str] = {}
        choices: list[str] = []
        current: str | None = None
        for piece in _OPTION_SPLIT.split(text.strip()):
            if piece == "var" or (piece in _OPTION_FIELDS and not fields.get(piece)):
                current = piece
            elif current == "var":
                choices.append(piece)
            elif current is not None:
                fields[current] = piece

        def bound(which: str) -> int | None:
            text = fields.get(which, "")
            try:
                return int(text) if text else None
            except ValueError:
                LOGGER.error(
                    "%s: cannot parse the %s of option %r: %r",
                    self.engine,
                    which,
                    fields.get("name"),
                    text,
                )
                return None

        name, kind = fields.get("name", ""), fields.get("type", "")
        low, high = bound("min"), bound("max")
        declared = Option(name, kind, None, low, high, choices)
        try:
            default = declared.parse(fields.get("default", ""))
        except EngineError as err:
            # python-chess fails the whole initialisation here; one odd option should not.
            LOGGER.warning("%s: option %r has no usable default (%s)", self.engine, name, err)
            default = None
        option = Option(name, kind, default, low, high, choices)
        self.engine.options[name] = option
        if option.default is not None:
            self.engine.config[name] = option.default
            if not option.is_managed() and name.lower() != "uci_analysemode":
                self.engine.target_config[name] = option.default


class _UciPing(BaseCommand[None]):
    def __init__(self, engine: UciProtocol) -> None:
        super().__init__(engine)
        self.engine = engine

    def start(self) -> None:
        self.engine._isready()

    def line_received(self, line: str) -> None:
        if line.strip() == "readyok":
            self.result.set_result(None)
            self.set_finished()
        else:
            LOGGER.warning("%s: Unexpected engine output: %r", self.engine, line)


class _UciSearch(BaseCommand[T]):
    """What play and analysis share: set the options, maybe start a new game (then wait for
    ``readyok``), send the position and ``go``."""

    def __init__(self, engine: UciProtocol) -> None:
        super().__init__(engine)
        self.engine = engine
        self.sent_isready = False

    def _new_game_then_go(self, new_game: bool, game: object) -> None:
        if new_game:
            self.engine.game = game
            self.engine._ucinewgame()
            self.sent_isready = True
            self.engine._isready()
        else:
            self._readyok()

    def _readyok(self) -> None:
        raise NotImplementedError

    def _info(self, text: str) -> None:
        raise NotImplementedError

    def _bestmove(self, text: str) -> None:
        raise NotImplementedError

    def line_received(self, line: str) -> None:
        token, rest = _next_token(line)
        if token == "info":
            self._info(rest)
        elif token == "bestmove":
            self.engine.searching = False
            self._bestmove(rest)
        elif token == "readyok" and self.sent_isready:
            self.sent_isready = False
            self._readyok()
        else:
            LOGGER.warning("%s: Unexpected engine output: %r", self.engine, line)

    def _mark_finished(self) -> None:
        self.engine.searching = False
        super()._mark_finished()


class _UciPlay(_UciSearch[PlayResult]):
    def __init__(
        self,
        engine: UciProtocol,
        board: Board,
        limit: Limit,
        game: object,
        info: Info,
        ponder: bool,
        root_moves: Iterable[Move] | None,
        options: dict[str, ConfigValue],
    ) -> None:
        super().__init__(engine)
        self.board, self.limit, self.game, self.selector = board, limit, game, info
        self.ponder, self.root_moves, self.options = ponder, root_moves, options
        self.info: InfoDict = {}
        self.pondering: Board | None = None
        self.start_time = 0.0
        # A ponderhit is possible only in the same game with unchanged options (the managed
        # ones, UCI_AnalyseMode included, never change between pondering plays).
        engine.may_ponderhit = (
            board
            if ponder
            and not engine.first_game
            and game == engine.game
            and not engine._changed_options(options)
            else None
        )

    def start(self) -> None:
        engine = self.engine
        self.start_time = time.perf_counter()
        if engine.ponderhit:
            engine.ponderhit = False
            engine.send_line("ponderhit")
            engine.searching = True
            return
        if (
            "UCI_AnalyseMode" in engine.options
            and "UCI_AnalyseMode" not in engine.target_config
            and all(name.lower() != "uci_analysemode" for name in self.options)
        ):
            engine._setoption("UCI_AnalyseMode", False)
        if "Ponder" in engine.options:
            engine._setoption("Ponder", self.ponder)
        if "MultiPV" in engine.options:
            engine._setoption("MultiPV", engine.options["MultiPV"].default)
        new_opponent = self.options.get("UCI_Opponent") or engine.target_config.get("UCI_Opponent")
        opponent_changed = new_opponent != engine.config.get("UCI_Opponent")
        engine._configure(self.options)
        self._new_game_then_go(
            engine.first_game or engine.game != self.game or opponent_changed, self.game
        )

    def _readyok(self) -> None:
        self.engine._position(self.board)
        self.engine._go(self.limit, root_moves=self.root_moves)

    def _info(self, text: str) -> None:
        if self.pondering is None and self.selector:
            self.info.update(_parse_uci_info(text, self.engine.board, self.selector))

    def _bestmove(self, text: str) -> None:
        if self.pondering is not None:
            # The answer to the stop that ended pondering.
            self.pondering = None
        elif not self.result.cancelled():
            best = _parse_uci_bestmove(self.engine.board, text)
            self.result.set_result(PlayResult(best.move, best.ponder, self.info))
            if self.ponder and best.move and best.ponder:
                self._ponder_on(best.move, best.ponder)
        if self.pondering is None:
            self._end()

    def _ponder_on(self, move: Move, reply: Move) -> None:
        pondering = self.board.copy()
        pondering.push(move)
        pondering.push(reply)
        self.pondering = pondering
        self.engine._position(pondering)
        # The clocks as they will be when the expected reply has been played.
        used = time.perf_counter() - self.start_time
        limit = copy.copy(self.limit)
        if limit.white_clock is not None:
            limit.white_clock += limit.white_inc or 0.0
            if pondering.turn:
                limit.white_clock -= used
        if limit.black_clock is not None:
            limit.black_clock += limit.black_inc or 0.0
            if not pondering.turn:
                limit.black_clock -= used
        if limit.remaining_moves:
            limit.remaining_moves -= 1
        self.engine._go(limit, ponder=True)

    def _end(self) -> None:
        self.engine.may_ponderhit = None
        self.set_finished()

    def cancel(self) -> None:
        hit = self.engine.may_ponderhit
        if (
            hit is not None
            and self.pondering is not None
            and hit.move_stack == self.pondering.move_stack
            and hit == self.pondering
        ):
            # The expected reply was played: the next play continues this search.
            self.engine.ponderhit = True
            self._end()
        else:
            self.engine.send_line("stop")

    def engine_terminated(self, exc: EngineTerminatedError) -> None:
        # An engine may be terminated while pondering, after the move was returned.
        if not self.result.done():
            super().engine_terminated(exc)
        else:
            self._mark_finished()


class _UciAnalysis(_UciSearch[AnalysisResult]):
    def __init__(
        self,
        engine: UciProtocol,
        board: Board,
        limit: Limit | None,
        multipv: int | None,
        game: object,
        info: Info,
        root_moves: Iterable[Move] | None,
        options: ConfigMapping,
    ) -> None:
        super().__init__(engine)
        self.board, self.limit, self.multipv, self.game = board, limit, multipv, game
        self.selector, self.root_moves, self.options = info, root_moves, options
        self.analysis = AnalysisResult(stop=self._stop)

    def _stop(self) -> None:
        if not self.finished:
            self.cancel()

    def start(self) -> None:
        engine = self.engine
        if "Ponder" in engine.options:
            engine._setoption("Ponder", False)
        if (
            "UCI_AnalyseMode" in engine.options
            and "UCI_AnalyseMode" not in engine.target_config
            and all(name.lower() != "uci_analysemode" for name in self.options)
        ):
            engine._setoption("UCI_AnalyseMode", True)
        if "MultiPV" in engine.options or (self.multipv and self.multipv > 1):
            engine._setoption("MultiPV", 1 if self.multipv is None else self.multipv)
        engine._configure(self.options)
        self._new_game_then_go(engine.first_game or engine.game != self.game, self.game)

    def _readyok(self) -> None:
        self.engine._position(self.board)
        if self.limit:
            self.engine._go(self.limit, root_moves=self.root_moves)
        else:
            self.engine._go(Limit(), root_moves=self.root_moves, infinite=True)
        self.result.set_result(self.analysis)

    def _info(self, text: str) -> None:
        self.analysis.post(_parse_uci_info(text, self.engine.board, self.selector))

    def _bestmove(self, text: str) -> None:
        if not self.result.done():
            raise EngineError("was not searching, but engine sent bestmove")
        best = _parse_uci_bestmove(self.engine.board, text)
        self.set_finished()
        self.analysis.set_finished(best)

    def cancel(self) -> None:
        self.engine.send_line("stop")

    def _handle_exception(self, exc: BaseException) -> None:
        # Once the analysis is handed out, its reader gets the exception.
        exc = _with_output(exc, self._engine._recent)
        self.analysis.set_exception(exc)
        if not self.result.done():
            self.result.set_exception(exc)
        self._mark_finished()

    def engine_terminated(self, exc: EngineTerminatedError) -> None:
        LOGGER.debug(
            "%s: closing analysis because the engine has been terminated (%s)", self.engine, exc
        )
        self._handle_exception(exc)


def _parse_uci_info(arg: str, root_board: Board, selector: Info = INFO_ALL) -> InfoDict:
    """An ``info`` line (without the word ``info``) as an info dict; the moves in it are
    checked against ``root_board``. Parts that do not parse are logged and left out.

    The native parser (``_core.parse_uci_info``) does the work; it returns the score and
    WDL as tuples, wrapped here. ``python/tests/engine/test_engine_client.py`` checks it
    against python-chess's parser."""
    if not selector:
        return {}
    info, problems = _core.parse_uci_info(arg, root_board, int(selector))
    for problem in problems:
        LOGGER.error("%s", problem)
    score = info.get("score")
    if score is not None:
        mate, value = score
        info["score"] = PovScore(Mate(value) if mate else Cp(value), root_board.turn)
    wdl = info.get("wdl")
    if wdl is not None:
        info["wdl"] = PovWdl(Wdl(*wdl), root_board.turn)
    return info


def _parse_uci_bestmove(board: Board, text: str) -> BestMove:
    tokens = text.split()
    if not tokens or tokens[0] in ("(none)", "NULL"):
        return BestMove(None, None)
    try:
        # Some engines (AnMon) write promotions in capitals.
        move = board.push_uci(tokens[0].lower())
    except ValueError as err:
        raise EngineError(f"invalid best move {tokens[0]!r}: {err}") from err
    ponder = None
    try:
        # Houdini 1.5 writes NULL for no ponder move.
        if len(tokens) >= 3 and tokens[1] == "ponder" and tokens[2] not in ("(none)", "NULL"):
            ponder = board.parse_uci(tokens[2].lower())
    except ValueError:
        LOGGER.exception("Engine sent invalid ponder move")
    finally:
        board.pop()
    return BestMove(move, ponder)


# ---------------------------------------------------------------------------------------
# XBoard

_XBOARD_ERROR = re.compile(r"^\s*(Error|Illegal move)(\s*\([^()]+\))?\s*:")


class XBoardProtocol(Protocol):
    """The `XBoard protocol <http://hgm.nubati.net/CECP.html>`_ (CECP, version 2)."""

    def __init__(self) -> None:
        super().__init__()
        self.features: dict[str, int | str] = {}
        self.id: dict[str, str] = {}
        self.options: dict[str, Option] = {  # type: ignore[assignment]
            "random": Option("random", "check", False, None, None, None),
            "computer": Option("computer", "check", False, None, None, None),
            "name": Option("name", "string", "", None, None, None),
            "engine_rating": Option("engine_rating", "spin", 0, None, None, None),
            "opponent_rating": Option("opponent_rating", "spin", 0, None, None, None),
        }
        self.config: dict[str, ConfigValue] = {}
        self.target_config: dict[str, ConfigValue] = {}
        #: The game as the engine has it: the root position and the moves since.
        self.board = Board()
        self.game: object = None
        self.clock_id: object = None
        self.first_game = True

    def _ping(self, n: int) -> None:
        self.send_line(f"ping {n}")

    def _variant(self, variant: str | None) -> None:
        variants = str(self.features.get("variants", "")).split(",")
        if not variant or variant not in variants:
            raise EngineError(
                f"unsupported xboard variant: {variant} (available: {', '.join(variants)})"
            )
        self.send_line(f"variant {variant}")

    def _new(
        self, board: Board, game: object, options: ConfigMapping, opponent: Opponent | None = None
    ) -> None:
        """Brings the engine to ``board`` in force mode: a new game when needed, else undoing
        and playing moves from the game it has."""
        self._configure(options)
        self._configure(self._opponent_configuration(opponent))

        root = board.root()
        new_game = (
            self.first_game
            or self.game != game
            or any(name in options for name in ("random", "computer"))
            or bool(opponent)
            or root != self.board.root()
        )
        self.game = game
        self.first_game = False
        common = 0
        if new_game:
            self.board = root
            self.send_line("new")
            variant = _xboard_variant(board)
            if variant == "normal" and board.chess960:
                self._variant("fischerandom")
            elif variant != "normal":
                self._variant(variant)
            if self.config.get("random"):
                self.send_line("random")
            name = self.config.get("name")
            if name and self.features.get("name", True):
                self.send_line(f"name {name}")
            opponent_rating = self.config.get("opponent_rating")
            engine_rating = self.config.get("engine_rating")
            if engine_rating or opponent_rating:
                self.send_line(f"rating {engine_rating or 0} {opponent_rating or 0}")
            if self.config.get("computer"):
                self.send_line("computer")
            self.send_line("force")
            fen = root.fen(shredder=board.chess960, en_passant="fen")
            if variant != "normal" or fen != STARTING_FEN or board.chess960:
                self.send_line(f"setboard {fen}")
        else:
            self.send_line("force")
            for ours, theirs in zip(self.board.move_stack, board.move_stack):
                if ours != theirs:
                    break
                common += 1
            while len(self.board.move_stack) > common + 1:
                self.send_line("remove")
                self.board.pop()
                self.board.pop()
            while len(self.board.move_stack) > common:
                self.send_line("undo")
                self.board.pop()
        prefix = "usermove " if self.features.get("usermove", 0) else ""
        for move in board.move_stack[common:]:
            self.send_line(prefix + _xboard_move(self.board, move))
            self.board.push(move)

    def _setoption(self, name: str, value: ConfigValue) -> None:
        if value is not None and value == self.config.get(name):
            return
        try:
            option = self.options[name]
        except KeyError:
            raise EngineError(f"unsupported xboard option or command: {name}") from None
        self.config[name] = value = option.parse(value)
        if name in ("random", "computer", "name", "engine_rating", "opponent_rating"):
            pass  # sent with the next new game
        elif name in ("memory", "cores") or name.startswith("egtpath "):
            self.send_line(f"{name} {value}")
        elif value is None:
            self.send_line(f"option {name}")
        elif value is True:
            self.send_line(f"option {name}=1")
        elif value is False:
            self.send_line(f"option {name}=0")
        else:
            self.send_line(f"option {name}={value}")

    def _configure(self, options: ConfigMapping) -> None:
        for name, value in _chain_config(options, self.target_config):
            if name.lower() in MANAGED_OPTIONS:
                raise EngineError(f"cannot set {name} which is automatically managed")
            self._setoption(name, value)

    def _opponent_configuration(
        self, opponent: Opponent | None, engine_rating: int | None = None
    ) -> dict[str, ConfigValue]:
        if opponent is None:
            return {}
        config: dict[str, ConfigValue] = {
            "engine_rating": engine_rating or self.target_config.get("engine_rating") or 0,
            "opponent_rating": opponent.rating or 0,
            "computer": opponent.is_engine or False,
        }
        if opponent.name and self.features.get("name", True):
            config["name"] = f"{opponent.title or ''} {opponent.name}".strip()
        return config

    def _cmd_initialize(self) -> BaseCommand[None]:
        return _XBoardInitialize(self)

    def _cmd_ping(self) -> BaseCommand[None]:
        return _XBoardPing(self)

    def _cmd_configure(self, options: ConfigMapping) -> BaseCommand[None]:
        def configure() -> None:
            self._configure(options)
            self.target_config.update(
                {name: value for name, value in options.items() if value is not None}
            )

        return _Immediate(self, configure)

    def _cmd_send_opponent_information(
        self, opponent: Opponent | None, engine_rating: int | None
    ) -> BaseCommand[None]:
        return self._cmd_configure(self._opponent_configuration(opponent, engine_rating))

    def _cmd_play(
        self,
        board: Board,
        limit: Limit,
        game: object,
        info: Info,
        ponder: bool,
        draw_offered: bool,
        root_moves: Iterable[Move] | None,
        options: ConfigMapping,
        opponent: Opponent | None,
    ) -> BaseCommand[PlayResult]:
        if root_moves is not None:
            raise EngineError(
                "play with root_moves, but xboard supports 'include' only in analysis mode"
            )
        return _XBoardPlay(self, board, limit, game, info, ponder, draw_offered, options, opponent)

    def _cmd_analysis(
        self,
        board: Board,
        limit: Limit | None,
        multipv: int | None,
        game: object,
        info: Info,
        root_moves: Iterable[Move] | None,
        options: ConfigMapping,
    ) -> BaseCommand[AnalysisResult]:
        if multipv is not None:
            raise EngineError("xboard engine does not support multipv")
        if limit is not None and (limit.white_clock is not None or limit.black_clock is not None):
            raise EngineError("xboard analysis does not support clock limits")
        return _XBoardAnalysis(self, board, limit, game, info, root_moves, options)

    def _cmd_send_game_result(
        self, board: Board, winner: bool | None, game_ending: str | None, game_complete: bool
    ) -> BaseCommand[None]:
        def send() -> None:
            if game_ending and any(c in game_ending for c in "{}\n\r"):
                raise EngineError(
                    f"invalid line break or curly braces in game ending message: {game_ending!r}"
                )
            self._new(board, self.game, {})  # the final moves
            outcome = board.outcome(claim_draw=True)
            if not game_complete:
                result, ending = "*", game_ending or ""
            elif winner is not None or game_ending:
                result = "1/2-1/2" if winner is None else "1-0" if winner else "0-1"
                ending = game_ending or ""
            elif outcome is not None and outcome.winner is not None:
                result = outcome.result()
                side = "White" if outcome.winner else "Black"
                ending = f"{side} {'mates' if outcome.termination == Termination.CHECKMATE else 'variant win'}"
            elif outcome is not None:
                result = outcome.result()
                ending = outcome.termination.name.capitalize().replace("_", " ")
            else:
                result, ending = "*", ""
            self.send_line(f"result {result} {{{ending}}}" if ending else f"result {result}")

        return _Immediate(self, send)

    def _send_quit(self) -> None:
        self.send_line("quit")


def _parse_xboard_option(feature: str) -> Option:
    params = feature.split()
    name, kind = params[0], params[1][1:]
    default: ConfigValue = None
    low = high = None
    choices: list[str] | None = None
    if kind == "combo":
        choices = []
        for choice in params[2:]:
            if choice == "///":
                continue
            if choice.startswith("*"):
                default = choice[1:]
                choices.append(choice[1:])
            else:
                choices.append(choice)
    elif kind == "check":
        default = int(params[2])
    elif kind in ("string", "file", "path"):
        default = params[2] if len(params) > 2 else ""
    elif kind == "spin":
        default, low, high = int(params[2]), int(params[3]), int(params[4])
    return Option(name, kind, default, low, high, choices)


class _XBoardInitialize(BaseCommand[None]):
    def __init__(self, engine: XBoardProtocol) -> None:
        super().__init__(engine)
        self.engine = engine
        self._waiting = True

    def check_initialized(self) -> None:
        if self.engine.initialized:
            raise EngineError("engine already initialized")

    def start(self) -> None:
        self.engine.send_line("xboard")
        self.engine.send_line("protover 2")
        # Engines that do not know protocol 2 never say done=1: give them two seconds.
        self.call_later(2.0, self._timeout)

    def _timeout(self) -> None:
        if self._waiting:
            LOGGER.error("%s: Timeout during initialization", self.engine)
            self._end()

    def line_received(self, line: str) -> None:
        token, rest = _next_token(line)
        if token.startswith("#"):
            pass
        elif token == "feature":
            self._feature(rest)
        elif _XBOARD_ERROR.match(line):
            raise EngineError(line)

    def _feature(self, text: str) -> None:
        engine = self.engine
        try:
            features = shlex.split(text)
        except ValueError as err:
            raise EngineError(f"cannot parse features {text!r}: {err}") from err
        for feature in features:
            key, _, value = feature.partition("=")
            if key == "option":
                try:
                    option = _parse_xboard_option(value)
                except (IndexError, ValueError) as err:
                    raise EngineError(f"cannot parse option feature {value!r}: {err}") from err
                if option.name not in ("random", "computer", "cores", "memory"):
                    engine.options[option.name] = option
            else:
                try:
                    engine.features[key] = int(value)
                except ValueError:
                    engine.features[key] = value
        if "done" in engine.features:
            self._waiting = False  # done=0: the engine asked for more time
        if engine.features.get("done"):
            self._end()

    def _end(self) -> None:
        engine = self.engine
        for required in ("ping", "setboard"):
            if not engine.features.get(required, 0):
                self.result.set_exception(
                    _with_output(
                        EngineError(f"xboard engine did not declare required feature: {required}"),
                        engine._recent,
                    )
                )
                self.set_finished()
                return
        if not engine.features.get("reuse", 1):
            LOGGER.warning("%s: Rejecting feature reuse=0", engine)
            engine.send_line("rejected reuse")
        if not engine.features.get("sigterm", 1):
            LOGGER.warning("%s: Rejecting feature sigterm=0", engine)
            engine.send_line("rejected sigterm")
        if engine.features.get("san", 0):
            LOGGER.warning("%s: Rejecting feature san=1", engine)
            engine.send_line("rejected san")
        if "myname" in engine.features:
            engine.id["name"] = str(engine.features["myname"])
        if engine.features.get("memory", 0):
            engine.options["memory"] = Option("memory", "spin", 16, 1, None, None)
            engine.send_line("accepted memory")
        if engine.features.get("smp", 0):
            engine.options["cores"] = Option("cores", "spin", 1, 1, None, None)
            engine.send_line("accepted smp")
        if engine.features.get("egt"):
            for egt in str(engine.features["egt"]).split(","):
                name = f"egtpath {egt}"
                engine.options[name] = Option(name, "path", None, None, None, None)
            engine.send_line("accepted egt")
        for option in engine.options.values():
            if option.default is not None:
                engine.config[option.name] = option.default
                if not option.is_managed():
                    engine.target_config[option.name] = option.default
        engine.initialized = True
        self.result.set_result(None)
        self.set_finished()


class _XBoardPing(BaseCommand[None]):
    def __init__(self, engine: XBoardProtocol) -> None:
        super().__init__(engine)
        self.engine = engine
        self.pong = ""

    def start(self) -> None:
        n = id(self) & 0xFFFF
        self.pong = f"pong {n}"
        self.engine._ping(n)

    def line_received(self, line: str) -> None:
        if line.strip() == self.pong:
            self.result.set_result(None)
            self.set_finished()
        elif _XBOARD_ERROR.match(line):
            raise EngineError(line)
        elif not line.startswith("#"):
            LOGGER.warning("%s: Unexpected engine output: %r", self.engine, line)


def _is_post(line: str) -> bool:
    """Thinking output: at least four fields, the first a number."""
    stripped = line.lstrip()
    return bool(stripped) and stripped[0].isdigit() and len(line.split()) >= 4


class _XBoardPlay(BaseCommand[PlayResult]):
    def __init__(
        self,
        engine: XBoardProtocol,
        board: Board,
        limit: Limit,
        game: object,
        info: Info,
        ponder: bool,
        draw_offered: bool,
        options: ConfigMapping,
        opponent: Opponent | None,
    ) -> None:
        super().__init__(engine)
        self.engine = engine
        self.board, self.limit, self.game, self.selector = board, limit, game, info
        self.ponder, self.draw_offered, self.options, self.opponent = (
            ponder,
            draw_offered,
            options,
            opponent,
        )
        self.play_result = PlayResult(None, None)
        self.stopped = False
        self.pong_after_move: str | None = None
        self.pong_after_ponder: str | None = None

    def start(self) -> None:
        engine, board, limit = self.engine, self.board, self.limit
        engine._new(board, self.game, self.options, self.opponent)
        clock = limit.white_clock if board.turn else limit.black_clock
        increment = limit.white_inc if board.turn else limit.black_inc
        if limit.clock_id is None or limit.clock_id != engine.clock_id:
            if limit.remaining_moves or clock is not None or increment is not None:
                minutes, seconds = divmod(int(clock or 0), 60)
                engine.send_line(
                    f"level {limit.remaining_moves or 0} {minutes}:{seconds:02d} {increment or 0}"
                )
            if limit.time is not None:
                engine.send_line(f"st {max(0.01, limit.time)}")
        engine.clock_id = limit.clock_id
        if limit.nodes is not None:
            if (
                limit.time is not None
                or limit.white_clock is not None
                or limit.black_clock is not None
                or increment is not None
            ):
                raise EngineError("xboard does not support mixing node limits with time limits")
            if "nps" not in engine.features:
                LOGGER.warning(
                    "%s: Engine did not explicitly declare support for node limits (feature nps=?)",
                    engine,
                )
            elif not engine.features["nps"]:
                raise EngineError("xboard engine does not support node limits (feature nps=0)")
            engine.send_line("nps 1")
            engine.send_line(f"st {max(1, int(limit.nodes))}")
        if limit.depth is not None:
            engine.send_line(f"sd {max(1, int(limit.depth))}")
        if limit.white_clock is not None:
            engine.send_line(
                f"{'time' if board.turn else 'otim'} {max(1, round(limit.white_clock * 100))}"
            )
        if limit.black_clock is not None:
            engine.send_line(
                f"{'otim' if board.turn else 'time'} {max(1, round(limit.black_clock * 100))}"
            )
        if self.draw_offered and engine.features.get("draw", 1):
            engine.send_line("draw")
        engine.send_line("post" if self.selector else "nopost")
        engine.send_line("hard" if self.ponder else "easy")
        engine.send_line("go")

    def line_received(self, line: str) -> None:
        token, rest = _next_token(line)
        rest = rest.strip()
        if token == "move":
            self._move(rest)
        elif token == "Hint:":
            self._hint(rest)
        elif token == "pong":
            pong = f"pong {rest}"
            if pong == self.pong_after_move:
                self.result.set_result(self.play_result)
                if not self.ponder:
                    self.set_finished()
            elif pong == self.pong_after_ponder:
                self.result.set_result(self.play_result)
                self.set_finished()
        elif f"{token} {rest}" == "offer draw":
            if not self.result.done():
                self.play_result.draw_offered = True
            self._ping_after_move()
        elif line.strip() == "resign":
            if not self.result.done():
                self.play_result.resigned = True
            self._ping_after_move()
        elif token in ("1-0", "0-1", "1/2-1/2"):
            if "resign" in line and not self.result.done():
                self.play_result.resigned = True
            self._ping_after_move()
        elif token.startswith("#"):
            pass
        elif _XBOARD_ERROR.match(line):
            self.engine.first_game = True  # its board may no longer be ours
            raise EngineError(line)
        elif _is_post(line):
            if not self.result.done():
                self.play_result.info = _parse_xboard_post(line, self.engine.board, self.selector)
        else:
            LOGGER.warning("%s: Unexpected engine output: %r", self.engine, line)

    def _move(self, text: str) -> None:
        if not self.result.done() and self.play_result.move is None:
            try:
                self.play_result.move = _push_xboard(self.engine.board, text)
            except ValueError as err:
                self.engine.first_game = True
                raise EngineError(f"invalid move {text!r} from engine: {err}") from err
            self._ping_after_move()
        else:
            try:
                _push_xboard(self.engine.board, text)
            except ValueError:
                LOGGER.exception("Exception playing unexpected move")

    def _hint(self, text: str) -> None:
        if (
            not self.result.done()
            and self.play_result.move is not None
            and self.play_result.ponder is None
        ):
            try:
                self.play_result.ponder = self.engine.board.parse_san(text)
            except ValueError:
                LOGGER.exception("Exception parsing hint")
        else:
            LOGGER.warning("Unexpected hint: %r", text)

    def _ping_after_move(self) -> None:
        if self.pong_after_move is None:
            n = id(self) & 0xFFFF
            self.pong_after_move = f"pong {n}"
            self.engine._ping(n)

    def cancel(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        if self.result.cancelled():
            self.engine.send_line("?")
        if self.ponder:
            self.engine.send_line("easy")
            n = (id(self) + 1) & 0xFFFF
            self.pong_after_ponder = f"pong {n}"
            self.engine._ping(n)

    def engine_terminated(self, exc: EngineTerminatedError) -> None:
        if not self.result.done():
            super().engine_terminated(exc)
        else:
            self._mark_finished()


class _XBoardAnalysis(BaseCommand[AnalysisResult]):
    def __init__(
        self,
        engine: XBoardProtocol,
        board: Board,
        limit: Limit | None,
        game: object,
        info: Info,
        root_moves: Iterable[Move] | None,
        options: ConfigMapping,
    ) -> None:
        super().__init__(engine)
        self.engine = engine
        self.board, self.limit, self.game, self.selector = board, limit, game, info
        self.root_moves, self.options = root_moves, options
        self.stopped = False
        self.best_move: Move | None = None
        self.analysis = AnalysisResult(stop=self._stop)
        self.final_pong: str | None = None

    def _stop(self) -> None:
        if not self.finished:
            self.cancel()

    def start(self) -> None:
        engine = self.engine
        engine._new(self.board, self.game, self.options)
        if self.root_moves is not None:
            if not engine.features.get("exclude", 0):
                raise EngineError("xboard engine does not support root_moves (feature exclude=0)")
            engine.send_line("exclude all")
            for move in self.root_moves:
                engine.send_line(f"include {_xboard_move(engine.board, move)}")
        engine.send_line("post")
        engine.send_line("analyze")
        self.result.set_result(self.analysis)
        if self.limit is not None and self.limit.time is not None:
            self.call_later(self.limit.time, self.cancel)

    def line_received(self, line: str) -> None:
        token, rest = _next_token(line)
        if token.startswith("#"):
            pass
        elif _is_post(line):
            self._post(line)
        elif f"{token} {rest.strip()}" == self.final_pong:
            self._end()
        elif _XBOARD_ERROR.match(line):
            self.engine.first_game = True
            raise EngineError(line)
        else:
            LOGGER.warning("%s: Unexpected engine output: %r", self.engine, line)

    def _post(self, line: str) -> None:
        info = _parse_xboard_post(line, self.engine.board, self.selector)
        self.analysis.post(info)
        pv = info.get("pv")
        if pv:
            self.best_move = pv[0]
        limit = self.limit
        if limit is None:
            return
        if (
            limit.time is not None
            and info.get("time", 0) >= limit.time
            or limit.nodes is not None
            and info.get("nodes", 0) >= limit.nodes
            or limit.depth is not None
            and info.get("depth", 0) >= limit.depth
            or limit.mate is not None
            and "score" in info
            and info["score"].relative >= Mate(limit.mate)
        ):
            self.cancel()

    def _end(self) -> None:
        self.set_finished()
        self.analysis.set_finished(BestMove(self.best_move, None))

    def cancel(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        self.engine.send_line(".")
        self.engine.send_line("exit")
        n = id(self) & 0xFFFF
        self.final_pong = f"pong {n}"
        self.engine._ping(n)

    def _handle_exception(self, exc: BaseException) -> None:
        # Once the analysis is handed out, its reader gets the exception.
        exc = _with_output(exc, self._engine._recent)
        self.analysis.set_exception(exc)
        if not self.result.done():
            self.result.set_exception(exc)
        self._mark_finished()

    def engine_terminated(self, exc: EngineTerminatedError) -> None:
        LOGGER.debug(
            "%s: closing analysis because the engine has been terminated (%s)", self.engine, exc
        )
        self._handle_exception(exc)


def _parse_xboard_post(line: str, root_board: Board, selector: Info = INFO_ALL) -> InfoDict:
    """Thinking output: ``depth score time nodes [seldepth [nps [... tbhits]]] pv``."""
    info: InfoDict = {}
    tokens = line.split()
    numbers: list[int] = []
    for token in tokens:
        try:
            numbers.append(int(token))
        except ValueError:
            break
    if len(numbers) < 4:
        return info
    moves_text = tokens[len(numbers) :]
    info["depth"] = numbers[0]
    cp = numbers[1]
    info["time"] = numbers[2] / 100
    info["nodes"] = numbers[3]
    # XBoard writes mates as 100000 + moves (negative: getting mated).
    score: Score
    if cp <= -100000:
        score = Mate(cp + 100000)
    elif cp == 100000:
        score = MateGiven
    elif cp > 100000:
        score = Mate(cp - 100000)
    else:
        score = Cp(cp)
    info["score"] = PovScore(score, root_board.turn)
    extra = numbers[4:]
    if extra:
        info["seldepth"] = extra.pop(0)
    if extra:
        info["nps"] = extra.pop(0)
    if extra:
        info["tbhits"] = extra[-1]  # the fields between are reserved
    pv: list[Move] = []
    board = root_board.copy(stack=False)
    for token in moves_text:
        if token.rstrip(".").isdigit():
            continue  # a move number
        try:
            pv.append(_push_xboard(board, token))
        except ValueError:
            break
        if not selector & INFO_PV:
            break
    info["pv"] = pv
    return info


# ---------------------------------------------------------------------------------------
# Tests and asyncio entry points


class MockTransport(asyncio.SubprocessTransport, asyncio.WriteTransport):
    """A transport that checks each line the protocol sends against a script of expected
    lines and answers with the scripted responses (on the next event-loop turn)."""

    def __init__(self, protocol: Protocol) -> None:
        super().__init__()
        self.protocol = protocol
        self.expectations: collections.deque[tuple[str, list[str]]] = collections.deque()
        self.expected_pings = 0
        self.stdin_buffer = bytearray()
        self.protocol.connection_made(self)

    def expect(self, expectation: str, responses: Sequence[str] = ()) -> None:
        self.expectations.append((expectation, list(responses)))

    def expect_ping(self) -> None:
        self.expected_pings += 1

    def assert_done(self) -> None:
        assert not self.expectations, f"pending expectations: {self.expectations}"

    def get_pipe_transport(self, fd: int) -> asyncio.BaseTransport | None:
        assert fd == 0, f"expected 0 for stdin, got {fd}"
        return self

    def write(self, data: Any) -> None:
        self.stdin_buffer.extend(data)
        while b"\n" in self.stdin_buffer:
            raw, _, rest = self.stdin_buffer.partition(b"\n")
            self.stdin_buffer = bytearray(rest)
            line = raw.decode("utf-8")
            if line.startswith("ping ") and self.expected_pings:
                self.expected_pings -= 1
                self._respond([line.replace("ping ", "pong ", 1)])
                continue
            assert self.expectations, f"unexpected: {line!r}"
            expected, responses = self.expectations.popleft()
            assert expected == line, f"expected {expected}, got: {line}"
            if responses:
                self._respond(responses)

    def _respond(self, lines: list[str]) -> None:
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        loop = self.protocol.loop or asyncio.get_running_loop()
        loop.call_soon(self.protocol.pipe_data_received, 1, data)

    def get_pid(self) -> int:
        return id(self)

    def get_returncode(self) -> int | None:
        return None if self.expectations else 0


async def popen_uci(
    command: str | list[str], *, setpgrp: bool = False, **popen_args: Any
) -> tuple[asyncio.SubprocessTransport, UciProtocol]:
    """Starts and initialises a UCI engine under asyncio: ``(transport, protocol)``."""
    transport, protocol = await UciProtocol.popen(command, setpgrp=setpgrp, **popen_args)
    try:
        await protocol.initialize()
    except BaseException:
        transport.close()
        raise
    return transport, protocol


async def popen_xboard(
    command: str | list[str], *, setpgrp: bool = False, **popen_args: Any
) -> tuple[asyncio.SubprocessTransport, XBoardProtocol]:
    """Starts and initialises an XBoard engine under asyncio: ``(transport, protocol)``."""
    transport, protocol = await XBoardProtocol.popen(command, setpgrp=setpgrp, **popen_args)
    try:
        await protocol.initialize()
    except BaseException:
        transport.close()
        raise
    return transport, protocol


# python-chess keeps this alias for compatibility; so does shatranj.
EventLoopPolicy = asyncio.DefaultEventLoopPolicy

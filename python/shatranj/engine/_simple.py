"""``SimpleEngine``: a blocking client of one engine process, python-chess's API without an
event loop.

python-chess runs an asyncio loop on a background thread and hands every call to it; each
call costs several thread hops. Here the caller's own thread writes the command and reads
the engine's pipes (``select``) until the answer is there, feeding the lines to the same
protocol objects the asyncio API uses (``_protocol``, ``_uci``, ``_xboard``). Other threads
may still call in (``stop()`` an analysis, another command): the protocol state is behind a lock,
and one thread at a time reads the pipes.

Guarantees:

- No hang: every wait has a deadline (``timeout``, plus the search time when the limit has
  one). A search without a time limit is watched instead: after ``timeout`` seconds of
  silence the client sends ``isready`` (UCI engines must answer it even while searching)
  and gives up with :class:`EngineTimeoutError` if ``timeout`` more seconds pass without a
  line.
- No zombie: the process is reaped when it exits, killed and reaped by :meth:`close`, and
  killed and reaped when the engine object is garbage-collected or the interpreter exits.
- Ctrl-C: ``KeyboardInterrupt`` reaches the caller at once; the running search is told to
  stop, and the next call first brings the engine back to a known idle state.

POSIX only (``select`` on pipes); on Windows use the asyncio API (:func:`popen_uci`). The
protocol object has no event loop here (``engine.protocol.loop`` is ``None``): code that hands
coroutines to python-chess's background loop needs the asyncio API instead.
"""

from __future__ import annotations

import collections
import contextlib
import copy
import heapq
import os
import select
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
    overload,
)

from .._core import Move

if TYPE_CHECKING:
    from ._protocol import AnyBoard
from ._analysis import _EMPTY, AnalysisResult
from ._commands import BaseCommand, _Slot
from ._errors import (
    LOGGER,
    AnalysisComplete,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    _with_output,
)
from ._protocol import Protocol, _process_group
from ._uci import UciProtocol
from ._values import (
    INFO_ALL,
    INFO_NONE,
    BestMove,
    ConfigMapping,
    Info,
    InfoDict,
    Limit,
    Opponent,
    Option,
    PlayResult,
)
from ._xboard import XBoardProtocol

T = TypeVar("T")

# The longest a wait blocks in `select` before looking at the process again: an engine whose
# stdout is kept open by a child of its own is noticed dead within this time.
_POLL_INTERVAL = 1.0


class _Timer:
    __slots__ = ("callback", "cancelled", "seq", "when")

    def __init__(self, when: float, seq: int, callback: Callable[[], None]) -> None:
        self.when, self.seq, self.callback, self.cancelled = when, seq, callback, False

    def cancel(self) -> None:
        self.cancelled = True

    def __lt__(self, other: _Timer) -> bool:
        return (self.when, self.seq) < (other.when, other.seq)


def _reap(process: subprocess.Popen[bytes], files: tuple[Any, ...]) -> None:
    """Kills ``process`` if it still runs, waits for it and closes its pipes (the
    finaliser: it must not refer to the transport)."""
    try:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        pass
    for file in files:
        try:
            file.close()
        except OSError:
            pass


class PipeTransport:
    """The engine process and its pipes, read by whichever thread waits for an answer.

    Duck-types the parts of ``asyncio.SubprocessTransport`` the protocols use
    (``get_pipe_transport(0).write``, ``get_pid``, ``get_returncode``, ``close``) and adds
    ``call_later`` for the protocols' timers."""

    def __init__(self, argv: list[Any], popen_args: Mapping[str, Any]) -> None:
        if sys.platform == "win32":
            raise NotImplementedError(
                "SimpleEngine reads pipes with select(), which Windows lacks; use the asyncio API "
                "(shatranj.engine.popen_uci) there"
            )
        for reserved in ("stdin", "stdout", "stderr", "bufsize", "universal_newlines", "text"):
            if reserved in popen_args:
                raise ValueError(f"popen argument {reserved!r} is set by the engine client")
        self.process: subprocess.Popen[bytes] = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            **popen_args,
        )
        assert self.process.stdin and self.process.stdout and self.process.stderr
        self._files = (self.process.stdin, self.process.stdout, self.process.stderr)
        self._in = self.process.stdin.fileno()
        self._out: int | None = self.process.stdout.fileno()
        self._err: int | None = self.process.stderr.fileno()
        os.set_blocking(self._in, False)
        self._finalizer = weakref.finalize(self, _reap, self.process, self._files)
        self.protocol: Protocol | None = None
        self.lock = threading.RLock()
        self._pending = bytearray()  # stdin bytes the pipe had no room for yet
        self._corked = 0
        self._partial = {1: bytearray(), 2: bytearray()}
        self._timers: list[_Timer] = []
        self._timer_seq = 0
        self._closed = False
        self._finished = False
        #: Lines to drop before the protocol sees them, in order: answers to the client's own
        #: liveness probes and resynchronisations (``readyok``, ``pong N``).
        self.swallow: collections.deque[str] = collections.deque()
        #: When the engine last printed a line to stdout (``time.monotonic()``).
        self.last_output = time.monotonic()
        #: How many ``bestmove`` lines have passed (to wait for one when resynchronising).
        self.bestmoves = 0

    def touch(self) -> None:
        """Starts the silence window anew: a command was just sent."""
        self.last_output = time.monotonic()

    def attach(self, protocol: Protocol) -> None:
        self.protocol = protocol
        protocol.connection_made(self)  # type: ignore[arg-type]

    # The asyncio transport surface.

    def get_pipe_transport(self, fd: int) -> PipeTransport:
        if fd != 0:
            raise ValueError(f"only stdin (0) is writable, not {fd}")
        return self

    def get_pid(self) -> int:
        return self.process.pid

    def get_returncode(self) -> int | None:
        return self.process.returncode

    def is_closing(self) -> bool:
        return self._closed

    def write(self, data: bytes) -> None:
        with self.lock:
            if self._closed or self._finished:
                return  # the protocol learns of the death from the reader
            self._pending += data
            if not self._corked:
                self._flush()

    @contextlib.contextmanager
    def corked(self) -> Iterator[None]:
        """Holds back writes until the block ends, then sends them in one system call (a
        command is often several lines: `position ...` and `go ...`)."""
        with self.lock:
            self._corked += 1
            try:
                yield
            finally:
                self._corked -= 1
                if not self._corked and not (self._closed or self._finished):
                    self._flush()

    def _flush(self) -> None:
        while self._pending:
            try:
                written = os.write(self._in, self._pending)
            except BlockingIOError:
                return
            except (BrokenPipeError, OSError):
                self._pending.clear()  # the engine is gone; reading will say so
                return
            del self._pending[:written]

    def call_later(self, delay: float, callback: Callable[[], None]) -> _Timer:
        with self.lock:
            self._timer_seq += 1
            timer = _Timer(time.monotonic() + delay, self._timer_seq, callback)
            heapq.heappush(self._timers, timer)
            return timer

    def next_timer(self) -> float | None:
        with self.lock:
            while self._timers and self._timers[0].cancelled:
                heapq.heappop(self._timers)
            return self._timers[0].when if self._timers else None

    def run_timers(self) -> None:
        now = time.monotonic()
        with self.lock:
            while self._timers and (self._timers[0].cancelled or self._timers[0].when <= now):
                timer = heapq.heappop(self._timers)
                if not timer.cancelled:
                    timer.callback()

    # Reading. `fds` and `handle` split one round so that several transports can share one
    # select() (shatranj.engine.analyse_many); `pump` is the round for one.

    def fds(self) -> tuple[list[int], list[int]]:
        with self.lock:
            if self._closed or self._finished:
                return [], []
            readable = [fd for fd in (self._out, self._err) if fd is not None]
            return readable, [self._in] if self._pending else []

    def handle(self, readable: Iterable[int], writable: Iterable[int]) -> None:
        if writable:
            with self.lock:
                self._flush()
        for fd in readable:
            try:
                data = os.read(fd, 1 << 16)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            with self.lock:
                if self._closed or self._finished:
                    return
                if fd == self._out:
                    if data:
                        self._lines(1, data)
                    else:
                        self._out = None
                        self._finish()
                        return
                elif fd == self._err:
                    if data:
                        self._lines(2, data)
                    else:
                        self._err = None
        self.run_timers()

    def idle(self) -> None:
        """A round without output: notices an engine that exited while something else keeps
        its stdout open."""
        with self.lock:
            if not (self._closed or self._finished) and self.process.poll() is not None:
                self._finish()

    def pump(self, wait: float | None) -> None:
        """Waits up to ``wait`` seconds (``None``: no limit) for output and hands it over."""
        readable, writable = self.fds()
        if not readable:
            return
        deadline = self.next_timer()
        limit = _POLL_INTERVAL if wait is None else min(wait, _POLL_INTERVAL)
        if deadline is not None:
            limit = min(limit, max(0.0, deadline - time.monotonic()))
        try:
            ready_r, ready_w, _ = select.select(readable, writable, [], max(0.0, limit))
        except (OSError, ValueError):
            if self._closed:
                return
            raise
        if ready_r or ready_w:
            self.handle(ready_r, ready_w)
        else:
            self.idle()
            self.run_timers()

    def _lines(self, fd: int, data: bytes) -> None:
        with self.corked():
            self._split(fd, data)

    def _split(self, fd: int, data: bytes) -> None:
        buffer = self._partial[fd]
        buffer += data
        if b"\n" not in data:
            return
        *lines, rest = buffer.split(b"\n")
        self._partial[fd] = bytearray(rest)
        protocol = self.protocol
        assert protocol is not None
        for index, raw in enumerate(lines):
            line = (raw[:-1] if raw.endswith(b"\r") else raw).decode("utf-8", errors="replace")
            if fd == 2:
                protocol.error_line_received(line)
                continue
            self.last_output = time.monotonic()
            if self.swallow and line.strip() == self.swallow[0]:
                self.swallow.popleft()
                continue
            if line.startswith("bestmove"):
                self.bestmoves += 1
            try:
                protocol._line_received(line)
            except BaseException:
                # Ctrl-C (or a bug) inside a line's handling: keep the lines after it for
                # the next round rather than lose, say, a bestmove.
                rest_lines = lines[index + 1 :]
                if rest_lines:
                    self._partial[fd] = (
                        bytearray(b"\n".join(rest_lines) + b"\n") + self._partial[fd]
                    )
                raise

    def _drain_stderr(self) -> None:
        """What the engine wrote to stderr before it died (a crash message, say)."""
        deadline = time.monotonic() + 0.2
        while self._err is not None and time.monotonic() < deadline:
            ready, _, _ = select.select([self._err], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            data = os.read(self._err, 1 << 16)
            if not data:
                self._err = None
                break
            self._lines(2, data)
        for fd in (1, 2):
            if self._partial[fd]:
                self._lines(fd, b"\n")

    def _finish(self) -> None:
        """The engine's stdout is closed or it has exited: reap it, tell the protocol."""
        if self._finished:
            return
        self._finished = True
        try:
            self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            # Closed stdout but still running: it is of no use any more.
            self.process.kill()
            self.process.wait()
        self._drain_stderr()
        self._out = self._err = None
        for file in self._files:
            try:
                file.close()
            except OSError:
                pass
        if self.protocol is not None:
            self.protocol._engine_terminated(self.process.returncode)

    def kill(self) -> None:
        with self.lock:
            if self.process.poll() is None:
                self.process.kill()

    def terminate(self) -> None:
        with self.lock:
            if self.process.poll() is None:
                self.process.terminate()

    def send_signal(self, signal: int) -> None:
        with self.lock:
            if self.process.poll() is None:
                self.process.send_signal(signal)

    def close(self) -> None:
        """Kills the engine if it still runs, reaps it and closes the pipes."""
        with self.lock:
            if self._closed:
                return
            if not self._finished:
                if self.process.poll() is None:
                    self.process.kill()
                self._finish()
            self._closed = True
        self._finalizer()


class SimpleEngine:
    """A blocking client of one engine process: python-chess's ``SimpleEngine``.

    Start one with :meth:`popen_uci` or :meth:`popen_xboard`; use it as a context manager
    (the engine is killed on exit). Methods raise :class:`EngineTimeoutError` (an
    ``asyncio.TimeoutError``) when the engine takes ``timeout`` seconds longer than the
    command needs, :class:`EngineTerminatedError` when the process is gone, and
    :class:`EngineError` for everything else the engine gets wrong; each carries the
    engine's last output lines."""

    def __init__(
        self, transport: PipeTransport, protocol: Protocol, *, timeout: float | None = 10.0
    ) -> None:
        self.transport = transport
        self.protocol = protocol
        self.timeout = timeout
        self._lock = transport.lock
        self._reader = threading.Lock()
        self._shutdown = False
        self._interrupted = False
        self._probe_sent: float | None = None
        #: Set to the exit code when the process has exited.
        self.returncode = protocol.returncode

    # Waiting.

    def _check(self) -> None:
        if self._shutdown:
            raise EngineTerminatedError("engine event loop dead")

    def _pump(self, wait: float | None) -> None:
        with self._reader:
            self.transport.pump(wait)

    def _liveness(self, now: float) -> float | None:
        """For a search without a deadline: probes a silent UCI engine with ``isready``
        and raises :class:`EngineTimeoutError` if it stays silent. Returns when to look
        again."""
        if self.timeout is None or not isinstance(self.protocol, UciProtocol):
            return None
        transport = self.transport
        with self._lock:
            if self._probe_sent is not None and transport.last_output >= self._probe_sent:
                self._probe_sent = None  # it spoke
            if self._probe_sent is None:
                silent_since = transport.last_output
                if not self.protocol.searching:
                    # Waiting for readyok (a new game): that is a probe already.
                    if now - silent_since >= 2 * self.timeout:
                        raise _with_output(
                            EngineTimeoutError(f"engine silent for {now - silent_since:.1f} s"),
                            self.protocol._recent,
                        )
                    return silent_since + 2 * self.timeout
                if now - silent_since < self.timeout:
                    return silent_since + self.timeout
                self._probe_sent = now
                if not transport.swallow:  # else an earlier probe is still unanswered
                    transport.swallow.append("readyok")
                    self.protocol.send_line("isready")
                return now + self.timeout
            if now - self._probe_sent >= self.timeout:
                silent = now - transport.last_output
                raise _with_output(
                    EngineTimeoutError(
                        f"engine stopped responding: silent for {silent:.1f} s and no answer to isready"
                    ),
                    self.protocol._recent,
                )
            return self._probe_sent + self.timeout

    def _wait(self, ready: Callable[[], bool], deadline: float | None, watch: bool = False) -> bool:
        """Reads the engine's output until ``ready()`` (``True``) or the deadline (``False``).
        ``watch``: probe a silent engine (see :meth:`_liveness`)."""
        while True:
            with self._lock:
                if ready():
                    return True
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                return False
            wait = None if deadline is None else deadline - now
            if watch:
                again = self._liveness(now)
                if again is not None:
                    wait = again - now if wait is None else min(wait, again - now)
            if self.protocol._terminated:
                with self._lock:
                    if ready():
                        return True
                raise _with_output(
                    EngineTerminatedError(
                        f"engine process dead (exit code: {self.protocol._exit_code})"
                    ),
                    self.protocol._recent,
                )
            self._pump(wait)

    def _submit(self, command: BaseCommand[T]) -> _Slot[T]:
        with self._lock, self.transport.corked():
            slot = self.protocol._submit(command)
        self.transport.touch()
        return slot

    def _timeout_error(self, what: str) -> EngineTimeoutError:
        error = EngineTimeoutError(
            f"engine did not answer {what} within the timeout ({self.timeout} s)"
        )
        _with_output(error, self.protocol._recent)
        return error

    def _run(
        self, command: BaseCommand[T], timeout: float | None, *, watch: bool = False, what: str = ""
    ) -> T:
        """Submits ``command`` and waits for its result."""
        self._check()
        self._recover()
        slot = self._submit(command)
        self._await_slot(slot, timeout, watch=watch, what=what or type(command).__name__)
        return slot.result()

    def _await_slot(
        self, slot: _Slot[Any], timeout: float | None, *, watch: bool, what: str
    ) -> None:
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            finished = self._wait(slot.done, deadline, watch)
        except BaseException:
            self._interrupt(slot)
            raise
        if not finished:
            with self._lock:
                slot.cancel()
            raise self._timeout_error(what)

    def _interrupt(self, slot: _Slot[Any] | None) -> None:
        """The wait was interrupted (Ctrl-C, or the engine found hung): stop the search
        now; the next call resynchronises."""
        self._interrupted = True
        try:
            with self._lock:
                if slot is not None:
                    slot.cancel()
        except BaseException:  # noqa: B036 - best effort while an exception propagates
            pass

    def _recover(self) -> None:
        """After an interrupted wait: stop whatever runs, wait until the engine is idle (a
        ``bestmove`` if it was searching, then ``readyok`` / ``pong``) and drop every
        command that was pending, so that no stale answer reaches the next command."""
        if not self._interrupted or self.protocol._terminated:
            return
        protocol, transport = self.protocol, self.transport
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        if isinstance(protocol, UciProtocol):
            with self._lock:
                searching = protocol.searching
                seen = transport.bestmoves
                if searching:
                    protocol.send_line("stop")
            if searching and not self._wait(lambda: transport.bestmoves > seen, deadline):
                raise self._timeout_error("stop")
            with self._lock:
                transport.swallow.append("readyok")
                protocol.send_line("isready")
        else:
            token = f"pong {id(self) & 0xFFFF}"
            with self._lock:
                protocol.send_line("force")
                protocol.send_line("easy")
                transport.swallow.append(token)
                protocol.send_line(f"ping {id(self) & 0xFFFF}")
        if not self._wait(lambda: not transport.swallow, deadline):
            raise self._timeout_error("the resynchronisation after an interrupt")
        with self._lock:
            for command in (protocol.command, protocol.next_command):
                if command is not None and not command.finished:
                    command.result.set_exception(
                        EngineError("abandoned: the call waiting for it was interrupted")
                    )
                    command._mark_finished()
            protocol.command = protocol.next_command = None
            if isinstance(protocol, UciProtocol):
                protocol.searching = False
                protocol.ponderhit = False
                protocol.may_ponderhit = None
            elif isinstance(protocol, XBoardProtocol):
                protocol.first_game = True
        self._interrupted = False

    def _timeout_for(self, limit: Limit | None) -> float | None:
        if self.timeout is None or limit is None or limit.time is None:
            return None
        return self.timeout + limit.time

    # python-chess's SimpleEngine API.

    @property
    def options(self) -> MutableMapping[str, Option]:
        """The engine's options (a copy)."""
        self._check()
        with self._lock:
            return copy.copy(self.protocol.options)

    @property
    def id(self) -> Mapping[str, str]:
        """What the engine says it is: ``name``, ``author``."""
        self._check()
        with self._lock:
            return dict(self.protocol.id)

    def communicate(self, command_factory: Callable[[Protocol], BaseCommand[T]]) -> T:
        """Runs a custom command (see :class:`BaseCommand`) without a timeout."""
        return self._run(command_factory(self.protocol), None)

    def configure(self, options: ConfigMapping) -> None:
        """Sets engine options for all later commands."""
        self._run(self.protocol._cmd_configure(options), self.timeout, what="configure")

    def send_opponent_information(
        self, *, opponent: Opponent | None = None, engine_rating: int | None = None
    ) -> None:
        self._run(
            self.protocol._cmd_send_opponent_information(opponent, engine_rating), self.timeout
        )

    def ping(self) -> None:
        """Waits until the engine is idle and answers."""
        self._run(self.protocol._cmd_ping(), self.timeout, what="ping")

    def play(
        self,
        board: AnyBoard,
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
        """The engine's move in ``board``; see :meth:`Protocol.play`."""
        self._check()
        with self._lock:
            command = self.protocol._cmd_play(
                board, limit, game, info, ponder, draw_offered, root_moves, options, opponent
            )
        return self._run(command, self._timeout_for(limit), watch=True, what="play")

    @overload
    def analyse(
        self,
        board: AnyBoard,
        limit: Limit,
        *,
        game: object = ...,
        info: Info = ...,
        root_moves: Iterable[Move] | None = ...,
        options: ConfigMapping = ...,
    ) -> InfoDict: ...
    @overload
    def analyse(
        self,
        board: AnyBoard,
        limit: Limit,
        *,
        multipv: int,
        game: object = ...,
        info: Info = ...,
        root_moves: Iterable[Move] | None = ...,
        options: ConfigMapping = ...,
    ) -> list[InfoDict]: ...
    @overload
    def analyse(
        self,
        board: AnyBoard,
        limit: Limit,
        *,
        multipv: int | None = ...,
        game: object = ...,
        info: Info = ...,
        root_moves: Iterable[Move] | None = ...,
        options: ConfigMapping = ...,
    ) -> InfoDict | list[InfoDict]: ...
    def analyse(
        self,
        board: AnyBoard,
        limit: Limit,
        *,
        multipv: int | None = None,
        game: object = None,
        info: Info = INFO_ALL,
        root_moves: Iterable[Move] | None = None,
        options: ConfigMapping = {},  # noqa: B006 (python-chess's signature; never mutated)
    ) -> InfoDict | list[InfoDict]:
        """Analyses ``board`` within ``limit``: the aggregated info dict, or with
        ``multipv`` the list of them, best first."""
        analysis = self._analyse(board, limit, multipv, game, info, root_moves, options)
        return analysis.info if multipv is None else analysis.multipv

    def _analyse(
        self,
        board: AnyBoard,
        limit: Limit,
        multipv: int | None,
        game: object,
        info: Info,
        root_moves: Iterable[Move] | None,
        options: ConfigMapping,
    ) -> AnalysisResult:
        self._check()
        self._recover()
        timeout = self._timeout_for(limit)
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            command = self.protocol._cmd_analysis(
                board, limit, multipv, game, info, root_moves, options
            )
        slot = self._submit(command)
        self._await_slot(slot, timeout, watch=True, what="analyse")
        analysis: AnalysisResult = slot.result()
        try:
            done = self._wait(lambda: analysis._done, deadline, watch=True)
        except BaseException:
            self._interrupted = True
            with self._lock:
                analysis.stop()
            raise
        if not done:
            with self._lock:
                analysis.stop()
            raise self._timeout_error("analyse")
        analysis._outcome()
        return analysis

    def analysis(
        self,
        board: AnyBoard,
        limit: Limit | None = None,
        *,
        multipv: int | None = None,
        game: object = None,
        info: Info = INFO_ALL,
        root_moves: Iterable[Move] | None = None,
        options: ConfigMapping = {},  # noqa: B006 (python-chess's signature; never mutated)
    ) -> SimpleAnalysisResult:
        """Starts analysing ``board`` (forever without ``limit``): iterate over the result
        for info dicts as they come; stop it with ``stop()`` or by leaving its ``with``."""
        self._check()
        with self._lock:
            command = self.protocol._cmd_analysis(
                board, limit, multipv, game, info, root_moves, options
            )
        inner = self._run(command, self.timeout, watch=True, what="analysis")
        return SimpleAnalysisResult(self, inner)

    def send_game_result(
        self,
        board: AnyBoard,
        winner: bool | None = None,
        game_ending: str | None = None,
        game_complete: bool = True,
    ) -> None:
        self._check()
        with self._lock:
            command = self.protocol._cmd_send_game_result(board, winner, game_ending, game_complete)
        if command is not None:
            self._run(command, self.timeout)

    def quit(self) -> None:
        """Asks the engine to exit and waits (``timeout``) until it has."""
        self._check()
        with self._lock:
            if not self.protocol._terminated:
                self.protocol._send_quit()
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        try:
            exited = self._wait(lambda: self.protocol._terminated, deadline)
        except EngineTerminatedError:
            return
        if not exited:
            raise self._timeout_error("quit")

    def close(self) -> None:
        """Kills the engine (if it still runs) and releases it; later calls raise
        :class:`EngineTerminatedError`."""
        with self._lock:
            if self._shutdown:
                return
            self._shutdown = True
        self.transport.kill()  # wakes a thread that waits in select()
        got = self._reader.acquire(timeout=2.0)
        try:
            self.transport.close()
        finally:
            if got:
                self._reader.release()

    @classmethod
    def popen(
        cls,
        Protocol: type[Protocol],
        command: str | list[str],
        *,
        timeout: float | None = 10.0,
        debug: bool | None = None,
        setpgrp: bool = False,
        **popen_args: Any,
    ) -> SimpleEngine:
        """Starts ``command`` (a program, or a list of a program and its arguments) and
        initialises it with ``Protocol``. ``popen_args`` go to ``subprocess.Popen``
        (``cwd``, ``env``, ...). ``debug`` is accepted for python-chess compatibility (it
        switched asyncio's debug mode); log ``shatranj.engine`` at DEBUG to see traffic."""
        argv = list(command) if isinstance(command, (list, tuple)) else [command]
        _process_group(popen_args, setpgrp)
        transport = PipeTransport(argv, popen_args)
        try:
            protocol = Protocol()
            transport.attach(protocol)
            engine = cls(transport, protocol, timeout=timeout)
        except BaseException:
            transport.close()
            raise
        try:
            engine._run(protocol._cmd_initialize(), timeout, what="the initialisation")
        except BaseException:
            engine.close()
            raise
        return engine

    @classmethod
    def popen_uci(
        cls,
        command: str | list[str],
        *,
        timeout: float | None = 10.0,
        debug: bool | None = None,
        setpgrp: bool = False,
        **popen_args: Any,
    ) -> SimpleEngine:
        """Starts and initialises a UCI engine."""
        return cls.popen(
            UciProtocol, command, timeout=timeout, debug=debug, setpgrp=setpgrp, **popen_args
        )

    @classmethod
    def popen_xboard(
        cls,
        command: str | list[str],
        *,
        timeout: float | None = 10.0,
        debug: bool | None = None,
        setpgrp: bool = False,
        **popen_args: Any,
    ) -> SimpleEngine:
        """Starts and initialises an XBoard engine."""
        return cls.popen(
            XBoardProtocol, command, timeout=timeout, debug=debug, setpgrp=setpgrp, **popen_args
        )

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} (pid={self.transport.get_pid()})>"


class SimpleAnalysisResult:
    """A running analysis of a :class:`SimpleEngine`: blocking versions of
    :class:`AnalysisResult`'s methods. Iterating reads the engine's output as it comes."""

    def __init__(self, simple_engine: SimpleEngine, inner: AnalysisResult) -> None:
        self.simple_engine = simple_engine
        self.inner = inner

    def _wait(self, ready: Callable[[], bool]) -> None:
        engine = self.simple_engine
        engine._check()
        engine.transport.touch()
        try:
            engine._wait(ready, None, watch=True)
        except BaseException:
            engine._interrupted = True
            with engine._lock:
                self.inner.stop()
            raise

    @property
    def info(self) -> InfoDict:
        with self.simple_engine._lock:
            return self.inner.info.copy()

    @property
    def multipv(self) -> list[InfoDict]:
        with self.simple_engine._lock:
            return [info.copy() for info in self.inner.multipv]

    def stop(self) -> None:
        """Stops the analysis (from any thread)."""
        engine = self.simple_engine
        if engine._shutdown:
            return
        with engine._lock:
            self.inner.stop()

    def wait(self) -> BestMove:
        """Waits until the analysis ends; the best move."""
        self._wait(lambda: self.inner._done)
        with self.simple_engine._lock:
            return self.inner._outcome()

    def would_block(self) -> bool:
        with self.simple_engine._lock:
            return self.inner.would_block()

    def empty(self) -> bool:
        with self.simple_engine._lock:
            return self.inner.empty()

    def get(self) -> InfoDict:
        """The next info dict; :class:`AnalysisComplete` after the last."""
        while True:
            with self.simple_engine._lock:
                info = self.inner._pop()
            if info is not _EMPTY:
                return info  # type: ignore[no-any-return]
            self._wait(lambda: bool(self.inner._queue) or self.inner._seen_kork)

    def next(self) -> InfoDict | None:
        try:
            return self.get()
        except AnalysisComplete:
            return None

    def __iter__(self) -> Iterator[InfoDict]:
        return self

    def __next__(self) -> InfoDict:
        try:
            return self.get()
        except AnalysisComplete:
            raise StopIteration from None

    def __enter__(self) -> SimpleAnalysisResult:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


__all__ = ["LOGGER", "PipeTransport", "SimpleAnalysisResult", "SimpleEngine"]

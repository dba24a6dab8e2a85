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
import subprocess
import sys
from collections.abc import (
    Callable,
    Iterable,
    Iterator,
    MutableMapping,
)
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
    overload,
)

from .._core import Board, Move

if TYPE_CHECKING:
    from typing import TypeAlias

    from typing_extensions import Self  # the checker's; not a runtime dependency

    from ..variant import VariantBoard

    #: The boards the client plays and analyses: a standard ``Board`` or a
    #: ``shatranj.variant`` board. The client asks only for what both offer, python-chess's
    #: board API (``fen(shredder=, en_passant=)``, ``root``, ``copy(stack=)``,
    #: ``move_stack``, ``push``/``pop``, ``push_uci``/``parse_uci``/``push_san``, ``turn``,
    #: ``chess960``), and reads the variant from the board's class (``uci_variant``,
    #: ``xboard_variant``, absent on a standard board): no call asks which kind it holds.
    AnyBoard: TypeAlias = Board | VariantBoard

from ._analysis import AnalysisResult
from ._commands import BaseCommand, CommandState, _Slot
from ._errors import LOGGER, RECENT_OUTPUT_LINES, EngineError, EngineTerminatedError, _with_output
from ._values import (
    INFO_ALL,
    INFO_NONE,
    ConfigMapping,
    ConfigValue,
    Info,
    InfoDict,
    Limit,
    Opponent,
    Option,
    PlayResult,
)

T = TypeVar("T")

ProtocolT = TypeVar("ProtocolT", bound="Protocol")


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
        board: AnyBoard,
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
        board: AnyBoard,
        limit: Limit | None,
        multipv: int | None,
        game: object,
        info: Info,
        root_moves: Iterable[Move] | None,
        options: ConfigMapping,
    ) -> BaseCommand[AnalysisResult]: ...

    @abc.abstractmethod
    def _cmd_send_game_result(
        self, board: AnyBoard, winner: bool | None, game_ending: str | None, game_complete: bool
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
        board: AnyBoard,
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
    async def analyse(
        self,
        board: AnyBoard,
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
        board: AnyBoard,
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
        board: AnyBoard,
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
        board: AnyBoard,
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


def _uci_variant(board: AnyBoard) -> str:
    return getattr(type(board), "uci_variant", None) or "chess"


def _xboard_variant(board: AnyBoard) -> str:
    return getattr(type(board), "xboard_variant", None) or "normal"


def _xboard_move(board: AnyBoard, move: Move) -> str:
    """A move as XBoard reads it (shatranj has no Chess960: UCI notation)."""
    return move.uci() if move else "@@@@"


def _push_xboard(board: AnyBoard, text: str) -> Move:
    """Plays a move an XBoard engine wrote (SAN or coordinates)."""
    if text in ("@@@@", "--", "0000", "Z0", "null"):
        raise ValueError(f"null move {text!r} is not supported")
    return board.push_san(text)

"""Commands, run one at a time: their state, their result slot, and the base they share."""

from __future__ import annotations

import concurrent.futures
import enum
from collections.abc import (
    Callable,
)
from typing import (
    TYPE_CHECKING,
    Any,
    Generic,
    TypeVar,
)

if TYPE_CHECKING:
    from ._protocol import Protocol  # annotations only: the protocol imports the commands

from ._errors import LOGGER, EngineError, EngineTerminatedError, _with_output

T = TypeVar("T")

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

"""Entry points and transports: ``popen_uci``/``popen_xboard`` under asyncio,
``run_in_background`` (a coroutine on a loop of its own), and :class:`MockTransport` for
tests."""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import inspect
import threading
from collections.abc import (
    Callable,
    Coroutine,
    Sequence,
)
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
)

if TYPE_CHECKING:
    pass  # the checker's; not a runtime dependency

from ._protocol import Protocol
from ._uci import UciProtocol
from ._xboard import XBoardProtocol

T = TypeVar("T")


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

"""The engine client's errors, which carry the engine's last output lines, and its log."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import (
    Iterable,
    Sequence,
)
from typing import (
    TYPE_CHECKING,
)

if TYPE_CHECKING:
    pass  # the checker's; not a runtime dependency


LOGGER = logging.getLogger("shatranj.engine")


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

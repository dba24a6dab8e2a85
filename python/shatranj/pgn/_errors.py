"""PGN's errors: a game's problems with their line numbers, and a stream's failures."""

from __future__ import annotations

from typing import (
    TYPE_CHECKING,
)

from .._core import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
)

if TYPE_CHECKING:
    pass


class PgnError(ValueError):
    """A problem in PGN text that is not a bad move; ``line`` is where (1-based)."""

    line: int

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.line = line


class StreamError(PgnError):
    """The stream itself failed: a read error, or a compressed stream that is truncated or
    corrupt. ``offset`` is the count of source (compressed) bytes read when it failed, so the
    fault is at or before it; ``line`` the decompressed line reached; ``compression`` one of
    ``"plain"``, ``"zstd"``, ``"gzip"``, ``"bzip2"``; ``truncated`` whether the source ended
    inside a frame. The games before the failure were all delivered."""

    offset: int
    compression: str
    truncated: bool

    def __init__(
        self,
        message: str,
        offset: int = 0,
        line: int = 0,
        compression: str = "plain",
        truncated: bool = False,
    ) -> None:
        super().__init__(message, line)
        self.offset = offset
        self.compression = compression
        self.truncated = truncated


_MOVE_ERRORS: dict[str, type] = {
    "invalid": InvalidMoveError,
    "illegal": IllegalMoveError,
    "ambiguous": AmbiguousMoveError,
}


def _error(line: int, kind: str, message: str) -> ValueError:
    """The exception python-chess would put in ``Game.errors``, with ``.line`` set."""
    cls = _MOVE_ERRORS.get(kind)
    if cls is None:
        return PgnError(message, line)
    error: ValueError = cls(message)
    setattr(error, "line", line)  # noqa: B010 (ValueError declares no line)
    return error

"""Games streamed from a path, a binary file object or stdin, parsed on the thread pool and
handed over a batch at a time, with progress."""

from __future__ import annotations

import os
import stat
import sys
import time
from collections.abc import Iterable, Iterator
from typing import (
    TYPE_CHECKING,
    Any,
    Union,
)

from .. import _core

if TYPE_CHECKING:
    pass

from ._errors import StreamError, _error
from ._headers import Headers
from ._read import GameList
from ._tree import Game

Source = Union[str, "os.PathLike[str]", Any]
"""A path, ``"-"`` for standard input, or a binary file object (a text one's ``.buffer``)."""

Filter = Iterable[tuple[str, str, Any]]
"""``(tag, op, value)`` conditions that must all hold, tested on the tag section before any
movetext is parsed. ``op``: ``==``, ``!=``, ``contains``, ``!contains``, ``startswith``,
``in`` (a list of values), or ``>=``, ``>``, ``<=``, ``<`` (numeric; a value that is not a
number, such as an ``Elo`` of ``?``, fails). A game without the tag passes only ``!=`` and
``!contains``. Example: ``[("Event", "contains", "Rated Blitz"), ("WhiteElo", ">=", 2000)]``."""


class _Progress:
    """A one-line progress bar on stderr: bytes read against the source's size where known."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.start = time.perf_counter()
        self.last = 0.0

    def update(self, games: int, final: bool = False) -> None:
        now = time.perf_counter()
        if not final and now - self.last < 0.2:
            return
        self.last = now
        elapsed = max(now - self.start, 1e-9)
        done = self.stream.bytes_read
        total = self.stream.total_bytes
        if total:
            fraction = min(done / total, 1.0)
            bar = "#" * int(fraction * 30)
            head = f"[{bar:<30}] {fraction:6.1%} {done / 1e6:,.1f}/{total / 1e6:,.1f} MB"
        else:
            head = f"{done / 1e6:,.1f} MB"
        line = f"\rpgn {head}  {games:,} games  {games / elapsed:,.0f} games/s"
        sys.stderr.write(line + ("\n" if final else ""))
        sys.stderr.flush()


class GameStream:
    """Games of a PGN source in file order, parsed on worker threads without the GIL.

    Iterating yields :class:`Game` objects (``stream_headers`` streams yield
    :class:`Headers`). Memory stays bounded: the source is read a block at a time, and at most
    a few dozen batches are in flight. The counters grow as it goes: ``read``, ``skipped``
    (untrustworthy games, with their errors and line numbers in ``errors``), ``filtered``
    (left out by the header filter), ``bytes_read`` and ``total_bytes`` (compressed bytes;
    ``None`` where the size is unknown) and ``compression``. A failed stream (truncated or
    corrupt compressed data, a read error) raises :class:`StreamError` after the games before
    the fault. Ctrl-C raises ``KeyboardInterrupt`` and stops the reader.
    """

    def __init__(
        self, source: Source, mode: str, filter: Filter | None, threads: int | None, progress: bool
    ) -> None:
        from ._arrow import _native_source  # Parquet sources; the Arrow module imports this one

        source, total = _native_source(source)
        self._native = _core.pgn_open(
            source, mode, None if filter is None else list(filter), threads, total
        )
        self._mode = mode
        self.read = 0
        self.skipped = 0
        self.errors: list[ValueError] = []
        self._progress = _Progress(self._native) if progress else None

    @property
    def bytes_read(self) -> int:
        return self._native.bytes_read

    @property
    def total_bytes(self) -> int | None:
        return self._native.total_bytes

    @property
    def compression(self) -> str:
        return self._native.compression

    @property
    def filtered(self) -> int:
        return self._native.filtered

    def _batches(self) -> Iterator[tuple[list[Any], list[Any]]]:
        try:
            while True:
                batch = self._native.next_batch()
                if batch is None:
                    return
                trees, errors, headers, failure = batch
                self.skipped += len(errors)
                self.errors.extend(_error(*e) for e in errors)
                items = trees if self._mode == "games" else headers
                self.read += len(items)
                if self._progress is not None:
                    self._progress.update(self.read)
                yield items, errors
                if failure is not None:
                    message, offset, line, compression, truncated = failure
                    raise StreamError(message, offset, line, compression, truncated)
        finally:
            if self._progress is not None:
                self._progress.update(self.read, final=True)

    def __iter__(self) -> Iterator[Any]:
        if self._mode == "games":
            for trees, _ in self._batches():
                for tree in trees:
                    yield Game._from_tree(tree)
        else:
            for headers, _ in self._batches():
                for tags in headers:
                    h = Headers({})
                    for name, value in tags:
                        h[name] = value
                    yield h

    def close(self) -> None:
        """Stops the reader."""
        self._native.close()

    def __enter__(self) -> GameStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<GameStream {self.compression}, {self.read} read, {self.skipped} skipped>"


def _size_of(handle: Any) -> int | None:
    """A file object's size, where it is a regular file."""
    try:
        st = os.fstat(handle.fileno())
    except (AttributeError, OSError, ValueError, TypeError):  # io.UnsupportedOperation is both
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None


def stream_games(
    source: Source,
    *,
    filter: Filter | None = None,
    threads: int | None = None,
    progress: bool = False,
) -> GameStream:
    """The games of a PGN source (plain, ``.zst``, ``.gz`` or ``.bz2``, told by the first
    bytes), streamed in file order: see :class:`GameStream`. ``threads`` parse threads
    (default: every core); ``filter`` is tested on each game's tags before its movetext is
    parsed; ``progress`` draws a progress bar on stderr."""
    return GameStream(source, "games", filter, threads, progress)


def stream_headers(
    source: Source,
    *,
    filter: Filter | None = None,
    threads: int | None = None,
    progress: bool = False,
) -> GameStream:
    """The tag pairs of every game of a source, as :class:`Headers` (the tags present only,
    as :func:`read_headers`), without parsing any movetext."""
    return GameStream(source, "headers", filter, threads, progress)


def read_games(
    source: Source,
    *,
    filter: Filter | None = None,
    threads: int | None = None,
    progress: bool = False,
) -> GameList:
    """Every game of a PGN source (a path, ``"-"``, or a binary file object; plain or
    compressed), parsed on all cores without the GIL, kept in memory.

    Ctrl-C stops it (``KeyboardInterrupt``). Games come back in file order. A truncated or
    corrupt compressed stream raises :class:`StreamError`.
    """
    stream = GameStream(source, "games", filter, threads, progress)
    trees: list[_core.PgnTree] = []
    for batch, _ in stream._batches():
        trees.extend(batch)
    return GameList(trees, stream.errors, stream.filtered)

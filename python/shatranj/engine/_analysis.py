"""An analysis in progress: the info dicts an engine reports, queued for the reader."""

from __future__ import annotations

import asyncio
import collections
from collections.abc import (
    Callable,
)
from typing import (
    TYPE_CHECKING,
    Any,
)

if TYPE_CHECKING:
    pass  # the checker's; not a runtime dependency

from ._errors import AnalysisComplete
from ._values import BestMove, InfoDict

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

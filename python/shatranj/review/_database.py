"""A database reviewed: games streamed from a PGN file through a pool of engines, results
written in the file's order as they finish, and a checkpoint that lets a stopped run go on.

The unit of work is a game. :func:`iter_reviews` keeps a bounded window of games in flight
(eight per worker), so memory stays flat however large the file; each worker owns its engine
(the in-process search, or a UCI engine process of its own) and every game starts with a
cleared hash, so a game's review does not depend on which worker took it or what it did before.

:func:`review_pgn` writes what :func:`iter_reviews` yields. Outputs grow in *commits*: the
annotated PGN is appended and flushed, the tables get one Parquet part each, and only then does
the checkpoint (a small JSON file, replaced atomically) say how many games are final. A
restarted run truncates the PGN to the committed length, drops uncommitted parts, and skips the
committed games, so no game is lost or written twice. Ctrl-C commits every finished game
before it propagates.
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import dataclasses
import json
import os
import queue
import shutil
import sys
import threading
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import (
    Any,
    BinaryIO,
    Literal,
)

from ..engine._values import Limit
from ._engines import Analyser, EngineSpec, ReviewEngineError, check_limit
from ._game import review_game
from ._record import GameReview
from ._tables import GAME_COLUMNS, MOVE_COLUMNS, game_row, move_rows, table

#: ``progress(games done, positions evaluated)`` after each finished game.
DatabaseProgress = Callable[[int, int], object]
OnError = Literal["skip", "raise"]
#: Games in flight or waiting to be written, per worker. Results leave in the source's order,
#: so a long game holds back those after it: a window of a few games per worker keeps the
#: other workers busy meanwhile (with 2, one long game left a core idle), and still bounds
#: memory.
WINDOW_PER_WORKER = 8
#: The checkpoint's format; a file of another version is refused, not misread.
CHECKPOINT_VERSION = 1


@dataclasses.dataclass(frozen=True)
class GameFailure:
    """A game that could not be reviewed: its index in the source (counting the games the
    reader yielded), its tags, the ply where it failed (0: the start position; ``None`` if not
    at a position) and why."""

    game: int
    headers: dict[str, str]
    ply: int | None
    message: str

    def __str__(self) -> str:
        where = "" if self.ply is None else f" at ply {self.ply}"
        who = f"{self.headers.get('White', '?')} vs {self.headers.get('Black', '?')}"
        return f"game {self.game} ({who}){where}: {self.message}"


class _Stopped(Exception):
    """Raised inside a worker's review when the run is being stopped."""


class _Pool:
    """One analyser per worker, lent to one game at a time."""

    def __init__(self, make: Callable[[], Analyser | None], workers: int) -> None:
        self.stopping = threading.Event()
        self._all = [make() for _ in range(workers)]
        self._free: queue.Queue[Analyser | None] = queue.Queue()
        for analyser in self._all:
            self._free.put(analyser)

    def review(
        self, index: int, game: Any, kwargs: dict[str, Any]
    ) -> tuple[GameReview | GameFailure, int]:
        analyser = self._free.get()
        try:
            if self.stopping.is_set():
                raise _Stopped()

            def check(_done: int, _total: int) -> None:
                if self.stopping.is_set():
                    raise _Stopped()

            headers = dict(getattr(game, "headers", {}))
            try:
                review = review_game(game, analyser=analyser, progress=check, **kwargs)
            except ReviewEngineError as error:
                return GameFailure(index, headers, error.ply, str(error)), 0
            except (_Stopped, KeyboardInterrupt):
                raise
            except Exception as error:  # noqa: BLE001 - one game's fault (an engine's illegal line, say) fails that game
                return GameFailure(index, headers, None, f"{type(error).__name__}: {error}"), 0
            return review, len(review.moves) + 1
        finally:
            self._free.put(analyser)

    def stop(self) -> None:
        self.stopping.set()
        for analyser in self._all:
            if analyser is not None:
                analyser.stop()

    def close(self) -> None:
        for analyser in self._all:
            if analyser is not None:
                analyser.close()


def _default_workers(engine: EngineSpec, threads: int) -> int:
    """One engine per core (engines of ``threads`` threads share them); one for an engine object."""
    from ..engine._local import Engine
    from ..engine._simple import SimpleEngine

    if isinstance(engine, (Engine, SimpleEngine)):
        return 1  # one engine object is one search at a time
    return max(1, (os.cpu_count() or 1) // max(1, threads))


def iter_reviews(
    source: Any,
    engine: EngineSpec = None,
    limit: Limit | None = None,
    *,
    workers: int | None = None,
    filter: Any | None = None,
    from_comments: bool = False,
    multipv: int = 1,
    threads: int = 1,
    hash_mb: int = 64,
    timeout: float | None = 10.0,
    position_timeout: float | None = None,
    on_error: OnError = "skip",
    skip: int = 0,
    games: Any | None = None,
) -> Generator[tuple[int, Any, GameReview | GameFailure, int], None, None]:
    """Reviews the games of a PGN source (a path, ``"-"``, a binary file object; plain or
    compressed; ``filter`` as :func:`shatranj.pgn.stream_games`) with ``workers`` engines at
    once (default: one per core, divided by ``threads``; 1 for an engine object). Yields ``(index, game, review,
    positions)`` in the source's order: ``review`` is a :class:`GameReview`, or a
    :class:`GameFailure` for a game the engine failed on twice (``on_error="raise"`` raises
    :class:`ReviewEngineError` instead). ``skip`` games are passed over first (resuming).
    Engine arguments are as :func:`review_game`'s; ``games`` may give the games directly (an
    iterable of :class:`shatranj.pgn.Game`) instead of ``source``.

    Ctrl-C (or closing the generator) stops the engines and the games in flight.
    """
    if on_error not in ("skip", "raise"):
        raise ValueError(f"on_error must be 'skip' or 'raise', not {on_error!r}")
    count = _default_workers(engine, threads) if workers is None else workers
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"workers must be an int ≥ 1, not {workers!r}")
    if not from_comments:
        check_limit(limit)
    if games is None:
        from ..pgn import stream_games

        games = stream_games(source, filter=filter, threads=1)
    # An engine object searches one position at a time; commands and None give one per worker.
    own_engines = engine is None or not hasattr(engine, "analyse")

    def make() -> Analyser | None:
        if from_comments:
            return None
        return Analyser(
            engine,
            limit,
            multipv=multipv,
            threads=threads,
            hash_mb=hash_mb,
            timeout=timeout,
            position_timeout=position_timeout,
        )

    if not own_engines and count > 1:
        raise ValueError(
            "one engine object cannot serve several workers: pass a command, or workers=1"
        )
    kwargs: dict[str, Any] = {"from_comments": from_comments}
    pool = _Pool(make, count)
    executor = concurrent.futures.ThreadPoolExecutor(
        max_workers=count, thread_name_prefix="shatranj-review"
    )
    window: collections.deque[
        tuple[int, Any, concurrent.futures.Future[tuple[GameReview | GameFailure, int]]]
    ] = collections.deque()
    try:
        numbered = enumerate(games)
        exhausted = False
        while True:
            while not exhausted and len(window) < WINDOW_PER_WORKER * count:
                item = next(numbered, None)
                if item is None:
                    exhausted = True
                    break
                index, game = item
                if index < skip:
                    continue
                window.append((index, game, executor.submit(pool.review, index, game, kwargs)))
            if not window:
                return
            index, game, future = window.popleft()
            result, positions = _wait(future)
            if isinstance(result, GameFailure) and on_error == "raise":
                raise ReviewEngineError(str(result), result.ply or 0)
            yield index, game, result, positions
    finally:
        pool.stop()
        for _, _, future in window:
            future.cancel()
        executor.shutdown(wait=True, cancel_futures=True)
        pool.close()


def _wait(future: concurrent.futures.Future[Any]) -> Any:
    """The future's result, waiting in slices so that Ctrl-C reaches this thread at once."""
    while True:
        try:
            return future.result(timeout=0.1)
        except concurrent.futures.TimeoutError:
            continue


# --- review_pgn: outputs, commits and the checkpoint -----------------------------------------


@dataclasses.dataclass
class DatabaseReview:
    """What :func:`review_pgn` did: ``games`` reviewed (this run and the runs it resumed),
    ``failures`` (games the engine failed on), ``skipped`` (games the PGN reader could not
    trust, with their line), ``positions`` evaluated in this run and the ``seconds`` it took.

    Without table files, the reviews are kept: :attr:`reviews`, and the tables built from them.
    """

    games: int = 0
    failures: list[GameFailure] = dataclasses.field(default_factory=list)
    skipped: list[str] = dataclasses.field(default_factory=list)
    positions: int = 0
    seconds: float = 0.0
    reviews: list[GameReview] | None = None
    moves_path: Path | None = None
    games_path: Path | None = None
    _game_rows: list[dict[str, Any]] = dataclasses.field(default_factory=list, repr=False)

    @property
    def positions_per_second(self) -> float:
        return self.positions / self.seconds if self.seconds > 0 else 0.0

    def moves_table(self) -> Any:
        """The moves table (pyarrow): read from the Parquet file written, or built from memory."""
        if self.moves_path is not None:
            return _read_parquet(self.moves_path)
        data: dict[str, list[Any]] = {name: [] for name, _ in MOVE_COLUMNS}
        for row in self._game_rows:
            review = row.get("_review")
            if review is not None:
                for name, values in move_rows(review, row["game"]).items():
                    data[name].extend(values)
        return table(MOVE_COLUMNS, data)

    def games_table(self) -> Any:
        """The games table (pyarrow), one row per game, failures included with their error."""
        if self.games_path is not None:
            return _read_parquet(self.games_path)
        return _games_table(
            [{k: v for k, v in row.items() if k != "_review"} for row in self._game_rows]
        )

    def to_polars(self, table: Literal["games", "moves"] = "games") -> Any:
        """A table as a polars DataFrame (``pip install 'shatranj[polars]'``)."""
        from ._tables import to_polars

        return to_polars(self.games_table() if table == "games" else self.moves_table())

    def __repr__(self) -> str:
        return (
            f"<DatabaseReview {self.games} games, {len(self.failures)} failed, {len(self.skipped)} skipped, "
            f"{self.positions_per_second:,.0f} positions/s>"
        )


def _games_table(rows: list[dict[str, Any]]) -> Any:
    data = {name: [row[name] for row in rows] for name, _ in GAME_COLUMNS}
    return table(GAME_COLUMNS, data)


def _read_parquet(path: Path) -> Any:
    import pyarrow.parquet as pq

    return pq.read_table(path)


class _TableOutput:
    """A Parquet table written in parts (one per commit) beside its final path, merged into the
    final file at the end of a run; the parts directory outlives an interrupted run."""

    def __init__(self, path: Path, columns: Any, committed: int) -> None:
        self.path = path
        self.columns = columns
        self.parts = path.with_name(path.name + ".parts")
        self.parts.mkdir(parents=True, exist_ok=True)
        self.count = committed
        for part in self.parts.glob("part-*.parquet"):
            if int(part.stem.split("-")[1]) >= committed:
                part.unlink()  # written after the last commit: redone
        missing = [i for i in range(committed) if not self._part(i).exists()]
        if missing:
            raise ValueError(
                f"{self.parts} lacks {len(missing)} of the {committed} parts the checkpoint says are final: "
                "restore them or remove the checkpoint to start over"
            )

    def _part(self, index: int) -> Path:
        return self.parts / f"part-{index:06d}.parquet"

    def write(self, data: dict[str, list[Any]]) -> None:
        import pyarrow.parquet as pq

        final = self._part(self.count)
        temporary = final.with_suffix(".tmp")
        pq.write_table(table(self.columns, data), temporary)
        os.replace(temporary, final)
        self.count += 1

    def merge(self) -> None:
        """Writes the final file from every committed part, a part at a time."""
        import pyarrow.parquet as pq

        from ._tables import schema

        temporary = self.path.with_name(self.path.name + ".tmp")
        with pq.ParquetWriter(temporary, schema(self.columns)) as writer:
            for index in range(self.count):
                writer.write_table(pq.read_table(self._part(index)))
        os.replace(temporary, self.path)

    def remove_parts(self) -> None:
        shutil.rmtree(self.parts, ignore_errors=True)


def settings(
    source: Any,
    engine: EngineSpec,
    limit: Limit | None,
    filter: Any,
    from_comments: bool,
    multipv: int,
) -> dict[str, str]:
    """What a checkpoint must match to be resumed: the same games and the same evaluations."""
    return {
        "source": os.fspath(source) if isinstance(source, (str, os.PathLike)) else repr(source),
        "engine": repr(engine)
        if not isinstance(engine, (str, os.PathLike, list, tuple)) or engine is None
        else str(engine),
        "limit": repr(limit),
        "filter": repr(None if filter is None else list(filter)),
        "from_comments": repr(from_comments),
        "multipv": repr(multipv),
    }


def _read_checkpoint(path: Path | None, settings: dict[str, str]) -> dict[str, Any]:
    if path is None or not path.exists():
        return {
            "version": CHECKPOINT_VERSION,
            "settings": settings,
            "games": 0,
            "pgn_bytes": 0,
            "moves_parts": 0,
            "games_parts": 0,
            "failures": [],
            "skipped": [],
            "complete": False,
        }
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"checkpoint {path} cannot be read: {error}") from error
    if state.get("version") != CHECKPOINT_VERSION:
        raise ValueError(
            f"checkpoint {path} is of version {state.get('version')!r}, this reader knows {CHECKPOINT_VERSION}"
        )
    if state.get("settings") != settings:
        differing = sorted(k for k in settings if state.get("settings", {}).get(k) != settings[k])
        raise ValueError(
            f"checkpoint {path} was written for other settings ({', '.join(differing)}): remove it to start over"
        )
    return state


def _write_checkpoint(path: Path, state: dict[str, Any]) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(state, indent=1), encoding="utf-8")
    os.replace(temporary, path)


class _TextProgress:
    def __init__(self) -> None:
        self.started = time.monotonic()
        self.last = 0.0

    def __call__(self, games: int, positions: int, final: bool = False) -> None:
        now = time.monotonic()
        if not final and now - self.last < 0.5:
            return
        self.last = now
        elapsed = max(now - self.started, 1e-9)
        sys.stderr.write(
            f"\rreview {games:,} games  {positions:,} positions  {positions / elapsed:,.0f} positions/s"
            + ("\n" if final else "")
        )
        sys.stderr.flush()


class DatabaseWriter:
    """The outputs of a database review and its checkpoint, fed one finished game at a time in
    the source's order (by :func:`review_pgn`, and by ``shatranj.distributed.review_pgn``)."""

    def __init__(
        self,
        settings: dict[str, str],
        *,
        pgn_out: str | os.PathLike[str] | None,
        moves_table: str | os.PathLike[str] | None,
        games_table: str | os.PathLike[str] | None,
        checkpoint: str | os.PathLike[str] | None,
        progress: bool | DatabaseProgress | None,
        commit_every: int,
    ) -> None:
        if isinstance(commit_every, bool) or not isinstance(commit_every, int) or commit_every < 1:
            raise ValueError(f"commit_every must be an int ≥ 1, not {commit_every!r}")
        self._checkpoint = None if checkpoint is None else Path(checkpoint)
        self.state = _read_checkpoint(self._checkpoint, settings)
        state = self.state
        self.result = DatabaseReview(
            games=state["games"] - len(state["failures"]),
            failures=[GameFailure(**f) for f in state["failures"]],
            moves_path=None if moves_table is None else Path(moves_table),
            games_path=None if games_table is None else Path(games_table),
        )
        self._keep = moves_table is None and games_table is None
        if self._keep:
            self.result.reviews = []
        #: The checkpoint's run was complete: nothing to do, and no output is touched.
        self.finished = bool(state.get("complete"))
        self._pgn: BinaryIO | None = None
        self._tables: list[_TableOutput] = []
        if not self.finished:
            self._open(pgn_out, moves_table, games_table)
        self._report = _TextProgress() if progress is True else (progress or None)
        self._moves: dict[str, list[Any]] = {name: [] for name, _ in MOVE_COLUMNS}
        self._games: list[dict[str, Any]] = []
        self._commit_every = commit_every
        self._since_commit = 0
        self._started = time.monotonic()

    def _open(self, pgn_out: Any, moves_table: Any, games_table: Any) -> None:
        """Opens the outputs where the checkpoint left them; an output shorter than the
        checkpoint says (deleted, or truncated by hand) is refused, not silently redone."""
        state = self.state
        if pgn_out is not None:
            path = Path(pgn_out)
            size = path.stat().st_size if path.exists() else 0
            if size < state["pgn_bytes"]:
                raise ValueError(
                    f"{path} holds {size} bytes but the checkpoint says {state['pgn_bytes']} are final: "
                    "restore it or remove the checkpoint to start over"
                )
            # Kept open for the writer's life; close() closes it.
            pgn = open(path, "r+b" if path.exists() else "wb")  # noqa: SIM115
            pgn.truncate(state["pgn_bytes"])
            pgn.seek(state["pgn_bytes"])
            self._pgn = pgn
        for path, columns, key in (
            (moves_table, MOVE_COLUMNS, "moves_parts"),
            (games_table, GAME_COLUMNS, "games_parts"),
        ):
            if path is not None:
                self._tables.append(_TableOutput(Path(path), columns, state[key]))

    @property
    def resume_at(self) -> int:
        """How many of the source's games are final already (to be skipped)."""
        return int(self.state["games"])

    def add(self, index: int, game: Any, review: GameReview | GameFailure, positions: int) -> None:
        """Records game ``index`` (the next one in order) and commits every ``commit_every``."""
        result = self.result
        if isinstance(review, GameFailure):
            result.failures.append(review)
            row = game_row(None, index, review.message, dict(game.headers))
            text = str(game)
        else:
            result.games += 1
            row = game_row(review, index)
            text = str(review.annotate(game))
            for name, values in move_rows(review, index).items():
                self._moves[name].extend(values)
            if result.reviews is not None:
                result.reviews.append(review)
        if self._keep:
            result._game_rows.append(
                dict(row, _review=None if isinstance(review, GameFailure) else review)
            )
        self._games.append(row)
        if self._pgn is not None:
            self._pgn.write(text.encode("utf-8") + b"\n\n")
        self.state["games"] = index + 1
        result.positions += positions
        self._since_commit += 1
        if self._since_commit >= self._commit_every:
            self.commit()
        if self._report is not None:
            self._report(result.games + len(result.failures), result.positions)

    def commit(self) -> None:
        """Makes every game added so far final: outputs flushed, then the checkpoint."""
        state = self.state
        if self._pgn is not None:
            self._pgn.flush()
            os.fsync(self._pgn.fileno())
            state["pgn_bytes"] = self._pgn.tell()
        for output in self._tables:
            moves = output.columns is MOVE_COLUMNS
            if moves and self._moves["game"]:
                output.write(self._moves)
            elif not moves and self._games:
                output.write(_columns(self._games))
            state["moves_parts" if moves else "games_parts"] = output.count
        for values in self._moves.values():
            values.clear()
        self._games.clear()
        self._since_commit = 0
        state["failures"] = [dataclasses.asdict(f) for f in self.result.failures]
        if self._checkpoint is not None:
            _write_checkpoint(self._checkpoint, state)

    def close(self, *, complete: bool, skipped: list[str]) -> DatabaseReview:
        """Commits, writes the final tables (every committed game, also after an interruption)
        and, for a complete run, removes their parts."""
        if self.finished:
            self.result.skipped = list(self.state.get("skipped", []))
            return self.result
        self.state["skipped"] = skipped
        self.state["complete"] = complete
        self.result.skipped = skipped
        self.commit()
        for output in self._tables:
            output.merge()
            if complete:
                output.remove_parts()
        if self._pgn is not None:
            self._pgn.close()
        self.result.seconds = time.monotonic() - self._started
        if isinstance(self._report, _TextProgress):
            self._report(
                self.result.games + len(self.result.failures), self.result.positions, final=True
            )
        return self.result


def review_pgn(
    source: Any,
    engine: EngineSpec = None,
    limit: Limit | None = None,
    *,
    pgn_out: str | os.PathLike[str] | None = None,
    moves_table: str | os.PathLike[str] | None = None,
    games_table: str | os.PathLike[str] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    filter: Any | None = None,
    from_comments: bool = False,
    multipv: int = 1,
    threads: int = 1,
    hash_mb: int = 64,
    timeout: float | None = 10.0,
    position_timeout: float | None = None,
    on_error: OnError = "skip",
    progress: bool | DatabaseProgress = True,
    commit_every: int = 32,
) -> DatabaseReview:
    """Reviews every game of a PGN database (``.pgn``, ``.pgn.zst`` …) on every core, as
    :func:`iter_reviews`, and writes the results as they come, in the source's order.

    - ``pgn_out``: the games annotated as lichess exports them (:func:`annotate`); a game that
      failed is written as it was.
    - ``moves_table`` / ``games_table``: Parquet files, one row per ply / per game
      (:data:`MOVE_COLUMNS`, :data:`GAME_COLUMNS`); failed games have a games row with
      ``error``. Without table files the reviews stay in memory (:attr:`DatabaseReview.reviews`).
    - ``checkpoint``: a JSON file recording how many games are final; a run given an existing
      checkpoint (of the same source and settings) goes on where it stopped, without redoing
      or losing a game. Outputs are committed every ``commit_every`` games and at the end.
    - ``progress``: a line on stderr (``True``), or ``progress(games, positions)``.

    Ctrl-C stops the engines, commits every finished game, then raises ``KeyboardInterrupt``.
    """
    writer = DatabaseWriter(
        settings(source, engine, limit, filter, from_comments, multipv),
        pgn_out=pgn_out, moves_table=moves_table, games_table=games_table, checkpoint=checkpoint,
        progress=progress, commit_every=commit_every,
    )  # fmt: skip

    def reviews(
        games: Any,
    ) -> Generator[tuple[int, Any, GameReview | GameFailure, int], None, None]:
        return iter_reviews(
            source, engine, limit, workers=workers, from_comments=from_comments, multipv=multipv, threads=threads,
            hash_mb=hash_mb, timeout=timeout, position_timeout=position_timeout, on_error=on_error,
            skip=writer.resume_at, games=games,
        )  # fmt: skip

    return write_database(writer, source, filter, reviews)


#: What reviews a database's games for :func:`write_database`: given the stream of the source's
#: games, yields ``(index, game, review, positions)`` in order, from ``writer.resume_at`` on.
Reviewer = Callable[[Any], Generator[tuple[int, Any, GameReview | GameFailure, int], None, None]]


def write_database(
    writer: DatabaseWriter, source: Any, filter: Any | None, reviews: Reviewer
) -> DatabaseReview:
    """A database review's life, wherever its games are reviewed (this process, or a Ray
    cluster): nothing to do after a finished checkpoint; else the source streamed through
    ``reviews`` into ``writer``, and, however it ends (Ctrl-C included), the stream closed, the
    finished games committed and the reader's skipped games recorded."""
    from ..pgn import stream_games

    if writer.finished:
        return writer.close(complete=True, skipped=[])
    games = stream_games(source, filter=filter, threads=1)
    complete = False
    try:
        with contextlib.closing(reviews(games)) as found:
            for index, game, review, positions in found:
                writer.add(index, game, review, positions)
        complete = True
    finally:
        games.close()
        writer.close(complete=complete, skipped=[str(e) for e in games.errors])
    return writer.result


def _columns(rows: list[dict[str, Any]]) -> dict[str, list[Any]]:
    return {name: [row[name] for row in rows] for name, _ in GAME_COLUMNS}

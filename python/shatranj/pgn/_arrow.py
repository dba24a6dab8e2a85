"""Games as columns: Arrow tables (``to_arrow``), Parquet files read back as games, polars
frames (``to_polars``)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable
from typing import (
    TYPE_CHECKING,
    Any,
)

from .. import _core

if TYPE_CHECKING:
    from ._stream import Filter, Source

from ._errors import StreamError
from ._stream import _size_of


class _ParquetPgn:
    """A binary file object whose bytes are the PGN text of a Parquet file's games (lichess's
    published form: one column per header and a ``movetext`` column), made a row batch at a
    time, so the native stream reads it like any PGN source."""

    def __init__(self, path: str) -> None:
        import pyarrow.parquet as pq

        self._file = pq.ParquetFile(path)
        names = self._file.schema_arrow.names
        if "movetext" not in names:
            raise ValueError(
                f"{path}: a Parquet file of games needs a 'movetext' column (columns: {names})"
            )
        self._names = [n for n in names if n != "movetext"]
        self._batches = self._file.iter_batches(batch_size=4096)
        self._buffer = b""

    def _more(self) -> bool:
        try:
            batch = next(self._batches)
        except StopIteration:
            return False
        columns = {name: batch.column(name).to_pylist() for name in batch.schema.names}
        parts: list[str] = []
        moves = columns.pop("movetext")
        for i, movetext in enumerate(moves):
            for name in self._names:
                value = columns[name][i]
                if value is not None:
                    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
                    parts.append(f'[{name} "{text}"]\n')
            parts.append("\n" + (movetext or "") + "\n\n")
        self._buffer += "".join(parts).encode()
        return True

    def read(self, n: int = -1) -> bytes:
        while (n < 0 or len(self._buffer) < n) and self._more():
            pass
        if n < 0:
            n = len(self._buffer)
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out


def _is_parquet(source: Any) -> bool:
    if not isinstance(source, (str, os.PathLike)) or source == "-":
        return False
    try:
        with open(source, "rb") as f:
            return f.read(4) == b"PAR1"
    except OSError:
        return False


def _arrow_column(pa: Any, spec: tuple[Any, ...]) -> Any:
    """A pyarrow array over the buffers Rust filled (see ``rust/python/src/pgn/table.rs``):
    each buffer is ``(owner, address, size)`` or None, wrapped without a copy."""
    kind = spec[0]

    def buf(b: tuple[Any, int, int] | None) -> Any:
        return None if b is None else pa.foreign_buffer(b[1], b[2], base=b[0])

    if kind == "str":
        _, n, offsets, data, valid = spec
        return pa.Array.from_buffers(pa.string(), n, [buf(valid), buf(offsets), buf(data)])
    if kind in ("i16", "i32", "i64"):
        _, n, values = spec
        return pa.Array.from_buffers(
            {"i16": pa.int16(), "i32": pa.int32(), "i64": pa.int64()}[kind], n, [None, buf(values)]
        )
    if kind in ("f32", "i32n"):
        _, n, values, valid = spec
        return pa.Array.from_buffers(
            pa.float32() if kind == "f32" else pa.int32(), n, [buf(valid), buf(values)]
        )
    if kind == "list_str":
        _, n, list_offsets, offsets, data = spec
        child = pa.Array.from_buffers(
            pa.string(), offsets[2] // 4 - 1, [None, buf(offsets), buf(data)]
        )
        return pa.Array.from_buffers(
            pa.list_(pa.string()), n, [None, buf(list_offsets)], children=[child]
        )
    child_type, size = {
        "list_i16": (pa.int16(), 2),
        "list_i32": (pa.int32(), 4),
        "list_f32": (pa.float32(), 4),
    }[kind]
    _, n, list_offsets, values, valid, lists = spec
    child = pa.Array.from_buffers(child_type, values[2] // size, [buf(valid), buf(values)])
    return pa.Array.from_buffers(
        pa.list_(child_type), n, [buf(lists), buf(list_offsets)], children=[child]
    )


def _native_source(source: Source) -> tuple[Any, int | None]:
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if _is_parquet(source):
        return _ParquetPgn(source), None
    return source, (None if isinstance(source, str) else _size_of(source))


def to_arrow(
    source: Source,
    *,
    kind: str = "games",
    columns: Iterable[str] | None = None,
    moves: str = "uci",
    fens: Iterable[int] = (),
    filter: Filter | None = None,
    threads: int | None = None,
    progress: bool = False,
    chunk_games: int = 65536,
) -> Any:
    """A pyarrow Table of a PGN source (any source :func:`stream_games` reads, or a Parquet file
    with a ``movetext`` column), built in Rust on all cores.

    ``kind="games"``: one row per sound game: a string column per tag (null where a game
    lacks it), ``game`` (index among the sound games read), ``result``, ``ply_count``,
    ``first_line``, ``moves`` (UCI strings, or int16 codes with ``moves="codes"``: ``from +
    64*to + 4096*promotion``, squares a1 = 0, promotion 2..5 knight..queen), ``clocks``
    (seconds after each move, from ``[%clk]``; null where a move has none), ``eval_cp`` /
    ``eval_mate`` (White's view, from ``[%eval]``), and ``fen_<ply>`` for each ply in ``fens``.
    A game none of whose moves has a clock (or an evaluation) has a null list there rather
    than a list of nulls: ``eval_cp`` is not null exactly for the analysed games, and the
    table holds no values for the rest (most games of a lichess database).

    ``kind="headers"``: one row per game in the source, sound or not, with its tags alone
    (``game`` numbers the games read, ``first_line`` is where each starts): the movetext is
    never read, as :func:`read_headers` and :func:`stream_headers` read games, so this is the
    fast way to a table of a database's players, ratings and openings.

    ``kind="positions"``: one row per position before each main-line move: ``game``,
    ``ply``, ``fen``, ``move`` (played from it), ``clock``, ``eval_cp``, ``eval_mate`` (after
    that move).

    ``columns`` keeps only those columns (in that order). Games that cannot be trusted are
    left out, as by :func:`read_games`; pandas works through ``table.to_pandas()``.
    """
    try:
        import pyarrow as pa
    except ImportError as e:  # pragma: no cover - the extra is missing
        raise ImportError("to_arrow needs pyarrow: pip install 'shatranj[arrow]'") from e
    native, total = _native_source(source)
    reader = _core.pgn_table(
        native, kind, moves, list(fens), None if filter is None else list(filter), threads, total
    )
    tables = []
    start = time.perf_counter()
    rows = 0
    while True:
        chunk = reader.next_chunk(chunk_games)
        if chunk is None:
            break
        table = pa.table({name: _arrow_column(pa, spec) for name, spec in chunk.items()})
        rows += table.num_rows
        tables.append(table)
        if progress:
            sys.stderr.write(
                f"\rpgn to_arrow: {rows:,} rows  {rows / max(time.perf_counter() - start, 1e-9):,.0f} rows/s"
            )
    if progress:
        sys.stderr.write("\n")
    skipped, failure, _ = reader.report()
    if failure is not None:
        message, offset, line, compression, truncated = failure
        raise StreamError(message, offset, line, compression, truncated)
    if not tables:
        empty = pa.table({"game": pa.array([], pa.int64())})
        return (
            empty
            if columns is None
            else empty.select([c for c in columns if c in empty.column_names])
        )
    try:
        table = pa.concat_tables(tables, promote_options="default")
    except TypeError:  # pyarrow < 14
        table = pa.concat_tables(tables, promote=True)
    if columns is not None:
        wanted = list(columns)
        for name in wanted:
            if name not in table.column_names:
                table = table.append_column(name, pa.nulls(table.num_rows, pa.string()))
        table = table.select(wanted)
    return table


def to_polars(source: Source, **kwargs: Any) -> Any:
    """:func:`to_arrow` as a polars DataFrame (same arguments)."""
    try:
        import polars as pl
    except ImportError as e:  # pragma: no cover - the extra is missing
        raise ImportError("to_polars needs polars: pip install 'shatranj[polars]'") from e
    return pl.from_arrow(to_arrow(source, **kwargs))

"""Reviews as tables: one row per ply (the moves table) and one per game (the games table),
as pyarrow Tables, polars DataFrames and Parquet files, with fixed schemas so that tables
written in parts concatenate."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ._record import HEADER_COLUMNS, JUDGEMENTS, PLURALS, RATING_COLUMNS, GameReview, score_columns

#: The moves table: ``(column, pyarrow type name)``. Evaluations are White's view, as
#: centipawns or as moves to mate (``*_mate``: positive when White mates; 0 once checkmate is
#: on the board, when ``win_*`` says who won); ``accuracy`` is the mover's; ``depth`` and
#: ``nodes`` are the search's of the position before the move. The command line's tables
#: (``shatranj review --table``) have the same columns, except that their ``game`` counts the
#: games of the file from 1 where this one counts the games read from 0.
MOVE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("game", "int64"), ("ply", "int32"), ("move_number", "int32"), ("color", "string"),
    ("san", "string"), ("uci", "string"),
    ("eval_before_cp", "int32"), ("eval_before_mate", "int32"),
    ("eval_after_cp", "int32"), ("eval_after_mate", "int32"),
    ("best_uci", "string"), ("best_san", "string"), ("pv", "string"),
    ("win_before", "float64"), ("win_after", "float64"), ("accuracy", "float64"),
    ("judgement", "string"), ("nag", "int32"), ("advice", "string"),
    ("depth", "int32"), ("nodes", "int64"),
)  # fmt: skip

#: The games table: the game's index in the source, its tags, the start's evaluation, each
#: side's figures, the engine, the start FEN (``None`` for the standard start) and, for a game
#: that could not be reviewed, the error.
GAME_COLUMNS: tuple[tuple[str, str], ...] = (
    ("game", "int64"), ("event", "string"), ("site", "string"), ("date", "string"),
    ("round", "string"), ("white", "string"), ("black", "string"), ("result", "string"),
    ("white_elo", "int32"), ("black_elo", "int32"), ("eco", "string"), ("time_control", "string"),
    ("plies", "int32"), ("start_eval_cp", "int32"), ("start_eval_mate", "int32"),
    ("white_accuracy", "float64"), ("black_accuracy", "float64"),
    ("white_acpl", "int32"), ("black_acpl", "int32"),
)  # fmt: skip
GAME_COLUMNS += tuple(
    (f"{side}_{PLURALS[j]}", "int32") for side in ("white", "black") for j in JUDGEMENTS
)
GAME_COLUMNS += (("engine", "string"), ("fen", "string"), ("error", "string"))


def move_rows(review: GameReview, game: int = 0) -> dict[str, list[Any]]:
    """The moves table's columns for one review, its rows numbered as game ``game``."""
    columns: dict[str, list[Any]] = {name: [] for name, _ in MOVE_COLUMNS}
    for m in review.moves:
        values = (
            game, m.ply, m.move_number, "white" if m.color else "black", m.san, m.uci,
            *score_columns(m.eval_before), *score_columns(m.eval_after),
            None if m.best_move is None else m.best_move.uci(), m.best_san,
            " ".join(move.uci() for move in m.pv) or None,
            m.win_before, m.win_after, m.accuracy, m.judgement, m.nag, m.advice, m.depth, m.nodes,
        )  # fmt: skip
        for (name, _), value in zip(MOVE_COLUMNS, values):
            columns[name].append(value)
    return columns


def game_row(
    review: GameReview | None,
    game: int,
    error: str | None = None,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The games table's row for one game: its summary, or for a game that failed, its tags and
    the error."""
    row: dict[str, Any] = dict.fromkeys(name for name, _ in GAME_COLUMNS)
    if review is not None:
        row.update(review.summary())
    elif headers:
        row.update({column: headers.get(tag) for tag, column in HEADER_COLUMNS.items()})
        for tag, column in RATING_COLUMNS.items():
            value = headers.get(tag, "")
            row[column] = int(value) if value.isdigit() else None
    row["game"] = game
    row["error"] = error
    return row


def _pyarrow() -> Any:
    try:
        import pyarrow
    except ImportError as e:
        raise ImportError("review tables need pyarrow: pip install 'shatranj[arrow]'") from e
    return pyarrow


def schema(columns: Sequence[tuple[str, str]]) -> Any:
    pa = _pyarrow()
    return pa.schema([(name, getattr(pa, kind)()) for name, kind in columns])


def table(columns: Sequence[tuple[str, str]], data: dict[str, list[Any]]) -> Any:
    """A pyarrow Table of ``data`` (a list per column) with the schema of ``columns``."""
    pa = _pyarrow()
    return pa.Table.from_pydict({name: data[name] for name, _ in columns}, schema=schema(columns))


def moves_table(reviews: Iterable[GameReview], first_game: int = 0) -> Any:
    """The moves of ``reviews`` as one pyarrow Table, games numbered from ``first_game``."""
    data: dict[str, list[Any]] = {name: [] for name, _ in MOVE_COLUMNS}
    for index, review in enumerate(reviews, first_game):
        for name, values in move_rows(review, index).items():
            data[name].extend(values)
    return table(MOVE_COLUMNS, data)


def games_table(rows: Iterable[dict[str, Any]]) -> Any:
    """Rows of :func:`game_row` as one pyarrow Table."""
    data: dict[str, list[Any]] = {name: [] for name, _ in GAME_COLUMNS}
    for row in rows:
        for name, _ in GAME_COLUMNS:
            data[name].append(row[name])
    return table(GAME_COLUMNS, data)


def to_polars(arrow_table: Any) -> Any:
    try:
        import polars as pl
    except ImportError as e:
        raise ImportError("to_polars needs polars: pip install 'shatranj[polars]'") from e
    return pl.from_arrow(arrow_table)

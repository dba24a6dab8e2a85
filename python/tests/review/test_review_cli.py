"""`shatranj review` (the Rust command line) and shatranj.review (Python) compute the same
review: the definitions live in both languages, so this test ties them together on a
lichess-style corpus, once from its [%eval] comments and once with the same search. Their
tables share one schema: the command's Parquet has Python's columns, types and values (only
``game`` differs: the command counts the file's games from 1, Python the games read from 0)."""

from __future__ import annotations

import csv
import subprocess
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from shatranj import review
from shatranj.engine import Limit
from shatranj.review import _tables
from support.corpora import lichess_corpus
from support.engines import shatranj_binary


def _number(text: str) -> float | None:
    return None if text == "" else float(text)


def _cli_review(binary: Path, source: Path, out: Path, *options: str) -> list[dict[str, Any]]:
    """The command's games table, each row with its moves table rows under "moves"; with
    Parquet beside it (``out`` as ``.parquet``) from a second run."""
    for table in (out, out.with_suffix(".parquet")):
        subprocess.run(
            [str(binary), "review", str(source), "--table", str(table), "--quiet", *options],
            check=True,
            capture_output=True,
        )
    with out.with_suffix(".games.csv").open() as f:
        games = list(csv.DictReader(f))
    with out.open() as f:
        moves = list(csv.DictReader(f))
    for game in games:
        game["moves"] = [m for m in moves if m["game"] == game["game"]]
    return games


def _typed(text: str, kind: pa.DataType) -> Any:
    """A CSV field as the Parquet column of type ``kind`` holds it (empty: null)."""
    if text == "":
        return None
    if pa.types.is_integer(kind):
        return int(text)
    return float(text) if pa.types.is_floating(kind) else text


def _same_rows(cli: list[dict[str, Any]], python: list[dict[str, Any]], numbers: list[int]) -> None:
    """The same values, row by row, but ``game``: the command's number for Python's index."""
    assert len(cli) == len(python)
    for theirs, mine in zip(cli, python):
        assert theirs["game"] == numbers[mine["game"]]
        for name, value in mine.items():
            other = theirs[name]
            if name != "game" and isinstance(value, float) and other is not None:
                assert other == pytest.approx(value, abs=1e-9), name
            elif name != "game":
                assert other == value, (name, theirs)


def _check_parquet(tmp: Path, source: Path, done: Any, comments: bool) -> None:
    """The command's Parquet against its CSV, Python's schema and Python's rows."""
    reviews = done.reviews
    python = {
        "t": _tables.moves_table(reviews),
        "t.games": _tables.games_table(_tables.game_row(r, i) for i, r in enumerate(reviews)),
    }
    cli = {name: pq.read_table(tmp / f"{name}.parquet") for name in python}
    for name, expected in zip(python, (review.MOVE_COLUMNS, review.GAME_COLUMNS)):
        schema = _tables.schema(expected)
        # One schema for both languages: names, order and types.
        assert (cli[name].schema.names, cli[name].schema.types) == (schema.names, schema.types), (
            name
        )
        # The Parquet holds the CSV's rows.
        with (tmp / f"{name}.csv").open() as f:
            rows = [
                {k: _typed(v, schema.field(k).type) for k, v in row.items()}
                for row in csv.DictReader(f)
            ]
        assert cli[name].to_pylist() == rows, name
    # The command has a row for a game the PGN reader could not read (with ``error``), which
    # Python's reader skips without an index: Python's game i is the i-th reviewed one here.
    reviewed = [row for row in cli["t.games"].to_pylist() if row["error"] is None]
    numbers = [row["game"] for row in reviewed]
    _same_rows(reviewed, python["t.games"].to_pylist(), numbers)
    _same_rows(cli["t"].to_pylist(), python["t"].to_pylist(), numbers)
    if comments:
        # Python's own Parquet, written by review_pgn, has the same schema as the command's.
        review.review_pgn(
            source,
            from_comments=True,
            progress=False,
            moves_table=tmp / "py.parquet",
            games_table=tmp / "py.games.parquet",
        )
        for mine, theirs in (("py.parquet", "t.parquet"), ("py.games.parquet", "t.games.parquet")):
            a, b = pq.read_schema(tmp / mine), pq.read_schema(tmp / theirs)
            assert (a.names, a.types) == (b.names, b.types)


@pytest.mark.parametrize("mode", ["comments", "engine"])
def test_the_command_line_and_python_review_alike(tmp_path: Path, mode: str) -> None:
    binary = shatranj_binary()
    source = tmp_path / "games.pgn"
    source.write_text(lichess_corpus(30, seed=5), encoding="utf-8")
    if mode == "comments":
        cli = _cli_review(binary, source, tmp_path / "t.csv", "--from-comments")
        done = review.review_pgn(source, from_comments=True, progress=False)
    else:
        # Same search: nodes, one thread, the same table size, a cleared table per game.
        cli = _cli_review(
            binary, source, tmp_path / "t.csv", "--nodes", "1500", "--hash", "64", "--threads", "2"
        )
        done = review.review_pgn(
            source, limit=Limit(nodes=1500), hash_mb=64, workers=2, progress=False
        )
    cli = [row for row in cli if row["error"] == ""]
    assert done.reviews is not None and len(cli) == len(done.reviews) > 20
    _check_parquet(tmp_path, source, done, mode == "comments")
    for row, reviewed in zip(cli, done.reviews):
        label = f"game {row['game']}"
        for color, side in ((True, "white"), (False, "black")):
            accuracy = reviewed.accuracy(color)
            theirs = _number(row[f"{side}_accuracy"])
            assert (accuracy is None) == (theirs is None), label
            if accuracy is not None:
                assert accuracy == pytest.approx(theirs, abs=1e-9), label
            assert row[f"{side}_acpl"] == (
                "" if reviewed.acpl(color) is None else str(reviewed.acpl(color))
            ), label
            counts = reviewed.counts(color)
            assert [
                int(row[f"{side}_{plural}"]) for plural in ("inaccuracies", "mistakes", "blunders")
            ] == list(counts.values()), label
        moves = row["moves"]
        assert [m["san"] for m in moves] == [m.san for m in reviewed.moves], label
        assert [m["judgement"] or None for m in moves] == [m.judgement for m in reviewed.moves], (
            label
        )
        assert [m["advice"] or None for m in moves] == [m.advice for m in reviewed.moves], label
        assert [m["best_uci"] or None for m in moves] == [
            m.best_move and m.best_move.uci() for m in reviewed.moves
        ], label
        for m, move in zip(moves, reviewed.moves):
            for theirs_text, value in (
                (m["win_after"], move.win_after),
                (m["accuracy"], move.accuracy),
            ):
                assert (_number(theirs_text) is None) == (value is None), label
                if value is not None:
                    assert value == pytest.approx(_number(theirs_text), abs=1e-9), label

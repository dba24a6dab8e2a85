"""shatranj.pgn.to_arrow / to_polars: columns equal to what the game objects say.

Needs the optional extras (``shatranj[arrow]``, ``shatranj[polars]``): skipped where they are
absent, unless SHATRANJ_REQUIRE_ARROW=1 (scripts/test sets it) makes a missing one a failure.
"""

from __future__ import annotations

import gzip
import importlib
import importlib.util
import io
from pathlib import Path
from typing import Any

import pytest

import shatranj.pgn as pgn
from support.corpora import lichess_corpus
from support.optional import require


def need(module: str) -> Any:
    return require(module, "SHATRANJ_REQUIRE_ARROW")


@pytest.fixture(scope="module")
def corpus() -> str:
    return lichess_corpus(300, seed=2124)


def test_games_table_matches_the_games(corpus: str) -> None:
    pa = need("pyarrow")
    data = gzip.compress(corpus.encode())
    table = pgn.to_arrow(io.BytesIO(data), fens=[0, 10], chunk_games=64)
    games = list(pgn.stream_games(io.BytesIO(data)))
    assert table.num_rows == len(games) > 200
    check_rows(table, games)
    # Only analysed games have evaluation lists; the others hold no values at all.
    analysed = sum(any(n.eval() is not None for n in g.mainline()) for g in games)
    assert 0 < analysed < len(games)
    assert (
        table.column("eval_cp").null_count
        == table.column("eval_mate").null_count
        == len(games) - analysed
    )
    for row, game in zip(table.to_pylist(), games):
        for name, value in game.headers.items():
            if name in dict(game._source.tags()):  # type: ignore[union-attr]
                assert row[name] == value
        nodes = list(game.mainline())
        assert row["fen_0"] == game.board().fen()
        assert row["fen_10"] == (nodes[9].board().fen() if len(nodes) >= 10 else None)
    codes = pgn.to_arrow(io.BytesIO(data), moves="codes", columns=["moves", "WhiteElo", "Nope"])
    assert codes.column_names == ["moves", "WhiteElo", "Nope"]
    assert codes.schema.field("moves").type == pa.list_(pa.int16())
    for row, game in zip(codes.to_pylist(), games):
        want = [
            m.from_square + 64 * m.to_square + 4096 * (m.promotion or 0)
            for m in game.mainline_moves()
        ]
        assert row["moves"] == want and row["Nope"] is None
    blitz = pgn.to_arrow(
        io.BytesIO(data), filter=[("Event", "contains", "Rated Blitz"), ("WhiteElo", ">=", 2000)]
    )
    assert blitz.num_rows == sum(
        1
        for g in games
        if "Rated Blitz" in g.headers["Event"] and int(g.headers["WhiteElo"]) >= 2000
    )
    if importlib.util.find_spec("pandas") is not None:  # pandas is not one of the extras
        assert table.to_pandas().shape[0] == table.num_rows


# Movetext that the lean main-line reader leaves to the tree reader (variations, comments in
# a row, escape and `;` comments, null moves, FEN starts, no tags), between plain games.
UNUSUAL = [
    '[Event "v"]\n\n1. e4 { [%clk 0:01:00] } (1. d4 { [%clk 0:09:00] } d5) 1... e5 { [%clk 0:00:59] } 2. Nf3 *\n',
    '[Event "joined"]\n\n1. e4 { [%clk 0:01:00] } { [%eval 0.3] } e5 {} { [%clk 0:00:30] } *\n',
    '[Event "escape"]\n\n1. e4 e5\n% skipped\n2. Nf3 ; to the end { of line\nNc6 { [%clk 0:00:10] } *\n',
    '[Event "null"]\n\n1. e4 -- 2. d4 *\n',
    '[Event "ep"]\n\n1. e4 a6 2. e5 d5 3. exd6 { [%clk 0:00:01] } *\n',
    '[Event "fen"]\n[FEN "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"]\n\n1. O-O-O { [%eval #2] } Kf7 *\n',
    "1. d4 { [%clk 0:00:03] } d5 1-0\n",
    '[Event "after the result"]\n\n1. e4 1-0 e5 { [%clk 0:00:02] }\n',
]


def check_rows(table: Any, games: Any) -> None:
    """Every row of a games table says what its game object says."""
    rows = table.to_pylist()
    assert len(rows) == len(games)
    for row, game in zip(rows, games):
        nodes = list(game.mainline())
        assert row["moves"] == [n.move.uci() for n in nodes]
        assert row["ply_count"] == len(nodes)
        assert row["result"] == game.headers["Result"]
        evals = [n.eval() for n in nodes]
        analysed = any(e is not None for e in evals)
        assert row["clocks"] == or_null([n.clock() for n in nodes])
        assert row["eval_cp"] == (
            [None if e is None else e.white().score() for e in evals] if analysed else None
        )
        assert row["eval_mate"] == (
            [None if e is None else e.white().mate() for e in evals] if analysed else None
        )


def or_null(values: list[Any]) -> list[Any] | None:
    """A table's list of a game's annotations: null when no move has one."""
    return None if all(v is None for v in values) else values


def test_unusual_movetext_reads_as_the_games_do(corpus: str) -> None:
    need("pyarrow")
    plain = corpus.split("\n\n[")
    text = plain[0]
    for i, part in enumerate(plain[1:60]):
        text += "\n\n" + UNUSUAL[i % len(UNUSUAL)] + "\n[" + part
    table = pgn.to_arrow(io.BytesIO(text.encode()), chunk_games=16)
    games = list(pgn.stream_games(io.BytesIO(text.encode())))
    assert len(games) > 100
    check_rows(table, games)
    assert table.column("Event").to_pylist().count("v") >= 7


def mixed_corpus(games: int, seed: int) -> str:
    """Games whose annotations come and go move by move (a clock, an eval, both, neither)
    and whose tags come and go game by game, so that every column has nulls in places no
    byte boundary predicts, across many chunks of the stream."""
    import random

    import shatranj

    print(f"mixed corpus seed {seed}, {games} games")
    rng = random.Random(seed)
    out = []
    for i in range(games):
        tags = {"Event": "mixed", "Site": f"g{i}", "Result": "*"}
        if rng.random() < 0.5:
            tags["WhiteElo"] = str(rng.randint(800, 2900))
        if i > games // 2 and rng.random() < 0.3:
            tags["Annotator"] = f"a{i}"  # a column that appears halfway through
        board = shatranj.Board()
        parts = []
        for _ply in range(rng.randint(0, 70)):
            move = rng.choice(list(board.legal_moves) or [None])
            if move is None:
                break
            parts.append(f"{board.fullmove_number}{'.' if board.turn else '...'} {board.san(move)}")
            board.push(move)
            clock = f"[%clk 0:{rng.randint(0, 59):02}:{rng.randint(0, 59):02}]"
            evaluation = rng.choice(
                [f"[%eval {rng.uniform(-9, 9):.2f}]", f"[%eval #{rng.randint(-9, 9)}]"]
            )
            parts.append(
                rng.choice(
                    [
                        "",
                        "{ " + clock + " }",
                        "{ " + evaluation + " }",
                        "{ " + evaluation + " " + clock + " }",
                    ]
                )
            )
        head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
        out.append(head + "\n" + " ".join(p for p in parts if p) + " *\n\n")
    return "".join(out)


@pytest.mark.parametrize("chunk_games", [1, 700, 65536])
def test_nulls_across_many_chunks(chunk_games: int) -> None:
    need("pyarrow")
    text = mixed_corpus(4000, seed=77).encode()
    assert len(text) > 4 * (512 << 10)  # several chunks of the stream
    table = pgn.to_arrow(io.BytesIO(text), chunk_games=chunk_games)
    games = list(pgn.stream_games(io.BytesIO(text)))
    check_rows(table, games)
    for name in ("WhiteElo", "Annotator"):
        assert table.column(name).to_pylist() == [g.headers.get(name) for g in games]
    assert table.column("game").to_pylist() == list(range(len(games)))
    # The game's own columns come in this order (a tag first seen in a later chunk of the
    # table is added after them).
    own = ["game", "result", "ply_count", "first_line", "moves", "clocks", "eval_cp", "eval_mate"]
    assert [c for c in table.column_names if c in own] == own
    assert table.column_names[:3] == ["Event", "Site", "Result"]


def test_headers_table_reads_every_game_without_its_movetext(corpus: str) -> None:
    need("pyarrow")
    data = corpus.encode()
    table = pgn.to_arrow(io.BytesIO(data), kind="headers", chunk_games=40)
    headers = list(pgn.stream_headers(io.BytesIO(data)))
    sound = pgn.to_arrow(io.BytesIO(data))
    # Games with illegal moves and junk text are rows here (as read_headers gives them).
    assert table.num_rows == len(headers) > sound.num_rows
    rows = table.to_pylist()
    names = [n for n in table.column_names if n not in ("game", "first_line")]
    for i, (row, h) in enumerate(zip(rows, headers)):
        assert row["game"] == i
        assert {n: row[n] for n in names if row[n] is not None} == dict(h.items())
    assert "moves" not in table.column_names and "clocks" not in table.column_names
    firsts = (
        pgn.to_arrow(io.BytesIO(data), kind="headers", columns=["first_line"])
        .column("first_line")
        .to_pylist()
    )
    assert firsts[0] == 1 and firsts == sorted(set(firsts))
    picked = pgn.to_arrow(io.BytesIO(data), kind="headers", filter=[("WhiteElo", ">=", 2000)])
    assert picked.num_rows == sum(
        1 for h in headers if h.get("WhiteElo", "?").isdigit() and int(h["WhiteElo"]) >= 2000
    )


def test_positions_table(corpus: str) -> None:
    need("pyarrow")
    table = pgn.to_arrow(io.BytesIO(corpus.encode()), kind="positions", chunk_games=50)
    games = list(pgn.stream_games(io.BytesIO(corpus.encode())))
    want = []
    for i, game in enumerate(games):
        board = game.board()
        for ply, node in enumerate(game.mainline()):
            e = node.eval()
            want.append({
                "game": i, "ply": ply, "fen": board.fen(), "move": node.move.uci(), "clock": node.clock(),
                "eval_cp": None if e is None else e.white().score(), "eval_mate": None if e is None else e.white().mate(),
            })  # fmt: skip
            board.push(node.move)
    assert table.to_pylist() == want


def test_parquet_movetext_reads_as_games(tmp_path: Path, corpus: str) -> None:
    pa = need("pyarrow")
    import pyarrow.parquet as pq

    games = list(pgn.stream_games(io.BytesIO(corpus.encode())))
    movetext = [" ".join(str(g).split("\n\n", 1)[1].split()) for g in games]
    table = pa.table({
        "Event": [g.headers["Event"] for g in games], "WhiteElo": [int(g.headers["WhiteElo"]) for g in games],
        "Site": [g.headers["Site"] for g in games], "movetext": movetext,
    })  # fmt: skip
    path = tmp_path / "lichess.parquet"
    pq.write_table(table, path)
    back = list(pgn.stream_games(path))
    assert [[m.uci() for m in g.mainline_moves()] for g in back] == [
        [m.uci() for m in g.mainline_moves()] for g in games
    ]
    assert [g.headers["WhiteElo"] for g in back] == [g.headers["WhiteElo"] for g in games]
    assert pgn.to_arrow(path, columns=["Site"]).column("Site").to_pylist() == [
        g.headers["Site"] for g in games
    ]


def test_to_polars(corpus: str) -> None:
    pl = need("polars")
    frame = pgn.to_polars(io.BytesIO(corpus.encode()), columns=["WhiteElo", "ply_count", "moves"])
    assert isinstance(frame, pl.DataFrame) and frame.columns == ["WhiteElo", "ply_count", "moves"]
    assert frame.height == sum(1 for _ in pgn.stream_games(io.BytesIO(corpus.encode())))


def test_bad_table_arguments() -> None:
    need("pyarrow")
    with pytest.raises(ValueError, match="table kind"):
        pgn.to_arrow(io.BytesIO(b""), kind="moves")
    with pytest.raises(ValueError, match="move form"):
        pgn.to_arrow(io.BytesIO(b""), moves="san")
    truncated = gzip.compress(b'[Event "x"]\n\n1. e4 *\n' * 5000)[:-40]
    with pytest.raises(pgn.StreamError):
        pgn.to_arrow(io.BytesIO(truncated))

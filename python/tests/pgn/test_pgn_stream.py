"""shatranj.pgn at database scale: compressed streams, the header fast paths and filters.

Each stream is checked against the plain ``read_game`` loop over the same text (itself checked
against python-chess in test_pgn.py), so streaming changes nothing about what a game is.
"""

from __future__ import annotations

import bz2
import gzip
import io
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest

import shatranj
import shatranj.pgn as pgn
from support.corpora import lichess_corpus

SEED = 2112


def loop_reference(text: str) -> tuple[list[tuple[dict[str, str], list[str]]], int]:
    """(headers, UCI moves) of every sound game by read_game, and the count of unsound ones."""
    handle = io.StringIO(text)
    games = []
    bad = 0
    while (game := pgn.read_game(handle)) is not None:
        if _fatal(game):
            bad += 1
            continue
        games.append((dict(game.headers), [m.uci() for m in game.mainline_moves()]))
    return games, bad


def _fatal(game: pgn.Game) -> bool:
    return game._source is not None and game._source.fatal


def summary(games: Any) -> list[tuple[dict[str, str], list[str]]]:
    return [(dict(g.headers), [m.uci() for m in g.mainline_moves()]) for g in games]


@pytest.fixture(scope="module")
def corpus() -> str:
    return lichess_corpus(400, SEED)


COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "plain": lambda b: b,
    "gzip": lambda b: gzip.compress(b[: len(b) // 2]) + gzip.compress(b[len(b) // 2 :]),
    "bzip2": lambda b: bz2.compress(b),
}
if shutil.which("zstd"):
    COMPRESSORS["zstd"] = lambda b: (
        subprocess.run(["zstd", "-q", "-c"], input=b, capture_output=True, check=True).stdout
    )


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_streams_read_every_format_from_every_source(
    tmp_path: Path, corpus: str, kind: str
) -> None:
    """Path, binary file object, text file object (its buffer) and stdin, all four formats
    told by their first bytes (the file name says nothing), each the read_game loop's games."""
    want, bad = loop_reference(corpus)
    data = COMPRESSORS[kind](corpus.encode())
    path = tmp_path / "games.bin"
    path.write_bytes(data)
    for threads in (1, 2, None):
        stream = pgn.stream_games(path, threads=threads)
        assert summary(stream) == want
        assert (stream.read, stream.skipped, stream.compression) == (len(want), bad, kind)
        assert stream.bytes_read == stream.total_bytes == len(data)
        assert all(getattr(e, "line") >= 1 for e in stream.errors)
    assert summary(pgn.stream_games(io.BytesIO(data))) == want
    with open(path, "rb") as f:
        s = pgn.stream_games(f)
        assert summary(s) == want and s.total_bytes == len(data)
    with open(path, encoding="latin-1") as t:
        assert summary(pgn.stream_games(t)) == want
    listed = pgn.read_games(str(path))
    assert (listed.read, listed.skipped) == (len(want), bad)
    assert summary(listed) == want
    child = subprocess.run(
        [sys.executable, "-c", "import shatranj.pgn as p; s = p.stream_games('-'); print(sum(1 for _ in s), s.skipped)"],
        input=data, capture_output=True, timeout=120,
    )  # fmt: skip
    assert child.stdout.split() == [str(len(want)).encode(), str(bad).encode()], child.stderr[
        -2000:
    ]


def test_header_filter_before_movetext(corpus: str) -> None:
    want, _ = loop_reference(corpus)
    conditions = [("Event", "contains", "Rated Blitz"), ("WhiteElo", ">=", 2000)]
    stream = pgn.stream_games(io.BytesIO(corpus.encode()), filter=conditions)
    got = summary(stream)
    expected = [g for g in want if "Rated Blitz" in g[0]["Event"] and int(g[0]["WhiteElo"]) >= 2000]
    assert got == expected and expected
    assert stream.filtered > 0
    # A filtered-out game is never parsed, so its bad move is not even an error.
    assert stream.skipped <= loop_reference(corpus)[1]
    some = pgn.read_games(
        io.BytesIO(corpus.encode()), filter=[("BlackElo", "in", ["?"]), ("Site", "!=", "x")]
    )
    assert [g for g in summary(some)] == [g for g in want if g[0]["BlackElo"] == "?"]
    with pytest.raises(ValueError, match="unknown filter operator"):
        pgn.stream_games(io.BytesIO(b""), filter=[("Event", "~", "x")])
    with pytest.raises(ValueError, match="not a number"):
        pgn.stream_games(io.BytesIO(b""), filter=[("WhiteElo", ">=", "high")])
    with pytest.raises(TypeError, match="triples"):
        pgn.stream_games(io.BytesIO(b""), filter=["Event"])  # type: ignore[list-item]


def test_read_headers_and_skip_game_as_python_chess(corpus: str) -> None:
    """read_headers / skip_game walk the same games as python-chess's, with the same tags."""
    mine, theirs = io.StringIO(corpus), io.StringIO(corpus)
    count = 0
    while True:
        a = pgn.read_headers(mine)
        b = chess.pgn.read_headers(theirs)
        if a is None or b is None:
            assert a is None and b is None
            break
        assert dict(a) == dict(b)
        count += 1
        assert pgn.skip_game(mine) == chess.pgn.skip_game(theirs)
    assert count > 150
    assert pgn.skip_game(io.StringIO("")) is False
    # The headers stream gives what the read_headers loop gives (tags present only).
    handle = io.StringIO(corpus)
    loop = []
    while (h := pgn.read_headers(handle)) is not None:
        loop.append(dict(h))
    assert [dict(h) for h in pgn.stream_headers(io.BytesIO(corpus.encode()))] == loop
    blitz = list(
        pgn.stream_headers(
            io.BytesIO(corpus.encode()), filter=[("Event", "startswith", "Rated Blitz")]
        )
    )
    assert [dict(h) for h in blitz] == [
        h for h in loop if h.get("Event", "").startswith("Rated Blitz")
    ]


@pytest.mark.parametrize("kind", ["gzip", "bzip2"] + (["zstd"] if "zstd" in COMPRESSORS else []))
def test_truncated_and_corrupt_streams_raise_with_offset(corpus: str, kind: str) -> None:
    data = COMPRESSORS[kind](corpus.encode())
    cut = data[: len(data) * 2 // 3]
    stream = pgn.stream_games(io.BytesIO(cut))
    seen = []
    with pytest.raises(pgn.StreamError) as info:
        for game in stream:
            seen.append(game)
    e = info.value
    assert e.compression == kind and e.truncated and 0 < e.offset <= len(cut)
    assert "compressed byte" in str(e) and isinstance(e, ValueError)
    # bzip2 decodes whole 900 kB blocks: this corpus is one block, so nothing comes before the cut.
    assert len(seen) == stream.read and (stream.read > 0 or kind == "bzip2")
    corrupt = bytearray(data)
    mid = len(corrupt) // 2
    corrupt[mid : mid + 64] = bytes(b ^ 0x5A for b in corrupt[mid : mid + 64])
    with pytest.raises(pgn.StreamError) as info:
        for _ in pgn.stream_games(io.BytesIO(bytes(corrupt))):
            pass
    assert 0 < info.value.offset <= len(corrupt)


def test_bad_sources_are_typed_errors(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="PGN source"):
        pgn.stream_games(42)
    with pytest.raises(OSError, match="cannot open"):
        pgn.stream_games(tmp_path / "missing.pgn")
    with pytest.raises(OSError, match="binary mode"):
        pgn.stream_games(io.StringIO("1. e4 *"))
    with pytest.raises(ValueError, match="stream mode"):
        shatranj._core.pgn_open(io.BytesIO(b""), "moves")


def test_binary_garbage_in_every_format(corpus: str) -> None:
    """Random bytes, mangled compressed streams and random prefixes: games or typed errors,
    never a crash or a hang (the child process must finish)."""
    child = subprocess.run(
        [sys.executable, "-c", GARBAGE_CHILD, str(SEED)],
        input=corpus.encode(),
        capture_output=True,
        timeout=300,
    )
    assert child.returncode == 0 and child.stdout.strip() == b"done", child.stderr[-3000:]


GARBAGE_CHILD = """
import bz2, gzip, io, random, sys
import shatranj.pgn as pgn
seed = int(sys.argv[1])
print(f"seed {seed}", file=sys.stderr)
rng = random.Random(seed)
text = sys.stdin.buffer.read()
bases = [text, gzip.compress(text), bz2.compress(text), b"\\x28\\xb5\\x2f\\xfd" + bytes(rng.randrange(256) for _ in range(4000))]
for case in range(120):
    data = bytearray(rng.choice(bases))
    for _ in range(rng.randrange(1, 20)):
        i = rng.randrange(len(data))
        data[i] = rng.randrange(256)
    if rng.random() < 0.3:
        data = data[: rng.randrange(len(data))]
    if rng.random() < 0.2:
        data = bytearray(rng.randrange(256) for _ in range(rng.randrange(1, 20000)))
    try:
        for game in pgn.stream_games(io.BytesIO(bytes(data)), threads=rng.choice([1, 2])):
            str(game)
    except pgn.StreamError as e:
        assert e.offset >= 0
print("done")
"""


def test_stream_ctrl_c(tmp_path: Path) -> None:
    """A long streamed read stops promptly on Ctrl-C (KeyboardInterrupt), in a child process."""
    from support.interrupt import assert_ctrl_c_interrupts

    game = '[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *\n\n'
    path = tmp_path / "many.pgn.gz"
    path.write_bytes(gzip.compress((game * 300_000).encode(), compresslevel=1))
    assert_ctrl_c_interrupts(
        f"import shatranj.pgn; [g for g in shatranj.pgn.stream_games({str(path)!r}, progress=True)]"
    )


def test_progress_bar_knows_the_total(
    tmp_path: Path, corpus: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.pgn.bz2"
    path.write_bytes(bz2.compress(corpus.encode()))
    stream = pgn.stream_games(path, progress=True)
    n = sum(1 for _ in stream)
    err = capsys.readouterr().err
    assert "100.0%" in err and f"{n:,} games" in err

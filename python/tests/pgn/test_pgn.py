"""PGN (R7) against python-chess's ``chess.pgn``.

Seeded random games with comments, NAGs, starting comments and nested variations are built
with python-chess, exported by it (one line and 80 columns), read by ``shatranj.pgn`` and
compared node by node and as text (``str(game)`` and ``StringExporter``), both straight from
the native tree and after the tree has been expanded into Python nodes. Malformed input
checks errors with line numbers and recovery; ``read_games`` checks the read/skipped counts.
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest

import shatranj
import shatranj.pgn as pgn
from support.repo import ROOT

SEED = 20261130
GAMES = 60
WORDS = ["good", "bad", "only move", "threat: Qh5", "½-½ soon?", "{nested}", "a\nb", "zeitnot"]
STARTS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 3 41",
]


def random_game(rng: random.Random, index: int) -> chess.pgn.Game:
    """A python-chess game with random moves, comments, NAGs and variations (up to depth 3)."""
    game = chess.pgn.Game()
    game.headers["Event"] = f"Random {index}"
    game.headers["White"] = rng.choice(["Anna", "Ben", "Schön, Ülle"])
    game.headers["Annotator"] = "seed " + str(SEED)
    start = rng.choice(STARTS)
    if start != chess.STARTING_FEN:
        game.setup(chess.Board(start))
    if rng.random() < 0.3:
        game.comment = rng.choice(WORDS)

    def grow(node: chess.pgn.GameNode, plies: int, depth: int) -> None:
        board = node.board()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                return
            if depth < 3 and node.parent is not None and rng.random() < 0.15:
                # A sideline replacing the last move, with a starting comment sometimes.
                alt = [m for m in node.parent.board().legal_moves if m != node.move]
                if alt:
                    side = node.parent.add_variation(rng.choice(alt))
                    if rng.random() < 0.4:
                        side.starting_comment = rng.choice(WORDS)
                    decorate(side)
                    grow(side, rng.randint(0, 4), depth + 1)
            node = node.add_variation(rng.choice(moves))
            decorate(node)
            board.push(node.move)

    def decorate(node: chess.pgn.ChildNode) -> None:
        if rng.random() < 0.2:
            node.comment = rng.choice(WORDS)
        if rng.random() < 0.2:
            node.nags.update(rng.sample([1, 2, 3, 4, 5, 6, 14, 18, 146], rng.randint(1, 2)))

    grow(game, rng.randint(0, 70), 0)
    board = game.end().board()
    game.headers["Result"] = (
        board.result() if board.is_game_over() else rng.choice(["*", "1-0", "1/2-1/2"])
    )
    return game


def tree_of(node: Any) -> tuple[Any, ...]:
    """A node and everything below it, as comparable values."""
    return (
        node.move.uci() if node.move is not None else None,
        node.comment,
        node.starting_comment if node.parent is not None else "",
        sorted(node.nags) if node.parent is not None else [],
        [tree_of(child) for child in node.variations],
    )


@pytest.fixture(scope="module")
def corpus() -> list[chess.pgn.Game]:
    print(f"seed {SEED}, {GAMES} games")
    rng = random.Random(SEED)
    return [random_game(rng, i) for i in range(GAMES)]


def test_r7_round_trip_against_python_chess(corpus: list[chess.pgn.Game]) -> None:
    """R7.1–R7.4: the same tree and the same text as python-chess, from its own export."""
    for index, reference in enumerate(corpus):
        for columns in (None, 80):
            text = reference.accept(chess.pgn.StringExporter(columns=columns))
            mine = pgn.read_game(io.StringIO(text))
            theirs = chess.pgn.read_game(io.StringIO(text))
            assert mine is not None and theirs is not None
            assert mine.errors == [], (index, mine.errors)
            assert list(mine.headers.items()) == list(theirs.headers.items())
            # Written from the untouched native tree ...
            assert str(mine) == str(theirs), (index, text)
            assert mine.accept(pgn.StringExporter()) == theirs.accept(chess.pgn.StringExporter())
            assert [m.uci() for m in mine.mainline_moves()] == [
                m.uci() for m in theirs.mainline_moves()
            ]
            # ... and after expanding it into Python nodes.
            assert tree_of(mine) == tree_of(theirs), index
            assert str(mine) == str(theirs)
            exporter = pgn.StringExporter(columns=60, comments=False, variations=False)
            assert mine.accept(exporter) == theirs.accept(
                chess.pgn.StringExporter(columns=60, comments=False, variations=False)
            )
            assert mine.end().board().fen() == theirs.end().board().fen()


def test_r7_games_built_in_python_export_as_python_chess() -> None:
    """The node API (add_variation, add_main_variation, add_line, promote, from_board)."""
    rng = random.Random(SEED + 1)
    print(f"seed {SEED + 1}")
    for _ in range(20):
        board = chess.Board()
        for _ in range(rng.randint(1, 40)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        theirs = chess.pgn.Game.from_board(board)
        mine = pgn.Game.from_board(shatranj.Board.from_chess(board))
        assert str(mine) == str(theirs)
        pairs: list[tuple[Any, Any]] = [(mine, shatranj), (theirs, chess)]
        for game, lib in pairs:
            first = game.next()
            assert first is not None
            alt = game.add_main_variation(lib.Move.from_uci("d2d4"), comment="main now", nags=[3])
            alt.add_line([lib.Move.from_uci(u) for u in ("d7d5", "c2c4")], comment="QGD", nags=[14])
            game.promote(first)
            game.headers["Event"] = "built"
        assert str(mine) == str(theirs)
        assert mine.accept(pgn.StringExporter()) == theirs.accept(chess.pgn.StringExporter())


def test_r7_nodes_navigation() -> None:
    text = '[Event "x"]\n\n{ before } 1. e4 e5 ( 1... c5 2. Nf3 $1 ) 2. Nf3 { develops } Nc6 *\n'
    game = pgn.read_game(io.StringIO(text))
    assert game is not None
    assert game.comment == "before"
    e4 = game.next()
    assert e4 is not None and e4.san() == "e4" and e4.is_mainline() and e4.parent is game
    e5, c5 = e4.variations
    assert (e5.san(), c5.san()) == ("e5", "c5")
    assert c5.starts_variation() and not c5.is_mainline() and not c5.is_main_variation()
    nf3 = c5.next()
    assert nf3 is not None and nf3.nags == {pgn.NAG_GOOD_MOVE} and nf3.ply() == 3
    assert nf3.board().fen() == "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    end = game.end()
    assert (
        isinstance(end, pgn.ChildNode) and end.san() == "Nc6" and end.parent.comment == "develops"
    )
    assert [n.san() for n in game.mainline()] == ["e4", "e5", "Nf3", "Nc6"]
    assert [m.uci() for m in reversed(game.mainline_moves())] == ["b8c6", "g1f3", "e7e5", "e2e4"]
    assert str(game.mainline_moves()) == "1. e4 e5 2. Nf3 Nc6"
    assert c5 in e4 and e4[1] is c5 and e4[shatranj.Move.from_uci("c7c5")] is c5
    e4.promote_to_main(c5)
    assert e4.variations[0] is c5
    assert "1. e4 c5 ( 1... e5 2. Nf3 { develops } 2... Nc6 ) 2. Nf3 $1 *" in str(game)


def test_r7_games_pickle_and_copy(corpus: list[chess.pgn.Game]) -> None:
    """A game read lazily pickles and deep-copies whole (the native tree is expanded)."""
    import copy
    import pickle

    for reference in corpus[:10]:
        text = str(reference)
        game = pgn.read_game(io.StringIO(text))
        again = pgn.read_game(io.StringIO(text))
        assert game is not None and again is not None
        for clone in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
            assert str(clone) == text
            assert tree_of(clone) == tree_of(again)
            assert list(clone.headers.items()) == list(again.headers.items())


def test_r7_headers() -> None:
    """Roster first with defaults, others in order; FEN games start from the FEN."""
    game = pgn.Game()
    assert list(game.headers.items()) == list(chess.pgn.Game().headers.items())
    game.headers["Zeta"] = "z"
    game.headers["Alpha"] = "a"
    game.headers["White"] = "W"
    assert list(game.headers)[:7] == pgn.TAG_ROSTER and list(game.headers)[7:] == ["Zeta", "Alpha"]
    with pytest.raises(ValueError):
        game.headers["bad tag"] = "x"
    with pytest.raises(ValueError):
        game.headers["Note"] = "two\nlines"
    del game.headers["Date"]
    assert "Date" not in game.headers and "[Date" not in str(game)
    game.setup(shatranj.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"))
    assert game.headers["SetUp"] == "1" and game.board().fen() == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    game.add_variation(shatranj.Move.from_uci("e2e4"))
    assert str(game).endswith("\n\n1. e4 *")
    text = '[Event "e"]\n[Result "*"]\n\n1. e4 0-1\n'
    read = pgn.read_game(io.StringIO(text))
    assert read is not None and read.headers["Result"] == "0-1" and read.headers["Site"] == "?"
    assert repr(pgn.Game.without_tag_roster().headers) == "Headers()"


def test_r7_read_game_many_and_malformed() -> None:
    """Errors carry line numbers (counted over the whole handle); reading recovers."""
    text = (
        '[Event "1"]\n\n1. e4 { never closed e5\n\n'  # game 1: lines 1-4
        '[Event "2"]\n1. d4 d5 2. Ke3 Nf6 *\n\n'  # game 2: illegal move on line 6
        '[Event "3"]\n1. c4 (1. d4 d5\n\n'  # game 3: unterminated variation
        "junk between games\n\n"  # no game
        '[Event "5"]\n1. Nf3 *\n[Event "6"]\n1. g3 *'  # missing blank line, no final newline
    )
    handle = io.StringIO(text)
    games = []
    while (game := pgn.read_game(handle)) is not None:
        games.append(game)
    assert [g.headers["Event"] for g in games] == ["1", "2", "3", "?", "5", "6"]
    lines = [[getattr(e, "line") for e in g.errors] for g in games]
    # The junk line: three words that are not moves, then "no game here".
    assert lines == [[3], [6], [9], [11] * 4, [], []]
    assert isinstance(games[1].errors[0], shatranj.IllegalMoveError)
    assert isinstance(games[0].errors[0], pgn.PgnError) and "never closed" in str(
        games[0].errors[0]
    )
    assert [len(list(g.mainline_moves())) for g in games] == [1, 2, 1, 0, 1, 1]
    with pytest.raises(TypeError):
        pgn.read_game(io.BytesIO(b"1. e4 *"))


def test_r7_read_games_counts(tmp_path: Path, corpus: list[chess.pgn.Game]) -> None:
    """read_games: every game in file order, bad ones counted and explained, none lost."""
    parts = [str(g) for g in corpus]
    parts.insert(5, "1. e4 e5 2. Qxf7 *")  # illegal in the main line: skipped
    parts.insert(10, '[Event "bad"]\n[FEN "8/8/8 w - - 0 1"]\n\n1. e4 *')  # bad FEN: skipped
    parts.insert(20, "1. e4 (1. Qh5 2. Qxf7) e5 *")  # illegal in a variation: kept, with an error
    path = tmp_path / "games.pgn"
    path.write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    games = pgn.read_games(path)
    assert (games.read, games.skipped, len(games)) == (len(corpus) + 1, 2, len(corpus) + 1)
    assert [type(e) for e in games.errors] == [shatranj.IllegalMoveError, pgn.PgnError]
    line_of_bad = sum(p.count("\n") + 2 for p in parts[:5]) + 1
    assert getattr(games.errors[0], "line") == line_of_bad
    assert [str(g) for g in games[:5]] == [str(g) for g in corpus[:5]]
    assert str(games[-1]) == str(corpus[-1])
    kept = [g for g in games if g.errors]
    assert len(kept) == 1 and [m.uci() for m in kept[0].mainline_moves()] == ["e2e4", "e7e5"]
    with pytest.raises(OSError):
        pgn.read_games(tmp_path / "missing.pgn")


def test_r7_4_suffix_nags() -> None:
    """R7.4: ``! ? !! ?? !? ?!`` are NAGs 1 to 6."""
    game = pgn.read_game(io.StringIO("1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! *"))
    assert game is not None
    assert [sorted(n.nags) for n in game.mainline()] == [[1], [2], [3], [4], [5], [6]]


SHORT_GAME = '[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *\n\n'


def test_read_games_ctrl_c(tmp_path: Path) -> None:
    """A long bulk read stops promptly on Ctrl-C (KeyboardInterrupt), in a child process."""
    from support.interrupt import assert_ctrl_c_interrupts

    path = tmp_path / "many.pgn"
    # Long enough to be well inside the read when SIGINT comes 0.5 s in: 400,000 games took
    # 0.43-0.57 s with the optimised wheel on a quiet machine, so the read could end first.
    path.write_text(SHORT_GAME * 2_000_000, encoding="utf-8")
    assert_ctrl_c_interrupts(f"import shatranj.pgn; shatranj.pgn.read_games({str(path)!r})")


def test_read_games_releases_the_gil(tmp_path: Path) -> None:
    """Another Python thread keeps running while read_games parses.

    Holding the GIL, the parse would let the loop below tick only while the worker starts
    (two or three ticks). The file is large enough (300,000 games) that a release build's
    parse lasts well over the ten ticks asked for: 30,000 games took about 8 ms on CI's two
    cores, too close to the threshold.
    """
    import threading
    import time

    path = tmp_path / "some.pgn"
    path.write_text(SHORT_GAME * 300_000, encoding="utf-8")
    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(pgn.read_games(path).read))
    ticks = 0
    worker.start()
    while worker.is_alive():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert result == [300_000]
    assert ticks >= 10, ticks


GARBAGE_CHILD = """
import io, random, sys
import shatranj.pgn as pgn
seed, cases, base = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
alphabet = '{}()[];%$!?"\\n 0123456789.-=+#xOKQRBNabcdefgh*/\\\\é\\u0000'
for _ in range(cases):
    chars = list(base)
    for _ in range(rng.randrange(1, 12)):
        i = rng.randrange(len(chars))
        op = rng.randrange(3)
        if op == 0:
            chars[i] = rng.choice(alphabet)
        elif op == 1:
            del chars[i]
        else:
            chars.insert(i, rng.choice(alphabet))
    handle = io.StringIO("".join(chars))
    while (game := pgn.read_game(handle)) is not None:
        for error in game.errors:
            assert isinstance(error, ValueError) and error.line >= 1
        try:
            text = str(game)
        except ValueError:
            continue  # a FEN tag the board refuses
        for node in game.mainline():
            node.board()
        assert str(game) == text
print("done")
"""


def test_r7_garbage_pgn_never_crashes() -> None:
    """Mangled PGN through read_game, the nodes and str(game), in a child: errors only."""
    import subprocess
    import sys

    seed, cases = 777, 1500
    print(f"seed {seed}, {cases} cases")
    base = (ROOT / "rust/pgn/tests/pgn/annotated.pgn").read_text() * 2
    child = subprocess.run(
        [sys.executable, "-c", GARBAGE_CHILD, str(seed), str(cases), base],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == 0 and child.stdout.strip() == "done", child.stderr[-2000:]

"""Comment commands (%clk, %emt, %eval, %csl/%cal) read as python-chess reads them.

Random comments mix well-formed and malformed commands; both libraries read the same PGN and
must agree on every node's clock(), emt(), eval(), eval_depth() and arrows().
"""

from __future__ import annotations

import io
import random

import chess
import chess.pgn

import shatranj.pgn as pgn

SEED = 2121


def random_command(rng: random.Random) -> str:
    digits = lambda n: "".join(rng.choice("0123456789") for _ in range(n))  # noqa: E731
    kind = rng.randrange(6)
    if kind == 0:
        sec = rng.choice([digits(2), digits(2) + "." + digits(rng.randrange(0, 4)), digits(1), "x"])
        return f"[%clk {rng.randrange(0, 12)}:{digits(rng.choice([1, 2]))}:{sec}]"
    if kind == 1:
        return (
            f"[%emt {rng.randrange(0, 3)}:{digits(2)}:{digits(2)}{rng.choice(['', '.5', '.25'])}]"
        )
    if kind == 2:
        sign = rng.choice(["", "+", "-"])
        body = rng.choice([
            f"{digits(rng.randrange(0, 4))}.{digits(rng.randrange(0, 4))}", digits(rng.randrange(1, 12)),
            f"#{sign}{digits(rng.randrange(0, 3))}", f"{digits(2)}.",
        ])  # fmt: skip
        depth = rng.choice(["", f",{digits(rng.randrange(1, 3))}", ",", ",x"])
        space = rng.choice([" ", " ", "  ", ""])
        return f"[%eval{space}{sign if not body.startswith('#') else ''}{body}{depth}]"
    if kind in (3, 4):
        name = rng.choice(["csl", "cal", "cxl"])
        entries = []
        for _ in range(rng.randrange(1, 4)):
            color = rng.choice("RGYBX")
            sq = lambda: rng.choice("abcdefghi") + rng.choice("123456789")  # noqa: E731
            entries.append(color + sq() + (sq() if rng.random() < 0.6 else ""))
        return f"[%{name} {','.join(entries)}]"
    return rng.choice(["plain words", "[%clk]", "[%eval]", "[%", "%clk 0:01:00"])


def corpus(rng: random.Random, games: int) -> str:
    out = []
    for g in range(games):
        board = chess.Board()
        parts = []
        for _ply in range(rng.randrange(1, 40)):
            move = rng.choice(list(board.legal_moves))
            if board.turn:
                parts.append(f"{board.fullmove_number}.")
            parts.append(board.san(move))
            board.push(move)
            if rng.random() < 0.8:
                parts.append(
                    "{ " + " ".join(random_command(rng) for _ in range(rng.randrange(1, 4))) + " }"
                )
        out.append(f'[Event "a{g}"]\n\n' + " ".join(parts) + " *\n")
    return "\n".join(out)


def test_annotations_match_python_chess() -> None:
    print(f"seed {SEED}")
    rng = random.Random(SEED)
    text = corpus(rng, 150)
    mine, theirs = io.StringIO(text), io.StringIO(text)
    checked = evals = clocks = arrows = 0
    while (a := pgn.read_game(mine)) is not None:
        b = chess.pgn.read_game(theirs)
        assert b is not None
        for x, y in zip(a.mainline(), b.mainline()):
            assert x.comment == y.comment
            assert x.clock() == y.clock(), x.comment
            assert x.emt() == y.emt(), x.comment
            ex, ey = x.eval(), y.eval()
            assert (ex is None) == (ey is None), x.comment
            if ex is not None and ey is not None:
                assert ex.turn == ey.turn and ex.relative.score() == ey.relative.score(), x.comment
                assert ex.relative.mate() == ey.relative.mate(), x.comment
                assert ex.white().score() == ey.white().score(), x.comment
                evals += 1
            assert x.eval_depth() == y.eval_depth(), x.comment
            got = [(r.tail, r.head, r.color) for r in x.arrows()]
            want = [(r.tail, r.head, r.color) for r in y.arrows()]
            assert got == want, x.comment
            clocks += x.clock() is not None
            arrows += len(got)
            checked += 1
    assert chess.pgn.read_game(theirs) is None
    print(f"{checked} nodes, {clocks} clocks, {evals} evals, {arrows} arrows")
    assert checked > 1000 and clocks > 50 and evals > 50 and arrows > 50


def test_lichess_comment() -> None:
    game = pgn.read_game(
        io.StringIO(
            "1. e4 { [%eval 0.17] [%clk 0:03:00] } e5 { [%eval #-2,18] [%clk 0:02:58.5] [%cal Ge2e4,Rd7d5] [%csl Bd4] } *"
        )
    )
    assert game is not None
    nodes: list[pgn.ChildNode] = list(game.mainline())
    assert nodes[0].clock() == 180.0 and nodes[1].clock() == 178.5
    first = nodes[0].eval()
    assert first is not None and first.white().score() == 17 and first.turn == chess.BLACK
    second = nodes[1].eval()
    assert (
        second is not None
        and second.white().mate() == -2
        and second.relative.mate() == -2
        and second.turn == chess.WHITE
    )
    assert nodes[1].eval_depth() == 18 and nodes[0].eval_depth() is None
    assert [(a.tail, a.head, a.color) for a in nodes[1].arrows()] == [
        (chess.E2, chess.E4, "green"), (chess.D7, chess.D5, "red"), (chess.D4, chess.D4, "blue")
    ]  # fmt: skip
    assert nodes[0].emt() is None and nodes[0].arrows() == []

"""``Board(fen)``: the usual calls (one ``str``, or none) are answered through the class's
vectorcall slot (rust/python/src/rules/hot_new.rs) and every other by PyO3's constructor. Both
must read every FEN as python-chess does (accepted or refused, the same FEN and status after),
and raise the same errors as each other."""

from __future__ import annotations

import random
from typing import Any

import chess
import pytest

import shatranj

SEED = 52


def classic(fen: str | None) -> shatranj.Board:
    """The board made by PyO3's constructor: a keyword argument is never the fast path's."""
    return shatranj.Board(fen=fen)


def mutated_fens(rng: random.Random, count: int) -> list[str]:
    """FENs from seeded random games, each with one field replaced by something plausible or
    wrong: castling subsets in any order (duplicates, file letters, junk), en-passant squares,
    clocks, side to move, placements with a square changed, fields dropped or added."""
    bases = []
    for _ in range(12):
        board = chess.Board()
        for _ in range(rng.randrange(0, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            bases.append(board.fen())
    bases += [
        chess.STARTING_FEN,
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ]
    castling = [
        "-",
        "K",
        "Q",
        "k",
        "q",
        "KQ",
        "kq",
        "KQkq",
        "KK",
        "KQkqK",
        "A",
        "Hh",
        "x",
        "Kx",
        "",
    ]
    # (An en-passant square off ranks 3 and 6, which python-chess drops and shatranj refuses,
    # is left out.)
    eps = ["-", "e3", "e6", "d6", "a3", "h6", "e9", "z3", "-3", "e"]
    # (Clocks beyond 32 bits, which python-chess reads and shatranj refuses, are left out.)
    clocks = ["0", "1", "99", "100", "-1", "x", "007", "+1", ""]
    out = []
    for _ in range(count):
        fields = rng.choice(bases).split(" ")
        kind = rng.randrange(7)
        if kind == 0:
            fields[2] = rng.choice(castling)
        elif kind == 1:
            fields[3] = rng.choice(eps)
        elif kind == 2:
            fields[rng.choice((4, 5))] = rng.choice(clocks)
        elif kind == 3:
            fields[1] = rng.choice(["w", "b", "W", "x", ""])
        elif kind == 4:
            text = list(fields[0])
            at = rng.randrange(len(text))
            text[at] = rng.choice("pnbrqkPNBRQK12345678/x")
            fields[0] = "".join(text)
        elif kind == 5:
            fields = fields[: rng.randrange(1, 7)]
        else:
            fields.append(rng.choice(["0", "extra"]))
        out.append(" ".join(f for f in fields if f))
    return out


def outcome(fen: str, make) -> str:  # type: ignore[no-untyped-def]
    """What reading ``fen`` gives: the FEN and status written back, or the error."""
    try:
        board = make(fen)
    except ValueError as e:
        return f"ValueError: {e}"
    return f"{board.fen()} {int(board.status())} {board.castling_rights} {board.ep_square}"


def test_fens_are_read_as_python_chess_reads_them() -> None:
    """The fast path and PyO3's constructor read every mutated FEN alike (the same board or
    the same error); against python-chess, every FEN it refuses is refused and every legal
    position it reads is the same. (Outside this test's reach, as before the fast path:
    castling letters out of python-chess's order, which it refuses and shatranj reads, and
    the en-passant field of a position that is not valid.)"""
    print(f"seed {SEED}")
    rng = random.Random(SEED)
    accepted = refused = 0
    for fen in mutated_fens(rng, 3000):
        fast = outcome(fen, shatranj.Board)
        assert fast == outcome(fen, classic), fen
        try:
            want = chess.Board(fen)
        except ValueError:
            assert fast.startswith("ValueError"), fen
            refused += 1
            continue
        if want.is_valid():
            assert fast == outcome(fen, chess.Board), fen
            accepted += 1
    # Both outcomes were tried in numbers.
    assert accepted > 500 and refused > 500, (accepted, refused)


def test_every_way_of_calling_the_class_makes_the_same_board() -> None:
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    boards = [
        shatranj.Board(fen),
        shatranj.Board(fen=fen),
        shatranj.Board(fen, chess960=False),
        shatranj.Board.__new__(shatranj.Board, fen),
        shatranj.Board(*[fen]),
        shatranj.Board(**{"fen": fen}),  # type: ignore[arg-type]  # mypy reads it as chess960 too
    ]
    assert all(b.fen() == fen and not b.chess960 for b in boards)
    assert shatranj.Board().fen() == chess.STARTING_FEN == shatranj.Board(chess.STARTING_FEN).fen()
    assert shatranj.Board(None).fen() == chess.Board(None).fen()
    chess960 = shatranj.Board(fen, chess960=True)
    assert chess960.chess960 and chess960.fen() == fen
    # A str subclass is a str.
    assert shatranj.Board(type("Text", (str,), {})(fen)).fen() == fen
    # Each board is a new object with its own state.
    a, b = shatranj.Board(fen), shatranj.Board(fen)
    a.push_uci("e1g1")
    assert a is not b and b.fen() == fen


def test_wrong_calls_raise_what_the_constructor_raises() -> None:
    cases: tuple[tuple[tuple[Any, ...], dict[str, Any]], ...] = (
        ((3,), {}),
        ((b"8/8/8/8/8/8/8/8 w - - 0 1",), {}),
        (("\ud800",), {}),  # not UTF-8: the fast path leaves it to PyO3
        ((chess.STARTING_FEN, False), {}),  # chess960 is keyword-only
        ((), {"fne": chess.STARTING_FEN}),
        ((chess.STARTING_FEN,), {"fen": chess.STARTING_FEN}),
    )
    for args, kwargs in cases:
        with pytest.raises(Exception) as fast:
            shatranj.Board(*args, **kwargs)
        with pytest.raises(Exception) as slow:
            shatranj.Board.__new__(shatranj.Board, *args, **kwargs)
        assert type(fast.value) is type(slow.value)
        assert str(fast.value) == str(slow.value)
    with pytest.raises(ValueError, match="castling"):
        shatranj.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1")

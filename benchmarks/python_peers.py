#!/usr/bin/env python3
"""The Python chess libraries side by side (issue 52): shatranj, python-chess and the peers on
PyPI, in one process, on the same positions, each through its own idiomatic API.

Peers, each optional (one that does not import is listed with the reason and left out):
fastchess (C, MIT), esca (Rust, MIT; Python >= 3.12), tensor-chess (C, MIT), cozy-chess-py
(imports as ``cozy_chess``; Rust, MIT), chessmg (C++, MIT), rust-chess (Rust, MIT) and
bulletchess (C, GPL-3.0; Python >= 3.13). GPL peers are references here only, installed in
the benchmark's own environment (benchmarks/README.md sets up benchmarks/.venv-peers on the
newest Python), never a dependency of the package.

    benchmarks/.venv-peers/bin/python benchmarks/python_peers.py [--rounds 7] [--min-time 0.2] [--record]
    benchmarks/.venv-peers/bin/python benchmarks/python_peers.py --check   # checks and calls, no timing

Positions: common.py's FENS (python_api.py's too) plus positions sampled from seeded random
games (--seed, --games, --positions; the seed is printed and recorded); each game's last
position is always among them, so mates, stalemates and automatic draws occur. A position
from a game keeps its game: "is_game_over, repetition included" runs on boards that played it
from the start.

Workloads, for every library that has the operation (``--check`` prints the call each cell
times): the legal move list, push + pop of every legal move, SAN write, SAN parse, push_san +
pop, FEN read and write, one board to planes (a new numpy array, and in a row of their own
as bytes: shatranj's to_planes_bytes(), tensor-chess's to_tensor()) and batched where a
library has a batch call, is_checkmate, game over with
repetition (boards carrying their games) and without (boards read from FEN, so no earlier
position can repeat: the question esca's ``Position.outcome`` and tensor-chess answer, timed
for shatranj the same way), and the built-in perft (startpos at --perft-depth + 1, Kiwipete at
--perft-depth). A peer with no pop does copy-make instead (marked ‡); a peer whose game-over
test asks less (chessmg: mate or stalemate; cozy-chess: also 100 halfmoves) is marked †.

Correctness is checked before timing, against python-chess: legal-move lists, SAN strings,
parsed SAN, FEN round trips, checkmate and game-over answers (each against the question the
library answers), piece planes and perft counts. A cell that disagrees is marked ✗ and the
disagreement listed under the tables; it is still timed, on the calls that return, so that
its cost is on record too. (A peer that crashes the interpreter, as a Rust panic across the
FFI does, cannot be caught: its adapter avoids the call and says why.)

Timing: for each workload, --rounds rounds; in each round every library in turn runs its call
over all positions until --min-time has passed (common.interleaved), so that load drift hits
every library alike. Rates are best / median over the rounds; shatranj's ratio to each peer is
the median of the per-round ratios (common.paired_ratio) with their range, and best against
best. The rows where shatranj is behind are listed at the end.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import chess
import numpy as np

from common import (
    FENS,
    KIWIPETE,
    ROOT,
    append_results,
    cpu_model,
    git_commit,
    interleaved,
    load_average,
    paired_ratio,
    rate,
    uncommitted_changes,
    utc_stamp,
)

START = chess.STARTING_FEN
# Known perft counts (python-chess's and every engine's), by position and depth.
PERFT = {
    START: [1, 20, 400, 8_902, 197_281, 4_865_609, 119_060_324],
    KIWIPETE: [1, 48, 2_039, 97_862, 4_085_603, 193_690_690],
}
MAX_PLIES = 400  # a random game stops here if no rule ended it first


@dataclass(frozen=True)
class Library:
    name: str  # the column's title
    module: str  # what it imports as
    dist: str  # its PyPI distribution
    origin: str  # language and licence
    min_python: tuple[int, int] = (3, 8)


LIBRARIES = (
    Library("shatranj", "shatranj", "shatranj", "Rust, this project"),
    Library("python-chess", "chess", "chess", "Python, GPL-3.0"),
    Library("fastchess", "fastchess", "fastchess", "C, MIT"),
    Library("esca", "esca", "esca", "Rust, MIT", (3, 12)),
    Library("tensor-chess", "tensor_chess", "tensor-chess", "C, MIT"),
    Library("cozy-chess-py", "cozy_chess", "cozy-chess-py", "Rust, MIT"),
    Library("chessmg", "chessmg", "chessmg", "C++, MIT"),
    Library("rust-chess", "rust_chess", "rust-chess", "Rust, MIT"),
    Library("bulletchess", "bulletchess", "bulletchess", "C, GPL-3.0", (3, 13)),
)

# key, row title, unit of work
WORKLOADS = (
    ("legal", "legal move list", "lists"),
    ("push_pop", "push + pop", "moves"),
    ("san", "SAN write", "moves"),
    ("parse_san", "SAN parse (parse_san)", "moves"),
    ("push_san", "push_san + pop", "moves"),
    ("fen_read", "FEN read (Board(fen))", "boards"),
    ("fen_write", "FEN write (board.fen())", "boards"),
    ("planes", "planes, one board → numpy", "boards"),
    ("planes_bytes", "planes, one board → bytes", "boards"),
    ("planes_batch", "planes, batched → numpy", "boards"),
    ("checkmate", "is_checkmate", "boards"),
    ("over", "is_game_over, repetition included", "boards"),
    ("over_norep", "game over, no repetition possible", "boards"),
    ("perft", "perft, built-in", "nodes"),
)

MARKS = {
    "‡": "copy-make: the library has no pop, so the cell copies the board and plays the move",
    "†": "a narrower game-over question: chessmg asks mate or stalemate; cozy-chess also ends "
    "the game at 100 halfmoves and knows no insufficient material",
    "§": "the planes as bytes (tensor-chess's default), not a numpy array",
    "¶": "fills the caller's numpy array (tensor-chess's to_tensor(buf)) instead of making one",
    "✗": "disagrees with python-chess: see the list under the tables",
}
# Castling as a king-takes-rook move (cozy-chess's spelling) in standard chess.
KING_TO_ROOK = {"e1h1": "e1g1", "e1a1": "e1c1", "e8h8": "e8g8", "e8a8": "e8c8"}


# --- Positions and python-chess's answers -----------------------------------------------------


@dataclass
class Position:
    """One position and python-chess's answers about it, the reference every library meets."""

    fen: str
    history: list[str] | None  # UCI moves from the start position; None: a FENS position
    legal: list[str]  # the legal moves, UCI
    san: dict[str, str]  # UCI -> SAN
    checkmate: bool
    over: bool  # is_game_over() on the board that played the game
    over_norep: bool  # is_game_over() on the board read from the FEN (no move stack)
    no_moves: bool
    halfmove: int


def reference(fen: str, history: list[str] | None) -> Position:
    board = chess.Board(fen)
    played = board
    if history is not None:
        played = chess.Board()
        for uci in history:
            played.push_uci(uci)
        assert played.fen() == fen
    legal = list(board.legal_moves)
    return Position(
        fen=fen,
        history=history,
        legal=[m.uci() for m in legal],
        san={m.uci(): board.san(m) for m in legal},
        checkmate=board.is_checkmate(),
        over=played.is_game_over(),
        over_norep=board.is_game_over(),
        no_moves=not legal,
        halfmove=board.halfmove_clock,
    )


def random_games(seed: int, games: int) -> list[list[str]]:
    """``games`` games of uniformly random legal moves from the start, as UCI lists."""
    rng = random.Random(seed)
    played = []
    for _ in range(games):
        board = chess.Board()
        moves: list[str] = []
        while not board.is_game_over() and len(moves) < MAX_PLIES:
            move = rng.choice(list(board.legal_moves))
            board.push(move)
            moves.append(move.uci())
        played.append(moves)
    return played


def positions(seed: int, games: int, count: int) -> list[Position]:
    """FENS, then ``count`` positions from the seeded games (every game's last one among them)."""
    lines = random_games(seed, games)
    rng = random.Random(seed + 1)
    last = [(g, len(moves)) for g, moves in enumerate(lines)]
    others = [(g, ply) for g, moves in enumerate(lines) for ply in range(1, len(moves))]
    picked = sorted(last + rng.sample(others, max(0, min(len(others), count - len(last)))))
    result = [reference(fen, None) for fen in FENS]
    for g, ply in picked:
        board = chess.Board()
        for uci in lines[g][:ply]:
            board.push_uci(uci)
        result.append(reference(board.fen(), lines[g][:ply]))
    return result


def planes_of(board: chess.Board) -> Any:
    """(12, 8, 8) uint8: White's P N B R Q K then Black's; row = rank (1 first), column = file."""
    out = np.zeros((12, 8, 8), np.uint8)
    for square, piece in board.piece_map().items():
        out[(0 if piece.color else 6) + piece.piece_type - 1, square // 8, square % 8] = 1
    return out


# --- Cells: one library's call for one workload -----------------------------------------------


@dataclass
class Cell:
    """What one library times for one workload: ``for NAMES in items: CALL``, compiled as a
    plain loop so that every library's idiom is timed with no adapter between it and the loop."""

    call: str
    names: str
    items: Sequence[Any]
    env: dict[str, Any] = field(default_factory=dict)
    units: int | None = None  # work per pass: len(items) unless given (perft: nodes)
    mark: str = ""
    problem: str = ""

    def work(self) -> Callable[[], int]:
        units = len(self.items) if self.units is None else self.units
        source = f"def work():\n    for {self.names} in items:\n        {self.call}\n    return {units}\n"
        namespace = dict(self.env, items=self.items)
        exec(source, namespace)
        return namespace["work"]  # type: ignore[no-any-return]

    def drop_failing(self) -> None:
        """Calls the cell once per item and keeps the items whose call returns; when some
        raise, says so in ``problem`` (the rest is timed). A cell whose units are counted
        (perft, a batch) is left whole: its units would no longer match."""
        if self.units is not None:
            return
        source = f"def probe(item):\n    {self.names} = item\n    {self.call}\n"
        namespace = dict(self.env)
        exec(source, namespace)
        probe = namespace["probe"]
        kept = []
        first = ""
        for item in self.items:
            try:
                probe(item)
            except Exception as error:  # noqa: BLE001 - the peer's failure is what is reported
                first = first or f"{type(error).__name__}: {error}"
                continue
            kept.append(item)
        if len(kept) < len(self.items):
            failed = (
                f"{len(self.items) - len(kept)} of {len(self.items)} calls raise (first: {first}); "
                "timed on the rest"
            )
            self.problem = f"{self.problem}; {failed}" if self.problem else failed
            self.items = kept


def attempt(call: Callable[..., Any], *args: Any) -> Any:
    """``call(*args)``, or what it raised, as text to compare and report."""
    try:
        return call(*args)
    except Exception as error:  # noqa: BLE001 - a peer's failure is an answer to report
        return f"raises {type(error).__name__}: {error}"


def castling_two_squares(board: chess.Board, uci: str) -> str:
    """A castling spelt as the king taking its rook, as the king's two-square move; other
    moves (a rook's e8a8, say) unchanged."""
    if uci in KING_TO_ROOK and board.piece_type_at(chess.parse_square(uci[:2])) == chess.KING:
        return KING_TO_ROOK[uci]
    return uci


def brief(got: Any, want: Any) -> str:
    """Where ``got`` differs from python-chess's ``want``, briefly (the first few entries)."""
    if isinstance(got, dict) and isinstance(want, dict):
        keys = [k for k in sorted(set(got) | set(want)) if got.get(k) != want.get(k)]
        return ", ".join(f"{k}: {got.get(k)!r} (python-chess {want.get(k)!r})" for k in keys[:3])
    if isinstance(got, list) and isinstance(want, list):
        if len(got) == len(want):
            pairs = [(g, w) for g, w in zip(got, want) if g != w]
            return ", ".join(f"{g!r} (python-chess {w!r})" for g, w in pairs[:3])
        extra = [g for g in got if g not in want]
        lacking = [w for w in want if w not in got]
        return f"{len(got)} against {len(want)}; extra {extra[:5]}, lacking {lacking[:5]}"
    return f"{got!r} (python-chess {want!r})"


def differ(what: str, rows: Iterable[tuple[str, Any, Any]]) -> str:
    """'' when every (position, got, python-chess's) agrees; else how many positions differ
    and how the first one does."""
    bad = [(fen, got, want) for fen, got, want in rows if got != want]
    if not bad:
        return ""
    fen, got, want = bad[0]
    return f"{what}: {len(bad)} positions differ; first {fen}: {brief(got, want)}"


def check_legal(ps: Sequence[Position], got: Sequence[Sequence[str]]) -> str:
    return differ("legal moves", ((p.fen, sorted(g), sorted(p.legal)) for p, g in zip(ps, got)))


def check_san(ps: Sequence[Position], got: Sequence[dict[str, str]]) -> str:
    return differ(
        "SAN",
        (
            (p.fen, {u: g[u] for u in sorted(g)}, {u: p.san[u] for u in sorted(p.san)})
            for p, g in zip(ps, got)
        ),
    )


def check_parsed(ps: Sequence[Position], got: Sequence[Sequence[str]]) -> str:
    """``got``: per position, the UCI of each of python-chess's SAN strings parsed back."""
    return differ("parsed SAN", ((p.fen, list(g), list(p.san)) for p, g in zip(ps, got)))


def check_fens(ps: Sequence[Position], got: Sequence[str]) -> str:
    return differ("FEN round trip", ((p.fen, g, p.fen) for p, g in zip(ps, got)))


def check_answers(
    what: str, ps: Sequence[Position], got: Sequence[Any], want: Callable[[Position], bool]
) -> str:
    return differ(what, ((p.fen, bool(g), want(p)) for p, g in zip(ps, got)))


def check_planes(
    ps: Sequence[Position], got: Sequence[Any], view: Callable[[chess.Board], Any]
) -> str:
    rows = (
        (p.fen, bool(np.array_equal(np.asarray(g), view(chess.Board(p.fen)))), True)
        for p, g in zip(ps, got)
    )
    return differ("planes equal to python-chess's pieces", rows)


def perft_items(make: Callable[[str], Any], depth: int) -> list[tuple[Any, int]]:
    return [(make(START), depth + 1), (make(KIWIPETE), depth)]


def check_perft(items: Sequence[tuple[Any, int]], counts: Sequence[int]) -> tuple[int, str]:
    """The nodes of one pass and '' when every count is the known one (or the reference's)."""
    wants = []
    for (_, depth), fen in zip(items, (START, KIWIPETE)):
        known = PERFT[fen]
        wants.append(known[depth] if depth < len(known) else None)
    rows = [
        (f"{fen} depth {d}", n, w)
        for (_, d), fen, n, w in zip(items, (START, KIWIPETE), counts, wants)
        if w is not None
    ]
    return sum(counts), differ("perft", rows)


def over_semantics(p: Position) -> bool:
    return p.over


def norep_semantics(p: Position) -> bool:
    return p.over_norep


def mate_or_stalemate(p: Position) -> bool:
    return p.no_moves


def cozy_semantics(p: Position) -> bool:
    return p.no_moves or p.halfmove >= 100


# --- The libraries' idioms --------------------------------------------------------------------
#
# One class per library; a method per workload it has, returning its Cell with the check done.
# A workload a library lacks is a method it does not define (its cell prints "—").


class Adapter:
    def __init__(self, mod: ModuleType, ps: Sequence[Position], depth: int) -> None:
        self.mod = mod
        self.ps = ps
        self.depth = depth
        self.fens = [p.fen for p in ps]
        self.sans = [(i, s) for i, p in enumerate(ps) for s in p.san.values()]

    def parsed(self, boards: Sequence[Any], to_uci: Callable[[Any, str], str]) -> list[list[Any]]:
        """Per position, python-chess's SAN strings parsed back on ``boards`` (to_uci(board,
        san)): the UCI, or what the parse raised."""
        return [[attempt(to_uci, b, s) for s in p.san.values()] for b, p in zip(boards, self.ps)]


class ChessLike(Adapter):
    """python-chess's API: python-chess itself and shatranj (its drop-in)."""

    def __init__(self, mod: ModuleType, ps: Sequence[Position], depth: int) -> None:
        super().__init__(mod, ps, depth)
        self.boards = [mod.Board(f) for f in self.fens]
        self.moves = [list(b.legal_moves) for b in self.boards]
        self.pairs = [(b, m) for b, ms in zip(self.boards, self.moves) for m in ms]
        self.san_pairs = [(self.boards[i], s) for i, s in self.sans]

    def legal(self) -> Cell:
        got = [[m.uci() for m in b.legal_moves] for b in self.boards]
        return Cell("list(b.legal_moves)", "b", self.boards, problem=check_legal(self.ps, got))

    def push_pop(self) -> Cell:
        return Cell("b.push(m); b.pop()", "b, m", self.pairs)

    def san(self) -> Cell:
        got = [{m.uci(): b.san(m) for m in ms} for b, ms in zip(self.boards, self.moves)]
        return Cell("b.san(m)", "b, m", self.pairs, problem=check_san(self.ps, got))

    def parse_san(self) -> Cell:
        got = self.parsed(self.boards, lambda b, s: b.parse_san(s).uci())
        return Cell("b.parse_san(s)", "b, s", self.san_pairs, problem=check_parsed(self.ps, got))

    def push_san(self) -> Cell:
        return Cell("b.push_san(s); b.pop()", "b, s", self.san_pairs)

    def fen_read(self) -> Cell:
        got = [self.mod.Board(f).fen() for f in self.fens]
        return Cell(
            "Board(f)", "f", self.fens, {"Board": self.mod.Board}, problem=check_fens(self.ps, got)
        )

    def fen_write(self) -> Cell:
        return Cell("b.fen()", "b", self.boards)

    def checkmate(self) -> Cell:
        got = [b.is_checkmate() for b in self.boards]
        return Cell(
            "b.is_checkmate()",
            "b",
            self.boards,
            problem=check_answers("checkmate", self.ps, got, lambda p: p.checkmate),
        )

    def over(self) -> Cell:
        played = []
        for p in self.ps:
            board = self.mod.Board(p.fen if p.history is None else START)
            for uci in p.history or ():
                board.push_uci(uci)
            played.append(board)
        got = [b.is_game_over() for b in played]
        return Cell(
            "b.is_game_over()",
            "b",
            played,
            problem=check_answers("game over", self.ps, got, over_semantics),
        )

    def over_norep(self) -> Cell:
        got = [b.is_game_over() for b in self.boards]
        return Cell(
            "b.is_game_over()",
            "b",
            self.boards,
            problem=check_answers("game over without repetition", self.ps, got, norep_semantics),
        )


class Shatranj(ChessLike):
    def planes(self) -> Cell:
        got = [b.to_planes() for b in self.boards]
        return Cell(
            "b.to_planes()", "b", self.boards, problem=check_planes(self.ps, got, planes_of)
        )

    def planes_bytes(self) -> Cell:
        got = [np.frombuffer(b.to_planes_bytes(), np.uint8).reshape(12, 8, 8) for b in self.boards]
        return Cell(
            "b.to_planes_bytes()",
            "b",
            self.boards,
            problem=check_planes(self.ps, got, planes_of),
        )

    def planes_batch(self) -> Cell:
        encode = importlib.import_module("shatranj.planes").board
        got = encode(self.boards)
        return Cell(
            "planes(bs)",
            "bs",
            [self.boards],
            {"planes": encode},
            units=len(self.boards),
            problem=check_planes(self.ps, list(got), planes_of),
        )

    def perft(self) -> Cell:
        items = perft_items(self.mod.Board, self.depth)
        nodes, problem = check_perft(items, [self.mod.perft(b, d) for b, d in items])
        return Cell(
            "perft(b, d)", "b, d", items, {"perft": self.mod.perft}, units=nodes, problem=problem
        )


class Fastchess(Adapter):
    def __init__(self, mod: ModuleType, ps: Sequence[Position], depth: int) -> None:
        super().__init__(mod, ps, depth)
        self.boards = [mod.Board(f) for f in self.fens]

    def legal(self) -> Cell:
        got = [b.legal_moves_uci() for b in self.boards]
        return Cell("b.legal_moves_uci()", "b", self.boards, problem=check_legal(self.ps, got))

    def push_pop(self) -> Cell:
        pairs = [(b, u) for b in self.boards for u in b.legal_moves_uci()]
        return Cell("b.copy().push_uci(u)", "b, u", pairs, mark="‡")

    def push_san(self) -> Cell:
        pairs = [(self.boards[i], s) for i, s in self.sans]
        got = self.parsed(self.boards, lambda b, s: b.copy().push_san(s))
        return Cell(
            "b.copy().push_san(s)", "b, s", pairs, mark="‡", problem=check_parsed(self.ps, got)
        )

    def fen_read(self) -> Cell:
        got = [self.mod.Board(f).fen() for f in self.fens]
        return Cell(
            "Board(f)", "f", self.fens, {"Board": self.mod.Board}, problem=check_fens(self.ps, got)
        )

    def fen_write(self) -> Cell:
        return Cell("b.fen()", "b", self.boards)

    def planes(self) -> Cell:
        # 18 float32 planes, rank 8 first, from the side to move's view (canonical=True, the
        # default): the first 12 are the pieces, checked against the mirrored board for Black.
        got = [b.to_tensor()[:12] for b in self.boards]

        def view(board: chess.Board) -> Any:
            return planes_of(board if board.turn else board.mirror())[:, ::-1]

        return Cell("b.to_tensor()", "b", self.boards, problem=check_planes(self.ps, got, view))


class Esca(Adapter):
    def __init__(self, mod: ModuleType, ps: Sequence[Position], depth: int) -> None:
        super().__init__(mod, ps, depth)
        self.boards = [mod.Position.from_fen(f) for f in self.fens]
        self.moves = [b.legal_moves() for b in self.boards]
        self.pairs = [(b, m) for b, ms in zip(self.boards, self.moves) for m in ms]

    def uci(self, board: Any, move: Any) -> str:
        return str(board.uci(move, castling="king_two_squares"))

    def legal(self) -> Cell:
        got = [[self.uci(b, m) for m in b.legal_moves()] for b in self.boards]
        return Cell("b.legal_moves()", "b", self.boards, problem=check_legal(self.ps, got))

    def push_pop(self) -> Cell:
        games = [self.mod.Game.from_fen(f) for f in self.fens]
        pairs = [(g, m) for g in games for m in g.legal_moves()]
        return Cell("g.play(m); g.undo()", "g, m", pairs)

    def san(self) -> Cell:
        got = [{self.uci(b, m): b.san(m) for m in ms} for b, ms in zip(self.boards, self.moves)]
        return Cell("b.san(m)", "b, m", self.pairs, problem=check_san(self.ps, got))

    def parse_san(self) -> Cell:
        got = self.parsed(self.boards, lambda b, s: self.uci(b, b.parse_san(s)))
        pairs = [(self.boards[i], s) for i, s in self.sans]
        return Cell("b.parse_san(s)", "b, s", pairs, problem=check_parsed(self.ps, got))

    def push_san(self) -> Cell:
        games = [self.mod.Game.from_fen(f) for f in self.fens]
        return Cell("g.play_san(s); g.undo()", "g, s", [(games[i], s) for i, s in self.sans])

    def fen_read(self) -> Cell:
        from_fen = self.mod.Position.from_fen
        got = [from_fen(f).fen for f in self.fens]
        return Cell(
            "from_fen(f)", "f", self.fens, {"from_fen": from_fen}, problem=check_fens(self.ps, got)
        )

    def fen_write(self) -> Cell:
        return Cell("b.fen", "b", self.boards)

    def checkmate(self) -> Cell:
        got = [b.outcome() == "checkmate" for b in self.boards]
        return Cell(
            "b.outcome() == 'checkmate'",
            "b",
            self.boards,
            problem=check_answers("checkmate", self.ps, got, lambda p: p.checkmate),
        )

    def over(self) -> Cell:
        played = []
        for p in self.ps:
            game = self.mod.Game.from_fen(p.fen) if p.history is None else self.mod.Game()
            for uci in p.history or ():
                game.play(uci)
            played.append(game)
        got = [g.outcome() is not None for g in played]
        return Cell(
            "g.outcome() is not None",
            "g",
            played,
            problem=check_answers("game over", self.ps, got, over_semantics),
        )

    def over_norep(self) -> Cell:
        got = [b.outcome() is not None for b in self.boards]
        return Cell(
            "b.outcome() is not None",
            "b",
            self.boards,
            problem=check_answers("game over without repetition", self.ps, got, norep_semantics),
        )


class TensorChess(Adapter):
    def __init__(self, mod: ModuleType, ps: Sequence[Position], depth: int) -> None:
        super().__init__(mod, ps, depth)
        self.boards = [mod.Position(f) for f in self.fens]

    def legal(self) -> Cell:
        got = [b.generate_legal_moves(True) for b in self.boards]
        return Cell("b.generate_legal_moves()", "b", self.boards, problem=check_legal(self.ps, got))

    def push_pop(self) -> Cell:
        pairs = [(b, m) for b in self.boards for m in b.generate_legal_moves()]
        return Cell("b.push(m); b.pop()", "b, m", pairs)

    def fen_read(self) -> Cell:
        got = [self.mod.Position(f).fen() for f in self.fens]
        return Cell(
            "Position(f)",
            "f",
            self.fens,
            {"Position": self.mod.Position},
            problem=check_fens(self.ps, got),
        )

    def fen_write(self) -> Cell:
        return Cell("b.fen()", "b", self.boards)

    def planes(self) -> Cell:
        buffer = np.zeros((15, 8, 8), np.uint8)
        got = []
        for b in self.boards:
            b.to_tensor(buffer)
            got.append(buffer[:12].copy())
        return Cell(
            "b.to_tensor(buf)",
            "b, buf",
            [(b, buffer) for b in self.boards],
            mark="¶",
            problem=check_planes(self.ps, got, planes_of),
        )

    def planes_bytes(self) -> Cell:
        got = [np.frombuffer(b.to_tensor(), np.uint8).reshape(15, 8, 8)[:12] for b in self.boards]
        return Cell(
            "b.to_tensor()",
            "b",
            self.boards,
            mark="§",
            problem=check_planes(self.ps, got, planes_of),
        )

    def checkmate(self) -> Cell:
        got = [b.is_checkmate() for b in self.boards]
        return Cell(
            "b.is_checkmate()",
            "b",
            self.boards,
            problem=check_answers("checkmate", self.ps, got, lambda p: p.checkmate),
        )

    def over_norep(self) -> Cell:
        got = [b.is_game_over() for b in self.boards]
        return Cell(
            "b.is_game_over()",
            "b",
            self.boards,
            problem=check_answers("game over without repetition", self.ps, got, norep_semantics),
        )


class CozyChess(Adapter):
    def __init__(self, mod: ModuleType, ps: Sequence[Position], depth: int) -> None:
        super().__init__(mod, ps, depth)
        self.boards = [mod.Board.from_fen(f) for f in self.fens]

    def legal(self) -> Cell:
        got = [
            [castling_two_squares(chess.Board(f), str(m)) for m in b.generate_moves()]
            for b, f in zip(self.boards, self.fens)
        ]
        return Cell("b.generate_moves()", "b", self.boards, problem=check_legal(self.ps, got))

    def push_pop(self) -> Cell:
        # Board.__copy__ is the wrapper's only copy; copy.copy(b) would add the copy module's
        # Python-level dispatch to the peer's time.
        pairs = [(b, m) for b in self.boards for m in b.generate_moves()]
        return Cell("b.__copy__().play(m)", "b, m", pairs, mark="‡")

    def fen_read(self) -> Cell:
        from_fen = self.mod.Board.from_fen
        got = [from_fen(f).fen() for f in self.fens]
        return Cell(
            "from_fen(f)", "f", self.fens, {"from_fen": from_fen}, problem=check_fens(self.ps, got)
        )

    def fen_write(self) -> Cell:
        return Cell("b.fen()", "b", self.boards)

    def checkmate(self) -> Cell:
        won = self.mod.GameStatus.Won
        got = [b.status() == won for b in self.boards]
        return Cell(
            "b.status() == Won",
            "b",
            self.boards,
            {"Won": won},
            problem=check_answers("checkmate", self.ps, got, lambda p: p.checkmate),
        )

    def over_norep(self) -> Cell:
        ongoing = self.mod.GameStatus.Ongoing
        got = [b.status() != ongoing for b in self.boards]
        return Cell(
            "b.status() != Ongoing",
            "b",
            self.boards,
            {"Ongoing": ongoing},
            mark="†",
            problem=check_answers("mate, stalemate or 100 halfmoves", self.ps, got, cozy_semantics),
        )


class Chessmg(Adapter):
    def __init__(self, mod: ModuleType, ps: Sequence[Position], depth: int) -> None:
        super().__init__(mod, ps, depth)
        self.boards = [mod.ChessPosition(f) for f in self.fens]

    def legal(self) -> Cell:
        got = [[m.uci for m in b.legal_moves()] for b in self.boards]
        return Cell("b.legal_moves()", "b", self.boards, problem=check_legal(self.ps, got))

    def push_pop(self) -> Cell:
        pairs = [(b, m) for b in self.boards for m in b.legal_moves()]
        return Cell("b.make_move(m); b.undo_move()", "b, m", pairs)

    def fen_read(self) -> Cell:
        got = [self.mod.ChessPosition(f).fen for f in self.fens]
        return Cell(
            "ChessPosition(f)",
            "f",
            self.fens,
            {"ChessPosition": self.mod.ChessPosition},
            problem=check_fens(self.ps, got),
        )

    def fen_write(self) -> Cell:
        return Cell("b.fen", "b", self.boards)

    def checkmate(self) -> Cell:
        got = [b.is_checkmate for b in self.boards]
        return Cell(
            "b.is_checkmate",
            "b",
            self.boards,
            problem=check_answers("checkmate", self.ps, got, lambda p: p.checkmate),
        )

    def over_norep(self) -> Cell:
        got = [b.is_game_over for b in self.boards]
        return Cell(
            "b.is_game_over",
            "b",
            self.boards,
            mark="†",
            problem=check_answers("mate or stalemate", self.ps, got, mate_or_stalemate),
        )

    def perft(self) -> Cell:
        items = perft_items(self.mod.ChessPosition, self.depth)
        nodes, problem = check_perft(items, [b.perft(d) for b, d in items])
        return Cell("b.perft(d)", "b, d", items, units=nodes, problem=problem)


class RustChess(Adapter):
    # rust-chess 0.4.3 panics (an index out of bounds in board.rs, which aborts the process)
    # in make_move_new and get_status on a board read from a FEN with a halfmove clock above 0
    # while repetition detection is on (the default): its history is one position long. Boards
    # read from FEN therefore turn detection off (nothing earlier is known to repeat anyway);
    # the boards that played their games keep it.
    def __init__(self, mod: ModuleType, ps: Sequence[Position], depth: int) -> None:
        super().__init__(mod, ps, depth)
        self.none = mod.RepetitionDetectionMode.NONE
        self.boards = [mod.Board(f, mode=self.none) for f in self.fens]

    def moves(self, board: Any) -> list[Any]:
        # The board's move generator is a cursor: a listing exhausts it until it is reset.
        board.reset_move_generator()
        return list(board.generate_legal_moves())

    def legal(self) -> Cell:
        got = [[m.get_uci() for m in self.moves(b)] for b in self.boards]
        return Cell(
            "b.reset_move_generator(); list(b.generate_legal_moves())",
            "b",
            self.boards,
            problem=check_legal(self.ps, got),
        )

    def push_pop(self) -> Cell:
        pairs = [(b, m) for b in self.boards for m in self.moves(b)]
        return Cell("b.make_move_new(m)", "b, m", pairs, mark="‡")

    def parse_san(self) -> Cell:
        got = self.parsed(self.boards, lambda b, s: b.get_move_from_san(s).get_uci())
        pairs = [(self.boards[i], s) for i, s in self.sans]
        return Cell("b.get_move_from_san(s)", "b, s", pairs, problem=check_parsed(self.ps, got))

    def push_san(self) -> Cell:
        pairs = [(self.boards[i], s) for i, s in self.sans]
        return Cell("b.make_move_new(b.get_move_from_san(s))", "b, s", pairs, mark="‡")

    def fen_read(self) -> Cell:
        got = [self.mod.Board(f).get_fen() for f in self.fens]
        return Cell(
            "Board(f)", "f", self.fens, {"Board": self.mod.Board}, problem=check_fens(self.ps, got)
        )

    def fen_write(self) -> Cell:
        return Cell("b.get_fen()", "b", self.boards)

    def checkmate(self) -> Cell:
        got = [b.is_checkmate() for b in self.boards]
        return Cell(
            "b.is_checkmate()",
            "b",
            self.boards,
            problem=check_answers("checkmate", self.ps, got, lambda p: p.checkmate),
        )

    def over(self) -> Cell:
        played = []
        for p in self.ps:
            board = self.mod.Board(p.fen, mode=self.none) if p.history is None else self.mod.Board()
            for uci in p.history or ():
                board.make_move(self.mod.Move(uci))
            played.append(board)
        ongoing = self.mod.BoardStatus.ONGOING
        got = [b.get_status() != ongoing for b in played]
        return Cell(
            "b.get_status() != ONGOING",
            "b",
            played,
            {"ONGOING": ongoing},
            problem=check_answers("game over", self.ps, got, over_semantics),
        )

    def over_norep(self) -> Cell:
        ongoing = self.mod.BoardStatus.ONGOING
        got = [b.get_status() != ongoing for b in self.boards]
        return Cell(
            "b.get_status() != ONGOING",
            "b",
            self.boards,
            {"ONGOING": ongoing},
            problem=check_answers("game over without repetition", self.ps, got, norep_semantics),
        )


class Bulletchess(Adapter):
    def __init__(self, mod: ModuleType, ps: Sequence[Position], depth: int) -> None:
        super().__init__(mod, ps, depth)
        self.utils = importlib.import_module("bulletchess.utils")
        self.boards = [mod.Board.from_fen(f) for f in self.fens]
        self.moves = [b.legal_moves() for b in self.boards]
        self.pairs = [(b, m) for b, ms in zip(self.boards, self.moves) for m in ms]
        self.san_pairs = [(self.boards[i], s) for i, s in self.sans]
        self.status = {
            "CHECKMATE": mod.CHECKMATE,
            "FORCED_DRAW": mod.FORCED_DRAW,
            "from_san": mod.Move.from_san,
        }

    def legal(self) -> Cell:
        got = [[m.uci() for m in b.legal_moves()] for b in self.boards]
        return Cell("b.legal_moves()", "b", self.boards, problem=check_legal(self.ps, got))

    def push_pop(self) -> Cell:
        return Cell("b.apply(m); b.undo()", "b, m", self.pairs)

    def san(self) -> Cell:
        got = [{m.uci(): m.san(b) for m in ms} for b, ms in zip(self.boards, self.moves)]
        return Cell("m.san(b)", "b, m", self.pairs, problem=check_san(self.ps, got))

    def parse_san(self) -> Cell:
        from_san = self.mod.Move.from_san
        got = self.parsed(self.boards, lambda b, s: from_san(s, b).uci())
        return Cell(
            "from_san(s, b)",
            "b, s",
            self.san_pairs,
            self.status,
            problem=check_parsed(self.ps, got),
        )

    def push_san(self) -> Cell:
        return Cell("b.apply(from_san(s, b)); b.undo()", "b, s", self.san_pairs, self.status)

    def fen_read(self) -> Cell:
        from_fen = self.mod.Board.from_fen
        got = [from_fen(f).fen() for f in self.fens]
        return Cell(
            "from_fen(f)", "f", self.fens, {"from_fen": from_fen}, problem=check_fens(self.ps, got)
        )

    def fen_write(self) -> Cell:
        return Cell("b.fen()", "b", self.boards)

    def checkmate(self) -> Cell:
        got = [b in self.mod.CHECKMATE for b in self.boards]
        return Cell(
            "b in CHECKMATE",
            "b",
            self.boards,
            self.status,
            problem=check_answers("checkmate", self.ps, got, lambda p: p.checkmate),
        )

    def over(self) -> Cell:
        played = []
        for p in self.ps:
            board = self.mod.Board.from_fen(p.fen) if p.history is None else self.mod.Board()
            for uci in p.history or ():
                board.apply(self.mod.Move.from_uci(uci))
            played.append(board)
        got = [b in self.mod.CHECKMATE or b in self.mod.FORCED_DRAW for b in played]
        return Cell(
            "b in CHECKMATE or b in FORCED_DRAW",
            "b",
            played,
            self.status,
            problem=check_answers("game over", self.ps, got, over_semantics),
        )

    def over_norep(self) -> Cell:
        got = [b in self.mod.CHECKMATE or b in self.mod.FORCED_DRAW for b in self.boards]
        return Cell(
            "b in CHECKMATE or b in FORCED_DRAW",
            "b",
            self.boards,
            self.status,
            problem=check_answers("game over without repetition", self.ps, got, norep_semantics),
        )

    def perft(self) -> Cell:
        items = perft_items(self.mod.Board.from_fen, self.depth)
        nodes, problem = check_perft(items, [self.utils.perft(b, d) for b, d in items])
        return Cell(
            "perft(b, d)", "b, d", items, {"perft": self.utils.perft}, units=nodes, problem=problem
        )


ADAPTERS: dict[str, Callable[[ModuleType, Sequence[Position], int], Adapter]] = {
    "shatranj": Shatranj,
    "python-chess": ChessLike,
    "fastchess": Fastchess,
    "esca": Esca,
    "tensor-chess": TensorChess,
    "cozy-chess-py": CozyChess,
    "chessmg": Chessmg,
    "rust-chess": RustChess,
    "bulletchess": Bulletchess,
}


# --- Running ----------------------------------------------------------------------------------


def parse_names(text: str | None, known: Sequence[str], what: str) -> list[str]:
    """A comma-separated selection (``--libs``/``--workloads``) in ``known``'s order; all of
    ``known`` for None. Raises ValueError naming what is unknown."""
    if text is None:
        return list(known)
    wanted = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in known]
    if unknown or not wanted:
        raise ValueError(
            f"unknown {what}: {', '.join(unknown) or '(none given)'}; known: {', '.join(known)}"
        )
    return [name for name in known if name in wanted]


def load(lib: Library) -> tuple[ModuleType | None, str]:
    """The library's module and its version, or None and why it is not here."""
    if sys.version_info[:2] < lib.min_python:
        need = ".".join(map(str, lib.min_python))
        return None, f"needs Python ≥ {need} (this is {platform.python_version()})"
    try:
        mod = importlib.import_module(lib.module)
    except Exception as error:  # noqa: BLE001 - any failure to import leaves the peer out
        return None, f"does not import: {error}"
    try:
        return mod, importlib.metadata.version(lib.dist)
    except importlib.metadata.PackageNotFoundError:
        return mod, str(getattr(mod, "__version__", "?"))


def interpreter() -> str:
    """The Python running this, as the recorded command names it: relative to the repository
    when it is one of its environments (benchmarks/.venv-peers/bin/python), else its name."""
    path = Path(sys.executable)
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return path.name


@dataclass
class Summary:
    """One peer's cell against shatranj's, from the per-round seconds per unit."""

    best: float  # units/s
    median: float
    ratio: float | None = None  # shatranj over the peer: median of the per-round ratios
    low: float | None = None
    high: float | None = None
    best_ratio: float | None = None  # best against best


def summarise(times: Sequence[float], ours: Sequence[float] | None) -> Summary:
    summary = Summary(best=1 / min(times), median=1 / statistics.median(times))
    if ours:
        per_round = [theirs / mine for mine, theirs in zip(ours, times)]
        summary.ratio = paired_ratio(ours, times)
        summary.low, summary.high = min(per_round), max(per_round)
        summary.best_ratio = min(times) / min(ours)
    return summary


def rate_text(rate: float) -> str:
    if rate >= 1e6:
        return f"{rate / 1e6:.2f} M"
    if rate >= 1e3:
        return f"{rate / 1e3:.1f} k"
    return f"{rate:.0f}"


def behind(rows: dict[str, dict[str, Summary]], titles: dict[str, str], below: float) -> list[str]:
    """The cells where shatranj's median paired ratio is under ``below``, worst first."""
    found = []
    for key, cells in rows.items():
        for name, s in cells.items():
            if s.ratio is not None and s.ratio < below:
                found.append(
                    (s.ratio, f"{titles[key]}: {name} {s.ratio:.2f}× ({s.low:.2f}–{s.high:.2f})")
                )
    return [text for _, text in sorted(found)]


def matrix(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--rounds", type=int, default=7, help="interleaved rounds per workload (default 7)"
    )
    parser.add_argument(
        "--min-time", type=float, default=0.2, help="seconds per library per round (default 0.2)"
    )
    parser.add_argument("--seed", type=int, default=52, help="the random games' seed (default 52)")
    parser.add_argument("--games", type=int, default=20, help="random games played (default 20)")
    parser.add_argument(
        "--positions", type=int, default=200, help="positions taken from them (default 200)"
    )
    parser.add_argument(
        "--perft-depth", type=int, default=4, help="Kiwipete's depth; startpos one more (default 4)"
    )
    parser.add_argument(
        "--libs", help="comma-separated libraries (default: every one that imports)"
    )
    parser.add_argument(
        "--workloads", help="comma-separated workloads: " + ", ".join(k for k, _, _ in WORKLOADS)
    )
    parser.add_argument(
        "--check", action="store_true", help="check and print each cell's call; time nothing"
    )
    parser.add_argument(
        "--record", action="store_true", help="append the results to benchmarks/RESULTS.md"
    )
    args = parser.parse_args(argv)
    try:
        chosen = parse_names(args.libs, [lib.name for lib in LIBRARIES], "library")
        keys = parse_names(args.workloads, [k for k, _, _ in WORKLOADS], "workload")
    except ValueError as error:
        parser.error(str(error))
    if "shatranj" not in chosen:
        parser.error("--libs must include shatranj: every ratio is shatranj's")
    load_before = load_average()

    libs: list[tuple[Library, ModuleType]] = []
    versions: list[str] = []
    missing: list[str] = []
    for lib in LIBRARIES:
        if lib.name not in chosen:
            continue
        mod, version = load(lib)
        if mod is None:
            missing.append(f"{lib.name} ({lib.origin}): {version}")
        else:
            libs.append((lib, mod))
            versions.append(f"{lib.name} {version} ({lib.origin})")
    loaded = {lib.name: mod for lib, mod in libs}
    if "shatranj" not in loaded:
        print(f"python_peers.py: shatranj is not importable here: {missing[0]}", file=sys.stderr)
        return 2
    where_from = Path(str(loaded["shatranj"].__file__)).parent
    print(f"Python {platform.python_version()}, numpy {np.__version__}; shatranj from {where_from}")
    print("libraries: " + "; ".join(versions))
    for line in missing:
        print(f"left out: {line}")

    started = time.perf_counter()
    ps = positions(args.seed, args.games, args.positions)
    moves = sum(len(p.legal) for p in ps)
    where = (
        f"{len(ps)} positions: common.py's {len(FENS)} FENS and {len(ps) - len(FENS)} from "
        f"{args.games} random games, seed {args.seed} ({moves} legal moves in all; "
        f"the game is over in {sum(p.over for p in ps)}); "
        f"perft startpos {args.perft_depth + 1}, Kiwipete {args.perft_depth}"
    )
    print(where + f" [{time.perf_counter() - started:.1f} s]", flush=True)

    adapters: dict[str, Adapter] = {}
    for lib, mod in libs:
        try:
            adapters[lib.name] = ADAPTERS[lib.name](mod, ps, args.perft_depth)
        except Exception as error:  # noqa: BLE001 - a peer whose setup fails is reported, not fatal
            missing.append(f"{lib.name}: setup failed: {error!r}")
            print(f"left out: {missing[-1]}")
    names = list(adapters)
    titles = {key: f"{title} ({unit}/s)" for key, title, unit in WORKLOADS}

    cells: dict[str, dict[str, Cell]] = {}
    problems: list[str] = []
    ours_wrong = False  # shatranj disagrees with python-chess: our bug, and the exit status says so
    for key in keys:
        cells[key] = {}
        for name, adapter in adapters.items():
            build = getattr(adapter, key, None)
            if build is None:
                continue
            try:
                cell = build()
            except Exception as error:  # noqa: BLE001 - the call the idiom names does not work
                problems.append(f"{titles[key]}, {name}: setup failed: {error!r}")
                ours_wrong |= name == "shatranj"
                continue
            cell.drop_failing()
            if cell.problem:
                cell.mark += "✗"
                problems.append(f"{titles[key]}, {name}: {cell.problem}")
                ours_wrong |= name == "shatranj"
            cells[key][name] = cell
    for line in problems:
        print(f"DISAGREES: {line}")

    calls = matrix(
        ["workload", *names],
        [
            [
                titles[key],
                *(f"`{c.call}`{c.mark}" if (c := cells[key].get(n)) else "—" for n in names),
            ]
            for key in keys
        ],
    )
    if args.check:
        print("\n".join(calls))
        return 1 if ours_wrong else 0

    results: dict[str, dict[str, Summary]] = {}
    for key in keys:
        row = cells[key]
        if "shatranj" not in row:
            continue
        works = {name: row[name].work() for name in row}
        for work in works.values():
            work()  # warm up: first calls, caches, lazily built tables
        runs = {
            name: (lambda w=work: 1.0 / rate(w, args.min_time)) for name, work in works.items()
        }  # seconds per unit
        times = interleaved(args.rounds, runs)
        results[key] = {
            name: summarise(times[name], None if name == "shatranj" else times["shatranj"])
            for name in row
        }
        s = results[key]["shatranj"]
        others = ", ".join(
            f"{n} {r.ratio:.2f}×" for n, r in results[key].items() if r.ratio is not None
        )
        print(
            f"{titles[key]}: shatranj {rate_text(s.best)}/s; shatranj over {others or 'no peer'}",
            flush=True,
        )

    rate_rows = []
    ratio_rows = []
    for key in results:
        rates = []
        ratios = []
        for name in names:
            cell = results[key].get(name)
            mark = cells[key][name].mark if cell else ""
            rates.append(
                f"{rate_text(cell.best)} / {rate_text(cell.median)}{mark}" if cell else "—"
            )
            if name != "shatranj":
                ratios.append(
                    f"{cell.ratio:.2f}× ({cell.low:.2f}–{cell.high:.2f}); best {cell.best_ratio:.2f}×{mark}"
                    if cell and cell.ratio is not None
                    else "—"
                )
        rate_rows.append([titles[key], *rates])
        ratio_rows.append([titles[key], *ratios])
    rate_table = matrix(["workload", *names], rate_rows)
    ratio_table = matrix(["shatranj ÷", *names[1:]], ratio_rows) if len(names) > 1 else []
    lose = behind(results, titles, 1.0)
    close = [line for line in behind(results, titles, 1.2) if line not in lose]
    used = "".join(cells[key][name].mark for key in results for name in results[key])
    legend = [f"- {mark} {text}" for mark, text in MARKS.items() if mark in used]
    report = [
        "Rates, best / median over the rounds:",
        "",
        *rate_table,
        "",
        "shatranj's speed over each peer's: median of the per-round ratios (their range); best against best:",
        "",
        *ratio_table,
        "",
        *legend,
        "",
        "shatranj behind (median ratio < 1):" + ("" if lose else " none"),
        *([""] + [f"- {line}" for line in lose] if lose else []),
        "",
        "shatranj ahead by less than 1.2× (the aim):" + ("" if close else " none"),
        *([""] + [f"- {line}" for line in close] if close else []),
    ]
    if problems:
        report += ["", "Disagreements with python-chess (these cells are marked ✗):", ""]
        report += [f"- {p}" for p in problems]
    print()
    print("\n".join(report))

    if args.record:
        commit = git_commit()
        dirty = " (uncommitted changes)" if uncommitted_changes() else ""
        load_after = load_average()
        loads = (
            f"load average {load_before:.2f} before, {load_after:.2f} after"
            if load_before is not None and load_after is not None
            else "load average unknown"
        )
        section = [
            "",
            f"## Python peers, {utc_stamp(seconds=True)}",
            "",
            f"- command: `{interpreter()} benchmarks/python_peers.py {' '.join(sys.argv[1:])}`",
            f"- commit: `{commit}`{dirty}",
            f"- machine: {cpu_model()}, {os.cpu_count()} logical CPUs, {loads}",
            f"- Python {platform.python_version()}, numpy {np.__version__}; " + "; ".join(versions),
            f"- shatranj imported from `{where_from}`",
            *([f"- left out: {'; '.join(missing)}"] if missing else []),
            f"- {where}",
            f"- {args.rounds} rounds of ≥ {args.min_time} s per library, interleaved",
            "",
            *report,
            "",
            "The calls timed, per item:",
            "",
            *calls,
            "",
        ]
        print(f"appended to {append_results(chr(10).join(section))}")
    return 1 if ours_wrong else 0


if __name__ == "__main__":
    sys.exit(main())

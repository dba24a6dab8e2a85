#!/usr/bin/env python3
"""The Python API's speed, side by side with python-chess and bulletchess (the anchors) in the
same run, each library through its own idiomatic API.

Workloads (the issue's targets, on the project's 2-core machine; each ≥ 40× python-chess and
≥ 1× bulletchess):

  push+pop       board.push(m); board.pop() over Kiwipete's legal moves        ≥ 10 M/s
  legal list     list(board.legal_moves) of Kiwipete                           ≥ 1 M lists/s
  python perft   a recursive perft written in Python on legal_moves/push/pop,
                 leaves counted with legal_moves.count()                       ≥ 6 M nodes/s
  FEN parse      Board(fen) over a set of middlegame FENs                       ≥ 2 M/s
  SAN            board.san(m) over the legal moves of a set of positions       ≥ 3 M moves/s
  built-in perft shatranj.perft(board, 4) of Kiwipete, one thread (bulletchess only:
                 python-chess has none)

and `shatranj.perft` against the `shatranj perft` CLI (same entry point; target: within 5%).

bulletchess (GPL-3.0, a C extension; needs CPython >= 3.13) is an optional anchor: imported
from its own package when installed, skipped otherwise. Its idioms: `Board.from_fen`,
`board.legal_moves()` (a list), `apply`/`undo`, `move.san(board)`, `utils.count_moves` for
perft leaves and `utils.perft`.

Every rate is the best of --repeat timed rounds (each round at least --min-time seconds), run
interleaved: shatranj, python-chess, bulletchess, shatranj, ... so that load drift hits every
side. Each ratio is printed as best against best, with the range of the per-round ratios
(round i of shatranj against round i of the anchor) beside it.

    .venv/bin/python benchmarks/python_api.py [--repeat 5] [--min-time 0.2] [--record]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess

import shatranj

try:
    import bulletchess
    import bulletchess.utils
except ImportError:  # Python < 3.13, or not installed: the anchor is skipped
    bulletchess = None

from common import (
    FENS,
    KIWIPETE,
    ROOT,
    append_results,
    git_commit,
    rate,
    uncommitted_changes,
    utc_stamp,
)

Lib = Any  # the module under test: `shatranj` or `chess`


def push_pop(lib: Lib) -> Callable[[], int]:
    board = lib.Board(KIWIPETE)
    moves = list(board.legal_moves) * 20
    push, pop = board.push, board.pop

    def work() -> int:
        for m in moves:
            push(m)
            pop()
        return len(moves)

    return work


def legal_list(lib: Lib) -> Callable[[], int]:
    board = lib.Board(KIWIPETE)

    def work() -> int:
        for _ in range(200):
            list(board.legal_moves)
        return 200

    return work


def python_perft(lib: Lib, depth: int) -> Callable[[], int]:
    board = lib.Board(KIWIPETE)

    def perft(d: int) -> int:
        if d == 1:
            return board.legal_moves.count()
        nodes = 0
        for m in board.legal_moves:
            board.push(m)
            nodes += perft(d - 1)
            board.pop()
        return nodes

    return lambda: perft(depth)


def fen_parse(lib: Lib) -> Callable[[], int]:
    fens = FENS * 25
    board_cls = lib.Board

    def work() -> int:
        for fen in fens:
            board_cls(fen)
        return len(fens)

    return work


def san(lib: Lib) -> Callable[[], int]:
    pairs: list[tuple[Any, Any]] = []
    for fen in FENS:
        board = lib.Board(fen)
        pairs.extend((board, m) for m in board.legal_moves)

    def work() -> int:
        for board, m in pairs:
            board.san(m)
        return len(pairs)

    return work


def builtin_perft(depth: int) -> Callable[[], int]:
    board = shatranj.Board(KIWIPETE)
    return lambda: shatranj.perft(board, depth)


# bulletchess, through its own API (the same positions and move lists as above).


def bullet_push_pop() -> Callable[[], int]:
    board = bulletchess.Board.from_fen(KIWIPETE)
    moves = board.legal_moves() * 20
    apply, undo = board.apply, board.undo

    def work() -> int:
        for m in moves:
            apply(m)
            undo()
        return len(moves)

    return work


def bullet_legal_list() -> Callable[[], int]:
    board = bulletchess.Board.from_fen(KIWIPETE)

    def work() -> int:
        for _ in range(200):
            board.legal_moves()
        return 200

    return work


def bullet_python_perft(depth: int) -> Callable[[], int]:
    board = bulletchess.Board.from_fen(KIWIPETE)
    count_moves = bulletchess.utils.count_moves

    def perft(d: int) -> int:
        if d == 1:
            return count_moves(board)
        nodes = 0
        for m in board.legal_moves():
            board.apply(m)
            nodes += perft(d - 1)
            board.undo()
        return nodes

    return lambda: perft(depth)


def bullet_fen_parse() -> Callable[[], int]:
    fens = FENS * 25
    from_fen = bulletchess.Board.from_fen

    def work() -> int:
        for fen in fens:
            from_fen(fen)
        return len(fens)

    return work


def bullet_san() -> Callable[[], int]:
    pairs: list[tuple[Any, Any]] = []
    for fen in FENS:
        board = bulletchess.Board.from_fen(fen)
        pairs.extend((board, m) for m in board.legal_moves())

    def work() -> int:
        for board, m in pairs:
            m.san(board)
        return len(pairs)

    return work


def bullet_builtin_perft(depth: int) -> Callable[[], int]:
    board = bulletchess.Board.from_fen(KIWIPETE)
    return lambda: bulletchess.utils.perft(board, depth)


Builder = Callable[[], Callable[[], int]]
# name, unit, target rate for shatranj, then a builder for shatranj, python-chess (None: no
# such API) and bulletchess. Each side's work returns its own unit count, so rates compare
# even where the trees differ in depth.
WORKLOADS: list[tuple[str, str, float, Builder, Builder | None, Builder]] = [
    (
        "push+pop",
        "pairs/s",
        10e6,
        lambda: push_pop(shatranj),
        lambda: push_pop(chess),
        bullet_push_pop,
    ),
    (
        "legal list (Kiwipete)",
        "lists/s",
        1e6,
        lambda: legal_list(shatranj),
        lambda: legal_list(chess),
        bullet_legal_list,
    ),
    # python-chess needs a shallower tree to finish in reasonable time; rates are per node.
    (
        "python perft (Kiwipete)",
        "nodes/s",
        6e6,
        lambda: python_perft(shatranj, 3),
        lambda: python_perft(chess, 2),
        lambda: bullet_python_perft(3),
    ),
    (
        "FEN parse",
        "boards/s",
        2e6,
        lambda: fen_parse(shatranj),
        lambda: fen_parse(chess),
        bullet_fen_parse,
    ),
    ("SAN", "moves/s", 3e6, lambda: san(shatranj), lambda: san(chess), bullet_san),
    (
        "built-in perft (Kiwipete 4)",
        "nodes/s",
        0.0,
        lambda: builtin_perft(4),
        None,
        lambda: bullet_builtin_perft(4),
    ),
]

MIN_RATIO = 40.0  # against python-chess
MIN_BULLET_RATIO = 1.0  # against bulletchess


def ratio_text(ours: list[float], theirs: list[float]) -> str:
    """Best against best, with the range of the per-round ratios."""
    per_round = [a / b for a, b in zip(ours, theirs)]
    return f"{max(ours) / max(theirs):.2f}× ({min(per_round):.2f}–{max(per_round):.2f})"


def cli_vs_binding(repeat: int) -> list[dict[str, Any]]:
    """`shatranj.perft` against the CLI on the same positions, best of `repeat`."""
    cli = ROOT / "target" / "release" / "shatranj"
    if not cli.exists():
        print(f"(skipping perft vs CLI: {cli} not built; cargo build --release -p shatranj-cli)")
        return []
    rows = []
    for name, fen, depth in [("startpos", chess.STARTING_FEN, 6), ("kiwipete", KIWIPETE, 5)]:
        board = shatranj.Board(fen)
        best_py = best_cli = float("inf")
        nodes = 0
        for _ in range(repeat):
            start = time.perf_counter()
            nodes = shatranj.perft(board, depth)
            best_py = min(best_py, time.perf_counter() - start)
            start = time.perf_counter()
            out = subprocess.run(
                [str(cli), "perft", str(depth), "--fen", fen, "--quiet"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            best_cli = min(best_cli, time.perf_counter() - start)
            assert f"Nodes searched: {nodes}" in out, out
        rows.append(
            {"position": name, "depth": depth, "nodes": nodes, "py": best_py, "cli": best_cli}
        )
    return rows


def bullet_version() -> str:
    if bulletchess is None:
        return "not installed"
    from importlib.metadata import version

    return version("bulletchess")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.2)
    parser.add_argument(
        "--record", action="store_true", help="append the results to benchmarks/RESULTS.md"
    )
    args = parser.parse_args()
    load_before = os.getloadavg()[0]

    with_bullet = bulletchess is not None
    if not with_bullet:
        print("(bulletchess not installed, or Python < 3.13: its column is skipped)")
    lines = [
        "| workload | shatranj | python-chess | ×python-chess | bulletchess | ×bulletchess | target | target met |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    all_met = True
    for name, unit, target, ours, theirs, bullet in WORKLOADS:
        work_ours = ours()
        work_theirs = theirs() if theirs is not None else None
        work_bullet = bullet() if with_bullet else None
        rates_ours: list[float] = []
        rates_theirs: list[float] = []
        rates_bullet: list[float] = []
        for _ in range(args.repeat):
            rates_ours.append(rate(work_ours, args.min_time))
            if work_theirs is not None:
                rates_theirs.append(rate(work_theirs, args.min_time))
            if work_bullet is not None:
                rates_bullet.append(rate(work_bullet, args.min_time))
        best = max(rates_ours)
        met = best >= target
        wanted = [f"≥ {target / 1e6:g} M"] if target else []
        chess_cells = ["—", "—"]
        if rates_theirs:
            met &= max(rates_ours) / max(rates_theirs) >= MIN_RATIO
            wanted.append(f"≥ {MIN_RATIO:g}× python-chess")
            chess_cells = [f"{max(rates_theirs) / 1e6:.3f} M", ratio_text(rates_ours, rates_theirs)]
        bullet_cells = ["—", "—"]
        if rates_bullet:
            met &= max(rates_ours) / max(rates_bullet) >= MIN_BULLET_RATIO
            wanted.append(f"≥ {MIN_BULLET_RATIO:g}× bulletchess")
            bullet_cells = [
                f"{max(rates_bullet) / 1e6:.2f} M",
                ratio_text(rates_ours, rates_bullet),
            ]
        all_met &= met
        lines.append(
            f"| {name} ({unit}) | {best / 1e6:.2f} M | {' | '.join(chess_cells)} | {' | '.join(bullet_cells)} "
            f"| {', '.join(wanted)} | {'yes' if met else 'NO'} |"
        )
        print(lines[-1], flush=True)

    perft_lines = [
        "| position | depth | nodes | shatranj.perft s | CLI s (process) | CLI/binding |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    cli_rows = cli_vs_binding(args.repeat)
    for row in cli_rows:
        perft_lines.append(
            f"| {row['position']} | {row['depth']} | {row['nodes']:,} | {row['py']:.3f} | {row['cli']:.3f} "
            f"| {row['cli'] / row['py']:.2f} |"
        )
        print(perft_lines[-1], flush=True)

    if args.record:
        commit = git_commit()
        dirty = uncommitted_changes()
        now = utc_stamp(seconds=True)
        section = [
            "",
            f"## Python API, {now}",
            "",
            f"- command: `{Path(sys.executable).name} benchmarks/python_api.py {' '.join(sys.argv[1:])}`",
            f"- commit: `{commit}`{' (uncommitted changes)' if dirty else ''}",
            f"- Python {platform.python_version()}, python-chess {chess.__version__}, "
            f"bulletchess {getattr(bulletchess, '__version__', None) or bullet_version()}, "
            f"{os.cpu_count()} logical CPUs, load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after",
            f"- best of {args.repeat} rounds of ≥ {args.min_time} s each, interleaved; ratios best against "
            "best, (range of the per-round ratios)",
            "",
            *lines,
            "",
        ]
        if cli_rows:
            section += [
                "shatranj.perft (one thread) against the CLI's `shatranj perft` (whole process):",
                "",
                *perft_lines,
                "",
            ]
        append_results("\n".join(section))
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The Python API's speed, side by side with python-chess (the anchor) in the same run.

Workloads (the issue's targets, on the project's 2-core machine; each ≥ 40× python-chess):

  push+pop       board.push(m); board.pop() over Kiwipete's legal moves        ≥ 10 M/s
  legal list     list(board.legal_moves) of Kiwipete                           ≥ 1 M lists/s
  python perft   a recursive perft written in Python on legal_moves/push/pop,
                 leaves counted with legal_moves.count()                       ≥ 6 M nodes/s
  FEN parse      Board(fen) over a set of middlegame FENs                       ≥ 2 M/s
  SAN            board.san(m) over the legal moves of a set of positions       ≥ 3 M moves/s

and `shatranj.perft` against the `shatranj perft` CLI (same entry point; target: within 5%).

Every rate is the best of --repeat timed rounds (each round at least --min-time seconds), run
interleaved: shatranj, python-chess, shatranj, ... so that load drift hits both sides.

    .venv/bin/python benchmarks/python_api.py [--repeat 5] [--min-time 0.2] [--record]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import chess

import shatranj

ROOT = Path(__file__).resolve().parents[1]
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
FENS = [
    KIWIPETE,
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "2kr3r/pp1q1ppp/2n1bn2/3p4/3P4/2NBBN2/PPQ2PPP/R4RK1 b - - 5 14",
]

Lib = Any  # the module under test: `shatranj` or `chess`


def rate(work: Callable[[], int], min_time: float) -> float:
    """Units of work per second: `work()` returns how many units it did."""
    units = 0
    start = time.perf_counter()
    while True:
        units += work()
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return units / elapsed


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
    pairs: List[Tuple[Any, Any]] = []
    for fen in FENS:
        board = lib.Board(fen)
        pairs.extend((board, m) for m in board.legal_moves)

    def work() -> int:
        for board, m in pairs:
            board.san(m)
        return len(pairs)

    return work


# name, unit, target rate for shatranj, builder(lib) for each side
WORKLOADS: List[Tuple[str, str, float, Callable[[Lib], Callable[[], int]], Callable[[Lib], Callable[[], int]]]] = [
    ("push+pop", "pairs/s", 10e6, push_pop, push_pop),
    ("legal list (Kiwipete)", "lists/s", 1e6, legal_list, legal_list),
    # python-chess needs a shallower tree to finish in reasonable time; rates are per node.
    ("python perft (Kiwipete)", "nodes/s", 6e6, lambda lib: python_perft(lib, 3), lambda lib: python_perft(lib, 2)),
    ("FEN parse", "boards/s", 2e6, fen_parse, fen_parse),
    ("SAN", "moves/s", 3e6, san, san),
]

MIN_RATIO = 40.0


def cli_vs_binding(repeat: int) -> List[Dict[str, Any]]:
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
                check=True, capture_output=True, text=True,
            ).stdout
            best_cli = min(best_cli, time.perf_counter() - start)
            assert f"Nodes searched: {nodes}" in out, out
        rows.append({"position": name, "depth": depth, "nodes": nodes, "py": best_py, "cli": best_cli})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.2)
    parser.add_argument("--record", action="store_true", help="append the results to benchmarks/RESULTS.md")
    args = parser.parse_args()

    lines = [
        "| workload | shatranj | python-chess | ratio | target | target met |",
        "|---|---:|---:|---:|---:|---|",
    ]
    all_met = True
    for name, unit, target, ours, theirs in WORKLOADS:
        work_ours, work_theirs = ours(shatranj), theirs(chess)
        best_ours = best_theirs = 0.0
        for _ in range(args.repeat):
            best_ours = max(best_ours, rate(work_ours, args.min_time))
            best_theirs = max(best_theirs, rate(work_theirs, args.min_time))
        ratio = best_ours / best_theirs
        met = best_ours >= target and ratio >= MIN_RATIO
        all_met &= met
        lines.append(
            f"| {name} | {best_ours / 1e6:.2f} M {unit} | {best_theirs / 1e6:.3f} M {unit} "
            f"| {ratio:.0f}× | ≥ {target / 1e6:g} M, ≥ {MIN_RATIO:g}× | {'yes' if met else 'NO'} |"
        )
        print(lines[-1], flush=True)

    perft_lines = [
        "| position | depth | nodes | shatranj.perft s | CLI s (process) | CLI/binding |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in cli_vs_binding(args.repeat):
        perft_lines.append(
            f"| {row['position']} | {row['depth']} | {row['nodes']:,} | {row['py']:.3f} | {row['cli']:.3f} "
            f"| {row['cli'] / row['py']:.2f} |"
        )
        print(perft_lines[-1], flush=True)

    if args.record:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True).stdout
        now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
        section = [
            "",
            f"## Python API, {now}",
            "",
            f"- command: `{Path(sys.executable).name} benchmarks/python_api.py {' '.join(sys.argv[1:])}`",
            f"- commit: `{commit}`{' (uncommitted changes)' if dirty.strip() else ''}",
            f"- Python {platform.python_version()}, python-chess {chess.__version__}, "
            f"{os.cpu_count()} logical CPUs, load average {os.getloadavg()[0]:.2f}",
            f"- best of {args.repeat} rounds of ≥ {args.min_time} s each, interleaved",
            "",
            *lines,
            "",
            "shatranj.perft (one thread) against the CLI's `shatranj perft` (whole process):",
            "",
            *perft_lines,
            "",
        ]
        with (ROOT / "benchmarks" / "RESULTS.md").open("a") as f:
            f.write("\n".join(section))
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""``shatranj.variant`` against python-chess's ``chess.variant``, variant by variant, in one
process (issue 54: move lists and push+pop at least 20× python-chess's variant boards).

For each variant one middlegame-like position is reached by a fixed, seeded random game of
12 plies from the variant's start (the same moves on both libraries), and two workloads are
timed on it:

  legal list   ``list(board.legal_moves)``
  push+pop     ``board.push(m); board.pop()`` over the legal moves

both as moves per second. Rounds are interleaved (shatranj, python-chess, shatranj, ...);
each ratio is the median over rounds of (shatranj's rate / python-chess's rate) within a
round, so load drifting on a shared machine hits both alike.

    .venv/bin/python benchmarks/variants.py [--repeat 5] [--min-time 0.2] [--record]
"""

from __future__ import annotations

import argparse
import random
import statistics

import chess
import chess.variant

import shatranj
import shatranj.variant
from common import append_results, git_commit, move_workloads, rate, uncommitted_changes, utc_stamp

NAMES = [
    "antichess", "atomic", "kingofthehill", "racingkings", "horde", "3check", "crazyhouse",
]  # fmt: skip
SEED = 54
PLIES = 12


def position(name: str) -> str:
    """The FEN after a seeded random game of PLIES plies from the variant's start."""
    board = chess.variant.find_variant(name)()
    rng = random.Random(f"{SEED}-{name}")
    for _ in range(PLIES):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    return board.fen()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.2)
    ap.add_argument("--record", action="store_true", help="append the table to RESULTS.md")
    args = ap.parse_args()
    lines = [
        f"| variant | workload | shatranj (best) | python-chess (best) | ratio (median of {args.repeat} interleaved rounds, min–max) |",
        "|---|---|---|---|---|",
    ]
    for name in NAMES:
        fen = position(name)
        ours = move_workloads(shatranj.variant.find_variant(name)(fen))
        theirs = move_workloads(chess.variant.find_variant(name)(fen))
        for w in ours:
            rates: dict[str, list[float]] = {"ours": [], "theirs": []}
            for _ in range(args.repeat):
                rates["ours"].append(rate(ours[w], args.min_time))
                rates["theirs"].append(rate(theirs[w], args.min_time))
            ratios = [a / b for a, b in zip(rates["ours"], rates["theirs"])]
            line = (
                f"| {name} | {w} | {max(rates['ours']):,.0f} moves/s | "
                f"{max(rates['theirs']):,.0f} moves/s | {statistics.median(ratios):.1f}× "
                f"({min(ratios):.1f}–{max(ratios):.1f}) |"
            )
            print(line, flush=True)
            lines.append(line)
    table = "\n".join(lines)
    print(table)
    if args.record:
        dirty = " (uncommitted changes)" if uncommitted_changes() else ""
        append_results(
            f"\n### shatranj.variant against python-chess's chess.variant ({utc_stamp()}, "
            f"{git_commit(True)}{dirty}, build {shatranj._core.BUILD_PROFILE}, chess {chess.__version__})\n\n"
            f"`.venv/bin/python benchmarks/variants.py --repeat {args.repeat} "
            f"--min-time {args.min_time} --record` (loaded machine)\n\n{table}\n"
        )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Syzygy probes from Python: ``shatranj.syzygy`` beside python-chess's ``chess.syzygy``,
per probe, on the same 2,000 random 3-4-man positions (``rust/syzygy/tests/data/
pychess_seed1.txt``: every table, both sides to move, one in twenty with an en-passant
square) and the same tables (``data/syzygy/regular``), one thread, warm tables.

Each round times, in turn, a sweep of ``probe_wdl`` and of ``probe_dtz`` over the boards
with each library (a Python loop calling the method: what a script pays per probe), and the
batch ``probe_wdl_many``/``probe_dtz_many`` over the same positions as boards (all cores,
GIL released). The table gives medians over the rounds and the paired ratio per round; the
issue's targets are WDL >= 50x and DTZ >= 20x per probe.

    python3 benchmarks/syzygy_python.py                  # 5 rounds
    python3 benchmarks/syzygy_python.py --rounds 7 --record

Needs the package built with ``maturin develop --release`` (the script says which profile
it measured) and python-chess (the repository's .venv has it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from common import RESULTS_MD, ROOT, append_results, cpu_model, git_commit, load_average, utc_stamp

TABLES = ROOT / "data" / "syzygy" / "regular"
POSITIONS = ROOT / "rust" / "syzygy" / "tests" / "data" / "pychess_seed1.txt"


def sweep(probe: Callable[[Any], int], boards: Sequence[Any], min_time: float) -> float:
    """Probes per second: whole sweeps over ``boards`` lasting at least ``min_time``."""
    done = 0
    start = time.perf_counter()
    while True:
        for b in boards:
            probe(b)
        done += len(boards)
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return done / elapsed


def batch(probe: Callable[[Any], Any], boards: Sequence[Any], min_time: float) -> float:
    done = 0
    start = time.perf_counter()
    while True:
        probe(boards)
        done += len(boards)
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return done / elapsed


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0, help="minimum time of each measure")
    ap.add_argument("--record", action="store_true", help=f"append the table to {RESULTS_MD}")
    args = ap.parse_args()

    import chess
    import chess.syzygy

    import shatranj
    import shatranj.syzygy

    fens = [
        line.split(";")[0]
        for line in POSITIONS.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    theirs_boards = [chess.Board(f) for f in fens]
    ours_boards = [shatranj.Board(f) for f in fens]
    theirs = chess.syzygy.open_tablebase(str(TABLES))
    ours = shatranj.syzygy.open_tablebase(TABLES)
    # Warm: every table opened, every answer checked equal once.
    for a, b in zip(ours_boards, theirs_boards):
        if (ours.probe_wdl(a), ours.probe_dtz(a)) != (theirs.probe_wdl(b), theirs.probe_dtz(b)):
            sys.exit(f"answers differ on {a.fen()}")

    keys = ["ours_wdl", "theirs_wdl", "ours_dtz", "theirs_dtz", "batch_wdl", "batch_dtz"]
    runs: dict[str, Callable[[], float]] = {
        "ours_wdl": lambda: sweep(ours.probe_wdl, ours_boards, args.seconds),
        "theirs_wdl": lambda: sweep(theirs.probe_wdl, theirs_boards, args.seconds),
        "ours_dtz": lambda: sweep(ours.probe_dtz, ours_boards, args.seconds),
        "theirs_dtz": lambda: sweep(theirs.probe_dtz, theirs_boards, args.seconds),
        "batch_wdl": lambda: batch(ours.probe_wdl_many, ours_boards, args.seconds),
        "batch_dtz": lambda: batch(ours.probe_dtz_many, ours_boards, args.seconds),
    }
    results: dict[str, list[float]] = {k: [] for k in keys}
    for r in range(args.rounds):
        for k in keys:
            results[k].append(runs[k]())
        print(
            f"round {r + 1}: WDL {results['ours_wdl'][-1]:,.0f}/s vs {results['theirs_wdl'][-1]:,.0f}/s, "
            f"DTZ {results['ours_dtz'][-1]:,.0f}/s vs {results['theirs_dtz'][-1]:,.0f}/s, "
            f"batch WDL {results['batch_wdl'][-1]:,.0f}/s DTZ {results['batch_dtz'][-1]:,.0f}/s",
            flush=True,
        )

    def med(k: str) -> float:
        return statistics.median(results[k])

    def ratio(a: str, b: str) -> float:
        return statistics.median(x / y for x, y in zip(results[a], results[b]))

    def us(k: str) -> float:
        return 1e6 / med(k)

    lines = [
        "| prober, from Python | WDL probes/s | µs per WDL probe | DTZ probes/s | µs per DTZ probe |",
        "|---|---:|---:|---:|---:|",
        f"| `shatranj.syzygy` `probe_wdl`/`probe_dtz`, one board a call | {med('ours_wdl'):,.0f} | {us('ours_wdl'):.2f} | "
        f"{med('ours_dtz'):,.0f} | {us('ours_dtz'):.2f} |",
        f"| python-chess {chess.__version__} `chess.syzygy` | {med('theirs_wdl'):,.0f} | {us('theirs_wdl'):.1f} | "
        f"{med('theirs_dtz'):,.0f} | {us('theirs_dtz'):.1f} |",
        f"| ratio per probe (paired, median over rounds; targets 50× / 20×) | {ratio('ours_wdl', 'theirs_wdl'):.0f}× | | "
        f"{ratio('ours_dtz', 'theirs_dtz'):.0f}× | |",
        f"| `probe_wdl_many`/`probe_dtz_many` on {len(fens):,} boards ({os.cpu_count()} cores, GIL released) | "
        f"{med('batch_wdl'):,.0f} | {us('batch_wdl'):.2f} | {med('batch_dtz'):,.0f} | {us('batch_dtz'):.2f} |",
    ]
    text = "\n".join(lines)
    print("\n" + text)
    if args.record:
        load = load_average()
        path = append_results(
            f"\n## {utc_stamp()} — Syzygy probes from Python (`benchmarks/syzygy_python.py`)\n\n"
            f"- command: `python3 benchmarks/syzygy_python.py {' '.join(sys.argv[1:])}`\n"
            f"- commit: `{git_commit()}` (extension `{shatranj._core.BUILD_PROFILE}` build); CPU: "
            f"{cpu_model()}; load average {'unknown' if load is None else f'{load:.2f}'}\n"
            f"- positions: the 2,000 of `rust/syzygy/tests/data/pychess_seed1.txt`, tables "
            f"`data/syzygy/regular`, warm; {args.rounds} interleaved rounds of "
            f"{args.seconds:g} s per measure\n\n" + text + "\n"
        )
        print(f"appended to {path}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Paired time to depth of two or more builds of the engine, for a change to the search.

Time-to-depth ratios of two-thread searches spread widely from run to run (see
`search.py`), so a change worth a few percent is lost between two separate runs of
`search.py`. Here every position is searched by each build in turn, in the same sitting, and
the builds are compared position by position: the geometric mean of the per-position speed
ratios, with a 95% interval, and the total nodes. With `--one-thread BIN`, each position is
first searched by that build with one thread, and each build's two-thread ratio against it is
printed as well.

Standard library only; the positions are those of `search.py` (bench positions, then
openings).

    cargo build --release -p shatranj-cli && cp target/release/shatranj /tmp/base
    # ... change the search, build again ...
    python3 benchmarks/ttd_compare.py --depth 21 --positions 60 /tmp/base target/release/shatranj
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search import UciEngine, bench_positions, geomean_interval, opening_positions, time_to_depth  # noqa: E402


def ratio_line(label: str, slower: list[float], faster: list[float]) -> str:
    """`label`: geometric mean of slower/faster per position, its interval, and the wins."""
    ratios = [s / f for s, f in zip(slower, faster)]
    g, lo, hi = geomean_interval(ratios)
    wins = sum(r > 1 for r in ratios)
    return f"{label}: {g:.3f}× (95% interval {lo:.3f}–{hi:.3f}), ahead on {wins}/{len(ratios)}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("builds", nargs="+", help="engine binaries; the first is the baseline")
    ap.add_argument("--depth", type=int, default=21)
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--skip", type=int, default=0, help="start after this many positions")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--hash", type=int, default=64, help="MB, cleared before every search")
    ap.add_argument("--one-thread", metavar="BIN", help="also search with one thread first")
    args = ap.parse_args()
    positions = (bench_positions() + opening_positions())[args.skip :][: args.positions]
    if not positions:
        ap.error("no positions left after --skip")

    options = {"Threads": args.threads, "Hash": args.hash}
    engines = [UciEngine([b], options) for b in args.builds]
    one = (
        UciEngine([args.one_thread], {"Threads": 1, "Hash": args.hash}) if args.one_thread else None
    )
    times: list[list[float]] = [[] for _ in engines]
    nodes = [0 for _ in engines]
    one_times: list[float] = []
    print(
        f"time to depth {args.depth}, {len(positions)} positions from {args.skip + 1}, "
        f"{args.threads} threads, hash {args.hash} MB",
        flush=True,
    )
    try:
        for i, fen in enumerate(positions):
            row = [f"{args.skip + i + 1:4d}"]
            if one:
                t, _, _ = time_to_depth(one, fen, args.depth)
                one_times.append(t)
                row.append(f"1 thread {t:6.2f} s |")
            for k, engine in enumerate(engines):
                t, n, _ = time_to_depth(engine, fen, args.depth)
                times[k].append(t)
                nodes[k] += n
                row.append(f"{t:6.2f} s")
            print(" ".join(row), flush=True)
    finally:
        for engine in engines + ([one] if one else []):
            engine.quit()

    for k, build in enumerate(args.builds):
        print(f"{build}: total {sum(times[k]):.1f} s, {nodes[k] / 1e6:.1f} M nodes")
        if one:
            print("  " + ratio_line(f"{args.threads} threads vs 1", one_times, times[k]))
        if k:
            print("  " + ratio_line(f"speed vs {args.builds[0]}", times[0], times[k]))
            print(
                f"  median speed ratio "
                f"{statistics.median(a / b for a, b in zip(times[0], times[k])):.3f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

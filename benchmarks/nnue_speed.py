#!/usr/bin/env python3
"""The network's cost against the classical evaluation, side by side in one run.

Runs `shatranj bench --eval-speed` for each evaluation, alternating them for --rounds rounds
(the machine's noise hits both alike), and reports for each: the bench signature (nodes),
nodes/s (median and range over the rounds), and the ns of one static evaluation from scratch
and incrementally (as the search computes it: the parent's accumulators updated by the move).
The classical evaluation is the anchor; the table gives each network's ratio to it.

Standard library only.

    python3 benchmarks/nnue_speed.py                           # classical vs the built-in net
    python3 benchmarks/nnue_speed.py --eval-file nets/x.nnue   # ... vs a network file
    python3 benchmarks/nnue_speed.py --rounds 5 --record       # append to benchmarks/RESULTS.md
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

from common import RESULTS_MD, ROOT, append_results, git_commit, utc_stamp

REPO = ROOT


def run(binary: Path, evaluation: str, depth: int) -> dict[str, float]:
    out = subprocess.run(
        [str(binary), "bench", str(depth), "--eval-file", evaluation, "--eval-speed"],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        sys.exit(f"bench --eval-file {evaluation} failed: {out.stderr.strip()}")
    values: dict[str, float] = {}
    for key, pattern in [
        ("nodes", r"Nodes searched: (\d+)"),
        ("nps", r"Nodes/second: (\d+)"),
        ("scratch_ns", r"Evaluation ns \(from scratch\): ([\d.]+)"),
        ("incremental_ns", r"Evaluation ns \(incremental\): ([\d.]+)"),
    ]:
        m = re.search(pattern, out.stdout)
        if not m:
            sys.exit(f"bench output lacks {key}: {out.stdout}")
        values[key] = float(m.group(1))
    described = re.search(r"evaluation: (.*)", out.stderr)
    values["describe"] = described.group(1) if described else evaluation  # type: ignore[assignment]
    return values


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--binary", type=Path, default=REPO / "target" / "release" / "shatranj")
    ap.add_argument("--eval-file", action="append", help="a network to measure (default <default>)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--depth", type=int, default=11, help="bench depth (default 11)")
    ap.add_argument("--record", action="store_true", help=f"append the table to {RESULTS_MD}")
    args = ap.parse_args()
    if not args.binary.exists():
        subprocess.run(["cargo", "build", "--release", "-p", "shatranj-cli"], cwd=REPO, check=True)
    evaluations = ["classical"] + (args.eval_file or ["<default>"])
    runs: dict[str, list[dict[str, float]]] = {e: [] for e in evaluations}
    for r in range(args.rounds):
        for e in evaluations:
            runs[e].append(run(args.binary, e, args.depth))
            print(f"round {r + 1}: {e}: {runs[e][-1]['nps']:.0f} nodes/s", flush=True)

    base = statistics.median(x["nps"] for x in runs["classical"])
    lines = [
        "| evaluation | bench nodes | nodes/s (median, range) | vs classical | ns/eval scratch | ns/eval incremental |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for e in evaluations:
        xs = runs[e]
        nps = [x["nps"] for x in xs]
        med = statistics.median(nps)
        lines.append(
            f"| {e} ({xs[0]['describe']}) | {int(xs[0]['nodes']):,} | {med / 1e6:.2f} M "
            f"({min(nps) / 1e6:.2f}–{max(nps) / 1e6:.2f}) | {med / base:.2f}× | "
            f"{statistics.median(x['scratch_ns'] for x in xs):.0f} | "
            f"{statistics.median(x['incremental_ns'] for x in xs):.0f} |"
        )
    text = "\n".join(lines)
    print("\n" + text)
    if args.record:
        stamp = utc_stamp()
        path = append_results(
            f"\n## {stamp} — network vs classical evaluation speed (`benchmarks/nnue_speed.py`)\n\n"
            f"- command: `python3 benchmarks/nnue_speed.py {' '.join(sys.argv[1:])}`\n"
            f"- commit: `{git_commit()}`; load average {os.getloadavg()[0]:.2f}; bench depth {args.depth}, one thread\n\n"
            + text
            + "\n"
        )
        print(f"appended to {path}")


if __name__ == "__main__":
    main()

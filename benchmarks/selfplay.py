#!/usr/bin/env python3
"""Self-play throughput: games/s and evaluations/s with static evaluations inline on the CPU
against the same games routed through the batching service, at a few concurrencies; and the
search speed of the two routes (one search, lazy-SMP threads, concurrent searches).

The games are identical in both routes (same seed, same settings: the service changes only
where evaluations are computed), so the ratio is a pure cost of the route. ``--device gpu``
adds the rows of the GPU back end once it is built in.

    python3 benchmarks/selfplay.py                 # print the tables
    python3 benchmarks/selfplay.py --record        # ... and append them to benchmarks/RESULTS.md
    python3 benchmarks/selfplay.py --quick         # small run (seconds)
    python3 benchmarks/selfplay.py --device gpu    # add the GPU rows
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

from common import ROOT, append_results, git_commit, utc_stamp

REPO = ROOT
BIN = REPO / "target" / "release" / "shatranj"
ROUTE_BENCH = REPO / "target" / "release" / "examples" / "route_bench"


def build() -> None:
    env = dict(os.environ)
    env.pop("RUSTFLAGS", None)
    for args in (["-p", "shatranj-cli"], ["-p", "shatranj-engine", "--example", "route_bench"]):
        subprocess.run(["cargo", "build", "--release", *args], cwd=REPO, check=True, env=env)


def selfplay(
    args: argparse.Namespace, concurrency: int, device: str, batched: bool
) -> dict[str, float]:
    cmd = [
        str(BIN), "selfplay", "--games", str(args.games), "--concurrency", str(concurrency),
        "--depth", str(args.depth), "--seed", str(args.seed), "--max-plies", str(args.max_plies),
        "--device", device, "--quiet",
    ]  # fmt: skip
    if batched:
        cmd.append("--batched")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    num = lambda pattern: float(re.search(pattern, out).group(1))  # type: ignore[union-attr]  # noqa: E731
    row = {
        "games/s": num(r"Games/second: ([\d.]+)"),
        "evals": num(r"Evaluations: (\d+)"),
        "evals/s": num(r"Evaluations: \d+ \((\d+)/s\)"),
        "plies": num(r"\((\d+) plies\)"),
        "mean batch": 0.0,
    }
    m = re.search(r"mean size ([\d.]+)", out)
    if m:
        row["mean batch"] = float(m.group(1))
    return row


def route_bench(depth: int, n: int) -> list[dict[str, str]]:
    out = subprocess.run(
        [str(ROUTE_BENCH), str(depth), str(n)], check=True, capture_output=True, text=True
    ).stdout
    rows = []
    for line in out.splitlines():
        rows.append(dict(re.findall(r'(\w+)=("[^"]*"|\S+)', line)))
    return rows


def main() -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--games", type=int, default=16)
    p.add_argument("--depth", type=int, default=5)
    p.add_argument("--max-plies", type=int, default=120)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--concurrency", type=int, nargs="+", default=[1, 2, 4, 8])
    p.add_argument(
        "--device", default="cpu", help="cpu (default), gpu or auto: the batched back end"
    )
    p.add_argument("--search-depth", type=int, default=10)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--record", action="store_true")
    p.add_argument("--no-build", action="store_true")
    args = p.parse_args()
    if args.quick:
        args.games, args.depth, args.max_plies, args.search_depth = 4, 3, 40, 6
        args.concurrency = [1, 4]
    if not args.no_build:
        build()

    lines: list[str] = []
    say = lambda s="": (print(s), lines.append(s))  # noqa: E731
    load = os.getloadavg()
    stamp = utc_stamp()
    commit = git_commit(short=True)
    say(
        f"## {stamp} — self-play and evaluation routes (`python3 benchmarks/selfplay.py {' '.join(sys.argv[1:])}`)"
    )
    say()
    say(f"Commit {commit}, {os.cpu_count()} logical CPUs, load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} at the start. "
        f"{args.games} games per row, depth {args.depth}, max {args.max_plies} plies, seed {args.seed}; the same games in every row.")  # fmt: skip
    say()
    say("| concurrency | route | games/s | evaluations/s | mean batch | batched / inline |")
    say("|---:|---|---:|---:|---:|---:|")
    evals: float | None = None
    for c in args.concurrency:
        inline = selfplay(args, c, "cpu", batched=False)
        batched = selfplay(args, c, args.device, batched=True)
        evals = evals or inline["evals"]
        assert inline["evals"] == batched["evals"], "the routes played different games"
        say(
            f"| {c} | inline cpu | {inline['games/s']:.3f} | {inline['evals/s']:,.0f} | – | 1.00× |"
        )
        say(f"| {c} | batched {args.device} | {batched['games/s']:.3f} | {batched['evals/s']:,.0f} | "
            f"{batched['mean batch']:.2f} | {batched['games/s'] / inline['games/s']:.2f}× |")  # fmt: skip
    say()
    n = max(args.concurrency) if not args.quick else 2
    n = min(n, os.cpu_count() or 2)
    say(
        f"Search through each route (6 bench positions, depth {args.search_depth}, N = {n}; CPU back end behind the service):"
    )
    say()
    say("| case | route | nodes | nodes/s | mean batch |")
    say("|---|---|---:|---:|---:|")
    for row in route_bench(args.search_depth, n):
        say(
            f"| {row['case'].strip(chr(34))} | {row['route']} | {int(row['nodes']):,} | {float(row['nps']):,.0f} | {row['mean_batch']} |"
        )
    say()
    if args.record:
        path = append_results("\n" + "\n".join(lines) + "\n")
        print(f"appended to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

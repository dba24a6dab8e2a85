#!/usr/bin/env python3
"""Syzygy probe speed: shatranj-syzygy (Rust) beside python-chess's ``chess.syzygy``, on the
same 2,000 random 3-4-man positions (``rust/syzygy/tests/data/pychess_seed1.txt``: every
table, both sides to move, one in twenty with an en-passant square) and the same tables
(``data/syzygy/regular``), one thread each.

Rounds alternate the two (the Rust example ``syzygy_bench``, then python-chess's WDL and DTZ
sweeps) so that the machine's load hits both alike; the table gives medians over the rounds
and the paired ratio. Tables are warm: each side makes one untimed sweep first. The Rust
example also gives the time of a single warm probe (median, p90, p99).

    python3 benchmarks/syzygy.py                    # 3 rounds
    python3 benchmarks/syzygy.py --rounds 5 --record

Needs python-chess (the repository's .venv has it) and cargo.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time

from common import RESULTS_MD, ROOT, append_results, cpu_model, git_commit, load_average, utc_stamp

TABLES = ROOT / "data" / "syzygy" / "regular"
POSITIONS = ROOT / "rust" / "syzygy" / "tests" / "data" / "pychess_seed1.txt"


def rust_round(seconds: float) -> dict[str, float]:
    out = subprocess.run(
        [
            "cargo",
            "run",
            "--release",
            "-q",
            "-p",
            "shatranj-syzygy",
            "--example",
            "syzygy_bench",
            "--",
            "--seconds",
            str(seconds),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        sys.exit(f"syzygy_bench failed: {out.stderr.strip()}")
    values: dict[str, float] = {}
    for key, pattern in [
        ("wdl", r"wdl_per_s: (\d+)"),
        ("dtz", r"dtz_per_s: (\d+)"),
        ("wdl_median", r"wdl_us: median ([\d.]+)"),
        ("wdl_p90", r"wdl_us: median [\d.]+ p90 ([\d.]+)"),
        ("wdl_p99", r"wdl_us: .* p99 ([\d.]+)"),
        ("dtz_median", r"dtz_us: median ([\d.]+)"),
        ("dtz_p90", r"dtz_us: median [\d.]+ p90 ([\d.]+)"),
        ("dtz_p99", r"dtz_us: .* p99 ([\d.]+)"),
    ]:
        m = re.search(pattern, out.stdout)
        if not m:
            sys.exit(f"syzygy_bench output lacks {key}: {out.stdout}")
        values[key] = float(m.group(1))
    return values


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument(
        "--seconds", type=float, default=1.0, help="the Rust example's time per measure"
    )
    ap.add_argument("--record", action="store_true", help=f"append the table to {RESULTS_MD}")
    args = ap.parse_args()

    import chess
    import chess.syzygy

    boards = [
        chess.Board(line.split(";")[0])
        for line in POSITIONS.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "shatranj-syzygy", "--example", "syzygy_bench"],
        cwd=ROOT,
        check=True,
    )
    tb = chess.syzygy.open_tablebase(str(TABLES))
    for b in boards:  # warm: open every table
        tb.probe_wdl(b)
        tb.probe_dtz(b)

    def sweep(probe) -> float:
        start = time.perf_counter()
        for b in boards:
            probe(b)
        return len(boards) / (time.perf_counter() - start)

    ours: list[dict[str, float]] = []
    theirs: list[dict[str, float]] = []
    for r in range(args.rounds):
        ours.append(rust_round(args.seconds))
        theirs.append({"wdl": sweep(tb.probe_wdl), "dtz": sweep(tb.probe_dtz)})
        print(
            f"round {r + 1}: shatranj {ours[-1]['wdl']:,.0f} WDL/s {ours[-1]['dtz']:,.0f} DTZ/s; "
            f"python-chess {theirs[-1]['wdl']:,.0f} WDL/s {theirs[-1]['dtz']:,.0f} DTZ/s",
            flush=True,
        )
    tb.close()

    def med(xs: list[dict[str, float]], key: str) -> float:
        return statistics.median(x[key] for x in xs)

    def ratio(key: str) -> float:
        return statistics.median(a[key] / b[key] for a, b in zip(ours, theirs))

    lines = [
        "| prober | WDL probes/s | DTZ probes/s | one warm WDL probe, µs (median / p90 / p99) | one warm DTZ probe, µs (median / p90 / p99) |",
        "|---|---:|---:|---:|---:|",
        f"| shatranj-syzygy (Rust, `syzygy_bench`) | {med(ours, 'wdl'):,.0f} | {med(ours, 'dtz'):,.0f} | "
        f"{med(ours, 'wdl_median'):.2f} / {med(ours, 'wdl_p90'):.2f} / {med(ours, 'wdl_p99'):.2f} | "
        f"{med(ours, 'dtz_median'):.2f} / {med(ours, 'dtz_p90'):.2f} / {med(ours, 'dtz_p99'):.2f} |",
        f"| python-chess {chess.__version__} `chess.syzygy` | {med(theirs, 'wdl'):,.0f} | {med(theirs, 'dtz'):,.0f} | | |",
        f"| ratio (paired, median over rounds) | {ratio('wdl'):.0f}× | {ratio('dtz'):.0f}× | | |",
    ]
    text = "\n".join(lines)
    print("\n" + text)
    if args.record:
        load = load_average()
        path = append_results(
            f"\n## {utc_stamp()} — Syzygy probe speed (`benchmarks/syzygy.py`)\n\n"
            f"- command: `python3 benchmarks/syzygy.py {' '.join(sys.argv[1:])}`\n"
            f"- commit: `{git_commit()}` (`release` profile); CPU: {cpu_model()}; load average "
            f"{'unknown' if load is None else f'{load:.2f}'}\n"
            f"- positions: the 2,000 of `rust/syzygy/tests/data/pychess_seed1.txt`, tables "
            f"`data/syzygy/regular`, warm, one thread; {args.rounds} interleaved rounds\n\n"
            + text
            + "\n"
        )
        print(f"appended to {path}")


if __name__ == "__main__":
    main()

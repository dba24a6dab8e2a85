#!/usr/bin/env python3
"""How long a GUI waits for ``readyok`` after setting a large Hash, against Stockfish.

A GUI sets ``Hash``, starts a game with ``ucinewgame`` and sends ``isready``; until
``readyok`` it waits (issue 53: 26-27 s for shatranj's 12 GB maximum, 10 s for Stockfish).
For each size (MB) and each engine, one fresh process per round (so every round starts from
the default table), timed from the first command written to ``readyok`` read:

  set      ``setoption name Hash value N``, ``ucinewgame``, ``isready``
  cleared  after ``go depth D`` on a middlegame (the table used): ``ucinewgame``, ``isready``

with the process's resident memory (VmRSS) after each. Rounds are interleaved (shatranj,
Stockfish, shatranj, ...) so load drifting on a shared machine hits both alike; the table
gives the median and the range over the rounds. Each engine touches up to N MB when it
clears a used table (Stockfish also when it sets one), one process at a time: pick sizes the
machine has room for (``free -g``). Standard library only.

    python3 benchmarks/hash_ready.py --sizes 1024 4096            # print the table
    python3 benchmarks/hash_ready.py --sizes 1024 4096 --record   # ... and append it to RESULTS.md
    python3 benchmarks/hash_ready.py --engine before=/tmp/shatranj-old  # another build beside them
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

from search import POSITIONS, UciEngine

from common import ROOT, append_results, cpu_model, git_commit, interleaved, load_average, utc_stamp


def default_shatranj() -> str:
    for profile in ("ci", "release"):
        path = ROOT / "target" / profile / "shatranj"
        if path.exists():
            return str(path)
    sys.exit(
        "no target/ci/shatranj or target/release/shatranj: cargo build --profile ci -p shatranj-cli"
    )


def resident_mb(engine: UciEngine) -> int:
    """The engine process's resident memory in MB (Linux; 0 elsewhere)."""
    try:
        for line in Path(f"/proc/{engine.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 0


def one_round(path: str, mb: int, depth: int, record: dict[str, list[float]]) -> float:
    """One fresh process of the engine at ``path``: the set and cleared timings (seconds) and
    the resident memory after each, appended to ``record``; returns the set timing."""
    engine = UciEngine([path], {"Threads": 1})
    try:
        t0 = engine.send(f"setoption name Hash value {mb}")
        engine.send("ucinewgame")
        engine.send("isready")
        t1, _, said = engine.wait_for("readyok", timeout=600)
        refused = [line for line in said if "Hash" in line]
        if refused:
            raise RuntimeError(f"{path}: Hash {mb}: {refused[0]}")
        record["set"].append(t1 - t0)
        record["set_rss"].append(resident_mb(engine))
        engine.send(f"position fen {POSITIONS[0]}")
        engine.send(f"go depth {depth}")
        engine.wait_for("bestmove", timeout=600)
        t0 = engine.send("ucinewgame")
        engine.send("isready")
        t1, _, _ = engine.wait_for("readyok", timeout=600)
        record["cleared"].append(t1 - t0)
        record["cleared_rss"].append(resident_mb(engine))
    finally:
        engine.quit()
    return record["set"][-1]


def spread(values: list[float], scale: float = 1.0, digits: int = 0) -> str:
    """The median and the range, e.g. ``75 (60-91)``."""
    fmt = f"{{:.{digits}f}}"
    med = fmt.format(statistics.median(values) * scale)
    return f"{med} ({fmt.format(min(values) * scale)}–{fmt.format(max(values) * scale)})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096], help="Hash sizes, MB")
    ap.add_argument("--rounds", type=int, default=3, help="fresh processes per engine and size")
    ap.add_argument("--depth", type=int, default=10, help="the search that uses the table")
    ap.add_argument("--shatranj", default=None, help="the shatranj binary (default target/ci)")
    ap.add_argument(
        "--engine",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="another engine to time beside them (repeatable), e.g. an older build",
    )
    ap.add_argument("--no-stockfish", action="store_true", help="leave out the anchor")
    ap.add_argument("--record", action="store_true", help="append the table to RESULTS.md")
    ap.add_argument("--note", default="", help="a note recorded with the table")
    args = ap.parse_args()

    engines = {"shatranj": args.shatranj or default_shatranj()}
    for spec in args.engine:
        name, _, path = spec.partition("=")
        engines[name] = path
    if not args.no_stockfish:
        sf = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
        if sf is None:
            sys.exit(
                "stockfish not found (Debian: apt-get install stockfish; it lands in /usr/games)"
            )
        engines["stockfish"] = sf

    rows = []
    for mb in args.sizes:
        records = {
            name: {k: [] for k in ("set", "set_rss", "cleared", "cleared_rss")} for name in engines
        }
        runs: dict[str, Callable[[], float]] = {
            name: (lambda p=path, r=records[name]: one_round(p, mb, args.depth, r))
            for name, path in engines.items()
        }
        interleaved(args.rounds, runs)
        for name, r in records.items():
            rows.append(
                f"| {mb:,} | {name} | {spread(r['set'], 1000)} | {max(r['set_rss']):,} "
                f"| {spread(r['cleared'], 1000)} | {max(r['cleared_rss']):,} |"
            )
            print(rows[-1], flush=True)

    load = load_average()
    head = (
        "| Hash MB | engine | set → readyok, ms | RSS after, MB | used, cleared → readyok, ms "
        "| RSS after, MB |\n|---:|---|---:|---:|---:|---:|"
    )
    command = "python3 benchmarks/hash_ready.py " + " ".join(sys.argv[1:])
    text = (
        f"\n## {utc_stamp()} — readyok after a large Hash (`benchmarks/hash_ready.py`)\n\n"
        f"Commit {git_commit(short=True)}; {cpu_model()}, load average "
        f"{load if load is not None else 'unknown'} at the end (a shared machine: wall-clock "
        f"figures swing ±30 %). Median (range) of {args.rounds} fresh processes per engine and "
        f"size, interleaved; Threads 1; the table used by `go depth {args.depth}`. Engines: "
        + ", ".join(f"{n} = `{p}`" for n, p in engines.items())
        + (f". {args.note}" if args.note else "")
        + f"\n\n    {command}\n\n{head}\n"
        + "\n".join(rows)
        + "\n"
    )
    print(text)
    if args.record:
        print(f"appended to {append_results(text)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

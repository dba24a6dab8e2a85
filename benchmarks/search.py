#!/usr/bin/env python3
"""Search benchmark: shatranj's speed, thread scaling and stop latency, over UCI.

One run measures, on the same machine and in the same sitting:

* nodes/s of shatranj with Threads = 1 and Threads = 2 (fixed move time on each bench
  position), with Debian's Stockfish at Threads = 1 as the anchor;
* time to depth with Threads = 2 against Threads = 1 over 30 positions (`--positions`, up to
  164; cleared hash before every search; median and geometric mean of the per-position
  ratios with a 95% interval for the geometric mean, ratio of total times, and the nodes the
  2-thread searches needed against 1 thread; target >= 1.7x), with Stockfish's own
  2-thread/1-thread time to depth on the same positions in the same run as the anchor; the
  same ratios at the six depths before the target, read from when each search first
  reported them;
* `stop` latency: `go infinite`, then `stop`, and the time until `bestmove` is read back
  (target: under 10 ms).

Standard library only.

    python3 benchmarks/search.py            # full run (about five minutes), print the tables
    python3 benchmarks/search.py --record   # ... and append them to benchmarks/RESULTS.md
    python3 benchmarks/search.py --quick    # smoke run (a few seconds)
    python3 benchmarks/search.py --depth 20 --positions 90   # longer, steadier time to depth
    python3 benchmarks/search.py --depth 22 --positions 60   # ... and the depths 16-22 on the way
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
from queue import Empty, Queue

from common import ROOT, append_results, cpu_model, utc_stamp

REPO = ROOT
SHATRANJ = REPO / "target" / "release" / "shatranj"


def bench_positions() -> list[str]:
    """The FENs of `BENCH_POSITIONS` in rust/engine/src/bench.rs (one string per line)."""
    text = (REPO / "rust" / "engine" / "src" / "bench.rs").read_text()
    block = text[text.index("BENCH_POSITIONS") :]
    block = block[: block.index("];")]
    return re.findall(r'^\s*"([^"]+)",', block, flags=re.M)


# Six middlegame positions of the bench set, for nodes/s and stop latency.
POSITIONS = [bench_positions()[i] for i in (0, 1, 3, 6, 8, 10)]


def opening_positions() -> list[str]:
    """The positions at the end of the 150 lines of openings/balanced-8ply.txt (written by
    `make_openings.py --fens`, as this script runs on the standard library alone)."""
    text = (REPO / "benchmarks" / "openings" / "balanced-8ply.fen").read_text()
    return [line.strip() for line in text.splitlines() if line.strip()]


# Time to depth: the bench positions, then openings. Two-thread searches are not reproducible
# (which thread finds what first varies), so single ratios spread from about 0.6x to 3x (the
# log ratios have a standard deviation near 0.37): with 30 positions one run's geometric mean
# is known to about +-13% (the printed 95% interval), identical runs differ by up to 0.4 in
# the median, and a difference between two engines needs many runs or many more positions.


class UciEngine:
    """A UCI engine in a subprocess, read on a thread so reads can time out."""

    def __init__(self, argv: list[str], options: dict) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines: Queue = Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.wait_for("uciok")
        for k, v in options.items():
            self.send(f"setoption name {k} value {v}")
        self.ready()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put((time.perf_counter(), line.rstrip("\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, line: str) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return time.perf_counter()

    def wait_for(self, prefix: str, timeout: float = 120.0):
        """Returns (arrival time, line, earlier lines) of the first line starting with prefix."""
        t, line, seen = self.wait_for_timed(prefix, timeout)
        return t, line, [text for _, text in seen]

    def wait_for_timed(
        self, prefix: str, timeout: float = 120.0
    ) -> tuple[float, str, list[tuple[float, str]]]:
        """Like `wait_for`, with the earlier lines as (arrival time, line) pairs."""
        seen: list[tuple[float, str]] = []
        deadline = time.perf_counter() + timeout
        while True:
            try:
                t, line = self.lines.get(timeout=max(0.0, deadline - time.perf_counter()))
            except Empty:
                raise RuntimeError(f"no '{prefix}' within {timeout} s") from None
            if line is None:
                raise RuntimeError(f"engine exited while waiting for '{prefix}'")
            if line.startswith(prefix):
                return t, line, seen
            seen.append((t, line))

    def ready(self) -> None:
        self.send("isready")
        self.wait_for("readyok")

    def quit(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def last_info(lines: list[str], key: str) -> int | None:
    for line in reversed(lines):
        words = line.split()
        if line.startswith("info") and key in words:
            return int(words[words.index(key) + 1])
    return None


def nps_run(engine: UciEngine, movetime_ms: int) -> float:
    nodes = 0
    seconds = 0.0
    for fen in POSITIONS:
        engine.send("ucinewgame")
        engine.ready()
        engine.send(f"position fen {fen}")
        t0 = engine.send(f"go movetime {movetime_ms}")
        t1, _, seen = engine.wait_for("bestmove")
        n = last_info(seen, "nodes")
        if n is None:
            raise RuntimeError("no nodes in info lines")
        nodes += n
        seconds += t1 - t0
    return nodes / seconds


def completed_depth(line: str) -> int | None:
    """The depth of an `info` line that reports a completed iteration (a line with a pv that
    is not an aspiration bound), else None."""
    words = line.split()
    if (
        not line.startswith("info")
        or "depth" not in words
        or "pv" not in words
        or "lowerbound" in words
        or "upperbound" in words
    ):
        return None
    if "multipv" in words and words[words.index("multipv") + 1] != "1":
        return None
    return int(words[words.index("depth") + 1])


def time_to_depth(engine: UciEngine, fen: str, depth: int) -> tuple[float, int, dict[int, float]]:
    """Seconds and nodes of a search to `depth` from a cleared table, and for every depth up
    to it, the seconds until the search first reported a completed iteration at least that
    deep (`depth` itself: the time to `bestmove`)."""
    engine.send("ucinewgame")
    engine.ready()
    engine.send(f"position fen {fen}")
    t0 = engine.send(f"go depth {depth}")
    t1, _, seen = engine.wait_for_timed("bestmove", timeout=600)
    nodes = last_info([line for _, line in seen], "nodes")
    if nodes is None:
        raise RuntimeError("no nodes in info lines")
    reached: dict[int, float] = {depth: t1 - t0}
    for t, line in seen:
        d = completed_depth(line)
        for k in range(1, min(d or 0, depth - 1) + 1):
            reached.setdefault(k, t - t0)
    for k in range(1, depth):
        reached.setdefault(k, t1 - t0)
    return t1 - t0, nodes, reached


def geomean_interval(ratios: list[float]) -> tuple[float, float, float]:
    """Geometric mean of the ratios and a 95% interval (normal approximation of the mean log
    ratio; wide, and only indicative, with few positions)."""
    logs = [math.log(x) for x in ratios]
    mean = statistics.mean(logs)
    half = 1.96 * statistics.stdev(logs) / math.sqrt(len(logs)) if len(logs) > 1 else 0.0
    return math.exp(mean), math.exp(mean - half), math.exp(mean + half)


class TimeToDepth:
    """Paired one- and two-thread searches of one engine to a depth: per-position ratios and
    totals, and the same ratios at the shallower depths the searches passed on the way."""

    def __init__(self, name: str, depth: int) -> None:
        self.name = name
        self.depth = depth
        self.ratios: list[float] = []
        self.by_depth: dict[int, list[float]] = {d: [] for d in range(1, depth + 1)}
        self.times = [0.0, 0.0]
        self.nodes = [0, 0]

    def add(self, one: UciEngine, two: UciEngine, fen: str) -> str:
        """Searches `fen` with both engines; a line for the progress log."""
        t1, n1, at1 = time_to_depth(one, fen, self.depth)
        t2, n2, at2 = time_to_depth(two, fen, self.depth)
        self.ratios.append(t1 / t2)
        for d, ratios in self.by_depth.items():
            # Depths reached within a millisecond are too coarse to time.
            ratios.append(max(at1[d], 1e-3) / max(at2[d], 1e-3))
        self.times = [self.times[0] + t1, self.times[1] + t2]
        self.nodes = [self.nodes[0] + n1, self.nodes[1] + n2]
        return f"{self.name} {t1:6.2f} s / {t2:6.2f} s = {t1 / t2:.2f}x"

    def summary(self) -> str:
        g, lo, hi = geomean_interval(self.ratios)
        t1, t2 = self.times
        n1, n2 = self.nodes
        return (
            f"median ratio **{statistics.median(self.ratios):.2f}×**, geometric mean "
            f"{g:.2f}× (95% interval {lo:.2f}–{hi:.2f}), total time {t1:.1f} s vs {t2:.1f} s "
            f"= {t1 / t2:.2f}×; the 2-thread searches took {n2 / n1:.2f}× the nodes at "
            f"{(n2 / t2) / (n1 / t1):.2f}× the nodes/s"
        )

    def depth_rows(self, shallowest: int) -> list[str]:
        """Markdown rows `| engine | depth | median | geometric mean (interval) |` for the
        depths from `shallowest` to the target."""
        rows = []
        for d in range(max(1, shallowest), self.depth + 1):
            g, lo, hi = geomean_interval(self.by_depth[d])
            rows.append(
                f"| {self.name} | {d} | {statistics.median(self.by_depth[d]):.2f}× | "
                f"{g:.2f}× ({lo:.2f}–{hi:.2f}) |"
            )
        return rows


def stop_latencies(engine: UciEngine, rounds: int, think_s: float) -> list[float]:
    out = []
    for i in range(rounds):
        engine.send(f"position fen {POSITIONS[i % len(POSITIONS)]}")
        engine.send("go infinite")
        time.sleep(think_s)
        t0 = engine.send("stop")
        t1, _, _ = engine.wait_for("bestmove", timeout=10)
        out.append((t1 - t0) * 1000)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record", action="store_true", help="append results to RESULTS.md")
    ap.add_argument("--quick", action="store_true", help="smoke run")
    ap.add_argument("--depth", type=int, help="time-to-depth depth (default 18, quick 9)")
    ap.add_argument("--rounds", type=int, help="time-to-depth rounds (default 1)")
    ap.add_argument(
        "--positions",
        type=int,
        help="time-to-depth positions: the 14 bench positions, then openings "
        "(default 30, at most 164; quick 6)",
    )
    ap.add_argument(
        "--skip",
        type=int,
        default=0,
        help="time-to-depth: leave out this many positions at the front "
        "(to measure on other positions than an earlier run)",
    )
    ap.add_argument(
        "--sf-depth",
        type=int,
        help="Stockfish's time-to-depth depth (default --depth + 2, where its "
        "one-thread searches take about as long as ours)",
    )
    args = ap.parse_args()
    for name in ("depth", "rounds", "positions", "sf_depth"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1")
    all_positions = bench_positions() + opening_positions()
    if args.skip < 0:
        ap.error("--skip must be at least 0")
    n_positions = args.positions or (6 if args.quick else 30)
    if args.skip + n_positions > len(all_positions):
        ap.error(f"--skip plus --positions is at most {len(all_positions)}")

    print("building target/release/shatranj ...", flush=True)
    subprocess.run(["cargo", "build", "--release", "-p", "shatranj-cli"], cwd=REPO, check=True)
    stockfish = shutil.which("stockfish") or (
        "/usr/games/stockfish" if os.path.exists("/usr/games/stockfish") else None
    )

    movetime = 300 if args.quick else 2000
    depth = args.depth or (9 if args.quick else 18)
    rounds = args.rounds or 1
    ttd_positions = all_positions[args.skip :][:n_positions]
    sf_depth = args.sf_depth or depth + 2
    stops = 5 if args.quick else 30

    one = UciEngine([str(SHATRANJ)], {"Threads": 1, "Hash": 64})
    two = UciEngine([str(SHATRANJ)], {"Threads": 2, "Hash": 64})

    print("nodes/s ...", flush=True)
    nps1 = nps_run(one, movetime)
    nps2 = nps_run(two, movetime)
    nps_sf = None
    if stockfish:
        sf = UciEngine([stockfish], {"Threads": 1, "Hash": 64})
        nps_sf = nps_run(sf, movetime)
        sf.quit()

    print("time to depth ...", flush=True)
    ours = TimeToDepth("shatranj", depth)
    anchor = None
    if stockfish:
        anchor = TimeToDepth("stockfish", sf_depth)
        sf1 = UciEngine([stockfish], {"Threads": 1, "Hash": 64})
        sf2 = UciEngine([stockfish], {"Threads": 2, "Hash": 64})
    for r in range(rounds):
        for i, fen in enumerate(ttd_positions):
            line = ours.add(one, two, fen)
            if anchor:
                line += "   " + anchor.add(sf1, sf2, fen)
            print(f"  round {r + 1} position {i + 1:3}: {line}", flush=True)
    if anchor:
        sf1.quit()
        sf2.quit()

    print("stop latency ...", flush=True)
    lat = stop_latencies(one, stops, 0.2)
    lat2 = stop_latencies(two, stops, 0.2)
    one.quit()
    two.quit()

    cpu = cpu_model()
    now = utc_stamp()
    cmd = "python3 benchmarks/search.py" + (" --quick" if args.quick else "")
    cmd += f" --depth {args.depth}" if args.depth else ""
    cmd += f" --rounds {args.rounds}" if args.rounds else ""
    cmd += f" --positions {args.positions}" if args.positions else ""
    cmd += f" --skip {args.skip}" if args.skip else ""
    cmd += f" --sf-depth {args.sf_depth}" if args.sf_depth else ""
    md = []
    md.append(f"## {now} — search (`{cmd}`)\n")
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    md.append(
        f"Machine: {cpu}, {os.cpu_count()} logical CPUs, load average {load} at the end. "
        f"Move time {movetime} ms per position for nodes/s; depth {depth} for time to depth; "
        f"hash 64 MB, cleared before each search.\n"
    )
    md.append("| engine | threads | nodes/s | vs Stockfish 1 thread |")
    md.append("|---|---:|---:|---:|")

    def sf_cell(v):
        return f"{v / nps_sf:.2f}×" if nps_sf else "n/a"

    md.append(f"| shatranj | 1 | {nps1:,.0f} | {sf_cell(nps1)} |")
    md.append(f"| shatranj | 2 | {nps2:,.0f} | {sf_cell(nps2)} |")
    if nps_sf:
        md.append(f"| Stockfish (Debian) | 1 | {nps_sf:,.0f} | 1.00× |")
    md.append("")
    md.append(f"2 threads vs 1, nodes/s: {nps2 / nps1:.2f}×\n")
    md.append(
        f"Time to depth {depth}, 2 threads vs 1 ({rounds} round(s) × {len(ttd_positions)} "
        f"positions): {ours.summary()} (target ≥ 1.7×)\n"
    )
    if anchor:
        md.append(
            f"Anchor, Stockfish (Debian) to depth {sf_depth} on the same positions, 2 "
            f"threads vs 1: {anchor.summary()}\n"
        )
    md.append(
        "Time to each depth on the way (2 threads vs 1): when each search first reported a "
        "completed iteration at least that deep. Below the target depth this is the time "
        "to depth within a deeper search, which is what a search under a clock gets; a "
        "`go depth` search to that depth itself can end sooner (its threads do not work "
        "on deeper iterations).\n"
    )
    md.append("| engine | depth | median | geometric mean (95% interval) |")
    md.append("|---|---:|---:|---:|")
    md.extend(ours.depth_rows(depth - 6))
    if anchor:
        md.extend(anchor.depth_rows(sf_depth - 6))
    md.append("")
    md.append(
        f"`stop` → `bestmove` latency over {stops} searches after 200 ms of `go infinite`: "
        f"1 thread median {statistics.median(lat):.2f} ms, max {max(lat):.2f} ms; "
        f"2 threads median {statistics.median(lat2):.2f} ms, max {max(lat2):.2f} ms "
        f"(target < 10 ms)\n"
    )
    text = "\n".join(md)
    print()
    print(text)
    if args.record:
        path = append_results("\n" + text + "\n")
        print(f"appended to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

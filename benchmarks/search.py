#!/usr/bin/env python3
"""Search benchmark: shatranj's speed, thread scaling and stop latency, over UCI.

One run measures, on the same machine and in the same sitting:

* nodes/s of shatranj with Threads = 1 and Threads = 2 (fixed move time on each bench
  position), with Debian's Stockfish at Threads = 1 as the anchor;
* time to depth with Threads = 2 against Threads = 1 (cleared hash before every search,
  paired rounds, median ratio; target >= 1.7x);
* `stop` latency: `go infinite`, then `stop`, and the time until `bestmove` is read back
  (target: under 10 ms).

Standard library only.

    python3 benchmarks/search.py            # full run (about two minutes), print the tables
    python3 benchmarks/search.py --record   # ... and append them to benchmarks/RESULTS.md
    python3 benchmarks/search.py --quick    # smoke run (a few seconds)
    python3 benchmarks/search.py --depth 20 --rounds 5   # longer, steadier time to depth
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from queue import Empty, Queue
from typing import List, Optional

REPO = Path(__file__).resolve().parent.parent
RESULTS_MD = REPO / "benchmarks" / "RESULTS.md"
SHATRANJ = REPO / "target" / "release" / "shatranj"

# A few middlegame positions from the bench set (rust/engine/src/bench.rs).
POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "2rqkb1r/ppp2p2/2npb1p1/1N1Nn2p/2P1PP2/8/PP2B1PP/R1BQK2R b KQ - 0 11",
]


class UciEngine:
    """A UCI engine in a subprocess, read on a thread so reads can time out."""

    def __init__(self, argv: List[str], options: dict) -> None:
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
        seen: List[str] = []
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
            seen.append(line)

    def ready(self) -> None:
        self.send("isready")
        self.wait_for("readyok")

    def quit(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def last_info(lines: List[str], key: str) -> Optional[int]:
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


def time_to_depth(engine: UciEngine, fen: str, depth: int) -> float:
    engine.send("ucinewgame")
    engine.ready()
    engine.send(f"position fen {fen}")
    t0 = engine.send(f"go depth {depth}")
    t1, _, _ = engine.wait_for("bestmove")
    return t1 - t0


def stop_latencies(engine: UciEngine, rounds: int, think_s: float) -> List[float]:
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
    ap.add_argument("--rounds", type=int, help="time-to-depth rounds (default 3, quick 1)")
    args = ap.parse_args()
    if (args.depth is not None and args.depth < 1) or (args.rounds is not None and args.rounds < 1):
        ap.error("--depth and --rounds must be at least 1")

    print("building target/release/shatranj ...", flush=True)
    subprocess.run(["cargo", "build", "--release", "-p", "shatranj-cli"], cwd=REPO, check=True)
    stockfish = shutil.which("stockfish") or (
        "/usr/games/stockfish" if os.path.exists("/usr/games/stockfish") else None
    )

    movetime = 300 if args.quick else 2000
    depth = args.depth or (9 if args.quick else 18)
    rounds = args.rounds or (1 if args.quick else 3)
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
    ratios = []
    ttd_rows = []
    for r in range(rounds):
        for fen in POSITIONS:
            t1 = time_to_depth(one, fen, depth)
            t2 = time_to_depth(two, fen, depth)
            ratios.append(t1 / t2)
            ttd_rows.append((r + 1, fen, t1, t2))
    total1 = sum(row[2] for row in ttd_rows)
    total2 = sum(row[3] for row in ttd_rows)

    print("stop latency ...", flush=True)
    lat = stop_latencies(one, stops, 0.2)
    lat2 = stop_latencies(two, stops, 0.2)
    one.quit()
    two.quit()

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cmd = "python3 benchmarks/search.py" + (" --quick" if args.quick else "")
    cmd += f" --depth {args.depth}" if args.depth else ""
    cmd += f" --rounds {args.rounds}" if args.rounds else ""
    md = []
    md.append(f"## {now} — search (`{cmd}`)\n")
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    md.append(f"Machine: {cpu}, {os.cpu_count()} logical CPUs, load average {load} at the end. "
              f"Move time {movetime} ms per position for nodes/s; depth {depth} for time to depth; "
              f"hash 64 MB, cleared before each search.\n")
    md.append("| engine | threads | nodes/s | vs Stockfish 1 thread |")
    md.append("|---|---:|---:|---:|")
    sf_cell = lambda v: f"{v / nps_sf:.2f}×" if nps_sf else "n/a"
    md.append(f"| shatranj | 1 | {nps1:,.0f} | {sf_cell(nps1)} |")
    md.append(f"| shatranj | 2 | {nps2:,.0f} | {sf_cell(nps2)} |")
    if nps_sf:
        md.append(f"| Stockfish (Debian) | 1 | {nps_sf:,.0f} | 1.00× |")
    md.append("")
    md.append(f"2 threads vs 1, nodes/s: {nps2 / nps1:.2f}×\n")
    md.append(f"Time to depth {depth}, 2 threads vs 1 ({rounds} rounds × {len(POSITIONS)} positions):"
              f" median ratio **{statistics.median(ratios):.2f}×**, total time "
              f"{total1:.2f} s vs {total2:.2f} s = {total1 / total2:.2f}× (target ≥ 1.7×)\n")
    md.append(f"`stop` → `bestmove` latency over {stops} searches after 200 ms of `go infinite`: "
              f"1 thread median {statistics.median(lat):.2f} ms, max {max(lat):.2f} ms; "
              f"2 threads median {statistics.median(lat2):.2f} ms, max {max(lat2):.2f} ms "
              f"(target < 10 ms)\n")
    text = "\n".join(md)
    print()
    print(text)
    if args.record:
        with open(RESULTS_MD, "a") as f:
            f.write("\n" + text + "\n")
        print(f"appended to {RESULTS_MD}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

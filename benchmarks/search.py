#!/usr/bin/env python3
"""Search benchmark: shatranj's speed, thread scaling and stop latency, over UCI.

One run measures, on the same machine and in the same sitting:

* nodes/s of shatranj with Threads = 1 and Threads = 2 (fixed move time on each bench
  position), with Debian's Stockfish at Threads = 1 as the anchor;
* time to depth with Threads = 2 against Threads = 1 over 30 positions (cleared hash before
  every search; median and geometric mean of the per-position ratios, ratio of total times,
  and the nodes the 2-thread searches needed against 1 thread; target >= 1.7x);
* `stop` latency: `go infinite`, then `stop`, and the time until `bestmove` is read back
  (target: under 10 ms).

Standard library only.

    python3 benchmarks/search.py            # full run (about three minutes), print the tables
    python3 benchmarks/search.py --record   # ... and append them to benchmarks/RESULTS.md
    python3 benchmarks/search.py --quick    # smoke run (a few seconds)
    python3 benchmarks/search.py --depth 20 --rounds 2   # longer, steadier time to depth
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from queue import Empty, Queue
from typing import List, Optional, Tuple

REPO = Path(__file__).resolve().parent.parent
RESULTS_MD = REPO / "benchmarks" / "RESULTS.md"
SHATRANJ = REPO / "target" / "release" / "shatranj"


def bench_positions() -> List[str]:
    """The FENs of `BENCH_POSITIONS` in rust/engine/src/bench.rs (one string per line)."""
    text = (REPO / "rust" / "engine" / "src" / "bench.rs").read_text()
    block = text[text.index("BENCH_POSITIONS"):]
    block = block[: block.index("];")]
    return re.findall(r'^\s*"([^"]+)",', block, flags=re.M)


# Six middlegame positions of the bench set, for nodes/s and stop latency.
POSITIONS = [bench_positions()[i] for i in (0, 1, 3, 6, 8, 10)]


# Time to depth: every bench position, then these 16, the first lines of
# benchmarks/openings/balanced-8ply.txt. Two-thread searches are not reproducible (which
# thread finds what first varies), so single ratios spread from about 0.6x to 3x; 30 distinct
# positions keep the summary within a few percent from run to run.
OPENING_POSITIONS = [
    "rnbqk1nr/pp2bppp/3p4/2p1p3/2P1P3/3P4/PPQ2PPP/RNB1KBNR w KQkq - 1 5",  # c4 e5 Qc2 c5 e4 d6 d3 Be7
    "rnbqkb1r/pp1p1ppp/4pn2/8/3p4/5NP1/PPP1PPBP/RNBQK2R w KQkq - 0 5",  # Nf3 e6 g3 Nf6 d4 c5 Bg2 cxd4
    "rnbqkb1r/pp1p1ppp/2p2n2/8/2P1p3/2N5/PP1PPPPP/R1BQKBNR w KQkq - 0 5",  # c4 Nf6 Nc3 e5 Nf3 e4 Ng1 c6
    "rnbqkbnr/pp1p1ppp/8/4p3/2Pp4/5N2/PP1QPPPP/RNB1KB1R w KQkq - 0 5",  # c4 e6 Nf3 c5 d4 cxd4 Qd2 e5
    "r1bqk1nr/pp1pbppp/2n1p3/2p5/2P5/1P3NP1/P2PPP1P/RNBQKB1R w KQkq - 1 5",  # Nf3 c5 c4 e6 g3 Nc6 b3 Be7
    "rnbqkbnr/p4ppp/1p2p3/2pp4/8/P1P1PN2/1P1P1PPP/RNBQKB1R w KQkq - 0 5",  # Nf3 d5 a3 c5 c3 e6 e3 b6
    "rnbqkb1r/pp2pppp/2p2n2/3p4/3P4/P3PN2/1PP2PPP/RNBQKB1R w KQkq - 0 5",  # d4 Nf6 Nf3 c6 a3 d6 e3 d5
    "rnbqk2r/ppp2ppp/3bpn2/3p4/3P4/4PN1P/PPP2PP1/RNBQKB1R w KQkq - 1 5",  # Nf3 d5 h3 Nf6 e3 e6 d4 Bd6
    "rnbqkbnr/pp3ppp/4p3/2p5/2Pp4/5NP1/PP1PPPBP/RNBQK2R w KQkq - 0 5",  # Nf3 c5 g3 d5 c4 e6 Bg2 d4
    "rn1qkbnr/pppb1ppp/8/1B1p4/3P4/8/PPP2PPP/RNBQK1NR w KQkq - 2 5",  # e4 e6 d4 d5 exd5 exd5 Bb5+ Bd7
    "rnbqkb1r/pp3ppp/4pn2/2pp4/2PP1B2/5N2/PP2PPPP/RN1QKB1R w KQkq - 1 5",  # Nf3 d5 d4 e6 Bf4 c5 c4 Nf6
    "rn1qkb1r/ppp1pppp/5nb1/3p4/8/P3PN1P/1PPP1PP1/RNBQKB1R w KQkq - 1 5",  # Nf3 d5 e3 Nf6 a3 Bf5 h3 Bg6
    "rnbqkb1r/p2p1ppp/1p2pn2/2p5/3P4/P3PN2/1PP2PPP/RNBQKB1R w KQkq - 0 5",  # d4 Nf6 Nf3 e6 e3 c5 a3 b6
    "r1bqkbnr/1p2pppp/p1np4/2p5/4P3/3B1N1P/PPPP1PP1/RNBQK2R w KQkq - 2 5",  # e4 c5 Nf3 d6 h3 a6 Bd3 Nc6
    "rnbqkb1r/p2p1ppp/1p2pn2/2p5/2P5/P3PN2/1P1P1PPP/RNBQKB1R w KQkq - 0 5",  # e3 Nf6 a3 c5 Nf3 e6 c4 b6
    "rnbqkb1r/pp2pp1p/5np1/2pp4/8/PP3N2/1BPPPPPP/RN1QKB1R w KQkq - 0 5",  # Nf3 d5 a3 Nf6 b3 c5 Bb2 g6
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


def time_to_depth(engine: UciEngine, fen: str, depth: int) -> Tuple[float, int]:
    """Seconds and nodes of a search to `depth` from a cleared table."""
    engine.send("ucinewgame")
    engine.ready()
    engine.send(f"position fen {fen}")
    t0 = engine.send(f"go depth {depth}")
    t1, _, seen = engine.wait_for("bestmove", timeout=600)
    nodes = last_info(seen, "nodes")
    if nodes is None:
        raise RuntimeError("no nodes in info lines")
    return t1 - t0, nodes


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
    ap.add_argument("--rounds", type=int, help="time-to-depth rounds (default 1)")
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
    rounds = args.rounds or 1
    ttd_positions = bench_positions() + OPENING_POSITIONS
    if args.quick:
        ttd_positions = ttd_positions[:6]
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
    times = [0.0, 0.0]
    nodes = [0, 0]
    for r in range(rounds):
        for i, fen in enumerate(ttd_positions):
            t1, n1 = time_to_depth(one, fen, depth)
            t2, n2 = time_to_depth(two, fen, depth)
            ratios.append(t1 / t2)
            times = [times[0] + t1, times[1] + t2]
            nodes = [nodes[0] + n1, nodes[1] + n2]
            print(f"  round {r + 1} position {i + 1:2}: {t1:6.2f} s / {t2:6.2f} s = "
                  f"{t1 / t2:.2f}x", flush=True)
    geomean = math.exp(statistics.mean(math.log(x) for x in ratios))

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
    md.append(f"Time to depth {depth}, 2 threads vs 1 ({rounds} round(s) × {len(ttd_positions)} "
              f"positions): median ratio **{statistics.median(ratios):.2f}×**, geometric mean "
              f"{geomean:.2f}×, total time {times[0]:.1f} s vs {times[1]:.1f} s = "
              f"{times[0] / times[1]:.2f}× (target ≥ 1.7×); the 2-thread searches took "
              f"{nodes[1] / nodes[0]:.2f}× the nodes at "
              f"{(nodes[1] / times[1]) / (nodes[0] / times[0]):.2f}× the nodes/s\n")
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

"""What the benchmark scripts share: where results are recorded, the machine and commit a run
is recorded with, the Python API benchmarks' positions, and timing in interleaved rounds
against the anchors.

Each script measures one area side by side with its anchors on the same machine, because only
the ratio means something across machines; rounds are interleaved (ours, anchor, ours,
anchor, ...) so that load drifting on a shared machine hits every engine alike. Scripts run
alone (``python3 benchmarks/perft.py``) or through ``benchmarks/run.py AREA`` and import this
module from their own folder (a script's folder is first on ``sys.path``). Standard library
only, like the scripts that import it.
"""

from __future__ import annotations

import datetime
import os
import platform
import statistics
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

# The repository's root, and the append-only log every --record writes to.
ROOT = Path(__file__).resolve().parents[1]
RESULTS_MD = ROOT / "benchmarks" / "RESULTS.md"


# --- Positions --------------------------------------------------------------------------------

# The Python API benchmarks' positions (python_api.py, python_peers.py): Kiwipete, the start
# position, the Chess Programming Wiki's perft positions 3 to 6 and two middlegames.
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
FENS = [
    KIWIPETE,
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "2kr3r/pp1q1ppp/2n1bn2/3p4/3P4/2NBBN2/PPQ2PPP/R4RK1 b - - 5 14",
]


# --- Recording --------------------------------------------------------------------------------


def utc_stamp(seconds: bool = False) -> str:
    """Now, as RESULTS.md's section titles write it: ``2026-12-03 10:15 UTC``."""
    form = "%Y-%m-%d %H:%M:%S UTC" if seconds else "%Y-%m-%d %H:%M UTC"
    return datetime.datetime.now(datetime.timezone.utc).strftime(form)


def append_results(text: str) -> Path:
    """Appends ``text`` to benchmarks/RESULTS.md as it is (the caller starts it with the blank
    line before its heading); returns the file's path for the message saying so."""
    with RESULTS_MD.open("a", encoding="utf-8") as f:
        f.write(text)
    return RESULTS_MD


def git_commit(short: bool = False) -> str:
    """The checked-out commit (``git rev-parse HEAD``), or ``unknown`` outside a checkout."""
    command = ["git", "rev-parse", "--short", "HEAD"] if short else ["git", "rev-parse", "HEAD"]
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return done.stdout.strip()


def uncommitted_changes() -> bool:
    """Whether the working tree differs from the commit (untracked files included)."""
    try:
        done = subprocess.run(
            ["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return False
    return bool(done.stdout.strip())


# --- The machine ------------------------------------------------------------------------------


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (elsewhere what ``platform`` knows)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def load_average() -> float | None:
    """The 1-minute load average, or None where the system does not say."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


# --- Timing -----------------------------------------------------------------------------------


def rate(work: Callable[[], int], min_time: float) -> float:
    """Units of work per second, over whole passes of ``work()`` (which returns how many units
    it did) lasting at least ``min_time`` seconds."""
    units = 0
    start = time.perf_counter()
    while True:
        units += work()
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return units / elapsed


def move_workloads(board: Any) -> dict[str, Callable[[], int]]:
    """The two per-board workloads the board benchmarks time, each returning the moves it
    handled: ``list(board.legal_moves)`` (20 times) and ``board.push(m); board.pop()`` over the
    legal moves. Any board with python-chess's API (standard, setup mode, variants)."""
    moves = list(board.legal_moves)

    def lists() -> int:
        for _ in range(20):
            list(board.legal_moves)
        return 20 * len(moves)

    def push_pop() -> int:
        for m in moves:
            board.push(m)
            board.pop()
        return len(moves)

    return {"legal list": lists, "push+pop": push_pop}


def interleaved(rounds: int, runs: Mapping[str, Callable[[], float]]) -> dict[str, list[float]]:
    """Runs every timing once per round, in turn, for ``rounds`` rounds; each run returns its
    own seconds. The timings of each, in round order (``min`` of a list is its best)."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            times[name].append(run())
    return times


def paired_ratio(ours: Sequence[float], anchor: Sequence[float]) -> float:
    """The median over rounds of anchor time / our time, each pair from one round of
    interleaved runs (> 1: we are faster).

    Neighbouring runs see the same background load, so the ratio within a round is far steadier
    than a ratio of two separately taken minima or medians on a noisy machine."""
    return statistics.median(b / a for a, b in zip(ours, anchor))

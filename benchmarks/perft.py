#!/usr/bin/env python3
"""Perft benchmark: shatranj side by side with cozy-chess and Stockfish.

Runs, in one process and one sitting, bulk-counting perft on one thread for

* shatranj (`shatranj perft DEPTH --fen FEN --threads 1`, the generic x86-64 release build,
  which picks its counting core (BMI2/PEXT, POPCNT or baseline) at run time),
* with `--native`, shatranj built a second time with `-C target-cpu=native`, so that it is
  also compared built as cozy-chess is,
* with `--pgo`, shatranj built profile-guided by `scripts/pgo` (Stockfish's `make
  profile-build`: an instrumented build, a training run, the release build again with the
  profile), still generic x86-64,
* cozy-chess 0.3.4 (benchmarks/anchors/cozy-perft, `pext` feature, `-C target-cpu=native`),
* Stockfish (`go perft DEPTH` over UCI, Threads = 1; the Debian `stockfish` package),

and then shatranj with `--threads 2` against `--threads 1` on a deeper count. Each process's
CPU time (user + sys, from the kernel's accounting of reaped children) is reported beside its
wall-clock time: on a shared machine a process waiting for a core loses wall time but not CPU
time, so the CPU-time ratio is the steadier one there. Beside those
wall-clock timings, which are noisy on shared machines, it counts the instructions shatranj
and cozy-chess execute for the same perft under valgrind's callgrind: a deterministic,
noise-free complement (instructions, not time). For the count, cozy-chess is built a second
time with `-C target-cpu=x86-64-v3` (BMI2 and PEXT, no AVX-512): valgrind cannot run the
AVX-512 instructions a native build gets on newer hosts (it dies with SIGILL). Every node
count is checked against the known value; a mismatch (or any engine failing) is an error.

Standard library only. See benchmarks/README.md.

    python3 benchmarks/perft.py                 # full run, print the tables
    python3 benchmarks/perft.py --record        # ... and append them to benchmarks/RESULTS.md
    python3 benchmarks/perft.py --quick         # small depths, smoke test
    python3 benchmarks/perft.py --native        # ... and shatranj built for this CPU too
    python3 benchmarks/perft.py --pgo           # ... and shatranj built profile-guided too
    python3 benchmarks/perft.py --instructions  # only the callgrind instruction counts
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from common import (
    RESULTS_MD,
    ROOT,
    append_results,
    cpu_model,
    load_average,
    paired_ratio,
    utc_stamp,
)

REPO = ROOT
BENCH_DIR = REPO / "benchmarks"
COZY_DIR = BENCH_DIR / "anchors" / "cozy-perft"
COZY_TARGET_DIR = COZY_DIR / "target"

STARTPOS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# Known perft counts (depth -> nodes).
EXPECTED: dict[str, dict[int, int]] = {
    STARTPOS: {1: 20, 2: 400, 3: 8_902, 4: 197_281, 5: 4_865_609, 6: 119_060_324, 7: 3_195_901_860},
    KIWIPETE: {1: 48, 2: 2_039, 3: 97_862, 4: 4_085_603, 5: 193_690_690, 6: 8_031_647_685},
}
NAMES = {STARTPOS: "startpos", KIWIPETE: "kiwipete"}

# (fen, depth) for the anchor comparison and for the thread-scaling run.
ANCHOR_CASES_FULL = [(STARTPOS, 6), (KIWIPETE, 5)]
ANCHOR_CASES_QUICK = [(STARTPOS, 5), (KIWIPETE, 4)]
SCALING_CASE_FULL = (STARTPOS, 7)
SCALING_CASE_QUICK = (STARTPOS, 6)
# (fen, depth) for the callgrind instruction counts: smaller than the timed runs because
# valgrind runs the code ~50x slower. Each count has the same binary's count at
# INSTR_BASELINE_DEPTH of the same position subtracted (process start-up, FEN parsing).
INSTR_CASES_FULL = [(STARTPOS, 5), (KIWIPETE, 4)]
INSTR_CASES_QUICK = [(STARTPOS, 4), (KIWIPETE, 3)]
INSTR_BASELINE_DEPTH = 1

# Targets from the issues (issue 24: 3.0× cozy-chess on one core; issue 52: 4.0×).
TARGET_VS_COZY = 4.0
TARGET_SCALING_2T = 1.9

NODES_RE = re.compile(r"^\s*Nodes searched:\s*(\d+)\s*$", re.MULTILINE)
COZY_TIME_RE = re.compile(r"^Time:\s*([0-9.]+)\s*s\s*$", re.MULTILINE)
# shatranj's `Time: ... (1 thread, bmi2-pext)` line: the move-generation backend it picked.
OURS_BACKEND_RE = re.compile(r"^Time:.*\(\d+ threads?, ([^)]+)\)\s*$", re.MULTILINE)
# valgrind's `==PID== Collected : N` summary line (on stderr).
CALLGRIND_RE = re.compile(r"^==\d+==\s*Collected\s*:\s*(\d+)\s*$", re.MULTILINE)

OURS, OURS_NATIVE, OURS_PGO = "shatranj", "shatranj native", "shatranj PGO"
COZY, STOCKFISH = "cozy-chess", "stockfish"
# The builds of shatranj that are timed against the anchors.
OURS_BUILDS = (OURS, OURS_NATIVE, OURS_PGO)


class BenchError(Exception):
    """A failure that makes the benchmark result meaningless (reported, exit status 1)."""


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def tail(text: str, lines: int = 20) -> str:
    parts = (text or "").rstrip().splitlines()
    if not parts:
        return "    (empty)"
    return "\n".join("    " + p for p in parts[-lines:])


def capture(cmd: list[str], cwd: Path = REPO) -> str | None:
    try:
        out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def cpu_flags() -> set:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def warn_if_busy(when: str) -> float | None:
    load = load_average()
    if load is not None and load > 0.5:
        log(
            f"[warn] 1-minute load average is {load:.2f} {when}: other work is running on this "
            f"machine ({os.cpu_count()} logical CPUs) and the timings will be noisy"
        )
    return load


def git_commit() -> str:
    head = capture(["git", "rev-parse", "HEAD"])
    if head is None:
        head = "(no commit)"
    dirty = capture(["git", "status", "--porcelain", "--untracked-files=no"])
    untracked = capture(["git", "status", "--porcelain"])
    if dirty:
        head += " + uncommitted changes"
    elif untracked:
        head += " + untracked files"
    return head


def fmt_s(x: float | None) -> str:
    return "—" if x is None else f"{x:.3f}"


def fmt_mnps(nodes: int, secs: float | None) -> str:
    return "—" if not secs else f"{nodes / secs / 1e6:.1f}"


def fmt_ratio(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}×"


# --------------------------------------------------------------------------------------------
# Builds
# --------------------------------------------------------------------------------------------


def cargo_build(args: list[str], env: dict[str, str], bin_name: str, what: str) -> Path:
    """Run `cargo build ... --message-format=json-render-diagnostics`; return the binary path."""
    cmd = ["cargo", "build", "--release", "--message-format=json-render-diagnostics"] + args
    log(
        f"[build] {what}: {' '.join(shlex.quote(c) for c in cmd)}"
        + (f"  (RUSTFLAGS={env['RUSTFLAGS']!r})" if env.get("RUSTFLAGS") else "  (no RUSTFLAGS)")
    )
    try:
        proc = subprocess.run(
            cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=None, text=True
        )
    except FileNotFoundError:
        raise BenchError("`cargo` not found on PATH") from None
    if proc.returncode != 0:
        raise BenchError(
            f"building {what} failed (cargo exit status {proc.returncode}); "
            "see the compiler output above"
        )
    exe = None
    for line in proc.stdout.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if (
            msg.get("reason") == "compiler-artifact"
            and msg.get("executable")
            and msg.get("target", {}).get("name") == bin_name
        ):
            exe = msg["executable"]
    if exe is None or not Path(exe).is_file():
        raise BenchError(f"building {what} succeeded but cargo reported no `{bin_name}` binary")
    return Path(exe)


def build_ours(native: bool = False) -> Path:
    # Generic build on purpose: the shipped binary must run on any x86-64 and selects its
    # fast paths (BMI2/PEXT, ...) at run time. Drop any target-cpu flags from the caller's
    # environment so they cannot leak into the measurement. With `native`, the build the
    # cozy-chess anchor gets (`-C target-cpu=native`), in a target directory of its own.
    env = dict(os.environ)
    for var in ("RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_BUILD_RUSTFLAGS"):
        env.pop(var, None)
    if not native:
        return cargo_build(["-p", "shatranj-cli"], env, "shatranj", "shatranj (generic x86-64)")
    env["RUSTFLAGS"] = "-C target-cpu=native"
    return cargo_build(
        ["-p", "shatranj-cli", "--target-dir", str(REPO / "target" / "native")],
        env,
        "shatranj",
        "shatranj (target-cpu=native)",
    )


def build_ours_pgo() -> Path:
    """The profile-guided build of `scripts/pgo`, which prints the binary's path last."""
    log("[build] shatranj PGO: scripts/pgo (instrumented build, training run, optimised build)")
    try:
        proc = subprocess.run(
            [str(REPO / "scripts" / "pgo")], cwd=REPO, stdout=subprocess.PIPE, text=True
        )
    except OSError as e:
        raise BenchError(f"could not run scripts/pgo: {e}") from None
    lines = proc.stdout.splitlines()
    if proc.returncode != 0 or not lines:
        raise BenchError(
            f"scripts/pgo failed (exit status {proc.returncode}); see its output above"
        )
    return Path(lines[-1])


# The CPU cozy-chess is compiled for in the timed runs (its best configuration) and under
# callgrind. valgrind does not decode AVX-512, which `native` enables on newer hosts (the
# binary dies with SIGILL), so the instruction count uses x86-64-v3: BMI2 with PEXT, AVX2,
# no AVX-512 — the same PEXT code path, in instructions valgrind can run.
COZY_CPU_TIMED = "native"
COZY_CPU_INSTR = "x86-64-v3"


def build_cozy(target_cpu: str = COZY_CPU_TIMED) -> Path:
    if platform.machine() not in ("x86_64", "AMD64") or "bmi2" not in cpu_flags():
        raise BenchError(
            "the cozy-chess anchor is built with its `pext` feature, which needs an "
            "x86-64 CPU with BMI2; this machine has none"
        )
    env = dict(os.environ)
    env.pop("CARGO_ENCODED_RUSTFLAGS", None)
    env["RUSTFLAGS"] = f"-C target-cpu={target_cpu}"
    # One target directory per CPU level, so the two builds do not rebuild each other.
    target_dir = COZY_TARGET_DIR if target_cpu == COZY_CPU_TIMED else COZY_TARGET_DIR / target_cpu
    return cargo_build(
        [
            "--locked",
            "--manifest-path",
            str(COZY_DIR / "Cargo.toml"),
            "--target-dir",
            str(target_dir),
        ],
        env,
        "cozy-perft",
        f"cozy-chess 0.3.4 anchor (pext, target-cpu={target_cpu})",
    )


def find_stockfish(install: bool) -> Path:
    found = shutil.which("stockfish") or (
        "/usr/games/stockfish" if os.access("/usr/games/stockfish", os.X_OK) else None
    )
    if found:
        return Path(found)
    if not install:
        raise BenchError(
            "stockfish not found (looked on PATH and in /usr/games); install the "
            "Debian package `stockfish` or pass --stockfish PATH"
        )
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        raise BenchError(
            "stockfish not found and cannot be installed automatically (needs root "
            "and apt-get): run `apt-get update && apt-get install -y stockfish`"
        )
    log("[setup] stockfish missing: apt-get update && apt-get install -y stockfish")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "stockfish"]):
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            raise BenchError(
                f"`{' '.join(cmd)}` failed (exit {proc.returncode}):\n"
                + tail(proc.stdout + proc.stderr)
            )
    return find_stockfish(install=False)


# --------------------------------------------------------------------------------------------
# Runners: each returns (nodes, wall seconds, in-process seconds or None)
# --------------------------------------------------------------------------------------------


@dataclass
class Run:
    nodes: int
    wall: float
    inproc: float | None = None
    # User + system CPU seconds of the process (None where not measured: Stockfish).
    cpu: float | None = None


def children_cpu() -> float:
    """User + system CPU seconds of every reaped child of this process so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_process(name: str, cmd: list[str], timeout: float):
    """Run `cmd` to completion; return (CompletedProcess, wall seconds, CPU seconds) of the
    subprocess. The CPU time is the growth of the reaped children's total across the run,
    which is this child's alone: the benchmark runs one child at a time."""
    pretty = " ".join(shlex.quote(c) for c in cmd)
    try:
        cpu0 = children_cpu()
        t0 = time.perf_counter()
        proc = subprocess.run(
            cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout
        )
        wall = time.perf_counter() - t0
        cpu = children_cpu() - cpu0
    except FileNotFoundError:
        raise BenchError(f"{name}: binary not found: {cmd[0]}") from None
    except PermissionError:
        raise BenchError(f"{name}: binary not executable: {cmd[0]}") from None
    except subprocess.TimeoutExpired:
        raise BenchError(f"{name}: timed out after {timeout:.0f} s: {pretty}") from None
    if proc.returncode != 0:
        how = (
            f"killed by signal {-proc.returncode}"
            if proc.returncode < 0
            else f"exit status {proc.returncode}"
        )
        raise BenchError(
            f"{name} failed ({how}): {pretty}\n  stderr:\n{tail(proc.stderr)}"
            f"\n  stdout:\n{tail(proc.stdout)}"
        )
    return proc, wall, cpu


def parse_nodes(name: str, text: str, cmd: list[str]) -> int:
    found = NODES_RE.findall(text)
    if not found:
        raise BenchError(
            f"{name}: no `Nodes searched: N` line in the output of "
            f"{' '.join(shlex.quote(c) for c in cmd)}\n  stdout:\n{tail(text)}"
        )
    return int(found[-1])


def ours_cmd(exe: Path, fen: str, depth: int, threads: int) -> list[str]:
    return [str(exe), "perft", str(depth), "--fen", fen, "--threads", str(threads)]


def cozy_cmd(exe: Path, fen: str, depth: int) -> list[str]:
    return [str(exe), fen, str(depth)]


def run_ours(exe: Path, fen: str, depth: int, threads: int, timeout: float) -> Run:
    cmd = ours_cmd(exe, fen, depth, threads)
    proc, wall, cpu = run_process(OURS, cmd, timeout)
    return Run(parse_nodes(OURS, proc.stdout, cmd), wall, cpu=cpu)


def ours_backend(text: str) -> str | None:
    m = OURS_BACKEND_RE.search(text)
    return m.group(1).strip() if m else None


def run_cozy(exe: Path, fen: str, depth: int, timeout: float) -> Run:
    cmd = cozy_cmd(exe, fen, depth)
    proc, wall, cpu = run_process(COZY, cmd, timeout)
    m = COZY_TIME_RE.search(proc.stdout)
    return Run(parse_nodes(COZY, proc.stdout, cmd), wall, float(m.group(1)) if m else None, cpu)


class Uci:
    """Minimal line-oriented UCI driver with a kill-on-timeout watchdog."""

    def __init__(self, exe: Path, timeout: float):
        self.exe = exe
        self.timeout = timeout
        self.lines: list[str] = []
        try:
            self.proc = subprocess.Popen(
                [str(exe)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as e:
            raise BenchError(f"{STOCKFISH}: cannot start {exe}: {e}") from e
        self.timed_out = False
        self.watchdog: threading.Timer | None = None

    def send(self, line: str) -> None:
        try:
            self.proc.stdin.write(line + "\n")  # type: ignore[union-attr]
            self.proc.stdin.flush()  # type: ignore[union-attr]
        except (BrokenPipeError, OSError):
            self.fail(f"stdin closed while sending {line!r}")

    def arm(self) -> None:
        self.disarm()
        self.timed_out = False

        def kill() -> None:
            self.timed_out = True
            self.proc.kill()

        self.watchdog = threading.Timer(self.timeout, kill)
        self.watchdog.daemon = True
        self.watchdog.start()

    def disarm(self) -> None:
        if self.watchdog is not None:
            self.watchdog.cancel()
            self.watchdog = None

    def read_until(self, pred) -> str:
        self.arm()
        try:
            while True:
                line = self.proc.stdout.readline()  # type: ignore[union-attr]
                if not line:
                    if self.timed_out:
                        self.fail(f"timed out after {self.timeout:.0f} s")
                    self.fail("exited unexpectedly")
                line = line.rstrip("\r\n")
                self.lines.append(line)
                if pred(line):
                    return line
        finally:
            self.disarm()

    def fail(self, why: str) -> None:
        self.proc.kill()
        try:
            _, err = self.proc.communicate(timeout=5)
        except (subprocess.SubprocessError, ValueError, OSError):
            err = ""
        raise BenchError(
            f"{STOCKFISH} ({self.exe}) {why}; exit status {self.proc.poll()}"
            f"\n  stderr:\n{tail(err)}\n  stdout:\n{tail(chr(10).join(self.lines))}"
        )

    def close(self) -> None:
        self.disarm()
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=10)
            except (BenchError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if f:
                    f.close()
            except OSError:
                pass


def stockfish_version(exe: Path) -> str:
    uci = Uci(exe, 60)
    try:
        uci.send("uci")
        uci.read_until(lambda line: line == "uciok")
    finally:
        uci.close()
    for line in uci.lines:
        if line.startswith("id name "):
            return line[len("id name ") :]
    return "unknown"


def run_stockfish(exe: Path, fen: str, depth: int, timeout: float) -> Run:
    uci = Uci(exe, timeout)
    try:
        uci.send("uci")
        uci.read_until(lambda line: line == "uciok")
        uci.send("setoption name Threads value 1")
        uci.send(f"position fen {fen}")
        # Start-up work (network load, hash allocation, option handling) happens before this.
        uci.send("isready")
        uci.read_until(lambda line: line == "readyok")
        t0 = time.perf_counter()
        uci.send(f"go perft {depth}")
        line = uci.read_until(lambda text: NODES_RE.match(text) is not None)
        wall = time.perf_counter() - t0
    finally:
        uci.close()
    m = NODES_RE.match(line)
    assert m is not None
    return Run(int(m.group(1)), wall)


def find_valgrind() -> Path | None:
    found = shutil.which("valgrind")
    return Path(found) if found else None


@dataclass
class Counted:
    """One program run under callgrind: the node count and the instructions executed."""

    nodes: int
    instructions: int
    stdout: str


def run_callgrind(valgrind: Path, name: str, cmd: list[str], timeout: float) -> Counted:
    """Run `cmd` under `valgrind --tool=callgrind`; return its node and instruction counts."""
    full = [str(valgrind), "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd
    proc, _, _ = run_process(f"{name} under callgrind", full, timeout)
    found = CALLGRIND_RE.findall(proc.stderr)
    if not found:
        raise BenchError(
            f"{name}: no `==PID== Collected : N` line from callgrind in the output "
            f"of {' '.join(shlex.quote(c) for c in full)}\n  stderr:\n"
            f"{tail(proc.stderr)}"
        )
    return Counted(parse_nodes(name, proc.stdout, full), int(found[-1]), proc.stdout)


# --------------------------------------------------------------------------------------------
# Measurement and reporting
# --------------------------------------------------------------------------------------------


@dataclass
class Series:
    engine: str
    fen: str
    depth: int
    runs: list[Run] = field(default_factory=list)

    @property
    def nodes(self) -> int:
        return self.runs[0].nodes

    @property
    def best(self) -> float:
        return min(r.wall for r in self.runs)

    @property
    def median(self) -> float:
        return statistics.median(r.wall for r in self.runs)

    @property
    def best_inproc(self) -> float | None:
        xs = [r.inproc for r in self.runs if r.inproc is not None]
        return min(xs) if xs else None

    @property
    def cpus(self) -> list[float] | None:
        xs = [r.cpu for r in self.runs]
        return None if any(x is None for x in xs) else xs  # type: ignore[return-value]


def paired(fast: Series, slow: Series) -> float:
    """Median over repeats of slow/fast, each pair taken from one round of interleaved runs.

    Neighbouring runs see the same background load, so the ratio within a round is far steadier
    than a ratio of two separately taken minima or medians on a noisy machine."""
    return paired_ratio([r.wall for r in fast.runs], [r.wall for r in slow.runs])


def paired_cpu(fast: Series, slow: Series) -> float | None:
    """As `paired`, on CPU time (user + sys); None when either side has no CPU times."""
    a, b = fast.cpus, slow.cpus
    if a is None or b is None or min(a) <= 0:
        return None
    return paired_ratio(a, b)


def check_nodes(engine: str, fen: str, depth: int, run: Run) -> None:
    want = EXPECTED[fen][depth]
    if run.nodes != want:
        raise BenchError(
            f"NODE COUNT MISMATCH: {engine} reports {run.nodes:,} nodes for "
            f"{NAMES[fen]} depth {depth}, expected {want:,} (FEN: {fen})"
        )


def measure_anchors(
    cases,
    repeat: int,
    ours: dict[str, Path],
    cozy: Path,
    sf: Path,
    timeout: float,
) -> list[dict[str, Series]]:
    """Times each build of shatranj in `ours` (by engine name, OURS first), cozy-chess and
    Stockfish, interleaved."""
    results = []
    engines = tuple(ours) + (COZY, STOCKFISH)
    for fen, depth in cases:
        series = {e: Series(e, fen, depth) for e in engines}
        for i in range(repeat):
            # Interleave the engines so slow drifts (thermal, neighbours) hit all of them.
            for engine in engines:
                if engine in ours:
                    run = run_ours(ours[engine], fen, depth, 1, timeout)
                elif engine == COZY:
                    run = run_cozy(cozy, fen, depth, timeout)
                else:
                    run = run_stockfish(sf, fen, depth, timeout)
                check_nodes(engine, fen, depth, run)
                series[engine].runs.append(run)
                log(
                    f"[run] {NAMES[fen]} d{depth} {engine:<10} #{i + 1}: {run.wall:.3f} s "
                    f"({run.nodes / run.wall / 1e6:.1f} Mnps)"
                )
        results.append(series)
    return results


def measure_scaling(case, repeat: int, ours: Path, timeout: float) -> dict[int, Series]:
    fen, depth = case
    series = {t: Series(f"{OURS} --threads {t}", fen, depth) for t in (1, 2)}
    for i in range(repeat):
        for t in (1, 2):
            run = run_ours(ours, fen, depth, t, timeout)
            check_nodes(f"{OURS} --threads {t}", fen, depth, run)
            series[t].runs.append(run)
            log(
                f"[run] {NAMES[fen]} d{depth} {OURS} --threads {t} #{i + 1}: {run.wall:.3f} s "
                f"({run.nodes / run.wall / 1e6:.1f} Mnps)"
            )
    return series


@dataclass
class InstrCount:
    """Instructions for one engine, one position: the run at `depth` minus the baseline run."""

    engine: str
    fen: str
    depth: int
    nodes: int
    total: int
    baseline: int

    @property
    def net(self) -> int:
        return self.total - self.baseline


def measure_instructions(cases, valgrind: Path, ours: Path, cozy: Path, timeout: float):
    """Count instructions under callgrind for shatranj and cozy-chess (once each: the counts
    are deterministic). Returns ([{engine: InstrCount}], shatranj backend under valgrind)."""
    results = []
    backends = set()
    for fen, depth in cases:
        series = {}
        for engine in (OURS, COZY):
            counts = {}
            for d in (INSTR_BASELINE_DEPTH, depth):
                if engine == OURS:
                    cmd = ours_cmd(ours, fen, d, 1) + ["--quiet"]
                else:
                    cmd = cozy_cmd(cozy, fen, d)
                c = run_callgrind(valgrind, engine, cmd, timeout)
                check_nodes(engine, fen, d, Run(c.nodes, 0.0))
                if engine == OURS:
                    backends.add(ours_backend(c.stdout) or "unknown")
                counts[d] = c
                log(f"[callgrind] {NAMES[fen]} d{d} {engine:<10}: {c.instructions:,} instructions")
            series[engine] = InstrCount(
                engine,
                fen,
                depth,
                counts[depth].nodes,
                counts[depth].instructions,
                counts[INSTR_BASELINE_DEPTH].instructions,
            )
            if series[engine].net <= 0:
                raise BenchError(
                    f"{engine}: {NAMES[fen]} depth {depth} ran no more instructions "
                    f"than depth {INSTR_BASELINE_DEPTH} under callgrind "
                    f"({series[engine].total:,} vs {series[engine].baseline:,})"
                )
        results.append(series)
    return results, ", ".join(sorted(backends))


def instructions_table(
    results: list[dict[str, InstrCount]], backend: str, native_backend: str | None, cozy_cpu: str
) -> list[str]:
    out = [
        "Instructions executed (valgrind callgrind `Ir`), **not time**: deterministic (repeat "
        "runs agree to within a few thousand instructions), so this is the noise-free "
        "complement to the wall-clock table. Counted once per engine and position.",
        "",
        "| position | depth | nodes | shatranj instructions | cozy-chess instructions "
        "| shatranj instr/node | cozy-chess instr/node "
        "| cozy/ours instructions (ours needs N× fewer) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for series in results:
        o, c = series[OURS], series[COZY]
        out.append(
            f"| {NAMES[o.fen]} | {o.depth} | {o.nodes:,} | {o.net:,} | {c.net:,} "
            f"| {o.net / o.nodes:.2f} | {c.net / c.nodes:.2f} | **{fmt_ratio(c.net / o.net)}** |"
        )
    out += [""]
    for series in results:
        o, c = series[OURS], series[COZY]
        out.append(
            f"- {NAMES[o.fen]} d{o.depth}: ours needs {c.net / o.net:.2f}× fewer "
            f"instructions than cozy-chess"
        )
    baselines = "; ".join(
        f"{NAMES[s[OURS].fen]}: shatranj {s[OURS].baseline:,}, cozy-chess {s[COZY].baseline:,}"
        for s in results
    )
    out += [
        f"- Each count is the run at the depth shown minus the same binary's run at depth "
        f"{INSTR_BASELINE_DEPTH} of the same position, so process start-up and FEN parsing "
        f"are excluded (depth-{INSTR_BASELINE_DEPTH} baselines: {baselines}).",
        f"- cozy-chess is counted as built with `-C target-cpu={cozy_cpu}` (valgrind cannot "
        "run the AVX-512 code a native build may contain). Instruction counts are not a "
        "speed ratio: either program may retire more instructions per cycle; the targets "
        "are judged on the timed table.",
        f"- shatranj backend under valgrind: {backend}"
        + (
            ""
            if native_backend is None or native_backend == backend
            else f" (**differs** from the native run: {native_backend}; the counts measure "
            f"a different code path than the timings)"
        ),
    ]
    return out


def anchors_table(results: list[dict[str, Series]]) -> list[str]:
    out = [
        "| position | depth | nodes | engine | best s | median s | best Mnps | median Mnps "
        "| cozy in-process s (best) | ours/cozy (paired, best, median) "
        "| ours/stockfish (paired, best, median) |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for series in results:
        c, s = series[COZY], series[STOCKFISH]
        for e in series.values():
            if e.engine in OURS_BUILDS:
                vs_cozy = (
                    f"**{fmt_ratio(paired(e, c))}**, {fmt_ratio(c.best / e.best)}, "
                    f"{fmt_ratio(c.median / e.median)}"
                )
                vs_sf = (
                    f"**{fmt_ratio(paired(e, s))}**, {fmt_ratio(s.best / e.best)}, "
                    f"{fmt_ratio(s.median / e.median)}"
                )
            else:
                vs_cozy = vs_sf = ""
            out.append(
                f"| {NAMES[e.fen]} | {e.depth} | {e.nodes:,} | {e.engine} | {fmt_s(e.best)} "
                f"| {fmt_s(e.median)} | {fmt_mnps(e.nodes, e.best)} "
                f"| {fmt_mnps(e.nodes, e.median)} "
                f"| {fmt_s(e.best_inproc) if e is c else ''} | {vs_cozy} | {vs_sf} |"
            )
    return out


def cpu_table(results: list[dict[str, Series]]) -> list[str]:
    """The same runs by CPU time (user + sys of each process, start-up included)."""
    out = [
        "CPU time of each process (user + sys, start-up included): a run that waits for a "
        "core on a busy machine loses wall time but not CPU time.",
        "",
        "| position | depth | engine | best CPU s | median CPU s | ours/cozy by CPU time "
        "(paired, best, median) |",
        "|---|---:|---|---:|---:|---:|",
    ]
    for series in results:
        c = series[COZY]
        for e in series.values():
            xs = e.cpus
            if xs is None:
                continue
            ratio = ""
            r = paired_cpu(e, c)
            cx = c.cpus
            if e.engine in OURS_BUILDS and r is not None and cx is not None:
                ratio = (
                    f"**{fmt_ratio(r)}**, {fmt_ratio(min(cx) / min(xs))}, "
                    f"{fmt_ratio(statistics.median(cx) / statistics.median(xs))}"
                )
            out.append(
                f"| {NAMES[e.fen]} | {e.depth} | {e.engine} | {fmt_s(min(xs))} "
                f"| {fmt_s(statistics.median(xs))} | {ratio} |"
            )
    return out


def scaling_table(series: dict[int, Series]) -> list[str]:
    one, two = series[1], series[2]
    out = [
        "| position | depth | nodes | threads | best s | median s | best Mnps | median Mnps "
        "| speed-up vs 1 thread (paired, best, median) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for t, e in ((1, one), (2, two)):
        speedup = (
            f"**{fmt_ratio(paired(two, one))}**, {fmt_ratio(one.best / two.best)}, "
            f"{fmt_ratio(one.median / two.median)}"
            if t == 2
            else ""
        )
        out.append(
            f"| {NAMES[e.fen]} | {e.depth} | {e.nodes:,} | {t} | {fmt_s(e.best)} "
            f"| {fmt_s(e.median)} | {fmt_mnps(e.nodes, e.best)} "
            f"| {fmt_mnps(e.nodes, e.median)} | {speedup} |"
        )
    return out


def verdicts(
    anchors: list[dict[str, Series]] | None, scaling: dict[int, Series] | None
) -> list[str]:
    out = []
    if anchors is not None:
        for series in anchors:
            c = series[COZY]
            for o in (series[e] for e in OURS_BUILDS if e in series):
                r = paired(o, c)
                rc = paired_cpu(o, c)
                by_cpu = "" if rc is None else f"; by CPU time {rc:.2f}×"
                out.append(
                    f"- {NAMES[o.fen]} d{o.depth}, {o.engine}: ours/cozy = {r:.2f}× (median of "
                    f"{len(o.runs)} paired rounds; best/best {c.best / o.best:.2f}×{by_cpu}), "
                    f"target ≥ {TARGET_VS_COZY:.1f}× — "
                    f"{'**PASS**' if r >= TARGET_VS_COZY else '**FAIL**'}"
                )
    if scaling is not None:
        r = paired(scaling[2], scaling[1])
        best = scaling[1].best / scaling[2].best
        out.append(
            f"- {NAMES[scaling[1].fen]} d{scaling[1].depth}: 2 threads vs 1 = {r:.2f}× "
            f"(median of {len(scaling[1].runs)} paired rounds; best/best {best:.2f}×), "
            f"target ≥ {TARGET_SCALING_2T:.1f}× — "
            f"{'**PASS**' if r >= TARGET_SCALING_2T else '**FAIL**'}"
        )
    return out


def all_pass(anchors, scaling) -> bool:
    ok = True
    if anchors is not None:
        ok &= all(paired(s[OURS], s[COZY]) >= TARGET_VS_COZY for s in anchors)
    if scaling is not None:
        ok &= paired(scaling[2], scaling[1]) >= TARGET_SCALING_2T
    return ok


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Perft benchmark: shatranj vs cozy-chess 0.3.4 and Stockfish (one thread), "
        "shatranj vs cozy-chess instruction counts under valgrind's callgrind, "
        "plus shatranj 2-thread scaling. Node counts are verified."
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help="smoke run: startpos 5 / kiwipete 4, scaling on startpos 6, "
        "instruction counts on startpos 4 / kiwipete 3 (default: startpos 6 / "
        "kiwipete 5, scaling on startpos 7, instruction counts on startpos 5 "
        "/ kiwipete 4)",
    )
    p.add_argument(
        "--repeat",
        type=int,
        default=3,
        metavar="N",
        help="runs per engine and position (default 3); paired, best and median ratios reported",
    )
    p.add_argument(
        "--record",
        action="store_true",
        help=f"append the tables and run metadata to {RESULTS_MD.relative_to(REPO)}",
    )
    part = p.add_mutually_exclusive_group()
    part.add_argument(
        "--threads-scaling",
        action="store_true",
        help="run only the thread-scaling part (shatranj --threads 1 vs 2)",
    )
    part.add_argument(
        "--no-threads-scaling",
        action="store_true",
        help="run only the anchor comparison (and the instruction counts), skip "
        "the thread-scaling part",
    )
    part.add_argument(
        "--instructions",
        action="store_true",
        help="run only the instruction counts under valgrind's callgrind "
        "(shatranj vs cozy-chess: startpos 5 / kiwipete 4, with --quick "
        "startpos 4 / kiwipete 3); the default run includes them when "
        "valgrind is installed",
    )
    p.add_argument(
        "--no-instructions", action="store_true", help="skip the callgrind instruction counts"
    )
    p.add_argument(
        "--ours",
        type=Path,
        metavar="PATH",
        help="use this shatranj binary instead of building it "
        "(must accept `perft DEPTH --fen FEN --threads N [--quiet]`)",
    )
    p.add_argument(
        "--native",
        action="store_true",
        help="also time shatranj built with -C target-cpu=native (as cozy-chess is built), "
        "in target/native",
    )
    p.add_argument(
        "--ours-native",
        type=Path,
        metavar="PATH",
        help="use this binary as the native shatranj build (implies --native)",
    )
    p.add_argument(
        "--pgo",
        action="store_true",
        help="also time shatranj built profile-guided by scripts/pgo (generic x86-64), in "
        "target/pgo; needs an llvm-profdata that reads rustc's profiles",
    )
    p.add_argument(
        "--ours-pgo",
        type=Path,
        metavar="PATH",
        help="use this binary as the profile-guided shatranj build (implies --pgo)",
    )
    p.add_argument(
        "--cozy",
        type=Path,
        metavar="PATH",
        help="use this cozy-perft binary for the timed runs instead of building it "
        f"(-C target-cpu={COZY_CPU_TIMED})",
    )
    p.add_argument(
        "--cozy-instructions",
        type=Path,
        metavar="PATH",
        help="use this cozy-perft binary for the callgrind count instead of building "
        f"it (-C target-cpu={COZY_CPU_INSTR}); it must not use AVX-512",
    )
    p.add_argument(
        "--stockfish",
        type=Path,
        metavar="PATH",
        help="Stockfish binary (default: `stockfish` on PATH or /usr/games/stockfish, "
        "installed with apt-get if missing)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=900,
        metavar="SECONDS",
        help="per-run timeout (default 900)",
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="exit with status 2 when a target is missed (default: report only)",
    )
    args = p.parse_args(argv)
    if args.repeat < 1:
        p.error("--repeat must be at least 1")
    if args.instructions and args.no_instructions:
        p.error("--instructions and --no-instructions exclude each other")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    do_anchors = not args.threads_scaling and not args.instructions
    do_scaling = not args.no_threads_scaling and not args.instructions
    do_instr = not args.threads_scaling and not args.no_instructions
    anchor_cases = ANCHOR_CASES_QUICK if args.quick else ANCHOR_CASES_FULL
    scaling_case = SCALING_CASE_QUICK if args.quick else SCALING_CASE_FULL
    instr_cases = INSTR_CASES_QUICK if args.quick else INSTR_CASES_FULL

    valgrind = valgrind_version = None
    instr_skipped = None
    if do_instr:
        valgrind = find_valgrind()
        if valgrind is None:
            if args.instructions:
                raise BenchError(
                    "--instructions needs valgrind (callgrind), which is not on "
                    "PATH: install it (Debian: `apt-get install -y valgrind`)"
                )
            instr_skipped = "valgrind not found on PATH"
            log(
                "[note] valgrind not found on PATH: skipping the callgrind instruction counts "
                "(install valgrind to get them)"
            )
            do_instr = False
        else:
            valgrind_version = capture([str(valgrind), "--version"]) or "unknown"

    # --- set-up -------------------------------------------------------------------------
    ours = args.ours.resolve() if args.ours else build_ours()
    if not ours.is_file():
        raise BenchError(f"shatranj binary not found: {ours}")
    builds = {OURS: ours}
    if do_anchors and (args.native or args.ours_native):
        builds[OURS_NATIVE] = (
            args.ours_native.resolve() if args.ours_native else build_ours(native=True)
        )
    if do_anchors and (args.pgo or args.ours_pgo):
        builds[OURS_PGO] = args.ours_pgo.resolve() if args.ours_pgo else build_ours_pgo()
    for path in builds.values():
        if not path.is_file():
            raise BenchError(f"shatranj binary not found: {path}")
    cozy = cozy_instr = sf = None
    sf_version = None
    cozy_instr_cpu = (
        f"given binary `{args.cozy_instructions}`" if args.cozy_instructions else COZY_CPU_INSTR
    )
    if do_anchors:
        cozy = args.cozy.resolve() if args.cozy else build_cozy(COZY_CPU_TIMED)
        if not cozy.is_file():
            raise BenchError(f"cozy-perft binary not found: {cozy}")
    if do_instr:
        cozy_instr = (
            args.cozy_instructions.resolve()
            if args.cozy_instructions
            else build_cozy(COZY_CPU_INSTR)
        )
        if not cozy_instr.is_file():
            raise BenchError(f"cozy-perft binary not found: {cozy_instr}")
    if do_anchors:
        sf = args.stockfish if args.stockfish else find_stockfish(install=True)
        sf_version = stockfish_version(sf)
    # The counting core the generic build picks on this CPU (its `Time:` line names it).
    ours_core = ours_backend(
        run_process(OURS, ours_cmd(ours, STARTPOS, 1, 1) + ["--quiet"], args.timeout)[0].stdout
    )
    log(f"[setup] shatranj:   {ours} (counting core: {ours_core})")
    for name in (OURS_NATIVE, OURS_PGO):
        if name in builds:
            log(f"[setup] {name}: {builds[name]}")
    if cozy is not None:
        log(f"[setup] cozy-chess: {cozy}")
    if cozy_instr is not None:
        log(f"[setup] cozy-chess for callgrind: {cozy_instr}")
    if do_anchors:
        log(f"[setup] stockfish:  {sf} ({sf_version})")
    if do_instr:
        log(f"[setup] valgrind:   {valgrind} ({valgrind_version})")

    # --- measure ------------------------------------------------------------------------
    # Only the timings suffer from a busy machine; the instruction counts do not.
    load_before = warn_if_busy("before measuring") if do_anchors or do_scaling else load_average()
    anchors = (
        measure_anchors(anchor_cases, args.repeat, builds, cozy, sf, args.timeout)
        if do_anchors
        else None
    )
    scaling = measure_scaling(scaling_case, args.repeat, ours, args.timeout) if do_scaling else None
    # Instruction counts last: they do not depend on the machine's load, the timings do.
    instr = None
    if do_instr:
        instr, backend = measure_instructions(instr_cases, valgrind, ours, cozy_instr, args.timeout)
        # The backend shatranj picks natively, to catch valgrind's emulated CPU hiding a
        # feature (then the counts would measure another code path than the timings).
        fen = instr_cases[0][0]
        cmd = ours_cmd(ours, fen, INSTR_BASELINE_DEPTH, 1) + ["--quiet"]
        native_backend = ours_backend(run_process(OURS, cmd, args.timeout)[0].stdout)
        if native_backend is not None and native_backend != backend:
            log(
                f"[warn] shatranj picks backend {backend!r} under valgrind but "
                f"{native_backend!r} natively: the instruction counts measure another code "
                f"path than the timings"
            )

    # --- report -------------------------------------------------------------------------
    report: list[str] = []
    if anchors is not None:
        report += ["### Single thread: shatranj vs anchors", ""]
        report += anchors_table(anchors) + [""]
        report += cpu_table(anchors) + [""]
    if instr is not None:
        report += ["### Instruction counts (callgrind, not time): shatranj vs cozy-chess", ""]
        report += instructions_table(instr, backend, native_backend, cozy_instr_cpu) + [""]
    elif instr_skipped is not None:
        report += [
            "### Instruction counts (callgrind, not time): shatranj vs cozy-chess",
            "",
            f"Skipped: {instr_skipped}.",
            "",
        ]
    if scaling is not None:
        report += ["### shatranj thread scaling", ""]
        report += scaling_table(scaling) + [""]
    if anchors is not None or scaling is not None:
        report += ["### Targets", ""] + verdicts(anchors, scaling) + [""]

    print()
    print("\n".join(report))

    if args.record:
        now = utc_stamp(seconds=True)
        cmd = " ".join(shlex.quote(a) for a in ["python3", "benchmarks/perft.py"] + argv)
        meta = [
            f"## {now}",
            "",
            f"- command: `{cmd}`",
            f"- commit: `{git_commit()}`",
            f"- CPU: {cpu_model()} ({os.cpu_count()} logical CPUs)",
            f"- OS: {platform.system()} {platform.release()}",
            f"- rustc: {capture(['rustc', '--version']) or 'unknown'}",
            "- 1-minute load average before measuring: "
            + ("?" if load_before is None else f"{load_before:.2f}"),
            f"- shatranj: `{ours}`"
            + ("" if args.ours else " (cargo build --release, no RUSTFLAGS: generic x86-64)")
            + f"; counting core picked at run time: {ours_core or 'unknown'}",
        ]
        if OURS_NATIVE in builds:
            meta += [
                f"- shatranj native: `{builds[OURS_NATIVE]}`"
                + ("" if args.ours_native else " (cargo build --release, -C target-cpu=native)")
            ]
        if OURS_PGO in builds:
            meta += [
                f"- shatranj PGO: `{builds[OURS_PGO]}`"
                + ("" if args.ours_pgo else " (scripts/pgo: generic x86-64, profile-guided)")
            ]
        if cozy is not None:
            meta += [
                f"- cozy-chess: 0.3.4, pext, -C target-cpu={COZY_CPU_TIMED}"
                + (f" (binary `{cozy}`)" if args.cozy else "")
            ]
        if cozy_instr is not None:
            meta += [f"- cozy-chess under callgrind: 0.3.4, pext, {cozy_instr_cpu}"]
        if do_anchors:
            meta += [f"- stockfish: {sf_version} (`{sf}`)"]
        if do_instr:
            meta += [f"- valgrind: {valgrind_version} (`{valgrind}`, callgrind)"]
        if do_anchors or do_scaling:
            meta += [
                f"- runs per engine and position: {args.repeat}"
                + (" (--quick depths)" if args.quick else "")
            ]
        else:
            meta += ["- instruction counts only" + (" (--quick depths)" if args.quick else "")]
        meta += [""]
        path = append_results("\n" + "\n".join(meta + report))
        log(f"[record] appended to {path}")

    if args.strict and not all_pass(anchors, scaling):
        return 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BenchError as e:
        log(f"\nerror: {e}")
        sys.exit(1)
    except KeyboardInterrupt:
        log("\ninterrupted")
        sys.exit(130)

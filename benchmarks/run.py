#!/usr/bin/env python3
"""Every benchmark from one entry point: ``python3 benchmarks/run.py AREA [ARGS...]``.

    python3 benchmarks/run.py --list                 # the areas: what each measures, against what
    python3 benchmarks/run.py perft --quick          # the same as python3 benchmarks/perft.py --quick
    python3 benchmarks/run.py search --help          # an area's own options
    python3 benchmarks/run.py dead_bench --games 50  # a Rust measurement program (cargo run --release)

Each area is one script in this folder, or a measurement program among the crates' examples;
ARGS go to it unchanged, and the process becomes it (same output, exit status and Ctrl-C).
The scripts measure side by side with their anchors, and ``--record`` appends to RESULTS.md
with the command; what they share (the machine, the commit, interleaved timing, recording) is
in common.py. benchmarks/README.md says what each area runs and its targets.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


@dataclass(frozen=True)
class Area:
    """One benchmark: a script in benchmarks/ (``.py`` or ``.sh``), or a Rust example
    (``rust/CRATE/examples/NAME.rs``, run by cargo from the crate's package)."""

    path: str  # relative to the repository's root
    summary: str
    package: str = ""  # the cargo package, for a Rust example

    def command(self, args: list[str]) -> list[str]:
        """The command line the area runs with ``args``."""
        if self.package:
            name = Path(self.path).stem
            return ["cargo", "run", "--release", "-p", self.package, "--example", name, "--", *args]
        script = str(ROOT / self.path)
        if self.path.endswith(".sh"):
            return ["bash", script, *args]
        return [sys.executable, script, *args]


AREAS: dict[str, Area] = {
    # Rules and move generation.
    "perft": Area(
        "benchmarks/perft.py",
        "move generation: perft against cozy-chess and Stockfish, threads, instruction counts",
    ),
    "perft_count": Area(
        "rust/chess/examples/perft_count.rs",
        "one perft tree with the rules crate alone, for profiling",
        "shatranj-chess",
    ),
    "dead_bench": Area(
        "rust/chess/examples/dead_bench.rs",
        "can_checkmate and is_dead_position per call, against the material test",
        "shatranj-chess",
    ),
    "dead_recall": Area(
        "rust/chess/examples/dead_recall.rs",
        "how much of the labelled dead-position set each tier decides",
        "shatranj-chess",
    ),
    # Endgame tablebases.
    "syzygy": Area(
        "benchmarks/syzygy.py",
        "Syzygy WDL and DTZ probes per second and per probe, against python-chess's chess.syzygy",
    ),
    "syzygy_python": Area(
        "benchmarks/syzygy_python.py",
        "shatranj.syzygy per probe from Python beside python-chess's prober; batch probes",
    ),
    "syzygy_engine": Area(
        "benchmarks/syzygy_engine.py",
        "the engine with SyzygyPath against Stockfish: won 4-man endings converted within DTZ",
    ),
    "syzygy_bench": Area(
        "rust/syzygy/examples/syzygy_bench.rs",
        "the Rust prober alone: probes/s and single-probe times on warm 3-4-man tables",
        "shatranj-syzygy",
    ),
    # The engine.
    "search": Area(
        "benchmarks/search.py",
        "search speed, thread scaling, time to depth and stop latency over UCI, against Stockfish",
    ),
    "hash_ready": Area(
        "benchmarks/hash_ready.py",
        "readyok after a large Hash (set, then cleared after a search), against Stockfish",
    ),
    "ttd_compare": Area(
        "benchmarks/ttd_compare.py", "paired time to depth of two or more builds of the engine"
    ),
    "nnue_speed": Area(
        "benchmarks/nnue_speed.py", "the network's cost against the classical evaluation"
    ),
    "nnue_quantisation": Area(
        "benchmarks/nnue_quantisation.py", "a trained network's integers against its floats"
    ),
    "selfplay": Area(
        "benchmarks/selfplay.py", "self-play games/s, evaluations inline against batched"
    ),
    "route_bench": Area(
        "rust/engine/examples/route_bench.rs",
        "searches with inline evaluation against the batching service",
        "shatranj-engine",
    ),
    "match": Area(
        "benchmarks/match.py",
        "engine matches and gauntlets: `shatranj match` with presets, pairings and --record",
    ),
    "match_determinism": Area(
        "benchmarks/match_determinism.py",
        "a fixed-node match twice: the same PGN, and its table checked from the PGN",
    ),
    # The GPU.
    "gpu_eval": Area(
        "benchmarks/gpu_eval.py", "batched evaluation against batch size: CPU threads and GPU"
    ),
    "gpu_perft": Area("benchmarks/gpu_perft.py", "GPU perft beside the CPU perft on the same host"),
    "gpu_device_check": Area(
        "benchmarks/gpu_device_check.sh",
        "the GPU checks and benchmarks for a lent accelerator machine (--prepare first)",
    ),
    # The Python package.
    "python_api": Area(
        "benchmarks/python_api.py", "the Python API against python-chess and bulletchess"
    ),
    "python_peers": Area(
        "benchmarks/python_peers.py",
        "the Python API against python-chess and every chess peer on PyPI, workload by workload",
    ),
    "setup_boards": Area(
        "benchmarks/setup_boards.py",
        "Chess960 and setup-mode boards against the standard board: move lists, push/pop",
    ),
    "variants": Area(
        "benchmarks/variants.py",
        "shatranj.variant against python-chess's chess.variant: move lists, push/pop per variant",
    ),
    "pgn": Area(
        "benchmarks/pgn.py",
        "PGN reading against python-chess (--scale: streams at database scale, pgn_scale.py)",
    ),
    "pgn_bench": Area(
        "rust/pgn/examples/pgn_bench.rs",
        "the Rust PGN reader on a file: games/s on one thread and on all",
        "shatranj-pgn",
    ),
    "review": Area(
        "benchmarks/review.py",
        "game review: review_pgn with Stockfish against a python-chess loop, 2 workers against 1, memory",
    ),
    "engine_client": Area(
        "benchmarks/engine_client.py", "the engine client against python-chess's chess.engine"
    ),
    "distributed": Area(
        "benchmarks/distributed.py", "perft, analysis and self-play on a local Ray cluster"
    ),
}


def listing() -> str:
    """The areas, one line each: name, what it measures, what runs."""
    width = max(len(name) for name in AREAS)
    lines = []
    for name, area in AREAS.items():
        runs = f"cargo example {Path(area.path).stem}" if area.package else area.path
        lines.append(f"{name:<{width}}  {area.summary}  [{runs}]")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        print("\nareas:\n" + listing())
        return 0 if argv else 2
    if argv[0] == "--list":
        print(listing())
        return 0
    name, args = argv[0], argv[1:]
    area = AREAS.get(name)
    if area is None:
        print(f"run.py: no area {name!r}; the areas are: {', '.join(AREAS)}", file=sys.stderr)
        return 2
    command = area.command(args)
    sys.stdout.flush()
    # The area's process replaces this one, so signals, exit status and the command line the
    # script records (its own argv) are the script's.
    try:
        if area.package:
            os.chdir(ROOT)
        os.execvp(command[0], command)
    except OSError as error:
        print(f"run.py: cannot run {command[0]}: {error.strerror}", file=sys.stderr)
        return 2
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

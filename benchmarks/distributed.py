#!/usr/bin/env python3
"""shatranj.distributed on a local Ray cluster of 1 and 2 workers, with the local (non-Ray)
calls as the anchor in the same run.

    perft     distributed.perft(board, depth) vs shatranj.perft(board, depth, threads=1|2)
    analyse   distributed.analyse(positions, depth=D) vs a loop of Engine(threads=1).analyse
    selfplay  distributed.selfplay's tasks vs shatranj.selfplay(concurrency=1|2)

One local cluster of 2 CPUs serves both Ray columns: "N workers" runs distributed.perft's split
and grouping (for N CPUs) through run_tasks with max_in_flight=N, so at most N tasks run at
once (1 CPU each). So every configuration runs once per
round, rounds interleaved, and load drift on a shared machine hits all alike; each timing is
the best of --repeat rounds. Cluster start-up is not timed (paid once per session); splitting
and scheduling are. Results are checked against the local ones, and the public
distributed.perft / distributed.analyse against them once at the end. Also measured: the cost
of making an Engine (the reason workers keep one per process instead of one per task).

    .venv/bin/python benchmarks/distributed.py [--quick] [--repeat 3] [--record]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import ray

import shatranj
from common import append_results, git_commit, utc_stamp
from shatranj import distributed

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
SEED = 20261130


def best(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times: list[float] = []
    result: Any = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def positions(count: int) -> list[shatranj.Board]:
    """`count` middlegame-ish positions: 10 to 30 random plies from the start (seeded)."""
    rng = random.Random(SEED)
    boards: list[shatranj.Board] = []
    while len(boards) < count:
        board = shatranj.Board()
        for _ in range(rng.randint(10, 30)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            boards.append(shatranj.Board(board.fen()))
    return boards


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="small depths (a smoke run)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--record", action="store_true", help="append the results to benchmarks/RESULTS.md"
    )
    args = parser.parse_args()

    perfts = [
        ("startpos", shatranj.STARTING_FEN, 5 if args.quick else 7),
        ("kiwipete", KIWIPETE, 4 if args.quick else 5),
    ]
    analysis_depth = 6 if args.quick else 9
    # Self-play: games, depth per move, ply cap (seeded random openings).
    match = dict(depth=3 if args.quick else 5, seed=SEED % 1000, max_plies=120)
    match_games = 8 if args.quick else 24
    boards = positions(8 if args.quick else 24)
    print(f"seed {SEED}; {len(boards)} analysis positions at depth {analysis_depth}", flush=True)

    started = time.perf_counter()
    ray.init(
        num_cpus=2,
        object_store_memory=80 * 1024 * 1024,
        include_dashboard=False,
        configure_logging=False,
        log_to_driver=False,
    )
    # Warm the workers (their processes start lazily).
    distributed.run_tasks(len, [[0]] * 4)
    start_up = time.perf_counter() - started

    def ray_perft(board: shatranj.Board, depth: int, workers: int) -> int:
        """distributed.perft's split and grouping for `workers` CPUs, with at most `workers`
        tasks in flight on the 2-CPU cluster."""
        plies = distributed._default_split(board, depth, workers)
        tasks = distributed._perft_tasks(distributed._split(board, plies), depth - plies, workers)
        return sum(
            distributed.run_tasks(
                distributed._perft_task, tasks, name="perft", max_in_flight=workers
            )
        )

    def ray_analyse(workers: int) -> list[Any]:
        """distributed.analyse's tasks (about four per worker), at most `workers` in flight."""
        per_task = -(-len(boards) // (workers * distributed.TASKS_PER_CPU))
        limits = {"depth": analysis_depth, "nodes": None, "time": None, "multipv": 1}
        tasks = [
            (limits, (1, 16), boards[i : i + per_task]) for i in range(0, len(boards), per_task)
        ]
        groups = distributed.run_tasks(
            distributed._analyse_task, tasks, name="analyse", max_in_flight=workers
        )
        return [info for group in groups for info in group]

    def ray_selfplay(workers: int) -> list[str]:
        """distributed.selfplay's tasks (about four per worker), at most `workers` in flight."""
        per_task = -(-match_games // (workers * distributed.TASKS_PER_CPU))
        settings = dict(match, device="cpu", concurrency=1, openings=None)
        tasks = [
            (settings, first, min(per_task, match_games - first))
            for first in range(0, match_games, per_task)
        ]
        parts = distributed.run_tasks(
            distributed._selfplay_task, tasks, name="selfplay", max_in_flight=workers
        )
        return [str(game) for part in parts for game in part.games]

    def local_selfplay(concurrency: int) -> list[str]:
        played = shatranj.selfplay(games=match_games, concurrency=concurrency, **match)  # type: ignore[arg-type]
        return [str(game) for game in played.games]

    def local_analysis() -> list[Any]:
        engine = shatranj.Engine(threads=1, hash_mb=16)
        out = []
        for board in boards:
            engine.clear_hash()
            out.append(engine.analyse(board, depth=analysis_depth))
        return out

    # Every configuration once per round, rounds repeated: load drift hits all of them alike.
    runs: dict[str, dict[str, Callable[[], Any]]] = {}
    for name, fen, depth in perfts:
        board = shatranj.Board(fen)
        runs[name] = {
            "local 1 thread": lambda b=board, d=depth: shatranj.perft(b, d, threads=1),
            "local 2 threads": lambda b=board, d=depth: shatranj.perft(b, d, threads=2),
            "Ray, 1 worker": lambda b=board, d=depth: ray_perft(b, d, 1),
            "Ray, 2 workers": lambda b=board, d=depth: ray_perft(b, d, 2),
        }
    runs["analyse"] = {
        "local 1 thread": local_analysis,
        "Ray, 1 worker": lambda: ray_analyse(1),
        "Ray, 2 workers": lambda: ray_analyse(2),
    }
    runs["selfplay"] = {
        "local 1 thread": lambda: local_selfplay(1),
        "local 2 threads": lambda: local_selfplay(2),
        "Ray, 1 worker": lambda: ray_selfplay(1),
        "Ray, 2 workers": lambda: ray_selfplay(2),
    }
    rows: dict[str, dict[str, float]] = {name: {} for name in runs}
    results: dict[str, dict[str, Any]] = {name: {} for name in runs}
    for round_ in range(args.repeat):
        for name, configs in runs.items():
            for config, run in configs.items():
                seconds, result = best(run, 1)
                rows[name][config] = min(seconds, rows[name].get(config, seconds))
                results[name][config] = result
                print(f"round {round_ + 1}: {name}: {config}: {seconds:.3f} s", flush=True)
    nodes: dict[str, int] = {}
    for name, *_ in perfts:
        counts = set(results[name].values())
        assert len(counts) == 1, (name, results[name])
        nodes[name] = counts.pop()
    reference = [info["pv"] for info in results["analyse"]["local 1 thread"]]
    for config in ("Ray, 1 worker", "Ray, 2 workers"):
        assert [info["pv"] for info in results["analyse"][config]] == reference, config
    games = results["selfplay"]["local 1 thread"]
    for config, played in results["selfplay"].items():
        assert played == games, config
    # The public entry points on the same cluster agree too.
    for name, fen, depth in perfts:
        assert distributed.perft(shatranj.Board(fen), depth) == nodes[name], name
    assert [i["pv"] for i in distributed.analyse(boards, depth=analysis_depth)] == reference
    ray.shutdown()

    engine_cost: dict[int, float] = {}
    for hash_mb in (16, 64):
        seconds, _ = best(
            lambda mb=hash_mb: shatranj.Engine(threads=1, hash_mb=mb).evaluate(shatranj.Board()), 5
        )
        engine_cost[hash_mb] = seconds
        print(
            f"Engine(threads=1, hash_mb={hash_mb}) made and dropped: {seconds * 1000:.1f} ms",
            flush=True,
        )

    columns = ["local 1 thread", "local 2 threads", "Ray, 1 worker", "Ray, 2 workers"]
    lines = [
        "| workload | " + " | ".join(columns) + " | Ray 2 / Ray 1 | Ray 2 / local 1 |",
        "|---|" + "---:|" * (len(columns) + 2),
    ]
    for name, _fen, depth in perfts:
        rates = [nodes[name] / rows[name][c] / 1e6 for c in columns]
        lines.append(
            f"| perft {name} {depth} ({nodes[name]:,} nodes), M nodes/s | "
            + " | ".join(f"{r:.1f}" for r in rates)
            + f" | {rates[3] / rates[2]:.2f}× | {rates[3] / rates[0]:.2f}× |"
        )
    analysis = [len(boards) / rows["analyse"][c] if c in rows["analyse"] else None for c in columns]
    lines.append(
        f"| analyse {len(boards)} positions, depth {analysis_depth}, positions/s | "
        + " | ".join("–" if r is None else f"{r:.1f}" for r in analysis)
        + f" | {analysis[3] / analysis[2]:.2f}× | {analysis[3] / analysis[0]:.2f}× |"  # type: ignore[operator]
    )
    matches = [match_games / rows["selfplay"][c] for c in columns]
    lines.append(
        f"| selfplay {match_games} games, depth {match['depth']}, games/s | "
        + " | ".join(f"{r:.2f}" for r in matches)
        + f" | {matches[3] / matches[2]:.2f}× | {matches[3] / matches[0]:.2f}× |"
    )
    table = "\n".join(lines)
    load = os.getloadavg()
    notes = (
        f"Cluster start-up + worker warm-up (not in the timings): {start_up:.1f} s. Making an Engine: {engine_cost[16] * 1000:.1f} ms (16 MiB table), "
        f"{engine_cost[64] * 1000:.1f} ms (64 MiB); workers keep one per process across tasks."
    )
    print()
    print(table)
    print(notes)

    if args.record:
        commit = git_commit()
        now = utc_stamp(seconds=True)
        command = (
            "python benchmarks/distributed.py"
            + (" --quick" if args.quick else "")
            + f" --repeat {args.repeat} --record"
        )
        append_results(
            f"\n## Distributed (Ray), {now}\n\n"
            f"- command: `{command}`\n"
            f"- commit: `{commit}`\n"
            f"- Python {platform.python_version()}, Ray {ray.__version__}, {os.cpu_count()} logical CPUs, "
            f"load average {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} at the end\n"
            f"- best of {args.repeat} interleaved rounds; seed {SEED} for the analysis positions; "
            "one local Ray cluster of 2 CPUs; N workers = at most N one-CPU tasks in flight "
            "(run_tasks(max_in_flight=N)); local = shatranj.perft / Engine.analyse in this process\n\n"
            f"{table}\n\n{notes}\n"
        )
        print("appended to benchmarks/RESULTS.md")


if __name__ == "__main__":
    sys.exit(main())

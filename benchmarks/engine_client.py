#!/usr/bin/env python3
"""The engine client's speed, side by side with python-chess's ``chess.engine`` in one run.

Workloads (Debian's stockfish, Threads=1, in /usr/games):

  per call     SimpleEngine.analyse(startpos, Limit(depth=1)), repeated: the client's
               overhead per call plus stockfish's own depth-1 search, and ping() (one
               isready round trip) as the floor
  info parse   the info lines stockfish printed for depth-16 searches of a few positions,
               parsed by each library's parser (shatranj: native and pure Python)
  info stream  analyse() against an engine that prints --flood info lines (with a 12-move
               pv) and then its best move: lines the client takes in per second
  batch        --positions seeded random positions at each of --nodes with --processes
               engines: shatranj.engine.analyse_many against a python-chess thread pool (one
               SimpleEngine per thread) doing the same; both start a new game per position,
               so they send stockfish the same lines and must get the same answers (checked)

Every timing is the best of --repeat rounds, shatranj and python-chess interleaved.

    .venv/bin/python benchmarks/engine_client.py [--quick] [--record] [--note TEXT]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import platform
import queue
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import chess.engine

import shatranj
import shatranj.engine
from common import ROOT, append_results, git_commit, interleaved, uncommitted_changes, utc_stamp
from shatranj import _core
from shatranj.engine import _uci

FAKE = [sys.executable, str(ROOT / "python" / "tests" / "support" / "fake_engine.py")]
SAMPLE_FENS = [
    shatranj.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
]


def stockfish() -> str:
    found = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    if found is None:
        sys.exit("stockfish not found (Debian: apt-get install stockfish; it lands in /usr/games)")
    return found


def best_of(repeat: int, runs: dict[str, Callable[[], float]]) -> dict[str, float]:
    """Runs each timing ``repeat`` times, interleaved; the best (lowest) of each."""
    return {name: min(times) for name, times in interleaved(repeat, runs).items()}


# ---------------------------------------------------------------------------------------


def per_call(sf: str, calls: int, repeat: int) -> list[str]:
    ours = shatranj.engine.SimpleEngine.popen_uci(sf)
    theirs = chess.engine.SimpleEngine.popen_uci(sf)
    try:
        ours.configure({"Threads": 1})
        theirs.configure({"Threads": 1})

        def timed(call: Callable[[], Any]) -> Callable[[], float]:
            def run() -> float:
                start = time.perf_counter()
                for _ in range(calls):
                    call()
                return (time.perf_counter() - start) / calls

            return run

        ob, tb = shatranj.Board(), chess.Board()
        analyse = best_of(
            repeat,
            {
                "shatranj": timed(lambda: ours.analyse(ob, shatranj.engine.Limit(depth=1))),
                "python-chess": timed(lambda: theirs.analyse(tb, chess.engine.Limit(depth=1))),
            },
        )
        ping = best_of(repeat, {"shatranj": timed(ours.ping), "python-chess": timed(theirs.ping)})
    finally:
        ours.close()
        theirs.close()
    return [
        "| call | shatranj µs | python-chess µs | python-chess / shatranj |",
        "|---|---:|---:|---:|",
        *(
            f"| `{name}` | {mine * 1e6:.0f} | {other * 1e6:.0f} | {other / mine:.1f}× |"
            for name, (mine, other) in (
                (
                    "analyse(startpos, Limit(depth=1))",
                    (analyse["shatranj"], analyse["python-chess"]),
                ),
                ("ping()", (ping["shatranj"], ping["python-chess"])),
            )
        ),
    ]


def stockfish_lines(sf: str, depth: int) -> list[tuple[str, str]]:
    """(FEN, text after "info ") for every info line stockfish prints for SAMPLE_FENS."""
    process = subprocess.Popen([sf], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdin and process.stdout
    found: list[tuple[str, str]] = []
    process.stdin.write("uci\nsetoption name Threads value 1\nisready\n")
    for fen in SAMPLE_FENS:
        process.stdin.write(f"ucinewgame\nposition fen {fen}\ngo depth {depth}\n")
        process.stdin.flush()
        for line in process.stdout:
            if line.startswith("info ") and not line.startswith("info string"):
                found.append((fen, line[5:].rstrip("\n")))
            if line.startswith("bestmove"):
                break
    process.stdin.write("quit\n")
    process.stdin.close()
    process.wait()
    return found


def info_parse(sf: str, depth: int, repeat: int) -> tuple[list[str], int]:
    lines = stockfish_lines(sf, depth)
    ours = {fen: shatranj.Board(fen) for fen, _ in lines}
    theirs = {fen: chess.Board(fen) for fen, _ in lines}
    with_pv = sum(" pv " in f" {text} " for _, text in lines)

    def rate(parse: Callable[[str, Any], Any], boards: dict[str, Any]) -> Callable[[], float]:
        def run() -> float:
            start = time.perf_counter()
            for fen, text in lines:
                parse(text, boards[fen])
            return (time.perf_counter() - start) / len(lines)

        return run

    best = best_of(
        repeat,
        {
            "native": rate(_uci._parse_uci_info, ours),
            "python-chess": rate(chess.engine._parse_uci_info, theirs),
        },
    )
    other = best["python-chess"]
    rows = [
        f"{len(lines)} lines from depth-{depth} searches of {len(SAMPLE_FENS)} positions, {with_pv} of them with a pv:",
        "",
        "| parser | lines/s | µs/line | vs python-chess |",
        "|---|---:|---:|---:|",
    ]
    for name, label in (
        ("native", "shatranj (`_core.parse_uci_info`, the default)"),
        ("python-chess", "python-chess `_parse_uci_info`"),
    ):
        rows.append(
            f"| {label} | {1 / best[name]:,.0f} | {best[name] * 1e6:.1f} | {other / best[name]:.1f}× |"
        )
    return rows, len(lines)


def info_stream(flood: int, repeat: int) -> list[str]:
    ours = shatranj.engine.SimpleEngine.popen_uci(FAKE + ["flood", str(flood)])
    theirs = chess.engine.SimpleEngine.popen_uci(FAKE + ["flood", str(flood)])
    try:

        def timed(call: Callable[[], Any]) -> Callable[[], float]:
            def run() -> float:
                start = time.perf_counter()
                info = call()
                assert info["depth"] == 10 and len(info["pv"]) == 12
                return time.perf_counter() - start

            return run

        best = best_of(
            repeat,
            {
                "shatranj": timed(
                    lambda: ours.analyse(shatranj.Board(), shatranj.engine.Limit(depth=1))
                ),
                "python-chess": timed(
                    lambda: theirs.analyse(chess.Board(), chess.engine.Limit(depth=1))
                ),
            },
        )
    finally:
        ours.close()
        theirs.close()
    return [
        f"`analyse()` of an engine that prints {flood:,} info lines (each with a 12-move pv) before its best move:",
        "",
        "| client | s per analyse | info lines/s | vs python-chess |",
        "|---|---:|---:|---:|",
        f"| shatranj | {best['shatranj']:.3f} | {flood / best['shatranj']:,.0f} | {best['python-chess'] / best['shatranj']:.1f}× |",
        f"| python-chess | {best['python-chess']:.3f} | {flood / best['python-chess']:,.0f} | 1.0× |",
    ]


def random_positions(count: int, seed: int) -> list[str]:
    """Positions after 6 to 40 seeded random plies from the start (none already over)."""
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        board = shatranj.Board()
        for _ in range(rng.randint(6, 40)):
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            fens.append(board.fen())
    return fens


def python_chess_pool(sf: str, fens: list[str], nodes: int, processes: int) -> list[Any]:
    """What a python-chess user writes: a thread pool, one SimpleEngine per thread."""
    results: list[Any] = [None] * len(fens)
    work: queue.Queue[int] = queue.Queue()
    for index in range(len(fens)):
        work.put(index)

    def worker() -> None:
        with chess.engine.SimpleEngine.popen_uci(sf) as client:
            while True:
                try:
                    index = work.get_nowait()
                except queue.Empty:
                    return
                results[index] = client.analyse(
                    chess.Board(fens[index]), chess.engine.Limit(nodes=nodes), game=object()
                )

    with concurrent.futures.ThreadPoolExecutor(processes) as pool:
        for future in [pool.submit(worker) for _ in range(processes)]:
            future.result()
    return results


def batch(sf: str, count: int, node_counts: list[int], processes: int, repeat: int) -> list[str]:
    fens = random_positions(count, seed=2024)
    rows = [
        f"{count} seeded random positions (seed 2024), {processes} engines, a new game per position; "
        "positions/s (seconds for the batch):",
        "",
        f"| nodes per position | `analyse_many(fens, stockfish, processes={processes})` "
        f"| python-chess, `ThreadPoolExecutor({processes})`, a SimpleEngine per thread | ratio "
        f"| same best move and score | (for scale) `analyse_many(fens, None, processes={processes})` in process |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for nodes in node_counts:
        limit = shatranj.engine.Limit(nodes=nodes)
        outcomes: dict[str, list[Any]] = {}

        def ours() -> float:
            start = time.perf_counter()
            outcomes["shatranj"] = shatranj.engine.analyse_many(
                fens, sf, processes=processes, limit=limit, progress=False
            )
            return time.perf_counter() - start

        def theirs() -> float:
            start = time.perf_counter()
            outcomes["python-chess"] = python_chess_pool(sf, fens, nodes, processes)
            return time.perf_counter() - start

        def in_process() -> float:
            start = time.perf_counter()
            shatranj.engine.analyse_many(
                fens, None, processes=processes, limit=limit, progress=False
            )
            return time.perf_counter() - start

        best = best_of(repeat, {"shatranj": ours, "python-chess": theirs})
        inproc = best_of(1, {"in-process": in_process})["in-process"]
        same = sum(
            isinstance(a, dict)
            and a["pv"][0].uci() == b["pv"][0].uci()
            and repr(a["score"].relative) == repr(b["score"].relative)
            for a, b in zip(outcomes["shatranj"], outcomes["python-chess"])
        )
        mine, other = best["shatranj"], best["python-chess"]
        rows.append(
            f"| {nodes:,} | {count / mine:.0f} ({mine:.2f} s) | {count / other:.0f} ({other:.2f} s) "
            f"| {other / mine:.2f}× | {same} of {count} | {count / inproc:.0f} ({inproc:.2f} s) |"
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--calls", type=int, default=2000, help="analyse calls per round (per call)"
    )
    parser.add_argument(
        "--depth", type=int, default=16, help="search depth of the sampled info lines"
    )
    parser.add_argument(
        "--flood", type=int, default=20000, help="info lines per analyse (info stream)"
    )
    parser.add_argument("--positions", type=int, default=1000, help="positions (batch)")
    parser.add_argument(
        "--nodes",
        type=int,
        nargs="+",
        default=[1000, 10000],
        help="node limits per position (batch)",
    )
    parser.add_argument("--processes", type=int, default=2, help="engines at once (batch)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds per timing; the best counts")
    parser.add_argument("--quick", action="store_true", help="a smoke run with small numbers")
    parser.add_argument(
        "--record", action="store_true", help="append the results to benchmarks/RESULTS.md"
    )
    parser.add_argument("--note", default="", help="a note for the record (machine state, build)")
    args = parser.parse_args()
    if args.quick:
        args.calls, args.depth, args.flood, args.positions, args.repeat, args.nodes = (
            100,
            10,
            2000,
            40,
            1,
            [1000],
        )
    sf = stockfish()

    sections: list[tuple[str, list[str]]] = []
    print("per call ...", file=sys.stderr, flush=True)
    sections.append(("Per-call overhead", per_call(sf, args.calls, args.repeat)))
    print("info parse ...", file=sys.stderr, flush=True)
    rows, _ = info_parse(sf, args.depth, args.repeat)
    sections.append(("Info lines parsed", rows))
    print("info stream ...", file=sys.stderr, flush=True)
    sections.append(("Info lines through analyse()", info_stream(args.flood, args.repeat)))
    print("batch ...", file=sys.stderr, flush=True)
    sections.append(
        ("Batch analysis", batch(sf, args.positions, args.nodes, args.processes, args.repeat))
    )

    sf_version = subprocess.run(
        [sf], input="uci\nquit\n", capture_output=True, text=True
    ).stdout.splitlines()[0]
    header = [
        f"- Python {platform.python_version()}, python-chess {chess.__version__}, {sf_version}, "
        f"{os.cpu_count()} logical CPUs, load average {os.getloadavg()[0]:.2f}",
        f"- shatranj's native module: {_core.BUILD_PROFILE} build",
        f"- best of {args.repeat} rounds, shatranj and python-chess interleaved",
    ]
    if args.note:
        header.append(f"- note: {args.note}")
    body: list[str] = []
    for title, lines in sections:
        body += ["", f"### {title}", "", *lines]
    print("\n".join(header + body))

    if args.record:
        commit = git_commit()
        dirty = uncommitted_changes()
        now = utc_stamp(seconds=True)
        argv = " ".join(sys.argv[1:])
        section = [
            "",
            f"## Engine client, {now} (`benchmarks/engine_client.py`)",
            "",
            f"- command: `{Path(sys.executable).name} benchmarks/engine_client.py {argv}`",
            f"- commit: `{commit}`{' (uncommitted changes)' if dirty else ''}",
            *header,
            *body,
            "",
        ]
        append_results("\n".join(section))
    return 0


if __name__ == "__main__":
    sys.exit(main())

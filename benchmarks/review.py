#!/usr/bin/env python3
"""Game review at scale (issue 48): shatranj.review against the way people review games today.

    python benchmarks/review.py [--games 24] [--nodes 20000] [--repeat 2]

Three measurements on the same seeded games (every position of each game searched once, at
fixed nodes, one search thread per engine):

1. **Stockfish**: the usual script (python-chess's SimpleEngine and Stockfish, one
   ``engine.analyse`` per position in a loop) against ``shatranj.review.review_pgn`` with the
   same Stockfish (``engine="stockfish"``, one process per core). Target: ≥ 1.8× the loop's
   positions per second on 2 cores.
2. **In process**: ``review_pgn`` with the shatranj search, 2 workers against 1.
   Target: ≥ 1.8×.
3. **Memory**: the peak resident size of a review of 50, 200 and 800 games in fresh processes:
   flat (streaming) means the larger runs need no more than a few MB more.

Runs are interleaved ``--repeat`` times; the best and median rates are reported.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from common import (
    append_results,
    cpu_model,
    git_commit,
    load_average,
    uncommitted_changes,
    utc_stamp,
)


def make_games(path: Path, games: int, seed: int) -> int:
    """``games`` seeded games of 40–80 plies (random legal moves, so with many judged moves);
    returns the number of positions a review searches (plies + 1 per game, no terminal ones)."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    texts, positions = [], 0
    for _ in range(games):
        board = chess.Board()
        for _ in range(rng.randint(40, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        positions += len(board.move_stack) + (0 if board.is_game_over() else 1)
        texts.append(str(chess.pgn.Game.from_board(board)))
    path.write_text("\n\n".join(texts) + "\n")
    return positions


def python_chess_loop(path: Path, stockfish: str, nodes: int) -> int:
    """The usual review script: python-chess, one Stockfish, one analyse per position."""
    import chess
    import chess.engine
    import chess.pgn

    searched = 0
    with chess.engine.SimpleEngine.popen_uci(stockfish) as engine, open(path) as handle:
        engine.configure({"Threads": 1, "Hash": 64})
        while (game := chess.pgn.read_game(handle)) is not None:
            board = game.board()
            scores = []
            for move in [None, *game.mainline_moves()]:
                if move is not None:
                    board.push(move)
                if board.is_game_over():
                    continue
                info = engine.analyse(board, chess.engine.Limit(nodes=nodes), game=game)
                scores.append(info["score"].white())
                searched += 1
    return searched


def shatranj_review(path: Path, engine: object, nodes: int, workers: int) -> int:
    from shatranj import review
    from shatranj.engine import Limit

    done = review.review_pgn(path, engine, Limit(nodes=nodes), workers=workers, progress=False)
    assert not done.failures and not done.skipped, done
    return done.positions


def timed(run: Callable[[], int]) -> float:
    start = time.perf_counter()
    positions = run()
    return positions / (time.perf_counter() - start)


def peak_rss_mb(path: Path, nodes: int) -> float:
    """The peak resident size of a review of ``path`` (to Parquet and PGN) in a fresh process."""
    code = (
        "import resource, sys, tempfile, pathlib\n"
        "from shatranj import review\n"
        "from shatranj.engine import Limit\n"
        "out = pathlib.Path(tempfile.mkdtemp())\n"
        f"review.review_pgn({str(path)!r}, limit=Limit(nodes={nodes}), workers=2, progress=False,"
        " pgn_out=out / 'o.pgn', moves_table=out / 'm.parquet', games_table=out / 'g.parquet')\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)\n"
    )
    return float(
        subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True
        ).stdout
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=48)
    parser.add_argument(
        "--record", action="store_true", help="append the results to benchmarks/RESULTS.md"
    )
    args = parser.parse_args()
    stockfish = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    folder = Path(tempfile.mkdtemp())
    source = folder / "games.pgn"
    positions = make_games(source, args.games, args.seed)
    load = load_average()
    lines = [
        f"{args.games} games (seed {args.seed}), {positions:,} positions, {args.nodes:,} nodes each, "
        f"load before {'unknown' if load is None else f'{load:.2f}'}"
    ]

    runs: dict[str, Callable[[], int]] = {
        "in process, 1 worker": lambda: shatranj_review(source, None, args.nodes, 1),
        "in process, 2 workers": lambda: shatranj_review(source, None, args.nodes, 2),
    }
    if stockfish:
        runs["python-chess loop + Stockfish"] = lambda: python_chess_loop(
            source, stockfish, args.nodes
        )
        runs["review_pgn + Stockfish, 2 workers"] = lambda: shatranj_review(
            source, stockfish, args.nodes, 2
        )
    rates: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.repeat):
        for name, run in runs.items():
            rates[name].append(timed(run))
    lines += ["", "| run | best positions/s | median | rounds |", "|---|---:|---:|---|"]
    for name, values in rates.items():
        rounds = ", ".join(f"{v:,.0f}" for v in values)
        lines.append(
            f"| {name} | {max(values):,.0f} | {statistics.median(values):,.0f} | {rounds} |"
        )

    def ratio(ours: str, anchor: str) -> str:
        per_round = [a / b for a, b in zip(rates[ours], rates[anchor])]
        return (
            f"{statistics.median(per_round):.2f}x (rounds {min(per_round):.2f}-{max(per_round):.2f}; "
            f"best/best {max(rates[ours]) / max(rates[anchor]):.2f}x)"
        )

    lines += [
        "",
        f"- in process, 2 workers / 1 worker: {ratio('in process, 2 workers', 'in process, 1 worker')} (target >= 1.8)",
    ]
    if stockfish:
        lines.append(
            f"- Stockfish, review_pgn (2 workers) / python-chess loop: "
            f"{ratio('review_pgn + Stockfish, 2 workers', 'python-chess loop + Stockfish')} (target >= 1.8)"
        )
    memory = {}
    for games in (50, 200, 800):
        path = folder / f"memory-{games}.pgn"
        make_games(path, games, args.seed)
        memory[games] = peak_rss_mb(path, 300)
    shown = ", ".join(f"{games} games {mb:.1f} MB" for games, mb in memory.items())
    lines.append(
        f"- peak RSS, review to PGN and Parquet at 300 nodes: {shown} ({memory[800] - memory[50]:+.1f} MB for 16x the games)"
    )
    print("\n".join(lines))
    if args.record:
        dirty = " (uncommitted changes)" if uncommitted_changes() else ""
        header = [
            "",
            f"## {utc_stamp()} game review (benchmarks/review.py, issue 48)",
            "",
            f"`python benchmarks/review.py {' '.join(sys.argv[1:])}` at {git_commit(short=True)}{dirty} on "
            f"{cpu_model()} ({os.cpu_count()} CPUs); one search thread per engine, fixed nodes; rates are "
            "positions per second, ratios the median of per-round ratios.",
            "",
        ]
        print(f"recorded in {append_results(chr(10).join(header + lines) + chr(10))}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""PGN reading speed: shatranj.pgn against python-chess's chess.pgn (the anchor), same text.

Two corpora are generated with python-chess from a fixed seed and written by it (80 columns):

  plain      tag pairs (the roster plus ECO, Elo, TimeControl) and 40-140 plies of movetext
  annotated  the same with comments, NAGs and nested variations on many moves

Workloads, each over the whole corpus, interleaved round by round (python-chess, shatranj,
python-chess, ...) so that load drift hits both sides, best of --repeat rounds:

  read_game            read_game(handle) until None, over io.StringIO(text)   (target ≥ 20×)
  read_game + moves    the same, plus list(game.mainline_moves()) per game
  read_games(path)     shatranj's bulk reader over the same text in a file (all cores), alone
                       and with each game's main line listed (which builds every Game object)

Both sides must agree on the number of games and of main-line moves, or the run fails.

    .venv/bin/python benchmarks/pgn.py [--games 400] [--repeat 3] [--record]

With --scale, the database-scale benchmark of issue 21 instead (benchmarks/pgn_scale.py: a
seeded lichess-style corpus of a million games, streams, to_arrow, pgn-reader as the anchor).
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import chess.pgn

import shatranj
import shatranj.pgn
from common import append_results, utc_stamp

SEED = 7
WORDS = ["good", "a mistake", "threat: Qh5", "only move", "[%clk 0:03:00]", "time trouble"]


def corpus(games: int, annotated: bool) -> str:
    rng = random.Random(SEED)
    out = []
    for i in range(games):
        game = chess.pgn.Game()
        game.headers.update(
            Event="Bench open", Site="Nowhere", Date="2026.11.30", Round=str(i + 1),
            White=f"Player {rng.randint(1, 999)}", Black=f"Player {rng.randint(1, 999)}",
            ECO=f"{rng.choice('ABCDE')}{rng.randint(0, 99):02}", WhiteElo=str(rng.randint(1200, 2800)),
            BlackElo=str(rng.randint(1200, 2800)), TimeControl="180+2",
        )  # fmt: skip
        node: chess.pgn.GameNode = game
        board = chess.Board()
        for _ in range(rng.randint(40, 140)):
            moves = list(board.legal_moves)
            if not moves:
                break
            if annotated and node.parent is not None and rng.random() < 0.08:
                side = node.parent.add_variation(rng.choice(list(node.parent.board().legal_moves)))
                side.comment = rng.choice(WORDS)
                sub = side.board()
                for _ in range(rng.randint(1, 5)):
                    sub_moves = list(sub.legal_moves)
                    if not sub_moves:
                        break
                    side = side.add_variation(rng.choice(sub_moves))
                    sub.push(side.move)
            node = node.add_variation(rng.choice(moves))
            board.push(node.move)
            if annotated and rng.random() < 0.25:
                node.comment = rng.choice(WORDS)
            if annotated and rng.random() < 0.1:
                node.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 14]))
        game.headers["Result"] = (
            board.result() if board.is_game_over() else rng.choice(["1-0", "0-1", "1/2-1/2"])
        )
        out.append(game.accept(chess.pgn.StringExporter()))
    return "\n\n".join(out) + "\n"


def read_all(read_game: Callable[[Any], Any], text: str, moves: bool) -> tuple[int, int]:
    handle = io.StringIO(text)
    games = plies = 0
    while (game := read_game(handle)) is not None:
        games += 1
        if moves:
            plies += len(list(game.mainline_moves()))
    return games, plies


def timed(work: Callable[[], tuple[int, int]]) -> tuple[float, tuple[int, int]]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def main() -> int:
    if "--scale" in sys.argv[1:]:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import pgn_scale

        return pgn_scale.main(sys.argv[1:])
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--record", action="store_true", help="append the results to benchmarks/RESULTS.md"
    )
    args = parser.parse_args()

    rows: list[tuple[str, str, float, float, float]] = []
    for name, annotated in (("plain", False), ("annotated", True)):
        text = corpus(args.games, annotated)
        with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False, encoding="utf-8") as f:
            f.write(text)
            path = f.name
        best: dict[str, float] = {}
        answers: dict[str, tuple[int, int]] = {}
        work: dict[str, Callable[[], tuple[int, int]]] = {
            "python-chess read_game": lambda: read_all(chess.pgn.read_game, text, False),
            "shatranj read_game": lambda: read_all(shatranj.pgn.read_game, text, False),
            "shatranj read_games(path)": lambda: (shatranj.pgn.read_games(path).read, 0),
            "python-chess read_game + moves": lambda: read_all(chess.pgn.read_game, text, True),
            "shatranj read_game + moves": lambda: read_all(shatranj.pgn.read_game, text, True),
            "shatranj read_games(path) + moves": lambda: (
                lambda gl: (gl.read, sum(len(list(g.mainline_moves())) for g in gl))
            )(shatranj.pgn.read_games(path)),
        }
        for _ in range(args.repeat):
            for label, job in work.items():
                seconds, answer = timed(job)
                best[label] = min(best.get(label, seconds), seconds)
                answers[label] = answer
        os.unlink(path)
        games = answers["python-chess read_game"][0]
        for label, (n, _plies) in answers.items():
            if n != games:
                raise SystemExit(f"{name}: {label} read {n} games, python-chess {games}")
        plies = answers["python-chess read_game + moves"][1]
        if (
            answers["shatranj read_game + moves"][1] != plies
            or answers["shatranj read_games(path) + moves"][1] != plies
        ):
            raise SystemExit(f"{name}: main-line move counts differ: {answers}")
        anchor = best["python-chess read_game"]
        anchor_moves = best["python-chess read_game + moves"]
        print(f"\n{name}: {games} games, {plies} main-line plies, {len(text) / 1e6:.2f} MB")
        for label, seconds in best.items():
            base = anchor_moves if "moves" in label else anchor
            ratio = base / seconds
            print(f"  {label:36} {games / seconds:10.0f} games/s   {ratio:6.1f}× python-chess")
            rows.append((name, label, games / seconds, ratio, len(text) / 1e6))

    if args.record:
        stamp = utc_stamp()
        lines = [
            f"\n## {stamp} — PGN reading (`benchmarks/pgn.py`)\n",
            f"`.venv/bin/python benchmarks/pgn.py --games {args.games} --repeat {args.repeat} --record`; "
            f"python-chess {chess.__version__}, shatranj {shatranj.__version__}, Python {platform.python_version()}, "
            f"{os.cpu_count()} CPUs (shared with other builds). Best of {args.repeat} interleaved rounds; the ratio is "
            "against python-chess's `read_game` on the same text (with `+ moves`: both sides also list the main line).\n",
            "| corpus | reader | games/s | × python-chess |",
            "|---|---|---:|---:|",
        ]
        for name, label, per_second, ratio, _ in rows:
            lines.append(f"| {name} | {label} | {per_second:,.0f} | {ratio:.1f}× |")
        append_results("\n".join(lines) + "\n")
        print("recorded in benchmarks/RESULTS.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())

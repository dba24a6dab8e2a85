#!/usr/bin/env python3
"""A fixed-node match played twice: the same games and results both times, and a table equal
to the one an independent count of its PGN gives (issue 50's "done means").

Our engine against itself with a handicap (``--nodes`` against ``--nodes // 2`` a move), in
pairs of games with colours swapped on the balanced 8-ply openings, ``-concurrency 2``:

    python3 benchmarks/match_determinism.py --rounds 100 --record

Each run's PGN (``min=true``: no timing comments) must be the same file byte for byte, and
its final table the same text. The check of the table reads the PGN with python-chess (the
test oracle; the runner wrote it with shatranj), replays every game to check its moves are
legal and that a game ended "normal" ends in the checkmate or draw its result says, counts
W/D/L and the pentanomial pairs from the first engine's side, and computes the score, Elo
with its 95 % interval from the pentanomial variance, nElo and LOS from their definitions
(fishtest's), to compare with the numbers the runner printed.
"""

from __future__ import annotations

import argparse
import io
import math
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import chess
import chess.pgn

import common

OPENINGS = common.ROOT / "benchmarks" / "openings" / "balanced-8ply.fen"


def play(binary: str, rounds: int, nodes: int, pgn: Path) -> tuple[str, float]:
    """One run: its output and its wall time."""
    args = [
        binary, "match",
        "-engine", f"cmd={binary}", "name=strong", f"nodes={nodes}",
        "-engine", f"cmd={binary}", "name=weak", f"nodes={nodes // 2}",
        "-each", "option.Hash=16", "option.Threads=1",
        "-rounds", str(rounds), "-repeat", "-concurrency", "2",
        "-openings", f"file={OPENINGS}", "format=epd", "order=random", "-srand", "1",
        "-maxmoves", "200", "-pgnout", f"file={pgn}", "min=true", "-ratinginterval", "1000000",
    ]  # fmt: skip
    start = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"shatranj match failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout, time.monotonic() - start


def table(output: str) -> str:
    """The final table's lines, without the latency lines (times vary from run to run)."""
    lines = output.splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("Results of"))
    out = []
    for line in lines[start:]:
        if line.startswith("-" * 20):
            break
        out.append(line)
    return "\n".join(out)


def elo(score: float) -> float:
    return -400 * math.log10(1 / score - 1)


def count_pgn(text: str) -> dict[str, object]:
    """W/D/L and pentanomial counts from the strong engine's side, and the statistics."""
    games = []
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.errors:
            raise SystemExit(f"unreadable game: {game.errors}")
        board = game.board()
        for move in game.mainline_moves():
            if move not in board.legal_moves:
                raise SystemExit(f"illegal move {move} in round {game.headers['Round']}")
            board.push(move)
        result = game.headers["Result"]
        if game.headers["Termination"] == "normal":
            if board.is_checkmate():
                assert result == ("0-1" if board.turn == chess.WHITE else "1-0"), game.headers
            else:
                assert result == "1/2-1/2", game.headers
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
        if game.headers["White"] != "strong":
            points = 1 - points
        games.append((game.headers["Round"], points))
    pairs: dict[str, list[float]] = {}
    for round_tag, points in games:
        pairs.setdefault(round_tag.split(".")[0], []).append(points)
    assert all(len(p) == 2 for p in pairs.values()), "every round is a pair"
    wins = sum(1 for _, p in games if p == 1.0)
    losses = sum(1 for _, p in games if p == 0.0)
    draws = len(games) - wins - losses
    penta = [0] * 5
    for p in pairs.values():
        penta[round(2 * sum(p))] += 1
    # Statistics of the pair scores (0, 1/4, 1/2, 3/4, 1): fishtest's pentanomial estimate.
    scores = [sum(p) / 2 for p in pairs.values()]
    n = len(scores)
    mean = sum(scores) / n
    variance = sum((s - mean) ** 2 for s in scores) / n
    half = 1.959963984540054 * math.sqrt(variance / n)
    nelo_per_unit = 800 / math.log(10)

    def nelo(s: float) -> float:
        return (s - 0.5) / math.sqrt(2 * variance) * nelo_per_unit

    los = 0.5 * (1 + math.erf((mean - 0.5) / math.sqrt(2 * variance / n)))
    return {
        "games": len(games),
        "wdl": (wins, draws, losses),
        "penta": penta,
        "elo": elo(mean),
        "interval": (elo(mean - half), elo(mean + half)),
        "nelo": nelo(mean),
        "nelo_error": (nelo(mean + half) - nelo(mean - half)) / 2,
        "los": los,
        "points": wins + draws / 2,
    }


def expected_lines(c: dict[str, object]) -> list[str]:
    """The lines of the runner's table the independent count must reproduce."""
    wins, draws, losses = c["wdl"]  # type: ignore[misc]
    lo, hi = c["interval"]  # type: ignore[misc]
    e = c["elo"]
    games = c["games"]
    p = c["penta"]
    return [
        f"Elo: {e:.2f} +/- {(hi - lo) / 2:.2f} [{lo:.2f}, {hi:.2f}], "  # type: ignore[operator]
        f"nElo: {c['nelo']:.2f} +/- {c['nelo_error']:.2f}",
        f"LOS: {100 * c['los']:.2f} %, DrawRatio: {100 * draws / games:.2f} %",  # type: ignore[operator]
        f"Games: {games}, Wins: {wins}, Losses: {losses}, Draws: {draws}, "
        f"Points: {c['points']:.1f} "
        f"({100 * c['points'] / games:.2f} %)",  # type: ignore[operator]
        f"Ptnml(0-2): [{', '.join(str(x) for x in p)}]",  # type: ignore[attr-defined]
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.environ.get("SHATRANJ_BIN", "target/release/shatranj"))
    ap.add_argument("--rounds", type=int, default=100, help="pairs of games (default 100)")
    ap.add_argument("--nodes", type=int, default=4000, help="the strong side's nodes a move")
    ap.add_argument("--record", action="store_true", help="append the result to RESULTS.md")
    ap.add_argument("--note", default="")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        runs = []
        for i in (1, 2):
            pgn = Path(tmp) / f"run{i}.pgn"
            output, wall = play(args.bin, args.rounds, args.nodes, pgn)
            runs.append((output, wall, pgn.read_text()))
            print(f"run {i}: {wall:.1f} s", flush=True)
        (out1, wall1, pgn1), (out2, wall2, pgn2) = runs
        same_pgn = pgn1 == pgn2
        same_table = table(out1) == table(out2)
        counted = count_pgn(pgn1)
        want = expected_lines(counted)
        printed = table(out1).splitlines()
        missing = [line for line in want if line not in printed]
    print(table(out1))
    print(f"same PGN both runs: {same_pgn}; same table: {same_table}")
    print(f"independent count of the PGN gives the same table: {not missing}")
    for line in missing:
        print(f"  expected, not printed: {line}")
    ok = same_pgn and same_table and not missing and counted["games"] == 2 * args.rounds
    if args.record:
        dirty = " (with uncommitted changes)" if common.uncommitted_changes() else ""
        load = common.load_average()
        text = "\n".join(
            [
                "",
                f"## {common.utc_stamp()} — match runner: a {2 * args.rounds}-game fixed-node "
                "match twice, checked from its PGN (`benchmarks/match_determinism.py`, issue 50)",
                "",
                f"- command: `{shlex.join(['python3', 'benchmarks/match_determinism.py', *sys.argv[1:]])}`",
                f"- commit: {common.git_commit()}{dirty}; binary `{args.bin}`",
                f"- machine: {common.cpu_model()}, {os.cpu_count()} logical CPUs"
                + (f", load average {load:.1f} at the end" if load is not None else ""),
                f"- engines: shatranj at {args.nodes} nodes a move against itself at "
                f"{args.nodes // 2}, Hash 16 MB, one thread; {args.rounds} pairs on "
                "balanced-8ply.fen (order=random, -srand 1), -concurrency 2, -maxmoves 200",
                f"- wall time: {wall1:.0f} s and {wall2:.0f} s (loaded machine)",
                f"- same PGN byte for byte both runs: **{same_pgn}**; same table: "
                f"**{same_table}**; the table equals an independent count of the PGN "
                f"(python-chess replay, fishtest's formulas): **{not missing}**",
                "",
                *["    " + line for line in table(out1).splitlines()],
                "",
            ]
            + ([f"Note: {args.note}", ""] if args.note else [])
        )
        print(f"recorded in {common.append_results(text)}")
    if not ok:
        print("FAILED", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Generate a file of balanced opening lines for matches (``shatranj match -openings``).

Each line starts from the initial position and grows by ``--plies`` moves; every move is
drawn (with a fixed seed) among Stockfish's best few moves at a shallow depth, so lines are
ones strong players play. A line is kept when Stockfish's score at ``--check-depth`` is
within ``--max-cp`` centipawns of equality and it is not a duplicate.

    python3 benchmarks/make_openings.py --count 150 --seed 1 > benchmarks/openings/balanced-8ply.txt

``--fens FILE`` writes instead the position at the end of each line of FILE, one FEN per line
(what benchmarks/search.py reads, as it runs on the standard library alone, and what
``shatranj match -openings file=... format=epd`` plays):

    python3 benchmarks/make_openings.py --fens benchmarks/openings/balanced-8ply.txt \
        > benchmarks/openings/balanced-8ply.fen

Uses the shatranj package (python-chess's API; ``maturin develop`` first), and Debian's
stockfish to make lines. It was tools/shatranj_match/make_openings.py, on python-chess.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys

import shatranj as chess
import shatranj.engine


def line_positions(path: str) -> list[chess.Board]:
    """The position at the end of each SAN line of `path` (comment lines skipped)."""
    boards = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                board = chess.Board()
                for san in line.split():
                    board.push_san(san)
                boards.append(board)
    return boards


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=150, help="lines to write")
    ap.add_argument("--plies", type=int, default=8, help="plies per line")
    ap.add_argument("--seed", type=int, default=1, help="random seed")
    ap.add_argument("--choices", type=int, default=4, help="best moves to draw among")
    ap.add_argument("--pick-depth", type=int, default=9, help="depth of the move choice")
    ap.add_argument("--check-depth", type=int, default=16, help="depth of the balance check")
    ap.add_argument("--max-cp", type=int, default=40, help="largest |score| kept")
    ap.add_argument("--fens", metavar="FILE", help="print the final FEN of each line of FILE")
    args = ap.parse_args()
    if args.fens:
        for board in line_positions(args.fens):
            print(board.fen())
        return 0
    stockfish = shutil.which("stockfish") or "/usr/games/stockfish"
    rng = random.Random(args.seed)
    print(
        f"# {args.count} lines of {args.plies} plies, seed {args.seed}, each move among "
        f"Stockfish's best {args.choices} at depth {args.pick_depth}, kept when |score| <= "
        f"{args.max_cp} cp at depth {args.check_depth}"
    )
    seen: set[str] = set()
    with shatranj.engine.SimpleEngine.popen_uci(stockfish) as engine:
        engine.configure({"Threads": 1, "Hash": 64})
        while len(seen) < args.count:
            board = chess.Board()
            for _ in range(args.plies):
                infos = engine.analyse(
                    board, shatranj.engine.Limit(depth=args.pick_depth), multipv=args.choices
                )
                board.push(rng.choice([info["pv"][0] for info in infos if "pv" in info]))
            san = chess.Board().variation_san(board.move_stack)
            line = " ".join(w for w in san.split() if not w[0].isdigit())
            if line in seen or board.is_game_over():
                continue
            score = engine.analyse(board, shatranj.engine.Limit(depth=args.check_depth))["score"]
            cp = score.white().score()
            if cp is None or abs(cp) > args.max_cp:
                continue
            seen.add(line)
            print(line, flush=True)
            print(f"{len(seen)}/{args.count} ({cp:+d} cp) {line}", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

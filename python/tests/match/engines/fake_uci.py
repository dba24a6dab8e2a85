#!/usr/bin/env python3
"""A small UCI engine that misbehaves on purpose, for the match runner's fault tests.

    fake_uci.py MODE [N]

Every mode plays the same deterministic moves (a fixed pick from python-chess's legal
moves, which the tests may use: they are not shipped), reporting ``info depth 1 score cp 0
time 0 nodes 1``, until its fault:

- ``good``: none;
- ``crash N``: exits without a word at the first ``go`` of a position with N or more plies;
- ``hang N``: stops answering (sleeps until killed) at that ``go``;
- ``illegal N``: answers that ``go`` with ``bestmove a1a1`` (no piece moves so);
- ``garbage``: mixes invalid UTF-8, unknown commands and malformed ``info`` lines into every
  answer, but plays legal moves (the runner must ignore the noise);
- ``slowstart S``: waits S seconds before ``uciok`` (then plays well);
- ``slow S``: waits S seconds before each ``bestmove`` (a match slow enough to be killed
  mid-run).
"""

from __future__ import annotations

import sys
import time

import chess

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
ARG = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def garbage() -> None:
    sys.stdout.buffer.write(b"\xff\xfe\x00 not utf-8 \xc3\x28\n")
    sys.stdout.write("info depth x score cp abc nodes -5 time never\n")
    sys.stdout.write("bestmovez\nhello there\ninfo string bestmove e2e4\n\n")
    sys.stdout.flush()


def choose(board: chess.Board) -> str:
    moves = sorted(m.uci() for m in board.legal_moves)
    return moves[(7 * board.ply() + 3) % len(moves)]


def main() -> None:
    board = chess.Board()
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            if MODE == "slowstart":
                time.sleep(ARG)
            if MODE == "garbage":
                garbage()
            say(f"id name fake-{MODE}")
            say("option name Hash type spin default 1 min 1 max 16")
            say("uciok")
        elif command == "isready":
            if MODE == "garbage":
                garbage()
            say("readyok")
        elif command == "position":
            if words[1] == "startpos":
                board = chess.Board()
                rest = words[2:]
            else:
                board = chess.Board(" ".join(words[2:8]))
                rest = words[8:]
            if rest[:1] == ["moves"]:
                for m in rest[1:]:
                    board.push_uci(m)
        elif command == "go":
            if len(board.move_stack) >= ARG:
                if MODE == "crash":
                    sys.exit(3)
                if MODE == "hang":
                    while True:
                        time.sleep(60)
                if MODE == "illegal":
                    say("bestmove a1a1")
                    continue
            if MODE == "garbage":
                garbage()
            if MODE == "slow":
                time.sleep(ARG)
            say("info depth 1 score cp 0 time 0 nodes 1 pv " + choose(board))
            say("bestmove " + choose(board))
        elif command == "quit":
            return


if __name__ == "__main__":
    main()

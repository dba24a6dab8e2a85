"""A tiny UCI engine for testing the match runner without real engines.

    python fake_uci.py MODE [SEED]

MODE: ``random`` plays a seeded random legal move at once; ``illegal`` answers ``a1a1``;
``crash`` exits on ``go``; ``hang`` never answers ``go``; ``slow`` sleeps 0.3 s per move;
``mater`` plays a mate in one when there is one, else a random move, and reports a score.
"""

from __future__ import annotations

import random
import sys
import time

import chess


def main() -> None:
    mode = sys.argv[1]
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    board = chess.Board()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            print(f"id name fake-{mode}")
            print("option name Threads type spin default 1 min 1 max 8")
            print("uciok", flush=True)
        elif command == "isready":
            print("readyok", flush=True)
        elif command == "position":
            board = position(words[1:])
        elif command == "go":
            if mode == "crash":
                sys.exit(3)
            if mode == "hang":
                continue
            if mode == "illegal":
                print("bestmove a1a1", flush=True)
                continue
            if mode == "slow":
                time.sleep(0.3)
            move, score = choose(board, rng, mode == "mater")
            print(f"info depth 1 score cp {score} pv {move.uci()}")
            print(f"bestmove {move.uci()}", flush=True)
        elif command == "quit":
            return


def position(words: list[str]) -> chess.Board:
    if words[0] == "startpos":
        board, rest = chess.Board(), words[1:]
    else:
        board, rest = chess.Board(" ".join(words[1:7])), words[7:]
    if rest and rest[0] == "moves":
        for uci in rest[1:]:
            board.push_uci(uci)
    return board


def choose(board: chess.Board, rng: random.Random, mater: bool) -> tuple[chess.Move, int]:
    moves = sorted(board.legal_moves, key=chess.Move.uci)
    if mater:
        for move in moves:
            board.push(move)
            mate = board.is_checkmate()
            board.pop()
            if mate:
                return move, 10_000
    return rng.choice(moves), 0


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Reference data for tests/variant_python_chess.rs: seeded random games of the lichess
variants, judged by python-chess's chess.variant boards.

For each variant (python-chess's uci_variant names) plays GAMES games of uniformly random
legal moves from the variant's starting position and writes one JSON object per line:

  {"variant": NAME, "game": i, "start": FEN}       at the start of each game, then per position:
  {"ply": k, "fen": ..., "legal": [uci, ...] (sorted), "san": {uci: san},
   "move": uci or null (the move played next; null at the end), "is_check": bool,
   "outcome": null or {"termination": NAME, "winner": "white"/"black"/null}}
  {"done": true, "positions": m}                     last line.

A game ends when outcome() is not None or after MAX_PLIES plies. The generator is
random.Random(seed), and the seed is printed in the last line.

Usage: gen_variant_games.py [--seed N] [--games N] [--max-plies N] [--variants a,b,...]
"""

import argparse
import json
import random
import sys

try:
    import chess
    import chess.variant
except ImportError as e:  # The Rust side looks for this line.
    print(f"IMPORT-ERROR: {e}", file=sys.stderr)
    sys.exit(3)

VARIANTS = [
    "suicide",
    "antichess",
    "giveaway",
    "atomic",
    "kingofthehill",
    "3check",
    "racingkings",
    "horde",
    "crazyhouse",
]


def outcome_json(board):
    outcome = board.outcome()
    if outcome is None:
        return None
    winner = None if outcome.winner is None else ("white" if outcome.winner else "black")
    return {"termination": outcome.termination.name, "winner": winner}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--max-plies", type=int, default=150)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    out = sys.stdout
    positions = 0
    for name in args.variants.split(","):
        cls = chess.variant.find_variant(name)
        for game in range(args.games):
            board = cls()
            out.write(json.dumps({"variant": name, "game": game, "start": board.fen()}) + "\n")
            for ply in range(args.max_plies + 1):
                legal = list(board.legal_moves)
                outcome = outcome_json(board)
                move = None
                if outcome is None and legal and ply < args.max_plies:
                    move = rng.choice(legal)
                record = {
                    "ply": ply,
                    "fen": board.fen(),
                    "legal": sorted(m.uci() for m in legal),
                    "san": {m.uci(): board.san(m) for m in legal},
                    "move": None if move is None else move.uci(),
                    "is_check": board.is_check(),
                    "outcome": outcome,
                }
                out.write(json.dumps(record, separators=(",", ":")) + "\n")
                positions += 1
                if move is None:
                    break
                board.push(move)
    out.write(json.dumps({"done": True, "positions": positions, "seed": args.seed}) + "\n")


if __name__ == "__main__":
    main()

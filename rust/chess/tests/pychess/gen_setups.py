#!/usr/bin/env python3
"""Reference data for tests/setup_python_chess.rs: seeded random setup positions judged by
python-chess.

Builds COUNT random boards python-chess holds but a game may never reach (missing or extra
kings, pawns on the back ranks, more than 16 pieces, the side not to move in check, castling
rights and en-passant squares as given), standard and chess960=True, as FEN text; loads each
with python-chess and plays up to MAX_PLIES random legal moves. One JSON object per line:

  {"setup": i, "input": FEN text, "chess960": bool,
   "board_fen": ..., "castling_rights": int, "ep_square": int or null}   once per setup, then
  {"setup": i, "ply": k, "fen": board.fen(), "fen_ep": fen(en_passant="fen"),
   "xfen": fen(en_passant="xfen"), "shredder": shredder_fen(), "status": int,
   "castling_rights": int, "legal": [uci, ...] (python-chess's order),
   "pseudo": [uci, ...], "san": [san of each legal move], "lan": [...],
   "is_check": bool, "is_checkmate": bool, "move": uci or null}
  {"done": true, "setups": n, "positions": m}                              last line.

Usage: gen_setups.py [--seed N] [--count N] [--max-plies N]
"""

import argparse
import json
import random
import sys

try:
    import chess
except ImportError as e:  # The Rust side looks for this line.
    print(f"IMPORT-ERROR: {e}", file=sys.stderr)
    sys.exit(3)

PIECES = "PNBRQKpnbrqk"


def random_placement(rng: random.Random) -> str:
    squares = [None] * 64
    style = rng.random()
    if style < 0.35:
        # A game-like board: both kings, a few pieces, pawns mostly off the back ranks.
        for color in (True, False):
            squares[rng.randrange(64)] = "K" if color else "k"
        for _ in range(rng.randrange(2, 14)):
            squares[rng.randrange(64)] = rng.choice("PNBRQpnbrq")
    elif style < 0.6:
        # A start-like back rank (castling) with damage: a king missing or doubled.
        for f, letter in enumerate(
            rng.choice(["RNBQKBNR", "RK4R1", "R3K2R", "1R2K1R1", "RKR5", "BRKRNNQB"]).ljust(8, "1")
        ):
            if letter != "1":
                squares[f] = letter
                squares[56 + f] = letter.lower()
        for f in range(8):
            if rng.random() < 0.5:
                squares[8 + f] = "P"
            if rng.random() < 0.5:
                squares[48 + f] = "p"
        for _ in range(rng.randrange(0, 4)):
            squares[rng.randrange(64)] = rng.choice(PIECES + "  ")
    else:
        # Anything: any number of anything anywhere.
        for _ in range(rng.randrange(0, 30)):
            squares[rng.randrange(64)] = rng.choice(PIECES)
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            p = squares[rank * 8 + f]
            if p is None or p == " ":
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += p + ("~" if p.upper() in "NBRQK" and rng.random() < 0.03 else "")
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def random_castling(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.3:
        return "-"
    if r < 0.6:
        return "".join(c for c in "KQkq" if rng.random() < 0.7) or "-"
    white = "".join(rng.sample("KQABCDEFGH", rng.randrange(0, 3)))
    black = "".join(rng.sample("kqabcdefgh", rng.randrange(0, 3)))
    return (white + black) or "-"


def random_ep(rng: random.Random, turn: str) -> str:
    r = rng.random()
    if r < 0.6:
        return "-"
    if r < 0.9:
        return chess.FILE_NAMES[rng.randrange(8)] + ("6" if turn == "w" else "3")
    return chess.SQUARE_NAMES[rng.randrange(64)]


def random_fen(rng: random.Random) -> str:
    turn = rng.choice("wb")
    return " ".join(
        [
            random_placement(rng),
            turn,
            random_castling(rng),
            random_ep(rng, turn),
            str(rng.choice([0, 0, 3, 99, 150])),
            str(rng.choice([1, 1, 7, 60])),
        ]
    )


def record(board: chess.Board) -> dict:
    legal = list(board.legal_moves)
    return {
        "fen": board.fen(),
        "fen_ep": board.fen(en_passant="fen"),
        "xfen": board.fen(en_passant="xfen"),
        "shredder": board.shredder_fen(),
        "status": int(board.status()),
        "castling_rights": board.castling_rights,
        "legal": [m.uci() for m in legal],
        "pseudo": [m.uci() for m in board.pseudo_legal_moves],
        "san": [board.san(m) for m in legal],
        "lan": [board.lan(m) for m in legal],
        "is_check": board.is_check(),
        "is_checkmate": board.is_checkmate(),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--max-plies", type=int, default=10)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = sys.stdout
    positions = 0
    for i in range(args.count):
        text = random_fen(rng)
        chess960 = rng.random() < 0.3
        try:
            board = chess.Board(text, chess960=chess960)
        except ValueError:
            continue
        out.write(
            json.dumps(
                {
                    "setup": i,
                    "input": text,
                    "chess960": chess960,
                    "board_fen": board.board_fen(promoted=True),
                    "castling_rights": board.castling_rights,
                    "ep_square": board.ep_square,
                }
            )
            + "\n"
        )
        for ply in range(args.max_plies + 1):
            rec = record(board)
            legal = list(board.legal_moves)
            move = rng.choice(legal) if legal and ply < args.max_plies else None
            rec.update({"setup": i, "ply": ply, "move": None if move is None else move.uci()})
            out.write(json.dumps(rec) + "\n")
            positions += 1
            if move is None:
                break
            board.push(move)
    out.write(json.dumps({"done": True, "setups": args.count, "positions": positions}) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Reference data for tests/python_chess.rs: seeded random games judged by python-chess.

Plays GAMES games of random legal moves (biased to reach repetitions, en passant, castling,
promotions, checkmates and the fifty/seventy-five-move rules) and writes one JSON object per
line to stdout:

  {"game": i, "start": FEN}                      at the start of each game, then per position:
  {"game": i, "ply": k, "fen": ..., "fen_ep": ..., "legal": [uci, ...] (sorted),
   "san": {uci: san}, "move": uci or null (the move played next; null at the end),
   "zobrist": "0x...", "is_check": bool, "is_checkmate": bool, "is_stalemate": bool,
   "is_insufficient_material": bool, "is_repetition3": bool,
   "can_claim_threefold_repetition": bool, "can_claim_fifty_moves": bool,
   "is_fivefold_repetition": bool, "is_seventyfive_moves": bool,
   "outcome": null or {"termination": NAME, "winner": "white"/"black"/null},
   "outcome_claim": the same with claim_draw=True}
  {"done": true, "games": n, "positions": m}     last line.

A game ends when outcome() (no claims) is not None or after MAX_PLIES plies.

With --chess960 the boards are python-chess's chess960=True boards: games start from
Chess960 starting positions (numbers drawn from the seeded generator) and a few Chess960
middlegames, FENs are X-FEN and castling moves are written king-takes-rook.

Usage: gen_games.py [--seed N] [--games N] [--max-plies N] [--chess960]
"""

import argparse
import json
import random
import sys

try:
    import chess
    import chess.polyglot
except ImportError as e:  # The Rust side looks for this line.
    print(f"IMPORT-ERROR: {e}", file=sys.stderr)
    sys.exit(3)

# (FEN, style). Styles: "random" mixes everything; "shuffle" shuffles pieces back and forth to
# repeat positions; "quiet" avoids pawn moves and captures so the move clocks run out.
STARTS = [
    (chess.STARTING_FEN, "random"),
    (chess.STARTING_FEN, "shuffle"),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "random"),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "shuffle"),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "random"),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", "random"),
    ("rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 3", "random"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "shuffle"),
    # En passant that is pseudo-legal but illegal (pinned along the rank): "fen" and "legal"
    # en-passant FENs differ, and so do the position identities for repetition.
    ("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", "random"),
    ("4k3/8/8/r2pP2K/8/8/8/8 w - d6 0 1", "shuffle"),
    # Clocks near the fifty- and seventy-five-move limits.
    ("4k3/8/8/8/8/8/R7/4K3 w - - 95 80", "quiet"),
    ("r3k3/8/8/8/8/8/8/R3K2R w KQq - 97 70", "quiet"),
    ("4k3/8/3q4/8/8/3Q4/8/4K3 w - - 140 120", "quiet"),
    ("4k3/pp6/8/8/8/8/PP6/4K2R w K - 145 100", "quiet"),
    ("8/8/8/3k4/8/3K4/3B4/3N4 b - - 98 90", "quiet"),
    ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 99 60", "random"),
    # Insufficient material and near-mates.
    ("8/8/8/3k4/8/3K4/3N4/8 w - - 0 1", "random"),
    ("8/8/8/2bk4/8/3K4/3B4/8 w - - 0 1", "random"),
    ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "random"),
    ("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", "random"),
]


# Chess960 middlegames: castling rights of inner rooks (X-FEN file letters), kings off the
# e-file, a king beside its rook, the castling rook shielding the king's destination.
STARTS_960 = [
    ("rr6/2kpp3/1ppn2p1/p2b1q1p/P4P1P/1PNN2P1/2PP4/1K2R2R w E - 0 20", "random"),
    ("1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9", "random"),
    ("qbbnrkr1/p1pppppp/1p4n1/8/2P5/6N1/PPNPPPPP/1BRKBRQ1 b FCge - 1 3", "random"),
    ("4k3/8/8/8/8/8/8/qRK4R w BH - 0 1", "random"),
    ("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", "shuffle"),
]


def outcome_json(o):
    if o is None:
        return None
    winner = None if o.winner is None else ("white" if o.winner == chess.WHITE else "black")
    return {"termination": o.termination.name, "winner": winner}


def record(board, game, ply, move):
    legal = sorted(m.uci() for m in board.legal_moves)
    return {
        "game": game,
        "ply": ply,
        "fen": board.fen(),
        "fen_ep": board.fen(en_passant="fen"),
        "legal": legal,
        "san": {m.uci(): board.san(m) for m in board.legal_moves},
        "move": None if move is None else move.uci(),
        "zobrist": f"0x{chess.polyglot.zobrist_hash(board):016x}",
        "is_check": board.is_check(),
        "is_checkmate": board.is_checkmate(),
        "is_stalemate": board.is_stalemate(),
        "is_insufficient_material": board.is_insufficient_material(),
        "is_repetition3": board.is_repetition(3),
        "can_claim_threefold_repetition": board.can_claim_threefold_repetition(),
        "can_claim_fifty_moves": board.can_claim_fifty_moves(),
        "is_fivefold_repetition": board.is_fivefold_repetition(),
        "is_seventyfive_moves": board.is_seventyfive_moves(),
        "outcome": outcome_json(board.outcome(claim_draw=False)),
        "outcome_claim": outcome_json(board.outcome(claim_draw=True)),
    }


def choose(rng, board, style):
    moves = list(board.legal_moves)
    # Undo one's own last move (shuffling), which repeats positions.
    if len(board.move_stack) >= 2 and (style == "shuffle" or rng.random() < 0.1):
        last = board.move_stack[-2]
        back = chess.Move(last.to_square, last.from_square)
        if back in moves and rng.random() < 0.85:
            return back
    if style == "quiet":
        quiet = [m for m in moves if not board.is_zeroing(m)]
        if quiet and rng.random() < 0.95:
            return rng.choice(quiet)
    r = rng.random()
    if r < 0.15:
        mates = []
        for m in moves:
            board.push(m)
            if board.is_checkmate():
                mates.append(m)
            board.pop()
        if mates:
            return rng.choice(mates)
    special = [m for m in moves if board.is_castling(m) or board.is_en_passant(m) or m.promotion]
    if r < 0.35 and special:
        return rng.choice(special)
    pawn = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
    if r < 0.55 and pawn:
        return rng.choice(pawn)
    captures = [m for m in moves if board.is_capture(m)]
    if r < 0.7 and captures:
        return rng.choice(captures)
    return rng.choice(moves)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--max-plies", type=int, default=120)
    ap.add_argument("--chess960", action="store_true")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = sys.stdout
    positions = 0
    for game in range(args.games):
        if not args.chess960:
            fen, style = STARTS[game % len(STARTS)]
            board = chess.Board(fen)
        elif game % 4 == 3:
            fen, style = STARTS_960[(game // 4) % len(STARTS_960)]
            board = chess.Board(fen, chess960=True)
        else:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
            fen, style = board.fen(), "random"
        out.write(json.dumps({"game": game, "start": fen, "style": style}) + "\n")
        for ply in range(args.max_plies + 1):
            over = board.outcome(claim_draw=False) is not None or ply == args.max_plies
            move = None if over else choose(rng, board, style)
            out.write(json.dumps(record(board, game, ply, move), sort_keys=True) + "\n")
            positions += 1
            if move is None:
                break
            board.push(move)
    out.write(json.dumps({"done": True, "games": args.games, "positions": positions}) + "\n")


if __name__ == "__main__":
    main()

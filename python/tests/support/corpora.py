"""PGN corpora made from a seed, for the PGN tests (streams, tables)."""

from __future__ import annotations

import random

import chess


def lichess_corpus(games: int, seed: int) -> str:
    """Lichess-style games: random legal moves, ``%clk`` on every move, ``%eval`` on some, a
    bad main-line move in every 37th game, junk text now and then."""
    print(f"corpus seed {seed}, {games} games")
    rng = random.Random(seed)
    out = []
    for i in range(games):
        event = rng.choice(["Rated Blitz game", "Rated Bullet game", "Casual Rapid game"])
        headers = {
            "Event": event, "Site": f"https://lichess.org/{i:08d}", "Date": "2026.11.30", "Round": "-",
            "White": f"p{rng.randint(1, 500)}", "Black": f"p{rng.randint(1, 500)}",
            "Result": rng.choice(["1-0", "0-1", "1/2-1/2"]), "WhiteElo": str(rng.randint(800, 2900)),
            "BlackElo": rng.choice([str(rng.randint(800, 2900)), "?"]), "TimeControl": "180+0",
        }  # fmt: skip
        lines = [f'[{k} "{v}"]' for k, v in headers.items()]
        board = chess.Board()
        evals = rng.random() < 0.3
        clock = [180.0, 180.0]
        parts = []
        for ply in range(rng.randint(0, 90)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            if board.turn:
                parts.append(f"{board.fullmove_number}.")
            parts.append(board.san(move))
            side = ply % 2
            clock[side] = max(0.0, clock[side] - rng.randint(0, 6))
            c = int(clock[side])
            note = f"[%clk {c // 3600}:{c % 3600 // 60:02}:{c % 60:02}]"
            if evals:
                note = f"[%eval {rng.uniform(-5, 5):.2f}] " + note
            parts.append("{ " + note + " }")
            board.push(move)
        if i % 37 == 5:
            parts.append("Qxz9")
        parts.append(headers["Result"])
        out.append("\n".join(lines) + "\n\n" + " ".join(parts) + "\n")
        if i % 101 == 7:
            out.append("this is not a game at all\n")
    return "\n".join(out) + "\n"

"""Writes variants.pgn: one seeded random game per lichess variant (and an atomic game from a
Chess960 position, and a crazyhouse game from a FEN with pockets), played and exported by
python-chess 1.11.2 (the test oracle), with each game's final FEN in a `FinalFEN` tag.

    .venv/bin/python rust/pgn/tests/pgn/make_variants.py > rust/pgn/tests/pgn/variants.pgn
"""

import random

import chess.pgn
import chess.variant

GAMES = [
    ("Antichess", None, 1),
    ("Giveaway", None, 2),
    ("Suicide", None, 3),
    ("Atomic", None, 4),
    ("King of the Hill", None, 5),
    ("Three-check", None, 6),
    ("Racing Kings", None, 7),
    ("Horde", None, 8),
    ("Crazyhouse", None, 9),
    ("Atomic", "rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ w KQkq - 0 1", 10),
    ("Crazyhouse", "r1bqk2r/pppp1ppp/2n2n2/4p3/1bB1P3/2N2N2/PPPP1PPP/R1BQK2R[Pp] w KQkq - 0 5", 11),
]


def main() -> None:
    for name, fen, seed in GAMES:
        rng = random.Random(seed)
        cls = chess.variant.find_variant(name)
        board = cls(fen) if fen else cls()
        board.chess960 = board.has_chess960_castling_rights()
        while not board.is_game_over() and board.ply() < 120:
            board.push(rng.choice(sorted(board.legal_moves, key=lambda m: m.uci())))
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = f"seed {seed}"
        game.headers["FinalFEN"] = board.fen()
        print(game, end="\n\n")


if __name__ == "__main__":
    main()

"""Seeded random positions from every Syzygy table in a directory, with python-chess's answers.

The oracle of the differential test (`tests/python_chess.rs`): python-chess's `chess.syzygy`
(GPL-3, used here only as a black-box reference, never as a source). For each position it
prints one line, `FEN;WDL;DTZ`, the FEN with the en-passant square whenever one is set (even
where no capture is legal, so the reader also meets the squares that must not matter).

    gen_syzygy.py TABLE_DIR SEED COUNT

Positions cycle through the tables found (`K..vK..`, both colours for the stronger side,
both sides to move); one position in twenty is an en-passant position (a pawn that has just
made a double step, usually with an enemy pawn beside it) from a table with pawns on both
sides. Pieces are placed uniformly at random until python-chess calls the position valid
(kings apart, the side not to move not in check, no pawns on the back ranks).
"""

import os
import random
import sys

import chess
import chess.syzygy

ROLES = {
    "K": chess.KING,
    "Q": chess.QUEEN,
    "R": chess.ROOK,
    "B": chess.BISHOP,
    "N": chess.KNIGHT,
    "P": chess.PAWN,
}


def tables(directory):
    names = sorted({f[:-5] for f in os.listdir(directory) if f.endswith(".rtbw")})
    return [n for n in names if os.path.exists(os.path.join(directory, n + ".rtbz"))]


def place(rng, board, piece, forbidden=0):
    while True:
        sq = rng.randrange(64)
        if board.piece_at(sq) is not None or (forbidden >> sq) & 1:
            continue
        if piece.piece_type == chess.PAWN and chess.square_rank(sq) in (0, 7):
            continue
        board.set_piece_at(sq, piece)
        return sq


def random_position(rng, name):
    strong, weak = name.split("v")
    flip = rng.random() < 0.5
    while True:
        board = chess.Board(None)
        board.turn = rng.random() < 0.5
        for letters, color in ((strong, chess.WHITE), (weak, chess.BLACK)):
            for ch in letters:
                place(rng, board, chess.Piece(ROLES[ch], color != flip))
        if board.is_valid():
            return board


def ep_position(rng, name):
    """A position whose side to move may capture en passant: the enemy pawn just double-stepped."""
    strong, weak = name.split("v")
    while True:
        board = chess.Board(None)
        us = rng.random() < 0.5
        board.turn = us
        them = not us
        file = rng.randrange(8)
        # The pawn that moved: on our fifth rank, the two squares behind it empty.
        rank = 4 if us == chess.WHITE else 3
        pawn_sq = chess.square(file, rank)
        ep_sq = chess.square(file, rank + (1 if us == chess.WHITE else -1))
        origin = chess.square(file, rank + (2 if us == chess.WHITE else -2))
        # Which side of the material string each colour takes.
        letters = {chess.WHITE: list(strong), chess.BLACK: list(weak)}
        if rng.random() < 0.5:
            letters = {chess.WHITE: list(weak), chess.BLACK: list(strong)}
        if "P" not in letters[us] or "P" not in letters[them]:
            continue
        board.set_piece_at(pawn_sq, chess.Piece(chess.PAWN, them))
        letters[them].remove("P")
        if rng.random() < 0.85:
            # A capturer beside it, most of the time.
            files = [f for f in (file - 1, file + 1) if 0 <= f < 8]
            board.set_piece_at(chess.square(rng.choice(files), rank), chess.Piece(chess.PAWN, us))
            letters[us].remove("P")
        forbidden = chess.BB_SQUARES[ep_sq] | chess.BB_SQUARES[origin]
        for color in (chess.WHITE, chess.BLACK):
            for ch in letters[color]:
                place(rng, board, chess.Piece(ROLES[ch], color), forbidden)
        board.ep_square = ep_sq
        if board.is_valid():
            return board


def main():
    directory, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    names = tables(directory)
    ep_names = [n for n in names if "P" in n.split("v")[0] and "P" in n.split("v")[1]]
    out = []
    with chess.syzygy.open_tablebase(directory) as tb:
        for i in range(count):
            if ep_names and i % 20 == 19:
                board = ep_position(rng, ep_names[(i // 20) % len(ep_names)])
            else:
                board = random_position(rng, names[i % len(names)])
            wdl = tb.probe_wdl(board)
            dtz = tb.probe_dtz(board)
            out.append(f"{board.fen(en_passant='fen')};{wdl};{dtz}\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()

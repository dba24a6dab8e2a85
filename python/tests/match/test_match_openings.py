"""``-openings format=polyglot``: each round's opening a weighted walk through a Polyglot book.
The book is written here with python-chess's Zobrist keys (``chess.polyglot.zobrist_hash``,
an independent reference for the keys the runner looks up) and Polyglot's move packing
(castling as the king taking its rook); the games' PGN must start with lines of that book,
every line the weights allow must appear, a move of weight 0 never, and the same seed must
give the same openings."""

from __future__ import annotations

import io
import struct
import sys
from pathlib import Path

import chess
import chess.pgn
import chess.polyglot

from shatranj import match

FAKE = str(Path(__file__).resolve().parent / "engines" / "fake_uci.py")

# (moves before, the book's move, weight): 1. e4 (3) or 1. d4 (1), never 1. Nf3 (0); after
# 1. e4 only c5, then Nf3, then d6; after 1. d4 d5 or Nf6. King-side castling as e1h1.
BOOK = [
    ([], "e2e4", 3),
    ([], "d2d4", 1),
    ([], "g1f3", 0),
    (["e2e4"], "c7c5", 1),
    (["e2e4", "c7c5"], "g1f3", 1),
    (["e2e4", "c7c5", "g1f3"], "d7d6", 1),
    (["d2d4"], "d7d5", 1),
    (["d2d4"], "g8f6", 1),
]
LINES = {"e2e4 c7c5 g1f3 d7d6", "d2d4 d7d5", "d2d4 g8f6"}


def packed(uci: str) -> int:
    move = chess.Move.from_uci(uci)
    promotion = {None: 0, chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}
    return move.to_square | move.from_square << 6 | promotion[move.promotion] << 12


def write_book(path: Path) -> None:
    rows = []
    for before, uci, weight in BOOK:
        board = chess.Board()
        for m in before:
            board.push_uci(m)
        rows.append((chess.polyglot.zobrist_hash(board), packed(uci), weight, 0))
    path.write_bytes(b"".join(struct.pack(">QHHI", *row) for row in sorted(rows)))
    # python-chess reads the book back as written.
    with chess.polyglot.open_reader(path) as reader:
        assert {e.move.uci() for e in reader.find_all(chess.Board())} == {"e2e4", "d2d4"}


def openings(tmp_path: Path, seed: int, rounds: int = 24) -> list[str]:
    """Each round's opening, as the moves its first game's PGN begins with (in UCI)."""
    book = tmp_path / "book.bin"
    write_book(book)
    r = match.run(
        [
            {"cmd": sys.executable, "name": "a", "args": [FAKE, "good"]},
            {"cmd": sys.executable, "name": "b", "args": [FAKE, "good"]},
        ],
        each={"nodes": 1},
        rounds=rounds,
        games=2,
        maxmoves=1,
        openings={"file": book, "format": "polyglot", "plies": 6},
        srand=seed,
    )
    out = []
    for rr in r.rounds:
        first, second = rr.games
        # The book's moves carry the comment "book"; both games of a pair share them.
        lines = []
        for game in (first, second):
            read = chess.pgn.read_game(io.StringIO(game.pgn))
            assert read is not None
            moves = []
            for node in read.mainline():
                moves.append(node.move.uci())
                if node.comment.startswith("book"):
                    break
            else:
                moves = []  # no book moves
            lines.append(" ".join(moves))
        assert lines[0] == lines[1], lines
        out.append(lines[0])
    return out


def test_book_walks_are_lines_of_the_book_by_weight(tmp_path: Path) -> None:
    seen = openings(tmp_path, seed=5)
    print("seed 5:", seen)
    assert set(seen) <= LINES, set(seen) - LINES
    # Every line the weights allow appears in 24 rounds (e4 three times in four).
    assert set(seen) == LINES
    assert seen.count("e2e4 c7c5 g1f3 d7d6") > len(seen) / 2
    assert openings(tmp_path, seed=5) == seen
    assert openings(tmp_path, seed=6) != seen

"""Variant games in PGN (issue 54): ``shatranj.pgn`` against python-chess's ``chess.pgn`` on
lichess-style variant games.

Each game is a seeded random game played on python-chess's variant board (the oracle),
exported by python-chess with lichess's tags and ``[%clk]`` comments, then read by both
libraries; the two readings are compared move by move (UCI, SAN and FEN after every move),
by the board class and start position, by the end position and by the exported text
(``str(game)`` and an 80-column ``StringExporter``). Games built in Python with
``Game.from_board`` are compared the same way."""

from __future__ import annotations

import io
import random

import chess
import chess.pgn
import chess.variant
import pytest

import shatranj.pgn
import shatranj.variant

SEED = 5454
# python-chess's first alias of each variant: what it writes in the Variant tag.
VARIANTS = [
    "Antichess", "Atomic", "Crazyhouse", "Giveaway", "Horde", "King of the Hill", "Racing Kings",
    "Suicide", "Three-check",
]  # fmt: skip
STARTS = {
    "Atomic": ["rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ w KQkq - 0 1"],
    "Crazyhouse": ["r1bqk2r/pppp1ppp/2n2n2/4p3/1bB1P3/2N2N2/PPPP1PPP/R1BQK2R[Pp] w KQkq - 0 5"],
}


def _random_game(name: str, fen: str | None, rng: random.Random) -> str:
    """A lichess-style PGN of a random game on python-chess's board of the variant."""
    cls = chess.variant.find_variant(name)
    board = cls(fen) if fen else cls()
    board.chess960 = board.has_chess960_castling_rights()
    while not board.is_game_over() and board.ply() < rng.randint(20, 160):
        board.push(rng.choice(sorted(board.legal_moves, key=lambda m: m.uci())))
    game = chess.pgn.Game.from_board(board)
    game.headers.update(
        Event=f"Rated {name} game", Site="https://lichess.org/x", TimeControl="180+0"
    )
    clock = 180.0
    for node in game.mainline():
        clock -= rng.randint(0, 5)
        node.set_clock(max(clock, 0))
        if rng.random() < 0.1:
            node.nags.add(rng.choice([1, 2, 6]))
    return str(game)


def _games() -> list[tuple[str, str]]:
    rng = random.Random(SEED)
    print(f"seed {SEED}")
    games = []
    for name in VARIANTS:
        for fen in [None, None, None, *STARTS.get(name, [])]:
            games.append((name, _random_game(name, fen, rng)))
    return games


GAMES = _games()


@pytest.mark.parametrize(
    ("name", "text"), GAMES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(GAMES)]
)
def test_variant_game_reads_as_python_chess_reads_it(name: str, text: str) -> None:
    theirs = chess.pgn.read_game(io.StringIO(text))
    ours = shatranj.pgn.read_game(io.StringIO(text))
    assert theirs is not None and ours is not None
    assert not theirs.errors and not ours.errors, ours.errors
    their_board, our_board = theirs.board(), ours.board()
    assert type(our_board).__name__ == type(their_board).__name__
    assert our_board.uci_variant == their_board.uci_variant
    assert our_board.chess960 == their_board.chess960
    assert our_board.fen() == their_board.fen()
    their_moves, our_moves = list(theirs.mainline_moves()), list(ours.mainline_moves())
    assert [m.uci() for m in our_moves] == [m.uci() for m in their_moves]
    for our_node, their_node in zip(ours.mainline(), theirs.mainline()):
        assert our_node.san() == their_node.san()
        assert our_node.clock() == their_node.clock()
        assert our_node.nags == their_node.nags
    for our_move, their_move in zip(our_moves, their_moves):
        assert our_board.san(our_move) == their_board.san(their_move)
        our_board.push(our_move)
        their_board.push(their_move)
        assert our_board.fen() == their_board.fen()
    assert ours.end().board().fen() == theirs.end().board().fen()
    assert str(ours) == str(theirs) == text
    exporter = chess.pgn.StringExporter(columns=80)
    assert ours.accept(shatranj.pgn.StringExporter(columns=80)) == theirs.accept(exporter)


@pytest.mark.parametrize("name", VARIANTS)
def test_game_from_a_variant_board_writes_as_python_chess(name: str) -> None:
    rng = random.Random(f"{SEED}-{name}")
    theirs = chess.variant.find_variant(name)()
    ours = shatranj.variant.find_variant(name)()
    for _ in range(30):
        if theirs.is_game_over():
            break
        move = rng.choice(sorted(theirs.legal_moves, key=lambda m: m.uci()))
        theirs.push(move)
        ours.push(shatranj.Move.from_uci(move.uci()))
    their_game = chess.pgn.Game.from_board(theirs)
    our_game = shatranj.pgn.Game.from_board(ours)
    assert dict(our_game.headers) == dict(their_game.headers)
    assert str(our_game) == str(their_game)
    # Edited after building: the tree is written from Python's nodes.
    our_game.end().comment = "the end"
    their_game.end().comment = "the end"
    assert str(our_game) == str(their_game)
    back = shatranj.pgn.read_game(io.StringIO(str(our_game)))
    assert back is not None and not back.errors
    assert back.end().board().fen() == ours.fen()


def test_setup_sets_and_clears_the_variant_tag() -> None:
    game = shatranj.pgn.Game()
    game.setup(shatranj.variant.CrazyhouseBoard())
    assert game.headers["Variant"] == "Crazyhouse"
    assert game.headers["FEN"] == shatranj.variant.CrazyhouseBoard.starting_fen
    assert "SetUp" not in game.headers
    assert type(game.board()) is shatranj.variant.CrazyhouseBoard
    game.setup(shatranj.Board())
    assert "Variant" not in game.headers and "FEN" not in game.headers


def test_unknown_variant_is_reported_and_read_as_standard_chess() -> None:
    text = '[Variant "Shogi"]\n\n1. e4 e5 *\n'
    theirs = chess.pgn.read_game(io.StringIO(text))
    ours = shatranj.pgn.read_game(io.StringIO(text))
    assert theirs is not None and ours is not None
    assert [m.uci() for m in ours.mainline_moves()] == [m.uci() for m in theirs.mainline_moves()]
    assert len(theirs.errors) == len(ours.errors) == 1
    assert "unsupported variant: Shogi" in str(ours.errors[0])
    with pytest.raises(ValueError, match="unsupported variant"):
        ours.board()


def test_illegal_variant_move_is_the_standard_error() -> None:
    # Antichess: a capture is compulsory, so 2. Nf3 is illegal.
    text = '[Variant "Antichess"]\n\n1. e3 b5 2. Nf3 *\n'
    ours = shatranj.pgn.read_game(io.StringIO(text))
    assert ours is not None
    assert len(list(ours.mainline_moves())) == 2
    assert isinstance(ours.errors[0], shatranj.IllegalMoveError)

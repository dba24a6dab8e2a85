"""Chess960 boards on the native board (issue 38 step 5) against python-chess's Chess960
board: seeded random games from random starts, checking after every move what python-chess
answers (legal moves in its order, castling written king-takes-rook, SAN, FEN and
Shredder-FEN, castling rights by rook square, Polyglot key, outcome), and the move stack,
copies and pickles on the way back.
"""

from __future__ import annotations

import pickle
import random

import chess
import chess.polyglot
import pytest

import shatranj


def _same(board: shatranj.Board, ref: chess.Board) -> None:
    assert board._setup is None, "a legal Chess960 board plays natively"
    assert board.chess960 and ref.chess960
    assert board.fen() == ref.fen()
    assert board.shredder_fen() == ref.shredder_fen()
    assert board.castling_rights == ref.castling_rights
    assert [m.uci() for m in board.legal_moves] == [m.uci() for m in ref.legal_moves]
    assert sorted(m.uci() for m in board.pseudo_legal_moves) == sorted(
        m.uci() for m in ref.pseudo_legal_moves
    )
    assert board.zobrist_hash() == chess.polyglot.zobrist_hash(ref)
    assert board.is_check() == ref.is_check()
    ours, theirs = board.outcome(), ref.outcome()
    assert (ours is None) == (theirs is None)
    if ours is not None and theirs is not None:
        assert ours.result() == theirs.result()
    assert int(board.status()) == int(ref.status())
    assert board.has_kingside_castling_rights(chess.WHITE) == ref.has_kingside_castling_rights(
        chess.WHITE
    )
    assert board.has_queenside_castling_rights(chess.BLACK) == ref.has_queenside_castling_rights(
        chess.BLACK
    )


@pytest.mark.parametrize("seed", range(8))
def test_chess960_games_on_the_native_board_match_python_chess(seed: int) -> None:
    print("seed", seed)
    rng = random.Random(9600 + seed)
    index = rng.randrange(960)
    board = shatranj.Board.from_chess960_pos(index)
    ref = chess.Board.from_chess960_pos(index)
    castlings = 0
    for _ in range(60):
        _same(board, ref)
        moves = list(ref.legal_moves)
        if not moves:
            break
        for m in moves:
            ours = shatranj.Move.from_uci(m.uci())
            assert board.is_castling(ours) == ref.is_castling(m), m
            assert board.is_capture(ours) == ref.is_capture(m), m
            assert board.gives_check(ours) == ref.gives_check(m), m
            assert board.san(ours) == ref.san(m), m
        castles = [m for m in moves if ref.is_castling(m)]
        move = rng.choice(castles or moves)
        castlings += ref.is_castling(move)
        san = ref.san(move)
        assert board.parse_san(san).uci() == move.uci()
        assert board.parse_uci(move.uci()).uci() == move.uci()
        if rng.random() < 0.5:
            assert board.push_san(san).uci() == move.uci()
        else:
            board.push(shatranj.Move.from_uci(move.uci()))
        ref.push(move)
        assert board.peek().uci() == ref.peek().uci()
    _same(board, ref)
    assert [m.uci() for m in board.move_stack] == [m.uci() for m in ref.move_stack]
    print("castlings", castlings)
    # Copies, pickles and python-chess's own board keep the flag and the moves.
    for other in (board.copy(), pickle.loads(pickle.dumps(board)), board.root()):
        assert other.chess960 and other._setup is None
    again = pickle.loads(pickle.dumps(board))
    assert [m.uci() for m in again.move_stack] == [m.uci() for m in ref.move_stack]
    assert again.fen() == ref.fen()
    theirs = board.to_chess()
    assert theirs.chess960 and theirs.fen() == ref.fen() and theirs.move_stack == ref.move_stack
    assert repr(board) == repr(ref)
    line = [shatranj.Move.from_uci(m.uci()) for m in ref.move_stack]
    assert board.root().variation_san(line) == ref.root().variation_san(ref.move_stack)
    while ref.move_stack:
        assert board.pop().uci() == ref.pop().uci()
        _same(board, ref)


def test_castling_spellings_on_a_chess960_board() -> None:
    # A standard start on a Chess960 board: castling is the king taking its rook, and e1g1
    # is read as it (python-chess's push), while the king's one-file step stays a step.
    board = shatranj.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", chess960=True)
    ref = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", chess960=True)
    _same(board, ref)
    assert "e1h1" in [m.uci() for m in board.legal_moves] and "e1g1" not in [
        m.uci() for m in board.legal_moves
    ]
    board.push(shatranj.Move.from_uci("e1g1"))
    ref.push(chess.Move.from_uci("e1g1"))
    assert board.peek().uci() == ref.peek().uci() == "e1h1"
    _same(board, ref)
    # The king on b1 beside its a1 rook: b1a1 castles, b1c1 is a king step.
    board = shatranj.Board("4k2r/8/8/8/8/8/8/RK6 w Ah - 0 1", chess960=True)
    ref = chess.Board("4k2r/8/8/8/8/8/8/RK6 w Ah - 0 1", chess960=True)
    _same(board, ref)
    for uci in ("b1a1", "b1c1"):
        b, r = board.copy(), ref.copy()
        b.push(shatranj.Move.from_uci(uci))
        r.push(chess.Move.from_uci(uci))
        _same(b, r)
        assert b.san(shatranj.Move.from_uci("e8f8")) == r.san(chess.Move.from_uci("e8f8"))


def test_derived_boards_and_notation_match_python_chess() -> None:
    # Mirrors, partial copies, from_chess, LAN, xboard, find_move and the castling-rights
    # helpers of Chess960 positions reached by seeded random games.
    seed = 5
    print("seed", seed)
    rng = random.Random(seed)
    for _ in range(12):
        n = rng.randrange(960)
        board, ref = shatranj.Board.from_chess960_pos(n), chess.Board.from_chess960_pos(n)
        for _ in range(rng.randrange(0, 40)):
            moves = list(ref.legal_moves)
            if not moves:
                break
            move = rng.choice([m for m in moves if ref.is_castling(m)] or moves)
            ref.push(move)
            board.push(shatranj.Move.from_uci(move.uci()))
        assert board.mirror().fen() == ref.mirror().fen() and board.mirror().chess960
        assert board.copy(stack=2).fen() == ref.copy(stack=2).fen()
        assert [m.uci() for m in board.copy(stack=2).move_stack] == [
            m.uci() for m in ref.copy(stack=2).move_stack
        ]
        assert board.epd(shredder=True) == ref.epd(shredder=True)
        assert board.clean_castling_rights() == ref.clean_castling_rights()
        assert board.has_chess960_castling_rights() == ref.has_chess960_castling_rights()
        assert board.chess960_pos() == ref.chess960_pos()
        back = shatranj.Board.from_chess(ref)
        assert back.chess960 and back.fen() == ref.fen()
        assert [m.uci() for m in back.move_stack] == [m.uci() for m in ref.move_stack]
        for m in ref.legal_moves:
            ours = shatranj.Move.from_uci(m.uci())
            assert board.lan(ours) == ref.lan(m)
            assert board.xboard(ours) == ref.xboard(m)
            assert board.is_kingside_castling(ours) == ref.is_kingside_castling(m)
            assert board.is_zeroing(ours) == ref.is_zeroing(m)
            if not ref.is_castling(m):
                assert (
                    board.find_move(m.from_square, m.to_square).uci()
                    == ref.find_move(m.from_square, m.to_square).uci()
                )

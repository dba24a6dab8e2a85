"""Setup mode (issue 20) against python-chess: Chess960 games and boards that are not legal
positions, played move by move, must agree on the legal moves, SAN, FEN and status().

Setup mode (board/setup_mode.rs, over the rules crate's ``Setup``) plays what the rules crate's
``Position`` refuses; python-chess is the reference here, as in test_differential.
"""

from __future__ import annotations

import random

import chess
import chess.polyglot
import pytest

import shatranj


def _same(board: shatranj.Board, ref: chess.Board) -> None:
    assert board.fen() == ref.fen()
    assert sorted(m.uci() for m in board.legal_moves) == sorted(m.uci() for m in ref.legal_moves)
    assert int(board.status()) == int(ref.status())
    assert board.is_check() == ref.is_check()


@pytest.mark.parametrize("seed", range(6))
def test_chess960_games_match_python_chess(seed: int) -> None:
    rng = random.Random(seed)
    index = rng.randrange(960)
    board = shatranj.Board.from_chess960_pos(index)
    ref = chess.Board.from_chess960_pos(index)
    assert board.shredder_fen() == ref.shredder_fen()
    for _ in range(80):
        _same(board, ref)
        moves = list(ref.legal_moves)
        if not moves:
            break
        # Prefer castling when it is there, so that both sides castle in most games.
        castles = [m for m in moves if ref.is_castling(m)]
        move = rng.choice(castles or moves)
        san = ref.san(move)
        assert board.san(shatranj.Move.from_uci(move.uci())) == san
        assert board.parse_san(san).uci() == move.uci()
        board.push_san(san)
        ref.push(move)
    while ref.move_stack:
        ref.pop()
        board.pop()
    _same(board, ref)


@pytest.mark.parametrize("seed", range(6))
def test_random_placements_match_python_chess(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(25):
        ref = chess.Board(None)
        for _ in range(rng.randrange(1, 9)):
            piece = chess.Piece(rng.randrange(1, 7), rng.random() < 0.5)
            ref.set_piece_at(rng.randrange(64), piece)
        ref.turn = rng.random() < 0.5
        board = shatranj.Board(ref.fen())
        _same(board, ref)
        for _ in range(6):
            moves = list(ref.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            assert board.san(shatranj.Move.from_uci(move.uci())) == ref.san(move)
            board.push(shatranj.Move.from_uci(move.uci()))
            ref.push(move)
            _same(board, ref)


def test_edits_move_between_setup_mode_and_the_native_board() -> None:
    board = shatranj.Board()
    board.remove_piece_at(shatranj.E1)
    assert (
        board._setup is not None
        and board.status() == shatranj.STATUS_NO_WHITE_KING | shatranj.STATUS_BAD_CASTLING_RIGHTS
    )
    with pytest.raises(ValueError):
        board.zobrist_hash()  # the native-only methods say why they are not there
    board.set_piece_at(shatranj.E1, shatranj.Piece(shatranj.KING, shatranj.WHITE))
    # The rights were cleaned when the king left; python-chess keeps them as set, and so
    # does the board, reporting them: only the native board plays again.
    assert board._setup is None and board.legal_moves.count() == 20
    board.turn = shatranj.BLACK
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"
    board.castling_rights = shatranj.BB_A1 | shatranj.BB_H8
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b Qk - 0 1"
    board.chess960 = True
    # A legal Chess960 board plays on the native board too (issue 38 step 5).
    assert (
        board._setup is None
        and board.chess960
        and board.shredder_fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b Ah - 0 1"
    )
    ref = chess.Board(board.fen(), chess960=True)
    assert board.zobrist_hash() == chess.polyglot.zobrist_hash(ref)


def test_status_of_native_boards_matches_python_chess() -> None:
    # status() of boards on the hot path: the native position read as a Setup (board/setup_mode.rs).
    rng = random.Random(1)
    for _ in range(30):
        ref, board = chess.Board(), shatranj.Board()
        for _ in range(rng.randrange(1, 80)):
            moves = list(ref.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            ref.push(move)
            board.push(shatranj.Move.from_uci(move.uci()))
            assert int(board.status()) == int(ref.status()), ref.fen()
    for fen in [
        "1r2k3/8/8/8/8/8/8/R3KR2 w KQkq - 0 1",  # rights without their rooks
        "1b1b4/8/b1P5/2kP4/8/2b4K/8/8 w - c6 0 1",  # an impossible en-passant square
        "QQQQQQQQ/QQQQQQQQ/8/8/8/3k4/8/K7 w - - 0 1",  # too many pieces
        "rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6",  # an impossible check
    ]:
        assert int(shatranj.Board(fen).status()) == int(chess.Board(fen).status()), fen

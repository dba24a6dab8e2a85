"""Setup mode (issue 20) against python-chess: Chess960 games and boards that are not legal
positions, played move by move, must agree on the legal moves, SAN, FEN and status().

Setup mode is shatranj's slow pure-Python board (``shatranj._setup``) for what the rules
crate's ``Position`` refuses; python-chess is the reference here, as in test_differential.
"""

from __future__ import annotations

import random

import chess
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
    assert board._setup is not None and board.status() == shatranj.STATUS_NO_WHITE_KING | shatranj.STATUS_BAD_CASTLING_RIGHTS
    board.set_piece_at(shatranj.E1, shatranj.Piece(shatranj.KING, shatranj.WHITE))
    # The rights were cleaned when the king left; python-chess keeps them as set, and so
    # does the board, reporting them: only the native board plays again.
    assert board._setup is None and board.legal_moves.count() == 20
    board.turn = shatranj.BLACK
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"
    board.castling_rights = shatranj.BB_A1 | shatranj.BB_H8
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b Qk - 0 1"
    board.chess960 = True
    assert board._setup is not None and board.chess960 and board.shredder_fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b Ah - 0 1"
    with pytest.raises(ValueError):
        board.zobrist_hash()  # the native-only methods say why they are not there

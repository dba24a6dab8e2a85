"""numpy planes and features against a pure-Python reference built from piece_at."""

from __future__ import annotations

import random

import numpy as np
import pytest

import shatranj

FENS = [
    shatranj.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
]


def reference_planes(board: shatranj.Board) -> np.ndarray:
    planes = np.zeros((12, 8, 8), dtype=np.uint8)
    for square in shatranj.SQUARES:
        piece = board.piece_at(square)
        if piece is not None:
            plane = (0 if piece.color else 6) + piece.piece_type - 1
            planes[plane, shatranj.square_rank(square), shatranj.square_file(square)] = 1
    return planes


def reference_features(board: shatranj.Board) -> np.ndarray:
    features = np.zeros(13, dtype=np.uint8)
    features[0] = board.turn
    features[1] = board.has_kingside_castling_rights(shatranj.WHITE)
    features[2] = board.has_queenside_castling_rights(shatranj.WHITE)
    features[3] = board.has_kingside_castling_rights(shatranj.BLACK)
    features[4] = board.has_queenside_castling_rights(shatranj.BLACK)
    if board.has_legal_en_passant():
        assert board.ep_square is not None
        features[5 + shatranj.square_file(board.ep_square)] = 1
    return features


def random_boards(seed: int, count: int) -> list[shatranj.Board]:
    rng = random.Random(seed)
    boards = []
    for i in range(count):
        board = shatranj.Board(FENS[i % len(FENS)])
        for _ in range(rng.randrange(40)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board)
    return boards


def test_planes_and_features_match_the_reference() -> None:
    seed = 77
    print(f"seed {seed}")
    boards = random_boards(seed, 200)
    for board in boards:
        planes = board.to_planes()
        assert planes.shape == (12, 8, 8) and planes.dtype == np.uint8
        np.testing.assert_array_equal(planes, reference_planes(board), err_msg=board.fen())
        features = board.features()
        assert features.shape == (13,) and features.dtype == np.uint8
        np.testing.assert_array_equal(features, reference_features(board), err_msg=board.fen())
    batch = shatranj.boards_to_planes(boards)
    assert batch.shape == (len(boards), 12, 8, 8)
    np.testing.assert_array_equal(batch, np.stack([reference_planes(b) for b in boards]))
    feats = shatranj.boards_to_features(tuple(boards))
    np.testing.assert_array_equal(feats, np.stack([reference_features(b) for b in boards]))


def test_planes_as_bytes_are_the_planes_in_c_order() -> None:
    seed = 78
    print(f"seed {seed}")
    for board in random_boards(seed, 200):
        data = board.to_planes_bytes()
        assert type(data) is bytes and len(data) == 12 * 64
        np.testing.assert_array_equal(
            np.frombuffer(data, np.uint8).reshape(12, 8, 8),
            reference_planes(board),
            err_msg=board.fen(),
        )
        assert data == board.to_planes().tobytes()
    with pytest.raises(TypeError):
        shatranj.Board().to_planes_bytes(1)  # type: ignore[call-arg]
    # A board the rules do not allow (setup mode) has no planes, as for to_planes().
    with pytest.raises(ValueError, match="to_planes_bytes"):
        shatranj.Board("8/8/8/8/8/8/8/K7 w - - 0 1").to_planes_bytes()


def test_arrays_are_writable_and_empty_batches_work() -> None:
    planes = shatranj.Board().to_planes()
    planes[0, 0, 0] = 7  # owned by the caller
    assert shatranj.Board().to_planes()[0, 0, 0] == 0
    assert shatranj.boards_to_planes([]).shape == (0, 12, 8, 8)
    assert shatranj.boards_to_planes(b for b in [shatranj.Board()]).shape == (1, 12, 8, 8)

"""shatranj.evaluate from a numpy array of compact records (shatranj.pack_positions): the same
scores as from the boards, on the CPU and the GPU, for the classical evaluation and a network;
the record layout; and typed errors for arrays that are not records.

Without a GPU adapter the GPU comparisons are skipped with the reason, unless
SHATRANJ_REQUIRE_GPU=1 (set by scripts/test, where Mesa's lavapipe provides one).
"""

from __future__ import annotations

import numpy as np
import pytest

import shatranj
from shatranj import nnue
from support.boards import random_boards
from support.gpu import require_gpu
from support.repo import ROOT

SEED = 0xA77A
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1"


@pytest.fixture(scope="module")
def boards() -> list[shatranj.Board]:
    print(f"seed {SEED:#x}")
    return [shatranj.Board(), shatranj.Board(KIWIPETE)] + random_boards(SEED, 600)


@pytest.fixture(scope="module")
def network() -> nnue.Network:
    rng = np.random.default_rng(SEED)
    print(f"network seed {SEED:#x}")
    w1 = rng.uniform(-1, 1, (nnue.INPUTS, 32)) / np.sqrt(nnue.INPUTS)
    w2 = rng.uniform(-1, 1, (2, 32)) / 8
    return nnue.build_network(w1, rng.uniform(0, 0.3, 32), w2, 0.05)


def test_records_follow_the_documented_layout() -> None:
    records = shatranj.pack_positions([shatranj.STARTING_FEN, KIWIPETE])
    assert records.dtype == np.uint8 and records.shape == (2, 32)
    words = records.view("<u4")
    # The start: ranks 1-2 and 7-8 occupied; codes a1.. = R N B Q K B N R, then eight pawns.
    assert words[0, 0] == 0x0000FFFF and words[0, 1] == 0xFFFF0000
    assert (
        words[0, 2] == 0x31254213
    )  # a1-h1: rook 3, knight 1, bishop 2, queen 4, king 5, ... (a1 lowest)
    assert words[0, 3] == 0x00000000  # eight white pawns (code 0)
    assert words[0, 6] == 0 and words[1, 6] == 1  # Black to move in the second
    assert words[0, 7] == 0


def test_an_array_scores_as_its_boards(boards: list[shatranj.Board], network: nnue.Network) -> None:
    records = shatranj.pack_positions(boards)
    assert np.array_equal(records, shatranj.pack_positions([b.fen() for b in boards]))
    for eval_file in ("classical", network):
        expected = shatranj.evaluate(boards, device="cpu", eval_file=eval_file)
        scores = shatranj.evaluate(records, device="cpu", eval_file=eval_file)
        assert scores.dtype == np.int32 and np.array_equal(scores, expected), eval_file


def test_an_array_scores_alike_on_the_gpu(
    boards: list[shatranj.Board], network: nnue.Network
) -> None:
    require_gpu()
    records = shatranj.pack_positions(boards)
    for eval_file in ("classical", network):
        expected = shatranj.evaluate(boards, device="cpu", eval_file=eval_file)
        assert np.array_equal(
            shatranj.evaluate(records, device="gpu", eval_file=eval_file), expected
        )
        # A slice of rows is contiguous too; one row, and none.
        assert np.array_equal(
            shatranj.evaluate(records[5:9], device="gpu", eval_file=eval_file), expected[5:9]
        )
        assert shatranj.evaluate(records[:0], device="gpu", eval_file=eval_file).shape == (0,)


def test_arrays_of_boards_or_fens_are_iterated(boards: list[shatranj.Board]) -> None:
    expected = shatranj.evaluate(boards[:20], device="cpu")
    fens = [b.fen() for b in boards[:20]]
    assert np.array_equal(shatranj.evaluate(np.array(fens), device="cpu"), expected)
    assert np.array_equal(
        shatranj.evaluate(np.array(boards[:20], dtype=object), device="cpu"), expected
    )
    assert np.array_equal(shatranj.pack_positions(np.array(fens)), shatranj.pack_positions(fens))


def test_feature_columns_give_the_same_records(boards: list[shatranj.Board]) -> None:
    assert np.array_equal(nnue.features(boards).records(), shatranj.pack_positions(boards))


def test_training_data_is_scored_from_its_records() -> None:
    data = nnue.read_data(ROOT / "rust" / "train" / "tests" / "data" / "tiny.sgd").train
    records = data.records()
    assert records.shape == (len(data), 32)
    scores = shatranj.evaluate(records, device="cpu")  # every record passes the checks
    assert scores.shape == (len(data),) and np.any(scores != 0)


def test_an_unaligned_copy_is_read_alike(boards: list[shatranj.Board]) -> None:
    records = shatranj.pack_positions(boards[:50])
    raw = np.zeros(50 * 32 + 1, dtype=np.uint8)
    unaligned = raw[1:].reshape(50, 32)
    unaligned[:] = records
    assert np.array_equal(
        shatranj.evaluate(unaligned, device="cpu"), shatranj.evaluate(records, device="cpu")
    )


def test_arrays_that_are_not_records_are_typed_errors() -> None:
    records = shatranj.pack_positions([shatranj.STARTING_FEN] * 4)
    with pytest.raises(TypeError, match="uint8"):
        shatranj.evaluate(records.view("<u4"), device="cpu")
    with pytest.raises(TypeError, match="uint8"):
        shatranj.evaluate(records.astype(np.int64), device="cpu")
    with pytest.raises(ValueError, match=r"shape must be \(N, 32\)"):
        shatranj.evaluate(records.reshape(-1), device="cpu")
    with pytest.raises(ValueError, match=r"shape must be \(N, 32\)"):
        shatranj.evaluate(records.reshape(8, 16), device="cpu")
    with pytest.raises(ValueError, match="C-contiguous"):
        shatranj.evaluate(np.asfortranarray(records), device="cpu")
    cases = [
        (3, 6, 2, "flags"),  # word 6: the flags may only be 0 or 1
        (1, 2, 0xE, "code 14"),  # a piece code above 11 (byte 8: the first code)
        (2, 4, 0x1, "no piece"),  # a code beyond the last piece (the start has 32: drop one)
    ]
    for row, word, value, message in cases:
        bad = records.copy()
        words = bad.view("<u4")
        if message == "no piece":
            words[row, 1] &= ~np.uint32(1 << 31)  # h8 empty: its code is left over
        elif message == "code 14":
            words[row, 2] = (words[row, 2] & ~np.uint32(0xF)) | np.uint32(value)
        else:
            words[row, word] = value
        with pytest.raises(ValueError, match=rf"positions\[{row}\]: .*{message}"):
            shatranj.evaluate(bad, device="cpu")
    no_king = shatranj.pack_positions(["4k3/8/8/8/8/8/8/4K3 w - - 0 1"])
    assert no_king.view("<u4")[0, 2] == 0xB5  # e1 white king (5), e8 black king (11)
    no_king.view("<u4")[0, 2] = 0xB4  # the white king becomes a queen
    with pytest.raises(ValueError, match=r"positions\[0\]: .* 0 kings"):
        shatranj.evaluate(no_king, device="cpu")


def test_pack_positions_names_what_it_cannot_pack() -> None:
    with pytest.raises(ValueError, match=r"boards\[1\]"):
        shatranj.pack_positions([shatranj.STARTING_FEN, "not a fen"])
    with pytest.raises(ValueError, match=r"boards\[0\]: 33 pieces"):
        shatranj.pack_positions(["QQQQQQQQ/QQQQQQQQ/K7/8/8/8/qqqqqqqq/qqqqqqqk w - - 0 1"])
    with pytest.raises(TypeError, match=r"boards\[0\].*int"):
        shatranj.pack_positions([7])  # type: ignore[list-item]
    assert shatranj.pack_positions([]).shape == (0, 32)

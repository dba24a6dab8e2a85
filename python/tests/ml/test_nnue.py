"""shatranj.nnue: training data into numpy, networks out of numpy, and eval_file= everywhere.

The data is the fixture shard of the Rust trainer's tests (rust/train/tests/data/tiny.sgd:
200 games, 17,093 training positions); nothing here reads data/nnue/. Networks are random,
from printed seeds.
"""

from __future__ import annotations

import os
import pickle
import re
import shutil
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import shatranj
from shatranj import nnue
from support.boards import random_boards
from support.gpu import require_gpu
from support.repo import ROOT

FIXTURE = ROOT / "rust" / "train" / "tests" / "data" / "tiny.sgd"
FIXTURE_POSITIONS = 17093
FIXTURE_GAMES = 200
SEED = 0x4E4E

Weights = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64], float]


def random_weights(seed: int, hidden: int = 32) -> Weights:
    """Weights of the trainer's initial size (±1/√fan-in, small biases): a network whose
    quantisation error is a few centipawns, like a trained one's."""
    print(f"weights seed {seed:#x}, hidden {hidden}")
    rng = np.random.default_rng(seed)
    w1 = rng.uniform(-1, 1, (nnue.INPUTS, hidden)) / np.sqrt(nnue.INPUTS)
    b1 = rng.uniform(0, 0.3, hidden)
    w2 = rng.uniform(-1, 1, (2, hidden)) / np.sqrt(2 * hidden)
    return w1, b1, w2, float(rng.uniform(-0.1, 0.1))


@pytest.fixture(scope="module")
def data() -> nnue.Dataset:
    return nnue.read_data(FIXTURE, validation_every=10)


@pytest.fixture(scope="module")
def net_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("nnue") / "random.nnue"
    nnue.save_network(path, *random_weights(SEED))
    return path


@pytest.fixture(scope="module")
def boards() -> list[shatranj.Board]:
    print(f"boards seed {SEED:#x}")
    return [shatranj.Board()] + random_boards(SEED, 40)


# ----- reading data -------------------------------------------------------------------------


def test_the_fixture_reads_into_columns_of_the_documented_shapes(data: nnue.Dataset) -> None:
    assert data.games == FIXTURE_GAMES
    assert data.files == [os.fspath(FIXTURE)]
    assert len(data.train) + len(data.validation) == FIXTURE_POSITIONS
    assert 0 < len(data.validation) < len(data.train)
    for part in (data.train, data.validation):
        n = len(part)
        for name, dtype, shape in (
            ("white", np.int16, (n, nnue.MAX_PIECES)),
            ("black", np.int16, (n, nnue.MAX_PIECES)),
            ("count", np.uint8, (n,)),
            ("turn", np.bool_, (n,)),
            ("score", np.int16, (n,)),
            ("result", np.float32, (n,)),
        ):
            column = getattr(part, name)
            assert column.dtype == dtype and column.shape == shape, name
            assert column.flags.writeable and column.flags.c_contiguous, name


def test_rows_hold_the_features_of_real_positions(data: nnue.Dataset) -> None:
    part = data.train
    slots = np.arange(nnue.MAX_PIECES)[None, :]
    used = slots < part.count[:, None]
    assert np.all((part.count >= 2) & (part.count <= 32))
    # Used slots hold features, the others the padding.
    for view in (part.white, part.black):
        assert np.all((view[used] >= 0) & (view[used] < nnue.INPUTS))
        assert np.all(view[~used] == nnue.PAD)
    # The black view is the white one with colours swapped and the board flipped.
    white = part.white.astype(np.int64)
    assert np.array_equal(part.black[used], (((white + 384) % 768) ^ 56)[used])
    # One king of each colour (king = role 5), in every position.
    role_colour = np.where(used, white // 64, -1)
    assert np.all((role_colour == 5).sum(axis=1) == 1)
    assert np.all((role_colour == 11).sum(axis=1) == 1)
    # Scores are real scores (datagen's "not kept" sentinel never appears), results 0/½/1.
    assert np.all(part.score != -32768)
    assert set(np.unique(part.result).tolist()) <= {0.0, 0.5, 1.0}
    assert set(np.unique(part.turn).tolist()) == {False, True}


def test_views_put_the_side_to_move_first(data: nnue.Dataset) -> None:
    part = data.validation
    us, them = part.views()
    white_to_move = part.turn
    assert np.array_equal(us[white_to_move], part.white[white_to_move])
    assert np.array_equal(them[white_to_move], part.black[white_to_move])
    assert np.array_equal(us[~white_to_move], part.black[~white_to_move])
    assert np.array_equal(them[~white_to_move], part.white[~white_to_move])


def test_rows_index_every_column_alike(data: nnue.Dataset) -> None:
    part = data.train
    rng = np.random.default_rng(SEED)
    pick = rng.permutation(len(part))[:100]
    batch = part[pick]
    assert isinstance(batch, nnue.TrainingData) and len(batch) == 100
    assert np.array_equal(batch.score, part.score[pick])
    assert np.array_equal(batch.white, part.white[pick])
    assert len(part[3]) == 1 and part[3].score[0] == part.score[3]
    assert len(part[part.turn]) == int(part.turn.sum())


def test_the_split_and_the_whole_hold_the_same_positions(data: nnue.Dataset) -> None:
    whole = nnue.read_data(str(FIXTURE)).train
    assert len(whole) == FIXTURE_POSITIONS
    assert len(nnue.read_data(FIXTURE).validation) == 0
    split = [data.train, data.validation]
    assert sum(int(p.score.astype(np.int64).sum()) for p in split) == int(
        whole.score.astype(np.int64).sum()
    )
    assert sum(float(p.result.sum()) for p in split) == pytest.approx(float(whole.result.sum()))


def test_folders_and_lists_read_every_shard_in_order(tmp_path: Path) -> None:
    for name in ("b.sgd", "a.sgd"):
        shutil.copy(FIXTURE, tmp_path / name)
    (tmp_path / "manifest.tsv").write_text("not a shard\n")
    folder = nnue.read_data(tmp_path)
    assert folder.files == [str(tmp_path / "a.sgd"), str(tmp_path / "b.sgd")]
    assert folder.games == 2 * FIXTURE_GAMES and len(folder.train) == 2 * FIXTURE_POSITIONS
    listed = nnue.read_data([FIXTURE, tmp_path / "a.sgd"])
    assert len(listed.train) == 2 * FIXTURE_POSITIONS
    assert np.array_equal(
        listed.train.white[:FIXTURE_POSITIONS], listed.train.white[FIXTURE_POSITIONS:]
    )


def test_bad_data_raises_training_data_error_naming_the_file(tmp_path: Path) -> None:
    assert issubclass(shatranj.TrainingDataError, ValueError)
    assert nnue.TrainingDataError is shatranj.TrainingDataError
    missing = tmp_path / "missing.sgd"
    with pytest.raises(shatranj.TrainingDataError, match=re.escape(str(missing))):
        nnue.read_data(missing)
    garbage = tmp_path / "garbage.sgd"
    garbage.write_bytes(b"this is not zstd" * 10)
    with pytest.raises(shatranj.TrainingDataError, match=re.escape(str(garbage))):
        nnue.read_data(garbage)
    truncated = tmp_path / "truncated.sgd"
    truncated.write_bytes(FIXTURE.read_bytes()[:-200])
    with pytest.raises(shatranj.TrainingDataError, match="truncated.sgd"):
        nnue.read_data([FIXTURE, truncated])
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(shatranj.TrainingDataError, match="no .sgd shards"):
        nnue.read_data(empty)
    with pytest.raises(ValueError, match="no paths"):
        nnue.read_data([])
    with pytest.raises(ValueError, match="validation_every"):
        nnue.read_data(FIXTURE, validation_every=-1)
    with pytest.raises(TypeError):
        nnue.read_data(17)  # type: ignore[arg-type]


# ----- features of boards -------------------------------------------------------------------


def test_board_features_follow_the_documented_formula(boards: list[shatranj.Board]) -> None:
    features = nnue.features(boards)
    assert len(features) == len(boards)
    for i, board in enumerate(boards):
        expected = set()
        for square in shatranj.SQUARES:
            piece = board.piece_at(square)
            if piece is not None:
                theirs = 0 if piece.color == shatranj.WHITE else 1
                expected.add(64 * (6 * theirs + piece.piece_type - 1) + square)
        row = features.white[i][: features.count[i]]
        assert set(row.tolist()) == expected, board.fen()
        assert features.turn[i] == board.turn
    with pytest.raises(TypeError, match="shatranj.Board"):
        nnue.features(["not a board"])  # type: ignore[list-item]


# ----- networks from numpy ------------------------------------------------------------------


def test_a_saved_network_evaluates_alike_everywhere(
    net_path: Path, boards: list[shatranj.Board]
) -> None:
    net = nnue.load_network(net_path)
    engine = shatranj.Engine(eval_file=str(net_path))
    assert engine.evaluation == f"network {net.hash[:12]} (32 hidden, SCALE {net.scale})"
    assert net.hash[:12] in repr(engine)
    expected = np.array([engine.evaluate(b) for b in boards], dtype=np.int32)
    classical = np.array([shatranj.Engine(eval_file="classical").evaluate(b) for b in boards])
    assert not np.array_equal(expected, classical)
    for eval_file in (str(net_path), net_path, net):
        for device in ("cpu", "auto"):
            scores = shatranj.evaluate(boards, device=device, eval_file=eval_file)
            assert np.array_equal(scores, expected), (eval_file, device)
        assert shatranj.Engine(eval_file=eval_file).evaluate(boards[1]) == expected[1]
    move = engine.play(boards[0], depth=4)
    assert move in boards[0].legal_moves


def test_the_float_network_is_within_a_few_centipawns_of_the_engine(
    boards: list[shatranj.Board],
) -> None:
    w1, b1, w2, b2 = random_weights(SEED + 1, hidden=64)
    net = nnue.build_network(w1, b1, w2.reshape(-1), b2)
    engine = shatranj.evaluate(boards, device="cpu", eval_file=net).astype(np.float64)
    # The float network, written out here from the module's formula.
    features = nnue.features(boards)
    us, them = features.views()
    table = np.vstack([w1, np.zeros((1, w1.shape[1]))])

    def screlu(view: npt.NDArray[np.int16]) -> npt.NDArray[np.float64]:
        return np.asarray(np.clip(b1 + table[view].sum(axis=1), 0, 1) ** 2)

    floats = (screlu(us) @ w2[0] + screlu(them) @ w2[1] + b2) * nnue.SCALE
    assert np.allclose(nnue.float_evaluate(features, w1, b1, w2, b2), floats)
    worst = float(np.max(np.abs(floats - engine)))
    print(f"largest float-integer difference: {worst:.2f} cp over {len(boards)} boards")
    assert worst < 5.0
    # The network's own float weights are exact to the integers, to the truncating divisions.
    dequantised = nnue.float_evaluate(features, *net.to_float())
    assert float(np.max(np.abs(dequantised - engine))) < 2.0


def test_quantisation_is_the_trainers_rounding() -> None:
    w1, b1, w2, b2 = random_weights(SEED + 2)
    # x.5 after scaling rounds away from zero (Rust's f32::round), unlike numpy's round.
    w2[0, :2] = [2.5 / nnue.QB, -2.5 / nnue.QB]
    net = nnue.build_network(w1, b1, w2, b2)

    def rule(values: npt.NDArray[np.float64], by: int) -> npt.NDArray[np.float32]:
        scaled = values.astype(np.float32) * np.float32(by)
        return np.asarray(
            np.clip(np.sign(scaled) * np.floor(np.abs(scaled) + np.float32(0.5)), -32768, 32767)
        )

    assert np.array_equal(net.feature_weights, rule(w1, nnue.QA))
    assert np.array_equal(net.feature_bias, rule(b1, nnue.QA))
    assert np.array_equal(net.output_weights, rule(w2, nnue.QB))
    assert net.output_weights[0, :2].tolist() == [3, -3]
    assert net.output_bias == round(
        float(np.float32(b2) * np.float32(nnue.QA) * np.float32(nnue.QB))
    )
    assert (net.qa, net.qb, net.scale, net.hidden) == (nnue.QA, nnue.QB, nnue.SCALE, 32)


def test_networks_round_trip_through_files_bytes_pickles_and_integers(
    tmp_path: Path, net_path: Path
) -> None:
    net = nnue.load_network(net_path)
    assert len(net.hash) == 64 and net.hash[:12] in repr(net)
    again = nnue.build_network(
        net.feature_weights, net.feature_bias, net.output_weights, net.output_bias, quantised=True
    )
    assert again == net and again.hash == net.hash
    assert nnue.build_network(*net.to_float()) == net
    assert pickle.loads(pickle.dumps(net)) == net
    copy = tmp_path / "copy.nnue"
    net.save(copy)
    assert copy.read_bytes() == net_path.read_bytes() == net.to_bytes()
    # The arrays are copies: changing one leaves the network alone.
    weights = net.feature_weights
    weights[0, 0] += 1
    assert net.feature_weights[0, 0] == weights[0, 0] - 1
    # A padded table (its PAD row zero) is the network without the row.
    w1, b1, w2, b2 = net.to_float()
    padded = np.vstack([w1, np.zeros((1, net.hidden), np.float32)])
    assert nnue.build_network(padded, b1, w2, b2) == net


def test_a_network_with_output_buckets_scores_with_the_layer_of_the_piece_count(
    tmp_path: Path, boards: list[shatranj.Board]
) -> None:
    w1, b1, _, _ = random_weights(SEED + 6, hidden=64)
    rng = np.random.default_rng(SEED + 6)
    w2 = rng.uniform(-1, 1, (nnue.BUCKETS, 2, 64)) / np.sqrt(128)
    b2 = np.linspace(-0.3, 0.3, nnue.BUCKETS)
    net = nnue.build_network(w1, b1, w2, b2)
    assert net.buckets == nnue.BUCKETS == 8
    assert net.output_weights.shape == (8, 2, 64) and np.shape(net.output_bias) == (8,)
    assert "8 output buckets" in shatranj.Engine(eval_file=net).evaluation
    engine = shatranj.evaluate(boards, device="cpu", eval_file=net)
    pieces = np.array([bin(b.occupied).count("1") for b in boards])
    buckets = nnue.output_bucket(pieces)
    assert buckets.tolist() == [(min(p, 32) - 2) // 4 for p in pieces]
    assert len(set(buckets.tolist())) >= 4, "the boards should cover several buckets"
    # Each board scores as a one-layer network made of its bucket's layer.
    for k in sorted(set(buckets.tolist())):
        single = nnue.build_network(w1, b1, w2[k], b2[k])
        chosen = [b for b, bucket in zip(boards, buckets) if bucket == k]
        assert np.array_equal(
            shatranj.evaluate(chosen, device="cpu", eval_file=single), engine[buckets == k]
        ), k
    floats = nnue.float_evaluate(nnue.features(boards), w1, b1, w2, b2)
    assert float(np.max(np.abs(floats - engine))) < 5.0
    # Integers, floats, files, bytes and pickles give the same network back.
    assert (
        nnue.build_network(
            net.feature_weights,
            net.feature_bias,
            net.output_weights,
            net.output_bias,
            quantised=True,
        )
        == net
    )
    assert nnue.build_network(*net.to_float()) == net
    path = tmp_path / "buckets.nnue"
    net.save(path)
    assert nnue.load_network(path) == net and pickle.loads(pickle.dumps(net)) == net
    assert np.array_equal(shatranj.evaluate(boards, device="auto", eval_file=path), engine)
    with pytest.raises(nnue.NetworkError, match=r"output_bias has shape \(7,\); expected \(8,\)"):
        nnue.build_network(w1, b1, w2, b2[:7])
    with pytest.raises(nnue.NetworkError, match=r"or \(8, 2, 64\) with output buckets"):
        nnue.build_network(w1, b1, w2[:4], b2[:4])


def test_bad_weights_raise_network_error_saying_what_is_wrong() -> None:
    w1, b1, w2, b2 = random_weights(SEED + 3)
    h = len(b1)
    cases: list[tuple[Callable[[], Any], str]] = [
        (
            lambda: nnue.build_network(w1[:700], b1, w2, b2),
            r"feature_weights has shape \(700, 32\); expected \(768, 32\)",
        ),
        (
            lambda: nnue.build_network(w1, b1[:31], w2, b2),
            r"feature_weights has shape \(768, 32\); expected \(768, 31\)",
        ),
        (
            lambda: nnue.build_network(w1, b1.reshape(2, 16), w2, b2),
            r"feature_bias has shape \(2, 16\)",
        ),
        (
            lambda: nnue.build_network(w1, b1, w2[:, :5], b2),
            r"output_weights has shape \(2, 5\); expected \(2, 32\) or \(64,\)",
        ),
        (lambda: nnue.build_network(w1, b1, w2, [b2, b2]), r"output_bias has shape \(2,\)"),
        (
            lambda: nnue.build_network(w1[:, :30], b1[:30], w2[:, :30], b2),
            "hidden size 30 is not a multiple of 32",
        ),
        (
            lambda: nnue.build_network(w1, b1, w2 * 100, b2),
            r"output weight \d+ is .*beyond ±128.*trainer clips",
        ),
        (
            lambda: nnue.build_network(w1 * 200, b1, w2, b2),
            r"hidden neuron \d+ could reach .*i16 accumulator",
        ),
        (
            lambda: nnue.build_network(np.where(w1 > 0.03, np.nan, w1), b1, w2, b2),
            r"feature_weights\[\d+, \d+\] is NaN",
        ),
        (lambda: nnue.build_network(w1, b1, w2, float("inf")), "output_bias is inf"),
        (
            lambda: nnue.build_network(w1, b1, w2, b2, quantised=True),
            "quantised=True needs integer arrays",
        ),
        (
            lambda: nnue.build_network(
                np.full((768, h), 40000), np.zeros(h, int), np.zeros((2, h), int), 0, quantised=True
            ),
            r"feature_weights\[0, 0\] = 40000 does not fit int16",
        ),
        (lambda: nnue.build_network(w1, b1, w2, b2, qa=0), "QA 0"),
        (
            lambda: nnue.build_network(w1, b1, w2, b2, scale=10**12),
            "scale 1000000000000 is out of range",
        ),
    ]
    padded = np.vstack([w1, np.ones((1, h))])
    cases.append((lambda: nnue.build_network(padded, b1, w2, b2), "row 768 .* is not zero"))
    for make, message in cases:
        with pytest.raises(shatranj.NetworkError, match=message):
            make()
    with pytest.raises(TypeError, match="array of numbers"):
        nnue.build_network(w1, b1, w2, "zero")


def users_of(eval_file: Any) -> list[Callable[[], object]]:
    """Every call that takes an ``eval_file``."""
    return [
        partial(shatranj.Engine, eval_file=eval_file),
        partial(shatranj.evaluate, [shatranj.Board()], eval_file=eval_file),
        partial(shatranj.selfplay, games=1, depth=1, eval_file=eval_file),
    ]


def test_bad_eval_files_raise_network_error_everywhere(tmp_path: Path, net_path: Path) -> None:
    assert issubclass(shatranj.NetworkError, ValueError)
    assert nnue.NetworkError is shatranj.NetworkError
    good = net_path.read_bytes()
    damaged = bytearray(good)
    damaged[100] ^= 0xFF
    files: dict[str, bytes] = {
        "garbage.nnue": b"garbage, not a network" * 4,
        "short.nnue": good[:10],
        "truncated.nnue": good[:-2],
        "damaged.nnue": bytes(damaged),
    }
    messages = {
        "garbage.nnue": "not a shatranj network file",
        "short.nnue": "shorter than the 64-byte header",
        "truncated.nnue": "bytes, but the hidden size and architecture need",
        "damaged.nnue": "damaged",
    }
    for name, content in files.items():
        path = tmp_path / name
        path.write_bytes(content)
        loads: list[Callable[[], object]] = [
            partial(nnue.load_network, path),
            *users_of(str(path)),
            *users_of(path),
        ]
        for load in loads:
            with pytest.raises(
                shatranj.NetworkError, match=f"{re.escape(str(path))}: .*{messages[name]}"
            ):
                load()
    for name in ("nonsense", str(tmp_path / "missing.nnue")):
        for load in users_of(name):
            with pytest.raises(
                shatranj.NetworkError, match=f"cannot read {re.escape(name)}.*<default>.*classical"
            ):
                load()
    with pytest.raises(shatranj.NetworkError, match="empty evaluation name"):
        shatranj.Engine(eval_file="")
    with pytest.raises(TypeError, match="eval_file must be"):
        shatranj.Engine(eval_file=3)  # type: ignore[arg-type]
    # "<default>" is the built-in network, or an error saying this build has none.
    try:
        builtin = shatranj.Engine(eval_file="<default>")
    except shatranj.NetworkError as e:
        assert "no embedded network" in str(e)
    else:
        assert builtin.evaluation.startswith("network ")


def test_classical_is_classical_and_none_is_the_default(boards: list[shatranj.Board]) -> None:
    classical = shatranj.Engine(eval_file="classical")
    default = shatranj.Engine()
    assert classical.evaluation == "classical"
    assert shatranj.Engine(eval_file=None).evaluation == default.evaluation
    classical_scores = [classical.evaluate(b) for b in boards]
    default_scores = [default.evaluate(b) for b in boards]
    assert shatranj.evaluate(boards, eval_file=" Classical ").tolist() == classical_scores
    assert shatranj.evaluate(boards).tolist() == default_scores
    if default.evaluation == "classical":
        assert classical_scores == default_scores


def test_selfplay_plays_with_the_network_inline_and_batched(net_path: Path) -> None:
    net = nnue.load_network(net_path)
    settings: dict[str, Any] = dict(games=2, depth=2, seed=SEED, max_plies=24)
    inline = shatranj.selfplay(eval_file=net_path, **settings)
    batched = shatranj.selfplay(eval_file=net, batched=True, device="cpu", **settings)
    assert batched.stats["batches"] > 0
    assert inline.pgn() == batched.pgn()


def test_the_gpu_evaluates_and_searches_with_the_network(
    net_path: Path, boards: list[shatranj.Board]
) -> None:
    require_gpu()
    net = nnue.load_network(net_path)
    cpu = shatranj.evaluate(boards, device="cpu", eval_file=net)
    assert np.array_equal(shatranj.evaluate(boards, device="gpu", eval_file=net), cpu)
    gpu_engine = shatranj.Engine(device="gpu", eval_file=net)
    cpu_engine = shatranj.Engine(device="cpu", eval_file=net)
    assert "batched" in gpu_engine.evaluator and gpu_engine.evaluation == cpu_engine.evaluation
    board = boards[1]
    a, b = gpu_engine.analyse(board, depth=3), cpu_engine.analyse(board, depth=3)
    assert (a["score"], a["pv"], a["nodes"]) == (b["score"], b["pv"], b["nodes"])


# ----- the example the README showed (now docs/training.rst) ----------------------------------

# The README showed this code (docs/training.rst now has it as a doctest over a shard of
# data/nnue/gen0); test_the_readme_example runs it, word for word, in a folder whose
# data/nnue/gen0 holds the fixture shard.
EXAMPLE = """\
import numpy as np
import shatranj
from shatranj import nnue

data = nnue.read_data("data/nnue/gen0", validation_every=20)  # a .sgd shard, a folder, or a list
train = data.train                         # numpy columns: white, black, count, turn, score, result
us, them = train.views()                   # (N, 32) int16 features, side to move first, nnue.PAD-padded
x = np.zeros((len(train), nnue.INPUTS + 1), np.float32)
rows = np.arange(len(train))[:, None]
x[rows, us] += 1                           # a linear evaluation fitted by ridge regression: the
x[rows, them] -= 1                         # side to move's view counts +1, the other view -1
x = x[:, : nnue.INPUTS]
psqt = np.linalg.solve(x.T @ x + np.eye(nnue.INPUTS), x.T @ (train.score / nnue.SCALE))

H, c = 32, 0.15                            # as a network, exactly: (1/2 + cL)^2 - (1/2 - cL)^2 = 2cL
sign = np.repeat([1.0, -1.0], H // 2)
w1, b1 = np.outer(psqt, c * sign), np.full(H, 0.5)
w2 = np.stack([sign, -sign]) / (H * c)

net = nnue.save_network("net.nnue", w1, b1, w2, 0.0)  # quantised as `shatranj train` quantises
engine = shatranj.Engine(eval_file="net.nnue")       # the same file: UCI's EvalFile, --eval-file
board = shatranj.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
print(engine.evaluation, engine.evaluate(board), shatranj.evaluate([board], eval_file=net))
print(engine.play(board, depth=6))
"""


def test_the_readme_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert len(EXAMPLE.splitlines()) <= 25
    shards = tmp_path / "data" / "nnue" / "gen0"
    shards.mkdir(parents=True)
    shutil.copy(FIXTURE, shards / FIXTURE.name)
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {}
    exec(compile(EXAMPLE, "README example", "exec"), namespace)
    engine, board, net = namespace["engine"], namespace["board"], namespace["net"]
    assert engine.evaluation.startswith(f"network {net.hash[:12]}")
    assert shatranj.evaluate([board], eval_file="net.nnue")[0] == engine.evaluate(board)
    # The fitted table knows material: a queen is worth several pawns, either way round.
    queen_up = shatranj.Board("rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1")
    assert engine.evaluate(queen_up) > 500
    queen_down = shatranj.Board("rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    assert engine.evaluate(queen_down) < -500
    assert engine.evaluate(queen_up.mirror()) == engine.evaluate(queen_up)
    # The network is the linear evaluation (to quantisation): its float form exactly.
    features = nnue.features([queen_up, board])
    us, them = features.views()
    psqt = namespace["psqt"]
    linear = (psqt[us.clip(max=767)] * (us < 768) - psqt[them.clip(max=767)] * (them < 768)).sum(
        axis=1
    )
    floats = nnue.float_evaluate(features, namespace["w1"], namespace["b1"], namespace["w2"], 0.0)
    assert np.allclose(floats, linear * nnue.SCALE)
    out = capsys.readouterr().out
    assert out.startswith(engine.evaluation)

"""Training the engine's network from Python: data in, a network file out.

The network is the engine's NNUE (``rust/engine/src/nnue``): 768 piece-square inputs per
view, one hidden layer of ``H`` neurons shared by both views, SCReLU, one output. In floats::

    acc_v = b1 + sum(W1[f] for f in the active features of view v)      # v: us, them
    h_v   = clip(acc_v, 0, 1) ** 2
    eval  = (W2[0] @ h_us + W2[1] @ h_them + b2) * SCALE                 # centipawns, side to move

``W1`` is ``(768, H)``, ``b1`` ``(H,)``, ``W2`` ``(2, H)`` (row 0 weighs the side to move's
view), ``b2`` a number. A network may instead have :data:`BUCKETS` output layers, ``W2``
``(8, 2, H)`` and ``b2`` ``(8,)``, of which a position uses layer ``(pieces − 2) // 4``
(:func:`output_bucket`). The engine computes the same with integers (``W1, b1 × QA``,
``W2 × QB``, ``b2 × QA·QB``), within a few centipawns of the floats.

- :func:`read_data` reads datagen's shards (``.sgd``) into numpy columns, one row per
  position (:class:`TrainingData`), split into training and validation games.
- :func:`features` gives the same columns for boards, :func:`float_evaluate` the float
  network's evaluation of them.
- :func:`save_network` quantises float weights exactly as ``shatranj train`` does and writes
  the file that ``Engine(eval_file=...)``, ``shatranj.evaluate(..., eval_file=...)`` and UCI's
  ``EvalFile`` load; :func:`build_network` makes the :class:`Network` without a file, and
  :func:`load_network` reads one back, weights included.

Feature indices: ``64 * (6 * theirs + role) + square`` with role pawn 0 … king 5 and, in
Black's view, the board flipped (``square ^ 56``) and the colours swapped, so the black view
of white feature ``f`` is ``((f + 384) % 768) ^ 56``. Rows hold a position's features in a
fixed order, the unused slots of the 32 filled with :data:`PAD` (768): index a weight table
of ``769`` rows whose last row is zero, or use ``torch.nn.EmbeddingBag(769, H, mode="sum",
padding_idx=768)``, and the padding adds nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Union

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as e:  # pragma: no cover - numpy is in every test environment
    raise ImportError("shatranj.nnue needs numpy: pip install 'shatranj[numpy]'") from e


from . import _core
from ._core import Board, Network, NetworkError, TrainingDataError

if TYPE_CHECKING:
    from typing_extensions import Self  # the checker's; not a runtime dependency

__all__ = [
    "INPUTS", "MAX_PIECES", "PAD", "NO_WDL", "QA", "QB", "SCALE", "BUCKETS", "Network", "NetworkError",
    "TrainingDataError", "Features", "TrainingData", "Dataset", "read_data", "features",
    "float_evaluate", "output_bucket", "build_network", "save_network", "load_network",
]  # fmt: skip

#: Inputs per view: 2 colours × 6 roles × 64 squares.
INPUTS: int = _core.NNUE_INPUTS
#: Feature slots per row: the most pieces a position has.
MAX_PIECES: int = _core.NNUE_MAX_PIECES
#: The index in an empty feature slot (one past the last feature).
PAD: int = _core.NNUE_PAD
#: ``TrainingData.wdl`` of a position without a tablebase label.
NO_WDL: int = _core.NNUE_NO_WDL
#: Output layers of a network with output buckets, one per four pieces on the board.
BUCKETS: int = _core.NNUE_BUCKETS
#: The default quantisation: first layer × QA, output weights × QB, centipawns per unit.
QA: int = _core.NNUE_QA
QB: int = _core.NNUE_QB
SCALE: int = _core.NNUE_SCALE

PathLike = Union[str, "os.PathLike[str]"]


@dataclass(eq=False)
class Features:
    """Feature columns of ``len(self)`` positions.

    ``white`` and ``black``: ``(N, 32)`` int16, each view's active features (White's view,
    Black's view), padded with :data:`PAD`; ``count``: ``(N,)`` uint8, the features per row;
    ``turn``: ``(N,)`` bool, ``True`` when White is to move (python-chess's ``board.turn``).
    """

    white: npt.NDArray[np.int16]
    black: npt.NDArray[np.int16]
    count: npt.NDArray[np.uint8]
    turn: npt.NDArray[np.bool_]

    def __len__(self) -> int:
        return len(self.turn)

    def views(self) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
        """``(us, them)``: the side to move's view and the other side's, ``(N, 32)`` each
        (new arrays), the inputs of the network's two halves."""
        white_to_move = self.turn[:, None]
        return np.where(white_to_move, self.white, self.black), np.where(
            white_to_move, self.black, self.white
        )

    def records(self) -> npt.NDArray[np.uint8]:
        """The rows as compact position records, ``(N, 32)`` uint8 (one 32-byte record a
        position, the layout in ``shaders/README.md``): what :func:`shatranj.evaluate` and
        :func:`shatranj.pack_positions` deal in, so training positions can be scored in bulk
        (``shatranj.evaluate(data.train.records(), device="gpu")``) with no board per row."""
        n = len(self)
        valid = np.arange(MAX_PIECES)[None, :] < self.count[:, None]
        white = self.white.astype(np.int64)
        # Codes go in square order: sort each row by square, the padding after every square.
        square = np.where(valid, white % 64, 64)
        order = np.argsort(square, axis=1, kind="stable")
        square = np.take_along_axis(square, order, axis=1)
        code = np.take_along_axis(np.where(valid, white // 64, 0), order, axis=1).astype(np.uint32)
        bits = np.where(
            square < 64, np.left_shift(np.uint64(1), np.minimum(square, 63).astype(np.uint64)), 0
        )
        occupancy = np.bitwise_or.reduce(bits.astype(np.uint64), axis=1)
        nibbles = code << (4 * (np.arange(MAX_PIECES) % 8)).astype(np.uint32)
        words = np.zeros((n, 8), dtype="<u4")
        words[:, 0] = occupancy & np.uint64(0xFFFFFFFF)
        words[:, 1] = occupancy >> np.uint64(32)
        for w in range(MAX_PIECES // 8):
            words[:, 2 + w] = np.bitwise_or.reduce(nibbles[:, 8 * w : 8 * w + 8], axis=1)
        words[:, 6] = ~self.turn
        return words.view(np.uint8).reshape(n, 32)

    def __getitem__(self, index: Any) -> Self:
        """The rows at ``index`` (a slice, an index array or a boolean mask; an int gives one
        row), every column alike: ``data[rng.permutation(len(data))[:4096]]`` is a batch."""
        if isinstance(index, (int, np.integer)):
            index = [index]
        return type(self)(**{f.name: getattr(self, f.name)[index] for f in fields(self)})

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {len(self)} positions>"


@dataclass(eq=False, repr=False)
class TrainingData(Features):
    """Training positions: :class:`Features` plus their labels.

    ``score``: ``(N,)`` int16, the search's score in centipawns for the side to move;
    ``result``: ``(N,)`` float32, the game's result for the side to move (1 won, 0.5 drawn,
    0 lost); ``wdl``: ``(N,)`` int8, the Syzygy tables' value for the side to move (-2 loss
    … 2 win, as ``shatranj.syzygy``'s ``probe_wdl``) where datagen labelled the position
    (``shatranj datagen --syzygy-label``), :data:`NO_WDL` elsewhere.
    """

    score: npt.NDArray[np.int16]
    result: npt.NDArray[np.float32]
    wdl: npt.NDArray[np.int8]


@dataclass(eq=False)
class Dataset:
    """What :func:`read_data` read: the positions of training and validation games, the
    number of games, and the shard files in reading order."""

    train: TrainingData
    validation: TrainingData
    games: int
    files: list[str]


def _fspath(name: str, value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        if isinstance(path, str):
            return path
    raise TypeError(f"{name} must be a str or os.PathLike path, not {type(value).__name__}")


def read_data(
    paths: PathLike | Iterable[PathLike],
    *,
    validation_every: int = 0,
) -> Dataset:
    """Reads datagen shards: a ``.sgd`` file, a folder (its ``.sgd`` files, by name), or a
    list of these, in that order.

    Games whose index is a multiple of ``validation_every`` (0: none) go to
    ``Dataset.validation``, as ``shatranj train --validation-every`` splits them. The shards
    are decoded on every core with the GIL released, straight into the arrays (about 136
    bytes a position); Ctrl-C stops it. A bad shard raises :class:`TrainingDataError` naming
    the file, game and ply.
    """
    if isinstance(validation_every, bool) or not isinstance(validation_every, int):
        raise TypeError(f"validation_every must be an int, not {type(validation_every).__name__}")
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    names = [_fspath("paths", p) for p in paths]
    raw = _core.nnue_read_data(names, validation_every)
    return Dataset(
        train=TrainingData(**raw["train"]),
        validation=TrainingData(**raw["validation"]),
        games=raw["games"],
        files=[os.fspath(f) for f in raw["files"]],
    )


def features(boards: Iterable[Board]) -> Features:
    """The feature columns of ``boards``, as :func:`read_data` gives them for positions."""
    return Features(**_core.nnue_features(boards))


def _numeric(name: str, value: Any) -> npt.NDArray[Any]:
    # A torch tensor (on any device, with or without a gradient) converts through the CPU.
    if hasattr(value, "detach") and hasattr(value, "cpu"):
        value = value.detach().cpu().numpy()
    array = np.asarray(value)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be an array of numbers, not of dtype {array.dtype}")
    return array


def _weights(
    feature_weights: Any, feature_bias: Any, output_weights: Any, output_bias: Any
) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]]:
    """The four arrays in the file's shapes, or :class:`NetworkError` saying which is wrong."""
    b1 = _numeric("feature_bias", feature_bias)
    if b1.ndim != 1:
        raise NetworkError(
            f"feature_bias has shape {b1.shape}; expected (H,), one value per hidden neuron"
        )
    h = len(b1)
    w1 = _numeric("feature_weights", feature_weights)
    if w1.shape == (INPUTS + 1, h):
        # A table indexed with PAD: its padding row must be the zero it stands for.
        if np.any(w1[PAD] != 0):
            raise NetworkError(
                f"feature_weights has {INPUTS + 1} rows but row {PAD} (the padding row) is not zero"
            )
        w1 = w1[:INPUTS]
    if w1.shape != (INPUTS, h):
        raise NetworkError(
            f"feature_weights has shape {w1.shape}; expected ({INPUTS}, {h}): "
            f"{INPUTS} inputs × the {h} hidden neurons of feature_bias"
        )
    w2 = _numeric("output_weights", output_weights)
    if w2.shape == (2 * h,):
        w2 = w2.reshape(2, h)
    b2 = _numeric("output_bias", output_bias)
    if w2.shape == (2, h):
        if b2.size != 1 or b2.ndim > 1:
            raise NetworkError(f"output_bias has shape {b2.shape}; expected a single number")
        return w1, b1, w2.reshape(1, 2, h), b2.reshape(1)
    if w2.shape == (BUCKETS, 2, h):
        if b2.shape != (BUCKETS,):
            raise NetworkError(
                f"output_bias has shape {b2.shape}; expected ({BUCKETS},), one per output bucket"
            )
        return w1, b1, w2, b2
    raise NetworkError(
        f"output_weights has shape {w2.shape}; expected (2, {h}) or ({2 * h},): "
        f"the side to move's half, then the other side's; or ({BUCKETS}, 2, {h}) with output buckets"
    )


def _int16(name: str, array: npt.NDArray[Any]) -> bytes:
    if array.dtype.kind not in "biu":
        raise NetworkError(f"quantised=True needs integer arrays, but {name} is {array.dtype}")
    bad = np.flatnonzero((array < -32768) | (array > 32767))
    if bad.size:
        at = np.unravel_index(int(bad[0]), array.shape)
        index = ", ".join(str(int(i)) for i in at)
        raise NetworkError(f"{name}[{index}] = {array[at]} does not fit int16")
    return array.astype("<i2").tobytes()


def build_network(
    feature_weights: Any,
    feature_bias: Any,
    output_weights: Any,
    output_bias: Any,
    *,
    quantised: bool = False,
    qa: int = QA,
    qb: int = QB,
    scale: int = SCALE,
) -> Network:
    """The network of these weights, checked as a file would be.

    Float weights (the default) are quantised exactly as the trainer quantises them:
    ``W1, b1 × qa``, ``W2 × qb``, ``b2 × qa·qb``, in float32, rounded half away from zero and
    saturated to int16 (``b2`` to int32). ``quantised=True`` takes the integers as they are.
    ``feature_weights`` is ``(768, H)`` (or ``(769, H)`` with a zero padding row),
    ``feature_bias`` ``(H,)``, ``output_weights`` ``(2, H)`` or ``(2H,)``, ``output_bias`` a
    number — or, for a network with output buckets, ``output_weights`` ``(8, 2, H)`` and
    ``output_bias`` ``(8,)``, bucket ``(pieces − 2) // 4``; numpy arrays, anything ``numpy.asarray`` takes, or torch tensors. ``H`` must be a
    multiple of 32 up to 2048. Wrong shapes, NaNs and weights whose integer arithmetic could
    overflow (keep float first-layer weights within ±1.98 and output weights within
    ±(32767 // qa) / qb, ±1.0 at the defaults, as the trainer clips them) raise
    :class:`NetworkError`.
    """
    for name, value in (("qa", qa), ("qb", qb), ("scale", scale)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not isinstance(quantised, bool):
        raise TypeError(f"quantised must be a bool, not {type(quantised).__name__}")
    w1, b1, w2, b2 = _weights(feature_weights, feature_bias, output_weights, output_bias)
    if quantised:
        # A one-layer W2 is named in its own (2, H) shape, not as the (1, 2, H) it is held in.
        w2_named = w2[0] if len(w2) == 1 else w2
        ints = [
            _int16(name, a)
            for name, a in (
                ("feature_weights", w1),
                ("feature_bias", b1),
                ("output_weights", w2_named),
            )
        ]
        if b2.dtype.kind not in "biu":
            raise NetworkError(f"quantised=True needs an integer output_bias, not {b2.dtype}")
        return _core.nnue_from_quantised(
            ints[0], ints[1], ints[2], [int(b) for b in b2], qa, qb, scale
        )
    f32 = [np.ascontiguousarray(a, dtype="<f4").tobytes() for a in (w1, b1, w2)]
    return _core.nnue_quantise(f32[0], f32[1], f32[2], [float(b) for b in b2], qa, qb, scale)


def save_network(
    path: PathLike,
    feature_weights: Any,
    feature_bias: Any,
    output_weights: Any,
    output_bias: Any,
    *,
    quantised: bool = False,
    qa: int = QA,
    qb: int = QB,
    scale: int = SCALE,
) -> Network:
    """Writes the network of these weights (see :func:`build_network`) to ``path`` and
    returns it; ``Engine(eval_file=path)`` then plays with it."""
    name = _fspath("path", path)
    network = build_network(
        feature_weights,
        feature_bias,
        output_weights,
        output_bias,
        quantised=quantised,
        qa=qa,
        qb=qb,
        scale=scale,
    )
    network.save(name)
    return network


def load_network(path: PathLike) -> Network:
    """Reads a network file (:class:`NetworkError` says what is wrong with a bad one)."""
    return _core.nnue_load_network(_fspath("path", path))


def float_evaluate(
    features: Features,
    feature_weights: Any,
    feature_bias: Any,
    output_weights: Any,
    output_bias: Any,
    *,
    scale: float = SCALE,
) -> npt.NDArray[np.float64]:
    """The float network's evaluation of every row, in centipawns for the side to move (the
    formula at the top of this module), computed with numpy a few thousand rows at a time.
    ``Network.to_float()`` gives a network's weights in this form."""
    w1, b1, w2, b2 = _weights(feature_weights, feature_bias, output_weights, output_bias)
    h = len(b1)
    table = np.zeros((INPUTS + 1, h), np.float64)
    table[:INPUTS] = w1
    bias = b1.astype(np.float64)
    us, them = features.views()
    out = np.empty(len(features), np.float64)
    step = max(1, (1 << 22) // (MAX_PIECES * h))
    for start in range(0, len(out), step):
        rows = slice(start, start + step)
        h_us = np.clip(bias + table[us[rows]].sum(axis=1), 0, 1) ** 2
        h_them = np.clip(bias + table[them[rows]].sum(axis=1), 0, 1) ** 2
        k = output_bucket((us[rows] != PAD).sum(axis=1), len(b2))
        w_us, w_them = w2[k, 0].astype(np.float64), w2[k, 1].astype(np.float64)
        out[rows] = (h_us * w_us).sum(axis=1) + (h_them * w_them).sum(axis=1) + b2[k]
    return out * scale


def output_bucket(pieces: Any, buckets: int = BUCKETS) -> Any:
    """The output layer of a position with ``pieces`` pieces (an int or an integer array):
    ``(pieces − 2) // 4`` for a network with 8 output buckets (at most 32 pieces count), 0
    for one with a single output layer."""
    if buckets == 1:
        return np.zeros_like(pieces)
    return (np.clip(pieces, 2, MAX_PIECES) - 2) // 4

"""shatranj.evaluate on every device against Engine.evaluate, and shatranj.gpu_info.

Without a GPU adapter the GPU comparisons are skipped with the reason, unless
SHATRANJ_REQUIRE_GPU=1 (set by scripts/test, where Mesa's lavapipe provides one).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import shatranj
from support.boards import random_boards
from support.gpu import require_gpu

SEED = 0x6B0E
FENS = [
    shatranj.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "QQQQQQQ1/8/8/8/8/8/qqqqqq2/k6K w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
]


def expected(boards: list[shatranj.Board]) -> np.ndarray:
    engine = shatranj.Engine()
    return np.array([engine.evaluate(b) for b in boards], dtype=np.int32)


def test_cpu_equals_engine_evaluate() -> None:
    print(f"seed {SEED:#x}")
    boards = [shatranj.Board(f) for f in FENS] + random_boards(SEED, 400)
    scores = shatranj.evaluate(boards, device="cpu")
    assert scores.dtype == np.int32
    assert scores.shape == (len(boards),)
    assert np.array_equal(scores, expected(boards))


def test_fen_strings_and_boards_agree() -> None:
    by_fen = shatranj.evaluate(FENS, device="cpu")
    by_board = shatranj.evaluate((shatranj.Board(f) for f in FENS), device="cpu")
    assert np.array_equal(by_fen, by_board)
    assert by_fen[0] == shatranj.Engine().evaluate(shatranj.Board())


def test_gpu_equals_cpu() -> None:
    info = require_gpu()
    print(f"seed {SEED + 1:#x}, adapter {info}")
    boards = [shatranj.Board(f) for f in FENS] + random_boards(SEED + 1, 3000)
    cpu = shatranj.evaluate(boards, device="cpu")
    gpu = shatranj.evaluate(boards, device="gpu")
    assert gpu.dtype == np.int32
    assert np.array_equal(gpu, cpu)
    assert np.array_equal(shatranj.evaluate(boards, device="auto"), cpu)
    # One position, and none.
    assert np.array_equal(shatranj.evaluate(boards[:1], device="gpu"), cpu[:1])
    assert shatranj.evaluate([], device="gpu").shape == (0,)


def test_gpu_info_describes_the_adapter() -> None:
    info = require_gpu()
    assert set(info) == {"name", "backend", "device_type", "driver", "driver_info"}
    assert info["name"]
    assert info["backend"] in {"vulkan", "metal", "dx12", "gl"}
    assert info["device_type"] in {"discrete", "integrated", "virtual", "cpu", "other"}


def test_empty_input() -> None:
    scores = shatranj.evaluate([], device="cpu")
    assert scores.shape == (0,) and scores.dtype == np.int32


def test_bad_fen_names_the_index() -> None:
    with pytest.raises(ValueError, match=r"boards\[1\]"):
        shatranj.evaluate([shatranj.STARTING_FEN, "not a fen"], device="cpu")


def test_bad_item_type_names_the_index() -> None:
    with pytest.raises(TypeError, match=r"boards\[2\].*int"):
        shatranj.evaluate([shatranj.STARTING_FEN, shatranj.Board(), 7], device="cpu")  # type: ignore[list-item]


def test_bad_device_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="tpu"):
        shatranj.evaluate(FENS, device="tpu")  # type: ignore[arg-type]


def test_without_an_adapter_auto_falls_back_and_gpu_raises() -> None:
    """evaluate, selfplay and Engine with device='gpu' raise RuntimeError; auto uses the CPU."""
    # A fresh interpreter whose adapter filter matches nothing: as on a machine with no GPU.
    code = """
import shatranj
assert shatranj.gpu_info() is None
fens = [shatranj.STARTING_FEN, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]
assert list(shatranj.evaluate(fens, device="auto")) == list(shatranj.evaluate(fens, device="cpu"))
try:
    shatranj.evaluate(fens, device="gpu")
except RuntimeError as e:
    print("gpu error:", e)
else:
    raise SystemExit("device='gpu' without an adapter did not raise")
for call in (lambda: shatranj.selfplay(games=1, depth=2, device="gpu"), lambda: shatranj.Engine(device="gpu")):
    try:
        call()
    except RuntimeError as e:
        assert "GPU" in str(e), e
    else:
        raise SystemExit("selfplay/Engine with device='gpu' and no adapter did not raise")
"""
    env = dict(os.environ, SHATRANJ_WGPU_ADAPTER="no such adapter 7f3a")
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no such adapter 7f3a" in proc.stdout
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("shatranj: warning:")]
    assert len(warnings) == 1 and "CPU" in warnings[0], proc.stderr


def test_selfplay_on_the_gpu_plays_the_cpu_games() -> None:
    """Self-play with every static evaluation on the GPU (through the batching service) plays
    exactly the games of the inline CPU evaluation: same seed, same games on every device."""
    require_gpu()
    settings = dict(games=3, depth=2, seed=5, concurrency=3, max_plies=40, random_plies=4)
    cpu = shatranj.selfplay(device="cpu", **settings)  # type: ignore[arg-type]
    gpu = shatranj.selfplay(device="gpu", **settings)  # type: ignore[arg-type]
    assert [str(g) for g in gpu.games] == [str(g) for g in cpu.games]
    assert gpu.stats["evaluations"] == cpu.stats["evaluations"] > 0
    assert gpu.stats["batches"] > 0 and "gpu" in gpu.stats["evaluator"].lower()
    assert gpu.stats["fallbacks"] == 0


def test_engine_on_the_gpu_searches_like_the_cpu() -> None:
    require_gpu()
    board = shatranj.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    gpu_engine = shatranj.Engine(device="gpu")
    assert "gpu" in gpu_engine.evaluator.lower()
    cpu = shatranj.Engine(device="cpu").analyse(board, depth=4)
    gpu = gpu_engine.analyse(board, depth=4)
    assert gpu["pv"] == cpu["pv"] and gpu["score"] == cpu["score"] and gpu["nodes"] == cpu["nodes"]

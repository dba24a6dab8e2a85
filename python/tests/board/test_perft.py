"""shatranj.perft: known counts, the perft reference suites, options, progress and Ctrl-C."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator

import pytest

import shatranj
from support.interrupt import assert_ctrl_c_interrupts
from support.repo import ROOT

# The perft reference data lives in the repository's data/perft, as for the Rust suites.
DATA = ROOT / "data" / "perft"

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

KNOWN = [
    (shatranj.STARTING_FEN, [1, 20, 400, 8902, 197281, 4865609]),
    (KIWIPETE, [1, 48, 2039, 97862, 4085603]),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [1, 14, 191, 2812, 43238, 674624]),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [1, 44, 1486, 62379, 2103487]),
]


@pytest.mark.parametrize("fen,counts", KNOWN)
def test_known_counts(fen: str, counts: list[int]) -> None:
    board = shatranj.Board(fen)
    for depth, nodes in enumerate(counts):
        assert shatranj.perft(board, depth) == nodes, (fen, depth)
    assert board.fen() == shatranj.Board(fen).fen(), "perft leaves the board alone"


def perftsuite() -> Iterator[tuple[str, int, int]]:
    for line in (DATA / "perftsuite.epd").read_text().splitlines():
        if not line.strip():
            continue
        fen, *fields = (part.strip() for part in line.split(";"))
        for field in fields:
            depth, nodes = field[1:].split()
            yield fen, int(depth), int(nodes)


def random_perft() -> Iterator[tuple[str, str, int, int]]:
    ident = fen = ""
    for line in (DATA / "random.perft").read_text().splitlines():
        words = line.split(maxsplit=1)
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "id":
            ident = words[1]
        elif words[0] == "epd":
            fen = words[1]
        elif words[0] == "perft":
            depth, nodes = words[1].split()
            yield ident, fen, int(depth), int(nodes)


def test_perftsuite_to_a_budget() -> None:
    """Every position of perftsuite.epd, each depth whose count is at most 2 M nodes."""
    checked = 0
    for fen, depth, nodes in perftsuite():
        if nodes <= 2_000_000:
            assert shatranj.perft(shatranj.Board(fen), depth) == nodes, (fen, depth)
            checked += 1
    assert checked > 400


def test_random_positions_shallow() -> None:
    """The first 1,500 of the 6,838 random positions at depths 1 to 3."""
    checked = 0
    for ident, fen, depth, nodes in random_perft():
        if depth <= 3 and checked < 4500:
            board = shatranj.Board(fen)
            assert shatranj.perft(board, depth) == nodes, (ident, fen, depth)
            checked += 1
    assert checked == 4500


@pytest.mark.parametrize("threads,hash_mb", [(1, 16), (2, 0), (2, 16), (0, 1), (None, 0)])
def test_threads_and_hash_give_the_same_count(threads: int, hash_mb: int) -> None:
    board = shatranj.Board(KIWIPETE)
    assert shatranj.perft(board, 4, threads=threads, hash_mb=hash_mb) == 4085603


def test_progress_callback_is_called_and_its_errors_propagate() -> None:
    calls: list[tuple[int, int, int]] = []
    board = shatranj.Board(KIWIPETE)
    assert shatranj.perft(board, 5, progress=lambda *a: calls.append(a)) == 193690690
    assert calls, "a run of ~0.3 s reports progress every 20 ms"
    nodes, done, total = calls[-1]
    assert total == 48 and 0 <= done <= total and nodes <= 193690690

    def fail(nodes: int, done: int, total: int) -> None:
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        shatranj.perft(shatranj.Board(), 7, progress=fail)


def test_python_perft_on_legal_moves_push_pop_agrees() -> None:
    """The recursive perft of the benchmark, written on the python-chess API."""
    board = shatranj.Board(KIWIPETE)

    def perft(depth: int) -> int:
        if depth == 1:
            return board.legal_moves.count()
        nodes = 0
        for move in board.legal_moves:
            board.push(move)
            nodes += perft(depth - 1)
            board.pop()
        return nodes

    assert perft(3) == 97862
    assert board.fen() == KIWIPETE


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT delivery is POSIX")
def test_ctrl_c_raises_keyboard_interrupt_promptly() -> None:
    # Depth 9 from the start takes hours.
    assert_ctrl_c_interrupts("shatranj.perft(shatranj.Board(), 9, threads=1)")


def test_perft_releases_the_gil() -> None:
    """Another Python thread keeps running while perft counts."""
    import threading

    result: list[int] = []
    worker = threading.Thread(
        target=lambda: result.append(shatranj.perft(shatranj.Board(KIWIPETE), 5))
    )
    ticks = 0
    worker.start()
    while worker.is_alive():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert result == [193690690]
    # The run takes ~0.3 s or more; with the GIL held this thread would not tick at all.
    assert ticks >= 20, ticks


def gpu_or_skip() -> None:
    """Skips the GPU perft tests without an adapter, or fails with SHATRANJ_REQUIRE_GPU=1."""
    if shatranj.gpu_info() is None:
        if os.environ.get("SHATRANJ_REQUIRE_GPU") == "1":
            pytest.fail("SHATRANJ_REQUIRE_GPU=1 but shatranj.gpu_info() found no adapter")
        pytest.skip("no GPU adapter (on Linux: apt-get install mesa-vulkan-drivers)")


@pytest.mark.parametrize("fen,counts", KNOWN)
def test_gpu_device_gives_the_known_counts(fen: str, counts: list[int]) -> None:
    gpu_or_skip()
    board = shatranj.Board(fen)
    for depth, nodes in enumerate(counts[:5]):
        assert shatranj.perft(board, depth, device="gpu") == nodes, (fen, depth)
    assert shatranj.perft(board, 3, device="auto") == counts[3]


def test_gpu_device_takes_a_progress_callback_and_rejects_bad_arguments() -> None:
    gpu_or_skip()
    seen: list[tuple[int, int, int]] = []
    board = shatranj.Board()
    assert shatranj.perft(board, 5, device="gpu", progress=lambda *a: seen.append(a)) == 4865609
    with pytest.raises(ValueError, match="device"):
        shatranj.perft(board, 2, device="tpu")  # type: ignore[arg-type]
    # hash_mb sizes the GPU's table there; the count is the same.
    assert shatranj.perft(board, 5, device="gpu", hash_mb=16) == 4865609
    with pytest.raises(ValueError, match="hash_mb"):
        shatranj.perft(board, 2, device="gpu", hash_mb=-1)

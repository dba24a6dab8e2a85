"""shatranj.Engine with Syzygy tables (``syzygy_path``): won endings kept with a tablebase
score, drawn ones held, ``tbhits`` reported, and bad settings refused with typed errors."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.syzygy
import pytest

import shatranj
from shatranj.engine import Cp

TABLES = Path(__file__).resolve().parents[3] / "data" / "syzygy" / "regular"


@pytest.fixture(scope="module")
def oracle() -> Iterator[chess.syzygy.Tablebase]:
    """python-chess's prober (GPL, a test oracle only)."""
    tables = chess.syzygy.open_tablebase(str(TABLES))
    yield tables
    tables.close()


def wdl_after(oracle: chess.syzygy.Tablebase, fen: str, move: chess.Move) -> int:
    """The WDL after ``move`` for the side that made it."""
    board = chess.Board(fen)
    board.push(move)
    return -oracle.probe_wdl(board)


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",  # KQvK
        "8/8/3k4/8/8/8/8/R3K3 w - - 0 1",  # KRvK
        "4Q3/8/1K6/8/1r6/8/1k6/8 w - - 0 1",  # KQvKR
    ],
)
def test_a_won_ending_keeps_the_win_with_a_tablebase_score(
    oracle: chess.syzygy.Tablebase, fen: str
) -> None:
    engine = shatranj.Engine(hash_mb=8, syzygy_path=TABLES)
    info = engine.analyse(shatranj.Board(fen), nodes=3000)
    move = chess.Move.from_uci(info["pv"][0].uci())
    assert wdl_after(oracle, fen, move) == 2
    assert info["score"].relative == Cp(20000)
    assert info["tbhits"] > 0


def test_a_drawn_ending_is_held(oracle: chess.syzygy.Tablebase) -> None:
    fen = "8/8/3k4/3r4/8/8/3R4/3K4 w - - 0 1"  # KRvKR: Rd3 and Rd4 lose the rook
    engine = shatranj.Engine(hash_mb=8, syzygy_path=str(TABLES))
    info = engine.analyse(shatranj.Board(fen), nodes=3000)
    move = chess.Move.from_uci(info["pv"][0].uci())
    assert wdl_after(oracle, fen, move) == 0
    assert info["score"].relative == Cp(0)


def test_without_tables_nothing_is_probed() -> None:
    engine = shatranj.Engine(hash_mb=8)
    info = engine.analyse(shatranj.Board("8/8/3k4/8/8/8/8/R3K3 w - - 0 1"), nodes=3000)
    assert info["tbhits"] == 0
    assert info["score"].relative < Cp(10000)


def test_several_directories_and_the_probe_limit() -> None:
    path = os.pathsep.join([str(TABLES), str(TABLES)])
    board = shatranj.Board("8/8/3k4/8/8/8/8/R3K3 w - - 0 1")  # KRvK: three men
    both = shatranj.Engine(hash_mb=8, syzygy_path=path)
    assert both.analyse(board, nodes=3000)["score"].relative == Cp(20000)
    limited = shatranj.Engine(hash_mb=8, syzygy_path=path, syzygy_probe_limit=2)
    info = limited.analyse(board, nodes=3000)
    assert info["tbhits"] == 0
    assert info["score"].relative < Cp(10000)


def test_bad_settings_raise_typed_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="nonexistent"):
        shatranj.Engine(syzygy_path=tmp_path / "nonexistent")
    with pytest.raises(ValueError, match="syzygy_probe_depth 0 out of range"):
        shatranj.Engine(syzygy_path=TABLES, syzygy_probe_depth=0)
    with pytest.raises(ValueError, match="syzygy_probe_limit 8 out of range"):
        shatranj.Engine(syzygy_path=TABLES, syzygy_probe_limit=8)
    with pytest.raises(TypeError, match="syzygy_path must be a path"):
        shatranj.Engine(syzygy_path=7)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="syzygy_50_move_rule must be a bool"):
        shatranj.Engine(syzygy_50_move_rule="yes")  # type: ignore[arg-type]
    # A directory without tables is no error: there is nothing to probe.
    engine = shatranj.Engine(hash_mb=8, syzygy_path=tmp_path)
    info = engine.analyse(shatranj.Board("8/8/3k4/8/8/8/8/R3K3 w - - 0 1"), nodes=1000)
    assert info["tbhits"] == 0

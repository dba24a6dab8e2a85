"""Fixtures shared by the test areas; the helpers they use are in ``support/``.

The suites are grouped by area, one folder each:

- ``board/``: the Board, Game, perft, dead positions, setup mode, SVG;
- ``compat/``: python-chess's move order, its own test suite, differential games against it;
- ``engine/``: the in-process Engine, the client of external engines, python-chess's engine
  tests;
- ``pgn/``: reading, annotations, streams, Arrow/polars tables;
- ``ml/``: networks, training data, planes, self-play, batched evaluation on CPU and GPU;
- ``syzygy/``: ``shatranj.syzygy``, the endgame tables, against python-chess's prober;
- ``distributed/``: the Ray back end;
- ``package/``: the installed package as a whole: import and version, argument types,
  garbage into every parser, the example notebook;
- ``tools/``: the repository's tools (the match runner, benchmark parsing), not in the wheel.

pytest puts this folder on ``sys.path`` (pyproject.toml's ``pythonpath``), so tests import
``support`` like any package; test modules keep distinct names across folders.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from support import engines
from support.processes import children


@pytest.fixture
def shatranj_binary() -> Path:
    """The release UCI binary (SHATRANJ_BIN, else target/release/shatranj): skips when it is
    not built, fails when SHATRANJ_BIN names a missing file (scripts/test sets it)."""
    return engines.shatranj_binary()


@pytest.fixture
def no_leftover_processes() -> Iterator[None]:
    """Fails the test if it leaves a child process behind, running or zombie."""
    before = set(children())
    yield
    deadline = time.monotonic() + 3.0
    while True:
        left = {pid: state for pid, state in children().items() if pid not in before}
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert not left, f"child processes left behind (pid: state): {left}"

"""Engine binaries the tests start: Debian's engines, the release ``shatranj``, and the scripted
engines beside this file."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from support.repo import ROOT

HERE = Path(__file__).resolve().parent

# A scripted UCI/XBoard engine for the engine client's tests (fake_engine.py's docstring).
FAKE_ENGINE: list[str] = [sys.executable, str(HERE / "fake_engine.py")]
# A scripted UCI engine for the match runner's tests: ``FAKE_UCI MODE SEED``.
FAKE_UCI = str(HERE / "fake_uci.py")


def which(name: str) -> str | None:
    """An engine on PATH or in /usr/games, where Debian installs them (often not on root's PATH)."""
    return shutil.which(name) or shutil.which(name, path="/usr/games")


def shatranj_binary() -> Path:
    """The release UCI binary; scripts/test builds it and sets SHATRANJ_BIN, so there a
    missing binary fails instead of skipping."""
    configured = os.environ.get("SHATRANJ_BIN")
    path = Path(configured) if configured else ROOT / "target" / "release" / "shatranj"
    if not path.is_file():
        if configured:
            pytest.fail(f"SHATRANJ_BIN={configured} does not exist")
        pytest.skip(f"{path} not built (cargo build --release -p shatranj-cli)")
    return path

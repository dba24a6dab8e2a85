"""Optional modules (the package's extras): a test that needs a missing one skips, except where
scripts/test installs it and says so in an environment variable (SHATRANJ_REQUIRE_RAY,
SHATRANJ_REQUIRE_ARROW): there a missing module fails the test instead of hiding it."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def require(module: str, env: str, reason: str | None = None) -> ModuleType:
    """Imports ``module``; missing, it skips the test (with ``reason``), unless ``env`` is 1."""
    if os.environ.get(env) == "1":
        return importlib.import_module(module)
    return pytest.importorskip(module, reason=reason)

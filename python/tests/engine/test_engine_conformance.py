"""python-chess 1.11.2's own engine tests (``EngineTestCase`` in its ``test.py``), run with
``chess`` bound to shatranj.

The sdist is downloaded from PyPI at test time into a temporary directory (pip's cache makes
reruns quick) and ``test.py`` is read from it there: python-chess is GPL-3.0, so none of it
is copied into this repository. The class's source is compiled on its own (the rest of
``test.py`` needs python-chess's other modules) in a namespace where ``chess`` is
``shatranj``; each of its test methods becomes one pytest test here.

The tests that need ``stockfish`` find Debian's in ``/usr/games``; those that need
``crafty`` or ``fairy-stockfish`` skip themselves when the binary is missing, as they do in
python-chess. Without network access to PyPI the module skips, unless
``SHATRANJ_REQUIRE_CONFORMANCE=1`` makes that a failure.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tarfile
import textwrap
import unittest
from collections.abc import Iterator
from pathlib import Path

import pytest

import shatranj
import shatranj.variant  # test_xboard_analyse plays chess.variant.AtomicBoard

VERSION = "1.11.2"

# EngineTestCase's methods in python-chess 1.11.2; the fixture checks the download has
# exactly these, so that none is silently left out.
METHODS = [
    "test_uci_option_map_equality", "test_uci_option_map_len", "test_score_ordering", "test_score",
    "test_wdl_model", "test_sf_forced_mates", "test_sf_options", "test_sf_analysis",
    "test_sf_multipv", "test_sf_quit", "test_fairy_sf_initialize", "test_uci_option_parse",
    "test_crafty_play_to_mate", "test_crafty_analyse", "test_crafty_ping", "test_uci_ping",
    "test_uci_debug", "test_uci_go", "test_iota_log", "test_uci_analyse_mode",
    "test_uci_play_after_analyse", "test_uci_ponderhit", "test_uci_info", "test_uci_result",
    "test_uci_output_after_command", "test_hiarcs_bestmove", "test_xboard_options",
    "test_xboard_replay", "test_xboard_opponent", "test_xboard_result", "test_xboard_analyse",
    "test_xboard_level", "test_xboard_error", "test_transport_close_with_pending",
    "test_quit_timeout", "test_run_in_background",
]  # fmt: skip

# Tests that need something shatranj deliberately lacks, not a missing binary.
UNSUPPORTED: dict[str, str] = {}


def _download(target: Path) -> Path | None:
    command = [
        sys.executable, "-m", "pip", "download", f"chess=={VERSION}", "--no-deps",
        "--no-binary", ":all:", "--disable-pip-version-check", "--quiet", "-d", str(target),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    archives = sorted(target.glob(f"chess-{VERSION}.tar.gz"))
    if done.returncode != 0 or not archives:
        message = f"pip download chess=={VERSION} failed: {done.stderr.strip()[-500:]}"
        if os.environ.get("SHATRANJ_REQUIRE_CONFORMANCE") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return archives[0]


@pytest.fixture(scope="module")
def engine_test_case(tmp_path_factory: pytest.TempPathFactory) -> Iterator[type]:
    archive = _download(tmp_path_factory.mktemp("python-chess-sdist"))
    assert archive is not None
    with tarfile.open(archive) as tar:
        member = tar.extractfile(f"chess-{VERSION}/test.py")
        assert member is not None
        source = member.read().decode("utf-8")
    tree = ast.parse(source)
    wanted = {"catchAndSkip", "RaiseLogHandler", "EngineTestCase"}
    body = [node for node in tree.body if getattr(node, "name", None) in wanted]
    assert {node.name for node in body} == wanted  # type: ignore[attr-defined]
    module = ast.Module(body=body, type_ignores=[])
    namespace: dict[str, object] = {"__name__": "python_chess_engine_tests"}
    exec(  # noqa: S102 - python-chess's test code, run against shatranj
        textwrap.dedent(
            """
            import asyncio, copy, io, logging, os, os.path, platform, sys, tempfile, textwrap, unittest
            """
        ),
        namespace,
    )
    namespace["chess"] = shatranj
    exec(compile(module, f"chess-{VERSION}/test.py", "exec"), namespace)  # noqa: S102
    case = namespace["EngineTestCase"]
    assert isinstance(case, type)
    found = sorted(name for name in dir(case) if name.startswith("test_"))
    assert found == sorted(METHODS), set(found) ^ set(METHODS)

    # Debian installs stockfish into /usr/games, which root's PATH often lacks.
    old_path = os.environ.get("PATH", "")
    if shutil.which("stockfish") is None and os.path.isdir("/usr/games"):
        os.environ["PATH"] = old_path + os.pathsep + "/usr/games"
    try:
        yield case
    finally:
        os.environ["PATH"] = old_path


@pytest.mark.parametrize("method", METHODS)
def test_python_chess_engine_test_case(engine_test_case: type, method: str) -> None:
    if method in UNSUPPORTED:
        pytest.skip(UNSUPPORTED[method])
    result = unittest.TestResult()
    engine_test_case(method).run(result)
    if result.skipped:
        pytest.skip(f"python-chess skips it here: {result.skipped[0][1]}")
    problems = result.errors + result.failures
    if problems:
        pytest.fail("\n".join(trace for _, trace in problems), pytrace=False)
    assert result.testsRun == 1


def test_the_tests_run_against_shatranj_not_python_chess(engine_test_case: type) -> None:
    namespace = engine_test_case.test_score.__globals__  # type: ignore[attr-defined]
    assert namespace["chess"] is shatranj
    assert namespace["chess"].engine.SimpleEngine is shatranj.engine.SimpleEngine
    assert "chess" not in sys.modules or sys.modules["chess"] is not shatranj

"""python-chess 1.11.2's own ``test.py``, run with ``chess`` bound to shatranj (issue 20).

python-chess is GPL-3.0, so its test suite is never copied into this repository: the sdist is
downloaded from PyPI at test time (``pip download chess==1.11.2 --no-deps --no-binary :all:``)
into a cache directory, and ``test.py`` plus ``data/polyglot`` are read from there. The suite
runs in a child process, where ``sys.modules["chess"]`` (and ``chess.pgn``, ``chess.svg``,
``chess.polyglot``, ``chess.engine``) are shatranj's modules, so that the real python-chess the
differential tests import in this process is never shadowed.

The ten classes of the issue are run, ``SyzygyTestCase`` (issue 49, with ``chess.syzygy``
bound to ``shatranj.syzygy`` and the sdist's ``data/syzygy``) and the seven variant classes
(issue 54, with ``chess.variant`` bound to ``shatranj.variant``), and the total must reach
``THRESHOLD``. The tests that
cannot pass are listed in ``CANNOT_PASS`` with the reason; they are expected to fail (a test
there that starts passing is reported, so the list stays honest).

Set ``SHATRANJ_PYCHESS_SDIST`` to a directory holding an extracted sdist to skip the download;
``SHATRANJ_PYCHESS_REPORT=1`` prints every failing test's traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import textwrap
from pathlib import Path

import pytest

VERSION = "1.11.2"
CLASSES = [
    "SquareTestCase", "MoveTestCase", "PieceTestCase", "BoardTestCase", "LegalMoveGeneratorTestCase",
    "BaseBoardTestCase", "SquareSetTestCase", "PolyglotTestCase", "PgnTestCase", "SvgTestCase",
    "SyzygyTestCase",
    "SuicideTestCase", "AtomicTestCase", "RacingKingsTestCase", "HordeTestCase", "ThreeCheckTestCase",
    "CrazyhouseTestCase", "GiveawayTestCase",
]  # fmt: skip
TOTAL = 243
# Raised as the parity work goes on; the target is 170 (issue 20) plus SyzygyTestCase's
# 15 that can pass with the sdist's 3-4-man tables (issue 49), plus the variant classes' 41 that
# shatranj.variant passes (issue 54), plus BoardTestCase.test_insufficient_material once horde's
# mating material was analysed (issue 54), plus the 4 variant PGN tests (issue 54).
THRESHOLD = 234

# Tests that do not pass, and why: deliberate differences, or work left (said so).
NO_VARIANT_TABLES = (
    "variant Syzygy tables: shatranj.syzygy probes standard tables only (VariantBoard must be "
    "shatranj.Board; the prober has no suicide/giveaway/atomic support)"
)
CANNOT_PASS: dict[str, str] = {
    "BoardTestCase.test_move_generation_bug": "deliberate: push() of a pseudo-legal move that leaves the king in check raises IllegalMoveError (issue 20 keeps the typed error)",
    "PgnTestCase.test_variation_stack": "deliberate: a ')' without an open variation is reported in Game.errors (shatranj.pgn reports every problem python-chess skips)",
    "AtomicTestCase.test_lone_king_wdl": NO_VARIANT_TABLES,
    "SyzygyTestCase.test_suicide_dtm": NO_VARIANT_TABLES,
    "SyzygyTestCase.test_suicide_dtz": NO_VARIANT_TABLES,
    "SyzygyTestCase.test_suicide_stats": NO_VARIANT_TABLES,
    "SyzygyTestCase.test_antichess_kvk": NO_VARIANT_TABLES,
    # Skipped, not failed, exactly as in python-chess's own run of test.py: they need 5-man
    # tables (KBPvKP, KRvKPP), and the sdist's data/syzygy/regular has 3-4 men.
    "SyzygyTestCase.test_stockfish_dtz_bug": "skipped as in python-chess: MissingTableError for the 5-man KBPvKP",
    "SyzygyTestCase.test_issue_93": "skipped as in python-chess: MissingTableError for the 5-man KPPvKR",
}

CHILD = textwrap.dedent(
    """
    import json, sys, types, unittest, traceback
    sys.path.insert(0, ".")
    import shatranj, shatranj.pgn, shatranj.svg, shatranj.polyglot, shatranj.engine, shatranj.syzygy
    import shatranj.variant

    sys.modules["chess"] = shatranj
    for name in ("pgn", "svg", "polyglot", "engine", "syzygy", "variant"):
        sys.modules["chess." + name] = getattr(shatranj, name)
    for name in ("gaviota",):
        # Outside shatranj's scope: empty modules, so test.py imports, and the tests that use
        # them fail on the missing attribute.
        module = types.ModuleType("chess." + name)

        def missing(attr, _name=name):
            # Decorators such as @catchAndSkip(chess.syzygy.MissingTableError) run when
            # test.py is imported; an exception class keeps them working.
            if attr.endswith("Error"):
                return type(attr, (Exception,), {})
            raise AttributeError(f"chess.{_name} is not part of shatranj: {attr}")

        module.__getattr__ = missing
        sys.modules["chess." + name] = module
        setattr(shatranj, name, module)

    import test as suite

    results = {}
    for cls_name in sys.argv[1].split(","):
        cls = getattr(suite, cls_name)
        for test in unittest.defaultTestLoader.loadTestsFromTestCase(cls):
            result = unittest.TestResult()
            try:
                test.run(result)
            except BaseException:
                result.errors.append((test, traceback.format_exc()))
            key = cls_name + "." + test._testMethodName
            problems = result.errors + result.failures
            if problems:
                results[key] = problems[0][1]
            elif result.skipped:
                results[key] = "skipped: " + result.skipped[0][1]
            else:
                results[key] = None
    json.dump(results, sys.stdout)
    """
)


def _sdist(tmp_root: Path) -> Path:
    given = os.environ.get("SHATRANJ_PYCHESS_SDIST")
    if given:
        return Path(given)
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "shatranj-tests"
    root = cache / f"chess-{VERSION}"
    if (root / "test.py").exists():
        return root
    cache.mkdir(parents=True, exist_ok=True)
    download = subprocess.run(
        [sys.executable, "-m", "pip", "download", f"chess=={VERSION}", "--no-deps", "--no-binary", ":all:",
         "-q", "-d", str(cache)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    archive = cache / f"chess-{VERSION}.tar.gz"
    if download.returncode != 0 or not archive.exists():
        pytest.skip(
            f"could not download the chess=={VERSION} sdist: {download.stderr.strip()[-300:]}"
        )
    with tarfile.open(archive) as tar:
        members = [
            m
            for m in tar.getmembers()
            if m.name in (f"chess-{VERSION}/test.py",)
            or m.name.startswith(f"chess-{VERSION}/data/")
        ]
        tar.extractall(cache, members=members, filter="data") if sys.version_info >= (
            3,
            12,
        ) else tar.extractall(cache, members=members)
    return root


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    root = _sdist(tmp_path_factory.mktemp("pychess"))
    child = subprocess.run(
        [sys.executable, "-c", CHILD, ",".join(CLASSES)],
        cwd=root, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert child.returncode == 0, child.stderr[-3000:]
    out: dict[str, object] = json.loads(child.stdout)
    return out


def test_python_chess_suite(results: dict[str, object]) -> None:
    assert len(results) == TOTAL, (
        f"expected {TOTAL} tests in the {len(CLASSES)} classes, found {len(results)}"
    )
    per_class: dict[str, list] = {name: [0, 0] for name in CLASSES}
    for key, problem in results.items():
        cls = key.split(".")[0]
        per_class[cls][1] += 1
        if problem is None:
            per_class[cls][0] += 1
    passed = sum(p for p, _ in per_class.values())
    lines = [f"{cls}: {p}/{n}" for cls, (p, n) in per_class.items()] + [f"total: {passed}/{TOTAL}"]
    failing = sorted(k for k, v in results.items() if v is not None)
    report = "\n".join(lines) + "\nfailing:\n  " + "\n  ".join(failing)
    print(report)
    if os.environ.get("SHATRANJ_PYCHESS_REPORT"):
        for key in failing:
            print(f"==== {key}\n{results[key]}")
    wrongly_failed = [
        k
        for k, why in CANNOT_PASS.items()
        if why.startswith("skipped") and not str(results.get(k)).startswith("skipped")
    ]
    assert not wrongly_failed, f"expected to be skipped as in python-chess: {wrongly_failed}"
    unexpected_passes = [k for k in CANNOT_PASS if results.get(k) is None]
    assert not unexpected_passes, f"listed as cannot pass, but pass: {unexpected_passes}"
    assert passed >= THRESHOLD, report
    unlisted = [key for key in failing if key not in CANNOT_PASS]
    assert not unlisted, "failing, and not listed in CANNOT_PASS:\n" + "\n".join(
        f"{k}\n{results[k]}" for k in unlisted
    )

"""Where the package's parts live and who imports whom: classes moved to private modules keep
the public name they are pickled and documented by, the engine client's modules do not import
the facade that re-exports them, and the native module reaches Python code from one file."""

from __future__ import annotations

import ast
import pickle
import re
import sys
from pathlib import Path

import shatranj
import shatranj.engine
from shatranj import _engine_batch, _engine_local
from support.repo import ROOT

PACKAGE = ROOT / "python" / "shatranj"
NATIVE_SOURCES = ROOT / "rust" / "python" / "src"


def test_the_in_process_engine_keeps_its_public_name() -> None:
    engine_class = shatranj.engine.Engine
    assert engine_class is shatranj.Engine is _engine_local.Engine
    assert engine_class.__module__ == "shatranj.engine"
    assert engine_class.__qualname__ == "Engine"
    # What pickle does with a class: look its module and name up again.
    assert getattr(sys.modules[engine_class.__module__], engine_class.__qualname__) is engine_class
    assert pickle.loads(pickle.dumps(engine_class)) is engine_class
    assert repr(engine_class) == "<class 'shatranj.engine.Engine'>"


def test_analyse_many_runs_the_same_engine_class() -> None:
    assert _engine_batch.Engine is shatranj.engine.Engine


def _imported_modules(path: Path) -> list[str]:
    """Every module ``path`` imports, anywhere in it (function bodies too), as absolute names."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "shatranj." * (node.level > 0) + (node.module or "")
            names.append(base.rstrip("."))
            if node.module is None:  # from . import x
                names += [f"shatranj.{alias.name}" for alias in node.names]
    return names


def test_the_engine_client_modules_do_not_import_the_facade() -> None:
    # shatranj.engine re-exports them; one of them importing it back was a cycle.
    modules = sorted(PACKAGE.glob("_engine_*.py"))
    assert {m.name for m in modules} >= {
        "_engine_batch.py",
        "_engine_local.py",
        "_engine_protocol.py",
    }
    for module in modules:
        assert "shatranj.engine" not in _imported_modules(module), module.name


def test_the_scan_sees_a_facade_import(tmp_path: Path) -> None:
    # The check above would pass on a scan that finds nothing: it finds both spellings.
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from .engine import Engine\n\nfrom . import engine\n")
    assert _imported_modules(sample).count("shatranj.engine") == 2


# Ways the native module could import Python: `py.import(..)`, `PyModule::import(..)`,
# `PyOnceLock::import(py, ..)`.
_NATIVE_IMPORT = re.compile(r"\bimport\s*\(|PyModule::import")


def test_the_native_module_imports_python_from_py_modules_only() -> None:
    sources = sorted(NATIVE_SOURCES.rglob("*.rs"))
    assert NATIVE_SOURCES / "py_modules.rs" in sources
    for source in sources:
        if source.name == "py_modules.rs":
            assert _NATIVE_IMPORT.search(source.read_text(encoding="utf-8"))
            continue
        code = [
            line
            for line in source.read_text(encoding="utf-8").splitlines()
            if not line.lstrip().startswith("//")
        ]
        hits = [line.strip() for line in code if _NATIVE_IMPORT.search(line)]
        assert not hits, (source.name, hits)

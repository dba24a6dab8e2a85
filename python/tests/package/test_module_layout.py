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
from shatranj.engine import _batch, _local
from support.repo import ROOT

PACKAGE = ROOT / "python" / "shatranj"
NATIVE_SOURCES = ROOT / "rust" / "python" / "src"


def test_the_in_process_engine_keeps_its_public_name() -> None:
    engine_class = shatranj.engine.Engine
    assert engine_class is shatranj.Engine is _local.Engine
    assert engine_class.__module__ == "shatranj.engine"
    assert engine_class.__qualname__ == "Engine"
    # What pickle does with a class: look its module and name up again.
    assert getattr(sys.modules[engine_class.__module__], engine_class.__qualname__) is engine_class
    assert pickle.loads(pickle.dumps(engine_class)) is engine_class
    assert repr(engine_class) == "<class 'shatranj.engine.Engine'>"


def test_analyse_many_runs_the_same_engine_class() -> None:
    assert _batch.Engine is shatranj.engine.Engine


def _imported_modules(path: Path, package: str = "shatranj") -> list[str]:
    """Every module ``path`` (a module of ``package``) imports, anywhere in it (function
    bodies too), as absolute names."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            if node.level > 0:  # relative: up level - 1 packages from `package`
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, node.module] if node.module else parts)
            else:
                base = node.module or ""
            names.append(base)
            if node.module is None:  # from . import x
                names += [f"{base}.{alias.name}" for alias in node.names]
    return names


def test_the_engine_client_modules_do_not_import_the_facade() -> None:
    # shatranj.engine re-exports them; one of them importing it back was a cycle.
    modules = sorted((PACKAGE / "engine").glob("_*.py"))
    assert {m.name for m in modules} >= {"_batch.py", "_local.py", "_protocol.py", "_uci.py"}
    for module in modules:
        imported = _imported_modules(module, "shatranj.engine")
        assert "shatranj.engine" not in imported, module.name


def test_the_scan_sees_a_facade_import(tmp_path: Path) -> None:
    # The check above would pass on a scan that finds nothing: it finds both spellings.
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from .engine import Engine\n\nfrom . import engine\n")
    assert _imported_modules(sample).count("shatranj.engine") == 2
    inside = tmp_path / "inside.py"
    inside.write_text(
        "from . import _uci\nfrom ._uci import x\nfrom .. import _core\nfrom . import y\n"
    )
    found = _imported_modules(inside, "shatranj.engine")
    assert found.count("shatranj.engine") == 2  # both `from . import`s name the facade
    assert "shatranj.engine._uci" in found and "shatranj._core" in found


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

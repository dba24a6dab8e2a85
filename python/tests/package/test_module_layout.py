"""Where the package's parts live and who imports whom: the native module reaches Python code
from one file."""

from __future__ import annotations

import re
from pathlib import Path

from support.repo import ROOT

NATIVE_SOURCES = ROOT / "rust" / "python" / "src"


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
        code = [line for line in source.read_text(encoding="utf-8").splitlines() if not line.lstrip().startswith("//")]
        hits = [line.strip() for line in code if _NATIVE_IMPORT.search(line)]
        assert not hits, (source.name, hits)

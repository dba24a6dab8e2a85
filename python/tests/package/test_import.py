"""The installed package imports, and its version is the Cargo workspace version."""

import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

import shatranj
import shatranj._core
from support.repo import ROOT

WORKSPACE_MANIFEST = ROOT / "Cargo.toml"


def workspace_version() -> str:
    with WORKSPACE_MANIFEST.open("rb") as f:
        return tomllib.load(f)["workspace"]["package"]["version"]


def test_version_is_the_cargo_workspace_version() -> None:
    assert shatranj.__version__ == workspace_version()


def test_version_comes_from_the_native_module() -> None:
    assert shatranj.__version__ is shatranj._core.__version__

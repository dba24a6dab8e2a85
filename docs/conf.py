"""Sphinx configuration of shatranj's documentation.

The site documents the *installed* package (``pip install .`` or the wheel, then
``sphinx-build``), never the source tree: ``shatranj._core`` is a compiled module, and the
tree's ``python/shatranj`` has no ``_core`` in it. Signatures of native functions come from
their ``__text_signature__`` and from ``shatranj/_core.pyi`` (Sphinx >= 8.2 reads the stubs of
native modules). The build needs no network: no intersphinx, no remote images.

Build (from the repository root, with the package and the ``docs`` extra installed):

    python -m sphinx -W --keep-going -b html docs docs/_build/html
    python -m sphinx -W --keep-going -b doctest docs docs/_build/doctest
"""

from __future__ import annotations

import os
import shutil

import shatranj

project = "shatranj"
author = "the shatranj developers"
copyright = "the shatranj developers"
release = shatranj.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
]

# Pages are reStructuredText, so that the sources read well on a code host too.
source_suffix = {".rst": "restructuredtext"}
root_doc = "index"
# The native module's docstrings are Rust doc comments, written in Markdown: `x` is code there.
default_role = "literal"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

# Docstrings are written by hand; the members' order is the source's.
autodoc_member_order = "bysource"
autodoc_default_options: dict[str, object] = {}
autodoc_typehints = "signature"
# Names in signatures that autodoc cannot resolve (numpy's, the stub's private aliases) are
# left as text rather than being warnings under -W.
nitpicky = False

# Every ``>>>`` block in the pages (and in docstrings pulled in by autodoc) is a test.
doctest_test_doctest_blocks = "default"
doctest_global_setup = """
import shatranj
import shatranj as chess
"""

# External programs some examples drive. Where a program is missing the examples that need it
# are skipped (``:skipif:``), unless SHATRANJ_DOCS_REQUIRE_ENGINES=1 (scripts/test sets it,
# having installed them), which turns a missing program into a build failure.
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
FAIRY = shutil.which("fairy-stockfish") or shutil.which("fairy-stockfish", path="/usr/games")
SHATRANJ_BIN = os.environ.get("SHATRANJ_BIN") or shutil.which("shatranj")
if os.environ.get("SHATRANJ_DOCS_REQUIRE_ENGINES") == "1":
    missing = [
        name
        for name, path in [
            ("stockfish", STOCKFISH),
            ("fairy-stockfish", FAIRY),
            ("SHATRANJ_BIN", SHATRANJ_BIN),
        ]
        if not path
    ]
    if missing:
        raise RuntimeError(f"SHATRANJ_DOCS_REQUIRE_ENGINES=1 but not found: {', '.join(missing)}")
# The repository the site is built from: examples read its data (data/nnue).
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
doctest_global_setup += (
    f"STOCKFISH = {STOCKFISH!r}\nFAIRY = {FAIRY!r}\nSHATRANJ_BIN = {SHATRANJ_BIN!r}\n"
    f"REPO = {REPO!r}\n"
)

html_theme = "furo"
html_title = f"shatranj {release}"
html_static_path: list[str] = []

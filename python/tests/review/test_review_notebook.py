"""examples/review.ipynb, the game-review walkthrough of the docs, runs top to bottom and shows
what it promises: the review with its graph, the board at the worst blunder, and a database as a
polars DataFrame."""

from __future__ import annotations

from typing import Any

import pytest

from support import notebooks
from support.repo import ROOT

pytest.importorskip("nbclient")
pytest.importorskip("nbformat")
pytest.importorskip("polars")


def test_the_review_notebook_runs_and_shows_the_review(tmp_path: Any) -> None:
    notebook = notebooks.execute(ROOT / "examples" / "review.ipynb", tmp_path, timeout=300)
    outputs = notebooks.outputs(notebook)
    html = [out.data["text/html"] for out in outputs if "data" in out and "text/html" in out.data]
    # The review's own view (its table, the evaluation graph and the board before the worst
    # move), then the view at the worst move, captioned with it.
    views = [h for h in html if "shatranj-review-graph" in h and h.count("<svg") == 2]
    assert len(views) == 2 and "<table>" in views[0]
    text = "\n".join(out.text for out in outputs if out.output_type == "stream")
    worst_label = text.splitlines()[-1].split(" ")[:2]  # the cell prints "12. Qb8+ Blunder. …"
    assert " ".join(worst_label) + ":" in views[1]
    assert "Blunder" in text or "Mistake" in text or "Inaccuracy" in text
    plain = "\n".join(out.data.get("text/plain", "") for out in outputs if "data" in out)
    assert "shape: (4, 6)" in plain and "Paul Morphy" in plain

"""examples/analysis.ipynb runs top to bottom and shows what it promises.

The notebook is executed in a fresh kernel with nbclient (the interpreter running pytest, via
jupyter_client's python3 kernel spec), so it can never rot: a renamed API fails here.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import chess
import pytest

import shatranj
from support import notebooks
from support.repo import ROOT

NOTEBOOK = ROOT / "examples" / "analysis.ipynb"

# The notebook uses the Board of the native module; a checkout without it cannot run it.
pytestmark = pytest.mark.skipif(
    not hasattr(shatranj, "Board"), reason="shatranj.Board is not in this build of shatranj"
)


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory):
    return notebooks.execute(NOTEBOOK, tmp_path_factory.mktemp("notebook"), timeout=120)


def text_of(notebook) -> str:
    parts = []
    for out in notebooks.outputs(notebook):
        if out.output_type == "stream":
            parts.append(out.text)
        elif "data" in out and "text/plain" in out.data:
            parts.append(out.data["text/plain"])
    return "\n".join(parts)


def svgs(notebook) -> list[ET.Element]:
    found = []
    for out in notebooks.outputs(notebook):
        if "data" in out and "image/svg+xml" in out.data:
            found.append(ET.fromstring(out.data["image/svg+xml"]))
    return found


def classes(root: ET.Element, word: str) -> list[str]:
    return [e.get("class", "") for e in root.iter() if word in e.get("class", "").split()]


def test_every_code_cell_ran_without_error(executed) -> None:
    code = [cell for cell in executed.cells if cell.cell_type == "code"]
    assert code and all(cell.execution_count is not None for cell in code)
    assert [out for out in notebooks.outputs(executed) if out.output_type == "error"] == []


def test_boards_are_displayed_as_svg(executed) -> None:
    pictures = svgs(executed)
    assert len(pictures) == 3  # the game, the drawing with arrows, the mate
    game, arrows, mate = pictures
    # After 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 the last move g8-f6 is highlighted.
    assert sorted(c.split()[-1] for c in classes(game, "lastmove")) == ["f6", "g8"]
    assert len(classes(game, "piece")) == 32
    assert (
        len(classes(arrows, "arrow")) == 4
    )  # two arrows, each a <line> shaft and a <polygon> head
    assert arrows.get("width") == "320"
    assert classes(mate, "check") == ["check e8"]


def test_printed_results(executed) -> None:
    text = text_of(executed)
    reference = chess.Board()
    for san in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6"]:
        reference.push_san(san)
    assert f"{reference.legal_moves.count()} legal moves for White" in text
    assert " ".join(sorted(reference.san(m) for m in reference.legal_moves)) in text
    assert "True 1-0" in text
    assert "perft(3) = 8902" in text
    assert "perft(5) = 4,865,609" in text
    assert "(12, 8, 8) uint8" in text
    assert "'P': 8" in text and "'k': 1" in text

"""`shatranj review` (the Rust command line) and shatranj.review (Python) compute the same
review: the definitions live in both languages, so this test ties them together on a
lichess-style corpus, once from its [%eval] comments and once with the same search."""

from __future__ import annotations

import csv
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

from shatranj import review
from shatranj.engine import Limit
from support.corpora import lichess_corpus
from support.engines import shatranj_binary


def _number(text: str) -> Optional[float]:
    return None if text == "" else float(text)


def _cli_review(binary: Path, source: Path, out: Path, *options: str) -> List[Dict[str, Any]]:
    """The command's games table, each row with its moves table rows under "moves"."""
    subprocess.run([str(binary), "review", str(source), "--table", str(out), "--quiet", *options], check=True, capture_output=True)
    games = list(csv.DictReader(out.with_suffix(".games.csv").open()))
    moves = list(csv.DictReader(out.open()))
    for game in games:
        game["moves"] = [m for m in moves if m["game"] == game["game"]]
    return games


@pytest.mark.parametrize("mode", ["comments", "engine"])
def test_the_command_line_and_python_review_alike(tmp_path: Path, mode: str) -> None:
    binary = shatranj_binary()
    source = tmp_path / "games.pgn"
    source.write_text(lichess_corpus(30, seed=5), encoding="utf-8")
    if mode == "comments":
        cli = _cli_review(binary, source, tmp_path / "t.csv", "--from-comments")
        done = review.review_pgn(source, from_comments=True, progress=False)
    else:
        # Same search: nodes, one thread, the same table size, a cleared table per game.
        cli = _cli_review(binary, source, tmp_path / "t.csv", "--nodes", "1500", "--hash", "64", "--threads", "2")
        done = review.review_pgn(source, limit=Limit(nodes=1500), hash_mb=64, workers=2, progress=False)
    assert done.reviews is not None and len(cli) == len(done.reviews) > 20
    for row, reviewed in zip(cli, done.reviews):
        label = f"game {row['game']}"
        for color, side in ((True, "white"), (False, "black")):
            mine = reviewed.accuracy(color)
            theirs = _number(row[f"{side}_accuracy"])
            assert (mine is None) == (theirs is None), label
            if mine is not None:
                assert mine == pytest.approx(theirs, abs=1e-9), label
            assert row[f"{side}_acpl"] == ("" if reviewed.acpl(color) is None else str(reviewed.acpl(color))), label
            counts = reviewed.counts(color)
            assert [int(row[f"{side}_{plural}"]) for plural in ("inaccuracies", "mistakes", "blunders")] == list(counts.values()), label
        moves = row["moves"]
        assert [m["san"] for m in moves] == [m.san for m in reviewed.moves], label
        assert [m["judgement"] or None for m in moves] == [m.judgement for m in reviewed.moves], label
        assert [m["advice"] or None for m in moves] == [m.advice for m in reviewed.moves], label
        assert [m["best_uci"] or None for m in moves] == [m.best_move and m.best_move.uci() for m in reviewed.moves], label
        for m, mine in zip(moves, reviewed.moves):
            for theirs, value in ((m["win_after"], mine.win_after), (m["accuracy"], mine.accuracy)):
                assert (_number(theirs) is None) == (value is None), label
                if value is not None:
                    assert value == pytest.approx(_number(theirs), abs=1e-9), label

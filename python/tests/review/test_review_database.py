"""review_pgn over a database: results in the file's order, broken games and failing engines
reported, and a run stopped twice then resumed equal to one that never stopped."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import shatranj as chess
import shatranj.pgn
from shatranj import review
from shatranj.engine import Limit
from support.engines import FAKE_UCI
from support.interrupt import assert_ctrl_c_interrupts

LIMIT = Limit(nodes=2000)
SEED = 48


def _database(path: Path, games: int, seed: int = SEED) -> Path:
    """``games`` seeded random games (10–40 plies), then one with an illegal move."""
    print("seed", seed)
    rng = random.Random(seed)
    texts = []
    for index in range(games):
        board = chess.Board()
        for _ in range(rng.randint(10, 40)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        game = shatranj.pgn.Game.from_board(board)
        game.headers["White"] = f"white {index}"
        texts.append(str(game))
    texts.insert(games // 2, '[Event "broken"]\n\n1. e4 e5 2. Ke3 *')
    path.write_text("\n\n".join(texts) + "\n", encoding="utf-8")
    return path


def _outputs(folder: Path) -> dict[str, Any]:
    return {
        "pgn_out": folder / "out.pgn",
        "moves_table": folder / "moves.parquet",
        "games_table": folder / "games.parquet",
        "checkpoint": folder / "checkpoint.json",
    }


class _StopAfter:
    """A progress callback that presses Ctrl-C once ``games`` games are done."""

    def __init__(self, games: int) -> None:
        self.games = games

    def __call__(self, games: int, _positions: int) -> None:
        if games >= self.games:
            raise KeyboardInterrupt


def test_a_run_stopped_twice_and_resumed_equals_one_that_never_stopped(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    source = _database(tmp_path / "games.pgn", 16)
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    whole.mkdir()
    parts.mkdir()
    done = review.review_pgn(
        source, limit=LIMIT, workers=2, progress=False, commit_every=3, **_outputs(whole)
    )
    assert done.games == 16 and done.failures == [] and len(done.skipped) == 1
    assert "illegal" in done.skipped[0] and "line" in done.skipped[0]

    for stop in (5, 11):
        with pytest.raises(KeyboardInterrupt):
            review.review_pgn(
                source,
                limit=LIMIT,
                workers=2,
                progress=_StopAfter(stop),
                commit_every=3,
                **_outputs(parts),
            )
        state = json.loads((parts / "checkpoint.json").read_text())
        assert state["games"] >= stop and not state["complete"]
        # What was finished is in the outputs already, readable.
        assert pq.read_table(parts / "games.parquet").num_rows == state["games"]
    resumed = review.review_pgn(
        source, limit=LIMIT, workers=2, progress=False, commit_every=3, **_outputs(parts)
    )
    assert resumed.games == 16
    assert (parts / "out.pgn").read_bytes() == (whole / "out.pgn").read_bytes()
    for name in ("moves.parquet", "games.parquet"):
        assert pq.read_table(parts / name).equals(pq.read_table(whole / name)), name
    assert not (parts / "moves.parquet.parts").exists()
    games = pq.read_table(whole / "games.parquet").to_pylist()
    assert [row["game"] for row in games] == list(range(16))
    assert [row["white"] for row in games] == [f"white {i}" for i in range(16)]


def test_a_checkpoint_of_other_settings_is_refused(tmp_path: Path) -> None:
    source = _database(tmp_path / "games.pgn", 2)
    review.review_pgn(
        source, limit=LIMIT, workers=1, progress=False, checkpoint=tmp_path / "c.json"
    )
    with pytest.raises(ValueError, match="other settings .*limit"):
        review.review_pgn(
            source,
            limit=Limit(nodes=3000),
            workers=1,
            progress=False,
            checkpoint=tmp_path / "c.json",
        )


def test_reviews_are_in_the_files_order_and_equal_one_game_reviews(tmp_path: Path) -> None:
    source = _database(tmp_path / "games.pgn", 6)
    done = review.review_pgn(source, limit=LIMIT, workers=2, progress=False)
    assert done.reviews is not None and len(done.reviews) == 6
    games = list(shatranj.pgn.stream_games(source))
    for game, reviewed in zip(games, done.reviews):
        assert reviewed.moves == review.review_game(game, limit=LIMIT).moves
    pytest.importorskip("polars")
    frame = done.to_polars()
    assert frame.height == 6 and frame["white"].to_list() == [f"white {i}" for i in range(6)]
    assert done.to_polars("moves").height == sum(len(r.moves) for r in done.reviews)


def test_a_crashing_engine_fails_its_games_and_the_run_goes_on(tmp_path: Path) -> None:
    source = _database(tmp_path / "games.pgn", 3)
    crashing: list[str] = [sys.executable, FAKE_UCI, "crash"]
    done = review.review_pgn(
        source, crashing, LIMIT, workers=1, progress=False, timeout=5, pgn_out=tmp_path / "out.pgn"
    )
    assert done.games == 0 and [f.game for f in done.failures] == [0, 1, 2]
    assert all(f.ply == 0 and "white" in str(f) for f in done.failures)
    # The failed games are written as they were, so the output keeps every game.
    assert (tmp_path / "out.pgn").read_text().count("[Event") == 3
    with pytest.raises(review.ReviewEngineError, match="game 0"):
        review.review_pgn(
            source, crashing, LIMIT, workers=1, progress=False, timeout=5, on_error="raise"
        )


def test_comments_review_a_database_without_an_engine(tmp_path: Path) -> None:
    source = tmp_path / "evals.pgn"
    source.write_text(
        "1. e4 { [%eval 0.2] } e5 { [%eval 0.3] } 2. Qh5 { [%eval -1.5] } *\n\n1. d4 { [%eval 0.1] } *\n"
    )
    done = review.review_pgn(source, from_comments=True, progress=False)
    assert done.games == 2
    assert [m.judgement for m in done.reviews[0].moves] == [None, None, "Blunder"]  # type: ignore[index]


def test_ctrl_c_stops_a_database_review_promptly(tmp_path: Path) -> None:
    source = _database(tmp_path / "games.pgn", 60)
    checkpoint = tmp_path / "c.json"
    assert_ctrl_c_interrupts(
        f"__import__('shatranj.review').review.review_pgn({str(source)!r}, limit=shatranj.engine.Limit(nodes=200000),"
        f" workers=2, progress=False, checkpoint={str(checkpoint)!r})"
    )
    assert not json.loads(checkpoint.read_text())["complete"]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"workers": 0}, ValueError),
        ({"commit_every": 0}, ValueError),
        ({"on_error": "ignore"}, ValueError),
    ],
)
def test_bad_database_arguments_are_typed_errors(
    tmp_path: Path, kwargs: dict[str, Any], error: type
) -> None:
    source = _database(tmp_path / "games.pgn", 1)
    with pytest.raises(error):
        review.review_pgn(source, limit=LIMIT, progress=False, **kwargs)


def test_an_engine_that_never_finishes_a_search_is_killed_and_its_game_reported(
    tmp_path: Path,
) -> None:
    source = _database(tmp_path / "games.pgn", 2)
    hanging: list[str] = [sys.executable, FAKE_UCI, "hang"]
    done = review.review_pgn(
        source, hanging, LIMIT, workers=2, progress=False, timeout=5, position_timeout=0.5
    )
    assert [f.game for f in done.failures] == [0, 1]
    assert all("no answer within 0.5 s" in f.message and f.ply == 0 for f in done.failures)


def test_a_finished_checkpoint_reruns_as_nothing_to_do(tmp_path: Path) -> None:
    source = _database(tmp_path / "games.pgn", 3)
    outputs = _outputs(tmp_path)
    first = review.review_pgn(source, limit=LIMIT, workers=1, progress=False, **outputs)
    written = {
        name: Path(path).read_bytes() for name, path in outputs.items() if name != "checkpoint"
    }
    again = review.review_pgn(source, limit=LIMIT, workers=1, progress=False, **outputs)
    assert (again.games, again.positions, again.skipped) == (first.games, 0, first.skipped)
    assert {name: Path(outputs[name]).read_bytes() for name in written} == written


def test_a_checkpoint_whose_outputs_went_missing_is_refused(tmp_path: Path) -> None:
    source = _database(tmp_path / "games.pgn", 4)
    outputs = _outputs(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        review.review_pgn(
            source, limit=LIMIT, workers=1, progress=_StopAfter(2), commit_every=1, **outputs
        )
    Path(outputs["pgn_out"]).unlink()
    with pytest.raises(ValueError, match="checkpoint says .* final"):
        review.review_pgn(source, limit=LIMIT, workers=1, progress=False, commit_every=1, **outputs)


class _IllegalLines(chess.engine.Engine):
    """The in-process search, but its best line starts with a move that is not legal."""

    def analyse(self, board: Any, **limits: Any) -> Any:
        info = super().analyse(board, **limits)
        info["pv"] = [chess.Move.from_uci("a1a8")] + list(info["pv"])
        return info


def test_a_game_whose_engine_answer_cannot_be_used_fails_alone(tmp_path: Path) -> None:
    source = _database(tmp_path / "games.pgn", 2)
    done = review.review_pgn(source, _IllegalLines(), LIMIT, progress=False)
    assert done.games == 0 and [f.game for f in done.failures] == [0, 1]
    assert all(f.ply is None and "a1a8" in f.message for f in done.failures)

"""Games of the match runner (``shatranj.match.run``, the runner of ``shatranj match``) against
the scripted engine ``support/fake_uci.py``: a mate and its PGN, a position over before it
starts, an illegal move, a crash, a hung engine and a flag fall on the clock, adjudication by
the engines' scores, and a concurrent match of pairs with colours swapped and a crashed engine
restarted.

These were the tests of the retired Python runner (tools/shatranj_match) that check what the
new runner also does, moved onto it. The fake engines' random movers are seeded (fake_uci.py's
SEED argument, 0 here), so every game is the same on every run.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from shatranj import match
from support.engines import FAKE_UCI

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R6K w - - 0 1"  # Ra8#
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
BLACK_QUEEN = "4k3/8/8/8/8/8/q7/4K3 w - - 0 1"


def fake(mode: str) -> dict[str, Any]:
    return {"cmd": sys.executable, "name": mode, "args": [FAKE_UCI, mode, "0"]}


def play(tmp_path: Path, white: str, black: str, fen: str, **settings: Any) -> match.GameResult:
    """One game, ``white`` (the first engine) against ``black``, from ``fen``."""
    book = tmp_path / "book.epd"
    book.write_text(fen + "\n")
    settings.setdefault("each", {"nodes": 1})
    r = match.run(
        [fake(white), fake(black)],
        rounds=1,
        games=1,
        openings={"file": book, "format": "epd"},
        recover=True,
        maxmoves=100,
        **settings,
    )
    assert r.games == 1, r
    (game,) = r.rounds[0].games
    assert (game.white, game.black) == (white, black)
    return game


def test_mate_ends_the_game_and_is_written_to_pgn(tmp_path: Path) -> None:
    game = play(tmp_path, "mater", "random", MATE_IN_ONE)
    assert (game.result, game.reason, game.termination) == ("1-0", "White mates", "normal")
    assert game.first_half_points == 2 and game.fault is None
    for text in ('[Result "1-0"]', '[White "mater"]', f'[FEN "{MATE_IN_ONE}"]', "Ra8#"):
        assert text in game.pgn, game.pgn


def test_a_finished_position_is_scored_without_a_move(tmp_path: Path) -> None:
    # Two engines need two names: the same scripted mover under another name.
    book = tmp_path / "book.epd"
    book.write_text(STALEMATE + "\n")
    r = match.run(
        [fake("random"), {**fake("random"), "name": "random too"}],
        each={"nodes": 1},
        rounds=1,
        games=1,
        openings={"file": book},
    )
    (game,) = r.rounds[0].games
    assert (game.result, game.reason) == ("1/2-1/2", "Draw by stalemate")
    assert game.first_half_points == 1
    assert '[PlyCount "0"]' in game.pgn


@pytest.mark.parametrize(
    ("mode", "termination", "fault"),
    [
        ("illegal", "rules infraction", "illegal illegal move"),
        ("crash", "abandoned", "crash crash"),
    ],
)
def test_illegal_moves_and_crashes_lose(
    tmp_path: Path, mode: str, termination: str, fault: str
) -> None:
    game = play(tmp_path, mode, "random", START)
    assert (game.result, game.termination, game.fault) == ("0-1", termination, fault)
    assert game.first_half_points == 0


def test_a_hung_engine_loses_on_time(tmp_path: Path) -> None:
    game = play(tmp_path, "hang", "random", START, each={"tc": "0.2+0"})
    assert (game.result, game.termination, game.fault) == ("0-1", "time forfeit", "hang time loss")
    assert "White loses on time" in game.reason


def test_a_flag_fall_loses(tmp_path: Path) -> None:
    # The slow mover answers after 0.3 s with 0.1 s on its clock: late, within the runner's
    # grace, so the loss names the time it used.
    game = play(tmp_path, "slow", "random", BLACK_QUEEN, each={"tc": "0.1+0"})
    assert (game.result, game.termination) == ("0-1", "time forfeit")
    assert "White loses on time" in game.reason


def test_resign_and_draw_adjudication_use_the_scores(tmp_path: Path) -> None:
    # The fake movers report score 0 except when mating. A one-move resign rule at 0 cp: one-
    # sided, White "resigns" on its first move; two-sided, the first move has no opponent's
    # score to agree, so Black, whose opponent's 0 agrees, resigns on its first.
    resign = {"movecount": 1, "score": 0}
    game = play(tmp_path, "random", "mater", START, resign=resign)
    assert (game.termination, game.result) == ("adjudication", "0-1")
    assert game.reason == "Black wins by adjudication" and '[PlyCount "1"]' in game.pgn
    game = play(tmp_path, "random", "mater", START, resign={**resign, "twosided": True})
    assert (game.termination, game.result) == ("adjudication", "1-0")
    assert game.reason == "White wins by adjudication" and '[PlyCount "2"]' in game.pgn
    # A draw rule from move 1: both engines' scores within 0 cp for a move each.
    game = play(tmp_path, "random", "mater", START, draw={"movenumber": 1, "movecount": 1})
    assert (game.termination, game.result) == ("adjudication", "1/2-1/2")
    assert '[PlyCount "2"]' in game.pgn


def test_pairs_swap_colours_and_crashed_engines_are_restarted(tmp_path: Path) -> None:
    book = tmp_path / "book.epd"
    book.write_text(MATE_IN_ONE + "\n")
    lines: list[str] = []
    r = match.run(
        [fake("mater"), fake("crash")],
        each={"nodes": 1},
        rounds=2,
        games=2,
        concurrency=2,
        openings={"file": book},
        recover=True,
        on_line=lines.append,
    )
    games = [g for rr in r.rounds for g in rr.games]
    assert [g.white for g in games] == ["mater", "crash", "mater", "crash"]
    # As White the mater mates at once; as Black it wins when the crashing engine (White)
    # dies on its first move, and a fresh crash process is started for every game.
    assert [g.result for g in games] == ["1-0", "0-1", "1-0", "0-1"]
    assert [g.fault for g in games] == [None, "crash crash", None, "crash crash"]
    assert r.pentanomial == (0, 0, 0, 0, 2) and r.trinomial == (0, 0, 4)
    assert r.faults == {"crash crash": 2}
    assert sum(1 for line in lines if line.startswith("Finished game")) == 4

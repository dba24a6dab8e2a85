"""The match runner's games (tools/shatranj_match/play.py) end to end, against the scripted
engine in fake_uci.py.

Every way a game can end in the runner is exercised: mate, a position over before it starts,
an illegal move, a crash, a hung engine, a flag fall with and without the opponent's mating
material, adjudication, and a concurrent match with colours alternating and crashed engines
restarted. Seeds of the random movers are fixed (fake_uci.py's SEED argument, 0 here).
"""

from __future__ import annotations

import asyncio
import sys

import chess
import pytest

from shatranj_match import config as match_config
from shatranj_match import play as match_play
from support.engines import FAKE_UCI

FAKE = FAKE_UCI

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R6K w - - 0 1"  # Ra8#
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
BARE_KING = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"  # Black cannot mate
BLACK_QUEEN = "4k3/8/8/8/8/8/q7/4K3 w - - 0 1"


def fake(mode: str) -> match_config.EngineSpec:
    return match_config.EngineSpec(mode, (sys.executable, FAKE, mode, "0"))


def play(
    white: str,
    black: str,
    opening: str,
    tc: str = "5+0",
    adjudication: match_play.Adjudication | None = None,
) -> match_play.GameResult:
    async def run() -> match_play.GameResult:
        a, b = match_play.Player(fake(white)), match_play.Player(fake(black))
        try:
            await a.start()
            await b.start()
            return await match_play.play_game(
                1,
                a,
                b,
                True,
                opening,
                match_config.parse_tc(tc),
                adjudication or match_play.Adjudication(),
            )
        finally:
            await a.close()
            await b.close()

    return asyncio.run(run())


def test_mate_ends_the_game_and_is_written_to_pgn() -> None:
    game = play("mater", "random", MATE_IN_ONE)
    assert (game.result, game.reason, game.pgn_termination) == ("1-0", "checkmate", "normal")
    assert game.points == 1.0 and not game.failure and game.loser_on_time is None
    text = str(game.game)
    assert '[Result "1-0"]' in text and '[White "mater"]' in text and '[FEN "' in text
    assert "Ra8#" in text and "checkmate" in text
    assert (game.white_id, game.black_id) == ("fake-mater", "fake-random")
    assert '[WhiteEngine "fake-mater"]' in text


def test_a_finished_position_is_scored_without_a_move() -> None:
    game = play("random", "random", STALEMATE)
    assert (game.result, game.reason) == ("1/2-1/2", "stalemate")
    assert game.points == 0.5


@pytest.mark.parametrize("mode", ["illegal", "crash"])
def test_illegal_moves_and_crashes_lose(mode: str) -> None:
    game = play(mode, "random", chess.STARTING_FEN)
    assert game.result == "0-1"
    assert game.failure and game.pgn_termination == "rules infraction"
    assert game.points == 0.0


def test_a_hung_engine_loses_on_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(match_play, "SILENCE_GRACE", 0.2)
    game = play("hang", "random", chess.STARTING_FEN, tc="0.2+0")
    assert game.result == "0-1" and game.pgn_termination == "time forfeit"
    assert game.loser_on_time == "hang"


def test_flag_fall_loses_unless_the_opponent_cannot_mate() -> None:
    lost = play("slow", "random", BLACK_QUEEN, tc="0.1+0")
    assert lost.result == "0-1" and lost.loser_on_time == "slow"
    assert "lost on time" in lost.reason
    drawn = play("slow", "random", BARE_KING, tc="0.1+0")
    assert drawn.result == "1/2-1/2" and drawn.loser_on_time == "slow"
    assert "cannot mate" in drawn.reason


def test_resign_adjudication_uses_both_scores() -> None:
    # The fake engines report score 0 except when mating: a one-ply rule with a 0 cp
    # threshold adjudicates at once, a 1 cp one never does.
    rule = match_play.Adjudication(resign_plies=1, resign_cp=0)
    game = play("random", "random", chess.STARTING_FEN, adjudication=rule)
    assert game.pgn_termination == "adjudication" and game.result == "1-0"
    draw_rule = match_play.Adjudication(draw_from_move=1, draw_plies=2, draw_cp=0)
    game = play("random", "random", chess.STARTING_FEN, adjudication=draw_rule)
    assert game.pgn_termination == "adjudication" and game.result == "1/2-1/2"
    assert len(game.game.end().board().move_stack) == 2


def test_concurrent_match_alternates_colours_and_restarts_crashed_engines() -> None:
    seen: list[int] = []
    games = match_config.schedule([MATE_IN_ONE], 4)
    results = asyncio.run(
        match_play.play_match(
            fake("mater"),
            fake("crash"),
            games,
            match_config.parse_tc("5+0"),
            match_play.Adjudication(),
            2,
            lambda game: seen.append(game.number),
        )
    )
    assert sorted(seen) == [1, 2, 3, 4]
    assert [g.number for g in results] == [1, 2, 3, 4]
    assert [g.first_is_white for g in results] == [True, False, True, False]
    # As White the mater mates at once; as Black it wins when the crashing engine (White)
    # dies on its first move, and a fresh crash process is started for the next game.
    assert [g.result for g in results] == ["1-0", "0-1", "1-0", "0-1"]
    assert [g.failure for g in results] == [False, True, False, True]
    assert sum(g.points for g in results) == 4

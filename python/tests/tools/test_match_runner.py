"""The pure parts of the match runner (tools/shatranj_match): Elo math, time controls, engine
specs, openings, adjudication. No engine is started here."""

from __future__ import annotations

import json
import math
import os
import sys

import chess
import pytest

from shatranj_match import cli as match
from shatranj_match import config as match_config
from shatranj_match import make_openings
from shatranj_match import play as match_play
from shatranj_match import stats as match_stats
from shatranj_match.config import ConfigError
from support.repo import ROOT

# The opening files the gauntlet and benchmarks/search.py read.
OPENINGS_DIR = str(ROOT / "benchmarks" / "openings")

# --- Elo --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("p", "elo"),
    [
        (0.5, 0.0),
        # -400 log10(1/0.75 - 1) = 400 log10(3) = 190.849
        (0.75, 190.849),
        (0.25, -190.849),
        # 400 log10(9) = 381.697
        (0.9, 381.697),
        # 400 log10(99) = 798.25
        (0.99, 798.254),
    ],
)
def test_elo_from_score(p: float, elo: float) -> None:
    assert match_stats.elo_from_score(p) == pytest.approx(elo, abs=1e-3)


def test_elo_at_the_extremes_is_infinite() -> None:
    assert match_stats.elo_from_score(1.0) == math.inf
    assert match_stats.elo_from_score(0.0) == -math.inf
    assert match_stats.elo_error(4, 0, 0) == math.inf
    assert match_stats.elo_error(0, 0, 4) == math.inf
    with pytest.raises(ValueError):
        match_stats.elo_from_score(1.5)
    with pytest.raises(ValueError):
        match_stats.score(0, 0, 0)


def test_error_bars_by_hand() -> None:
    # +6 =2 -2: p = 0.7; variance = (6·0.3² + 2·0.2² + 2·0.7²)/10 = 0.16, sd = 0.4;
    # standard error 0.4/√10 = 0.126491; × 1.959964 = 0.247918;
    # scores 0.452082 .. 0.947918 -> Elo -33.40 .. +504.03; half width 268.72.
    assert match_stats.score(6, 2, 2) == pytest.approx(0.7)
    assert match_stats.score_stdev(6, 2, 2) == pytest.approx(0.4)
    elo, low, high = match_stats.elo_interval(6, 2, 2)
    assert elo == pytest.approx(147.19, abs=0.01)
    assert low == pytest.approx(-33.40, abs=0.01)
    assert high == pytest.approx(504.03, abs=0.01)
    assert match_stats.elo_error(6, 2, 2) == pytest.approx(268.72, abs=0.01)
    # +20 =60 -20: p = 0.5, sd = √0.1, se = 0.0316228, ×1.96 = 0.061979; Elo ±43.29.
    assert match_stats.elo_error(20, 60, 20) == pytest.approx(43.29, abs=0.01)
    # All draws: no spread at all.
    assert match_stats.elo_error(0, 10, 0) == 0.0


def test_format_elo() -> None:
    assert match_stats.format_elo(match_stats.elo_from_score(0.5)) == "0"
    assert match_stats.format_elo(190.849) == "+191"
    assert match_stats.format_elo(-33.4) == "-33"
    assert match_stats.format_elo(-math.inf) == "-inf"


def test_likelihood_of_superiority() -> None:
    assert match_stats.likelihood_of_superiority(5, 5) == 0.5
    assert match_stats.likelihood_of_superiority(0, 0) == 0.5
    # ½(1 + erf(3/√6)) = 0.958368
    assert match_stats.likelihood_of_superiority(3, 0) == pytest.approx(0.958368, abs=1e-6)
    assert match_stats.likelihood_of_superiority(0, 3) == pytest.approx(1 - 0.958368, abs=1e-6)


def test_tally_and_table() -> None:
    tally = match_stats.Tally()
    for points in [1, 1, 0.5, 0, 1]:
        tally.add(points)
    assert (tally.wins, tally.draws, tally.losses, tally.games, tally.points) == (3, 1, 1, 5, 3.5)
    with pytest.raises(ValueError):
        tally.add(0.25)
    text = match_stats.table([("stockfish-1500", tally), ("phalanx", match_stats.Tally())])
    rows = text.splitlines()
    assert len(rows) == 4
    assert rows[2].startswith("| stockfish-1500 | 5 | 3 | 1 | 1 | 3.5 | 70.0 | +147 |")
    # +3 =1 -1: p = 0.7, sd 0.4, se 0.4/√5 = 0.178885, ×1.96 = 0.350617: scores 0.349383 .. 1
    # (clamped), Elo -400·log10(1/0.349383 - 1) = -108.0 .. +inf.
    assert "| +147 | inf | [-108, +inf] | " in rows[2]
    assert rows[3].startswith("| phalanx | 0 |")
    # Every row has as many cells as the header.
    assert len({row.count("|") for row in rows}) == 1


# --- time controls ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "base", "increment", "shown"),
    [
        ("10+0.1", 10, 0.1, "10+0.1"),
        ("1+0.05", 1, 0.05, "1+0.05"),
        ("60", 60, 0, "60+0"),
        (" 5 + 2 ", 5, 2, "5+2"),
        ("0.5+0", 0.5, 0, "0.5+0"),
        ("1:30+1", 90, 1, "90+1"),
    ],
)
def test_parse_tc(text: str, base: float, increment: float, shown: str) -> None:
    tc = match_config.parse_tc(text)
    assert (tc.base, tc.increment) == (pytest.approx(base), pytest.approx(increment))
    assert str(tc) == shown == tc.pgn()


@pytest.mark.parametrize("text", ["", "10+", "+1", "ten", "10+0.1+1", "-5+1", "0+1", "10/40"])
def test_parse_tc_rejects(text: str) -> None:
    with pytest.raises(ConfigError, match="time control"):
        match_config.parse_tc(text)


# --- engine specifications --------------------------------------------------------------------


def test_parse_engine_spec_words() -> None:
    spec = match_config.parse_engine_spec(
        "name=sf1500 cmd=stockfish option.UCI_LimitStrength=true option.UCI_Elo=1500 "
        "option.Threads=1 option.SyzygyPath=/tb"
    )
    assert spec.name == "sf1500"
    assert spec.command == ("stockfish",)
    assert spec.protocol == "uci"
    assert spec.options == (
        ("UCI_LimitStrength", True),
        ("UCI_Elo", 1500),
        ("Threads", 1),
        ("SyzygyPath", "/tb"),
    )


def test_parse_engine_spec_arguments_quoting_and_xboard() -> None:
    spec = match_config.parse_engine_spec(
        "name=phalanx 'cmd=phalanx -l-' arg=-b- proto=XBoard dir=/tmp"
    )
    assert spec.command == ("phalanx", "-l-", "-b-")
    assert spec.protocol == "xboard"
    assert spec.workdir == "/tmp"
    # The name defaults to the program's file name.
    assert match_config.parse_engine_spec("cmd=/usr/games/glaurung").name == "glaurung"


def test_parse_engine_spec_json() -> None:
    text = json.dumps(
        {
            "name": "x",
            "cmd": "engine --uci",
            "args": ["-q"],
            "options": {"Hash": 16, "Ponder": False},
        }
    )
    spec = match_config.parse_engine_spec(text)
    assert spec.command == ("engine", "--uci", "-q")
    assert spec.options == (("Hash", 16), ("Ponder", False))


def test_the_record_names_the_threads_an_engine_was_given() -> None:
    # The record's settings line said "one thread per engine" even for a Threads=2 engine.
    two = match_config.parse_engine_spec("name=two cmd=x option.Threads=2")
    one = match_config.parse_engine_spec("name=one cmd=x option.Threads=1")
    plain = match_config.parse_engine_spec("name=plain cmd=y")
    assert match._threads(two, [one, "missing"]) == "threads: two 2, one 1"
    assert match._threads(plain, [one]) == "one thread per engine"


def test_parse_engine_spec_nodes() -> None:
    """``nodes`` gives one engine its own nodes a move in a fixed-node match."""
    assert match_config.parse_engine_spec("cmd=x nodes=14000").nodes == 14000
    assert match_config.parse_engine_spec('{"cmd": "x", "nodes": 9}').nodes == 9
    assert match_config.parse_engine_spec("cmd=x").nodes is None


def test_engine_nodes_need_a_fixed_node_match(capsys: pytest.CaptureFixture[str]) -> None:
    code = match.main(
        ["--engine", f"cmd={sys.executable} nodes=5", "--engine", f"cmd={sys.executable}"]
    )
    assert code == 2
    assert "give --nodes too" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text",
    [
        "",
        "name=x",
        "cmd=x nodes=0",
        "cmd=x nodes=-3",
        "cmd=x nodes=many",
        "cmd=x nodes=5 nodes=6",
        '{"cmd": "x", "nodes": "5"}',
        '{"cmd": "x", "nodes": true}',
        "cmd=",
        "name=x cmd=y proto=winboard2",
        "name=x cmd=y colour=red",
        "name=x cmd=y name=z",
        "name=x cmd=y option.=3",
        "cmd=y stray",
        "cmd='unterminated",
        "{not json",
        '["cmd", "x"]',
        '{"cmd": "x", "args": "-q"}',
        '{"cmd": "x", "options": {"Hash": [1]}}',
        '{"cmd": "x", "colour": "red"}',
    ],
)
def test_parse_engine_spec_rejects(text: str) -> None:
    with pytest.raises(ConfigError):
        match_config.parse_engine_spec(text)


def test_presets_and_missing_programs() -> None:
    phalanx = match_config.engine_spec("phalanx")
    assert phalanx.protocol == "xboard" and "-l-" in phalanx.command and "-b-" in phalanx.command
    sf = match_config.engine_spec("stockfish-2850")
    assert dict(sf.options)["UCI_Elo"] == 2850 and dict(sf.options)["UCI_LimitStrength"] is True
    assert set(match_config.DEFAULT_GAUNTLET) <= set(match_config.PRESETS)
    ours = match_config.engine_spec("shatranj")
    assert ours.command[0].endswith(os.path.join("target", "release", "shatranj"))
    assert os.path.isabs(ours.command[0]) and dict(ours.options) == {"Threads": 1}
    missing = match_config.parse_engine_spec("name=nope cmd=no-such-engine-xyz")
    with pytest.raises(ConfigError, match="not found"):
        missing.resolved()
    with pytest.raises(ConfigError, match="apt-get install phalanx"):
        match_config.parse_engine_spec("cmd=/nonexistent/phalanx").resolved()


# --- openings and schedule --------------------------------------------------------------------


def test_builtin_openings_are_legal_short_and_distinct() -> None:
    assert len(set(match_config.OPENINGS)) == len(match_config.OPENINGS) >= 8
    for opening in match_config.OPENINGS:
        board = match_play.start_board(opening)
        assert 2 <= len(board.move_stack) <= 4
        assert board.outcome() is None


def test_shipped_openings_file_is_legal_and_distinct() -> None:
    # benchmarks/openings/balanced-8ply.txt (made by make_openings.py) feeds the gauntlet.
    path = os.path.join(OPENINGS_DIR, "balanced-8ply.txt")
    openings = match_config.load_openings(path)
    assert len(openings) == len(set(openings)) == 150
    positions = set()
    for opening in openings:
        board = match_play.start_board(opening)
        assert len(board.move_stack) == 8 and board.outcome() is None
        positions.add(board.fen())
    assert len(positions) >= 140, "lines reaching the same position count once"


def test_shipped_opening_fens_are_the_ends_of_the_shipped_lines() -> None:
    # benchmarks/search.py reads the .fen file (standard library only); it must stay what
    # `make_openings.py --fens balanced-8ply.txt` writes.
    directory = OPENINGS_DIR
    with open(os.path.join(directory, "balanced-8ply.fen")) as f:
        fens = [line.strip() for line in f if line.strip()]
    boards = make_openings.line_positions(os.path.join(directory, "balanced-8ply.txt"))
    assert fens == [board.fen() for board in boards]
    assert len(fens) == 150 and all(len(board.move_stack) == 8 for board in boards)


def test_schedule_plays_each_opening_twice_with_colours_swapped() -> None:
    games = match_config.schedule(["a", "b"], 6)
    assert games == [
        ("a", True),
        ("a", False),
        ("b", True),
        ("b", False),
        ("a", True),
        ("a", False),
    ]
    assert match_config.schedule(["a"], 0) == []
    with pytest.raises(ConfigError):
        match_config.schedule([], 2)


def test_start_board_from_san_fen_and_epd() -> None:
    assert (
        match_play.start_board("1. e4 e5 2. Nf3").fen()
        == chess.Board("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2").fen()
    )
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert match_play.start_board(fen).fen() == fen
    assert match_play.start_board("8/8/8/8/8/8/8/K6k w - -").fen() == "8/8/8/8/8/8/8/K6k w - - 0 1"
    for bad in ["e4 e4", "e4 Ke7 Ke2 Qh4 Zz9", "8/8/8/x w - - 0 1"]:
        with pytest.raises(ConfigError):
            match_play.start_board(bad)


def test_chess960_starts_are_seeded_numbers_each_played_twice() -> None:
    openings = match_config.chess960_openings(7, seed=3)
    assert openings == match_config.chess960_openings(7, seed=3)
    assert len(openings) == 4 and len(set(openings)) == 4
    assert openings != match_config.chess960_openings(7, seed=4)
    games = match_config.schedule(openings, 7)
    assert [first_is_white for _, first_is_white in games] == [True, False] * 3 + [True]
    assert games[0][0] == games[1][0] == openings[0]
    board = match_play.start_board(openings[0])
    assert board.chess960 and board.chess960_pos() == match_config.chess960_number(openings[0])
    assert match_play.start_board("chess960:518").fen() == chess.STARTING_FEN
    for bad in ["chess960:960", "chess960:x", "chess960:-1"]:
        with pytest.raises(ConfigError):
            match_play.start_board(bad)
    # --chess960 draws its own starts: an openings file as well is a usage error.
    argv = ["--chess960", "--openings", "book.txt", "--engine", "a", "--engine", "b"]
    assert match.main(argv) == 2


def test_load_openings(tmp_path) -> None:
    path = tmp_path / "book.txt"
    path.write_text("# comment\n\ne4 e5\nd4 d5\n", encoding="utf-8")
    assert match_config.load_openings(str(path)) == ["e4 e5", "d4 d5"]
    (tmp_path / "empty.txt").write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="no openings"):
        match_config.load_openings(str(tmp_path / "empty.txt"))
    with pytest.raises(ConfigError, match="cannot read"):
        match_config.load_openings(str(tmp_path / "missing.txt"))


# --- adjudication -----------------------------------------------------------------------------


def test_adjudication_parsing() -> None:
    assert match_play.parse_draw_adjudication("40:8:10") == (40, 8, 10)
    assert match_play.parse_resign_adjudication("6:1000") == (6, 1000)
    for bad in ["40:8", "40:0:10", "a:b:c", "-1:8:10"]:
        with pytest.raises(ConfigError):
            match_play.parse_draw_adjudication(bad)
    with pytest.raises(ConfigError):
        match_play.parse_resign_adjudication("0:500")


def test_adjudication_rules() -> None:
    rules = match_play.Adjudication(
        draw_from_move=30, draw_plies=4, draw_cp=10, resign_plies=4, resign_cp=500
    )
    late = chess.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 40")
    early = chess.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 10")
    decide = match_play._adjudicate
    assert decide(rules, late, [0, 5, -5, 10])[0] == "1/2-1/2"
    assert decide(rules, early, [0, 5, -5, 10]) is None  # too early for a draw
    assert decide(rules, late, [0, 5, None, 10]) is None  # a missing score breaks the run
    assert decide(rules, late, [5, 5, 11]) is None
    assert decide(rules, early, [600, 700, 800, 900])[0] == "1-0"
    assert decide(rules, early, [-600, -700, -800, -900])[0] == "0-1"
    assert decide(rules, early, [600, 700, 400, 900]) is None
    assert decide(match_play.Adjudication(), late, [0] * 20) is None

"""benchmarks/match.py, the records' front to ``shatranj match``: presets, the arguments it
passes on, the final table it records, and one gauntlet of scripted engines end to end (played
by ``shatranj match``'s own tournament). The shipped opening files are checked here
too: they are what the records' matches play.

The pure parts were tested with the retired Python runner (tools/shatranj_match); what the new
runner also does moved onto it (python/tests/match/test_match_games.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import make_openings
import match as match_script
import pytest

import shatranj as chess
from support.engines import FAKE_UCI
from support.repo import ROOT

OPENINGS = ROOT / "benchmarks" / "openings"
SCRIPT = str(ROOT / "benchmarks" / "match.py")


def test_presets_expand_and_the_engines_own_pairs_win() -> None:
    pairs = match_script.expand_engine(["preset=stockfish-1500", "option.Threads=2"])
    assert pairs[0] == "cmd=/usr/games/stockfish"
    assert "option.UCI_Elo=1500" in pairs and "option.UCI_LimitStrength=true" in pairs
    # The engine's own pairs come last: shatranj match keeps the last value of a setting.
    assert pairs[-2:] == ["name=stockfish-1500", "option.Threads=2"]
    assert match_script.engine_name(pairs) == "stockfish-1500"
    assert match_script.engine_name([*pairs, "name=sf"]) == "sf"
    assert match_script.engine_name(["cmd=/usr/games/glaurung"]) == "glaurung"
    with pytest.raises(match_script.UsageError, match="preset=nope"):
        match_script.expand_engine(["preset=nope"])


def test_the_arguments_pass_unchanged_but_the_presets() -> None:
    args = ["-engine", "cmd=a", "-engine", "cmd=b", "-each", "nodes=5", "-pgnout", "file=g.pgn"]
    assert match_script.command(args) == (["a", "b"], args)
    engines = ["-engine", "cmd=x", "name=a", "-engine", "preset=glaurung", "-engine", "cmd=z"]
    names, argv = match_script.command([*engines, "-tournament", "gauntlet", "-rounds", "2"])
    assert names == ["a", "glaurung", "z"]
    assert argv == [
        "-engine", "cmd=x", "name=a", "-engine", "cmd=/usr/games/glaurung", "name=glaurung",
        "-engine", "cmd=z", "-tournament", "gauntlet", "-rounds", "2",
    ]  # fmt: skip
    for bad, says in [
        (["-engine", "cmd=x"], "at least two"),
        (["-engine", "cmd=x", "-engine", "cmd=x"], "different names"),
        (["rounds", "3"], "expected an option"),
    ]:
        with pytest.raises(match_script.UsageError, match=says):
            match_script.command(bad)


def test_the_final_table_is_the_last_block() -> None:
    rule = "-" * 66
    output = "\n".join(
        [rule, "Results of a vs b (-):", "Games: 2", rule, "Finished game 3", rule]
        + ["Results of a vs b (-):", "Games: 4", rule, "Runner latency: 1", "SPRT: H0 accepted"]
    )
    assert match_script.final_table(output) == "\n".join(
        ["Results of a vs b (-):", "Games: 4", "Runner latency: 1", "SPRT: H0 accepted"]
    )
    assert match_script.final_table("no table") == ""


def test_a_gauntlet_of_scripted_engines(shatranj_binary: Path, tmp_path: Path) -> None:
    def fake(name: str, mode: str) -> list[str]:
        return ["-engine", f"cmd={sys.executable}", f"name={name}", f"args={FAKE_UCI} {mode} 0"]

    argv = [
        sys.executable, SCRIPT, "--bin", str(shatranj_binary),
        "-tournament", "gauntlet", *fake("mater", "mater"), *fake("rand", "random"),
        *fake("crash", "crash"), "-each", "nodes=1", "-rounds", "2", "-repeat",
        "-maxmoves", "20", "-recover", "-pgnout", f"file={tmp_path / 'g.pgn'}",
    ]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    # shatranj match's gauntlet: one PGN of both pairings, four games each; the crasher
    # lost all of its own.
    text = (tmp_path / "g.pgn").read_text()
    assert text.count("[Event ") == 8
    assert text.count('[White "rand"]') + text.count('[Black "rand"]') == 4
    assert "Pairing 2 of 2: mater vs crash" in done.stdout
    assert "mater vs crash: +4 =0 -0 (4.0/4)" in done.stdout
    assert "Faults: crash crash: 4" in done.stdout


def test_a_usage_error_runs_nothing() -> None:
    done = subprocess.run(
        [sys.executable, SCRIPT, "-engine", "preset=nope", "-engine", "cmd=x"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "preset=nope" in done.stderr


# --- the shipped openings ---------------------------------------------------------------------


def test_shipped_openings_are_legal_distinct_and_eight_plies_deep() -> None:
    # balanced-8ply.txt (made by make_openings.py) feeds the gauntlets; its .fen twin is what
    # `shatranj match -openings format=epd` plays.
    lines = make_openings.line_positions(str(OPENINGS / "balanced-8ply.txt"))
    assert len(lines) == 150
    assert len({board.fen() for board in lines}) >= 140, "lines reaching one position count once"
    for board in lines:
        assert len(board.move_stack) == 8 and board.outcome() is None


def test_shipped_opening_fens_are_the_ends_of_the_shipped_lines() -> None:
    # benchmarks/search.py and the match runner read the .fen file; it must stay what
    # `make_openings.py --fens balanced-8ply.txt` writes.
    fens = [
        line.strip()
        for line in (OPENINGS / "balanced-8ply.fen").read_text().splitlines()
        if line.strip()
    ]
    boards = make_openings.line_positions(str(OPENINGS / "balanced-8ply.txt"))
    assert fens == [board.fen() for board in boards]
    # Each replays from the start position with the shatranj package as with python-chess.
    assert all(chess.Board(fen).is_valid() for fen in fens)

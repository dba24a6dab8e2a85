"""benchmarks/match.py, the records' front to ``shatranj match``: presets, the pairings of a
gauntlet and a round robin (each with its own PGN and state file), the final table it records,
and one gauntlet of scripted engines end to end. The shipped opening files are checked here
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


def test_two_engines_are_one_match_with_the_arguments_unchanged() -> None:
    args = ["-engine", "cmd=a", "-engine", "cmd=b", "-each", "nodes=5", "-pgnout", "file=g.pgn"]
    (only,) = match_script.pairings(args)
    assert only.names == ("a", "b") and only.args == args


def test_gauntlet_and_round_robin_pairings() -> None:
    engines = ["-engine", "cmd=x", "name=a", "-engine", "cmd=y", "name=b", "-engine", "cmd=z"]
    common = ["-each", "nodes=5", "-pgnout", "file=out/g.pgn", "min=true", "-config", "file=s"]
    gauntlet = match_script.pairings([*engines, "-tournament", "gauntlet", *common])
    assert [p.names for p in gauntlet] == [("a", "b"), ("a", "z")]
    assert gauntlet[1].args == [
        "-engine", "cmd=x", "name=a", "-engine", "cmd=z",
        "-each", "nodes=5", "-pgnout", "file=out/g-a-z.pgn", "min=true", "-config", "file=s-a-z",
    ]  # fmt: skip
    robin = match_script.pairings([*engines, *common])
    assert [p.names for p in robin] == [("a", "b"), ("a", "z"), ("b", "z")]
    for bad, says in [
        (["-engine", "cmd=x"], "at least two"),
        (["-engine", "cmd=x", "-engine", "cmd=x"], "different names"),
        ([*engines, "-tournament", "swiss"], "gauntlet or roundrobin"),
        (["rounds", "3"], "expected an option"),
    ]:
        with pytest.raises(match_script.UsageError, match=says):
            match_script.pairings(bad)


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
    assert "== mater vs rand" in done.stdout and "== mater vs crash" in done.stdout
    assert "== rand vs crash" not in done.stdout
    # One PGN a pairing, each with its four games; the crasher lost all of its own.
    for other in ("rand", "crash"):
        text = (tmp_path / f"g-mater-{other}.pgn").read_text()
        assert text.count("[Event ") == 4
    assert "Games: 4, Wins: 4, Losses: 0, Draws: 0" in done.stdout
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

"""shatranj.match.run: the runner of ``shatranj match`` from Python. Its counts, PGN and
faults agree with the CLI's on the same arguments; a fixed-node match of our engine is the
same on every run; Ctrl-C stops it, leaves no engine behind and keeps the state file's games;
bad settings raise ValueError before any engine starts."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from shatranj import match
from support.interrupt import assert_ctrl_c_interrupts

FAKE = str(Path(__file__).resolve().parent / "engines" / "fake_uci.py")


def moves_only(pgn: str) -> str:
    return re.sub(r" ?\{[^}]*\}", "", pgn)


def fake(name: str, mode: str = "good", arg: float = 0) -> dict:
    return {"cmd": sys.executable, "name": name, "args": [FAKE, mode, arg]}


def test_a_match_of_fake_engines(tmp_path: Path) -> None:
    lines: list[str] = []
    r = match.run(
        [fake("crashy", "crash", 5), fake("good")],
        each={"nodes": 1},
        rounds=3,
        maxmoves=10,
        recover=True,
        pgnout=tmp_path / "games.pgn",
        config=tmp_path / "state.json",
        on_line=lines.append,
    )
    assert r.names == ("crashy", "good")
    assert (r.games, r.losses, r.trinomial, r.pentanomial) == (6, 6, (6, 0, 0), (3, 0, 0, 0, 0))
    assert r.faults == {"crashy crash": 6}
    assert [g.termination for rr in r.rounds for g in rr.games] == ["abandoned"] * 6
    assert [rr.round for rr in r.rounds] == [0, 1, 2]
    # The returned games are the PGN file's, in order; the state file holds the same counts.
    assert (
        "".join(g.pgn for rr in r.rounds for g in rr.games) == (tmp_path / "games.pgn").read_text()
    )
    state = json.loads((tmp_path / "state.json").read_text())
    assert tuple(state["pentanomial"]) == r.pentanomial
    assert sum(1 for line in lines if line.startswith("Finished game")) == 6
    assert r.estimate is not None and r.estimate.score == 0.0
    # Moves of the good engine were timed: latency counted per move played.
    assert r.latency["turnaround"]["count"] > 0


def test_our_engine_at_fixed_nodes_is_deterministic(shatranj_binary: Path) -> None:
    def once() -> match.MatchResult:
        return match.run(
            [
                {"cmd": shatranj_binary, "name": "n800", "nodes": 800},
                {"cmd": shatranj_binary, "name": "n200", "nodes": 200},
            ],
            each={"options": {"Hash": 4, "Threads": 1}},
            rounds=4,
            concurrency=2,
            maxmoves=60,
            sprt={"elo0": 0, "elo1": 50, "model": "logistic"},
        )

    a, b = once(), once()
    assert a.pentanomial == b.pentanomial and sum(a.pentanomial) == 4
    # The same moves and results (the comments hold each search's time, which varies).
    assert [moves_only(g.pgn) for r in a.rounds for g in r.games] == [
        moves_only(g.pgn) for r in b.rounds for g in r.games
    ]
    assert a.sprt is not None and a.sprt.bounds[1] == pytest.approx(2.944, abs=1e-3)


def test_bad_settings_raise_value_error() -> None:
    with pytest.raises(ValueError, match="two engines or more"):
        match.run([fake("a")], each={"nodes": 1})
    with pytest.raises(ValueError, match="give tc="):
        match.run([fake("a"), fake("b")])
    with pytest.raises(ValueError, match="below"):
        match.run([fake("a"), fake("b")], each={"nodes": 1}, sprt={"elo0": 2, "elo1": 0})
    with pytest.raises(ValueError, match="unknown engine setting"):
        match.run([fake("a"), fake("b")], each={"nodes": 1, "colour": "red"})


def test_ctrl_c_stops_the_match(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    engines = [fake("slow", "slow", 0.05), fake("good")]
    call = (
        f"__import__('shatranj.match').match.run({engines!r}, each={{'nodes': 1}}, rounds=1000, maxmoves=4,"
        f" concurrency=2, config={str(state)!r})"
    )
    assert_ctrl_c_interrupts(call, within=3.0)
    # Whatever was counted before the interrupt is in a whole state file.
    if state.exists():
        assert json.loads(state.read_text())["next_round"] < 1000

"""shatranj.match.run with three engines: a fixed-node round-robin of our engine at three
node counts is the same on every run, its standings are a count of its own PGN, a gauntlet
plays its seeds against the rest, and a tournament without ``tournament=`` or with ``sprt``
is refused before any engine starts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shatranj import match


def engines(binary: Path) -> list[dict]:
    return [{"cmd": binary, "name": f"n{nodes}", "nodes": nodes} for nodes in (800, 400, 200)]


def moves_only(pgn: str) -> str:
    return re.sub(r" ?\{[^}]*\}", "", pgn)


def test_a_round_robin_is_deterministic_and_counts_its_pgn(
    shatranj_binary: Path, tmp_path: Path
) -> None:
    def once(name: str) -> match.TournamentResult:
        return match.run(
            engines(shatranj_binary),
            each={"options": {"Hash": 4, "Threads": 1}},
            rounds=1,
            maxmoves=60,
            concurrency=2,
            pgnout=tmp_path / name,
            tournament="roundrobin",
        )

    a, b = once("a.pgn"), once("b.pgn")
    assert a.kind == "roundrobin" and a.names == ("n800", "n400", "n200")
    assert [(p.first, p.second) for p in a.pairings] == [
        ("n800", "n400"),
        ("n800", "n200"),
        ("n400", "n200"),
    ]
    games = [g for _, r in a.rounds for g in r.games]
    assert len(games) == 6
    assert [moves_only(g.pgn) for g in games] == [
        moves_only(g.pgn) for _, r in b.rounds for g in r.games
    ]
    assert "".join(g.pgn for g in games) == (tmp_path / "a.pgn").read_text()
    # The standings are the games' points, counted here from the PGN's tags.
    points = {name: 0.0 for name in a.names}
    for g in games:
        white, black = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0)}.get(g.result, (0.5, 0.5))
        points[g.white] += white
        points[g.black] += black
    assert {s.name: s.points for s in a.standings} == points
    assert all(s.games == 4 for s in a.standings)
    assert [s.points for s in a.standings] == sorted(points.values(), reverse=True)


def test_a_gauntlet_plays_the_seeds_against_the_rest(shatranj_binary: Path) -> None:
    r = match.run(
        engines(shatranj_binary),
        each={"options": {"Hash": 4, "Threads": 1}},
        rounds=1,
        maxmoves=20,
        tournament="gauntlet",
        seeds=2,
    )
    assert [(p.first, p.second) for p in r.pairings] == [("n800", "n200"), ("n400", "n200")]
    assert [(k, g.white, g.black) for k, rr in r.rounds for g in rr.games] == [
        (0, "n800", "n200"),
        (0, "n200", "n800"),
        (1, "n400", "n200"),
        (1, "n200", "n400"),
    ]


def test_tournament_mistakes_raise(shatranj_binary: Path) -> None:
    three = engines(shatranj_binary)
    with pytest.raises(ValueError, match="tournament="):
        match.run(three)
    with pytest.raises(ValueError, match="-sprt applies only"):
        match.run(three, sprt={"elo0": 0, "elo1": 5}, tournament="roundrobin")
    with pytest.raises(ValueError, match="three engines or more"):
        match.run(three[:2], tournament="gauntlet")
    with pytest.raises(ValueError, match="-seeds 3"):
        match.run(three, tournament="gauntlet", seeds=3)

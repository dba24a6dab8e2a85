"""shatranj.distributed.match on a local Ray cluster (2 CPUs): a fixed-node match of our engine
gives the same counts, games and table as a local shatranj.match.run; the SPRT stops the
pooled match at the same round as the local runner; a crash without ``recover`` stops it.

Without Ray the module is skipped, unless SHATRANJ_REQUIRE_RAY=1 (scripts/test sets it)."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.optional import require

require("ray", "SHATRANJ_REQUIRE_RAY", reason="Ray is not installed (pip install 'shatranj[ray]')")
import ray  # noqa: E402  (after the require above)

from shatranj import distributed, match  # noqa: E402

FAKE = str(Path(__file__).resolve().parents[1] / "match" / "engines" / "fake_uci.py")


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    ray.init(
        num_cpus=2,
        object_store_memory=80 * 1024 * 1024,
        include_dashboard=False,
        configure_logging=False,
        log_to_driver=False,
    )
    try:
        yield
    finally:
        ray.shutdown()


def ours(binary: Path) -> dict[str, Any]:
    return {
        "engines": [
            {"cmd": str(binary), "name": "n600", "nodes": 600},
            {"cmd": str(binary), "name": "n150", "nodes": 150},
        ],
        "each": {"options": {"Hash": 4, "Threads": 1}},
        "maxmoves": 50,
    }


def moves_only(pgn: str) -> str:
    """The PGN without its comments (they hold each search's time, which varies)."""
    return re.sub(r" ?\{[^}]*\}", "", pgn)


def games_of(r: match.MatchResult) -> list[str]:
    return [moves_only(g.pgn) for rr in r.rounds for g in rr.games]


def test_a_fixed_node_match_equals_the_local_one(shatranj_binary: Path, tmp_path: Path) -> None:
    settings = ours(shatranj_binary)
    local = match.run(**settings, rounds=6, concurrency=2)
    spread = distributed.match(**settings, rounds=6, rounds_per_task=2, pgnout=tmp_path / "ray.pgn")
    assert (spread.names, spread.trinomial, spread.pentanomial) == (
        local.names,
        local.trinomial,
        local.pentanomial,
    )
    assert repr(spread.estimate) == repr(local.estimate)  # nan == nan when every pair is won
    assert games_of(spread) == games_of(local)
    assert moves_only((tmp_path / "ray.pgn").read_text()) == "".join(games_of(local))
    assert [r.round for r in spread.rounds] == list(range(6))


def test_the_sprt_stops_at_the_local_runners_round(shatranj_binary: Path) -> None:
    settings = ours(shatranj_binary)
    test = {"elo0": 0, "elo1": 300, "model": "logistic", "alpha": 0.2, "beta": 0.2}
    local = match.run(**settings, rounds=40, sprt=test)
    spread = distributed.match(**settings, rounds=40, sprt=test, rounds_per_task=3)
    assert local.sprt is not None and local.sprt.decision is not None, local
    assert spread.sprt == local.sprt
    assert spread.pentanomial == local.pentanomial
    assert len(spread.rounds) == len(local.rounds) < 40


def test_a_crash_without_recover_stops_the_match() -> None:
    engines = [
        {"cmd": sys.executable, "name": "crashy", "args": [FAKE, "crash", 5]},
        {"cmd": sys.executable, "name": "good", "args": [FAKE, "good"]},
    ]
    r = distributed.match(engines, each={"nodes": 1}, rounds=8, rounds_per_task=2, maxmoves=8)
    assert r.stopped_by is not None and r.stopped_by.startswith("crashy: crash")
    assert [rr.round for rr in r.rounds] == [0]
    again = distributed.match(
        engines, each={"nodes": 1}, rounds=4, rounds_per_task=2, maxmoves=8, recover=True
    )
    assert (
        again.stopped_by is None
        and again.faults == {"crashy crash": 8}
        and again.trinomial == (8, 0, 0)
    )


def test_a_fixed_node_tournament_equals_the_local_one(shatranj_binary: Path) -> None:
    settings: dict[str, Any] = {
        "engines": [
            {"cmd": str(shatranj_binary), "name": f"n{nodes}", "nodes": nodes}
            for nodes in (600, 300, 150)
        ],
        "each": {"options": {"Hash": 4, "Threads": 1}},
        "maxmoves": 40,
        "rounds": 2,
        "tournament": "roundrobin",
    }
    local = match.run(**settings, concurrency=2)
    spread = distributed.match(**settings, rounds_per_task=1)
    assert isinstance(spread, match.TournamentResult)
    assert (spread.kind, spread.names) == (local.kind, local.names)
    assert spread.pairings == local.pairings
    assert spread.standings == local.standings
    assert [(k, r.round) for k, r in spread.rounds] == [(k, r.round) for k, r in local.rounds]
    assert [moves_only(g.pgn) for _, r in spread.rounds for g in r.games] == [
        moves_only(g.pgn) for _, r in local.rounds for g in r.games
    ]


def test_a_gauntlet_on_the_cluster_plays_its_seed_against_the_rest() -> None:
    engines = [
        {"cmd": sys.executable, "name": name, "args": [FAKE, "good"]} for name in ("a", "b", "c")
    ]
    r = distributed.match(
        engines, each={"nodes": 1}, rounds=2, maxmoves=8, tournament="gauntlet", rounds_per_task=1
    )
    assert [(p.first, p.second) for p in r.pairings] == [("a", "b"), ("a", "c")]
    assert sum(s.games for s in r.standings) == 2 * 8
    with pytest.raises(ValueError, match="only to a match of two engines"):
        distributed.match(
            engines, each={"nodes": 1}, tournament="roundrobin", sprt={"elo0": 0, "elo1": 5}
        )
    with pytest.raises(ValueError, match="three engines or more"):
        distributed.match(engines[:2], each={"nodes": 1}, tournament="roundrobin")
    with pytest.raises(ValueError, match="3 engines play a tournament"):
        distributed.match(engines, each={"nodes": 1})

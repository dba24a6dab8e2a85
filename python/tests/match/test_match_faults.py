"""The match runner (``shatranj match``) against engines that fail on purpose
(``engines/fake_uci.py``): a crash mid-game, a hang with and without a clock, an illegal
move, garbage output and a slow start. Each fault is reported with its reason, scored as a
loss for the engine at fault, the engine restarted under ``-recover``, and the match
finishes with every game in the PGN and the state file; without ``-recover`` a crash stops
the match. A run killed mid-match and started again from its state file ends with the same
PGN and counts as one that was never interrupted.

The fake engines' moves are a fixed function of the position, so every game here is the same
on every run."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

FAKE = str(Path(__file__).resolve().parent / "engines" / "fake_uci.py")


def engine(name: str, mode: str, arg: float = 0) -> list[str]:
    return ["-engine", f"cmd={sys.executable}", f"name={name}", f"args={FAKE} {mode} {arg}"]


def run_match(
    binary: Path, args: Sequence[str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(binary), "match", *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def pgn_games(path: Path) -> list[dict[str, str]]:
    """Each game's tags, and its last comment (the reason it ended) as ``_reason``."""
    games: list[dict[str, str]] = []
    for chunk in path.read_text().split("[Event ")[1:]:
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', "[Event " + chunk, re.M))
        comments = re.findall(r"\{([^}]*)\}", chunk)
        tags["_reason"] = comments[-1] if comments else ""
        games.append(tags)
    return games


def common(tmp_path: Path, rounds: int = 2, pgn: str = "") -> list[str]:
    return [
        "-rounds", str(rounds), "-repeat", "-maxmoves", "12",
        "-pgnout", f"file={tmp_path / 'games.pgn'}", *([pgn] if pgn else []),
        "-config", f"file={tmp_path / 'state.json'}",
    ]  # fmt: skip


def check_every_game_kept(tmp_path: Path, rounds: int) -> tuple[list[dict[str, str]], dict]:
    games = pgn_games(tmp_path / "games.pgn")
    state = json.loads((tmp_path / "state.json").read_text())
    assert len(games) == 2 * rounds
    assert state["next_round"] == rounds
    assert sum(state["trinomial"]) == 2 * rounds
    assert sum(state["pentanomial"]) == rounds
    return games, state


@pytest.mark.parametrize(
    ("mode", "arg", "clock", "termination", "says", "fault"),
    [
        ("crash", 5, "nodes=1", "abandoned", "disconnects", "crash"),
        ("hang", 5, "nodes=1", "abandoned", "hangs (no bestmove within", "hang"),
        ("hang", 5, "tc=2+0.05", "time forfeit", "loses on time", "time loss"),
        ("illegal", 5, "nodes=1", "rules infraction", "bestmove a1a1 is illegal", "illegal move"),
        ("slowstart", 30, "nodes=1", "abandoned", "hangs (no uciok within 3.000 s)", "hang"),
    ],
)
def test_a_fault_loses_the_game_and_the_match_goes_on(
    shatranj_binary: Path,
    tmp_path: Path,
    mode: str,
    arg: float,
    clock: str,
    termination: str,
    says: str,
    fault: str,
) -> None:
    rounds = 2
    args = [
        *engine("faulty", mode, arg), *engine("good", "good"),
        "-each", clock, *common(tmp_path, rounds), "-recover",
        "-movetimeout", "1",
        # Well above a loaded machine's Python start, well below the slow start's 30 s.
        "-startup-ms", "3000",
    ]  # fmt: skip
    done = run_match(shatranj_binary, args)
    assert done.returncode == 0, done.stdout + done.stderr
    games, state = check_every_game_kept(tmp_path, rounds)
    for g in games:
        assert g["Termination"] == termination, g
        assert says in g["_reason"], g
        faulty_white = g["White"] == "faulty"
        assert g["Result"] == ("0-1" if faulty_white else "1-0"), g
        # The reason names the side at fault.
        side = re.search(r"\b(White|Black) (?:loses|hangs|disconnects|makes)", g["_reason"])
        assert side is not None and side.group(1) == ("White" if faulty_white else "Black"), g
    # Every game lost by the faulty engine: from its side [L, D, W] = [all, 0, 0].
    assert state["trinomial"] == [2 * rounds, 0, 0]
    assert state["pentanomial"] == [rounds, 0, 0, 0, 0]
    assert state["faults"] == {f"faulty {fault}": 2 * rounds}
    assert says in done.stdout
    assert "Faults: faulty " + fault in done.stdout


def test_garbage_output_is_ignored(shatranj_binary: Path, tmp_path: Path) -> None:
    args = [
        *engine("noisy", "garbage"),
        *engine("good", "good"),
        "-each",
        "nodes=1",
        *common(tmp_path),
    ]
    done = run_match(shatranj_binary, args)
    assert done.returncode == 0, done.stdout + done.stderr
    games, state = check_every_game_kept(tmp_path, 2)
    assert state["faults"] == {}
    assert all(g["Termination"] in ("normal", "adjudication") for g in games), games


def test_a_crash_stops_the_match_without_recover(shatranj_binary: Path, tmp_path: Path) -> None:
    args = [
        *engine("faulty", "crash", 5),
        *engine("good", "good"),
        "-each",
        "nodes=1",
        *common(tmp_path, 5),
    ]
    done = run_match(shatranj_binary, args)
    assert done.returncode == 1
    assert "faulty: crash; the match stops" in done.stderr
    # The round with the crash is counted and kept; no later round is played.
    games, state = (
        pgn_games(tmp_path / "games.pgn"),
        json.loads((tmp_path / "state.json").read_text()),
    )
    assert (len(games), state["next_round"], state["trinomial"]) == (2, 1, [2, 0, 0])


def test_a_killed_match_resumes_exactly(shatranj_binary: Path, tmp_path: Path) -> None:
    rounds = 6
    straight, resumed = tmp_path / "straight", tmp_path / "resumed"
    straight.mkdir()
    resumed.mkdir()

    def args(where: Path) -> list[str]:
        return [
            *engine("slow", "slow", 0.02), *engine("good", "good"),
            "-each", "nodes=1", *common(where, rounds, "min=true"), "-concurrency", "2",
        ]  # fmt: skip

    done = run_match(shatranj_binary, args(straight))
    assert done.returncode == 0, done.stderr
    # Killed (SIGKILL: no chance to tidy up) once two rounds are counted, mid-write perhaps.
    proc = subprocess.Popen(
        [str(shatranj_binary), "match", *args(resumed)],
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    state_file = resumed / "state.json"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if state_file.exists() and json.loads(state_file.read_text())["next_round"] >= 2:
            break
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    killed_at = json.loads(state_file.read_text())["next_round"]
    print(f"killed after {killed_at} counted rounds")
    assert 2 <= killed_at < rounds
    again = run_match(shatranj_binary, ["-config", f"file={state_file}"])
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"Resuming from {state_file} at round {killed_at + 1}" in again.stdout
    assert (resumed / "games.pgn").read_text() == (straight / "games.pgn").read_text()
    a, b = (json.loads((d / "state.json").read_text()) for d in (straight, resumed))
    for key in ("next_round", "trinomial", "pentanomial", "faults", "pgn_bytes"):
        assert a[key] == b[key], key

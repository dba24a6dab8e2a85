"""benchmarks/run.py, the one entry point of the benchmarks: ``--list`` names every area, each
area's program exists, and every script area starts and answers ``--help`` through run.py (its
options; nothing is measured). The help runs start together, so the module takes seconds."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import run

from support.repo import ROOT

RUN = str(ROOT / "benchmarks" / "run.py")
# A script's optional module: without it the script cannot start, so its --help skips, unless
# scripts/test's SHATRANJ_REQUIRE_RAY=1 says the module is installed.
OPTIONAL = {"distributed": ("ray", "SHATRANJ_REQUIRE_RAY")}


@pytest.fixture(scope="module")
def helps() -> dict[str, tuple[int, str]]:
    """Every Python script area's ``run.py AREA --help``: exit status and output."""
    started = {
        name: subprocess.Popen(
            [sys.executable, RUN, name, "--help"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for name, area in run.AREAS.items()
        if area.path.endswith(".py")
    }
    results = {}
    for name, process in started.items():
        output = process.communicate(timeout=120)[0]
        results[name] = (process.returncode, output)
    return results


def test_list_names_every_area() -> None:
    done = subprocess.run(
        [sys.executable, RUN, "--list"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    listed = [line.split()[0] for line in done.stdout.splitlines()]
    assert listed == list(run.AREAS)
    # The scripts this folder holds are all reachable from run.py (pgn_scale.py through pgn's
    # --scale; common.py and run.py are not areas).
    scripts = {p.name for p in (ROOT / "benchmarks").iterdir() if p.suffix in (".py", ".sh")}
    reached = {os.path.basename(area.path) for area in run.AREAS.values()}
    assert scripts - reached == {"common.py", "run.py", "pgn_scale.py", "make_openings.py"}


def test_an_unknown_area_is_a_usage_error() -> None:
    done = subprocess.run(
        [sys.executable, RUN, "no-such-area"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "no area 'no-such-area'" in done.stderr and "perft" in done.stderr


@pytest.mark.parametrize("name", list(run.AREAS))
def test_every_area_runs_a_program_that_exists(name: str) -> None:
    area = run.AREAS[name]
    assert (ROOT / area.path).is_file(), area.path
    if area.package:
        # A Rust example of the crate whose package cargo is told to build.
        crate = ROOT / area.path.split("/examples/")[0]
        assert f'name = "{area.package}"' in (crate / "Cargo.toml").read_text()
        assert area.command(["x"])[-2:] == ["--", "x"]
    else:
        assert area.command(["--quick"])[-2:] == [str(ROOT / area.path), "--quick"]


@pytest.mark.parametrize(
    "name", [name for name, area in run.AREAS.items() if area.path.endswith(".py")]
)
def test_every_script_area_answers_help(name: str, helps: dict[str, tuple[int, str]]) -> None:
    status, output = helps[name]
    module, required = OPTIONAL.get(name, (None, None))
    if module and status != 0 and f"No module named '{module}'" in output:
        if os.environ.get(required or "") == "1":
            pytest.fail(f"{required}=1 but {name} cannot import {module}:\n{output}")
        pytest.skip(f"{name} needs {module}, which is not installed")
    assert status == 0, output
    assert output.startswith("usage: "), output

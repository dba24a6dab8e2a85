"""The parsing parts of benchmarks/search.py: which `info` lines count as a completed
iteration, and the time to each depth read from one search. No engine is started here."""

from __future__ import annotations

import pytest
import search


@pytest.mark.parametrize(
    ("line", "depth"),
    [
        ("info depth 12 seldepth 18 multipv 1 score cp 31 nodes 9 nps 9 time 1 pv e2e4 e7e5", 12),
        ("info depth 7 seldepth 9 score mate 3 nodes 100 time 2 pv d1h5", 7),
        # Stockfish's aspiration bounds and its current-move lines are not completions.
        ("info depth 20 seldepth 30 multipv 1 score cp 15 lowerbound nodes 1 pv e2e4", None),
        ("info depth 20 seldepth 30 multipv 1 score cp 15 upperbound nodes 1 pv e2e4", None),
        ("info depth 24 currmove g1f3 currmovenumber 2", None),
        # With MultiPV only the first line marks the iteration.
        ("info depth 9 seldepth 12 multipv 2 score cp 3 nodes 5 pv d2d4", None),
        ("info string NNUE evaluation using nn.bin enabled", None),
        ("bestmove e2e4", None),
    ],
)
def test_completed_depth(line: str, depth: int) -> None:
    assert search.completed_depth(line) == depth


class ScriptedEngine(search.UciEngine):
    """Answers `go` with fixed lines at fixed times after it (seconds); no process."""

    def __init__(self, lines: list[tuple[float, str]], bestmove_at: float) -> None:
        self.script = lines
        self.bestmove_at = bestmove_at
        self.sent: list[str] = []

    def send(self, line: str) -> float:
        self.sent.append(line)
        return 100.0

    def ready(self) -> None:
        pass

    def wait_for_timed(
        self, prefix: str, timeout: float = 120.0
    ) -> tuple[float, str, list[tuple[float, str]]]:
        assert prefix == "bestmove"
        return (
            100.0 + self.bestmove_at,
            "bestmove e2e4",
            [(100.0 + t, line) for t, line in self.script],
        )


def test_time_to_each_depth_is_the_first_report_at_least_that_deep() -> None:
    engine = ScriptedEngine(
        [
            (0.1, "info depth 1 score cp 10 nodes 20 pv e2e4"),
            (0.2, "info depth 2 score cp 12 nodes 80 pv e2e4 e7e5"),
            (0.25, "info depth 3 currmove e2e4 currmovenumber 1"),
            (0.3, "info depth 3 score cp 20 lowerbound nodes 300 pv e2e4"),
            # Depth 3 abandoned: the helper's depth 4 is taken and reported.
            (0.5, "info depth 4 score cp 15 nodes 900 pv e2e4 e7e5"),
            (0.9, "info depth 5 score cp 14 nodes 4000 pv d2d4"),
        ],
        bestmove_at=1.5,
    )
    seconds, nodes, reached = search.time_to_depth(engine, "8/8/8/8/8/8/8/K1k5 w - - 0 1", 6)
    assert engine.sent[-1] == "go depth 6"
    assert nodes == 4000
    assert seconds == pytest.approx(1.5)
    expected = {1: 0.1, 2: 0.2, 3: 0.5, 4: 0.5, 5: 0.9, 6: 1.5}
    assert reached == pytest.approx(expected)


def test_a_search_that_ends_early_reaches_every_depth_at_its_end() -> None:
    engine = ScriptedEngine([(0.1, "info depth 1 score mate 1 nodes 3 pv d1h5")], bestmove_at=0.2)
    _, _, reached = search.time_to_depth(engine, "8/8/8/8/8/8/8/K1k5 w - - 0 1", 4)
    assert reached == pytest.approx({1: 0.1, 2: 0.2, 3: 0.2, 4: 0.2})


def test_ratios_by_depth() -> None:
    one = ScriptedEngine([(1.0, "info depth 1 nodes 10 pv e2e4")], bestmove_at=4.0)
    two = ScriptedEngine([(0.5, "info depth 1 nodes 10 pv e2e4")], bestmove_at=1.0)
    ttd = search.TimeToDepth("x", 2)
    ttd.add(one, two, "8/8/8/8/8/8/8/K1k5 w - - 0 1")
    assert ttd.ratios == pytest.approx([4.0])
    assert ttd.by_depth == {1: pytest.approx([2.0]), 2: pytest.approx([4.0])}
    rows = ttd.depth_rows(1)
    assert rows[0].startswith("| x | 1 | 2.00× | 2.00× (2.00–2.00) |")
    assert rows[1].startswith("| x | 2 | 4.00× |")

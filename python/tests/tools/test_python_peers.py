"""The parts of benchmarks/python_peers.py that decide what is timed and how it is read: the
--libs/--workloads selections, castling spelt king-takes-rook, a cell that drops the calls a
peer cannot make, the paired ratios and the rows where shatranj is behind. No peer is needed
and nothing is timed."""

from __future__ import annotations

import chess
import pytest
import python_peers as peers


def test_a_selection_keeps_the_known_order() -> None:
    known = ["shatranj", "python-chess", "esca"]
    assert peers.parse_names(None, known, "library") == known
    assert peers.parse_names("esca, shatranj", known, "library") == ["shatranj", "esca"]
    with pytest.raises(ValueError, match="unknown library: nope"):
        peers.parse_names("shatranj,nope", known, "library")
    with pytest.raises(ValueError, match="none given"):
        peers.parse_names(" , ", known, "library")


def test_every_workload_and_library_has_a_name_the_options_accept() -> None:
    assert len({key for key, _, _ in peers.WORKLOADS}) == len(peers.WORKLOADS)
    assert set(peers.ADAPTERS) == {lib.name for lib in peers.LIBRARIES}


def test_castling_as_king_takes_rook_is_the_two_square_move_only_for_a_king() -> None:
    castle = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert peers.castling_two_squares(castle, "e1h1") == "e1g1"
    assert peers.castling_two_squares(castle, "e1a1") == "e1c1"
    rook = chess.Board("4r3/2R5/8/Pk6/7P/2b5/6K1/8 b - - 22 121")
    assert peers.castling_two_squares(rook, "e8a8") == "e8a8"
    assert peers.castling_two_squares(rook, "e8h8") == "e8h8"


def test_a_cell_times_only_the_calls_that_return_and_says_so() -> None:
    cell = peers.Cell("1 / x", "x", [1, 0, 2, 0])
    cell.drop_failing()
    assert cell.items == [1, 2]
    assert cell.problem.startswith("2 of 4 calls raise (first: ZeroDivisionError")
    assert cell.work()() == 2


def test_a_cell_with_counted_units_is_left_whole() -> None:
    cell = peers.Cell("n += 0", "n", [0], units=1_000)
    cell.drop_failing()
    assert cell.items == [0] and cell.problem == ""


def test_ratios_pair_the_rounds() -> None:
    # Seconds per unit: shatranj 1 then 2, the peer 2 both rounds.
    summary = peers.summarise([2.0, 2.0], [1.0, 2.0])
    assert (summary.best, summary.median) == (0.5, 0.5)
    assert summary.ratio == 1.5 and (summary.low, summary.high) == (1.0, 2.0)
    assert summary.best_ratio == 2.0
    assert peers.summarise([1.0, 3.0], None).ratio is None


def test_behind_lists_the_worst_first() -> None:
    rows = {
        "fen_read": {"a": peers.summarise([1.0], [2.0]), "b": peers.summarise([1.0], [0.5])},
        "fen_write": {"a": peers.summarise([1.0], [4.0])},
    }
    titles = {"fen_read": "FEN read", "fen_write": "FEN write"}
    assert peers.behind(rows, titles, 1.0) == [
        "FEN write: a 0.25× (0.25–0.25)",
        "FEN read: a 0.50× (0.50–0.50)",
    ]


def test_the_positions_are_the_seeds() -> None:
    first = peers.positions(7, 2, 6)
    assert [p.fen for p in first] == [p.fen for p in peers.positions(7, 2, 6)]
    assert len(first) == len(peers.FENS) + 6
    assert all(p.history is None for p in first[: len(peers.FENS)])
    assert all(p.history for p in first[len(peers.FENS) :])

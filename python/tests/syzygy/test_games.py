"""Self-play and datagen with Syzygy tables: a game that reaches the tables ends there with
their result (termination ``"adjudication: tablebase"``), and datagen's WDL labels
(``shatranj datagen --syzygy-label``, read by ``shatranj.nnue.read_data``) are
``shatranj.syzygy``'s probes, and python-chess's (the oracle) on a sample.
"""

from __future__ import annotations

import io
import random
import subprocess
from pathlib import Path

import numpy as np
import pytest

import shatranj
import shatranj.nnue as nnue
import shatranj.syzygy as syzygy
from support.repo import ROOT

TABLES = ROOT / "data" / "syzygy" / "regular"
SEED = 49

# Within the tables from the start (KQvKR, KRvKR, KQvK with the loser to move), then
# pawnless five-man starts where a capture comes at once, into KRNvK (won) and KRvKR (drawn).
STARTS = [
    "4Q3/8/1K6/8/1r6/8/1k6/8 w - - 0 1",
    "8/8/3k4/3r4/8/8/3R4/3K4 w - - 0 1",
    "8/8/8/4k3/8/8/8/3QK3 b - - 0 1",
    "4k3/8/8/8/q7/8/8/R3K1N1 w - - 0 1",
    "8/8/3k4/8/b7/8/7r/R2K4 w - - 0 1",
]


def test_selfplay_ends_games_by_the_tables() -> None:
    import chess.pgn

    result = shatranj.selfplay(
        games=len(STARTS), depth=4, openings=STARTS, max_plies=200, syzygy_path=TABLES
    )
    tables = syzygy.open_tablebase(TABLES)
    assert [g.result for g in result.games] == ["1-0", "1/2-1/2", "1-0", "1-0", "1/2-1/2"]
    for g in result.games:
        assert g.termination == "adjudication: tablebase"
        game = chess.pgn.read_game(io.StringIO(g.pgn))
        assert game is not None
        assert game.headers["Termination"] == "adjudication: tablebase"
        end = shatranj.Board(game.end().board().fen())
        wdl = tables.probe_wdl(end)
        expected = "1/2-1/2" if abs(wdl) < 2 else ("1-0" if (wdl > 0) == end.turn else "0-1")
        assert g.result == expected, g.pgn
    assert result.stats["tablebase_adjudications"] == len(STARTS)
    # Without the tables, the five-man game is played on.
    plain = shatranj.selfplay(games=1, depth=4, openings=STARTS[3:4], max_plies=8)
    assert plain.games[0].termination != "adjudication: tablebase"
    assert plain.stats["tablebase_adjudications"] == 0


def test_selfplay_syzygy_path_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no Syzygy tables"):
        shatranj.selfplay(games=1, depth=1, openings=STARTS[:1], syzygy_path=tmp_path)
    with pytest.raises(FileNotFoundError):
        shatranj.selfplay(games=1, depth=1, openings=STARTS[:1], syzygy_path=tmp_path / "none")
    with pytest.raises(TypeError):
        shatranj.selfplay(games=1, depth=1, syzygy_path=3)  # type: ignore[arg-type]


def boards_from_rows(data: nnue.TrainingData) -> list[shatranj.Board]:
    """The positions of pawnless, castling-free rows, rebuilt from White's view's features
    (``64 * (6 * theirs + role) + square``, role pawn 0 … king 5)."""
    out = []
    for row, count, turn in zip(data.white, data.count, data.turn):
        board = shatranj.Board(None)
        for f in row[:count].tolist():
            theirs, role, square = f // 384, (f // 64) % 6, f % 64
            color = shatranj.WHITE if theirs == 0 else shatranj.BLACK
            board.set_piece_at(square, shatranj.Piece(role + 1, color))
        board.turn = bool(turn)
        out.append(board)
    return out


def test_datagen_labels_agree_with_the_probes(shatranj_binary: Path, tmp_path: Path) -> None:
    import chess
    import chess.syzygy

    openings = tmp_path / "endings.epd"
    openings.write_text("\n".join(STARTS[3:]) + "\n")
    out = tmp_path / "data"
    # No score adjudication: the games run on into the tables, labelled there.
    command = [
        str(shatranj_binary), "datagen", "--out", str(out), "--games", "4", "--threads", "2",
        "--shard-games", "4", "--soft-nodes", "300", "--hard-nodes", "3000", "--hash", "1",
        "--min-ply", "0", "--win-plies", "10000", "--draw-plies", "10000", "--max-plies", "80",
        "--openings", str(openings), "--syzygy-path", str(TABLES), "--syzygy-label", "--quiet",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Labelled by the tablebases" in done.stdout, done.stdout
    data = nnue.read_data(out).train
    boards = boards_from_rows(data)
    men = data.count
    labelled = data.wdl != nnue.NO_WDL
    assert labelled.sum() > 0
    # Exactly the rows within the 3-4-man tables carry a label.
    assert np.array_equal(labelled, men <= 4)
    tables = syzygy.open_tablebase(TABLES)
    within = [b for b, m in zip(boards, men) if m <= 4]
    probes = tables.probe_wdl_many(within)
    assert probes.tolist() == data.wdl[labelled].tolist()
    assert set(probes.tolist()) >= {-2, 0, 2}, "wins, losses and draws all labelled"
    # python-chess's prober on a sample (seeded).
    rng = random.Random(SEED)
    sample = rng.sample(range(len(within)), min(200, len(within)))
    print(f"datagen labels: {len(within)} rows, python-chess on {len(sample)}, seed {SEED}")
    with chess.syzygy.open_tablebase(str(TABLES)) as oracle:
        for i in sample:
            assert oracle.probe_wdl(chess.Board(within[i].fen())) == probes[i], within[i].fen()
    # The same job without labels ends every game where it reaches the tables.
    plain = tmp_path / "plain"
    command = [c for c in command if c != "--syzygy-label"]
    command[command.index(str(out))] = str(plain)
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    data = nnue.read_data(plain).train
    assert (data.wdl == nnue.NO_WDL).all()
    assert (data.count > 4).all()

"""``shatranj match -tb``: games adjudicated by Syzygy WDL tables (data/syzygy's 3–4-man set)
as fastchess does it, with ``-tbpieces`` and ``-tbadjudicate``. The openings
are positions of data/syzygy/endgame.epd (python-chess's list, with each position's WDL from
the side to move), so the expected results come from that file, not from our prober."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import chess

from support.repo import ROOT

TABLES = ROOT / "data" / "syzygy" / "regular"
FAKE = str(Path(__file__).resolve().parent / "engines" / "fake_uci.py")


def positions(want: tuple[int, ...], count: int) -> list[tuple[str, int]]:
    """The first ``count`` positions of endgame.epd whose resolved WDL is in ``want``, that
    the rules do not end at once and that are not dead (a pawn, rook or queen on the board)."""
    found = []
    for line in (ROOT / "data" / "syzygy" / "endgame.epd").read_text().splitlines():
        fen = " ".join(line.split()[:4])
        wdl = int(re.search(r"\bwdl (-?\d)", line).group(1))  # type: ignore[union-attr]
        board = chess.Board(fen)
        if wdl in want and not board.is_game_over() and board.pawns | board.rooks | board.queens:
            found.append((fen, wdl))
        if len(found) == count:
            break
    assert len(found) == count
    return found


def winner(fen: str, wdl: int) -> bool | None:
    """True: White wins; False: Black; None: a draw."""
    white_to_move = chess.Board(fen).turn == chess.WHITE
    if wdl == 2:
        return white_to_move
    if wdl == -2:
        return not white_to_move
    return None


def play(
    binary: Path, tmp_path: Path, openings: list[tuple[str, int]], *extra: str
) -> list[tuple[str, str, int]]:
    """Each game's result, the reason it ended and its plies."""
    book = tmp_path / "book.epd"
    book.write_text("".join(f"{fen}\n" for fen, _ in openings))
    pgn = tmp_path / "games.pgn"
    args = [
        "match",
        "-engine", f"cmd={sys.executable}", "name=a", f"args={FAKE} good",
        "-engine", f"cmd={sys.executable}", "name=b", f"args={FAKE} good",
        "-each", "nodes=1", "-rounds", str(len(openings)), "-games", "1", "-maxmoves", "3",
        "-openings", f"file={book}", "-pgnout", f"file={pgn}", "min=true", *extra,
    ]  # fmt: skip
    done = subprocess.run(
        [str(binary), *args], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    results = re.findall(r'\[Result "([^"]+)"\]', pgn.read_text())
    reasons = [
        r.split(", ")[-1].strip()
        for r in re.findall(r"\{([^}]*)\}\s*(?:1-0|0-1|1/2-1/2)", pgn.read_text())
    ]
    plies = [int(n) for n in re.findall(r'\[PlyCount "(\d+)"\]', pgn.read_text())]
    assert len(results) == len(reasons) == len(plies) == len(openings)
    return list(zip(results, reasons, plies))


def as_result(w: bool | None) -> str:
    return "1/2-1/2" if w is None else "1-0" if w else "0-1"


def test_wins_losses_and_draws_are_adjudicated(shatranj_binary: Path, tmp_path: Path) -> None:
    openings = positions((2, -2), 4) + positions((0,), 2)
    games = play(shatranj_binary, tmp_path, openings, "-tb", str(TABLES))
    for (fen, wdl), (result, reason, plies) in zip(openings, games):
        want = winner(fen, wdl)
        assert plies == 0, "adjudicated before the first move"
        assert result == as_result(want), (fen, wdl, result, reason)
        assert reason == ("Draw" if want is None else "White" if want else "Black") + (
            " by adjudication: tablebase" if want is None else " wins by adjudication: tablebase"
        ), (fen, reason)


def test_tbpieces_and_tbadjudicate_limit_it(shatranj_binary: Path, tmp_path: Path) -> None:
    four = [p for p in positions((2, -2), 12) if len(chess.Board(p[0]).piece_map()) == 4][:2]
    draws = positions((0,), 2)
    # Four men above -tbpieces 3 are played (until a capture leaves three, perhaps).
    for _, reason, plies in play(
        shatranj_binary, tmp_path, four, "-tb", str(TABLES), "-tbpieces", "3"
    ):
        assert plies > 0, reason
    # Draws are played on under WIN_LOSS (until a blunder makes a win, perhaps); under DRAW
    # they end at once, and wins are played on.
    for _, reason, plies in play(
        shatranj_binary, tmp_path, draws, "-tb", str(TABLES), "-tbadjudicate", "WIN_LOSS"
    ):
        assert plies > 0 and reason != "Draw by adjudication: tablebase", reason
    for _, reason, plies in play(
        shatranj_binary, tmp_path, draws, "-tb", str(TABLES), "-tbadjudicate", "DRAW"
    ):
        assert (plies, reason) == (0, "Draw by adjudication: tablebase")
    for _, reason, plies in play(
        shatranj_binary, tmp_path, four, "-tb", str(TABLES), "-tbadjudicate", "DRAW"
    ):
        assert plies > 0, reason


def test_no_tables_is_an_error(shatranj_binary: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [str(shatranj_binary), "match", "-engine", f"cmd={sys.executable}", "name=a", f"args={FAKE} good",
         "-engine", f"cmd={sys.executable}", "name=b", f"args={FAKE} good", "-each", "nodes=1",
         "-tb", str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert "no Syzygy WDL tables" in done.stderr

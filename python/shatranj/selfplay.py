"""Self-play: many engine-vs-engine games at once, as PGN, from Python.

``shatranj.selfplay(games=100, depth=4, concurrency=8, seed=1)`` plays the games natively
(the GIL is released; Ctrl-C stops the match and raises ``KeyboardInterrupt``) and returns a
:class:`SelfPlayResult`: ``.games`` are :class:`SelfPlayGame` objects whose ``str()`` is the
game's PGN, and ``.stats`` holds the numbers (games/s, evaluations/s, mean batch size, …).

Game *i* depends only on ``(seed, i)`` and the settings, so a match can be split by index:
``selfplay(games=50, first_game=50, seed=1, ...)`` plays exactly games 50..99 of the match
``selfplay(games=100, seed=1, ...)``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import _core
from .engine import EvalFile

__all__ = ["SelfPlayGame", "SelfPlayResult", "selfplay"]


@dataclass(frozen=True)
class SelfPlayGame:
    """One finished game: its index in the match, result, termination and PGN text."""

    index: int
    result: str
    termination: str
    plies: int
    pgn: str

    def __str__(self) -> str:
        return self.pgn


@dataclass
class SelfPlayResult:
    """The finished games (in index order) and the match's statistics.

    ``stats`` keys: ``games``, ``plies``, ``evaluations``, ``nodes``, ``batches``,
    ``mean_batch``, ``max_batch``, ``fallbacks``, ``eval_error``, ``wall`` (seconds),
    ``games_per_second``, ``evaluations_per_second``, ``white_wins``, ``draws``,
    ``black_wins``, ``tablebase_adjudications``, ``evaluator``.
    """

    games: list[SelfPlayGame]
    stats: dict[str, Any] = field(default_factory=dict)
    interrupted: bool = False

    def pgn(self) -> str:
        """Every game's PGN, separated by blank lines (a PGN file's text)."""
        return "\n".join(g.pgn for g in self.games)


def _int(name: str, value: object, optional: bool = False) -> None:
    if optional and value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")


def selfplay(
    games: int,
    depth: int | None = None,
    nodes: int | None = None,
    device: str = "auto",
    concurrency: int = 1,
    seed: int = 0,
    openings: Sequence[str] | None = None,
    max_plies: int = 400,
    progress: Callable[[dict[str, Any]], object] | None = None,
    *,
    first_game: int = 0,
    batched: bool = False,
    batch_size: int = 4096,
    wait_us: int = 200,
    random_plies: int = 8,
    hash_mb: int = 2,
    eval_file: EvalFile = None,
    chess960: bool = False,
    syzygy_path: str | os.PathLike[str] | None = None,
) -> SelfPlayResult:
    """Plays ``games`` games (indices ``first_game ..``), each move a search of ``depth``
    plies or ``nodes`` nodes (exactly one of them), ``concurrency`` games at once.

    ``openings``: FEN strings, ``"<fen> moves <uci…>"`` or UCI move sequences from the start
    (game *i* uses ``openings[i % len]``); ``None`` draws random balanced openings of
    ``random_plies`` plies from ``(seed, i)``. Games still running after ``max_plies`` plies
    are drawn by adjudication. ``device``: ``"cpu"`` and ``"auto"`` evaluate inline (the
    fastest on a CPU), ``"gpu"`` through the batching service; ``batched=True`` sends CPU
    evaluations through the service too (``batch_size``, ``wait_us`` tune it). ``progress``
    is called with a dict (``games_done``, ``games_total``, ``plies``, ``evaluations``,
    ``elapsed``) about every 20 ms while something changes. ``eval_file`` is the static
    evaluation of both sides, as in :class:`shatranj.Engine` (a network file's path,
    ``"<default>"``, ``"classical"``, a :class:`shatranj.nnue.Network` or ``None``).
    ``chess960=True`` starts each random opening from a Chess960 starting position whose
    number is drawn from ``(seed, i)``; the PGN says ``Variant "Chess960"`` with the start's
    ``FEN``, as python-chess reads it (``chess.pgn.read_game``).
    ``syzygy_path``: directories of Syzygy tables (one path, or several separated by
    ``os.pathsep``); a game that reaches a position within them (no castling rights) ends
    there with their result under the fifty-move rule, its termination
    ``"adjudication: tablebase"`` (the PGN's ``Termination`` tag). The engines themselves
    search without the tables. A path without tables raises ``ValueError``; a directory
    that cannot be read, ``OSError``.
    """
    for name, value in (
        ("games", games),
        ("concurrency", concurrency),
        ("seed", seed),
        ("max_plies", max_plies),
        ("first_game", first_game),
        ("batch_size", batch_size),
        ("wait_us", wait_us),
        ("random_plies", random_plies),
        ("hash_mb", hash_mb),
    ):
        _int(name, value)
    _int("depth", depth, optional=True)
    _int("nodes", nodes, optional=True)
    if not isinstance(device, str):
        raise TypeError(f"device must be a str, not {type(device).__name__}")
    for flag, value in (("batched", batched), ("chess960", chess960)):
        if not isinstance(value, bool):
            raise TypeError(f"{flag} must be a bool, not {type(value).__name__}")
    if seed < 0 or first_game < 0:
        raise ValueError("seed and first_game must not be negative")
    opening_list: list[str] | None = None
    if openings is not None:
        if isinstance(openings, str) or not all(isinstance(o, str) for o in openings):
            raise TypeError("openings must be a list of strings (FEN or UCI moves)")
        opening_list = list(openings)
    if progress is not None and not callable(progress):
        raise TypeError("progress must be callable or None")
    if syzygy_path is not None and not isinstance(syzygy_path, (str, os.PathLike)):
        raise TypeError(f"syzygy_path must be a path, not {type(syzygy_path).__name__}")
    raw = _core.selfplay(
        games=games,
        depth=depth,
        nodes=nodes,
        device=device,
        concurrency=concurrency,
        seed=seed,
        openings=opening_list,
        max_plies=max_plies,
        first_game=first_game,
        batched=batched,
        batch_size=batch_size,
        wait_us=wait_us,
        random_plies=random_plies,
        hash_mb=hash_mb,
        progress=progress,
        eval_file=eval_file,
        chess960=chess960,
        syzygy_path=syzygy_path,
    )
    played = [
        SelfPlayGame(index=i, result=r, termination=t, plies=n, pgn=p)
        for i, r, t, n, p in zip(
            raw["indices"], raw["results"], raw["terminations"], raw["plies"], raw["games"]
        )
    ]
    return SelfPlayResult(games=played, stats=raw["stats"], interrupted=raw["interrupted"])

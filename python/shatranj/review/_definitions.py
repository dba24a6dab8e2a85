"""Lichess's definitions of a move's quality, as pure functions over evaluations.

Everything here follows the numbers lichess publishes with its analysis (its ``WinPercent``,
``AccuracyPercent``, ``Advice`` and ``AccuracyCP``), read as a definition, not copied: the
constants are theirs, the code is ours. Each function says where lichess's own rounding or
clamping sits, because the differences are small enough to miss and large enough to show in
a reviewed database.

An *evaluation* here is White's point of view: a plain ``int`` (centipawns), a
:class:`~shatranj.engine.Cp`, :class:`~shatranj.engine.Mate` or
:data:`~shatranj.engine.MateGiven` (White's view, as python-chess reads a bare score), or a
:class:`~shatranj.engine.PovScore` (turned to White's view). ``Mate(0)`` is White checkmated
and ``MateGiven`` Black checkmated, as python-chess orders them. ``None`` is a missing
evaluation (a move with no ``[%eval]``): lichess leaves such moves out, and so do we.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from ..engine._scores import Cp, MateGivenType, PovScore, Score

#: What the functions here take as an evaluation: White's point of view.
Evaluation = int | Score | PovScore
#: A judged move's category, lichess's names.
Judgement = Literal["Inaccuracy", "Mistake", "Blunder"]

#: Lichess's evaluation of the standard start position, the "before" of a game's first move.
START_CP = 15
#: Centipawns beyond which lichess counts every evaluation alike (and what a mate counts as).
CEILING = 1000
#: The logistic slope that turns centipawns into winning chances (lichess, 2022).
_SLOPE = -0.00368208
#: Move accuracy from a drop in Win%: a fit of lichess's, then one point of "uncertainty bonus".
_ACCURACY_SCALE = 103.1668100711649
_ACCURACY_DECAY = -0.04354415386753951
_ACCURACY_OFFSET = -3.166924740191411
_UNCERTAINTY_BONUS = 1.0
#: Drops in winning chances (−1 … +1) that make a move an inaccuracy, a mistake, a blunder.
_THRESHOLDS: tuple[tuple[float, Judgement], ...] = (
    (0.3, "Blunder"),
    (0.2, "Mistake"),
    (0.1, "Inaccuracy"),
)
#: The PGN NAG of each judgement: ``?!``, ``?``, ``??``.
NAGS = {"Inaccuracy": 6, "Mistake": 2, "Blunder": 4}
#: What lichess says of a mate found or lost (its comments).
MATE_CREATED = "Checkmate is now unavoidable"
MATE_LOST = "Lost forced checkmate sequence"


def white_score(evaluation: Evaluation) -> Score:
    """An evaluation as a python-chess score from White's point of view."""
    if isinstance(evaluation, PovScore):
        return evaluation.white()
    if isinstance(evaluation, Score):
        return evaluation
    if isinstance(evaluation, bool) or not isinstance(evaluation, int):
        raise TypeError(
            f"an evaluation is centipawns (int), a Cp, Mate or PovScore, not {type(evaluation).__name__}"
        )
    return Cp(evaluation)


def _mate_sign(score: Score) -> int:
    """+1 when White mates (or has mated), −1 when Black does, 0 for centipawns."""
    if isinstance(score, MateGivenType):
        return 1
    moves = score.mate()
    if moves is None:
        return 0
    return 1 if moves > 0 else -1  # Mate(0): White is checkmated


def forced_cp(evaluation: Evaluation) -> int:
    """Centipawns for the tables of lichess (its ``forceAsCp``): a mate counts as ±1000 for the
    side that mates; centipawns as they are (not clamped: see :func:`ceiled_cp`)."""
    score = white_score(evaluation)
    sign = _mate_sign(score)
    if sign:
        return sign * CEILING
    cp = score.score()
    assert cp is not None
    return cp


def ceiled_cp(evaluation: Evaluation) -> int:
    """:func:`forced_cp` clamped to ±1000, lichess's ``ceiled``."""
    return max(-CEILING, min(CEILING, forced_cp(evaluation)))


def winning_chances(cp: float) -> float:
    """White's winning chances, −1 … +1, from centipawns: ``2 / (1 + exp(−0.00368208·cp)) − 1``.

    Not clamped in centipawns: the judgements of moves use it on raw evaluations, and only
    :func:`win_percent` clamps to ±1000 first (lichess does the same)."""
    if cp < -100_000:  # exp would overflow; the value is −1 to the last bit long before
        return -1.0
    return max(-1.0, min(1.0, 2.0 / (1.0 + math.exp(_SLOPE * cp)) - 1.0))


def win_percent(score: Evaluation) -> float:
    """White's Win%, 0 … 100: ``50 + 50·winning_chances(cp)``, with cp clamped to ±1000 first and
    a mate (found or delivered) counted as ±1000 for the side that mates.

    >>> from shatranj.review import win_percent
    >>> round(win_percent(100), 4), round(win_percent(300), 4), round(win_percent(1000), 4)
    (59.1026, 75.1126, 97.5447)
    """
    return 50.0 + 50.0 * winning_chances(ceiled_cp(score))


def move_accuracy(win_before: float, win_after: float) -> float:
    """A move's accuracy, 0 … 100, from the mover's Win% before and after it: 100 when it did
    not drop, else ``103.1668·exp(−0.0435442·drop) − 3.1669 + 1`` clamped to 0 … 100.

    >>> from shatranj.review import move_accuracy
    >>> round(move_accuracy(50, 40), 2)
    64.58
    """
    if win_after >= win_before:
        return 100.0
    drop = win_before - win_after
    raw = _ACCURACY_SCALE * math.exp(_ACCURACY_DECAY * drop) + _ACCURACY_OFFSET + _UNCERTAINTY_BONUS
    return max(0.0, min(100.0, raw))


def _standard_deviation(values: Sequence[float]) -> float:
    """The population standard deviation (divided by n, not n − 1), as lichess's weights use."""
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def _windows(wins: list[float | None], size: int) -> list[list[float | None]]:
    """Lichess's volatility windows, one per move: the first window repeated ``size − 2`` times
    (fewer when the game is shorter), then every sliding window (the whole list when it is
    shorter than one window)."""
    repeats = max(0, min(size, len(wins)) - 2)
    sliding = [wins[i : i + size] for i in range(len(wins) - size + 1)] or [wins]
    return [wins[:size]] * repeats + sliding


def _side_accuracy(moves: list[tuple[float, float]]) -> float | None:
    """The mean of the weighted mean of ``(accuracy, weight)`` and the harmonic mean of the
    accuracies, each floored at 1 there; ``None`` for no move."""
    if not moves:
        return None
    weighted = sum(a * w for a, w in moves) / sum(w for _, w in moves)
    harmonic = len(moves) / sum(1.0 / max(a, 1.0) for a, _ in moves)
    return (weighted + harmonic) / 2.0


def game_accuracy(
    evals: Sequence[Evaluation | None],
    *,
    first_mover: bool = True,
    start: Evaluation | None = START_CP,
) -> tuple[float | None, float | None]:
    """Each side's accuracy, ``(white, black)``, from White's evaluations after each move.

    ``evals[i]`` is the evaluation after the game's move ``i`` (``None`` where unknown);
    ``first_mover`` is the colour of the game's first move (``chess.WHITE`` = ``True``);
    ``start`` the evaluation before it (lichess's +15 cp; ``None``: unknown). As lichess: the evaluations become
    Win% (mates ±1000 cp), a window of ``clamp(moves // 10, 2, 8)`` Win% values around each
    move weighs it by their standard deviation clamped to 0.5 … 12, and a side's accuracy is the
    mean of the weighted mean and the harmonic mean of its move accuracies. A move whose
    evaluation before or after, or any value of whose window, is missing is left out. ``None``
    for a side without a move.

    >>> from shatranj.review import game_accuracy
    >>> [round(a, 2) for a in game_accuracy([-900, -900])]
    [10.66, 100.0]
    """
    wins: list[float | None] = [None if start is None else win_percent(start)]
    wins += [None if e is None else win_percent(e) for e in evals]
    size = max(2, min(8, len(evals) // 10))
    weights = [
        None if any(w is None for w in window) else max(0.5, min(12.0, _standard_deviation(window)))  # type: ignore[arg-type]
        for window in _windows(wins, size)
    ]
    sides: tuple[list[tuple[float, float]], list[tuple[float, float]]] = ([], [])
    for i, weight in enumerate(weights[: len(evals)]):
        before, after = wins[i], wins[i + 1]
        if before is None or after is None or weight is None:
            continue
        white_moved = (i % 2 == 0) == bool(first_mover)
        accuracy = (
            move_accuracy(before, after)
            if white_moved
            else move_accuracy(100.0 - before, 100.0 - after)
        )
        sides[0 if white_moved else 1].append((accuracy, weight))
    return _side_accuracy(sides[0]), _side_accuracy(sides[1])


def judge(
    before: Evaluation, after: Evaluation, mover: bool
) -> tuple[Judgement, str | None] | None:
    """A move's judgement from White's evaluations before and after it, as lichess's advice:
    ``(judgement, mate comment)``, or ``None`` for a move that is not judged.

    Between two centipawn evaluations, the mover's drop in :func:`winning_chances` (raw cp,
    not clamped) of ≥ 0.3 is a blunder, ≥ 0.2 a mistake, ≥ 0.1 an inaccuracy. With mates: a
    move after which the mover gets mated is an inaccuracy if it was already below −999 cp,
    a mistake below −700, else a blunder ("Checkmate is now unavoidable"); a move that loses a
    forced mate is an inaccuracy if the position stays above 999 cp, a mistake above 700, else
    a blunder ("Lost forced checkmate sequence"). A mate merely delayed is not judged.
    """
    sign = 1 if mover else -1
    prev, nxt = white_score(before), white_score(after)
    # +1: the mover mates (or has mated), −1: the mover gets mated, 0: centipawns.
    prev_mate, next_mate = _mate_sign(prev) * sign, _mate_sign(nxt) * sign
    if prev_mate == 0 and next_mate == 0:
        drop = (winning_chances(forced_cp(prev)) - winning_chances(forced_cp(nxt))) * sign
        return next(((name, None) for limit, name in _THRESHOLDS if drop >= limit), None)
    if prev_mate == 0 and next_mate < 0:
        return (_by_margin(-forced_cp(prev) * sign, 999, 700), MATE_CREATED)
    if prev_mate > 0 and next_mate <= 0:
        next_cp = forced_cp(nxt) * sign if next_mate == 0 else 0  # lichess: a mate's cp is 0
        return (_by_margin(next_cp, 999, 700), MATE_LOST)
    return None


def _by_margin(margin: int, inaccuracy: int, mistake: int) -> Judgement:
    """An inaccuracy when ``margin`` is above ``inaccuracy``, a mistake above ``mistake``."""
    if margin > inaccuracy:
        return "Inaccuracy"
    if margin > mistake:
        return "Mistake"
    return "Blunder"


def centipawn_losses(
    evals: Sequence[Evaluation | None],
    *,
    first_mover: bool = True,
    start: Evaluation | None = START_CP,
) -> tuple[list[int], list[int]]:
    """Each side's centipawn loss per move, ``(white, black)``: the mover's drop between the
    evaluations before and after, both ±1000-ceiled (mates ±1000), never negative. Moves with a
    missing evaluation are left out."""
    cps: list[int | None] = [None if start is None else ceiled_cp(start)] + [
        None if e is None else ceiled_cp(e) for e in evals
    ]
    losses: tuple[list[int], list[int]] = ([], [])
    for i in range(len(evals)):
        before, after = cps[i], cps[i + 1]
        if before is None or after is None:
            continue
        white_moved = (i % 2 == 0) == bool(first_mover)
        loss = before - after if white_moved else after - before
        losses[0 if white_moved else 1].append(max(0, loss))
    return losses


def acpl(
    evals: Sequence[Evaluation | None],
    *,
    first_mover: bool = True,
    start: Evaluation | None = START_CP,
) -> tuple[int | None, int | None]:
    """Each side's average centipawn loss, ``(white, black)``, rounded half up to an integer as
    lichess shows it; ``None`` for a side without an evaluated move."""
    return tuple(  # type: ignore[return-value]
        None if not losses else math.floor(sum(losses) / len(losses) + 0.5)
        for losses in centipawn_losses(evals, first_mover=first_mover, start=start)
    )


__all__ = [
    "CEILING",
    "MATE_CREATED",
    "MATE_LOST",
    "NAGS",
    "START_CP",
    "Evaluation",
    "Judgement",
    "acpl",
    "ceiled_cp",
    "centipawn_losses",
    "forced_cp",
    "game_accuracy",
    "judge",
    "move_accuracy",
    "white_score",
    "win_percent",
    "winning_chances",
]

"""Match statistics: score, logistic Elo difference with a 95% interval, likelihood of superiority.

The Elo interval follows cutechess-cli: the standard deviation of the per-game results
(1, ½, 0) gives the standard error of the mean score; the score ± 1.96 standard errors is
mapped through the logistic Elo curve, and the error bar is half the width of that interval.
"""

from __future__ import annotations

import dataclasses
import math

Z95 = 1.959963984540054  # two-sided 95% quantile of the normal distribution


@dataclasses.dataclass
class Tally:
    """Wins, draws and losses of one engine against another, from the first engine's side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    time_losses: int = 0  # games the first engine lost on time
    opponent_time_losses: int = 0
    failures: int = 0  # games decided by a crash or an illegal move, either side

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    def add(self, points: float) -> None:
        if points == 1:
            self.wins += 1
        elif points == 0.5:
            self.draws += 1
        elif points == 0:
            self.losses += 1
        else:
            raise ValueError(f"a game scores 0, 0.5 or 1, not {points!r}")


def score(wins: int, draws: int, losses: int) -> float:
    """The mean points per game, 0..1."""
    games = wins + draws + losses
    if games == 0:
        raise ValueError("no games")
    return (wins + 0.5 * draws) / games


def elo_from_score(p: float) -> float:
    """The Elo difference whose expected score is ``p`` (logistic); ±inf at 1 and 0."""
    if not 0 <= p <= 1:
        raise ValueError(f"a score is between 0 and 1, not {p}")
    if p == 0:
        return -math.inf
    if p == 1:
        return math.inf
    return -400 * math.log10(1 / p - 1)


def score_stdev(wins: int, draws: int, losses: int) -> float:
    """The standard deviation of one game's result (population, over these games)."""
    games = wins + draws + losses
    p = score(wins, draws, losses)
    variance = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p**2) / games
    return math.sqrt(variance)


def elo_interval(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """``(elo, low, high)``: the Elo difference and its 95% interval.

    The interval's ends are clamped to scores in [0, 1], so they may be ±inf.
    """
    games = wins + draws + losses
    p = score(wins, draws, losses)
    error = Z95 * score_stdev(wins, draws, losses) / math.sqrt(games)
    low = elo_from_score(max(0.0, p - error))
    high = elo_from_score(min(1.0, p + error))
    return elo_from_score(p), low, high


def elo_error(wins: int, draws: int, losses: int) -> float:
    """Half the width of the 95% Elo interval (the ``±`` of a table); inf when unbounded."""
    _, low, high = elo_interval(wins, draws, losses)
    if math.isinf(low) or math.isinf(high):
        return math.inf
    return (high - low) / 2


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """The probability that the first engine is the stronger one, from wins and losses only."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))


def format_elo(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    if round(value) == 0:
        return "0"  # not "-0" from -400·log10(1)
    return f"{value:+.0f}"


def table(rows: list[tuple[str, Tally]]) -> str:
    """A markdown table, one row per opponent (or one row for a match).

    The 95% interval column keeps the finite end when the other is unbounded (a score of 0 or
    1 is within the error), where the ± column can only say inf.
    """
    lines = [
        (
            "| opponent | games | W | D | L | score | % | Elo diff | ± 95% | 95% interval | LOS "
            "| time losses (us/them) | crashes/illegal |"
        ),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, tally in rows:
        if tally.games == 0:
            empty = "| – " * 9
            lines.append(f"| {name} | 0 {empty}| 0/0 | {tally.failures} |")
            continue
        w, d, l = tally.wins, tally.draws, tally.losses  # noqa: E741 (W/D/L)
        elo, low, high = elo_interval(w, d, l)
        err = elo_error(w, d, l)
        lines.append(
            f"| {name} | {tally.games} | {w} | {d} | {l} | {tally.points:g} | "
            f"{100 * score(w, d, l):.1f} | {format_elo(elo)} | "
            f"{'inf' if math.isinf(err) else f'{err:.0f}'} | "
            f"[{format_elo(low)}, {format_elo(high)}] | "
            f"{100 * likelihood_of_superiority(w, l):.1f}% | "
            f"{tally.time_losses}/{tally.opponent_time_losses} | {tally.failures} |"
        )
    return "\n".join(lines)

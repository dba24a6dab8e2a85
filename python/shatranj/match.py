"""Match statistics as fishtest and fastchess compute them: Elo, nElo, LOS and the SPRT.

Results are counted two ways, always from the first player's side:

- trinomial ``[L, D, W]``: games lost, drawn and won;
- pentanomial ``[LL, LD, WL+DD, WD, WW]``: pairs of games played on one opening with colours
  swapped, by their total (0, ½, 1, 1½ or 2 points).

``sprt_llr(counts, elo0, elo1, model="normalized")`` is fishtest's log-likelihood ratio of
H1 (``elo1``) against H0 (``elo0``); :func:`sprt` adds the bounds and the decision;
:func:`estimate` gives the Elo difference with its 95 % interval, nElo and LOS. Every number
comes from the Rust crate ``shatranj-match``, the same code as ``shatranj match``::

    >>> from shatranj import match
    >>> round(match.sprt_llr([365, 16618, 36229, 16974, 390], 0, 2), 2)
    2.25
    >>> round(match.sprt_llr([21184, 40708, 21404], 0.5, 2.5, model="logistic"), 2)
    -1.57
    >>> e = match.estimate([365, 16618, 36229, 16974, 390])
    >>> f"{e.elo:.2f} [{e.elo_interval[0]:.2f}, {e.elo_interval[1]:.2f}] LOS {e.los:.1%}"
    '1.00 [0.08, 1.92] LOS 98.3%'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence, Tuple

from . import _core

__all__ = [
    "Estimate",
    "SprtResult",
    "elo",
    "elo_interval",
    "estimate",
    "los",
    "nelo",
    "sprt",
    "sprt_bounds",
    "sprt_llr",
]

Model = Literal["normalized", "logistic"]


@dataclass(frozen=True)
class Estimate:
    """The statistics of a match.

    ``n`` is games (trinomial counts) or pairs (pentanomial); ``score`` the mean score from 0
    to 1; ``variance`` that of one game's or pair's score; ``elo`` ``-400 log10(1/score - 1)``
    with ``elo_interval`` the 95 % interval ``score ± 1.96 sqrt(variance / n)`` in Elo;
    ``nelo`` the normalized Elo per game with its interval; ``los`` the likelihood of
    superiority, from 0 to 1.
    """

    n: float
    pentanomial: bool
    score: float
    variance: float
    elo: float
    elo_interval: Tuple[float, float]
    nelo: float
    nelo_interval: Tuple[float, float]
    los: float

    @property
    def elo_error(self) -> float:
        """Half the interval's width: the ``±`` figure fastchess prints."""
        return (self.elo_interval[1] - self.elo_interval[0]) / 2


@dataclass(frozen=True)
class SprtResult:
    """The SPRT so far: ``llr`` against ``bounds`` (lower, upper), and the ``decision``:
    ``"H0"`` (no better than ``elo0``), ``"H1"`` (at least ``elo1``) or ``None`` (keep
    playing)."""

    llr: float
    bounds: Tuple[float, float]
    decision: Literal["H0", "H1", None]


def _counts(counts: Sequence[float]) -> list[float]:
    values = [float(c) for c in counts]
    if len(values) not in (3, 5):
        raise ValueError(
            f"{len(values)} counts: give [L, D, W] or [LL, LD, WL+DD, WD, WW]"
        )
    return values


def estimate(counts: Sequence[float]) -> Estimate:
    """Elo with its 95 % interval, nElo and LOS of ``[L, D, W]`` or
    ``[LL, LD, WL+DD, WD, WW]``. Raises ``ValueError`` without games."""
    pentanomial = len(counts) == 5
    n, score, var, e, e_lo, e_hi, ne, ne_lo, ne_hi, p = _core.match_estimate(_counts(counts))
    return Estimate(n, pentanomial, score, var, e, (e_lo, e_hi), ne, (ne_lo, ne_hi), p)


def elo(counts: Sequence[float]) -> float:
    """The Elo difference of the counts' mean score."""
    return estimate(counts).elo


def elo_interval(counts: Sequence[float]) -> Tuple[float, float]:
    """The 95 % interval of the Elo difference, from the counts' variance."""
    return estimate(counts).elo_interval


def nelo(counts: Sequence[float]) -> float:
    """The normalized Elo difference (per game)."""
    return estimate(counts).nelo


def los(counts: Sequence[float]) -> float:
    """The likelihood of superiority, from 0 to 1."""
    return estimate(counts).los


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> Tuple[float, float]:
    """``(ln(beta/(1-alpha)), ln((1-beta)/alpha))``: ±2.94 at the default 5 %."""
    return _core.match_bounds(0.0, 1.0, alpha, beta)


def sprt_llr(
    counts: Sequence[float],
    elo0: float,
    elo1: float,
    *,
    model: Model = "normalized",
    alpha: float = 0.05,
    beta: float = 0.05,
) -> float:
    """The log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for ``[L, D, W]``
    games or ``[LL, LD, WL+DD, WD, WW]`` pairs, as fishtest computes it (zero counts as
    1e-3). ``model="normalized"`` reads the bounds as nElo, ``"logistic"`` as Elo.

    ``alpha`` and ``beta`` do not change the ratio; they are checked (``elo0 < elo1``, rates
    in (0, 1)) so that one call states the whole test. :func:`sprt` adds the bounds and the
    decision."""
    _core.match_bounds(elo0, elo1, alpha, beta)
    return _core.match_llr(_counts(counts), elo0, elo1, model)


def sprt(
    counts: Sequence[float],
    elo0: float,
    elo1: float,
    *,
    model: Model = "normalized",
    alpha: float = 0.05,
    beta: float = 0.05,
) -> SprtResult:
    """The SPRT of ``elo0`` against ``elo1`` at error rates ``alpha`` and ``beta`` on the
    counts: the ratio, the bounds and what they decide."""
    lower, upper = _core.match_bounds(elo0, elo1, alpha, beta)
    llr = _core.match_llr(_counts(counts), elo0, elo1, model)
    decision: Literal["H0", "H1", None] = (
        "H1" if llr >= upper else "H0" if llr <= lower else None
    )
    return SprtResult(llr, (lower, upper), decision)

"""shatranj.match's statistics: fastchess's four reference LLRs (its tests/sprt_test.cpp, as
issue 50 quotes them) to two decimals, and Elo, interval, nElo and LOS against a direct
computation in Python over the listed game or pair scores."""

from __future__ import annotations

import doctest
import math
from collections.abc import Sequence

import pytest

from shatranj import match

PENTA_NORMALIZED = [365, 16618, 36229, 16974, 390]
PENTA_LOGISTIC = [223, 9863, 21279, 10037, 246]


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1", "model", "want"),
    [
        (PENTA_NORMALIZED, 0, 2, "normalized", 2.25),
        ([36027, 68692, 36433], 0, 2, "normalized", 0.92),  # W 36433 L 36027 D 68692
        ([21184, 40708, 21404], 0.5, 2.5, "logistic", -1.57),  # W 21404 L 21184 D 40708
        (PENTA_LOGISTIC, 0.5, 2.5, "logistic", -3.07),
    ],
)
def test_reference_llrs(
    counts: list[int], elo0: float, elo1: float, model: match.Model, want: float
) -> None:
    llr = match.sprt_llr(counts, elo0, elo1, model=model)
    assert round(llr, 2) == want
    result = match.sprt(counts, elo0, elo1, model=model)
    assert result.llr == llr
    # Three lie inside ±2.94; the last, -3.07, accepts H0.
    assert result.decision == ("H0" if want < -2.95 else None)


def _direct(counts: Sequence[int]) -> tuple[float, float, float]:
    k = len(counts)
    scores = [i / (k - 1) for i, c in enumerate(counts) for _ in range(c)]
    n = len(scores)
    mean = sum(scores) / n
    return n, mean, sum((s - mean) ** 2 for s in scores) / n


@pytest.mark.parametrize(
    "counts",
    [PENTA_NORMALIZED, PENTA_LOGISTIC, [3, 20, 41, 30, 6], [36027, 68692, 36433], [17, 25, 58]],
)
def test_estimate_equals_a_direct_computation(counts: list[int]) -> None:
    n, mean, var = _direct(counts)
    pairs = len(counts) == 5

    def to_elo(s: float) -> float:
        return -400 * math.log10(1 / s - 1)

    half = 1.959963984540054 * math.sqrt(var / n)
    e = match.estimate(counts)
    assert e.n == n and e.pentanomial == pairs
    assert e.score == pytest.approx(mean, rel=1e-12)
    assert e.variance == pytest.approx(var, rel=1e-9)
    assert e.elo == pytest.approx(to_elo(mean), rel=1e-9, abs=1e-12)
    assert e.elo_interval == pytest.approx((to_elo(mean - half), to_elo(mean + half)), rel=1e-9)
    assert e.nelo == pytest.approx(
        (mean - 0.5) / math.sqrt((2 if pairs else 1) * var) * 800 / math.log(10), rel=1e-9
    )
    assert e.los == pytest.approx(
        (1 - math.erf(-(mean - 0.5) / math.sqrt(2 * var / n))) / 2, rel=1e-12
    )
    assert match.elo(counts) == e.elo
    assert match.elo_interval(counts) == e.elo_interval
    assert match.nelo(counts) == e.nelo
    assert match.los(counts) == e.los
    assert e.elo_error == pytest.approx((e.elo_interval[1] - e.elo_interval[0]) / 2)


def test_bounds_and_decisions() -> None:
    lower, upper = match.sprt_bounds()
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(
        math.log(0.95 / 0.05)
    )
    assert match.sprt_bounds(0.1, 0.2) == pytest.approx((math.log(0.2 / 0.9), math.log(0.8 / 0.1)))
    # A crushing result accepts H1, a losing one H0.
    assert match.sprt([0, 10, 200, 400, 300], 0, 2).decision == "H1"
    assert match.sprt([300, 400, 200, 10, 0], 0, 2).decision == "H0"
    # Zero counts are 1e-3, as in fishtest: the same ratio either way.
    assert match.sprt_llr([0, 10, 12], 0, 5, model="logistic") == match.sprt_llr(
        [1e-3, 10, 12], 0, 5, model="logistic"
    )


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: match.sprt_llr([1, 2], 0, 2), "2 counts"),
        (lambda: match.sprt_llr([1, 2, 3], 2, 0), "elo0"),
        (lambda: match.sprt_llr([1, 2, 3], 0, 2, alpha=0), "alpha"),
        (lambda: match.sprt_llr([1, 2, 3], 0, 2, model="bayeselo"), "bayeselo"),  # type: ignore[arg-type]
        (lambda: match.sprt_llr([1, -2, 3], 0, 2), "non-negative"),
        (lambda: match.estimate([0, 0, 0]), "positive sum"),
    ],
)
def test_bad_arguments_are_value_errors(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]


def test_the_module_docstring_examples_run() -> None:
    failures, tried = doctest.testmod(match, verbose=False)
    assert tried > 0 and failures == 0

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

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Union, overload

from . import _core

__all__ = [
    "Estimate",
    "GameResult",
    "MatchResult",
    "Pairing",
    "RoundResult",
    "SprtResult",
    "Standing",
    "TournamentResult",
    "arguments",
    "elo",
    "elo_interval",
    "estimate",
    "los",
    "nelo",
    "run",
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
    elo_interval: tuple[float, float]
    nelo: float
    nelo_interval: tuple[float, float]
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
    bounds: tuple[float, float]
    decision: Literal["H0", "H1"] | None


def _counts(counts: Sequence[float]) -> list[float]:
    values = [float(c) for c in counts]
    if len(values) not in (3, 5):
        raise ValueError(f"{len(values)} counts: give [L, D, W] or [LL, LD, WL+DD, WD, WW]")
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


def elo_interval(counts: Sequence[float]) -> tuple[float, float]:
    """The 95 % interval of the Elo difference, from the counts' variance."""
    return estimate(counts).elo_interval


def nelo(counts: Sequence[float]) -> float:
    """The normalized Elo difference (per game)."""
    return estimate(counts).nelo


def los(counts: Sequence[float]) -> float:
    """The likelihood of superiority, from 0 to 1."""
    return estimate(counts).los


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
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
    decision: Literal["H0", "H1"] | None = "H1" if llr >= upper else "H0" if llr <= lower else None
    return SprtResult(llr, (lower, upper), decision)


# The match runner: the same Rust runner as ``shatranj match``.

PathLike = Union[str, "os.PathLike[str]"]
Settings = Mapping[str, Any]


@dataclass(frozen=True)
class GameResult:
    """One game of a match: the players, ``result`` (``"1-0"``, ``"0-1"``, ``"1/2-1/2"``),
    the ``reason`` it ended (``"White mates"``, ``"Black loses on time (…)"``), PGN's
    ``termination`` (``normal``, ``adjudication``, ``time forfeit``, ``rules infraction``,
    ``abandoned``), the first engine's score in half points, the ``fault``
    (``"engine crash"``, …) when an engine failed, and the game as PGN."""

    white: str
    black: str
    result: str
    reason: str
    termination: str
    first_half_points: int
    fault: str | None
    pgn: str


@dataclass(frozen=True)
class RoundResult:
    """A counted round (numbered from 0): one game, or a pair on one opening."""

    round: int
    games: tuple[GameResult, ...]


@dataclass(frozen=True)
class MatchResult:
    """A finished (or stopped) match, counted from the first engine's side.

    ``trinomial`` is ``[L, D, W]`` over games, ``pentanomial`` ``[LL, LD, WL+DD, WD, WW]``
    over pairs; ``estimate`` their statistics (from the pairs when there are pairs; ``None``
    before the first game); ``sprt`` the test's state when one was asked for; ``faults``
    counts ``"engine fault"`` keys; ``latency`` holds the runner's turnaround and the
    engines' think latency (``count``, ``total_us``, ``max_us``, ``over_1ms``,
    ``over_10ms``); ``stopped_by`` says why a match stopped early on a fault (no
    ``recover``); ``rounds`` are the counted rounds in order."""

    names: tuple[str, str]
    trinomial: tuple[int, int, int]
    pentanomial: tuple[int, int, int, int, int]
    estimate: Estimate | None
    sprt: SprtResult | None
    faults: dict[str, int]
    latency: dict[str, dict[str, int]]
    stopped_by: str | None
    rounds: tuple[RoundResult, ...] = field(repr=False)

    @property
    def games(self) -> int:
        return sum(self.trinomial)

    @property
    def wins(self) -> int:
        return self.trinomial[2]

    @property
    def draws(self) -> int:
        return self.trinomial[1]

    @property
    def losses(self) -> int:
        return self.trinomial[0]


@dataclass(frozen=True)
class Pairing:
    """One pairing of a tournament, counted from ``first``'s side: ``trinomial``
    ``[L, D, W]`` and ``pentanomial`` ``[LL, LD, WL+DD, WD, WW]``."""

    first: str
    second: str
    trinomial: tuple[int, int, int]
    pentanomial: tuple[int, int, int, int, int]


@dataclass(frozen=True)
class Standing:
    """An engine's place in a tournament: its ``[L, D, W]`` over all its games, its points,
    and its Elo against the field with the 95 % interval (``None`` before a game or when
    every game scored alike; an end of the interval is ``None`` where it reaches a score
    of 0 or 1)."""

    name: str
    trinomial: tuple[int, int, int]
    points: float
    elo: float | None
    elo_interval: tuple[float | None, float | None] | None

    @property
    def games(self) -> int:
        return sum(self.trinomial)


@dataclass(frozen=True)
class TournamentResult:
    """A finished (or stopped) tournament of three or more engines: ``kind``
    (``roundrobin`` or ``gauntlet``), the ``standings`` best first, the ``pairings`` in the
    order played, ``faults``, ``latency`` and ``stopped_by`` as in :class:`MatchResult`,
    and ``rounds``: ``(pairing index, RoundResult)`` for every counted round."""

    kind: str
    names: tuple[str, ...]
    standings: tuple[Standing, ...]
    pairings: tuple[Pairing, ...]
    faults: dict[str, int]
    latency: dict[str, dict[str, int]]
    stopped_by: str | None
    rounds: tuple[tuple[int, RoundResult], ...] = field(repr=False)


def _standing(s: Mapping[str, Any]) -> Standing:
    """A standing from the runner's JSON (``TournamentSummary::to_json``, ``match_standings``)."""
    return Standing(
        s["name"],
        tuple(s["trinomial"]),  # type: ignore[arg-type]
        s["points"],
        s["elo"],
        None if s["elo_interval"] is None else tuple(s["elo_interval"]),  # type: ignore[arg-type]
    )


def _tournament(summary: Mapping[str, Any]) -> TournamentResult:
    return TournamentResult(
        kind=summary["tournament"],
        names=tuple(summary["names"]),
        standings=tuple(_standing(s) for s in summary["standings"]),
        pairings=tuple(
            Pairing(p["first"], p["second"], tuple(p["trinomial"]), tuple(p["pentanomial"]))  # type: ignore[arg-type]
            for p in summary["pairings"]
        ),
        faults=dict(summary["faults"]),
        latency=summary["latency"],
        stopped_by=summary["stopped_by"],
        rounds=tuple(
            (r["pairing"], RoundResult(r["round"], tuple(GameResult(**g) for g in r["games"])))
            for r in summary["rounds"]
        ),
    )


def _pairs(flag: str, settings: Settings | None) -> list[str]:
    """``-flag key=value …``; ``options`` (a mapping) becomes ``option.X=V``, ``args`` (a
    list) one space-separated value, ``True``/``False`` ``true``/``false``."""
    if settings is None:
        return []
    out = [flag]
    for key, value in settings.items():
        if key == "options":
            out += [f"option.{k}={_text(v)}" for k, v in dict(value).items()]
        elif key == "args" and not isinstance(value, str):
            out.append("args=" + " ".join(str(a) for a in value))
        elif value is not None:
            out.append(f"{key}={_text(value)}")
    return out


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return str(value)


def arguments(
    engines: Sequence[Settings],
    *,
    each: Settings | None = None,
    rounds: int = 1,
    games: int = 2,
    concurrency: int = 1,
    openings: None | PathLike | Settings = None,
    srand: int | None = None,
    sprt: Settings | None = None,
    draw: Settings | None = None,
    resign: Settings | None = None,
    maxmoves: int | None = None,
    pgnout: None | PathLike | Settings = None,
    recover: bool = False,
    config: PathLike | None = None,
    variant: Literal["standard", "fischerandom"] | None = None,
    extra: Sequence[str] = (),
) -> list[str]:
    """The fastchess-style arguments of :func:`run`'s keywords, as ``shatranj match`` takes
    them (a command line to print, or to hand to the CLI)."""
    if len(engines) < 2:
        raise ValueError(f"a match needs two engines or more, not {len(engines)}")
    args: list[str] = []
    for e in engines:
        if "cmd" not in e:
            raise ValueError(f"an engine needs cmd=: {dict(e)}")
        args += _pairs("-engine", e)
    args += _pairs("-each", each) if each else []
    args += [
        "-rounds",
        str(int(rounds)),
        "-games",
        str(int(games)),
        "-concurrency",
        str(int(concurrency)),
    ]
    if openings is not None:
        args += _pairs(
            "-openings",
            {"file": openings} if isinstance(openings, (str, os.PathLike)) else openings,
        )
    if srand is not None:
        args += ["-srand", str(int(srand))]
    args += _pairs("-sprt", sprt) + _pairs("-draw", draw) + _pairs("-resign", resign)
    if maxmoves is not None:
        args += ["-maxmoves", str(int(maxmoves))]
    if pgnout is not None:
        args += _pairs(
            "-pgnout", {"file": pgnout} if isinstance(pgnout, (str, os.PathLike)) else pgnout
        )
    if recover:
        args.append("-recover")
    if config is not None:
        args += ["-config", f"file={os.fspath(config)}"]
    if variant is not None:
        args += ["-variant", variant]
    return args + list(extra)


def _rounds(summary: Mapping[str, Any]) -> tuple[RoundResult, ...]:
    return tuple(
        RoundResult(r["round"], tuple(GameResult(**g) for g in r["games"]))
        for r in summary.get("rounds", [])
    )


def _sprt_state(counts: Sequence[int], settings: Settings | None) -> SprtResult | None:
    if settings is None:
        return None
    keys = {k: settings[k] for k in ("model", "alpha", "beta") if k in settings}
    if sum(counts) == 0:
        return SprtResult(0.0, sprt_bounds(keys.get("alpha", 0.05), keys.get("beta", 0.05)), None)
    return sprt(counts, float(settings["elo0"]), float(settings["elo1"]), **keys)


def _result(summary: Mapping[str, Any], sprt_settings: Settings | None, games: int) -> MatchResult:
    t = summary["trinomial"]
    p = summary["pentanomial"]
    counts: list[int] = p if games == 2 else t
    return MatchResult(
        names=(summary["names"][0], summary["names"][1]),
        trinomial=(t[0], t[1], t[2]),
        pentanomial=(p[0], p[1], p[2], p[3], p[4]),
        estimate=estimate(counts) if sum(counts) > 0 else None,
        sprt=_sprt_state(counts, sprt_settings),
        faults=dict(summary["faults"]),
        latency=summary["latency"],
        stopped_by=summary["stopped_by"],
        rounds=_rounds(summary),
    )


def _pooled(
    names: tuple[str, str],
    rounds: Sequence[RoundResult],
    games: int,
    sprt_settings: Settings | None,
    latency: dict[str, dict[str, int]],
    stopped_by: str | None,
) -> MatchResult:
    """A result from counted rounds (those of several runners, in round order), counted as
    the runner counts them: games by half points into ``[L, D, W]``, pairs by their total
    into ``[LL, LD, WL+DD, WD, WW]``."""
    tri = [0, 0, 0]
    penta = [0, 0, 0, 0, 0]
    faults: dict[str, int] = {}
    for r in rounds:
        for g in r.games:
            tri[g.first_half_points] += 1
            if g.fault is not None:
                faults[g.fault] = faults.get(g.fault, 0) + 1
        if len(r.games) == 2:
            penta[r.games[0].first_half_points + r.games[1].first_half_points] += 1
    counts = penta if games == 2 else tri
    return MatchResult(
        names=names,
        trinomial=(tri[0], tri[1], tri[2]),
        pentanomial=(penta[0], penta[1], penta[2], penta[3], penta[4]),
        estimate=estimate(counts) if sum(counts) > 0 else None,
        sprt=_sprt_state(counts, sprt_settings),
        faults=faults,
        latency=latency,
        stopped_by=stopped_by,
        rounds=tuple(rounds),
    )


@overload
def run(
    engines: Sequence[Settings],
    *,
    each: Settings | None = None,
    rounds: int = 1,
    games: int = 2,
    concurrency: int = 1,
    openings: None | PathLike | Settings = None,
    srand: int | None = None,
    sprt: Settings | None = None,
    draw: Settings | None = None,
    resign: Settings | None = None,
    maxmoves: int | None = None,
    pgnout: None | PathLike | Settings = None,
    recover: bool = False,
    config: PathLike | None = None,
    variant: Literal["standard", "fischerandom"] | None = None,
    extra: Sequence[str] = (),
    on_line: Callable[[str], object] | None = None,
    tournament: None = None,
    seeds: None = None,
) -> MatchResult: ...


@overload
def run(
    engines: Sequence[Settings],
    *,
    each: Settings | None = None,
    rounds: int = 1,
    games: int = 2,
    concurrency: int = 1,
    openings: None | PathLike | Settings = None,
    srand: int | None = None,
    sprt: Settings | None = None,
    draw: Settings | None = None,
    resign: Settings | None = None,
    maxmoves: int | None = None,
    pgnout: None | PathLike | Settings = None,
    recover: bool = False,
    config: PathLike | None = None,
    variant: Literal["standard", "fischerandom"] | None = None,
    extra: Sequence[str] = (),
    on_line: Callable[[str], object] | None = None,
    tournament: Literal["roundrobin", "gauntlet"],
    seeds: int | None = None,
) -> TournamentResult: ...


def run(
    engines: Sequence[Settings],
    *,
    each: Settings | None = None,
    rounds: int = 1,
    games: int = 2,
    concurrency: int = 1,
    openings: None | PathLike | Settings = None,
    srand: int | None = None,
    sprt: Settings | None = None,
    draw: Settings | None = None,
    resign: Settings | None = None,
    maxmoves: int | None = None,
    pgnout: None | PathLike | Settings = None,
    recover: bool = False,
    config: PathLike | None = None,
    variant: Literal["standard", "fischerandom"] | None = None,
    extra: Sequence[str] = (),
    on_line: Callable[[str], object] | None = None,
    tournament: Literal["roundrobin", "gauntlet"] | None = None,
    seeds: int | None = None,
) -> MatchResult | TournamentResult:
    """Plays a match between two UCI engines, or a tournament of more, with the runner of
    ``shatranj match``.

    Three engines or more play a tournament, named by ``tournament``: ``"roundrobin"``
    (everyone plays everyone) or ``"gauntlet"`` (the first ``seeds``, default 1, play the
    rest), each pairing a match of ``rounds`` rounds; it returns a
    :class:`TournamentResult` (standings and pairings). ``sprt`` is for two engines only.

    Each engine is a mapping of fastchess's engine settings: ``cmd`` (required), ``name``,
    ``args`` (a list or one string), ``options`` (a mapping sent as ``setoption``), ``tc``
    (``"10+0.1"``), ``nodes``, ``depth``, ``st``, ``timemargin``; ``each`` gives settings to
    both. ``games=2`` plays each opening twice with colours swapped (pairs: the pentanomial
    counts); ``openings`` is an EPD/PGN file, a Polyglot book (``.bin``) or a mapping
    (``file``, ``format``: ``epd``, ``pgn`` or ``polyglot``, ``order``, ``plies``,
    ``start``); ``sprt`` a mapping (``elo0``, ``elo1``, ``alpha``, ``beta``, ``model``)
    that stops the match when it decides; ``draw``/``resign`` fastchess's
    adjudication settings; ``pgnout`` a file (or mapping: ``file``, ``min``, ``nodes``);
    ``recover`` restarts an engine that crashed or hung; ``config`` the JSON state file (a
    match killed in any way resumes from it when run again: ``rounds`` then holds the rounds
    played by this call, the counts all of them); ``variant="fischerandom"`` plays Chess960
    (starts from ``openings`` or the 960 in an order drawn with ``srand``); ``extra`` more raw options
    (``["-startup-ms", "2000"]``, ``["-tb", "/syzygy"]``). ``on_line`` receives the live
    report, line by line.

    The match runs without the GIL; Ctrl-C (``KeyboardInterrupt``) stops it, ends the
    engines and abandons the games in play (the state file keeps every counted game). Bad
    settings raise ``ValueError``; a run that cannot go on (an unwritable file, a corrupt
    state file) ``RuntimeError``.
    """
    args = arguments(
        engines, each=each, rounds=rounds, games=games, concurrency=concurrency, openings=openings,
        srand=srand, sprt=sprt, draw=draw, resign=resign, maxmoves=maxmoves, pgnout=pgnout,
        recover=recover, config=config, variant=variant, extra=extra,
    )  # fmt: skip
    if tournament is not None:
        # Named even for two engines, so that the result's type follows the call's.
        args += ["-tournament", tournament]
        if seeds is not None:
            args += ["-seeds", str(int(seeds))]
        if len(engines) < 3:
            raise ValueError("a tournament needs three engines or more (two play a match)")
        return _tournament(json.loads(_core.match_tournament(args, on_line)))
    if len(engines) > 2:
        raise ValueError(
            f"{len(engines)} engines play a tournament: pass tournament='roundrobin' or 'gauntlet'"
        )
    summary = json.loads(_core.match_run(args, 0, on_line))
    return _result(summary, sprt, games)

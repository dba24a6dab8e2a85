"""Engine scores and win/draw/loss statistics, as python-chess's ``chess.engine`` has them.

One set of classes serves both the in-process engine (:class:`shatranj.Engine`) and the
clients of external engines (:class:`shatranj.engine.SimpleEngine` and the protocols), so a
score from either compares, sorts, negates and pickles the same way.

Scores are relative to a side: :class:`Cp` (centipawns), :class:`Mate` (mate in *n* moves;
negative: that side gets mated; ``Mate(0)``: it is mated now) and :data:`MateGiven` (that
side has delivered mate, ``-Mate(0)``). :class:`PovScore` pairs a score with the side it is
relative to. The order is total:
``Mate(-0) < Mate(-1) < Cp(-50) < Cp(200) < Mate(4) < Mate(1) < MateGiven``.

:meth:`Score.wdl` estimates win/draw/loss chances per mille with the win-rate models of
Stockfish releases (their fitted coefficients, published in Stockfish's sources, are the data
in ``_WDL_MODELS``) or Lichess's.
"""

from __future__ import annotations

import abc
import dataclasses
import math
from collections.abc import Iterator
from typing import Literal, NamedTuple, overload

__all__ = [
    "Cp",
    "Mate",
    "MateGiven",
    "MateGivenType",
    "PovScore",
    "PovWdl",
    "Score",
    "Wdl",
    "WdlModel",
]

WdlModel = Literal["sf", "sf16.1", "sf16", "sf15.1", "sf15", "sf14", "sf12", "lichess"]


class Score(abc.ABC):
    """A score from one side's point of view: centipawns or a mate distance.

    Subclasses: :class:`Cp`, :class:`Mate` and :class:`MateGivenType` (whose one instance is
    :data:`MateGiven`). Scores are totally ordered, hashable and picklable.
    """

    __slots__ = ()

    @overload
    @abc.abstractmethod
    def score(self, *, mate_score: int) -> int: ...
    @overload
    @abc.abstractmethod
    def score(self, *, mate_score: int | None = None) -> int | None: ...
    @abc.abstractmethod
    def score(self, *, mate_score: int | None = None) -> int | None:
        """Centipawns; for mates ``None``, or a large value from ``mate_score`` if given:
        ``Mate(5).score(mate_score=100000) == 99995``."""

    @abc.abstractmethod
    def mate(self) -> int | None:
        """Moves to mate (negative: getting mated), ``None`` for centipawn scores.

        ``Mate(0)`` (mated) and :data:`MateGiven` (mating) both answer ``0``."""

    def is_mate(self) -> bool:
        """Whether this is a mate score."""
        return self.mate() is not None

    @abc.abstractmethod
    def wdl(self, *, model: WdlModel = "sf", ply: int = 30) -> Wdl:
        """Expected win/draw/loss per mille if this score is reached at ``ply`` half-moves.

        ``model``: ``"sf"`` (the latest Stockfish model here, 16.1), ``"sf16.1"``,
        ``"sf16"``, ``"sf15.1"``, ``"sf15"``, ``"sf14"``, ``"sf12"``, or ``"lichess"``
        (Lichess's win-percentage curve: no draws, ``ply`` ignored)."""

    @abc.abstractmethod
    def __neg__(self) -> Score: ...

    @abc.abstractmethod
    def __pos__(self) -> Score: ...

    @abc.abstractmethod
    def __abs__(self) -> Score: ...

    @abc.abstractmethod
    def _key(self) -> tuple[int, int]:
        """The sort key: (class of outcome, rank within it)."""

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Score):
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Score):
            return self._key() < other._key()
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, Score):
            return self._key() <= other._key()
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, Score):
            return self._key() > other._key()
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if isinstance(other, Score):
            return self._key() >= other._key()
        return NotImplemented


# Sort classes: getting mated < centipawns < mating < mate delivered.
_MATED, _CP, _MATING, _GIVEN = range(4)


class Cp(Score):
    """Centipawns."""

    __slots__ = ("cp",)

    def __init__(self, cp: int) -> None:
        self.cp = int(cp)

    def score(self, *, mate_score: int | None = None) -> int:
        return self.cp

    def mate(self) -> None:
        return None

    def wdl(self, *, model: WdlModel = "sf", ply: int = 30) -> Wdl:
        if model == "lichess":
            wins = _lichess_wins(max(-1000, min(self.cp, 1000)))
            return Wdl(wins, 0, 1000 - wins)
        wins = _wdl_model(model).wins(self.cp, ply)
        losses = _wdl_model(model).wins(-self.cp, ply)
        return Wdl(wins, 1000 - wins - losses, losses)

    def __neg__(self) -> Cp:
        return Cp(-self.cp)

    def __pos__(self) -> Cp:
        return Cp(self.cp)

    def __abs__(self) -> Cp:
        return Cp(abs(self.cp))

    def _key(self) -> tuple[int, int]:
        return (_CP, self.cp)

    def __getstate__(self) -> int:
        return self.cp

    def __setstate__(self, state: int) -> None:
        self.cp = state

    def __repr__(self) -> str:
        return f"Cp({self})"

    def __str__(self) -> str:
        return f"+{self.cp}" if self.cp > 0 else str(self.cp)


class Mate(Score):
    """Mate in ``moves`` moves; negative: the side gets mated in that many; ``Mate(0)``
    (written ``Mate(-0)``): it is mated."""

    __slots__ = ("moves",)

    def __init__(self, moves: int) -> None:
        self.moves = int(moves)

    @overload
    def score(self, *, mate_score: int) -> int: ...
    @overload
    def score(self, *, mate_score: int | None = None) -> int | None: ...
    def score(self, *, mate_score: int | None = None) -> int | None:
        if mate_score is None:
            return None
        return mate_score - self.moves if self.moves > 0 else -mate_score - self.moves

    def mate(self) -> int:
        return self.moves

    def wdl(self, *, model: WdlModel = "sf", ply: int = 30) -> Wdl:
        if model == "lichess":
            # Lichess scores a mate in n as (21 - min(10, n)) pawns.
            wins = _lichess_wins((21 - min(10, abs(self.moves))) * 100)
            return Wdl(wins, 0, 1000 - wins) if self.moves > 0 else Wdl(1000 - wins, 0, wins)
        return Wdl(1000, 0, 0) if self.moves > 0 else Wdl(0, 0, 1000)

    def __neg__(self) -> MateGivenType | Mate:
        return MateGiven if self.moves == 0 else Mate(-self.moves)

    def __pos__(self) -> Mate:
        return Mate(self.moves)

    def __abs__(self) -> MateGivenType | Mate:
        return MateGiven if self.moves == 0 else Mate(abs(self.moves))

    def _key(self) -> tuple[int, int]:
        # A shorter mate is better for the mating side; a longer one for the mated side.
        return (_MATING, -self.moves) if self.moves > 0 else (_MATED, -self.moves)

    def __getstate__(self) -> int:
        return self.moves

    def __setstate__(self, state: int) -> None:
        self.moves = state

    def __repr__(self) -> str:
        return f"Mate({str(self)[1:]})"

    def __str__(self) -> str:
        return f"#+{self.moves}" if self.moves > 0 else f"#-{abs(self.moves)}"


class MateGivenType(Score):
    """The side has delivered mate: ``-Mate(0)``. Its one instance is :data:`MateGiven`."""

    __slots__ = ()
    _instance: MateGivenType | None = None

    def __new__(cls) -> MateGivenType:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __call__(self) -> MateGivenType:
        # shatranj's first releases had a class `MateGiven`, used as `MateGiven()`;
        # python-chess's `MateGiven` is this instance. Calling it returns itself, so both
        # spellings give the same object.
        return self

    @overload
    def score(self, *, mate_score: int) -> int: ...
    @overload
    def score(self, *, mate_score: int | None = None) -> int | None: ...
    def score(self, *, mate_score: int | None = None) -> int | None:
        return mate_score

    def mate(self) -> int:
        return 0

    def wdl(self, *, model: WdlModel = "sf", ply: int = 30) -> Wdl:
        return Wdl(1000, 0, 0)

    def __neg__(self) -> Mate:
        return Mate(0)

    def __pos__(self) -> MateGivenType:
        return self

    def __abs__(self) -> MateGivenType:
        return self

    def _key(self) -> tuple[int, int]:
        return (_GIVEN, 0)

    def __reduce__(self) -> str:
        # Pickles as a reference to the module-level singleton.
        return "MateGiven"

    def __repr__(self) -> str:
        return "MateGiven"

    def __str__(self) -> str:
        return "#+0"


MateGiven = MateGivenType()


class PovScore:
    """A :class:`Score` relative to the side ``turn`` (``True``: White)."""

    __slots__ = ("relative", "turn")

    def __init__(self, relative: Score, turn: bool) -> None:
        self.relative = relative
        self.turn = turn

    def white(self) -> Score:
        """The score from White's point of view."""
        return self.pov(True)

    def black(self) -> Score:
        """The score from Black's point of view."""
        return self.pov(False)

    def pov(self, color: bool) -> Score:
        """The score from ``color``'s point of view."""
        return self.relative if self.turn == color else -self.relative

    def is_mate(self) -> bool:
        return self.relative.is_mate()

    def wdl(self, *, model: WdlModel = "sf", ply: int = 30) -> PovWdl:
        """See :meth:`Score.wdl`."""
        return PovWdl(self.relative.wdl(model=model, ply=ply), self.turn)

    def __neg__(self) -> PovScore:
        return PovScore(-self.relative, not self.turn)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PovScore):
            return self.white() == other.white()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.white())

    def __getstate__(self) -> tuple[Score, bool]:
        return (self.relative, self.turn)

    def __setstate__(self, state: tuple[Score, bool]) -> None:
        self.relative, self.turn = state

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, {'WHITE' if self.turn else 'BLACK'})"

    def __str__(self) -> str:
        return str(self.relative)


@dataclasses.dataclass
class Wdl:
    """Win/draw/loss counts (engines and the models report them per mille)."""

    wins: int
    draws: int
    losses: int

    def total(self) -> int:
        return self.wins + self.draws + self.losses

    def winning_chance(self) -> float:
        return self.wins / self.total()

    def drawing_chance(self) -> float:
        return self.draws / self.total()

    def losing_chance(self) -> float:
        return self.losses / self.total()

    def expectation(self) -> float:
        """The expected score: a win counts 1, a draw 0.5."""
        return (self.wins + 0.5 * self.draws) / self.total()

    def __bool__(self) -> bool:
        return bool(self.total())

    def __iter__(self) -> Iterator[int]:
        return iter((self.wins, self.draws, self.losses))

    def __reversed__(self) -> Iterator[int]:
        return iter((self.losses, self.draws, self.wins))

    def __pos__(self) -> Wdl:
        return self

    def __neg__(self) -> Wdl:
        return Wdl(self.losses, self.draws, self.wins)


class PovWdl:
    """A :class:`Wdl` relative to the side ``turn``.

    Like python-chess's, it also behaves as the tuple ``(wins, draws, losses)`` of
    ``relative`` (what ``info["wdl"]`` was in python-chess 1.1)."""

    __slots__ = ("relative", "turn")

    def __init__(self, relative: Wdl, turn: bool) -> None:
        self.relative = relative
        self.turn = turn

    def white(self) -> Wdl:
        return self.pov(True)

    def black(self) -> Wdl:
        return self.pov(False)

    def pov(self, color: bool) -> Wdl:
        return self.relative if self.turn == color else -self.relative

    def __bool__(self) -> bool:
        return bool(self.relative)

    def __iter__(self) -> Iterator[int]:
        return iter(self.relative)

    def __len__(self) -> int:
        return 3

    def __getitem__(self, index: int) -> int:
        return tuple(self.relative)[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PovWdl):
            return self.white() == other.white()
        if isinstance(other, tuple):
            return tuple(self.relative) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self.white()))

    def __getstate__(self) -> tuple[Wdl, bool]:
        return (self.relative, self.turn)

    def __setstate__(self, state: tuple[Wdl, bool]) -> None:
        self.relative, self.turn = state

    def __repr__(self) -> str:
        return f"PovWdl({self.relative!r}, {'WHITE' if self.turn else 'BLACK'})"


class _WinRateModel(NamedTuple):
    """Stockfish's win-rate model: ``1000 / (1 + exp((a - x) / b))`` per mille, where ``a``
    and ``b`` are cubic polynomials in a material/game-phase proxy ``m`` derived from the ply,
    and ``x`` is the score, clamped (and for 15.1 on rescaled from centipawns with the
    release's pawn value)."""

    a: tuple[float, float, float, float]  # cubic coefficients, highest power first
    b: tuple[float, float, float, float]
    clamp: int
    pawn_value: int | None  # None: the score is used in centipawns as it is
    ply_scale: Literal["ply/64", "move/32"]

    def wins(self, cp: int, ply: int) -> int:
        if self.ply_scale == "ply/64":
            m = min(240, max(ply, 0)) / 64
        else:  # 16.1: the move number, clamped to 8..120, over 32
            m = min(120, max(8, ply / 2 + 1)) / 32
        a = ((self.a[0] * m + self.a[1]) * m + self.a[2]) * m + self.a[3]
        b = ((self.b[0] * m + self.b[1]) * m + self.b[2]) * m + self.b[3]
        x: float = cp if self.pawn_value is None else cp * self.pawn_value / 100
        x = min(self.clamp, max(x, -self.clamp))
        return int(0.5 + 1000 / (1 + math.exp((a - x) / b)))


_WDL_MODELS = {
    "sf16.1": _WinRateModel(
        a=(-1.06249702, 7.42016937, 0.89425629, 348.60356174),
        b=(-5.33122190, 39.57831533, -90.84473771, 123.40620748),
        clamp=4000,
        pawn_value=356,
        ply_scale="move/32",
    ),
    "sf16": _WinRateModel(
        a=(0.38036525, -2.82015070, 23.17882135, 307.36768407),
        b=(-2.29434733, 13.27689788, -14.26828904, 63.45318330),
        clamp=4000,
        pawn_value=328,
        ply_scale="ply/64",
    ),
    "sf15.1": _WinRateModel(
        a=(-0.58270499, 2.68512549, 15.24638015, 344.49745382),
        b=(-2.65734562, 15.96509799, -20.69040836, 73.61029937),
        clamp=4000,
        pawn_value=361,
        ply_scale="ply/64",
    ),
    "sf15": _WinRateModel(
        a=(-0.117202460, 0.594729104, 11.2065546, 122.606222),
        b=(-1.79066759, 11.30759193, -17.43677612, 36.47147479),
        clamp=2000,
        pawn_value=None,
        ply_scale="ply/64",
    ),
    "sf14": _WinRateModel(
        a=(-3.68389304, 30.07065921, -60.52878723, 149.53378557),
        b=(-2.01818570, 15.85685038, -29.83452023, 47.59078827),
        clamp=2000,
        pawn_value=None,
        ply_scale="ply/64",
    ),
    "sf12": _WinRateModel(
        a=(-8.24404295, 64.23892342, -95.73056462, 153.86478679),
        b=(-3.37154371, 28.44489198, -56.67657741, 72.05858751),
        clamp=1000,
        pawn_value=None,
        ply_scale="ply/64",
    ),
}
_WDL_MODELS["sf"] = _WDL_MODELS["sf16.1"]


def _wdl_model(model: str) -> _WinRateModel:
    try:
        return _WDL_MODELS[model]
    except KeyError:
        raise ValueError(
            f"unknown WDL model {model!r} (known: {', '.join(sorted(_WDL_MODELS))}, lichess)"
        ) from None


def _lichess_wins(cp: int) -> int:
    # Lichess's win percentage: a logistic curve in centipawns (lila's WinPercent).
    return round(1000 / (1 + math.exp(-0.00368208 * cp)))

"""The values a client passes and gets back: options and their configuration, limits, play
results, the info selector, best moves, and the case-insensitive option map."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import (
    Iterable,
    Iterator,
    Mapping,
    MutableMapping,
)
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
)

from .._core import Move

if TYPE_CHECKING:
    pass  # the checker's; not a runtime dependency

from ._errors import EngineError

T = TypeVar("T")

ConfigValue = str | int | bool | None
ConfigMapping = Mapping[str, ConfigValue]

#: Options the client sets itself for each search; ``configure`` refuses them.
MANAGED_OPTIONS = ["uci_chess960", "uci_variant", "multipv", "ponder"]


# ---------------------------------------------------------------------------------------
# Value types


@dataclasses.dataclass(frozen=True)
class Option:
    """An option the engine declared: ``type`` is ``check``, ``spin``, ``combo``,
    ``button``, ``reset``, ``save``, ``string``, ``file`` or ``path``."""

    name: str
    type: str
    default: ConfigValue
    min: int | None
    max: int | None
    var: list[str] | None

    def parse(self, value: ConfigValue) -> ConfigValue:
        """``value`` as the engine takes it; :class:`EngineError` if it does not fit."""
        if self.type == "check":
            return bool(value) and value != "false"
        if self.type == "spin":
            try:
                number = int(value)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                raise EngineError(
                    f"expected integer for spin option {self.name!r}, got: {value!r}"
                ) from None
            if self.min is not None and number < self.min:
                raise EngineError(
                    f"expected value for option {self.name!r} to be at least {self.min}, got: {number}"
                )
            if self.max is not None and number > self.max:
                raise EngineError(
                    f"expected value for option {self.name!r} to be at most {self.max}, got: {number}"
                )
            return number
        if self.type == "combo":
            text = str(value)
            if text not in (self.var or []):
                choices = ", ".join(self.var) if self.var else "-"
                raise EngineError(
                    f"invalid value for combo option {self.name!r}, got: {text} (available: {choices})"
                )
            return text
        if self.type in ("button", "reset", "save"):
            return None
        if self.type in ("string", "file", "path"):
            text = str(value)
            if "\n" in text or "\r" in text:
                raise EngineError(f"invalid line-break in string option {self.name!r}: {text!r}")
            return text
        raise EngineError(f"unknown option type: {self.type!r}")

    def is_managed(self) -> bool:
        """Whether the client sets this option itself (``UCI_Chess960``, ``UCI_Variant``,
        ``MultiPV``, ``Ponder``)."""
        return self.name.lower() in MANAGED_OPTIONS


@dataclasses.dataclass
class Limit:
    """When to stop searching: ``time`` (seconds), ``depth`` (plies), ``nodes``, ``mate``
    (moves), the clocks and increments (seconds), ``remaining_moves`` to the next time
    control, and ``clock_id`` (XBoard: a new id sends the time control again)."""

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None
    white_clock: float | None = None
    black_clock: float | None = None
    white_inc: float | None = None
    black_inc: float | None = None
    remaining_moves: int | None = None
    clock_id: object = None

    def __repr__(self) -> str:
        fields = (
            "time", "depth", "nodes", "mate", "white_clock", "black_clock",
            "white_inc", "black_inc", "remaining_moves",
        )  # fmt: skip
        shown = ", ".join(
            f"{f}={getattr(self, f)!r}" for f in fields if getattr(self, f) is not None
        )
        return f"{type(self).__name__}({shown})"


#: An info dict: ``score`` (:class:`PovScore`), ``pv`` (moves), ``depth``, ``seldepth``,
#: ``time`` (s), ``nodes``, ``nps``, ``multipv``, ``tbhits``, ``currmove``,
#: ``currmovenumber``, ``hashfull``, ``cpuload``, ``refutation``, ``currline``, ``ebf``,
#: ``wdl`` (:class:`PovWdl`), ``string``, ``lowerbound``/``upperbound``.
InfoDict = dict[str, Any]


class PlayResult:
    """What :meth:`Protocol.play` returns: the move, the expected reply (``ponder``), the
    ``info`` selected with ``info=``, and whether the engine offered a draw or resigned."""

    def __init__(
        self,
        move: Move | None,
        ponder: Move | None,
        info: InfoDict | None = None,
        *,
        draw_offered: bool = False,
        resigned: bool = False,
    ) -> None:
        self.move = move
        self.ponder = ponder
        self.info: InfoDict = info or {}
        self.draw_offered = draw_offered
        self.resigned = resigned

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} at {id(self):#x} (move={self.move}, ponder={self.ponder}, "
            f"info={self.info}, draw_offered={self.draw_offered}, resigned={self.resigned})>"
        )


class Info(enum.IntFlag):
    """Which parts of the engine's info lines to parse."""

    NONE = 0
    BASIC = 1
    SCORE = 2
    PV = 4
    REFUTATION = 8
    CURRLINE = 16
    ALL = BASIC | SCORE | PV | REFUTATION | CURRLINE


INFO_NONE = Info.NONE
INFO_BASIC = Info.BASIC
INFO_SCORE = Info.SCORE
INFO_PV = Info.PV
INFO_REFUTATION = Info.REFUTATION
INFO_CURRLINE = Info.CURRLINE
INFO_ALL = Info.ALL


@dataclasses.dataclass
class Opponent:
    """The engine's opponent, for ``UCI_Opponent`` or XBoard's ``name``/``rating``."""

    name: str | None
    title: str | None
    rating: int | None
    is_engine: bool | None


class BestMove:
    """What :meth:`AnalysisResult.wait` returns."""

    def __init__(self, move: Move | None, ponder: Move | None) -> None:
        self.move = move
        self.ponder = ponder

    def __repr__(self) -> str:
        return f"<{type(self).__name__} at {id(self):#x} (move={self.move}, ponder={self.ponder}>"


class UciOptionMap(MutableMapping[str, T]):
    """A dict with case-insensitive keys that remembers each key's spelling."""

    def __init__(self, data: Iterable[tuple[str, T]] | None = None, **kwargs: T) -> None:
        self._store: dict[str, tuple[str, T]] = {}
        self.update(data if data is not None else {}, **kwargs)

    def __setitem__(self, key: str, value: T) -> None:
        self._store[key.lower()] = (key, value)

    def __getitem__(self, key: str) -> T:
        return self._store[key.lower()][1]

    def __delitem__(self, key: str) -> None:
        del self._store[key.lower()]

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key.lower() in self._store

    def __iter__(self) -> Iterator[str]:
        return (key for key, _ in self._store.values())

    # Faster than the MutableMapping defaults (the client reads these for every search).
    def get(self, key: str, default: Any = None) -> Any:
        entry = self._store.get(key.lower())
        return default if entry is None else entry[1]

    def items(self) -> list[tuple[str, T]]:  # type: ignore[override]
        return list(self._store.values())

    def __len__(self) -> int:
        return len(self._store)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        if len(self) != len(other):
            return False
        for key, value in self.items():
            if key not in other or other[key] != value:
                return False
        return all(not (key not in self or self[key] != value) for key, value in other.items())

    def copy(self) -> UciOptionMap[T]:
        return type(self)(self._store.values())

    def __copy__(self) -> UciOptionMap[T]:
        return self.copy()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self.items())!r})"

"""The ``TimeControl`` tag parsed into its periods."""

from __future__ import annotations

import dataclasses
import enum
import re
from typing import (
    TYPE_CHECKING,
)

if TYPE_CHECKING:
    pass


# --- time controls ----------------------------------------------------------------------------


class TimeControlType(enum.Enum):
    UNKNOWN = 0
    UNLIMITED = 1
    STANDARD = 2
    RAPID = 3
    BLITZ = 4
    BULLET = 5


@dataclasses.dataclass
class TimeControlPart:
    """One period: ``moves`` to play (0: the rest of the game) in ``time`` seconds, with an
    ``increment`` and a ``delay`` per move."""

    moves: int = 0
    time: float = 0
    increment: float = 0
    delay: float = 0


@dataclasses.dataclass
class TimeControl:
    """A ``TimeControl`` tag: its periods and the kind of game they make."""

    parts: list[TimeControlPart] = dataclasses.field(default_factory=list)
    type: TimeControlType = TimeControlType.UNKNOWN


_TC_NUMBER = re.compile(r"^\d+(\.\d+)?\Z")


def _tc_number(text: str, tag: str) -> float:
    if not _TC_NUMBER.match(text):
        raise ValueError(f"invalid TimeControl {tag!r}: {text!r} is not a number")
    return float(text) if "." in text else int(text)


def parse_time_control(time_control: str) -> TimeControl:
    """Parses a PGN ``TimeControl`` tag (``"40/7200:20/3600:900+30"``, ``"300+3"``, ``"-"``,
    ``"?"``); ``ValueError`` for anything else. The type follows FIDE's limits on the
    estimated time of a 60-move game (base + 60 × increment): bullet under 3 minutes, blitz
    up to 10, rapid under 60, standard from 60."""
    text = time_control.strip()
    if text in ("", "?"):
        return TimeControl([], TimeControlType.UNKNOWN)
    if text == "-":
        return TimeControl([], TimeControlType.UNLIMITED)
    parts: list[TimeControlPart] = []
    periods = text.split(":")
    for i, period in enumerate(periods):
        moves = 0
        if "/" in period:
            moves_text, period = period.split("/", 1)
            moves = int(_tc_number(moves_text, time_control))
            if moves <= 0 or isinstance(_tc_number(moves_text, time_control), float):
                raise ValueError(
                    f"invalid TimeControl {time_control!r}: bad move count {moves_text!r}"
                )
        elif i < len(periods) - 1:
            raise ValueError(
                f"invalid TimeControl {time_control!r}: only the last period may lack a move count"
            )
        increment: float = 0
        if "+" in period:
            period, increment_text = period.split("+", 1)
            increment = _tc_number(increment_text, time_control)
        parts.append(TimeControlPart(moves, _tc_number(period, time_control), increment))
    first = parts[0]
    estimate = first.time + 60 * first.increment
    if estimate < 180:
        kind = TimeControlType.BULLET
    elif estimate <= 600:
        kind = TimeControlType.BLITZ
    elif estimate < 3600:
        kind = TimeControlType.RAPID
    else:
        kind = TimeControlType.STANDARD
    return TimeControl(parts, kind)

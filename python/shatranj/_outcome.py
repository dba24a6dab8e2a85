"""How a game ended: python-chess's ``Termination`` enum and ``Outcome`` dataclass."""

from __future__ import annotations

import dataclasses
import enum


class Termination(enum.Enum):
    """Why a game is over; the member names are python-chess's."""

    CHECKMATE = enum.auto()
    STALEMATE = enum.auto()
    INSUFFICIENT_MATERIAL = enum.auto()
    SEVENTYFIVE_MOVES = enum.auto()
    FIVEFOLD_REPETITION = enum.auto()
    FIFTY_MOVES = enum.auto()
    THREEFOLD_REPETITION = enum.auto()
    VARIANT_WIN = enum.auto()
    VARIANT_LOSS = enum.auto()
    VARIANT_DRAW = enum.auto()
    # Endings python-chess does not name, decided by players or an arbiter (shatranj.Game).
    RESIGNATION = enum.auto()
    TIME_FORFEIT = enum.auto()
    AGREEMENT = enum.auto()
    ILLEGAL_MOVES = enum.auto()
    DEAD_POSITION = enum.auto()


@dataclasses.dataclass
class Outcome:
    """The end of a game: the termination and the winner (``None`` for a draw)."""

    termination: Termination
    winner: bool | None

    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"

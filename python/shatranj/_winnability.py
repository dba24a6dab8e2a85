"""Why ``Board.can_checkmate`` answers as it does (FIDE R4.6, R4.9): ``Board.winnability``."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ._core import Move

Kind = Literal["unwinnable", "helpmate", "unknown"]
Proof = Literal[
    "game_over",
    "material",
    "no_check",
    "no_mating_square",
    "search_quick",
    "search_deep",
    "solver_fast",
    "solver",
]


@dataclasses.dataclass(frozen=True)
class Winnability:
    """How a side's chances of mating were decided.

    ``kind`` is ``"unwinnable"`` (proven: the side can never checkmate, ``proof`` names the
    argument), ``"helpmate"`` (``line`` is a series of legal moves from the position that
    ends in the side's mate; empty when the opponent is mated already) or ``"unknown"``
    (neither within the search budget; counted as "can", which keeps the answer sound).
    ``proof`` is ``"solver_fast"`` or ``"solver"`` when CHA's solver decided where our own
    proofs could not (its bounded fast mode by default, its full search with ``full=True``).
    """

    kind: Kind
    proof: Proof | None = None
    line: list[Move] | None = None

    @property
    def can_checkmate(self) -> bool:
        """What ``Board.can_checkmate`` answers: everything but a proof counts as "can"."""
        return self.kind != "unwinnable"

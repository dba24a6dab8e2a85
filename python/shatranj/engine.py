"""The search engine in process: ``shatranj.Engine``, with python-chess's analysis shapes.

``Engine.analyse`` returns the info dict that python-chess's ``chess.engine`` returns (``"score"``
a :class:`PovScore`, ``"pv"`` a list of moves, ``"depth"``, ``"seldepth"``, ``"nodes"``, ``"nps"``,
``"time"``, ``"hashfull"``), so code written for an external UCI engine reads the same. The
search itself is native (:class:`shatranj._core.Engine`): it releases the GIL, and Ctrl-C stops
it and raises ``KeyboardInterrupt``.

The score classes mirror python-chess's: :class:`Cp` (centipawns), :class:`Mate` (mate in *n*
moves; negative: the side to move gets mated; ``Mate(0)``: it is mated now) and
:class:`MateGiven` (the side to move has delivered mate, ``-Mate(0)``).
"""

from __future__ import annotations

import abc
import os
from typing import Any, Dict, List, Literal, Optional, Union, overload

from . import _core

__all__ = ["Cp", "Engine", "EvalFile", "InfoDict", "Mate", "MateGiven", "PovScore", "Score"]

#: The values ``eval_file=`` takes (``Engine``, ``shatranj.evaluate``, ``shatranj.selfplay``):
#: a network file's path, ``"<default>"`` (the network built into the engine), ``"classical"``,
#: a loaded :class:`shatranj.nnue.Network`, or ``None`` for the engine's default. A ``str`` is
#: read as UCI's ``EvalFile`` reads it; any other ``os.PathLike`` is always a path.
EvalFile = Union[str, "os.PathLike[str]", _core.Network, None]

# How far beyond any centipawn score mates sort (only the order matters).
_MATE_ORDER = 1_000_000


class Score(abc.ABC):
    """A score from one side's point of view: centipawns or a mate distance."""

    @abc.abstractmethod
    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        """Centipawns; for mates ``None``, or a large value from ``mate_score`` if given."""

    @abc.abstractmethod
    def mate(self) -> Optional[int]:
        """Moves to mate (negative: getting mated), ``None`` for centipawn scores."""

    def is_mate(self) -> bool:
        return self.mate() is not None

    @abc.abstractmethod
    def __neg__(self) -> Score: ...

    def __pos__(self) -> Score:
        return self

    @abc.abstractmethod
    def _order(self) -> int: ...

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Score):
            return type(self) is type(other) and self._order() == other._order()
        return NotImplemented

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._order()))

    def __lt__(self, other: Score) -> bool:
        return self._order() < other._order()

    def __le__(self, other: Score) -> bool:
        return self._order() <= other._order()

    def __gt__(self, other: Score) -> bool:
        return self._order() > other._order()

    def __ge__(self, other: Score) -> bool:
        return self._order() >= other._order()


class Cp(Score):
    """Centipawns."""

    def __init__(self, cp: int) -> None:
        self.cp = int(cp)

    def score(self, *, mate_score: Optional[int] = None) -> int:
        return self.cp

    def mate(self) -> None:
        return None

    def __neg__(self) -> Cp:
        return Cp(-self.cp)

    def __abs__(self) -> Cp:
        return Cp(abs(self.cp))

    def _order(self) -> int:
        return self.cp

    def __repr__(self) -> str:
        return f"Cp({self.cp:+d})"

    def __str__(self) -> str:
        return f"{self.cp:+d}"


class Mate(Score):
    """Mate in ``moves`` moves; negative: the side to move gets mated in that many."""

    def __init__(self, moves: int) -> None:
        self.moves = int(moves)

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        if mate_score is None:
            return None
        return mate_score - self.moves if self.moves > 0 else -mate_score - self.moves

    def mate(self) -> int:
        return self.moves

    def __neg__(self) -> Union[Mate, MateGiven]:
        return MateGiven() if self.moves == 0 else Mate(-self.moves)

    def __abs__(self) -> Union[Mate, MateGiven]:
        return MateGiven() if self.moves == 0 else Mate(abs(self.moves))

    def _order(self) -> int:
        return _MATE_ORDER - self.moves if self.moves > 0 else -_MATE_ORDER - self.moves

    def __repr__(self) -> str:
        return f"Mate({self.moves:+d})" if self.moves else "Mate(-0)"

    def __str__(self) -> str:
        return f"#{self.moves:+d}" if self.moves else "#-0"


class MateGiven(Score):
    """The side to move has delivered mate."""

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        return mate_score

    def mate(self) -> int:
        return 0

    def __neg__(self) -> Mate:
        return Mate(0)

    def __abs__(self) -> MateGiven:
        return self

    def _order(self) -> int:
        return _MATE_ORDER

    def __repr__(self) -> str:
        return "MateGiven"

    def __str__(self) -> str:
        return "#+0"


class PovScore:
    """A score relative to the side ``turn`` (python-chess's ``PovScore``)."""

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
        return self.relative if self.turn == color else -self.relative

    def is_mate(self) -> bool:
        return self.relative.is_mate()

    def __neg__(self) -> PovScore:
        return PovScore(-self.relative, not self.turn)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PovScore):
            return self.white() == other.white()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.white())

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, {'WHITE' if self.turn else 'BLACK'})"

    def __str__(self) -> str:
        return str(self.relative)


InfoDict = Dict[str, Any]


def _score(kind: str, value: int) -> Score:
    return Cp(value) if kind == "cp" else Mate(value)


class Engine:
    """The shatranj search engine, in this process.

    ``threads`` search threads (lazy SMP) share a transposition table of ``hash_mb`` MiB. The
    table persists between searches; :meth:`clear_hash` empties it. ``device`` says where
    static evaluations run: ``"cpu"`` and ``"auto"`` inline on the CPU (the fastest for a
    search), ``"gpu"`` through the batching service (``RuntimeError`` without a GPU back end). Searches release the GIL,
    so other Python threads run meanwhile and one of them may call :meth:`stop`.

    ``eval_file`` picks the static evaluation as UCI's ``EvalFile`` does (see
    :data:`EvalFile`): a network file's path, ``"<default>"``, ``"classical"``, a
    :class:`shatranj.nnue.Network`, or ``None`` for the default. A network that cannot be
    loaded raises :class:`shatranj.NetworkError` saying why.
    """

    def __init__(
        self, threads: int = 1, hash_mb: int = 64, device: str = "auto", eval_file: EvalFile = None
    ) -> None:
        for name, value in (("threads", threads), ("hash_mb", hash_mb)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        if not isinstance(device, str):
            raise TypeError(f"device must be a str, not {type(device).__name__}")
        self._native = _core.Engine(threads, hash_mb, device, eval_file)

    @property
    def threads(self) -> int:
        return self._native.threads

    @property
    def hash_mb(self) -> int:
        return self._native.hash_mb

    @property
    def evaluator(self) -> str:
        """Where static evaluations run: ``"cpu (inline)"`` or a back end ``"(batched)"``."""
        return self._native.evaluator

    @property
    def evaluation(self) -> str:
        """The static evaluation in use: ``"classical"``, or ``"network <hash> (<H> hidden)"``."""
        return self._native.evaluation

    def _search(
        self,
        board: _core.Board,
        depth: Optional[int],
        time: Optional[float],
        nodes: Optional[int],
        multipv: int,
    ) -> Dict[str, Any]:
        if not isinstance(board, _core.Board):
            raise TypeError(f"board must be a shatranj.Board, not {type(board).__name__}")
        for name, value in (("depth", depth), ("nodes", nodes), ("multipv", multipv)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        if time is not None and (isinstance(time, bool) or not isinstance(time, (int, float))):
            raise TypeError(f"time must be a number of seconds, not {type(time).__name__}")
        return self._native.search(
            board,
            depth=depth,
            time=None if time is None else float(time),
            nodes=nodes,
            multipv=multipv,
        )

    @overload
    def analyse(  # type: ignore[overload-overlap]  # multipv=1 is the dict form
        self,
        board: _core.Board,
        *,
        depth: Optional[int] = ...,
        time: Optional[float] = ...,
        nodes: Optional[int] = ...,
        multipv: Literal[1] = ...,
    ) -> InfoDict: ...
    @overload
    def analyse(
        self,
        board: _core.Board,
        *,
        depth: Optional[int] = ...,
        time: Optional[float] = ...,
        nodes: Optional[int] = ...,
        multipv: int,
    ) -> List[InfoDict]: ...
    def analyse(
        self,
        board: _core.Board,
        *,
        depth: Optional[int] = None,
        time: Optional[float] = None,
        nodes: Optional[int] = None,
        multipv: int = 1,
    ) -> Union[InfoDict, List[InfoDict]]:
        """Analyses ``board`` (its move stack counts for repetition draws) within the limits.

        Returns python-chess's info dict, or with ``multipv > 1`` a list of them, best first.
        At least one of ``depth``, ``time`` (seconds) and ``nodes`` is required.
        """
        raw = self._search(board, depth, time, nodes, multipv)
        turn = board.turn
        infos: List[InfoDict] = []
        for index, (kind, value), pv in raw["lines"]:
            info: InfoDict = {
                "score": PovScore(_score(kind, value), turn),
                "pv": pv,
                "depth": raw["depth"],
                "seldepth": raw["seldepth"],
                "nodes": raw["nodes"],
                "nps": raw["nps"],
                "time": raw["time"],
                "hashfull": raw["hashfull"],
            }
            if multipv > 1:
                info["multipv"] = index
            infos.append(info)
        return infos if multipv > 1 else infos[0]

    def play(
        self,
        board: _core.Board,
        *,
        time: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
    ) -> Optional[_core.Move]:
        """The best move within the limits; ``None`` when the game is over on the board."""
        best: Optional[_core.Move] = self._search(board, depth, time, nodes, 1)["best_move"]
        return best

    def evaluate(self, board: _core.Board) -> int:
        """The static evaluation: centipawns from the side to move."""
        if not isinstance(board, _core.Board):
            raise TypeError(f"board must be a shatranj.Board, not {type(board).__name__}")
        return self._native.evaluate(board)

    def stop(self) -> None:
        """Stops a running search (from another thread); it returns its best move so far."""
        self._native.stop()

    def clear_hash(self) -> None:
        """Empties the transposition table."""
        self._native.clear_hash()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<shatranj.Engine threads={self.threads} hash_mb={self.hash_mb} evaluation={self.evaluation!r}>"

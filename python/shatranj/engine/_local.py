"""The in-process engine, :class:`shatranj.engine.Engine`: the shatranj search in this process,
answering with the same info dicts as an external engine.

It lives apart from the facade :mod:`shatranj.engine` because :func:`analyse_many`
(:mod:`shatranj.engine._batch`) runs it on threads, and the facade imports the batch
module: with the class in the facade, the two imported each other. Now both import this
module, which imports neither. The class keeps ``__module__ == "shatranj.engine"``, the name
users import it by, so its ``repr``, pickles and documentation read as before.
"""

from __future__ import annotations

import os
from typing import Any, Literal, Union, overload

from .. import _core
from ._scores import Cp, Mate, PovScore, Score
from ._values import InfoDict

#: The values ``eval_file=`` takes (``Engine``, ``shatranj.evaluate``, ``shatranj.selfplay``):
#: a network file's path, ``"<default>"`` (the network built into the engine), ``"classical"``,
#: a loaded :class:`shatranj.nnue.Network`, or ``None`` for the engine's default. A ``str`` is
#: read as UCI's ``EvalFile`` reads it; any other ``os.PathLike`` is always a path.
EvalFile = Union[str, "os.PathLike[str]", _core.Network, None]


def _score(kind: str, value: int) -> Score:
    return Cp(value) if kind == "cp" else Mate(value)


class Engine:
    """The shatranj search engine, in this process.

    ``threads`` search threads (lazy SMP) share a transposition table of ``hash_mb`` MiB. The
    table and the move-ordering statistics persist between searches; :meth:`clear_hash`
    empties both. ``device`` says where
    static evaluations run: ``"cpu"`` and ``"auto"`` inline on the CPU (the fastest for a
    search), ``"gpu"`` through the batching service (``RuntimeError`` without a GPU back end). Searches release the GIL,
    so other Python threads run meanwhile and one of them may call :meth:`stop`.

    ``eval_file`` picks the static evaluation as UCI's ``EvalFile`` does (see
    :data:`EvalFile`): a network file's path, ``"<default>"``, ``"classical"``, a
    :class:`shatranj.nnue.Network`, or ``None`` for the default. A network that cannot be
    loaded raises :class:`shatranj.NetworkError` saying why.

    ``chess960=True`` plays Chess960 too, as ``UCI_Chess960`` does: a board made with
    ``chess960=True`` is searched with its castling rights by file, and its castling moves
    come back as the king taking its own rook, as python-chess's Chess960 board holds them.
    Without it such a board raises ``ValueError``. Standard boards play as always.

    ``syzygy_path`` names directories of Syzygy endgame tables (one path, or several joined
    by ``os.pathsep``), used as UCI's ``SyzygyPath``: within the tables only the moves that
    keep their outcome are searched (a won ending is converted, a drawn one held), and the
    search scores captures and pawn moves into them exactly; tablebase wins show as
    ``Cp(20000 - plies)``, and ``tbhits`` counts the probes. A directory that cannot be read
    raises ``OSError``. ``syzygy_probe_depth``, ``syzygy_probe_limit`` and
    ``syzygy_50_move_rule`` are ``SyzygyProbeDepth``, ``SyzygyProbeLimit`` and
    ``Syzygy50MoveRule``.
    """

    def __init__(
        self,
        threads: int = 1,
        hash_mb: int = 64,
        device: str = "auto",
        eval_file: EvalFile = None,
        *,
        chess960: bool = False,
        syzygy_path: str | os.PathLike[str] | None = None,
        syzygy_probe_depth: int = 1,
        syzygy_probe_limit: int = 7,
        syzygy_50_move_rule: bool = True,
    ) -> None:
        for name, value in (
            ("threads", threads),
            ("hash_mb", hash_mb),
            ("syzygy_probe_depth", syzygy_probe_depth),
            ("syzygy_probe_limit", syzygy_probe_limit),
        ):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        if not isinstance(device, str):
            raise TypeError(f"device must be a str, not {type(device).__name__}")
        if not isinstance(chess960, bool):
            raise TypeError(f"chess960 must be a bool, not {type(chess960).__name__}")
        if not isinstance(syzygy_50_move_rule, bool):
            raise TypeError(
                f"syzygy_50_move_rule must be a bool, not {type(syzygy_50_move_rule).__name__}"
            )
        if syzygy_path is not None and not isinstance(syzygy_path, (str, os.PathLike)):
            raise TypeError(f"syzygy_path must be a path, not {type(syzygy_path).__name__}")
        self._native = _core.Engine(
            threads,
            hash_mb,
            device,
            eval_file,
            syzygy_path=syzygy_path,
            syzygy_probe_depth=syzygy_probe_depth,
            syzygy_probe_limit=syzygy_probe_limit,
            syzygy_50_move_rule=syzygy_50_move_rule,
        )
        self._chess960 = chess960

    @property
    def chess960(self) -> bool:
        """Whether Chess960 boards are played (``UCI_Chess960``)."""
        return self._chess960

    def _check_chess960(self, board: _core.Board) -> None:
        """A Chess960 board needs ``Engine(chess960=True)`` (``UCI_Chess960``)."""
        if board.chess960 and not self._chess960:
            raise ValueError("a Chess960 board needs Engine(chess960=True)")

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
        """The static evaluation in use: ``"classical"``, or ``"network <hash> (<H> hidden, SCALE <S>)"``."""
        return self._native.evaluation

    def _search(
        self,
        board: _core.Board,
        depth: int | None,
        time: float | None,
        nodes: int | None,
        multipv: int,
    ) -> dict[str, Any]:
        if not isinstance(board, _core.Board):
            raise TypeError(f"board must be a shatranj.Board, not {type(board).__name__}")
        for name, value in (("depth", depth), ("nodes", nodes), ("multipv", multipv)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        if time is not None and (isinstance(time, bool) or not isinstance(time, (int, float))):
            raise TypeError(f"time must be a number of seconds, not {type(time).__name__}")
        self._check_chess960(board)
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
        depth: int | None = ...,
        time: float | None = ...,
        nodes: int | None = ...,
        multipv: Literal[1] = ...,
    ) -> InfoDict: ...
    @overload
    def analyse(
        self,
        board: _core.Board,
        *,
        depth: int | None = ...,
        time: float | None = ...,
        nodes: int | None = ...,
        multipv: int,
    ) -> list[InfoDict]: ...
    def analyse(
        self,
        board: _core.Board,
        *,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        multipv: int = 1,
    ) -> InfoDict | list[InfoDict]:
        """Analyses ``board`` (its move stack counts for repetition draws) within the limits.

        Returns python-chess's info dict, or with ``multipv > 1`` a list of them, best first.
        At least one of ``depth``, ``time`` (seconds) and ``nodes`` is required.
        """
        raw = self._search(board, depth, time, nodes, multipv)
        turn = board.turn
        infos: list[InfoDict] = []
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
                "tbhits": raw["tbhits"],
            }
            if multipv > 1:
                info["multipv"] = index
            infos.append(info)
        return infos if multipv > 1 else infos[0]

    def play(
        self,
        board: _core.Board,
        *,
        time: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
    ) -> _core.Move | None:
        """The best move within the limits; ``None`` when the game is over on the board."""
        best: _core.Move | None = self._search(board, depth, time, nodes, 1)["best_move"]
        return best

    def evaluate(self, board: _core.Board) -> int:
        """The static evaluation: centipawns from the side to move."""
        if not isinstance(board, _core.Board):
            raise TypeError(f"board must be a shatranj.Board, not {type(board).__name__}")
        self._check_chess960(board)
        return self._native.evaluate(board)

    def stop(self) -> None:
        """Stops a running search (from another thread); it returns its best move so far."""
        self._native.stop()

    def clear_hash(self) -> None:
        """Forgets earlier searches: the transposition table and the move-ordering statistics."""
        self._native.clear_hash()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        chess960 = " chess960=True" if self._chess960 else ""
        return f"<shatranj.Engine threads={self.threads} hash_mb={self.hash_mb}{chess960} evaluation={self.evaluation!r}>"


Engine.__module__ = "shatranj.engine"

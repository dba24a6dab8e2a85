"""Syzygy endgame tablebases, with python-chess's ``chess.syzygy`` interface.

``open_tablebase(directory)`` gives a :class:`Tablebase`; ``probe_wdl(board)`` answers
win/draw/loss (2, 1, 0, -1, -2: a win, a win the fifty-move rule turns into a draw, a draw, a
loss it saves, a loss) and ``probe_dtz(board)`` the distance to the next capture or pawn
move with best play. ``get_wdl``/``get_dtz`` return a default instead of raising where the
tables have no answer. A missing table raises :class:`MissingTableError` (a ``KeyError``,
as in python-chess); a position with castling rights a plain ``KeyError``; a damaged file
:class:`CorruptTableError` or :class:`TruncatedTableError` (``ValueError``\\ s); a
directory that cannot be read an ``OSError``.

The prober is native (``shatranj-syzygy``, a port of Fathom): tables are memory-mapped
when first used and shared, so a tablebase can be probed from several threads, and
``probe_wdl_many``/``probe_dtz_many`` probe a list of boards, FENs or a
:func:`shatranj.pack_positions` array on every core with the GIL released, into numpy
arrays. What stays in Python here is python-chess's table-name arithmetic
(:func:`calc_key`, :func:`normalize_tablename`, :func:`tablenames`,
:func:`dependencies` …), written from the Syzygy naming convention: a name lists White's
pieces, ``v``, Black's, each side strongest piece first, the side with more pieces (or,
with as many, the stronger ones) first.

Only standard chess tables are supported: ``VariantBoard`` must be :class:`shatranj.Board`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from itertools import combinations_with_replacement
from types import TracebackType
from typing import TYPE_CHECKING, Literal, Union

from ._core import Board, CorruptTableError, MissingTableError, SyzygyTablebase, TruncatedTableError

__all__ = [
    "TBPIECES", "MissingTableError", "CorruptTableError", "TruncatedTableError", "Tablebase",
    "open_tablebase", "WdlTable", "DtzTable", "calc_key", "normalize_tablename",
    "is_tablename", "tablenames", "dependencies", "all_dependencies", "dtz_before_zeroing",
]  # fmt: skip

#: The most pieces (kings included) of any Syzygy table published.
TBPIECES = 7

# Pieces in the order table names list them, strongest first.
_PIECE_ORDER = "KQRBNP"

PathLike = Union[str, "os.PathLike[str]"]

if TYPE_CHECKING:
    # Only for the annotations (postponed by the __future__ import): no runtime dependency.
    from typing_extensions import Self


class Tablebase(SyzygyTablebase):
    """Syzygy tables from one or more directories (python-chess's ``chess.syzygy.Tablebase``).

    Probes take a :class:`shatranj.Board` holding a legal standard position; its halfmove
    clock is not looked at (the values are exact right after a capture or pawn move).
    ``max_fds`` is accepted for compatibility: files are closed as soon as they are mapped,
    so none stay open. Use as a context manager, or call :meth:`close`, to unmap the files.
    """


def open_tablebase(
    directory: PathLike,
    *,
    load_wdl: bool = True,
    load_dtz: bool = True,
    max_fds: int | None = 128,
    VariantBoard: type[Board] = Board,
) -> Tablebase:
    """A :class:`Tablebase` with the tables of ``directory``; more can be added with
    :meth:`Tablebase.add_directory`."""
    tables = Tablebase(max_fds=max_fds, VariantBoard=VariantBoard)
    tables.add_directory(directory, load_wdl=load_wdl, load_dtz=load_dtz)
    return tables


class _SingleTable:
    """One table file, probed directly (python-chess's ``WdlTable``/``DtzTable``, which its
    tests use to read a table without the capture search)."""

    _kind: Literal["wdl", "dtz"] = "wdl"

    def __init__(self, path: PathLike, *, variant: type[Board] = Board) -> None:
        self.path = os.fspath(path)
        name = os.path.basename(self.path)
        stem, ext = os.path.splitext(name)
        if ext != "." + {"wdl": "rtbw", "dtz": "rtbz"}[self._kind] or not is_tablename(
            stem, normalized=False
        ):
            raise ValueError(f"{self.path}: not a Syzygy {self._kind.upper()} table file name")
        self.name = stem
        self._tables = Tablebase(VariantBoard=variant)
        if not self._tables.add_file(self.path):
            raise ValueError(f"{self.path}: not added")

    def _init(self) -> None:
        """Opens the file and reads its header now (otherwise the first probe does)."""
        self._tables.open_table(self.name, self._kind)

    def close(self) -> None:
        self._tables.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class WdlTable(_SingleTable):
    """One ``.rtbw`` file."""

    _kind: Literal["wdl", "dtz"] = "wdl"

    def init_table_wdl(self) -> None:
        self._init()

    def probe_wdl_table(self, board: Board) -> int:
        """The value the table stores for ``board``, captures not looked at."""
        return self._tables.probe_wdl_table(board)


class DtzTable(_SingleTable):
    """One ``.rtbz`` file."""

    _kind: Literal["wdl", "dtz"] = "dtz"

    def init_table_dtz(self) -> None:
        self._init()

    def probe_dtz_table(self, board: Board, wdl: int) -> tuple[int, int]:
        """``(value, 1)`` as the table stores it for ``board`` of WDL ``wdl``, or ``(0, -1)``
        where the table holds only the other side to move."""
        return self._tables.probe_dtz_table(board, wdl)


def _split(name: str) -> tuple[str, str]:
    white, sep, black = name.partition("v")
    if not sep or "v" in black or not white or not black:
        raise ValueError(f"not a table name: {name!r} (expected e.g. 'KQvKR')")
    for ch in white + black:
        if ch not in _PIECE_ORDER:
            raise ValueError(f"not a table name: {name!r} (pieces are {_PIECE_ORDER})")
    return white, black


def _sorted_side(side: str) -> str:
    return "".join(sorted(side, key=_PIECE_ORDER.index))


def _strength(side: str) -> tuple[int, tuple[int, ...]]:
    # More pieces first; with as many, the stronger pieces first (K, Q, R, B, N, P).
    return len(side), tuple(-_PIECE_ORDER.index(ch) for ch in side)


def normalize_tablename(name: str, *, mirror: bool = False) -> str:
    """The file name of the table holding ``name``'s material (``"KNNvKBB"`` →
    ``"KBBvKNN"``); with ``mirror``, the other colouring (weaker side first)."""
    white, black = (_sorted_side(s) for s in _split(name))
    if (_strength(white) < _strength(black)) != mirror:
        white, black = black, white
    return f"{white}v{black}"


def calc_key(board: Board, *, mirror: bool = False) -> str:
    """The material of ``board`` as a table name, White first (Black first with
    ``mirror``), not normalized: ``"KvKBN"`` when Black has the bishop and knight."""
    sides = []
    for occupied in board.occupied_co[True], board.occupied_co[False]:
        sides.append(
            "".join(
                ch * (bb & occupied).bit_count()
                for ch, bb in zip(
                    _PIECE_ORDER,
                    (
                        board.kings,
                        board.queens,
                        board.rooks,
                        board.bishops,
                        board.knights,
                        board.pawns,
                    ),
                )
            )
        )
    white, black = sides
    return f"{black}v{white}" if mirror else f"{white}v{black}"


def is_tablename(
    name: str, *, one_king: bool = True, piece_count: int | None = TBPIECES, normalized: bool = True
) -> bool:
    """Whether ``name`` names a table: pieces ``KQRBNP`` on each side of a ``v``, with one
    king a side (``one_king``, and then more than the two kings), at most ``piece_count``
    pieces, and (``normalized``) in the order of :func:`normalize_tablename`."""
    try:
        white, black = _split(name)
    except ValueError:
        return False
    kings_ok = white.count("K") == 1 and black.count("K") == 1 and len(white) + len(black) > 2
    if one_king and not kings_ok:
        return False
    if piece_count is not None and len(white) + len(black) > piece_count:
        return False
    return not normalized or name == normalize_tablename(name)


def tablenames(*, one_king: bool = True, piece_count: int = 6) -> Iterator[str]:
    """Every table name of 3 to ``piece_count`` pieces (from 2 without ``one_king``, as
    in suicide chess, where the king is an ordinary piece)."""
    others = _PIECE_ORDER[1:] if one_king else _PIECE_ORDER
    king = "K" if one_king else ""
    smallest = 1 if one_king else 0  # pieces a side has besides its king (suicide: at least one)
    seen: set[str] = set()
    for total in range(2, piece_count + 1):
        free = total - 2 * len(king)
        for white_n in range(free + 1):
            black_n = free - white_n
            if not one_king and (white_n < 1 or black_n < 1):
                continue
            if one_king and free < smallest:
                continue
            for white in combinations_with_replacement(others, white_n):
                for black in combinations_with_replacement(others, black_n):
                    name = normalize_tablename(king + "".join(white) + "v" + king + "".join(black))
                    if name not in seen:
                        seen.add(name)
                        yield name


def dependencies(target: str, *, one_king: bool = True) -> Iterator[str]:
    """The tables one capture or one promotion leads to from ``target``'s, normalized, each
    once (tables of the kings alone, which have no file, left out)."""
    white, black = _split(target)
    promotions = "QRBN" if one_king else "QRBNK"
    seen: set[str] = set()

    def add(w: str, b: str) -> Iterator[str]:
        if not w or not b:
            return  # a side with no pieces: the game is over (suicide)
        name = normalize_tablename(f"{w}v{b}")
        if name not in seen and is_tablename(name, one_king=one_king, piece_count=None):
            seen.add(name)
            yield name

    for side, other, white_first in (white, black, True), (black, white, False):
        for i, ch in enumerate(side):
            if one_king and ch == "K":
                continue
            rest = side[:i] + side[i + 1 :]
            yield from add(rest, other) if white_first else add(other, rest)
            if ch == "P":
                for promoted in promotions:
                    changed = rest + promoted
                    yield from add(changed, other) if white_first else add(other, changed)


def all_dependencies(targets: Iterable[str], *, one_king: bool = True) -> Iterator[str]:
    """The tables of ``targets`` and every table reachable from them by captures and
    promotions, normalized, each once: what a directory needs for probing ``targets``."""
    closed: set[str] = set()
    open_list: list[str] = []
    for target in targets:
        name = normalize_tablename(target)
        if name not in closed:
            closed.add(name)
            yield name
            open_list.append(name)
    while open_list:
        name = open_list.pop()
        for dep in dependencies(name, one_king=one_king):
            if dep not in closed:
                closed.add(dep)
                yield dep
                open_list.append(dep)


def dtz_before_zeroing(wdl: int) -> int:
    """The DTZ of a position whose next move zeroes the clock, by its WDL: 1 for a win,
    101 for a win the fifty-move rule draws, 0 for a draw, and their negations."""
    sign = (wdl > 0) - (wdl < 0)
    return sign * (1 if abs(wdl) == 2 else 101)

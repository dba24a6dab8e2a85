"""Polyglot opening books, with python-chess's ``chess.polyglot`` interface: ``zobrist_hash``,
``open_reader`` and ``MemoryMappedReader`` (``find_all``, ``find``, ``get``, ``choice``,
``weighted_choice``, ``exclude_moves``, ``minimum_weight``), and ``Entry``.

The file format: a sequence of 16-byte big-endian entries sorted by key, each
``key: u64, move: u16, weight: u16, learn: u32``. The move packs, from bit 0 up, the target
file and rank (3 bits each), the origin file and rank, and the promotion (0 none, 1 knight …
4 queen). Castling is stored as the king taking its own rook (``e1h1``); on a board where that
is castling, ``Entry.move`` is the board's own form of the move (``e1g1`` in standard chess)
and ``Entry.raw_move`` keeps the stored one. A file whose size is not a multiple of 16 is
refused with ``ValueError``; the keys need not be sorted for the reader to be safe (a lookup in
an unsorted book may miss entries, never crash).
"""

from __future__ import annotations

import mmap
import os
import random as _random
from collections.abc import Callable, Container, Iterator
from typing import Any, NamedTuple

from ._core import Board, Move

__all__ = [
    "zobrist_hash",
    "Entry",
    "MemoryMappedReader",
    "open_reader",
    "ZobristHasher",
    "POLYGLOT_RANDOM_ARRAY",
]

_ENTRY = 16


def zobrist_hash(board: Board, *, _hasher: Callable[[Board], int] | None = None) -> int:
    """The 64-bit Polyglot Zobrist key of the position (equal to python-chess's)."""
    if _hasher is not None:
        return _hasher(board)
    if not isinstance(board, Board):
        raise TypeError(f"expected a shatranj.Board, got {type(board).__name__}")
    return board.zobrist_hash()


class ZobristHasher:
    """python-chess's hasher type; shatranj's keys are computed natively, so it only wraps
    :func:`zobrist_hash`."""

    def __call__(self, board: Board) -> int:
        return zobrist_hash(board)


POLYGLOT_RANDOM_ARRAY: Any = (
    None  # the keys live in the rules crate (rust/chess/src/zobrist/polyglot_randoms.rs)
)


class Entry(NamedTuple):
    """One book entry: the position's ``key``, the move as stored (``raw_move``), its
    ``weight`` and ``learn`` fields, and ``move`` in the board's own form."""

    key: int
    raw_move: Move
    weight: int
    learn: int
    move: Move


def _decode(raw: int) -> Move:
    to_square = raw & 0x3F
    from_square = (raw >> 6) & 0x3F
    promotion_part = (raw >> 12) & 0x7
    if promotion_part > 4:
        raise ValueError(
            f"corrupt Polyglot entry: promotion code {promotion_part} in move {raw:#06x}"
        )
    promotion = promotion_part + 1 if promotion_part else None
    if from_square == to_square and promotion is None:
        return Move.null()
    return Move(from_square, to_square, promotion)


def _on_board(board: Board, move: Move) -> Move:
    """The stored king-takes-rook castling as the board writes castling."""
    if board.chess960 or not move:
        return move
    king = board.king(board.turn)
    if king is None or move.from_square != king or move.promotion is not None:
        return move
    if board.rooks & board.occupied_co[board.turn] & (1 << move.to_square) and board.is_castling(
        move
    ):
        step = 1 if move.to_square > move.from_square else -1
        return Move(move.from_square, move.from_square + 2 * step)
    return move


class MemoryMappedReader:
    """A Polyglot book read from a memory-mapped file (an empty file is an empty book)."""

    def __init__(self, filename: str | os.PathLike[str]) -> None:
        self._fd = os.open(filename, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        self._data: mmap.mmap | bytes
        try:
            size = os.fstat(self._fd).st_size
            if size % _ENTRY:
                raise ValueError(
                    f"a Polyglot book is a whole number of 16-byte entries; {filename!s} has {size} bytes"
                )
            self._data = mmap.mmap(self._fd, 0, access=mmap.ACCESS_READ) if size else b""
        except BaseException:
            os.close(self._fd)
            raise

    def __enter__(self) -> MemoryMappedReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if isinstance(self._data, mmap.mmap):
            self._data.close()
        self._data = b""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __len__(self) -> int:
        return len(self._data) // _ENTRY

    def _key_at(self, index: int) -> int:
        return int.from_bytes(self._data[index * _ENTRY : index * _ENTRY + 8], "big")

    def _entry(self, index: int, board: Board | None = None) -> Entry:
        chunk = self._data[index * _ENTRY : (index + 1) * _ENTRY]
        key = int.from_bytes(chunk[0:8], "big")
        raw = _decode(int.from_bytes(chunk[8:10], "big"))
        move = raw if board is None else _on_board(board, raw)
        return Entry(
            key, raw, int.from_bytes(chunk[10:12], "big"), int.from_bytes(chunk[12:16], "big"), move
        )

    def __getitem__(self, index: int) -> Entry:
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"entry index {index} out of range")
        return self._entry(index)

    def __iter__(self) -> Iterator[Entry]:
        for index in range(len(self)):
            yield self._entry(index)

    def __reversed__(self) -> Iterator[Entry]:
        for index in range(len(self) - 1, -1, -1):
            yield self._entry(index)

    def __contains__(self, entry: object) -> bool:
        if not isinstance(entry, Entry):
            return False
        return any(e == entry for e in self.find_all(entry.key))

    def _first(self, key: int) -> int:
        lo, hi = 0, len(self)
        while lo < hi:
            mid = (lo + hi) // 2
            if self._key_at(mid) < key:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def find_all(
        self, board: Board | int, *, minimum_weight: int = 1, exclude_moves: Container[Move] = ()
    ) -> Iterator[Entry]:
        """The entries for a position (a board, or a Zobrist key), in book order."""
        if isinstance(board, int):
            key, pos = board, None
        else:
            key, pos = zobrist_hash(board), board
        index = self._first(key)
        while index < len(self) and self._key_at(index) == key:
            entry = self._entry(index, pos)
            index += 1
            if entry.weight < minimum_weight:
                continue
            if entry.move in exclude_moves:
                continue
            if pos is not None and not pos.is_legal(entry.move):
                continue
            yield entry

    def find(
        self, board: Board | int, *, minimum_weight: int = 1, exclude_moves: Container[Move] = ()
    ) -> Entry:
        """The entry with the highest weight; ``IndexError`` when there is none."""
        try:
            return max(
                self.find_all(board, minimum_weight=minimum_weight, exclude_moves=exclude_moves),
                key=lambda e: e.weight,
            )
        except ValueError:
            raise IndexError("no book entry for this position") from None

    def get(
        self,
        board: Board | int,
        default: Entry | None = None,
        *,
        minimum_weight: int = 1,
        exclude_moves: Container[Move] = (),
    ) -> Entry | None:
        try:
            return self.find(board, minimum_weight=minimum_weight, exclude_moves=exclude_moves)
        except IndexError:
            return default

    def choice(
        self,
        board: Board | int,
        *,
        minimum_weight: int = 1,
        exclude_moves: Container[Move] = (),
        random: Any = None,
    ) -> Entry:
        """A uniformly random entry (``random`` needs ``randint``)."""
        entries = list(
            self.find_all(board, minimum_weight=minimum_weight, exclude_moves=exclude_moves)
        )
        if not entries:
            raise IndexError("no book entry for this position")
        rng = random or _random
        return entries[rng.randint(0, len(entries) - 1)]

    def weighted_choice(
        self, board: Board | int, *, exclude_moves: Container[Move] = (), random: Any = None
    ) -> Entry:
        """An entry chosen with probability proportional to its weight."""
        entries = list(self.find_all(board, exclude_moves=exclude_moves))
        total = sum(entry.weight for entry in entries)
        if not total:
            raise IndexError("no book entry for this position")
        rng = random or _random
        choice = rng.randint(0, total - 1)
        upto = 0
        for entry in entries:
            upto += entry.weight
            if upto > choice:
                return entry
        return entries[-1]


def open_reader(path: str | os.PathLike[str]) -> MemoryMappedReader:
    """Opens a Polyglot book (use it as a context manager)."""
    return MemoryMappedReader(path)

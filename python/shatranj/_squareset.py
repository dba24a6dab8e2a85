"""``SquareSet``: a set of squares over a 64-bit mask, with python-chess's interface."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import SupportsInt

IntoSquareSet = SupportsInt | Iterable[int]

_ALL = (1 << 64) - 1


def _mask_of(squares: IntoSquareSet) -> int:
    if isinstance(squares, SupportsInt):
        return int(squares) & _ALL
    mask = 0
    for square in squares:
        if not 0 <= square < 64:
            raise IndexError(f"square index {square} out of range 0..=63")
        mask |= 1 << square
    return mask


class SquareSet:
    """A set of squares (ints 0..63), iterated from a1 to h8."""

    __slots__ = ("mask",)

    def __init__(self, squares: IntoSquareSet = 0) -> None:
        self.mask = _mask_of(squares)

    def __iter__(self) -> Iterator[int]:
        mask = self.mask
        while mask:
            low = mask & -mask
            yield low.bit_length() - 1
            mask ^= low

    def __reversed__(self) -> Iterator[int]:
        mask = self.mask
        while mask:
            top = mask.bit_length() - 1
            yield top
            mask ^= 1 << top

    def __len__(self) -> int:
        return bin(self.mask).count("1")

    def __contains__(self, square: object) -> bool:
        return isinstance(square, int) and 0 <= square < 64 and bool(self.mask >> square & 1)

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __eq__(self, other: object) -> bool:
        try:
            return self.mask == _mask_of(other)  # type: ignore[arg-type]
        except (TypeError, ValueError, IndexError):
            return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __and__(self, other: IntoSquareSet) -> SquareSet:
        return SquareSet(self.mask & _mask_of(other))

    __rand__ = __and__

    def __or__(self, other: IntoSquareSet) -> SquareSet:
        return SquareSet(self.mask | _mask_of(other))

    __ror__ = __or__

    def __xor__(self, other: IntoSquareSet) -> SquareSet:
        return SquareSet(self.mask ^ _mask_of(other))

    __rxor__ = __xor__

    def __sub__(self, other: IntoSquareSet) -> SquareSet:
        return SquareSet(self.mask & ~_mask_of(other))

    def __invert__(self) -> SquareSet:
        return SquareSet(~self.mask & _ALL)

    def __lshift__(self, shift: int) -> SquareSet:
        return SquareSet((self.mask << shift) & _ALL)

    def __rshift__(self, shift: int) -> SquareSet:
        return SquareSet(self.mask >> shift)

    def add(self, square: int) -> None:
        self.mask |= _mask_of([square])

    def discard(self, square: int) -> None:
        self.mask &= ~_mask_of([square])

    def remove(self, square: int) -> None:
        bit = _mask_of([square])
        if not self.mask & bit:
            raise KeyError(square)
        self.mask ^= bit

    def pop(self) -> int:
        if not self.mask:
            raise KeyError("pop from empty SquareSet")
        square = (self.mask & -self.mask).bit_length() - 1
        self.mask &= self.mask - 1
        return square

    def clear(self) -> None:
        self.mask = 0

    def copy(self) -> SquareSet:
        return SquareSet(self.mask)

    def isdisjoint(self, other: IntoSquareSet) -> bool:
        return not self.mask & _mask_of(other)

    def issubset(self, other: IntoSquareSet) -> bool:
        return not self.mask & ~_mask_of(other)

    def issuperset(self, other: IntoSquareSet) -> bool:
        return not _mask_of(other) & ~self.mask

    def union(self, other: IntoSquareSet) -> SquareSet:
        return self | other

    def intersection(self, other: IntoSquareSet) -> SquareSet:
        return self & other

    def difference(self, other: IntoSquareSet) -> SquareSet:
        return self - other

    def symmetric_difference(self, other: IntoSquareSet) -> SquareSet:
        return self ^ other

    def update(self, *others: IntoSquareSet) -> None:
        for other in others:
            self.mask |= _mask_of(other)

    def intersection_update(self, *others: IntoSquareSet) -> None:
        for other in others:
            self.mask &= _mask_of(other)

    def difference_update(self, other: IntoSquareSet) -> None:
        self.mask &= ~_mask_of(other)

    def symmetric_difference_update(self, other: IntoSquareSet) -> None:
        self.mask ^= _mask_of(other)

    def __ior__(self, other: IntoSquareSet) -> SquareSet:
        self.mask |= _mask_of(other)
        return self

    def __iand__(self, other: IntoSquareSet) -> SquareSet:
        self.mask &= _mask_of(other)
        return self

    def __ixor__(self, other: IntoSquareSet) -> SquareSet:
        self.mask ^= _mask_of(other)
        return self

    def __isub__(self, other: IntoSquareSet) -> SquareSet:
        self.mask &= ~_mask_of(other)
        return self

    def __ilshift__(self, shift: int) -> SquareSet:
        self.mask = (self.mask << shift) & _ALL
        return self

    def __irshift__(self, shift: int) -> SquareSet:
        self.mask >>= shift
        return self

    def carry_rippler(self) -> Iterator[int]:
        """Every subset of the set, as masks, from the empty one up (the carry-rippler
        trick: ``subset = (subset - mask) & mask``)."""
        subset = 0
        while True:
            yield subset
            subset = (subset - self.mask) & self.mask
            if not subset:
                break

    def mirror(self) -> SquareSet:
        """The set seen from the other side (rank 1 ↔ rank 8)."""
        return SquareSet(int.from_bytes(self.mask.to_bytes(8, "little"), "big"))

    @classmethod
    def from_square(cls, square: int) -> SquareSet:
        return cls(1 << square)

    @classmethod
    def ray(cls, a: int, b: int) -> SquareSet:
        from ._bitboards import ray

        return cls(ray(a, b))

    @classmethod
    def between(cls, a: int, b: int) -> SquareSet:
        from ._bitboards import between

        return cls(between(a, b))

    def tolist(self) -> list[bool]:
        return [bool(self.mask >> square & 1) for square in range(64)]

    def __repr__(self) -> str:
        return f"SquareSet({self.mask:#021_x})"

    def __str__(self) -> str:
        rows = []
        for rank in range(7, -1, -1):
            rows.append(
                " ".join("1" if self.mask >> (rank * 8 + file) & 1 else "." for file in range(8))
            )
        return "\n".join(rows)

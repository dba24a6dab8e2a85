"""``BaseBoard``: python-chess's placement-only board (pieces on squares, nothing else).

It holds any placement (no king, nine queens, pawns on the back rank), since it has no turn
and no rules; it is a small pure-Python class, because nothing in it is on a hot path. The
playing board is the native :class:`shatranj.Board`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from ._core import Board, Piece
from ._squareset import SquareSet

if TYPE_CHECKING:
    from typing_extensions import Self  # the checker's; not a runtime dependency

STARTING_BOARD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
BaseBoardT = TypeVar("BaseBoardT", bound="BaseBoard")


class PlacementMasks(ABC):
    """The bitboards of a placement held as 64 squares of pieces (a1 = 0 … h8 = 63): what
    :class:`BaseBoard` and the setup board share. A subclass gives ``_placement()`` and
    ``promoted``."""

    promoted: int

    @abstractmethod
    def _placement(self) -> list[Piece | None]:
        """The 64 squares, a1 first."""

    def _mask(self, piece_type: int | None = None, color: bool | None = None) -> int:
        out = 0
        for sq, p in enumerate(self._placement()):
            if (
                p is not None
                and (piece_type is None or p.piece_type == piece_type)
                and (color is None or p.color == color)
            ):
                out |= 1 << sq
        return out

    @property
    def occupied(self) -> int:
        return self._mask()

    @property
    def occupied_co(self) -> list[int]:
        return [self._mask(color=False), self._mask(color=True)]

    pawns = property(lambda self: self._mask(1))
    knights = property(lambda self: self._mask(2))
    bishops = property(lambda self: self._mask(3))
    rooks = property(lambda self: self._mask(4))
    queens = property(lambda self: self._mask(5))
    kings = property(lambda self: self._mask(6))

    def king(self, color: Any) -> int | None:
        mask = self._mask(6, bool(color)) & ~self.promoted
        return mask.bit_length() - 1 if mask else None


class BaseBoard(PlacementMasks):
    """Pieces on squares (a1 = 0 … h8 = 63), with python-chess's placement methods."""

    def __init__(self, board_fen: str | None = STARTING_BOARD_FEN) -> None:
        self._squares: list[Piece | None] = [None] * 64
        self.promoted = 0
        if board_fen is not None:
            self.set_board_fen(board_fen)

    @classmethod
    def empty(cls) -> Self:
        return cls(None)

    def clear_board(self) -> None:
        self._squares = [None] * 64
        self.promoted = 0

    def reset_board(self) -> None:
        self.set_board_fen(STARTING_BOARD_FEN)

    def set_board_fen(self, fen: str) -> None:
        """Sets the placement from the first FEN field (``~`` after a piece: promoted)."""
        fen = fen.strip()
        if " " in fen:
            raise ValueError(f"expected position part of fen, got multiple parts: {fen!r}")
        rows = fen.split("/")
        if len(rows) != 8:
            raise ValueError(f"expected 8 rows in position part of fen: {fen!r}")
        squares: list[Piece | None] = [None] * 64
        promoted = 0
        for row_index, row in enumerate(rows):
            rank = 7 - row_index
            file = 0
            previous_was_digit = False
            previous_was_piece = False
            for char in row:
                if char in "12345678":
                    if previous_was_digit:
                        raise ValueError(f"two subsequent digits in position part of fen: {fen!r}")
                    file += int(char)
                    previous_was_digit, previous_was_piece = True, False
                elif char == "~":
                    if not previous_was_piece:
                        raise ValueError(f"'~' not after piece in position part of fen: {fen!r}")
                    promoted |= 1 << (rank * 8 + file - 1)
                    previous_was_digit = previous_was_piece = False
                elif char.lower() in "pnbrqk" and char.isascii():
                    if file >= 8:
                        raise ValueError(f"too many squares in rank of fen: {fen!r}")
                    squares[rank * 8 + file] = Piece.from_symbol(char)
                    file += 1
                    previous_was_digit, previous_was_piece = False, True
                else:
                    raise ValueError(f"invalid character in position part of fen: {fen!r}")
            if file != 8:
                raise ValueError(f"expected 8 columns per row in position part of fen: {fen!r}")
        self._squares = squares
        self.promoted = promoted

    def board_fen(self, *, promoted: bool | None = False) -> str:
        rows = []
        for rank in range(7, -1, -1):
            row = ""
            empty = 0
            for file in range(8):
                piece = self._squares[rank * 8 + file]
                if piece is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += piece.symbol()
                if promoted and self.promoted >> (rank * 8 + file) & 1:
                    row += "~"
            if empty:
                row += str(empty)
            rows.append(row)
        return "/".join(rows)

    def piece_at(self, square: int) -> Piece | None:
        return self._squares[square]

    def piece_type_at(self, square: int) -> int | None:
        piece = self._squares[square]
        return None if piece is None else piece.piece_type

    def color_at(self, square: int) -> bool | None:
        piece = self._squares[square]
        return None if piece is None else piece.color

    def set_piece_at(self, square: int, piece: Piece | None, promoted: bool = False) -> None:
        self._squares[square] = piece
        bit = 1 << square
        self.promoted = (
            (self.promoted | bit) if promoted and piece is not None else (self.promoted & ~bit)
        )

    def remove_piece_at(self, square: int) -> Piece | None:
        piece = self._squares[square]
        self.set_piece_at(square, None)
        return piece

    def piece_map(self, *, mask: int = (1 << 64) - 1) -> dict[int, Piece]:
        return {sq: p for sq, p in enumerate(self._squares) if p is not None and mask >> sq & 1}

    def set_piece_map(self, pieces: Mapping[int, Piece]) -> None:
        self.clear_board()
        for square, piece in pieces.items():
            self.set_piece_at(square, piece)

    def pieces_mask(self, piece_type: int, color: bool) -> int:
        return sum(
            1 << sq
            for sq, p in enumerate(self._squares)
            if p is not None and p.piece_type == piece_type and p.color == color
        )

    def pieces(self, piece_type: int, color: bool) -> SquareSet:
        return SquareSet(self.pieces_mask(piece_type, color))

    def _placement(self) -> list[Piece | None]:
        return self._squares

    def copy(self) -> Self:
        other = type(self).__new__(type(self))
        other._squares = list(self._squares)
        other.promoted = self.promoted
        return other

    __copy__ = copy

    def board(self) -> Board:
        """A playing board with this placement, White to move, no castling (python-chess
        users write ``chess.Board(base.board_fen())``)."""
        return Board(self.board_fen() + " w - - 0 1")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BaseBoard):
            return self._squares == other._squares
        board_fen = getattr(other, "board_fen", None)
        if callable(board_fen):
            return bool(self.board_fen() == board_fen())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like python-chess's

    def __iter__(self) -> Iterator[int]:
        return iter(sq for sq, p in enumerate(self._squares) if p is not None)

    def __str__(self) -> str:
        rows = []
        for rank in range(7, -1, -1):
            rows.append(
                " ".join(
                    p.symbol() if (p := self._squares[rank * 8 + f]) else "." for f in range(8)
                )
            )
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.board_fen()!r})"

    def _repr_svg_(self) -> str:
        from . import svg

        return svg.board(self, size=390)

"""Bitboards as Python ints, with python-chess's names: the ``BB_*`` masks, bit scans, the
shifts and flips, the attack tables of the leapers and ray helpers, the ``STATUS_*`` flags of
``Board.status()``, and ``square_knight_distance``.

A bitboard is an int whose bit ``n`` stands for square ``n`` (a1 = 0 … h8 = 63), the same
layout as the rules crate's ``Bitboard``. Everything here is computed at import from that
layout; nothing is copied from python-chess, only its public names are kept so that code
written against it runs unchanged.
"""

from __future__ import annotations

import enum as _enum
from collections.abc import Iterator as _Iterator

Bitboard = int

BB_EMPTY: Bitboard = 0
BB_ALL: Bitboard = (1 << 64) - 1
BB_SQUARES: list[Bitboard] = [1 << square for square in range(64)]

_FILES = "abcdefgh"
_names: dict[str, Bitboard] = {}
for _square in range(64):
    _names[f"BB_{_FILES[_square & 7].upper()}{(_square >> 3) + 1}"] = 1 << _square

BB_FILES: list[Bitboard] = [0x0101_0101_0101_0101 << file for file in range(8)]
BB_RANKS: list[Bitboard] = [0xFF << (8 * rank) for rank in range(8)]
for _index in range(8):
    _names[f"BB_FILE_{_FILES[_index].upper()}"] = BB_FILES[_index]
    _names[f"BB_RANK_{_index + 1}"] = BB_RANKS[_index]
globals().update(_names)

BB_A1: Bitboard
BB_B1: Bitboard
BB_C1: Bitboard
BB_D1: Bitboard
BB_E1: Bitboard
BB_F1: Bitboard
BB_G1: Bitboard
BB_H1: Bitboard  # noqa: E702,E501
BB_A2: Bitboard
BB_B2: Bitboard
BB_C2: Bitboard
BB_D2: Bitboard
BB_E2: Bitboard
BB_F2: Bitboard
BB_G2: Bitboard
BB_H2: Bitboard  # noqa: E702,E501
BB_A3: Bitboard
BB_B3: Bitboard
BB_C3: Bitboard
BB_D3: Bitboard
BB_E3: Bitboard
BB_F3: Bitboard
BB_G3: Bitboard
BB_H3: Bitboard  # noqa: E702,E501
BB_A4: Bitboard
BB_B4: Bitboard
BB_C4: Bitboard
BB_D4: Bitboard
BB_E4: Bitboard
BB_F4: Bitboard
BB_G4: Bitboard
BB_H4: Bitboard  # noqa: E702,E501
BB_A5: Bitboard
BB_B5: Bitboard
BB_C5: Bitboard
BB_D5: Bitboard
BB_E5: Bitboard
BB_F5: Bitboard
BB_G5: Bitboard
BB_H5: Bitboard  # noqa: E702,E501
BB_A6: Bitboard
BB_B6: Bitboard
BB_C6: Bitboard
BB_D6: Bitboard
BB_E6: Bitboard
BB_F6: Bitboard
BB_G6: Bitboard
BB_H6: Bitboard  # noqa: E702,E501
BB_A7: Bitboard
BB_B7: Bitboard
BB_C7: Bitboard
BB_D7: Bitboard
BB_E7: Bitboard
BB_F7: Bitboard
BB_G7: Bitboard
BB_H7: Bitboard  # noqa: E702,E501
BB_A8: Bitboard
BB_B8: Bitboard
BB_C8: Bitboard
BB_D8: Bitboard
BB_E8: Bitboard
BB_F8: Bitboard
BB_G8: Bitboard
BB_H8: Bitboard  # noqa: E702,E501
BB_FILE_A: Bitboard
BB_FILE_B: Bitboard
BB_FILE_C: Bitboard
BB_FILE_D: Bitboard  # noqa: E702
BB_FILE_E: Bitboard
BB_FILE_F: Bitboard
BB_FILE_G: Bitboard
BB_FILE_H: Bitboard  # noqa: E702
BB_RANK_1: Bitboard
BB_RANK_2: Bitboard
BB_RANK_3: Bitboard
BB_RANK_4: Bitboard  # noqa: E702
BB_RANK_5: Bitboard
BB_RANK_6: Bitboard
BB_RANK_7: Bitboard
BB_RANK_8: Bitboard  # noqa: E702

BB_CORNERS: Bitboard = BB_SQUARES[0] | BB_SQUARES[7] | BB_SQUARES[56] | BB_SQUARES[63]
BB_CENTER: Bitboard = BB_SQUARES[27] | BB_SQUARES[28] | BB_SQUARES[35] | BB_SQUARES[36]
BB_DARK_SQUARES: Bitboard = sum(1 << sq for sq in range(64) if (sq & 7) % 2 == (sq >> 3) % 2)
BB_LIGHT_SQUARES: Bitboard = ~BB_DARK_SQUARES & BB_ALL
BB_BACKRANKS: Bitboard = BB_RANKS[0] | BB_RANKS[7]


def lsb(bb: Bitboard) -> int:
    return (bb & -bb).bit_length() - 1


def msb(bb: Bitboard) -> int:
    return bb.bit_length() - 1


def scan_forward(bb: Bitboard) -> _Iterator[int]:
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def scan_reversed(bb: Bitboard) -> _Iterator[int]:
    while bb:
        top = bb.bit_length() - 1
        yield top
        bb ^= 1 << top


def popcount(bb: Bitboard) -> int:
    return bin(bb).count("1")


def material_errors(white: Bitboard, black: Bitboard, pawns: Bitboard) -> int:
    """The ``STATUS_*`` flags of too many pieces or pawns a side (shared by every board's
    ``status()``)."""
    errors = 0
    if popcount(white) > 16:
        errors |= Status.TOO_MANY_WHITE_PIECES
    if popcount(black) > 16:
        errors |= Status.TOO_MANY_BLACK_PIECES
    if popcount(white & pawns) > 8:
        errors |= Status.TOO_MANY_WHITE_PAWNS
    if popcount(black & pawns) > 8:
        errors |= Status.TOO_MANY_BLACK_PAWNS
    return errors


def _remap(bb: Bitboard, target: list[int]) -> Bitboard:
    out = 0
    for square in scan_forward(int(bb) & BB_ALL):
        out |= 1 << target[square]
    return out


_FLIP_VERTICAL = [sq ^ 56 for sq in range(64)]
_FLIP_HORIZONTAL = [sq ^ 7 for sq in range(64)]
_FLIP_DIAGONAL = [(sq & 7) * 8 + (sq >> 3) for sq in range(64)]  # a1-h8 stays
_FLIP_ANTI_DIAGONAL = [(7 - (sq & 7)) * 8 + (7 - (sq >> 3)) for sq in range(64)]  # a8-h1 stays


def flip_vertical(bb: Bitboard) -> Bitboard:
    """Rank 1 ↔ rank 8."""
    return _remap(bb, _FLIP_VERTICAL)


def flip_horizontal(bb: Bitboard) -> Bitboard:
    """File a ↔ file h."""
    return _remap(bb, _FLIP_HORIZONTAL)


def flip_diagonal(bb: Bitboard) -> Bitboard:
    """Mirrored in the a1-h8 diagonal."""
    return _remap(bb, _FLIP_DIAGONAL)


def flip_anti_diagonal(bb: Bitboard) -> Bitboard:
    """Mirrored in the a8-h1 diagonal."""
    return _remap(bb, _FLIP_ANTI_DIAGONAL)


_NOT_A = ~BB_FILES[0] & BB_ALL
_NOT_H = ~BB_FILES[7] & BB_ALL
_NOT_AB = ~(BB_FILES[0] | BB_FILES[1]) & BB_ALL
_NOT_GH = ~(BB_FILES[6] | BB_FILES[7]) & BB_ALL


def shift_down(b: Bitboard) -> Bitboard:
    return b >> 8


def shift_2_down(b: Bitboard) -> Bitboard:
    return b >> 16


def shift_up(b: Bitboard) -> Bitboard:
    return (b << 8) & BB_ALL


def shift_2_up(b: Bitboard) -> Bitboard:
    return (b << 16) & BB_ALL


def shift_right(b: Bitboard) -> Bitboard:
    return (b << 1) & _NOT_A


def shift_2_right(b: Bitboard) -> Bitboard:
    return (b << 2) & _NOT_AB


def shift_left(b: Bitboard) -> Bitboard:
    return (b >> 1) & _NOT_H


def shift_2_left(b: Bitboard) -> Bitboard:
    return (b >> 2) & _NOT_GH


def shift_up_left(b: Bitboard) -> Bitboard:
    return (b << 7) & _NOT_H & BB_ALL


def shift_up_right(b: Bitboard) -> Bitboard:
    return (b << 9) & _NOT_A & BB_ALL


def shift_down_left(b: Bitboard) -> Bitboard:
    return (b >> 9) & _NOT_H


def shift_down_right(b: Bitboard) -> Bitboard:
    return (b >> 7) & _NOT_A


def _steps(deltas: list[tuple]) -> list[Bitboard]:
    table = []
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        table.append(
            sum(
                1 << ((r + dr) * 8 + f + df)
                for df, dr in deltas
                if 0 <= f + df < 8 and 0 <= r + dr < 8
            )
        )
    return table


BB_KNIGHT_ATTACKS: list[Bitboard] = _steps(
    [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
)
BB_KING_ATTACKS: list[Bitboard] = _steps(
    [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
)
BB_PAWN_ATTACKS: list[list[Bitboard]] = [
    _steps([(-1, -1), (1, -1)]),
    _steps([(-1, 1), (1, 1)]),
]  # [BLACK, WHITE]


def _line(a: int, b: int, *, full: bool) -> Bitboard:
    """The squares on the line through ``a`` and ``b`` (``full``: edge to edge, else strictly
    between them); empty when they share no rank, file or diagonal."""
    df = (b & 7) - (a & 7)
    dr = (b >> 3) - (a >> 3)
    if a == b or not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return 0
    step_f = (df > 0) - (df < 0)
    step_r = (dr > 0) - (dr < 0)
    out = 0
    if full:
        f, r = a & 7, a >> 3
        while 0 <= f - step_f < 8 and 0 <= r - step_r < 8:
            f, r = f - step_f, r - step_r
        while 0 <= f < 8 and 0 <= r < 8:
            out |= 1 << (r * 8 + f)
            f, r = f + step_f, r + step_r
        return out
    f, r = (a & 7) + step_f, (a >> 3) + step_r
    while r * 8 + f != b:
        out |= 1 << (r * 8 + f)
        f, r = f + step_f, r + step_r
    return out


BB_RAYS: list[list[Bitboard]] = [[_line(a, b, full=True) for b in range(64)] for a in range(64)]


def ray(a: int, b: int) -> Bitboard:
    """The whole line (edge to edge) through two squares, or ``BB_EMPTY``."""
    return BB_RAYS[a][b]


def between(a: int, b: int) -> Bitboard:
    """The squares strictly between two aligned squares, or ``BB_EMPTY``."""
    return _line(a, b, full=False)


_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _slide(square: int, occupied: int, directions: tuple) -> Bitboard:
    out = 0
    for df, dr in directions:
        f, r = (square & 7) + df, (square >> 3) + dr
        while 0 <= f < 8 and 0 <= r < 8:
            bit = 1 << (r * 8 + f)
            out |= bit
            if occupied & bit:
                break
            f, r = f + df, r + dr
    return out


def piece_attacks(piece_type: int, color: bool, square: int, occupied: Bitboard) -> Bitboard:
    """The squares a piece on ``square`` attacks, given the occupied squares (a pawn
    attacks its two forward diagonals only)."""
    if piece_type == 1:
        return BB_PAWN_ATTACKS[int(color)][square]
    if piece_type == 2:
        return BB_KNIGHT_ATTACKS[square]
    if piece_type == 6:
        return BB_KING_ATTACKS[square]
    out = 0
    if piece_type in (3, 5):
        out |= _slide(square, occupied, _DIAGONAL)
    if piece_type in (4, 5):
        out |= _slide(square, occupied, _ORTHOGONAL)
    return out


_KNIGHT_DISTANCE: list[list[int]] = []


def square_knight_distance(a: int, b: int) -> int:
    """The fewest knight moves from ``a`` to ``b`` (a breadth-first search, made once)."""
    if not _KNIGHT_DISTANCE:
        for start in range(64):
            dist = [-1] * 64
            dist[start] = 0
            frontier = [start]
            while frontier:
                following = []
                for sq in frontier:
                    for to in scan_forward(BB_KNIGHT_ATTACKS[sq]):
                        if dist[to] < 0:
                            dist[to] = dist[sq] + 1
                            following.append(to)
                frontier = following
            _KNIGHT_DISTANCE.append(dist)
    return _KNIGHT_DISTANCE[a][b]


class Status(_enum.IntFlag):
    """What ``Board.status()`` finds wrong with a position (python-chess's flag values)."""

    VALID = 0
    NO_WHITE_KING = 1 << 0
    NO_BLACK_KING = 1 << 1
    TOO_MANY_KINGS = 1 << 2
    TOO_MANY_WHITE_PAWNS = 1 << 3
    TOO_MANY_BLACK_PAWNS = 1 << 4
    PAWNS_ON_BACKRANK = 1 << 5
    TOO_MANY_WHITE_PIECES = 1 << 6
    TOO_MANY_BLACK_PIECES = 1 << 7
    BAD_CASTLING_RIGHTS = 1 << 8
    INVALID_EP_SQUARE = 1 << 9
    OPPOSITE_CHECK = 1 << 10
    EMPTY = 1 << 11
    RACE_CHECK = 1 << 12
    RACE_OVER = 1 << 13
    RACE_MATERIAL = 1 << 14
    TOO_MANY_CHECKERS = 1 << 15
    IMPOSSIBLE_CHECK = 1 << 16


for _flag in Status.__members__.values():  # includes VALID (0), which iteration skips
    globals()[f"STATUS_{_flag.name}"] = _flag
STATUS_VALID: Status
STATUS_NO_WHITE_KING: Status
STATUS_NO_BLACK_KING: Status
STATUS_TOO_MANY_KINGS: Status
STATUS_TOO_MANY_WHITE_PAWNS: Status
STATUS_TOO_MANY_BLACK_PAWNS: Status
STATUS_PAWNS_ON_BACKRANK: Status
STATUS_TOO_MANY_WHITE_PIECES: Status
STATUS_TOO_MANY_BLACK_PIECES: Status
STATUS_BAD_CASTLING_RIGHTS: Status
STATUS_INVALID_EP_SQUARE: Status
STATUS_OPPOSITE_CHECK: Status
STATUS_EMPTY: Status
STATUS_RACE_CHECK: Status
STATUS_RACE_OVER: Status
STATUS_RACE_MATERIAL: Status
STATUS_TOO_MANY_CHECKERS: Status
STATUS_IMPOSSIBLE_CHECK: Status

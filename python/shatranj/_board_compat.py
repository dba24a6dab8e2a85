"""python-chess ``Board`` methods the native board lacks, written in Python and attached to
:class:`shatranj.Board` when the package is imported: EPD operations (``set_epd``,
``from_epd``) and the XBoard move notation (``xboard``, ``parse_xboard``, ``push_xboard``),
which the engine clients and python-chess's own engine tests use, plus the class attributes
``uci_variant`` (``"chess"``) and ``xboard_variant`` (``"normal"``).

They sit on top of the native methods (``set_fen``, ``parse_san``, ``push_san``, ``uci``);
the rules stay in Rust. An EPD's operations are ``opcode operand...;`` groups; the operand
kinds are python-chess's: a quoted string (``\\"``, ``\\\\``, ``\\n``, ``\\r``, ``\\t``
escapes), a number (int, or float when it has ``.`` or an exponent), or moves in SAN: a set
for ``bm``/``am``, a line played move by move for ``pv``, one move otherwise.
"""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Tuple, Type, TypeVar, Union

from ._core import Board, Move

EpdValue = Union[None, str, int, float, Move, List[Move]]
BoardT = TypeVar("BoardT", bound=Board)

_MOVE_LIST_OPCODES = ("bm", "am", "pv")
_BLANKS = " \t\r\n"


def _operations(text: str, position: str) -> Dict[str, EpdValue]:
    """The operations of an EPD, whose move operands are read in ``position`` (a FEN)."""
    operations: Dict[str, EpdValue] = {}
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in _BLANKS + ";":
            i += 1
        if i >= n:
            break
        start = i
        while i < n and text[i] not in _BLANKS + ";":
            i += 1
        opcode = text[start:i]
        if opcode == "-":
            continue
        if not opcode[0].isalpha():
            raise ValueError(f"expected epd opcode to start with a letter, got: {opcode!r}")
        while i < n and text[i] in _BLANKS:
            i += 1
        if i >= n or text[i] == ";":
            operations[opcode] = [] if opcode in _MOVE_LIST_OPCODES else None
            i += 1
            continue
        if text[i] == '"':
            value, i = _string(text, i + 1)
            operations[opcode] = value
            continue
        end = text.find(";", i)
        end = n if end < 0 else end
        operand = text[i:end].strip()
        i = end + 1
        if operand[0] in "+-.0123456789":
            operations[opcode] = _number(opcode, operand)
        else:
            operations[opcode] = _moves(opcode, operand, position)
    return operations


def _string(text: str, i: int) -> Tuple[str, int]:
    out: List[str] = []
    escapes = {"n": "\n", "r": "\r", "t": "\t"}
    while i < len(text):
        char = text[i]
        i += 1
        if char == '"':
            return "".join(out), i
        if char == "\\" and i < len(text):
            out.append(escapes.get(text[i], text[i]))
            i += 1
        else:
            out.append(char)
    return "".join(out), i  # an unterminated string runs to the end, as in python-chess


def _number(opcode: str, operand: str) -> Union[int, float]:
    if any(mark in operand for mark in ".eE"):
        value = float(operand)
        if not math.isfinite(value):
            raise ValueError(f"invalid numeric operand for epd operation {opcode!r}: {operand!r}")
        return value
    return int(operand)


def _moves(opcode: str, operand: str, position: str) -> Union[Move, List[Move]]:
    board = Board(position)
    if opcode == "pv":
        return [board.push_san(token) for token in operand.split()]
    if opcode in ("bm", "am"):
        return [board.parse_san(token) for token in operand.split()]
    return board.parse_san(operand)


def set_epd(self: Board, epd: str) -> Dict[str, EpdValue]:
    """Sets the position of an EPD line and returns its operations (``hmvc`` and ``fmvn``
    set the clocks); the move stack is cleared."""
    parts = epd.strip().rstrip(";").split(None, 4)
    if len(parts) < 4:
        raise ValueError(f"an EPD needs four fields before its operations: {epd!r}")
    position = " ".join(parts[:4])
    operations = _operations(parts[4], position + " 0 1") if len(parts) > 4 else {}
    halfmove = operations.get("hmvc", 0)
    fullmove = operations.get("fmvn", 1)
    self.set_fen(f"{position} {halfmove} {fullmove}")
    return operations


def from_epd(cls: Type[BoardT], epd: str, *, chess960: bool = False) -> Tuple[BoardT, Dict[str, EpdValue]]:
    """A new board at an EPD's position, and its operations."""
    board = cls(chess960=chess960)
    return board, set_epd(board, epd)


def xboard(self: Board, move: Move, chess960: Optional[bool] = None) -> str:
    """``move`` as XBoard writes it: coordinates (``@@@@`` for the null move); shatranj has
    no Chess960, whose castling XBoard writes ``O-O``."""
    return move.uci() if move else "@@@@"


def parse_xboard(self: Board, xboard: str) -> Move:
    """A move as XBoard engines write it (SAN or coordinates)."""
    return self.parse_san(xboard)


def push_xboard(self: Board, xboard: str) -> Move:
    """Plays a move written as XBoard engines write it; returns it."""
    return self.push_san(xboard)


def install() -> None:
    for name, value in (
        ("set_epd", set_epd),
        ("from_epd", classmethod(from_epd)),
        ("xboard", xboard),
        ("parse_xboard", parse_xboard),
        ("push_xboard", push_xboard),
        ("uci_variant", "chess"),
        ("xboard_variant", "normal"),
    ):
        if name not in Board.__dict__:  # a native version wins
            setattr(Board, name, value)

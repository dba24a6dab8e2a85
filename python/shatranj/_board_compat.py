"""python-chess ``Board`` methods the native board lacks, written in Python and attached to
:class:`shatranj.Board` when the package is imported: EPD operations (``set_epd``,
``from_epd``, and ``epd(**operations)``), the transforms (``transform``,
``apply_transform``), and the edits, ``status()`` and Chess960 set-ups that go through
setup mode (``shatranj._setup``). The rest of python-chess's extras (XBoard notation, the
``generate_*`` family with masks, ``attacks``, ``is_irreversible``, ``apply_mirror``,
``reset``, ``shredder_fen``, ``empty``, the variant names) are native
(``rust/python/src/board/compat.rs``). None of these is on a hot path.

They sit on top of the native methods (``set_fen``, ``parse_san``, ``push_san``, ``uci``);
the rules stay in Rust. An EPD's operations are ``opcode operand...;`` groups; the operand
kinds are python-chess's: a quoted string (``\\"``, ``\\\\``, ``\\n``, ``\\r``, ``\\t``
escapes), a number (int, or float when it has ``.`` or an exponent), or moves in SAN: a set
for ``bm``/``am``, a line played move by move for ``pv``, one move otherwise.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Optional, Tuple, Type, TypeVar, Union

from ._core import Board, Move
from . import _bitboards as bb

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


# --- EPD writing -----------------------------------------------------------------------------


def _epd_operand(board: Board, opcode: str, operand: EpdValue) -> str:
    if operand is None:
        return f"{opcode};"
    if isinstance(operand, Move):
        return f"{opcode} {board.san(operand) if operand else '0000'};"
    if isinstance(operand, bool):
        raise TypeError(f"invalid epd operand for {opcode!r}: {operand!r}")
    if isinstance(operand, int):
        return f"{opcode} {operand};"
    if isinstance(operand, float):
        if not math.isfinite(operand):
            raise ValueError(f"expected finite float for epd operation {opcode!r}, got {operand!r}")
        return f"{opcode} {operand};"
    if isinstance(operand, str):
        escaped = operand.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
        return f'{opcode} "{escaped}";'
    moves = list(operand)
    if opcode == "pv":
        line = board.copy(stack=False)
        sans = []
        for move in moves:
            sans.append(line.san(move))
            line.push(move)
        return f"{opcode} {' '.join(sans)};" if sans else f"{opcode};"
    sans = sorted(board.san(move) for move in moves)
    return f"{opcode} {' '.join(sans)};" if sans else f"{opcode};"


def epd(self: Board, *, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None, **operations: EpdValue) -> str:
    """The EPD of the position (FEN without the clocks), then ``operations`` written as
    ``opcode operand;``: moves in SAN (a sorted set for ``bm``/``am``, a line for ``pv``),
    numbers, quoted strings, or ``None`` for a bare opcode."""
    text = _native_epd(self, shredder=shredder, en_passant=en_passant, promoted=promoted)
    if not operations:
        return text
    for opcode in operations:
        if not opcode or not opcode[0].isalpha() or not all(c.isalnum() or c == "_" for c in opcode):
            raise ValueError(f"invalid epd opcode: {opcode!r}")
    return text + " " + " ".join(_epd_operand(self, opcode, value) for opcode, value in operations.items())


# --- transforms -----------------------------------------------------------------------------


def transform(self: Board, f: Callable[[int], int]) -> Board:
    """A copy with every bitboard passed through ``f`` (``chess.flip_vertical`` …); the
    side to move, clocks and castling rights (re-derived from the moved rooks) are kept."""
    placement: Dict[int, Any] = {}
    for square in range(64):
        piece = self.piece_at(square)
        if piece is not None:
            target = int(f(1 << square))
            placement[target.bit_length() - 1] = piece
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            piece = placement.get(rank * 8 + file)
            if piece is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + piece.symbol()
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    fields = self.fen().split()
    board = Board("/".join(rows) + f" {fields[1]} - - {fields[4]} {fields[5]}")
    return board


def apply_transform(self: Board, f: Callable[[int], int]) -> None:
    self.set_fen(transform(self, f).fen())


# --- edits, status and Chess960 (see shatranj._setup) -----------------------------------------


def _edit(board: Board) -> Any:
    from . import _setup

    return _setup.state_of(board)


def _commit(board: Board, setup: Any) -> None:
    from . import _setup

    _setup.adopt(board, setup)


def set_piece_at(self: Board, square: int, piece: Any, promoted: bool = False) -> None:
    """Puts ``piece`` (or nothing, for ``None``) on ``square``; any placement is allowed
    (``status()`` says what is wrong). The move stack is cleared, as in python-chess."""
    setup = _edit(self)
    setup.set_piece_at(square, piece, promoted)
    _commit(self, setup)


def remove_piece_at(self: Board, square: int) -> Any:
    """Removes and returns the piece on ``square`` (``None`` if empty)."""
    piece = self.piece_at(square)
    set_piece_at(self, square, None)
    return piece


def set_piece_map(self: Board, pieces: Any) -> None:
    setup = _edit(self)
    setup.clear_board()
    for square, piece in dict(pieces).items():
        setup.set_piece_at(square, piece)
    _commit(self, setup)


def set_board_fen(self: Board, fen: str) -> None:
    """Sets the placement (the first FEN field); turn, castling rights and clocks stay."""
    setup = _edit(self)
    setup.set_board_fen(fen)
    _commit(self, setup)


def clear_board(self: Board) -> None:
    set_piece_map(self, {})


def clear(self: Board) -> None:
    """An empty board, White to move, no castling rights or en-passant square, clocks reset."""
    from ._setup import SetupBoard

    _commit(self, SetupBoard.from_fen(None, chess960=bool(self.chess960)))


def set_castling_fen(self: Board, castling_fen: str) -> None:
    setup = _edit(self)
    setup.set_castling_fen(castling_fen)
    _commit(self, setup)


def clean_castling_rights(self: Board) -> int:
    """The castling rights that can be used: each right's rook and king on their squares."""
    setup = self._setup
    if setup is not None:
        return int(setup.clean_castling_rights())
    if not self.move_stack:
        return int(_edit(self).clean_castling_rights())
    return int(self.castling_rights)


def has_chess960_castling_rights(self: Board) -> bool:
    """Whether the castling rights include one that only Chess960 has (a king off the
    e-file, or a rook off the corners)."""
    setup = _edit(self)
    setup.chess960 = True
    rights = setup.clean_castling_rights()
    if rights & ~bb.BB_CORNERS:
        return True
    for color, king_square in ((True, 4), (False, 60)):
        backrank = bb.BB_RANK_1 if color else bb.BB_RANK_8
        if rights & backrank and setup.king(color) != king_square:
            return True
    return False


def status(self: Board) -> Any:
    """What is wrong with the position, as python-chess's ``STATUS_*`` flags
    (``STATUS_VALID``, 0, when nothing is)."""
    setup = self._setup
    if setup is not None:
        return setup.status()
    if not self.is_check() and not self.chess960:
        return _native_status(self)
    state = _edit(self)
    if self.move_stack:
        state._stack = [None]  # after a move the rights are clean, as python-chess has them
    return state.status()


def _native_status(board: Board) -> Any:
    """``status()`` of a native board not in check, from its bitboards: the native position
    has one king a side, no pawn on a back rank and no opposite check, so only the counts,
    the castling rights and the en-passant square are left to look at."""
    errors = 0
    black, white = board.occupied_co
    pawns, kings = board.pawns, board.kings
    errors |= bb.material_errors(white, black, pawns)
    rights = board.castling_rights
    if rights:
        clean = rights & board.rooks & bb.BB_CORNERS
        clean &= (white & bb.BB_RANK_1) | (black & bb.BB_RANK_8)
        if not kings & white & bb.BB_E1:
            clean &= ~bb.BB_RANK_1
        if not kings & black & bb.BB_E8:
            clean &= ~bb.BB_RANK_8
        if clean != rights:
            errors |= bb.STATUS_BAD_CASTLING_RIGHTS
    ep = board.ep_square
    if ep is not None:
        turn = board.turn
        step = -8 if turn else 8
        theirs = black if turn else white
        if (ep >> 3) != (5 if turn else 2) or not (pawns & theirs) >> (ep + step) & 1 or board.occupied >> ep & 1 or board.occupied >> (ep - step) & 1:
            errors |= bb.STATUS_INVALID_EP_SQUARE
    return bb.Status(errors)


def is_valid(self: Board) -> bool:
    return bool(status(self) == bb.STATUS_VALID)


def _promoted(self: Board) -> int:
    setup = self._setup
    return 0 if setup is None else int(setup.promoted)


def from_chess960_pos(cls: Type[BoardT], scharnagl: int) -> BoardT:
    """Chess960 start position ``scharnagl`` (0..959) on a Chess960 board."""
    board = cls(None, chess960=True)
    set_chess960_pos(board, scharnagl)
    return board


def set_chess960_pos(self: Board, scharnagl: int) -> None:
    """Sets up Chess960 start position ``scharnagl`` (518 is the standard one), with
    castling rights for its rooks; the board's ``chess960`` flag stays as it is."""
    from ._setup import SetupBoard, chess960_placement

    white = chess960_placement(scharnagl)
    setup = SetupBoard.from_fen(f"{white.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w - - 0 1", chess960=bool(self.chess960))
    setup.castling_rights = setup.rooks & bb.BB_BACKRANKS
    _commit(self, setup)


def chess960_pos(self: Board, *, ignore_turn: bool = False, ignore_castling: bool = False, ignore_counters: bool = True) -> Optional[int]:
    """The Chess960 start position index of the board, or ``None``."""
    from ._setup import chess960_index

    index = chess960_index(self.board_fen())
    if index is None:
        return None
    if not ignore_turn and not self.turn:
        return None
    if not ignore_counters and (self.halfmove_clock != 0 or self.fullmove_number != 1):
        return None
    if self.ep_square is not None:
        return None
    return index


_native_epd: Any = Board.epd


def install() -> None:
    for name, value in (
        ("set_epd", set_epd),
        ("from_epd", classmethod(from_epd)),
        ("transform", transform),
        ("apply_transform", apply_transform),
        ("set_piece_at", set_piece_at),
        ("remove_piece_at", remove_piece_at),
        ("set_piece_map", set_piece_map),
        ("set_board_fen", set_board_fen),
        ("clear_board", clear_board),
        ("clear", clear),
        ("set_castling_fen", set_castling_fen),
        ("clean_castling_rights", clean_castling_rights),
        ("status", status),
        ("has_chess960_castling_rights", has_chess960_castling_rights),
        ("promoted", property(_promoted)),
        ("from_chess960_pos", classmethod(from_chess960_pos)),
        ("set_chess960_pos", set_chess960_pos),
        ("chess960_pos", chess960_pos),
    ):
        if name not in Board.__dict__:  # a native version wins
            setattr(Board, name, value)
    # Python versions that replace native ones: EPD operations, and validity in setup mode.
    Board.epd = epd  # type: ignore[method-assign,assignment]
    Board.is_valid = is_valid  # type: ignore[method-assign,assignment]

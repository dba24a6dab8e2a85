"""Setup mode: boards the native position refuses, played by the rules crate's ``Setup``.

python-chess's board holds any placement (no king, nine queens, pawns on the back rank, the
side not to move in check) and Chess960, and ``status()`` says what is wrong. shatranj's
native board plays legal standard positions only, fast (the hot path). A FEN or an edit it
refuses is resolved here (:func:`resolve_fen`, :func:`adopt`):

* if cleaning the castling rights and dropping an impossible en-passant square makes it a
  legal position, the native board plays that, and remembers the rights and square as given
  for ``castling_rights``, ``ep_square`` and ``status()``;
* otherwise (and always for Chess960) the native board enters *setup mode*: it holds a
  :class:`SetupBoard` and hands every method to it.

Every rule of setup mode (status, castling rights, python-chess's move generation and order,
make-move, SAN/LAN/UCI, FEN) is the rules crate's (``shatranj._core.Setup``, over
``shatranj_chess::Setup``). :class:`SetupBoard` keeps what only Python needs: the move stack,
the python-chess method names, the game-end questions asked of the legal move list, and text.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Tuple

from . import _bitboards as bb
from ._core import IllegalMoveError, Move, Piece, Setup
from ._squareset import SquareSet


class SetupBoard:
    """A python-chess board state over a ``shatranj._core.Setup``: see the module docs."""

    def __init__(self, setup: Optional[Setup] = None) -> None:
        self._s: Setup = Setup() if setup is None else setup
        self._stack: List[Tuple[Move, Setup]] = []
        self._root: Optional[Setup] = None

    # --- state -------------------------------------------------------------------------------

    turn = property(lambda self: self._s.turn, lambda self, v: setattr(self._s, "turn", bool(v)))
    castling_rights = property(lambda self: self._s.castling_rights, lambda self, v: setattr(self._s, "castling_rights", int(v) & bb.BB_ALL))
    ep_square = property(lambda self: self._s.ep_square, lambda self, v: setattr(self._s, "ep_square", v))
    halfmove_clock = property(lambda self: self._s.halfmove_clock, lambda self, v: setattr(self._s, "halfmove_clock", int(v)))
    fullmove_number = property(lambda self: self._s.fullmove_number, lambda self, v: setattr(self._s, "fullmove_number", int(v)))
    chess960 = property(lambda self: self._s.chess960, lambda self, v: setattr(self._s, "chess960", bool(v)))
    promoted = property(lambda self: self._s.promoted, lambda self, v: setattr(self._s, "promoted", int(v) & bb.BB_ALL))

    def copy(self, stack: Any = None) -> SetupBoard:
        other = SetupBoard(self._s.copy())
        keep = len(self._stack) if stack is None or stack is True else (0 if stack is False else max(0, min(int(stack), len(self._stack))))
        other._stack = list(self._stack[len(self._stack) - keep :]) if keep else []
        other._root = self._root if keep == len(self._stack) else (other._stack[0][1] if other._stack else None)
        return other

    def root(self) -> SetupBoard:
        if self._stack:
            return SetupBoard(self._stack[0][1].copy())
        return SetupBoard((self._root or self._s).copy())

    def reduce_board(self) -> Tuple[Any, Tuple[Any, ...]]:
        return (board_from_fen, (self.fen(False, "fen", None), self.chess960))

    # --- placement ---------------------------------------------------------------------------

    def _mask(self, piece_type: Optional[int] = None, color: Optional[bool] = None) -> int:
        return int(self._s.mask(piece_type, None if color is None else bool(color)))

    occupied = property(lambda self: self._s.mask())
    occupied_co = property(lambda self: [self._s.mask(None, False), self._s.mask(None, True)])
    pawns = property(lambda self: self._s.mask(1))
    knights = property(lambda self: self._s.mask(2))
    bishops = property(lambda self: self._s.mask(3))
    rooks = property(lambda self: self._s.mask(4))
    queens = property(lambda self: self._s.mask(5))
    kings = property(lambda self: self._s.mask(6))

    def king(self, color: Any) -> Optional[int]:
        return self._s.king(bool(color))

    def piece_at(self, square: int) -> Optional[Piece]:
        return self._s.piece_at(_square(square))

    def piece_type_at(self, square: int) -> Optional[int]:
        p = self.piece_at(square)
        return None if p is None else p.piece_type

    def color_at(self, square: int) -> Optional[bool]:
        p = self.piece_at(square)
        return None if p is None else p.color

    def set_piece_at(self, square: int, piece: Optional[Piece], promoted: bool = False) -> None:
        if piece is None:
            self._s.set_piece_at(_square(square), None, True, False)
        else:
            self._s.set_piece_at(_square(square), piece.piece_type, bool(piece.color), bool(promoted))

    def clear_board(self) -> None:
        self._s.set_board_fen("8/8/8/8/8/8/8/8")

    def pieces_mask(self, piece_type: int, color: Any) -> int:
        return self._mask(piece_type, bool(color))

    def pieces(self, piece_type: int, color: Any) -> SquareSet:
        return SquareSet(self.pieces_mask(piece_type, color))

    def set_board_fen(self, fen: str) -> None:
        self._s.set_board_fen(fen)

    # --- attacks -----------------------------------------------------------------------------

    def attackers_mask(self, color: Any, square: int) -> int:
        return int(self._s.attackers_mask(bool(color), _square(square)))

    def attackers(self, color: Any, square: int) -> SquareSet:
        return SquareSet(self.attackers_mask(color, square))

    def is_attacked_by(self, color: Any, square: int) -> bool:
        return bool(self.attackers_mask(color, square))

    def attacks_mask(self, square: int) -> int:
        return int(self._s.attacks_mask(_square(square)))

    def checkers(self) -> SquareSet:
        return SquareSet(self._s.checkers_mask())

    def is_check(self) -> bool:
        return bool(self._s.checkers_mask())

    def pin_mask(self, color: Any, square: int) -> int:
        return int(self._s.pin_mask(bool(color), _square(square)))

    def pin(self, color: Any, square: int) -> SquareSet:
        return SquareSet(self.pin_mask(color, square))

    def is_pinned(self, color: Any, square: int) -> bool:
        return self.pin_mask(color, square) != bb.BB_ALL

    # --- castling rights and status ----------------------------------------------------------

    def clean_castling_rights(self) -> int:
        # In a game, rights are cleaned before every move and only lost after (python-chess).
        return int(self.castling_rights if self._stack else self._s.clean_castling_rights())

    def has_castling_rights(self, color: Any) -> bool:
        return bool(self.clean_castling_rights() & (bb.BB_RANK_1 if color else bb.BB_RANK_8))

    def _side_rights(self, color: Any, a_side: bool) -> bool:
        king = self.king(color)
        if king is None:
            return False
        rooks = self.clean_castling_rights() & (bb.BB_RANK_1 if color else bb.BB_RANK_8)
        return any((sq < king) == a_side for sq in bb.scan_forward(rooks))

    def has_kingside_castling_rights(self, color: Any) -> bool:
        return self._side_rights(color, False)

    def has_queenside_castling_rights(self, color: Any) -> bool:
        return self._side_rights(color, True)

    def set_castling_fen(self, castling_fen: str) -> None:
        self._s.set_castling_fen(castling_fen)

    def status(self) -> Any:
        return bb.Status(self._s.status())

    def is_valid(self) -> bool:
        return self.status() == bb.STATUS_VALID

    # --- moves -------------------------------------------------------------------------------

    def legal_move_list(self) -> List[Move]:
        return self._s.legal_moves()

    def pseudo_legal_move_list(self) -> List[Move]:
        return self._s.pseudo_legal_moves()

    def count_legal(self) -> int:
        return int(self._s.count_legal())

    def legal_sans(self) -> List[str]:
        return [self._s.san(m) for m in self._s.legal_moves()]

    def generate_legal_moves(self) -> Iterator[Move]:
        return iter(self._s.legal_moves())

    def is_legal(self, move: Move) -> bool:
        return bool(move) and self._s.legal_form(move) is not None

    def is_pseudo_legal(self, move: Move) -> bool:
        return bool(move) and bool(self._s.is_pseudo_legal(move))

    def is_capture(self, move: Move) -> bool:
        return bool(self._s.is_capture(move))

    def is_en_passant(self, move: Move) -> bool:
        return bool(self._s.is_en_passant(move))

    def is_castling(self, move: Move) -> bool:
        return bool(self._s.is_castling(move))

    def is_kingside_castling(self, move: Move) -> bool:
        return bool(self._s.is_kingside_castling(move))

    def is_queenside_castling(self, move: Move) -> bool:
        return bool(self._s.is_queenside_castling(move))

    def is_zeroing(self, move: Move) -> bool:
        return bool(self._s.is_zeroing(move))

    def has_legal_en_passant(self) -> bool:
        return bool(self._s.has_legal_en_passant())

    def gives_check(self, move: Move) -> bool:
        after = self._s.copy()
        after.push(move)
        return bool(after.checkers_mask())

    # --- playing -----------------------------------------------------------------------------

    def push(self, move: Move) -> None:
        # Copy on write: the states on the stack are never changed, so copies of this board
        # may share them. The rules crate refuses an illegal move (once: no separate check).
        # The native board's setup mode does the same from Rust (board/setup_mode.rs).
        after, played = self._s.after(move)
        self._stack.append((played, self._s))
        self._s = after

    def pop(self) -> Move:
        if not self._stack:
            raise IndexError("pop from empty move stack")
        move, self._s = self._stack.pop()
        return move

    def peek(self) -> Move:
        if not self._stack:
            raise IndexError("peek into empty move stack")
        return self._stack[-1][0]

    @property
    def move_stack(self) -> List[Move]:
        return [m for m, _ in self._stack]

    def ply(self) -> int:
        return 2 * (self.fullmove_number - 1) + (not self.turn)

    def clear_stack(self) -> None:
        self._stack = []
        self._root = None

    # --- SAN, UCI ----------------------------------------------------------------------------

    def san(self, move: Move) -> str:
        return "--" if not move else str(self._s.san(move))

    def lan(self, move: Move) -> str:
        return "--" if not move else str(self._s.lan(move))

    def san_and_push(self, move: Move) -> str:
        text = self.san(move)
        self.push(move)
        return text

    def variation_san(self, variation: Any) -> str:
        board = self.copy(stack=False)
        parts: List[str] = []
        for move in variation:
            if move and not board.is_legal(move):
                raise IllegalMoveError(f"illegal move {move.uci()} in position {board.fen(False, 'legal', None)}")
            text = board.san(move)
            if board.turn:
                parts.append(f"{board.fullmove_number}. {text}")
            elif not parts:
                parts.append(f"{board.fullmove_number}...{text}")
            else:
                parts.append(text)
            board.push(move)
        return " ".join(parts)

    def parse_san(self, san: str) -> Move:
        return self._s.parse_san(san)

    def push_san(self, san: str) -> Move:
        move = self.parse_san(san)
        self.push(move)
        return move

    def parse_uci(self, uci: str) -> Move:
        return self._s.parse_uci(uci)

    def push_uci(self, uci: str) -> Move:
        move = self.parse_uci(uci)
        self.push(move)
        return move

    def find_move(self, from_square: int, to_square: int, promotion: Optional[int] = None) -> Move:
        return self._s.find_move(from_square, to_square, promotion)

    # --- game end (asked of the legal move list) ---------------------------------------------

    def is_checkmate(self) -> bool:
        return self.is_check() and not self.count_legal()

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self.count_legal()

    def is_insufficient_material(self) -> bool:
        return self.has_insufficient_material(True) and self.has_insufficient_material(False)

    def has_insufficient_material(self, color: Any) -> bool:
        color = bool(color)
        mine = self._mask(color=color)
        if mine & (self.pawns | self.rooks | self.queens):
            return False
        if mine & self.knights:
            return bb.popcount(mine) <= 2 and not (self._mask(color=not color) & ~self.kings & ~self.queens)
        if mine & self.bishops:
            same_color = not (self.bishops & bb.BB_DARK_SQUARES) or not (self.bishops & bb.BB_LIGHT_SQUARES)
            return same_color and not self.pawns and not self.knights
        return True

    def is_fifty_moves(self) -> bool:
        return self.halfmove_clock >= 100 and bool(self.count_legal())

    def is_seventyfive_moves(self) -> bool:
        return self.halfmove_clock >= 150 and bool(self.count_legal())

    def can_claim_fifty_moves(self) -> bool:
        return self.is_fifty_moves()

    def is_repetition(self, count: int = 3) -> bool:
        return count <= 1

    def can_claim_threefold_repetition(self) -> bool:
        return False

    def is_fivefold_repetition(self) -> bool:
        return False

    def can_claim_draw(self) -> bool:
        return self.can_claim_fifty_moves()

    def outcome(self, claim_draw: bool = False) -> Any:
        from ._outcome import Outcome, Termination

        if self.is_checkmate():
            return Outcome(Termination.CHECKMATE, not self.turn)
        if self.is_insufficient_material():
            return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
        if not self.count_legal():
            return Outcome(Termination.STALEMATE, None)
        if self.is_seventyfive_moves():
            return Outcome(Termination.SEVENTYFIVE_MOVES, None)
        if claim_draw and self.can_claim_fifty_moves():
            return Outcome(Termination.FIFTY_MOVES, None)
        return None

    def is_game_over(self, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw) is not None

    def result(self, claim_draw: bool = False) -> str:
        outcome = self.outcome(claim_draw)
        return "*" if outcome is None else outcome.result()

    # --- text --------------------------------------------------------------------------------

    def board_fen(self, promoted: Optional[bool] = False) -> str:
        return str(self._s.board_fen(bool(promoted)))

    def epd(self, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
        return str(self._s.epd(shredder, en_passant, bool(promoted)))

    def fen(self, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
        return str(self._s.fen(shredder, en_passant, bool(promoted)))

    def shredder_fen(self, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
        return self.fen(True, en_passant, promoted)

    def __str__(self) -> str:
        return "\n".join(" ".join(p.symbol() if (p := self.piece_at(r * 8 + f)) else "." for f in range(8)) for r in range(7, -1, -1))

    def __repr__(self) -> str:
        return f"Board({self.fen(False, 'legal', None)!r}{', chess960=True' if self.chess960 else ''})"

    def unicode(self, invert_color: bool = False, borders: bool = False, empty_square: str = "⭘", orientation: bool = True) -> str:
        if borders:
            raise ValueError("unicode(borders=True) is not available in setup mode")
        rows = []
        for r in range(7, -1, -1) if orientation else range(8):
            cells = []
            for f in range(8) if orientation else range(7, -1, -1):
                p = self.piece_at(r * 8 + f)
                cells.append(empty_square if p is None else p.unicode_symbol(invert_color=invert_color))
            rows.append(" ".join(cells))
        return "\n".join(rows)

    def mirror(self) -> SetupBoard:
        return SetupBoard(self._s.mirror())

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_s":
            raise AttributeError(name)
        raise ValueError(
            f"Board.{name} needs a legal standard chess position; this board (status {self.status()!r}"
            f"{', Chess960' if self.chess960 else ''}) is played in setup mode, which does not offer it"
        )

    # --- loading -----------------------------------------------------------------------------

    @classmethod
    def from_fen(cls, fen: Optional[str], chess960: bool = False) -> SetupBoard:
        board = cls(Setup(fen, bool(chess960)))
        board._root = board._s.copy()
        return board

    def _raw(self) -> Optional[Tuple[int, Optional[int]]]:
        """The castling rights and en-passant square as given, where cleaning changes them."""
        if not self._s.status() & (bb.STATUS_BAD_CASTLING_RIGHTS | bb.STATUS_INVALID_EP_SQUARE):
            return None
        return (self.castling_rights & bb.BB_ALL, self.ep_square)


def _square(square: int) -> int:
    if not isinstance(square, int) or not 0 <= square < 64:
        raise IndexError(f"square index {square!r} out of range 0..=63")
    return square


def resolve(setup: SetupBoard) -> Tuple[Optional[str], Optional[Tuple[int, Optional[int]]], SetupBoard]:
    """What the native board makes of a setup board: the cleaned FEN it tries first (none
    for Chess960 or promoted pieces) with the raw rights and square, and the setup board."""
    return setup._s.clean_fen(), setup._raw(), setup


def resolve_fen(fen: Optional[str], chess960: bool) -> Tuple[Optional[str], Optional[Tuple[int, Optional[int]]], SetupBoard]:
    """A FEN the native parser refused (or any Chess960 FEN), loaded as python-chess loads it;
    ``ValueError`` for text python-chess refuses too."""
    return resolve(SetupBoard.from_fen(fen, chess960))


def board_from_fen(fen: str, chess960: bool) -> Any:
    """Unpickles a setup-mode board."""
    from ._core import Board

    return Board(fen, chess960=chess960)


def state_of(board: Any) -> SetupBoard:
    """A setup board with the native board's position (raw castling rights and en-passant
    square included), without its move stack."""
    setup = board._setup
    if setup is not None:
        out: SetupBoard = setup.copy(stack=False)
        out.clear_stack()
        return out
    out = SetupBoard(Setup(board.board_fen(), bool(board.chess960)))
    out.turn = board.turn
    out.castling_rights = board.castling_rights
    out.ep_square = board.ep_square
    out.halfmove_clock = board.halfmove_clock
    out.fullmove_number = board.fullmove_number
    return out


def adopt(board: Any, setup: SetupBoard) -> None:
    """Puts an edited state on the native board (clearing its move stack)."""
    setup.clear_stack()
    setup._root = setup._s.copy()
    board._load(*resolve(setup))


def set_attribute(board: Any, name: str, value: Any) -> None:
    """``board.turn = ...`` and the other writable attributes of python-chess's board."""
    setup = state_of(board)
    if name == "castling_rights":
        setup.castling_rights = int(value) & bb.BB_ALL
    elif name == "ep_square":
        setup.ep_square = None if value is None else _square(int(value))
    elif name in ("turn", "chess960"):
        setattr(setup, name, bool(value))
    elif name in ("halfmove_clock", "fullmove_number"):
        number = int(value)
        if number < 0:
            raise ValueError(f"{name} must not be negative: {value!r}")
        setattr(setup, name, number)
    else:
        raise AttributeError(name)
    adopt(board, setup)


def chess960_placement(scharnagl: int) -> str:
    """The back rank (White's, as FEN letters) of Chess960 start position ``scharnagl``
    (0..959; 518 is the standard one), by the Scharnagl numbering."""
    if not 0 <= scharnagl <= 959:
        raise ValueError(f"chess960 position index not 0 <= {scharnagl!r} <= 959")
    n, light = divmod(scharnagl, 4)
    n, dark = divmod(n, 4)
    n, queen = divmod(n, 6)
    rank: List[Optional[str]] = [None] * 8
    rank[2 * light + 1] = "B"
    rank[2 * dark] = "B"
    free = [i for i in range(8) if rank[i] is None]
    rank[free[queen]] = "Q"
    knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n]
    free = [i for i in range(8) if rank[i] is None]
    for k in knights:
        rank[free[k]] = "N"
    free = [i for i in range(8) if rank[i] is None]
    for i, letter in zip(free, "RKR"):
        rank[i] = letter
    return "".join(letter or "" for letter in rank)


_CHESS960_INDEX: Dict[str, int] = {}


def chess960_index(board_fen: str) -> Optional[int]:
    if not _CHESS960_INDEX:
        for n in range(960):
            white = chess960_placement(n)
            _CHESS960_INDEX[f"{white.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white}"] = n
    return _CHESS960_INDEX.get(board_fen)

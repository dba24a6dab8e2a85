"""python-chess's ``chess.variant``: the lichess variants on shatranj's native positions.

Every rule is the rules crate's (``rust/chess/src/variant``): each board holds a native
``VariantPosition<V>`` of its variant and the move stack (``shatranj._core.VariantBoard``), and
answers the legal moves (in python-chess's order), make and unmake, SAN and UCI, check, the
variant's end and the outcome from it. This module names the variants and adds what is
naturally Python: python-chess's pockets and remaining-checks views, EPD operations, piece
queries over :class:`~shatranj.BaseBoard`, and ``status()`` (the standard board's flags, less
or plus what each variant changes, as python-chess defines them).

>>> import shatranj.variant
>>> board = shatranj.variant.AtomicBoard()
>>> board.push_san("Nf3")
Move.from_uci('g1f3')
>>> board.uci_variant, len(board.legal_moves)
('atomic', 20)
>>> shatranj.variant.find_variant("zh").starting_fen
'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'

Differences from python-chess, deliberate:

- A variant board is not a :class:`shatranj.Board` (``isinstance(AtomicBoard(), chess.Board)``
  is ``False``; in python-chess it is ``True``): shatranj's ``Board`` is a native class over
  standard chess's always-legal position, which no variant position is, and inheriting its
  methods would answer standard chess's rules for a variant. The variant boards offer
  python-chess's board API themselves.
- ``push`` refuses an illegal move with ``IllegalMoveError``, as shatranj's ``Board`` does.
- :mod:`shatranj.syzygy` probes standard tables only; it does not accept a variant board.
  (:mod:`shatranj.pgn` reads and writes variant games: the ``Variant`` tag.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

from . import _core
from ._baseboard import BaseBoard
from ._bitboards import BB_ALL, BB_RANK_1, BB_RANK_8, Status, popcount
from ._core import Board, Move, Piece
from ._outcome import Outcome, Termination
from ._squareset import SquareSet

__all__ = [
    "VARIANTS",
    "AntichessBoard",
    "AtomicBoard",
    "CrazyhouseBoard",
    "CrazyhousePocket",
    "GiveawayBoard",
    "HordeBoard",
    "KingOfTheHillBoard",
    "RacingKingsBoard",
    "SuicideBoard",
    "ThreeCheckBoard",
    "VariantBoard",
    "find_variant",
]

_STARTING = object()
_EMPTY_FEN = "8/8/8/8/8/8/8/8 w - - 0 1"
_PIECE_SYMBOLS = [None, "p", "n", "b", "r", "q", "k"]
_CHECKS_FIELD = re.compile(r"^\d\+\d$")


class _Moves(list):  # type: ignore[type-arg]
    """A board's move list (python-chess's ``LegalMoveGenerator``): a list, and
    ``count()`` with no argument is its length."""

    def count(self, *args: Any) -> int:  # type: ignore[override]
        return len(self) if not args else super().count(*args)


def _split_fen(fen: str) -> tuple[str, str | None, list[str]]:
    """The placement, the crazyhouse pocket (``None`` if there is none) and the other fields."""
    parts = fen.split()
    placement, pocket = parts[0], None
    if placement.endswith("]") and "[" in placement:
        placement, pocket = placement[:-1].split("[", 1)
    return placement, pocket, parts[1:]


class VariantBoard(_core.VariantBoard):
    """The board API python-chess's variant boards share, over the native variant position.
    A subclass names its variant (``uci_variant``) and python-chess's class attributes."""

    aliases: ClassVar[list[str]] = []
    uci_variant: ClassVar[str] = ""
    xboard_variant: ClassVar[str] = ""
    starting_fen: ClassVar[str] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    tbw_suffix: ClassVar[str | None] = None
    tbz_suffix: ClassVar[str | None] = None
    tbw_magic: ClassVar[bytes | None] = None
    tbz_magic: ClassVar[bytes | None] = None
    pawnless_tbw_suffix: ClassVar[str | None] = None
    pawnless_tbz_suffix: ClassVar[str | None] = None
    pawnless_tbw_magic: ClassVar[bytes | None] = None
    pawnless_tbz_magic: ClassVar[bytes | None] = None
    connected_kings: ClassVar[bool] = False
    one_king: ClassVar[bool] = True
    captures_compulsory: ClassVar[bool] = False

    def __new__(cls, fen: Any = _STARTING, chess960: bool = False) -> VariantBoard:
        if fen is _STARTING:
            fen = cls.starting_fen
        return super().__new__(cls, cls.uci_variant, fen, chess960)

    # ----- construction and copies ------------------------------------------------------

    @classmethod
    def empty(cls, *, chess960: bool = False) -> VariantBoard:
        return cls(None, chess960=chess960)

    def reset(self) -> None:
        self.set_fen(self.starting_fen)

    def clear(self) -> None:
        self.set_fen(_EMPTY_FEN)

    def copy(self, *, stack: bool | int = True) -> VariantBoard:
        board = type(self)(None, chess960=self.chess960)
        keep = len(self.move_stack) if stack is True else int(stack)
        board._copy_from(self, keep)
        return board

    def __copy__(self) -> VariantBoard:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> VariantBoard:
        return self.copy()

    def root(self) -> VariantBoard:
        board = type(self)(None, chess960=self.chess960)
        board._copy_from(self, 0, root=True)
        return board

    def mirror(self) -> VariantBoard:
        """The position with the board flipped top to bottom and the colours swapped."""
        placement, pocket, rest = _split_fen(self.fen())
        ranks = placement.split("/")
        fields = ["/".join(rank.swapcase() for rank in reversed(ranks))]
        if pocket is not None:
            fields[0] += f"[{pocket.swapcase()}]"
        turn, castling, ep, *more = rest
        fields.append("b" if turn == "w" else "w")
        fields.append("".join(sorted(castling.swapcase(), key=str.islower)))
        fields.append(ep if ep == "-" else ep[0] + ("6" if ep[1] == "3" else "3"))
        if more and _CHECKS_FIELD.match(more[0]):
            white, black = more[0].split("+")
            more = [f"{black}+{white}", *more[1:]]
        return type(self)(" ".join(fields + more), chess960=self.chess960)

    def fen(
        self, *, shredder: bool = False, en_passant: str = "legal", promoted: bool | None = None
    ) -> str:
        """The FEN, with python-chess's options: ``en_passant`` ``"legal"`` (the square only
        when an en-passant capture is legal), ``"fen"`` (after every double step) or
        ``"xfen"`` (when one is pseudo-legal); ``shredder`` writes castling rights as the
        rooks' files; ``promoted=False`` leaves out crazyhouse's ``~`` marks. The engine
        client sends ``fen(shredder=board.chess960, en_passant="fen")`` for either kind of
        board."""
        text = super().fen()
        if not shredder and en_passant == "legal" and promoted is not False:
            return text
        fields = text.split(" ")
        if promoted is False:
            fields[0] = fields[0].replace("~", "")
        if shredder:
            fields[2] = self._shredder_castling()
        if en_passant == "fen" or (en_passant == "xfen" and self.has_pseudo_legal_en_passant()):
            ep = self.ep_square
            fields[3] = "-" if ep is None else "abcdefgh"[ep % 8] + str(ep // 8 + 1)
        elif en_passant == "xfen":
            fields[3] = "-"
        return " ".join(fields)

    def _shredder_castling(self) -> str:
        """The castling rights as rook files, White's upper case, each side h-file first."""
        rights = self.castling_rights
        files = [
            "abcdefgh"[square % 8].upper() if rank == BB_RANK_1 else "abcdefgh"[square % 8]
            for rank in (BB_RANK_1, BB_RANK_8)
            for square in range(63, -1, -1)
            if rights & rank & (1 << square)
        ]
        return "".join(files) or "-"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, VariantBoard):
            return NotImplemented
        return type(self).uci_variant == type(other).uci_variant and self.fen() == other.fen()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        if self.chess960:
            return f"{type(self).__name__}({self.fen()!r}, chess960=True)"
        return f"{type(self).__name__}({self.fen()!r})"

    def __str__(self) -> str:
        return str(self._base())

    # ----- the placement ----------------------------------------------------------------

    def _base(self) -> BaseBoard:
        base = BaseBoard(self._placement())
        base.promoted = self.promoted
        return base

    def piece_at(self, square: int) -> Piece | None:
        return self._base().piece_at(square)

    def piece_type_at(self, square: int) -> int | None:
        return self._base().piece_type_at(square)

    def color_at(self, square: int) -> bool | None:
        return self._base().color_at(square)

    def piece_map(self, *, mask: int = BB_ALL) -> dict[int, Piece]:
        return self._base().piece_map(mask=mask)

    def pieces(self, piece_type: int, color: bool) -> SquareSet:
        return self._base().pieces(piece_type, color)

    def pieces_mask(self, piece_type: int, color: bool) -> int:
        return self._base().pieces_mask(piece_type, color)

    def king(self, color: bool) -> int | None:
        return self._base().king(color)

    occupied = property(lambda self: self._base().occupied)
    occupied_co = property(lambda self: self._base().occupied_co)
    pawns = property(lambda self: self._base().pawns)
    knights = property(lambda self: self._base().knights)
    bishops = property(lambda self: self._base().bishops)
    rooks = property(lambda self: self._base().rooks)
    queens = property(lambda self: self._base().queens)
    kings = property(lambda self: self._base().kings)

    def _edit(
        self,
        *,
        base: BaseBoard | None = None,
        pocket: str | None = None,
        checks: str | None = None,
    ) -> None:
        """Replaces parts of the position, keeping the move stack: the pockets and remaining
        checks are edited so in python-chess; its placement edits then clear the stack."""
        placement, old_pocket, rest = _split_fen(self.fen())
        if base is not None:
            placement = base.board_fen(promoted=True)
        pocket = old_pocket if pocket is None else pocket
        if pocket is not None:
            placement += f"[{pocket}]"
        if checks is not None:
            rest = [checks if _CHECKS_FIELD.match(f) else f for f in rest]
        self._set_position(" ".join([placement, *rest]))

    def set_piece_at(self, square: int, piece: Piece | None, promoted: bool = False) -> None:
        base = self._base()
        base.set_piece_at(square, piece, promoted)
        self._edit(base=base)
        self.clear_stack()

    def remove_piece_at(self, square: int) -> Piece | None:
        base = self._base()
        piece = base.remove_piece_at(square)
        self._edit(base=base)
        self.clear_stack()
        return piece

    def set_board_fen(self, fen: str) -> None:
        self._edit(base=BaseBoard(fen))
        self.clear_stack()

    def set_piece_map(self, pieces: dict[int, Piece]) -> None:
        base = BaseBoard(None)
        base.set_piece_map(pieces)
        self._edit(base=base)
        self.clear_stack()

    def clear_board(self) -> None:
        self._edit(base=BaseBoard(None))
        self.clear_stack()

    # ----- moves --------------------------------------------------------------------------

    @property
    def legal_moves(self) -> _Moves:
        return _Moves(self._legal_moves())

    @property
    def pseudo_legal_moves(self) -> _Moves:
        return _Moves(self._pseudo_legal_moves())

    def generate_legal_moves(
        self, from_mask: int = BB_ALL, to_mask: int = BB_ALL
    ) -> Iterator[Move]:
        for move in self._legal_moves():
            if from_mask >> move.from_square & 1 and to_mask >> move.to_square & 1:
                yield move

    def generate_pseudo_legal_moves(
        self, from_mask: int = BB_ALL, to_mask: int = BB_ALL
    ) -> Iterator[Move]:
        for move in self._pseudo_legal_moves():
            if from_mask >> move.from_square & 1 and to_mask >> move.to_square & 1:
                yield move

    def generate_legal_captures(
        self, from_mask: int = BB_ALL, to_mask: int = BB_ALL
    ) -> Iterator[Move]:
        return (m for m in self.generate_legal_moves(from_mask, to_mask) if self.is_capture(m))

    def generate_pseudo_legal_captures(
        self, from_mask: int = BB_ALL, to_mask: int = BB_ALL
    ) -> Iterator[Move]:
        return (
            m for m in self.generate_pseudo_legal_moves(from_mask, to_mask) if self.is_capture(m)
        )

    def generate_legal_ep(self, from_mask: int = BB_ALL, to_mask: int = BB_ALL) -> Iterator[Move]:
        return (m for m in self.generate_legal_moves(from_mask, to_mask) if self.is_en_passant(m))

    def generate_pseudo_legal_ep(
        self, from_mask: int = BB_ALL, to_mask: int = BB_ALL
    ) -> Iterator[Move]:
        return (
            m for m in self.generate_pseudo_legal_moves(from_mask, to_mask) if self.is_en_passant(m)
        )

    def has_legal_en_passant(self) -> bool:
        return any(self.generate_legal_ep())

    def has_pseudo_legal_en_passant(self) -> bool:
        return any(self.generate_pseudo_legal_ep())

    def is_kingside_castling(self, move: Move) -> bool:
        return self.is_castling(move) and move.to_square % 8 > move.from_square % 8

    def is_queenside_castling(self, move: Move) -> bool:
        return self.is_castling(move) and move.to_square % 8 < move.from_square % 8

    def ply(self) -> int:
        return 2 * (self.fullmove_number - 1) + (not self.turn)

    def variation_san(self, variation: Iterable[Move]) -> str:
        board = self.copy(stack=False)
        out = []
        for move in variation:
            san = board.san(move)
            if board.turn:
                out.append(f"{board.fullmove_number}. {san}")
            elif not out:
                out.append(f"{board.fullmove_number}...{san}")
            else:
                out.append(san)
            board.push(move)
        return " ".join(out)

    # ----- the end of the game --------------------------------------------------------------

    def outcome(self, *, claim_draw: bool = False) -> Outcome | None:
        found = self._outcome(claim_draw)
        if found is None:
            return None
        termination, winner = found
        return Outcome(Termination[termination], winner)

    def result(self, *, claim_draw: bool = False) -> str:
        outcome = self.outcome(claim_draw=claim_draw)
        return outcome.result() if outcome else "*"

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw=claim_draw) is not None

    def is_seventyfive_moves(self) -> bool:
        return self.halfmove_clock >= 150 and self._legal_move_count() > 0

    def is_fivefold_repetition(self) -> bool:
        return self.is_repetition(5)

    def can_claim_fifty_moves(self) -> bool:
        return self.halfmove_clock >= 100 and self._legal_move_count() > 0

    def can_claim_threefold_repetition(self) -> bool:
        return self.is_repetition(3)

    def can_claim_draw(self) -> bool:
        return self.can_claim_fifty_moves() or self.can_claim_threefold_repetition()

    # ----- validity -------------------------------------------------------------------------

    def _standard_status(self) -> int:
        """python-chess's standard ``Board.status()`` of the placement and fields."""
        _, _, rest = _split_fen(self.fen())
        turn, castling, ep = rest[:3]
        fen = f"{self._placement()} {turn} {castling} {ep} 0 1"
        return int(Board(fen, chess960=self.chess960).status())

    def _variant_status(self, status: int) -> int:
        return status

    def status(self) -> Status:
        return Status(self._variant_status(self._standard_status()))

    def is_valid(self) -> bool:
        return self.status() == Status.VALID

    # ----- EPD ----------------------------------------------------------------------------

    def epd(self, **operations: Any) -> str:
        text = self._epd()
        ops = []
        for opcode, value in operations.items():
            if value is None:
                ops.append(f"{opcode};")
            elif isinstance(value, Move):
                ops.append(f"{opcode} {self.san(value)};")
            elif isinstance(value, (int, float)):
                ops.append(f"{opcode} {value};")
            elif isinstance(value, str):
                escaped = value.replace("\\", "\\\\").replace('"', '\\"')
                ops.append(f'{opcode} "{escaped}";')
            else:
                ops.append(f"{opcode} " + " ".join(self.san(m) for m in value) + ";")
        return " ".join([text, *ops]) if ops else text

    def set_epd(self, epd: str) -> dict[str, Any]:
        """Sets the position from an EPD line and returns its operations (``hmvc`` and
        ``fmvn`` set the clocks; ``bm``/``am`` are read as lists of SAN moves)."""
        tokens = epd.split()
        count = 5 if len(tokens) > 4 and _CHECKS_FIELD.match(tokens[4].rstrip(";")) else 4
        fields = epd.strip().split(None, count)
        position = fields[:count]
        operations = _parse_epd_operations(fields[count] if len(fields) > count else "")
        halfmove = operations.get("hmvc", 0)
        fullmove = operations.get("fmvn", 1)
        self.set_fen(" ".join([*position, str(int(halfmove)), str(int(fullmove))]))
        for opcode in ("bm", "am"):
            if isinstance(operations.get(opcode), str):
                operations[opcode] = [self.parse_san(san) for san in operations[opcode].split()]
        return operations

    @classmethod
    def from_epd(cls, epd: str, *, chess960: bool = False) -> tuple[VariantBoard, dict[str, Any]]:
        board = cls(None, chess960=chess960)
        return board, board.set_epd(epd)


def _parse_epd_operations(text: str) -> dict[str, Any]:
    """EPD operations: ``opcode operand...;`` with quoted strings; numbers as numbers."""
    operations: dict[str, Any] = {}
    for match in re.finditer(r'\s*([A-Za-z][\w]*)\s*((?:"(?:[^"\\]|\\.)*"|[^;"])*);?', text):
        opcode, operand = match.group(1), match.group(2).strip()
        if not operand:
            operations[opcode] = None
        elif operand.startswith('"'):
            operations[opcode] = operand[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        else:
            try:
                operations[opcode] = int(operand)
            except ValueError:
                try:
                    operations[opcode] = float(operand) if opcode not in ("bm", "am") else operand
                except ValueError:
                    operations[opcode] = operand
    return operations


# ----- the antichess family --------------------------------------------------------------------


class SuicideBoard(VariantBoard):
    """Suicide: captures are compulsory, the king is an ordinary piece; lose all your men to
    win, and a stalemated side wins with fewer men than the other side."""

    aliases = ["Suicide", "Suicide chess"]
    uci_variant = "suicide"
    xboard_variant = "suicide"
    tbw_suffix = ".stbw"
    tbz_suffix = ".stbz"
    tbw_magic = b"\x7b\xf6\x93\x15"
    tbz_magic = b"\xe4\xcf\xe7\x23"
    pawnless_tbw_suffix = ".gtbw"
    pawnless_tbz_suffix = ".gtbz"
    pawnless_tbw_magic = b"\xbc\x55\xbc\x21"
    pawnless_tbz_magic = b"\xd6\xf5\x1b\x50"
    connected_kings = True
    one_king = False
    captures_compulsory = True

    def _variant_status(self, status: int) -> int:
        # No check and any number of kings (python-chess's SuicideBoard.status).
        return status & ~(
            Status.NO_WHITE_KING
            | Status.NO_BLACK_KING
            | Status.TOO_MANY_KINGS
            | Status.OPPOSITE_CHECK
            | Status.TOO_MANY_CHECKERS
            | Status.IMPOSSIBLE_CHECK
        )


class GiveawayBoard(SuicideBoard):
    """Giveaway: suicide's moves; a stalemated side wins."""

    aliases = ["Giveaway", "Giveaway chess", "Give away", "Give away chess"]
    uci_variant = "giveaway"
    xboard_variant = "giveaway"
    tbw_suffix = ".gtbw"
    tbz_suffix = ".gtbz"
    tbw_magic = b"\xbc\x55\xbc\x21"
    tbz_magic = b"\xd6\xf5\x1b\x50"
    pawnless_tbw_suffix = ".stbw"
    pawnless_tbz_suffix = ".stbz"
    pawnless_tbw_magic = b"\x7b\xf6\x93\x15"
    pawnless_tbz_magic = b"\xe4\xcf\xe7\x23"


class AntichessBoard(GiveawayBoard):
    """Antichess (lichess): giveaway from the standard start without castling rights."""

    aliases = ["Antichess", "Anti chess", "Anti"]
    uci_variant = "antichess"
    starting_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"


# ----- the others ----------------------------------------------------------------------------


class AtomicBoard(VariantBoard):
    """Atomic: a capture explodes the capturer and every piece but pawns around the target
    square; explode the enemy king to win."""

    aliases = ["Atomic", "Atom", "Atomic chess"]
    uci_variant = "atomic"
    xboard_variant = "atomic"
    tbw_suffix = ".atbw"
    tbz_suffix = ".atbz"
    tbw_magic = b"\x55\x8d\xa4\x49"
    tbz_magic = b"\x91\xa9\x5e\xeb"
    connected_kings = True
    one_king = True

    def _variant_status(self, status: int) -> int:
        status &= ~Status.OPPOSITE_CHECK
        status &= ~(Status.NO_WHITE_KING if self.turn else Status.NO_BLACK_KING)
        if popcount(self.checkers_mask()) <= 14:
            status &= ~Status.TOO_MANY_CHECKERS
        if not self.has_legal_en_passant():
            status &= ~Status.IMPOSSIBLE_CHECK
        return status


class KingOfTheHillBoard(VariantBoard):
    """King of the hill: a king reaching d4, e4, d5 or e5 wins."""

    aliases = ["King of the Hill", "KOTH", "kingOfTheHill"]
    uci_variant = "kingofthehill"
    xboard_variant = "kingofthehill"


class RacingKingsBoard(VariantBoard):
    """Racing kings: no checks, no pawns; the first king on the eighth rank wins."""

    aliases = ["Racing Kings", "Racing", "Race", "racingkings"]
    uci_variant = "racingkings"
    xboard_variant = "racingkings"
    starting_fen = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"

    def _variant_status(self, status: int) -> int:
        if self.is_check():
            status |= Status.RACE_CHECK | Status.TOO_MANY_CHECKERS | Status.IMPOSSIBLE_CHECK
        base = self._base()
        white, black = base.occupied_co[1], base.occupied_co[0]
        if not self.turn and all(side & base.kings & BB_RANK_8 for side in (white, black)):
            status |= Status.RACE_OVER
        if base.pawns:
            status |= Status.RACE_MATERIAL
        for side in (white, black):
            limits = ((base.knights, 2), (base.bishops, 2), (base.rooks, 2), (base.queens, 1))
            if any(popcount(side & men) > most for men, most in limits):
                status |= Status.RACE_MATERIAL
        return status


class HordeBoard(VariantBoard):
    """Horde: White's 36 pawns against Black's army; capture them all or checkmate."""

    aliases = ["Horde", "Horde chess"]
    uci_variant = "horde"
    xboard_variant = "horde"
    starting_fen = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"

    def _variant_status(self, status: int) -> int:
        base = self._base()
        white, black = base.occupied_co[1], base.occupied_co[0]
        status &= ~Status.NO_WHITE_KING
        if popcount(white) <= 36:
            status &= ~(Status.TOO_MANY_WHITE_PIECES | Status.TOO_MANY_WHITE_PAWNS)
        if not base.pawns & BB_RANK_8 and not black & base.pawns & BB_RANK_1:
            status &= ~Status.PAWNS_ON_BACKRANK
        if white & base.kings:
            status |= Status.TOO_MANY_KINGS
        return status


class _RemainingChecks:
    """Three-check's ``remaining_checks``: indexed by colour, writable, as python-chess's list."""

    def __init__(self, board: ThreeCheckBoard) -> None:
        self._board = board

    def _pair(self) -> tuple[int, int]:
        return self._board._remaining_checks() or (3, 3)

    def __getitem__(self, color: Any) -> int:
        white, black = self._pair()
        return white if color else black

    def __setitem__(self, color: Any, count: int) -> None:
        white, black = self._pair()
        white, black = (count, black) if color else (white, count)
        self._board._edit(checks=f"{white}+{black}")

    def __iter__(self) -> Iterator[int]:
        white, black = self._pair()
        return iter([black, white])

    def __len__(self) -> int:
        return 2

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, (list, _RemainingChecks)) else False

    def __repr__(self) -> str:
        return repr(list(self))


class ThreeCheckBoard(VariantBoard):
    """Three-check: give the third check to win. ``remaining_checks[color]`` counts what
    each side still has to give."""

    aliases = [
        "Three-check", "Three check", "Threecheck", "Three check chess", "3-check", "3 check", "3check",
    ]  # fmt: skip
    uci_variant = "3check"
    xboard_variant = "3check"
    starting_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"

    @property
    def remaining_checks(self) -> _RemainingChecks:
        return _RemainingChecks(self)


class CrazyhousePocket:
    """A crazyhouse pocket: how many of each piece type a side holds in hand. A board's
    ``pockets[color]`` is a view that writes its changes back to the board."""

    def __init__(self, symbols: Iterable[str] = "") -> None:
        self._counts = [0] * 7
        self._owner: tuple[CrazyhouseBoard, bool] | None = None
        for symbol in symbols:
            self.add(_PIECE_SYMBOLS.index(symbol))

    def _sync(self) -> None:
        if self._owner is not None:
            board, color = self._owner
            board._set_pocket(color, self)

    def reset(self) -> None:
        self._counts = [0] * 7
        self._sync()

    def add(self, piece_type: int) -> None:
        self._counts[piece_type] += 1
        self._sync()

    def remove(self, piece_type: int) -> None:
        if self._counts[piece_type] <= 0:
            raise ValueError(f"no {_PIECE_SYMBOLS[piece_type]} in the pocket")
        self._counts[piece_type] -= 1
        self._sync()

    def count(self, piece_type: int) -> int:
        return self._counts[piece_type]

    def __str__(self) -> str:
        return "".join(str(_PIECE_SYMBOLS[pt]) * self._counts[pt] for pt in range(6, 0, -1))

    def __len__(self) -> int:
        return sum(self._counts[1:])

    def __repr__(self) -> str:
        return f"CrazyhousePocket('{self}')"

    def copy(self) -> CrazyhousePocket:
        pocket = CrazyhousePocket()
        pocket._counts = list(self._counts)
        return pocket


class CrazyhouseBoard(VariantBoard):
    """Crazyhouse: captured pieces change sides into the capturer's pocket and may be
    dropped instead of a move (``N@f3``)."""

    aliases = ["Crazyhouse", "Crazy House", "House", "ZH"]
    uci_variant = "crazyhouse"
    xboard_variant = "crazyhouse"
    starting_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"

    @property
    def pockets(self) -> list[CrazyhousePocket]:
        """``[black, white]``, indexed by colour; each a view of the board's pocket."""
        views = []
        for color, counts in ((False, self._pockets()[1]), (True, self._pockets()[0])):
            pocket = CrazyhousePocket()
            pocket._counts = [0, *counts, 0]
            pocket._owner = (self, color)
            views.append(pocket)
        return views

    def _set_pocket(self, color: bool, pocket: CrazyhousePocket) -> None:
        white, black = self.pockets[1], self.pockets[0]
        if color:
            white = pocket
        else:
            black = pocket
        self._edit(pocket=str(white).upper().replace("K", "") + str(black).replace("k", ""))

    def legal_drop_squares(self) -> SquareSet:
        return SquareSet(self.legal_drop_squares_mask())

    def generate_legal_drops(self, to_mask: int = BB_ALL) -> Iterator[Move]:
        return (m for m in self.generate_legal_moves(BB_ALL, to_mask) if m.drop)

    def _variant_status(self, status: int) -> int:
        white, black = self._pockets()
        base = self._base()
        if popcount(base.pawns) + white[0] + black[0] <= 16:
            status &= ~(Status.TOO_MANY_BLACK_PAWNS | Status.TOO_MANY_WHITE_PAWNS)
        if popcount(base.occupied) + sum(white) + sum(black) <= 32:
            status &= ~(Status.TOO_MANY_BLACK_PIECES | Status.TOO_MANY_WHITE_PIECES)
        return status


VARIANTS: list[type[Any]] = [
    Board,
    SuicideBoard,
    GiveawayBoard,
    AntichessBoard,
    AtomicBoard,
    KingOfTheHillBoard,
    RacingKingsBoard,
    HordeBoard,
    ThreeCheckBoard,
    CrazyhouseBoard,
]

_STANDARD_ALIASES = ["Standard", "Chess", "Classical", "Normal", "Illegal", "From Position"]


def find_variant(name: str) -> type[Any]:
    """The board class of a variant by name (python-chess's aliases, case insensitive)."""
    wanted = name.lower()
    if wanted in (alias.lower() for alias in _STANDARD_ALIASES):
        return Board
    for variant in VARIANTS[1:]:
        if any(alias.lower() == wanted for alias in variant.aliases):
            return variant
    raise ValueError(f"unsupported variant: {name}")

"""shatranj: a chess library and engine in Rust, with Python bindings.

The API follows python-chess 1.11 (``import shatranj as chess`` works for everyday code):
squares are ints 0..63, colours bools, piece types ints 1..6. The native code lives in
:mod:`shatranj._core`; this package re-exports it and adds the pure-Python helpers
(constants, square functions, ``SquareSet``, ``Outcome``/``Termination``, ``Winnability``).

What each module owns:

- ``shatranj`` (this module): ``Board``, ``Move``, ``Piece``, ``Game``, the move errors,
  ``perft``, ``evaluate`` (boards, FENs or a ``pack_positions`` array), ``gpu_info``, the
  python-chess constants and square functions;
  ``Engine`` and ``selfplay`` re-exported from the modules below.
- ``shatranj.engine``: engines, in process (``Engine``) and external (UCI and XBoard
  clients, ``analyse_many``), and their scores.
- ``shatranj.pgn``: PGN games, streams of them, Arrow tables.
- ``shatranj.polyglot``, ``shatranj.svg``: opening books; drawings of boards.
- ``shatranj.syzygy``: Syzygy endgame tablebases (python-chess's ``chess.syzygy``), batch
  probes into numpy.
- ``shatranj.planes``, ``shatranj.nnue``: training tensors; the engine's networks and their data.
- ``shatranj.selfplay``: many engine games at once.
- ``shatranj.distributed``: perft, analysis and self-play on a Ray cluster.
- The private modules hold python-chess's pure-Python parts: bitboards (``_bitboards``),
  ``_squareset``, ``_baseboard``, what pickles name (``_pickle``: the function Chess960 boards
  unpickle through, the modules earlier versions pickled under) and endings (``_outcome``,
  ``_winnability``). The packages ``engine`` and ``pgn`` keep one job per private module. The
  ``Board`` class is defined in Rust (``_core``) and its stub, nowhere else.
"""

from __future__ import annotations

from . import _bitboards, _pickle
from ._baseboard import BaseBoard
from ._bitboards import *  # noqa: F401,F403 - the BB_* masks, STATUS_* flags, shifts and flips
from ._core import (
    STARTING_FEN,
    AmbiguousMoveError,
    Board,
    Game,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    LegalMoveGenerator,
    Move,
    NetworkError,
    Piece,
    PseudoLegalMoveGenerator,
    SolverError,
    TrainingDataError,
    __version__,
    boards_to_features,
    boards_to_planes,
    evaluate,
    gpu_info,
    pack_positions,
    perft,
)
from ._outcome import Outcome, Termination
from ._squareset import SquareSet
from ._winnability import Winnability
from .engine import Engine
from .selfplay import SelfPlayGame, SelfPlayResult, selfplay

# Pickles made before shatranj.engine was a package name its old flat modules.
_pickle.register_moved_modules()

# Every public name of the bitboard module (it has no __all__, so that type checkers see the
# names the star import brings).
_bitboard_names = [
    name for name in vars(_bitboards) if not name.startswith("_") and name != "annotations"
]

Color = bool
COLORS: list[bool] = [WHITE := True, BLACK := False]
COLOR_NAMES: list[str] = ["black", "white"]

PieceType = int
PIECE_TYPES: list[int] = [PAWN := 1, KNIGHT := 2, BISHOP := 3, ROOK := 4, QUEEN := 5, KING := 6]
PIECE_SYMBOLS: list[str | None] = [None, "p", "n", "b", "r", "q", "k"]
PIECE_NAMES: list[str | None] = [None, "pawn", "knight", "bishop", "rook", "queen", "king"]
UNICODE_PIECE_SYMBOLS = {
    "R": "♖", "r": "♜", "N": "♘", "n": "♞", "B": "♗", "b": "♝",
    "Q": "♕", "q": "♛", "K": "♔", "k": "♚", "P": "♙", "p": "♟",
}  # fmt: skip

FILE_NAMES: list[str] = ["a", "b", "c", "d", "e", "f", "g", "h"]
RANK_NAMES: list[str] = ["1", "2", "3", "4", "5", "6", "7", "8"]
STARTING_BOARD_FEN = STARTING_FEN.split(" ")[0]

Square = int
SQUARES: list[int] = list(range(64))
SQUARE_NAMES: list[str] = [f + r for r in RANK_NAMES for f in FILE_NAMES]
# A1 = 0 … H8 = 63, as module constants (python-chess's names).
globals().update({name.upper(): index for index, name in enumerate(SQUARE_NAMES)})
A1: int
B1: int
C1: int
D1: int
E1: int
F1: int
G1: int
H1: int  # noqa: E702
A2: int
B2: int
C2: int
D2: int
E2: int
F2: int
G2: int
H2: int  # noqa: E702
A3: int
B3: int
C3: int
D3: int
E3: int
F3: int
G3: int
H3: int  # noqa: E702
A4: int
B4: int
C4: int
D4: int
E4: int
F4: int
G4: int
H4: int  # noqa: E702
A5: int
B5: int
C5: int
D5: int
E5: int
F5: int
G5: int
H5: int  # noqa: E702
A6: int
B6: int
C6: int
D6: int
E6: int
F6: int
G6: int
H6: int  # noqa: E702
A7: int
B7: int
C7: int
D7: int
E7: int
F7: int
G7: int
H7: int  # noqa: E702
A8: int
B8: int
C8: int
D8: int
E8: int
F8: int
G8: int
H8: int  # noqa: E702
SQUARES_180: list[int] = [sq ^ 0x38 for sq in SQUARES]


def piece_symbol(piece_type: int) -> str:
    """``"p"`` … ``"k"`` for piece types 1 … 6."""
    symbol = PIECE_SYMBOLS[piece_type]
    assert symbol is not None
    return symbol


def piece_name(piece_type: int) -> str:
    name = PIECE_NAMES[piece_type]
    assert name is not None
    return name


def square(file_index: int, rank_index: int) -> int:
    """The square on file ``file_index`` and rank ``rank_index`` (both 0..7)."""
    return rank_index * 8 + file_index


def square_file(square: int) -> int:
    return square & 7


def square_rank(square: int) -> int:
    return square >> 3


def square_name(square: int) -> str:
    return SQUARE_NAMES[square]


def parse_square(name: str) -> int:
    """The square called ``name`` (``"e4"``); ``ValueError`` for anything else."""
    try:
        return SQUARE_NAMES.index(name)
    except ValueError:
        raise ValueError(f"invalid square name {name!r}") from None


def square_distance(a: int, b: int) -> int:
    """King steps from ``a`` to ``b``."""
    return max(abs(square_file(a) - square_file(b)), abs(square_rank(a) - square_rank(b)))


def square_manhattan_distance(a: int, b: int) -> int:
    return abs(square_file(a) - square_file(b)) + abs(square_rank(a) - square_rank(b))


def square_mirror(square: int) -> int:
    """The square seen from the other side (a1 ↔ a8)."""
    return square ^ 0x38


__all__ = [
    "STARTING_FEN", "STARTING_BOARD_FEN", "AmbiguousMoveError", "Board", "Game", "GameOverError", "IllegalMoveError",
    "InvalidMoveError", "NetworkError", "SolverError", "TrainingDataError", "LegalMoveGenerator", "PseudoLegalMoveGenerator", "Move", "Piece", "Outcome", "Termination", "Winnability",
    "SquareSet", "__version__", "boards_to_features", "boards_to_planes", "evaluate", "gpu_info", "pack_positions", "perft", "Engine",
    "SelfPlayGame", "SelfPlayResult", "selfplay",
    "Color", "COLORS", "COLOR_NAMES", "WHITE", "BLACK", "PieceType", "PIECE_TYPES",
    "PIECE_SYMBOLS", "PIECE_NAMES", "UNICODE_PIECE_SYMBOLS", "PAWN", "KNIGHT", "BISHOP",
    "ROOK", "QUEEN", "KING", "FILE_NAMES", "RANK_NAMES", "Square", "SQUARES", "SQUARES_180",
    "SQUARE_NAMES", "piece_symbol", "piece_name", "square", "square_file", "square_rank",
    "square_name", "parse_square", "square_distance", "square_manhattan_distance",
    "square_mirror",
    "BaseBoard",
] + [name.upper() for name in SQUARE_NAMES] + _bitboard_names  # fmt: skip

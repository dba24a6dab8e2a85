"""python-chess ``Board`` methods that go through setup mode (``shatranj._setup``), written in
Python and attached to :class:`shatranj.Board` when the package is imported: the edits
(``set_piece_at``, ``set_piece_map``, ``set_board_fen``, ``clear``, ``set_castling_fen`` ...),
``status()`` and ``is_valid()``, the castling-rights helpers and the Chess960 set-ups. They
wait for setup mode's move to the rules crate's ``Setup`` (issue 38). Every other
python-chess extra (EPD with operations, XBoard notation, the ``generate_*`` family with
masks, ``attacks``, ``is_irreversible``, the mirror and transforms in place, ``reset``,
``shredder_fen``, ``empty``, ``chess960_pos``, the variant names) is native
(``rust/python/src/board/compat.rs``, ``epd.rs``). None of these is on a hot path.
"""

from __future__ import annotations

from typing import Any, Optional, Type, TypeVar

from ._core import Board
from . import _bitboards as bb

BoardT = TypeVar("BoardT", bound=Board)


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


def install() -> None:
    for name, value in (
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
    ):
        if name not in Board.__dict__:  # a native version wins
            setattr(Board, name, value)
    # A Python version that replaces the native one: validity in setup mode too.
    Board.is_valid = is_valid  # type: ignore[method-assign,assignment]

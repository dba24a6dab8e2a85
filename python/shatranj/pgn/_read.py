"""Reading from a text file as python-chess does (``read_game``, ``read_headers``,
``skip_game``) and whole files on worker threads (``GameList``)."""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from typing import (
    TYPE_CHECKING,
    Any,
    overload,
)

from .. import _core

if TYPE_CHECKING:
    pass

from ._headers import Headers
from ._tree import Game
from ._visitors import GameBuilder, _accept_game

_PENDING: weakref.WeakKeyDictionary[Any, tuple[str | None, int]] = weakref.WeakKeyDictionary()


def read_game(handle: Any, *, Visitor: Any = None) -> Any:
    """The next game of a text file (``None`` at the end), as python-chess's ``read_game``.

    Problems are in ``game.errors`` (each with ``.line``, counted from where this handle's
    reading began); the reader goes on with the next game on the next call. With
    ``Visitor`` (a visitor class, or any callable making one), the game is read natively,
    then walked through a new visitor, whose ``handle_error`` gets the problems, and the
    visitor's ``result()`` is returned.
    """
    if Visitor is not None and Visitor is not GameBuilder:
        game = read_game(handle)
        if game is None:
            return None
        return _accept_game(game, Visitor(), game.errors)
    try:
        pending, line_no = _PENDING.pop(handle, (None, 0))
    except TypeError:  # a handle that cannot be weakly referenced: no carry-over
        pending, line_no = None, 0
    tree, pending, line_no = _core.pgn_read_game(handle, pending, line_no)
    try:
        _PENDING[handle] = (pending, line_no)
    except TypeError:
        pass
    if tree is None:
        return None
    return Game._from_tree(tree)


def read_headers(handle: Any) -> Headers | None:
    """The tag pairs of the next game of a text file (``None`` at the end), skipping its
    movetext unparsed, as python-chess's ``read_headers``: only the tags present, no roster
    defaults. Games are cut exactly as :func:`read_game` cuts them."""
    item = _read_next(handle, "headers")
    if item is None:
        return None
    headers = Headers({})
    for name, value in item:
        headers[name] = value
    return headers


def skip_game(handle: Any) -> bool:
    """Skips the next game of a text file without parsing it; ``True`` when there was one."""
    return _read_next(handle, "skip") is not None


def _read_next(handle: Any, mode: str) -> Any:
    try:
        pending, line_no = _PENDING.pop(handle, (None, 0))
    except TypeError:
        pending, line_no = None, 0
    item, pending, line_no = _core.pgn_read_game(handle, pending, line_no, mode)
    try:
        _PENDING[handle] = (pending, line_no)
    except TypeError:
        pass
    return item


class GameList:
    """The games of a file read by :func:`read_games`, built on access, and the report.

    ``read`` counts the games read, ``skipped`` those left out because they could not be
    trusted (a bad move in the main line, a bad ``FEN``, an unclosed comment, no game at
    all); ``errors`` says why, one exception with ``.line`` per skipped game; ``filtered``
    counts the games a header filter left out.
    """

    def __init__(
        self, trees: list[_core.PgnTree], errors: list[ValueError], filtered: int = 0
    ) -> None:
        self._trees = trees
        self.read: int = len(trees)
        self.skipped: int = len(errors)
        self.errors: list[ValueError] = errors
        self.filtered = filtered

    def __len__(self) -> int:
        return self.read

    @overload
    def __getitem__(self, index: int) -> Game: ...
    @overload
    def __getitem__(self, index: slice) -> list[Game]: ...
    def __getitem__(self, index: int | slice) -> Game | list[Game]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.read))]
        if index < 0:
            index += self.read
        if not 0 <= index < self.read:
            raise IndexError(f"game index {index} out of range")
        return Game._from_tree(self._trees[index])

    def __iter__(self) -> Iterator[Game]:
        for tree in self._trees:
            yield Game._from_tree(tree)

    def __repr__(self) -> str:
        return f"<GameList {self.read} read, {self.skipped} skipped>"

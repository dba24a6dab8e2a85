"""PGN (R7): python-chess's ``chess.pgn`` over the Rust reader and writer.

``read_game(handle)`` reads the next game of a text file as python-chess does (same tree,
same ``headers``, ``str(game)`` the same text), but the parse is native and the tree's nodes
are built only when visited: reading is tens of times faster, and ``mainline_moves()`` on an
unvisited line comes straight from Rust. ``read_games(path)`` reads a whole file on worker
threads without the GIL and reports how many games it read and skipped.

Differences from python-chess: ``;`` comments are kept as comments (python-chess drops
them); every problem is reported in ``Game.errors`` with its line number (``.line``),
including stray text python-chess skips silently; a game whose blank line before the next
``[Event`` is missing, or whose ``{`` comment is never closed, ends at the next tag-pair
line instead of swallowing the following games; tag values unescape ``\\"`` and ``\\\\``;
there are no variants. Null moves (``--``, ``Z0``) pass the turn, as in python-chess.

Visitors are python-chess's (:class:`BaseVisitor`, :class:`GameBuilder`,
:class:`HeadersBuilder`, :class:`BoardBuilder`, :class:`SkipVisitor`, :data:`SKIP`): a game is
parsed natively, then walked through the visitor in python-chess's order;
:class:`StringExporter` and :class:`FileExporter` write the text natively in one call.
"""

from __future__ import annotations

import abc
import dataclasses
import enum
import os
import re
import stat
import sys
import time
import typing
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from typing import (
    TYPE_CHECKING,
    Any,
    Generic,
    TypeVar,
    Union,
    overload,
)

from . import _core
from ._core import STARTING_FEN, AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError, Move

if TYPE_CHECKING:
    from .engine._scores import PovScore
    from .svg import Arrow

NAG_NULL = 0
NAG_GOOD_MOVE = 1
"""A good move: ``!`` (R7.4)."""
NAG_MISTAKE = 2
"""A mistake: ``?``."""
NAG_BRILLIANT_MOVE = 3
"""A brilliant move: ``!!``."""
NAG_BLUNDER = 4
"""A blunder: ``??``."""
NAG_SPECULATIVE_MOVE = 5
"""A speculative move: ``!?``."""
NAG_DUBIOUS_MOVE = 6
"""A dubious move: ``?!``."""
NAG_FORCED_MOVE = 7
NAG_SINGULAR_MOVE = 8
NAG_WORST_MOVE = 9
NAG_DRAWISH_POSITION = 10
NAG_QUIET_POSITION = 11
NAG_ACTIVE_POSITION = 12
NAG_UNCLEAR_POSITION = 13
NAG_WHITE_SLIGHT_ADVANTAGE = 14
NAG_BLACK_SLIGHT_ADVANTAGE = 15
NAG_WHITE_MODERATE_ADVANTAGE = 16
NAG_BLACK_MODERATE_ADVANTAGE = 17
NAG_WHITE_DECISIVE_ADVANTAGE = 18
NAG_BLACK_DECISIVE_ADVANTAGE = 19
NAG_WHITE_ZUGZWANG = 22
NAG_BLACK_ZUGZWANG = 23
NAG_WHITE_MODERATE_COUNTERPLAY = 132
NAG_BLACK_MODERATE_COUNTERPLAY = 133
NAG_WHITE_DECISIVE_COUNTERPLAY = 134
NAG_BLACK_DECISIVE_COUNTERPLAY = 135
NAG_WHITE_MODERATE_TIME_PRESSURE = 136
NAG_BLACK_MODERATE_TIME_PRESSURE = 137
NAG_WHITE_SEVERE_TIME_PRESSURE = 138
NAG_BLACK_SEVERE_TIME_PRESSURE = 139
NAG_NOVELTY = 146

TAG_ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
_ROSTER_DEFAULTS = {
    "Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?", "Result": "*",
}  # fmt: skip
TAG_NAME_REGEX = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_+#=:-]*\Z")


class PgnError(ValueError):
    """A problem in PGN text that is not a bad move; ``line`` is where (1-based)."""

    line: int

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.line = line


class StreamError(PgnError):
    """The stream itself failed: a read error, or a compressed stream that is truncated or
    corrupt. ``offset`` is the count of source (compressed) bytes read when it failed, so the
    fault is at or before it; ``line`` the decompressed line reached; ``compression`` one of
    ``"plain"``, ``"zstd"``, ``"gzip"``, ``"bzip2"``; ``truncated`` whether the source ended
    inside a frame. The games before the failure were all delivered."""

    offset: int
    compression: str
    truncated: bool

    def __init__(
        self,
        message: str,
        offset: int = 0,
        line: int = 0,
        compression: str = "plain",
        truncated: bool = False,
    ) -> None:
        super().__init__(message, line)
        self.offset = offset
        self.compression = compression
        self.truncated = truncated


_MOVE_ERRORS: dict[str, type] = {
    "invalid": InvalidMoveError,
    "illegal": IllegalMoveError,
    "ambiguous": AmbiguousMoveError,
}


def _error(line: int, kind: str, message: str) -> ValueError:
    """The exception python-chess would put in ``Game.errors``, with ``.line`` set."""
    cls = _MOVE_ERRORS.get(kind)
    if cls is None:
        return PgnError(message, line)
    error: ValueError = cls(message)
    setattr(error, "line", line)  # noqa: B010 (ValueError declares no line)
    return error


class Headers(MutableMapping[str, str]):
    """Tag pairs: the seven-tag roster first, in its order, then the others as added."""

    def __init__(
        self, data: Mapping[str, str] | Iterable[tuple[str, str]] | None = None, **kwargs: str
    ) -> None:
        self._tag_roster: dict[str, str] = {}
        self._others: dict[str, str] = {}
        if data is None:
            data = dict(_ROSTER_DEFAULTS)
        self.update(data, **kwargs)

    @classmethod
    def _from_tags(cls, tags: list[tuple[str, str]]) -> Headers:
        """Defaults, then the file's tags: what python-chess's builder makes (names are valid)."""
        headers = cls.__new__(cls)
        roster = dict(_ROSTER_DEFAULTS)
        others: dict[str, str] = {}
        for name, value in tags:
            if name in roster:
                roster[name] = value
            else:
                others[name] = value
        headers._tag_roster = roster
        headers._others = others
        return headers

    def is_chess960(self) -> bool:
        return self.get("Variant", "").lower() in [
            "chess960",
            "chess 960",
            "fischerandom",
            "fischerrandom",
            "fischer random",
        ]

    def is_wild(self) -> bool:
        """Whether the ``Variant`` tag names an ICS wild variant (``wild/…``, ``pawns/…``,
        ``odds/…``, ``misc/…``, ``fr``)."""
        variant = self.get("Variant", "").lower()
        return variant in ("wild/fr", "fr") or variant.startswith(
            ("wild/", "pawns/", "odds/", "misc/")
        )

    def board(self) -> Board:
        """The start position: the ``FEN`` tag's, else the standard one (a Chess960 board
        when the ``Variant`` tag says so)."""
        return Board(self.get("FEN", STARTING_FEN), chess960=self.is_chess960())

    def __setitem__(self, key: str, value: str) -> None:
        if key in _ROSTER_DEFAULTS:
            self._tag_roster[key] = value
        elif not TAG_NAME_REGEX.match(key):
            raise ValueError(f"invalid pgn header tag: {key!r}")
        elif "\n" in value or "\r" in value:
            raise ValueError(f"line break in pgn header {key}: {value!r}")
        else:
            self._others[key] = value

    def __getitem__(self, key: str) -> str:
        return self._tag_roster[key] if key in _ROSTER_DEFAULTS else self._others[key]

    def __delitem__(self, key: str) -> None:
        if key in _ROSTER_DEFAULTS:
            del self._tag_roster[key]
        else:
            del self._others[key]

    def __iter__(self) -> Iterator[str]:
        for key in TAG_ROSTER:
            if key in self._tag_roster:
                yield key
        yield from self._others

    def __len__(self) -> int:
        return len(self._tag_roster) + len(self._others)

    def copy(self) -> Headers:
        return type(self)(self)

    def __copy__(self) -> Headers:
        return self.copy()

    def __repr__(self) -> str:
        return "{}({})".format(
            type(self).__name__, ", ".join(f"{key}={value!r}" for key, value in self.items())
        )


MainlineMapT = TypeVar("MainlineMapT")


class GameNode(abc.ABC):
    """A node of the move tree; the root is the :class:`Game`.

    A node read from PGN builds its children on first use of ``variations``; until then they
    live in the native tree (``_tree``, node ``_index``).
    """

    parent: GameNode | None
    move: Move | None
    comment: str
    starting_comment: str
    nags: set[int]

    def __init__(self, *, comment: str = "") -> None:
        self.parent = None
        self.move = None
        self._variations: list[ChildNode] = []
        self._tree: _core.PgnTree | None = None
        self._index = 0
        self.comment = comment
        self.starting_comment = ""
        self.nags = set()

    @property
    def variations(self) -> list[ChildNode]:
        """The child nodes, main line first."""
        if self._tree is not None:
            self._expand()
        return self._variations

    @variations.setter
    def variations(self, value: list[ChildNode]) -> None:
        self._tree = None
        self._variations = value

    def _expand(self) -> None:
        tree = self._tree
        assert tree is not None
        self._tree = None
        children = []
        for index, move, comment, starting_comment, nags in tree.children(self._index):
            node = ChildNode.__new__(ChildNode)
            node.parent = self
            node.move = move
            node.comment = comment
            node.starting_comment = starting_comment
            node.nags = set(nags)
            node._variations = []
            node._tree = tree
            node._index = index
            children.append(node)
        self._variations = children

    def __getstate__(self) -> dict[str, Any]:
        # Pickling and deep copies expand the node first: the native tree does not pickle.
        if self._tree is not None:
            self._expand()
        state = self.__dict__.copy()
        state.pop("_source", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    @abc.abstractmethod
    def board(self) -> Board:
        """A new board with the position at this node."""

    @abc.abstractmethod
    def ply(self) -> int:
        """Half-moves from the start of the game to this node."""

    def turn(self) -> bool:
        return self.ply() % 2 == 0

    def root(self) -> GameNode:
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def game(self) -> Game:
        root = self.root()
        assert isinstance(root, Game), "GameNode not rooted in Game"
        return root

    def end(self) -> GameNode:
        """The last node of the main line from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_end(self) -> bool:
        return not self.variations

    def starts_variation(self) -> bool:
        if self.parent is None or not self.parent.variations:
            return False
        return self.parent.variations[0] is not self

    def is_mainline(self) -> bool:
        node = self
        while node.parent is not None:
            parent = node.parent
            if not parent.variations or parent.variations[0] is not node:
                return False
            node = parent
        return True

    def is_main_variation(self) -> bool:
        if self.parent is None:
            return True
        return not self.parent.variations or self.parent.variations[0] is self

    def __getitem__(self, move: int | Move | GameNode) -> ChildNode:
        if isinstance(move, int):
            return self.variations[move]
        for variation in self.variations:
            if variation.move == move or variation is move:
                return variation
        raise KeyError(move)

    def __contains__(self, move: int | Move | GameNode) -> bool:
        try:
            self[move]
        except (KeyError, IndexError):
            return False
        return True

    def variation(self, move: int | Move | GameNode) -> ChildNode:
        return self[move]

    def has_variation(self, move: int | Move | GameNode) -> bool:
        return move in self

    def promote_to_main(self, move: int | Move | GameNode) -> None:
        variation = self[move]
        self.variations.remove(variation)
        self.variations.insert(0, variation)

    def promote(self, move: int | Move | GameNode) -> None:
        variation = self[move]
        i = self.variations.index(variation)
        if i > 0:
            self.variations[i - 1], self.variations[i] = self.variations[i], self.variations[i - 1]

    def demote(self, move: int | Move | GameNode) -> None:
        variation = self[move]
        i = self.variations.index(variation)
        if i < len(self.variations) - 1:
            self.variations[i + 1], self.variations[i] = self.variations[i], self.variations[i + 1]

    def remove_variation(self, move: int | Move | GameNode) -> None:
        self.variations.remove(self.variation(move))

    def add_variation(
        self, move: Move, *, comment: str = "", starting_comment: str = "", nags: Iterable[int] = ()
    ) -> ChildNode:
        """A new child node, after the existing variations."""
        return ChildNode(self, move, comment=comment, starting_comment=starting_comment, nags=nags)

    def add_main_variation(
        self, move: Move, *, comment: str = "", nags: Iterable[int] = ()
    ) -> ChildNode:
        """A new child node, made the main line."""
        node = self.add_variation(move, comment=comment, nags=nags)
        self.variations.insert(0, self.variations.pop())
        return node

    def next(self) -> ChildNode | None:
        """The main line's next node, if any."""
        variations = self.variations
        return variations[0] if variations else None

    def mainline(self) -> Mainline[ChildNode]:
        return Mainline(self, _node_of)

    def mainline_moves(self) -> Mainline[Move]:
        return Mainline(self, _move_of)

    def clock(self) -> float | None:
        """The first well-formed ``[%clk H:MM:SS]`` of the comment: the mover's clock after
        the move, in seconds (python-chess's ``clock()``)."""
        return _core.pgn_clock(self.comment)

    def emt(self) -> float | None:
        """The first well-formed ``[%emt H:MM:SS]``: the time the move took, in seconds."""
        return _core.pgn_emt(self.comment)

    def eval(self) -> PovScore | None:
        """The first well-formed ``[%eval …]`` (pawns from White's view, or ``#n`` mate) as a
        :class:`~shatranj.engine.PovScore` from the view of the side to move here; ``#0``
        counts as mated, the side to move."""
        from .engine._scores import Cp, Mate, PovScore

        found = _core.pgn_eval(self.comment)
        if found is None:
            return None
        kind, value, _ = found
        turn = self.turn()
        if kind == "mate":
            if value == 0:
                return PovScore(Mate(0), turn)
            score: Any = Mate(value)
        else:
            score = Cp(value)
        return PovScore(score if turn else -score, turn)

    def eval_depth(self) -> int | None:
        """The depth of the first well-formed ``[%eval …,depth]``, if it gives one."""
        found = _core.pgn_eval(self.comment)
        return None if found is None else found[2]

    def arrows(self) -> list[Arrow]:
        """Every ``[%csl …]`` (squares: ``tail == head``) and ``[%cal …]`` (arrows) entry of
        the comment, as :class:`~shatranj.svg.Arrow`."""
        from .svg import Arrow

        colors = {"G": "green", "R": "red", "Y": "yellow", "B": "blue"}
        return [
            Arrow(tail, head, color=colors[c]) for c, tail, head in _core.pgn_arrows(self.comment)
        ]

    def set_clock(self, seconds: float | None) -> None:
        """Sets (or with ``None`` removes) the ``[%clk H:MM:SS]`` annotation of the comment;
        negative times are clamped to zero."""
        self.comment = _set_annotation(
            self.comment, _CLOCK_REGEX, "" if seconds is None else f"[%clk {_clock_text(seconds)}]"
        )

    def set_emt(self, seconds: float | None) -> None:
        """Sets (or with ``None`` removes) the ``[%emt H:MM:SS]`` annotation."""
        self.comment = _set_annotation(
            self.comment, _EMT_REGEX, "" if seconds is None else f"[%emt {_clock_text(seconds)}]"
        )

    def set_eval(self, score: PovScore | None, depth: int | None = None) -> None:
        """Sets (or with ``None`` removes) the ``[%eval …]`` annotation: pawns from White's
        view with two decimals, or ``#n`` for mate, then ``,depth`` when given."""
        self.comment = _set_annotation(self.comment, _EVAL_REGEX, _eval_text(score, depth))

    def set_arrows(self, arrows: Iterable[Arrow | tuple[int, int]]) -> None:
        """Replaces the ``[%csl …]`` (squares) and ``[%cal …]`` (arrows) annotations, which
        go first in the comment."""
        self.comment = _with_arrows(self.comment, arrows)

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        """Walks the game through ``visitor`` (from the root: the whole game)."""
        return self.game().accept(visitor)

    def accept_subgame(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        """Walks this node's subtree as a game of its own, whose ``FEN`` is this node's
        position."""
        return _accept_subgame(self, visitor)

    def add_line(
        self,
        moves: Iterable[Move],
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> GameNode:
        """Child nodes for ``moves`` in a row; the comment and NAGs go to the last."""
        node: GameNode = self
        for move in moves:
            node = node.add_variation(move, starting_comment=starting_comment)
            starting_comment = ""
        node.comment = f"{node.comment} {comment}" if node.comment else comment
        node.nags.update(nags)
        return node


def _node_of(node: ChildNode) -> ChildNode:
    return node


def _move_of(node: ChildNode) -> Move:
    return node.move


class ChildNode(GameNode):
    """A node after a move."""

    parent: GameNode
    move: Move

    def __init__(
        self,
        parent: GameNode,
        move: Move,
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> None:
        super().__init__(comment=comment)
        self.parent = parent
        self.move = move
        self.parent.variations.append(self)
        self.nags.update(nags)
        self.starting_comment = starting_comment

    def _moves(self) -> tuple[GameNode, list[Move]]:
        stack: list[Move] = []
        node: GameNode = self
        while node.parent is not None:
            assert node.move is not None
            stack.append(node.move)
            node = node.parent
        stack.reverse()
        return node, stack

    def board(self) -> Board:
        root, moves = self._moves()
        board = root.game().board()
        for move in moves:
            board.push(move)
        return board

    def ply(self) -> int:
        root, moves = self._moves()
        return root.game().ply() + len(moves)

    def san(self) -> str:
        """SAN of the move leading here (R7.1–R7.3)."""
        return self.parent.board().san(self.move)

    def uci(self, *, chess960: bool | None = None) -> str:
        return self.move.uci()

    def end(self) -> ChildNode:
        node: ChildNode = self
        while node.variations:
            node = node.variations[0]
        return node

    def __repr__(self) -> str:
        try:
            parent_board = self.parent.board()
        except ValueError:
            return f"<{type(self).__name__} at {id(self):#x} (dangling: {self.move})>"
        return "<{} at {:#x} ({}{} {} ...)>".format(
            type(self).__name__, id(self), parent_board.fullmove_number,
            "." if parent_board.turn else "...", parent_board.san(self.move))  # fmt: skip


class Mainline(Generic[MainlineMapT]):
    """The main line after ``start``: iterable, reversible, true when not empty."""

    def __init__(self, start: GameNode, f: Callable[[ChildNode], MainlineMapT]) -> None:
        self.start = start
        self.f = f

    def __bool__(self) -> bool:
        return bool(self.start.variations)

    def __iter__(self) -> Iterator[MainlineMapT]:
        node = self.start
        while True:
            tree = node._tree
            if tree is not None and self.f is _move_of:
                # Not expanded yet: the moves come from the native tree in one call.
                yield from tree.mainline_moves(node._index)  # type: ignore[misc]
                return
            if not node.variations:
                return
            node = node.variations[0]
            yield self.f(node)

    def __reversed__(self) -> Iterator[MainlineMapT]:
        node = self.start.end()
        while node.parent is not None and node is not self.start:
            assert isinstance(node, ChildNode)
            yield self.f(node)
            node = node.parent

    def __str__(self) -> str:
        board = self.start.board()
        parts = []
        for node in Mainline(self.start, _node_of):
            if board.turn:
                parts.append(f"{board.fullmove_number}.")
            elif not parts:
                parts.append(f"{board.fullmove_number}...")
            parts.append(board.san(node.move))
            board.push(node.move)
        return " ".join(parts)


# --- visitors ---------------------------------------------------------------------------------


class SkipType(enum.Enum):
    SKIP = None


SKIP = SkipType.SKIP
"""Returned by a visitor's ``begin_headers``, ``end_headers`` or ``begin_variation`` to skip
what follows (python-chess's ``chess.pgn.SKIP``)."""

ResultT = TypeVar("ResultT")


class BaseVisitor(abc.ABC, Generic[ResultT]):
    """python-chess's visitor protocol: a game is walked (by :meth:`GameNode.accept`, or by
    :func:`read_game` with ``Visitor=``) as calls in reading order; ``result()`` is what the
    walk returns. Every method but ``result`` has a do-nothing default."""

    def begin_game(self) -> SkipType | None:
        return None

    def begin_headers(self) -> Any | None:
        return None

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        pass

    def end_headers(self) -> SkipType | None:
        return None

    def begin_parse_san(self, board: Board, san: str) -> SkipType | None:
        return None

    def parse_san(self, board: Board, san: str) -> Move:
        return board.parse_san(san)

    def visit_move(self, board: Board, move: Move) -> None:
        pass

    def visit_board(self, board: Board) -> None:
        pass

    def visit_comment(self, comment: str) -> None:
        pass

    def visit_nag(self, nag: int) -> None:
        pass

    def begin_variation(self) -> SkipType | None:
        return None

    def end_variation(self) -> None:
        pass

    def visit_result(self, result: str) -> None:
        pass

    def end_game(self) -> None:
        pass

    @abc.abstractmethod
    def result(self) -> ResultT:
        """The walk's outcome."""

    def handle_error(self, error: Exception) -> None:
        """Called for a problem met while reading; the default raises it."""
        raise error


GameT = TypeVar("GameT", bound="Game")


class GameBuilder(BaseVisitor[GameT]):
    """Builds a :class:`Game` (or the ``Game`` subclass given) from visitor calls."""

    def __init__(self, *, Game: Any = None) -> None:
        self.Game = Game if Game is not None else globals()["Game"]

    def begin_game(self) -> None:
        self.game: Any = self.Game()
        self.variation_stack: list[GameNode] = [self.game]
        self.starting_comment = ""
        self.in_variation = False

    def begin_headers(self) -> Headers:
        return self.game.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.game.headers[tagname] = tagvalue

    def visit_nag(self, nag: int) -> None:
        self.variation_stack[-1].nags.add(nag)

    def begin_variation(self) -> None:
        parent = self.variation_stack[-1].parent
        assert parent is not None, "begin_variation called, but root node on top of stack"
        self.variation_stack.append(parent)
        self.in_variation = False

    def end_variation(self) -> None:
        self.variation_stack.pop()

    def visit_result(self, result: str) -> None:
        if self.game.headers.get("Result", "*") == "*":
            self.game.headers["Result"] = result

    def visit_comment(self, comment: str) -> None:
        top = self.variation_stack[-1]
        if self.in_variation or (top.parent is None and top.is_end()):
            # After a move, or before the game's first move: the node's own comment.
            top.comment = "\n".join(c for c in (top.comment, comment) if c).strip()
        else:
            # Before the first move of a variation: that move's starting comment.
            self.starting_comment = "\n".join(
                c for c in (self.starting_comment, comment) if c
            ).strip()

    def visit_move(self, board: Board, move: Move) -> None:
        node = self.variation_stack[-1].add_variation(move)
        node.starting_comment = self.starting_comment
        self.variation_stack[-1] = node
        self.starting_comment = ""
        self.in_variation = True

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)

    def result(self) -> GameT:
        return typing.cast(GameT, self.game)


class HeadersBuilder(BaseVisitor[Headers]):
    """Collects the tag pairs of a game and skips its movetext."""

    def __init__(self, *, Headers: Any = None) -> None:
        self.Headers = Headers if Headers is not None else globals()["Headers"]

    def begin_headers(self) -> Headers:
        self.headers: Headers = self.Headers({})
        return self.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.headers[tagname] = tagvalue

    def end_headers(self) -> SkipType:
        return SKIP

    def result(self) -> Headers:
        return self.headers


class BoardBuilder(BaseVisitor[Board]):
    """The position at the end of a game's main line."""

    def begin_variation(self) -> SkipType:
        return SKIP

    def visit_board(self, board: Board) -> None:
        self.board: Board = board.copy(stack=False)

    def result(self) -> Board:
        return self.board


class SkipVisitor(BaseVisitor[bool]):
    """Skips a game: the walk returns ``True``."""

    def end_headers(self) -> SkipType:
        return SKIP

    def begin_variation(self) -> SkipType:
        return SKIP

    def result(self) -> bool:
        return True


def _walk(game: Game, node: GameNode, board: Board, visitor: BaseVisitor[Any]) -> None:
    """python-chess's order: each move, then its sibling variations, then the line goes on.
    The main line is a loop (a game of thousands of moves needs no deep recursion); only
    side variations recurse. The board is left as it was given."""
    depth = len(board.move_stack)
    while node.variations:
        main = node.variations[0]
        _visit_node(main, board, visitor)
        for side in node.variations[1:]:
            if visitor.begin_variation() is SKIP:
                continue
            _visit_node(side, board, visitor)
            board.push(side.move)
            _walk(game, side, board, visitor)
            board.pop()
            visitor.end_variation()
        board.push(main.move)
        node = main
    while len(board.move_stack) > depth:
        board.pop()


def _visit_node(node: ChildNode, board: Board, visitor: BaseVisitor[Any]) -> None:
    if node.starting_comment:
        visitor.visit_comment(node.starting_comment)
    visitor.visit_move(board, node.move)
    board.push(node.move)
    visitor.visit_board(board)
    board.pop()
    for nag in sorted(node.nags):
        visitor.visit_nag(nag)
    if node.comment:
        visitor.visit_comment(node.comment)


def _accept_game(
    game: Game, visitor: BaseVisitor[ResultT], errors: Iterable[Exception] = ()
) -> ResultT:
    if visitor.begin_game() is not SKIP:
        if visitor.begin_headers() is not SKIP:
            for tagname, tagvalue in game.headers.items():
                visitor.visit_header(tagname, tagvalue)
        if visitor.end_headers() is not SKIP:
            board = game.board()
            visitor.visit_board(board)
            if game.comment:
                visitor.visit_comment(game.comment)
            _walk(game, game, board, visitor)
            for error in errors:
                visitor.handle_error(error)
            visitor.visit_result(game.headers.get("Result", "*"))
        visitor.end_game()
    return visitor.result()


def _accept_subgame(node: GameNode, visitor: BaseVisitor[ResultT]) -> ResultT:
    """The node's subtree as a game of its own: the headers of its game, with ``FEN`` and
    ``SetUp`` set to the node's position."""
    game = node.game()
    board = node.board()
    if visitor.begin_game() is not SKIP:
        if visitor.begin_headers() is not SKIP:
            fen = board.fen()
            for tagname, tagvalue in game.headers.items():
                if tagname not in ("FEN", "SetUp"):
                    visitor.visit_header(tagname, tagvalue)
            if fen != STARTING_FEN:
                visitor.visit_header("FEN", fen)
                visitor.visit_header("SetUp", "1")
        if visitor.end_headers() is not SKIP:
            visitor.visit_board(board)
            _walk(game, node, board, visitor)
            visitor.visit_result(game.headers.get("Result", "*"))
        visitor.end_game()
    return visitor.result()


# --- time controls ----------------------------------------------------------------------------


class TimeControlType(enum.Enum):
    UNKNOWN = 0
    UNLIMITED = 1
    STANDARD = 2
    RAPID = 3
    BLITZ = 4
    BULLET = 5


@dataclasses.dataclass
class TimeControlPart:
    """One period: ``moves`` to play (0: the rest of the game) in ``time`` seconds, with an
    ``increment`` and a ``delay`` per move."""

    moves: int = 0
    time: float = 0
    increment: float = 0
    delay: float = 0


@dataclasses.dataclass
class TimeControl:
    """A ``TimeControl`` tag: its periods and the kind of game they make."""

    parts: list[TimeControlPart] = dataclasses.field(default_factory=list)
    type: TimeControlType = TimeControlType.UNKNOWN


_TC_NUMBER = re.compile(r"^\d+(\.\d+)?\Z")


def _tc_number(text: str, tag: str) -> float:
    if not _TC_NUMBER.match(text):
        raise ValueError(f"invalid TimeControl {tag!r}: {text!r} is not a number")
    return float(text) if "." in text else int(text)


def parse_time_control(time_control: str) -> TimeControl:
    """Parses a PGN ``TimeControl`` tag (``"40/7200:20/3600:900+30"``, ``"300+3"``, ``"-"``,
    ``"?"``); ``ValueError`` for anything else. The type follows FIDE's limits on the
    estimated time of a 60-move game (base + 60 × increment): bullet under 3 minutes, blitz
    up to 10, rapid under 60, standard from 60."""
    text = time_control.strip()
    if text in ("", "?"):
        return TimeControl([], TimeControlType.UNKNOWN)
    if text == "-":
        return TimeControl([], TimeControlType.UNLIMITED)
    parts: list[TimeControlPart] = []
    periods = text.split(":")
    for i, period in enumerate(periods):
        moves = 0
        if "/" in period:
            moves_text, period = period.split("/", 1)
            moves = int(_tc_number(moves_text, time_control))
            if moves <= 0 or isinstance(_tc_number(moves_text, time_control), float):
                raise ValueError(
                    f"invalid TimeControl {time_control!r}: bad move count {moves_text!r}"
                )
        elif i < len(periods) - 1:
            raise ValueError(
                f"invalid TimeControl {time_control!r}: only the last period may lack a move count"
            )
        increment: float = 0
        if "+" in period:
            period, increment_text = period.split("+", 1)
            increment = _tc_number(increment_text, time_control)
        parts.append(TimeControlPart(moves, _tc_number(period, time_control), increment))
    first = parts[0]
    estimate = first.time + 60 * first.increment
    if estimate < 180:
        kind = TimeControlType.BULLET
    elif estimate <= 600:
        kind = TimeControlType.BLITZ
    elif estimate < 3600:
        kind = TimeControlType.RAPID
    else:
        kind = TimeControlType.STANDARD
    return TimeControl(parts, kind)


# --- comment annotations ----------------------------------------------------------------------

_CLOCK_REGEX = re.compile(r"\[%clk\s+[^\]]*\]")
_EMT_REGEX = re.compile(r"\[%emt\s+[^\]]*\]")
_EVAL_REGEX = re.compile(r"\[%eval\s+[^\]]*\]")
_ARROWS_REGEX = re.compile(r"\[%(?:csl|cal)\s+[^\]]*\]")


def _remove_first(comment: str, found: re.Match[str]) -> str:
    start, end = found.span()
    if start > 0 and comment[start - 1].isspace():
        start -= 1
    elif end < len(comment) and comment[end].isspace():
        end += 1
    return comment[:start] + comment[end:]


def _set_annotation(comment: str, regex: re.Pattern[str], text: str) -> str:
    """The comment with its first ``regex`` annotation replaced by ``text`` (any others
    dropped), or ``text`` appended; an empty ``text`` removes the annotation."""
    found = regex.search(comment)
    if found is None:
        if not text:
            return comment
        return f"{comment} {text}" if comment else text
    head = comment[: found.start()] + text if text else None
    if head is None:
        comment = _remove_first(comment, found)
        while (found := regex.search(comment)) is not None:
            comment = _remove_first(comment, found)
        return comment.strip()
    tail = comment[found.end() :]
    while (more := regex.search(tail)) is not None:
        tail = _remove_first(tail, more)
    return head + tail


def _clock_text(seconds: float) -> str:
    seconds = max(0.0, float(seconds))
    hours = int(seconds // 3600)
    minutes = int(seconds % 3600 // 60)
    rest = seconds % 60
    rest_text = f"{rest:06.3f}".rstrip("0").rstrip(".")
    return f"{hours:d}:{minutes:02d}:{rest_text}"


def _eval_text(score: PovScore | None, depth: int | None) -> str:
    if score is None:
        return ""
    white = score.white()
    mate = white.mate()
    value = f"#{mate}" if mate is not None else f"{(white.score() or 0) / 100:.2f}"
    return f"[%eval {value}]" if depth is None else f"[%eval {value},{int(depth)}]"


def _with_arrows(comment: str, arrows: Iterable[Arrow | tuple[int, int]]) -> str:
    from .svg import Arrow

    squares: list[str] = []
    lines: list[str] = []
    for arrow in arrows:
        if not isinstance(arrow, Arrow):
            tail, head = arrow
            arrow = Arrow(tail, head)
        (squares if arrow.tail == arrow.head else lines).append(arrow.pgn())
    while (found := _ARROWS_REGEX.search(comment)) is not None:
        comment = _remove_first(comment, found)
    comment = comment.strip()
    prefix = (f"[%csl {','.join(squares)}]" if squares else "") + (
        f"[%cal {','.join(lines)}]" if lines else ""
    )
    return f"{prefix} {comment}" if prefix and comment else (prefix or comment)


class StringExporter(BaseVisitor[str]):
    """Writes a game as PGN text in python-chess's layout: ``game.accept(exporter)`` returns
    the text, and ``str(exporter)`` is the last text written. The text is made natively
    from the game tree, not from visitor calls."""

    def __init__(
        self,
        *,
        columns: int | None = 80,
        headers: bool = True,
        comments: bool = True,
        variations: bool = True,
    ) -> None:
        self.columns = columns
        self.headers = headers
        self.comments = comments
        self.variations = variations
        self.text = ""

    def _finish(self, text: str) -> Any:
        self.text = text
        return text

    def result(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


class Game(GameNode):
    """The root of a game: ``headers``, the start position, ``errors`` met while reading."""

    headers: Headers
    errors: list[Exception]

    def __init__(
        self, headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None
    ) -> None:
        super().__init__()
        self.headers = Headers(headers)
        self.errors = []
        self._source: _core.PgnTree | None = None
        self._source_fen: str | None = None

    @classmethod
    def _from_tree(cls, tree: _core.PgnTree) -> Game:
        game = cls.__new__(cls)
        game.parent = None
        game.move = None
        game.comment = tree.root_comment
        game.starting_comment = ""
        game.nags = set()
        game._variations = []
        game._tree = tree if tree.has_children(0) else None
        game._index = 0
        game.headers = Headers._from_tags(tree.tags())
        result = tree.movetext_result
        if result is not None and game.headers.get("Result", "*") == "*":
            game.headers["Result"] = result
        game.errors = [_error(*e) for e in tree.errors()]
        game._source = tree
        game._source_fen = game.headers.get("FEN")
        return game

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        self._source = None

    def board(self) -> Board:
        return self.headers.board()

    def ply(self) -> int:
        return self.board().ply() if "FEN" in self.headers else 0

    def setup(self, board: Board | str) -> None:
        """Sets the start position: the ``FEN`` and ``SetUp`` tags, and ``Variant`` is
        ``Chess960`` for a Chess960 board (or a FEN whose castling rights only Chess960
        has)."""
        if isinstance(board, str):
            setup = Board(board)
            if setup.has_chess960_castling_rights():
                setup.chess960 = True
        else:
            setup = board
        fen = setup.fen()
        self.headers.pop("FEN", None)
        self.headers.pop("SetUp", None)
        if fen != STARTING_FEN:
            self.headers["FEN"] = fen
            self.headers["SetUp"] = "1"
        if setup.chess960:
            self.headers["Variant"] = "Chess960"
        else:
            self.headers.pop("Variant", None)

    @classmethod
    def from_board(cls, board: Board) -> Game:
        """A game of the board's moves from its root position, with its result."""
        game = cls()
        game.setup(board.root())
        node: GameNode = game
        for move in board.move_stack:
            node = node.add_variation(move)
        game.headers["Result"] = board.result()
        return game

    @classmethod
    def without_tag_roster(cls) -> Game:
        return cls(headers={})

    @classmethod
    def builder(cls) -> GameBuilder[Any]:
        """A visitor that builds games of this class (``read_game(f, Visitor=MyGame.builder)``)."""
        return GameBuilder(Game=cls)

    def time_control(self) -> TimeControl:
        """The ``TimeControl`` tag, parsed (see :func:`parse_time_control`)."""
        return parse_time_control(self.headers.get("TimeControl", ""))

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        """Walks the game through ``visitor``; for a :class:`StringExporter` (or
        :class:`FileExporter`), the PGN text is made natively in one call."""
        if isinstance(visitor, StringExporter):
            return typing.cast(ResultT, visitor._finish(self._export(visitor)))
        return _accept_game(self, visitor)

    def _export(self, exporter: StringExporter) -> str:
        tags = list(self.headers.items()) if exporter.headers else []
        result = self.headers.get("Result", "*")
        source = self._source
        if (
            source is not None
            and self._tree is not None
            and self._source_fen == self.headers.get("FEN")
        ):
            # Untouched since reading (the tree is not expanded): the native tree writes itself.
            return source.write(
                tags,
                result,
                exporter.columns,
                exporter.headers,
                exporter.comments,
                exporter.variations,
                self.comment,
            )
        nodes: list[tuple[int, Move, str, str, list[int]]] = [
            (0, Move.null(), self.comment, "", [])
        ]
        queue: list[GameNode] = [self]
        i = 0
        while i < len(queue):
            node = queue[i]
            for child in node.variations:
                nodes.append(
                    (i, child.move, child.comment, child.starting_comment, sorted(child.nags))
                )
                queue.append(child)
            i += 1
        fen = self.headers.get("FEN")
        return _core.pgn_write(
            tags,
            fen,
            nodes,
            result,
            exporter.columns,
            exporter.headers,
            exporter.comments,
            exporter.variations,
        )

    def __str__(self) -> str:
        return self._export(StringExporter(columns=None))

    def __repr__(self) -> str:
        return "<{} at {:#x} ({!r} vs. {!r}, {!r} at {!r}{})>".format(
            type(self).__name__, id(self), self.headers.get("White", "?"), self.headers.get("Black", "?"),
            self.headers.get("Date", "????.??.??"), self.headers.get("Site", "?"),
            f", {len(self.errors)} errors" if self.errors else "")  # fmt: skip


class FileExporter(StringExporter):
    """Writes each visited game's PGN, followed by a blank line, to a text file; the walk
    returns the number of characters written."""

    def __init__(
        self,
        handle: Any,
        *,
        columns: int | None = 80,
        headers: bool = True,
        comments: bool = True,
        variations: bool = True,
    ) -> None:
        super().__init__(columns=columns, headers=headers, comments=comments, variations=variations)
        self.handle = handle
        self.written = 0

    def _finish(self, text: str) -> int:
        self.text = text
        chunk = text + "\n\n"
        self.handle.write(chunk)
        self.written += len(chunk)
        return len(chunk)


# Where each handle stopped: a line read that begins the next game, and the line count.
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


Source = Union[str, "os.PathLike[str]", Any]
"""A path, ``"-"`` for standard input, or a binary file object (a text one's ``.buffer``)."""

Filter = Iterable[tuple[str, str, Any]]
"""``(tag, op, value)`` conditions that must all hold, tested on the tag section before any
movetext is parsed. ``op``: ``==``, ``!=``, ``contains``, ``!contains``, ``startswith``,
``in`` (a list of values), or ``>=``, ``>``, ``<=``, ``<`` (numeric; a value that is not a
number, such as an ``Elo`` of ``?``, fails). A game without the tag passes only ``!=`` and
``!contains``. Example: ``[("Event", "contains", "Rated Blitz"), ("WhiteElo", ">=", 2000)]``."""


class _Progress:
    """A one-line progress bar on stderr: bytes read against the source's size where known."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.start = time.perf_counter()
        self.last = 0.0

    def update(self, games: int, final: bool = False) -> None:
        now = time.perf_counter()
        if not final and now - self.last < 0.2:
            return
        self.last = now
        elapsed = max(now - self.start, 1e-9)
        done = self.stream.bytes_read
        total = self.stream.total_bytes
        if total:
            fraction = min(done / total, 1.0)
            bar = "#" * int(fraction * 30)
            head = f"[{bar:<30}] {fraction:6.1%} {done / 1e6:,.1f}/{total / 1e6:,.1f} MB"
        else:
            head = f"{done / 1e6:,.1f} MB"
        line = f"\rpgn {head}  {games:,} games  {games / elapsed:,.0f} games/s"
        sys.stderr.write(line + ("\n" if final else ""))
        sys.stderr.flush()


class GameStream:
    """Games of a PGN source in file order, parsed on worker threads without the GIL.

    Iterating yields :class:`Game` objects (``stream_headers`` streams yield
    :class:`Headers`). Memory stays bounded: the source is read a block at a time, and at most
    a few dozen batches are in flight. The counters grow as it goes: ``read``, ``skipped``
    (untrustworthy games, with their errors and line numbers in ``errors``), ``filtered``
    (left out by the header filter), ``bytes_read`` and ``total_bytes`` (compressed bytes;
    ``None`` where the size is unknown) and ``compression``. A failed stream (truncated or
    corrupt compressed data, a read error) raises :class:`StreamError` after the games before
    the fault. Ctrl-C raises ``KeyboardInterrupt`` and stops the reader.
    """

    def __init__(
        self, source: Source, mode: str, filter: Filter | None, threads: int | None, progress: bool
    ) -> None:
        source, total = _native_source(source)
        self._native = _core.pgn_open(
            source, mode, None if filter is None else list(filter), threads, total
        )
        self._mode = mode
        self.read = 0
        self.skipped = 0
        self.errors: list[ValueError] = []
        self._progress = _Progress(self._native) if progress else None

    @property
    def bytes_read(self) -> int:
        return self._native.bytes_read

    @property
    def total_bytes(self) -> int | None:
        return self._native.total_bytes

    @property
    def compression(self) -> str:
        return self._native.compression

    @property
    def filtered(self) -> int:
        return self._native.filtered

    def _batches(self) -> Iterator[tuple[list[Any], list[Any]]]:
        try:
            while True:
                batch = self._native.next_batch()
                if batch is None:
                    return
                trees, errors, headers, failure = batch
                self.skipped += len(errors)
                self.errors.extend(_error(*e) for e in errors)
                items = trees if self._mode == "games" else headers
                self.read += len(items)
                if self._progress is not None:
                    self._progress.update(self.read)
                yield items, errors
                if failure is not None:
                    message, offset, line, compression, truncated = failure
                    raise StreamError(message, offset, line, compression, truncated)
        finally:
            if self._progress is not None:
                self._progress.update(self.read, final=True)

    def __iter__(self) -> Iterator[Any]:
        if self._mode == "games":
            for trees, _ in self._batches():
                for tree in trees:
                    yield Game._from_tree(tree)
        else:
            for headers, _ in self._batches():
                for tags in headers:
                    h = Headers({})
                    for name, value in tags:
                        h[name] = value
                    yield h

    def close(self) -> None:
        """Stops the reader."""
        self._native.close()

    def __enter__(self) -> GameStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<GameStream {self.compression}, {self.read} read, {self.skipped} skipped>"


def _size_of(handle: Any) -> int | None:
    """A file object's size, where it is a regular file."""
    try:
        st = os.fstat(handle.fileno())
    except (AttributeError, OSError, ValueError, TypeError):  # io.UnsupportedOperation is both
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None


def stream_games(
    source: Source,
    *,
    filter: Filter | None = None,
    threads: int | None = None,
    progress: bool = False,
) -> GameStream:
    """The games of a PGN source (plain, ``.zst``, ``.gz`` or ``.bz2``, told by the first
    bytes), streamed in file order: see :class:`GameStream`. ``threads`` parse threads
    (default: every core); ``filter`` is tested on each game's tags before its movetext is
    parsed; ``progress`` draws a progress bar on stderr."""
    return GameStream(source, "games", filter, threads, progress)


def stream_headers(
    source: Source,
    *,
    filter: Filter | None = None,
    threads: int | None = None,
    progress: bool = False,
) -> GameStream:
    """The tag pairs of every game of a source, as :class:`Headers` (the tags present only,
    as :func:`read_headers`), without parsing any movetext."""
    return GameStream(source, "headers", filter, threads, progress)


def read_games(
    source: Source,
    *,
    filter: Filter | None = None,
    threads: int | None = None,
    progress: bool = False,
) -> GameList:
    """Every game of a PGN source (a path, ``"-"``, or a binary file object; plain or
    compressed), parsed on all cores without the GIL, kept in memory.

    Ctrl-C stops it (``KeyboardInterrupt``). Games come back in file order. A truncated or
    corrupt compressed stream raises :class:`StreamError`.
    """
    stream = GameStream(source, "games", filter, threads, progress)
    trees: list[_core.PgnTree] = []
    for batch, _ in stream._batches():
        trees.extend(batch)
    return GameList(trees, stream.errors, stream.filtered)


class _ParquetPgn:
    """A binary file object whose bytes are the PGN text of a Parquet file's games (lichess's
    published form: one column per header and a ``movetext`` column), made a row batch at a
    time, so the native stream reads it like any PGN source."""

    def __init__(self, path: str) -> None:
        import pyarrow.parquet as pq

        self._file = pq.ParquetFile(path)
        names = self._file.schema_arrow.names
        if "movetext" not in names:
            raise ValueError(
                f"{path}: a Parquet file of games needs a 'movetext' column (columns: {names})"
            )
        self._names = [n for n in names if n != "movetext"]
        self._batches = self._file.iter_batches(batch_size=4096)
        self._buffer = b""

    def _more(self) -> bool:
        try:
            batch = next(self._batches)
        except StopIteration:
            return False
        columns = {name: batch.column(name).to_pylist() for name in batch.schema.names}
        parts: list[str] = []
        moves = columns.pop("movetext")
        for i, movetext in enumerate(moves):
            for name in self._names:
                value = columns[name][i]
                if value is not None:
                    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
                    parts.append(f'[{name} "{text}"]\n')
            parts.append("\n" + (movetext or "") + "\n\n")
        self._buffer += "".join(parts).encode()
        return True

    def read(self, n: int = -1) -> bytes:
        while (n < 0 or len(self._buffer) < n) and self._more():
            pass
        if n < 0:
            n = len(self._buffer)
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out


def _is_parquet(source: Any) -> bool:
    if not isinstance(source, (str, os.PathLike)) or source == "-":
        return False
    try:
        with open(source, "rb") as f:
            return f.read(4) == b"PAR1"
    except OSError:
        return False


def _arrow_column(pa: Any, spec: tuple[Any, ...]) -> Any:
    """A pyarrow array over the buffers Rust filled (see ``rust/python/src/pgn_table.rs``):
    each buffer is ``(owner, address, size)`` or None, wrapped without a copy."""
    kind = spec[0]

    def buf(b: tuple[Any, int, int] | None) -> Any:
        return None if b is None else pa.foreign_buffer(b[1], b[2], base=b[0])

    if kind == "str":
        _, n, offsets, data, valid = spec
        return pa.Array.from_buffers(pa.string(), n, [buf(valid), buf(offsets), buf(data)])
    if kind in ("i16", "i32", "i64"):
        _, n, values = spec
        return pa.Array.from_buffers(
            {"i16": pa.int16(), "i32": pa.int32(), "i64": pa.int64()}[kind], n, [None, buf(values)]
        )
    if kind in ("f32", "i32n"):
        _, n, values, valid = spec
        return pa.Array.from_buffers(
            pa.float32() if kind == "f32" else pa.int32(), n, [buf(valid), buf(values)]
        )
    if kind == "list_str":
        _, n, list_offsets, offsets, data = spec
        child = pa.Array.from_buffers(
            pa.string(), offsets[2] // 4 - 1, [None, buf(offsets), buf(data)]
        )
        return pa.Array.from_buffers(
            pa.list_(pa.string()), n, [None, buf(list_offsets)], children=[child]
        )
    child_type, size = {
        "list_i16": (pa.int16(), 2),
        "list_i32": (pa.int32(), 4),
        "list_f32": (pa.float32(), 4),
    }[kind]
    _, n, list_offsets, values, valid, lists = spec
    child = pa.Array.from_buffers(child_type, values[2] // size, [buf(valid), buf(values)])
    return pa.Array.from_buffers(
        pa.list_(child_type), n, [buf(lists), buf(list_offsets)], children=[child]
    )


def _native_source(source: Source) -> tuple[Any, int | None]:
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if _is_parquet(source):
        return _ParquetPgn(source), None
    return source, (None if isinstance(source, str) else _size_of(source))


def to_arrow(
    source: Source,
    *,
    kind: str = "games",
    columns: Iterable[str] | None = None,
    moves: str = "uci",
    fens: Iterable[int] = (),
    filter: Filter | None = None,
    threads: int | None = None,
    progress: bool = False,
    chunk_games: int = 65536,
) -> Any:
    """A pyarrow Table of a PGN source (any source :func:`stream_games` reads, or a Parquet file
    with a ``movetext`` column), built in Rust on all cores.

    ``kind="games"``: one row per sound game: a string column per tag (null where a game
    lacks it), ``game`` (index among the sound games read), ``result``, ``ply_count``,
    ``first_line``, ``moves`` (UCI strings, or int16 codes with ``moves="codes"``: ``from +
    64*to + 4096*promotion``, squares a1 = 0, promotion 2..5 knight..queen), ``clocks``
    (seconds after each move, from ``[%clk]``; null where a move has none), ``eval_cp`` /
    ``eval_mate`` (White's view, from ``[%eval]``), and ``fen_<ply>`` for each ply in ``fens``.
    A game none of whose moves has a clock (or an evaluation) has a null list there rather
    than a list of nulls: ``eval_cp`` is not null exactly for the analysed games, and the
    table holds no values for the rest (most games of a lichess database).

    ``kind="headers"``: one row per game in the source, sound or not, with its tags alone
    (``game`` numbers the games read, ``first_line`` is where each starts): the movetext is
    never read, as :func:`read_headers` and :func:`stream_headers` read games, so this is the
    fast way to a table of a database's players, ratings and openings.

    ``kind="positions"``: one row per position before each main-line move: ``game``,
    ``ply``, ``fen``, ``move`` (played from it), ``clock``, ``eval_cp``, ``eval_mate`` (after
    that move).

    ``columns`` keeps only those columns (in that order). Games that cannot be trusted are
    left out, as by :func:`read_games`; pandas works through ``table.to_pandas()``.
    """
    try:
        import pyarrow as pa
    except ImportError as e:  # pragma: no cover - the extra is missing
        raise ImportError("to_arrow needs pyarrow: pip install 'shatranj[arrow]'") from e
    native, total = _native_source(source)
    reader = _core.pgn_table(
        native, kind, moves, list(fens), None if filter is None else list(filter), threads, total
    )
    tables = []
    start = time.perf_counter()
    rows = 0
    while True:
        chunk = reader.next_chunk(chunk_games)
        if chunk is None:
            break
        table = pa.table({name: _arrow_column(pa, spec) for name, spec in chunk.items()})
        rows += table.num_rows
        tables.append(table)
        if progress:
            sys.stderr.write(
                f"\rpgn to_arrow: {rows:,} rows  {rows / max(time.perf_counter() - start, 1e-9):,.0f} rows/s"
            )
    if progress:
        sys.stderr.write("\n")
    skipped, failure, _ = reader.report()
    if failure is not None:
        message, offset, line, compression, truncated = failure
        raise StreamError(message, offset, line, compression, truncated)
    if not tables:
        empty = pa.table({"game": pa.array([], pa.int64())})
        return (
            empty
            if columns is None
            else empty.select([c for c in columns if c in empty.column_names])
        )
    try:
        table = pa.concat_tables(tables, promote_options="default")
    except TypeError:  # pyarrow < 14
        table = pa.concat_tables(tables, promote=True)
    if columns is not None:
        wanted = list(columns)
        for name in wanted:
            if name not in table.column_names:
                table = table.append_column(name, pa.nulls(table.num_rows, pa.string()))
        table = table.select(wanted)
    return table


def to_polars(source: Source, **kwargs: Any) -> Any:
    """:func:`to_arrow` as a polars DataFrame (same arguments)."""
    try:
        import polars as pl
    except ImportError as e:  # pragma: no cover - the extra is missing
        raise ImportError("to_polars needs polars: pip install 'shatranj[polars]'") from e
    return pl.from_arrow(to_arrow(source, **kwargs))


__all__ = [
    "Game", "GameNode", "ChildNode", "Headers", "Mainline", "StringExporter", "PgnError",
    "GameList", "read_game", "read_games", "TAG_ROSTER", "read_headers", "skip_game", "StreamError",
    "GameStream", "stream_games", "stream_headers", "to_arrow", "to_polars", "BaseVisitor", "GameBuilder",
    "HeadersBuilder", "BoardBuilder", "SkipVisitor", "SkipType", "SKIP", "FileExporter", "TimeControl",
    "TimeControlPart", "TimeControlType", "parse_time_control",
] + [name for name in dir() if name.startswith("NAG_")]  # fmt: skip

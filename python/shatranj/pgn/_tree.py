"""A game as a tree of nodes: python-chess's ``GameNode``, ``ChildNode`` and ``Game``, built
from the native tree only when visited; NAGs; the main line as a sequence."""

from __future__ import annotations

import abc
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Generic,
    TypeVar,
)

from .. import _core
from .._core import (
    STARTING_FEN,
    Board,
    Move,
)

if TYPE_CHECKING:
    from ..engine._scores import PovScore
    from ..svg import Arrow
    from ._time_control import TimeControl
    from ._visitors import BaseVisitor

from ._annotations import (
    _CLOCK_REGEX,
    _EMT_REGEX,
    _EVAL_REGEX,
    _clock_text,
    _eval_text,
    _set_annotation,
    _with_arrows,
)
from ._errors import _error
from ._headers import Headers
from ._time_control import parse_time_control
from ._visitors import GameBuilder, ResultT, StringExporter, _accept_game, _accept_subgame

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
        from ..engine._scores import Cp, Mate, PovScore

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
        from ..svg import Arrow

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

    def setup(self, board: Any) -> None:
        """Sets the start position: the ``FEN`` and ``SetUp`` tags, and ``Variant``:
        ``Chess960`` for a Chess960 board (or a FEN whose castling rights only Chess960
        has), the variant's name for a :mod:`shatranj.variant` board (whose ``FEN`` is then
        always written, as python-chess writes it), none for standard chess."""
        if isinstance(board, str):
            setup = Board(board)
            if setup.has_chess960_castling_rights():
                setup.chess960 = True
        else:
            setup = board
        fen = setup.fen()
        aliases = getattr(type(setup), "aliases", None)
        variant = aliases[0] if aliases else "Standard"
        starting_fen = getattr(type(setup), "starting_fen", STARTING_FEN)
        self.headers.pop("FEN", None)
        self.headers.pop("SetUp", None)
        if fen != starting_fen:
            self.headers["FEN"] = fen
            self.headers["SetUp"] = "1"
        if variant != "Standard":
            self.headers["Variant"] = variant
            self.headers["FEN"] = fen
        elif setup.chess960:
            self.headers["Variant"] = "Chess960"
        else:
            self.headers.pop("Variant", None)

    @classmethod
    def from_board(cls, board: Any) -> Game:
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
        board_class = self.headers.variant()
        variant = None if board_class is Board else board_class.uci_variant
        return _core.pgn_write(
            tags,
            fen,
            nodes,
            result,
            exporter.columns,
            exporter.headers,
            exporter.comments,
            exporter.variations,
            variant,
        )

    def __str__(self) -> str:
        return self._export(StringExporter(columns=None))

    def __repr__(self) -> str:
        return "<{} at {:#x} ({!r} vs. {!r}, {!r} at {!r}{})>".format(
            type(self).__name__, id(self), self.headers.get("White", "?"), self.headers.get("Black", "?"),
            self.headers.get("Date", "????.??.??"), self.headers.get("Site", "?"),
            f", {len(self.errors)} errors" if self.errors else "")  # fmt: skip

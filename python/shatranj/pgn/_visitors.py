"""python-chess's visitors: a game walked node by node in python-chess's order, the builders,
and the exporters (which write the text natively in one call)."""

from __future__ import annotations

import abc
import enum
import typing
from collections.abc import Iterable
from typing import (
    TYPE_CHECKING,
    Any,
    Generic,
    TypeVar,
)

from .._core import (
    STARTING_FEN,
    Board,
    Move,
)

if TYPE_CHECKING:
    from ._tree import ChildNode, Game, GameNode

from ._headers import Headers

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
        if Game is None:
            from ._tree import Game  # the tree imports the visitors
        self.Game = Game

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

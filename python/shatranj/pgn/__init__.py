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
line instead of swallowing the following games; tag values unescape ``\\"`` and ``\\\\``.
Variant games (the ``Variant`` tag) read and write as in python-chess, on
:mod:`shatranj.variant` boards; the database readers (``read_games``, streams, tables) read
standard chess and Chess960 only. Null moves (``--``, ``Z0``) pass the turn, as in python-chess.

Visitors are python-chess's (:class:`BaseVisitor`, :class:`GameBuilder`,
:class:`HeadersBuilder`, :class:`BoardBuilder`, :class:`SkipVisitor`, :data:`SKIP`): a game is
parsed natively, then walked through the visitor in python-chess's order;
:class:`StringExporter` and :class:`FileExporter` write the text natively in one call.

The package, one job per module: ``_tree`` (the game tree: ``GameNode``, ``ChildNode``,
``Game``, NAGs, ``Mainline``), ``_headers`` (``Headers``), ``_visitors`` (python-chess's
visitors and the exporters), ``_annotations`` (``[%clk]``, ``[%eval]`` and arrows in
comments), ``_time_control``, ``_errors``, ``_read`` (``read_game`` from a text file,
``read_games``), ``_stream`` (streams of games, batched, with progress) and ``_arrow`` (Arrow,
Parquet and polars). Every public name is importable from ``shatranj.pgn`` as before.
"""

from __future__ import annotations

from .. import _pickle
from ._arrow import (
    to_arrow,
    to_polars,
)
from ._errors import (
    PgnError,
    StreamError,
)
from ._headers import (
    TAG_NAME_REGEX as TAG_NAME_REGEX,
)
from ._headers import (
    TAG_ROSTER,
    Headers,
)
from ._read import (
    GameList,
    read_game,
    read_headers,
    skip_game,
)
from ._stream import (
    Filter as Filter,
)
from ._stream import (
    GameStream,
    read_games,
    stream_games,
    stream_headers,
)
from ._stream import (
    Source as Source,
)
from ._time_control import (
    TimeControl,
    TimeControlPart,
    TimeControlType,
    parse_time_control,
)
from ._tree import (
    NAG_ACTIVE_POSITION as NAG_ACTIVE_POSITION,
)
from ._tree import (
    NAG_BLACK_DECISIVE_ADVANTAGE as NAG_BLACK_DECISIVE_ADVANTAGE,
)
from ._tree import (
    NAG_BLACK_DECISIVE_COUNTERPLAY as NAG_BLACK_DECISIVE_COUNTERPLAY,
)
from ._tree import (
    NAG_BLACK_MODERATE_ADVANTAGE as NAG_BLACK_MODERATE_ADVANTAGE,
)
from ._tree import (
    NAG_BLACK_MODERATE_COUNTERPLAY as NAG_BLACK_MODERATE_COUNTERPLAY,
)
from ._tree import (
    NAG_BLACK_MODERATE_TIME_PRESSURE as NAG_BLACK_MODERATE_TIME_PRESSURE,
)
from ._tree import (
    NAG_BLACK_SEVERE_TIME_PRESSURE as NAG_BLACK_SEVERE_TIME_PRESSURE,
)
from ._tree import (
    NAG_BLACK_SLIGHT_ADVANTAGE as NAG_BLACK_SLIGHT_ADVANTAGE,
)
from ._tree import (
    NAG_BLACK_ZUGZWANG as NAG_BLACK_ZUGZWANG,
)
from ._tree import (
    NAG_BLUNDER as NAG_BLUNDER,
)
from ._tree import (
    NAG_BRILLIANT_MOVE as NAG_BRILLIANT_MOVE,
)
from ._tree import (
    NAG_DRAWISH_POSITION as NAG_DRAWISH_POSITION,
)
from ._tree import (
    NAG_DUBIOUS_MOVE as NAG_DUBIOUS_MOVE,
)
from ._tree import (
    NAG_FORCED_MOVE as NAG_FORCED_MOVE,
)
from ._tree import (
    NAG_GOOD_MOVE as NAG_GOOD_MOVE,
)
from ._tree import (
    NAG_MISTAKE as NAG_MISTAKE,
)
from ._tree import (
    NAG_NOVELTY as NAG_NOVELTY,
)
from ._tree import (
    NAG_NULL as NAG_NULL,
)
from ._tree import (
    NAG_QUIET_POSITION as NAG_QUIET_POSITION,
)
from ._tree import (
    NAG_SINGULAR_MOVE as NAG_SINGULAR_MOVE,
)
from ._tree import (
    NAG_SPECULATIVE_MOVE as NAG_SPECULATIVE_MOVE,
)
from ._tree import (
    NAG_UNCLEAR_POSITION as NAG_UNCLEAR_POSITION,
)
from ._tree import (
    NAG_WHITE_DECISIVE_ADVANTAGE as NAG_WHITE_DECISIVE_ADVANTAGE,
)
from ._tree import (
    NAG_WHITE_DECISIVE_COUNTERPLAY as NAG_WHITE_DECISIVE_COUNTERPLAY,
)
from ._tree import (
    NAG_WHITE_MODERATE_ADVANTAGE as NAG_WHITE_MODERATE_ADVANTAGE,
)
from ._tree import (
    NAG_WHITE_MODERATE_COUNTERPLAY as NAG_WHITE_MODERATE_COUNTERPLAY,
)
from ._tree import (
    NAG_WHITE_MODERATE_TIME_PRESSURE as NAG_WHITE_MODERATE_TIME_PRESSURE,
)
from ._tree import (
    NAG_WHITE_SEVERE_TIME_PRESSURE as NAG_WHITE_SEVERE_TIME_PRESSURE,
)
from ._tree import (
    NAG_WHITE_SLIGHT_ADVANTAGE as NAG_WHITE_SLIGHT_ADVANTAGE,
)
from ._tree import (
    NAG_WHITE_ZUGZWANG as NAG_WHITE_ZUGZWANG,
)
from ._tree import (
    NAG_WORST_MOVE as NAG_WORST_MOVE,
)
from ._tree import (
    ChildNode,
    Game,
    GameNode,
    Mainline,
)
from ._tree import (
    MainlineMapT as MainlineMapT,
)
from ._visitors import (
    SKIP,
    BaseVisitor,
    BoardBuilder,
    FileExporter,
    GameBuilder,
    HeadersBuilder,
    SkipType,
    SkipVisitor,
    StringExporter,
)
from ._visitors import (
    GameT as GameT,
)
from ._visitors import (
    ResultT as ResultT,
)

__all__ = [
    "Game", "GameNode", "ChildNode", "Headers", "Mainline", "StringExporter", "PgnError",
    "GameList", "read_game", "read_games", "TAG_ROSTER", "read_headers", "skip_game", "StreamError",
    "GameStream", "stream_games", "stream_headers", "to_arrow", "to_polars", "BaseVisitor", "GameBuilder",
    "HeadersBuilder", "BoardBuilder", "SkipVisitor", "SkipType", "SKIP", "FileExporter", "TimeControl",
    "TimeControlPart", "TimeControlType", "parse_time_control",
] + [name for name in dir() if name.startswith("NAG_")]  # fmt: skip

# Pickles and reprs name the public module, as they did before the package was split.
_pickle.publish(__name__, globals(), __all__)

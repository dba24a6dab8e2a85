"""Game review: every move judged the way lichess judges it, for one game in a notebook or a
database on every core.

- The definitions, exact to lichess's published ones, as pure functions over evaluations
  (centipawns, or :class:`~shatranj.engine.Cp`/:class:`~shatranj.engine.Mate`/
  :class:`~shatranj.engine.PovScore`): :func:`win_percent`, :func:`move_accuracy`,
  :func:`game_accuracy`, :func:`judge`, :func:`acpl`.
- One game: :func:`review_game` with the shatranj search in process (the default), any UCI
  engine, or the game's own ``[%eval]`` comments, giving a :class:`GameReview`: a
  :class:`MoveReview` per ply, each side's accuracy, ACPL and judgement counts, the annotated
  game (:func:`annotate`), tables (``to_arrow``, ``to_polars``) and a notebook display with
  the evaluation graph (``plot`` with matplotlib).
- A database: :func:`review_pgn` streams a PGN file (plain or compressed) through a pool of
  engines, writes an annotated PGN and Parquet tables of moves and games as it goes, and
  resumes from its checkpoint after Ctrl-C or a crash; :func:`iter_reviews` yields the
  reviews for code of your own. ``shatranj.distributed.review_pgn`` does the same on a Ray
  cluster.
"""

from __future__ import annotations

from ._annotate import REVIEW_TAGS, annotate
from ._database import DatabaseReview, GameFailure, iter_reviews, review_pgn
from ._definitions import (
    CEILING,
    NAGS,
    START_CP,
    Evaluation,
    Judgement,
    acpl,
    centipawn_losses,
    game_accuracy,
    judge,
    move_accuracy,
    win_percent,
    winning_chances,
)
from ._engines import DEFAULT_LIMIT, Analyser, EngineSpec, ReviewEngineError, check_limit
from ._game import review_game
from ._record import JUDGEMENTS, GameReview, MoveReview
from ._tables import GAME_COLUMNS, MOVE_COLUMNS

__all__ = [
    "CEILING",
    "DEFAULT_LIMIT",
    "GAME_COLUMNS",
    "JUDGEMENTS",
    "MOVE_COLUMNS",
    "NAGS",
    "REVIEW_TAGS",
    "START_CP",
    "Analyser",
    "DatabaseReview",
    "EngineSpec",
    "Evaluation",
    "GameFailure",
    "GameReview",
    "Judgement",
    "MoveReview",
    "ReviewEngineError",
    "acpl",
    "annotate",
    "centipawn_losses",
    "check_limit",
    "game_accuracy",
    "iter_reviews",
    "judge",
    "move_accuracy",
    "review_game",
    "review_pgn",
    "win_percent",
    "winning_chances",
]

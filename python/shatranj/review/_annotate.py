"""A reviewed game as lichess exports one: every move's ``[%eval]``, and on each judged move its
NAG, a comment saying what it was and which move was best, and the better line as a
variation. The game's accuracy and ACPL go into its tags."""

from __future__ import annotations

from typing import Any

from .._core import __version__ as version
from ..engine._scores import PovScore, Score
from ..engine._values import Limit
from ._record import GameReview

#: The longest better line written as a variation (lichess's export takes 20 plies).
VARIATION_PLIES = 20
#: The tags a review adds to an annotated game: each side's accuracy (one decimal) and ACPL.
REVIEW_TAGS = ("WhiteAccuracy", "BlackAccuracy", "WhiteACPL", "BlackACPL")


def _pov(score: Score | None) -> PovScore | None:
    return None if score is None else PovScore(score, True)


def annotate(review: GameReview, game: Any = None) -> Any:
    """Annotates ``game`` (a :class:`shatranj.pgn.Game` whose main line is the reviewed game;
    its other comments, such as clocks, are kept) in place, or a new game built from the
    review when ``game`` is ``None``; returns the game.

    Every main-line move gets ``[%eval …]`` (White's view) in its comment; a judged move gets
    its NAG (``?!`` 6, ``?`` 2, ``??`` 4), lichess's advice (``"(0.32 → -1.50) Mistake. Nf3 was
    best."``) and the engine's line from the position before it (20 plies at most) as a
    variation. The tags ``WhiteAccuracy``,
    ``BlackAccuracy``, ``WhiteACPL`` and ``BlackACPL`` record the game's figures (as
    ``shatranj review`` writes them) and ``Annotator`` the engine and limit.
    """
    from ..pgn import Game

    if game is None:
        game = Game()
        game.headers.update(review.headers)
        board = review.board(0)
        if board.fen() != Game().board().fen() or review.chess960:
            game.setup(board)
        game.add_line(m.move for m in review.moves)
    nodes = list(game.mainline())
    if [node.move for node in nodes] != [m.move for m in review.moves]:
        raise ValueError("the game's main line is not the reviewed game")
    for node, move in zip(nodes, review.moves):
        node.set_eval(_pov(move.eval_after))
        if move.judgement is None:
            continue
        node.nags.add(move.nag)
        node.comment = f"{node.comment} {move.advice}".strip()
        if move.pv:
            parent = node.parent
            if not any(v.move == move.pv[0] for v in parent.variations):
                parent.add_variation(move.pv[0]).add_line(move.pv[1:VARIATION_PLIES])
    figures = {
        "WhiteAccuracy": review.accuracy(True), "BlackAccuracy": review.accuracy(False),
        "WhiteACPL": review.acpl(True), "BlackACPL": review.acpl(False),
    }  # fmt: skip
    for tag in REVIEW_TAGS:
        value = figures[tag]
        if value is not None:
            game.headers[tag] = f"{value:.1f}" if isinstance(value, float) else str(value)
    game.headers["Annotator"] = f"shatranj {version} review: {review.engine or '[%eval] comments'}"
    if review.limit is not None:
        game.headers["Annotator"] += ", " + _limit_text(review.limit)
    return game


def _limit_text(limit: Limit) -> str:
    """A review's limit as the ``Annotator`` tag names it: ``nodes 100000``, ``depth 18``…"""
    parts = [
        f"{name} {value}"
        for name, value in (("nodes", limit.nodes), ("depth", limit.depth), ("time", limit.time))
        if value is not None
    ]
    return ", ".join(parts)

"""What a review found, as plain records: :class:`MoveReview` per ply and :class:`GameReview`
per game. The records hold only facts (evaluations, the engine's lines, judgements); every
statistic is derived from them on demand by the definitions, so there is one place for each.
Records pickle, so reviews travel between processes and cluster workers."""

from __future__ import annotations

import dataclasses
from typing import Any

from .._core import STARTING_FEN, Board, Move
from ..engine._scores import MateGivenType, Score
from ..engine._values import Limit
from . import _definitions as d

#: The PGN tags a games table keeps as text, and their column names.
HEADER_COLUMNS = {
    "Event": "event", "Site": "site", "Date": "date", "Round": "round", "White": "white",
    "Black": "black", "Result": "result", "ECO": "eco", "TimeControl": "time_control",
}  # fmt: skip
#: The rating tags, kept as integers (``None`` where absent or not a number).
RATING_COLUMNS = {"WhiteElo": "white_elo", "BlackElo": "black_elo"}
#: The judgements, mildest first.
JUDGEMENTS: tuple[d.Judgement, ...] = ("Inaccuracy", "Mistake", "Blunder")
#: The games table's count columns: ``white_inaccuracies`` … ``black_blunders``.
PLURALS = {"Inaccuracy": "inaccuracies", "Mistake": "mistakes", "Blunder": "blunders"}


@dataclasses.dataclass(frozen=True)
class MoveReview:
    """One ply of a reviewed game. Evaluations and Win% are White's point of view; ``accuracy``
    is the mover's. ``best_move``/``pv``/``lines`` are the engine's answer in the position
    *before* the move (``lines`` has one ``(score, moves)`` per MultiPV line, best first)."""

    ply: int
    move_number: int
    color: bool
    move: Move
    san: str
    uci: str
    eval_before: Score | None
    eval_after: Score | None
    win_before: float | None
    win_after: float | None
    accuracy: float | None
    judgement: d.Judgement | None
    mate_comment: str | None
    best_move: Move | None
    best_san: str | None
    pv: tuple[Move, ...]
    lines: tuple[tuple[Score, tuple[Move, ...]], ...]
    depth: int | None
    nodes: int | None

    @property
    def nag(self) -> int | None:
        """The judgement's NAG: 6 (``?!``), 2 (``?``), 4 (``??``), or ``None``."""
        return None if self.judgement is None else d.NAGS[self.judgement]

    @property
    def comment(self) -> str | None:
        """Lichess's comment on a judged move, e.g. ``"Mistake. Nf3 was best."``."""
        if self.judgement is None:
            return None
        text = f"{self.mate_comment or self.judgement}."
        return f"{text} {self.best_san} was best." if self.best_san else text

    @property
    def advice(self) -> str | None:
        """The comment lichess's PGN export puts on a judged move: the evaluations before and
        after (White's view), then :attr:`comment`, e.g. ``"(0.32 → -1.50) Mistake. Nf3 was best."``."""
        if self.comment is None:
            return None
        evals = [_advice_eval(e) for e in (self.eval_before, self.eval_after)]
        shown = " → ".join(e for e in evals if e is not None)
        return f"({shown}) {self.comment}" if shown else self.comment

    @property
    def win_drop(self) -> float:
        """How much of the mover's Win% the move gave away (0 when it gave none or is unknown)."""
        if self.win_before is None or self.win_after is None:
            return 0.0
        drop = self.win_before - self.win_after
        return max(0.0, drop if self.color else -drop)

    @property
    def label(self) -> str:
        """The move as a game score shows it: ``12. Nf3`` or ``12... Nf3``."""
        return f"{self.move_number}{'.' if self.color else '...'} {self.san}"


def score_columns(score: Score | None) -> tuple[int | None, int | None]:
    """An evaluation as the tables' two columns: centipawns, or moves to mate (0 once checkmate
    is on the board); both ``None`` when unknown."""
    if score is None:
        return None, None
    if isinstance(score, MateGivenType):
        return None, 0
    return score.score(), score.mate()


def _advice_eval(score: Score | None) -> str | None:
    """An evaluation as lichess's advice shows it: pawns with two decimals, or ``Mate in n``
    (nothing for a checkmate already on the board, or an unknown evaluation)."""
    if score is None:
        return None
    moves = score.mate()
    if moves is None:
        cp = score.score()
        assert cp is not None
        return f"{'-' if cp < 0 else ''}{abs(cp) // 100}.{abs(cp) % 100:02d}"
    return f"Mate in {abs(moves)}" if moves else None


@dataclasses.dataclass(frozen=True)
class GameReview:
    """A reviewed game: one :class:`MoveReview` per ply of its main line, and what follows.

    ``start_eval`` is the evaluation before the first move (+15 cp for the standard start),
    ``final_eval`` the evaluation after the last; ``engine`` and ``limit`` say how the
    positions were evaluated (``None`` for a review from ``[%eval]`` comments).
    """

    headers: dict[str, str]
    start_fen: str
    chess960: bool
    first_mover: bool
    start_eval: Score | None
    moves: list[MoveReview]
    final_eval: Score | None
    final_lines: tuple[tuple[Score, tuple[Move, ...]], ...]
    engine: str | None
    limit: Limit | None

    @property
    def evals(self) -> list[Score | None]:
        """White's evaluation after each ply."""
        return [m.eval_after for m in self.moves]

    def _definition_args(self) -> dict[str, Any]:
        return {"first_mover": self.first_mover, "start": self.start_eval}

    def accuracy(self, color: bool) -> float | None:
        """The side's accuracy, 0 … 100, lichess's game accuracy; ``None`` without a scored move."""
        return d.game_accuracy(self.evals, **self._definition_args())[0 if color else 1]

    def acpl(self, color: bool) -> int | None:
        """The side's average centipawn loss, rounded as lichess shows it."""
        return d.acpl(self.evals, **self._definition_args())[0 if color else 1]

    def counts(self, color: bool) -> dict[str, int]:
        """How many inaccuracies, mistakes and blunders the side made."""
        found = [m.judgement for m in self.moves if m.color == color]
        return {judgement: found.count(judgement) for judgement in JUDGEMENTS}

    def judged(self, judgement: str | None = None, color: bool | None = None) -> list[MoveReview]:
        """The judged moves, optionally of one judgement and one side, in game order."""
        return [
            m
            for m in self.moves
            if m.judgement is not None
            and (judgement is None or m.judgement == judgement)
            and (color is None or m.color == color)
        ]

    def worst(self, color: bool | None = None) -> MoveReview | None:
        """The move that gave away the most Win% (of one side, if given); ``None`` if none did."""
        candidates = [
            m for m in self.moves if (color is None or m.color == color) and m.win_drop > 0
        ]
        return max(candidates, key=lambda m: m.win_drop, default=None)

    def board(self, ply: int | None = None) -> Board:
        """The position after ``ply`` plies (0: the start; default: the end), with its moves."""
        board = Board(self.start_fen, chess960=self.chess960)
        for m in self.moves[: len(self.moves) if ply is None else ply]:
            board.push(m.move)
        return board

    def summary(self) -> dict[str, Any]:
        """One row of facts about the game: its tags, plies, the start's evaluation, per side
        the accuracy, ACPL and judgement counts, the engine, and the start FEN where the game
        does not begin from the standard start (the games table of a database review, in the
        order of :data:`~shatranj.review.GAME_COLUMNS`)."""
        row: dict[str, Any] = {}
        for tag, column in HEADER_COLUMNS.items():
            row[column] = self.headers.get(tag)
        for tag, column in RATING_COLUMNS.items():
            value = self.headers.get(tag, "")
            row[column] = int(value) if value.isdigit() else None
        row["plies"] = len(self.moves)
        row["start_eval_cp"], row["start_eval_mate"] = score_columns(self.start_eval)
        for figure in ("accuracy", "acpl"):
            for color, name in ((True, "white"), (False, "black")):
                row[f"{name}_{figure}"] = getattr(self, figure)(color)
        for color, name in ((True, "white"), (False, "black")):
            for judgement, count in self.counts(color).items():
                row[f"{name}_{PLURALS[judgement]}"] = count
        row["engine"] = self.engine
        standard = self.start_fen == STARTING_FEN and not self.chess960
        row["fen"] = None if standard else self.start_fen
        return row

    # The views, each in the module that owns its format.

    def annotate(self, game: Any = None) -> Any:
        """The game annotated as lichess exports a reviewed game: see
        :func:`shatranj.review.annotate`."""
        from ._annotate import annotate

        return annotate(self, game)

    def rows(self) -> dict[str, list[Any]]:
        """One column per field of :func:`shatranj.review.MOVE_COLUMNS`, one row per ply."""
        from ._tables import move_rows

        return move_rows(self)

    def to_arrow(self) -> Any:
        """The moves as a pyarrow Table (``pip install 'shatranj[arrow]'``)."""
        from ._tables import moves_table

        return moves_table([self])

    def to_polars(self) -> Any:
        """The moves as a polars DataFrame (``pip install 'shatranj[polars]'``)."""
        from ._tables import to_polars

        return to_polars(self.to_arrow())

    def graph_svg(self, ply: int | None = None, *, width: int = 600, height: int = 160) -> str:
        """The evaluation graph (White's Win% per ply, judged moves marked) as SVG text."""
        from ._display import graph_svg

        return graph_svg(self, ply=ply, width=width, height=height)

    def at(self, ply: int) -> Any:
        """The review at move ``ply`` (1 is the first move) for a notebook: the graph with that
        move marked and the board before it, with the move played and the better one drawn."""
        from ._display import PlyView

        return PlyView(self, ply)

    def plot(self, ax: Any = None) -> Any:
        """The evaluation graph with matplotlib (``pip install matplotlib``); returns the axes."""
        from ._display import plot

        return plot(self, ax)

    def _repr_html_(self) -> str:
        from ._display import review_html

        return review_html(self)

    def __repr__(self) -> str:
        white, black = self.headers.get("White", "?"), self.headers.get("Black", "?")
        accuracy = "/".join(
            "-" if a is None else f"{a:.1f}" for a in (self.accuracy(True), self.accuracy(False))
        )
        return f"<GameReview {white} vs {black}: {len(self.moves)} plies, accuracy {accuracy}>"

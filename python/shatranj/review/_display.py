"""A review in a notebook: the evaluation graph as SVG (no plotting library needed), the
players' figures, and the board at the move that mattered most; ``plot`` draws the same graph
with matplotlib for those who want to style it."""

from __future__ import annotations

import html
from typing import Any

from ._record import GameReview, MoveReview

#: Marker colours of the judgements, as lichess draws them.
COLORS = {"Inaccuracy": "#56b4e9", "Mistake": "#e69f00", "Blunder": "#db3031"}


def _points(review: GameReview) -> list[tuple[int, float]]:
    """(ply, White's Win%) for every position with an evaluation; unknown ones are skipped."""
    points = []
    if review.moves and review.moves[0].win_before is not None:
        points.append((0, review.moves[0].win_before))
    points += [(m.ply, m.win_after) for m in review.moves if m.win_after is not None]
    return points  # type: ignore[return-value]


def graph_svg(
    review: GameReview, *, ply: int | None = None, width: int = 600, height: int = 160
) -> str:
    """White's Win% after each ply as a filled area (White's share light, Black's dark), a
    marker with a tooltip on every judged move, and a line at ``ply`` when given."""
    plies = max(len(review.moves), 1)

    def x(p: float) -> float:
        return round(p * width / plies, 2)

    def y(win: float) -> float:
        return round((100.0 - win) * height / 100.0, 2)

    points = _points(review)
    area = " ".join(f"{x(p)},{y(w)}" for p, w in points)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="shatranj-review-graph" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        f'<rect width="{width}" height="{height}" fill="#4a4a4a"/>',
    ]
    if points:
        first, last = points[0][0], points[-1][0]
        parts.append(
            f'<polygon points="{x(first)},{height} {area} {x(last)},{height}" fill="#f0f0f0"/>'
        )
        parts.append(f'<polyline points="{area}" fill="none" stroke="#888" stroke-width="1"/>')
    parts.append(
        f'<line x1="0" y1="{height / 2}" x2="{width}" y2="{height / 2}" stroke="#999" stroke-dasharray="4 3"/>'
    )
    for m in review.judged():
        if m.win_after is None or m.judgement is None:
            continue
        tip = html.escape(
            f"{m.label}: {m.comment} (White {m.win_before:.0f}% → {m.win_after:.0f}%)"
        )
        parts.append(
            f'<circle cx="{x(m.ply)}" cy="{y(m.win_after)}" r="4" fill="{COLORS[m.judgement]}" stroke="#222">'
            f"<title>{tip}</title></circle>"
        )
    if ply is not None:
        parts.append(
            f'<line x1="{x(ply)}" y1="0" x2="{x(ply)}" y2="{height}" stroke="#d85000" stroke-width="2"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


def board_svg(review: GameReview, move: MoveReview, size: int = 320) -> str:
    """The position before ``move``, the move played and (green) the engine's better move."""
    from ..svg import Arrow, board

    position = review.board(move.ply - 1)
    arrows = [Arrow(move.move.from_square, move.move.to_square, color="red")]
    if move.best_move is not None and move.best_move != move.move:
        arrows.append(Arrow(move.best_move.from_square, move.best_move.to_square, color="green"))
    return str(board(position, arrows=arrows, size=size, flipped=not move.color))


def _figure(value: Any, digits: int = 1) -> str:
    if value is None:
        return "–"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


class PlyView:
    """A review seen at one move, for a notebook: the graph with the move marked and the board
    before it, the move played in red and the engine's better one in green."""

    def __init__(self, review: GameReview, ply: int) -> None:
        if isinstance(ply, bool) or not isinstance(ply, int) or not 1 <= ply <= len(review.moves):
            raise ValueError(
                f"ply must be a move of the game, 1 … {len(review.moves)}, not {ply!r}"
            )
        self.review = review
        self.move = review.moves[ply - 1]

    def _repr_html_(self) -> str:
        move = self.move
        caption = f"{move.label}: {move.comment or 'not judged'}"
        if move.win_before is not None and move.win_after is not None:
            caption += f" (White {move.win_before:.0f}% → {move.win_after:.0f}%)"
        return (
            f"<div class='shatranj-review'>{graph_svg(self.review, ply=move.ply)}"
            f"<div><p>{html.escape(caption)}</p>{board_svg(self.review, move)}</div></div>"
        )


def review_html(review: GameReview) -> str:
    """The notebook view: a table of each side's figures, the graph, and the board before the
    worst move (the one that gave away the most Win%) with the better move drawn."""
    rows = []
    for color, side in ((True, "White"), (False, "Black")):
        counts = review.counts(color)
        rows.append(
            f"<tr><td>{html.escape(review.headers.get(side, side))}</td>"
            f"<td>{_figure(review.accuracy(color))}</td><td>{_figure(review.acpl(color))}</td>"
            + "".join(f"<td>{counts[j]}</td>" for j in ("Inaccuracy", "Mistake", "Blunder"))
            + "</tr>"
        )
    worst = review.worst()
    table = (
        "<table><tr><th></th><th>accuracy</th><th>ACPL</th><th>inaccuracies</th><th>mistakes</th>"
        f"<th>blunders</th></tr>{''.join(rows)}</table>"
    )
    parts = [
        f"<div class='shatranj-review'>{table}",
        graph_svg(review, ply=None if worst is None else worst.ply),
    ]
    if worst is not None:
        caption = html.escape(f"{worst.label}: {worst.comment or 'the largest drop'}")
        parts.append(f"<div><p>{caption}</p>{board_svg(review, worst)}</div>")
    parts.append("</div>")
    return "".join(parts)


def plot(review: GameReview, ax: Any = None) -> Any:
    """White's Win% per ply with matplotlib, the judged moves marked; returns the axes."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("plot needs matplotlib: pip install matplotlib") from e
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 2.5))
    points = _points(review)
    plies = [p for p, _ in points]
    wins = [w for _, w in points]
    ax.fill_between(plies, wins, 0, color="#f0f0f0")
    ax.set_facecolor("#4a4a4a")
    ax.plot(plies, wins, color="#888")
    ax.axhline(50, color="#999", linestyle="--", linewidth=0.8)
    for judgement, color in COLORS.items():
        marked = [m for m in review.judged(judgement) if m.win_after is not None]
        ax.scatter(
            [m.ply for m in marked],
            [m.win_after for m in marked],
            color=color,
            label=judgement,
            zorder=3,
        )
    ax.set_xlim(0, max(len(review.moves), 1))
    ax.set_ylim(0, 100)
    ax.set_xlabel("ply")
    ax.set_ylabel("White's Win%")
    ax.legend(loc="upper right", fontsize="small")
    return ax

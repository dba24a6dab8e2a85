"""The annotations PGN comments carry: ``[%clk]``, ``[%emt]``, ``[%eval]``, ``[%csl]``/``[%cal]``,
found, set and removed."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import (
    TYPE_CHECKING,
)

if TYPE_CHECKING:
    from ..engine._scores import PovScore
    from ..svg import Arrow


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
    from ..svg import Arrow

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

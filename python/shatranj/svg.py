"""Draw chess positions as SVG, for notebooks and web pages.

The entry points follow python-chess 1.11's ``chess.svg`` (``board``, ``piece``, ``Arrow``), so
code written for it keeps working; the drawing itself is our own. Pieces are the Unicode chess
glyphs in ``<text>`` elements (the solid glyph for both sides: white pieces are filled white and
outlined in black), so no piece artwork is embedded and the output stays small. The text
presentation selector U+FE0E keeps platforms from swapping in emoji pawns.

Everything is duck-typed: a board is anything with ``piece_at(square)`` returning ``None`` or a
piece with ``.piece_type`` (1 = pawn … 6 = king) and ``.color`` (``True`` = white), which both
``shatranj.Board`` and ``chess.Board`` provide. Squares are ints 0..63 with a1 = 0, h8 = 63.

The output is built with :mod:`xml.etree.ElementTree`, so it is always well-formed XML, and it
depends only on the arguments (no ids from counters or clocks), so it is deterministic.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["Arrow", "SvgWrapper", "board", "piece", "repr_svg"]

# Geometry, in SVG user units. A square is 45 units; the margin holds the coordinates.
SQUARE_SIZE = 45
MARGIN = 20
BORDER = 1

FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"
PIECE_NAMES = ("pawn", "knight", "bishop", "rook", "queen", "king")
# The solid ("black") glyphs, used for both colours; see the module docs.
PIECE_GLYPHS = ("\u265f", "\u265e", "\u265d", "\u265c", "\u265b", "\u265a")
TEXT_PRESENTATION = "\ufe0e"
# Fonts that carry the chess glyphs on common systems, most legible first.
PIECE_FONTS = (
    "'DejaVu Sans', 'Noto Sans Symbols 2', 'Segoe UI Symbol', 'Apple Symbols', "
    "'Arial Unicode MS', FreeSerif, serif"
)
COORD_FONTS = "'DejaVu Sans', Verdana, Arial, Helvetica, sans-serif"

# python-chess's colour keys, with our own palette.
DEFAULT_COLORS: dict[str, str] = {
    "square light": "#f0d9b5",
    "square dark": "#b58863",
    "square light lastmove": "#cdd26a",
    "square dark lastmove": "#aaa23a",
    "margin": "#262421",
    "coord": "#d9d9d9",
    "inner border": "#111111",
    "outer border": "#111111",
    "arrow green": "#2e8b3dc0",
    "arrow red": "#c62828c0",
    "arrow yellow": "#e6a700c0",
    "arrow blue": "#1565c0c0",
    "check": "#ff0000",
}

_HEX_ALPHA = re.compile(r"^#[0-9a-fA-F]{8}$")


class SvgWrapper(str):
    """An SVG document as a ``str`` that Jupyter renders as an image."""

    def _repr_svg_(self) -> SvgWrapper:
        return self


class Arrow:
    """An arrow from ``tail`` to ``head`` (squares); ``tail == head`` draws a circle.

    ``color`` is ``"green"``, ``"red"``, ``"yellow"`` or ``"blue"`` (looked up as
    ``"arrow <color>"`` in the palette) or any SVG colour such as ``"#ff000080"``.
    """

    __slots__ = ("color", "head", "tail")

    def __init__(self, tail: int, head: int, *, color: str = "green") -> None:
        self.tail = _square(tail, "arrow tail")
        self.head = _square(head, "arrow head")
        if not isinstance(color, str) or not color:
            raise TypeError(f"arrow color must be a non-empty str, got {color!r}")
        self.color = color

    def pgn(self) -> str:
        """The arrow as a lichess/ChessBase PGN comment token, like ``Ga1h8`` or ``Re4``."""
        letter = {"red": "R", "yellow": "Y", "blue": "B"}.get(self.color, "G")
        text = letter + _square_name(self.tail)
        return text if self.tail == self.head else text + _square_name(self.head)

    @classmethod
    def from_pgn(cls, pgn: str) -> Arrow:
        """Parses ``Ga1h8``, ``Ra1`` (a circle) or a bare ``a1h8`` (green)."""
        if not isinstance(pgn, str):
            raise TypeError(f"arrow text must be a str, got {type(pgn).__name__}")
        colors = {"G": "green", "R": "red", "Y": "yellow", "B": "blue"}
        color = colors.get(pgn[:1])
        body = pgn[1:] if color is not None else pgn
        match = re.fullmatch(r"([a-h][1-8])([a-h][1-8])?", body)
        if match is None:
            raise ValueError(f"invalid arrow {pgn!r}: expected like 'Ga1h8', 'Ra1' or 'a1h8'")
        tail = _parse_square(match.group(1))
        head = _parse_square(match.group(2)) if match.group(2) else tail
        return cls(tail, head, color=color or "green")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Arrow):
            return NotImplemented
        return (self.tail, self.head, self.color) == (other.tail, other.head, other.color)

    def __hash__(self) -> int:
        return hash((self.tail, self.head, self.color))

    def __repr__(self) -> str:
        return (
            f"Arrow({_square_name(self.tail).upper()}, {_square_name(self.head).upper()}, "
            f"color={self.color!r})"
        )


def board(
    board: Any = None,
    *,
    orientation: bool = True,
    lastmove: Any = None,
    check: int | None = None,
    arrows: Iterable[Arrow | tuple[int, int]] = (),
    fill: Mapping[int, str] | None = None,
    squares: Any = None,
    size: int | None = None,
    coordinates: bool = True,
    colors: Mapping[str, str] | None = None,
    flipped: bool = False,
    borders: bool = False,
    style: str | None = None,
) -> SvgWrapper:
    """Renders a board as SVG, with python-chess's ``chess.svg.board`` arguments.

    ``board`` is any object with ``piece_at(square)`` (``None`` draws an empty board).
    ``orientation`` is the colour at the bottom (``True`` = white); ``flipped=True`` turns it
    round (kept for python-chess compatibility). ``lastmove`` is a move with ``from_square``
    and ``to_square`` whose squares are highlighted; ``check`` is the square of a king in
    check, drawn with a red glow. ``arrows`` are :class:`Arrow` or ``(tail, head)`` pairs,
    ``fill`` maps squares to colours, ``squares`` marks squares with an x. ``size`` sets the
    width and height in pixels (otherwise the drawing scales to its container). ``colors``
    overrides palette entries (keys as in ``DEFAULT_COLORS``; ``#rrggbbaa`` sets opacity).
    ``style`` is CSS added in a ``<style>`` element.

    Bad arguments raise ``TypeError`` (wrong type) or ``ValueError`` (out of range).
    """
    orientation = _flag(orientation, "orientation") ^ _flag(flipped, "flipped")
    coordinates = _flag(coordinates, "coordinates")
    borders = _flag(borders, "borders")
    palette = _palette(colors)
    size = _size(size)
    pieces = _pieces(board)
    last = _lastmove(lastmove)
    check_square = None if check is None else _square(check, "check")
    arrow_list = _arrows(arrows)
    fills = _fills(fill)
    marks = _square_set(squares, "squares")
    if style is not None and not isinstance(style, str):
        raise TypeError(f"style must be a str or None, got {type(style).__name__}")

    outer = BORDER if borders else 0
    margin = MARGIN if coordinates else 0
    inner = BORDER if borders else 0
    origin = outer + margin + inner
    full = 2 * origin + 8 * SQUARE_SIZE

    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "version": "1.1",
            "viewBox": f"0 0 {full} {full}",
        },
    )
    if size is not None:
        svg.set("width", str(size))
        svg.set("height", str(size))
    if style:
        ET.SubElement(svg, "style").text = style

    if check_square is not None:
        defs = ET.SubElement(svg, "defs")
        gradient = ET.SubElement(defs, "radialGradient", {"id": "check_gradient", "r": "0.5"})
        for offset, opacity in (("0%", "1"), ("50%", "0.8"), ("100%", "0")):
            ET.SubElement(
                gradient,
                "stop",
                {"offset": offset, "stop-color": palette["check"], "stop-opacity": opacity},
            )

    if outer:
        _rect(svg, 0, 0, full, full, palette["outer border"], "border outer")
    if margin:
        _rect(svg, outer, outer, full - 2 * outer, full - 2 * outer, palette["margin"], "margin")
    if inner:
        _rect(
            svg,
            outer + margin,
            outer + margin,
            full - 2 * (outer + margin),
            full - 2 * (outer + margin),
            palette["inner border"],
            "border inner",
        )

    def corner(square: int) -> tuple[int, int]:
        file, rank = square & 7, square >> 3
        column = file if orientation else 7 - file
        row = 7 - rank if orientation else rank
        return origin + column * SQUARE_SIZE, origin + row * SQUARE_SIZE

    for square in range(64):
        x, y = corner(square)
        shade = "light" if (square & 7) % 2 != (square >> 3) % 2 else "dark"
        highlighted = square in last
        key = f"square {shade} lastmove" if highlighted else f"square {shade}"
        classes = f"square {shade}{' lastmove' if highlighted else ''} {_square_name(square)}"
        _rect(svg, x, y, SQUARE_SIZE, SQUARE_SIZE, palette[key], classes)

    for square, fill_color in fills:
        x, y = corner(square)
        _rect(svg, x, y, SQUARE_SIZE, SQUARE_SIZE, fill_color, f"fill {_square_name(square)}")

    if check_square is not None:
        x, y = corner(check_square)
        ET.SubElement(
            svg,
            "rect",
            {
                "x": str(x),
                "y": str(y),
                "width": str(SQUARE_SIZE),
                "height": str(SQUARE_SIZE),
                "fill": "url(#check_gradient)",
                "class": f"check {_square_name(check_square)}",
            },
        )

    if coordinates:
        _coordinates(svg, palette["coord"], orientation, outer, margin, origin)

    for square, (piece_type, white) in pieces:
        x, y = corner(square)
        svg.append(_piece_text(piece_type, white, x, y, _square_name(square)))

    for square in marks:
        x, y = corner(square)
        low, high = SQUARE_SIZE * 0.25, SQUARE_SIZE * 0.75
        ET.SubElement(
            svg,
            "path",
            {
                "d": (
                    f"M{_num(x + low)},{_num(y + low)} L{_num(x + high)},{_num(y + high)} "
                    f"M{_num(x + high)},{_num(y + low)} L{_num(x + low)},{_num(y + high)}"
                ),
                "stroke": "#000000",
                "stroke-width": "3",
                "stroke-opacity": "0.6",
                "class": f"mark {_square_name(square)}",
            },
        )

    for arrow in arrow_list:
        color = palette.get(f"arrow {arrow.color}", arrow.color)
        _arrow(svg, arrow, corner, color)

    return SvgWrapper(ET.tostring(svg, encoding="unicode"))


def piece(piece: Any, size: int | None = None) -> SvgWrapper:
    """Renders one piece (anything with ``.piece_type`` and ``.color``) as SVG."""
    piece_type, color = _piece_fields(piece, "piece")
    size = _size(size)
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "version": "1.1",
            "viewBox": f"0 0 {SQUARE_SIZE} {SQUARE_SIZE}",
        },
    )
    if size is not None:
        svg.set("width", str(size))
        svg.set("height", str(size))
    glyph = _piece_text(piece_type, color, 0, 0, None)
    # python-chess's id for the piece's definition, which scripts look for.
    glyph.set("id", f"{'white' if color else 'black'}-{PIECE_NAMES[piece_type - 1]}")
    svg.append(glyph)
    return SvgWrapper(ET.tostring(svg, encoding="unicode"))


def repr_svg(board_: Any, size: int | None = 390) -> SvgWrapper:
    """The notebook picture of a game board: coordinates, last move and check highlighted.

    Meant for ``Board._repr_svg_``. Needs ``piece_at``; uses ``move_stack``/``peek()``,
    ``is_check()``, ``king(color)`` and ``turn`` when the board has them.
    """
    lastmove = None
    if getattr(board_, "move_stack", None):
        lastmove = board_.peek()
    check = None
    is_check = getattr(board_, "is_check", None)
    if callable(is_check) and is_check():
        check = board_.king(board_.turn)
    return board(board_, lastmove=lastmove, check=check, size=size)


# --- drawing helpers -------------------------------------------------------------------------


def _rect(
    parent: ET.Element, x: float, y: float, w: float, h: float, color: str, classes: str
) -> None:
    attrs = {"x": _num(x), "y": _num(y), "width": _num(w), "height": _num(h)}
    attrs.update(_paint("fill", color))
    attrs["class"] = classes
    ET.SubElement(parent, "rect", attrs)


def _piece_text(piece_type: int, color: bool, x: float, y: float, square: str | None) -> ET.Element:
    name = f"{'white' if color else 'black'} {PIECE_NAMES[piece_type - 1]}"
    attrs = {
        "x": _num(x + SQUARE_SIZE / 2),
        "y": _num(y + SQUARE_SIZE * 0.53),
        "font-family": PIECE_FONTS,
        "font-size": _num(SQUARE_SIZE * 0.86),
        "text-anchor": "middle",
        "dominant-baseline": "central",
        "fill": "#ffffff" if color else "#000000",
        "stroke": "#000000",
        "stroke-width": "1.4" if color else "0.6",
        "stroke-linejoin": "round",
        "class": f"piece {name}" + (f" {square}" if square else ""),
    }
    text = ET.Element("text", attrs)
    text.text = PIECE_GLYPHS[piece_type - 1] + TEXT_PRESENTATION
    return text


def _coordinates(
    svg: ET.Element, color: str, orientation: bool, outer: int, margin: int, origin: int
) -> None:
    attrs = {
        "font-family": COORD_FONTS,
        "font-size": _num(margin * 0.6),
        "text-anchor": "middle",
        "dominant-baseline": "central",
    }
    attrs.update(_paint("fill", color))
    files = FILE_NAMES if orientation else FILE_NAMES[::-1]
    ranks = RANK_NAMES[::-1] if orientation else RANK_NAMES
    far = origin + 8 * SQUARE_SIZE + (origin - outer - margin)
    for i in range(8):
        centre = origin + (i + 0.5) * SQUARE_SIZE
        for edge in (outer + margin / 2, far + margin / 2):
            file_label = ET.SubElement(
                svg, "text", {"x": _num(centre), "y": _num(edge), **attrs, "class": "coord file"}
            )
            file_label.text = files[i]
            rank_label = ET.SubElement(
                svg, "text", {"x": _num(edge), "y": _num(centre), **attrs, "class": "coord rank"}
            )
            rank_label.text = ranks[i]


def _arrow(
    svg: ET.Element, arrow: Arrow, corner: Callable[[int], tuple[int, int]], color: str
) -> None:
    half = SQUARE_SIZE / 2
    tail_x, tail_y = corner(arrow.tail)
    head_x, head_y = corner(arrow.head)
    # Centres of the two squares.
    tx, ty, hx, hy = tail_x + half, tail_y + half, head_x + half, head_y + half
    name = f"arrow {_square_name(arrow.tail)}{_square_name(arrow.head)}"
    if arrow.tail == arrow.head:
        attrs = {
            "cx": _num(tx),
            "cy": _num(ty),
            "r": _num(SQUARE_SIZE * 0.44),
            "fill": "none",
            "stroke-width": _num(SQUARE_SIZE * 0.08),
        }
        attrs.update(_paint("stroke", color))
        attrs["class"] = f"{name} circle"
        ET.SubElement(svg, "circle", attrs)
        return
    # As python-chess draws it: a <line> for the shaft, from the tail's centre to the base of
    # the head, and a <polygon> for the head, whose tip stops short of the head square's edge
    # so that the target piece stays visible.
    length = math.hypot(hx - tx, hy - ty)
    ux, uy = (hx - tx) / length, (hy - ty) / length
    px, py = -uy, ux
    shaft, head_width, head_length = SQUARE_SIZE * 0.1, SQUARE_SIZE * 0.28, SQUARE_SIZE * 0.45
    tip_x, tip_y = hx + ux * SQUARE_SIZE * 0.2, hy + uy * SQUARE_SIZE * 0.2
    base_x, base_y = tip_x - ux * head_length, tip_y - uy * head_length
    line = {
        "x1": _num(tx),
        "y1": _num(ty),
        "x2": _num(base_x),
        "y2": _num(base_y),
        "stroke-width": _num(2 * shaft),
        "stroke-linecap": "butt",
    }
    line.update(_paint("stroke", color))
    line["class"] = name
    ET.SubElement(svg, "line", line)
    points = [
        (base_x + px * head_width, base_y + py * head_width),
        (tip_x, tip_y),
        (base_x - px * head_width, base_y - py * head_width),
    ]
    attrs = {"points": " ".join(f"{_num(x)},{_num(y)}" for x, y in points)}
    attrs.update(_paint("fill", color))
    attrs["class"] = name
    ET.SubElement(svg, "polygon", attrs)


def _paint(attribute: str, color: str) -> dict[str, str]:
    """``#rrggbbaa`` becomes a colour plus an opacity, which every SVG renderer understands."""
    if _HEX_ALPHA.match(color):
        opacity = int(color[7:9], 16) / 255
        return {attribute: color[:7], f"{attribute}-opacity": _num(round(opacity, 3))}
    return {attribute: color}


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


# --- argument checking -----------------------------------------------------------------------


def _square(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be a square (int 0..63), got {type(value).__name__}")
    if not 0 <= value < 64:
        raise ValueError(f"{what} must be a square 0..63 (a1 = 0), got {value}")
    return value


def _square_name(square: int) -> str:
    return FILE_NAMES[square & 7] + RANK_NAMES[square >> 3]


def _parse_square(name: str) -> int:
    return FILE_NAMES.index(name[0]) + 8 * RANK_NAMES.index(name[1])


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{what} must be a bool, got {type(value).__name__}")
    return value


def _size(size: Any) -> int | None:
    if size is None:
        return None
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"size must be an int or None, got {type(size).__name__}")
    if size <= 0:
        raise ValueError(f"size must be positive, got {size}")
    return size


def _palette(colors: Any) -> dict[str, str]:
    palette = dict(DEFAULT_COLORS)
    if colors is None:
        return palette
    if not isinstance(colors, Mapping):
        raise TypeError(f"colors must be a mapping, got {type(colors).__name__}")
    for key, value in colors.items():
        if key not in DEFAULT_COLORS:
            known = ", ".join(repr(k) for k in DEFAULT_COLORS)
            raise ValueError(f"unknown colors key {key!r}; known keys: {known}")
        if not isinstance(value, str) or not value:
            raise TypeError(f"colors[{key!r}] must be a non-empty str, got {value!r}")
        palette[key] = value
    return palette


def _piece_fields(piece: Any, what: str) -> tuple[int, bool]:
    try:
        piece_type, color = piece.piece_type, piece.color
    except AttributeError:
        raise TypeError(
            f"{what} must have .piece_type and .color, got {type(piece).__name__}"
        ) from None
    if isinstance(piece_type, bool) or not isinstance(piece_type, int):
        raise TypeError(f"{what}.piece_type must be an int, got {type(piece_type).__name__}")
    if not 1 <= piece_type <= 6:
        raise ValueError(f"{what}.piece_type must be 1 (pawn) .. 6 (king), got {piece_type}")
    if not isinstance(color, bool):
        raise TypeError(f"{what}.color must be a bool, got {type(color).__name__}")
    return piece_type, color


def _pieces(board_: Any) -> list[tuple[int, tuple[int, bool]]]:
    if board_ is None:
        return []
    piece_at = getattr(board_, "piece_at", None)
    if not callable(piece_at):
        raise TypeError(f"board must have a piece_at(square) method, got {type(board_).__name__}")
    found = []
    for square in range(64):
        found_piece = piece_at(square)
        if found_piece is not None:
            found.append((square, _piece_fields(found_piece, f"piece on {_square_name(square)}")))
    return found


def _lastmove(move: Any) -> frozenset[int]:
    # A null move is falsy in python-chess and highlights nothing, as there.
    if move is None or not move:
        return frozenset()
    try:
        from_square, to_square = move.from_square, move.to_square
    except AttributeError:
        raise TypeError(
            f"lastmove must be a move with from_square and to_square, got {type(move).__name__}"
        ) from None
    return frozenset(
        (_square(from_square, "lastmove.from_square"), _square(to_square, "lastmove.to_square"))
    )


def _arrows(arrows: Any) -> list[Arrow]:
    if isinstance(arrows, (str, bytes)) or not isinstance(arrows, Iterable):
        raise TypeError(f"arrows must be an iterable of Arrow or (tail, head), got {arrows!r}")
    result = []
    for item in arrows:
        if isinstance(item, Arrow):
            result.append(item)
        elif isinstance(item, tuple) and len(item) == 2:
            result.append(Arrow(item[0], item[1]))
        else:
            raise TypeError(f"each arrow must be an Arrow or a (tail, head) tuple, got {item!r}")
    return result


def _fills(fill: Any) -> list[tuple[int, str]]:
    if fill is None:
        return []
    if not isinstance(fill, Mapping):
        raise TypeError(f"fill must be a mapping of squares to colours, got {type(fill).__name__}")
    result = []
    for square, color in fill.items():
        if not isinstance(color, str) or not color:
            raise TypeError(f"fill colour must be a non-empty str, got {color!r}")
        result.append((_square(square, "fill square"), color))
    return sorted(result)


def _square_set(squares: Any, what: str) -> list[int]:
    """Squares from an iterable (``SquareSet``, list) or a 64-bit mask, as python-chess allows."""
    if squares is None:
        return []
    if isinstance(squares, int) and not isinstance(squares, bool):
        if not 0 <= squares < 1 << 64:
            raise ValueError(f"{what} mask must fit in 64 bits, got {squares}")
        return [s for s in range(64) if squares >> s & 1]
    if not isinstance(squares, Iterable) or isinstance(squares, (str, bytes)):
        raise TypeError(f"{what} must be an iterable of squares or a mask, got {squares!r}")
    return sorted({_square(s, f"{what} entry") for s in squares})

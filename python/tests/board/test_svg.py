"""shatranj.svg: well-formed, deterministic SVG with python-chess's chess.svg arguments.

Written against python-chess boards: the module is duck-typed and must draw them (and
shatranj.Board, which has the same API) alike.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import chess
import pytest

import shatranj
from shatranj import svg

NS = "{http://www.w3.org/2000/svg}"

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITIONS = [
    chess.STARTING_FEN,
    KIWIPETE,
    "8/8/8/8/8/8/8/K6k w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
]


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root


def with_class(root: ET.Element, word: str) -> list[ET.Element]:
    return [e for e in root.iter() if word in e.get("class", "").split()]


def square_rect(root: ET.Element, name: str) -> ET.Element:
    (rect,) = [e for e in with_class(root, "square") if name in e.get("class", "").split()]
    return rect


@pytest.mark.parametrize("fen", POSITIONS)
def test_one_piece_element_per_piece(fen: str) -> None:
    board = chess.Board(fen)
    root = parse(svg.board(board))
    pieces = with_class(root, "piece")
    assert len(pieces) == len(board.piece_map())
    for element in pieces:
        colour, name, square = element.get("class", "").split()[1:]
        expected = board.piece_at(chess.parse_square(square))
        assert expected is not None
        assert colour == ("white" if expected.color else "black")
        assert name == chess.piece_name(expected.piece_type)


def test_sixty_four_squares_with_alternating_shades() -> None:
    root = parse(svg.board(chess.Board()))
    assert len(with_class(root, "square")) == 64
    assert "dark" in square_rect(root, "a1").get("class", "")
    assert "light" in square_rect(root, "h1").get("class", "")  # R1.1: h1 is light
    assert "light" in square_rect(root, "a8").get("class", "")


def test_empty_board_without_argument() -> None:
    root = parse(svg.board())
    assert with_class(root, "piece") == []
    assert len(with_class(root, "square")) == 64


def test_lastmove_highlights_exactly_its_two_squares() -> None:
    board = chess.Board()
    board.push_san("e4")
    root = parse(svg.board(board, lastmove=board.peek()))
    highlighted = sorted(e.get("class", "").split()[-1] for e in with_class(root, "lastmove"))
    assert highlighted == ["e2", "e4"]
    plain = parse(svg.board(board))
    assert square_rect(root, "e2").get("fill") != square_rect(plain, "e2").get("fill")
    assert square_rect(root, "e3").get("fill") == square_rect(plain, "e3").get("fill")


def test_null_move_highlights_nothing() -> None:
    root = parse(svg.board(chess.Board(), lastmove=chess.Move.null()))
    assert with_class(root, "lastmove") == []


def test_check_draws_a_gradient_on_the_king_square() -> None:
    board = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert board.is_check()
    root = parse(svg.board(board, check=board.king(board.turn)))
    (check,) = with_class(root, "check")
    assert check.get("class", "").split()[-1] == "e1"
    assert check.get("fill") == "url(#check_gradient)"
    gradient = root.find(f".//{NS}radialGradient")
    assert gradient is not None and gradient.get("id") == "check_gradient"
    assert with_class(parse(svg.board(board)), "check") == []


def test_repr_svg_takes_lastmove_and_check_from_the_board() -> None:
    board = chess.Board()
    for san in ["f3", "e5", "g4", "Qh4"]:
        board.push_san(san)
    text = svg.repr_svg(board)
    assert isinstance(text, svg.SvgWrapper) and text._repr_svg_() == text
    root = parse(text)
    assert sorted(e.get("class", "").split()[-1] for e in with_class(root, "lastmove")) == [
        "d8",
        "h4",
    ]
    assert [e.get("class") for e in with_class(root, "check")] == ["check e1"]
    assert root.get("width") == "390"


def corner_of(root: ET.Element, name: str) -> tuple[float, float]:
    rect = square_rect(root, name)
    return float(rect.get("x", "nan")), float(rect.get("y", "nan"))


@pytest.mark.parametrize(
    "kwargs", [{"orientation": chess.BLACK}, {"flipped": True}], ids=["orientation", "flipped"]
)
def test_black_at_the_bottom_puts_a1_top_right(kwargs: dict) -> None:
    root = parse(svg.board(chess.Board(), **kwargs))
    corners = {name: corner_of(root, name) for name in chess.SQUARE_NAMES}
    xs = [x for x, _ in corners.values()]
    ys = [y for _, y in corners.values()]
    assert corners["a1"] == (max(xs), min(ys))
    assert corners["h8"] == (min(xs), max(ys))
    # The black king is at the bottom, near the viewer.
    (king,) = [e for e in with_class(root, "king") if "black" in e.get("class", "")]
    assert float(king.get("y", "nan")) > max(ys) - 1


def test_white_at_the_bottom_puts_a1_bottom_left() -> None:
    root = parse(svg.board(chess.Board()))
    corners = {name: corner_of(root, name) for name in chess.SQUARE_NAMES}
    xs = [x for x, _ in corners.values()]
    ys = [y for _, y in corners.values()]
    assert corners["a1"] == (min(xs), max(ys))
    assert corners["h8"] == (max(xs), min(ys))


def test_flipped_and_black_orientation_cancel_out() -> None:
    board = chess.Board(KIWIPETE)
    assert svg.board(board, orientation=chess.BLACK, flipped=True) == svg.board(board)


def test_arrows_and_circles_are_counted() -> None:
    arrows: list[svg.Arrow | tuple[int, int]] = [
        svg.Arrow(chess.E2, chess.E4),
        svg.Arrow(chess.G1, chess.F3, color="red"),
        (chess.D1, chess.H5),
        svg.Arrow(chess.E8, chess.E8, color="blue"),
    ]
    root = parse(svg.board(chess.Board(), arrows=arrows))
    drawn = with_class(root, "arrow")
    assert len(drawn) == 7  # a circle, and three arrows of two elements each
    assert [e.tag for e in drawn].count(NS + "circle") == 1
    assert [e.tag for e in drawn].count(NS + "polygon") == 3  # the heads
    assert [e.tag for e in drawn].count(NS + "line") == 3  # the shafts


def test_arrow_pgn_round_trip() -> None:
    for text in ["Ga1h8", "Re4", "Yb1c3", "Bh8a1"]:
        assert svg.Arrow.from_pgn(text).pgn() == text
    assert svg.Arrow.from_pgn("a1h8") == svg.Arrow(chess.A1, chess.H8)
    assert svg.Arrow.from_pgn("Re4") == svg.Arrow(chess.E4, chess.E4, color="red")
    for bad in ["", "Xa1", "Gi1h8", "Ga1h9", "Ga1h8x"]:
        with pytest.raises(ValueError):
            svg.Arrow.from_pgn(bad)


@pytest.mark.parametrize("size", [None, 1, 390, 800])
def test_size_sets_width_and_height(size: int | None) -> None:
    root = parse(svg.board(chess.Board(), size=size))
    expected = None if size is None else str(size)
    assert root.get("width") == expected and root.get("height") == expected
    assert root.get("viewBox") == "0 0 400 400"


def test_coordinates_and_borders_change_the_frame() -> None:
    plain = parse(svg.board(chess.Board(), coordinates=False))
    assert plain.get("viewBox") == "0 0 360 360"
    assert with_class(plain, "coord") == []
    framed = parse(svg.board(chess.Board(), borders=True))
    assert framed.get("viewBox") == "0 0 404 404"
    labels = with_class(framed, "coord")
    assert sorted(e.text or "" for e in labels) == sorted(list("abcdefgh12345678") * 2)


def test_colors_fill_and_marks() -> None:
    root = parse(
        svg.board(
            chess.Board(),
            colors={"square light": "#ffffff", "square dark": "#00000080"},
            fill={chess.E4: "#ff0000"},
            squares=chess.SquareSet([chess.A3, chess.B3]),
            style=".piece { opacity: 0.9 }",
        )
    )
    assert square_rect(root, "h1").get("fill") == "#ffffff"
    assert square_rect(root, "a1").get("fill") == "#000000"
    assert square_rect(root, "a1").get("fill-opacity") == "0.5"
    assert [e.get("class") for e in with_class(root, "fill")] == ["fill e4"]
    assert [e.get("class") for e in with_class(root, "mark")] == ["mark a3", "mark b3"]
    assert with_class(parse(svg.board(squares=0b110)), "mark")[1].get("class") == "mark c1"


def test_piece_alone() -> None:
    root = parse(svg.piece(chess.Piece.from_symbol("N"), size=64))
    (element,) = with_class(root, "piece")
    assert element.get("class") == "piece white knight"
    assert root.get("width") == "64"
    assert (element.text or "").startswith("\u265e")


def test_output_is_deterministic() -> None:
    board = chess.Board(KIWIPETE)
    move = chess.Move.from_uci("e2a6")
    first = svg.board(board, lastmove=move, arrows=[(0, 63)], check=chess.E1)
    again = svg.board(chess.Board(KIWIPETE), lastmove=move, arrows=[(0, 63)], check=chess.E1)
    assert first == again


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"check": 64}, ValueError),
        ({"check": -1}, ValueError),
        ({"check": "e1"}, TypeError),
        ({"check": True}, TypeError),
        ({"lastmove": "e2e4"}, TypeError),
        ({"lastmove": chess.Move(0, 64)}, ValueError),
        ({"arrows": [(0, 64)]}, ValueError),
        ({"arrows": [(0, 1, 2)]}, TypeError),
        ({"arrows": "a1h8"}, TypeError),
        ({"size": 0}, ValueError),
        ({"size": "400"}, TypeError),
        ({"size": 4.5}, TypeError),
        ({"orientation": "white"}, TypeError),
        ({"flipped": 1}, TypeError),
        ({"colors": {"square lite": "#fff"}}, ValueError),
        ({"colors": {"square light": 3}}, TypeError),
        ({"colors": ["#fff"]}, TypeError),
        ({"fill": {64: "#fff"}}, ValueError),
        ({"squares": [70]}, ValueError),
        ({"squares": 1 << 64}, ValueError),
        ({"style": 3}, TypeError),
    ],
)
def test_bad_arguments_raise_typed_errors(kwargs: dict, error: type) -> None:
    with pytest.raises(error):
        svg.board(chess.Board(), **kwargs)


def test_bad_boards_and_pieces_raise_typed_errors() -> None:
    with pytest.raises(TypeError, match="piece_at"):
        svg.board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")

    class WeirdBoard:
        def piece_at(self, square: int) -> object:
            return (
                chess.Piece(7 if square == 0 else chess.PAWN, chess.WHITE) if square < 2 else None
            )

    with pytest.raises(ValueError, match="a1"):
        svg.board(WeirdBoard())
    with pytest.raises(TypeError):
        svg.piece("N")
    with pytest.raises(TypeError):
        svg.Arrow(0, 1, color=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        svg.Arrow(0, 99)


@pytest.mark.skipif(
    not hasattr(shatranj, "Board"), reason="shatranj.Board is not in this build of shatranj"
)
@pytest.mark.parametrize("fen", POSITIONS)
def test_shatranj_and_python_chess_boards_draw_alike(fen: str) -> None:
    ours, theirs = shatranj.Board(fen), chess.Board(fen)
    move = next(iter(theirs.legal_moves), None)
    if move is not None:
        ours.push_uci(move.uci())
        theirs.push(move)
    check = theirs.king(theirs.turn) if theirs.is_check() else None
    assert svg.board(ours, lastmove=ours.peek() if move else None, check=check) == svg.board(
        theirs, lastmove=move, check=check
    )
    assert svg.repr_svg(ours) == svg.repr_svg(theirs)
    # The Board's own notebook picture is this module's drawing.
    assert ours._repr_svg_() == svg.repr_svg(theirs)

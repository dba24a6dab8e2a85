"""review_game with engines: the in-process search, Stockfish, a crashing engine; the
annotated game, the tables and the notebook view of its result."""

from __future__ import annotations

import io
import sys

import pytest

import shatranj as chess
import shatranj.pgn
from shatranj import review
from shatranj.engine import Cp, Limit, Mate, MateGiven
from support.engines import FAKE_UCI, which

# A miniature with a real blunder and a mate at the end (the "Blackburne Shilling" trap).
SHILLING = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1"
LIMIT = Limit(nodes=3000)


def _game(text: str = SHILLING) -> shatranj.pgn.Game:
    game = shatranj.pgn.read_game(io.StringIO(text))
    assert game is not None
    return game


def test_the_same_game_gives_the_same_review_twice() -> None:
    first = review.review_game(_game(), limit=LIMIT)
    second = review.review_game(_game(), limit=LIMIT)
    assert first.moves == second.moves
    assert first.accuracy(chess.WHITE) == second.accuracy(chess.WHITE)


def test_a_review_of_the_shilling_trap() -> None:
    reviewed = review.review_game(_game(), limit=LIMIT)
    moves = reviewed.moves
    assert [m.san for m in moves][-1] == "Nf3#" and len(moves) == 14
    assert moves[0].eval_before == Cp(review.START_CP)  # lichess's start
    assert moves[-1].eval_after == Mate(0)  # White is checkmated on the board: no search
    # 5. Nxf7 is a blunder, and the engine found a better move there.
    nxf7 = moves[8]
    assert nxf7.san == "Nxf7" and nxf7.judgement == "Blunder" and nxf7.nag == 4
    assert nxf7.best_move is not None and nxf7.best_move != nxf7.move
    assert nxf7.comment == f"Blunder. {nxf7.best_san} was best."
    assert nxf7.eval_before is not None and nxf7.eval_after is not None
    before, after = (m.score() / 100 for m in (nxf7.eval_before, nxf7.eval_after))  # type: ignore[operator]
    assert nxf7.advice == f"({before:.2f} → {after:.2f}) {nxf7.comment}"
    assert (
        moves[12].advice is not None
        and "→ Mate in 1) Checkmate is now unavoidable." in moves[12].advice
    )
    # Judged moves are never the engine's own choice (lichess's "has a variation").
    assert all(m.best_move != m.move for m in reviewed.judged())
    assert reviewed.accuracy(chess.BLACK) > reviewed.accuracy(chess.WHITE)  # type: ignore[operator]
    assert reviewed.counts(chess.WHITE)["Blunder"] >= 1
    assert reviewed.worst() is not None and reviewed.worst().color == chess.WHITE  # type: ignore[union-attr]


def test_a_board_with_its_move_stack_is_a_game() -> None:
    board = chess.Board()
    for san in ("f3", "e5", "g4", "Qh4#"):
        board.push_san(san)
    reviewed = review.review_game(board, limit=LIMIT)
    assert [m.san for m in reviewed.moves] == ["f3", "e5", "g4", "Qh4#"]
    assert reviewed.moves[-1].eval_after == Mate(0)
    assert reviewed.moves[2].judgement == "Blunder"  # g4 allows mate in one
    assert reviewed.moves[2].mate_comment == "Checkmate is now unavoidable"


def test_a_game_from_a_position_is_judged_from_the_engines_eval_of_it() -> None:
    game = _game('[FEN "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"]\n[SetUp "1"]\n\n1. Ra8# 1-0')
    reviewed = review.review_game(game, limit=LIMIT)
    assert reviewed.start_eval == Mate(1)
    assert reviewed.moves[0].eval_after == MateGiven
    assert reviewed.moves[0].judgement is None and reviewed.accuracy(chess.WHITE) == 100.0


def test_multipv_keeps_that_many_lines() -> None:
    reviewed = review.review_game(_game("1. e4 e5 *"), limit=LIMIT, multipv=3)
    assert all(len(m.lines) == 3 for m in reviewed.moves)
    assert reviewed.moves[0].lines[0][1][0] == reviewed.moves[0].best_move


def test_the_annotated_game_reads_back_to_the_same_judgements() -> None:
    reviewed = review.review_game(_game(), limit=LIMIT)
    annotated = reviewed.annotate()
    text = str(annotated)
    assert "[%eval" in text and "$4" in text and "was best." in text
    assert annotated.headers["WhiteAccuracy"] == f"{reviewed.accuracy(chess.WHITE):.1f}"
    assert annotated.headers["BlackACPL"] == str(reviewed.acpl(chess.BLACK))
    again = review.review_game(shatranj.pgn.read_game(io.StringIO(text)), from_comments=True)
    # The evaluations read back exactly.
    assert [(m.eval_before, m.eval_after) for m in again.moves] == [
        (m.eval_before, m.eval_after) for m in reviewed.moves
    ]
    # From comments there are no best moves (`review_game`'s docs): a move that was the
    # engine's own choice, which the engine review leaves unjudged (lichess's rule), is judged
    # by its evaluations alone there (at 3,000 nodes, 4. Nxe5 was the engine's choice,
    # +1.50 before and +0.78 after, an inaccuracy by the drop). Every other move reads back
    # the same.
    not_engine_choice = [m.best_move != m.move for m in reviewed.moves]
    assert [m.judgement for m, keep in zip(again.moves, not_engine_choice) if keep] == [
        m.judgement for m, keep in zip(reviewed.moves, not_engine_choice) if keep
    ]
    # Enough judged moves for the comparison above to mean something (at 3,000 nodes the
    # three blunders 5. Nxf7, 6. Rf1 and 7. Be2; the count moves with the search).
    assert sum(m.judgement is not None for m in reviewed.moves) >= 3
    assert again.accuracy(chess.WHITE) == pytest.approx(reviewed.accuracy(chess.WHITE))
    # The best lines are variations beside the judged moves.
    assert len(annotated.variations[0].variations) == 1
    judged = [node for node in annotated.mainline() if node.nags]
    assert all(len(node.parent.variations) == 2 for node in judged)


def test_annotating_a_game_keeps_its_own_comments() -> None:
    game = _game("1. e4 { [%clk 0:03:00] } e5 { [%clk 0:02:59] } *")
    reviewed = review.review_game(game, limit=LIMIT)
    reviewed.annotate(game)
    first = game.variations[0]
    assert first.clock() == 180 and first.eval() is not None
    with pytest.raises(ValueError, match="main line"):
        reviewed.annotate(_game("1. d4 d5 *"))


def test_tables_have_one_row_per_ply() -> None:
    pytest.importorskip("pyarrow")
    reviewed = review.review_game(_game(), limit=LIMIT)
    table = reviewed.to_arrow()
    assert table.num_rows == 14
    assert table.column_names == [name for name, _ in review.MOVE_COLUMNS]
    assert table.column("judgement").to_pylist() == [m.judgement for m in reviewed.moves]
    assert table.column("eval_after_mate").to_pylist()[-1] == 0
    assert table.column("win_after").to_pylist()[-1] == pytest.approx(review.win_percent(-1000))


def test_the_notebook_view_shows_the_graph_and_the_worst_move() -> None:
    reviewed = review.review_game(_game(), limit=LIMIT)
    html = reviewed._repr_html_()
    assert html.count("<svg") == 2  # the graph and the board
    assert "Blunder" in html and "accuracy" in html
    worst = reviewed.worst()
    assert worst is not None and worst.label in html
    assert reviewed.graph_svg(ply=3).count("<circle") == len(reviewed.judged())


def test_the_notebook_view_at_a_chosen_move() -> None:
    reviewed = review.review_game(_game(), limit=LIMIT)
    html = reviewed.at(9)._repr_html_()
    assert html.count("<svg") == 2 and "5. Nxf7: Blunder." in html
    assert f'x1="{round(9 * 600 / 14, 2)}"' in html  # the marker line at ply 9
    with pytest.raises(ValueError, match="ply"):
        reviewed.at(15)


def test_plot_draws_with_matplotlib() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    ax = review.review_game(_game(), limit=LIMIT).plot()
    assert ax.get_ylim() == (0, 100)


def test_stockfish_reviews_a_game() -> None:
    stockfish = which("stockfish")
    if stockfish is None:
        pytest.skip("stockfish is not installed (scripts/test installs it)")
    reviewed = review.review_game(_game(), stockfish, Limit(nodes=5000))
    assert reviewed.engine is not None and "Stockfish" in reviewed.engine
    assert reviewed.moves[8].judgement == "Blunder"  # 5. Nxf7
    with chess.engine.SimpleEngine.popen_uci(stockfish) as engine:
        again = review.review_game(_game(), engine, Limit(nodes=5000))
    assert [m.judgement for m in again.moves][8] == "Blunder"


def test_an_engine_that_crashes_is_reported_with_the_ply() -> None:
    with pytest.raises(review.ReviewEngineError, match="ply 0") as caught:
        review.review_game(_game(), [sys.executable, FAKE_UCI, "crash"], LIMIT, timeout=5)
    assert caught.value.ply == 0


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"engine": 42}, TypeError),
        ({"limit": "fast"}, TypeError),
        ({"limit": Limit(mate=2)}, ValueError),
        ({"multipv": 0}, ValueError),
        ({"from_comments": True, "engine": "stockfish"}, ValueError),
    ],
)
def test_bad_arguments_are_typed_errors(kwargs: dict, error: type) -> None:
    with pytest.raises(error):
        review.review_game(_game(), **kwargs)


def test_a_game_must_be_a_game() -> None:
    with pytest.raises(TypeError, match="Game or a Board"):
        review.review_game("1. e4 e5")  # type: ignore[arg-type]

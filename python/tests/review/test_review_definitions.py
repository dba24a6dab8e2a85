"""shatranj.review's definitions against lichess's published numbers, and a game scored from
its [%eval] comments against the same definitions written out again, in the plainest form."""

from __future__ import annotations

import io
import math
import random

import pytest

import shatranj as chess
import shatranj.pgn
from shatranj import review
from shatranj.engine import Cp, Mate, MateGiven, PovScore

# The reference values (lichess's constants): Win% of centipawns, move accuracy of a
# Win% drop, and a game where White's first move throws away nine pawns.
WIN_PERCENT = [(0, 50.0), (100, 59.1026), (300, 75.1126), (1000, 97.5447)]
MOVE_ACCURACY = [(5, 80.82), (10, 64.58), (20, 41.02), (40, 15.91)]


@pytest.mark.parametrize(("cp", "expected"), WIN_PERCENT)
def test_win_percent_reproduces_lichess(cp: int, expected: float) -> None:
    assert round(review.win_percent(cp), 4) == expected
    assert round(review.win_percent(-cp), 4) == round(100 - expected, 4)


def test_win_percent_clamps_and_counts_mates_as_a_thousand_centipawns() -> None:
    assert review.win_percent(5000) == review.win_percent(1000)
    assert review.win_percent(Mate(3)) == review.win_percent(1000)
    assert review.win_percent(Mate(-3)) == review.win_percent(-1000)
    assert review.win_percent(MateGiven) == review.win_percent(1000)  # Black is checkmated
    assert review.win_percent(Mate(0)) == review.win_percent(-1000)  # White is checkmated
    # A PovScore is turned to White's view.
    assert review.win_percent(PovScore(Cp(100), chess.BLACK)) == review.win_percent(-100)


@pytest.mark.parametrize(("drop", "expected"), MOVE_ACCURACY)
def test_move_accuracy_reproduces_lichess(drop: float, expected: float) -> None:
    assert round(review.move_accuracy(60, 60 - drop), 2) == expected


def test_move_accuracy_is_100_without_a_drop_and_never_below_0() -> None:
    assert review.move_accuracy(40, 55) == 100.0
    assert review.move_accuracy(100, 0) == 0.0


def test_game_accuracy_reproduces_lichess() -> None:
    white, black = review.game_accuracy([-900, -900])
    assert round(white, 2) == 10.66 and black == 100.0  # type: ignore[arg-type]
    # The mirrored game, Black to move first from a mirrored start: the roles swap.
    black_first = review.game_accuracy([900, 900], first_mover=chess.BLACK, start=-15)
    assert black_first[0] == 100.0 and round(black_first[1], 2) == 10.66  # type: ignore[arg-type]


def test_a_side_without_moves_has_no_accuracy_or_acpl() -> None:
    assert review.game_accuracy([]) == (None, None)
    assert review.game_accuracy([30])[1] is None
    assert review.acpl([30]) == (0, None)


# (before, after, mover, judgement, mate comment): White's evaluations around one move.
JUDGEMENTS = [
    (0, -100, chess.WHITE, "Inaccuracy", None),  # winning chances −0.184
    (0, -150, chess.WHITE, "Mistake", None),  # −0.272
    (0, -300, chess.WHITE, "Blunder", None),
    (0, 300, chess.BLACK, "Blunder", None),
    (0, -50, chess.WHITE, None, None),
    (100, 0, chess.WHITE, "Inaccuracy", None),
    (-20, 20, chess.BLACK, None, None),
    (100, 400, chess.WHITE, None, None),  # a gain
    (5000, 1100, chess.WHITE, None, None),  # raw cp, not clamped: both near +1
    (-650, Mate(-4), chess.WHITE, "Blunder", "Checkmate is now unavoidable"),
    (-800, Mate(-4), chess.WHITE, "Mistake", "Checkmate is now unavoidable"),
    (-1200, Mate(-4), chess.WHITE, "Inaccuracy", "Checkmate is now unavoidable"),
    (650, Mate(4), chess.BLACK, "Blunder", "Checkmate is now unavoidable"),
    (Mate(3), 1200, chess.WHITE, "Inaccuracy", "Lost forced checkmate sequence"),
    (Mate(3), 800, chess.WHITE, "Mistake", "Lost forced checkmate sequence"),
    (Mate(3), 200, chess.WHITE, "Blunder", "Lost forced checkmate sequence"),
    (Mate(3), Mate(-2), chess.WHITE, "Blunder", "Lost forced checkmate sequence"),
    (Mate(-3), -800, chess.BLACK, "Mistake", "Lost forced checkmate sequence"),
    (Mate(3), Mate(5), chess.WHITE, None, None),  # a mate merely delayed
    (Mate(-3), Mate(-1), chess.WHITE, None, None),  # getting mated sooner: not judged either
    (300, Mate(2), chess.WHITE, None, None),  # finding a mate
    (Mate(1), MateGiven, chess.WHITE, None, None),  # the mate delivered
    (Mate(-1), Mate(0), chess.BLACK, None, None),
]


def _expected_cp_judgement(before: int, after: int, mover: bool) -> str | None:
    sign = 1 if mover else -1
    chances = lambda cp: 2 / (1 + math.exp(-0.00368208 * cp)) - 1  # noqa: E731
    drop = (chances(before) - chances(after)) * sign
    return (
        "Blunder"
        if drop >= 0.3
        else "Mistake"
        if drop >= 0.2
        else "Inaccuracy"
        if drop >= 0.1
        else None
    )


@pytest.mark.parametrize(("before", "after", "mover", "judgement", "comment"), JUDGEMENTS)
def test_judgements_follow_lichess(
    before: object, after: object, mover: bool, judgement: str | None, comment: str | None
) -> None:
    found = review.judge(before, after, mover)  # type: ignore[arg-type]
    assert found == (None if judgement is None else (judgement, comment))
    if isinstance(before, int) and isinstance(after, int):
        assert judgement == _expected_cp_judgement(before, after, mover)


def test_acpl_ceils_at_a_thousand_and_rounds_half_up() -> None:
    # White: 15 → −2000 ceiled to −1000 (a loss of 1015), then 0 → 0; Black: −1000 → 0 (1000).
    assert review.centipawn_losses([-2000, 0, 0]) == ([1015, 0], [1000])
    assert review.acpl([-2000, 0, 0]) == (508, 1000)  # 507.5 rounds up
    assert review.acpl([14, 14]) == (1, 0)  # 15 → 14 is a loss of 1
    assert review.acpl([Mate(-2), 0]) == (1015, 1000)  # a mate counts as 1000


# --- a game scored from its [%eval] comments, against the definitions written out again -------


def _plain_win(cp: float) -> float:
    cp = max(-1000.0, min(1000.0, cp))
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


def _plain_accuracy(before: float, after: float) -> float:
    if after >= before:
        return 100.0
    return max(
        0.0,
        min(
            100.0,
            103.1668100711649 * math.exp(-0.04354415386753951 * (before - after))
            - 3.166924740191411
            + 1,
        ),
    )


def _plain_game_accuracy(cps: list[float]) -> tuple[float, float]:
    wins = [_plain_win(15)] + [_plain_win(cp) for cp in cps]
    size = min(8, max(2, len(cps) // 10))
    windows = [wins[:size]] * (size - 2) + [wins[i : i + size] for i in range(len(wins) - size + 1)]
    per_side: tuple[list[tuple[float, float]], list[tuple[float, float]]] = ([], [])
    for i in range(len(cps)):
        window = windows[i]
        mean = sum(window) / len(window)
        weight = min(12.0, max(0.5, math.sqrt(sum((w - mean) ** 2 for w in window) / len(window))))
        if i % 2 == 0:
            per_side[0].append((_plain_accuracy(wins[i], wins[i + 1]), weight))
        else:
            per_side[1].append((_plain_accuracy(100 - wins[i], 100 - wins[i + 1]), weight))
    result = []
    for moves in per_side:
        weighted = sum(a * w for a, w in moves) / sum(w for _, w in moves)
        harmonic = len(moves) / sum(1 / max(1.0, a) for a, _ in moves)
        result.append((weighted + harmonic) / 2)
    return result[0], result[1]


def _game_with_evals(seed: int, plies: int) -> tuple[str, list[int]]:
    """A random game of ``plies`` moves (no mate on the board) with random [%eval]s."""
    rng = random.Random(seed)
    board = chess.Board()
    cps: list[int] = []
    for _ in range(plies):
        moves = [m for m in board.legal_moves if not board.gives_check(m)] or list(
            board.legal_moves
        )
        board.push(rng.choice(moves))
        if board.is_game_over():
            board.pop()
            break
        cps.append(
            rng.choice([rng.randint(-120, 120), rng.randint(-700, 700), rng.randint(-2500, 2500)])
        )
    game = shatranj.pgn.Game.from_board(board)
    for node, cp in zip(game.mainline(), cps):
        node.comment = f"[%eval {cp / 100:.2f}]"
    return str(game), cps


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_game_scored_from_its_comments_matches_the_definitions_written_out(seed: int) -> None:
    print("seed", seed)
    text, cps = _game_with_evals(seed, 30 + 20 * seed)
    game = shatranj.pgn.read_game(io.StringIO(text))
    reviewed = review.review_game(game, from_comments=True)
    assert reviewed.engine is None and len(reviewed.moves) == len(cps)
    white, black = _plain_game_accuracy([float(cp) for cp in cps])
    assert reviewed.accuracy(chess.WHITE) == pytest.approx(white, abs=1e-9)
    assert reviewed.accuracy(chess.BLACK) == pytest.approx(black, abs=1e-9)
    before = [15] + cps
    for i, move in enumerate(reviewed.moves):
        assert move.eval_after == Cp(cps[i])
        assert move.judgement == _expected_cp_judgement(before[i], cps[i], i % 2 == 0), move.label
        assert move.nag == (None if move.judgement is None else review.NAGS[move.judgement])
    losses = ([], [])  # type: tuple[list[int], list[int]]
    for i in range(len(cps)):
        b, a = (max(-1000, min(1000, x)) for x in (before[i], cps[i]))
        losses[i % 2].append(max(0, b - a if i % 2 == 0 else a - b))
    for color, side in ((chess.WHITE, 0), (chess.BLACK, 1)):
        assert reviewed.acpl(color) == math.floor(sum(losses[side]) / len(losses[side]) + 0.5)


def test_moves_without_an_eval_are_left_out() -> None:
    game = shatranj.pgn.read_game(
        io.StringIO("1. e4 { [%eval 0.2] } e5 2. Nf3 { [%eval 0.3] } Nc6 { [%eval 0.3] } *")
    )
    reviewed = review.review_game(game, from_comments=True)
    assert [m.accuracy is None for m in reviewed.moves] == [False, True, True, False]
    assert [m.judgement for m in reviewed.moves] == [None] * 4
    # lichess's weights need every value of a window: with windows of 2, moves 2 and 3 go.
    assert reviewed.accuracy(chess.WHITE) == review.game_accuracy([20, None, 30, 30])[0]


def test_bad_evaluations_are_refused_with_a_type_error() -> None:
    with pytest.raises(TypeError, match="evaluation"):
        review.win_percent("30")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="evaluation"):
        review.game_accuracy([1.5])  # type: ignore[list-item]

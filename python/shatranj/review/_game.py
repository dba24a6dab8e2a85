"""One game reviewed: an evaluation of every position, then each move judged as lichess does.

:func:`review_game` walks a game's main line once, asks the engine (or the game's own
``[%eval]`` comments) for every position, and hands the evaluations to the definitions of
:mod:`shatranj.review._definitions`. The :class:`GameReview` it returns holds the facts (one
:class:`MoveReview` per ply) and derives the rest: accuracies, average centipawn losses,
judgement counts, an annotated PGN game, tables, and a notebook display.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._core import STARTING_FEN, Board, Move
from ..engine._scores import Cp, Mate, MateGiven, PovScore, Score
from ..engine._values import Limit
from . import _definitions as d
from ._engines import Analyser, EngineSpec, Line
from ._record import GameReview, MoveReview

#: A game to review: a PGN game (its main line), or a board whose move stack is the game.
GameLike = Any | Board
#: ``progress(done, total)``: positions evaluated so far, of all.
PositionProgress = Callable[[int, int], object]


def _terminal_score(board: Board) -> Score | None:
    """White's evaluation of a position where the game is over on the board: checkmate (the
    side to move is mated) or a draw by rule; ``None`` while the game goes on."""
    outcome = board.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return Cp(0)
    return MateGiven if outcome.winner else Mate(0)


def _mainline(game: GameLike) -> tuple[Board, list[Move], dict[str, str], list[PovScore | None]]:
    """The start position, the main line's moves, the headers and the ``[%eval]`` after each
    move (``None`` where absent) of a PGN game or a board with its move stack."""
    if isinstance(game, Board):
        return game.root(), list(game.move_stack), {}, [None] * len(game.move_stack)
    if not hasattr(game, "mainline") or not hasattr(game, "board"):
        raise TypeError(f"game must be a shatranj.pgn.Game or a Board, not {type(game).__name__}")
    nodes = list(game.mainline())
    return game.board(), [n.move for n in nodes], dict(game.headers), [n.eval() for n in nodes]


def _best(board: Board, lines: list[Line]) -> tuple[Move | None, str | None]:
    if not lines or not lines[0].pv:
        return None, None
    move = lines[0].pv[0]
    return move, board.san(move)


def review_game(
    game: GameLike,
    engine: EngineSpec = None,
    limit: Limit | None = None,
    *,
    from_comments: bool = False,
    multipv: int = 1,
    threads: int = 1,
    hash_mb: int = 64,
    start_eval: d.Evaluation | None = None,
    timeout: float | None = 10.0,
    position_timeout: float | None = None,
    progress: PositionProgress | None = None,
    analyser: Analyser | None = None,
) -> GameReview:
    """Reviews a game's main line as lichess does: every move's evaluation, Win%, accuracy and
    judgement, the engine's better move, and each side's accuracy and ACPL.

    ``game`` is a :class:`shatranj.pgn.Game` or a :class:`~shatranj.Board` with its move stack.
    ``engine`` is ``None`` (the shatranj search in this process, ``threads`` threads and
    ``hash_mb`` MiB), an :class:`~shatranj.engine.Engine`, a
    :class:`~shatranj.engine.SimpleEngine`, or a UCI engine's command (started, and restarted
    once if it dies, stops answering for ``timeout`` seconds, or searches one position longer
    than ``position_timeout`` seconds; then closed). ``limit`` bounds each search
    (default ``Limit(nodes=100_000)``); ``multipv`` keeps that many lines per position. Every
    game starts with a cleared hash, so with fixed nodes or depth and one thread the same game
    gives the same review.

    ``from_comments=True`` uses the game's ``[%eval …]`` comments instead of an engine (lichess
    exports carry them): no best moves then, and every move with evaluations on both sides is
    judged. A position where the game is over on the board (checkmate, stalemate, a dead
    draw) is scored by the rules, not searched.

    The first move is judged against ``start_eval``: by default +15 cp for the standard start
    (lichess's value), the engine's evaluation of any other start (with ``from_comments``, the
    game's own comment before the first move, if any).
    """
    start, moves, headers, comment_evals = _mainline(game)
    if from_comments and (engine is not None or analyser is not None):
        raise ValueError("from_comments=True reviews without an engine: pass no engine")
    own: Analyser | None = None
    if not from_comments and analyser is None:
        own = analyser = Analyser(
            engine,
            limit,
            multipv=multipv,
            threads=threads,
            hash_mb=hash_mb,
            timeout=timeout,
            position_timeout=position_timeout,
        )
    try:
        return _review(start, moves, headers, comment_evals, analyser, start_eval, game, progress)
    finally:
        if own is not None:
            own.close()


def _review(
    start: Board,
    moves: list[Move],
    headers: dict[str, str],
    comment_evals: list[PovScore | None],
    analyser: Analyser | None,
    start_eval: d.Evaluation | None,
    game: GameLike,
    progress: PositionProgress | None,
) -> GameReview:
    board = start.copy()
    if analyser is not None:
        analyser.new_game()
    evals: list[Score | None] = []
    answers: list[list[Line]] = []
    total = len(moves) + 1
    for ply in range(total):
        if ply > 0:
            board.push(moves[ply - 1])
        over = _terminal_score(board)
        lines: list[Line] = []
        if over is not None:
            score: Score | None = over
        elif analyser is not None:
            lines = analyser.lines(board, ply)
            score = lines[0].score
        elif ply > 0:
            found = comment_evals[ply - 1]
            score = None if found is None else found.white()
        else:
            root_eval = game.eval() if hasattr(game, "eval") else None
            score = None if root_eval is None else root_eval.white()
        evals.append(score)
        answers.append(lines)
        if progress is not None:
            progress(ply + 1, total)
    if start_eval is not None:
        evals[0] = d.white_score(start_eval)
    elif start.fen() == STARTING_FEN and not start.chess960:
        evals[0] = Cp(d.START_CP)
    return _assemble(start, moves, headers, evals, answers, analyser)


def _assemble(
    start: Board,
    moves: list[Move],
    headers: dict[str, str],
    evals: list[Score | None],
    answers: list[list[Line]],
    analyser: Analyser | None,
) -> GameReview:
    board = start.copy()
    rows: list[MoveReview] = []
    for index, move in enumerate(moves):
        mover = board.turn
        before, after = evals[index], evals[index + 1]
        lines = answers[index]
        best_move, best_san = _best(board, lines)
        win_before = None if before is None else d.win_percent(before)
        win_after = None if after is None else d.win_percent(after)
        accuracy = None
        if win_before is not None and win_after is not None:
            accuracy = (
                d.move_accuracy(win_before, win_after)
                if mover
                else d.move_accuracy(100 - win_before, 100 - win_after)
            )
        verdict = None
        # Lichess judges a move only where the engine's best move was another one.
        if before is not None and after is not None and (best_move is None or best_move != move):
            verdict = d.judge(before, after, mover)
        san = board.san(move)
        uci = move.uci()
        rows.append(
            MoveReview(
                ply=index + 1,
                color=mover,
                move=move,
                san=san,
                uci=uci,
                eval_before=before,
                eval_after=after,
                win_before=win_before,
                win_after=win_after,
                accuracy=accuracy,
                judgement=None if verdict is None else verdict[0],
                mate_comment=None if verdict is None else verdict[1],
                best_move=best_move,
                best_san=best_san,
                pv=tuple(lines[0].pv) if lines else (),
                lines=tuple((line.score, tuple(line.pv)) for line in lines),
                depth=lines[0].depth if lines else None,
                nodes=lines[0].nodes if lines else None,
                move_number=board.fullmove_number,
            )
        )
        board.push(move)
    final = answers[-1] if answers else []
    return GameReview(
        headers=headers,
        start_fen=start.fen(),
        chess960=start.chess960,
        first_mover=start.turn,
        start_eval=evals[0],
        moves=rows,
        final_eval=evals[-1],
        final_lines=tuple((line.score, tuple(line.pv)) for line in final),
        engine=None if analyser is None else analyser.name,
        limit=None if analyser is None else analyser.limit,
    )


__all__ = ["GameLike", "review_game"]

"""Playing games between two engines: processes, clocks, rules, adjudication and PGN.

Built on python-chess's asynchronous engine API (``chess.engine.popen_uci`` /
``popen_xboard``), so one event loop can drive several games at once, and every engine call
is bounded by ``asyncio.wait_for``: an engine that hangs loses on time instead of hanging
the match. The runner keeps the clocks itself (wall time around each move, Fischer
increment added after the move) and sends them to the engines as ``wtime``/``btime``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import time
from collections.abc import Callable

import chess
import chess.engine
import chess.pgn

from .config import ConfigError, EngineSpec, TimeControl, chess960_number

# How long an engine may take to start (answer uci/xboard) and to quit.
START_TIMEOUT = 30.0
QUIT_TIMEOUT = 5.0
# An engine that stays silent this long past its flag fall is abandoned (and restarted).
SILENCE_GRACE = 2.0
# A fixed-node move (--nodes) that takes longer than this is a hang.
NODES_TIMEOUT = 120.0


@dataclasses.dataclass(frozen=True)
class Adjudication:
    """Optional early ends of clearly decided games, judged on both engines' scores.

    Draw: from move ``draw_from_move`` on, ``draw_plies`` consecutive plies with
    ``|score| <= draw_cp``. Win: ``resign_plies`` consecutive plies where both engines agree
    that one side is ahead by at least ``resign_cp``. ``None`` turns a rule off.
    """

    draw_from_move: int | None = None
    draw_plies: int = 0
    draw_cp: int = 0
    resign_plies: int | None = None
    resign_cp: int = 0


def parse_draw_adjudication(text: str) -> tuple[int, int, int]:
    """``MOVE:PLIES:CP``, e.g. ``40:8:10``."""
    move, plies, cp = _ints(text, 3, "draw adjudication", "MOVE:PLIES:CP, e.g. 40:8:10")
    return move, plies, cp


def parse_resign_adjudication(text: str) -> tuple[int, int]:
    """``PLIES:CP``, e.g. ``6:1000``."""
    plies, cp = _ints(text, 2, "resign adjudication", "PLIES:CP, e.g. 6:1000")
    return plies, cp


def _ints(text: str, count: int, what: str, example: str) -> tuple[int, ...]:
    parts = text.split(":")
    if len(parts) != count or not all(p.strip().isdigit() for p in parts):
        raise ConfigError(f"bad {what} {text!r}: expected {example}")
    values = tuple(int(p) for p in parts)
    if values[count - 2] == 0:
        raise ConfigError(f"bad {what} {text!r}: the number of plies must be positive")
    return values


@dataclasses.dataclass
class GameResult:
    """One finished game, from the first engine's side for ``points``."""

    number: int
    white: str
    black: str
    first_is_white: bool
    result: str  # "1-0", "0-1" or "1/2-1/2"
    reason: str  # in words: "checkmate", "loss on time", ...
    pgn_termination: (
        str  # PGN Termination tag: normal, time forfeit, rules infraction, adjudication
    )
    loser_on_time: str | None
    failure: bool
    game: chess.pgn.Game
    white_id: str = ""  # the engines' own names (UCI "id name"), with versions
    black_id: str = ""

    @property
    def points(self) -> float:
        """Points of the first engine (the one under test)."""
        if self.result == "1/2-1/2":
            return 0.5
        white_won = self.result == "1-0"
        return 1.0 if white_won == self.first_is_white else 0.0


class Player:
    """One running engine process; restarted after it crashes or hangs."""

    def __init__(self, spec: EngineSpec) -> None:
        self.spec = spec
        self.transport: asyncio.SubprocessTransport | None = None
        self.protocol: chess.engine.Protocol | None = None
        self.id_name = spec.name

    async def start(self) -> None:
        popen = chess.engine.popen_uci if self.spec.protocol == "uci" else chess.engine.popen_xboard
        try:
            # setpgrp: Ctrl-C stops the runner, which then quits the engines itself.
            transport, protocol = await asyncio.wait_for(
                popen(list(self.spec.command), setpgrp=True, cwd=self.spec.workdir),
                START_TIMEOUT,
            )
        except asyncio.TimeoutError:
            raise ConfigError(
                f"engine {self.spec.name!r} did not answer {self.spec.protocol} within "
                f"{START_TIMEOUT:g} s: is it a {self.spec.protocol} engine?"
            ) from None
        except (OSError, chess.engine.EngineError) as error:
            raise ConfigError(f"engine {self.spec.name!r} failed to start: {error}") from None
        self.transport, self.protocol = transport, protocol
        self.id_name = protocol.id.get("name", self.spec.name)
        options: dict[str, str | int | bool] = dict(self.spec.options)
        # One thread each, unless the specification says otherwise.
        if "Threads" in protocol.options and "Threads" not in options:
            options["Threads"] = 1
        try:
            await protocol.configure(options)
        except chess.engine.EngineError as error:
            await self.close()
            raise ConfigError(f"engine {self.spec.name!r}: {error}") from None

    async def play(
        self, board: chess.Board, limit: chess.engine.Limit, game: object, timeout: float
    ) -> chess.engine.PlayResult:
        if self.protocol is None:
            await self.start()
        assert self.protocol is not None
        return await asyncio.wait_for(
            self.protocol.play(board, limit, game=game, info=chess.engine.INFO_SCORE),
            timeout,
        )

    async def close(self) -> None:
        protocol, transport = self.protocol, self.transport
        self.protocol = self.transport = None
        if protocol is not None:
            try:
                await asyncio.wait_for(protocol.quit(), QUIT_TIMEOUT)
            except (asyncio.TimeoutError, chess.engine.EngineError):
                pass
        if transport is not None:
            try:
                transport.kill()
            except ProcessLookupError:
                pass
            transport.close()


def start_board(opening: str) -> chess.Board:
    """The position after an opening given as SAN moves from the start, as a FEN/EPD, or a
    Chess960 start as ``chess960:N`` (a Chess960 board: python-chess then sets UCI_Chess960)."""
    text = opening.strip()
    number = chess960_number(text)
    if number is not None:
        return chess.Board.from_chess960_pos(number)
    if "/" in text:
        try:
            if len(text.split()) >= 6 and text.split()[4].isdigit():
                return chess.Board(text)
            board, _ = chess.Board.from_epd(text)
            return board
        except ValueError as error:
            raise ConfigError(f"bad opening position {opening!r}: {error}") from None
    board = chess.Board()
    for san in text.split():
        if san[0].isdigit():  # move numbers such as "1." or "1..."
            continue
        try:
            board.push_san(san)
        except ValueError as error:
            raise ConfigError(f"bad opening {opening!r}: {san!r}: {error}") from None
    return board


def _score_text(result: chess.engine.PlayResult) -> str:
    score = result.info.get("score")
    depth = result.info.get("depth")
    if score is None:
        return ""
    relative = score.relative
    mate = relative.mate()
    if mate is not None:
        text = f"{'+' if mate > 0 else '-'}M{abs(mate)}"
    else:
        text = f"{relative.score(mate_score=100_000) / 100:+.2f}"
    return f"{text}/{depth}" if depth is not None else text


def _white_cp(result: chess.engine.PlayResult) -> int | None:
    score = result.info.get("score")
    if score is None:
        return None
    return score.white().score(mate_score=100_000)


def _adjudicate(adjudication: Adjudication, board: chess.Board, scores: list[int | None]):
    """``(result, reason)`` if the scores so far decide the game, else ``None``."""
    plies = adjudication.resign_plies
    if plies and len(scores) >= plies:
        recent = scores[-plies:]
        if all(s is not None and s >= adjudication.resign_cp for s in recent):
            return "1-0", "adjudication: both engines see White winning"
        if all(s is not None and s <= -adjudication.resign_cp for s in recent):
            return "0-1", "adjudication: both engines see Black winning"
    start = adjudication.draw_from_move
    plies = adjudication.draw_plies
    if start is not None and board.fullmove_number >= start and len(scores) >= plies:
        recent = scores[-plies:]
        if all(s is not None and abs(s) <= adjudication.draw_cp for s in recent):
            return "1/2-1/2", "adjudication: both engines see a draw"
    return None


_RULE_REASONS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.SEVENTYFIVE_MOVES: "75-move rule",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
    chess.Termination.FIFTY_MOVES: "50-move rule",
    chess.Termination.THREEFOLD_REPETITION: "threefold repetition",
}


async def play_game(
    number: int,
    white: Player,
    black: Player,
    first_is_white: bool,
    opening: str,
    tc: TimeControl,
    adjudication: Adjudication,
    time_margin: float = 0.0,
    event: str = "shatranj match",
    nodes: int | None = None,
) -> GameResult:
    """Plays one game to its end under the FIDE rules as python-chess applies them.

    Threefold repetition and the fifty-move rule end the game as soon as a draw could be
    claimed (engines cannot claim over UCI). A flag fall loses, unless the opponent has no
    mating material (then it is a draw); a crash, a hang past the flag or an illegal move
    loses as a rules infraction, and the engine is restarted for the next game.

    With ``nodes`` every move is a search of that many nodes instead, and no clock runs
    (the time control is then only the PGN tag and a generous per-move timeout).
    """
    board = start_board(opening)
    book_plies = len(board.move_stack)
    clocks = {chess.WHITE: tc.base, chess.BLACK: tc.base}
    comments: list[str] = []
    scores: list[int | None] = []
    game_id = object()
    result: str | None = None
    reason: str | None = None
    termination: str | None = None
    loser_on_time: str | None = None
    failure = False

    while result is None:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result = outcome.result()
            reason = _RULE_REASONS.get(outcome.termination, outcome.termination.name.lower())
            termination = "normal"
            break
        side = board.turn
        mover = white if side == chess.WHITE else black
        side_name = "White" if side == chess.WHITE else "Black"
        if nodes is not None:
            limit = chess.engine.Limit(nodes=mover.spec.nodes or nodes)
            timeout = NODES_TIMEOUT
        else:
            limit = chess.engine.Limit(
                white_clock=max(clocks[chess.WHITE], 0.001),
                black_clock=max(clocks[chess.BLACK], 0.001),
                white_inc=tc.increment,
                black_inc=tc.increment,
            )
            timeout = clocks[side] + time_margin + SILENCE_GRACE
        started = time.perf_counter()
        played: chess.engine.PlayResult | None = None
        problem = None
        try:
            played = await mover.play(board, limit, game_id, timeout)
        except asyncio.TimeoutError:
            problem = "flag"
        except chess.engine.EngineError as error:
            problem = f"{side_name} ({mover.spec.name}) failed: {error}"
        elapsed = time.perf_counter() - started
        left = clocks[side]
        if nodes is None:
            clocks[side] -= elapsed
        if problem is not None:
            await mover.close()  # hung or crashed: a fresh process for the next game

        if problem is None and clocks[side] < -time_margin:
            problem = "flag"
        if problem == "flag":
            loser_on_time = mover.spec.name
            if board.has_insufficient_material(not side):
                result, reason = (
                    "1/2-1/2",
                    f"{side_name} lost on time, but the opponent cannot mate",
                )
            else:
                result = "0-1" if side == chess.WHITE else "1-0"
                reason = f"{side_name} lost on time ({elapsed:.3f} s used, {left:.3f} s left)"
            termination = "time forfeit"
            break
        if problem is not None:
            result = "0-1" if side == chess.WHITE else "1-0"
            reason, termination, failure = problem, "rules infraction", True
            break
        assert played is not None
        if played.resigned:
            result = "0-1" if side == chess.WHITE else "1-0"
            reason, termination = f"{side_name} resigned", "normal"
            break
        if played.move is None or played.move not in board.legal_moves:
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = f"{side_name} ({mover.spec.name}) played no legal move: {played.move}"
            termination, failure = "rules infraction", True
            await mover.close()
            break
        if nodes is None:
            clocks[side] += tc.increment
        board.push(played.move)
        comments.append(f"{_score_text(played)} {elapsed:.2f}s".strip())
        scores.append(_white_cp(played))
        decided = _adjudicate(adjudication, board, scores)
        if decided is not None:
            result, reason = decided
            termination = "adjudication"

    assert result is not None and reason is not None and termination is not None
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = event
    game.headers["Site"] = "?"
    game.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
    game.headers["Round"] = str(number)
    game.headers["White"] = white.spec.name
    game.headers["Black"] = black.spec.name
    game.headers["Result"] = result
    game.headers["TimeControl"] = tc.pgn() if nodes is None else "-"
    if nodes is not None:
        game.headers["Nodes"] = str(nodes)
    game.headers["Termination"] = termination
    game.headers["Opening"] = opening
    game.headers["WhiteEngine"] = white.id_name
    game.headers["BlackEngine"] = black.id_name
    for ply, node in enumerate(game.mainline()):
        if ply < book_plies:
            node.comment = "book" if ply == book_plies - 1 else ""
        elif ply - book_plies < len(comments):
            node.comment = comments[ply - book_plies]
    end = game.end()
    end.comment = (end.comment + "; " if end.comment else "") + reason
    return GameResult(
        number,
        white.spec.name,
        black.spec.name,
        first_is_white,
        result,
        reason,
        termination,
        loser_on_time,
        failure,
        game,
        white.id_name,
        black.id_name,
    )


async def play_match(
    first: EngineSpec,
    second: EngineSpec,
    games: list[tuple[str, bool]],
    tc: TimeControl,
    adjudication: Adjudication,
    concurrency: int,
    on_result: Callable[[GameResult], None],
    time_margin: float = 0.0,
    event: str = "shatranj match",
    nodes: int | None = None,
) -> list[GameResult]:
    """Plays the scheduled games, ``concurrency`` at a time, each worker with its own pair of
    engine processes. ``on_result`` sees every game as it ends (for progress and PGN)."""
    queue: asyncio.Queue[tuple[int, str, bool]] = asyncio.Queue()
    for number, (opening, first_is_white) in enumerate(games, start=1):
        queue.put_nowait((number, opening, first_is_white))
    results: list[GameResult] = []

    async def worker() -> None:
        a, b = Player(first), Player(second)
        try:
            await a.start()
            await b.start()
            while not queue.empty():
                number, opening, first_is_white = queue.get_nowait()
                white, black = (a, b) if first_is_white else (b, a)
                game = await play_game(
                    number,
                    white,
                    black,
                    first_is_white,
                    opening,
                    tc,
                    adjudication,
                    time_margin,
                    event,
                    nodes,
                )
                results.append(game)
                on_result(game)
        finally:
            await a.close()
            await b.close()

    workers = [asyncio.create_task(worker()) for _ in range(max(1, min(concurrency, len(games))))]
    try:
        await asyncio.gather(*workers)
    finally:
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
    return sorted(results, key=lambda g: g.number)

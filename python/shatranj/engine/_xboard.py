"""The XBoard (CECP) protocol: features, options, play and analysis, and the parsing of
thinking output."""

from __future__ import annotations

import re
import shlex
from collections.abc import (
    Iterable,
)
from typing import (
    TYPE_CHECKING,
)

from .._core import STARTING_FEN, Board, Move
from .._outcome import Termination
from ._scores import Cp, Mate, MateGiven, PovScore, Score

if TYPE_CHECKING:
    from ._protocol import AnyBoard

    pass  # the checker's; not a runtime dependency

from ._analysis import AnalysisResult
from ._commands import BaseCommand, _Immediate
from ._errors import LOGGER, EngineError, EngineTerminatedError, _with_output
from ._protocol import (
    Protocol,
    _chain_config,
    _next_token,
    _push_xboard,
    _xboard_move,
    _xboard_variant,
)
from ._values import (
    INFO_ALL,
    INFO_PV,
    MANAGED_OPTIONS,
    BestMove,
    ConfigMapping,
    ConfigValue,
    Info,
    InfoDict,
    Limit,
    Opponent,
    Option,
    PlayResult,
)

# ---------------------------------------------------------------------------------------
# XBoard

_XBOARD_ERROR = re.compile(r"^\s*(Error|Illegal move)(\s*\([^()]+\))?\s*:")


class XBoardProtocol(Protocol):
    """The `XBoard protocol <http://hgm.nubati.net/CECP.html>`_ (CECP, version 2)."""

    def __init__(self) -> None:
        super().__init__()
        self.features: dict[str, int | str] = {}
        self.id: dict[str, str] = {}
        self.options: dict[str, Option] = {  # type: ignore[assignment]
            "random": Option("random", "check", False, None, None, None),
            "computer": Option("computer", "check", False, None, None, None),
            "name": Option("name", "string", "", None, None, None),
            "engine_rating": Option("engine_rating", "spin", 0, None, None, None),
            "opponent_rating": Option("opponent_rating", "spin", 0, None, None, None),
        }
        self.config: dict[str, ConfigValue] = {}
        self.target_config: dict[str, ConfigValue] = {}
        #: The game as the engine has it: the root position and the moves since.
        self.board: AnyBoard = Board()
        self.game: object = None
        self.clock_id: object = None
        self.first_game = True

    def _ping(self, n: int) -> None:
        self.send_line(f"ping {n}")

    def _variant(self, variant: str | None) -> None:
        variants = str(self.features.get("variants", "")).split(",")
        if not variant or variant not in variants:
            raise EngineError(
                f"unsupported xboard variant: {variant} (available: {', '.join(variants)})"
            )
        self.send_line(f"variant {variant}")

    def _new(
        self,
        board: AnyBoard,
        game: object,
        options: ConfigMapping,
        opponent: Opponent | None = None,
    ) -> None:
        """Brings the engine to ``board`` in force mode: a new game when needed, else undoing
        and playing moves from the game it has."""
        self._configure(options)
        self._configure(self._opponent_configuration(opponent))

        root = board.root()
        new_game = (
            self.first_game
            or self.game != game
            or any(name in options for name in ("random", "computer"))
            or bool(opponent)
            or root != self.board.root()
        )
        self.game = game
        self.first_game = False
        common = 0
        if new_game:
            self.board = root
            self.send_line("new")
            variant = _xboard_variant(board)
            if variant == "normal" and board.chess960:
                self._variant("fischerandom")
            elif variant != "normal":
                self._variant(variant)
            if self.config.get("random"):
                self.send_line("random")
            name = self.config.get("name")
            if name and self.features.get("name", True):
                self.send_line(f"name {name}")
            opponent_rating = self.config.get("opponent_rating")
            engine_rating = self.config.get("engine_rating")
            if engine_rating or opponent_rating:
                self.send_line(f"rating {engine_rating or 0} {opponent_rating or 0}")
            if self.config.get("computer"):
                self.send_line("computer")
            self.send_line("force")
            fen = root.fen(shredder=board.chess960, en_passant="fen")
            if variant != "normal" or fen != STARTING_FEN or board.chess960:
                self.send_line(f"setboard {fen}")
        else:
            self.send_line("force")
            for ours, theirs in zip(self.board.move_stack, board.move_stack):
                if ours != theirs:
                    break
                common += 1
            while len(self.board.move_stack) > common + 1:
                self.send_line("remove")
                self.board.pop()
                self.board.pop()
            while len(self.board.move_stack) > common:
                self.send_line("undo")
                self.board.pop()
        prefix = "usermove " if self.features.get("usermove", 0) else ""
        for move in board.move_stack[common:]:
            self.send_line(prefix + _xboard_move(self.board, move))
            self.board.push(move)

    def _setoption(self, name: str, value: ConfigValue) -> None:
        if value is not None and value == self.config.get(name):
            return
        try:
            option = self.options[name]
        except KeyError:
            raise EngineError(f"unsupported xboard option or command: {name}") from None
        self.config[name] = value = option.parse(value)
        if name in ("random", "computer", "name", "engine_rating", "opponent_rating"):
            pass  # sent with the next new game
        elif name in ("memory", "cores") or name.startswith("egtpath "):
            self.send_line(f"{name} {value}")
        elif value is None:
            self.send_line(f"option {name}")
        elif value is True:
            self.send_line(f"option {name}=1")
        elif value is False:
            self.send_line(f"option {name}=0")
        else:
            self.send_line(f"option {name}={value}")

    def _configure(self, options: ConfigMapping) -> None:
        for name, value in _chain_config(options, self.target_config):
            if name.lower() in MANAGED_OPTIONS:
                raise EngineError(f"cannot set {name} which is automatically managed")
            self._setoption(name, value)

    def _opponent_configuration(
        self, opponent: Opponent | None, engine_rating: int | None = None
    ) -> dict[str, ConfigValue]:
        if opponent is None:
            return {}
        config: dict[str, ConfigValue] = {
            "engine_rating": engine_rating or self.target_config.get("engine_rating") or 0,
            "opponent_rating": opponent.rating or 0,
            "computer": opponent.is_engine or False,
        }
        if opponent.name and self.features.get("name", True):
            config["name"] = f"{opponent.title or ''} {opponent.name}".strip()
        return config

    def _cmd_initialize(self) -> BaseCommand[None]:
        return _XBoardInitialize(self)

    def _cmd_ping(self) -> BaseCommand[None]:
        return _XBoardPing(self)

    def _cmd_configure(self, options: ConfigMapping) -> BaseCommand[None]:
        def configure() -> None:
            self._configure(options)
            self.target_config.update(
                {name: value for name, value in options.items() if value is not None}
            )

        return _Immediate(self, configure)

    def _cmd_send_opponent_information(
        self, opponent: Opponent | None, engine_rating: int | None
    ) -> BaseCommand[None]:
        return self._cmd_configure(self._opponent_configuration(opponent, engine_rating))

    def _cmd_play(
        self,
        board: AnyBoard,
        limit: Limit,
        game: object,
        info: Info,
        ponder: bool,
        draw_offered: bool,
        root_moves: Iterable[Move] | None,
        options: ConfigMapping,
        opponent: Opponent | None,
    ) -> BaseCommand[PlayResult]:
        if root_moves is not None:
            raise EngineError(
                "play with root_moves, but xboard supports 'include' only in analysis mode"
            )
        return _XBoardPlay(self, board, limit, game, info, ponder, draw_offered, options, opponent)

    def _cmd_analysis(
        self,
        board: AnyBoard,
        limit: Limit | None,
        multipv: int | None,
        game: object,
        info: Info,
        root_moves: Iterable[Move] | None,
        options: ConfigMapping,
    ) -> BaseCommand[AnalysisResult]:
        if multipv is not None:
            raise EngineError("xboard engine does not support multipv")
        if limit is not None and (limit.white_clock is not None or limit.black_clock is not None):
            raise EngineError("xboard analysis does not support clock limits")
        return _XBoardAnalysis(self, board, limit, game, info, root_moves, options)

    def _cmd_send_game_result(
        self, board: AnyBoard, winner: bool | None, game_ending: str | None, game_complete: bool
    ) -> BaseCommand[None]:
        def send() -> None:
            if game_ending and any(c in game_ending for c in "{}\n\r"):
                raise EngineError(
                    f"invalid line break or curly braces in game ending message: {game_ending!r}"
                )
            self._new(board, self.game, {})  # the final moves
            outcome = board.outcome(claim_draw=True)
            if not game_complete:
                result, ending = "*", game_ending or ""
            elif winner is not None or game_ending:
                result = "1/2-1/2" if winner is None else "1-0" if winner else "0-1"
                ending = game_ending or ""
            elif outcome is not None and outcome.winner is not None:
                result = outcome.result()
                side = "White" if outcome.winner else "Black"
                ending = f"{side} {'mates' if outcome.termination == Termination.CHECKMATE else 'variant win'}"
            elif outcome is not None:
                result = outcome.result()
                ending = outcome.termination.name.capitalize().replace("_", " ")
            else:
                result, ending = "*", ""
            self.send_line(f"result {result} {{{ending}}}" if ending else f"result {result}")

        return _Immediate(self, send)

    def _send_quit(self) -> None:
        self.send_line("quit")


def _parse_xboard_option(feature: str) -> Option:
    params = feature.split()
    name, kind = params[0], params[1][1:]
    default: ConfigValue = None
    low = high = None
    choices: list[str] | None = None
    if kind == "combo":
        choices = []
        for choice in params[2:]:
            if choice == "///":
                continue
            if choice.startswith("*"):
                default = choice[1:]
                choices.append(choice[1:])
            else:
                choices.append(choice)
    elif kind == "check":
        default = int(params[2])
    elif kind in ("string", "file", "path"):
        default = params[2] if len(params) > 2 else ""
    elif kind == "spin":
        default, low, high = int(params[2]), int(params[3]), int(params[4])
    return Option(name, kind, default, low, high, choices)


class _XBoardInitialize(BaseCommand[None]):
    def __init__(self, engine: XBoardProtocol) -> None:
        super().__init__(engine)
        self.engine = engine
        self._waiting = True

    def check_initialized(self) -> None:
        if self.engine.initialized:
            raise EngineError("engine already initialized")

    def start(self) -> None:
        self.engine.send_line("xboard")
        self.engine.send_line("protover 2")
        # Engines that do not know protocol 2 never say done=1: give them two seconds.
        self.call_later(2.0, self._timeout)

    def _timeout(self) -> None:
        if self._waiting:
            LOGGER.error("%s: Timeout during initialization", self.engine)
            self._end()

    def line_received(self, line: str) -> None:
        token, rest = _next_token(line)
        if token.startswith("#"):
            pass
        elif token == "feature":
            self._feature(rest)
        elif _XBOARD_ERROR.match(line):
            raise EngineError(line)

    def _feature(self, text: str) -> None:
        engine = self.engine
        try:
            features = shlex.split(text)
        except ValueError as err:
            raise EngineError(f"cannot parse features {text!r}: {err}") from err
        for feature in features:
            key, _, value = feature.partition("=")
            if key == "option":
                try:
                    option = _parse_xboard_option(value)
                except (IndexError, ValueError) as err:
                    raise EngineError(f"cannot parse option feature {value!r}: {err}") from err
                if option.name not in ("random", "computer", "cores", "memory"):
                    engine.options[option.name] = option
            else:
                try:
                    engine.features[key] = int(value)
                except ValueError:
                    engine.features[key] = value
        if "done" in engine.features:
            self._waiting = False  # done=0: the engine asked for more time
        if engine.features.get("done"):
            self._end()

    def _end(self) -> None:
        engine = self.engine
        for required in ("ping", "setboard"):
            if not engine.features.get(required, 0):
                self.result.set_exception(
                    _with_output(
                        EngineError(f"xboard engine did not declare required feature: {required}"),
                        engine._recent,
                    )
                )
                self.set_finished()
                return
        if not engine.features.get("reuse", 1):
            LOGGER.warning("%s: Rejecting feature reuse=0", engine)
            engine.send_line("rejected reuse")
        if not engine.features.get("sigterm", 1):
            LOGGER.warning("%s: Rejecting feature sigterm=0", engine)
            engine.send_line("rejected sigterm")
        if engine.features.get("san", 0):
            LOGGER.warning("%s: Rejecting feature san=1", engine)
            engine.send_line("rejected san")
        if "myname" in engine.features:
            engine.id["name"] = str(engine.features["myname"])
        if engine.features.get("memory", 0):
            engine.options["memory"] = Option("memory", "spin", 16, 1, None, None)
            engine.send_line("accepted memory")
        if engine.features.get("smp", 0):
            engine.options["cores"] = Option("cores", "spin", 1, 1, None, None)
            engine.send_line("accepted smp")
        if engine.features.get("egt"):
            for egt in str(engine.features["egt"]).split(","):
                name = f"egtpath {egt}"
                engine.options[name] = Option(name, "path", None, None, None, None)
            engine.send_line("accepted egt")
        for option in engine.options.values():
            if option.default is not None:
                engine.config[option.name] = option.default
                if not option.is_managed():
                    engine.target_config[option.name] = option.default
        engine.initialized = True
        self.result.set_result(None)
        self.set_finished()


class _XBoardPing(BaseCommand[None]):
    def __init__(self, engine: XBoardProtocol) -> None:
        super().__init__(engine)
        self.engine = engine
        self.pong = ""

    def start(self) -> None:
        n = id(self) & 0xFFFF
        self.pong = f"pong {n}"
        self.engine._ping(n)

    def line_received(self, line: str) -> None:
        if line.strip() == self.pong:
            self.result.set_result(None)
            self.set_finished()
        elif _XBOARD_ERROR.match(line):
            raise EngineError(line)
        elif not line.startswith("#"):
            LOGGER.warning("%s: Unexpected engine output: %r", self.engine, line)


def _is_post(line: str) -> bool:
    """Thinking output: at least four fields, the first a number."""
    stripped = line.lstrip()
    return bool(stripped) and stripped[0].isdigit() and len(line.split()) >= 4


class _XBoardPlay(BaseCommand[PlayResult]):
    def __init__(
        self,
        engine: XBoardProtocol,
        board: AnyBoard,
        limit: Limit,
        game: object,
        info: Info,
        ponder: bool,
        draw_offered: bool,
        options: ConfigMapping,
        opponent: Opponent | None,
    ) -> None:
        super().__init__(engine)
        self.engine = engine
        self.board, self.limit, self.game, self.selector = board, limit, game, info
        self.ponder, self.draw_offered, self.options, self.opponent = (
            ponder,
            draw_offered,
            options,
            opponent,
        )
        self.play_result = PlayResult(None, None)
        self.stopped = False
        self.pong_after_move: str | None = None
        self.pong_after_ponder: str | None = None

    def start(self) -> None:
        engine, board, limit = self.engine, self.board, self.limit
        engine._new(board, self.game, self.options, self.opponent)
        clock = limit.white_clock if board.turn else limit.black_clock
        increment = limit.white_inc if board.turn else limit.black_inc
        if limit.clock_id is None or limit.clock_id != engine.clock_id:
            if limit.remaining_moves or clock is not None or increment is not None:
                minutes, seconds = divmod(int(clock or 0), 60)
                engine.send_line(
                    f"level {limit.remaining_moves or 0} {minutes}:{seconds:02d} {increment or 0}"
                )
            if limit.time is not None:
                engine.send_line(f"st {max(0.01, limit.time)}")
        engine.clock_id = limit.clock_id
        if limit.nodes is not None:
            if (
                limit.time is not None
                or limit.white_clock is not None
                or limit.black_clock is not None
                or increment is not None
            ):
                raise EngineError("xboard does not support mixing node limits with time limits")
            if "nps" not in engine.features:
                LOGGER.warning(
                    "%s: Engine did not explicitly declare support for node limits (feature nps=?)",
                    engine,
                )
            elif not engine.features["nps"]:
                raise EngineError("xboard engine does not support node limits (feature nps=0)")
            engine.send_line("nps 1")
            engine.send_line(f"st {max(1, int(limit.nodes))}")
        if limit.depth is not None:
            engine.send_line(f"sd {max(1, int(limit.depth))}")
        if limit.white_clock is not None:
            engine.send_line(
                f"{'time' if board.turn else 'otim'} {max(1, round(limit.white_clock * 100))}"
            )
        if limit.black_clock is not None:
            engine.send_line(
                f"{'otim' if board.turn else 'time'} {max(1, round(limit.black_clock * 100))}"
            )
        if self.draw_offered and engine.features.get("draw", 1):
            engine.send_line("draw")
        engine.send_line("post" if self.selector else "nopost")
        engine.send_line("hard" if self.ponder else "easy")
        engine.send_line("go")

    def line_received(self, line: str) -> None:
        token, rest = _next_token(line)
        rest = rest.strip()
        if token == "move":
            self._move(rest)
        elif token == "Hint:":
            self._hint(rest)
        elif token == "pong":
            pong = f"pong {rest}"
            if pong == self.pong_after_move:
                self.result.set_result(self.play_result)
                if not self.ponder:
                    self.set_finished()
            elif pong == self.pong_after_ponder:
                self.result.set_result(self.play_result)
                self.set_finished()
        elif f"{token} {rest}" == "offer draw":
            if not self.result.done():
                self.play_result.draw_offered = True
            self._ping_after_move()
        elif line.strip() == "resign":
            if not self.result.done():
                self.play_result.resigned = True
            self._ping_after_move()
        elif token in ("1-0", "0-1", "1/2-1/2"):
            if "resign" in line and not self.result.done():
                self.play_result.resigned = True
            self._ping_after_move()
        elif token.startswith("#"):
            pass
        elif _XBOARD_ERROR.match(line):
            self.engine.first_game = True  # its board may no longer be ours
            raise EngineError(line)
        elif _is_post(line):
            if not self.result.done():
                self.play_result.info = _parse_xboard_post(line, self.engine.board, self.selector)
        else:
            LOGGER.warning("%s: Unexpected engine output: %r", self.engine, line)

    def _move(self, text: str) -> None:
        if not self.result.done() and self.play_result.move is None:
            try:
                self.play_result.move = _push_xboard(self.engine.board, text)
            except ValueError as err:
                self.engine.first_game = True
                raise EngineError(f"invalid move {text!r} from engine: {err}") from err
            self._ping_after_move()
        else:
            try:
                _push_xboard(self.engine.board, text)
            except ValueError:
                LOGGER.exception("Exception playing unexpected move")

    def _hint(self, text: str) -> None:
        if (
            not self.result.done()
            and self.play_result.move is not None
            and self.play_result.ponder is None
        ):
            try:
                self.play_result.ponder = self.engine.board.parse_san(text)
            except ValueError:
                LOGGER.exception("Exception parsing hint")
        else:
            LOGGER.warning("Unexpected hint: %r", text)

    def _ping_after_move(self) -> None:
        if self.pong_after_move is None:
            n = id(self) & 0xFFFF
            self.pong_after_move = f"pong {n}"
            self.engine._ping(n)

    def cancel(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        if self.result.cancelled():
            self.engine.send_line("?")
        if self.ponder:
            self.engine.send_line("easy")
            n = (id(self) + 1) & 0xFFFF
            self.pong_after_ponder = f"pong {n}"
            self.engine._ping(n)

    def engine_terminated(self, exc: EngineTerminatedError) -> None:
        if not self.result.done():
            super().engine_terminated(exc)
        else:
            self._mark_finished()


class _XBoardAnalysis(BaseCommand[AnalysisResult]):
    def __init__(
        self,
        engine: XBoardProtocol,
        board: AnyBoard,
        limit: Limit | None,
        game: object,
        info: Info,
        root_moves: Iterable[Move] | None,
        options: ConfigMapping,
    ) -> None:
        super().__init__(engine)
        self.engine = engine
        self.board, self.limit, self.game, self.selector = board, limit, game, info
        self.root_moves, self.options = root_moves, options
        self.stopped = False
        self.best_move: Move | None = None
        self.analysis = AnalysisResult(stop=self._stop)
        self.final_pong: str | None = None

    def _stop(self) -> None:
        if not self.finished:
            self.cancel()

    def start(self) -> None:
        engine = self.engine
        engine._new(self.board, self.game, self.options)
        if self.root_moves is not None:
            if not engine.features.get("exclude", 0):
                raise EngineError("xboard engine does not support root_moves (feature exclude=0)")
            engine.send_line("exclude all")
            for move in self.root_moves:
                engine.send_line(f"include {_xboard_move(engine.board, move)}")
        engine.send_line("post")
        engine.send_line("analyze")
        self.result.set_result(self.analysis)
        if self.limit is not None and self.limit.time is not None:
            self.call_later(self.limit.time, self.cancel)

    def line_received(self, line: str) -> None:
        token, rest = _next_token(line)
        if token.startswith("#"):
            pass
        elif _is_post(line):
            self._post(line)
        elif f"{token} {rest.strip()}" == self.final_pong:
            self._end()
        elif _XBOARD_ERROR.match(line):
            self.engine.first_game = True
            raise EngineError(line)
        else:
            LOGGER.warning("%s: Unexpected engine output: %r", self.engine, line)

    def _post(self, line: str) -> None:
        info = _parse_xboard_post(line, self.engine.board, self.selector)
        self.analysis.post(info)
        pv = info.get("pv")
        if pv:
            self.best_move = pv[0]
        limit = self.limit
        if limit is None:
            return
        if (
            limit.time is not None
            and info.get("time", 0) >= limit.time
            or limit.nodes is not None
            and info.get("nodes", 0) >= limit.nodes
            or limit.depth is not None
            and info.get("depth", 0) >= limit.depth
            or limit.mate is not None
            and "score" in info
            and info["score"].relative >= Mate(limit.mate)
        ):
            self.cancel()

    def _end(self) -> None:
        self.set_finished()
        self.analysis.set_finished(BestMove(self.best_move, None))

    def cancel(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        self.engine.send_line(".")
        self.engine.send_line("exit")
        n = id(self) & 0xFFFF
        self.final_pong = f"pong {n}"
        self.engine._ping(n)

    def _handle_exception(self, exc: BaseException) -> None:
        # Once the analysis is handed out, its reader gets the exception.
        exc = _with_output(exc, self._engine._recent)
        self.analysis.set_exception(exc)
        if not self.result.done():
            self.result.set_exception(exc)
        self._mark_finished()

    def engine_terminated(self, exc: EngineTerminatedError) -> None:
        LOGGER.debug(
            "%s: closing analysis because the engine has been terminated (%s)", self.engine, exc
        )
        self._handle_exception(exc)


def _parse_xboard_post(line: str, root_board: AnyBoard, selector: Info = INFO_ALL) -> InfoDict:
    """Thinking output: ``depth score time nodes [seldepth [nps [... tbhits]]] pv``."""
    info: InfoDict = {}
    tokens = line.split()
    numbers: list[int] = []
    for token in tokens:
        try:
            numbers.append(int(token))
        except ValueError:
            break
    if len(numbers) < 4:
        return info
    moves_text = tokens[len(numbers) :]
    info["depth"] = numbers[0]
    cp = numbers[1]
    info["time"] = numbers[2] / 100
    info["nodes"] = numbers[3]
    # XBoard writes mates as 100000 + moves (negative: getting mated).
    score: Score
    if cp <= -100000:
        score = Mate(cp + 100000)
    elif cp == 100000:
        score = MateGiven
    elif cp > 100000:
        score = Mate(cp - 100000)
    else:
        score = Cp(cp)
    info["score"] = PovScore(score, root_board.turn)
    extra = numbers[4:]
    if extra:
        info["seldepth"] = extra.pop(0)
    if extra:
        info["nps"] = extra.pop(0)
    if extra:
        info["tbhits"] = extra[-1]  # the fields between are reserved
    pv: list[Move] = []
    board = root_board.copy(stack=False)
    for token in moves_text:
        if token.rstrip(".").isdigit():
            continue  # a move number
        try:
            pv.append(_push_xboard(board, token))
        except ValueError:
            break
        if not selector & INFO_PV:
            break
    info["pv"] = pv
    return info

"""The UCI protocol: initialisation, options, searches and analyses, and the parsing of
``info`` and ``bestmove`` lines."""

from __future__ import annotations

import copy
import re
import time
from collections.abc import (
    Iterable,
)
from typing import (
    TYPE_CHECKING,
    TypeVar,
)

from .. import _core
from .._core import STARTING_FEN, Board, Move
from ._scores import Cp, Mate, PovScore, PovWdl, Wdl

if TYPE_CHECKING:
    from ._protocol import AnyBoard  # the checker's; not a runtime dependency

from ._analysis import AnalysisResult
from ._commands import BaseCommand, _Immediate
from ._errors import LOGGER, EngineError, EngineTerminatedError, _with_output
from ._protocol import Protocol, _chain_config, _next_token, _uci_variant
from ._values import (
    INFO_ALL,
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
    UciOptionMap,
)

T = TypeVar("T")

# ---------------------------------------------------------------------------------------
# UCI


class UciProtocol(Protocol):
    """The `Universal Chess Interface <https://www.chessprogramming.org/UCI>`_."""

    def __init__(self) -> None:
        super().__init__()
        self.options: UciOptionMap[Option] = UciOptionMap()
        #: What the engine has been told.
        self.config: UciOptionMap[ConfigValue] = UciOptionMap()
        #: What the user configured (and every later search restores).
        self.target_config: UciOptionMap[ConfigValue] = UciOptionMap()
        self.id: dict[str, str] = {}
        #: The position last sent (without its move stack).
        self.board: AnyBoard = Board()
        self.game: object = None
        self.first_game = True
        self.may_ponderhit: AnyBoard | None = None
        self.ponderhit = False
        #: The running search: searching (``go`` sent) and not yet answered.
        self.searching = False

    # Building blocks.

    def _isready(self) -> None:
        self.send_line("isready")

    def _opponent_info(self) -> None:
        opponent = self.config.get("UCI_Opponent") or self.target_config.get("UCI_Opponent")
        if opponent:
            self.send_line(f"setoption name UCI_Opponent value {opponent}")

    def _ucinewgame(self) -> None:
        self.send_line("ucinewgame")
        self._opponent_info()
        self.first_game = False
        self.ponderhit = False

    def debug(self, on: bool = True) -> None:
        """Switches the engine's debug mode (does not interrupt anything)."""
        self.send_line("debug on" if on else "debug off")

    def _changed_options(self, options: ConfigMapping) -> bool:
        return any(
            value is None or value != self.config.get(name)
            for name, value in _chain_config(options, self.target_config)
        )

    def _setoption(self, name: str, value: ConfigValue) -> None:
        try:
            option = self.options[name]
        except KeyError:
            raise EngineError(
                f"engine does not support option {name} (available options: {', '.join(self.options)})"
            ) from None
        value = option.parse(value)
        if value is not None and value == self.config.get(name):
            return
        line = f"setoption name {name}"
        if value is True:
            line += " value true"
        elif value is False:
            line += " value false"
        elif value is not None:
            line += f" value {value}"
        if name != "UCI_Opponent":  # sent after ucinewgame
            self.send_line(line)
        self.config[name] = value

    def _configure(self, options: ConfigMapping) -> None:
        for name, value in options.items():
            if name.lower() in MANAGED_OPTIONS:
                raise EngineError(f"cannot set {name} which is automatically managed")
            self._setoption(name, value)
        # Restore what the user configured where a search changed it. The common case, no
        # change, is decided without parsing: a value equal to the engine's is one the
        # engine already has (parsing it would give that same value).
        config = self.config
        for name, value in self.target_config.items():
            if name in options or (value is not None and value == config.get(name)):
                continue
            if name.lower() in MANAGED_OPTIONS:
                raise EngineError(f"cannot set {name} which is automatically managed")
            self._setoption(name, value)

    def _opponent_configuration(self, opponent: Opponent | None) -> dict[str, ConfigValue]:
        if opponent is None or not opponent.name or "UCI_Opponent" not in self.options:
            return {}
        rating = opponent.rating or "none"
        title = opponent.title or "none"
        kind = "computer" if opponent.is_engine else "human"
        return {"UCI_Opponent": f"{title} {rating} {kind} {opponent.name}"}

    def _position(self, board: AnyBoard) -> None:
        variant = _uci_variant(board)
        if "UCI_Variant" in self.options:
            self._setoption("UCI_Variant", variant)
        elif variant != "chess":
            raise EngineError("engine does not support UCI_Variant")
        if "UCI_Chess960" in self.options:
            self._setoption("UCI_Chess960", board.chess960)
        elif board.chess960:
            raise EngineError("engine does not support UCI_Chess960")

        stack = board.move_stack
        safe_history = all(stack)
        root = board.root() if safe_history else board
        fen = root.fen(shredder=board.chess960, en_passant="fen")
        line = (
            "position startpos"
            if variant == "chess" and fen == STARTING_FEN
            else f"position fen {fen}"
        )
        if not safe_history:
            LOGGER.warning("Not transmitting history with null moves to UCI engine")
        elif stack:
            line += " moves " + " ".join(move.uci() for move in stack)
        self.send_line(line)
        self.board = board.copy(stack=False)

    def _go(
        self,
        limit: Limit,
        *,
        root_moves: Iterable[Move] | None = None,
        ponder: bool = False,
        infinite: bool = False,
    ) -> None:
        words = ["go"]
        if ponder:
            words.append("ponder")
        if limit.white_clock is not None:
            words += ["wtime", str(max(1, round(limit.white_clock * 1000)))]
        if limit.black_clock is not None:
            words += ["btime", str(max(1, round(limit.black_clock * 1000)))]
        if limit.white_inc is not None:
            words += ["winc", str(round(limit.white_inc * 1000))]
        if limit.black_inc is not None:
            words += ["binc", str(round(limit.black_inc * 1000))]
        if limit.remaining_moves is not None and int(limit.remaining_moves) > 0:
            words += ["movestogo", str(int(limit.remaining_moves))]
        if limit.depth is not None:
            words += ["depth", str(max(1, int(limit.depth)))]
        if limit.nodes is not None:
            words += ["nodes", str(max(1, int(limit.nodes)))]
        if limit.mate is not None:
            words += ["mate", str(max(1, int(limit.mate)))]
        if limit.time is not None:
            words += ["movetime", str(max(1, round(limit.time * 1000)))]
        if infinite:
            words.append("infinite")
        if root_moves is not None:
            moves = [move.uci() for move in root_moves]
            # "searchmoves" followed by nothing would mean all moves to some engines.
            words += ["searchmoves"] + (moves or ["0000"])
        self.send_line(" ".join(words))
        self.searching = True

    # Commands.

    def _cmd_initialize(self) -> BaseCommand[None]:
        return _UciInitialize(self)

    def _cmd_ping(self) -> BaseCommand[None]:
        return _UciPing(self)

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
        return self._cmd_configure(self._opponent_configuration(opponent))

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
        new_options: dict[str, ConfigValue] = dict(options)
        new_options.update(self._opponent_configuration(opponent))
        return _UciPlay(self, board, limit, game, info, ponder, root_moves, new_options)

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
        return _UciAnalysis(self, board, limit, multipv, game, info, root_moves, options)

    def _cmd_send_game_result(
        self, board: AnyBoard, winner: bool | None, game_ending: str | None, game_complete: bool
    ) -> BaseCommand[None] | None:
        return None  # UCI has no end-of-game command

    def _send_quit(self) -> None:
        self.send_line("quit")


_OPTION_FIELDS = ("name", "type", "default", "min", "max", "var")
_OPTION_SPLIT = re.compile(r"\s*\b(name|type|default|min|max|var)\b\s*")


class _UciInitialize(BaseCommand[None]):
    def __init__(self, engine: UciProtocol) -> None:
        super().__init__(engine)
        self.engine = engine

    def check_initialized(self) -> None:
        if self.engine.initialized:
            raise EngineError("engine already initialized")

    def start(self) -> None:
        self.engine.send_line("uci")

    def line_received(self, line: str) -> None:
        token, rest = _next_token(line)
        if token == "uciok" and not rest.strip():
            self.engine.initialized = True
            self.result.set_result(None)
            self.set_finished()
        elif token == "option":
            self._option(rest)
        elif token == "id":
            key, value = _next_token(rest)
            self.engine.id[key] = value.strip()

    def _option(self, text: str) -> None:
        # A field name starts a new field unless that field is already set (an option may
        # be called "Skill Level type"); "var" always starts a new choice.
        fields: dict[str, str] = {}
        choices: list[str] = []
        current: str | None = None
        for piece in _OPTION_SPLIT.split(text.strip()):
            if piece == "var" or (piece in _OPTION_FIELDS and not fields.get(piece)):
                current = piece
            elif current == "var":
                choices.append(piece)
            elif current is not None:
                fields[current] = piece

        def bound(which: str) -> int | None:
            text = fields.get(which, "")
            try:
                return int(text) if text else None
            except ValueError:
                LOGGER.error(
                    "%s: cannot parse the %s of option %r: %r",
                    self.engine,
                    which,
                    fields.get("name"),
                    text,
                )
                return None

        name, kind = fields.get("name", ""), fields.get("type", "")
        low, high = bound("min"), bound("max")
        declared = Option(name, kind, None, low, high, choices)
        try:
            default = declared.parse(fields.get("default", ""))
        except EngineError as err:
            # python-chess fails the whole initialisation here; one odd option should not.
            LOGGER.warning("%s: option %r has no usable default (%s)", self.engine, name, err)
            default = None
        option = Option(name, kind, default, low, high, choices)
        self.engine.options[name] = option
        if option.default is not None:
            self.engine.config[name] = option.default
            if not option.is_managed() and name.lower() != "uci_analysemode":
                self.engine.target_config[name] = option.default


class _UciPing(BaseCommand[None]):
    def __init__(self, engine: UciProtocol) -> None:
        super().__init__(engine)
        self.engine = engine

    def start(self) -> None:
        self.engine._isready()

    def line_received(self, line: str) -> None:
        if line.strip() == "readyok":
            self.result.set_result(None)
            self.set_finished()
        else:
            LOGGER.warning("%s: Unexpected engine output: %r", self.engine, line)


class _UciSearch(BaseCommand[T]):
    """What play and analysis share: set the options, maybe start a new game (then wait for
    ``readyok``), send the position and ``go``."""

    def __init__(self, engine: UciProtocol) -> None:
        super().__init__(engine)
        self.engine = engine
        self.sent_isready = False

    def _new_game_then_go(self, new_game: bool, game: object) -> None:
        if new_game:
            self.engine.game = game
            self.engine._ucinewgame()
            self.sent_isready = True
            self.engine._isready()
        else:
            self._readyok()

    def _readyok(self) -> None:
        raise NotImplementedError

    def _info(self, text: str) -> None:
        raise NotImplementedError

    def _bestmove(self, text: str) -> None:
        raise NotImplementedError

    def line_received(self, line: str) -> None:
        token, rest = _next_token(line)
        if token == "info":
            self._info(rest)
        elif token == "bestmove":
            self.engine.searching = False
            self._bestmove(rest)
        elif token == "readyok" and self.sent_isready:
            self.sent_isready = False
            self._readyok()
        else:
            LOGGER.warning("%s: Unexpected engine output: %r", self.engine, line)

    def _mark_finished(self) -> None:
        self.engine.searching = False
        super()._mark_finished()


class _UciPlay(_UciSearch[PlayResult]):
    def __init__(
        self,
        engine: UciProtocol,
        board: AnyBoard,
        limit: Limit,
        game: object,
        info: Info,
        ponder: bool,
        root_moves: Iterable[Move] | None,
        options: dict[str, ConfigValue],
    ) -> None:
        super().__init__(engine)
        self.board, self.limit, self.game, self.selector = board, limit, game, info
        self.ponder, self.root_moves, self.options = ponder, root_moves, options
        self.info: InfoDict = {}
        self.pondering: AnyBoard | None = None
        self.start_time = 0.0
        # A ponderhit is possible only in the same game with unchanged options (the managed
        # ones, UCI_AnalyseMode included, never change between pondering plays).
        engine.may_ponderhit = (
            board
            if ponder
            and not engine.first_game
            and game == engine.game
            and not engine._changed_options(options)
            else None
        )

    def start(self) -> None:
        engine = self.engine
        self.start_time = time.perf_counter()
        if engine.ponderhit:
            engine.ponderhit = False
            engine.send_line("ponderhit")
            engine.searching = True
            return
        if (
            "UCI_AnalyseMode" in engine.options
            and "UCI_AnalyseMode" not in engine.target_config
            and all(name.lower() != "uci_analysemode" for name in self.options)
        ):
            engine._setoption("UCI_AnalyseMode", False)
        if "Ponder" in engine.options:
            engine._setoption("Ponder", self.ponder)
        if "MultiPV" in engine.options:
            engine._setoption("MultiPV", engine.options["MultiPV"].default)
        new_opponent = self.options.get("UCI_Opponent") or engine.target_config.get("UCI_Opponent")
        opponent_changed = new_opponent != engine.config.get("UCI_Opponent")
        engine._configure(self.options)
        self._new_game_then_go(
            engine.first_game or engine.game != self.game or opponent_changed, self.game
        )

    def _readyok(self) -> None:
        self.engine._position(self.board)
        self.engine._go(self.limit, root_moves=self.root_moves)

    def _info(self, text: str) -> None:
        if self.pondering is None and self.selector:
            self.info.update(_parse_uci_info(text, self.engine.board, self.selector))

    def _bestmove(self, text: str) -> None:
        if self.pondering is not None:
            # The answer to the stop that ended pondering.
            self.pondering = None
        elif not self.result.cancelled():
            best = _parse_uci_bestmove(self.engine.board, text)
            self.result.set_result(PlayResult(best.move, best.ponder, self.info))
            if self.ponder and best.move and best.ponder:
                self._ponder_on(best.move, best.ponder)
        if self.pondering is None:
            self._end()

    def _ponder_on(self, move: Move, reply: Move) -> None:
        pondering = self.board.copy()
        pondering.push(move)
        pondering.push(reply)
        self.pondering = pondering
        self.engine._position(pondering)
        # The clocks as they will be when the expected reply has been played.
        used = time.perf_counter() - self.start_time
        limit = copy.copy(self.limit)
        if limit.white_clock is not None:
            limit.white_clock += limit.white_inc or 0.0
            if pondering.turn:
                limit.white_clock -= used
        if limit.black_clock is not None:
            limit.black_clock += limit.black_inc or 0.0
            if not pondering.turn:
                limit.black_clock -= used
        if limit.remaining_moves:
            limit.remaining_moves -= 1
        self.engine._go(limit, ponder=True)

    def _end(self) -> None:
        self.engine.may_ponderhit = None
        self.set_finished()

    def cancel(self) -> None:
        hit = self.engine.may_ponderhit
        if (
            hit is not None
            and self.pondering is not None
            and hit.move_stack == self.pondering.move_stack
            and hit == self.pondering
        ):
            # The expected reply was played: the next play continues this search.
            self.engine.ponderhit = True
            self._end()
        else:
            self.engine.send_line("stop")

    def engine_terminated(self, exc: EngineTerminatedError) -> None:
        # An engine may be terminated while pondering, after the move was returned.
        if not self.result.done():
            super().engine_terminated(exc)
        else:
            self._mark_finished()


class _UciAnalysis(_UciSearch[AnalysisResult]):
    def __init__(
        self,
        engine: UciProtocol,
        board: AnyBoard,
        limit: Limit | None,
        multipv: int | None,
        game: object,
        info: Info,
        root_moves: Iterable[Move] | None,
        options: ConfigMapping,
    ) -> None:
        super().__init__(engine)
        self.board, self.limit, self.multipv, self.game = board, limit, multipv, game
        self.selector, self.root_moves, self.options = info, root_moves, options
        self.analysis = AnalysisResult(stop=self._stop)

    def _stop(self) -> None:
        if not self.finished:
            self.cancel()

    def start(self) -> None:
        engine = self.engine
        if "Ponder" in engine.options:
            engine._setoption("Ponder", False)
        if (
            "UCI_AnalyseMode" in engine.options
            and "UCI_AnalyseMode" not in engine.target_config
            and all(name.lower() != "uci_analysemode" for name in self.options)
        ):
            engine._setoption("UCI_AnalyseMode", True)
        if "MultiPV" in engine.options or (self.multipv and self.multipv > 1):
            engine._setoption("MultiPV", 1 if self.multipv is None else self.multipv)
        engine._configure(self.options)
        self._new_game_then_go(engine.first_game or engine.game != self.game, self.game)

    def _readyok(self) -> None:
        self.engine._position(self.board)
        if self.limit:
            self.engine._go(self.limit, root_moves=self.root_moves)
        else:
            self.engine._go(Limit(), root_moves=self.root_moves, infinite=True)
        self.result.set_result(self.analysis)

    def _info(self, text: str) -> None:
        self.analysis.post(_parse_uci_info(text, self.engine.board, self.selector))

    def _bestmove(self, text: str) -> None:
        if not self.result.done():
            raise EngineError("was not searching, but engine sent bestmove")
        best = _parse_uci_bestmove(self.engine.board, text)
        self.set_finished()
        self.analysis.set_finished(best)

    def cancel(self) -> None:
        self.engine.send_line("stop")

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


def _parse_uci_info(arg: str, root_board: AnyBoard, selector: Info = INFO_ALL) -> InfoDict:
    """An ``info`` line (without the word ``info``) as an info dict; the moves in it are
    checked against ``root_board``. Parts that do not parse are logged and left out.

    The native parser (``_core.parse_uci_info``) does the work; it returns the score and
    WDL as tuples, wrapped here. ``python/tests/engine/test_engine_client.py`` checks it
    against python-chess's parser."""
    if not selector:
        return {}
    info, problems = _core.parse_uci_info(arg, root_board, int(selector))
    for problem in problems:
        LOGGER.error("%s", problem)
    score = info.get("score")
    if score is not None:
        mate, value = score
        info["score"] = PovScore(Mate(value) if mate else Cp(value), root_board.turn)
    wdl = info.get("wdl")
    if wdl is not None:
        info["wdl"] = PovWdl(Wdl(*wdl), root_board.turn)
    return info


def _move_text(token: str) -> str:
    """A move as an engine wrote it, in the case UCI notation takes: some engines (AnMon)
    write promotions in capitals, while a variant engine's drop names its piece in capitals
    (``N@f3``)."""
    return token if "@" in token else token.lower()


def _parse_uci_bestmove(board: AnyBoard, text: str) -> BestMove:
    tokens = text.split()
    if not tokens or tokens[0] in ("(none)", "NULL"):
        return BestMove(None, None)
    try:
        move = board.push_uci(_move_text(tokens[0]))
    except ValueError as err:
        raise EngineError(f"invalid best move {tokens[0]!r}: {err}") from err
    ponder = None
    try:
        # Houdini 1.5 writes NULL for no ponder move.
        if len(tokens) >= 3 and tokens[1] == "ponder" and tokens[2] not in ("(none)", "NULL"):
            ponder = board.parse_uci(_move_text(tokens[2]))
    except ValueError:
        LOGGER.exception("Engine sent invalid ponder move")
    finally:
        board.pop()
    return BestMove(move, ponder)

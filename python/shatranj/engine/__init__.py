"""Chess engines from Python: python-chess's ``chess.engine``, and shatranj's own engine in
process.

- External engines, as python-chess drives them: :class:`SimpleEngine` (``popen_uci``,
  ``popen_xboard``; blocking, no event loop), the asyncio API (:func:`popen_uci`,
  :class:`UciProtocol`, :class:`XBoardProtocol`), :class:`Limit`, options, ``analyse`` /
  ``analysis`` / ``play``, and the typed errors :class:`EngineError`,
  :class:`EngineTerminatedError` and :class:`EngineTimeoutError`, which carry the engine's
  last output. ``import shatranj as chess`` then ``chess.engine.SimpleEngine.popen_uci(...)``
  works as with python-chess (the protocols live in :mod:`shatranj.engine._protocol`, ``_uci``
  and ``_xboard``, over ``_commands``, ``_values``, ``_analysis`` and ``_errors``; asyncio's
  entry points and the mock transport in ``_transports``; the blocking client in
  :mod:`shatranj.engine._simple`).
- :func:`analyse_many`: many positions over several engine processes (or in-process engines
  on threads), results in input order, as info dicts or columns for numpy/pandas
  (:mod:`shatranj.engine._batch`).
- :class:`Engine`: the shatranj search in this process. ``Engine.analyse`` returns the same
  info dicts (``"score"`` a :class:`PovScore`, ``"pv"`` a list of moves, ``"depth"``,
  ``"seldepth"``, ``"nodes"``, ``"nps"``, ``"time"``, ``"hashfull"``), so code written for
  an external engine reads the same. The search is native (:class:`shatranj._core.Engine`):
  it releases the GIL, and Ctrl-C stops it and raises ``KeyboardInterrupt``. Defined in
  :mod:`shatranj.engine._local` (which :mod:`shatranj.engine._batch` imports too), named
  ``shatranj.engine.Engine``.

Scores are shared by all of them (:mod:`shatranj.engine._scores`): :class:`Cp`,
:class:`Mate`, :data:`MateGiven`, :class:`PovScore`, with ``wdl()``.
"""

from __future__ import annotations

from .. import _pickle
from ._analysis import AnalysisResult
from ._batch import analyse_many
from ._commands import BaseCommand, CommandState
from ._errors import (
    LOGGER,
    AnalysisComplete,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
)
from ._local import Engine, EvalFile
from ._protocol import Protocol
from ._scores import (
    Cp,
    Mate,
    MateGiven,
    MateGivenType,
    PovScore,
    PovWdl,
    Score,
    Wdl,
    WdlModel,
)
from ._simple import SimpleAnalysisResult, SimpleEngine
from ._transports import EventLoopPolicy, MockTransport, popen_uci, popen_xboard, run_in_background
from ._uci import UciProtocol, _parse_uci_bestmove, _parse_uci_info
from ._values import (
    INFO_ALL,
    INFO_BASIC,
    INFO_CURRLINE,
    INFO_NONE,
    INFO_PV,
    INFO_REFUTATION,
    INFO_SCORE,
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
from ._xboard import XBoardProtocol, _parse_xboard_option, _parse_xboard_post

__all__ = [
    "INFO_ALL",
    "INFO_BASIC",
    "INFO_CURRLINE",
    "INFO_NONE",
    "INFO_PV",
    "INFO_REFUTATION",
    "INFO_SCORE",
    "LOGGER",
    "MANAGED_OPTIONS",
    "AnalysisComplete",
    "AnalysisResult",
    "BaseCommand",
    "BestMove",
    "CommandState",
    "ConfigMapping",
    "ConfigValue",
    "Cp",
    "Engine",
    "EngineError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "EvalFile",
    "EventLoopPolicy",
    "Info",
    "InfoDict",
    "Limit",
    "Mate",
    "MateGiven",
    "MateGivenType",
    "MockTransport",
    "Opponent",
    "Option",
    "PlayResult",
    "PovScore",
    "PovWdl",
    "Protocol",
    "Score",
    "SimpleAnalysisResult",
    "SimpleEngine",
    "UciOptionMap",
    "UciProtocol",
    "Wdl",
    "WdlModel",
    "XBoardProtocol",
    "analyse_many",
    "popen_uci",
    "popen_xboard",
    "run_in_background",
]  # fmt: skip

# Parsers python-chess's tests call directly.
_ = (_parse_uci_bestmove, _parse_uci_info, _parse_xboard_option, _parse_xboard_post)

# Pickles and reprs name the public module (shatranj.engine.Cp), not the private one that
# defines the class, so that later moves inside the package keep pickles loading.
_pickle.publish(__name__, globals(), __all__)

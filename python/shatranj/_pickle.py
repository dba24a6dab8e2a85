"""What pickles name: the function a Chess960 or setup-mode board is rebuilt by, and the
modules that earlier versions pickled values under.

Setup mode itself (boards the native position refuses: no king, nine queens, pawns on the
back rank, the side not to move in check) is the native board's: it holds the rules crate's
``Setup`` and its move stack in Rust (``rust/python/src/board/setup_mode.rs``). This module
stays because pickles name :func:`board_from_fen` (``shatranj._pickle.board_from_fen``), and
``Board`` takes its ``chess960`` flag by keyword only, which a pickle's plain call cannot pass.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

#: Flat modules of earlier versions, which pickles of their values name, and the module that
#: now exports those values: ``shatranj._engine_scores.Cp``, ``shatranj._engine_protocol.Limit``
#: and the like were pickled before ``shatranj.engine`` became a package.
MOVED_MODULES = {
    "shatranj._engine_protocol": "shatranj.engine",
    "shatranj._engine_scores": "shatranj.engine",
    "shatranj._engine_local": "shatranj.engine",
    "shatranj._engine_simple": "shatranj.engine",
    "shatranj._engine_batch": "shatranj.engine",
}


def publish(module: str, namespace: dict[str, Any], names: Iterable[str]) -> None:
    """Gives the classes among ``names`` (the public names of package ``module``) the module
    they are imported from, as the package's ``__init__`` does last: their pickles and reprs
    then name ``shatranj.pgn.Game`` rather than the private module that defines the class, so
    the package can rearrange its insides without breaking pickles."""
    for name in names:
        value = namespace[name]
        if isinstance(value, type) and value.__module__.startswith(module + "."):
            value.__module__ = module


def register_moved_modules() -> None:
    """Makes each old module name import as the module that now exports its values (the
    package's ``__init__`` calls this once those modules are imported)."""
    for old, new in MOVED_MODULES.items():
        sys.modules.setdefault(old, sys.modules[new])


def board_from_fen(fen: str, chess960: bool) -> Any:
    """Unpickles a Chess960 or setup-mode board: ``Board(fen, chess960=chess960)``."""
    from ._core import Board

    return Board(fen, chess960=chess960)

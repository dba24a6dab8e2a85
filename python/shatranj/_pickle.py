"""What a pickle of a Chess960 or setup-mode board names to rebuild it.

Setup mode itself (boards the native position refuses: no king, nine queens, pawns on the
back rank, the side not to move in check) is the native board's: it holds the rules crate's
``Setup`` and its move stack in Rust (``rust/python/src/board/setup_mode.rs``). This module
stays because pickles name :func:`board_from_fen` (``shatranj._pickle.board_from_fen``), and
``Board`` takes its ``chess960`` flag by keyword only, which a pickle's plain call cannot pass.
"""

from __future__ import annotations

from typing import Any


def board_from_fen(fen: str, chess960: bool) -> Any:
    """Unpickles a Chess960 or setup-mode board: ``Board(fen, chess960=chess960)``."""
    from ._core import Board

    return Board(fen, chess960=chess960)

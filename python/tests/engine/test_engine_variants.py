"""``shatranj.engine`` playing the lichess variants (issue 54) with an engine that speaks
``UCI_Variant``: fairy-stockfish (Debian's, in ``/usr/games``; ``scripts/test`` installs it).

For each variant a short fixed-node game through ``SimpleEngine.popen_uci``: the client
sets ``UCI_Variant`` to the board's ``uci_variant``, sends the variant's FEN and moves
(drops as ``N@f3``), and every ``bestmove`` it reads back must be legal on our board under
the variant's rules; then ``analyse`` must return a principal variation legal move by move.
A scripted transport checks the exact lines sent for a crazyhouse game with a drop, and
that an engine without ``UCI_Variant`` is refused with a typed error.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

import shatranj
import shatranj.engine
import shatranj.variant

FAIRY = shutil.which("fairy-stockfish") or shutil.which("fairy-stockfish", path="/usr/games")
# The variants fairy-stockfish knows by python-chess's UCI names (giveaway is lichess's
# antichess with castling; fairy-stockfish's "giveaway" is that rule set too).
VARIANTS = [
    "atomic", "crazyhouse", "antichess", "giveaway", "3check", "kingofthehill", "racingkings",
    "horde",
]  # fmt: skip
PLIES = 16
NODES = 3000


@pytest.fixture(scope="module")
def fairy() -> Path:
    if FAIRY is None:
        pytest.skip("fairy-stockfish is not installed (scripts/test installs it from Debian)")
    return Path(FAIRY)


def assert_line_legal(board: shatranj.variant.VariantBoard, line: list[shatranj.Move]) -> None:
    replay = board.copy()
    for move in line:
        assert move in replay.legal_moves, (replay.fen(), [m.uci() for m in line])
        replay.push(move)


@pytest.mark.parametrize("name", VARIANTS)
def test_a_fixed_node_game_is_legal_under_the_variant(fairy: Path, name: str) -> None:
    board = shatranj.variant.find_variant(name)()
    with shatranj.engine.SimpleEngine.popen_uci(str(fairy)) as engine:
        protocol = engine.protocol
        assert isinstance(protocol, shatranj.engine.UciProtocol)
        if name not in (engine.options["UCI_Variant"].var or []):
            # Debian's build leaves atomic out (it needs a compile-time flag): the client
            # must refuse the board rather than send a variant the engine does not know.
            with pytest.raises(shatranj.engine.EngineError):
                engine.play(board, shatranj.engine.Limit(nodes=NODES))
            pytest.skip(f"this fairy-stockfish was built without {name} (refused, as it must be)")
        for _ in range(PLIES):
            if board.is_game_over():
                break
            result = engine.play(board, shatranj.engine.Limit(nodes=NODES))
            assert result.move is not None
            assert result.move in board.legal_moves, (board.fen(), result.move.uci())
            board.push(result.move)
        assert protocol.config["UCI_Variant"] == board.uci_variant
        assert len(board.move_stack) >= 2
        if not board.is_game_over():
            info = engine.analyse(board, shatranj.engine.Limit(nodes=NODES))
            pv = info.get("pv", [])
            assert pv, info
            assert_line_legal(board, pv)


def test_crazyhouse_drops_go_out_and_come_back(fairy: Path) -> None:
    # White holds a knight: fairy-stockfish sees the pocket in the FEN, and a drop played on
    # the board is sent as N@f3 in the moves.
    board = shatranj.variant.CrazyhouseBoard(
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/8/PPPP1PPP/RNBQKB1R[Nn] w KQkq - 0 4"
    )
    board.push_uci("N@f3")
    with shatranj.engine.SimpleEngine.popen_uci(str(fairy)) as engine:
        result = engine.play(board, shatranj.engine.Limit(nodes=NODES))
        assert result.move is not None
        assert result.move in board.legal_moves
        board.push(result.move)
        info = engine.analyse(board, shatranj.engine.Limit(nodes=NODES))
        pv = info.get("pv", [])
        assert pv, info
        assert_line_legal(board, pv)


def test_the_lines_sent_for_a_variant() -> None:
    async def main() -> None:
        protocol = shatranj.engine.UciProtocol()
        mock = shatranj.engine.MockTransport(protocol)
        mock.expect(
            "uci",
            ["option name UCI_Variant type combo default chess var chess var crazyhouse", "uciok"],
        )
        await protocol.initialize()
        board = shatranj.variant.CrazyhouseBoard("4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1")
        board.push_uci("N@f3")
        # python-chess's order: a new game, then the variant with the position.
        mock.expect("ucinewgame")
        mock.expect("isready", ["readyok"])
        mock.expect("setoption name UCI_Variant value crazyhouse")
        mock.expect("position fen 4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1 moves N@f3")
        mock.expect(
            "go nodes 100",
            ["info depth 1 score cp -20 pv N@e5 f3e5", "bestmove N@e5 ponder f3e5"],
        )
        result = await protocol.play(
            board, shatranj.engine.Limit(nodes=100), info=shatranj.engine.INFO_ALL
        )
        assert result.move == shatranj.Move.from_uci("N@e5")
        assert result.ponder == shatranj.Move.from_uci("f3e5")
        assert result.info["pv"] == [shatranj.Move.from_uci("N@e5"), shatranj.Move.from_uci("f3e5")]
        mock.assert_done()

    asyncio.run(main())


def test_an_engine_without_uci_variant_is_refused() -> None:
    async def main() -> None:
        protocol = shatranj.engine.UciProtocol()
        mock = shatranj.engine.MockTransport(protocol)
        mock.expect("uci", ["uciok"])
        await protocol.initialize()
        mock.expect("ucinewgame")
        mock.expect("isready", ["readyok"])
        with pytest.raises(shatranj.engine.EngineError, match="UCI_Variant"):
            await protocol.play(shatranj.variant.AtomicBoard(), shatranj.engine.Limit(nodes=1))

    asyncio.run(main())

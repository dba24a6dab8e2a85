"""shatranj.engine as a client of external engines: python-chess's API against python-chess
itself (scores, WDL models, info-line parsing, EPD operations, the exact lines sent to an
engine), real engines (Debian's stockfish and phalanx, shatranj's own UCI binary), engines
that die, hang or print garbage, Ctrl-C, and analyse_many.

python-chess's own engine tests run in test_engine_conformance.py. The stockfish, phalanx
and binary tests skip when those are missing (scripts/test installs and builds them).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import math
import os
import pickle
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import shatranj
import shatranj.engine as engine
from shatranj.engine import _uci
from shatranj.engine._batch import COLUMNS
from support.engines import FAKE_ENGINE, which
from support.processes import children

FAKE = FAKE_ENGINE
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    KIWIPETE,
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "2kr3r/pp1q1ppp/2n1bn2/3p4/3P4/2NBBN2/PPQ2PPP/R4RK1 b - - 5 14",
]

STOCKFISH = which("stockfish")
PHALANX = which("phalanx")
needs_stockfish = pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")


# ---------------------------------------------------------------------------------------
# Against python-chess: scores, WDL, info lines, EPD

chess = pytest.importorskip("chess")
importlib.import_module("chess.engine")


def _our_scores() -> list[engine.Score]:
    return [engine.Mate(0), engine.Mate(-1), engine.Mate(-37), engine.Cp(-1234), engine.Cp(-1),
            engine.Cp(0), engine.Cp(7), engine.Cp(350), engine.Cp(5000), engine.Mate(12),
            engine.Mate(1), engine.MateGiven]  # fmt: skip


def _their(score: engine.Score) -> Any:
    if score is engine.MateGiven:
        return chess.engine.MateGiven
    if isinstance(score, engine.Cp):
        return chess.engine.Cp(score.cp)
    assert isinstance(score, engine.Mate)
    return chess.engine.Mate(score.moves)


def test_scores_behave_as_python_chess_scores() -> None:
    ours = _our_scores()
    theirs = [_their(s) for s in ours]
    for a, ta in zip(ours, theirs):
        assert (str(a), repr(a)) == (str(ta), repr(ta))
        assert repr(-a) == repr(-ta) and repr(abs(a)) == repr(abs(ta))
        assert a.mate() == ta.mate() and a.score() == ta.score() and a.is_mate() == ta.is_mate()
        assert a.score(mate_score=100000) == ta.score(mate_score=100000)
        for b, tb in zip(ours, theirs):
            assert (a < b, a == b, a >= b) == (ta < tb, ta == tb, ta >= tb), (a, b)
        for model in ("sf", "sf16.1", "sf16", "sf15.1", "sf15", "sf14", "sf12", "lichess"):
            for ply in (0, 1, 25, 60, 200, 400):
                mine = a.wdl(model=model, ply=ply)  # type: ignore[arg-type]
                assert tuple(mine) == tuple(ta.wdl(model=model, ply=ply)), (a, model, ply)
    pov = engine.PovScore(engine.Cp(40), shatranj.BLACK)
    assert tuple(pov.wdl().white()) == tuple(
        chess.engine.PovScore(chess.engine.Cp(40), chess.BLACK).wdl().white()
    )
    with pytest.raises(ValueError, match="WDL model"):
        engine.Cp(1).wdl(model="sf99")  # type: ignore[arg-type]


def test_wdl_of_every_centipawn_matches_python_chess() -> None:
    for cp in range(-1500, 1501, 7):
        for model in ("sf16.1", "sf16", "sf15.1", "sf15", "sf14", "sf12", "lichess"):
            assert tuple(engine.Cp(cp).wdl(model=model, ply=41)) == tuple(  # type: ignore[arg-type]
                chess.engine.Cp(cp).wdl(model=model, ply=41)
            )


def test_mate_given_is_one_object_that_survives_pickling() -> None:
    assert engine.MateGiven() is engine.MateGiven  # the old class-style spelling
    assert -engine.Mate(0) is engine.MateGiven and -engine.MateGiven == engine.Mate(0)
    for value in (
        *_our_scores(),
        engine.PovScore(engine.MateGiven, True),
        engine.PovWdl(engine.Wdl(1, 2, 3), False),
    ):
        copy = pickle.loads(pickle.dumps(value))
        assert copy == value and type(copy) is type(value)
    assert pickle.loads(pickle.dumps(engine.MateGiven)) is engine.MateGiven
    assert engine.PovWdl(engine.Wdl(1, 2, 3), False) == (1, 2, 3)


def test_pickles_naming_the_modules_before_the_engine_package_load() -> None:
    # Before shatranj.engine was a package, its values pickled under the flat modules
    # shatranj._engine_scores and shatranj._engine_protocol. Protocol 0 writes the module as
    # a plain line, so a pickle made now is rewritten into the old spelling and loaded.
    values: list[tuple[object, str]] = [
        (engine.PovScore(engine.Cp(35), True), "_engine_scores"),
        (engine.Mate(-3), "_engine_scores"),
        (engine.Wdl(1, 2, 3), "_engine_scores"),
        (engine.Limit(depth=12, nodes=1000), "_engine_protocol"),
        (engine.PlayResult(shatranj.Move.from_uci("e2e4"), None), "_engine_protocol"),
        (engine.Info.SCORE | engine.Info.PV, "_engine_protocol"),
    ]
    for value, old in values:
        data = pickle.dumps(value, protocol=0)
        assert type(value).__module__ == "shatranj.engine"  # what pickles name now
        legacy = data.replace(b"cshatranj.engine\n", b"cshatranj." + old.encode() + b"\n")
        assert legacy != data, (value, data)
        copy = pickle.loads(legacy)
        # PlayResult has no __eq__ (as in python-chess): compare its attributes.
        assert type(copy) is type(value)
        assert copy == value or vars(copy) == vars(value), (copy, value)


INFO_LINES = [
    "depth 20 seldepth 28 multipv 1 score cp 35 nodes 1234567 nps 1234567 hashfull 345 tbhits 0 time 1000 pv e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
    "depth 12 currmove g1f3 currmovenumber 3",
    "depth 5 seldepth 7 multipv 2 score mate -3 lowerbound nodes 50 pv d2d4 d7d5",
    "depth 5 score cp 20 upperbound wdl 300 650 50 time 17 nodes 48299 nps 2683000",
    "depth 10 seldepth 9 score cp 22  time 17 nodes 48299 nps 2683000 tbhits 0",
    "depth 1 unknown1 seldepth 2 unknown2 time 16 nodes 1 score cp 72 unknown3 wdl 249 747 4 multipv 1 uknown4 pv g1f3 g8f6 unknown5",
    "string goes to end no matter score cp 4 what",
    "depth 3 string  keep   the  spacing ",
    "currline 0 e2e4 e7e5 currline 1 d2d4",
    "refutation e2e4 e7e5 g1f3 refutation d2d4",
    "ebf 0.42 cpuload 456",
    "depth x seldepth 3 score cp y nodes 9",
    "score foo 3 depth 4",
    "pv e2e5 depth 6",
    "pv e2e4 e7e5 e1e2 zzz depth 2",
    "refutation e2e5 d2d4",
    "currline x e2e4",
    "wdl 1 2 depth 3",
    "currmove zz99 depth 2",
    "depth +5 nodes 1_000 time -3",
    "score mate",
    "",
    "   ",
]
SELECTORS = [engine.INFO_ALL, engine.INFO_NONE, engine.INFO_BASIC, engine.INFO_SCORE, engine.INFO_PV,
             engine.INFO_REFUTATION | engine.INFO_CURRLINE, engine.INFO_SCORE | engine.INFO_PV]  # fmt: skip


def _plain(value: Any) -> Any:
    """An info dict's value in a form both libraries' objects compare in."""
    if isinstance(value, (shatranj.Move, chess.Move)):
        return value.uci()
    if isinstance(value, (engine.PovScore, chess.engine.PovScore)):
        return (repr(value.relative), value.turn)
    if isinstance(value, (engine.PovWdl, chess.engine.PovWdl)):
        return (tuple(value.relative), value.turn)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


@pytest.mark.parametrize("fen", [shatranj.STARTING_FEN, "8/8/6k1/8/8/8/1K6/3B4 w - - 0 1"])
def test_info_lines_parse_as_python_chess_parses_them(
    fen: str, caplog: pytest.LogCaptureFixture
) -> None:
    ours, theirs = shatranj.Board(fen), chess.Board(fen)
    caplog.set_level(logging.CRITICAL)
    for line in INFO_LINES:
        for selector in SELECTORS:
            reference = _plain(
                chess.engine._parse_uci_info(line, theirs, chess.engine.Info(int(selector)))
            )
            native = _uci._parse_uci_info(line, ours, selector)
            assert _plain(native) == reference, (line, selector)
            assert list(native) == list(reference), (line, selector)  # the same key order too


def test_random_info_lines_parse_as_python_chess_parses_them(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Seeded token soup: keywords, numbers, legal and illegal moves, junk, odd spacing.
    caplog.set_level(logging.CRITICAL)
    words = ["depth", "seldepth", "nodes", "multipv", "score", "cp", "mate", "lowerbound", "upperbound",
             "pv", "time", "nps", "hashfull", "tbhits", "cpuload", "currmove", "currmovenumber", "wdl",
             "refutation", "currline", "ebf", "string", "e2e4", "e7e5", "g1f3", "b8c6", "d2d4", "e2e5",
             "a7a8q", "0000", "12", "-3", "0", "+7", "1.5", "x", "é", "99999999999999999999"]  # fmt: skip
    rng = random.Random(22)
    ours, theirs = shatranj.Board(), chess.Board()
    for _ in range(1500):
        line = rng.choice([" ", "  "]).join(rng.choice(words) for _ in range(rng.randint(0, 14)))
        selector = rng.choice(SELECTORS)
        reference = chess.engine._parse_uci_info(line, theirs, chess.engine.Info(int(selector)))
        if "0000" in str(_plain(reference)):
            continue  # a line through the null move: python-chess plays it, shatranj refuses it
        native = _uci._parse_uci_info(line, ours, selector)
        assert _plain(native) == _plain(reference), (line, selector)


def test_info_parse_failures_are_logged_like_python_chess(caplog: pytest.LogCaptureFixture) -> None:
    board = shatranj.Board()
    with caplog.at_level(logging.ERROR, logger="shatranj.engine"):
        info = engine._parse_uci_info("depth x pv e2e5 score cp 12", board)
    assert info == {"score": engine.PovScore(engine.Cp(12), True)}
    messages = [record.getMessage() for record in caplog.records]
    assert any("parsing depth" in m for m in messages) and any("parsing pv" in m for m in messages)


@pytest.mark.parametrize(
    "text",
    [
        "bestmove e2e4 ponder e7e5",
        "bestmove e2e4  ponder e7e4",  # an illegal ponder move is dropped
        "bestmove (none)",
        "bestmove NULL",
        "bestmove E2E4 ponder NULL",
        "",
    ],
)
def test_bestmove_lines_parse_as_python_chess_parses_them(
    text: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.CRITICAL)
    args = text.partition(" ")[2]
    ours = engine._parse_uci_bestmove(shatranj.Board(), args)
    theirs = chess.engine._parse_uci_bestmove(chess.Board(), args)
    assert _plain([ours.move, ours.ponder]) == _plain([theirs.move, theirs.ponder])


def test_an_illegal_or_garbled_bestmove_is_an_engine_error() -> None:
    for args in ("e2e5", "e7e6\0", "zz99"):
        with pytest.raises(engine.EngineError, match="invalid best move"):
            engine._parse_uci_bestmove(shatranj.Board(), args)


EPDS = [
    '1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id "BK.01";',
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - hmvc 4; fmvn 4; am Qxf7#; ce 1.5e2;",
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - pv e4 e5 Nf3; c0 "say \\"hi\\"\\tthere"; noop; sm d4;',
    "8/8/8/8/8/8/8/K6k w - - -; dm 12; acd -3;",
    "8/8/8/8/8/8/8/K6k w - -",
]


@pytest.mark.parametrize("epd", EPDS)
def test_epd_operations_read_as_python_chess_reads_them(epd: str) -> None:
    ours, theirs = shatranj.Board(), chess.Board()
    assert _plain(ours.set_epd(epd)) == _plain(theirs.set_epd(epd))
    assert ours.fen() == theirs.fen() and ours.move_stack == []
    board, operations = shatranj.Board.from_epd(epd)
    assert board.fen() == theirs.fen() and _plain(operations) == _plain(
        chess.Board.from_epd(epd)[1]
    )


# ---------------------------------------------------------------------------------------
# The lines an engine receives are python-chess's


def _script(lib: Any, command: list[str]) -> None:
    """One session with an engine, written against python-chess's API."""
    with lib.engine.SimpleEngine.popen_uci(command) as client:
        client.configure({"Hash": 32})
        board = lib.Board()
        client.analyse(board, lib.engine.Limit(depth=3))
        client.analyse(board, lib.engine.Limit(nodes=500), multipv=2)
        board.push_uci("e2e4")
        client.play(
            board,
            lib.engine.Limit(time=0.05, white_clock=60, black_clock=59.5, white_inc=1, black_inc=1),
        )
        client.play(
            board,
            lib.engine.Limit(depth=2),
            game="second",
            options={"Hash": 64},
            info=lib.engine.INFO_ALL,
        )
        with client.analysis(
            lib.Board(KIWIPETE), root_moves=[lib.Move.from_uci("e2a6")]
        ) as analysis:
            analysis.wait()
        client.play(lib.Board(), lib.engine.Limit(mate=2), game="second")
        client.ping()
        client.quit()


def test_the_engine_receives_the_lines_python_chess_sends(
    tmp_path: Path, no_leftover_processes: None
) -> None:
    logs = {}
    for name, lib in (("python-chess", chess), ("shatranj", shatranj)):
        log = tmp_path / f"{name}.log"
        os.environ["FAKE_ENGINE_LOG"] = str(log)
        try:
            _script(lib, FAKE + ["uci"])
        finally:
            del os.environ["FAKE_ENGINE_LOG"]
        logs[name] = log.read_text().splitlines()
    assert logs["shatranj"] == logs["python-chess"]
    assert "setoption name Hash value 64" in logs["shatranj"] and "ucinewgame" in logs["shatranj"]


# ---------------------------------------------------------------------------------------
# Real engines


@needs_stockfish
def test_stockfish_analyses_plays_and_streams(no_leftover_processes: None) -> None:
    assert STOCKFISH is not None
    with engine.SimpleEngine.popen_uci(STOCKFISH) as sf:
        assert sf.id["name"].startswith("Stockfish")
        assert sf.options["hash"].type == "spin" and "Threads" in sf.options
        sf.configure({"Hash": 16, "Threads": 1})
        with pytest.raises(engine.EngineError, match="does not support option"):
            sf.configure({"NoSuchOption": 1})
        with pytest.raises(engine.EngineError, match="automatically managed"):
            sf.configure({"MultiPV": 2})
        with pytest.raises(engine.EngineError, match="at most"):
            sf.configure({"Threads": 100000})

        board = shatranj.Board(FENS[4])
        info = sf.analyse(board, engine.Limit(depth=6))
        assert info["score"].white() == engine.Mate(1) and info["pv"][0] == shatranj.Move.from_uci(
            "a1a8"
        )
        assert {"depth", "seldepth", "nodes", "nps", "time", "multipv"} <= set(info)

        infos = sf.analyse(shatranj.Board(KIWIPETE), engine.Limit(depth=6), multipv=3)
        assert [i["multipv"] for i in infos] == [1, 2, 3]
        assert (
            infos[0]["score"].relative >= infos[1]["score"].relative >= infos[2]["score"].relative
        )

        board = shatranj.Board()
        for _ in range(4):
            result = sf.play(board, engine.Limit(nodes=2000), ponder=True, info=engine.INFO_SCORE)
            assert (
                result.move is not None
                and result.move in board.legal_moves
                and "score" in result.info
            )
            board.push(result.move)

        seen = 0
        with sf.analysis(shatranj.Board(KIWIPETE)) as analysis:
            for item in analysis:
                seen += 1
                if item.get("depth", 0) >= 8:
                    break
        best = analysis.wait()
        assert seen > 0 and best.move in shatranj.Board(KIWIPETE).legal_moves
        assert analysis.info["depth"] >= 8
        sf.ping()
        sf.quit()
        with pytest.raises(engine.EngineTerminatedError):
            sf.ping()


@needs_stockfish
def test_the_asyncio_api_drives_stockfish() -> None:
    async def main() -> None:
        assert STOCKFISH is not None
        transport, sf = await engine.popen_uci(STOCKFISH)
        try:
            info = await sf.analyse(shatranj.Board(FENS[4]), engine.Limit(depth=4))
            assert info["score"].relative == engine.Mate(1)
            result = await sf.play(shatranj.Board(), engine.Limit(nodes=1000))
            assert result.move in shatranj.Board().legal_moves
            await sf.quit()
        finally:
            transport.close()

    asyncio.run(main())


def test_shatranj_binary_under_its_own_client(
    no_leftover_processes: None, shatranj_binary: Path
) -> None:
    with engine.SimpleEngine.popen_uci([str(shatranj_binary)]) as uci:
        assert "shatranj" in uci.id.get("name", "").lower()
        uci.configure({"Hash": 8, "Threads": 1})
        info = uci.analyse(shatranj.Board(FENS[4]), engine.Limit(depth=4))
        assert info["score"].white() == engine.Mate(1) and info["pv"][0] == shatranj.Move.from_uci(
            "a1a8"
        )
        assert len(uci.analyse(shatranj.Board(), engine.Limit(depth=3), multipv=2)) == 2
        board = shatranj.Board()
        for _ in range(4):
            move = uci.play(board, engine.Limit(nodes=3000)).move
            assert move is not None and move in board.legal_moves
            board.push(move)


@pytest.mark.skipif(PHALANX is None, reason="phalanx (an XBoard engine) is not installed")
def test_phalanx_plays_over_xboard(
    no_leftover_processes: None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)  # phalanx chats ("you play both") between its answers
    assert PHALANX is not None
    with engine.SimpleEngine.popen_xboard(PHALANX) as xb:
        assert xb.id["name"].startswith("Phalanx")
        board = shatranj.Board()
        for _ in range(4):
            result = xb.play(board, engine.Limit(time=0.05))
            assert result.move is not None and result.move in board.legal_moves
            board.push(result.move)
        board.pop()  # the client takes the move back with `undo`
        assert xb.play(board, engine.Limit(time=0.05)).move in board.legal_moves
        xb.ping()
        xb.quit()


def test_another_thread_may_stop_an_analysis_or_send_a_command(no_leftover_processes: None) -> None:
    with engine.SimpleEngine.popen_uci(FAKE + ["alive"]) as alive:
        analysis = alive.analysis(shatranj.Board())
        threading.Timer(0.3, analysis.stop).start()
        assert list(analysis) == [] and analysis.wait().move == shatranj.Move.from_uci("a2a3")
        # A command from another thread stops the running analysis and runs after it.
        analysis = alive.analysis(shatranj.Board())
        played: list[Any] = []
        other = threading.Thread(
            target=lambda: played.append(
                alive.play(shatranj.Board(KIWIPETE), engine.Limit(depth=1))
            )
        )
        threading.Timer(0.3, other.start).start()
        assert analysis.wait().move == shatranj.Move.from_uci("a2a3")
        time.sleep(0.1)
        other.join(timeout=10)
        assert played and played[0].move in shatranj.Board(KIWIPETE).legal_moves


# ---------------------------------------------------------------------------------------
# Engines that die, hang or talk nonsense


@needs_stockfish
def test_a_killed_engine_fails_the_call_and_is_reaped(no_leftover_processes: None) -> None:
    assert STOCKFISH is not None
    sf = engine.SimpleEngine.popen_uci(STOCKFISH)
    pid = sf.transport.get_pid()
    analysis = sf.analysis(shatranj.Board())
    assert analysis.get()
    os.kill(pid, signal.SIGKILL)
    started = time.monotonic()
    with pytest.raises(engine.EngineTerminatedError) as raised:
        analysis.wait()
    assert time.monotonic() - started < 2.0
    assert raised.value.returncode == -signal.SIGKILL
    assert pid not in children()  # reaped at once, not at close()
    with pytest.raises(engine.EngineTerminatedError, match="dead"):
        sf.analyse(shatranj.Board(), engine.Limit(depth=1))
    sf.close()


def test_a_crash_carries_the_exit_code_and_stderr(no_leftover_processes: None) -> None:
    with (
        engine.SimpleEngine.popen_uci(FAKE + ["crash"]) as crashing,
        pytest.raises(engine.EngineTerminatedError) as raised,
    ):
        crashing.play(shatranj.Board(), engine.Limit(depth=1))
    error = raised.value
    assert error.returncode == 3
    assert "stderr: fatal: simulated crash" in error.output and "fatal: simulated crash" in str(
        error
    )


def test_a_hung_engine_times_out_with_a_time_limit(no_leftover_processes: None) -> None:
    with engine.SimpleEngine.popen_uci(FAKE + ["hang-go"], timeout=0.3) as hung:
        started = time.monotonic()
        with pytest.raises(engine.EngineTimeoutError) as raised:
            hung.analyse(shatranj.Board(), engine.Limit(time=0.1))
        assert 0.35 < time.monotonic() - started < 2.0
        assert isinstance(raised.value, asyncio.TimeoutError) and isinstance(
            raised.value, engine.EngineError
        )
        assert "uciok" in raised.value.output  # the last thing it said


def test_a_hung_engine_times_out_without_a_time_limit(no_leftover_processes: None) -> None:
    # No deadline for a depth limit (python-chess waits forever); the client probes the
    # silent engine with isready and gives up when that goes unanswered too.
    with engine.SimpleEngine.popen_uci(FAKE + ["hang-go"], timeout=0.3) as hung:
        started = time.monotonic()
        with pytest.raises(engine.EngineTimeoutError, match="stopped responding"):
            hung.play(shatranj.Board(), engine.Limit(depth=30))
        assert time.monotonic() - started < 3.0


def test_a_slow_but_alive_engine_is_not_timed_out(no_leftover_processes: None) -> None:
    # The timeout leaves a loaded machine time to schedule the fake engine's readyok; the stop
    # comes after two silences of a timeout each.
    with engine.SimpleEngine.popen_uci(FAKE + ["alive"], timeout=1.5) as alive:
        analysis = alive.analysis(shatranj.Board())
        threading.Timer(4.0, analysis.stop).start()
        best = analysis.wait()  # silences of a timeout twice, each answered by readyok
        assert best.move == shatranj.Move.from_uci("a2a3")
        alive.ping()


def test_an_engine_that_never_says_uciok(no_leftover_processes: None) -> None:
    started = time.monotonic()
    with pytest.raises(engine.EngineTimeoutError, match="initialisation"):
        engine.SimpleEngine.popen_uci(FAKE + ["hang-uci"], timeout=0.3)
    assert time.monotonic() - started < 2.0


def test_garbage_and_illegal_moves_are_engine_errors(no_leftover_processes: None) -> None:
    with engine.SimpleEngine.popen_uci(FAKE + ["garbage"]) as garbage:
        with pytest.raises(engine.EngineError, match="zz99") as raised:
            garbage.play(shatranj.Board(), engine.Limit(depth=1))
        assert any("garbage" in line for line in raised.value.output)
        garbage.ping()  # still usable
    with (
        engine.SimpleEngine.popen_uci(FAKE + ["illegal"]) as illegal,
        pytest.raises(engine.EngineError, match="a1a8"),
    ):
        illegal.analyse(shatranj.Board(), engine.Limit(depth=1))
    with pytest.raises(FileNotFoundError):
        engine.SimpleEngine.popen_uci("/nonexistent/engine")


CHILD = textwrap.dedent(
    """
    import os, signal, sys
    import shatranj, shatranj.engine as engine
    signal.signal(signal.SIGINT, signal.default_int_handler)
    {setup}
    print("ready", flush=True)
    try:
        {call}
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    {after}
    """
)


def _ctrl_c(setup: str, call: str, after: str) -> str:
    """Runs ``call`` in a child interpreter, sends it SIGINT half a second in, and returns
    what it printed; it must end within a few seconds."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(setup=setup, call=call, after=after)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    before = []
    for line in child.stdout:
        if line.strip() == "ready":
            break
        before.append(line)
    else:
        pytest.fail(
            f"the child never got ready: {before} {child.stderr.read() if child.stderr else ''}"
        )
    time.sleep(0.5)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=20)
    finally:
        child.kill()
    out = "".join(before) + out
    assert child.returncode == 0, (out, err)
    assert "interrupted" in out, (out, err)
    assert time.monotonic() - sent < 10
    return out


@needs_stockfish
def test_ctrl_c_stops_a_search_and_the_engine_still_works() -> None:
    out = _ctrl_c(
        setup=f"sf = engine.SimpleEngine.popen_uci({STOCKFISH!r}); print('pid', sf.transport.get_pid(), flush=True)",
        call="sf.analyse(shatranj.Board(), engine.Limit(time=600))",
        after="print('after', sf.analyse(shatranj.Board(), engine.Limit(depth=5))['depth'], flush=True)",
    )
    assert "after 5" in out
    pid = int(out.split("pid ")[1].split()[0])
    assert not Path(f"/proc/{pid}").exists(), "the engine outlived its interpreter"


@needs_stockfish
def test_ctrl_c_stops_analyse_many_and_its_engines() -> None:
    out = _ctrl_c(
        setup="from pathlib import Path",
        call=f"engine.analyse_many(['{shatranj.STARTING_FEN}'] * 100, {STOCKFISH!r}, processes=2, "
        "limit=engine.Limit(time=2), progress=False)",
        after=(
            "kids = [p for p in Path('/proc').iterdir() if p.name.isdigit() and "
            "(p / 'stat').read_text().rsplit(')', 1)[1].split()[1] == str(os.getpid())]; "
            "print('children', len(kids), flush=True)"
        ),
    )
    assert "children 0" in out


def test_ctrl_c_stops_analyse_many_in_process() -> None:
    _ctrl_c(
        setup="",
        call=f"engine.analyse_many(['{KIWIPETE}'] * 8, None, processes=2, limit=engine.Limit(time=30), progress=False)",
        after="",
    )


# ---------------------------------------------------------------------------------------
# analyse_many


@needs_stockfish
def test_analyse_many_is_in_order_and_equals_one_engine_at_a_time(
    no_leftover_processes: None,
) -> None:
    assert STOCKFISH is not None
    board = shatranj.Board()
    board.push_san("e4")
    positions: list[Any] = [*FENS, board]
    limit = engine.Limit(nodes=3000)
    done: list[int] = []
    results = engine.analyse_many(
        positions, STOCKFISH, processes=2, limit=limit, progress=lambda d, t: done.append(d)
    )
    assert done == list(range(1, len(positions) + 1))
    with engine.SimpleEngine.popen_uci(STOCKFISH) as sf:
        for position, result in zip(positions, results):
            one = shatranj.Board(position) if isinstance(position, str) else position
            alone = sf.analyse(one, limit, game=object())
            assert isinstance(result, dict), result
            assert (result["score"], result["pv"], result["nodes"]) == (
                alone["score"],
                alone["pv"],
                alone["nodes"],
            )
    columns = engine.analyse_many(
        positions, STOCKFISH, processes=2, limit=limit, columns=True, progress=False
    )
    assert isinstance(columns, dict) and set(columns) == set(COLUMNS)
    assert columns["fen"][: len(FENS)] == FENS and columns["fen"][-1] == board.fen()
    for i, result in enumerate(results):
        assert isinstance(result, dict)
        assert (
            columns["best"][i] == result["pv"][0].uci() and columns["depth"][i] == result["depth"]
        )
        assert columns["error"][i] is None
    assert columns["mate"][4] == 1.0 and math.isnan(columns["score_cp"][4])
    numpy = pytest.importorskip("numpy")
    assert numpy.asarray(columns["score_cp"]).dtype == numpy.float64
    assert numpy.asarray(columns["nodes"]).dtype.kind == "i"


def test_analyse_many_reports_errors_per_position(no_leftover_processes: None) -> None:
    positions: list[Any] = [shatranj.STARTING_FEN, "not a fen", KIWIPETE, 42]
    results = engine.analyse_many(
        positions, FAKE + ["uci"], processes=2, limit=engine.Limit(depth=1), progress=False
    )
    assert isinstance(results, list)
    assert isinstance(results[0], dict) and results[0]["pv"] == [shatranj.Move.from_uci("a2a3")]
    assert isinstance(results[1], ValueError) and isinstance(results[3], TypeError)
    assert (
        isinstance(results[2], dict) and results[2]["pv"][0] in shatranj.Board(KIWIPETE).legal_moves
    )
    columns = engine.analyse_many(
        positions[:2],
        FAKE + ["uci"],
        processes=1,
        limit=engine.Limit(depth=1),
        columns=True,
        progress=False,
    )
    assert isinstance(columns, dict)
    assert (
        columns["error"][0] is None and columns["error"][1] and math.isnan(columns["score_cp"][1])
    )


def test_analyse_many_restarts_a_dead_engine_and_retries_once(
    tmp_path: Path, no_leftover_processes: None
) -> None:
    marker = tmp_path / "crashed-once"
    results = engine.analyse_many(
        FENS,
        FAKE + ["crash-once", str(marker)],
        processes=2,
        limit=engine.Limit(depth=1),
        progress=False,
    )
    assert marker.exists() and all(isinstance(r, dict) for r in results), results
    # A position that kills every engine fails alone, after one retry.
    results = engine.analyse_many(
        FENS,
        FAKE + ["crash-fen", KIWIPETE.split()[0]],
        processes=2,
        limit=engine.Limit(depth=1),
        progress=False,
    )
    assert isinstance(results[1], engine.EngineTerminatedError) and results[1].returncode == 3
    assert all(isinstance(r, dict) for i, r in enumerate(results) if i != 1)


def test_analyse_many_replaces_a_hung_engine(no_leftover_processes: None) -> None:
    started = time.monotonic()
    results = engine.analyse_many(
        FENS[:2],
        FAKE + ["hang-go"],
        processes=2,
        limit=engine.Limit(time=0.05),
        timeout=0.2,
        progress=False,
    )
    assert all(isinstance(r, engine.EngineTimeoutError) for r in results), results
    assert time.monotonic() - started < 8.0


def test_analyse_many_without_an_engine_program_fails_each_position() -> None:
    results = engine.analyse_many(
        FENS[:3], "/nonexistent/engine", processes=2, limit=engine.Limit(depth=1), progress=False
    )
    assert all(isinstance(r, FileNotFoundError) for r in results)


def test_analyse_many_in_process_equals_the_engine_alone() -> None:
    limit = engine.Limit(depth=3)
    results = engine.analyse_many(FENS, None, processes=2, limit=limit, progress=False)
    alone = shatranj.Engine(threads=1, hash_mb=16)
    for fen, result in zip(FENS, results):
        alone.clear_hash()
        expected = alone.analyse(shatranj.Board(fen), depth=3)
        assert isinstance(result, dict)
        assert (result["score"], result["pv"]) == (expected["score"], expected["pv"])
    lines = engine.analyse_many(FENS[:2], None, processes=1, limit=limit, multipv=2, progress=False)
    assert all(isinstance(r, list) and len(r) == 2 for r in lines)
    with pytest.raises(ValueError, match="no option"):
        engine.analyse_many(FENS, None, limit=limit, options={"Contempt": 3})
    with pytest.raises(ValueError, match="mate"):
        engine.analyse_many(FENS, None, limit=engine.Limit(mate=2))


def test_analyse_many_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="processes"):
        engine.analyse_many(FENS, None, limit=engine.Limit(depth=1), processes=0)
    with pytest.raises(TypeError, match="Limit"):
        engine.analyse_many(FENS, None, limit={"depth": 1})  # type: ignore[call-overload]
    assert engine.analyse_many([], FAKE + ["uci"], limit=engine.Limit(depth=1)) == []


def test_progress_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    engine.analyse_many(FENS[:2], None, processes=1, limit=engine.Limit(depth=1))
    assert "analyse_many: 2/2 positions" in capsys.readouterr().err

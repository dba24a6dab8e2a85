"""A scriptable UCI engine for the engine client's tests (shatranj.engine).

    python fake_engine.py MODE [ARG]

Modes:

  uci          answers like a real engine: the first legal move (in UCI order) after an
               info line; options Hash, Threads, Ponder, MultiPV, Clear Hash
  crash        on go: writes "fatal: simulated crash" to stderr and exits with status 3
  crash-once   crash on the first go of all processes sharing the marker file ARG, then uci
  crash-fen    crash on go in the position whose FEN starts with ARG, else uci
  hang-uci     never answers uci (reads nothing more)
  hang-go      on go: stops reading and answering (a hung engine)
  alive        on go infinite: searches (no output) until stop, answering isready; other
               searches as uci
  garbage      on go: prints binary junk, then "bestmove zz99"
  illegal      on go: "bestmove a1a8" (not a legal move anywhere it is used)
  flood        on go: ARG info lines with a 12-move pv, then bestmove

With FAKE_ENGINE_LOG set, every line received is appended to that file (to compare what
two clients send).
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

PV_LINE = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5"


def say(*lines: str) -> None:
    sys.stdout.write("".join(line + "\n" for line in lines))
    sys.stdout.flush()


def main() -> None:
    mode = sys.argv[1]
    arg = sys.argv[2] if len(sys.argv) > 2 else ""
    log_path = os.environ.get("FAKE_ENGINE_LOG")
    # Open for the fake engine's whole life (it exits with the process).
    log = open(log_path, "a", encoding="utf-8") if log_path else None  # noqa: SIM115
    moves: list[str] = []
    fen = "startpos"
    searching = False
    for raw in sys.stdin:
        line = raw.strip()
        if log is not None:
            log.write(line + "\n")
            log.flush()
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            if mode == "hang-uci":
                time.sleep(3600)
            say(
                "id name fake-" + mode,
                "id author the shatranj tests",
                "option name Hash type spin default 16 min 1 max 1024",
                "option name Threads type spin default 1 min 1 max 8",
                "option name Ponder type check default false",
                "option name MultiPV type spin default 1 min 1 max 10",
                "option name Clear Hash type button",
                "uciok",
            )
        elif command == "isready":
            say("readyok")
        elif command == "position":
            if words[1] == "startpos":
                fen, rest = "startpos", words[2:]
            else:
                fen, rest = " ".join(words[2:8]), words[8:]
            moves = rest[1:] if rest and rest[0] == "moves" else []
        elif command == "go":
            behaviour = mode
            if mode == "crash-once":
                behaviour = "uci" if os.path.exists(arg) else "crash"
                if behaviour == "crash":
                    open(arg, "w").close()
            elif mode == "crash-fen":
                behaviour = "crash" if fen.startswith(arg) else "uci"
            if behaviour == "crash":
                sys.stderr.write("fatal: simulated crash\n")
                sys.stderr.flush()
                sys.exit(3)
            if behaviour == "hang-go":
                time.sleep(3600)
            if behaviour == "alive" and "infinite" in words:
                searching = True
                continue
            if behaviour == "garbage":
                sys.stdout.buffer.write(b"\x00\xff\xfe garbage \x80\n")
                say("bestmove zz99")
                continue
            if behaviour == "illegal":
                say("bestmove a1a8")
                continue
            if behaviour == "flood":
                info = f"info depth 10 seldepth 14 multipv 1 score cp 31 nodes 123456 nps 999999 hashfull 12 tbhits 0 time 120 pv {PV_LINE}"
                sys.stdout.write((info + "\n") * int(arg or "1000"))
                say("bestmove e2e4 ponder e7e5")
                continue
            best = first_move(fen, moves)
            if best is None:
                say("info depth 0 score mate 0", "bestmove (none)")
            else:
                say(
                    f"info depth 1 seldepth 1 score cp 12 nodes 20 nps 1000 time 1 pv {best}",
                    f"bestmove {best}",
                )
        elif command == "stop":
            if searching:
                searching = False
                say(f"bestmove {first_move(fen, moves)}")
        elif command == "quit":
            return


def first_move(fen: str, moves: list[str]) -> Any:
    import shatranj

    board = (
        shatranj.Board()
        if fen == "startpos"
        else shatranj.Board(fen + " 0 1" if len(fen.split()) == 4 else fen)
    )
    for uci in moves:
        board.push_uci(uci)
    legal = sorted(move.uci() for move in board.legal_moves)
    return legal[0] if legal else None


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The engine with Syzygy tables against Stockfish defending: does it convert won 4-man
endings within the DTZ the tables give, and hold drawn ones?

Positions are drawn at random (seeded, printed) from the tables named below, kept when
python-chess's prober (``chess.syzygy``, the oracle) says the side to move wins with at least
``--min-dtz`` plies to the next capture or pawn move (or, with ``--drawn``, draws and has a
losing move), with the halfmove clock at zero. Each is played once: shatranj
(``target/ci/shatranj``, ``SyzygyPath`` = ``data/syzygy/regular``) for the side to move,
Stockfish (``/usr/games/stockfish``, no tables) for the other, both on a clock of
``--tc`` (base+increment seconds). A won game counts as converted when the first capture,
pawn move or mate comes within the start's DTZ plies (one more where that is mate: the
tables' DTZ can be a ply short of the mate, e.g. KBNvK from 8/8/8/8/3K4/7B/N7/4k3 w with
DTZ 24, where every ply of the game lowered the DTZ by one, ... 2, -1, 1, and mate came at
ply 25) and the game ends in mate; a drawn one as held when shatranj does not lose.

    cargo build --profile ci -p shatranj-cli
    .venv/bin/python benchmarks/syzygy_engine.py --games 20 --seed 1
    .venv/bin/python benchmarks/syzygy_engine.py --games 20 --seed 1 --drawn

``--write-openings FILE`` instead writes the endgame openings of the fixed-node match with
and without tables (``benchmarks/openings/endgames-tb.epd``, see benchmarks/RESULTS.md):
``--games`` positions, seeded, half four-man positions of the materials below (won ones,
and drawn ones with a losing move), half five-man ones that reach the tables by a capture.

Needs python-chess (the repository's .venv has it): as the oracle and to drive the two
engines over UCI.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import chess
import chess.engine
import chess.syzygy

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "data" / "syzygy" / "regular"
SHATRANJ = ROOT / "target" / "ci" / "shatranj"
STOCKFISH = "/usr/games/stockfish"

#: Won for the stronger side in most positions (the first letters are the side to move's).
WON_MATERIAL = ["KQvKR", "KQvKB", "KQvKN", "KQvKP", "KRvKP", "KPvK", "KRvKB", "KBNvK"]
#: Mostly drawn, the side to move the one that can still lose (a rook against a minor piece
#: never loses, so there the minor piece moves first: every material must yield positions).
DRAWN_MATERIAL = ["KRvKR", "KQvKQ", "KBvKR", "KNvKR", "KBvKP", "KNvKP"]
#: Five men, about level: the tables come in after the first capture.
FIVE_MEN_MATERIAL = ["KRPvKR", "KQPvKQ", "KRvKBP", "KBPvKB", "KPPvKP", "KRPvKB", "KNPvKN"]


def random_position(rng: random.Random, material: str) -> chess.Board | None:
    """A legal position with this material, the side to move the first one named."""
    white, black = material.split("v")
    board = chess.Board(None)
    squares = list(chess.SQUARES)
    rng.shuffle(squares)
    for letters, color in ((white, chess.WHITE), (black, chess.BLACK)):
        for letter in letters:
            piece = chess.Piece.from_symbol(letter if color == chess.WHITE else letter.lower())
            square = squares.pop()
            if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
                return None
            board.set_piece_at(square, piece)
    board.turn = chess.WHITE
    return board if board.is_valid() and not board.is_game_over() else None


def losing_moves(oracle: chess.syzygy.Tablebase, board: chess.Board) -> int:
    """How many moves of the side to move lose."""
    count = 0
    for move in board.legal_moves:
        board.push(move)
        count += oracle.probe_wdl(board) > 0
        board.pop()
    return count


def positions(
    rng: random.Random, oracle: chess.syzygy.Tablebase, n: int, drawn: bool, min_dtz: int
) -> list[tuple[str, str, int]]:
    """(material, FEN, DTZ) of `n` positions, the materials taken in turn."""
    out: list[tuple[str, str, int]] = []
    materials = DRAWN_MATERIAL if drawn else WON_MATERIAL
    while len(out) < n:
        material = materials[len(out) % len(materials)]
        board = random_position(rng, material)
        if board is None:
            continue
        wdl = oracle.probe_wdl(board)
        if drawn:
            keep = wdl == 0 and losing_moves(oracle, board) > 0
        else:
            keep = wdl == 2 and oracle.probe_dtz(board) >= min_dtz
        if keep:
            out.append((material, board.fen(), oracle.probe_dtz(board)))
    return out


def endgame_openings(rng: random.Random, oracle: chess.syzygy.Tablebase, n: int) -> list[str]:
    """`n` EPD lines: half four-man positions (won, or drawn with a losing move), half
    five-man positions, the side to move not in check, the materials taken in turn."""
    out: list[str] = []
    four = positions(rng, oracle, n // 4, False, 1) + positions(rng, oracle, n // 4, True, 1)
    out.extend(fen for _, fen, _ in four)
    while len(out) < n:
        material = FIVE_MEN_MATERIAL[len(out) % len(FIVE_MEN_MATERIAL)]
        board = random_position(rng, material)
        if board is None or board.is_check():
            continue
        if rng.random() < 0.5:  # either side may be the one to move
            board = board.mirror()
        out.append(board.epd())
    return out


def play(
    fen: str,
    ours: chess.engine.SimpleEngine,
    theirs: chess.engine.SimpleEngine,
    tc: tuple[float, float],
) -> tuple[str, int | None, int, int, bool]:
    """Plays a game from `fen`, shatranj to move first. Returns the result (from shatranj's
    side: win, draw, loss), the ply of the first zeroing move or mate, the plies played, the
    largest `tbhits` shatranj reported, and whether that first zeroing was mate."""
    board = chess.Board(fen)
    us = board.turn
    clock = {chess.WHITE: tc[0], chess.BLACK: tc[0]}
    zeroed: int | None = None
    mated_first = False
    tbhits = 0
    for engine in (ours, theirs):
        engine.configure({"Clear Hash": None})  # each game on its own
    while not board.is_game_over(claim_draw=True) and board.ply() < 400:
        engine = ours if board.turn == us else theirs
        limit = chess.engine.Limit(
            white_clock=clock[chess.WHITE],
            black_clock=clock[chess.BLACK],
            white_inc=tc[1],
            black_inc=tc[1],
        )
        start = time.monotonic()
        result = engine.play(board, limit, info=chess.engine.INFO_BASIC)
        clock[board.turn] += tc[1] - (time.monotonic() - start)
        if engine is ours:
            tbhits = max(tbhits, result.info.get("tbhits", 0))
        if clock[board.turn] < 0:
            verdict = "loss" if board.turn == us else "win"
            return verdict, zeroed, board.ply(), tbhits, mated_first
        move = result.move
        if move is None:  # a resignation: no engine here resigns
            break
        zeroing = board.is_zeroing(move)
        board.push(move)
        if zeroed is None and (zeroing or board.is_checkmate()):
            zeroed = board.ply()
            mated_first = not zeroing
    outcome = board.outcome(claim_draw=True)
    if outcome is None or outcome.winner is None:
        return "draw", zeroed, board.ply(), tbhits, mated_first
    verdict = "win" if outcome.winner == us else "loss"
    return verdict, zeroed, board.ply(), tbhits, mated_first


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tc", default="8+0.08", help="base+increment, seconds")
    parser.add_argument("--drawn", action="store_true", help="drawn positions instead of won")
    parser.add_argument("--min-dtz", type=int, default=10, help="won positions: the least DTZ")
    parser.add_argument("--write-openings", type=Path, help="write endgame openings, play none")
    args = parser.parse_args()
    if args.write_openings is not None:
        rng = random.Random(args.seed)
        with chess.syzygy.open_tablebase(str(TABLES)) as oracle:
            lines = endgame_openings(rng, oracle, args.games)
        args.write_openings.write_text("".join(f"{line}\n" for line in lines))
        print(f"seed {args.seed}: {len(lines)} openings written to {args.write_openings}")
        return 0
    base, inc = (float(x) for x in args.tc.split("+"))
    print(
        f"seed {args.seed}, {args.games} {'drawn' if args.drawn else 'won'} positions, tc {args.tc}"
    )
    rng = random.Random(args.seed)
    with chess.syzygy.open_tablebase(str(TABLES)) as oracle:
        games = positions(rng, oracle, args.games, args.drawn, args.min_dtz)
    ours = chess.engine.SimpleEngine.popen_uci(str(SHATRANJ))
    ours.configure({"SyzygyPath": str(TABLES)})
    theirs = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    theirs.configure({"Threads": 1, "Hash": 16})
    good = 0
    try:
        for material, fen, dtz in games:
            result, zeroed, plies, tbhits, mated_first = play(fen, ours, theirs, (base, inc))
            if args.drawn:
                ok = result != "loss"
            else:
                slack = 1 if mated_first else 0
                ok = result == "win" and zeroed is not None and zeroed <= dtz + slack
            good += ok
            print(
                f"{material:6} {fen:40} dtz {dtz:4}  {result:4}  first zeroing at "
                f"{zeroed if zeroed is not None else '-':>4}  plies {plies:3}  tbhits {tbhits:6}  "
                f"{'ok' if ok else 'FAILED'}"
            )
    finally:
        ours.quit()
        theirs.quit()
    what = "held" if args.drawn else "converted within DTZ"
    print(f"{good}/{len(games)} {what}")
    return 0 if good == len(games) else 1


if __name__ == "__main__":
    sys.exit(main())

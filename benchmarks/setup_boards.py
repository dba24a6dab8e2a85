#!/usr/bin/env python3
"""Chess960 and setup-mode boards against the standard board, side by side (issue 38: move
lists and push/pop within 10% of the standard board's).

Five boards:

  standard   Kiwipete, a legal standard position: the native hot path (48 moves)
  960-kiwi   Kiwipete on a Chess960 board (castling written e1h1, e1a1): the same position
             and moves in Chess960 mode, so the ratio is the cost of the mode alone
  mid-std    the Chess960 middlegame below on a standard board, without castling rights
             (castling is blocked there anyway: the same 29 moves)
  chess960   a Chess960 middlegame with castling rights on the b- and f-files (the native
             board in Chess960 mode since issue 38 step 5; setup mode before)
  setup      Kiwipete with a white pawn on g1 (PAWNS_ON_BACKRANK): setup mode

The rates are per move, and a call's fixed cost weighs more on a board with fewer moves (the
Chess960 middlegame has 29 to Kiwipete's 48). So each board is also compared with its twin,
the same position on the other kind of board: chess960 with mid-std (like with like), the
others with standard.

Workloads per board: ``list(board.legal_moves)`` and ``board.push(m); board.pop()`` over its
legal moves, both as moves per second (the boards' move counts differ). Timings are
interleaved (standard, 960-kiwi, mid-std, chess960, setup, standard, ...) for --repeat
rounds; each ratio is the median over rounds of (the reference's rate / the board's rate):
1.0 is as fast as the reference; the target is at most 1.10 against the twin.

    .venv/bin/python benchmarks/setup_boards.py [--repeat 5] [--min-time 0.2] [--record]
"""

from __future__ import annotations

import argparse
import statistics

import shatranj
from common import append_results, git_commit, move_workloads, rate, uncommitted_changes, utc_stamp

BOARDS = {
    "standard": ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", False),
    "960-kiwi": ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", True),
    "mid-std": ("1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w - - 0 9", False),
    "chess960": ("1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9", True),
    "setup": ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K1PR w KQkq - 0 1", False),
}

# Each board's twin: the same position on the other kind of board (see the module docs).
TWIN = {"chess960": "mid-std"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.2)
    ap.add_argument("--record", action="store_true", help="append the table to RESULTS.md")
    args = ap.parse_args()
    boards = {name: shatranj.Board(fen, chess960=c960) for name, (fen, c960) in BOARDS.items()}
    for name, board in boards.items():
        mode = "setup mode" if board._setup is not None else "native"
        print(
            f"{name:9} {mode:10} {board.legal_moves.count():3} legal moves  status {int(board.status())}  {board.fen()}"
        )
    rates: dict[str, dict[str, list[float]]] = {
        w: {b: [] for b in boards} for w in ("legal list", "push+pop")
    }
    works = {name: move_workloads(board) for name, board in boards.items()}
    for _ in range(args.repeat):
        for w in rates:
            for name in boards:
                rates[w][name].append(rate(works[name][w], args.min_time))
    lines = [
        f"| workload | board | rate (best) | time / standard's | time / twin's (median of {args.repeat} interleaved rounds) |",
        "|---|---|---|---|---|",
    ]

    def ratio(by_board: dict[str, list[float]], reference: str, name: str) -> float:
        return statistics.median(s / r for s, r in zip(by_board[reference], by_board[name]))

    for w, by_board in rates.items():
        for name, rs in by_board.items():
            twin = TWIN.get(name, "standard")
            lines.append(
                f"| {w} | {name} | {max(rs):,.0f} moves/s | {ratio(by_board, 'standard', name):.2f}× "
                f"| {ratio(by_board, twin, name):.2f}× ({twin}) |"
            )
    table = "\n".join(lines)
    print(table)
    if args.record:
        dirty = " (uncommitted changes)" if uncommitted_changes() else ""
        append_results(
            f"\n### Chess960 and setup-mode boards against the standard board ({utc_stamp()}, {git_commit(True)}{dirty}, "
            f"build {shatranj._core.BUILD_PROFILE})\n\n`.venv/bin/python benchmarks/setup_boards.py --repeat {args.repeat} "
            f"--min-time {args.min_time} --record`\n\n{table}\n"
        )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""PGN at database scale (issue 21): a lichess-style corpus made from a seed, read by
shatranj's streams against python-chess and the pgn-reader crate, side by side.

The corpus (``make_corpus``): lichess headers (Event "Rated Blitz/Bullet/Rapid game", Site,
Date, Round, players, Result, UTCDate/UTCTime, Elos and rating diffs, ECO, Opening,
TimeControl, Termination), ``{ [%clk H:MM:SS] }`` after every move and ``[%eval]`` on every
move of ~15% of games, movetext on one line as lichess writes it. Games are random legal
walks (20-160 plies) from a pool of distinct games made from the seed, each written with
fresh headers, clocks and evals, so a million games are made in about a minute.

Workloads, each over the whole file, on 1 and 2 threads, plain and zstd:

  headers only      stream_headers(path): tags of every game, movetext never parsed
  headers table     to_arrow(path, kind="headers"): the same tags as Arrow columns
  validated parse   stream_games(path): every SAN move resolved and played (trees only)
  + Game objects    the same, building python-chess-style Game objects
  to_arrow          one row per game: headers, UCI moves, clocks, evals
  python-chess      read_game loop (on a prefix: it is ~100x slower), with clocks read
  pgn-reader        benchmarks/anchors/pgn-reader-bench, raw and validated (1 thread)
  shatranj Rust     the pgn_bench example, interleaved with pgn-reader, best of 3:
                    `lean`: one thread doing everything (read the file, cut, main lines
                    read lean as to_arrow reads them), the like of pgn-reader's validated
                    visitor; every mode reads the file itself, as pgn-reader does;
                    `stream-lean N`: the pipeline (reader thread, pool of N) reading main lines;
                    `stream N`: the pipeline building trees, as stream_games does

    python benchmarks/pgn.py --scale [--games 1000000] [--corpus /tmp/lichess.pgn] [--record]
"""

from __future__ import annotations

import os
import platform
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from common import ROOT, append_results, utc_stamp

SEED = 21
ANCHOR = ROOT / "benchmarks" / "anchors" / "pgn-reader-bench"

OPENINGS = [("B01", "Scandinavian Defense"), ("C50", "Italian Game"), ("A00", "Van't Kruijs Opening"),
            ("D02", "Queen's Pawn Game"), ("B20", "Sicilian Defense"), ("C00", "French Defense")]  # fmt: skip
TERMINATIONS = ["Normal", "Normal", "Normal", "Time forfeit"]
CONTROLS = [("Rated Blitz game", "180+0", 180), ("Rated Bullet game", "60+0", 60), ("Rated Rapid game", "600+5", 600),
            ("Rated Blitz game", "300+3", 300)]  # fmt: skip


def _pool(rng: random.Random, size: int) -> list[tuple[list[str], str]]:
    """Distinct random games: (SAN moves, result)."""
    import shatranj

    pool = []
    for _ in range(size):
        board = shatranj.Board()
        sans: list[str] = []
        for _ in range(rng.randint(20, 160)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            sans.append(board.san(move))
            board.push(move)
        result = board.result() if board.is_game_over() else rng.choice(["1-0", "0-1", "1/2-1/2"])
        pool.append((sans, result))
    return pool


def make_corpus(path: Path, games: int, seed: int = SEED, pool_size: int = 4000) -> None:
    """Writes ``games`` lichess-style games to ``path`` (deterministic for a seed)."""
    rng = random.Random(seed)
    pool = _pool(rng, min(pool_size, games))
    with open(path, "w", encoding="utf-8") as out:
        for i in range(games):
            sans, result = pool[rng.randrange(len(pool))]
            event, control, base = rng.choice(CONTROLS)
            eco, opening = rng.choice(OPENINGS)
            we, be = rng.randint(600, 3000), rng.randint(600, 3000)
            head = (
                f'[Event "{event}"]\n[Site "https://lichess.org/{i:08x}"]\n[Date "2024.01.{1 + i % 28:02}"]\n'
                f'[Round "-"]\n[White "user{rng.randrange(10**6)}"]\n[Black "user{rng.randrange(10**6)}"]\n'
                f'[Result "{result}"]\n[UTCDate "2024.01.{1 + i % 28:02}"]\n[UTCTime "{i % 24:02}:{i % 60:02}:{i * 7 % 60:02}"]\n'
                f'[WhiteElo "{we}"]\n[BlackElo "{be}"]\n[WhiteRatingDiff "+{rng.randint(1, 9)}"]\n'
                f'[BlackRatingDiff "-{rng.randint(1, 9)}"]\n[ECO "{eco}"]\n[Opening "{opening}"]\n'
                f'[TimeControl "{control}"]\n[Termination "{rng.choice(TERMINATIONS)}"]\n\n'
            )
            evals = rng.random() < 0.15
            clocks = [base, base]
            parts = []
            ev = rng.uniform(-1, 1)
            for ply, san in enumerate(sans):
                # As lichess writes it: Black's move number again after White's comment.
                parts.append(f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'} {san}")
                side = ply % 2
                clocks[side] = max(0, clocks[side] - rng.randint(0, 8))
                c = clocks[side]
                if evals:
                    ev += rng.uniform(-0.4, 0.4)
                    parts.append(
                        f"{{ [%eval {ev:.2f}] [%clk {c // 3600}:{c % 3600 // 60:02}:{c % 60:02}] }}"
                    )
                else:
                    parts.append(f"{{ [%clk {c // 3600}:{c % 3600 // 60:02}:{c % 60:02}] }}")
            out.write(head + " ".join(parts) + f" {result}\n\n")


def _timed(job: Callable[[], int]) -> tuple[float, int]:
    start = time.perf_counter()
    n = job()
    return time.perf_counter() - start, n


# The child's own high-water mark: Linux's VmHWM belongs to the memory map that exec made.
# (ru_maxrss does not: it keeps the forked copy of this process, which by then holds a
# million-row table, and once reported 2.5 GB for a 105 MB child.)
PEAK = """
import resource
try:
    with open("/proc/self/status") as f:
        print(next(int(l.split()[1]) for l in f if l.startswith("VmHWM:")))
except OSError:
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _peak_rss_child(code: str) -> float:
    """Peak resident memory (MB) of a child interpreter running ``code``."""
    child = subprocess.run(
        [sys.executable, "-c", code + "\n" + PEAK], capture_output=True, text=True, check=True
    )
    return int(child.stdout.split()[-1]) / 1024


def _anchor_binary() -> Path | None:
    target = Path(os.environ.get("CARGO_TARGET_DIR", ANCHOR / "target"))
    binary = target / "release" / "pgn-reader-bench"
    if not binary.exists():
        if shutil.which("cargo") is None:
            return None
        subprocess.run(
            [
                "cargo",
                "build",
                "--release",
                "--quiet",
                "--manifest-path",
                str(ANCHOR / "Cargo.toml"),
            ],
            check=True,
        )
    return binary if binary.exists() else None


def _rust_bench_binary() -> Path | None:
    """shatranj's own pgn_bench example (release), built if cargo is there."""
    target = Path(
        os.environ.get("SHATRANJ_TARGET_DIR", os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    )
    binary = target / "release" / "examples" / "pgn_bench"
    if shutil.which("cargo") is not None:
        env = dict(os.environ, CARGO_TARGET_DIR=str(target))
        subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "shatranj-pgn", "--example", "pgn_bench"],
                       cwd=ROOT, env=env, check=True)  # fmt: skip
    return binary if binary.exists() else None


def main(argv: list[str]) -> int:
    import argparse

    import chess
    import chess.pgn

    import shatranj
    import shatranj.pgn as pgn

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scale", action="store_true")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--corpus", type=Path, default=Path("/tmp/shatranj-lichess.pgn"))
    parser.add_argument("--python-chess-games", type=int, default=3000)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--record", action="store_true")
    parser.add_argument(
        "--rounds", type=int, default=3, help="interleaved rounds against pgn-reader (best of)"
    )
    args = parser.parse_args(argv)

    plain = args.corpus
    marker = plain.with_suffix(".seed")
    if not plain.exists() or not marker.exists() or marker.read_text() != f"{SEED} {args.games}":
        print(f"making {args.games:,} games (seed {SEED}) in {plain} ...", flush=True)
        t, _ = _timed(lambda: (make_corpus(plain, args.games), 0)[1])
        marker.write_text(f"{SEED} {args.games}")
        print(f"  {t:.0f} s")
    zst = plain.with_suffix(".pgn.zst")
    if shutil.which("zstd") and (not zst.exists() or zst.stat().st_mtime < plain.stat().st_mtime):
        subprocess.run(["zstd", "-q", "-f", "-T2", "-3", str(plain), "-o", str(zst)], check=True)
    mb = plain.stat().st_size / 1e6
    print(
        f"corpus: {args.games:,} games, {mb:,.1f} MB plain, {zst.stat().st_size / 1e6:,.1f} MB zstd"
    )

    rows: list[tuple[str, str, int, float, float]] = []
    load = os.getloadavg()[0]

    def record(label: str, source: str, threads: int, seconds: float, games: int) -> None:
        rows.append((label, source, threads, games / seconds, mb / seconds))
        print(
            f"  {label:26} {source:5} {threads} thr  {games / seconds:11,.0f} games/s  {mb / seconds:8,.1f} MB/s",
            flush=True,
        )

    def count_trees(stream: pgn.GameStream) -> int:
        return sum(len(batch) for batch, _ in stream._batches())

    sources = [("plain", plain)] + ([("zstd", zst)] if zst.exists() else [])
    for threads in [int(t) for t in args.threads.split(",")]:
        for name, path in sources:
            t, n = _timed(lambda: sum(1 for _ in pgn.stream_headers(path, threads=threads)))
            record("headers only", name, threads, t, n)
            t, n = _timed(lambda: pgn.to_arrow(path, kind="headers", threads=threads).num_rows)
            record("headers table (to_arrow)", name, threads, t, n)
            t, n = _timed(lambda: count_trees(pgn.stream_games(path, threads=threads)))
            record("validated parse", name, threads, t, n)
            if name == "plain":
                t, n = _timed(lambda: sum(1 for _ in pgn.stream_games(path, threads=threads)))
                record("+ Game objects", name, threads, t, n)
            t, n = _timed(lambda: pgn.to_arrow(path, threads=threads).num_rows)
            record("to_arrow", name, threads, t, n)

    # python-chess on a prefix of the same file.
    prefix = plain.with_suffix(".prefix.pgn")
    with open(plain, encoding="utf-8") as src, open(prefix, "w", encoding="utf-8") as dst:
        for _ in range(args.python_chess_games):
            while (line := src.readline()) and line.strip():
                dst.write(line)
            dst.write(line)
            while (line := src.readline()) and line.strip():
                dst.write(line)
            dst.write("\n")
    pmb = prefix.stat().st_size / 1e6

    def pc_loop(clocks: bool) -> int:
        n = 0
        with open(prefix, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                if clocks:
                    for node in game.mainline():
                        node.clock()
                n += 1
        return n

    for clocks in (False, True):
        t, n = _timed(lambda: pc_loop(clocks))
        label = "python-chess read_game" + (" + clk" if clocks else "")
        rows.append((label, "plain", 1, n / t, pmb / t))
        print(f"  {label:26} plain 1 thr  {n / t:11,.0f} games/s  {pmb / t:8,.1f} MB/s")

    binary = _anchor_binary()
    ours = _rust_bench_binary()
    if binary is not None:
        # Interleaved rounds, best of three, so that load drift hits both sides: pgn-reader
        # against shatranj's own Rust pipeline (reader thread + parse pool, trees built,
        # no Python), on the same file.
        best: dict[tuple[str, str, int], tuple[float, int]] = {}

        def keep(key: tuple[str, str, int], seconds: float, games: int) -> None:
            if key not in best or seconds < best[key][0]:
                best[key] = (seconds, games)

        def ours_run(path: Path, *mode: str) -> tuple[float, int]:
            out = subprocess.run(
                [str(ours), str(path), *mode], capture_output=True, text=True, check=True
            ).stdout.split()
            games, per_second = int(out[0]), float(out[-2])
            return games / per_second, games

        for _ in range(args.rounds):
            for name, path in sources:
                for mode in ("raw", "validated"):
                    out = subprocess.run(
                        [str(binary), mode, str(path)], capture_output=True, text=True, check=True
                    ).stdout.split()
                    keep((f"pgn-reader {mode}", name, 1), float(out[3]), int(out[1]))
                if ours is not None:
                    # One thread doing everything (decompress, cut, read): the like of
                    # pgn-reader's validated visitor, main lines read lean.
                    keep(("shatranj main lines, one thread", name, 1), *ours_run(path, "lean", "1"))
                    for threads in (1, 2):
                        keep(
                            ("shatranj Rust stream (main lines)", name, threads),
                            *ours_run(path, "stream-lean", str(threads), "1"),
                        )
                        keep(
                            ("shatranj Rust stream (trees)", name, threads),
                            *ours_run(path, "stream", str(threads), "1"),
                        )
        for (label, name, threads), (seconds, games) in best.items():
            record(label, name, threads, seconds, games)
        for name, _ in sources:
            anchor = best[("pgn-reader validated", name, 1)]
            for label, threads in [("shatranj main lines, one thread", 1), ("shatranj Rust stream (main lines)", 1),
                                   ("shatranj Rust stream (main lines)", 2), ("shatranj Rust stream (trees)", 1),
                                   ("shatranj Rust stream (trees)", 2)]:  # fmt: skip
                mine = best.get((label, name, threads))
                if mine is not None:
                    ratio = (mine[1] / mine[0]) / (anchor[1] / anchor[0])
                    print(
                        f"  {label}, {threads} thr / pgn-reader validated 1 thr ({name}): {ratio:.2f}x"
                    )
    else:
        print("  pgn-reader anchor: no cargo to build it, skipped")

    peak = _peak_rss_child(
        f"import shatranj.pgn as p\nfor g in p.stream_games({str(zst if zst.exists() else plain)!r}): pass"
    )
    print(f"  peak RSS of a streaming read of the whole file: {peak:,.0f} MB")

    if args.record:
        stamp = utc_stamp()
        lines = [
            f"\n### {stamp} — `python benchmarks/pgn.py --scale --games {args.games}`\n",
            f"shatranj {shatranj.__version__} ({shatranj._core.BUILD_PROFILE}), python-chess {chess.__version__}, Python "
            f"{platform.python_version()}, {os.cpu_count()} CPUs, load average {load:.1f} when the run began "
            f"(anything else running makes the numbers lower bounds). Corpus seed {SEED}: {args.games:,} games, {mb:,.1f} MB plain. python-chess on the "
            f"first {args.python_chess_games:,} games. Peak RSS of a streaming read of the whole file: {peak:,.0f} MB.\n",
            "| workload | source | threads | games/s | MB/s (plain text) |",
            "|---|---|---:|---:|---:|",
        ]
        for label, source, threads, gps, mbs in rows:
            lines.append(f"| {label} | {source} | {threads} | {gps:,.0f} | {mbs:,.1f} |")
        append_results("\n".join(lines) + "\n")
        print("recorded in benchmarks/RESULTS.md")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Engine matches and gauntlets over UCI and XBoard, with Elo estimates and PGN.

    # a match: the first --engine is the one whose score is reported
    python3 benchmarks/match.py --engine "name=new cmd=target/release/shatranj" \\
        --engine stockfish-1500 --games 20 --tc 10+0.1

    # a gauntlet: one engine against a list of opponents (default: Debian's engines)
    python3 benchmarks/match.py --gauntlet --engine "name=shatranj cmd=/tmp/shatranj" \\
        --games 10 --tc 10+0.1 --record --note "sample"

    # Chess960: 30 games from 15 start positions drawn from the seed, colours swapped
    python3 benchmarks/match.py --engine shatranj --engine stockfish-2000 --chess960 --seed 38 \\
        --games 30 --nodes 20000

Engine specifications are ``key=value`` words (``name``, ``cmd``, ``arg``, ``proto``, ``dir``,
``option.NAME``), a JSON object, or a preset name (``stockfish-1500``, ``stockfish-2000``,
``stockfish-2850``, ``stockfish``, ``phalanx``, ``glaurung``). See benchmarks/README.md.
Needs python-chess (``pip install chess``).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import logging
import os
import platform
import shlex
import subprocess
import sys

from .config import (
    DEFAULT_GAUNTLET,
    OPENINGS,
    ConfigError,
    EngineSpec,
    TimeControl,
    chess960_openings,
    engine_spec,
    load_openings,
    parse_tc,
    schedule,
)
from .stats import Tally, table

try:
    import chess  # noqa: F401  (only to fail early with a clear message)
except ImportError:
    sys.exit("match.py needs python-chess: pip install chess")

from .play import (
    Adjudication,
    GameResult,
    parse_draw_adjudication,
    parse_resign_adjudication,
    play_match,
)

# The repository's root (this file is tools/shatranj_match/cli.py): results are recorded in
# benchmarks/RESULTS.md with the other benchmarks, and the commit is read from its git tree.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESULTS = os.path.join(ROOT, "benchmarks", "RESULTS.md")


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Play engine matches or a gauntlet over UCI/XBoard and estimate Elo.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    parser.add_argument(
        "--engine",
        action="append",
        default=[],
        metavar="SPEC",
        help="an engine: the first is the one under test (twice for a match, once for --gauntlet)",
    )
    parser.add_argument(
        "--gauntlet", action="store_true", help="play the first engine against every --opponent"
    )
    parser.add_argument(
        "--opponent",
        action="append",
        default=[],
        metavar="SPEC",
        help=f"gauntlet opponent (repeatable; default: {', '.join(DEFAULT_GAUNTLET)})",
    )
    parser.add_argument("--games", type=int, default=10, help="games per pairing (default 10)")
    parser.add_argument("--tc", default="10+0.1", help="time control BASE+INC in seconds")
    parser.add_argument(
        "--nodes",
        type=int,
        default=None,
        help="search this many nodes a move instead of playing on a clock (fixed-node gating)",
    )
    parser.add_argument(
        "--concurrency", type=int, default=1, help="games played at once (default 1)"
    )
    parser.add_argument("--openings", metavar="FILE", help="SAN lines or FENs, one per line")
    parser.add_argument(
        "--chess960",
        action="store_true",
        help="Chess960: start positions drawn by number from --seed, each played twice with "
        "colours swapped; UCI_Chess960 is set on both engines",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the --chess960 start positions (default 0)"
    )
    parser.add_argument("--pgn", default="match.pgn", help="PGN file for all games (appended)")
    parser.add_argument(
        "--adjudicate-draw", metavar="MOVE:PLIES:CP", help="e.g. 40:8:10 (default: off)"
    )
    parser.add_argument(
        "--adjudicate-resign", metavar="PLIES:CP", help="e.g. 6:1000 (default: off)"
    )
    parser.add_argument(
        "--time-margin",
        type=float,
        default=0.0,
        help="seconds an engine may overstep its clock before losing on time (default 0)",
    )
    parser.add_argument("--event", default=None, help="PGN Event tag")
    parser.add_argument("--record", action="store_true", help=f"append the table to {RESULTS}")
    parser.add_argument("--note", default="", help="a remark recorded with --record")
    return parser.parse_args(argv)


def build_adjudication(args: argparse.Namespace) -> Adjudication:
    draw = parse_draw_adjudication(args.adjudicate_draw) if args.adjudicate_draw else None
    resign = parse_resign_adjudication(args.adjudicate_resign) if args.adjudicate_resign else None
    return Adjudication(
        draw_from_move=draw[0] if draw else None,
        draw_plies=draw[1] if draw else 0,
        draw_cp=draw[2] if draw else 0,
        resign_plies=resign[0] if resign else None,
        resign_cp=resign[1] if resign else 0,
    )


def pairings(args: argparse.Namespace) -> tuple[EngineSpec, list[EngineSpec | str]]:
    """The engine under test and its opponents; a missing opponent is a message instead."""
    if args.gauntlet:
        if len(args.engine) != 1:
            raise ConfigError("--gauntlet takes exactly one --engine (the one under test)")
        opponents = args.opponent or list(DEFAULT_GAUNTLET)
    else:
        if args.opponent:
            raise ConfigError("--opponent is for --gauntlet; a match takes two --engine")
        if len(args.engine) != 2:
            raise ConfigError("a match takes exactly two --engine (or use --gauntlet)")
        opponents = [args.engine[1]]
    first = engine_spec(args.engine[0]).resolved()
    resolved: list[EngineSpec | str] = []
    for text in opponents:
        spec = engine_spec(text)
        try:
            resolved.append(spec.resolved())
        except ConfigError as error:
            if not args.gauntlet:
                raise
            resolved.append(f"{spec.name}: skipped, {error}")
    return first, resolved


def main(argv: list[str]) -> int:
    args = arguments(argv)
    # python-chess warns about every line it does not parse (Phalanx's "tellics ..."): noise.
    logging.getLogger("chess.engine").setLevel(logging.ERROR)
    try:
        tc = parse_tc(args.tc)
        if args.games <= 0:
            raise ConfigError(f"--games must be positive, got {args.games}")
        if args.concurrency <= 0:
            raise ConfigError(f"--concurrency must be positive, got {args.concurrency}")
        if args.nodes is not None and args.nodes <= 0:
            raise ConfigError(f"--nodes must be positive, got {args.nodes}")
        if args.time_margin < 0:
            raise ConfigError("--time-margin must not be negative")
        adjudication = build_adjudication(args)
        if args.chess960 and args.openings:
            raise ConfigError("--chess960 draws its own start positions: leave out --openings")
        if args.chess960:
            openings = chess960_openings(args.games, args.seed)
        else:
            openings = load_openings(args.openings) if args.openings else list(OPENINGS)
        first, opponents = pairings(args)
        own_nodes = [
            e.name for e in (first, *opponents) if isinstance(e, EngineSpec) and e.nodes is not None
        ]
        if own_nodes and args.nodes is None:
            raise ConfigError(
                f"engine(s) {', '.join(own_nodes)} set nodes=, which only applies to a fixed-node "
                "match: give --nodes too"
            )
    except ConfigError as error:
        print(f"match.py: {error}", file=sys.stderr)
        return 2

    games = schedule(openings, args.games)
    event = args.event or ("shatranj gauntlet" if args.gauntlet else "shatranj match")
    rows: list[tuple[str, Tally]] = []
    skipped: list[str] = []
    ids: dict[str, str] = {}  # spec name -> the engine's own name and version
    print(
        f"{first.name} ({shlex.join(first.command)}) vs {len(opponents)} opponent(s), "
        f"{args.games} games each at {f'{args.nodes} nodes a move' if args.nodes else tc}, "
        f"concurrency {args.concurrency}, PGN -> {args.pgn}",
        flush=True,
    )
    interrupted = False
    try:
        with open(args.pgn, "a", encoding="utf-8") as pgn:
            for opponent in opponents:
                if isinstance(opponent, str):
                    print(opponent, flush=True)
                    skipped.append(opponent)
                    continue
                tally = Tally()
                rows.append((opponent.name, tally))
                print(f"\n== {first.name} vs {opponent.name} ({shlex.join(opponent.command)})")

                def on_result(game: GameResult, tally: Tally = tally) -> None:
                    tally.add(game.points)
                    if game.loser_on_time == first.name:
                        tally.time_losses += 1
                    elif game.loser_on_time is not None:
                        tally.opponent_time_losses += 1
                    tally.failures += game.failure
                    ids.setdefault(game.white, game.white_id)
                    ids.setdefault(game.black, game.black_id)
                    print(game.game, file=pgn, end="\n\n", flush=True)
                    print(
                        f"[{tally.games}/{args.games}] {game.white} - {game.black}: "
                        f"{game.result} ({game.reason}); {first.name} "
                        f"{tally.points:g}/{tally.games} (+{tally.wins} ={tally.draws} "
                        f"-{tally.losses})",
                        flush=True,
                    )

                try:
                    asyncio.run(
                        play_match(
                            first,
                            opponent,
                            games,
                            tc,
                            adjudication,
                            args.concurrency,
                            on_result,
                            args.time_margin,
                            event,
                            args.nodes,
                        )
                    )
                except ConfigError as error:
                    print(f"match.py: {error}", file=sys.stderr)
                    if not args.gauntlet:
                        return 2
                    skipped.append(f"{opponent.name}: {error}")
    except KeyboardInterrupt:
        interrupted = True
        print("\ninterrupted: the table counts the finished games only", file=sys.stderr)
    except OSError as error:
        print(f"match.py: cannot write {args.pgn}: {error.strerror}", file=sys.stderr)
        return 2

    text = table(rows)
    print("\n" + text)
    for line in skipped:
        print(f"- {line}")
    if args.record and not interrupted:
        record(args, argv, first, opponents, tc, text, skipped, ids)
        print(f"\nrecorded in {RESULTS}")
    return 130 if interrupted else 0


def _threads(first: EngineSpec, opponents: list[EngineSpec | str]) -> str:
    """The threads line of a record: one each unless an engine's options set ``Threads``."""
    engines = [first] + [o for o in opponents if isinstance(o, EngineSpec)]
    threads = {e.name: dict(e.options).get("Threads", 1) for e in engines}
    if all(t == 1 for t in threads.values()):
        return "one thread per engine"
    return "threads: " + ", ".join(f"{name} {t}" for name, t in threads.items())


def _git_commit() -> str:
    try:
        commit = subprocess.run(
            ["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", ROOT, "status", "--porcelain", "--", ":/", ":!benchmarks/RESULTS.md"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return commit + (" (uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return f"{line.split(':', 1)[1].strip()} ({os.cpu_count()} logical CPUs)"
    except OSError:
        pass
    return f"{platform.processor() or 'unknown'} ({os.cpu_count()} logical CPUs)"


def record(
    args: argparse.Namespace,
    argv: list[str],
    first: EngineSpec,
    opponents: list[EngineSpec | str],
    tc: TimeControl,
    text: str,
    skipped: list[str],
    ids: dict[str, str],
) -> None:
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    kind = "gauntlet" if args.gauntlet else "match"
    lines = [
        "",
        f"## {now} — {kind} (`benchmarks/match.py`)",
        "",
        f"- command: `python3 benchmarks/match.py {shlex.join(argv)}`",
        f"- commit: `{_git_commit()}`",
        f"- CPU: {_cpu()}; 1-minute load average at the end: {os.getloadavg()[0]:.2f}",
        (
            f"- {f'fixed nodes: {args.nodes} a move' if args.nodes else f'time control: {tc} (seconds)'}, "
            f"{args.games} games per pairing, concurrency {args.concurrency}, {_threads(first, opponents)}"
            + (f", Chess960 starts drawn with seed {args.seed}" if args.chess960 else "")
        ),
        f"- engine under test: {first.name} = `{shlex.join(first.command)}`"
        + (f" {dict(first.options)}" if first.options else "")
        + (f", id `{ids[first.name]}`" if first.name in ids else ""),
    ]
    for opponent in opponents:
        if not isinstance(opponent, str):
            lines.append(
                f"- opponent: {opponent.name} = `{shlex.join(opponent.command)}` "
                f"({opponent.protocol})"
                + (f" {dict(opponent.options)}" if opponent.options else "")
                + (f", id `{ids[opponent.name]}`" if opponent.name in ids else "")
            )
    if args.note:
        lines.append(f"- note: {args.note}")
    lines += ["", text, ""]
    lines += [f"- {line}" for line in skipped]
    with open(RESULTS, "a", encoding="utf-8") as handle:
        handle.write("\n".join(lines).rstrip("\n") + "\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

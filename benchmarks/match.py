#!/usr/bin/env python3
"""Engine matches and gauntlets for the records: ``shatranj match`` with presets, pairings and
``--record``.

    # a match: fastchess's options, passed to `shatranj match` unchanged
    python3 benchmarks/match.py -engine preset=shatranj name=new \\
        -engine preset=stockfish-1500 -each tc=10+0.1 -rounds 10 -repeat -concurrency 2 \\
        -openings file=benchmarks/openings/balanced-8ply.fen format=epd -pgnout file=games.pgn

    # a gauntlet: the first engine against each of the others (shatranj match's tournament)
    python3 benchmarks/match.py --record --note "sample" -tournament gauntlet \\
        -engine preset=shatranj -engine preset=stockfish-1500 -engine preset=stockfish-2000 \\
        -each tc=10+0.1 -rounds 5 -repeat

The arguments are ``shatranj match``'s (``shatranj match --help``): more than two ``-engine``
play its tournament, ``-tournament gauntlet`` (the first ``-seeds`` against the others) or
``roundrobin`` (every pair, the default as in fastchess), one PGN and one state file for all.
Two additions are made here: ``-engine preset=NAME`` starts from a preset (see PRESETS; the
engine's own pairs win); and this script's own options before them: ``--bin PATH`` (the
``shatranj`` program: default ``$SHATRANJ_BIN``, else ``target/release/shatranj``),
``--record`` (append the final table, or the tournament's pairings and standings, to
benchmarks/RESULTS.md with the command, commit and machine) and ``--note TEXT``.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Sequence

import common

# Debian's engines (apt-get install stockfish glaurung), one thread each unless an engine's
# pairs say otherwise. Stockfish 15.1's UCI_Elo limits its strength.
PRESETS: dict[str, list[str]] = {
    "shatranj": [f"cmd={common.ROOT / 'target' / 'release' / 'shatranj'}", "option.Threads=1"],
    "stockfish": ["cmd=/usr/games/stockfish", "option.Threads=1"],
    **{
        f"stockfish-{elo}": [
            "cmd=/usr/games/stockfish",
            "option.Threads=1",
            "option.UCI_LimitStrength=true",
            f"option.UCI_Elo={elo}",
        ]
        for elo in (1500, 2000, 2850)
    },
    "glaurung": ["cmd=/usr/games/glaurung"],
    "ethereal": ["cmd=/usr/games/ethereal-chess", "option.Threads=1"],
}


USAGE = (
    "usage: python3 benchmarks/match.py [--bin PATH] [--record] [--note TEXT] "
    "SHATRANJ-MATCH-OPTION..."
)


class UsageError(Exception):
    """A command line this script cannot run (exit status 2, as ``shatranj match``'s)."""


def is_flag(word: str) -> bool:
    """fastchess's flags: one dash and a letter (``-engine``; not ``-5`` nor ``--record``)."""
    return len(word) > 1 and word[0] == "-" and word[1].isalpha()


def groups(args: Sequence[str]) -> list[tuple[str, list[str]]]:
    """The arguments as ``(flag, values)`` groups, as ``shatranj match`` reads them."""
    out: list[tuple[str, list[str]]] = []
    for word in args:
        if is_flag(word):
            out.append((word, []))
        elif out:
            out[-1][1].append(word)
        else:
            raise UsageError(f"{word}: expected an option such as -engine")
    return out


def expand_engine(values: Sequence[str]) -> list[str]:
    """An ``-engine`` group's pairs with ``preset=NAME`` replaced by the preset's pairs and
    the preset's name as ``name=`` (the group's own pairs come after, so they win)."""
    out: list[str] = []
    own: list[str] = []
    for pair in values:
        key, _, value = pair.partition("=")
        if key == "preset":
            if value not in PRESETS:
                raise UsageError(f"preset={value}: one of {', '.join(PRESETS)}")
            out += [*PRESETS[value], f"name={value}"]
        else:
            own.append(pair)
    return out + own


def engine_name(pairs: Sequence[str]) -> str:
    """The name ``shatranj match`` gives an engine: the last ``name=``, else the program's
    file name."""
    name = cmd = ""
    for pair in pairs:
        key, _, value = pair.partition("=")
        if key == "name":
            name = value
        elif key == "cmd":
            cmd = value
    return name or os.path.basename(cmd)


def command(args: Sequence[str]) -> tuple[list[str], list[str]]:
    """The engines' names and ``shatranj match``'s arguments: the presets expanded, the rest
    unchanged (a tournament of three or more is ``shatranj match``'s own)."""
    engines: list[list[str]] = []
    argv: list[str] = []
    for flag, values in groups(args):
        if flag == "-engine":
            values = expand_engine(values)
            engines.append(values)
        argv += [flag, *values]
    if len(engines) < 2:
        raise UsageError(f"give at least two -engine (found {len(engines)})")
    names = [engine_name(e) for e in engines]
    if len(set(names)) != len(names):
        raise UsageError(f"the engines need different names (name=): {', '.join(names)}")
    return names, argv


def final_table(output: str) -> str:
    """The last table ``shatranj match`` printed: the block between the last two rules of
    dashes, with the latency lines and the SPRT's verdict that follow it."""
    lines = output.splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("-" * 20)]
    if len(rules) < 2:
        return ""
    return "\n".join(lines[rules[-2] + 1 : rules[-1]] + lines[rules[-1] + 1 :]).strip()


def record(command: str, note: str, names: Sequence[str], code: int, table: str) -> str:
    """The RESULTS.md section of a run: the command, where it ran, and the final table."""
    dirty = " (with uncommitted changes)" if common.uncommitted_changes() else ""
    load = common.load_average()
    text = [
        "",
        f"## {common.utc_stamp(seconds=True)} — match (`benchmarks/match.py`, `shatranj match`)",
        "",
        f"- command: `{command}`",
        f"- commit: {common.git_commit()}{dirty}",
        f"- machine: {common.cpu_model()}, {os.cpu_count()} logical CPUs"
        + (f", load average {load:.1f} at the end" if load is not None else ""),
    ]
    if note:
        text.append(f"- note: {note}")
    text += ["", f"{' vs '.join(names)} (exit status {code}):", ""]
    text += ["    " + line for line in (table or "(no table)").splitlines()]
    return "\n".join(text) + "\n"


def main(argv: Sequence[str]) -> int:
    argv = list(argv)
    if argv[:1] in (["-h"], ["--help"]) or not argv:
        print(USAGE + "\n\n" + (__doc__ or ""))
        return 0 if argv else 2
    binary = os.environ.get("SHATRANJ_BIN") or str(common.ROOT / "target" / "release" / "shatranj")
    do_record, note = False, ""
    try:
        while argv and argv[0].startswith("--"):
            option = argv.pop(0)
            if option == "--record":
                do_record = True
            elif option in ("--note", "--bin") and argv:
                value = argv.pop(0)
                if option == "--note":
                    note = value
                else:
                    binary = value
            else:
                raise UsageError(f"{option}: unknown (--bin PATH, --record, --note TEXT)")
        names, args = command(argv)
    except UsageError as error:
        print(f"match.py: {error}", file=sys.stderr)
        return 2
    print(f"== {' vs '.join(names)}", flush=True)
    process = subprocess.Popen([binary, "match", *args], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    output = []
    for line in process.stdout:
        print(line, end="", flush=True)
        output.append(line)
    code = process.wait()
    if do_record:
        line = shlex.join(["python3", "benchmarks/match.py", *sys.argv[1:]])
        path = common.append_results(record(line, note, names, code, final_table("".join(output))))
        print(f"recorded in {path}")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

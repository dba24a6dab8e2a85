"""What a match is made of: time controls, engine specifications and the opening book.

Pure functions and plain data only (no processes, no python-chess), so they are unit-tested
without engines (python/tests/tools/test_match_runner.py).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import shlex
import shutil

# Debian installs engines into /usr/games, which is often not on root's PATH.
EXTRA_PATH = ("/usr/games",)


class ConfigError(ValueError):
    """A time control, engine specification or opening that cannot be used, with the reason."""


@dataclasses.dataclass(frozen=True)
class TimeControl:
    """Fischer clock: ``base`` seconds for the game plus ``increment`` seconds after each move."""

    base: float
    increment: float

    def __str__(self) -> str:
        return f"{_short(self.base)}+{_short(self.increment)}"

    def pgn(self) -> str:
        """The PGN ``TimeControl`` tag value, ``base+increment`` in seconds."""
        return str(self)


def _short(value: float) -> str:
    return f"{value:g}"


_TC = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(?:\+\s*(\d+(?:\.\d*)?|\.\d+)\s*)?$")


def parse_tc(text: str) -> TimeControl:
    """Parses ``"10+0.1"`` (10 s plus 0.1 s a move) or ``"60"`` (no increment).

    A ``m:ss`` base is accepted too (``"1:30+1"``), as cutechess writes it.
    """
    if not isinstance(text, str):
        raise ConfigError(f"time control must be a string like '10+0.1', got {text!r}")
    body = text.strip()
    minutes = 0.0
    colon = re.match(r"^\s*(\d+):(.*)$", body)
    if colon:
        minutes = float(colon.group(1))
        body = colon.group(2)
    match = _TC.match(body)
    if match is None:
        raise ConfigError(
            f"bad time control {text!r}: expected 'BASE+INC' in seconds, e.g. '10+0.1' or '60'"
        )
    base = minutes * 60 + float(match.group(1))
    increment = float(match.group(2) or 0)
    if base <= 0:
        raise ConfigError(f"bad time control {text!r}: the base time must be positive")
    return TimeControl(base, increment)


@dataclasses.dataclass(frozen=True)
class EngineSpec:
    """How to start and configure one engine."""

    name: str
    command: tuple[str, ...]
    protocol: str = "uci"  # "uci" or "xboard"
    options: tuple[tuple[str, str | int | bool], ...] = ()
    workdir: str | None = None
    # Nodes a move for this engine in a fixed-node match (overrides --nodes): a network and
    # the classical evaluation given nodes in proportion to their speeds play a match that
    # stands in for a clock match, and no machine load can change its result.
    nodes: int | None = None

    def resolved(self) -> EngineSpec:
        """The same spec with the program looked up on PATH (and /usr/games).

        Raises ConfigError with an install hint when it cannot be found.
        """
        program = find_program(self.command[0])
        if program is None:
            raise ConfigError(
                f"engine {self.name!r}: program {self.command[0]!r} not found on PATH or in "
                f"/usr/games{install_hint(self.command[0])}"
            )
        return dataclasses.replace(self, command=(program, *self.command[1:]))


def install_hint(program: str) -> str:
    package = os.path.basename(program)
    if package in {"stockfish", "phalanx", "glaurung"}:
        return f" (install it: apt-get install {package})"
    if package == "shatranj":
        return " (build it: cargo build --release -p shatranj-cli)"
    return ""


def find_program(program: str) -> str | None:
    if os.sep in program:
        return program if os.access(program, os.X_OK) and os.path.isfile(program) else None
    path = os.environ.get("PATH", "")
    return shutil.which(program, path=os.pathsep.join([path, *EXTRA_PATH]))


def _option_value(text: str) -> str | int | bool:
    """UCI option values: true/false become bools and integers ints, the rest stays text."""
    lowered = text.lower()
    if lowered in {"true", "false"}:
        return lowered == "true"
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text


def parse_engine_spec(text: str) -> EngineSpec:
    """Parses an engine specification.

    Either ``key=value`` words (shell quoting allowed)::

        name=sf1500 cmd=stockfish option.UCI_LimitStrength=true option.UCI_Elo=1500
        name=phalanx cmd=phalanx arg=-l- arg=-b- proto=xboard

    or a JSON object with the same keys (``args`` a list, ``options`` an object)::

        {"name": "sf1500", "cmd": "stockfish", "options": {"UCI_Elo": 1500}}

    ``cmd`` may hold arguments too (``cmd="phalanx -l-"``). ``proto`` is ``uci`` (default) or
    ``xboard``; ``dir`` is the working directory; ``nodes`` the engine's nodes a move in a
    fixed-node match (``--nodes``), in place of the match's.
    """
    if not isinstance(text, str) or not text.strip():
        raise ConfigError("empty engine specification")
    if text.lstrip().startswith("{"):
        return _spec_from_json(text)
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise ConfigError(f"engine specification {text!r}: {error}") from None
    fields: dict[str, str] = {}
    args: list[str] = []
    options: list[tuple[str, str | int | bool]] = []
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise ConfigError(
                f"engine specification {text!r}: {word!r} is not key=value "
                "(keys: name, cmd, arg, proto, dir, nodes, option.NAME)"
            )
        if key.startswith("option."):
            if not key[len("option.") :]:
                raise ConfigError(f"engine specification {text!r}: option without a name")
            options.append((key[len("option.") :], _option_value(value)))
        elif key == "arg":
            args.append(value)
        elif key in {"name", "cmd", "proto", "dir", "nodes"}:
            if key in fields:
                raise ConfigError(f"engine specification {text!r}: {key} given twice")
            fields[key] = value
        else:
            raise ConfigError(
                f"engine specification {text!r}: unknown key {key!r} "
                "(keys: name, cmd, arg, proto, dir, nodes, option.NAME)"
            )
    return _build_spec(text, fields, args, options)


def _spec_from_json(text: str) -> EngineSpec:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ConfigError(f"engine specification is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ConfigError("a JSON engine specification must be an object")
    unknown = set(data) - {"name", "cmd", "args", "proto", "dir", "options", "nodes"}
    if unknown:
        raise ConfigError(f"engine specification: unknown keys {sorted(unknown)}")
    fields = {k: data[k] for k in ("name", "cmd", "proto", "dir") if k in data}
    if "nodes" in data:
        if isinstance(data["nodes"], bool) or not isinstance(data["nodes"], int):
            raise ConfigError(
                f"engine specification: nodes must be an integer, got {data['nodes']!r}"
            )
        fields["nodes"] = str(data["nodes"])
    for key, value in fields.items():
        if not isinstance(value, str):
            raise ConfigError(f"engine specification: {key} must be a string, got {value!r}")
    args = data.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise ConfigError("engine specification: args must be a list of strings")
    raw_options = data.get("options", {})
    if not isinstance(raw_options, dict):
        raise ConfigError("engine specification: options must be an object")
    options: list[tuple[str, str | int | bool]] = []
    for key, value in raw_options.items():
        if not isinstance(value, (str, int, bool)):
            raise ConfigError(f"engine specification: option {key!r} must be a string, int or bool")
        options.append((key, value))
    return _build_spec(text, fields, args, options)


def _build_spec(text, fields, args, options) -> EngineSpec:
    if "cmd" not in fields or not fields["cmd"].strip():
        raise ConfigError(f"engine specification {text!r}: cmd is missing")
    try:
        command = shlex.split(fields["cmd"]) + list(args)
    except ValueError as error:
        raise ConfigError(f"engine specification {text!r}: cmd: {error}") from None
    protocol = fields.get("proto", "uci").lower()
    if protocol not in {"uci", "xboard"}:
        raise ConfigError(
            f"engine specification {text!r}: proto must be uci or xboard, got {protocol!r}"
        )
    name = fields.get("name") or os.path.basename(command[0])
    nodes = None
    if "nodes" in fields:
        try:
            nodes = int(fields["nodes"])
        except ValueError:
            nodes = 0
        if nodes <= 0:
            raise ConfigError(
                f"engine specification {text!r}: nodes must be a positive integer, got {fields['nodes']!r}"
            )
    return EngineSpec(name, tuple(command), protocol, tuple(options), fields.get("dir"), nodes)


# The release build of this repository's engine (`cargo build --release -p shatranj-cli`).
# This file is tools/shatranj_match/config.py: the repository's root is three levels up.
SHATRANJ_BINARY = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
    "target",
    "release",
    "shatranj",
)

# Our engine, and Debian's engines as gauntlet opponents (books and learning off, one thread).
PRESETS: dict[str, str] = {
    "shatranj": f"name=shatranj cmd={shlex.quote(SHATRANJ_BINARY)} option.Threads=1",
    "stockfish-1500": "name=stockfish-1500 cmd=stockfish option.Threads=1 "
    "option.UCI_LimitStrength=true option.UCI_Elo=1500",
    "stockfish-2000": "name=stockfish-2000 cmd=stockfish option.Threads=1 "
    "option.UCI_LimitStrength=true option.UCI_Elo=2000",
    "stockfish-2850": "name=stockfish-2850 cmd=stockfish option.Threads=1 "
    "option.UCI_LimitStrength=true option.UCI_Elo=2850",
    "stockfish": "name=stockfish cmd=stockfish option.Threads=1",
    # -l- no learning file, -b- no opening book (the runner supplies openings), -t hash in KiB.
    "phalanx": "name=phalanx cmd=phalanx arg=-l- arg=-b- arg=-t arg=65536 proto=xboard",
    "glaurung": "name=glaurung cmd=glaurung option.Threads=1",
}

DEFAULT_GAUNTLET = ("stockfish-1500", "stockfish-2000", "stockfish-2850", "phalanx", "glaurung")


def engine_spec(text: str) -> EngineSpec:
    """A preset name (see PRESETS) or a full specification."""
    if text in PRESETS:
        return parse_engine_spec(PRESETS[text])
    return parse_engine_spec(text)


# Balanced openings: common main lines, 2–4 plies, each within a few dozen centipawns of
# equality. Each is played twice, with colours swapped.
OPENINGS: tuple[str, ...] = (
    "e4 e5 Nf3 Nc6",
    "d4 d5 c4 e6",
    "e4 c5 Nf3 d6",
    "d4 Nf6 c4 g6",
    "e4 e6 d4 d5",
    "c4 e5 Nc3 Nf6",
    "e4 c6 d4 d5",
    "Nf3 d5 d4 Nf6",
    "d4 Nf6 c4 e6",
    "e4 c5 Nf3 Nc6",
    "d4 d5 c4 c6",
    "e4 e5 Nf3 Nf6",
    "c4 c5 Nf3 Nf6",
    "e4 c5 Nc3 Nc6",
    "d4 Nf6 Nf3 d5",
    "e4 d6 d4 Nf6",
)


def load_openings(path: str) -> list[str]:
    """Openings from a file: one per line, SAN moves from the start or a FEN/EPD.

    Blank lines and lines starting with ``#`` are skipped.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            lines = [line.strip() for line in handle]
    except OSError as error:
        raise ConfigError(f"cannot read openings file {path!r}: {error.strerror}") from None
    openings = [line for line in lines if line and not line.startswith("#")]
    if not openings:
        raise ConfigError(f"openings file {path!r} has no openings")
    return openings


# A Chess960 opening: the starting position of that number (0-959), ``chess960:518`` being
# the standard one. The engines are told UCI_Chess960 (python-chess does it for a Chess960 board).
CHESS960_PREFIX = "chess960:"


def chess960_openings(games: int, seed: int) -> list[str]:
    """The Chess960 starts of a match of ``games`` games: ``ceil(games / 2)`` distinct numbers
    drawn from ``seed`` (each start is then played twice, colours swapped, by :func:`schedule`)."""
    count = min(960, max(1, (games + 1) // 2))
    numbers = random.Random(seed).sample(range(960), count)
    return [f"{CHESS960_PREFIX}{n}" for n in numbers]


def chess960_number(opening: str) -> int | None:
    """The number of a ``chess960:N`` opening, ``None`` for any other opening."""
    text = opening.strip()
    if not text.startswith(CHESS960_PREFIX):
        return None
    number = text[len(CHESS960_PREFIX) :]
    if not number.isdigit() or not 0 <= int(number) < 960:
        raise ConfigError(f"bad opening {opening!r}: Chess960 starts are numbered 0 to 959")
    return int(number)


def schedule(openings: list[str] | tuple[str, ...], games: int) -> list[tuple[str, bool]]:
    """The opening and colour of each game: ``(opening, first_engine_is_white)``.

    Openings are taken in order, each twice with colours swapped, wrapping round when the
    games outnumber twice the openings.
    """
    if games < 0:
        raise ConfigError(f"number of games must not be negative, got {games}")
    if not openings:
        raise ConfigError("no openings")
    return [(openings[(i // 2) % len(openings)], i % 2 == 0) for i in range(games)]

"""shatranj.Game: games played to every ending under FIDE and automatic rules (R2.1, R4.1–R4.9,
R5.1, R5.2, R6.1), and their PGN read back by python-chess (R7)."""

from __future__ import annotations

import ast
import copy
import io
import math
import pickle
import subprocess
import sys
import time
from typing import Literal

import chess
import chess.pgn
import pytest

import shatranj
from shatranj import Termination

START = shatranj.STARTING_FEN
SHUFFLE = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"
T = Termination


def play(game: shatranj.Game, script: str) -> None:
    """Runs a script of actions, each checked as it happens (the tokens of rust/chess/tests/game.rs):
    ``e4`` / ``e4@12.5`` a move in SAN (with thinking time), ``?Ke2`` an illegal move that must be
    refused, ``uci:e2e4``, ``resign:w``, ``offer:b``, ``accept:w``, ``decline:b``, ``claim`` /
    ``claim:Ng8`` a claim that must succeed, ``-claim`` / ``-claim:e5`` one that must fail,
    ``spend@30`` time passing."""
    for token in script.split():
        action, _, time_text = token.partition("@")
        seconds = float(time_text) if time_text else 0.0
        if action.startswith("?"):
            before = game.illegal_moves(game.turn)
            with pytest.raises(shatranj.IllegalMoveError):
                if action.startswith("?uci:"):
                    game.push_uci(action[5:], seconds=seconds)
                else:
                    game.push_san(action[1:], seconds=seconds)
            assert game.illegal_moves(game.turn) == before + 1, token
            continue
        verb, _, arg = action.partition(":")
        color = arg == "w"
        if verb == "uci":
            game.push_uci(arg, seconds=seconds)
        elif verb == "resign":
            game.resign(color)
        elif verb == "offer":
            game.offer_draw(color)
        elif verb == "accept":
            game.accept_draw(color)
        elif verb == "decline":
            game.decline_draw(color)
        elif verb in ("claim", "-claim"):
            assert game.claim_draw(arg or None) is (verb == "claim"), token
        elif verb == "spend":
            game.spend(seconds=seconds)
        else:
            game.push_san(action, seconds=seconds)


Ending = tuple[Termination, bool | None] | None
Rules = Literal["fide", "automatic"]

# (rule ids and what the case shows, FEN, rules, time control, script, ending)
GAMES: list[tuple[str, str, Rules, str | tuple[float, float] | None, str, Ending]] = [
    ("R4.1 checkmate", START, "fide", None, "f3 e5 g4 Qh4#", (T.CHECKMATE, False)),
    ("R4.5 stalemate", "k7/8/8/1Q6/8/8/8/7K w - - 0 1", "automatic", None, "Qb6", (T.STALEMATE, None)),
    ("R4.6 material", "4k3/8/8/8/8/8/3r4/3BK3 w - - 0 1", "fide", None, "Kxd2", (T.INSUFFICIENT_MATERIAL, None)),
    ("R4.6 R5.1 dead wall", "8/8/8/1k6/p1p1p1p1/P1P1P1P1/5n2/5K2 w - - 0 1", "fide", None, "Kxf2",
     (T.DEAD_POSITION, None)),
    ("R5.2 wall plays on", "8/8/8/1k6/p1p1p1p1/P1P1P1P1/5n2/5K2 w - - 0 1", "automatic", None, "Kxf2", None),
    ("R4.8 R5.1 fivefold", START, "fide", None, f"{SHUFFLE} {SHUFFLE}", (T.FIVEFOLD_REPETITION, None)),
    ("R5.1 threefold is a claim", START, "fide", None, SHUFFLE, None),
    ("R5.2 threefold at once", START, "automatic", None, SHUFFLE, (T.THREEFOLD_REPETITION, None)),
    ("R4.8 seventy-five", "4k3/8/8/8/8/8/R7/4K3 w - - 149 100", "fide", None, "Rb2", (T.SEVENTYFIVE_MOVES, None)),
    ("R5.2 fifty at once", "4k3/8/8/8/8/8/R7/4K3 w - - 99 80", "automatic", None, "Rb2", (T.FIFTY_MOVES, None)),
    ("R4.8 fifty claimed", "4k3/8/8/8/8/8/R7/4K3 w - - 99 80", "fide", None, "-claim Rb2 claim",
     (T.FIFTY_MOVES, None)),
    ("R4.8 threefold claimed with the announced move", START, "fide", None,
     "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 -claim -claim:e5 claim:Ng8", (T.THREEFOLD_REPETITION, None)),
    ("R4.2 resignation", START, "fide", None, "e4 e5 resign:w", (T.RESIGNATION, False)),
    ("R4.9 resignation against a lone king", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "fide", None, "resign:w",
     (T.RESIGNATION, None)),
    ("R5.2 resignation against K+N loses", "4k3/8/8/2n5/8/8/8/Q3K3 w - - 0 1", "automatic", None,
     "Kd1 resign:w", (T.RESIGNATION, False)),
    ("R4.3 flag fall", START, "fide", "1+0", "e4@30 e5@59 Nf3@30.5", (T.TIME_FORFEIT, False)),
    ("R4.3 time without a move", START, "fide", (60.0, 0.0), "e4 spend@61", (T.TIME_FORFEIT, True)),
    ("R4.9 R5.1 flag fall against K+N draws", "4k3/8/8/2n5/8/8/8/Q3K3 w - - 0 1", "fide", "1+0", "Kd1@61",
     (T.TIME_FORFEIT, None)),
    ("R4.7 agreement", START, "fide", None, "e4 e5 offer:w Nf3 accept:b", (T.AGREEMENT, None)),
    ("R4.7 declined", START, "fide", None, "e4 e5 offer:w decline:b Nf3", None),
    ("R4.4 third illegal move", START, "fide", None, "?Ke2 e4 e5 ?uci:e1e3 ?uci:0000", (T.ILLEGAL_MOVES, False)),
    ("R4.4 R5.2 automatic mode only refuses", START, "automatic", None, "?Ke2 ?Ke2 ?Ke2 ?Ke2 e4", None),
]  # fmt: skip


def replay_pgn(text: str) -> chess.pgn.Game:
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    assert not game.errors, game.errors
    return game


@pytest.mark.parametrize(
    "about, fen, rules, time_control, script, ending", GAMES, ids=[g[0] for g in GAMES]
)
def test_r4_r5_games_end_as_the_rules_say(
    about: str,
    fen: str,
    rules: Rules,
    time_control: str | tuple[float, float] | None,
    script: str,
    ending: Ending,
) -> None:
    game = shatranj.Game(fen, rules, time_control)
    assert not game.is_over()
    play(game, script)
    outcome = game.outcome()
    assert (None if outcome is None else (outcome.termination, outcome.winner)) == ending
    assert game.is_over() is (ending is not None)

    # R2.1: the result and the score, 1 / ½ / 0.
    if outcome is None:
        assert game.result() == "*"
        assert game.score(shatranj.WHITE) is None
    else:
        assert game.result() == outcome.result()
        white, black = game.score(shatranj.WHITE), game.score(shatranj.BLACK)
        assert white is not None and black is not None
        assert white + black == 1.0
        assert white == {True: 1.0, None: 0.5, False: 0.0}[outcome.winner]

    # R7: python-chess reads the PGN back to the same moves, position and tags.
    text = game.pgn({"White": "Alice", "Black": "Bob", "Event": about})
    parsed = replay_pgn(text)
    assert [m.uci() for m in parsed.mainline_moves()] == [m.uci() for m in game.move_stack]
    assert parsed.end().board().fen() == game.board.fen()
    headers = parsed.headers
    assert list(headers)[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert (headers["White"], headers["Black"], headers["Event"]) == ("Alice", "Bob", about)
    assert headers["Result"] == game.result()
    assert headers["Termination"] == (
        "unterminated"
        if outcome is None
        else {T.TIME_FORFEIT: "time forfeit", T.ILLEGAL_MOVES: "rules infraction"}.get(
            outcome.termination, "normal"
        )
    )
    if fen == START:
        assert "FEN" not in headers
    else:
        assert headers["FEN"] == fen and headers["SetUp"] == "1"
    if time_control is None:
        assert "TimeControl" not in headers
    else:
        assert headers["TimeControl"] == "60+0"

    # Pickling replays every action: the same game, clocks and counts included.
    assert same_game(pickle.loads(pickle.dumps(game)), game)


def same_game(a: shatranj.Game, b: shatranj.Game) -> bool:
    colors = (shatranj.WHITE, shatranj.BLACK)
    return (
        a.pgn() == b.pgn()
        and a.outcome() == b.outcome()
        and a.move_stack == b.move_stack
        and a.board.fen() == b.board.fen()
        and (a.rules, a.time_control, a.draw_offer, a.illegal_move_limit)
        == (b.rules, b.time_control, b.draw_offer, b.illegal_move_limit)
        and all(
            a.remaining(c) == b.remaining(c) and a.illegal_moves(c) == b.illegal_moves(c)
            for c in colors
        )
    )


def test_a_pickled_game_plays_on() -> None:
    game = shatranj.Game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "fide", (90.5, 0.25))
    game.push(shatranj.Move.from_uci("e1h1"), seconds=1.125)
    with pytest.raises(shatranj.IllegalMoveError):
        game.push_san("Kg8", seconds=3)
    game.push_uci("e8c8", seconds=0.1)
    game.illegal_move_limit = 2
    game.offer_draw(shatranj.WHITE)
    game.claim_draw()
    game.spend(seconds=0.5)
    for twin in (pickle.loads(pickle.dumps(game)), copy.copy(game), copy.deepcopy(game)):
        assert same_game(twin, game)
        assert twin.draw_offer is shatranj.WHITE and twin.illegal_move_limit == 2
        assert twin.remaining(shatranj.WHITE) == 90.5 - 1.125 + 0.25 - 0.5
        # The twin is a game of its own: Black's second illegal move loses there only.
        twin.push_san("Kg2", seconds=0)
        with pytest.raises(shatranj.IllegalMoveError, match="over"):
            twin.push_san("Kg8", seconds=0)
        assert twin.is_over() and not game.is_over()
    corrupt = shatranj.Game()
    State = tuple[tuple[int, int] | None, list[tuple[str, str | None, int]]]
    states: list[State] = [
        (None, [("jump", None, 0)]),
        (None, [("resign", "w", 0), ("resign", "b", 0)]),
        ((0, 0), []),
    ]
    for state in states:
        with pytest.raises(ValueError, match="corrupt"):
            corrupt.__setstate__(state)


def test_r4_after_the_end_every_action_is_an_error() -> None:
    game = shatranj.Game()
    play(game, "f3 e5 g4 Qh4#")
    for action in (
        lambda: game.push(shatranj.Move.from_uci("e1f2")),
        lambda: game.push_san("Kf2"),
        lambda: game.push_uci("e1f2"),
        lambda: game.resign(shatranj.WHITE),
        lambda: game.offer_draw(shatranj.WHITE),
        lambda: game.accept_draw(shatranj.BLACK),
        lambda: game.claim_draw(),
        lambda: game.spend(seconds=1),
    ):
        with pytest.raises(shatranj.GameOverError, match="over"):
            action()
    assert issubclass(shatranj.GameOverError, ValueError)
    assert len(game.move_stack) == 4


def test_r4_4_illegal_moves_counted_and_the_limit_configurable() -> None:
    game = shatranj.Game()
    assert game.illegal_move_limit == 3
    with pytest.raises(shatranj.IllegalMoveError, match="number 1"):
        game.push(shatranj.Move.from_uci("e2e5"))
    # Notation that is no move at all is neither counted nor an illegal move.
    with pytest.raises(shatranj.InvalidMoveError):
        game.push_san("hello")
    with pytest.raises(shatranj.InvalidMoveError):
        game.push_uci("e2")
    assert (game.illegal_moves(shatranj.WHITE), game.illegal_moves(shatranj.BLACK)) == (1, 0)
    game.illegal_move_limit = 2
    with pytest.raises(shatranj.IllegalMoveError, match="over"):
        game.push_san("Ke2")
    outcome = game.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == (T.ILLEGAL_MOVES, False)

    auto = shatranj.Game(rules="automatic")
    assert auto.illegal_move_limit is None
    for bad in (0, -1, 2**40):
        with pytest.raises(ValueError, match="illegal_move_limit"):
            auto.illegal_move_limit = bad
    auto.illegal_move_limit = None


def test_r4_7_offers() -> None:
    game = shatranj.Game()
    with pytest.raises(ValueError, match="each player"):
        game.offer_draw(shatranj.WHITE)
    play(game, "e4")
    with pytest.raises(ValueError, match="each player"):
        game.offer_draw(shatranj.BLACK)
    play(game, "e5")
    with pytest.raises(ValueError, match="no draw offer"):
        game.accept_draw(shatranj.BLACK)
    assert game.offer_draw(shatranj.WHITE) is None
    assert game.draw_offer is shatranj.WHITE
    play(game, "Nf3")  # the offerer's own move keeps the offer
    assert game.draw_offer is shatranj.WHITE
    play(game, "Nc6")  # the opponent plays on: the offer lapses
    assert game.draw_offer is None
    game.offer_draw(shatranj.BLACK)
    outcome = game.offer_draw(shatranj.WHITE)  # two offers agree
    assert outcome is not None and outcome.termination is T.AGREEMENT
    assert game.score(shatranj.BLACK) == 0.5


def test_r4_8_claims() -> None:
    game = shatranj.Game()
    play(game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1")
    with pytest.raises(shatranj.IllegalMoveError):
        game.claim_draw("Ke7")
    with pytest.raises(TypeError):
        game.claim_draw(42)  # type: ignore[arg-type]
    assert game.claim_draw(shatranj.Move.from_uci("f6d5")) is False
    assert game.claim_draw(shatranj.Move.from_uci("f6g8")) is True
    assert len(game.move_stack) == 7, "the announced move is not played"
    with pytest.raises(ValueError, match="automatic"):
        shatranj.Game(rules="automatic").claim_draw()


def test_r6_1_clocks() -> None:
    game = shatranj.Game(time_control="3+2")
    assert game.time_control == (180.0, 2.0)
    assert game.remaining(shatranj.WHITE) == game.remaining(shatranj.BLACK) == 180.0
    game.push_san("e4", seconds=10)
    assert game.remaining(shatranj.WHITE) == 172.0
    with pytest.raises(shatranj.IllegalMoveError):
        game.push_san("Ke7", seconds=5)  # a refused move costs its time, earns no increment
    game.push_san("e5", seconds=2.5)
    assert game.remaining(shatranj.BLACK) == 174.5
    # The default thinking time is the wall-clock time since the clock was last charged.
    time.sleep(0.05)
    game.push_san("Nf3")
    white = game.remaining(shatranj.WHITE)
    assert white is not None and 172.0 + 2.0 - 5.0 < white <= 172.0 + 2.0 - 0.05
    assert shatranj.Game().remaining(shatranj.WHITE) is None
    assert shatranj.Game(time_control=(300, 0.5)).time_control == (300.0, 0.5)


def test_r4_3_flag_fall_returns_the_outcome_and_keeps_the_move_off_the_board() -> None:
    game = shatranj.Game(time_control=(60, 5))
    outcome = game.push_san("e4", seconds=60.001)
    assert outcome is not None and (outcome.termination, outcome.winner) == (T.TIME_FORFEIT, False)
    assert game.move_stack == [] and game.remaining(shatranj.WHITE) == 0.0


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"time_control": "5"}, ValueError),
        ({"time_control": "0+3"}, ValueError),
        ({"time_control": "x+3"}, ValueError),
        ({"time_control": (-1, 0)}, ValueError),
        ({"time_control": (math.nan, 0)}, ValueError),
        ({"time_control": (0, 0)}, ValueError),
        ({"time_control": 5}, TypeError),
        ({"rules": "blitz"}, ValueError),
        ({"fen": "not a fen"}, ValueError),
    ],
)
def test_bad_arguments_are_typed_errors(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        shatranj.Game(**kwargs)  # type: ignore[arg-type]


def test_bad_seconds_and_headers() -> None:
    game = shatranj.Game(time_control="1+0")
    for bad in (-1.0, math.nan, math.inf):
        with pytest.raises(ValueError, match="seconds"):
            game.push_san("e4", seconds=bad)
    assert game.move_stack == [] and game.remaining(shatranj.WHITE) == 60.0
    with pytest.raises(ValueError, match="tag name"):
        game.pgn({"Bad Name": "x"})
    with pytest.raises(TypeError):
        game.pgn({"Event": 3})  # type: ignore[dict-item]


def test_board_is_a_copy() -> None:
    game = shatranj.Game()
    play(game, "e4 e5")
    board = game.board
    assert board.move_stack == game.move_stack
    board.push_san("Nf3")
    assert len(game.move_stack) == 2 and game.board.fen() != board.fen()
    # A castling move written king-takes-rook is read as python-chess reads it.
    game = shatranj.Game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    game.push(shatranj.Move.from_uci("e1h1"))
    assert game.board.fen().startswith("r3k2r/8/8/8/8/8/8/R4RK1 b kq")


def test_termination_names_the_arbiters_endings() -> None:
    for name in ("RESIGNATION", "TIME_FORFEIT", "AGREEMENT", "ILLEGAL_MOVES", "DEAD_POSITION"):
        assert Termination[name].name == name


GARBAGE_SEED = 606
GARBAGE_CHILD = """
import random, sys
import shatranj

rng = random.Random(int(sys.argv[1]))
ALPHABET = "0123456789+-.smhe xKQRBNOabcdefgh=#/\\u0000\\u2654\\n"
counts = {"time_control": [0, 0], "push_san": [0, 0], "push_uci": [0, 0], "claim_draw": [0, 0], "pgn": [0, 0]}

def text():
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 12)))

def time_control():
    if rng.random() < 0.5:
        return text()
    chars = list(rng.choice(["5+3", "90+30", "300s+0", "0.5+0", "1m+2s"]))
    for _ in range(rng.randrange(1, 3)):
        i = rng.randrange(len(chars) + 1)
        if rng.random() < 0.5 and i < len(chars):
            chars[i] = rng.choice(ALPHABET)
        else:
            chars.insert(i, rng.choice(ALPHABET))
    return "".join(chars)

def attempt(name, call):
    try:
        call()
        counts[name][0] += 1
    except ValueError:
        counts[name][1] += 1

for _ in range(int(sys.argv[2])):
    attempt("time_control", lambda: shatranj.Game(time_control=time_control()))
    game = shatranj.Game(rules=rng.choice(["fide", "automatic"]), time_control="1+1")
    game.illegal_move_limit = None
    for _ in range(4):
        attempt("push_san", lambda: game.push_san(text(), seconds=rng.random()))
        attempt("push_uci", lambda: game.push_uci(text(), seconds=rng.random()))
    attempt("claim_draw", lambda: game.claim_draw(text()))
    attempt("pgn", lambda: game.pgn({text(): text()}))
print(counts)
"""


def test_garbage_into_game_raises_value_errors_only() -> None:
    """Seeded random text into every text input of Game, in a child process so that a crash is
    seen as one: only ValueErrors (IllegalMoveError, InvalidMoveError, GameOverError …)."""
    print(f"seed {GARBAGE_SEED}")
    child = subprocess.run(
        [sys.executable, "-c", GARBAGE_CHILD, str(GARBAGE_SEED), "1500"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == 0, child.stderr[-3000:]
    counts = ast.literal_eval(child.stdout.strip().splitlines()[-1])
    for name, (_accepted, rejected) in counts.items():
        assert rejected > 0, f"{name} accepted all garbage"
    assert counts["time_control"][0] > 0, "some random time controls are valid"

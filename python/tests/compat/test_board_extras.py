"""python-chess's ``Board`` extras that the native class carries (``board/compat.rs``): the
``generate_*`` family with ``from_mask``/``to_mask``, XBoard notation, ``attacks``,
``is_irreversible``, ``has_pseudo_legal_en_passant``, ``shredder_fen``, ``apply_mirror``,
``reset``, ``empty`` and the variant names, against python-chess over seeded random games,
standard and Chess960 (setup mode) alike."""

from __future__ import annotations

import random
from typing import Callable, List

import chess
import pytest

import shatranj

SEED = 20261203
GAMES = 24
PLIES = 40

STARTS = [
    (chess.STARTING_FEN, False),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", False),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", False),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", False),
    # Chess960 starts (setup mode on our side): castling written king takes rook.
    ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", True),
    ("qrbkrnnb/pppppppp/8/8/8/8/PPPPPPPP/QRBKRNNB w KQkq - 0 1", True),
]

GENERATORS = [
    "generate_legal_moves",
    "generate_pseudo_legal_moves",
    "generate_legal_captures",
    "generate_pseudo_legal_captures",
    "generate_legal_ep",
    "generate_pseudo_legal_ep",
    "generate_castling_moves",
]


def masks(rng: random.Random, ref: chess.Board) -> List[int]:
    """Masks that select something: every square, one square, a random set, the rooks."""
    return [
        chess.BB_ALL,
        chess.BB_SQUARES[rng.randrange(64)],
        rng.getrandbits(64),
        int(ref.rooks),
        int(ref.kings) | int(ref.pawns),
    ]


def ucis(moves: object) -> List[str]:
    return sorted(m.uci() for m in moves)  # type: ignore[attr-defined]


def compare(rng: random.Random, ref: chess.Board, ours: shatranj.Board) -> None:
    where = ref.fen()
    for name in GENERATORS:
        theirs: Callable[..., object] = getattr(ref, name)
        mine: Callable[..., object] = getattr(ours, name)
        assert ucis(mine()) == ucis(theirs()), (name, where)
        for from_mask in masks(rng, ref):
            to_mask = rng.choice(masks(rng, ref))
            assert ucis(mine(from_mask, to_mask)) == ucis(theirs(from_mask, to_mask)), (name, hex(from_mask), hex(to_mask), where)
    # A SquareSet is a mask too (python-chess reads int(mask)).
    some = shatranj.SquareSet(ref.occupied_co[ref.turn])
    assert ucis(ours.generate_legal_moves(some)) == ucis(ref.generate_legal_moves(int(some))), where  # type: ignore[arg-type]
    assert ours.has_pseudo_legal_en_passant() == ref.has_pseudo_legal_en_passant(), where
    for square in range(64):
        assert ours.attacks_mask(square) == int(ref.attacks_mask(square)), (square, where)
        assert int(ours.attacks(square)) == int(ref.attacks(square)), (square, where)
    for move in ref.legal_moves:
        mine_move = shatranj.Move.from_uci(move.uci())
        assert ours.is_irreversible(mine_move) == ref.is_irreversible(move), (move.uci(), where)
        for flag in (None, True, False):
            assert ours.xboard(mine_move, flag) == ref.xboard(move, flag), (move.uci(), flag, where)
    # A null move is never irreversible here (python-chess counts its en-passant and a1/h1 rules).
    assert not ours.is_irreversible(shatranj.Move.null())
    assert ours.xboard(shatranj.Move.null()) == ref.xboard(chess.Move.null()) == "@@@@"
    assert ours.shredder_fen() == ref.shredder_fen(), where
    assert ours.shredder_fen(en_passant="fen") == ref.shredder_fen(en_passant="fen"), where


@pytest.mark.parametrize("game", range(GAMES))
def test_extras_agree_with_python_chess(game: int) -> None:
    seed = SEED + game
    print(f"seed {seed}")
    rng = random.Random(seed)
    fen, chess960 = STARTS[game % len(STARTS)]
    ref = chess.Board(fen, chess960=chess960)
    ours = shatranj.Board(fen, chess960=chess960)
    for _ in range(PLIES):
        compare(rng, ref, ours)
        legal = list(ref.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        # Played the XBoard way now and then (SAN or coordinates both read).
        if rng.random() < 0.3:
            text = ref.san(move) if rng.random() < 0.5 else move.uci()
            assert ours.push_xboard(text).uci() == ref.push_xboard(text).uci()
        else:
            assert ours.parse_xboard(move.uci()).uci() == ref.parse_xboard(move.uci()).uci()
            ref.push(move)
            ours.push(shatranj.Move.from_uci(move.uci()))
        assert ours.fen() == ref.fen()
    mirrored_ref, mirrored = ref.copy(), ours.copy()
    mirrored_ref.apply_mirror()
    mirrored.apply_mirror()
    assert mirrored.fen() == mirrored_ref.fen() and mirrored.move_stack == []
    ours.reset()
    ref.reset()
    assert ours.fen() == ref.fen() and ours.chess960 == ref.chess960


def test_variant_names_and_empty() -> None:
    assert shatranj.Board.uci_variant == chess.Board.uci_variant == "chess"
    assert shatranj.Board.xboard_variant == chess.Board.xboard_variant == "normal"
    assert shatranj.Board().uci_variant == "chess"
    for chess960 in (False, True):
        empty = shatranj.Board.empty(chess960=chess960)
        assert empty.fen() == chess.Board.empty(chess960=chess960).fen()
        assert empty.chess960 == chess960


def test_bad_arguments_are_typed_errors() -> None:
    board = shatranj.Board()
    with pytest.raises(TypeError):
        list(board.generate_legal_moves(object()))  # type: ignore[arg-type]
    with pytest.raises(IndexError):
        board.attacks_mask(64)
    with pytest.raises(TypeError):
        board.xboard("e2e4")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        board.push_xboard("Ke2")

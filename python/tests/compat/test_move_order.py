"""Move lists in python-chess's order (issue 20), so that seeded scripts replay the same games.

``list(board.legal_moves)`` (and ``pseudo_legal_moves``, ``generate_legal_moves()``,
``generate_legal_captures()``, ``generate_pseudo_legal_moves()``) must equal python-chess's
list, order included: pieces from h8 down, then castling, pawn captures, single and double
pushes, en passant; promotions queen, rook, bishop, knight; in check the king's steps first.
Checked on named positions (check, double check, castling, en passant, promotions, pins),
on boards that only setup mode holds (no king, two kings, pawns on the back rank, Chess960),
and at every ply of seeded random games, where the move is drawn from each library's own
list with the same seed: the games must stay identical.
"""

from __future__ import annotations

import random
from typing import Any

import chess
import pytest

import shatranj

GAMES = 60
BASE_SEED = 20261202

NAMED = {
    "start": chess.STARTING_FEN,
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "kiwipete black": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    "castling both sides, white": "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "castling both sides, black": "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "castling one side attacked": "r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1",
    "check by a rook": "4k3/8/8/8/8/8/2NP1PB1/r3K2R w K - 0 1",
    "check by a knight, captures and steps": "4k3/8/8/8/8/3n4/2P1PB2/2RQK2R w K - 0 1",
    "check, blocks by pieces and pawns": "4k3/8/8/b7/8/8/1PP2P2/RN2K1NR w KQ - 0 1",
    "double check": "4k3/8/8/8/8/5n2/8/r3K2R w K - 0 1",
    "en passant": "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "en passant by two pawns": "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1",
    "en passant out of check": "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    "en passant or a king step out of check": "8/8/8/4k3/2pP4/8/8/4K3 b - d3 0 1",
    "promotions, pushes and captures": "1r2k1n1/P1P3PP/8/8/8/8/p1p3pp/1R2K1N1 w - - 0 1",
    "promotions, black": "1r2k1n1/P1P3PP/8/8/8/8/p1p3pp/1R2K1N1 b - - 0 1",
    "promotion out of check": "3rk3/2P5/8/8/8/8/8/3K4 w - - 0 1",
    "pinned pieces": "4r1k1/8/8/b7/4R2b/8/P2N1P2/1N2K3 w - - 0 1",
    "pinned pawns": "4k3/4r3/8/b7/8/2P1P3/4K3/8 w - - 0 1",
    "pinned en passant": "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1",
    "stalemate": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "checkmate": "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
}

# Boards the rules crate refuses, played by setup mode (rust/python/src/board/setup_mode.rs).
SETUP = {
    "no kings": "8/3p4/8/2N5/5b2/8/4P3/8 w - - 0 1",
    "two white kings": "4k3/8/8/8/8/8/8/K3K3 w - - 0 1",
    "two kings in check": "4k3/8/8/8/8/8/3r4/K3K3 w - - 0 1",
    "side not to move in check": "4k3/8/8/8/8/8/8/4K2r b - - 0 1",
    "pawns on the back ranks": "p3k2P/8/8/8/8/8/8/P3K2p w - - 0 1",
    "pawns on the back ranks, black": "p3k2P/8/8/8/8/8/8/P3K2p b - - 0 1",
    "three checkers": "4k3/8/8/8/8/3n1n2/8/r3K2R w K - 0 1",
}

CHESS960 = {
    "960 castling": "1rk2r2/8/8/8/8/8/8/1RK2R2 w BFbf - 0 1",
    "960 castling, black": "1rk2r2/8/8/8/8/8/8/1RK2R2 b BFbf - 0 1",
    "960 start": "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
}


def ucis(moves: Any) -> list[str]:
    return [m.uci() for m in moves]


def assert_same_order(ref: chess.Board, ours: shatranj.Board) -> None:
    where = ref.fen()
    expected = ucis(ref.legal_moves)
    assert ucis(ours.legal_moves) == expected, where
    assert ucis(list(ours.legal_moves)) == expected, where
    assert ucis(ours.generate_legal_moves()) == expected, where
    assert ucis(ours.generate_legal_captures()) == ucis(ref.generate_legal_captures()), where
    assert ucis(ours.pseudo_legal_moves) == ucis(ref.pseudo_legal_moves), where
    assert ucis(ours.generate_pseudo_legal_moves()) == ucis(ref.generate_pseudo_legal_moves()), (
        where
    )
    assert ucis(ours.generate_castling_moves()) == ucis(ref.generate_castling_moves()), where
    # The generator's repr lists SAN in the same order.
    assert repr(ours.legal_moves).split("(", 1)[1] == repr(ref.legal_moves).split("(", 1)[1], where


@pytest.mark.parametrize("name", sorted(NAMED))
def test_named_positions(name: str) -> None:
    fen = NAMED[name]
    assert_same_order(chess.Board(fen), shatranj.Board(fen))


@pytest.mark.parametrize("name", sorted(SETUP))
def test_setup_boards(name: str) -> None:
    fen = SETUP[name]
    ours = shatranj.Board(fen)
    ref = chess.Board(fen)
    assert not ref.is_valid()
    assert_same_order(ref, ours)


@pytest.mark.parametrize("name", sorted(CHESS960))
def test_chess960(name: str) -> None:
    fen = CHESS960[name]
    assert_same_order(chess.Board(fen, chess960=True), shatranj.Board(fen, chess960=True))


def test_masks_keep_the_order() -> None:
    fen = NAMED["kiwipete"]
    ref, ours = chess.Board(fen), shatranj.Board(fen)
    for from_mask, to_mask in [
        (chess.BB_RANK_2, chess.BB_ALL),
        (chess.BB_ALL, chess.BB_RANK_3 | chess.BB_FILE_E),
    ]:
        assert ucis(ours.generate_legal_moves(from_mask, to_mask)) == ucis(
            ref.generate_legal_moves(from_mask, to_mask)
        )


def play(seed: int, start: str) -> int:
    """One game, each side drawing its move from its own list with the same seed."""
    ref, ours = chess.Board(start), shatranj.Board(start)
    rng_ref, rng_ours = random.Random(seed), random.Random(seed)
    for _ in range(300):
        assert_same_order(ref, ours)
        if ref.is_game_over(claim_draw=False):
            break
        m_ref = rng_ref.choice(list(ref.legal_moves))
        m_ours = rng_ours.choice(list(ours.legal_moves))
        assert m_ours.uci() == m_ref.uci(), f"seed {seed}, {ref.fen()}"
        ref.push(m_ref)
        ours.push(m_ours)
    assert ours.fen() == ref.fen()
    return ref.ply()


@pytest.mark.parametrize("chunk", range(4))
def test_seeded_random_games_replay(chunk: int) -> None:
    starts = [
        NAMED["start"],
        NAMED["kiwipete"],
        NAMED["promotions, pushes and captures"],
        NAMED["en passant"],
    ]
    seeds = range(BASE_SEED + chunk, BASE_SEED + GAMES, 4)
    print(f"seeds {BASE_SEED}+{chunk} step 4: {len(seeds)} games")
    for seed in seeds:
        play(seed, starts[seed % len(starts)])

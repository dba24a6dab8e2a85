"""Differential tests against python-chess over seeded random games.

At every ply of every game both libraries must agree on the FEN, the legal moves, the SAN and
LAN of each move, every predicate of the issue, the Polyglot key and ``outcome()``. The games
start from the standard position, from Kiwipete-like middlegames, and from sparse endgames
(with some clocks near the 75-move limit) so that they reach stalemate, insufficient material,
repetitions and the 75-move rule; the move policy often plays a piece straight back, which
makes repetitions common.

python-chess is the slow side, so the per-ply checks on every move (SAN, LAN, gives_check …)
run on every ply but the expensive claim checks only every few plies; the test reports which
endings it reached and asserts each kind was reached at least once.
"""

from __future__ import annotations

import collections
import random
from collections import Counter

import chess
import chess.polyglot
import pytest

import shatranj
import shatranj.polyglot

GAMES = 520
CHUNKS = 8
BASE_SEED = 20261130

STARTS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    # Sparse endgames: stalemates, insufficient material, long shuffles.
    "8/8/8/4k3/8/8/8/4K2Q w - - 0 1",
    "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1",
    "8/8/3k4/8/3B4/8/3K4/3n4 w - - 0 1",
    "8/8/3k4/8/3N4/8/3K4/3b4 w - - 0 1",
    "8/8/4k3/8/2R5/8/4K3/5r2 w - - 138 90",
    "8/5k2/8/8/8/8/1K6/2N1B3 b - - 140 100",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    "8/8/8/3pk3/8/3PK3/8/8 w - - 120 70",
    "8/8/1k6/8/8/1K6/8/1R4b1 w - - 145 120",
]

# Kinds of ending and event that the corpus must reach at least once.
REQUIRED = {
    "CHECKMATE",
    "STALEMATE",
    "INSUFFICIENT_MATERIAL",
    "SEVENTYFIVE_MOVES",
    "FIVEFOLD_REPETITION",
    "threefold claim",
    "fifty-move claim",
    "legal en passant",
    "castling",
    "promotion",
}


def choose(rng: random.Random, board: chess.Board, legal: list[chess.Move]) -> chess.Move:
    """Random, but often a piece straight back to where it came from (repetitions)."""
    if len(board.move_stack) >= 2 and rng.random() < 0.55:
        mine = board.move_stack[-2]
        back = chess.Move(mine.to_square, mine.from_square)
        if back in legal:
            return back
    return rng.choice(legal)


def compare_position(
    ref: chess.Board, ours: shatranj.Board, deep: bool, seen: Counter[str]
) -> None:
    where = ref.fen()
    assert ours.fen() == ref.fen(), where
    assert ours.fen(en_passant="fen") == ref.fen(en_passant="fen"), where
    assert ours.epd() == ref.epd(), where
    assert ours.board_fen() == ref.board_fen(), where
    assert ours.turn == ref.turn
    assert ours.castling_rights == ref.castling_rights, where
    assert ours.ep_square == ref.ep_square, where
    assert ours.halfmove_clock == ref.halfmove_clock
    assert ours.fullmove_number == ref.fullmove_number
    assert ours.ply() == ref.ply()
    assert shatranj.polyglot.zobrist_hash(ours) == chess.polyglot.zobrist_hash(ref), where
    assert str(ours) == str(ref)

    ref_legal = list(ref.legal_moves)
    our_legal = list(ours.legal_moves)
    # In python-chess's order, too (issue 20: seeded scripts replay the same games).
    assert [m.uci() for m in our_legal] == [m.uci() for m in ref_legal], where
    assert ours.legal_moves.count() == len(ref_legal) == len(ours.legal_moves)
    assert bool(ours.legal_moves) == bool(ref_legal)
    assert sorted(m.uci() for m in ours.pseudo_legal_moves) == sorted(
        m.uci() for m in ref.pseudo_legal_moves
    ), where

    assert ours.is_check() == ref.is_check(), where
    assert int(ours.checkers()) == int(ref.checkers()), where
    assert ours.is_checkmate() == ref.is_checkmate(), where
    assert ours.is_stalemate() == ref.is_stalemate(), where
    assert ours.is_insufficient_material() == ref.is_insufficient_material(), where
    for color in chess.COLORS:
        assert ours.has_insufficient_material(color) == ref.has_insufficient_material(color), where
        assert ours.king(color) == ref.king(color)
        assert ours.has_kingside_castling_rights(color) == ref.has_kingside_castling_rights(color)
        assert ours.has_queenside_castling_rights(color) == ref.has_queenside_castling_rights(color)
    assert ours.has_legal_en_passant() == ref.has_legal_en_passant(), where
    assert ours.is_seventyfive_moves() == ref.is_seventyfive_moves(), where
    assert ours.is_fivefold_repetition() == ref.is_fivefold_repetition(), where
    for count in (2, 3, 4):
        assert ours.is_repetition(count) == ref.is_repetition(count), (where, count)
    assert ours.is_game_over() == ref.is_game_over(), where
    assert ours.result() == ref.result(), where
    assert_outcome(ours.outcome(), ref.outcome(), where)
    if ref.has_legal_en_passant():
        seen["legal en passant"] += 1

    # The draw claims, on every ply: python-chess answers each by trying every legal move,
    # so ask it once and derive the rest.
    fifty, threefold = ref.can_claim_fifty_moves(), ref.can_claim_threefold_repetition()
    assert ours.can_claim_fifty_moves() == fifty, where
    assert ours.can_claim_threefold_repetition() == threefold, where
    assert ours.can_claim_draw() == (fifty or threefold), where
    assert ours.is_fifty_moves() == ref.is_fifty_moves(), where
    assert ours.is_game_over(claim_draw=True) == (ref.is_game_over() or fifty or threefold), where
    if deep:
        assert_outcome(ours.outcome(claim_draw=True), ref.outcome(claim_draw=True), where)
    seen["threefold claim"] += threefold
    seen["fifty-move claim"] += fifty
    if deep:
        for square in chess.SQUARES:
            piece = ref.piece_at(square)
            ours_piece = ours.piece_at(square)
            assert (ours_piece.symbol() if ours_piece else None) == (
                piece.symbol() if piece else None
            )
            assert ours.piece_type_at(square) == ref.piece_type_at(square)
            assert ours.color_at(square) == ref.color_at(square)
            for color in chess.COLORS:
                assert int(ours.attackers(color, square)) == int(ref.attackers(color, square)), (
                    where,
                    square,
                )
                assert ours.is_attacked_by(color, square) == ref.is_attacked_by(color, square)
                assert ours.is_pinned(color, square) == ref.is_pinned(color, square), (
                    where,
                    square,
                )
                assert int(ours.pin(color, square)) == int(ref.pin(color, square)), (where, square)

    for ref_move in ref_legal:
        move = shatranj.Move.from_uci(ref_move.uci())
        assert move in ours.legal_moves
        assert ours.is_legal(move)
        san = ref.san(ref_move)
        assert ours.san(move) == san, (where, ref_move)
        assert ours.parse_san(san) == move, (where, san)
        # python-chess's SAN already says what its predicates would: checks, captures and
        # castling are read from it, so the slow side is asked once per move.
        assert ours.gives_check(move) == san.endswith(("+", "#")), (where, ref_move)
        assert ours.is_capture(move) == ("x" in san), (where, ref_move)
        assert ours.is_castling(move) == san.startswith("O-O"), (where, ref_move)
        assert ours.is_kingside_castling(move) == (san.rstrip("+#") == "O-O")
        assert ours.is_queenside_castling(move) == san.startswith("O-O-O")
        assert ours.is_en_passant(move) == ref.is_en_passant(ref_move), (where, ref_move)
        assert ours.is_zeroing(move) == ref.is_zeroing(ref_move), (where, ref_move)
        if deep:
            assert ours.lan(move) == ref.lan(ref_move), (where, ref_move)
            assert ours.gives_check(move) == ref.gives_check(ref_move), (where, ref_move)


def assert_outcome(ours: shatranj.Outcome | None, ref: chess.Outcome | None, where: str) -> None:
    if ref is None:
        assert ours is None, where
        return
    assert ours is not None, where
    assert ours.termination.name == ref.termination.name, where
    assert ours.winner == ref.winner, where
    assert ours.result() == ref.result(), where


def play_game(seed: int, seen: Counter[str]) -> None:
    rng = random.Random(seed)
    start = STARTS[seed % len(STARTS)]
    ref = chess.Board(start)
    ours = shatranj.Board(start)
    max_plies = 40 + rng.randrange(100)
    for ply in range(max_plies + 1):
        compare_position(ref, ours, deep=ply % 8 == 0 or ref.is_game_over(), seen=seen)
        outcome = ref.outcome()
        if outcome is not None:
            seen[outcome.termination.name] += 1
            break
        legal = list(ref.legal_moves)
        move = choose(rng, ref, legal)
        if ref.is_castling(move):
            seen["castling"] += 1
        if move.promotion:
            seen["promotion"] += 1
        ours_move = shatranj.Move.from_uci(move.uci())
        if rng.random() < 0.5:
            ours.push(ours_move)
        else:
            assert ours.push_san(ref.san(move)) == ours_move
        ref.push(move)
        assert ours.peek() == ours_move
        assert [m.uci() for m in ours.move_stack] == [m.uci() for m in ref.move_stack]
        # Now and then take a move back and replay it: the stack must restore the position.
        if rng.random() < 0.1:
            assert ours.pop() == ours_move
            ours.push(ours_move)
    assert ours.variation_san(ours.move_stack[:0]) == ""
    root = ours.root()
    assert root.variation_san(ours.move_stack) == ref.root().variation_san(ref.move_stack)


SEEN: Counter[str] = collections.Counter()


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_agree_with_python_chess(chunk: int) -> None:
    seeds = range(BASE_SEED + chunk, BASE_SEED + GAMES, CHUNKS)
    print(f"seeds {BASE_SEED}+{chunk} step {CHUNKS}: {len(seeds)} games")
    for seed in seeds:
        play_game(seed, SEEN)


def test_every_kind_of_ending_was_reached() -> None:
    """The corpus is not vacuous. pytest runs this after the chunks (file order) and reads
    what they saw; run on its own, it plays the games itself."""
    if sum(SEEN.values()) == 0:
        for seed in range(BASE_SEED, BASE_SEED + GAMES):
            play_game(seed, SEEN)
    print(dict(SEEN))
    missing = REQUIRED - {name for name, n in SEEN.items() if n}
    assert not missing, f"the random games never reached {sorted(missing)}: {dict(SEEN)}"

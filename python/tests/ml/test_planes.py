"""shatranj.planes against pure-Python references written here from the layouts' descriptions
(python-chess is the board model of the references, so no shatranj code is shared)."""

from __future__ import annotations

import random

import chess
import pytest

import shatranj
import shatranj.planes as planes

np = pytest.importorskip("numpy")
SEED = 2125


def random_games(count: int, seed: int = SEED) -> list[tuple[chess.Board, shatranj.Board]]:
    """Pairs of boards (python-chess, shatranj) after random games, with repetitions now and
    then (knights shuffled back and forth) and promotions."""
    print(f"seed {seed}")
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        ref = chess.Board()
        for _ in range(rng.randrange(0, 120)):
            moves = list(ref.legal_moves)
            if not moves:
                break
            promos = [m for m in moves if m.promotion]
            move = rng.choice(promos) if promos and rng.random() < 0.5 else rng.choice(moves)
            ref.push(move)
            if rng.random() < 0.05:
                shuffle = [
                    m for m in ref.legal_moves if ref.piece_type_at(m.from_square) == chess.KNIGHT
                ]
                if shuffle:
                    m = rng.choice(shuffle)
                    ref.push(m)
        mine = shatranj.Board()
        for m in ref.move_stack:
            mine.push(shatranj.Move.from_uci(m.uci()))
        out.append((ref, mine))
    return out


def lc0_reference(board: chess.Board) -> list[list[float]]:
    """Lc0's 112 input planes of ``board``, each a list of 64 values (square index from our view)."""
    us = board.turn
    flip = (lambda s: s ^ 56) if us == chess.BLACK else (lambda s: s)
    history = [board.copy()]
    b = board.copy()
    while b.move_stack and len(history) < 8:
        b.pop()
        history.append(b.copy())
    out = [[0.0] * 64 for _ in range(112)]
    for t, pos in enumerate(history):
        for square, piece in pos.piece_map().items():
            side = 0 if piece.color == us else 6
            out[13 * t + side + piece.piece_type - 1][flip(square)] = 1.0
        earlier = pos.copy()
        key = earlier._transposition_key()
        seen = False
        while earlier.move_stack:
            earlier.pop()
            if earlier._transposition_key() == key:
                seen = True
                break
        if seen:
            out[13 * t + 12] = [1.0] * 64
    them = not us
    for k, on in enumerate([
        board.has_queenside_castling_rights(us), board.has_kingside_castling_rights(us),
        board.has_queenside_castling_rights(them), board.has_kingside_castling_rights(them), us == chess.BLACK,
    ]):  # fmt: skip
        if on:
            out[104 + k] = [1.0] * 64
    out[109] = [float(board.halfmove_clock)] * 64
    out[111] = [1.0] * 64
    return out


def test_lc0_planes_match_the_reference() -> None:
    games = random_games(60)
    tensor = planes.lc0([mine for _, mine in games])
    assert tensor.shape == (60, 112, 8, 8) and tensor.dtype == np.float32
    for i, (ref, _) in enumerate(games):
        want = np.array(lc0_reference(ref), dtype=np.float32).reshape(112, 8, 8)
        assert np.array_equal(tensor[i], want), (i, ref.fen(), np.argwhere(tensor[i] != want)[:5])
    assert planes.board([mine for _, mine in games]).shape == (60, 12, 8, 8)


def lc0_table_reference() -> list[str]:
    """Lc0's 1858 moves as UCI text from White's view, in index order."""
    names = [f + r for r in "12345678" for f in "abcdefgh"]
    table = []
    for a in range(64):
        for b in range(64):
            df, dr = b % 8 - a % 8, b // 8 - a // 8
            queen = (df == 0) != (dr == 0) or (df != 0 and abs(df) == abs(dr))
            knight = sorted((abs(df), abs(dr))) == [1, 2]
            if queen or knight:
                table.append(names[a] + names[b])
    for a in range(48, 56):
        for b in (a + 7, a + 8, a + 9):
            if abs(b % 8 - a % 8) <= 1:
                table.extend(names[a] + names[b] + p for p in "qrb")
    return table


def mirror_uci(uci: str) -> str:
    return uci[0] + str(9 - int(uci[1])) + uci[2] + str(9 - int(uci[3])) + uci[4:]


def lc0_index_reference(board: chess.Board, move: chess.Move) -> int:
    uci = move.uci()
    if move.promotion == chess.KNIGHT:
        uci = uci[:4]
    if board.turn == chess.BLACK:
        uci = mirror_uci(uci)
    return lc0_table_reference().index(uci)


def alphazero_index_reference(board: chess.Board, move: chess.Move) -> int:
    f, t = move.from_square, move.to_square
    if board.turn == chess.BLACK:
        f, t = f ^ 56, t ^ 56
    df, dr = t % 8 - f % 8, t // 8 - f // 8
    if move.promotion in (chess.KNIGHT, chess.BISHOP, chess.ROOK):
        plane = 64 + 3 * [chess.KNIGHT, chess.BISHOP, chess.ROOK].index(move.promotion) + df + 1
    elif sorted((abs(df), abs(dr))) == [1, 2]:
        plane = 56 + [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)].index(
            (df, dr)
        )
    else:
        n = max(abs(df), abs(dr))
        direction = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)].index(
            (df // n, dr // n)
        )
        plane = direction * 7 + n - 1
    return plane * 64 + f


def test_policy_indices_both_ways() -> None:
    assert len(lc0_table_reference()) == planes.LC0_POLICY
    checked = 0
    for ref, mine in random_games(80, SEED + 1):
        lc0: dict[int, str] = {}
        az: dict[int, str] = {}
        for move in ref.legal_moves:
            m = shatranj.Move.from_uci(move.uci())
            i = planes.lc0_move_index(mine, m)
            assert i == lc0_index_reference(ref, move), (ref.fen(), move)
            j = planes.alphazero_move_index(mine, m)
            assert j == alphazero_index_reference(ref, move), (ref.fen(), move)
            assert i not in lc0 and j not in az
            lc0[i] = az[j] = move.uci()
            back: shatranj.Move | None = planes.lc0_index_move(mine, i)
            assert back is not None and back.uci() == move.uci()
            back = planes.alphazero_index_move(mine, j)
            assert back is not None and back.uci() == move.uci()
            checked += 1
        assert {i: m.uci() for i, m in planes.lc0_legal(mine).items()} == lc0
        assert {i: m.uci() for i, m in planes.alphazero_legal(mine).items()} == az
    assert checked > 1000
    start = shatranj.Board()
    assert planes.lc0_index_move(start, lc0_table_reference().index("a1b1")) is None
    with pytest.raises(ValueError, match="out of range"):
        planes.lc0_index_move(start, 1858)
    with pytest.raises(ValueError, match="not a legal move"):
        planes.alphazero_move_index(start, shatranj.Move.from_uci("e2e5"))
    with pytest.raises(TypeError):
        planes.lc0(["not a board"])  # type: ignore[list-item]

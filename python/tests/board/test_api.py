"""The python-chess names and values: constants, square helpers, Move, Piece, SquareSet,
Termination/Outcome and the legal-move views."""

from __future__ import annotations

import random

import chess
import chess.polyglot
import pytest

import shatranj
import shatranj.polyglot

CONSTANTS = [
    "WHITE", "BLACK", "COLORS", "COLOR_NAMES", "PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN",
    "KING", "PIECE_TYPES", "PIECE_SYMBOLS", "PIECE_NAMES", "UNICODE_PIECE_SYMBOLS",
    "FILE_NAMES", "RANK_NAMES", "STARTING_FEN", "STARTING_BOARD_FEN", "SQUARES",
    "SQUARE_NAMES", "SQUARES_180",
] + [name.upper() for name in chess.SQUARE_NAMES]  # fmt: skip


@pytest.mark.parametrize("name", CONSTANTS)
def test_constants_equal_python_chess(name: str) -> None:
    assert getattr(shatranj, name) == getattr(chess, name)


def test_square_helpers_equal_python_chess() -> None:
    for sq in chess.SQUARES:
        assert shatranj.square_name(sq) == chess.square_name(sq)
        assert shatranj.parse_square(chess.square_name(sq)) == sq
        assert shatranj.square_file(sq) == chess.square_file(sq)
        assert shatranj.square_rank(sq) == chess.square_rank(sq)
        assert shatranj.square(chess.square_file(sq), chess.square_rank(sq)) == sq
        assert shatranj.square_mirror(sq) == chess.square_mirror(sq)
        for other in (0, 27, 63):
            assert shatranj.square_distance(sq, other) == chess.square_distance(sq, other)
            assert shatranj.square_manhattan_distance(sq, other) == chess.square_manhattan_distance(
                sq, other
            )
    for t in chess.PIECE_TYPES:
        assert shatranj.piece_symbol(t) == chess.piece_symbol(t)
        assert shatranj.piece_name(t) == chess.piece_name(t)


def test_moves_compare_by_value_and_built_moves_equal_listed_ones() -> None:
    board = shatranj.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    castle = shatranj.Move(shatranj.E1, shatranj.G1)
    assert castle in board.legal_moves and castle in list(board.legal_moves)
    listed = next(m for m in board.legal_moves if m == castle)
    assert hash(listed) == hash(castle) and listed is not castle
    assert {castle, listed} == {castle}
    assert castle != shatranj.Move(shatranj.E1, shatranj.G1, shatranj.QUEEN)
    assert castle != "e1g1" and castle != chess.Move(chess.E1, chess.G1)
    assert (castle.from_square, castle.to_square, castle.promotion, castle.drop) == (
        4,
        6,
        None,
        None,
    )
    promo = shatranj.Move.from_uci("a7a8n")
    assert promo.promotion == shatranj.KNIGHT and promo.uci() == "a7a8n"
    assert not shatranj.Move.null() and shatranj.Move.null().uci() == "0000"
    assert shatranj.Move.from_uci("0000") == shatranj.Move.null()
    assert bool(castle)
    assert (
        shatranj.Move.from_uci("e2e4").xboard() == "e2e4"
        and shatranj.Move.null().xboard() == "@@@@"
    )
    # Listed moves are interned: iteration hands out the same objects every time.
    first = list(board.legal_moves)
    assert all(a is b for a, b in zip(first, list(board.legal_moves)))


def test_uci_round_trip_of_every_move_shape() -> None:
    rng = random.Random(5)
    print("seed 5")
    for _ in range(2000):
        frm, to = rng.sample(range(64), 2)
        promo = rng.choice([None, 1, 2, 3, 4, 5, 6])
        ours = shatranj.Move(frm, to, promo)
        ref = chess.Move(frm, to, promo)
        assert ours.uci() == ref.uci()
        assert shatranj.Move.from_uci(ref.uci()) == ours
        assert repr(ours) == repr(ref) and str(ours) == str(ref)


def test_pieces_like_python_chess() -> None:
    for symbol in "PNBRQKpnbrqk":
        ours, ref = shatranj.Piece.from_symbol(symbol), chess.Piece.from_symbol(symbol)
        assert (ours.piece_type, ours.color) == (ref.piece_type, ref.color)
        assert ours.symbol() == ref.symbol() and ours.unicode_symbol() == ref.unicode_symbol()
        assert hash(ours) == hash(ref)
        assert shatranj.Piece(ref.piece_type, ref.color) == ours
    with pytest.raises(ValueError):
        shatranj.Piece.from_symbol("x")


def test_square_sets_like_python_chess() -> None:
    board, ref = shatranj.Board(), chess.Board()
    ours_set = board.pieces(shatranj.PAWN, shatranj.WHITE)
    ref_set = ref.pieces(chess.PAWN, chess.WHITE)
    assert list(ours_set) == list(ref_set) and len(ours_set) == len(ref_set)
    assert list(reversed(ours_set)) == list(reversed(ref_set))
    assert int(ours_set | shatranj.SquareSet([0])) == int(ref_set | chess.SquareSet([0]))
    assert int(ours_set & 0xFF00) == int(ref_set & 0xFF00)
    assert int(ours_set - [8, 9]) == int(ref_set - [8, 9])
    assert int(~ours_set) == int(~ref_set)
    assert 12 in ours_set and 28 not in ours_set
    assert (
        ours_set == int(ref_set)
        and str(ours_set) == str(ref_set)
        and repr(ours_set) == repr(ref_set)
    )
    assert ours_set.tolist() == ref_set.tolist()
    s = shatranj.SquareSet()
    s.add(5)
    s.discard(6)
    assert s.pop() == 5 and not s
    assert board.pieces_mask(shatranj.KING, shatranj.BLACK) == ref.pieces_mask(
        chess.KING, chess.BLACK
    )


def test_termination_and_outcome_like_python_chess() -> None:
    # python-chess's members, with its values, then the endings only a Game with an arbiter has.
    ours, theirs = list(shatranj.Termination), list(chess.Termination)
    assert [t.name for t in ours[: len(theirs)]] == [t.name for t in theirs]
    assert [t.value for t in ours[: len(theirs)]] == [t.value for t in theirs]
    assert [t.name for t in ours[len(theirs) :]] == [
        "RESIGNATION", "TIME_FORFEIT", "AGREEMENT", "ILLEGAL_MOVES", "DEAD_POSITION"
    ]  # fmt: skip
    mate = shatranj.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    outcome = mate.outcome()
    assert outcome == shatranj.Outcome(shatranj.Termination.CHECKMATE, shatranj.BLACK)
    assert outcome is not None and outcome.result() == "0-1" and mate.result() == "0-1"
    assert shatranj.Board().outcome() is None and shatranj.Board().result() == "*"


def test_views_and_find_move() -> None:
    board = shatranj.Board("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    view = board.legal_moves
    assert view.board is board
    assert len(view) == view.count() == len(list(view)) and bool(view)
    assert board.find_move(shatranj.E7, shatranj.E8) == shatranj.Move.from_uci("e7e8q")
    assert board.find_move(shatranj.E7, shatranj.E8, shatranj.KNIGHT).uci() == "e7e8n"
    with pytest.raises(shatranj.IllegalMoveError):
        board.find_move(shatranj.E1, shatranj.E3)
    assert list(board.generate_legal_moves()) == list(view)
    assert 5 not in view  # not a move: simply not contained
    stalemate = shatranj.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert not stalemate.legal_moves and stalemate.legal_moves.count() == 0
    pinned = shatranj.Board("4k3/8/8/8/4n3/8/8/4RK2 b - - 0 1")
    knight_move = shatranj.Move.from_uci("e4d2")
    assert knight_move in pinned.pseudo_legal_moves and knight_move not in pinned.legal_moves
    assert pinned.is_pseudo_legal(knight_move) and not pinned.is_legal(knight_move)
    assert (
        len(pinned.pseudo_legal_moves)
        == pinned.pseudo_legal_moves.count()
        == len(pinned.legal_moves) + 8
    )


def test_polyglot_keys_equal_python_chess() -> None:
    for fen in [
        chess.STARTING_FEN,
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2",
    ]:
        assert shatranj.polyglot.zobrist_hash(shatranj.Board(fen)) == chess.polyglot.zobrist_hash(
            chess.Board(fen)
        )
    with pytest.raises(TypeError):
        shatranj.polyglot.zobrist_hash(chess.Board())  # type: ignore[arg-type]


def test_fen_modes() -> None:
    fen = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2"
    ours, ref = shatranj.Board(fen), chess.Board(fen)
    for mode in ("legal", "fen", "xfen"):
        assert ours.fen(en_passant=mode) == ref.fen(en_passant=mode)  # type: ignore[arg-type]
        assert ours.epd(en_passant=mode) == ref.epd(en_passant=mode)  # type: ignore[arg-type]
    ours.set_fen(chess.STARTING_FEN)
    assert ours.fen() == chess.STARTING_FEN and ours.move_stack == []


def test_is_legal_agrees_with_python_chess_on_every_move_shape() -> None:
    """Every (from, to) pair, with every promotion piece where a pawn stands, judged by
    `is_legal` (push's check) in positions from seeded random games, including castling
    written king-takes-rook and promotions without a piece."""
    seed = 99
    print(f"seed {seed}")
    rng = random.Random(seed)
    fens = [
        chess.STARTING_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 0 1",
        "4k3/8/8/8/8/8/8/R4K1R w - - 0 1",
    ]
    positions = []
    for fen in fens:
        ref = chess.Board(fen)
        for _ in range(5):
            positions.append(ref.copy(stack=False))
            moves = list(ref.legal_moves)
            if not moves:
                break
            ref.push(rng.choice(moves))
    checked = 0
    for ref in positions:
        ours = shatranj.Board(ref.fen(en_passant="fen"))
        for frm in chess.SQUARES:
            promotions = [None, 1, 2, 3, 4, 5, 6] if ref.pawns & chess.BB_SQUARES[frm] else [None]
            for to in chess.SQUARES:
                for promo in promotions:
                    legal = ref.is_legal(chess.Move(frm, to, promo))
                    move = shatranj.Move(frm, to, promo)
                    assert ours.is_legal(move) == legal, (
                        ref.fen(),
                        chess.Move(frm, to, promo).uci(),
                    )
                    assert (move in ours.legal_moves) == legal
                    checked += 1
        for ref_move in ref.legal_moves:
            probe = ours.copy()
            probe.push(shatranj.Move(ref_move.from_square, ref_move.to_square, ref_move.promotion))
            after = ref.copy()
            after.push(ref_move)
            assert probe.fen() == after.fen()
    assert checked > 100_000


def test_push_and_pop_calls_like_python_chess() -> None:
    """push and pop are plain CPython methods (rust/python/src/rules/hot_methods.rs): the calls
    python-chess allows work, every other call raises a typed error, and the signatures read
    as python-chess's."""
    import inspect

    board = shatranj.Board()
    e4 = shatranj.Move.from_uci("e2e4")
    board.push(e4)
    board.push(move=shatranj.Move.from_uci("e7e5"))
    shatranj.Board.push(board, shatranj.Move.from_uci("g1f3"))
    assert [m.uci() for m in board.move_stack] == ["e2e4", "e7e5", "g1f3"]
    assert board.pop() == shatranj.Move.from_uci("g1f3")
    assert shatranj.Board.pop(board).uci() == "e7e5"
    for bad_call in (
        lambda: board.push(),  # type: ignore[call-arg]
        lambda: board.push(e4, e4),  # type: ignore[call-arg]
        lambda: board.push(mv=e4),  # type: ignore[call-arg]
        lambda: board.push(e4, move=e4),  # type: ignore[call-arg,misc]
        lambda: board.push("e7e5"),  # type: ignore[arg-type]
        lambda: board.push(chess.Move.from_uci("e7e5")),  # type: ignore[arg-type]
        lambda: board.pop(1),  # type: ignore[call-arg]
        lambda: shatranj.Board.push(chess.Board(), e4),  # type: ignore[arg-type]
        lambda: shatranj.Board.pop(None),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError):
            bad_call()
    with pytest.raises(shatranj.IllegalMoveError):
        board.push(e4)
    assert board.pop() == e4
    with pytest.raises(IndexError):
        board.pop()
    assert board.fen() == chess.STARTING_FEN
    assert list(inspect.signature(shatranj.Board.push).parameters) == ["self", "move"]
    assert list(inspect.signature(shatranj.Board.pop).parameters) == ["self"]
    # Setup mode (a board the rules do not allow) still hands both calls to its setup board.
    setup = shatranj.Board("8/8/8/8/8/8/8/K7 w - - 0 1")
    setup.push(shatranj.Move.from_uci("a1a2"))
    assert setup.pop() == shatranj.Move.from_uci("a1a2")


def test_argument_free_fast_paths_answer_every_call_like_python_chess() -> None:
    """fen(), is_game_over() and to_planes() without arguments are answered directly
    (rust/python/src/hot_methods.rs) and every other call by the method they stand in for:
    the options still work, a wrong call raises the same TypeError, and the signatures read
    as python-chess's. Seeded random games (seed 52) check the answers against python-chess
    in both ways of calling."""
    import inspect

    import numpy as np

    rng = random.Random(52)
    print("seed 52")
    checked = 0
    for _ in range(20):
        ref = chess.Board()
        ours = shatranj.Board()
        while not ref.is_game_over() and ref.ply() < 300:
            # The board that played the game, and one read from its FEN (no history).
            for board, want in ((ours, ref), (shatranj.Board(ref.fen()), chess.Board(ref.fen()))):
                assert board.fen() == want.fen()
                assert board.is_game_over() == want.is_game_over()
                assert board.is_game_over(claim_draw=True) == want.is_game_over(claim_draw=True)
                assert board.fen(en_passant="fen") == want.fen(en_passant="fen")
                assert board.fen(shredder=True, en_passant="xfen") == want.fen(
                    shredder=True, en_passant="xfen"
                )
            planes = ours.to_planes()
            assert planes.shape == (12, 8, 8) and planes.dtype == np.uint8
            for square, piece in ref.piece_map().items():
                plane = (0 if piece.color else 6) + piece.piece_type - 1
                assert planes[plane, square // 8, square % 8] == 1
            assert int(planes.sum()) == len(ref.piece_map())
            move = rng.choice(list(ref.legal_moves))
            ref.push(move)
            ours.push(shatranj.Move.from_uci(move.uci()))
            checked += 1
        assert ours.is_game_over() == ref.is_game_over()
        assert shatranj.Board.fen(ours) == ref.fen()
    assert checked > 2000
    board = shatranj.Board()
    for bad_call in (
        lambda: board.fen(True),  # type: ignore[misc]
        lambda: board.fen(shreder=True),  # type: ignore[call-arg]
        lambda: board.is_game_over(True),  # type: ignore[misc]
        lambda: board.to_planes(1),  # type: ignore[call-arg]
        lambda: board.to_planes(out=None),  # type: ignore[call-arg]
        lambda: shatranj.Board.fen(chess.Board()),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError):
            bad_call()
    with pytest.raises(ValueError, match="en_passant"):
        board.fen(en_passant="sometimes")  # type: ignore[arg-type]
    assert list(inspect.signature(shatranj.Board.fen).parameters) == [
        "self", "shredder", "en_passant", "promoted"
    ]  # fmt: skip
    assert list(inspect.signature(shatranj.Board.is_game_over).parameters) == [
        "self", "claim_draw"
    ]  # fmt: skip
    # Setup mode answers through its own representation, fast path or not.
    setup = shatranj.Board("8/8/8/8/8/8/8/K7 w - - 0 1")
    assert setup.fen() == "8/8/8/8/8/8/8/K7 w - - 0 1" == setup.fen(promoted=False)
    assert setup.is_game_over() == chess.Board("8/8/8/8/8/8/8/K7 w - - 0 1").is_game_over()

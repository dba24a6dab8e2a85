"""Setup mode's whole board API against python-chess (issue 38 step 5, issue 35 step 4).

Setup mode holds the rules crate's ``Setup`` and its move stack in Rust (board/setup_mode.rs);
every method answers from it. Seeded random illegal placements (no king, extra pieces, pawns
on a back rank, the side not to move in check) are played move by move on both boards, and
each method of the python-chess API is compared; then the edit methods, which move a board
between setup mode and the native board, are compared on both kinds of board.
"""

from __future__ import annotations

import copy
import pickle
import random

import chess
import pytest

import shatranj


def _random_setup(rng: random.Random) -> chess.Board:
    ref = chess.Board(None)
    for _ in range(rng.randrange(2, 12)):
        ref.set_piece_at(rng.randrange(64), chess.Piece(rng.randrange(1, 7), rng.random() < 0.5))
    ref.turn = rng.random() < 0.5
    ref.halfmove_clock = rng.choice([0, 7, 99, 100, 149, 150])
    return ref


def _mv(move: chess.Move) -> shatranj.Move:
    return shatranj.Move.from_uci(move.uci())


def _symbol(piece: object) -> object:
    """A piece as its letter (shatranj's and python-chess's pieces are different classes)."""
    return piece.symbol() if piece is not None and hasattr(piece, "symbol") else piece


def _same_position(board: shatranj.Board, ref: chess.Board) -> None:
    assert board.fen() == ref.fen()
    assert board.fen(en_passant="fen") == ref.fen(en_passant="fen")
    assert board.epd() == ref.epd()
    assert board.board_fen() == ref.board_fen()
    assert repr(board) == repr(ref)
    assert str(board) == str(ref)
    assert board.unicode(invert_color=True, empty_square=".") == ref.unicode(
        invert_color=True, empty_square="."
    )
    assert [m.uci() for m in board.legal_moves] == [m.uci() for m in ref.legal_moves]
    assert sorted(m.uci() for m in board.pseudo_legal_moves) == sorted(
        m.uci() for m in ref.pseudo_legal_moves
    )
    assert board.legal_moves.count() == ref.legal_moves.count()
    assert int(board.status()) == int(ref.status())
    assert board.is_valid() == ref.is_valid()
    assert board.is_check() == ref.is_check()
    assert int(board.checkers()) == int(ref.checkers())
    assert board.is_checkmate() == ref.is_checkmate()
    assert board.is_stalemate() == ref.is_stalemate()
    assert board.is_insufficient_material() == ref.is_insufficient_material()
    assert board.is_fifty_moves() == ref.is_fifty_moves()
    assert board.is_seventyfive_moves() == ref.is_seventyfive_moves()
    assert board.can_claim_draw() == ref.can_claim_draw()
    assert board.is_repetition(3) == ref.is_repetition(3)
    assert board.result(claim_draw=True) == ref.result(claim_draw=True)
    assert board.is_game_over() == ref.is_game_over()
    outcome, ref_outcome = board.outcome(), ref.outcome()
    assert (outcome is None) == (ref_outcome is None)
    if outcome is not None and ref_outcome is not None:
        assert (outcome.termination.name, outcome.winner) == (
            ref_outcome.termination.name,
            ref_outcome.winner,
        )
    assert board.clean_castling_rights() == ref.clean_castling_rights()
    assert board.has_chess960_castling_rights() == ref.has_chess960_castling_rights()
    assert board.ply() == ref.ply()
    for color in (chess.WHITE, chess.BLACK):
        assert board.king(color) == ref.king(color)
        assert board.has_insufficient_material(color) == ref.has_insufficient_material(color)
        assert board.has_castling_rights(color) == ref.has_castling_rights(color)
        assert board.has_kingside_castling_rights(color) == ref.has_kingside_castling_rights(color)
        assert board.has_queenside_castling_rights(color) == ref.has_queenside_castling_rights(
            color
        )
    for square in range(0, 64, 5):
        assert _symbol(board.piece_at(square)) == _symbol(ref.piece_at(square))
        assert int(board.attackers(chess.WHITE, square)) == int(ref.attackers(chess.WHITE, square))
        assert board.is_attacked_by(chess.BLACK, square) == ref.is_attacked_by(chess.BLACK, square)
        assert int(board.attacks(square)) == int(ref.attacks(square))
        assert int(board.pin(board.turn, square)) == int(ref.pin(ref.turn, square))
        assert board.is_pinned(board.turn, square) == ref.is_pinned(ref.turn, square)
    for move in ref.legal_moves:
        m = _mv(move)
        assert board.san(m) == ref.san(move)
        assert board.lan(m) == ref.lan(move)
        assert board.is_capture(m) == ref.is_capture(move)
        assert board.is_zeroing(m) == ref.is_zeroing(move)
        assert board.is_castling(m) == ref.is_castling(move)
        assert board.is_en_passant(m) == ref.is_en_passant(move)
        assert board.gives_check(m) == ref.gives_check(move)
        assert board.parse_san(ref.san(move)) == m


@pytest.mark.parametrize("seed", range(4))
def test_setup_mode_games_match_python_chess(seed: int) -> None:
    rng = random.Random(3800 + seed)
    print("seed", 3800 + seed)
    played = 0
    for _ in range(12):
        ref = _random_setup(rng)
        board = shatranj.Board(ref.fen())
        if board._setup is None:
            continue
        _same_position(board, ref)
        for _ in range(5):
            moves = list(ref.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            assert board.variation_san([_mv(move)]) == ref.variation_san([move])
            board.push(_mv(move))
            ref.push(move)
            played += 1
            assert board.peek() == _mv(ref.peek())
            assert [m.uci() for m in board.move_stack] == [m.uci() for m in ref.move_stack]
            _same_position(board, ref)
        assert board.root().fen() == ref.root().fen()
        for keep in (0, 1, True, False):
            other, ref_other = board.copy(stack=keep), ref.copy(stack=keep)
            assert other.fen() == ref_other.fen() and len(other.move_stack) == len(
                ref_other.move_stack
            )
            assert other.root().fen() == ref_other.root().fen()
        assert copy.deepcopy(board).move_stack == board.move_stack
        assert board.mirror().fen() == ref.mirror().fen()
        again = pickle.loads(pickle.dumps(board))
        assert again.fen() == board.fen() and again.chess960 == board.chess960
        while ref.move_stack:
            assert board.pop() == _mv(ref.pop())
            _same_position(board, ref)
        with pytest.raises(IndexError):
            board.pop()
    assert played > 0


# Setups where a key can name a castling (either notation), a promotion or a king move beside
# a castling, and a random one.
KEYED = [
    "r2pk2r/1P4P1/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/1p4p1/R2PK2R b KQkq - 0 1",
    "1rkpr3/P7/8/8/8/8/8/1RK1R2Q w BEbe - 0 1",
    "4k3/8/8/8/8/8/8/RN2K1PR w KQ - 0 1",
]


@pytest.mark.parametrize("fen", KEYED + ["random"])
def test_setup_mode_finds_a_move_by_its_kept_list_as_without_it(fen: str) -> None:
    """A setup answers whether a move is legal from its legal moves once listed (an index by
    origin square), else from the moving piece's moves: both must agree, on every key from a
    piece of the side to move (each promotion piece, and none), and with python-chess's list."""
    if fen == "random":
        rng = random.Random(3810)
        print("seed", 3810)
        ref = _random_setup(rng)
        while shatranj.Board(ref.fen())._setup is None:
            ref = _random_setup(rng)
    else:
        ref = chess.Board(fen, chess960="BE" in fen)
    fresh = shatranj.Board(ref.fen(), chess960=ref.chess960)
    listed = shatranj.Board(ref.fen(), chess960=ref.chess960)
    assert fresh._setup is not None
    legal = {m.uci() for m in ref.legal_moves}
    assert {m.uci() for m in listed.legal_moves} == legal
    for origin in chess.SquareSet(ref.occupied_co[ref.turn]):
        for target in chess.SQUARES:
            for promotion in (
                None,
                chess.KNIGHT,
                chess.BISHOP,
                chess.ROOK,
                chess.QUEEN,
                chess.KING,
            ):
                m = shatranj.Move(origin, target, promotion)
                assert listed.is_legal(m) == fresh.is_legal(m), m.uci()
                if m.uci() in legal:
                    assert listed.is_legal(m), m.uci()
    for move in ref.legal_moves:
        listed.push(_mv(move))
        ref.push(move)
        assert listed.fen() == ref.fen()
        listed.pop()
        ref.pop()


def test_setup_mode_refuses_illegal_moves_and_native_only_methods() -> None:
    board = shatranj.Board("8/8/8/8/8/8/8/K6k w - - 0 1")  # kings only: legal
    assert board._setup is None
    board = shatranj.Board("4k3/8/8/8/8/8/8/QQQQQQQQ w - - 0 1")  # eight queens and no white king
    assert board._setup is not None
    with pytest.raises(shatranj.IllegalMoveError):
        board.push(shatranj.Move.from_uci("e8e7"))  # not White's move
    with pytest.raises(shatranj.InvalidMoveError):
        board.push_san("Qa9")
    with pytest.raises(shatranj.IllegalMoveError):
        board.push_san("Ke2")  # White has no king
    with pytest.raises(ValueError):
        board.parse_uci("a1a9")
    for name in ("zobrist_hash", "is_dead_position"):
        with pytest.raises(ValueError, match="setup mode"):
            getattr(board, name)()
    with pytest.raises(ValueError, match="setup mode"):
        board.can_checkmate(chess.WHITE)


EDITS = [
    lambda b: b.set_piece_at(chess.E4, chess.Piece(chess.QUEEN, chess.WHITE)),
    lambda b: b.set_piece_at(chess.E1, None),
    lambda b: b.set_piece_at(chess.A8, chess.Piece(chess.PAWN, chess.BLACK)),
    lambda b: b.set_piece_at(chess.D5, chess.Piece(chess.KNIGHT, chess.BLACK), promoted=True),
    lambda b: b.remove_piece_at(chess.E8),
    lambda b: b.set_piece_map(
        {
            chess.E1: chess.Piece(chess.KING, chess.WHITE),
            chess.E8: chess.Piece(chess.KING, chess.BLACK),
        }
    ),
    lambda b: b.set_piece_map({}),
    lambda b: b.set_board_fen("4k3/8/8/8/8/8/8/R3K2R"),
    lambda b: b.set_board_fen("4k3/8/8/8/8/8/8/R3K2Q~"),
    lambda b: b.clear_board(),
    lambda b: b.clear(),
    lambda b: b.set_castling_fen("KQ"),
    lambda b: b.set_castling_fen("-"),
    lambda b: b.set_chess960_pos(0),
    lambda b: b.set_chess960_pos(518),
    # The attributes from here (see ATTRIBUTES).
    lambda b: setattr(b, "turn", not b.turn),
    lambda b: setattr(b, "ep_square", chess.E3),
    lambda b: setattr(b, "castling_rights", chess.BB_H1 | chess.BB_A8),
    lambda b: setattr(b, "halfmove_clock", 42),
    lambda b: setattr(b, "fullmove_number", 7),
]

ATTRIBUTES = 15

STARTS = [
    chess.STARTING_FEN,
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/QQQQQQQQ w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 3 9",
]


@pytest.mark.parametrize("index", range(len(EDITS)))
def test_edits_match_python_chess(index: int) -> None:
    edit = EDITS[index]
    for fen in STARTS:
        for chess960 in (False, True):
            ref = chess.Board(fen, chess960=chess960)
            board = shatranj.Board(fen, chess960=chess960)
            # python-chess's edits clear the stack; its attributes are plain attributes that
            # keep it, where the board clears it too (deliberate), so a stack is played
            # before the edit methods only.
            if ref.is_valid() and index < ATTRIBUTES:
                ref.push(next(iter(ref.legal_moves)))
                board.push(shatranj.Move.from_uci(ref.peek().uci()))
            assert _symbol(edit(board)) == _symbol(edit(ref))
            assert board.move_stack == [] and ref.move_stack == []
            assert board.fen() == ref.fen(), (fen, chess960)
            assert board.board_fen(promoted=True) == ref.board_fen(promoted=True)
            assert board.promoted == ref.promoted
            assert board.castling_rights == ref.castling_rights
            assert board.ep_square == ref.ep_square
            assert board.chess960 == ref.chess960
            assert int(board.status()) == int(ref.status())
            assert board.clean_castling_rights() == ref.clean_castling_rights()
            assert board.has_chess960_castling_rights() == ref.has_chess960_castling_rights()
            assert [m.uci() for m in board.legal_moves] == [m.uci() for m in ref.legal_moves]
            # Legal again means the native board (the hot path), exactly when the rules allow.
            if ref.is_valid() and not ref.promoted:
                assert board._setup is None


def test_chess960_start_positions_and_bad_edits() -> None:
    for n in (0, 1, 517, 518, 959):
        board, ref = shatranj.Board.from_chess960_pos(n), chess.Board.from_chess960_pos(n)
        assert board.fen() == ref.fen() and board.chess960 and board._setup is None
    with pytest.raises(ValueError):
        shatranj.Board().set_chess960_pos(960)
    with pytest.raises(IndexError):
        shatranj.Board().set_piece_at(64, shatranj.Piece(shatranj.PAWN, shatranj.WHITE))
    with pytest.raises(IndexError):
        shatranj.Board().remove_piece_at(-1)
    with pytest.raises(ValueError):
        shatranj.Board().set_board_fen("8/8/8 w")
    with pytest.raises(ValueError):
        shatranj.Board().set_castling_fen("KQX")
    with pytest.raises(ValueError):
        shatranj.Board().halfmove_clock = -1  # type: ignore[misc]

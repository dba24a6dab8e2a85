"""Pickling, copies, the move stack and conversion to and from python-chess."""

from __future__ import annotations

import copy
import pickle

import chess
import pytest

import shatranj

SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]


def shuffled_board() -> shatranj.Board:
    board = shatranj.Board()
    # The first Ng8 is no repetition of the position after ...c5 (there dxc6 e.p. was
    # legal), so three knight tours make the third occurrence.
    for san in ["e4", "d5", "exd5", "c5"] + SHUFFLE + SHUFFLE[:4]:
        board.push_san(san)
    return board


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_keeps_root_stack_and_repetition_history(protocol: int) -> None:
    board = shuffled_board()
    assert board.is_repetition(3)
    assert chess.Board.is_repetition(board.to_chess(), 3)
    clone = pickle.loads(pickle.dumps(board, protocol=protocol))
    assert type(clone) is shatranj.Board
    assert clone.fen() == board.fen()
    assert clone.move_stack == board.move_stack
    assert clone.root().fen() == board.root().fen()
    assert clone.is_repetition(3) and clone.can_claim_threefold_repetition()
    assert clone == board


def test_pickle_of_a_board_set_up_from_a_fen_keeps_its_en_passant_square() -> None:
    board = shatranj.Board("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
    board.push_san("Nf3")
    clone = pickle.loads(pickle.dumps(board))
    assert clone.root().fen(en_passant="fen") == board.root().fen(en_passant="fen")
    assert clone.root().has_legal_en_passant()


def test_moves_and_pieces_pickle_and_copy() -> None:
    move = shatranj.Move(52, 60, shatranj.QUEEN)
    assert pickle.loads(pickle.dumps(move)) == move
    assert copy.copy(move) is move and copy.deepcopy(move) is move
    piece = shatranj.Piece.from_symbol("n")
    assert pickle.loads(pickle.dumps(piece)) == piece


def test_copy_stack_options() -> None:
    board = shuffled_board()
    full = board.copy()
    assert full.move_stack == board.move_stack and full is not board
    assert board.copy(stack=True).move_stack == board.move_stack
    bare = board.copy(stack=False)
    assert bare.move_stack == [] and bare.fen() == board.fen()
    assert not bare.is_repetition(2)
    last3 = board.copy(stack=3)
    assert last3.move_stack == board.move_stack[-3:]
    assert last3.fen() == board.fen()
    three_back = board.copy()
    for _ in range(3):
        three_back.pop()
    assert last3.root().fen() == three_back.fen()
    assert copy.copy(board).move_stack == board.move_stack
    assert copy.deepcopy(board).move_stack == board.move_stack
    full.pop()
    assert len(board.move_stack) == len(full.move_stack) + 1, "copies are independent"


def test_stack_operations_follow_python_chess() -> None:
    ours, ref = shatranj.Board(), chess.Board()
    for san in ["e4", "e5", "Nf3"]:
        ours.push_san(san)
        ref.push_san(san)
    assert ours.ply() == ref.ply() == 3
    assert ours.peek().uci() == ref.peek().uci()
    assert ours.pop().uci() == ref.pop().uci()
    assert ours.fen() == ref.fen()
    ours.clear_stack()
    ref.clear_stack()
    assert ours.move_stack == [] and ours.fen() == ref.fen()
    assert ours.root().fen() == ours.fen()
    assert ours.mirror().fen() == ref.mirror().fen()
    ours.reset_board()
    assert ours.fen() == shatranj.STARTING_FEN


def test_castling_written_as_king_takes_rook_is_accepted() -> None:
    board = shatranj.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    e1h1 = shatranj.Move.from_uci("e1h1")
    assert board.is_legal(e1h1) and board.is_castling(e1h1) and board.is_kingside_castling(e1h1)
    board.push(e1h1)
    assert board.peek().uci() == "e1g1"
    assert board.push_uci("e8c8").uci() == "e8c8"
    assert board.board_fen() == "2kr3r/8/8/8/8/8/8/R4RK1"


def test_equality_is_python_chess_board_equality() -> None:
    a = shatranj.Board()
    b = shatranj.Board()
    for san in SHUFFLE[:4]:
        b.push_san(san)
    # Same position, same clocks? No: the halfmove clock and fullmove number moved on.
    assert a != b
    assert shatranj.Board(b.fen()) == b
    assert a != "not a board"
    with pytest.raises(TypeError):
        hash(a)


def test_conversion_to_and_from_python_chess() -> None:
    ref = chess.Board("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
    for san in ["exf6", "Nxf6", "Nf3", "Ng8", "Ng1", "Nf6", "Nf3", "Ng8", "Ng1"]:
        ref.push_san(san)
    ours = shatranj.Board.from_chess(ref)
    assert ours.fen() == ref.fen()
    assert [m.uci() for m in ours.move_stack] == [m.uci() for m in ref.move_stack]
    assert ours.is_repetition(3) == ref.is_repetition(3)
    back = ours.to_chess()
    assert isinstance(back, chess.Board)
    assert back.fen() == ref.fen() and back.move_stack == ref.move_stack
    assert back.root().fen(en_passant="fen") == ref.root().fen(en_passant="fen")


def test_text_renderings_match_python_chess() -> None:
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    ours, ref = shatranj.Board(fen), chess.Board(fen)
    assert str(ours) == str(ref)
    assert repr(ours) == repr(ref)
    for kwargs in [
        {},
        {"borders": True},
        {"invert_color": True, "orientation": False},
        {"borders": True, "orientation": False, "empty_square": "."},
    ]:
        assert ours.unicode(**kwargs) == ref.unicode(**kwargs), kwargs  # type: ignore[arg-type]
    move = ours.parse_san("O-O")
    assert repr(move) == repr(ref.parse_san("O-O")) and str(move) == "e1g1"
    piece = ours.piece_at(shatranj.E1)
    assert piece is not None
    assert repr(piece) == repr(ref.piece_at(chess.E1)) and str(piece) == "K"
    assert piece.unicode_symbol() == "♔" and piece.unicode_symbol(invert_color=True) == "♚"
    assert repr(ours.checkers()) == repr(ref.checkers())
    assert str(ours.attackers(shatranj.WHITE, shatranj.E5)) == str(
        ref.attackers(chess.WHITE, chess.E5)
    )
    generator = repr(ours.legal_moves)
    assert generator.startswith("<LegalMoveGenerator at 0x") and "O-O-O" in generator

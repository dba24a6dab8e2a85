"""A board's life from Python: creation and deallocation through the class's own slots
(`rules/board_freelist.rs`: a free list behind `tp_alloc`/`tp_free`, a plain `tp_dealloc`).

What could go wrong there and what each test would show: a reference to the class taken or
released once too often per board (the class's reference count drifts), a reused board that
keeps something of the board whose memory it took (its position, its moves, its legal-move
cache), or a value dropped at the wrong offset (wrong answers or a crash)."""

import gc
import sys

import shatranj as chess

AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def _make_and_drop(n: int) -> None:
    for _ in range(n):
        board = chess.Board(AFTER_E4)
        board.push_san("e5")
        copy = board.copy()
        copy.pop()
        del board, copy


def test_the_class_reference_count_does_not_drift() -> None:
    _make_and_drop(1)  # first-call caches (the interpreter's, the methods') settle
    gc.collect()
    before = sys.getrefcount(chess.Board)
    _make_and_drop(20_000)
    gc.collect()
    # Read before the assertion: pytest's rewritten `assert` holds the class in a temporary.
    after = sys.getrefcount(chess.Board)
    # One reference too many or too few per board would move it by 20,000 or more.
    assert after == before


def test_a_reused_board_starts_clean() -> None:
    for _ in range(50):
        # Boards with a history, a legal-move cache and a Setup-mode state, then dropped:
        # their memory is what the next boards are made in.
        played = chess.Board()
        for san in ("e4", "e5", "Nf3", "Nc6"):
            played.push_san(san)
        assert played.legal_moves.count() == 27
        odd = chess.Board("8/8/8/8/8/8/8/8 w - - 0 1")  # no kings: setup mode
        del played, odd
        fresh = chess.Board()
        assert fresh.move_stack == []
        assert fresh.fen() == chess.STARTING_FEN
        assert fresh.legal_moves.count() == 20
        with_fen = chess.Board(AFTER_E4)
        assert with_fen.fen() == AFTER_E4
        assert len(with_fen.move_stack) == 0
        assert with_fen.legal_moves.count() == 20


def test_many_boards_alive_at_once_are_distinct() -> None:
    boards = [chess.Board() for _ in range(100)]
    for i, board in enumerate(boards):
        if i % 2:
            board.push_san("e4")
    assert len({id(b) for b in boards}) == 100
    assert [len(b.move_stack) for b in boards] == [i % 2 for i in range(100)]
    del boards
    assert chess.Board().fen() == chess.STARTING_FEN

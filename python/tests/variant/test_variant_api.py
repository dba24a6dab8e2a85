"""``shatranj.variant``'s API beside python-chess's ``chess.variant`` (issue 54): names and
aliases, typed errors for bad input, edits (pieces, pockets, remaining checks), copies, EPD,
status flags, and seeded mutated FENs that give a board or a ``ValueError``, never a crash.
python-chess's own variant test classes run in ``compat/test_python_chess_suite.py``."""

from __future__ import annotations

import random

import chess
import chess.variant
import pytest

import shatranj
import shatranj.variant

SEED = 540


def test_names_and_aliases_are_python_chess_s() -> None:
    assert len(shatranj.variant.VARIANTS) == len(chess.variant.VARIANTS)
    for ours, theirs in zip(shatranj.variant.VARIANTS[1:], chess.variant.VARIANTS[1:]):
        assert ours.__name__ == theirs.__name__
        for attr in ("aliases", "uci_variant", "xboard_variant", "starting_fen", "tbw_suffix"):
            assert getattr(ours, attr) == getattr(theirs, attr), (ours.__name__, attr)
        for alias in theirs.aliases:
            assert shatranj.variant.find_variant(alias) is ours
            assert shatranj.variant.find_variant(alias.upper()) is ours
        assert ours().fen() == theirs().fen()
    assert shatranj.variant.find_variant("Standard") is shatranj.Board
    with pytest.raises(ValueError, match="unsupported variant"):
        shatranj.variant.find_variant("bughouse")


def test_bad_input_is_a_typed_error() -> None:
    board = shatranj.variant.AtomicBoard()
    with pytest.raises(ValueError):
        shatranj.variant.AtomicBoard("not a fen")
    with pytest.raises(shatranj.IllegalMoveError):
        board.push(shatranj.Move.from_uci("e2e5"))
    with pytest.raises(shatranj.IllegalMoveError):
        board.push_san("Nf6")
    with pytest.raises(shatranj.InvalidMoveError):
        board.parse_uci("e2")
    with pytest.raises(shatranj.InvalidMoveError):
        board.parse_san("")
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(ValueError):
        shatranj.variant.CrazyhouseBoard("8/8/8/8/8/8/8/8[Z] w - - 0 1")
    with pytest.raises(ValueError):
        shatranj.variant.ThreeCheckBoard("4k3/8/8/8/8/8/8/4K3 w - - 7+1 0 1")
    assert issubclass(shatranj.IllegalMoveError, ValueError)
    # Not a shatranj.Board (see the module docs); python-chess's is a chess.Board.
    assert not isinstance(board, shatranj.Board)
    assert isinstance(chess.variant.AtomicBoard(), chess.Board)


def test_edits_match_python_chess() -> None:
    ours, theirs = shatranj.variant.CrazyhouseBoard(), chess.variant.CrazyhouseBoard()
    for board, module in ((ours, shatranj), (theirs, chess)):
        board.push_san("e4")
        board.pockets[module.WHITE].add(module.KNIGHT)
        board.pockets[module.BLACK].add(module.PAWN)
    assert ours.fen() == theirs.fen()
    assert str(ours.pockets[True]) == str(theirs.pockets[True]) == "n"
    assert [m.uci() for m in ours.legal_moves] == [m.uci() for m in theirs.legal_moves]
    assert ours.pop().uci() == theirs.pop().uci() == "e2e4"
    assert ours.fen() == theirs.fen()
    for board, module in ((ours, shatranj), (theirs, chess)):
        board.push_san("d4")
        board.set_piece_at(module.A3, module.Piece.from_symbol("q"))
        board.remove_piece_at(module.H2)
        assert not board.move_stack
    assert ours.fen() == theirs.fen()
    assert [m.uci() for m in ours.legal_moves] == [m.uci() for m in theirs.legal_moves]
    three, pc_three = shatranj.variant.ThreeCheckBoard(), chess.variant.ThreeCheckBoard()
    three.remaining_checks[shatranj.WHITE] = 1
    pc_three.remaining_checks[chess.WHITE] = 1
    assert three.fen() == pc_three.fen()
    assert list(three.remaining_checks) == list(pc_three.remaining_checks)


def test_copies_epd_and_status_match_python_chess() -> None:
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    ours, theirs = shatranj.variant.KingOfTheHillBoard(fen), chess.variant.KingOfTheHillBoard(fen)
    for san in ("Bc4", "Nf6", "Ng5", "d5"):
        ours.push_san(san)
        theirs.push_san(san)
    assert ours.copy(stack=1).move_stack[0].uci() == theirs.copy(stack=1).move_stack[0].uci()
    assert ours.root().fen() == theirs.root().fen() == fen
    assert ours.mirror().fen() == theirs.mirror().fen()
    assert ours.epd(bm=ours.parse_san("exd5")) == theirs.epd(bm=theirs.parse_san("exd5"))
    horde = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
    for name, fen in [
        ("horde", horde),
        ("horde", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        ("atomic", "8/8/8/8/8/8/8/8 w - - 0 1"),
        ("racingkings", "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ b - - 0 1"),
        ("antichess", "8/8/8/8/8/8/8/K1K5 w - - 0 1"),
        ("crazyhouse", "8/8/8/8/8/8/8/8[PPPPPPPPPPPPPPPPPPP] w - - 0 1"),
    ]:
        got = shatranj.variant.find_variant(name)(fen).status()
        assert int(got) == int(chess.variant.find_variant(name)(fen).status()), (name, fen)


def test_mutated_fens_give_a_board_or_a_value_error() -> None:
    rng = random.Random(SEED)
    print(f"seed {SEED}")
    alphabet = "/12345678pnbrqkPNBRQK~[]+-@ 09wbx"
    for round_ in range(3000):
        variant = shatranj.variant.VARIANTS[1 + round_ % (len(shatranj.variant.VARIANTS) - 1)]
        text = list(variant.starting_fen)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            action = rng.randrange(3)
            if action == 0 and at < len(text):
                text[at] = rng.choice(alphabet)
            elif action == 1 and at < len(text):
                del text[at]
            else:
                text.insert(at, rng.choice(alphabet))
        try:
            board = variant("".join(text))
        except ValueError:
            continue
        for move in board.legal_moves:
            board.san(move)
        board.outcome()
        board.status()


@pytest.mark.parametrize(
    ("name", "fen"),
    [
        ("atomic", "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"),
        ("atomic", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
        ("crazyhouse", "r1bqk2r/pppp1ppp/2n5/4p3/4P3/8/PPPP1PPP/RQ~BQKB1R[Nn] w Qkq - 0 4"),
        ("3check", "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 2+3 0 3"),
        ("horde", "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"),
    ],
)
def test_fen_options_are_python_chess_s(name: str, fen: str) -> None:
    # The engine client sends fen(shredder=..., en_passant="fen"); every option as python-chess.
    ours = shatranj.variant.find_variant(name)(fen)
    theirs = chess.variant.find_variant(name)(fen)
    for shredder in (False, True):
        for en_passant in ("legal", "fen", "xfen"):
            for promoted in (None, False, True):
                options = {"shredder": shredder, "en_passant": en_passant, "promoted": promoted}
                assert ours.fen(**options) == theirs.fen(**options), options  # type: ignore[arg-type]

"""python-chess's ``Board`` extras that the native class carries (``board/compat.rs``): the
``generate_*`` family with ``from_mask``/``to_mask``, XBoard notation, ``attacks``,
``is_irreversible``, ``has_pseudo_legal_en_passant``, ``shredder_fen``, ``piece_map``, ``apply_mirror``,
the transforms, ``reset``, ``empty`` and the variant names, against python-chess over seeded random games,
standard and Chess960 (setup mode) alike."""

from __future__ import annotations

import random
from collections.abc import Callable

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


def masks(rng: random.Random, ref: chess.Board) -> list[int]:
    """Masks that select something: every square, one square, a random set, the rooks."""
    return [
        chess.BB_ALL,
        chess.BB_SQUARES[rng.randrange(64)],
        rng.getrandbits(64),
        int(ref.rooks),
        int(ref.kings) | int(ref.pawns),
    ]


def ucis(moves: object) -> list[str]:
    return sorted(m.uci() for m in moves)  # type: ignore[attr-defined]


def compare(rng: random.Random, ref: chess.Board, ours: shatranj.Board) -> None:
    where = ref.fen()
    for name in GENERATORS:
        theirs: Callable[..., object] = getattr(ref, name)
        mine: Callable[..., object] = getattr(ours, name)
        assert ucis(mine()) == ucis(theirs()), (name, where)
        for from_mask in masks(rng, ref):
            to_mask = rng.choice(masks(rng, ref))
            assert ucis(mine(from_mask, to_mask)) == ucis(theirs(from_mask, to_mask)), (
                name,
                hex(from_mask),
                hex(to_mask),
                where,
            )
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
    # The same squares, pieces and order (highest square first), with and without a mask.
    for mask in (
        chess.BB_ALL,
        int(ref.rooks),
        int(ref.kings) | int(ref.pawns),
        ref.occupied_co[chess.WHITE],
        0,
    ):
        mine_map = [(sq, p.symbol()) for sq, p in ours.piece_map(mask=mask).items()]
        assert mine_map == [(sq, p.symbol()) for sq, p in ref.piece_map(mask=mask).items()], (
            hex(mask),
            where,
        )
    assert ours.piece_map() == ours.piece_map(mask=chess.BB_ALL)


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
    for flip in (
        chess.flip_vertical,
        chess.flip_horizontal,
        chess.flip_diagonal,
        chess.flip_anti_diagonal,
    ):
        # The placement as python-chess's; the side and clocks kept, castling and en passant
        # dropped (python-chess transforms its castling rights too).
        mine_t, ref_t = ours.transform(flip), ref.transform(flip)
        assert mine_t.board_fen() == ref_t.board_fen(), (flip.__name__, ref.fen())
        assert mine_t.fen().split()[1:] == [ref.fen().split()[1], "-", "-", *ref.fen().split()[4:]]
        in_place = ours.copy()
        in_place.apply_transform(flip)
        assert in_place.fen() == mine_t.fen() and in_place.move_stack == []
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
    with pytest.raises(TypeError):
        board.piece_map(chess.BB_ALL)  # type: ignore[misc]
    with pytest.raises(OverflowError):
        board.piece_map(mask=-1)
    with pytest.raises(IndexError):
        board.attacks_mask(64)
    with pytest.raises(TypeError):
        board.xboard("e2e4")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        board.push_xboard("Ke2")


EPD_LINES = [
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 3; fmvn 12; bm e5 c5; id "start \\"x\\"";',
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - pv Bb5 a6 Ba4; ce 35; acd 12;",
    '8/8/8/4k3/8/8/8/4K2Q w - - am Qh8+ Qa8; c0 "tab\\there"; c1 "unterminated',
    "4k3/8/8/8/8/8/4P3/4K3 w - - sm e4; dm 12; rel 1.5e2; noop; bm; pv;",
    'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 - ; ; id "x";',
    "4k3/8/8/8/8/8/8/4K3 w - - fmvn +7; hmvc -0; v0 .5; v1 -2E-3",
]

BAD_EPD_LINES = [
    "rnbqkbnr/pppppppp/8/8",  # fewer than four fields
    "4k3/8/8/8/8/8/8/4K3 w - - 1x 3;",  # an opcode must start with a letter
    "4k3/8/8/8/8/8/8/4K3 w - - v0 inf.0;",  # not a finite number
    "4k3/8/8/8/8/8/8/4K3 w - - v0 12abc;",  # not a number
    "4k3/8/8/8/8/8/8/4K3 w - - bm Qh8;",  # not a legal move
]


def plain(value: object) -> object:
    """An operation's value with moves as UCI text, comparable across the two libraries."""
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, (chess.Move, shatranj.Move)):
        return value.uci()
    return value


@pytest.mark.parametrize("line", EPD_LINES)
def test_epd_operations_read_and_written_as_python_chess(line: str) -> None:
    ours, ref = shatranj.Board(), chess.Board()
    mine_ops, ref_ops = ours.set_epd(line), ref.set_epd(line)
    assert {k: plain(v) for k, v in mine_ops.items()} == {k: plain(v) for k, v in ref_ops.items()}
    assert list(mine_ops) == list(ref_ops)
    assert ours.fen() == ref.fen() and ours.move_stack == []
    built, built_ops = shatranj.Board.from_epd(line)
    assert built.fen() == ref.fen() and built_ops.keys() == ref_ops.keys()
    # Written back: the same operations (moves in SAN, sorted for bm/am, a line for pv).
    mine_text = ours.epd(**mine_ops)  # type: ignore[arg-type]
    ref_text = ref.epd(**ref_ops)  # type: ignore[arg-type]
    assert mine_text == ref_text


def test_epd_writes_every_operand_kind() -> None:
    ours, ref = shatranj.Board(), chess.Board()
    e4, d4 = shatranj.Move.from_uci("e2e4"), shatranj.Move.from_uci("d2d4")
    ref_e4, ref_d4 = chess.Move.from_uci("e2e4"), chess.Move.from_uci("d2d4")
    ops = dict(
        bm=[e4, d4],
        pv=[e4, shatranj.Move.from_uci("e7e5")],
        sm=e4,
        n=3,
        x=-1.25,
        s='a "q" \\ \n\t\r',
        none=None,
    )
    ref_ops = dict(
        bm=[ref_e4, ref_d4],
        pv=[ref_e4, chess.Move.from_uci("e7e5")],
        sm=ref_e4,
        n=3,
        x=-1.25,
        s='a "q" \\ \n\t\r',
        none=None,
    )
    assert ours.epd(**ops) == ref.epd(**ref_ops)  # type: ignore[arg-type]
    # A null move is written 0000 here, as before the move to Rust (python-chess writes --).
    assert ours.epd(nm=shatranj.Move.null()).endswith(" nm 0000;")
    assert ours.epd(shredder=True, en_passant="fen", hmvc=0) == ref.epd(
        shredder=True, en_passant="fen", hmvc=0
    )
    assert ours.epd() == ref.epd() and ours.move_stack == []
    # Operands python-chess takes (True), asserts on (nan) or trips over (a str for a move):
    # typed errors here.
    for bad, error in (
        (dict(flag=True), TypeError),
        (dict(x=float("nan")), ValueError),
        (dict(bm=["e2e4"]), TypeError),
    ):
        with pytest.raises(error):
            ours.epd(**bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ours.epd(**{"1x": 3})  # type: ignore[arg-type]


@pytest.mark.parametrize("line", BAD_EPD_LINES)
def test_bad_epd_is_a_value_error(line: str) -> None:
    with pytest.raises(ValueError):
        chess.Board().set_epd(line)
    with pytest.raises(ValueError):
        shatranj.Board().set_epd(line)


def test_chess960_pos_as_python_chess() -> None:
    rng = random.Random(SEED)
    print(f"seed {SEED}")
    for number in range(960):
        ref = chess.Board.from_chess960_pos(number)
        for fen in (ref.fen(), ref.fen().replace(" w ", " b "), ref.fen().replace(" 0 1", " 3 7")):
            theirs = chess.Board(fen, chess960=True)
            ours = shatranj.Board(fen, chess960=True)
            for flags in (
                {},
                dict(ignore_turn=True),
                dict(ignore_counters=False),
                dict(ignore_castling=True),
            ):
                assert ours.chess960_pos(**flags) == theirs.chess960_pos(**flags), (fen, flags)
    # Standard boards too: the start is 518; after a move, or with an en-passant square, none.
    assert shatranj.Board().chess960_pos() == 518
    board, ref = shatranj.Board(), chess.Board()
    for _ in range(6):
        move = rng.choice(list(ref.legal_moves))
        ref.push(move)
        board.push(shatranj.Move.from_uci(move.uci()))
        assert board.chess960_pos() == ref.chess960_pos() and board.chess960_pos(
            ignore_turn=True
        ) == ref.chess960_pos(ignore_turn=True)

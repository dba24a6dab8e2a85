"""Setup mode: boards the rules crate's ``Position`` refuses, played slowly in Python.

python-chess's board holds any placement (no king, nine queens, pawns on the back rank, the
side not to move in check) and Chess960, and ``status()`` says what is wrong. shatranj's
native board plays legal standard positions only, fast (the hot path). A FEN or an edit it
refuses is resolved here (:func:`resolve_fen`, :func:`adopt`):

* if cleaning the castling rights (``clean_castling_rights``) and dropping an impossible
  en-passant square makes it a legal position, the native board plays that, and remembers
  the rights and square as given for ``castling_rights``, ``ep_square`` and ``status()``;
* otherwise (and always for Chess960) the native board enters *setup mode*: it holds a
  :class:`SetupBoard` and hands every method to it.

:class:`SetupBoard` follows python-chess's rules for such boards: with a king of the side to
move, the legal moves are the pseudo-legal moves that leave it unattacked; with none, every
pseudo-legal move is legal. Chess960 castling is the king taking its own rook
(``e1h1``-style UCI); X-FEN and Shredder-FEN castling fields are read and written. Nothing
here is on a hot path: it walks Python lists of 64 squares.
"""

from __future__ import annotations

import re
from typing import Any, Dict, Iterator, List, Optional, Tuple

from . import _bitboards as bb
from ._core import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, Move, Piece
from ._baseboard import PlacementMasks
from ._squareset import SquareSet

STARTING_BOARD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
FILE_NAMES = "abcdefgh"
PIECE_LETTERS = " pnbrqk"
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
# Flags that the native position cannot hold; the others leave a playable position.
_CASTLING_FEN = re.compile(r"^(?:-|[KQABCDEFGH]{0,2}[kqabcdefgh]{0,2})\Z")
_SAN = re.compile(r"^([NBKRQ])?([a-h])?([1-8])?[\-x]?([a-h][1-8])(=?[nbrqkNBRQK])?[+#]?\Z")
_State = Tuple[Any, ...]


def _sq_name(square: int) -> str:
    return FILE_NAMES[square & 7] + str((square >> 3) + 1)


class SetupBoard(PlacementMasks):
    """A python-chess board state in plain Python: see the module docs."""

    def __init__(self) -> None:
        self.squares: List[Optional[Piece]] = [None] * 64
        self.promoted = 0
        self.turn = True
        self.castling_rights = 0
        self.ep_square: Optional[int] = None
        self.halfmove_clock = 0
        self.fullmove_number = 1
        self.chess960 = False
        self._stack: List[Tuple[Move, _State]] = []
        self._root: Optional[_State] = None

    # --- state -------------------------------------------------------------------------------

    def _state(self) -> _State:
        return (list(self.squares), self.promoted, self.turn, self.castling_rights, self.ep_square, self.halfmove_clock, self.fullmove_number)

    def _restore(self, state: _State) -> None:
        squares, self.promoted, self.turn, self.castling_rights, self.ep_square, self.halfmove_clock, self.fullmove_number = state
        self.squares = list(squares)

    def copy(self, stack: Any = None) -> SetupBoard:
        other = SetupBoard()
        other._restore(self._state())
        other.chess960 = self.chess960
        keep = len(self._stack) if stack is None or stack is True else (0 if stack is False else max(0, min(int(stack), len(self._stack))))
        other._stack = list(self._stack[len(self._stack) - keep :]) if keep else []
        other._root = self._root if keep == len(self._stack) else (other._stack[0][1] if other._stack else None)
        return other

    def root(self) -> SetupBoard:
        other = self.copy(stack=False)
        if self._stack:
            other._restore(self._stack[0][1])
        elif self._root is not None:
            other._restore(self._root)
        return other

    def reduce_board(self) -> Tuple[Any, Tuple[Any, ...]]:
        return (board_from_fen, (self.fen(False, "fen", None), self.chess960))

    # --- masks -------------------------------------------------------------------------------

    def _placement(self) -> List[Optional[Piece]]:
        return self.squares

    def piece_at(self, square: int) -> Optional[Piece]:
        return self.squares[_square(square)]

    def piece_type_at(self, square: int) -> Optional[int]:
        p = self.squares[_square(square)]
        return None if p is None else p.piece_type

    def color_at(self, square: int) -> Optional[bool]:
        p = self.squares[_square(square)]
        return None if p is None else p.color

    def pieces_mask(self, piece_type: int, color: Any) -> int:
        return self._mask(piece_type, bool(color))

    def pieces(self, piece_type: int, color: Any) -> SquareSet:
        return SquareSet(self.pieces_mask(piece_type, color))

    # --- attacks -----------------------------------------------------------------------------

    def _attackers(self, color: bool, square: int, occupied: Optional[int] = None, squares: Optional[List[Optional[Piece]]] = None) -> int:
        occupied = self.occupied if occupied is None else occupied
        squares = self.squares if squares is None else squares
        out = 0
        for sq, p in enumerate(squares):
            if p is not None and p.color == color and occupied >> sq & 1:
                if bb.piece_attacks(p.piece_type, p.color, sq, occupied) >> square & 1:
                    out |= 1 << sq
        return out

    def attackers_mask(self, color: Any, square: int) -> int:
        return self._attackers(bool(color), _square(square))

    def attackers(self, color: Any, square: int) -> SquareSet:
        return SquareSet(self.attackers_mask(color, square))

    def is_attacked_by(self, color: Any, square: int) -> bool:
        return bool(self.attackers_mask(color, square))

    def attacks_mask(self, square: int) -> int:
        p = self.squares[_square(square)]
        return 0 if p is None else bb.piece_attacks(p.piece_type, p.color, square, self.occupied)

    def _checkers(self) -> int:
        king = self.king(self.turn)
        return 0 if king is None else self._attackers(not self.turn, king)

    def checkers(self) -> SquareSet:
        return SquareSet(self._checkers())

    def is_check(self) -> bool:
        return bool(self._checkers())

    def pin_mask(self, color: Any, square: int) -> int:
        color = bool(color)
        king = self.king(color)
        if king is None:
            return bb.BB_ALL
        square = _square(square)
        if not bb.BB_RAYS[king][square] or square == king:
            return bb.BB_ALL
        ray = bb.BB_RAYS[king][square]
        occupied = self.occupied
        for sq, p in enumerate(self.squares):
            if p is None or p.color == color or not ray >> sq & 1:
                continue
            diagonal = (sq & 7) != (king & 7) and (sq >> 3) != (king >> 3)
            if p.piece_type == QUEEN or p.piece_type == (BISHOP if diagonal else ROOK):
                between = bb.between(king, sq)
                if between >> square & 1 and (between & occupied) == 1 << square:
                    return ray
        return bb.BB_ALL

    def pin(self, color: Any, square: int) -> SquareSet:
        return SquareSet(self.pin_mask(color, square))

    def is_pinned(self, color: Any, square: int) -> bool:
        return self.pin_mask(color, square) != bb.BB_ALL

    # --- castling rights ---------------------------------------------------------------------

    def clean_castling_rights(self) -> int:
        if self._stack:
            return self.castling_rights
        rooks = self.rooks
        result = 0
        for color, backrank in ((True, bb.BB_RANK_1), (False, bb.BB_RANK_8)):
            mine = self.castling_rights & rooks & backrank & self._mask(color=color)
            kings = self._mask(KING, color) & ~self.promoted & backrank
            if not self.chess960:
                mine &= bb.BB_FILE_A | bb.BB_FILE_H
                if not kings & bb.BB_FILE_E:
                    mine = 0
                result |= mine
                continue
            if not kings or not mine:
                continue
            king = kings.bit_length() - 1
            a_side = mine & -mine
            h_side = 1 << (mine.bit_length() - 1)
            if a_side.bit_length() - 1 > king:
                a_side = 0
            if h_side.bit_length() - 1 < king:
                h_side = 0
            result |= a_side | h_side
        return result

    def has_castling_rights(self, color: Any) -> bool:
        return bool(self.clean_castling_rights() & (bb.BB_RANK_1 if color else bb.BB_RANK_8))

    def _side_rights(self, color: Any, a_side: bool) -> bool:
        backrank = bb.BB_RANK_1 if color else bb.BB_RANK_8
        king = self.king(color)
        if king is None:
            return False
        for sq in bb.scan_forward(self.clean_castling_rights() & backrank):
            if (sq < king) == a_side:
                return True
        return False

    def has_kingside_castling_rights(self, color: Any) -> bool:
        return self._side_rights(color, False)

    def has_queenside_castling_rights(self, color: Any) -> bool:
        return self._side_rights(color, True)

    def set_castling_fen(self, castling_fen: str) -> None:
        if not castling_fen or not _CASTLING_FEN.match(castling_fen):
            raise ValueError(f"invalid castling fen: {castling_fen!r}")
        self.castling_rights = 0
        if castling_fen == "-":
            return
        for flag in castling_fen:
            color = flag.isupper()
            flag = flag.lower()
            backrank = bb.BB_RANK_1 if color else bb.BB_RANK_8
            rooks = self.rooks & self._mask(color=color) & backrank
            king = self.king(color)
            if flag == "q":
                low = rooks & -rooks
                if king is not None and low and low.bit_length() - 1 < king:
                    self.castling_rights |= low
                else:
                    self.castling_rights |= bb.BB_FILE_A & backrank
            elif flag == "k":
                high = 1 << (rooks.bit_length() - 1) if rooks else 0
                if king is not None and high and king < high.bit_length() - 1:
                    self.castling_rights |= high
                else:
                    self.castling_rights |= bb.BB_FILE_H & backrank
            else:
                self.castling_rights |= bb.BB_FILES[FILE_NAMES.index(flag)] & backrank

    def _castling_xfen(self) -> str:
        out = ""
        clean = self.clean_castling_rights()
        for color, backrank in ((True, bb.BB_RANK_1), (False, bb.BB_RANK_8)):
            king = self.king(color)
            if king is None:
                continue
            rooks = self.rooks & self._mask(color=color) & backrank
            for rook in bb.scan_reversed(clean & backrank):
                a_side = (rook & 7) < (king & 7)
                others = rooks & ~(1 << rook)
                outer = any(((o & 7) < (rook & 7)) == a_side for o in bb.scan_forward(others))
                ch = FILE_NAMES[rook & 7] if outer else ("q" if a_side else "k")
                out += ch.upper() if color else ch
        return out or "-"

    def _castling_shredder(self) -> str:
        clean = self.clean_castling_rights()
        out = "".join(FILE_NAMES[sq & 7].upper() for sq in bb.scan_reversed(clean & bb.BB_RANK_1))
        out += "".join(FILE_NAMES[sq & 7] for sq in bb.scan_reversed(clean & bb.BB_RANK_8))
        return out or "-"

    # --- en passant and status ---------------------------------------------------------------

    def _valid_ep_square(self) -> Optional[int]:
        ep = self.ep_square
        if ep is None:
            return None
        if (ep >> 3) != (5 if self.turn else 2):
            return None
        step = -8 if self.turn else 8
        pawn = self.squares[ep + step]
        if pawn is None or pawn.piece_type != PAWN or pawn.color == self.turn:
            return None
        if self.squares[ep] is not None or self.squares[ep - step] is not None:
            return None
        return ep

    def status(self) -> int:
        errors = bb.STATUS_VALID
        occupied, white, black, kings, pawns = self.occupied, self._mask(color=True), self._mask(color=False), self.kings, self.pawns
        if not occupied:
            errors |= bb.STATUS_EMPTY
        if not white & kings:
            errors |= bb.STATUS_NO_WHITE_KING
        if not black & kings:
            errors |= bb.STATUS_NO_BLACK_KING
        if bb.popcount(kings) > 2:
            errors |= bb.STATUS_TOO_MANY_KINGS
        errors |= bb.material_errors(white, black, pawns)
        if pawns & bb.BB_BACKRANKS:
            errors |= bb.STATUS_PAWNS_ON_BACKRANK
        if self.castling_rights != self.clean_castling_rights():
            errors |= bb.STATUS_BAD_CASTLING_RIGHTS
        valid_ep = self._valid_ep_square()
        if self.ep_square != valid_ep:
            errors |= bb.STATUS_INVALID_EP_SQUARE
        their_king = self.king(not self.turn)
        if their_king is not None and self._attackers(self.turn, their_king):
            errors |= bb.STATUS_OPPOSITE_CHECK
        checkers = self._checkers()
        our_kings = kings & self._mask(color=self.turn) & ~self.promoted
        if checkers:
            count = bb.popcount(checkers)
            if count > 2:
                errors |= bb.STATUS_TOO_MANY_CHECKERS
            if valid_ep is not None:
                pushed_to, pushed_from = valid_ep ^ 8, valid_ep ^ 24
                before = (occupied & ~(1 << pushed_to)) | (1 << pushed_from)
                squares = list(self.squares)
                squares[pushed_from], squares[pushed_to] = squares[pushed_to], None
                attacked = any(self._attackers(not self.turn, k, before, squares) for k in bb.scan_forward(our_kings))
                if count > 1 or (bb.msb(checkers) != pushed_to and attacked):
                    errors |= bb.STATUS_IMPOSSIBLE_CHECK
            elif count > 2 or (count == 2 and bb.ray(bb.lsb(checkers), bb.msb(checkers)) & our_kings):
                errors |= bb.STATUS_IMPOSSIBLE_CHECK
        return bb.Status(errors)

    def is_valid(self) -> bool:
        return self.status() == bb.STATUS_VALID

    # --- move generation ---------------------------------------------------------------------

    def _pseudo(self) -> Iterator[Move]:
        us = self.turn
        occupied = self.occupied
        ours = self._mask(color=us)
        theirs = occupied & ~ours
        for sq in range(63, -1, -1):
            p = self.squares[sq]
            if p is None or p.color != us or p.piece_type == PAWN:
                continue
            for to in bb.scan_reversed(bb.piece_attacks(p.piece_type, us, sq, occupied) & ~ours):
                yield Move(sq, to)
        yield from self._castling_moves()
        step = 8 if us else -8
        last_rank = 7 if us else 0
        # python-chess: a double step is any second step that ends on the 3rd/4th rank
        # (White) or 6th/5th (Black), so a pawn on its own back rank has one too.
        double_ranks = (2, 3) if us else (5, 4)
        pawns = []
        for sq in range(63, -1, -1):
            p = self.squares[sq]
            if p is not None and p.color == us and p.piece_type == PAWN:
                pawns.append(sq)

        def pawn_moves(sq: int, to: int) -> Iterator[Move]:
            if (to >> 3) == last_rank:
                for promotion in (QUEEN, ROOK, BISHOP, KNIGHT):
                    yield Move(sq, to, promotion)
            else:
                yield Move(sq, to)

        # python-chess's order: all captures, then all single steps, then all double steps,
        # each by origin from h8 down (a push's destination falls with its origin).
        for sq in pawns:
            for to in bb.scan_reversed(bb.BB_PAWN_ATTACKS[int(us)][sq] & theirs):
                yield from pawn_moves(sq, to)
        doubles = []
        for sq in pawns:
            to = sq + step
            if 0 <= to < 64 and not occupied >> to & 1:
                yield from pawn_moves(sq, to)
                two = to + step
                if 0 <= two < 64 and (two >> 3) in double_ranks and not occupied >> two & 1:
                    doubles.append(Move(sq, two))
        yield from doubles
        yield from self._ep_moves()

    def _ep_moves(self) -> Iterator[Move]:
        ep = self.ep_square
        if ep is None or self.squares[ep] is not None:
            return
        rank = 4 if self.turn else 3
        for sq in bb.scan_reversed(bb.BB_PAWN_ATTACKS[int(not self.turn)][ep] & self._mask(PAWN, self.turn) & bb.BB_RANKS[rank]):
            yield Move(sq, ep)

    def _castling_moves(self) -> Iterator[Move]:
        us = self.turn
        backrank = bb.BB_RANK_1 if us else bb.BB_RANK_8
        kings = self._mask(KING, us) & ~self.promoted & backrank
        if not kings:
            return
        king = (kings & -kings).bit_length() - 1
        occupied = self.occupied
        rank_base = 0 if us else 56
        for rook in bb.scan_reversed(self.clean_castling_rights() & backrank):
            a_side = rook < king
            king_to = rank_base + (2 if a_side else 6)
            rook_to = rank_base + (3 if a_side else 5)
            king_path = bb.between(king, king_to)
            rook_path = bb.between(rook, rook_to)
            others = occupied & ~(1 << king) & ~(1 << rook)
            if others & (king_path | rook_path | 1 << king_to | 1 << rook_to):
                continue
            without_king = occupied & ~(1 << king)
            if any(self._attackers(not us, sq, without_king) for sq in bb.scan_forward(king_path | 1 << king)):
                continue
            after = (occupied & ~(1 << king) & ~(1 << rook)) | (1 << rook_to)
            if self._attackers(not us, king_to, after):
                continue
            yield self._castle_move(king, rook)

    def _castle_move(self, king: int, rook: int) -> Move:
        if not self.chess960 and (king & 7) == 4 and (rook & 7) in (0, 7):
            return Move(king, king - 2 if rook < king else king + 2)
        return Move(king, rook)

    def _is_castling(self, move: Move) -> bool:
        p = self.squares[move.from_square]
        if p is None or p.piece_type != KING or p.color != self.turn or self.promoted >> move.from_square & 1:
            return False
        target = self.squares[move.to_square]
        if target is not None and target.piece_type == ROOK and target.color == self.turn:
            return (move.from_square >> 3) == (move.to_square >> 3)
        return (move.from_square >> 3) == (move.to_square >> 3) and abs(move.to_square - move.from_square) == 2 and not self.chess960

    def _castling_rook(self, move: Move) -> int:
        target = self.squares[move.to_square]
        if target is not None and target.piece_type == ROOK and target.color == self.turn:
            return move.to_square
        return (move.from_square & ~7) + (0 if move.to_square < move.from_square else 7)

    def _leaves_king_safe(self, move: Move) -> bool:
        kings = self._mask(KING, self.turn)
        if not kings:
            return True
        if self._is_castling(move):
            return True
        king = kings.bit_length() - 1
        squares = list(self.squares)
        mover = squares[move.from_square]
        squares[move.from_square] = None
        if self.ep_square == move.to_square and mover is not None and mover.piece_type == PAWN and (move.from_square & 7) != (move.to_square & 7) and squares[move.to_square] is None:
            squares[move.to_square + (-8 if self.turn else 8)] = None
        squares[move.to_square] = mover
        target = move.to_square if move.from_square == king else king
        occupied = sum(1 << sq for sq, p in enumerate(squares) if p is not None)
        return not self._attackers(not self.turn, target, occupied, squares)

    def _legal(self) -> List[Move]:
        moves = list(self._pseudo())
        kings = self._mask(KING, self.turn)
        if kings:
            king = kings.bit_length() - 1
            checkers = self._attackers(not self.turn, king)
            if checkers:
                # python-chess's evasions: the king steps away, or (single check) a piece
                # other than a king blocks or captures, en passant included.
                target = 0
                if bb.popcount(checkers) == 1:
                    checker = checkers.bit_length() - 1
                    target = bb.between(king, checker) | checkers
                    if self.ep_square is not None and self.ep_square + (-8 if self.turn else 8) == checker:
                        target |= 1 << self.ep_square
                # The king's steps first, as python-chess generates them.
                steps = [m for m in moves if m.from_square == king and not self._is_castling(m)]
                others = [m for m in moves if not kings >> m.from_square & 1 and target >> m.to_square & 1]
                moves = steps + others
        return [m for m in moves if self._leaves_king_safe(m)]

    def legal_move_list(self) -> List[Move]:
        return self._legal()

    def pseudo_legal_move_list(self) -> List[Move]:
        return list(self._pseudo())

    def count_legal(self) -> int:
        return len(self._legal())

    def legal_sans(self) -> List[str]:
        return [self.san(m) for m in self._legal()]

    def generate_legal_moves(self) -> Iterator[Move]:
        return iter(self._legal())

    def _find(self, move: Move, moves: List[Move]) -> Optional[Move]:
        if move in moves:
            return move
        # King takes rook, for standard castling (python-chess accepts e1h1 for e1g1).
        if not self.chess960 and self._is_castling(move):
            alias = self._castle_move(move.from_square, self._castling_rook(move))
            if alias in moves:
                return alias
        return None

    def is_legal(self, move: Move) -> bool:
        return bool(move) and self._find(move, self._legal()) is not None

    def is_pseudo_legal(self, move: Move) -> bool:
        return bool(move) and self._find(move, list(self._pseudo())) is not None

    def _resolve(self, move: Move) -> Move:
        found = self._find(move, self._legal()) if move else None
        if found is None:
            raise IllegalMoveError(f"illegal move {move.uci()} in {self.fen(False, 'legal', None)}")
        return found

    def is_capture(self, move: Move) -> bool:
        target = self.squares[move.to_square]
        return (target is not None and target.color != self.turn) or self.is_en_passant(move)

    def is_en_passant(self, move: Move) -> bool:
        p = self.squares[move.from_square]
        return (
            self.ep_square == move.to_square and p is not None and p.piece_type == PAWN
            and abs(move.to_square - move.from_square) in (7, 9) and self.squares[move.to_square] is None
        )  # fmt: skip

    def is_castling(self, move: Move) -> bool:
        return self._is_castling(move)

    def is_kingside_castling(self, move: Move) -> bool:
        return self._is_castling(move) and self._castling_rook(move) > move.from_square

    def is_queenside_castling(self, move: Move) -> bool:
        return self._is_castling(move) and self._castling_rook(move) < move.from_square

    def is_zeroing(self, move: Move) -> bool:
        p = self.squares[move.from_square]
        return (p is not None and p.piece_type == PAWN) or self.is_capture(move)

    def has_legal_en_passant(self) -> bool:
        return any(self.is_en_passant(m) for m in self._legal())

    def gives_check(self, move: Move) -> bool:
        board = self.copy(stack=False)
        board._play(self._resolve(move))
        return board.is_check()

    # --- playing -----------------------------------------------------------------------------

    def _play(self, move: Move) -> None:
        """Plays a move python-chess's way (any pseudo-legal move; null moves pass)."""
        self.castling_rights = self.clean_castling_rights()
        ep = self.ep_square
        self.ep_square = None
        self.halfmove_clock += 1
        if not self.turn:
            self.fullmove_number += 1
        if not move:
            self.turn = not self.turn
            return
        if move.drop is not None:
            raise IllegalMoveError(f"drops are not played on a chess board: {move.uci()}")
        us = self.turn
        src, dst = move.from_square, move.to_square
        mover = self.squares[src]
        if mover is None:
            raise IllegalMoveError(f"no piece on {_sq_name(src)}: {move.uci()}")
        castling = self._is_castling(move)
        was_promoted = bool(self.promoted >> src & 1)
        capture = self.squares[dst] is not None and not castling
        if mover.piece_type == PAWN or capture:
            self.halfmove_clock = 0
        backrank = bb.BB_RANK_1 if us else bb.BB_RANK_8
        self.castling_rights &= ~(1 << src) & ~(1 << dst)
        if mover.piece_type == KING and not was_promoted:
            self.castling_rights &= ~backrank
        self.squares[src] = None
        self.promoted &= ~(1 << src) & ~(1 << dst)
        if castling:
            rook = self._castling_rook(move)
            a_side = rook < src
            base = src & ~7
            self.squares[rook] = None
            self.squares[base + (2 if a_side else 6)] = mover
            self.squares[base + (3 if a_side else 5)] = Piece(ROOK, us)
        else:
            if mover.piece_type == PAWN:
                if abs(dst - src) == 16 and (src >> 3) == (1 if us else 6):
                    self.ep_square = (src + dst) // 2
                elif dst == ep and (src & 7) != (dst & 7) and self.squares[dst] is None:
                    self.squares[dst + (-8 if us else 8)] = None
                if move.promotion is not None:
                    mover = Piece(move.promotion, us)
                    self.promoted |= 1 << dst
            elif was_promoted:
                self.promoted |= 1 << dst
            self.squares[dst] = mover
        self.turn = not us

    def push(self, move: Move) -> None:
        if move and not self.is_pseudo_legal(move):
            raise IllegalMoveError(f"illegal move {move.uci()} in {self.fen(False, 'legal', None)}")
        if move and not self.is_legal(move):
            raise IllegalMoveError(f"illegal move {move.uci()} (leaves the king in check) in {self.fen(False, 'legal', None)}")
        if move:
            move = self._find(move, self._legal()) or move
        self._stack.append((move, self._state()))
        self._play(move)

    def pop(self) -> Move:
        if not self._stack:
            raise IndexError("pop from empty move stack")
        move, state = self._stack.pop()
        self._restore(state)
        return move

    def peek(self) -> Move:
        if not self._stack:
            raise IndexError("peek into empty move stack")
        return self._stack[-1][0]

    @property
    def move_stack(self) -> List[Move]:
        return [m for m, _ in self._stack]

    def ply(self) -> int:
        return 2 * (self.fullmove_number - 1) + (not self.turn)

    def clear_stack(self) -> None:
        self._stack = []
        self._root = None

    # --- SAN, UCI ----------------------------------------------------------------------------

    def san(self, move: Move) -> str:
        if not move:
            return "--"
        move = self._resolve(move)
        return self._san(move, self._legal(), suffix=True)

    def _san(self, move: Move, legal: List[Move], *, suffix: bool) -> str:
        if self._is_castling(move):
            text = "O-O-O" if self._castling_rook(move) < move.from_square else "O-O"
        else:
            p = self.squares[move.from_square]
            assert p is not None
            text = ""
            if p.piece_type != PAWN:
                text = PIECE_LETTERS[p.piece_type].upper()
                others = 0
                for other in legal:
                    q = self.squares[other.from_square]
                    if other.to_square == move.to_square and other.from_square != move.from_square and q is not None and q.piece_type == p.piece_type and not self._is_castling(other):
                        others |= 1 << other.from_square
                if others:
                    row = column = False
                    if others & bb.BB_RANKS[move.from_square >> 3]:
                        column = True
                    if others & bb.BB_FILES[move.from_square & 7]:
                        row = True
                    else:
                        column = True
                    if column:
                        text += FILE_NAMES[move.from_square & 7]
                    if row:
                        text += str((move.from_square >> 3) + 1)
            if self.is_capture(move):
                if p.piece_type == PAWN:
                    text += FILE_NAMES[move.from_square & 7]
                text += "x"
            text += _sq_name(move.to_square)
            if move.promotion is not None:
                text += "=" + PIECE_LETTERS[move.promotion].upper()
        if suffix:
            after = self.copy(stack=False)
            after._play(move)
            if after.is_check():
                text += "#" if not after._legal() else "+"
        return text

    def lan(self, move: Move) -> str:
        if not move:
            return "--"
        move = self._resolve(move)
        if self._is_castling(move):
            return self._san(move, [], suffix=True)
        p = self.squares[move.from_square]
        assert p is not None
        text = ("" if p.piece_type == PAWN else PIECE_LETTERS[p.piece_type].upper()) + _sq_name(move.from_square)
        text += ("x" if self.is_capture(move) else "-") + _sq_name(move.to_square)
        if move.promotion is not None:
            text += "=" + PIECE_LETTERS[move.promotion].upper()
        after = self.copy(stack=False)
        after._play(move)
        if after.is_check():
            text += "#" if not after._legal() else "+"
        return text

    def san_and_push(self, move: Move) -> str:
        text = self.san(move)
        self.push(move)
        return text

    def variation_san(self, variation: Any) -> str:
        board = self.copy(stack=False)
        parts: List[str] = []
        for move in variation:
            if move and not board.is_legal(move):
                raise IllegalMoveError(f"illegal move {move.uci()} in position {board.fen(False, 'legal', None)}")
            text = board.san(move)
            if board.turn:
                parts.append(f"{board.fullmove_number}. {text}")
            elif not parts:
                parts.append(f"{board.fullmove_number}...{text}")
            else:
                parts.append(text)
            board.push(move)
        return " ".join(parts)

    def parse_san(self, san: str) -> Move:
        if san in ("--", "Z0", "0000", "@@@@"):
            return Move.null()
        text = san.rstrip("!?")
        legal = self._legal()
        if text.rstrip("+#") in ("O-O", "0-0", "O-O-O", "0-0-0"):
            queenside = text.rstrip("+#") in ("O-O-O", "0-0-0")
            for move in legal:
                if self._is_castling(move) and (self._castling_rook(move) < move.from_square) == queenside:
                    return move
            raise IllegalMoveError(f"illegal san: {san!r} in {self.fen(False, 'legal', None)}")
        found = _SAN.match(text)
        if not found:
            raise InvalidMoveError(f"invalid san: {san!r}")
        letter, file, rank, to, promotion = found.groups()
        piece_type = PIECE_LETTERS.index(letter.lower()) if letter else PAWN
        to_square = FILE_NAMES.index(to[0]) + 8 * (int(to[1]) - 1)
        promotion_type = PIECE_LETTERS.index(promotion[-1].lower()) if promotion else None
        matches = []
        for move in legal:
            p = self.squares[move.from_square]
            if p is None or p.piece_type != piece_type or move.to_square != to_square or self._is_castling(move):
                continue
            if file and FILE_NAMES[move.from_square & 7] != file:
                continue
            if rank and str((move.from_square >> 3) + 1) != rank:
                continue
            if move.promotion != promotion_type:
                continue
            matches.append(move)
        if not matches:
            raise IllegalMoveError(f"illegal san: {san!r} in {self.fen(False, 'legal', None)}")
        if len(matches) > 1:
            raise AmbiguousMoveError(f"ambiguous san: {san!r} in {self.fen(False, 'legal', None)}")
        return matches[0]

    def push_san(self, san: str) -> Move:
        move = self.parse_san(san)
        self.push(move)
        return move

    def parse_uci(self, uci: str) -> Move:
        move = Move.from_uci(uci)
        if not move:
            return move
        return self._resolve(move)

    def push_uci(self, uci: str) -> Move:
        move = self.parse_uci(uci)
        self.push(move)
        return move

    def find_move(self, from_square: int, to_square: int, promotion: Optional[int] = None) -> Move:
        p = self.squares[from_square]
        if promotion is None and p is not None and p.piece_type == PAWN and (to_square >> 3) in (0, 7):
            promotion = QUEEN
        move = self._find(Move(from_square, to_square, promotion), self._legal())
        if move is None and self.chess960 and p is not None and p.piece_type == KING:
            move = None
        if move is None:
            raise IllegalMoveError(f"no matching legal move for {Move(from_square, to_square, promotion).uci()} in {self.fen(False, 'legal', None)}")
        return move

    # --- game end ----------------------------------------------------------------------------

    def is_checkmate(self) -> bool:
        return self.is_check() and not self._legal()

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self._legal()

    def is_insufficient_material(self) -> bool:
        return self.has_insufficient_material(True) and self.has_insufficient_material(False)

    def has_insufficient_material(self, color: Any) -> bool:
        color = bool(color)
        mine = self._mask(color=color)
        if mine & (self.pawns | self.rooks | self.queens):
            return False
        if mine & self.knights:
            return bb.popcount(mine) <= 2 and not (self._mask(color=not color) & ~self.kings & ~self.queens)
        if mine & self.bishops:
            same_color = not (self.bishops & bb.BB_DARK_SQUARES) or not (self.bishops & bb.BB_LIGHT_SQUARES)
            return same_color and not self.pawns and not self.knights
        return True

    def is_fifty_moves(self) -> bool:
        return self.halfmove_clock >= 100 and bool(self._legal())

    def is_seventyfive_moves(self) -> bool:
        return self.halfmove_clock >= 150 and bool(self._legal())

    def can_claim_fifty_moves(self) -> bool:
        return self.is_fifty_moves()

    def is_repetition(self, count: int = 3) -> bool:
        return count <= 1

    def can_claim_threefold_repetition(self) -> bool:
        return False

    def is_fivefold_repetition(self) -> bool:
        return False

    def can_claim_draw(self) -> bool:
        return self.can_claim_fifty_moves()

    def outcome(self, claim_draw: bool = False) -> Any:
        from ._outcome import Outcome, Termination

        if self.is_checkmate():
            return Outcome(Termination.CHECKMATE, not self.turn)
        if self.is_insufficient_material():
            return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
        if not self._legal():
            return Outcome(Termination.STALEMATE, None)
        if self.is_seventyfive_moves():
            return Outcome(Termination.SEVENTYFIVE_MOVES, None)
        if claim_draw and self.can_claim_fifty_moves():
            return Outcome(Termination.FIFTY_MOVES, None)
        return None

    def is_game_over(self, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw) is not None

    def result(self, claim_draw: bool = False) -> str:
        outcome = self.outcome(claim_draw)
        return "*" if outcome is None else outcome.result()

    # --- text --------------------------------------------------------------------------------

    def board_fen(self, promoted: Optional[bool] = False) -> str:
        rows = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for file in range(8):
                sq = rank * 8 + file
                p = self.squares[sq]
                if p is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += p.symbol() + ("~" if promoted and self.promoted >> sq & 1 else "")
            rows.append(row + (str(empty) if empty else ""))
        return "/".join(rows)

    def epd(self, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
        if en_passant == "fen":
            ep = self.ep_square
        elif en_passant == "xfen":
            ep = self.ep_square if any(True for _ in self._ep_moves()) else None
        elif en_passant == "legal":
            ep = self.ep_square if self.has_legal_en_passant() else None
        else:
            raise ValueError(f"en_passant must be 'legal', 'fen' or 'xfen', not {en_passant!r}")
        castling = self._castling_shredder() if shredder else self._castling_xfen()
        return " ".join([self.board_fen(promoted), "w" if self.turn else "b", castling, "-" if ep is None else _sq_name(ep)])

    def fen(self, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
        return f"{self.epd(shredder, en_passant, promoted)} {self.halfmove_clock} {self.fullmove_number}"

    def shredder_fen(self, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
        return self.fen(True, en_passant, promoted)

    def __str__(self) -> str:
        return "\n".join(" ".join(p.symbol() if (p := self.squares[r * 8 + f]) else "." for f in range(8)) for r in range(7, -1, -1))

    def __repr__(self) -> str:
        return f"Board({self.fen(False, 'legal', None)!r}{', chess960=True' if self.chess960 else ''})"

    def unicode(self, invert_color: bool = False, borders: bool = False, empty_square: str = "⭘", orientation: bool = True) -> str:
        if borders:
            raise ValueError("unicode(borders=True) is not available in setup mode")
        rows = []
        for r in range(7, -1, -1) if orientation else range(8):
            cells = []
            for f in range(8) if orientation else range(7, -1, -1):
                p = self.squares[r * 8 + f]
                cells.append(empty_square if p is None else p.unicode_symbol(invert_color=invert_color))
            rows.append(" ".join(cells))
        return "\n".join(rows)

    def mirror(self) -> SetupBoard:
        other = SetupBoard()
        other.chess960 = self.chess960
        for sq, p in enumerate(self.squares):
            if p is not None:
                other.squares[sq ^ 56] = Piece(p.piece_type, not p.color)
        other.promoted = bb.flip_vertical(self.promoted)
        other.turn = not self.turn
        other.castling_rights = bb.flip_vertical(self.castling_rights)
        other.ep_square = None if self.ep_square is None else self.ep_square ^ 56
        other.halfmove_clock, other.fullmove_number = self.halfmove_clock, self.fullmove_number
        return other

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise ValueError(
            f"Board.{name} needs a legal standard chess position; this board (status {self.status()!r}"
            f"{', Chess960' if self.chess960 else ''}) is played in setup mode, which does not offer it"
        )

    # --- loading -----------------------------------------------------------------------------

    def set_board_fen(self, fen: str) -> None:
        from ._baseboard import BaseBoard

        base = BaseBoard(None)
        base.set_board_fen(fen)
        self.squares = [base.piece_at(sq) for sq in range(64)]
        self.promoted = base.promoted

    @classmethod
    def from_fen(cls, fen: Optional[str], chess960: bool = False) -> SetupBoard:
        board = cls()
        board.chess960 = bool(chess960)
        if fen is None:
            return board
        parts = fen.split()
        if not parts:
            raise ValueError(f"empty fen: {fen!r}")
        if len(parts) > 6:
            raise ValueError(f"fen string has more parts than expected: {fen!r}")
        board.set_board_fen(parts[0])
        turn = parts[1] if len(parts) > 1 else "w"
        if turn not in ("w", "b"):
            raise ValueError(f"expected 'w' or 'b' for turn part of fen: {fen!r}")
        board.turn = turn == "w"
        board.set_castling_fen(parts[2] if len(parts) > 2 else "-")
        ep = parts[3] if len(parts) > 3 else "-"
        if ep != "-":
            if len(ep) != 2 or ep[0] not in FILE_NAMES or ep[1] not in "36":
                raise ValueError(f"invalid en passant part in fen: {fen!r}")
            board.ep_square = FILE_NAMES.index(ep[0]) + 8 * (int(ep[1]) - 1)
        for index, name in ((4, "halfmove_clock"), (5, "fullmove_number")):
            if len(parts) > index:
                text = parts[index]
                if not text.isdigit() or not text.isascii():
                    raise ValueError(f"invalid {name.replace('_', ' ')} in fen: {fen!r}")
                setattr(board, name, int(text))
        board.fullmove_number = max(board.fullmove_number, 1)
        board._root = board._state()
        return board

    def _clean_fen(self) -> str:
        """The FEN of the position once cleaned: castling rights that can be used, and the
        en-passant square only where a pawn has just crossed it."""
        ep = self._valid_ep_square()
        return " ".join([
            self.board_fen(), "w" if self.turn else "b", self._castling_xfen(), "-" if ep is None else _sq_name(ep),
            str(self.halfmove_clock), str(self.fullmove_number),
        ])  # fmt: skip

    def _raw(self) -> Optional[Tuple[int, Optional[int]]]:
        if self.castling_rights == self.clean_castling_rights() and self.ep_square == self._valid_ep_square():
            return None
        return (self.castling_rights & bb.BB_ALL, self.ep_square)


def _square(square: int) -> int:
    if not isinstance(square, int) or not 0 <= square < 64:
        raise IndexError(f"square index {square!r} out of range 0..=63")
    return square


def resolve(setup: SetupBoard) -> Tuple[Optional[str], Optional[Tuple[int, Optional[int]]], SetupBoard]:
    """What the native board makes of a setup board: the cleaned FEN it tries first (none
    for Chess960) with the raw rights and square, and the setup board itself."""
    if setup.chess960 or setup.promoted:
        return None, None, setup
    return setup._clean_fen(), setup._raw(), setup


def resolve_fen(fen: Optional[str], chess960: bool) -> Tuple[Optional[str], Optional[Tuple[int, Optional[int]]], SetupBoard]:
    """A FEN the native parser refused (or any Chess960 FEN), loaded as python-chess loads it;
    ``ValueError`` for text python-chess refuses too."""
    return resolve(SetupBoard.from_fen(fen, chess960))


def board_from_fen(fen: str, chess960: bool) -> Any:
    """Unpickles a setup-mode board."""
    from ._core import Board

    return Board(fen, chess960=chess960)


def state_of(board: Any) -> SetupBoard:
    """A setup board with the native board's position (raw castling rights and en-passant
    square included), without its move stack."""
    setup = board._setup
    if setup is not None:
        out: SetupBoard = setup.copy(stack=False)
        out.clear_stack()
        return out
    out = SetupBoard()
    out.squares = [board.piece_at(sq) for sq in range(64)]
    out.turn = board.turn
    out.castling_rights = board.castling_rights
    out.ep_square = board.ep_square
    out.halfmove_clock = board.halfmove_clock
    out.fullmove_number = board.fullmove_number
    return out


def adopt(board: Any, setup: SetupBoard) -> None:
    """Puts an edited state on the native board (clearing its move stack)."""
    setup.clear_stack()
    setup._root = setup._state()
    board._load(*resolve(setup))


def set_attribute(board: Any, name: str, value: Any) -> None:
    """``board.turn = ...`` and the other writable attributes of python-chess's board."""
    setup = state_of(board)
    if name == "castling_rights":
        setup.castling_rights = int(value) & bb.BB_ALL
    elif name == "ep_square":
        setup.ep_square = None if value is None else _square(int(value))
    elif name in ("turn", "chess960"):
        setattr(setup, name, bool(value))
    elif name in ("halfmove_clock", "fullmove_number"):
        number = int(value)
        if number < 0:
            raise ValueError(f"{name} must not be negative: {value!r}")
        setattr(setup, name, number)
    else:
        raise AttributeError(name)
    adopt(board, setup)


def chess960_placement(scharnagl: int) -> str:
    """The back rank (White's, as FEN letters) of Chess960 start position ``scharnagl``
    (0..959; 518 is the standard one), by the Scharnagl numbering."""
    if not 0 <= scharnagl <= 959:
        raise ValueError(f"chess960 position index not 0 <= {scharnagl!r} <= 959")
    n, light = divmod(scharnagl, 4)
    n, dark = divmod(n, 4)
    n, queen = divmod(n, 6)
    rank: List[Optional[str]] = [None] * 8
    rank[2 * light + 1] = "B"
    rank[2 * dark] = "B"
    free = [i for i in range(8) if rank[i] is None]
    rank[free[queen]] = "Q"
    knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n]
    free = [i for i in range(8) if rank[i] is None]
    for k in knights:
        rank[free[k]] = "N"
    free = [i for i in range(8) if rank[i] is None]
    for i, letter in zip(free, "RKR"):
        rank[i] = letter
    return "".join(letter or "" for letter in rank)


_CHESS960_INDEX: Dict[str, int] = {}


def chess960_index(board_fen: str) -> Optional[int]:
    if not _CHESS960_INDEX:
        for n in range(960):
            white = chess960_placement(n)
            _CHESS960_INDEX[f"{white.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white}"] = n
    return _CHESS960_INDEX.get(board_fen)

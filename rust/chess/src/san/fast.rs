//! The common SAN forms resolved without listing every legal move: a piece move (`Nf3`,
//! `Rae1`, `Qxd5+`), a king step (`Kf1`), castling (`O-O`, `O-O-O`) and a pawn push or
//! capture, promoting or not (`e4`, `exd5`, `e8=Q`, `bxa1=N+`). Movetext of a
//! database is almost all of these, and generating all legal moves per ply to find one was
//! the reader's largest cost.
//!
//! The answer is only ever a move [`super::parse_san`]'s full path would also return: anything
//! unusual (en passant, lenient spellings such as `0-0`, `e8Q` or `Ng1-f3`, a piece other than
//! the king in double check, a text that names no legal move or is ambiguous) gives `None`, and
//! `parse_san` goes on to its full path, which also words the error.

use crate::attacks::{Sliders, between, king_attacks, knight_attacks, line};
use crate::bitboard::Bitboard;
use crate::movegen::{self, CASTLE_AVAIL, CASTLES};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::{Color, Role, Square};

fn square(file: u8, rank: u8) -> Option<Square> {
    if (b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank) {
        Square::new(u32::from(rank - b'1') * 8 + u32::from(file - b'a'))
    } else {
        None
    }
}

/// What limits the moves of the side to move: its king, where a non-king piece may go
/// without leaving the king in check (`None` in double check: only the king may move), and
/// the pieces pinned to the king. One look at the king's lines per move, shared by every
/// candidate.
struct Safety {
    king: Square,
    evasion: Option<Bitboard>,
    pinned: Bitboard,
}

fn safety<S: Sliders>(pos: &Position) -> Safety {
    let us = pos.turn();
    let king = pos.king(us);
    let s = movegen::king_safety::<S>(pos.board(), us, king);
    let evasion = if s.checkers.more_than_one() {
        None
    } else {
        Some(match s.checkers.single_square() {
            None => Bitboard::FULL,
            Some(checker) => between(king, checker).with(checker),
        })
    };
    Safety {
        king,
        evasion,
        pinned: (s.pin_orth | s.pin_diag) & pos.board().by_color(us),
    }
}

/// The one legal move among `froms` to `to` (of kind `kind`), if exactly one is legal.
fn only_legal<S: Sliders>(
    pos: &Position,
    froms: Bitboard,
    to: Square,
    kind: MoveKind,
) -> Option<Move> {
    let safety = safety::<S>(pos);
    if !safety.evasion?.contains(to) {
        return None;
    }
    let mut found = None;
    for from in froms {
        if !safety.pinned.contains(from) || line(safety.king, from).contains(to) {
            if found.is_some() {
                return None;
            }
            found = Some(Move::new(from, to, kind));
        }
    }
    found
}

/// The move `text` names, for the forms this module knows; `None` otherwise.
pub(crate) fn resolve(pos: &Position, text: &str) -> Option<Move> {
    crate::dispatch!(S => resolve_with::<S>(pos, text.as_bytes()))
}

#[inline(always)]
fn resolve_with<S: Sliders>(pos: &Position, bytes: &[u8]) -> Option<Move> {
    let mut end = bytes.len();
    while end > 0 && matches!(bytes[end - 1], b'+' | b'#') {
        end -= 1;
    }
    let b = &bytes[..end];
    if b.len() < 2 {
        return None;
    }
    if b[0] == b'O' {
        return castle::<S>(pos, b);
    }
    let (b, promotion) = match b {
        [rest @ .., b'=', p] => {
            let role = match p {
                b'N' => Role::Knight,
                b'B' => Role::Bishop,
                b'R' => Role::Rook,
                b'Q' => Role::Queen,
                _ => return None,
            };
            (rest, Some(role))
        }
        _ => (b, None),
    };
    if b.len() < 2 {
        return None;
    }
    let to = square(b[b.len() - 2], b[b.len() - 1])?;
    let us = pos.turn();
    let board = pos.board();
    let ours = board.by_color(us);
    if ours.contains(to) {
        return None;
    }
    let role = match b[0] {
        b'N' => Role::Knight,
        b'B' => Role::Bishop,
        b'R' => Role::Rook,
        b'Q' => Role::Queen,
        b'K' => Role::King,
        b'a'..=b'h' => return pawn::<S>(pos, b, to, promotion),
        _ => return None,
    };
    if promotion.is_some() {
        return None;
    }
    // Between the letter and the square: an origin file and/or rank, then `x`, each optional.
    let mut mid = &b[1..b.len() - 2];
    if let [rest @ .., b'x'] = mid {
        mid = rest;
    }
    if role == Role::King {
        return if mid.is_empty() {
            king::<S>(pos, to)
        } else {
            None
        };
    }
    // The squares from which a piece of this role reaches `to`: only its own attacks are
    // looked up (all attackers of every role cost three times as much, once per move).
    let occ = board.occupied();
    let reach = match role {
        Role::Knight => knight_attacks(to),
        Role::Bishop => S::bishop(to, occ),
        Role::Rook => S::rook(to, occ),
        // The queen (the king was answered above).
        _ => S::bishop(to, occ) | S::rook(to, occ),
    };
    let mut froms = reach & board.by_role(role) & ours;
    match mid {
        [] => {}
        [f @ b'a'..=b'h'] => froms &= Bitboard::from_file(square(*f, b'1')?.file()),
        [r @ b'1'..=b'8'] => froms &= Bitboard::from_rank(square(b'a', *r)?.rank()),
        [f, r] => froms &= Bitboard::from_square(square(*f, *r)?),
        _ => return None,
    }
    only_legal::<S>(pos, froms, to, MoveKind::Normal)
}

/// A king step (not castling): legal when the square is not attacked once the king has
/// left its own square (so a checking slider's ray behind the king counts).
fn king<S: Sliders>(pos: &Position, to: Square) -> Option<Move> {
    let us = pos.turn();
    let board = pos.board();
    let king = pos.king(us);
    if !king_attacks(king).contains(to) {
        return None;
    }
    let without_king = board.occupied().without(king);
    if movegen::attacked_by::<S>(board, us.other(), to, without_king) {
        return None;
    }
    Some(Move::normal(king, to))
}

/// `O-O` / `O-O-O` exactly as the move generator allows them (R3.8b): the right held, the
/// squares up to the rook empty, the king not in check and its path unattacked.
fn castle<S: Sliders>(pos: &Position, b: &[u8]) -> Option<Move> {
    let side = match b {
        b"O-O" => 0,
        b"O-O-O" => 1,
        _ => return None,
    };
    if !pos.castling_rights().is_standard() {
        return None; // Chess960: the general reader finds it.
    }
    let us = pos.turn();
    let board = pos.board();
    let king = pos.king(us);
    let occ = board.occupied();
    let back_rank = (occ.0 >> (1 + 56 * us.index() as u32)) & 0x3F;
    let rights = (pos.castling_rights().bits() >> (2 * us.index())) & 3;
    let avail = CASTLE_AVAIL[(rights as usize) << 6 | back_rank as usize];
    if avail & (1 << side) == 0 || pos.is_check() {
        return None;
    }
    let c = &CASTLES[us.index()][side];
    let without_king = occ.without(king);
    for t in c.king_path {
        if movegen::attacked_by::<S>(board, us.other(), t, without_king) {
            return None;
        }
    }
    Some(Move::new(king, c.king_to, MoveKind::Castle))
}

fn pawn<S: Sliders>(pos: &Position, b: &[u8], to: Square, promotion: Option<Role>) -> Option<Move> {
    let us = pos.turn();
    let board = pos.board();
    let (step, last_rank, double_rank) = match us {
        Color::White => (8i32, 7u32, 3u32),
        Color::Black => (-8i32, 0u32, 4u32),
    };
    let to_rank = to.index() as u32 / 8;
    // A move to the last rank promotes, and only such a move may.
    let kind = match (to_rank == last_rank, promotion) {
        (false, None) => MoveKind::Normal,
        (true, Some(role)) => MoveKind::Promotion(role),
        _ => return None,
    };
    let our_pawns = board.by_color(us) & board.by_role(Role::Pawn);
    let occupied = board.occupied();
    match b {
        [_, _] => {
            if occupied.contains(to) {
                return None;
            }
            let one = to.offset(-step)?;
            let from = if our_pawns.contains(one) {
                one
            } else if !occupied.contains(one) && to_rank == double_rank {
                let two = one.offset(-step)?;
                if !our_pawns.contains(two) {
                    return None;
                }
                two
            } else {
                return None;
            };
            only_legal::<S>(pos, Bitboard::from_square(from), to, kind)
        }
        [f, b'x', _, _] => {
            // A plain capture: the square holds an enemy piece (en passant goes the full way).
            if !board.by_color(us.other()).contains(to) {
                return None;
            }
            let file = u32::from(f.checked_sub(b'a')?);
            let to_file = to.index() as u32 % 8;
            if file.abs_diff(to_file) != 1 {
                return None;
            }
            let from_rank = (to_rank as i32 - step / 8) as u32;
            let from = Square::new(from_rank * 8 + file)?;
            if !our_pawns.contains(from) {
                return None;
            }
            only_legal::<S>(pos, Bitboard::from_square(from), to, kind)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    // The full path, which lists every legal move: what `resolve` must agree with.
    use crate::san::parse_san_listing as parse_san;

    /// Checks every legal move's SAN (and a few other spellings) in `pos`: whatever
    /// `resolve` answers is what `parse_san` answers. Returns how many it resolved, by the
    /// kind of move.
    fn check_position(pos: &Position, counts: &mut [usize; 4]) {
        for &m in &pos.legal_moves() {
            let san = crate::san::to_san(pos, m);
            let uci = m.to_uci();
            for text in [san.clone(), format!("{san}+"), uci.clone()] {
                if let Some(fast) = resolve(pos, &text) {
                    assert_eq!(Ok(fast), parse_san(pos, &text), "{text} in {}", pos.fen());
                    let kind = if m.is_castle() {
                        1
                    } else if m.is_promotion() {
                        2
                    } else if pos.moved_role(m) == Some(Role::King) {
                        3
                    } else {
                        0
                    };
                    counts[kind] += 1;
                }
            }
        }
        // Texts that name no legal move (or name one only leniently) must not resolve to
        // anything else.
        for text in [
            "Nxe9", "Qh9", "e5", "exf3", "Rbb1", "Kf3", "Kg1", "Kc8", "O-O", "O-O-O", "e8=Q", "e8",
            "exd8=N", "a1=Q", "h1=K", "Ke1g1", "b8=P",
        ] {
            if let Some(fast) = resolve(pos, text) {
                assert_eq!(Ok(fast), parse_san(pos, text), "{text} in {}", pos.fen());
            }
        }
    }

    /// Over the positions of random games (seed printed) and positions rich in castling,
    /// pins, checks and promotions, `resolve` agrees with `parse_san` wherever it answers.
    #[test]
    fn agrees_with_parse_san() {
        let seed = 0x9E37_79B9_7F4A_7C15u64;
        println!("fast_san differential seed {seed:#x}");
        // xorshift64, the random numbers of the PGN crate's tests.
        let mut state = seed;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut counts = [0usize; 4];
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/1b6/8/8/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/8/5b2/8/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1",
            "4k3/8/8/2b5/8/8/3P4/R3K2R w KQ - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1",
            "4k3/8/8/8/1b6/8/4r3/R3K2R w KQ - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            check_position(&pos, &mut counts);
        }
        for _game in 0..300 {
            let mut pos = Position::new();
            for _ply in 0..160 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                check_position(&pos, &mut counts);
                let m = legal.as_slice()[(next() % legal.len() as u64) as usize];
                pos.play_unchecked(m);
            }
        }
        println!("resolved: {counts:?} (other, castling, promotion, king)");
        assert!(counts[0] > 10_000, "{counts:?}");
        assert!(counts.iter().all(|&n| n > 20), "{counts:?}");
    }
}

//! `History`: a game from a starting position, with the rules that look back in time —
//! repetition (R4.8), the fifty- and seventy-five-move rules, and the outcome.

use crate::Square;
use crate::moves::Move;
use crate::outcome::{Outcome, Rules, Termination};
use crate::position::{IllegalMoveError, Position};
use core::fmt;

/// One position of the game and how it was reached.
#[derive(Clone, Debug)]
struct Entry {
    pos: Position,
    /// The en-passant square only when an en-passant capture is legal: part of the FIDE
    /// identity of positions (R4.8), unlike the square recorded after every double step.
    legal_ep: Option<Square>,
    /// The move that led here cannot be undone by later moves (pawn move, capture, loss of
    /// castling rights, or a position with a legal en-passant capture left behind), so no
    /// position before it can recur.
    irreversible: bool,
}

impl Entry {
    fn new(pos: Position, irreversible: bool) -> Entry {
        Entry {
            legal_ep: pos.legal_ep_square(),
            pos,
            irreversible,
        }
    }

    /// The same position in the sense of FIDE 9.2.3 (R4.8): same side to move, same pieces on
    /// the same squares, same castling rights, same legal en-passant capture.
    fn same_position(&self, other: &Entry) -> bool {
        self.pos.board == other.pos.board
            && self.pos.turn == other.pos.turn
            && self.pos.castling == other.pos.castling
            && self.legal_ep == other.legal_ep
    }
}

/// A game: a start position and the moves played from it.
///
/// The start position is held inline and only the positions after moves in a vector, so a
/// game with no move yet (a board read from a FEN, `Position::outcome`) allocates nothing:
/// `Board(fen)` in Python paid a `malloc` and a `free` per call for a one-entry vector.
#[derive(Clone, Debug)]
pub struct History {
    /// The start position.
    root: Entry,
    /// The position after each move, oldest first: `later[i]` follows `moves[i]`.
    later: Vec<Entry>,
    moves: Vec<Move>,
}

impl Default for History {
    fn default() -> History {
        History::new(Position::new())
    }
}

impl History {
    pub fn new(start: Position) -> History {
        History {
            root: Entry::new(start, true),
            later: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// The current position's entry.
    #[inline]
    fn current(&self) -> &Entry {
        self.later.last().unwrap_or(&self.root)
    }

    /// The current position.
    #[inline]
    pub fn position(&self) -> &Position {
        &self.current().pos
    }

    pub fn start(&self) -> &Position {
        &self.root.pos
    }

    /// The positions of the game, oldest first: `positions().nth(i)` is the one in which
    /// `moves()[i]` was played, and the last is the current position.
    // `0..=n` would not do: an inclusive range of `usize` is no `ExactSizeIterator`.
    #[allow(clippy::range_plus_one)]
    pub fn positions(&self) -> impl ExactSizeIterator<Item = &Position> + DoubleEndedIterator {
        (0..self.later.len() + 1).map(|i| match i.checked_sub(1) {
            None => &self.root.pos,
            Some(after) => &self.later[after].pos,
        })
    }

    /// The moves played, oldest first.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a legal move.
    pub fn push(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        let before = self.position();
        if !before.is_legal(m) {
            return Err(IllegalMoveError {
                mv: m,
                fen: before.fen(),
            });
        }
        self.push_unchecked(m);
        Ok(())
    }

    /// Plays a move known to be legal.
    pub fn push_unchecked(&mut self, m: Move) {
        if m == Move::NULL {
            self.push_null();
            return;
        }
        let last = self.current();
        let zeroing = last.pos.is_zeroing(m);
        let castling = last.pos.castling;
        let left_ep = last.legal_ep.is_some();
        // The new entry is played where it lies: a position played on the stack and then
        // moved into the vector reloads its freshly written small fields (side, castling,
        // en passant, clocks) as whole words, a store-forwarding stall per move.
        let copy = last.clone();
        self.later.push(copy);
        let entry = self.later.last_mut().expect("just pushed");
        entry.pos.play_unchecked(m);
        entry.legal_ep = entry.pos.legal_ep_square();
        entry.irreversible = zeroing || entry.pos.castling != castling || left_ep;
        self.moves.push(m);
    }

    /// Takes back the last move.
    /// Passes the turn without moving: a null move, stored as [`Move::NULL`] in
    /// [`moves`](History::moves). Refused (`false`) in check, where it would leave the side
    /// not to move in check. It bounds repetitions: positions before it never count as
    /// repeated after it.
    pub fn push_null(&mut self) -> bool {
        let mut after = *self.position();
        if !after.play_null() {
            return false;
        }
        self.later.push(Entry::new(after, true));
        self.moves.push(Move::NULL);
        true
    }

    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.later.pop();
        Some(m)
    }

    /// Entries since the last irreversible move, newest first (the current one included).
    fn reversible_tail(&self) -> impl Iterator<Item = &Entry> {
        let mut done = false;
        let newest_first = self.later.iter().rev().chain(core::iter::once(&self.root));
        newest_first.take_while(move |e| {
            if done {
                return false;
            }
            done = e.irreversible;
            true
        })
    }

    /// How often the current position has occurred, this time included (R4.8).
    pub fn repetition_count(&self) -> usize {
        let now = self.current();
        self.reversible_tail()
            .filter(|e| e.same_position(now))
            .count()
    }

    /// Has the current position occurred at least `count` times?
    pub fn is_repetition(&self, count: usize) -> bool {
        // The same position recurs four plies later at the soonest (each side must move a
        // piece away and back), and only over reversible moves, each of which advances the
        // halfmove clock: `count` occurrences need a clock of 4 * (count - 1) at least. So a
        // game over ply 16 with a low clock skips the walk.
        let plies = u32::try_from(count.saturating_sub(1).saturating_mul(4)).unwrap_or(u32::MAX);
        if self.position().halfmove_clock() < plies {
            return false;
        }
        self.repetition_count() >= count
    }

    /// R4.8: the third occurrence now, or the one a legal move would bring about.
    pub fn can_claim_threefold_repetition(&self) -> bool {
        if self.repetition_count() >= 3 {
            return true;
        }
        let pos = *self.position();
        for &m in &pos.legal_moves() {
            let mut after = pos;
            after.play_unchecked(m);
            let next = Entry::new(after, false);
            // The move itself must be reversible for earlier positions to count.
            let irreversible = pos.is_zeroing(m)
                || after.castling != pos.castling
                || self.current().legal_ep.is_some();
            if irreversible {
                continue;
            }
            if self
                .reversible_tail()
                .filter(|e| e.same_position(&next))
                .count()
                >= 2
            {
                return true;
            }
        }
        false
    }

    /// 50 moves of each side without pawn move or capture, and the game not already over
    /// by having no legal move.
    pub fn is_fifty_moves(&self) -> bool {
        let pos = self.position();
        pos.halfmove_clock() >= 100 && pos.has_legal_moves()
    }

    /// R4.8: fifty moves now, or completed by a legal move the player announces.
    pub fn can_claim_fifty_moves(&self) -> bool {
        if self.is_fifty_moves() {
            return true;
        }
        let pos = *self.position();
        if pos.halfmove_clock() >= 99 {
            for &m in &pos.legal_moves() {
                if !pos.is_zeroing(m) {
                    let mut after = pos;
                    after.play_unchecked(m);
                    if after.halfmove_clock() >= 100 && after.has_legal_moves() {
                        return true;
                    }
                }
            }
        }
        false
    }

    pub fn can_claim_draw(&self) -> bool {
        self.can_claim_fifty_moves() || self.can_claim_threefold_repetition()
    }

    /// R4.8: 75 moves of each side, ending the game without a claim (a mate on the last
    /// move takes precedence, since then there is no legal move).
    pub fn is_seventyfive_moves(&self) -> bool {
        let pos = self.position();
        pos.halfmove_clock() >= 150 && pos.has_legal_moves()
    }

    /// R4.8: the fifth occurrence ends the game without a claim.
    pub fn is_fivefold_repetition(&self) -> bool {
        self.is_repetition(5)
    }

    /// The outcome in python-chess's order: checkmate, insufficient material, stalemate,
    /// seventy-five moves, fivefold; then, with `claim_draw`, fifty moves and threefold.
    pub fn outcome(&self, claim_draw: bool) -> Option<Outcome> {
        let pos = self.position();
        self.outcome_knowing(
            claim_draw,
            pos.has_free_knight_or_pawn_move() || pos.has_legal_moves(),
        )
    }

    /// [`outcome`](Self::outcome) for a caller that already knows whether the side to move
    /// has a legal move (`can_move`), from a move list it keeps, say: the one question of
    /// the outcome that costs a move generation.
    pub fn outcome_knowing(&self, claim_draw: bool, can_move: bool) -> Option<Outcome> {
        let pos = self.position();
        debug_assert_eq!(can_move, pos.has_legal_moves());
        let draw = |termination| {
            Some(Outcome {
                termination,
                winner: None,
            })
        };
        // Whether a legal move exists decides checkmate, stalemate and the seventy-five-move
        // rule alike: asked once.
        if !can_move && pos.is_check() {
            return Some(Outcome {
                termination: Termination::Checkmate,
                winner: Some(pos.turn().other()),
            });
        }
        if pos.is_insufficient_material() {
            return draw(Termination::InsufficientMaterial);
        }
        if !can_move {
            return draw(Termination::Stalemate);
        }
        if pos.halfmove_clock() >= 150 {
            return draw(Termination::SeventyfiveMoves);
        }
        if self.is_fivefold_repetition() {
            return draw(Termination::FivefoldRepetition);
        }
        if claim_draw {
            if self.can_claim_fifty_moves() {
                return draw(Termination::FiftyMoves);
            }
            if self.can_claim_threefold_repetition() {
                return draw(Termination::ThreefoldRepetition);
            }
        }
        None
    }
}

/// A draw offer made before each player has moved (R4.7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgreementTooEarly {
    /// Moves made in this game so far.
    pub moves: usize,
}

impl fmt::Display for AgreementTooEarly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a draw by agreement needs each player to have made a move; {} made so far",
            self.moves
        )
    }
}

impl std::error::Error for AgreementTooEarly {}

impl History {
    /// The game's end by itself under `rules` (R5), in this order: checkmate (so a mate on
    /// the 75th move stands), the material list, stalemate; under FIDE rules (R5.1) then a
    /// dead position by the real test (`Position::is_dead_position`: neither side can ever
    /// mate, R4.6), which `outcome` leaves out as python-chess does; then seventy-five moves
    /// and fivefold repetition; under automatic rules (R5.2) also the third occurrence of a
    /// position and the fifty-move condition, at once.
    // FIDE's rules end nothing by themselves: said first, before the automatic ones.
    #[allow(clippy::match_same_arms)]
    pub fn outcome_under(&self, rules: Rules) -> Option<Outcome> {
        let ending = self.outcome(false);
        let draw = |termination| {
            Some(Outcome {
                termination,
                winner: None,
            })
        };
        let on_the_board = |o: &Outcome| {
            matches!(
                o.termination,
                Termination::Checkmate | Termination::InsufficientMaterial | Termination::Stalemate
            )
        };
        if rules == Rules::Fide
            && !ending.as_ref().is_some_and(on_the_board)
            && self.position().is_dead_position()
        {
            return draw(Termination::DeadPosition);
        }
        if ending.is_some() {
            return ending;
        }
        match rules {
            Rules::Fide => None,
            Rules::Automatic if self.is_fifty_moves() => draw(Termination::FiftyMoves),
            Rules::Automatic if self.is_repetition(3) => draw(Termination::ThreefoldRepetition),
            Rules::Automatic => None,
        }
    }

    /// A draw by agreement (R4.7), allowed once each player has made at least one move.
    pub fn draw_by_agreement(&self) -> Result<Outcome, AgreementTooEarly> {
        if self.moves.len() < 2 {
            return Err(AgreementTooEarly {
                moves: self.moves.len(),
            });
        }
        Ok(Outcome {
            termination: Termination::Agreement,
            winner: None,
        })
    }
}

impl Position {
    /// The outcome of this position on its own (no history): checkmate, insufficient
    /// material, stalemate, or seventy-five moves.
    pub fn outcome(&self) -> Option<Outcome> {
        History::new(*self).outcome(false)
    }
}

//! `VariantBoard`: the native half of `shatranj.variant`, python-chess's variant boards over
//! the rules crate's `AnyVariantPosition` (one enum over every variant's `VariantPosition<V>`)
//! and the move stack.
//!
//! The class is subclassed in Python once per variant (`AtomicBoard`, `CrazyhouseBoard`,
//! …), which names the variant and adds what is naturally Python (python-chess's pockets
//! and remaining-checks views, EPD operations, piece queries over `BaseBoard`). Every rule
//! is answered here, from the rules crate: the legal moves (in python-chess's order), make
//! and unmake, SAN and UCI, the end of the game.
//!
//! Like python-chess's boards, a variant board holds a position its variant's validity
//! rules refuse (`status()` reports it; the moves are what python-chess lists there); and
//! like shatranj's `Board`, and unlike python-chess, `push` refuses an illegal move with
//! `IllegalMoveError`.

pub(crate) mod keys;

use crate::args;
use crate::errors::{IllegalMoveError, InvalidMoveError};
use crate::rules::moves::{Move, move_object, parse_uci_key};
use keys::{find, key_of_move};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use shatranj_chess::castling::CastlingSide;
use shatranj_chess::on_any_variant;
use shatranj_chess::variant::{
    AnyVariantPosition, Variant, VariantKind, VariantMove, VariantPosition, VariantTermination,
};
use shatranj_chess::{Bitboard, CastlingMode, Color, Role};

/// The empty board python-chess's `Board(None)` is.
const EMPTY_FEN: &str = "8/8/8/8/8/8/8/8 w - - 0 1";

/// A variant board: the position, the plies that led to it, and the current position's
/// legal moves once listed (python-chess's order).
#[pyclass(module = "shatranj._core", name = "VariantBoard", subclass)]
pub struct VariantBoard {
    pos: AnyVariantPosition,
    chess960: bool,
    stack: Vec<Ply>,
    legal: Option<Vec<VariantMove>>,
}

/// One move of the stack: the position before it, python-chess's key of the move, and that
/// position's legal moves if they were listed. Keeping the list with the ply means the
/// usual loop `for m in board.legal_moves: board.push(m); board.pop()` lists the parent's
/// moves once, not at every push.
#[derive(Clone)]
struct Ply {
    before: AnyVariantPosition,
    key: u16,
    legal: Option<Vec<VariantMove>>,
}

fn illegal(text: &str, fen: &str) -> PyErr {
    IllegalMoveError::new_err(format!("illegal move {text:?} in {fen}"))
}

fn color_of(turn: Color) -> bool {
    args::py_color(turn)
}

/// The castling rights as python-chess's bitboard of the rooks' squares.
fn castling_mask<V: Variant>(pos: &VariantPosition<V>) -> u64 {
    let mut bb = Bitboard::EMPTY;
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if let Some(sq) = pos.castling_rights().rook_square(color, side) {
                bb = bb.with(sq);
            }
        }
    }
    bb.0
}

/// python-chess's `is_irreversible`: a move that zeroes the clock, gives up a castling
/// right, or leaves a legal en-passant capture behind; crazyhouse counts the castling
/// rights only, three-check also a check.
fn irreversible<V: Variant>(pos: &VariantPosition<V>, m: Option<VariantMove>) -> bool {
    let after = m.map(|m| {
        let mut p = *pos;
        p.play_unchecked(m);
        p
    });
    let reduces = after.is_some_and(|a| a.castling_rights() != pos.castling_rights());
    if V::DROPS {
        return reduces;
    }
    let zeroing = match m {
        Some(VariantMove::Board(mv)) => {
            pos.board().pawns().contains(mv.from()) || pos.is_capture(VariantMove::Board(mv))
        }
        Some(VariantMove::Drop { role, .. }) => role == Role::Pawn,
        None => false,
    };
    let check = V::UCI_NAME == "3check" && after.is_some_and(|a| a.is_check());
    zeroing || reduces || check || pos.legal_ep_square().is_some()
}

fn termination_name(t: VariantTermination) -> &'static str {
    match t {
        VariantTermination::Checkmate => "CHECKMATE",
        VariantTermination::Stalemate => "STALEMATE",
        VariantTermination::InsufficientMaterial => "INSUFFICIENT_MATERIAL",
        VariantTermination::VariantWin => "VARIANT_WIN",
        VariantTermination::VariantLoss => "VARIANT_LOSS",
        VariantTermination::VariantDraw => "VARIANT_DRAW",
    }
}

impl VariantBoard {
    /// The current position (what an engine's lines are read from).
    pub(crate) fn position(&self) -> AnyVariantPosition {
        self.pos
    }

    fn kind(&self) -> VariantKind {
        self.pos.kind()
    }

    fn load(&mut self, fen: &str) -> PyResult<()> {
        // A position the variant's validity rules refuse is kept, as python-chess keeps
        // it; `status()` says what is wrong with it.
        let (pos, _problem) = AnyVariantPosition::from_fen_unchecked(
            self.kind(),
            fen,
            CastlingMode::from_chess960(self.chess960),
        )
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.pos = pos;
        self.legal = None;
        Ok(())
    }

    fn fen_text(&self) -> String {
        on_any_variant!(&self.pos, p => p.fen())
    }

    fn legal(&mut self) -> &[VariantMove] {
        let pos = &self.pos;
        self.legal
            .get_or_insert_with(|| on_any_variant!(pos, p => p.legal_moves_python_order()))
    }

    /// The legal move python-chess's `key` names, if any.
    fn resolve(&mut self, key: u16) -> Option<VariantMove> {
        let pos = self.pos;
        let moves = self.legal();
        on_any_variant!(&pos, p => find(p, moves, key))
    }

    /// The pseudo-legal move (drops included) python-chess's `key` names, if any.
    fn resolve_pseudo(&self, key: u16) -> Option<VariantMove> {
        on_any_variant!(&self.pos, p => find(p, &p.pseudo_legal_moves(), key))
    }

    fn play(&mut self, m: VariantMove) {
        let key = on_any_variant!(&self.pos, p => key_of_move(p, m));
        self.stack.push(Ply {
            before: self.pos,
            key,
            legal: self.legal.take(),
        });
        on_any_variant!(&mut self.pos, p => p.play_unchecked(m));
        self.legal = None;
    }

    fn move_list<'py>(
        &self,
        py: Python<'py>,
        moves: &[VariantMove],
    ) -> PyResult<Bound<'py, PyList>> {
        let objects = on_any_variant!(&self.pos, p => moves
            .iter()
            .map(|&m| move_object(py, key_of_move(p, m)))
            .collect::<PyResult<Vec<_>>>())?;
        PyList::new(py, objects)
    }

    /// python-chess's `is_repetition(count)`: the current position occurred `count` times,
    /// counting back over reversible moves only.
    fn repetition(&self, mut count: usize) -> bool {
        let target = on_any_variant!(&self.pos, p => p.key());
        for Ply { before, key, .. } in self.stack.iter().rev() {
            if count <= 1 {
                return true;
            }
            let (gone, same) = on_any_variant!(before, p => {
                let m = find(p, &p.pseudo_legal_moves(), *key);
                (irreversible(p, m), p.key() == target)
            });
            if gone {
                break;
            }
            if same {
                count -= 1;
            }
        }
        count <= 1
    }
}

#[pymethods]
impl VariantBoard {
    #[new]
    #[pyo3(signature = (variant, fen = None, chess960 = false))]
    fn new(variant: &str, fen: Option<&str>, chess960: bool) -> PyResult<Self> {
        let kind = VariantKind::from_name(variant)
            .ok_or_else(|| PyValueError::new_err(format!("unknown variant {variant:?}")))?;
        let (pos, _problem) = AnyVariantPosition::from_fen_unchecked(
            kind,
            fen.unwrap_or(EMPTY_FEN),
            CastlingMode::from_chess960(chess960),
        )
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(VariantBoard {
            pos,
            chess960,
            stack: Vec::new(),
            legal: None,
        })
    }

    /// The variant's python-chess `uci_variant` name.
    #[getter(_variant)]
    fn variant_name(&self) -> &'static str {
        self.kind().uci_name()
    }

    /// Replaces the position and clears the move stack (python-chess's `set_fen`).
    fn set_fen(&mut self, fen: &str) -> PyResult<()> {
        self.load(fen)?;
        self.stack.clear();
        Ok(())
    }

    /// Replaces the current position and keeps the move stack (the edits: pieces, pockets,
    /// remaining checks, the side to move).
    #[pyo3(name = "_set_position")]
    fn set_position(&mut self, fen: &str) -> PyResult<()> {
        self.load(fen)
    }

    /// Copies `other`'s position and the last `keep` moves of its stack (python-chess's
    /// `copy(stack=...)`); `root` starts from its first position instead, with no moves.
    #[pyo3(name = "_copy_from", signature = (other, keep, root = false))]
    fn copy_from(&mut self, other: &VariantBoard, keep: usize, root: bool) {
        self.chess960 = other.chess960;
        self.legal = None;
        if root {
            self.pos = other.stack.first().map_or(other.pos, |ply| ply.before);
            self.stack.clear();
            return;
        }
        self.pos = other.pos;
        let skip = other.stack.len().saturating_sub(keep);
        self.stack = other.stack[skip..].to_vec();
    }

    fn clear_stack(&mut self) {
        self.stack.clear();
    }

    fn fen(&self) -> String {
        self.fen_text()
    }

    /// The EPD position fields (three-check's counters included), no operations.
    #[pyo3(name = "_epd")]
    fn epd(&self) -> String {
        on_any_variant!(&self.pos, p => p.epd())
    }

    /// The placement with crazyhouse's promoted marks (`~`), without the pocket.
    fn board_fen(&self) -> String {
        let text = on_any_variant!(&self.pos, p => p.board_fen());
        text.split('[').next().unwrap_or_default().to_owned()
    }

    /// The placement alone, for python-chess's `BaseBoard` queries.
    #[pyo3(name = "_placement")]
    fn placement(&self) -> String {
        self.board_fen().replace('~', "")
    }

    #[getter]
    fn turn(&self) -> bool {
        on_any_variant!(&self.pos, p => color_of(p.turn()))
    }

    #[getter]
    fn castling_rights(&self) -> u64 {
        on_any_variant!(&self.pos, p => castling_mask(p))
    }

    #[getter]
    fn ep_square(&self) -> Option<u32> {
        on_any_variant!(&self.pos, p => p.ep_square().map(|s| s.index() as u32))
    }

    #[getter]
    fn halfmove_clock(&self) -> u32 {
        on_any_variant!(&self.pos, p => p.halfmove_clock())
    }

    #[getter]
    fn fullmove_number(&self) -> u32 {
        on_any_variant!(&self.pos, p => p.fullmove_number())
    }

    #[getter]
    fn chess960(&self) -> bool {
        self.chess960
    }

    /// The squares of promoted pieces (crazyhouse's `~`, antichess's promoted kings).
    #[getter]
    fn promoted(&self) -> u64 {
        on_any_variant!(&self.pos, p => promoted_of(p))
    }

    /// Each side's pocket (crazyhouse), counts of pawn to queen: White's, then Black's.
    #[pyo3(name = "_pockets")]
    fn pockets(&self) -> ([u8; 5], [u8; 5]) {
        let roles = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ];
        on_any_variant!(&self.pos, p => (
            roles.map(|r| p.pocket_count(Color::White, r)),
            roles.map(|r| p.pocket_count(Color::Black, r)),
        ))
    }

    /// Three-check's remaining checks, White's then Black's (`None` in other variants).
    #[pyo3(name = "_remaining_checks")]
    fn remaining_checks(&self) -> Option<(u8, u8)> {
        match &self.pos {
            AnyVariantPosition::ThreeCheck(p) => Some((p.state().0[0], p.state().0[1])),
            _ => None,
        }
    }

    /// The pieces giving check, by the variant's notion of check.
    fn checkers_mask(&self) -> u64 {
        on_any_variant!(&self.pos, p => p.checkers().0)
    }

    /// Crazyhouse's squares a piece may be dropped on (python-chess's
    /// `legal_drop_squares_mask`): every empty one, the line to a lone checker, or none.
    fn legal_drop_squares_mask(&self) -> u64 {
        on_any_variant!(&self.pos, p => {
            let empty = !p.board().occupied();
            let checkers = p.checkers();
            match (p.board().king_of(p.turn()), checkers.count()) {
                (None, _) | (_, 0) => empty.0,
                (Some(king), 1) => {
                    let checker = checkers.first().unwrap_or(king);
                    (shatranj_chess::attacks::between(king, checker) & empty).0
                }
                _ => 0,
            }
        })
    }

    /// The Zobrist key (Polyglot's for the placement, rights, en passant and turn, XOR the
    /// variant's state).
    #[pyo3(name = "_key")]
    fn key(&self) -> u64 {
        on_any_variant!(&self.pos, p => p.key())
    }

    #[pyo3(name = "_legal_moves")]
    fn legal_moves<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let moves = self.legal().to_vec();
        self.move_list(py, &moves)
    }

    #[pyo3(name = "_pseudo_legal_moves")]
    fn pseudo_legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let moves = on_any_variant!(&self.pos, p => p.pseudo_legal_moves_python_order());
        self.move_list(py, &moves)
    }

    #[pyo3(name = "_legal_move_count")]
    fn legal_move_count(&mut self) -> usize {
        self.legal().len()
    }

    fn is_legal(&mut self, r#move: &Bound<'_, Move>) -> bool {
        self.resolve(r#move.get().key).is_some()
    }

    fn is_pseudo_legal(&self, r#move: &Bound<'_, Move>) -> bool {
        self.resolve_pseudo(r#move.get().key).is_some()
    }

    fn is_capture(&self, r#move: &Bound<'_, Move>) -> bool {
        self.resolve_pseudo(r#move.get().key)
            .is_some_and(|m| on_any_variant!(&self.pos, p => p.is_capture(m)))
    }

    fn is_en_passant(&self, r#move: &Bound<'_, Move>) -> bool {
        matches!(
            self.resolve_pseudo(r#move.get().key),
            Some(VariantMove::Board(mv)) if mv.is_en_passant()
        )
    }

    fn is_castling(&self, r#move: &Bound<'_, Move>) -> bool {
        matches!(
            self.resolve_pseudo(r#move.get().key),
            Some(VariantMove::Board(mv)) if mv.is_castle()
        )
    }

    fn gives_check(&self, r#move: &Bound<'_, Move>) -> bool {
        let Some(m) = self.resolve_pseudo(r#move.get().key) else {
            return false;
        };
        on_any_variant!(&self.pos, p => {
            let mut after = *p;
            after.play_unchecked(m);
            after.is_check()
        })
    }

    fn is_zeroing(&self, r#move: &Bound<'_, Move>) -> bool {
        match self.resolve_pseudo(r#move.get().key) {
            Some(VariantMove::Board(mv)) => on_any_variant!(&self.pos, p => {
                p.board().pawns().contains(mv.from()) || p.is_capture(VariantMove::Board(mv))
            }),
            Some(VariantMove::Drop { role, .. }) => role == Role::Pawn,
            None => false,
        }
    }

    fn is_irreversible(&self, r#move: &Bound<'_, Move>) -> bool {
        let m = self.resolve_pseudo(r#move.get().key);
        on_any_variant!(&self.pos, p => irreversible(p, m))
    }

    /// Plays a legal move (`IllegalMoveError` otherwise).
    fn push(&mut self, r#move: &Bound<'_, Move>) -> PyResult<()> {
        let key = r#move.get().key;
        let m = self
            .resolve(key)
            .ok_or_else(|| illegal(&crate::rules::moves::uci_of(key), &self.fen_text()))?;
        self.play(m);
        Ok(())
    }

    /// Takes back the last move and returns it.
    fn pop<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, Move>> {
        let ply = self
            .stack
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from empty move stack"))?;
        self.pos = ply.before;
        self.legal = ply.legal;
        move_object(py, ply.key)
    }

    fn peek<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, Move>> {
        let ply = self
            .stack
            .last()
            .ok_or_else(|| PyIndexError::new_err("peek into empty move stack"))?;
        move_object(py, ply.key)
    }

    #[getter]
    fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let objects = self
            .stack
            .iter()
            .map(|ply| move_object(py, ply.key))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, objects)
    }

    fn san(&mut self, r#move: &Bound<'_, Move>) -> PyResult<String> {
        let key = r#move.get().key;
        let m = self
            .resolve(key)
            .ok_or_else(|| illegal(&crate::rules::moves::uci_of(key), &self.fen_text()))?;
        Ok(on_any_variant!(&self.pos, p => p.san(m)))
    }

    fn uci(&mut self, r#move: &Bound<'_, Move>) -> String {
        let key = r#move.get().key;
        let key = match self.resolve(key) {
            Some(m) => on_any_variant!(&self.pos, p => key_of_move(p, m)),
            None => key,
        };
        crate::rules::moves::uci_of(key)
    }

    fn parse_san<'py>(&mut self, py: Python<'py>, san: &str) -> PyResult<Bound<'py, Move>> {
        if san.trim().is_empty() {
            return Err(InvalidMoveError::new_err("empty san"));
        }
        let found = on_any_variant!(&self.pos, p => p.parse_san(san).map(|m| key_of_move(p, m)));
        let key = found.map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
        move_object(py, key)
    }

    fn parse_uci<'py>(&mut self, py: Python<'py>, uci: &str) -> PyResult<Bound<'py, Move>> {
        let key = parse_uci_key(uci)?;
        let m = self
            .resolve(key)
            .ok_or_else(|| illegal(uci, &self.fen_text()))?;
        move_object(py, on_any_variant!(&self.pos, p => key_of_move(p, m)))
    }

    fn push_san<'py>(&mut self, py: Python<'py>, san: &str) -> PyResult<Bound<'py, Move>> {
        let m = self.parse_san(py, san)?;
        self.push(&m)?;
        Ok(m)
    }

    fn push_uci<'py>(&mut self, py: Python<'py>, uci: &str) -> PyResult<Bound<'py, Move>> {
        let m = self.parse_uci(py, uci)?;
        self.push(&m)?;
        Ok(m)
    }

    fn is_check(&self) -> bool {
        on_any_variant!(&self.pos, p => p.is_check())
    }

    fn is_checkmate(&self) -> bool {
        on_any_variant!(&self.pos, p => p.is_checkmate())
    }

    fn is_stalemate(&self) -> bool {
        on_any_variant!(&self.pos, p => p.is_stalemate())
    }

    fn is_variant_end(&self) -> bool {
        on_any_variant!(&self.pos, p => p.is_variant_end())
    }

    fn is_variant_win(&self) -> bool {
        on_any_variant!(&self.pos, p => p.is_variant_win())
    }

    fn is_variant_loss(&self) -> bool {
        on_any_variant!(&self.pos, p => p.is_variant_loss())
    }

    fn is_variant_draw(&self) -> bool {
        on_any_variant!(&self.pos, p => p.is_variant_draw())
    }

    fn is_insufficient_material(&self) -> bool {
        on_any_variant!(&self.pos, p => p.is_insufficient_material())
    }

    fn has_insufficient_material(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        let color = args::color(color)?;
        Ok(on_any_variant!(&self.pos, p => p.has_insufficient_material(color)))
    }

    /// python-chess's `is_repetition(count)`.
    #[pyo3(signature = (count = 3))]
    fn is_repetition(&self, count: usize) -> bool {
        self.repetition(count)
    }

    /// The outcome as (Termination name, winner), in python-chess's order: the variant's
    /// rules, checkmate, insufficient material, stalemate, then the 75-move rule and
    /// fivefold repetition, and with `claim_draw` the fifty-move rule and threefold.
    #[pyo3(name = "_outcome", signature = (claim_draw = false))]
    fn outcome(&self, claim_draw: bool) -> Option<(&'static str, Option<bool>)> {
        let (outcome, clock) = on_any_variant!(&self.pos, p => (p.outcome(), p.halfmove_clock()));
        if let Some(o) = outcome {
            return Some((termination_name(o.termination), o.winner.map(color_of)));
        }
        if clock >= 150 {
            return Some(("SEVENTYFIVE_MOVES", None));
        }
        if self.repetition(5) {
            return Some(("FIVEFOLD_REPETITION", None));
        }
        if claim_draw {
            if clock >= 100 {
                return Some(("FIFTY_MOVES", None));
            }
            if self.repetition(3) {
                return Some(("THREEFOLD_REPETITION", None));
            }
        }
        None
    }
}

/// The promoted pieces of any variant.
fn promoted_of<V: Variant>(p: &VariantPosition<V>) -> u64 {
    V::promoted(p.state()).0
}

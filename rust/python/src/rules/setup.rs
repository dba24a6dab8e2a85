//! `Setup`: the rules crate's unvalidated board ([`shatranj_chess::Setup`]) for the Python
//! board's setup mode (`board/setup_mode.rs` holds one per ply of its game). Every rule of
//! setup mode (status, castling rights as given and cleaned, python-chess's move generation
//! and order, SAN/LAN/UCI, FEN, make-move) is the rules crate's; this type keeps a setup's
//! legal moves once listed, with an index for `push`, and speaks Python's move keys. Also
//! `shatranj._core.Setup`, for tests and `Board._setup`.

use crate::args::{self, py_color};
use crate::board::ep_mode;
use crate::errors::{IllegalMoveError, fen_error, san_error, uci_error};
use crate::rules::moves::{self, Move, interned, key_of};
use crate::rules::piece;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use shatranj_chess::fen::EnPassantMode;
use shatranj_chess::{Bitboard, Color, FenError, MoveKind, Piece, Rank, Square};
use std::sync::OnceLock;

/// A board as python-chess holds it, unvalidated (no king, extra kings, pawns on the back
/// ranks, rights and en-passant square as given), with python-chess's rules for it.
#[pyclass(module = "shatranj._core", name = "Setup")]
pub struct PySetup {
    /// Read freely; changed only through [`PySetup::edit`], which forgets `legal`.
    pub(crate) inner: shatranj_chess::Setup,
    /// The legal moves of `inner`, filled when first asked for: a ply of a setup-mode game
    /// never changes once made, and a board pushing and popping the moves it listed asks
    /// the same ply at every `push`. A plain once-filled cell: no lock, and no comparison
    /// with the setup they were listed for (an edit empties it instead).
    legal: OnceLock<Box<LegalMoves>>,
}

impl Clone for PySetup {
    fn clone(&self) -> PySetup {
        PySetup::wrap(self.inner)
    }
}

/// A setup's legal moves in python-chess's order, with an index for `push`: per origin
/// square, the destinations of the moves that do not promote and of those that do. A
/// setup's moves are plain (origin, destination, promotion; castling in the list's own
/// form), so a non-promoting move is found by one bit test, as the hot path's `PlyMoves`
/// finds its moves, rather than by searching the list.
pub(crate) struct LegalMoves {
    list: Vec<shatranj_chess::Move>,
    plain: [Bitboard; 64],
    promoting: [Bitboard; 64],
}

impl LegalMoves {
    fn new(setup: &shatranj_chess::Setup) -> LegalMoves {
        let list = setup.legal_moves();
        let mut plain = [Bitboard::EMPTY; 64];
        let mut promoting = [Bitboard::EMPTY; 64];
        for m in &list {
            let index = if m.promotion().is_some() {
                &mut promoting
            } else {
                &mut plain
            };
            index[m.from().index()] = index[m.from().index()].with(m.to());
        }
        LegalMoves {
            list,
            plain,
            promoting,
        }
    }

    /// Whether the list holds `m` as written.
    #[inline]
    fn contains(&self, m: shatranj_chess::Move) -> bool {
        let (from, to) = (m.from().index(), m.to());
        if m.promotion().is_some() {
            // Rare: the bit test narrows it down, the list names the piece.
            self.promoting[from].contains(to) && self.list.contains(&m)
        } else {
            self.plain[from].contains(to)
        }
    }
}

/// The key of the move [`PySetup::move_of_key`] found for `key`: the null move's, or the
/// legal move's as the list writes it.
#[inline]
pub(crate) fn played_key(key: u16, m: shatranj_chess::Move) -> u16 {
    if m == shatranj_chess::Move::NULL {
        key
    } else {
        key_of(m)
    }
}

/// A Python move key as the setup's move (origin, destination, promotion); drops refused.
pub(crate) fn setup_move(key: u16) -> PyResult<shatranj_chess::Move> {
    if moves::drop_of(key).is_some() {
        return Err(IllegalMoveError::new_err(format!(
            "drops are not played on a chess board: {}",
            moves::uci_of(key)
        )));
    }
    let (from, to) = (moves::from_square(key), moves::to_square(key));
    Ok(match moves::promotion(key) {
        Some(role) => shatranj_chess::Move::new(from, to, MoveKind::Promotion(role)),
        None => shatranj_chess::Move::normal(from, to),
    })
}

impl PySetup {
    pub(crate) fn illegal(&self, m: &Bound<'_, Move>) -> PyErr {
        IllegalMoveError::new_err(format!(
            "illegal move {} in {}",
            moves::uci_of(m.get().key),
            self.inner.fen(false, EnPassantMode::Legal, false)
        ))
    }

    pub(crate) fn legal_of(&self, m: &Bound<'_, Move>) -> PyResult<Option<shatranj_chess::Move>> {
        Ok(self.legal_key(setup_move(m.get().key)?))
    }

    /// The legal form of `m` (castling in this board's notation), or `None`.
    #[inline]
    fn legal_key(&self, m: shatranj_chess::Move) -> Option<shatranj_chess::Move> {
        // Against the kept list when there is one (a board pushing and popping the moves of
        // a position it listed); else only the moving piece's moves are listed, since a
        // game played forward asks each new setup for one move.
        match self.legal.get() {
            // A move of the list is its own list form, so a key written as the list writes
            // it is found by the index alone; another key may still name a listed move
            // (castling written the other way: `e1h1` for `e1g1`, `e1g1` for Chess960's
            // `e1h1`), which the list search finds.
            Some(legal) if legal.contains(m) => {
                debug_assert_eq!(self.inner.legal_form_among(m, &legal.list), Some(m));
                Some(m)
            }
            Some(legal) => self.inner.legal_form_among(m, &legal.list),
            None => self.inner.legal_form(m),
        }
    }

    #[inline]
    pub(crate) fn wrap(inner: shatranj_chess::Setup) -> PySetup {
        PySetup {
            inner,
            legal: OnceLock::new(),
        }
    }

    /// The setup to change: its kept legal moves are forgotten.
    pub(crate) fn edit(&mut self) -> &mut shatranj_chess::Setup {
        self.legal = OnceLock::new();
        &mut self.inner
    }

    /// The legal moves (python-chess's order), listed once per setup (see `legal`).
    #[inline]
    pub(crate) fn legal(&self) -> &[shatranj_chess::Move] {
        &self
            .legal
            .get_or_init(|| Box::new(LegalMoves::new(&self.inner)))
            .list
    }
}

/// What the native board's setup mode (`board/setup_mode.rs`) asks of its setup.
impl PySetup {
    /// [`PySetup::after`] by Python move key; an illegal move's error names the position,
    /// and says so when the move is pseudo-legal (it leaves the king in check).
    pub(crate) fn after_key(&self, key: u16) -> PyResult<(shatranj_chess::Setup, u16)> {
        let m = self.move_of_key(key)?;
        let mut after = self.inner;
        after.play_unchecked(m);
        Ok((after, played_key(key, m)))
    }

    /// The move a Python key plays here, as the legal move list has it, or the null move;
    /// an illegal move's error as [`PySetup::after_key`]'s.
    #[inline]
    pub(crate) fn move_of_key(&self, key: u16) -> PyResult<shatranj_chess::Move> {
        if key == moves::NULL_KEY {
            return Ok(shatranj_chess::Move::NULL);
        }
        let m = setup_move(key)?;
        if let Some(m) = self.legal_key(m) {
            Ok(m)
        } else {
            let why = if self.inner.is_pseudo_legal(m) {
                " (leaves the king in check)"
            } else {
                ""
            };
            Err(IllegalMoveError::new_err(format!(
                "illegal move {}{why} in {}",
                moves::uci_of(key),
                self.inner
                    .fen_with(false, Some(EnPassantMode::Legal), false)
            )))
        }
    }

    /// Whether `m` is legal here (the null move is not).
    pub(crate) fn has_legal(&self, m: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(m.get().key != moves::NULL_KEY && self.legal_of(m)?.is_some())
    }
}

#[pymethods]
impl PySetup {
    /// Reads a FEN as python-chess does (`ValueError` for text it refuses too); `None` is
    /// the empty board.
    #[new]
    #[pyo3(signature = (fen = None, chess960 = false))]
    pub(crate) fn new(fen: Option<&str>, chess960: bool) -> PyResult<PySetup> {
        let inner = match fen {
            Some(text) => {
                let setup = shatranj_chess::Setup::from_fen(text, chess960).map_err(fen_error)?;
                // python-chess reads any square here; shatranj keeps refusing one no pawn
                // can have crossed (a typed error naming the field, as for the hot path).
                if let Some(ep) = setup.ep_square
                    && !matches!(ep.rank(), Rank::Third | Rank::Sixth)
                {
                    return Err(fen_error(FenError::BadEnPassant {
                        text: ep.to_string(),
                    }));
                }
                setup
            }
            None => shatranj_chess::Setup {
                chess960,
                ..shatranj_chess::Setup::empty()
            },
        };
        Ok(PySetup::wrap(inner))
    }

    pub(crate) fn copy(&self) -> PySetup {
        self.clone()
    }

    #[getter]
    pub(crate) fn get_turn(&self) -> bool {
        py_color(self.inner.turn)
    }
    #[setter]
    pub(crate) fn set_turn(&mut self, value: bool) {
        self.edit().turn = if value { Color::White } else { Color::Black };
    }
    #[getter]
    pub(crate) fn get_castling_rights(&self) -> u64 {
        self.inner.castling_rights.0
    }
    #[setter]
    pub(crate) fn set_castling_rights(&mut self, value: u64) {
        self.edit().castling_rights = Bitboard(value);
    }
    #[getter]
    pub(crate) fn get_ep_square(&self) -> Option<u8> {
        self.inner.ep_square.map(|sq| sq.index() as u8)
    }
    #[setter]
    pub(crate) fn set_ep_square(&mut self, value: Option<i64>) -> PyResult<()> {
        self.edit().ep_square = value.map(args::square).transpose()?;
        Ok(())
    }
    #[getter]
    pub(crate) fn get_halfmove_clock(&self) -> u32 {
        self.inner.halfmove_clock
    }
    #[setter]
    pub(crate) fn set_halfmove_clock(&mut self, value: u32) {
        self.edit().halfmove_clock = value;
    }
    #[getter]
    pub(crate) fn get_fullmove_number(&self) -> u32 {
        self.inner.fullmove_number
    }
    #[setter]
    pub(crate) fn set_fullmove_number(&mut self, value: u32) {
        self.edit().fullmove_number = value;
    }
    #[getter]
    pub(crate) fn get_chess960(&self) -> bool {
        self.inner.chess960
    }
    #[setter]
    pub(crate) fn set_chess960(&mut self, value: bool) {
        self.edit().chess960 = value;
    }
    #[getter]
    pub(crate) fn get_promoted(&self) -> u64 {
        self.inner.promoted.0
    }
    #[setter]
    pub(crate) fn set_promoted(&mut self, value: u64) {
        self.edit().promoted = Bitboard(value);
    }

    /// The squares of the pieces of a type and colour (`None`: any).
    #[pyo3(signature = (piece_type = None, color = None))]
    pub(crate) fn mask(&self, piece_type: Option<i64>, color: Option<bool>) -> PyResult<u64> {
        let b = &self.inner.board;
        let mut out = b.occupied();
        if let Some(t) = piece_type {
            out &= b.by_role(args::role(t)?);
        }
        if let Some(white) = color {
            out &= b.by_color(if white { Color::White } else { Color::Black });
        }
        Ok(out.0)
    }

    pub(crate) fn piece_at<'py>(
        &self,
        py: Python<'py>,
        square: i64,
    ) -> PyResult<Option<Bound<'py, piece::Piece>>> {
        self.inner
            .board
            .piece_at(args::square(square)?)
            .map(|p| piece::interned(py, p))
            .transpose()
    }

    /// Puts a piece (`piece_type` `None`: nothing) on a square.
    pub(crate) fn set_piece_at(
        &mut self,
        square: i64,
        piece_type: Option<i64>,
        color: bool,
        promoted: bool,
    ) -> PyResult<()> {
        let sq = args::square(square)?;
        let role = piece_type.map(args::role).transpose()?;
        let setup = self.edit();
        setup.board.remove_piece_at(sq);
        setup.promoted = setup.promoted.without(sq);
        if let Some(role) = role {
            let color = if color { Color::White } else { Color::Black };
            setup.board.set_piece_at(sq, Piece::new(color, role));
            if promoted {
                setup.promoted = setup.promoted.with(sq);
            }
        }
        Ok(())
    }

    /// Replaces the placement (the first FEN field; `~` marks promoted pieces).
    pub(crate) fn set_board_fen(&mut self, fen: &str) -> PyResult<()> {
        let text = format!("{} w - - 0 1", fen.trim());
        if fen.trim().contains(' ') {
            return Err(PyValueError::new_err(format!(
                "expected position part of fen, got multiple parts: {fen:?}"
            )));
        }
        let read = shatranj_chess::Setup::from_fen(&text, false).map_err(fen_error)?;
        let setup = self.edit();
        setup.board = read.board;
        setup.promoted = read.promoted;
        Ok(())
    }

    /// Sets the castling rights from a FEN castling field, read against the board.
    pub(crate) fn set_castling_fen(&mut self, castling: &str) -> PyResult<()> {
        let text = format!("{} w {castling} - 0 1", self.inner.board_fen(false));
        let read = shatranj_chess::Setup::from_fen(&text, self.inner.chess960)
            .ok()
            .filter(|_| !castling.is_empty() && !castling.contains(' '))
            .ok_or_else(|| PyValueError::new_err(format!("invalid castling fen: {castling:?}")))?;
        self.edit().castling_rights = read.castling_rights;
        Ok(())
    }

    pub(crate) fn status(&self) -> u32 {
        self.inner.status().bits()
    }

    pub(crate) fn clean_castling_rights(&self) -> u64 {
        self.inner.clean_castling_rights().0
    }

    pub(crate) fn king(&self, color: bool) -> Option<u8> {
        let color = if color { Color::White } else { Color::Black };
        self.inner.king(color).map(|sq| sq.index() as u8)
    }

    /// The pieces of `color` attacking `square` (`occupied`: the squares that block).
    #[pyo3(signature = (color, square, occupied = None))]
    pub(crate) fn attackers_mask(
        &self,
        color: bool,
        square: i64,
        occupied: Option<u64>,
    ) -> PyResult<u64> {
        let color = if color { Color::White } else { Color::Black };
        let occupied = occupied.map_or(self.inner.board.occupied(), Bitboard);
        Ok(self
            .inner
            .attackers(color, args::square(square)?, occupied)
            .0)
    }

    pub(crate) fn attacks_mask(&self, square: i64) -> PyResult<u64> {
        Ok(self.inner.attacks(args::square(square)?).0)
    }

    pub(crate) fn checkers_mask(&self) -> u64 {
        self.inner.checkers().0
    }

    pub(crate) fn pin_mask(&self, color: bool, square: i64) -> PyResult<u64> {
        let color = if color { Color::White } else { Color::Black };
        Ok(self.inner.pin_mask(color, args::square(square)?).0)
    }

    /// The legal moves in python-chess's order.
    pub(crate) fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves::list_of(py, self.legal())
    }

    pub(crate) fn pseudo_legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves::list_of(py, &self.inner.pseudo_legal_moves())
    }

    pub(crate) fn count_legal(&self) -> usize {
        self.legal().len()
    }

    /// The move as the legal move list has it (castling in this board's notation), or
    /// `None` if it is not legal.
    pub(crate) fn legal_form<'py>(
        &self,
        py: Python<'py>,
        r#move: &Bound<'py, Move>,
    ) -> PyResult<Option<Bound<'py, Move>>> {
        if r#move.get().key == moves::NULL_KEY {
            return Ok(None);
        }
        self.legal_of(r#move)?
            .map(|m| interned(py, key_of(m)))
            .transpose()
    }

    pub(crate) fn is_pseudo_legal(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self.inner.is_pseudo_legal(setup_move(r#move.get().key)?))
    }

    pub(crate) fn is_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self.inner.is_castling(setup_move(r#move.get().key)?))
    }

    pub(crate) fn is_kingside_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self
            .inner
            .is_kingside_castling(setup_move(r#move.get().key)?))
    }

    pub(crate) fn is_queenside_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self
            .inner
            .is_queenside_castling(setup_move(r#move.get().key)?))
    }

    pub(crate) fn is_en_passant(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self.inner.is_en_passant(setup_move(r#move.get().key)?))
    }

    pub(crate) fn is_capture(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self.inner.is_capture(setup_move(r#move.get().key)?))
    }

    pub(crate) fn is_zeroing(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self.inner.is_zeroing(setup_move(r#move.get().key)?))
    }

    pub(crate) fn has_legal_en_passant(&self) -> bool {
        self.inner.has_legal_en_passant()
    }

    /// Plays a legal move or the null move (`IllegalMoveError` otherwise); returns the move
    /// as the legal move list has it.
    pub(crate) fn push<'py>(
        &mut self,
        py: Python<'py>,
        r#move: &Bound<'py, Move>,
    ) -> PyResult<Bound<'py, Move>> {
        if r#move.get().key == moves::NULL_KEY {
            self.edit().play_unchecked(shatranj_chess::Move::NULL);
            return Ok(r#move.clone());
        }
        let m = self.legal_of(r#move)?.ok_or_else(|| self.illegal(r#move))?;
        self.edit().play_unchecked(m);
        interned(py, key_of(m))
    }

    /// The setup after `m` and the move as the legal move list has it (for the native
    /// board's setup mode: the setup before stays as it is, for the stack).
    pub(crate) fn after<'py>(
        &self,
        py: Python<'py>,
        r#move: &Bound<'py, Move>,
    ) -> PyResult<(PySetup, Bound<'py, Move>)> {
        let (after, key) = self.after_key(r#move.get().key)?;
        Ok((PySetup::wrap(after), interned(py, key)?))
    }

    pub(crate) fn san(&self, r#move: &Bound<'_, Move>) -> PyResult<String> {
        let m = setup_move(r#move.get().key)?;
        self.inner.san(m).map_err(|_| self.illegal(r#move))
    }

    pub(crate) fn lan(&self, r#move: &Bound<'_, Move>) -> PyResult<String> {
        let m = setup_move(r#move.get().key)?;
        self.inner.lan(m).map_err(|_| self.illegal(r#move))
    }

    pub(crate) fn parse_san<'py>(&self, py: Python<'py>, san: &str) -> PyResult<Bound<'py, Move>> {
        let m = self.inner.parse_san(san).map_err(san_error)?;
        interned(py, key_of(m))
    }

    pub(crate) fn parse_uci<'py>(&self, py: Python<'py>, uci: &str) -> PyResult<Bound<'py, Move>> {
        let m = self.inner.parse_uci(uci).map_err(uci_error)?;
        interned(py, key_of(m))
    }

    #[pyo3(signature = (from_square, to_square, promotion = None))]
    pub(crate) fn find_move<'py>(
        &self,
        py: Python<'py>,
        from_square: i64,
        to_square: i64,
        promotion: Option<i64>,
    ) -> PyResult<Bound<'py, Move>> {
        let (from, to): (Square, Square) = (args::square(from_square)?, args::square(to_square)?);
        let promotion = promotion.map(args::role).transpose()?;
        let m = self.inner.find_move(from, to, promotion).map_err(|e| {
            IllegalMoveError::new_err(format!("no matching legal move for {} in {}", e.mv, e.fen))
        })?;
        interned(py, key_of(m))
    }

    #[pyo3(signature = (shredder = false, en_passant = "legal", promoted = false))]
    pub(crate) fn fen(&self, shredder: bool, en_passant: &str, promoted: bool) -> PyResult<String> {
        Ok(self
            .inner
            .fen_with(shredder, ep_mode(en_passant)?, promoted))
    }

    #[pyo3(signature = (shredder = false, en_passant = "legal", promoted = false))]
    pub(crate) fn epd(&self, shredder: bool, en_passant: &str, promoted: bool) -> PyResult<String> {
        Ok(self.inner.epd(shredder, ep_mode(en_passant)?, promoted))
    }

    #[pyo3(signature = (promoted = false))]
    pub(crate) fn board_fen(&self, promoted: bool) -> String {
        self.inner.board_fen(promoted)
    }

    /// The board flipped top to bottom with the colours swapped.
    pub(crate) fn mirror(&self) -> PySetup {
        let s = &self.inner;
        let mut board = shatranj_chess::Board::empty();
        for (sq, p) in s.board.pieces() {
            board.set_piece_at(sq.flip_vertical(), Piece::new(p.color.other(), p.role));
        }
        PySetup::wrap(shatranj_chess::Setup {
            board,
            promoted: s.promoted.flip_vertical(),
            turn: s.turn.other(),
            castling_rights: s.castling_rights.flip_vertical(),
            ep_square: s.ep_square.map(Square::flip_vertical),
            ..*s
        })
    }

    /// The FEN of the legal position this setup describes once its castling rights are
    /// cleaned and an impossible en-passant square dropped (python-chess plays such a FEN as
    /// that position), or `None` (promoted pieces, or no legal position). A Chess960 setup's
    /// is a Shredder-FEN (rook files), for the native board to read in Chess960 mode.
    pub(crate) fn clean_fen(&self) -> Option<String> {
        if self.inner.promoted.any() {
            return None;
        }
        let pos = self.inner.position().ok()?;
        Some(if self.inner.chess960 {
            shatranj_chess::fen::to_shredder_fen(&pos, EnPassantMode::Legal)
        } else {
            pos.fen()
        })
    }
}

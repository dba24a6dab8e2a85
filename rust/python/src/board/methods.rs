//! `Board`'s Python methods, from one table. A line `read fn name(args) -> T;` (or `write`)
//! makes the Python method `name`: it converts the arguments given with `=> conversion`
//! (before the board is borrowed, so that Python code run by a conversion cannot meet a
//! borrowed board), borrows the state and calls `name` on its representation ([`on_rep!`]),
//! where the method is written, once per representation or once as a trait default. An
//! `edit` line calls `name` on the state itself: the edits replace the representation
//! (`edit.rs`). The methods under `own` do more than ask one representation, and are
//! written out. `push` and `pop` are plain CPython methods (`rules/hot_methods.rs`).
//!
//! One `#[pymethods]` block, generated: PyO3 allows one per class without its
//! `multiple-pymethods` feature, which would add the `inventory` crate and link-time
//! registration for no gain at run time; the table keeps the concerns in sections instead.

// Every generated method declares `'py`, which only the lines returning a `Bound` use.
#![allow(clippy::elidable_lifetime_names)]

use super::compat::{self, Compat, MoveFilter};
use super::display::{self, Diagram};
use super::edit;
use super::epd;
use super::export::{self, Export};
use super::fen::Fen;
use super::moves::Moves;
use super::notation::Notation;
use super::position::Placement;
use super::query::Query;
use super::stack::Stack;
use super::{Board, STARTING_FEN, on_rep, read, write};
use crate::args;
use crate::rules::legal::{LegalMoveGenerator, PseudoLegalMoveGenerator};
use crate::rules::moves::Move;
use crate::rules::piece;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{IntoPyDict, PyDict, PyList, PyType};
use shatranj_chess::Role;

/// `find_move`'s promotion: a piece type number, or `None`.
fn optional_role(value: Option<i64>) -> PyResult<Option<Role>> {
    value.map(args::role).transpose()
}

/// The generator of the table (see the module docs).
macro_rules! board_methods {
    (@call read, $slf:ident, $name:ident, ($($arg:ident),*)) => {
        on_rep!(&*read($slf)?, r => r.$name($($arg),*))
    };
    (@call write, $slf:ident, $name:ident, ($($arg:ident),*)) => {
        on_rep!(&mut *write($slf)?, r => r.$name($($arg),*))
    };
    (@call edit, $slf:ident, $name:ident, ($($arg:ident),*)) => {
        write($slf)?.$name($($arg),*)
    };
    (
        table {
            $(
                $(#[$attr:meta])*
                $access:ident fn $name:ident ($($arg:ident : $ty:ty $(=> $conv:path)?),*)
                    -> $ret:ty;
            )*
        }
        own { $($own:tt)* }
    ) => {
        // `_setup` (pickling's hook) is a method named as Python names it.
        #[allow(clippy::used_underscore_items, clippy::used_underscore_binding)]
        #[pymethods]
        impl Board {
            $(
                $(#[$attr])*
                fn $name<'py>(slf: &Bound<'py, Self>, $($arg: $ty),*) -> PyResult<$ret> {
                    $($(let $arg = $conv($arg)?;)?)*
                    board_methods!(@call $access, slf, $name, ($($arg),*))
                }
            )*
            $($own)*
        }
    };
}

board_methods! {
    table {
    // ----- the position (position.rs, fen.rs) -------------------------------------------

    /// A copy of setup mode's current setup (a `Setup`), or `None` on the hot path (see the
    /// module docs).
    #[getter]
    read fn _setup() -> Option<crate::rules::setup::PySetup>;
    #[getter]
    read fn turn() -> bool;
    /// Rook squares of the remaining castling rights, as python-chess's bitmask.
    #[getter]
    read fn castling_rights() -> u64;
    read fn has_castling_rights(color: &Bound<'py, PyAny> => args::color) -> bool;
    read fn has_kingside_castling_rights(color: &Bound<'py, PyAny> => args::color) -> bool;
    read fn has_queenside_castling_rights(color: &Bound<'py, PyAny> => args::color) -> bool;
    /// Set after every double pawn step, capture possible or not, as in python-chess.
    #[getter]
    read fn ep_square() -> Option<u8>;
    #[getter]
    read fn halfmove_clock() -> u32;
    #[getter]
    read fn fullmove_number() -> u32;
    #[getter]
    read fn occupied() -> u64;
    /// `[black, white]` occupancy, indexable by colour as in python-chess.
    #[getter]
    read fn occupied_co() -> [u64; 2];
    #[getter]
    read fn pawns() -> u64;
    #[getter]
    read fn knights() -> u64;
    #[getter]
    read fn bishops() -> u64;
    #[getter]
    read fn rooks() -> u64;
    #[getter]
    read fn queens() -> u64;
    #[getter]
    read fn kings() -> u64;
    /// python-chess's `chess960` flag (castling written as the king taking its own rook).
    #[getter]
    read fn chess960() -> bool;
    #[pyo3(signature = (*, shredder = false, en_passant = "legal", promoted = None))]
    read fn fen(shredder: bool, en_passant: &str, promoted: Option<bool>) -> String;
    // `Some(false)`: PyO3 sees a table's types as opaque, so does not wrap the default in
    // `Some` itself; the text signature stays python-chess's.
    #[pyo3(signature = (*, promoted = Some(false)), text_signature = "($self, *, promoted=False)")]
    read fn board_fen(promoted: Option<bool>) -> String;
    #[pyo3(signature = (fen))]
    edit fn set_fen(fen: &str) -> ();
    /// Back to the start position, with an empty move stack.
    edit fn reset_board() -> ();
    read fn piece_at(py: Python<'py>, square: i64 => args::square)
        -> Option<Bound<'py, piece::Piece>>;
    /// `{square: piece}` for every piece on `mask` (every square by default), as python-chess.
    #[pyo3(signature = (*, mask = u64::MAX))]
    read fn piece_map(py: Python<'py>, mask: u64) -> Bound<'py, PyDict>;
    read fn piece_type_at(square: i64 => args::square) -> Option<u8>;
    read fn color_at(square: i64 => args::square) -> Option<bool>;
    read fn king(color: &Bound<'py, PyAny> => args::color) -> Option<u8>;
    read fn pieces_mask(piece_type: i64 => args::role, color: &Bound<'py, PyAny> => args::color)
        -> u64;
    read fn pieces(
        py: Python<'py>,
        piece_type: i64 => args::role,
        color: &Bound<'py, PyAny> => args::color
    ) -> Bound<'py, PyAny>;

    // ----- questions (query.rs) ------------------------------------------------------------

    read fn attackers_mask(color: &Bound<'py, PyAny> => args::color, square: i64 => args::square)
        -> u64;
    read fn attackers(
        py: Python<'py>,
        color: &Bound<'py, PyAny> => args::color,
        square: i64 => args::square
    ) -> Bound<'py, PyAny>;
    read fn is_attacked_by(color: &Bound<'py, PyAny> => args::color, square: i64 => args::square)
        -> bool;
    read fn is_pinned(color: &Bound<'py, PyAny> => args::color, square: i64 => args::square)
        -> bool;
    /// The line a pinned piece may move along, or every square when it is not pinned.
    read fn pin(
        py: Python<'py>,
        color: &Bound<'py, PyAny> => args::color,
        square: i64 => args::square
    ) -> Bound<'py, PyAny>;
    read fn checkers(py: Python<'py>) -> Bound<'py, PyAny>;
    read fn is_check() -> bool;
    read fn is_checkmate() -> bool;
    read fn is_stalemate() -> bool;
    read fn is_insufficient_material() -> bool;
    read fn has_insufficient_material(color: &Bound<'py, PyAny> => args::color) -> bool;
    /// Whether `color` can still checkmate by any sequence of legal moves (FIDE R4.9): never
    /// `False` while a mating sequence exists; `True` when unsure.
    read fn can_checkmate(color: &Bound<'py, PyAny> => args::color) -> bool;
    /// Whether neither side can checkmate by any sequence of legal moves (FIDE R4.6).
    read fn is_dead_position() -> bool;
    /// Why `can_checkmate(color)` answers as it does: a `Winnability` whose `kind` is
    /// "unwinnable" (with the `proof`), "helpmate" (with the `line` of moves to the mate) or
    /// "unknown" (within the search budget; counted as "can"). `full=True` asks the full
    /// tier (CHA's solver where ours is undecided): practically always decided, in
    /// microseconds on real positions but up to seconds on hard constructed ones (the GIL
    /// is released meanwhile); `SolverError` when the solver cannot take the position.
    #[pyo3(signature = (color, full = false))]
    read fn winnability(py: Python<'py>, color: &Bound<'py, PyAny> => args::color, full: bool)
        -> Bound<'py, PyAny>;
    read fn has_legal_en_passant() -> bool;
    #[pyo3(signature = (count = 3))]
    read fn is_repetition(count: i64) -> bool;
    read fn can_claim_threefold_repetition() -> bool;
    read fn can_claim_fifty_moves() -> bool;
    read fn can_claim_draw() -> bool;
    read fn is_fifty_moves() -> bool;
    read fn is_fivefold_repetition() -> bool;
    read fn is_seventyfive_moves() -> bool;
    #[pyo3(signature = (*, claim_draw = false))]
    read fn outcome(py: Python<'py>, claim_draw: bool) -> Option<Bound<'py, PyAny>>;
    #[pyo3(signature = (*, claim_draw = false))]
    read fn is_game_over(claim_draw: bool) -> bool;
    #[pyo3(signature = (*, claim_draw = false))]
    read fn result(claim_draw: bool) -> String;

    // ----- moves (moves.rs, notation.rs) ---------------------------------------------------

    /// Does the move follow the pieces' movement rules (own king safety aside)?
    read fn is_pseudo_legal(r#move: &Bound<'py, Move>) -> bool;
    write fn is_legal(r#move: &Bound<'py, Move>) -> bool;
    read fn is_capture(r#move: &Bound<'py, Move>) -> bool;
    read fn is_en_passant(r#move: &Bound<'py, Move>) -> bool;
    read fn is_castling(r#move: &Bound<'py, Move>) -> bool;
    read fn is_kingside_castling(r#move: &Bound<'py, Move>) -> bool;
    read fn is_queenside_castling(r#move: &Bound<'py, Move>) -> bool;
    read fn is_zeroing(r#move: &Bound<'py, Move>) -> bool;
    /// Does the move give check? Illegal moves give no check here.
    write fn gives_check(r#move: &Bound<'py, Move>) -> bool;
    /// The legal move from `from_square` to `to_square`; a pawn reaching the last rank
    /// becomes a queen unless `promotion` says otherwise (python-chess's `find_move`).
    #[pyo3(signature = (from_square, to_square, promotion = None))]
    write fn find_move(
        py: Python<'py>,
        from_square: i64 => args::square,
        to_square: i64 => args::square,
        promotion: Option<i64> => optional_role
    ) -> Bound<'py, Move>;
    write fn san(r#move: &Bound<'py, Move>) -> String;
    write fn lan(r#move: &Bound<'py, Move>) -> String;
    write fn san_and_push(r#move: &Bound<'py, Move>) -> String;
    /// `1. e4 e5 2. Nf3`, for moves played from this position (the board is not changed).
    read fn variation_san(variation: &Bound<'py, PyAny>) -> String;
    read fn parse_san(py: Python<'py>, san: &str) -> Bound<'py, Move>;
    write fn push_san(py: Python<'py>, san: &str) -> Bound<'py, Move>;
    read fn parse_uci(py: Python<'py>, uci: &str) -> Bound<'py, Move>;
    write fn push_uci(py: Python<'py>, uci: &str) -> Bound<'py, Move>;

    // ----- the move stack (stack.rs) --------------------------------------------------------

    read fn peek(py: Python<'py>) -> Bound<'py, Move>;
    #[getter]
    read fn move_stack(py: Python<'py>) -> Bound<'py, PyList>;
    /// python-chess's ply: half-moves since the start of the game, from the FEN's counters.
    read fn ply() -> u32;
    write fn clear_stack() -> ();
    read fn root(py: Python<'py>) -> Py<Board>;
    /// A copy; `stack` is `True` (whole move stack), `False` (none) or the number of last
    /// moves to keep.
    #[pyo3(signature = (*, stack = None))]
    read fn copy(py: Python<'py>, stack: Option<&Bound<'py, PyAny>>) -> Py<Board>;
    read fn __copy__(py: Python<'py>) -> Py<Board>;
    read fn __deepcopy__(py: Python<'py>, _memo: &Bound<'py, PyAny>) -> Py<Board>;
    /// The board with colours swapped and the position flipped; the stack is dropped.
    read fn mirror(py: Python<'py>) -> Py<Board>;

    // ----- conversions (export.rs) ----------------------------------------------------------

    /// The Polyglot key of the position (see `shatranj.polyglot.zobrist_hash`).
    read fn zobrist_hash() -> u64;
    /// `(12, 8, 8)` uint8 planes: white P N B R Q K, then black; `planes[p, rank, file]`.
    read fn to_planes(py: Python<'py>) -> Bound<'py, PyAny>;
    /// `(13,)` uint8 features: side to move (1 = White), castling K Q k q, then a one-hot
    /// file of the en-passant square when an en-passant capture is legal.
    read fn features(py: Python<'py>) -> Bound<'py, PyAny>;
    edit fn __setstate__(state: &str) -> ();
    /// The same game as a python-chess `chess.Board` (python-chess must be installed).
    read fn to_chess(py: Python<'py>) -> Bound<'py, PyAny>;

    // ----- python-chess's extras (compat.rs) ------------------------------------------------
    // The `generate_*` masks default to python-chess's `BB_ALL` (the number in their
    // signatures); `None` reads as `BB_ALL` too.

    /// ``move`` as XBoard writes it: coordinates (``@@@@`` for the null move), and
    /// ``O-O``/``O-O-O`` for castling on a Chess960 board.
    #[pyo3(signature = (r#move, chess960 = None))]
    read fn xboard(r#move: &Bound<'py, Move>, chess960: Option<bool>) -> String;
    write fn has_pseudo_legal_en_passant(py: Python<'py>) -> bool;
    /// The squares the piece on ``square`` attacks (empty for an empty square).
    read fn attacks_mask(square: i64 => args::square) -> u64;
    /// Whether the move can never be undone: a capture or pawn move, a loss of castling
    /// rights, or the passing of a legal en passant chance (python-chess's definition).
    read fn is_irreversible(r#move: &Bound<'py, Move>) -> bool;
    /// The Chess960 start position index of the board, or ``None``.
    #[pyo3(signature = (*, ignore_turn = false, ignore_castling = false, ignore_counters = true))]
    read fn chess960_pos(ignore_turn: bool, ignore_castling: bool, ignore_counters: bool)
        -> Option<u32>;

    // ----- edits (edit.rs): any placement; the move stack is cleared ------------------------

    /// Puts ``piece`` (or nothing, for ``None``) on ``square``; any placement is allowed
    /// (``status()`` says what is wrong). The move stack is cleared, as in python-chess.
    #[pyo3(signature = (square, piece, promoted = false))]
    edit fn set_piece_at(
        square: &Bound<'py, PyAny> => edit::square_of,
        piece: Option<&Bound<'py, PyAny>> => edit::optional_piece,
        promoted: bool
    ) -> ();
    edit fn set_piece_map(pieces: &Bound<'py, PyAny> => edit::piece_map) -> ();
    /// Sets the placement (the first FEN field); turn, castling rights and clocks stay.
    edit fn set_board_fen(fen: &str) -> ();
    edit fn clear_board() -> ();
    /// An empty board, White to move, no castling rights or en-passant square, clocks reset.
    edit fn clear() -> ();
    edit fn set_castling_fen(castling_fen: &str) -> ();
    /// Sets up Chess960 start position ``scharnagl`` (518 is the standard one), with
    /// castling rights for its rooks, on a Chess960 board (``chess960`` set, as python-chess
    /// sets it).
    edit fn set_chess960_pos(scharnagl: i64) -> ();
    /// The castling rights that can be used: each right's rook and king on their squares.
    read fn clean_castling_rights() -> u64;
    /// Whether the castling rights include one that only Chess960 has (a king off the
    /// e-file, or a rook off the corners).
    read fn has_chess960_castling_rights() -> bool;
    /// What is wrong with the position, as python-chess's ``STATUS_*`` flags
    /// (``STATUS_VALID``, 0, when nothing is).
    read fn status(py: Python<'py>) -> Bound<'py, PyAny>;
    read fn is_valid() -> bool;
    #[getter]
    read fn promoted() -> u64;

    // ----- text (display.rs) ----------------------------------------------------------------

    read fn __repr__() -> String;
    read fn __str__() -> String;
    #[pyo3(signature = (*, invert_color = false, borders = false, empty_square = "⭘", orientation = true))]
    read fn unicode(invert_color: bool, borders: bool, empty_square: &str, orientation: bool)
        -> String;
    }

    own {
        #[new]
        #[pyo3(signature = (fen = Some(STARTING_FEN), *, chess960 = false))]
        pub(super) fn new(fen: Option<&str>, chess960: bool) -> PyResult<Self> {
            Board::construct(fen, chess960)
        }

        // python-chess's writable attributes: the position edited as a setup (`edit.rs`).

        #[setter]
        fn set_castling_rights(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
            write(slf)?.set_attribute("castling_rights", value)
        }

        #[setter]
        fn set_chess960(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
            write(slf)?.set_attribute("chess960", value)
        }

        #[setter]
        fn set_turn(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
            write(slf)?.set_attribute("turn", value)
        }

        #[setter]
        fn set_ep_square(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
            write(slf)?.set_attribute("ep_square", value)
        }

        #[setter]
        fn set_halfmove_clock(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
            write(slf)?.set_attribute("halfmove_clock", value)
        }

        #[setter]
        fn set_fullmove_number(slf: &Bound<'_, Self>, value: &Bound<'_, PyAny>) -> PyResult<()> {
            write(slf)?.set_attribute("fullmove_number", value)
        }

        /// The EPD of the position (FEN without the clocks), then ``operations`` written as
        /// ``opcode operand;``: moves in SAN (a sorted set for ``bm``/``am``, a line for
        /// ``pv``), numbers, quoted strings, or ``None`` for a bare opcode.
        #[pyo3(signature = (*, shredder = false, en_passant = "legal", promoted = None, **operations))]
        fn epd(
            slf: &Bound<'_, Self>,
            shredder: bool,
            en_passant: &str,
            promoted: Option<bool>,
            operations: Option<&Bound<'_, PyDict>>,
        ) -> PyResult<String> {
            let position = on_rep!(&*read(slf)?, r => r.epd(shredder, en_passant, promoted))?;
            match operations {
                Some(operations) if !operations.is_empty() => {
                    epd::epd_with_operations(slf, position, operations)
                }
                _ => Ok(position),
            }
        }

        /// Sets the position of an EPD line and returns its operations (``hmvc`` and
        /// ``fmvn`` set the clocks); the move stack is cleared.
        fn set_epd<'py>(slf: &Bound<'py, Self>, epd: &str) -> PyResult<Bound<'py, PyDict>> {
            epd::set_epd(slf, epd)
        }

        /// A new board at an EPD's position, and its operations.
        #[classmethod]
        #[pyo3(signature = (epd, *, chess960 = false))]
        fn from_epd<'py>(
            cls: &Bound<'py, PyType>,
            epd: &str,
            chess960: bool,
        ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
            epd::from_epd(cls, epd, chess960)
        }

        #[getter]
        fn legal_moves(slf: &Bound<'_, Self>) -> LegalMoveGenerator {
            LegalMoveGenerator::new(slf.clone().unbind())
        }

        #[getter]
        fn pseudo_legal_moves(slf: &Bound<'_, Self>) -> PseudoLegalMoveGenerator {
            PseudoLegalMoveGenerator::new(slf.clone().unbind())
        }

        /// An iterator over the legal moves from `from_mask` to `to_mask` (python-chess's
        /// masks: castling is selected by its king's and its rook's squares).
        #[pyo3(signature = (from_mask = None, to_mask = None), text_signature = "(self, from_mask=18446744073709551615, to_mask=18446744073709551615)")]
        fn generate_legal_moves<'py>(
            slf: &Bound<'py, Self>,
            from_mask: Option<&Bound<'_, PyAny>>,
            to_mask: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            compat::generate(slf, false, from_mask, to_mask, MoveFilter::Any)
        }

        #[pyo3(signature = (from_mask = None, to_mask = None), text_signature = "(self, from_mask=18446744073709551615, to_mask=18446744073709551615)")]
        fn generate_pseudo_legal_moves<'py>(
            slf: &Bound<'py, Self>,
            from_mask: Option<&Bound<'_, PyAny>>,
            to_mask: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            compat::generate(slf, true, from_mask, to_mask, MoveFilter::Any)
        }

        #[pyo3(signature = (from_mask = None, to_mask = None), text_signature = "(self, from_mask=18446744073709551615, to_mask=18446744073709551615)")]
        fn generate_pseudo_legal_captures<'py>(
            slf: &Bound<'py, Self>,
            from_mask: Option<&Bound<'_, PyAny>>,
            to_mask: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            compat::generate(slf, true, from_mask, to_mask, MoveFilter::Capture)
        }

        #[pyo3(signature = (from_mask = None, to_mask = None), text_signature = "(self, from_mask=18446744073709551615, to_mask=18446744073709551615)")]
        fn generate_legal_captures<'py>(
            slf: &Bound<'py, Self>,
            from_mask: Option<&Bound<'_, PyAny>>,
            to_mask: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            compat::generate(slf, false, from_mask, to_mask, MoveFilter::Capture)
        }

        #[pyo3(signature = (from_mask = None, to_mask = None), text_signature = "(self, from_mask=18446744073709551615, to_mask=18446744073709551615)")]
        fn generate_pseudo_legal_ep<'py>(
            slf: &Bound<'py, Self>,
            from_mask: Option<&Bound<'_, PyAny>>,
            to_mask: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            compat::generate(slf, true, from_mask, to_mask, MoveFilter::EnPassant)
        }

        #[pyo3(signature = (from_mask = None, to_mask = None), text_signature = "(self, from_mask=18446744073709551615, to_mask=18446744073709551615)")]
        fn generate_legal_ep<'py>(
            slf: &Bound<'py, Self>,
            from_mask: Option<&Bound<'_, PyAny>>,
            to_mask: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            compat::generate(slf, false, from_mask, to_mask, MoveFilter::EnPassant)
        }

        /// Castling moves, selected as python-chess selects them: ``from_mask`` must hold the
        /// king and ``to_mask`` the rook it castles with (king takes rook).
        #[pyo3(signature = (from_mask = None, to_mask = None), text_signature = "(self, from_mask=18446744073709551615, to_mask=18446744073709551615)")]
        fn generate_castling_moves<'py>(
            slf: &Bound<'py, Self>,
            from_mask: Option<&Bound<'_, PyAny>>,
            to_mask: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            compat::generate(slf, false, from_mask, to_mask, MoveFilter::Castling)
        }

        fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            on_rep!(&*read(slf)?, r => r.reduce(slf))
        }

        /// A board with the same start position and moves as the python-chess board `board`.
        #[classmethod]
        fn from_chess(_cls: &Bound<'_, PyType>, board: &Bound<'_, PyAny>) -> PyResult<Board> {
            export::from_chess(board)
        }

        /// python-chess's UCI name of the variant.
        #[classattr]
        fn uci_variant() -> &'static str {
            "chess"
        }

        /// python-chess's XBoard name of the variant.
        #[classattr]
        fn xboard_variant() -> &'static str {
            "normal"
        }

        /// An empty board (python-chess's ``Board.empty()``).
        #[classmethod]
        #[pyo3(signature = (*, chess960 = false))]
        fn empty<'py>(cls: &Bound<'py, PyType>, chess960: bool) -> PyResult<Bound<'py, PyAny>> {
            let kwargs = [("chess960", chess960)].into_py_dict(cls.py())?;
            cls.call((None::<&str>,), Some(&kwargs))
        }

        /// The standard start position (python-chess's ``reset``).
        fn reset(slf: &Bound<'_, Self>) -> PyResult<()> {
            write(slf)?.set_fen(STARTING_FEN)
        }

        /// The FEN with Shredder-FEN castling (rook files: ``HAha``).
        #[pyo3(signature = (*, en_passant = "legal", promoted = None))]
        fn shredder_fen(
            slf: &Bound<'_, Self>,
            en_passant: &str,
            promoted: Option<bool>,
        ) -> PyResult<String> {
            on_rep!(&*read(slf)?, r => r.fen(true, en_passant, promoted))
        }

        /// A move as XBoard engines write it (SAN or coordinates).
        fn parse_xboard<'py>(
            slf: &Bound<'_, Self>,
            py: Python<'py>,
            xboard: &str,
        ) -> PyResult<Bound<'py, Move>> {
            on_rep!(&*read(slf)?, r => r.parse_san(py, xboard))
        }

        /// Plays a move written as XBoard engines write it; returns it.
        fn push_xboard<'py>(
            slf: &Bound<'_, Self>,
            py: Python<'py>,
            xboard: &str,
        ) -> PyResult<Bound<'py, Move>> {
            on_rep!(&mut *write(slf)?, r => r.push_san(py, xboard))
        }

        fn attacks<'py>(slf: &Bound<'py, Self>, square: i64) -> PyResult<Bound<'py, PyAny>> {
            compat::attacks(slf, square)
        }

        /// Mirrors the board in place (colours swapped, ranks flipped); the stack is cleared.
        fn apply_mirror(slf: &Bound<'_, Self>) -> PyResult<()> {
            compat::apply_mirror(slf)
        }

        /// A copy with every bitboard passed through ``f`` (``chess.flip_vertical`` …); the
        /// side to move and the clocks are kept, castling rights and en passant are not.
        fn transform(slf: &Bound<'_, Self>, f: &Bound<'_, PyAny>) -> PyResult<Py<Board>> {
            compat::transform(slf, f)
        }

        fn apply_transform(slf: &Bound<'_, Self>, f: &Bound<'_, PyAny>) -> PyResult<()> {
            compat::apply_transform(slf, f)
        }

        /// Removes and returns the piece on ``square`` (``None`` if empty).
        fn remove_piece_at<'py>(
            slf: &Bound<'py, Self>,
            square: &Bound<'py, PyAny>,
        ) -> PyResult<Option<Bound<'py, piece::Piece>>> {
            let square = edit::square_of(square)?;
            let piece = on_rep!(&*read(slf)?, r => r.piece_at(slf.py(), args::square(square)?))?;
            write(slf)?.set_piece_at(square, None, false)?;
            Ok(piece)
        }

        /// Chess960 start position ``scharnagl`` (0..959) on a Chess960 board.
        #[classmethod]
        fn from_chess960_pos<'py>(
            cls: &Bound<'py, PyType>,
            scharnagl: i64,
        ) -> PyResult<Bound<'py, PyAny>> {
            edit::from_chess960_pos(cls, scharnagl)
        }

        /// The board as SVG for notebooks, drawn by `shatranj.svg` like python-chess does:
        /// last move and the checked king highlighted, 390 pixels.
        fn _repr_svg_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            display::repr_svg(slf)
        }

        /// python-chess equality: same placement, side, castling rights, legal en-passant
        /// square and clocks; the move stacks may differ.
        fn __richcmp__(
            slf: &Bound<'_, Self>,
            other: &Bound<'_, PyAny>,
            op: CompareOp,
        ) -> PyResult<Py<PyAny>> {
            let py = other.py();
            let Ok(other) = other.cast::<Board>() else {
                return Ok(py.NotImplemented());
            };
            let same = read(slf)?.python_eq(other)?;
            Ok(match op {
                CompareOp::Eq => same.into_pyobject(py)?.to_owned().into_any().unbind(),
                CompareOp::Ne => (!same).into_pyobject(py)?.to_owned().into_any().unbind(),
                _ => py.NotImplemented(),
            })
        }
    }
}

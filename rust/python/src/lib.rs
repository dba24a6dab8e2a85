//! The native half of the `shatranj` Python package, imported as `shatranj._core`.
//!
//! This crate owns only the boundary: converting values, mapping Rust errors onto Python
//! exceptions and releasing the GIL around long calls. Chess logic lives in `shatranj-chess`;
//! the public Python API is re-exported by `python/shatranj/__init__.py`, and its types are
//! described in `python/shatranj/_core.pyi`.

mod args;
mod board;
mod cache;
mod engine;
mod errors;
mod evaluator;
mod game;
mod gpu;
mod legal;
mod moves;
mod outcome;
mod perft;
mod pgn;
mod piece;
mod planes;
mod resolve;
mod selfplay;
mod text;
mod worker;

use pyo3::prelude::*;

/// Native core of the shatranj chess library.
#[pymodule]
mod _core {
    use pyo3::prelude::*;

    #[pymodule_export]
    use crate::board::Board;
    #[pymodule_export]
    use crate::engine::Engine;
    #[pymodule_export]
    use crate::errors::{AmbiguousMoveError, GameOverError, IllegalMoveError, InvalidMoveError};
    #[pymodule_export]
    use crate::game::Game;
    #[pymodule_export]
    use crate::gpu::{evaluate, gpu_info};
    #[pymodule_export]
    use crate::legal::{LegalMoveGenerator, PseudoLegalMoveGenerator};
    #[pymodule_export]
    use crate::moves::Move;
    #[pymodule_export]
    use crate::perft::perft;
    #[pymodule_export]
    use crate::pgn::{PgnBatch, PgnTree, pgn_read_file, pgn_read_game, pgn_write};
    #[pymodule_export]
    use crate::piece::Piece;
    #[pymodule_export]
    use crate::planes::{boards_to_features, boards_to_planes};
    #[pymodule_export]
    use crate::selfplay::selfplay;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        // The Python package's version is the Cargo workspace version: one number, kept in
        // Cargo.toml, which maturin also writes into the wheel's metadata.
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        m.add("STARTING_FEN", crate::board::STARTING_FEN)
    }
}

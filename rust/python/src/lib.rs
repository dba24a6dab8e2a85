//! The native half of the `shatranj` Python package, imported as `shatranj._core`.
//!
//! This crate owns only the boundary: converting values, mapping Rust errors onto Python
//! exceptions and releasing the GIL around long calls. Chess logic lives in `shatranj-chess`;
//! the public Python API is re-exported by `python/shatranj/__init__.py`, and its types are
//! described in `python/shatranj/_core.pyi`.

// pyo3's idioms, allowed crate-wide. A `#[pyfunction]` receives its arguments already
// converted into owned values (`Vec`, `String`, `PathBuf`): borrowing them would only move the
// copy into pyo3's glue. And Python-facing functions return `PyResult` for a uniform signature
// (pyo3 maps it onto an exception), even where one cannot fail today.
#![allow(clippy::needless_pass_by_value, clippy::unnecessary_wraps)]

mod args;
mod board;
mod engine;
mod errors;
mod gil_cell;
mod matches;
mod ml;
mod native_array;
mod numpy_c_api;
mod perft;
mod pgn;
mod py_modules;
mod rules;
mod syzygy;
mod variant;
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
    use crate::engine::gpu::{evaluate, gpu_info, pack_positions};
    #[pymodule_export]
    use crate::engine::network::{
        Network, nnue_from_quantised, nnue_load_network, nnue_network_from_bytes, nnue_quantise,
    };
    #[pymodule_export]
    use crate::engine::selfplay::selfplay;
    #[pymodule_export]
    use crate::engine::uci_info::parse_uci_info;
    #[pymodule_export]
    use crate::errors::{
        AmbiguousMoveError, GameOverError, IllegalMoveError, InvalidMoveError, NetworkError,
        SolverError, TrainingDataError,
    };
    #[pymodule_export]
    use crate::matches::plan::{match_plan, match_standings};
    #[pymodule_export]
    use crate::matches::run::{match_check, match_run, match_tournament};
    #[pymodule_export]
    use crate::matches::stats::{match_bounds, match_estimate, match_llr};
    #[pymodule_export]
    use crate::ml::planes::{boards_to_features, boards_to_planes};
    #[pymodule_export]
    use crate::ml::planes_lc0::{planes_lc0, policy_index, policy_legal};
    #[pymodule_export]
    use crate::ml::training_data::{nnue_features, nnue_read_data};
    #[pymodule_export]
    use crate::perft::perft;
    #[pymodule_export]
    use crate::pgn::stream::{PgnStream, pgn_open};
    #[pymodule_export]
    use crate::pgn::table::{PgnTableReader, pgn_table};
    #[pymodule_export]
    use crate::pgn::{
        PgnBatch, PgnTree, pgn_arrows, pgn_clock, pgn_emt, pgn_eval, pgn_read_file, pgn_read_game,
        pgn_write,
    };
    #[pymodule_export]
    use crate::rules::game::Game;
    #[pymodule_export]
    use crate::rules::legal::{LegalMoveGenerator, PseudoLegalMoveGenerator};
    #[pymodule_export]
    use crate::rules::moves::Move;
    #[pymodule_export]
    use crate::rules::piece::Piece;
    #[pymodule_export]
    use crate::rules::setup::PySetup;
    #[pymodule_export]
    use crate::syzygy::{
        CorruptTableError, MissingTableError, SyzygyTablebase, TruncatedTableError,
    };
    #[pymodule_export]
    use crate::variant::VariantBoard;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        // `Board` keeps its state in a `GilCell`, whose borrow flag the GIL guards.
        let sys = crate::py_modules::sys(m.py())?;
        if sys.hasattr("_is_gil_enabled")? && !sys.call_method0("_is_gil_enabled")?.is_truthy()? {
            return Err(pyo3::exceptions::PyImportError::new_err(
                "shatranj needs the GIL: run free-threaded Python with PYTHON_GIL=1",
            ));
        }
        crate::rules::hot_methods::install(m.py())?;
        crate::rules::hot_new::install(m.py())?;
        // The Python package's version is the Cargo workspace version: one number, kept in
        // Cargo.toml, which maturin also writes into the wheel's metadata.
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        m.add("STARTING_FEN", crate::board::STARTING_FEN)?;
        // Benchmarks record whether they measured an optimised build.
        let profile = if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        };
        m.add("BUILD_PROFILE", profile)?;
        // The network's shape and default quantisation, so that Python writes no number
        // the engine already defines.
        let q = shatranj_engine::nnue::file::Quantisation::default();
        m.add("NNUE_INPUTS", shatranj_engine::nnue::INPUTS)?;
        m.add("NNUE_MAX_PIECES", shatranj_engine::nnue::MAX_PIECES)?;
        m.add(
            "NNUE_BUCKETS",
            shatranj_engine::nnue::OutputBuckets::PieceCount.count(),
        )?;
        m.add("NNUE_PAD", crate::ml::training_data::PAD)?;
        m.add("NNUE_NO_WDL", crate::ml::training_data::NO_WDL)?;
        m.add("NNUE_QA", q.qa)?;
        m.add("NNUE_QB", q.qb)?;
        m.add("NNUE_SCALE", q.scale)
    }
}

//! # shatranj-engine: search and evaluation
//!
//! A chess engine over the rules crate: iterative-deepening principal variation search with
//! aspiration windows, quiescence search with static exchange evaluation, null-move pruning,
//! late-move reductions, futility pruning; lazy SMP threads over a lock-free transposition
//! table; an integer tapered evaluation whose every weight lives in one table
//! ([`eval::EvalParams`]) so that a GPU shader can compute the same numbers; time
//! management; and the UCI protocol ([`uci`]). Static evaluations can also travel through a
//! batching service ([`eval::service`]) to a [`BatchEvaluator`] back end, which is how [`games::selfplay`]
//! gathers the evaluations of many concurrent games into one batch.
//!
//! ```
//! use shatranj_engine::{Engine, EngineOptions, Limits, Score};
//! use shatranj_chess::Position;
//!
//! let mut engine = Engine::new(EngineOptions { threads: 1, hash_mb: 8, ..Default::default() }).unwrap();
//! // White mates in one: Ra8#.
//! let pos: Position = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1".parse().unwrap();
//! let result = engine.search(pos, &Limits::depth(4), |info| {
//!     println!("depth {} score {} pv {:?}", info.depth, info.score, info.pv);
//! });
//! assert_eq!(result.best_move.unwrap().to_string(), "a1a8");
//! assert_eq!(result.score, Score::Mate(1));
//!
//! // A stop handle ends a search from another thread.
//! let stop = engine.stop_handle();
//! std::thread::spawn(move || {
//!     std::thread::sleep(std::time::Duration::from_millis(50));
//!     stop.stop();
//! });
//! let limits = Limits { infinite: true, ..Limits::default() };
//! let result = engine.search(Position::new(), &limits, |_| {});
//! assert!(result.best_move.is_some());
//! assert!(engine.evaluate(&Position::new()) > 0); // the side to move has the tempo
//! ```

// The search's `(alpha + beta) / 2` and the mate-distance arithmetic round toward zero where
// `midpoint` rounds down: the bench signature pins the search to the former.
#![allow(clippy::manual_midpoint)]

pub mod bench;
pub mod engine;
pub mod eval;
pub mod games;
pub mod in_progress;
pub mod limits;
pub mod nnue;
pub mod ordering;
pub mod review;
pub mod score;
pub mod search;
pub mod see;
pub mod syzygy;
pub mod threads;
pub mod time;
pub mod tt;
pub mod uci;
pub mod uci_client;
pub mod util;

pub use engine::{
    Engine, EngineError, EngineOptions, PvLine, SearchInfo, SearchResult, SearchRoot, StopHandle,
};
pub use eval::{
    BatchConfig, BatchEvaluator, CpuBatchEvaluator, CpuEvaluator, DEFAULT_PARAMS, Device,
    EvalClient, EvalError, EvalParams, EvalRoute, EvalService, Evaluation, Evaluator,
    OpenEvaluator, PackedPosition, ServiceStats, cpu_only_evaluator,
};
pub use limits::Limits;
pub use nnue::{NetError, Network};
pub use score::Score;

// The crate README's examples compile and run as doctests, so the README cannot drift.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

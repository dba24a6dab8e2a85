//! The static evaluation, all of it: which evaluation a search uses ([`Evaluation`], chosen
//! by the names users type: `EvalFile` in UCI, `eval_file` in Python, `--eval-file` in the
//! command line: a path to a network file, `<default>` for the network built into the
//! binary, or `classical`), and how each search thread computes it ([`EvalState`]).
//!
//! The search names [`EvalState`] and nothing else from here: the state owns the choice
//! between the network with its incremental accumulators, the classical formula, and the
//! batching service, so adding an evaluation never means editing the search.
//!
//! - [`classical`]: the hand-written formula and the [`Evaluator`] trait;
//! - [`params`]: its weights ([`EvalParams`]), one table a GPU shader reads too;
//! - [`packed`]: [`PackedPosition`], the position as a batch back end reads it;
//! - [`batch`]: evaluating many positions at once ([`BatchEvaluator`], [`Device`]);
//! - [`service`]: batching the evaluations of many threads ([`EvalService`]) and the route a
//!   search's evaluations take ([`EvalRoute`]);
//! - the network itself is [`crate::nnue`].

pub mod batch;
pub mod classical;
pub mod packed;
pub mod params;
pub mod service;
mod state;

pub use batch::{
    BatchEvaluator, CpuBatchEvaluator, Device, EvalError, NetworkBatchEvaluator, check_lengths,
    cpu_evaluator,
};
pub use classical::{CpuEvaluator, Evaluator, evaluate, evaluate_bitboards};
pub use packed::PackedPosition;
pub use params::{DEFAULT_PARAMS, EVAL_PARAMS_WORDS, EvalParams};
pub use service::{
    BatchConfig, EvalClient, EvalRoute, EvalService, OpenEvaluator, ServiceStats,
    cpu_only_evaluator,
};
pub use state::EvalState;

use crate::nnue::{NetError, Network};
use shatranj_chess::Position;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The name of the network built into the binary.
pub const DEFAULT_NAME: &str = "<default>";
/// The name of the classical evaluation.
pub const CLASSICAL_NAME: &str = "classical";

/// The network built into the binary (`<default>`): the newest one that has played well
/// enough to be shipped (rust/engine/nets/README.md, benchmarks/RESULTS.md).
const EMBEDDED: Option<&[u8]> = Some(include_bytes!("../../nets/gen9.nnue"));

/// A static evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The hand-written evaluation of [`classical`] with these weights.
    Classical(Box<EvalParams>),
    /// A network ([`crate::nnue`]), shared by every thread and engine that uses it.
    Network(Arc<Network>),
}

impl Default for Evaluation {
    /// The evaluation a new engine plays with: the built-in network (gen9, gen8 trained on
    /// over 20 M positions, which beats gen8 at 10,000 nodes a move; gen4 beat the classical
    /// evaluation by +246 Elo at 8+0.08: benchmarks/RESULTS.md, issues 19, 36 and 53). The
    /// classical one stays a name away (`classical`).
    ///
    /// The embedded bytes are a constant that `the_built_in_network_loads` parses in every
    /// test run, so the classical fallback here is for a build whose file was left out, never
    /// a silent change of a shipped binary's evaluation.
    fn default() -> Evaluation {
        Evaluation::embedded().unwrap_or_else(|_| Evaluation::classical())
    }
}

impl Evaluation {
    /// The name of [`Evaluation::default`], as `EvalFile` shows it.
    ///
    /// Decided by whether the build embeds a network, without parsing it: the CLI's
    /// argument defaults ask for this name on every run (`shatranj perft 1` spent 57 M of
    /// its 58 M instructions loading and hashing the network here), and the embedded bytes
    /// always parse (`the_built_in_network_loads`).
    pub fn default_name() -> &'static str {
        if EMBEDDED.is_some() {
            DEFAULT_NAME
        } else {
            CLASSICAL_NAME
        }
    }

    pub fn classical() -> Evaluation {
        Evaluation::Classical(Box::new(DEFAULT_PARAMS))
    }

    /// The network built into the binary (loaded once per process).
    pub fn embedded() -> Result<Evaluation, NetError> {
        static NET: OnceLock<Result<Arc<Network>, NetError>> = OnceLock::new();
        let net = NET.get_or_init(|| match EMBEDDED {
            Some(bytes) => Network::from_bytes(bytes).map(Arc::new),
            None => Err(NetError::Name(
                "this build has no embedded network (<default>); give a network file's path".into(),
            )),
        });
        net.clone().map(Evaluation::Network)
    }

    /// The evaluation a name stands for: `<default>`, `classical` (any case), or a path.
    pub fn from_name(name: &str) -> Result<Evaluation, NetError> {
        let name = name.trim();
        if name.is_empty() {
            return Err(NetError::Name(
                "an empty evaluation name: give a network file's path, <default> or classical"
                    .into(),
            ));
        }
        if name == DEFAULT_NAME {
            Evaluation::embedded()
        } else if name.eq_ignore_ascii_case(CLASSICAL_NAME) {
            Ok(Evaluation::classical())
        } else {
            Network::load(Path::new(name)).map(|n| Evaluation::Network(Arc::new(n)))
        }
    }

    /// The network, if this is one.
    pub fn network(&self) -> Option<&Arc<Network>> {
        match self {
            Evaluation::Network(n) => Some(n),
            Evaluation::Classical(_) => None,
        }
    }

    /// `classical`, or the start of the network's hash, its size (and king and output
    /// buckets, when it has them) and its SCALE (the hash covers the weights only, and the same weights at
    /// another SCALE score differently).
    pub fn describe(&self) -> String {
        match self {
            Evaluation::Classical(_) => CLASSICAL_NAME.into(),
            Evaluation::Network(n) => {
                let kings = match n.inputs() {
                    crate::nnue::Inputs::Plain => String::new(),
                    crate::nnue::Inputs::KingBuckets(k) => {
                        format!(", {} king buckets, mirrored", k.count())
                    }
                };
                let buckets = match n.buckets() {
                    crate::nnue::OutputBuckets::Single => kings,
                    b @ crate::nnue::OutputBuckets::PieceCount => {
                        format!("{kings}, {} output buckets", b.count())
                    }
                };
                format!(
                    "network {} ({} hidden{buckets}, SCALE {})",
                    &n.hash_hex()[..12],
                    n.hidden(),
                    n.header().quantisation.scale
                )
            }
        }
    }

    /// The evaluation of `pos` from scratch, centipawns for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            Evaluation::Classical(p) => evaluate(p, pos),
            Evaluation::Network(n) => n.evaluate(pos),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_network_loads() {
        let e = Evaluation::from_name(DEFAULT_NAME).unwrap();
        let net = e.network().unwrap();
        assert!(net.hidden() >= 32);
        // The start position is about level for the side to move.
        assert!(e.evaluate(&Position::new()).abs() < 100);
    }

    #[test]
    fn a_new_engine_plays_the_built_in_network() {
        let default = Evaluation::default();
        assert_eq!(default, Evaluation::embedded().unwrap());
        assert_eq!(Evaluation::default_name(), DEFAULT_NAME);
        assert!(
            default.describe().starts_with("network "),
            "{}",
            default.describe()
        );
    }

    #[test]
    fn names_pick_evaluations_or_say_what_is_wrong() {
        assert_eq!(
            Evaluation::from_name("classical").unwrap(),
            Evaluation::classical()
        );
        assert_eq!(
            Evaluation::from_name(" Classical ").unwrap(),
            Evaluation::classical()
        );
        let e = Evaluation::from_name("/no/such/net.nnue")
            .unwrap_err()
            .to_string();
        assert!(e.contains("/no/such/net.nnue"), "{e}");
        assert!(Evaluation::from_name("").is_err());
        let dir = std::env::temp_dir().join(format!("shatranj-evalname-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("net.nnue");
        let net = crate::nnue::tests::random_network(8, 32);
        net.save(&path).unwrap();
        let loaded = Evaluation::from_name(path.to_str().unwrap()).unwrap();
        assert_eq!(loaded.network().map(|n| &**n), Some(&net));
        assert!(loaded.describe().starts_with("network "));
        std::fs::write(&path, b"garbage").unwrap();
        assert!(Evaluation::from_name(path.to_str().unwrap()).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

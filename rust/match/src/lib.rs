//! # shatranj-match: matches between UCI engines, and the statistics that judge them
//!
//! The statistics are fishtest's and fastchess's, to the digit: trinomial and pentanomial
//! counts, Elo with its 95 % interval, nElo and LOS ([`stats`]), and the SPRT's
//! log-likelihood ratio under the logistic or normalized model ([`sprt`]).
//!
//! The runner plays the games: fastchess's options ([`options`]), openings from EPD, PGN or
//! a Polyglot book ([`openings`]), one game with clocks, adjudication and engine faults
//! ([`game`]), and the match with its workers, PGN, resumable JSON state, live table and
//! SPRT stop ([`runner`]).
//! The engines are driven through [`process`], over the engine crate's UCI client, which
//! keeps fastchess's handshake deadlines and stamps each line of an engine's output with its
//! arrival, so that the runner's own per-move latency is measured apart from the engines'
//! ([`latency`]).
//!
//! [`spsa`] tunes an engine's parameters as OpenBench does (the perturbation, the step and
//! its schedule, a resumable state), and [`tune`] plays its iterations as game pairs.
//!
//! ```
//! use shatranj_match::sprt::{Model, Sprt, Decision};
//! use shatranj_match::stats::Estimate;
//!
//! // Pairs [LL, LD, WL+DD, WD, WW] of a test of nElo [0, 2] (one of fastchess's vectors).
//! let pairs = [365, 16618, 36229, 16974, 390];
//! let sprt = Sprt::new(0.0, 2.0, 0.05, 0.05, Model::Normalized).unwrap();
//! let llr = sprt.llr(&pairs).unwrap();
//! assert_eq!(format!("{llr:.2}"), "2.25");
//! assert_eq!(sprt.decide(llr), Decision::Continue); // bounds ±2.94
//!
//! let e = Estimate::from_counts(&pairs).unwrap();
//! assert_eq!(format!("{:.2} [{:.2}, {:.2}]", e.elo, e.elo_interval.0, e.elo_interval.1),
//!            "1.00 [0.08, 1.92]");
//! ```

pub mod game;
pub mod latency;
pub mod openings;
pub mod options;
pub mod process;
pub mod runner;
pub mod sprt;
pub mod spsa;
pub mod stats;
pub mod tournament;
pub mod tune;

// The crate README's examples compile and run as doctests, so the README cannot drift.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

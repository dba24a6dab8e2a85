//! One search thread's evaluation: the only thing from [`crate::eval`] the search names.
//!
//! Carp keeps the network's accumulators next to the board and the search calls
//! `pos.evaluate()` without knowing what runs; [`EvalState`] is that seam here. It owns the
//! choice between the network (incrementally, from accumulators updated as the search moves),
//! the classical formula, and the batching service (with the CPU as fallback), and it counts
//! the evaluations. The search tells it where it moves ([`EvalState::push`],
//! [`EvalState::push_null`]) and asks for a number ([`EvalState::evaluate`]).

use super::Evaluation;
use super::classical::evaluate;
use super::service::{EvalClient, EvalService};
use crate::nnue::AccumulatorStack;
use shatranj_chess::Position;
use std::sync::Arc;

/// A search thread's way to its static evaluations (one per [`crate::search::Searcher`]).
pub struct EvalState<'a> {
    evaluation: &'a Evaluation,
    /// The batching service evaluations go through, when they are routed there.
    service: Option<&'a EvalService>,
    /// This thread's way into `service`.
    client: Option<EvalClient>,
    /// The network's accumulators per ply, when the evaluation is a network.
    pub(crate) accumulators: Option<AccumulatorStack>,
    /// Static evaluations computed.
    evaluations: u64,
}

impl<'a> EvalState<'a> {
    /// The state of a thread evaluating `evaluation`, through `service` when given, at plies
    /// `0 .. plies`.
    pub fn new(
        evaluation: &'a Evaluation,
        service: Option<&'a EvalService>,
        plies: usize,
    ) -> EvalState<'a> {
        EvalState {
            evaluation,
            service,
            client: service.map(EvalService::client),
            accumulators: evaluation
                .network()
                .map(|n| AccumulatorStack::new(Arc::clone(n), plies)),
            evaluations: 0,
        }
    }

    /// The search starts from `root` (ply 0).
    #[inline]
    pub fn reset(&mut self, root: &Position) {
        if let Some(stack) = &mut self.accumulators {
            stack.reset(0, root);
        }
    }

    /// The position at `ply` is `child`, a move away from `parent` at `ply - 1`.
    #[inline]
    pub fn push(&mut self, ply: usize, parent: &Position, child: &Position) {
        if let Some(stack) = &mut self.accumulators {
            stack.push(ply, parent, child);
        }
    }

    /// The position at `ply` is the one at `ply - 1` after a null move.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        if let Some(stack) = &mut self.accumulators {
            stack.push_null(ply);
        }
    }

    /// The static evaluation of `pos`, the position at `ply` (centipawns, side to move):
    /// inline on the CPU, or through the batching service. A failed batch falls back to the
    /// CPU, which computes the same number, so the search goes on unchanged; the failure is
    /// reported once.
    #[inline]
    pub fn evaluate(&mut self, ply: usize, pos: &Position) -> i32 {
        self.evaluations += 1;
        match &mut self.client {
            None => self.evaluate_here(ply, pos),
            Some(client) => match client.evaluate(pos) {
                Ok(v) => v,
                Err(e) => {
                    if let Some(s) = self.service {
                        s.record_fallback(&e);
                    }
                    self.evaluate_here(ply, pos)
                }
            },
        }
    }

    /// The evaluation on this thread: the network from its accumulators, or the classical
    /// evaluation.
    #[inline]
    fn evaluate_here(&mut self, ply: usize, pos: &Position) -> i32 {
        match (&mut self.accumulators, self.evaluation) {
            (Some(stack), _) => stack.evaluate(ply, pos),
            (None, Evaluation::Classical(params)) => evaluate(params, pos),
            (None, e) => e.evaluate(pos),
        }
    }

    /// Static evaluations computed so far (table hits excluded: they never ask).
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }
}

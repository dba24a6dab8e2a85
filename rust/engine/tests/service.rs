//! The batching service: answers equal to direct evaluation from many threads at once,
//! batches that really gather requests, dispatch on a full batch and on the wait limit,
//! evaluator errors as values, shutdown without hangs, and searches routed through it.

#[path = "../../chess/tests/support/rng.rs"]
mod rng;

use shatranj_chess::Position;
use shatranj_engine::eval::evaluate;
use shatranj_engine::{
    BatchConfig, BatchEvaluator, CpuBatchEvaluator, DEFAULT_PARAMS, Engine, EngineOptions,
    EvalError, EvalRoute, EvalService, Evaluation, Limits, PackedPosition, eval::cpu_evaluator,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Positions reached by random legal moves from the start (seeded).
fn random_positions(seed: u64, n: usize) -> Vec<Position> {
    println!("random positions: seed {seed}");
    let mut rng = rng::Rng::mixed(seed);
    let mut out = Vec::with_capacity(n);
    let mut pos = Position::new();
    while out.len() < n {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.halfmove_clock() > 60 {
            pos = Position::new();
            continue;
        }
        pos.play_unchecked(rng.pick(moves.as_slice()));
        out.push(pos);
    }
    out
}

fn cpu() -> Arc<dyn BatchEvaluator> {
    Arc::new(CpuBatchEvaluator::new(DEFAULT_PARAMS))
}

#[test]
fn many_threads_get_the_direct_evaluation_in_shared_batches() {
    let service = EvalService::new(
        cpu(),
        BatchConfig {
            max_batch: 64,
            max_wait: Duration::from_millis(20),
        },
    )
    .unwrap();
    let threads = 8;
    let per_thread = 150;
    std::thread::scope(|s| {
        for t in 0..threads {
            let mut client = service.client();
            s.spawn(move || {
                let positions = random_positions(100 + t, per_thread);
                for (i, p) in positions.iter().enumerate() {
                    if i % 10 == 0 {
                        // Ten at once, as a frontier node's children would go.
                        let chunk = &positions[i..(i + 10).min(positions.len())];
                        let mut out = vec![0; chunk.len()];
                        client.evaluate_many(chunk, &mut out).unwrap();
                        let want: Vec<i32> =
                            chunk.iter().map(|p| evaluate(&DEFAULT_PARAMS, p)).collect();
                        assert_eq!(out, want);
                    }
                    assert_eq!(client.evaluate(p).unwrap(), evaluate(&DEFAULT_PARAMS, p));
                }
            });
        }
    });
    let stats = service.stats();
    println!("{stats:?}, mean batch {:.2}", stats.mean_batch());
    let singles = threads * per_thread as u64;
    let many = threads * (per_thread as u64).div_ceil(10) * 10;
    assert_eq!(stats.evaluations, singles + many);
    assert!(stats.max_batch > 1, "no two requests ever shared a batch");
    assert!(stats.batches < stats.evaluations);
    assert_eq!(stats.failed_batches, 0);
}

#[test]
fn a_full_batch_goes_at_once_and_a_lone_request_after_the_wait() {
    let wait = Duration::from_millis(200);
    let service = EvalService::new(
        cpu(),
        BatchConfig {
            max_batch: 4,
            max_wait: wait,
        },
    )
    .unwrap();
    let mut a = service.client();
    // A second client that asks nothing keeps the batch from being "everyone waiting".
    let _idle = service.client();
    let positions = random_positions(5, 4);

    let t = Instant::now();
    let mut out = [0; 4];
    a.evaluate_many(&positions, &mut out).unwrap();
    let full = t.elapsed();

    let t = Instant::now();
    let v = a.evaluate(&positions[0]).unwrap();
    let lone = t.elapsed();
    assert_eq!(v, evaluate(&DEFAULT_PARAMS, &positions[0]));
    println!("full batch answered in {full:?}, lone request in {lone:?}");
    assert!(
        lone >= wait,
        "a lone request left before the wait: {lone:?}"
    );
    assert!(
        full < lone,
        "a full batch should not wait for the timer ({full:?} vs {lone:?})"
    );
}

#[test]
fn when_every_client_waits_the_batch_goes_without_the_timer() {
    let service = EvalService::new(
        cpu(),
        BatchConfig {
            max_batch: 1 << 20,
            max_wait: Duration::from_secs(600),
        },
    )
    .unwrap();
    let mut only = service.client();
    let p = Position::new();
    // With a 10-minute wait this returns at once only because the sole client is waiting.
    assert_eq!(only.evaluate(&p).unwrap(), evaluate(&DEFAULT_PARAMS, &p));
}

/// Fails every `period`-th batch (1: every batch) with a lost device.
struct Flaky {
    period: u64,
    calls: AtomicU64,
}

impl BatchEvaluator for Flaky {
    fn describe(&self) -> String {
        "flaky test back end".into()
    }

    fn evaluate_packed(
        &self,
        positions: &[PackedPosition],
        out: &mut [i32],
    ) -> Result<(), EvalError> {
        if self
            .calls
            .fetch_add(1, Ordering::SeqCst)
            .is_multiple_of(self.period)
        {
            return Err(EvalError::DeviceLost("test".into()));
        }
        CpuBatchEvaluator::new(DEFAULT_PARAMS).evaluate_packed(positions, out)
    }
}

#[test]
fn evaluator_errors_reach_the_clients_and_the_service_goes_on() {
    let flaky = Arc::new(Flaky {
        period: 2,
        calls: AtomicU64::new(0),
    });
    let service = EvalService::new(flaky, BatchConfig::default()).unwrap();
    let mut c = service.client();
    let p = Position::new();
    assert_eq!(c.evaluate(&p), Err(EvalError::DeviceLost("test".into())));
    assert_eq!(c.evaluate(&p), Ok(evaluate(&DEFAULT_PARAMS, &p)));
    assert_eq!(c.evaluate(&p), Err(EvalError::DeviceLost("test".into())));
    assert_eq!(service.stats().failed_batches, 2);
    assert_eq!(
        service.first_error(),
        Some(EvalError::DeviceLost("test".into()))
    );
    let mut out = [0; 1];
    assert!(matches!(
        c.evaluate_many(&[p, p], &mut out),
        Err(EvalError::LengthMismatch { .. })
    ));
}

#[test]
fn a_client_after_shutdown_gets_an_error_not_a_hang() {
    let service = EvalService::new(cpu(), BatchConfig::default()).unwrap();
    let mut c = service.client();
    drop(service);
    assert!(matches!(
        c.evaluate(&Position::new()),
        Err(EvalError::Backend(_))
    ));
}

/// An engine whose own evaluation is `evaluation`: a routed search gives the direct one's
/// result only when the service's back end computes that same evaluation.
fn engine(route: EvalRoute, threads: usize, evaluation: &Evaluation) -> Engine {
    Engine::new(EngineOptions {
        threads,
        hash_mb: 4,
        eval_route: route,
        evaluation: evaluation.clone(),
        ..EngineOptions::default()
    })
    .unwrap()
}

const FENS: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
];

#[test]
fn a_search_through_the_service_is_the_direct_search() {
    // The classical evaluation and the built-in network (the default): the service's batches
    // score from scratch, the direct search's network incrementally, and both must agree.
    for evaluation in [Evaluation::classical(), Evaluation::default()] {
        let name = evaluation.describe();
        let service =
            Arc::new(EvalService::new(cpu_evaluator(&evaluation), BatchConfig::default()).unwrap());
        for fen in FENS {
            let pos: Position = fen.parse().unwrap();
            let direct =
                engine(EvalRoute::Direct, 1, &evaluation).search(pos, &Limits::depth(7), |_| {});
            let mut routed = engine(EvalRoute::Service(Arc::clone(&service)), 1, &evaluation);
            let batched = routed.search(pos, &Limits::depth(7), |_| {});
            assert_eq!(
                (batched.best_move, batched.score, batched.nodes, &batched.pv),
                (direct.best_move, direct.score, direct.nodes, &direct.pv),
                "{name}: {fen}"
            );
            assert_eq!(batched.evaluations, direct.evaluations, "{name}: {fen}");
        }
        let total: u64 = service.stats().evaluations;
        assert!(total > 0, "{name}");
        assert_eq!(service.fallbacks(), 0, "{name}");
    }
}

#[test]
fn a_failing_back_end_falls_back_to_the_cpu_with_the_same_result() {
    let flaky = Arc::new(Flaky {
        period: 3,
        calls: AtomicU64::new(0),
    });
    let service = Arc::new(EvalService::new(flaky, BatchConfig::default()).unwrap());
    let pos: Position = FENS[0].parse().unwrap();
    let classical = Evaluation::classical();
    let direct = engine(EvalRoute::Direct, 1, &classical).search(pos, &Limits::depth(6), |_| {});
    let mut routed = engine(EvalRoute::Service(Arc::clone(&service)), 1, &classical);
    let r = routed.search(pos, &Limits::depth(6), |_| {});
    assert_eq!(
        (r.best_move, r.score, r.nodes),
        (direct.best_move, direct.score, direct.nodes)
    );
    assert!(routed.eval_fallbacks() > 0);
    assert_eq!(routed.eval_fallbacks(), service.stats().failed_batches);
}

#[test]
fn lazy_smp_threads_share_the_service() {
    let service = Arc::new(
        EvalService::new(
            cpu(),
            BatchConfig {
                max_batch: 64,
                max_wait: Duration::from_millis(1),
            },
        )
        .unwrap(),
    );
    let mut e = engine(
        EvalRoute::Service(Arc::clone(&service)),
        3,
        &Evaluation::classical(),
    );
    let r = e.search(Position::new(), &Limits::depth(6), |_| {});
    assert!(r.best_move.is_some());
    let stats = service.stats();
    println!("{stats:?}");
    assert_eq!(stats.evaluations, r.evaluations);
    assert!(stats.max_batch > 1, "three threads never shared a batch");
}

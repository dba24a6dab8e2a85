//! Search speed with static evaluations inline on the CPU against the same searches routed
//! through the batching service over the CPU back end: one search with 1 and N threads, and
//! N concurrent single-thread searches (the shape self-play has). Prints one line per case;
//! `benchmarks/selfplay.py` runs it and records the table.
//!
//! `cargo run --release -p shatranj-engine --example route_bench -- [DEPTH] [N]`

use shatranj_chess::Position;
use shatranj_engine::bench::BENCH_POSITIONS;
use shatranj_engine::{
    BatchConfig, CpuBatchEvaluator, DEFAULT_PARAMS, Engine, EngineOptions, EvalRoute, EvalService,
    Limits,
};
use std::sync::Arc;
use std::time::Instant;

fn positions() -> Vec<Position> {
    BENCH_POSITIONS
        .iter()
        .take(6)
        .filter_map(|f| f.parse().ok())
        .collect()
}

/// Nodes and seconds of `searches` concurrent engines, each searching every position.
fn run(route: &EvalRoute, threads: usize, searches: usize, depth: u32) -> (u64, f64) {
    let start = Instant::now();
    let nodes: u64 = std::thread::scope(|s| {
        let handles: Vec<_> = (0..searches)
            .map(|_| {
                s.spawn(|| {
                    let Ok(mut engine) = Engine::new(EngineOptions {
                        threads,
                        hash_mb: 16,
                        eval_route: route.clone(),
                        ..EngineOptions::default()
                    }) else {
                        return 0;
                    };
                    positions()
                        .into_iter()
                        .map(|p| {
                            engine.new_game();
                            engine.search(p, &Limits::depth(depth), |_| {}).nodes
                        })
                        .sum::<u64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
    });
    (nodes, start.elapsed().as_secs_f64())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(9);
    let n = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let service = match EvalService::new(
        Arc::new(CpuBatchEvaluator::new(DEFAULT_PARAMS)),
        BatchConfig::default(),
    ) {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let routes = [
        ("inline", EvalRoute::Direct),
        ("service", EvalRoute::Service(Arc::clone(&service))),
    ];
    for (label, threads, searches) in [
        ("1 search, 1 thread", 1, 1),
        ("1 search, N threads", n, 1),
        ("N searches, 1 thread each", 1, n),
    ] {
        for (route_name, route) in &routes {
            let before = service.stats();
            let (nodes, secs) = run(route, threads, searches, depth);
            let after = service.stats();
            let batches = after.batches - before.batches;
            let evals = after.evaluations - before.evaluations;
            let mean = if batches == 0 {
                0.0
            } else {
                evals as f64 / batches as f64
            };
            println!(
                "case={label:?} route={route_name} n={n} depth={depth} nodes={nodes} secs={secs:.3} nps={:.0} mean_batch={mean:.2}",
                nodes as f64 / secs
            );
        }
    }
}

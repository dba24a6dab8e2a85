//! The network shader (`shaders/nnue.wgsl`) against the CPU network, score for score: random
//! networks of several hidden sizes, both quantisations and both output-bucket layouts, on more than 100,000 positions
//! from random games and random placements, at odd batch sizes; random king-bucketed
//! networks (architecture 3) on 12,000 of them, placements with no king or two included;
//! compact input uploaded as it is; and `open_for` on every device.
//!
//! Without a GPU adapter these tests print why and pass, unless `SHATRANJ_REQUIRE_GPU=1` (CI
//! sets it, with Mesa's lavapipe, so the shader really runs).

use shatranj_engine::eval::PackedPosition;
use shatranj_engine::nnue::file::Quantisation;
use shatranj_engine::nnue::{CompactPosition, Inputs, KingBuckets, Network, OutputBuckets};
use shatranj_engine::util::SplitMix64;
use shatranj_engine::{BatchEvaluator, Evaluation};
use shatranj_gpu::{Device, GpuEvaluator, Program};
use std::sync::Arc;

#[path = "support/common.rs"]
mod common;
use common::{Rng, fixed_positions, game_positions, placed_positions};

const SEED: u64 = 0x0DD_BA7C;

/// A random network using most of the range the loader allows.
fn network(seed: u64, hidden: usize, quantisation: Quantisation) -> Arc<Network> {
    network_with(seed, hidden, quantisation, OutputBuckets::Single)
}

/// [`network`] with `buckets`' output layers, each with its own bias.
fn network_with(
    seed: u64,
    hidden: usize,
    quantisation: Quantisation,
    buckets: OutputBuckets,
) -> Arc<Network> {
    network_inputs(seed, hidden, quantisation, Inputs::Plain, buckets)
}

/// [`network_with`] reading its rows through `inputs`.
fn network_inputs(
    seed: u64,
    hidden: usize,
    quantisation: Quantisation,
    inputs: Inputs,
    buckets: OutputBuckets,
) -> Arc<Network> {
    let mut g = SplitMix64::new(seed);
    let mut r = |max: i32| (g.below(2 * max as usize + 1) as i32 - max) as i16;
    let limit = (i32::from(i16::MAX) / quantisation.qa).min(127);
    let fw = (0..inputs.count() * hidden).map(|_| r(500)).collect();
    let fb = (0..hidden).map(|_| r(3000)).collect();
    let n = buckets.count();
    let ow = (0..n * 2 * hidden).map(|_| r(limit)).collect();
    let ob = (0..n as i32).map(|k| -777 + 9_000 * k).collect();
    Arc::new(Network::from_parts_with(quantisation, inputs, buckets, fw, fb, ow, ob).unwrap())
}

fn gpu_or_skip(test: &str, net: &Arc<Network>) -> Option<GpuEvaluator> {
    common::gpu_or_skip(test, &Evaluation::Network(Arc::clone(net)))
}

fn check(net: &Network, gpu: &dyn BatchEvaluator, positions: &[PackedPosition], batch: usize) {
    let mut out = vec![i32::MIN; batch];
    for (b, chunk) in positions.chunks(batch).enumerate() {
        let out = &mut out[..chunk.len()];
        out.fill(i32::MIN);
        gpu.evaluate_packed(chunk, out)
            .unwrap_or_else(|e| panic!("batch size {batch}: {e}"));
        for (i, (p, &score)) in chunk.iter().zip(out.iter()).enumerate() {
            assert_eq!(
                score,
                net.evaluate_packed(p),
                "seed {SEED:#x}, hidden {}, batch size {batch}, position {}: {p:?}",
                net.hidden(),
                b * batch + i
            );
        }
    }
}

#[test]
fn network_scores_on_the_gpu_equal_the_cpu() {
    let mut rng = Rng::mixed(SEED);
    println!("seed {SEED:#x}");
    let mut positions = fixed_positions();
    positions.extend(game_positions(&mut rng, 60_000));
    positions.extend(placed_positions(&mut rng, 45_000));
    assert!(positions.len() >= 100_000);
    let nets = [
        network(SEED, 64, Quantisation::default()),
        network(
            SEED + 1,
            32,
            Quantisation {
                qa: 181,
                ..Quantisation::default()
            },
        ),
        network(SEED + 2, 256, Quantisation::default()),
        network_with(
            SEED + 3,
            128,
            Quantisation::default(),
            OutputBuckets::PieceCount,
        ),
        // The widest layout a built-in network has: 512 neurons, eight output layers.
        network_with(
            SEED + 4,
            512,
            Quantisation::default(),
            OutputBuckets::PieceCount,
        ),
    ];
    for (k, net) in nets.iter().enumerate() {
        let Some(gpu) = gpu_or_skip("network identity", net) else {
            return;
        };
        assert_eq!(
            gpu.with_context(|c| c.program()),
            Program::Network {
                hidden: net.hidden()
            }
        );
        // Every position with the first network and the first bucketed one (whose output
        // layer changes with the piece count); prefixes with the others.
        let all = if k == 0 || (net.buckets() != OutputBuckets::Single && net.hidden() < 512) {
            positions.len()
        } else {
            6_000
        };
        check(net, &gpu, &positions[..300], 1);
        for batch in [63, 64, 65, 1001] {
            check(net, &gpu, &positions[..all.min(8_000)], batch);
        }
        check(net, &gpu, &positions[..all], 4097);
        check(net, &gpu, &positions[..all], all);
    }
}

/// Architecture 3: king buckets (presets of 1, 4 and 8, and a map of 3 chosen here) with
/// mirroring, on the fixed positions, the first 6,000 from games and the last 6,000
/// placements (where a side may have no king or two: each reads the lowest, or its own a1).
#[test]
fn king_bucket_network_scores_on_the_gpu_equal_the_cpu() {
    let mut rng = Rng::mixed(SEED ^ 3);
    println!("seed {:#x}", SEED ^ 3);
    let mut positions = fixed_positions();
    positions.extend(game_positions(&mut rng, 6_000));
    positions.extend(placed_positions(&mut rng, 6_000));
    let mut map = [2u8; 32];
    map[..4].copy_from_slice(&[0, 0, 1, 1]);
    map[31] = 0;
    let king = |k: usize| Inputs::KingBuckets(KingBuckets::preset(k).unwrap());
    let nets = [
        network_inputs(
            SEED + 10,
            64,
            Quantisation::default(),
            king(1),
            OutputBuckets::Single,
        ),
        network_inputs(
            SEED + 11,
            128,
            Quantisation::default(),
            king(4),
            OutputBuckets::PieceCount,
        ),
        network_inputs(
            SEED + 12,
            32,
            Quantisation {
                qa: 181,
                ..Quantisation::default()
            },
            king(8),
            OutputBuckets::PieceCount,
        ),
        network_inputs(
            SEED + 13,
            64,
            Quantisation::default(),
            Inputs::KingBuckets(KingBuckets::new(map).unwrap()),
            OutputBuckets::Single,
        ),
    ];
    for net in &nets {
        let Some(gpu) = gpu_or_skip("king-bucket network identity", net) else {
            return;
        };
        check(net, &gpu, &positions[..300], 1);
        check(net, &gpu, &positions, 65);
        check(net, &gpu, &positions, positions.len());
    }
}

#[test]
fn compact_input_is_uploaded_as_it_is() {
    let net = network(SEED ^ 5, 64, Quantisation::default());
    let Some(gpu) = gpu_or_skip("compact input", &net) else {
        return;
    };
    let mut rng = Rng::mixed(SEED ^ 5);
    let packed = game_positions(&mut rng, 5000);
    let compact: Vec<CompactPosition> = packed.iter().map(CompactPosition::from_packed).collect();
    let mut out = vec![0; compact.len()];
    gpu.evaluate_compact(&compact, &mut out).unwrap();
    for (c, &score) in compact.iter().zip(&out) {
        assert_eq!(score, net.evaluate_compact(c));
    }
    assert!(gpu.evaluate_compact(&compact, &mut out[..3]).is_err());
    // The classical program reads compact input too.
    if let Ok(classical) = GpuEvaluator::from_env() {
        classical
            .evaluate_compact(&compact[..100], &mut out[..100])
            .unwrap();
        let mut expected = vec![0; 100];
        classical
            .evaluate_packed(&packed[..100], &mut expected)
            .unwrap();
        assert_eq!(out[..100], expected[..]);
    }
}

#[test]
fn open_for_gives_every_device_the_networks_scores() {
    let net = network(SEED ^ 9, 32, Quantisation::default());
    let evaluation = Evaluation::Network(Arc::clone(&net));
    let mut rng = Rng::mixed(SEED ^ 9);
    let positions = placed_positions(&mut rng, 3000);
    for device in [Device::Cpu, Device::Auto] {
        let e = shatranj_gpu::open_for(device, &evaluation).unwrap();
        println!("{device}: {}", e.describe());
        check(&net, e.as_ref(), &positions, 777);
    }
    match shatranj_gpu::open_for(Device::Gpu, &evaluation) {
        Ok(gpu) => {
            assert!(gpu.describe().contains("network"), "{}", gpu.describe());
            check(&net, gpu.as_ref(), &positions, 3000);
            // The same evaluation shares one context.
            let again = shatranj_gpu::open_for(Device::Gpu, &evaluation).unwrap();
            assert!(Arc::ptr_eq(&gpu, &again));
        }
        Err(e) => assert!(
            gpu_or_skip("open_for(gpu)", &net).is_none(),
            "open_for(gpu) failed while an adapter exists: {e}"
        ),
    }
}

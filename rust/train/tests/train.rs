//! Training end to end on a tiny fixture (200 games of `shatranj datagen --seed 3 --games 200
//! --soft-nodes 400 --hard-nodes 4000 --balance-depth 2`, in tests/data/tiny.sgd): the loss
//! falls, a stopped run resumes to the same weights, and the quantised network scores within
//! a stated bound of the float one.

use shatranj_engine::nnue::{Inputs, KingBuckets, OutputBuckets};
use shatranj_train::{Dataset, TrainConfig, Trainer, data, quantisation_error};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

fn fixture() -> Dataset {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/tiny.sgd");
    data::load(&[path], 10).unwrap()
}

fn config() -> TrainConfig {
    TrainConfig {
        hidden: 32,
        epochs: 4,
        batch_size: 512,
        seed: 4,
        mirror: true,
        ..TrainConfig::default()
    }
}

#[test]
fn the_fixture_splits_by_game() {
    let d = fixture();
    assert_eq!(d.games, 200);
    assert_eq!(d.train.len() + d.validation.len(), 17093);
    // Games 0, 10, …, 190 are the validation set: about a tenth.
    let share = d.validation.len() as f64 / 17093.0;
    assert!(share > 0.05 && share < 0.15, "{share}");
}

/// Training fits the data: the training loss falls well below an untrained network's. (On
/// 200 games the validation loss cannot fall as well, as there is too little to generalise
/// from; on the real data it does, benchmarks/RESULTS.md records it.)
#[test]
fn training_lowers_the_loss() {
    let d = fixture();
    let mut t = Trainer::new(config()).unwrap();
    let before = t.validation_loss(&d.train).unwrap();
    let mut reports = Vec::new();
    let done = t
        .train(
            &d,
            &AtomicBool::new(false),
            |_| {},
            |_, r| {
                reports.push(r.clone());
                Ok(())
            },
        )
        .unwrap();
    assert!(done);
    assert_eq!(reports.len(), 4);
    let after = t.validation_loss(&d.train).unwrap();
    let train: Vec<f32> = reports.iter().map(|r| r.train_loss).collect();
    println!("loss on the training set {before:.5} -> {after:.5}; per epoch {train:?}");
    assert!(after < 0.8 * before, "{before} -> {after}");
    assert!(train.windows(2).all(|w| w[1] < w[0]), "{train:?}");
    assert!(
        reports
            .iter()
            .all(|r| r.validation_loss.is_some_and(f32::is_finite))
    );
}

/// The bound the trainer promises: the quantised network is within 3 cp of the float one on
/// average, and within 25 cp everywhere (measured on the fixture's positions).
#[test]
fn the_quantised_network_stays_within_the_bound() {
    let d = fixture();
    let mut t = Trainer::new(config()).unwrap();
    t.train(&d, &AtomicBool::new(false), |_| {}, |_, _| Ok(()))
        .unwrap();
    let net = t.network().unwrap();
    let r = quantisation_error(&t.params, &net, &d.validation, 400.0, 10_000);
    println!("{r:?}");
    assert!(r.positions > 200);
    assert!(r.mean_abs < 3.0 && r.max_abs < 25.0, "{r:?}");
    // The file round trip is the same network.
    let back = shatranj_engine::Network::from_bytes(&net.to_bytes()).unwrap();
    assert_eq!(back, net);
}

/// King-bucketed, mirrored inputs (architecture 3) train too: the loss falls, the quantised
/// network keeps the same bound, its file loads as architecture 3, and the engine's own
/// evaluation from scratch gives every score the trainer's quantised pass gave.
#[test]
fn a_king_bucket_network_trains_and_the_engine_scores_it_alike() {
    king_bucket_network_trains_and_the_engine_scores_it_alike(false);
}

/// The same with the factoriser: the file written is the folded network, plain
/// architecture 3, and the engine's scores of it are the trainer's quantised scores, which
/// stay within the bound of the *factorised* float network (the model that was trained).
#[test]
fn a_factorised_network_exports_folded_and_the_engine_scores_it_alike() {
    king_bucket_network_trains_and_the_engine_scores_it_alike(true);
}

fn king_bucket_network_trains_and_the_engine_scores_it_alike(factoriser: bool) {
    let d = fixture();
    let inputs = Inputs::KingBuckets(KingBuckets::preset(4).unwrap());
    let mut t = Trainer::new(TrainConfig {
        inputs,
        buckets: OutputBuckets::PieceCount,
        factoriser,
        ..config()
    })
    .unwrap();
    let before = t.validation_loss(&d.train).unwrap();
    t.train(&d, &AtomicBool::new(false), |_| {}, |_, _| Ok(()))
        .unwrap();
    let after = t.validation_loss(&d.train).unwrap();
    println!("loss on the training set {before:.5} -> {after:.5}");
    assert!(after < 0.8 * before, "{before} -> {after}");
    assert_eq!(t.params.factorised, factoriser);
    if factoriser {
        // Training moved something into the factor (it starts at zero), so the export had
        // something to fold.
        let largest = t.params.factor().iter().fold(0.0f32, |m, f| m.max(f.abs()));
        println!("largest factor weight {largest}");
        assert!(largest > 0.01, "{largest}");
    }
    let net = t.network().unwrap();
    let r = quantisation_error(&t.params, &net, &d.validation, 400.0, 10_000);
    println!("{r:?}");
    assert!(r.mean_abs < 3.0 && r.max_abs < 25.0, "{r:?}");
    let bytes = net.to_bytes();
    assert_eq!(u16::from_le_bytes([bytes[10], bytes[11]]), 3);
    let back = shatranj_engine::Network::from_bytes(&bytes).unwrap();
    assert_eq!((back.inputs(), &back), (&inputs, &net));
    for (s, &score) in d.validation.iter().zip(&r.scores) {
        let pieces: Vec<usize> = s.white[..usize::from(s.count)]
            .iter()
            .map(|&f| usize::from(f))
            .collect();
        let engine = back.evaluate_pieces(&pieces, s.black_to_move);
        assert_eq!(engine.clamp(-32_000, 32_000) as i16, score);
    }
}

/// A run seeded by a network starts at that network's loss (a fine-tune picks up where it
/// left off, whatever the file's SCALE), then trains on from there; a network of another
/// shape, or one given after the run has started, is refused.
#[test]
fn a_network_seeds_a_run_at_its_own_loss() {
    let d = fixture();
    let mut t = Trainer::new(TrainConfig {
        buckets: OutputBuckets::PieceCount,
        ..config()
    })
    .unwrap();
    t.train(&d, &AtomicBool::new(false), |_| {}, |_, _| Ok(()))
        .unwrap();
    let trained = t.validation_loss(&d.train).unwrap();
    let net = t.network_with_scale(317).unwrap();
    assert!(t.start_from(&net).is_err(), "a started run was reseeded");
    let mut seeded = Trainer::new(TrainConfig {
        buckets: OutputBuckets::PieceCount,
        ..config()
    })
    .unwrap();
    let random = seeded.validation_loss(&d.train).unwrap();
    seeded.start_from(&net).unwrap();
    let start = seeded.validation_loss(&d.train).unwrap();
    // On the training positions, where four epochs moved the loss well off a random
    // network's (the fixture is too small for the validation loss to move as much).
    println!("training-set loss: trained {trained:.6}, random {random:.6}, seeded {start:.6}");
    assert!(random > 1.1 * trained, "{random} vs {trained}");
    assert!(
        (start - trained).abs() < 0.01 * trained,
        "{trained} vs {start}"
    );
    seeded
        .train(&d, &AtomicBool::new(false), |_| {}, |_, _| Ok(()))
        .unwrap();
    let after = seeded.validation_loss(&d.train).unwrap();
    assert!(after < t.validation_loss(&d.train).unwrap(), "{after}");
    // A wider run starts where the narrower network stands (its new neurons silent).
    let mut wide = Trainer::new(TrainConfig {
        hidden: 64,
        buckets: OutputBuckets::PieceCount,
        ..config()
    })
    .unwrap();
    wide.start_from(&net).unwrap();
    let wide_start = wide.validation_loss(&d.train).unwrap();
    println!("training-set loss of the widened start: {wide_start:.6}");
    assert!(
        (wide_start - start).abs() < 1e-6 * start,
        "{start} vs {wide_start}"
    );
    // A narrower one cannot.
    let wide_net = wide.network_with_scale(317).unwrap();
    let mut narrow = Trainer::new(TrainConfig {
        buckets: OutputBuckets::PieceCount,
        ..config()
    })
    .unwrap();
    assert!(narrow.start_from(&wide_net).is_err());
    let one_layer = Trainer::new(TrainConfig {
        buckets: OutputBuckets::Single,
        ..config()
    });
    assert!(one_layer.unwrap().start_from(&net).is_err());
}

/// A run stopped mid-epoch and resumed from its checkpoint ends with exactly the weights of
/// a run that never stopped (a network with output buckets, so the checkpoint carries them).
#[test]
fn a_stopped_run_resumes_to_the_same_weights() {
    let ckpt = resumes_to_the_same_weights(Inputs::Plain, false);
    assert_eq!(ckpt[8..12], 3u32.to_le_bytes());
}

/// The factoriser needs king buckets: with plain inputs it is a typed error.
#[test]
fn the_factoriser_without_king_buckets_is_refused() {
    let e = Trainer::new(TrainConfig {
        factoriser: true,
        ..config()
    })
    .err()
    .map(|e| e.to_string());
    assert!(
        e.as_deref().is_some_and(|e| e.contains("king-bucketed")),
        "{e:?}"
    );
}

/// The same with king buckets: the checkpoint (version 4) carries their map.
#[test]
fn a_stopped_king_bucket_run_resumes_to_the_same_weights() {
    let ckpt =
        resumes_to_the_same_weights(Inputs::KingBuckets(KingBuckets::preset(2).unwrap()), false);
    assert_eq!(ckpt[8..12], 4u32.to_le_bytes());
}

/// The same with the factoriser: the checkpoint (version 5) carries the factor and its
/// optimiser moments.
#[test]
fn a_stopped_factorised_run_resumes_to_the_same_weights() {
    let ckpt =
        resumes_to_the_same_weights(Inputs::KingBuckets(KingBuckets::preset(2).unwrap()), true);
    assert_eq!(ckpt[8..12], 5u32.to_le_bytes());
}

/// Trains a run whole and a run stopped and resumed, checks they end alike, and returns the
/// stopped run's checkpoint.
fn resumes_to_the_same_weights(inputs: Inputs, factoriser: bool) -> Vec<u8> {
    let d = fixture();
    let config = || TrainConfig {
        inputs,
        buckets: OutputBuckets::PieceCount,
        factoriser,
        ..config()
    };
    let mut whole = Trainer::new(config()).unwrap();
    whole
        .train(&d, &AtomicBool::new(false), |_| {}, |_, _| Ok(()))
        .unwrap();

    let dir = std::env::temp_dir().join(format!(
        "shatranj-train-{}-{}-{factoriser}",
        std::process::id(),
        inputs.count()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let ckpt = dir.join("run.ckpt");
    let stop = AtomicBool::new(false);
    let mut first = Trainer::new(config()).unwrap();
    let done = first
        .train(
            &d,
            &stop,
            |p| {
                if p.epoch == 3 && p.batch == 5 {
                    stop.store(true, Ordering::Relaxed);
                }
            },
            |_, _| Ok(()),
        )
        .unwrap();
    assert!(!done);
    first.save_checkpoint(&ckpt).unwrap();
    let saved = std::fs::read(&ckpt).unwrap();
    let mut second = Trainer::resume(&ckpt).unwrap();
    assert_eq!(second.config, config());
    assert_eq!(second.epochs_done(), 2);
    assert!(
        second
            .train(&d, &AtomicBool::new(false), |_| {}, |_, _| Ok(()))
            .unwrap()
    );
    assert_eq!(second.params, whole.params);

    assert_eq!(
        whole.network().unwrap().buckets(),
        OutputBuckets::PieceCount
    );
    assert_eq!(whole.network().unwrap().inputs(), &inputs);

    std::fs::write(&ckpt, b"SHTRCKPT but too short").unwrap();
    let e = Trainer::resume(&ckpt).err().map(|e| e.to_string());
    assert!(
        e.as_deref().is_some_and(|e| e.contains("not a shatranj")),
        "{e:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    saved
}

/// A checkpoint of the version before output buckets (80 header bytes, no bucket count)
/// resumes as a one-layer run.
#[test]
fn a_version_2_checkpoint_resumes_with_one_output_layer() {
    let dir = std::env::temp_dir().join(format!("shatranj-train-v2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ckpt = dir.join("v3.ckpt");
    let trainer = Trainer::new(config()).unwrap();
    trainer.save_checkpoint(&ckpt).unwrap();
    let mut bytes = std::fs::read(&ckpt).unwrap();
    assert_eq!(bytes[8..12], 3u32.to_le_bytes());
    assert_eq!(bytes[80..84], 1u32.to_le_bytes());
    bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
    bytes.drain(80..84);
    std::fs::write(&ckpt, &bytes).unwrap();
    let old = Trainer::resume(&ckpt).unwrap();
    assert_eq!(old.config, config());
    assert_eq!(old.params, trainer.params);
    std::fs::remove_dir_all(&dir).unwrap();
}

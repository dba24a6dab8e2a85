//! The evaluation: colour symmetry, the packed (GPU) form giving the same score, and the
//! batch call agreeing with single calls.

use shatranj_chess::Position;
use shatranj_engine::eval::EVAL_PARAMS_WORDS;
use shatranj_engine::eval::evaluate;
use shatranj_engine::{CpuEvaluator, DEFAULT_PARAMS, Evaluator, PackedPosition};

// The seeded generator shared with the rules crate's tests (xorshift64*).
#[path = "../../chess/tests/support/rng.rs"]
mod rng;
use rng::Rng;

/// Positions from seeded random games, including promotions and bare endings.
fn random_positions(seed: u64, n: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::new();
        let plies = rng.next() % 200;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[(rng.next() % moves.len() as u64) as usize]);
            if rng.next().is_multiple_of(8) {
                out.push(pos);
            }
        }
        out.push(pos);
    }
    out.truncate(n);
    out
}

const FIXED: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "QQQQQQ1k/8/8/8/8/8/8/K7 b - - 0 1",
    "4k3/8/PPPPPPPP/8/8/pppppppp/8/4K3 w - - 0 1",
];

#[test]
fn evaluation_is_colour_symmetric() {
    let seed = 0xE7A1_5EED;
    println!("seed {seed:#x}");
    let mut positions: Vec<Position> = FIXED.iter().map(|f| f.parse().unwrap()).collect();
    positions.extend(random_positions(seed, 3000));
    for pos in &positions {
        let mirrored = pos.mirrored();
        assert_eq!(
            evaluate(&DEFAULT_PARAMS, pos),
            evaluate(&DEFAULT_PARAMS, &mirrored),
            "seed {seed:#x}: {} vs {}",
            pos.fen(),
            mirrored.fen()
        );
    }
}

#[test]
fn packed_form_scores_the_same() {
    let seed = 0xBAC4_ED00;
    println!("seed {seed:#x}");
    let cpu = CpuEvaluator::default();
    let mut positions: Vec<Position> = FIXED.iter().map(|f| f.parse().unwrap()).collect();
    positions.extend(random_positions(seed, 3000));
    let mut batch = vec![0; positions.len()];
    cpu.evaluate_batch(&positions, &mut batch);
    for (pos, &b) in positions.iter().zip(&batch) {
        let packed = PackedPosition::from_position(pos);
        assert_eq!(cpu.evaluate_packed(&packed), b, "{}", pos.fen());
        assert_eq!(cpu.evaluate(pos), b);
        // The bytes a GPU would receive round-trip.
        let bytes = bytemuck::bytes_of(&packed);
        assert_eq!(bytes.len(), 112);
        let back: PackedPosition = bytemuck::pod_read_unaligned(bytes);
        assert_eq!(back, packed);
    }
}

#[test]
fn material_counts_and_tempo_belongs_to_the_mover() {
    // White is a queen up: positive for White to move, negative for Black to move.
    let w: Position = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1".parse().unwrap();
    let b: Position = "4k3/8/8/8/8/8/8/3QK3 b - - 0 1".parse().unwrap();
    let ew = evaluate(&DEFAULT_PARAMS, &w);
    let eb = evaluate(&DEFAULT_PARAMS, &b);
    assert!(ew > 800, "{ew}");
    assert_eq!(ew + eb, 2 * DEFAULT_PARAMS.tempo);
}

#[test]
fn parameter_table_is_flat_words() {
    assert_eq!(DEFAULT_PARAMS.as_words().len(), EVAL_PARAMS_WORDS);
    assert_eq!(
        EVAL_PARAMS_WORDS * 4,
        std::mem::size_of_val(&DEFAULT_PARAMS)
    );
}

// The engine's network evaluation as a WGSL compute shader: one workgroup scores one compact
// position. It reproduces `shatranj_engine::nnue::Network::evaluate_compact` bit for bit, with
// integer arithmetic only (rust/engine/src/nnue/mod.rs has the formula).
//
// Constants prepended by `shatranj_gpu::layout::nnue_prelude` (so this file alone does not
// compile): HIDDEN (H), HALF (H / 2, the u32 words of one row), QA, QB, SCALE, MAX_EVAL,
// B1_AT, W2_AT, B2_AT, KING_MAP_AT (word offsets in `weights`), BUCKETS (output layers: 1, or
// 8 chosen by piece count), KING_BUCKETS (0 for plain inputs, else K) and WORKGROUP_SIZE (64).
//
// `weights` holds the file's i16 values two to a word, the first in the low half: the rows of
// W1 (768, or K·768 with king buckets; row f = input f), then b1, then per bucket W2 (the side
// to move's half, then the other side's), then b2 as one i32 word per bucket, then, with king
// buckets, the 32-entry king-bucket map one word each. WGSL has no i16; `low` and `high`
// sign-extend the halves.
//
// Inputs (rust/engine/src/nnue/inputs.rs): a piece's row in a view is
// offset + (oriented piece-square XOR flip), where the view's own king chooses offset (its
// bucket · 768) and flip (7 when that king is on files e-h, mirroring the board); plain inputs
// have offset and flip 0. A side without a king reads as if it stood on its own a1.
//
// Work split: thread t of the workgroup decodes square t of the position (64 threads, 64
// squares) into the feature lists in workgroup memory; then thread t accumulates the hidden
// words t, t + 64, … of both views, reading rows contiguously across the workgroup, and
// computes its part of the output sum; a tree reduction adds the parts. Sums are i32 and wrap
// (as the CPU's `wrapping_add`): addition modulo 2^32 gives the same total in any order.

// Eight words, as `CompactPosition` in Rust: the occupancy (a1-h4, a5-h8), four words of
// piece codes, the flags, a reserved word. (A `vec4` member would be aligned to 16 bytes in
// storage and leave a gap that the Rust struct does not have.)
struct CompactPosition {
    words: array<u32, 8>,
}

struct Batch {
    // Positions in this dispatch; workgroups beyond it do nothing.
    count: u32,
    // Workgroups per row of the dispatch (a dispatch wider than 65535 wraps into rows).
    row: u32,
}

@group(0) @binding(0) var<storage, read> weights: array<u32>;
@group(0) @binding(1) var<storage, read> positions: array<CompactPosition>;
@group(0) @binding(2) var<storage, read_write> scores: array<i32>;
@group(0) @binding(3) var<uniform> batch: Batch;

var<workgroup> white_features: array<u32, 32>;
var<workgroup> black_features: array<u32, 32>;
var<workgroup> partial: array<i32, 64>;
// The lowest square of White's and Black's king among the kept pieces; 64 when none.
var<workgroup> kings: array<atomic<u32>, 2>;

fn low(w: u32) -> i32 {
    return (bitcast<i32>(w) << 16u) >> 16u;
}

fn high(w: u32) -> i32 {
    return bitcast<i32>(w) >> 16u;
}

// A view: the first row of its king bucket's block (`offset`) and its mirror (`flip`, 0 or 7).
struct View {
    offset: u32,
    flip: u32,
}

// The view whose own king stands on `king` (in its own orientation; 64 or more: no king).
fn king_view(king: u32) -> View {
    var v = View(0u, 0u);
    if KING_BUCKETS > 0u {
        let oriented = select(king, 0u, king >= 64u);
        v.flip = select(0u, 7u, (oriented & 7u) >= 4u);
        let m = oriented ^ v.flip;
        v.offset = weights[KING_MAP_AT + (m >> 3u) * 4u + (m & 3u)] * 768u;
    }
    return v;
}

// v · (v · w) for v = clamp(acc, 0, QA): the loader guarantees that v · w fits i16, so the
// i32 product equals the CPU's i16 one.
fn screlu_term(acc: i32, w: i32) -> i32 {
    let v = clamp(acc, 0, QA);
    return v * (v * w);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_index) t: u32,
) {
    let index = group.y * batch.row + group.x;
    // Uniform across the workgroup: every thread leaves, or none does.
    if index >= batch.count {
        return;
    }
    let p = positions[index];
    let occ = vec2<u32>(p.words[0], p.words[1]);
    let count = countOneBits(occ.x) + countOneBits(occ.y);
    if t < 2u {
        atomicStore(&kings[t], 64u);
    }
    workgroupBarrier();

    // Square t: if occupied, its piece is the k-th of the position, k = pieces below t.
    let half = t / 32u;
    let bit = t % 32u;
    let word = select(occ.x, occ.y, half == 1u);
    if ((word >> bit) & 1u) == 1u {
        let below_mask = (1u << bit) - 1u;
        var k = countOneBits(word & below_mask);
        if half == 1u {
            k += countOneBits(occ.x);
        }
        if k < 32u {
            let code = (p.words[2u + k / 8u] >> (4u * (k % 8u))) & 15u;
            let white = 64u * code + t;
            // Black's view: colours swap, the board flips (see nnue::black_view).
            let black = ((white + 384u) % 768u) ^ 56u;
            white_features[k] = white;
            black_features[k] = black;
            if code == 5u {
                atomicMin(&kings[0], t);
            } else if code == 11u {
                atomicMin(&kings[1], t);
            }
        }
    }
    workgroupBarrier();
    // Each side's view from its own king: Black's square flips vertically (a missing king,
    // 64, stays 64 or more either way).
    let white_king = atomicLoad(&kings[0]);
    let black_king = atomicLoad(&kings[1]);
    let wv = king_view(white_king);
    let bv = king_view(select(black_king ^ 56u, 64u, black_king >= 64u));

    let n = min(count, 32u);
    // The output bucket, as nnue::OutputBuckets::bucket: (pieces - 2) / 4, and 0 with one.
    let bucket = min((max(n, 2u) - 2u) / 4u, BUCKETS - 1u);
    let w2_at = W2_AT + bucket * HIDDEN;
    let black_to_move = (p.words[6] & 1u) == 1u;
    var sum: i32 = 0;
    for (var j = t; j < HALF; j += WORKGROUP_SIZE) {
        let bias = weights[B1_AT + j];
        var w_lo = low(bias);
        var w_hi = high(bias);
        var b_lo = w_lo;
        var b_hi = w_hi;
        for (var i = 0u; i < n; i++) {
            let rw = weights[(wv.offset + (white_features[i] ^ wv.flip)) * HALF + j];
            let rb = weights[(bv.offset + (black_features[i] ^ bv.flip)) * HALF + j];
            w_lo += low(rw);
            w_hi += high(rw);
            b_lo += low(rb);
            b_hi += high(rb);
        }
        var us_lo = w_lo;
        var us_hi = w_hi;
        var them_lo = b_lo;
        var them_hi = b_hi;
        if black_to_move {
            us_lo = b_lo;
            us_hi = b_hi;
            them_lo = w_lo;
            them_hi = w_hi;
        }
        let o_us = weights[w2_at + j];
        let o_them = weights[w2_at + HALF + j];
        sum += screlu_term(us_lo, low(o_us)) + screlu_term(us_hi, high(o_us));
        sum += screlu_term(them_lo, low(o_them)) + screlu_term(them_hi, high(o_them));
    }
    partial[t] = sum;
    workgroupBarrier();
    for (var stride = WORKGROUP_SIZE / 2u; stride > 0u; stride /= 2u) {
        if t < stride {
            partial[t] += partial[t + stride];
        }
        workgroupBarrier();
    }
    if t == 0u {
        let total = partial[0];
        let bias = bitcast<i32>(weights[B2_AT + bucket]);
        let v = (total / QA + bias) * SCALE / (QA * QB);
        scores[index] = clamp(v, -MAX_EVAL, MAX_EVAL);
    }
}

// The engine's static evaluation as a WGSL compute shader: one invocation scores one compact
// position. It reproduces `shatranj_engine::eval::evaluate_bitboards` bit for bit, so it uses
// integer arithmetic only and follows the formula in rust/engine/src/eval/classical.rs step by
// step.
//
// Parameters: `params` is `EvalParams::as_words()` uploaded as is. The word offset of every
// field (`PIECE_VALUE_MG`, `PST_MG`, … `TEMPO`) is NOT written here: `shatranj_gpu::layout`
// computes each one with `offset_of!` on the Rust struct and prepends them as WGSL `const`s
// before this file is compiled, so this file alone does not compile. That keeps the Rust
// struct the single source of the layout (see rust/gpu/src/layout.rs).
//
// Input: the 32-byte `CompactPosition` of rust/engine/src/nnue/compact.rs, the same record the
// network shader reads (a third of the 112-byte bitboard record, so a third of the upload).
// The shader decodes it into the twelve bitboards the formula works on. A position with more
// than 32 pieces has no compact record: the host scores those few on the CPU.
//
// Bitboards are `vec2<u32>`: `.x` is the low half (a1–h4), `.y` the high half (a5–h8).

// Eight words: the occupancy (a1-h4, a5-h8), four words of 4-bit piece codes
// (`colour * 6 + role`) for the occupied squares in increasing order, the flags (bit 0: Black
// to move), a reserved word.
struct CompactPosition {
    words: array<u32, 8>,
}

struct Batch {
    // Positions in this dispatch; invocations beyond it do nothing.
    count: u32,
    // Invocations per row of workgroups (a dispatch wider than the 65535-workgroup limit
    // wraps into rows).
    row: u32,
}

@group(0) @binding(0) var<storage, read> params: array<i32>;
@group(0) @binding(1) var<storage, read> positions: array<CompactPosition>;
@group(0) @binding(2) var<storage, read_write> scores: array<i32>;
@group(0) @binding(3) var<uniform> batch: Batch;

const FILE_A: vec2<u32> = vec2<u32>(0x01010101u, 0x01010101u);
const FILE_H: vec2<u32> = vec2<u32>(0x80808080u, 0x80808080u);
const FILE_AB: vec2<u32> = vec2<u32>(0x03030303u, 0x03030303u);
const FILE_GH: vec2<u32> = vec2<u32>(0xC0C0C0C0u, 0xC0C0C0C0u);
const EMPTY: vec2<u32> = vec2<u32>(0u, 0u);
const FULL: vec2<u32> = vec2<u32>(0xFFFFFFFFu, 0xFFFFFFFFu);

// --- 64-bit bitboard operations on u32 halves ------------------------------------------------

fn is_empty(b: vec2<u32>) -> bool {
    return (b.x | b.y) == 0u;
}

fn popcount(b: vec2<u32>) -> i32 {
    return i32(countOneBits(b.x) + countOneBits(b.y));
}

// The index of the lowest set bit (b must not be empty).
fn lowest(b: vec2<u32>) -> u32 {
    if b.x != 0u {
        return countTrailingZeros(b.x);
    }
    return 32u + countTrailingZeros(b.y);
}

fn clear_lowest(b: vec2<u32>) -> vec2<u32> {
    if b.x != 0u {
        return vec2<u32>(b.x & (b.x - 1u), b.y);
    }
    return vec2<u32>(0u, b.y & (b.y - 1u));
}

fn square_bit(s: u32) -> vec2<u32> {
    if s < 32u {
        return vec2<u32>(1u << s, 0u);
    }
    return vec2<u32>(0u, 1u << (s - 32u));
}

// b << n for any n in 0..=64 (Rust's `<<` on u64, with 64 giving zero as in the callers).
fn shl(b: vec2<u32>, n: u32) -> vec2<u32> {
    if n == 0u {
        return b;
    }
    if n >= 64u {
        return EMPTY;
    }
    if n >= 32u {
        return vec2<u32>(0u, b.x << (n - 32u));
    }
    return vec2<u32>(b.x << n, (b.y << n) | (b.x >> (32u - n)));
}

// b >> n for any n in 0..=64.
fn shr(b: vec2<u32>, n: u32) -> vec2<u32> {
    if n == 0u {
        return b;
    }
    if n >= 64u {
        return EMPTY;
    }
    if n >= 32u {
        return vec2<u32>(b.y >> (n - 32u), 0u);
    }
    return vec2<u32>((b.x >> n) | (b.y << (32u - n)), b.y >> n);
}

fn file_mask(file: u32) -> vec2<u32> {
    return FILE_A << vec2<u32>(file, file);
}

fn adjacent_files(file: u32) -> vec2<u32> {
    var m = EMPTY;
    if file > 0u {
        m = m | file_mask(file - 1u);
    }
    if file < 7u {
        m = m | file_mask(file + 1u);
    }
    return m;
}

// --- attacks ---------------------------------------------------------------------------------

fn pawn_attacks_of(pawns: vec2<u32>, white: bool) -> vec2<u32> {
    if white {
        return (shl(pawns, 9u) & ~FILE_A) | (shl(pawns, 7u) & ~FILE_H);
    }
    return (shr(pawns, 7u) & ~FILE_A) | (shr(pawns, 9u) & ~FILE_H);
}

fn king_attacks(s: u32) -> vec2<u32> {
    let b = square_bit(s);
    let row = b | (shl(b, 1u) & ~FILE_A) | (shr(b, 1u) & ~FILE_H);
    return (row | shl(row, 8u) | shr(row, 8u)) & ~b;
}

fn knight_attacks(s: u32) -> vec2<u32> {
    let b = square_bit(s);
    return (shl(b, 17u) & ~FILE_A) | (shl(b, 15u) & ~FILE_H)
        | (shl(b, 10u) & ~FILE_AB) | (shl(b, 6u) & ~FILE_GH)
        | (shr(b, 17u) & ~FILE_H) | (shr(b, 15u) & ~FILE_A)
        | (shr(b, 10u) & ~FILE_GH) | (shr(b, 6u) & ~FILE_AB);
}

// The squares a slider on `s` reaches along (df, dr), up to and including the first occupied
// one: what the CPU's magic or PEXT tables return, walked square by square.
fn ray(s: u32, df: i32, dr: i32, occupied: vec2<u32>) -> vec2<u32> {
    var att = EMPTY;
    var f = i32(s % 8u) + df;
    var r = i32(s / 8u) + dr;
    loop {
        if f < 0 || f > 7 || r < 0 || r > 7 {
            break;
        }
        let bit = square_bit(u32(r * 8 + f));
        att = att | bit;
        if !is_empty(bit & occupied) {
            break;
        }
        f += df;
        r += dr;
    }
    return att;
}

fn bishop_attacks(s: u32, occupied: vec2<u32>) -> vec2<u32> {
    return ray(s, 1, 1, occupied) | ray(s, -1, 1, occupied)
        | ray(s, 1, -1, occupied) | ray(s, -1, -1, occupied);
}

fn rook_attacks(s: u32, occupied: vec2<u32>) -> vec2<u32> {
    return ray(s, 1, 0, occupied) | ray(s, -1, 0, occupied)
        | ray(s, 0, 1, occupied) | ray(s, 0, -1, occupied);
}

// Enemy pawns that stop a pawn of colour `c` on `s` from being passed: files f-1..=f+1, ranks
// strictly ahead in c's direction (PASSED_SPAN on the CPU).
fn passed_span(c: u32, s: u32) -> vec2<u32> {
    let file = s % 8u;
    let rank = s / 8u;
    let files = file_mask(file) | adjacent_files(file);
    if c == 0u {
        return files & shl(FULL, 8u * (rank + 1u));
    }
    return files & shr(FULL, 64u - 8u * rank);
}

// --- the evaluation --------------------------------------------------------------------------

fn param(offset: u32) -> i32 {
    return params[offset];
}

fn evaluate(index: u32) -> i32 {
    let p = positions[index];
    // Piece k (in square order) has the k-th code; codes above 11 are not pieces (the host
    // never sends one).
    var bb: array<vec2<u32>, 12>;
    var rest = vec2<u32>(p.words[0], p.words[1]);
    for (var k = 0u; k < 32u && !is_empty(rest); k++) {
        let s = lowest(rest);
        rest = clear_lowest(rest);
        let code = (p.words[2u + k / 8u] >> (4u * (k % 8u))) & 15u;
        if code < 12u {
            bb[code] = bb[code] | square_bit(s);
        }
    }
    var occupied = EMPTY;
    for (var i = 0u; i < 12u; i++) {
        occupied = occupied | bb[i];
    }
    let all_pawns = bb[0] | bb[6];
    var mg = array<i32, 2>(0, 0);
    var eg = array<i32, 2>(0, 0);
    var phase = 0;

    for (var c = 0u; c < 2u; c++) {
        let white = c == 0u;
        let flip = select(0u, 56u, white);
        let base = c * 6u;
        let enemy = (1u - c) * 6u;
        var own = EMPTY;
        for (var r = 0u; r < 6u; r++) {
            own = own | bb[base + r];
        }
        let own_pawns = bb[base];
        let enemy_pawns = bb[enemy];
        let unsafe_squares = own | pawn_attacks_of(enemy_pawns, !white);
        var m = 0;
        var e = 0;
        let enemy_king = bb[enemy + 5u];
        var king_zone = EMPTY;
        if !is_empty(enemy_king) {
            king_zone = king_attacks(lowest(enemy_king)) | enemy_king;
        }
        var attackers = 0;
        var units = 0;

        for (var r = 0u; r < 6u; r++) {
            var pieces = bb[base + r];
            phase += param(PHASE_WEIGHT + r) * popcount(pieces);
            while !is_empty(pieces) {
                let s = lowest(pieces);
                pieces = clear_lowest(pieces);
                let i = s ^ flip;
                m += param(PIECE_VALUE_MG + r) + param(PST_MG + r * 64u + i);
                e += param(PIECE_VALUE_EG + r) + param(PST_EG + r * 64u + i);
                var attacks = EMPTY;
                switch r {
                    case 1u: { attacks = knight_attacks(s); }
                    case 2u: { attacks = bishop_attacks(s, occupied); }
                    case 3u: { attacks = rook_attacks(s, occupied); }
                    case 4u: { attacks = rook_attacks(s, occupied) | bishop_attacks(s, occupied); }
                    default: {}
                }
                if r >= 1u && r <= 4u {
                    let hits = popcount(attacks & king_zone);
                    if hits > 0 {
                        attackers += 1;
                        units += param(KING_ATTACK_WEIGHT + r) * hits;
                    }
                    let n = popcount(attacks & ~unsafe_squares);
                    let centre = param(MOBILITY_CENTER + r);
                    m += (n - centre) * param(MOBILITY_MG + r);
                    e += (n - centre) * param(MOBILITY_EG + r);
                }
                let file = s % 8u;
                if r == 3u {
                    if is_empty(all_pawns & file_mask(file)) {
                        m += param(ROOK_OPEN_FILE_MG);
                        e += param(ROOK_OPEN_FILE_EG);
                    } else if is_empty(own_pawns & file_mask(file)) {
                        m += param(ROOK_SEMI_OPEN_FILE_MG);
                        e += param(ROOK_SEMI_OPEN_FILE_EG);
                    }
                }
                if r == 0u {
                    if is_empty(own_pawns & adjacent_files(file)) {
                        m += param(ISOLATED_PAWN_MG);
                        e += param(ISOLATED_PAWN_EG);
                    }
                    if is_empty(enemy_pawns & passed_span(c, s)) {
                        let rank = s / 8u;
                        let k = select(7u - rank, rank, white);
                        m += param(PASSED_PAWN_MG + k);
                        e += param(PASSED_PAWN_EG + k);
                    }
                }
            }
        }
        for (var file = 0u; file < 8u; file++) {
            let n = popcount(own_pawns & file_mask(file));
            if n >= 2 {
                m += (n - 1) * param(DOUBLED_PAWN_MG);
                e += (n - 1) * param(DOUBLED_PAWN_EG);
            }
        }
        if popcount(bb[base + 2u]) >= 2 {
            m += param(BISHOP_PAIR_MG);
            e += param(BISHOP_PAIR_EG);
        }
        if attackers >= 2 {
            m += min(units * units * param(KING_ATTACK_SCALE) / 64, param(KING_ATTACK_MAX));
        }
        mg[c] = m;
        eg[c] = e;
    }

    let full = param(PHASE_FULL);
    let ph = min(phase, full);
    let mg_diff = mg[0] - mg[1];
    let eg_diff = eg[0] - eg[1];
    // WGSL's i32 `/` truncates toward zero, like Rust's.
    let white_score = (mg_diff * ph + eg_diff * (full - ph)) / full;
    let relative = select(white_score, -white_score, (p.words[6] & 1u) == 1u);
    return relative + param(TEMPO);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * batch.row + gid.x;
    if index >= batch.count {
        return;
    }
    scores[index] = evaluate(index);
}

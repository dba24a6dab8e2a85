// The perft hash table of subtree counts (compiled after shaders/perft.wgsl). The key and
// entry format, and why a torn entry cannot give a wrong count, are in
// rust/gpu/src/perft/table.rs, which holds the host's copy of every function here.
//
// Two levels of a batch use it (the host sets `control.table_buckets`, a power of two; 0 is
// off, and these kernels are then not recorded):
//   count_roots   level 0 (the batch's roots, `control.root_plies` left): a hit adds the
//                 stored count to the root's total and gives it no children
//   leaf2_hashed  the positions two plies above the leaves: a hit adds the stored count,
//                 a miss counts the two plies and stores the result
//   store_roots   after the leaves, each root's total (one origin per root in this mode) is
//                 stored, unless a level overflowed (then the totals are incomplete); the
//                 roots' keys were kept by count_roots beyond the totals (word ROOT_KEYS on),
//                 as the roots' own buffer holds a later level by then
// Every word is read and written with a relaxed 32-bit atomic: no ordering between words is
// assumed, the entry's check rejects any mix.

@group(0) @binding(8) var<storage, read_write> table: array<atomic<u32>>;

// Where the roots' keys are kept in `totals`: after the 64-bit totals of ROOT_SLOTS roots
// (ROOT_SLOTS is put before this source by the host, from its own constant).
const ROOT_KEYS: u32 = 2u * ROOT_SLOTS;

var<workgroup> wg_probes: atomic<u32>;
var<workgroup> wg_hits: atomic<u32>;

fn fmix(x0: u32) -> u32 {
    var x = x0;
    x ^= x >> 16u;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13u;
    x *= 0xC2B2AE35u;
    return x ^ (x >> 16u);
}

fn rotl(x: u32, r: u32) -> u32 {
    return (x << r) | (x >> (32u - r));
}

// The state word without an en-passant square no pawn of the side to move attacks.
fn state_word(p: Pos) -> u32 {
    let ep = ep_square(p);
    if ep == 0u {
        return p.flags & 0xFFFFu;
    }
    let white = (p.flags & 1u) == 0u;
    var us = p.b[WHITE];
    if !white {
        us = (p.b[PAWN] | p.b[KNIGHT] | p.b[BISHOP] | p.b[ROOK] | p.b[QUEEN] | p.b[KING]) & ~us;
    }
    if is_empty(pawn_attacks(bit(ep), !white) & p.b[PAWN] & us) {
        return p.flags & 0xFFu;
    }
    return p.flags & 0xFFFFu;
}

// (check word 0, check word 1, bucket word) of p with `depth` plies left.
fn table_key(p: Pos, depth: u32) -> vec3<u32> {
    var a = 0x2545F491u;
    var b = 0x6A09E667u;
    var c = 0xBB67AE85u;
    for (var i = 0u; i < 16u; i++) {
        var w: u32;
        if i == 15u {
            // The castling rooks' files (Chess960 games may share a board and rights).
            w = p.flags >> 16u;
        } else if i == 14u {
            w = state_word(p) | (depth << 16u);
        } else if (i & 1u) == 0u {
            w = lo32(p.b[i / 2u]);
        } else {
            w = hi32(p.b[i / 2u]);
        }
        a = rotl(a + w * 0x85EBCA77u, 13u) * 0x9E3779B1u;
        b = rotl(b + w * 0xC2B2AE3Du, 17u) * 0x27D4EB2Fu;
        c = rotl(c + w * 0x165667B1u, 11u) * 0x85EBCA77u;
    }
    return vec3<u32>(fmix(a), fmix(b), fmix(c));
}

fn data_mask(d0: u32, d1: u32) -> vec2<u32> {
    let h0 = fmix(d0 ^ fmix(d1 ^ 0x3C6EF372u));
    let h1 = fmix(d1 ^ fmix(d0 ^ 0xA54FF53Au) ^ 0x510E527Fu);
    return vec2<u32>(h0, h1);
}

fn bucket_base(key: vec3<u32>) -> u32 {
    return (key.z & (control.table_buckets - 1u)) * 8u;
}

// (1 if found, count low word, count high word).
fn table_probe(key: vec3<u32>) -> vec3<u32> {
    let base = bucket_base(key);
    for (var slot = 0u; slot < 2u; slot++) {
        let e = base + 4u * slot;
        let w0 = atomicLoad(&table[e]);
        let w1 = atomicLoad(&table[e + 1u]);
        let d0 = atomicLoad(&table[e + 2u]);
        let d1 = atomicLoad(&table[e + 3u]);
        let h = data_mask(d0, d1);
        if (w0 ^ h.x) == key.x && (w1 ^ h.y) == key.y {
            return vec3<u32>(1u, d0, d1 & 0x00FFFFFFu);
        }
    }
    return vec3<u32>(0u, 0u, 0u);
}

// Slot 0 keeps the deeper subtree (ties replace it), slot 1 takes the rest.
fn table_store(key: vec3<u32>, depth: u32, lo: u32, hi: u32) {
    if hi > 0x00FFFFFFu {
        return;
    }
    let base = bucket_base(key);
    var e = base;
    if depth < (atomicLoad(&table[base + 3u]) >> 24u) {
        e = base + 4u;
    }
    let d1 = hi | (depth << 24u);
    let h = data_mask(lo, d1);
    atomicStore(&table[e], key.x ^ h.x);
    atomicStore(&table[e + 1u], key.y ^ h.y);
    atomicStore(&table[e + 2u], lo);
    atomicStore(&table[e + 3u], d1);
}

// 64-bit total of origin o += (lo, hi).
fn add_total64(o: u32, lo: u32, hi: u32) {
    add_total(o, lo);
    if hi != 0u {
        atomicAdd(&totals[2u * o + 1u], hi);
    }
}

@compute @workgroup_size(WG)
fn count_roots(@builtin(global_invocation_id) gid: vec3<u32>,
               @builtin(local_invocation_index) local: u32,
               @builtin(workgroup_id) group: vec3<u32>) {
    let n = control.level_n[params.level];
    let i = gid.x;
    var c = 0u;
    if i < n {
        let p = src[i];
        let key = table_key(p, control.root_plies);
        atomicStore(&totals[ROOT_KEYS + 3u * i], key.x);
        atomicStore(&totals[ROOT_KEYS + 3u * i + 1u], key.y);
        atomicStore(&totals[ROOT_KEYS + 3u * i + 2u], key.z);
        let found = table_probe(key);
        atomicAdd(&control.root_probes, 1u);
        if found.x != 0u {
            atomicAdd(&control.root_hits, 1u);
            add_total64(p.origin, found.y, found.z);
        } else {
            c = count_moves(p);
        }
        counts[i] = c;
    }
    write_block_sum(local, group.x, c);
}

@compute @workgroup_size(WG)
fn leaf2_hashed(@builtin(global_invocation_id) gid: vec3<u32>,
                @builtin(local_invocation_index) local: u32) {
    if local == 0u {
        atomicStore(&wg_probes, 0u);
        atomicStore(&wg_hits, 0u);
    }
    workgroupBarrier();
    let i = gid.x;
    if i < control.level_n[params.level] {
        let p = src[i];
        let key = table_key(p, 2u);
        let found = table_probe(key);
        atomicAdd(&wg_probes, 1u);
        if found.x != 0u {
            atomicAdd(&wg_hits, 1u);
            add_total64(p.origin, found.y, found.z);
        } else {
            visit_mode = COUNT_CHILDREN;
            child_sum = 0u;
            visit_moves(p);
            add_total(p.origin, child_sum);
            table_store(key, 2u, child_sum, 0u);
        }
    }
    workgroupBarrier();
    if local == 0u {
        let probes = atomicLoad(&wg_probes);
        if probes != 0u {
            atomicAdd(&control.leaf_probes, probes);
            atomicAdd(&control.leaf_hits, atomicLoad(&wg_hits));
        }
    }
}

@compute @workgroup_size(WG)
fn store_roots(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i < control.level_n[0] && control.overflow == 0u {
        let lo = atomicLoad(&totals[2u * i]);
        let hi = atomicLoad(&totals[2u * i + 1u]);
        let key = vec3<u32>(atomicLoad(&totals[ROOT_KEYS + 3u * i]),
                            atomicLoad(&totals[ROOT_KEYS + 3u * i + 1u]),
                            atomicLoad(&totals[ROOT_KEYS + 3u * i + 2u]));
        table_store(key, control.root_plies, lo, hi);
    }
}

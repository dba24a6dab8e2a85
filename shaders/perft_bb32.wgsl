// Bitboards for shaders/perft.wgsl as two 32-bit halves (`.x` a1–h4, `.y` a5–h8): the portable
// path, which needs no optional feature. shaders/perft_bb64.wgsl defines the same functions on
// `u64` for adapters with SHADER_INT64; perft.wgsl uses only these names, so either prelude
// can precede it. Bit scans stay on 32-bit halves in both: Vulkan has no 64-bit popcount or
// trailing-zero count (wgpu issue 5276).

alias BB = vec2<u32>;

const EMPTY: BB = BB(0u, 0u);
const FULL: BB = BB(0xFFFFFFFFu, 0xFFFFFFFFu);

fn bb(lo: u32, hi: u32) -> BB {
    return BB(lo, hi);
}

fn lo32(b: BB) -> u32 {
    return b.x;
}

fn hi32(b: BB) -> u32 {
    return b.y;
}

fn is_empty(b: BB) -> bool {
    return (b.x | b.y) == 0u;
}

fn bit(s: u32) -> BB {
    if s < 32u {
        return BB(1u << s, 0u);
    }
    return BB(0u, 1u << (s - 32u));
}

// b << n for n in 1..=31 (the only shifts move generation makes).
fn shl(b: BB, n: u32) -> BB {
    return BB(b.x << n, (b.y << n) | (b.x >> (32u - n)));
}

// b >> n for n in 1..=31.
fn shr(b: BB, n: u32) -> BB {
    return BB((b.x >> n) | (b.y << (32u - n)), b.y >> n);
}

// b with its lowest set bit cleared.
fn clear_lowest(b: BB) -> BB {
    if b.x != 0u {
        return BB(b.x & (b.x - 1u), b.y);
    }
    return BB(0u, b.y & (b.y - 1u));
}

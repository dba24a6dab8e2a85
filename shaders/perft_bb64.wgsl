// Bitboards for shaders/perft.wgsl as native `u64` (adapters with SHADER_INT64): the same
// functions as shaders/perft_bb32.wgsl. Shifts and masks are single 64-bit operations here;
// bit scans still work on the 32-bit halves (Vulkan validates 64-bit `OpBitCount` out).

alias BB = u64;

const EMPTY: BB = 0lu;
const FULL: BB = 0xFFFFFFFFFFFFFFFFlu;

fn bb(lo: u32, hi: u32) -> BB {
    return (u64(hi) << 32u) | u64(lo);
}

fn lo32(b: BB) -> u32 {
    return u32(b & 0xFFFFFFFFlu);
}

fn hi32(b: BB) -> u32 {
    return u32(b >> 32u);
}

fn is_empty(b: BB) -> bool {
    return b == 0lu;
}

fn bit(s: u32) -> BB {
    return 1lu << s;
}

fn shl(b: BB, n: u32) -> BB {
    return b << n;
}

fn shr(b: BB, n: u32) -> BB {
    return b >> n;
}

fn clear_lowest(b: BB) -> BB {
    return b & (b - 1lu);
}

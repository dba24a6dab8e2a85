//! The network's two inner loops, in three forms picked at run time: AVX-512 (BW), AVX2 and
//! portable scalar code. All three compute exactly the same integers:
//!
//! - accumulator updates add and subtract `i16` rows; the network file is checked on load so
//!   that no accumulator can leave the `i16` range ([`super::Network`]), so no form ever
//!   wraps and the order of additions cannot matter;
//! - the output is `Σ v · (v · w)` with `v = clamp(acc, 0, QA)`: `v · w` fits `i16` (checked
//!   on load), each term fits `i32`, and the sum is taken modulo 2³², where addition is
//!   associative, so vector lanes summed in any order give the scalar loop's number.

/// Which form of the kernels runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    Scalar,
    Avx2,
    Avx512,
}

impl Kernel {
    pub const ALL: [Kernel; 3] = [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512];

    /// The fastest form this CPU runs.
    pub fn best() -> Kernel {
        Kernel::ALL
            .into_iter()
            .rev()
            .find(|k| k.is_supported())
            .unwrap_or(Kernel::Scalar)
    }

    /// Whether this CPU can run the form.
    pub fn is_supported(self) -> bool {
        match self {
            Kernel::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
        }
    }

    /// `acc += Σ adds − Σ subs`, element by element. Every row has `acc`'s length, a
    /// multiple of 32.
    #[inline]
    pub fn apply(self, acc: &mut [i16], adds: &[&[i16]], subs: &[&[i16]]) {
        assert!(
            acc.len().is_multiple_of(32),
            "accumulator length {} is not a multiple of 32",
            acc.len()
        );
        assert!(
            adds.iter().chain(subs).all(|r| r.len() == acc.len()),
            "every row has the accumulator's length"
        );
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a network only takes a kernel the CPU supports (`Network::with_kernel`),
            // and the lengths are checked above.
            Kernel::Avx512 => unsafe { x86::apply_avx512(acc, adds, subs) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Kernel::Avx2 => unsafe { x86::apply_avx2(acc, adds, subs) },
            _ => apply_scalar(acc, adds, subs),
        }
    }

    /// `acc = bias + Σ_f rows[f·n .. (f+1)·n]` for `n = acc.len()`: an accumulator from
    /// scratch, all rows in one pass per vector of lanes.
    #[inline]
    pub fn accumulate(self, acc: &mut [i16], bias: &[i16], rows: &[i16], features: &[usize]) {
        let n = acc.len();
        assert!(
            n.is_multiple_of(32) && bias.len() == n,
            "accumulator length {n}"
        );
        assert!(
            features.iter().all(|&f| (f + 1) * n <= rows.len()),
            "feature beyond the weight table"
        );
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `apply`; every row index is checked above.
            Kernel::Avx512 => unsafe { x86::accumulate_avx512(acc, bias, rows, features) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Kernel::Avx2 => unsafe { x86::accumulate_avx2(acc, bias, rows, features) },
            _ => {
                acc.copy_from_slice(bias);
                for &f in features {
                    apply_scalar(acc, &[&rows[f * n..(f + 1) * n]], &[]);
                }
            }
        }
    }

    /// `Σ clamp(acc, 0, qa) · (clamp(acc, 0, qa) · w)` modulo 2³².
    #[inline]
    pub fn screlu_dot(self, acc: &[i16], w: &[i16], qa: i16) -> i32 {
        assert!(
            acc.len() == w.len() && acc.len().is_multiple_of(32),
            "lengths {} and {}",
            acc.len(),
            w.len()
        );
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `update`.
            Kernel::Avx512 => unsafe { x86::screlu_dot_avx512(acc, w, qa) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `update`.
            Kernel::Avx2 => unsafe { x86::screlu_dot_avx2(acc, w, qa) },
            _ => screlu_dot_scalar(acc, w, qa),
        }
    }
}

fn apply_scalar(out: &mut [i16], adds: &[&[i16]], subs: &[&[i16]]) {
    for row in adds {
        for (o, &x) in out.iter_mut().zip(row.iter()) {
            *o = o.wrapping_add(x);
        }
    }
    for row in subs {
        for (o, &x) in out.iter_mut().zip(row.iter()) {
            *o = o.wrapping_sub(x);
        }
    }
}

fn screlu_dot_scalar(acc: &[i16], w: &[i16], qa: i16) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(w) {
        let v = a.clamp(0, qa);
        // Fits i16: the loader checks |w| · qa ≤ i16::MAX.
        let vw = v.wrapping_mul(w);
        sum = sum.wrapping_add(i32::from(v) * i32::from(vw));
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    // The intrinsics are the module's vocabulary, one import for all.
    #[allow(clippy::wildcard_imports)]
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    pub unsafe fn apply_avx2(out: &mut [i16], adds: &[&[i16]], subs: &[&[i16]]) {
        let n = out.len();
        let mut i = 0;
        while i < n {
            // SAFETY: i + 16 ≤ n for every slice (lengths are equal multiples of 32).
            unsafe {
                let mut v = _mm256_loadu_si256(out.as_ptr().add(i).cast());
                for row in adds {
                    v = _mm256_add_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i).cast()));
                }
                for row in subs {
                    v = _mm256_sub_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i).cast()));
                }
                _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), v);
            }
            i += 16;
        }
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn apply_avx512(out: &mut [i16], adds: &[&[i16]], subs: &[&[i16]]) {
        let n = out.len();
        let mut i = 0;
        while i < n {
            // SAFETY: i + 32 ≤ n for every slice (lengths are equal multiples of 32).
            unsafe {
                let mut v = _mm512_loadu_si512(out.as_ptr().add(i).cast());
                for row in adds {
                    v = _mm512_add_epi16(v, _mm512_loadu_si512(row.as_ptr().add(i).cast()));
                }
                for row in subs {
                    v = _mm512_sub_epi16(v, _mm512_loadu_si512(row.as_ptr().add(i).cast()));
                }
                _mm512_storeu_si512(out.as_mut_ptr().add(i).cast(), v);
            }
            i += 32;
        }
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn accumulate_avx2(acc: &mut [i16], bias: &[i16], rows: &[i16], features: &[usize]) {
        let n = acc.len();
        let mut i = 0;
        while i < n {
            // SAFETY: i + 16 ≤ n; every row f·n + i + 16 ≤ rows.len() (checked by the caller).
            unsafe {
                let mut v = _mm256_loadu_si256(bias.as_ptr().add(i).cast());
                for &f in features {
                    let row = rows.as_ptr().add(f * n + i);
                    v = _mm256_add_epi16(v, _mm256_loadu_si256(row.cast()));
                }
                _mm256_storeu_si256(acc.as_mut_ptr().add(i).cast(), v);
            }
            i += 16;
        }
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn accumulate_avx512(
        acc: &mut [i16],
        bias: &[i16],
        rows: &[i16],
        features: &[usize],
    ) {
        let n = acc.len();
        let mut i = 0;
        while i < n {
            // SAFETY: i + 32 ≤ n; every row f·n + i + 32 ≤ rows.len() (checked by the caller).
            unsafe {
                let mut v = _mm512_loadu_si512(bias.as_ptr().add(i).cast());
                for &f in features {
                    let row = rows.as_ptr().add(f * n + i);
                    v = _mm512_add_epi16(v, _mm512_loadu_si512(row.cast()));
                }
                _mm512_storeu_si512(acc.as_mut_ptr().add(i).cast(), v);
            }
            i += 32;
        }
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot_avx2(acc: &[i16], w: &[i16], qa: i16) -> i32 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(qa);
        let mut sum = _mm256_setzero_si256();
        let mut i = 0;
        while i < acc.len() {
            // SAFETY: i + 16 ≤ len for both slices.
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
                let w = _mm256_loadu_si256(w.as_ptr().add(i).cast());
                let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
                let vw = _mm256_mullo_epi16(v, w);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, vw));
            }
            i += 16;
        }
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` is 32 bytes.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum) };
        lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn screlu_dot_avx512(acc: &[i16], w: &[i16], qa: i16) -> i32 {
        let zero = _mm512_setzero_si512();
        let top = _mm512_set1_epi16(qa);
        let mut sum = _mm512_setzero_si512();
        let mut i = 0;
        while i < acc.len() {
            // SAFETY: i + 32 ≤ len for both slices.
            unsafe {
                let a = _mm512_loadu_si512(acc.as_ptr().add(i).cast());
                let w = _mm512_loadu_si512(w.as_ptr().add(i).cast());
                let v = _mm512_min_epi16(_mm512_max_epi16(a, zero), top);
                let vw = _mm512_mullo_epi16(v, w);
                sum = _mm512_add_epi32(sum, _mm512_madd_epi16(v, vw));
            }
            i += 32;
        }
        _mm512_reduce_add_epi32(sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows with values near the ends of the ranges the loader allows, from a fixed seed.
    fn rows(seed: u64, n: usize, len: usize, max: i16) -> Vec<Vec<i16>> {
        let mut g = crate::util::SplitMix64::new(seed);
        (0..n)
            .map(|_| {
                (0..len)
                    .map(|_| (g.below(2 * max as usize + 1) as i32 - i32::from(max)) as i16)
                    .collect()
            })
            .collect()
    }

    #[test]
    fn every_kernel_this_cpu_runs_computes_the_scalar_numbers() {
        let supported: Vec<Kernel> = Kernel::ALL
            .into_iter()
            .filter(|k| k.is_supported())
            .collect();
        println!("kernels tested: {supported:?} (seed 41)");
        for len in [32, 64, 128, 512] {
            let r = rows(41, 6, len, 1000);
            let (adds, subs): (Vec<&[i16]>, Vec<&[i16]>) = (vec![&r[1], &r[2]], vec![&r[3], &r[4]]);
            let acc = rows(7, 1, len, 400).remove(0);
            let w = rows(9, 1, len, 128).remove(0);
            let mut expected = r[0].clone();
            apply_scalar(&mut expected, &adds, &subs);
            let mut one = r[0].clone();
            apply_scalar(&mut one, &adds[..1], &[]);
            let dot = screlu_dot_scalar(&acc, &w, 255);
            for &k in &supported {
                let mut out = r[0].clone();
                k.apply(&mut out, &adds, &subs);
                assert_eq!(out, expected, "{k:?} update, length {len}");
                let mut out = r[0].clone();
                k.apply(&mut out, &adds[..1], &[]);
                assert_eq!(out, one, "{k:?} one add, length {len}");
                assert_eq!(
                    k.screlu_dot(&acc, &w, 255),
                    dot,
                    "{k:?} output, length {len}"
                );
                // From scratch: bias plus rows 1 and 3 of a table of all six rows.
                let table: Vec<i16> = r.iter().flatten().copied().collect();
                let mut scratch = vec![0i16; len];
                k.accumulate(&mut scratch, &r[0], &table, &[1, 3]);
                let mut by_hand = r[0].clone();
                apply_scalar(&mut by_hand, &[&r[1], &r[3]], &[]);
                assert_eq!(scratch, by_hand, "{k:?} accumulate, length {len}");
                assert_eq!(
                    k.screlu_dot(&acc, &w, 181),
                    screlu_dot_scalar(&acc, &w, 181),
                    "{k:?} output QA 181"
                );
            }
        }
    }
}

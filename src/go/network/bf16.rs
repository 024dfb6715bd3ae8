//! The direct convolution in bfloat16, on AVX-512 BF16's `vdpbf16ps`: each instruction
//! multiplies pairs of bfloat16 inputs by pairs of bfloat16 weights and adds both products
//! to 16 float32 sums, twice the multiply-adds of a float32 fused multiply-add on vectors
//! of the same width.
//!
//! The weights are rounded to bfloat16 once, when a net is made ready for this precision
//! ([`pack_weights`]); the activations each time a layer reads them ([`convert_input`]).
//! Sums and biases stay float32, so the only error is the rounding of both operands to 8
//! significant bits (a relative error of at most 2^-9 each).
//!
//! The layout follows the float32 kernel's (`direct`), with input channels taken in pairs:
//! a pair of bfloat16 numbers fills one 32-bit lane, the lower channel in the lower half,
//! as `vdpbf16ps` pairs them. An odd count of inputs is padded with a zero channel.

use super::direct::{Isa, avx512_bf16_on_this_core, avx512_tile_plan};

/// Whether this core has AVX-512 with its bfloat16 instructions.
pub fn on_this_core() -> bool {
    avx512_bf16_on_this_core()
}

/// Whether the bfloat16 kernel takes a convolution to `outputs` channels: the AVX-512
/// kernel's widths (one to six vectors of 16).
pub fn fits(outputs: usize) -> bool {
    Isa::Avx512.fits(outputs)
}

/// `x` rounded to the nearest bfloat16 (ties to even), as `vcvtneps2bf16` rounds; a NaN
/// stays a NaN (a quiet one).
pub fn to_bf16(x: f32) -> u16 {
    if x.is_nan() {
        return 0x7fc0;
    }
    let bits = x.to_bits();
    let rounding = 0x7fff + ((bits >> 16) & 1);
    // A finite number's bits plus the rounding never carry past the sign bit but at
    // f32::MAX's neighbours, which round to infinity as the instruction rounds them.
    (bits.wrapping_add(rounding) >> 16) as u16
}

/// The float32 value of a bfloat16 number.
pub fn from_bf16(x: u16) -> f32 {
    f32::from_bits(u32::from(x) << 16)
}

/// Input channels in pairs: `inputs / 2`, rounded up.
pub fn pairs(inputs: usize) -> usize {
    inputs.div_ceil(2)
}

/// The weights of a convolution laid out for this kernel: from `weights` as the float32
/// kernel reads them (row `tap * inputs + input`, column `output`) to row `tap * pairs +
/// pair`, column `output`, each entry the pair's two weights in bfloat16.
pub fn pack_weights(taps: usize, inputs: usize, outputs: usize, weights: &[f32]) -> Vec<u32> {
    let pairs = pairs(inputs);
    let mut packed = vec![0u32; taps * pairs * outputs];
    for t in 0..taps {
        for i in 0..inputs {
            for o in 0..outputs {
                let w = u32::from(to_bf16(weights[(t * inputs + i) * outputs + o]));
                packed[(t * pairs + i / 2) * outputs + o] |= w << (16 * (i % 2));
            }
        }
    }
    packed
}

/// `rows` rows of `inputs` float32 activations into rows of `pairs(inputs)` bfloat16 pairs
/// (the odd channel's partner zero), followed by one row of zeros: the off-board taps read
/// it.
pub fn convert_input(input: &[f32], rows: usize, inputs: usize, out: &mut Vec<u32>) {
    let pairs = pairs(inputs);
    out.clear();
    out.resize((rows + 1) * pairs, 0);
    let input = &input[..rows * inputs];
    if inputs.is_multiple_of(2) {
        // Rows without padding follow each other: one flat run, on vectors where possible.
        #[cfg(target_arch = "x86_64")]
        if on_this_core() {
            // SAFETY: the features were detected just above; the lengths are checked in it.
            unsafe { avx512::convert(input, &mut out[..rows * pairs]) };
            return;
        }
        for (pair, x) in out.iter_mut().zip(input.chunks_exact(2)) {
            *pair = u32::from(to_bf16(x[0])) | u32::from(to_bf16(x[1])) << 16;
        }
        return;
    }
    for (row, x) in out.chunks_exact_mut(pairs).zip(input.chunks_exact(inputs)) {
        for (i, &v) in x.iter().enumerate() {
            row[i / 2] |= u32::from(to_bf16(v)) << (16 * (i % 2));
        }
    }
}

/// One convolution's operands, in pairs of input channels (see [`crate::go::network::direct::Job`]).
pub struct PairJob<'a> {
    pub taps: &'a [[u32; 9]],
    pub kernel: usize,
    pub positions: usize,
    /// Input channels (the pairs are `pairs(inputs)`).
    pub inputs: usize,
    pub outputs: usize,
    /// From [`pack_weights`].
    pub weights: &'a [u32],
    pub bias: &'a [f32],
    /// From [`convert_input`]: `positions * points` rows of pairs, then a row of zeros.
    pub input: &'a [u32],
}

/// `out` (`positions * points` rows of `outputs`) = the convolution of `job.input`.
///
/// # Panics
/// If this core lacks AVX-512 BF16 or the kernel does not take `job.outputs` (see
/// [`fits`]), or the slices are shorter than the shapes say: the caller's mistakes.
pub fn convolve(job: &PairJob, out: &mut Vec<f32>) {
    assert!(
        fits(job.outputs) && on_this_core(),
        "the bfloat16 kernel cannot run here"
    );
    let points = job.taps.len();
    let rows = job.positions * points;
    let taps = job.kernel * job.kernel;
    let pairs = pairs(job.inputs);
    assert!(job.kernel == 1 || job.kernel == 3);
    assert!(job.input.len() == (rows + 1) * pairs);
    assert!(job.weights.len() == taps * pairs * job.outputs);
    assert!(job.bias.len() == job.outputs);
    out.clear();
    out.resize(rows * job.outputs, 0.0);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the assert above checked the core's features and the output width; the
    // others bound every row the kernel reads or writes.
    unsafe {
        avx512_tile_plan!(job.outputs / 16, avx512::run(job, out))
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::{PairJob, pairs};
    use crate::go::network::direct::tile_sources;

    /// 16 floats to 16 bfloat16 numbers at a time; the last few through a copy.
    #[target_feature(enable = "avx512f,avx512bf16")]
    pub(super) unsafe fn convert(input: &[f32], out: &mut [u32]) {
        assert!(input.len() == 2 * out.len());
        let dst = out.as_mut_ptr().cast::<u16>();
        let mut i = 0;
        while i < input.len() {
            let n = (input.len() - i).min(16);
            let mask = if n == 16 { u16::MAX } else { (1 << n) - 1 };
            let mut halves = [0u16; 16];
            // SAFETY: the mask keeps the load to the `n` floats left; `out` holds a half
            // (a bfloat16) for each float, so the whole store of 16 halves at `i` fits where
            // 16 floats were left and the copy of `n` elsewhere.
            unsafe {
                let x = _mm512_maskz_loadu_ps(mask, input.as_ptr().add(i));
                let h: __m256i = std::mem::transmute(_mm512_cvtneps_pbh(x));
                if n == 16 {
                    _mm256_storeu_si256(dst.add(i).cast(), h);
                } else {
                    _mm256_storeu_si256(halves.as_mut_ptr().cast(), h);
                    std::ptr::copy_nonoverlapping(halves.as_ptr(), dst.add(i), n);
                }
            }
            i += n;
        }
    }

    /// `V` vectors of outputs for a tile of `R` points, as the float32 AVX-512 kernel
    /// tiles them: `R * V` accumulators, `V` weight vectors and the broadcast input pair.
    #[target_feature(enable = "avx512f,avx512bf16")]
    pub(super) unsafe fn run<const V: usize, const R: usize>(job: &PairJob, out: &mut [f32]) {
        let points = job.taps.len();
        let rows = job.positions * points;
        let (pairs, cout) = (pairs(job.inputs), job.outputs);
        let taps = job.kernel * job.kernel;
        let weights = job.weights.as_ptr();
        let zeros = &job.input[rows * pairs..];
        let mut start = 0;
        while start < rows {
            let sources = tile_sources::<u32, R>(
                job.taps,
                job.kernel,
                job.positions,
                job.input,
                pairs,
                start,
                zeros,
            );
            // SAFETY (the block): every pointer read is a source row of `pairs` lanes, a
            // weight row of `cout` or the bias; every store is a row below `rows`.
            unsafe {
                let mut acc = [[_mm512_setzero_ps(); V]; R];
                for a in acc.iter_mut() {
                    for (v, x) in a.iter_mut().enumerate() {
                        *x = _mm512_loadu_ps(job.bias.as_ptr().add(16 * v));
                    }
                }
                for (t, tap) in sources.iter().enumerate().take(taps) {
                    let w_tap = weights.add(t * pairs * cout);
                    for i in 0..pairs {
                        let w_row = w_tap.add(i * cout);
                        let mut w: [__m512bh; V] = [std::mem::zeroed(); V];
                        for (v, x) in w.iter_mut().enumerate() {
                            *x = std::mem::transmute::<__m512i, __m512bh>(_mm512_loadu_si512(
                                w_row.add(16 * v).cast(),
                            ));
                        }
                        for (a, source) in acc.iter_mut().zip(tap) {
                            let b = std::mem::transmute::<__m512i, __m512bh>(_mm512_set1_epi32(
                                *source.add(i) as i32,
                            ));
                            for (x, w) in a.iter_mut().zip(&w) {
                                *x = _mm512_dpbf16_ps(*x, b, *w);
                            }
                        }
                    }
                }
                for (r, a) in acc.iter().enumerate() {
                    let row = start + r;
                    if row >= rows {
                        break;
                    }
                    let dst = out.as_mut_ptr().add(row * cout);
                    for (v, x) in a.iter().enumerate() {
                        _mm512_storeu_ps(dst.add(16 * v), *x);
                    }
                }
            }
            start += R;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::go::geometry::{Geometry, Topology};
    use crate::go::network::direct::Job;
    use crate::go::network::direct::tests::{naive, neighbourhoods, uniform};
    use crate::rng::Rng;

    #[test]
    fn rounds_to_the_nearest_bfloat16_ties_to_even() {
        assert_eq!(to_bf16(1.0), 0x3f80);
        assert_eq!(to_bf16(-2.0), 0xc000);
        // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: to the even one, 1.
        assert_eq!(to_bf16(1.0 + 1.0 / 256.0), 0x3f80);
        // 1 + 3 * 2^-8 lies halfway between 1 + 2^-7 and 1 + 2^-6: to the even one.
        assert_eq!(to_bf16(1.0 + 3.0 / 256.0), 0x3f82);
        assert_eq!(to_bf16(1.0 + 1.5 / 256.0), 0x3f81);
        assert_eq!(to_bf16(f32::INFINITY), 0x7f80);
        assert_eq!(to_bf16(f32::MAX), 0x7f80);
        assert!(from_bf16(to_bf16(f32::NAN)).is_nan());
        assert_eq!(from_bf16(to_bf16(0.15625)), 0.15625);
    }

    #[test]
    fn the_vector_conversion_rounds_as_the_scalar_one() {
        let mut rng = Rng::new(5);
        for (rows, inputs) in [(81, 48), (3, 2), (7, 6), (5, 21), (1, 1)] {
            let input: Vec<f32> = (0..rows * inputs)
                .map(|_| (rng.below(1 << 24) as f32 - 8e6) * 1e-5)
                .collect();
            let mut out = Vec::new();
            convert_input(&input, rows, inputs, &mut out);
            let pairs = pairs(inputs);
            assert_eq!(out.len(), (rows + 1) * pairs);
            for r in 0..rows {
                for i in 0..2 * pairs {
                    let half = (out[r * pairs + i / 2] >> (16 * (i % 2))) as u16;
                    let want = if i < inputs {
                        to_bf16(input[r * inputs + i])
                    } else {
                        0
                    };
                    assert_eq!(half, want, "{rows}x{inputs}: row {r} input {i}");
                }
            }
            assert!(out[rows * pairs..].iter().all(|&z| z == 0));
        }
    }

    /// Each value rounded to bfloat16 and back.
    pub(crate) fn rounded(v: &[f32]) -> Vec<f32> {
        v.iter().map(|&x| from_bf16(to_bf16(x))).collect()
    }

    /// The kernel computes the convolution of the rounded operands (to float32's rounding
    /// of the sums), which is the exact one within bfloat16's rounding.
    #[test]
    fn agrees_with_the_definition_on_rounded_operands() {
        if !on_this_core() {
            eprintln!("no AVX-512 BF16 on this core: nothing runs in bfloat16");
            return;
        }
        let mut rng = Rng::new(13);
        let shapes = [
            (9, Topology::Plane, 3, 21, 48, 1),
            (9, Topology::Plane, 3, 48, 48, 3),
            (19, Topology::Plane, 3, 48, 96, 1),
            (9, Topology::Torus, 3, 32, 32, 2),
            (7, Topology::Plane, 3, 5, 80, 1),
            (13, Topology::Plane, 1, 48, 16, 2),
            (5, Topology::Torus, 1, 64, 64, 1),
            (11, Topology::Torus, 3, 17, 64, 1),
        ];
        let (mut pairs, mut out) = (Vec::new(), Vec::new());
        for (size, topology, kernel, inputs, outputs, positions) in shapes {
            let geo = Geometry::get(size, topology).unwrap();
            let taps = neighbourhoods(geo);
            let weights = uniform(&mut rng, kernel * kernel * inputs * outputs);
            let bias = uniform(&mut rng, outputs);
            let input = uniform(&mut rng, positions * geo.num_points() * inputs);
            let (weights_r, input_r) = (rounded(&weights), rounded(&input));
            let exact = naive(&Job {
                taps: &taps,
                kernel,
                positions,
                inputs,
                outputs,
                weights: &weights,
                bias: &bias,
                input: &input,
            });
            let want = naive(&Job {
                taps: &taps,
                kernel,
                positions,
                inputs,
                outputs,
                weights: &weights_r,
                bias: &bias,
                input: &input_r,
            });
            let packed = pack_weights(kernel * kernel, inputs, outputs, &weights);
            convert_input(&input, positions * geo.num_points(), inputs, &mut pairs);
            let job = PairJob {
                taps: &taps,
                kernel,
                positions,
                inputs,
                outputs,
                weights: &packed,
                bias: &bias,
                input: &pairs,
            };
            convolve(&job, &mut out);
            assert_eq!(out.len(), want.len());
            // Each product's operands are within 2^-9 of the exact ones (relatively): the
            // sum of products within about 2^-8 of the sum of their sizes, the inputs and
            // weights here being at most 1.
            let bound = 2f32.powi(-8) * (kernel * kernel * inputs) as f32;
            for (j, ((got, want), exact)) in out.iter().zip(&want).zip(&exact).enumerate() {
                let what = format!(
                    "{size}x{size} {topology:?} {kernel}x{kernel} {inputs}->{outputs} \
                     x{positions}: output {j} is {got}"
                );
                assert!(
                    (got - want).abs() <= 1e-4 * (1.0 + want.abs()),
                    "{what}, by the definition on rounded operands {want}"
                );
                assert!((got - exact).abs() <= bound, "{what}, exactly {exact}");
            }
        }
    }
}

//! The direct convolution in 8-bit integers, on AVX-512 VNNI's `vpdpbusd`: each instruction
//! multiplies four unsigned 8-bit inputs by four signed 8-bit weights and adds the four
//! products to each of 16 32-bit sums, four times the multiply-adds of a float32 fused
//! multiply-add on vectors of the same width.
//!
//! The weights are quantized once, when a net is made ready for this precision
//! ([`quantize_weights`]): each output channel's to -127..=127 by a scale of its own (its
//! largest weight's size over 127). The activations are quantized each time a layer reads
//! them ([`quantize_input`]): each position's to 0..=255 by a scale of its own (its largest
//! activation over 255), so a position's evaluation never depends on the others in its
//! batch. They must not be negative: the layers that read the output of a ReLU (the
//! trunk's and the heads') are the ones this kernel takes. The sums are exact; the output
//! is the sum times both scales, plus the float32 bias.
//!
//! The layout follows the float32 kernel's (`direct`), with input channels taken in fours:
//! four 8-bit numbers fill one 32-bit lane, the lowest channel in the lowest byte, as
//! `vpdpbusd` groups them. A count of inputs that is not a multiple of four is padded with
//! zero channels.

use super::direct::{Isa, avx512_tile_plan, avx512_vnni_on_this_core};

/// Whether this core has AVX-512 with its VNNI instructions.
pub fn on_this_core() -> bool {
    avx512_vnni_on_this_core()
}

/// Whether the 8-bit kernel takes a convolution to `outputs` channels: the AVX-512
/// kernel's widths (one to six vectors of 16).
pub fn fits(outputs: usize) -> bool {
    Isa::Avx512.fits(outputs)
}

/// Input channels in fours: `inputs / 4`, rounded up.
pub fn quads(inputs: usize) -> usize {
    inputs.div_ceil(4)
}

/// A convolution's weights in 8 bits, laid out for this kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantizedWeights {
    /// Row `tap * quads + quad`, column `output`: the quad's four weights, each the float32
    /// weight over its output's scale, rounded.
    pub values: Vec<u32>,
    /// Each output's scale: a weight is its 8-bit value times this.
    pub scales: Vec<f32>,
}

/// The weights of a convolution quantized for this kernel, from `weights` as the float32
/// kernel reads them (row `tap * inputs + input`, column `output`).
pub fn quantize_weights(
    taps: usize,
    inputs: usize,
    outputs: usize,
    weights: &[f32],
) -> QuantizedWeights {
    let quads = quads(inputs);
    let mut scales = vec![0.0f32; outputs];
    for row in weights.chunks_exact(outputs) {
        for (s, w) in scales.iter_mut().zip(row) {
            *s = s.max(w.abs());
        }
    }
    for s in &mut scales {
        *s /= 127.0;
    }
    let mut values = vec![0u32; taps * quads * outputs];
    for t in 0..taps {
        for i in 0..inputs {
            for o in 0..outputs {
                let w = weights[(t * inputs + i) * outputs + o];
                // An all-zero output (scale 0) keeps zero weights; a NaN in a file becomes
                // 0 in the cast, not a panic.
                let q = if scales[o] > 0.0 {
                    (w / scales[o]).round_ties_even().clamp(-127.0, 127.0) as i8
                } else {
                    0
                };
                values[(t * quads + i / 4) * outputs + o] |= u32::from(q as u8) << (8 * (i % 4));
            }
        }
    }
    QuantizedWeights { values, scales }
}

/// The 8-bit value of activation `x` under the multiplier `inverse` (255 over the largest):
/// rounded to nearest, ties to even, as the vector code rounds; clamped to 0..=255.
fn quantize(x: f32, inverse: f32) -> u8 {
    (x.max(0.0) * inverse).round_ties_even().min(255.0) as u8
}

/// `positions` boards of `points` rows of `inputs` activations (none negative) into rows of
/// `quads(inputs)` quads, followed by one row of zeros (the off-board taps read it), and
/// each position's scale into `scales`.
pub fn quantize_input(
    input: &[f32],
    positions: usize,
    points: usize,
    inputs: usize,
    out: &mut Vec<u32>,
    scales: &mut Vec<f32>,
) {
    let quads = quads(inputs);
    let rows = positions * points;
    out.clear();
    out.resize((rows + 1) * quads, 0);
    scales.clear();
    for position in 0..positions {
        let x = &input[position * points * inputs..(position + 1) * points * inputs];
        let largest = x.iter().fold(0.0f32, |m, &v| m.max(v));
        // Nothing positive (or a NaN from a broken net): every value quantizes to 0.
        let (scale, inverse) = if largest > 0.0 && largest.is_finite() {
            (largest / 255.0, 255.0 / largest)
        } else {
            (0.0, 0.0)
        };
        scales.push(scale);
        let dst = &mut out[position * points * quads..(position + 1) * points * quads];
        #[cfg(target_arch = "x86_64")]
        if inputs.is_multiple_of(16) && on_this_core() {
            // SAFETY: the features were detected just above; the lengths are checked in it.
            unsafe { avx512::quantize(x, inverse, dst) };
            continue;
        }
        for (row, x) in dst.chunks_exact_mut(quads).zip(x.chunks_exact(inputs)) {
            for (i, &v) in x.iter().enumerate() {
                row[i / 4] |= u32::from(quantize(v, inverse)) << (8 * (i % 4));
            }
        }
    }
}

/// One convolution's operands, in fours of input channels (see
/// [`crate::go::network::direct::Job`]).
pub struct QuadJob<'a> {
    pub taps: &'a [[u32; 9]],
    pub kernel: usize,
    pub positions: usize,
    /// Input channels (the quads are `quads(inputs)`).
    pub inputs: usize,
    pub outputs: usize,
    pub weights: &'a QuantizedWeights,
    pub bias: &'a [f32],
    /// From [`quantize_input`]: `positions * points` rows of quads, then a row of zeros.
    pub input: &'a [u32],
    /// Each position's scale, from [`quantize_input`].
    pub input_scales: &'a [f32],
}

/// `out` (`positions * points` rows of `outputs`) = the convolution of `job.input`.
///
/// # Panics
/// If this core lacks AVX-512 VNNI or the kernel does not take `job.outputs` (see
/// [`fits`]), or the slices are shorter than the shapes say: the caller's mistakes.
pub fn convolve(job: &QuadJob, out: &mut Vec<f32>) {
    assert!(
        fits(job.outputs) && on_this_core(),
        "the 8-bit kernel cannot run here"
    );
    let points = job.taps.len();
    let rows = job.positions * points;
    let taps = job.kernel * job.kernel;
    let quads = quads(job.inputs);
    assert!(job.kernel == 1 || job.kernel == 3);
    assert!(job.input.len() == (rows + 1) * quads);
    assert!(job.input_scales.len() == job.positions);
    assert!(job.weights.values.len() == taps * quads * job.outputs);
    assert!(job.weights.scales.len() == job.outputs);
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

    use super::{QuadJob, quads};
    use crate::go::network::direct::tile_sources;

    /// Rows of a multiple of 16 activations to 8 bits, 16 at a time.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn quantize(input: &[f32], inverse: f32, out: &mut [u32]) {
        assert!(input.len().is_multiple_of(16) && input.len() == 4 * out.len());
        let dst = out.as_mut_ptr().cast::<u8>();
        let inverse = _mm512_set1_ps(inverse);
        let zero = _mm512_setzero_ps();
        for i in (0..input.len()).step_by(16) {
            // SAFETY: 16 floats from `i` lie in `input`, and their 16 bytes in `out`.
            unsafe {
                let x = _mm512_mul_ps(
                    _mm512_max_ps(_mm512_loadu_ps(input.as_ptr().add(i)), zero),
                    inverse,
                );
                // Rounded to nearest even (the default rounding), then saturated to 255.
                let q = _mm512_cvtusepi32_epi8(_mm512_cvtps_epi32(x));
                _mm_storeu_si128(dst.add(i).cast(), q);
            }
        }
    }

    /// `V` vectors of outputs for a tile of `R` points, as the float32 AVX-512 kernel
    /// tiles them: `R * V` accumulators, `V` weight vectors and the broadcast input quad.
    #[target_feature(enable = "avx512f,avx512vnni")]
    pub(super) unsafe fn run<const V: usize, const R: usize>(job: &QuadJob, out: &mut [f32]) {
        let points = job.taps.len();
        let rows = job.positions * points;
        let (quads, cout) = (quads(job.inputs), job.outputs);
        let taps = job.kernel * job.kernel;
        let weights = job.weights.values.as_ptr();
        let zeros = &job.input[rows * quads..];
        let mut start = 0;
        while start < rows {
            let sources = tile_sources::<u32, R>(
                job.taps,
                job.kernel,
                job.positions,
                job.input,
                quads,
                start,
                zeros,
            );
            // SAFETY (the block): every pointer read is a source row of `quads` lanes, a
            // weight row of `cout`, a scale or the bias; every store is a row below `rows`.
            unsafe {
                let mut acc = [[_mm512_setzero_si512(); V]; R];
                for (t, tap) in sources.iter().enumerate().take(taps) {
                    let w_tap = weights.add(t * quads * cout);
                    for i in 0..quads {
                        let w_row = w_tap.add(i * cout);
                        let mut w = [_mm512_setzero_si512(); V];
                        for (v, x) in w.iter_mut().enumerate() {
                            *x = _mm512_loadu_si512(w_row.add(16 * v).cast());
                        }
                        for (a, source) in acc.iter_mut().zip(tap) {
                            let b = _mm512_set1_epi32(*source.add(i) as i32);
                            for (x, w) in a.iter_mut().zip(&w) {
                                *x = _mm512_dpbusd_epi32(*x, b, *w);
                            }
                        }
                    }
                }
                for (r, a) in acc.iter().enumerate() {
                    let row = start + r;
                    if row >= rows {
                        break;
                    }
                    let input_scale = _mm512_set1_ps(job.input_scales[row / points]);
                    let dst = out.as_mut_ptr().add(row * cout);
                    for (v, x) in a.iter().enumerate() {
                        let scale = _mm512_mul_ps(
                            _mm512_loadu_ps(job.weights.scales.as_ptr().add(16 * v)),
                            input_scale,
                        );
                        let bias = _mm512_loadu_ps(job.bias.as_ptr().add(16 * v));
                        let y = _mm512_fmadd_ps(_mm512_cvtepi32_ps(*x), scale, bias);
                        _mm512_storeu_ps(dst.add(16 * v), y);
                    }
                }
            }
            start += R;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::geometry::{Geometry, Topology};
    use crate::go::network::direct::Job;
    use crate::go::network::direct::tests::{naive, neighbourhoods};
    use crate::rng::Rng;

    /// The quantized input's values as floats, each position by its scale.
    fn dequantized_input(
        quantized: &[u32],
        scales: &[f32],
        points: usize,
        inputs: usize,
    ) -> Vec<f32> {
        let quads = quads(inputs);
        let mut out = Vec::new();
        for (position, &scale) in scales.iter().enumerate() {
            for p in 0..points {
                let row = &quantized[(position * points + p) * quads..][..quads];
                for i in 0..inputs {
                    out.push(((row[i / 4] >> (8 * (i % 4))) & 0xff) as f32 * scale);
                }
            }
        }
        out
    }

    fn dequantized_weights(q: &QuantizedWeights, taps: usize, inputs: usize) -> Vec<f32> {
        let (quads, outputs) = (quads(inputs), q.scales.len());
        let mut out = vec![0.0; taps * inputs * outputs];
        for t in 0..taps {
            for i in 0..inputs {
                for o in 0..outputs {
                    let byte = (q.values[(t * quads + i / 4) * outputs + o] >> (8 * (i % 4))) as u8;
                    out[(t * inputs + i) * outputs + o] = f32::from(byte as i8) * q.scales[o];
                }
            }
        }
        out
    }

    #[test]
    fn quantizes_each_output_and_each_position_to_its_largest() {
        // Two outputs, three inputs, one tap: the largest weight of each output is +-127.
        let w = [0.5, -2.0, -1.0, 1.0, 0.25, 0.0];
        let q = quantize_weights(1, 3, 2, &w);
        assert_eq!(q.scales, [1.0 / 127.0, 2.0 / 127.0]);
        let back = dequantized_weights(&q, 1, 3);
        assert_eq!(back[2], -1.0);
        assert_eq!(back[1], -2.0);
        for (b, w) in back.iter().zip(&w) {
            assert!((b - w).abs() <= 1.0 / 127.0, "{back:?}");
        }
        // An all-zero output, and NaN in a file, quantize without a panic.
        let q = quantize_weights(1, 1, 2, &[0.0, f32::NAN]);
        assert_eq!(q.values, [0, 0]);
        // Two positions of two points of 5 inputs (padded to 8): the scalar path.
        let x = [
            0.0, 1.0, 2.0, -3.0, 0.5, 0.25, 0.0, 0.0, 0.0, 0.0, // position 0
            0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // position 1: all zero
        ];
        let (mut out, mut scales) = (Vec::new(), Vec::new());
        quantize_input(&x, 2, 2, 5, &mut out, &mut scales);
        assert_eq!(scales, [2.0 / 255.0, 0.0]);
        assert_eq!(out.len(), 5 * 2);
        // 0, 127.5 -> 128 (ties to even), 255, a negative -> 0; then 0.5 -> 63.75 -> 64.
        assert_eq!(out[0], 128 << 8 | 255 << 16);
        assert_eq!(out[1], 64);
        assert!(out[4..].iter().all(|&z| z == 0));
    }

    #[test]
    fn the_vector_quantization_rounds_as_the_scalar_one() {
        if !on_this_core() {
            return;
        }
        let mut rng = Rng::new(3);
        let inputs = 48;
        let x: Vec<f32> = (0..2 * 81 * inputs)
            .map(|_| (rng.below(20001) as f32 - 5000.0) / 3000.0)
            .collect();
        let (mut out, mut scales) = (Vec::new(), Vec::new());
        quantize_input(&x, 2, 81, inputs, &mut out, &mut scales);
        for (j, &v) in x.iter().enumerate() {
            let inverse = 1.0 / scales[j / (81 * inputs)];
            let byte = (out[j / 4] >> (8 * (j % 4))) as u8;
            assert_eq!(byte, quantize(v, inverse), "activation {j}: {v}");
        }
    }

    /// The kernel computes the convolution of the quantized operands exactly (to float32's
    /// rounding of the scaled sums).
    #[test]
    fn agrees_with_the_definition_on_quantized_operands() {
        if !on_this_core() {
            eprintln!("no AVX-512 VNNI on this core: nothing runs in 8 bits");
            return;
        }
        let mut rng = Rng::new(17);
        let mut random = |n: usize, low: f32| -> Vec<f32> {
            (0..n)
                .map(|_| low + rng.below(2001) as f32 / 1000.0 * (1.0 - low) / 2.0)
                .collect()
        };
        let shapes = [
            (9, Topology::Plane, 3, 48, 48, 3),
            (19, Topology::Plane, 3, 48, 96, 1),
            (9, Topology::Torus, 3, 32, 32, 2),
            (7, Topology::Plane, 3, 5, 80, 1),
            (13, Topology::Plane, 1, 48, 16, 2),
            (5, Topology::Torus, 1, 64, 64, 1),
            (11, Topology::Torus, 3, 18, 64, 1),
        ];
        let (mut quads_in, mut scales, mut out) = (Vec::new(), Vec::new(), Vec::new());
        for (size, topology, kernel, inputs, outputs, positions) in shapes {
            let geo = Geometry::get(size, topology).unwrap();
            let points = geo.num_points();
            let taps = neighbourhoods(geo);
            let weights = random(kernel * kernel * inputs * outputs, -1.0);
            let bias = random(outputs, -1.0);
            let input = random(positions * points * inputs, 0.0);
            let quantized = quantize_weights(kernel * kernel, inputs, outputs, &weights);
            quantize_input(
                &input,
                positions,
                points,
                inputs,
                &mut quads_in,
                &mut scales,
            );
            let weights_q = dequantized_weights(&quantized, kernel * kernel, inputs);
            let input_q = dequantized_input(&quads_in, &scales, points, inputs);
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
                weights: &weights_q,
                bias: &bias,
                input: &input_q,
            });
            let job = QuadJob {
                taps: &taps,
                kernel,
                positions,
                inputs,
                outputs,
                weights: &quantized,
                bias: &bias,
                input: &quads_in,
                input_scales: &scales,
            };
            convolve(&job, &mut out);
            assert_eq!(out.len(), want.len());
            // Each operand within half a step of the exact one: a weight within 1/254 of its
            // output's largest (at most 1 here), an input within 1/510 of its position's.
            let bound = (1.0 / 254.0 + 1.0 / 510.0) * (kernel * kernel * inputs) as f32;
            for (j, ((got, want), exact)) in out.iter().zip(&want).zip(&exact).enumerate() {
                let what = format!(
                    "{size}x{size} {topology:?} {kernel}x{kernel} {inputs}->{outputs} \
                     x{positions}: output {j} is {got}"
                );
                assert!(
                    (got - want).abs() <= 1e-4 * (1.0 + want.abs()),
                    "{what}, by the definition on quantized operands {want}"
                );
                assert!((got - exact).abs() <= bound, "{what}, exactly {exact}");
            }
        }
    }
}

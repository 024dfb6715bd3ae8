//! The 3x3 convolutions by Winograd's F(2x2, 3x3) with the products in 8-bit integers, on
//! AVX-512 VNNI's `vpdpbusd`: 16 products a tile and pair of channels where the direct
//! 8-bit kernel (`int8`) has 36, at four multiply-adds an instruction lane.
//!
//! The transforms stay in float32 (`winograd`'s); only the 16 matrix products between them
//! are in integers. Measured slower than the direct 8-bit kernel (doc/benchmarks.md): at 8
//! bits the products are cheap, and the float32 transforms, the quantization between them
//! and the products' scaling cost more than the products saved, so only
//! `Kernel::Winograd2x2` runs it, for comparison and as the base of a faster one. F(2x2) rather than F(4x4): its transforms' coefficients are 0 and +-1
//! (and +-1/2 for the weights), so a transformed value spans at most four times its
//! inputs' range and 8 bits keep what they kept for the direct kernel, where F(4x4)'s
//! coefficients (up to 5 and 1/24) would spread it over some hundred times.
//!
//! The transformed weights are quantized once, when a net is made ready for 8 bits
//! ([`quantize_weights`]): each point of the domain and output channel to -127..=127 by a
//! scale of its own. The transformed inputs are signed: each point of the domain is
//! quantized to -127..=127 by a scale of its own in each position (its largest value's size
//! over 127, so a position never depends on the others in its batch) and stored plus 128, unsigned, as
//! `vpdpbusd` reads them; the 128 times the sum of the output's weights that this adds to
//! each sum is taken off again ([`QuantizedTransformed::offsets`]). The sums are exact;
//! each product is its sum times both scales, in float32, before the output transform.

use super::winograd::{self, Form, Job, Lines};

/// Points of F(2x2)'s domain: its 16 products.
const AREA: usize = Form::F2.area();

/// Whether this core runs it: AVX-512 with VNNI.
pub fn on_this_core() -> bool {
    super::direct::avx512_vnni_on_this_core()
}

/// A 3x3 convolution's weights in F(2x2)'s domain, in 8 bits.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantizedTransformed {
    pub inputs: usize,
    pub outputs: usize,
    /// For each point of the domain, row `quad`, column `output`: the quad's four
    /// transformed weights, each over its scale, rounded (as `int8::QuantizedWeights`).
    pub values: Vec<u32>,
    /// For each point of the domain and output: the scale.
    pub scales: Vec<f32>,
    /// For each point of the domain and output: 128 times the sum of its 8-bit weights,
    /// what the inputs' offset adds to each sum.
    pub offsets: Vec<i32>,
}

/// The transformed weights of a 3x3 convolution (as the direct kernel reads them: row
/// `tap * inputs + input`, column `output`) in 8 bits.
pub fn quantize_weights(inputs: usize, outputs: usize, weights: &[f32]) -> QuantizedTransformed {
    let transformed = winograd::transform_weights(Form::F2, inputs, outputs, weights);
    let quads = inputs.div_ceil(4);
    let mut values = vec![0u32; AREA * quads * outputs];
    let mut scales = vec![0.0f32; AREA * outputs];
    let mut offsets = vec![0i32; AREA * outputs];
    for xi in 0..AREA {
        let w = &transformed[xi * inputs * outputs..(xi + 1) * inputs * outputs];
        let scales = &mut scales[xi * outputs..(xi + 1) * outputs];
        for row in w.chunks_exact(outputs) {
            for (s, w) in scales.iter_mut().zip(row) {
                *s = s.max(w.abs());
            }
        }
        for s in scales.iter_mut() {
            *s /= 127.0;
        }
        for i in 0..inputs {
            for o in 0..outputs {
                let w = w[i * outputs + o];
                // An all-zero output (scale 0) keeps zero weights; a NaN becomes 0.
                let q = if scales[o] > 0.0 {
                    (w / scales[o]).round_ties_even().clamp(-127.0, 127.0) as i8
                } else {
                    0
                };
                values[(xi * quads + i / 4) * outputs + o] |= u32::from(q as u8) << (8 * (i % 4));
                offsets[xi * outputs + o] += 128 * i32::from(q);
            }
        }
    }
    QuantizedTransformed {
        inputs,
        outputs,
        values,
        scales,
        offsets,
    }
}

/// A transformed input's 8-bit value under the multiplier `inverse` (127 over the row's
/// largest size), plus 128: rounded to nearest, ties to even, as the vector code rounds.
fn quantize(x: f32, inverse: f32) -> u8 {
    ((x * inverse).round_ties_even().clamp(-127.0, 127.0) as i32 + 128) as u8
}

/// Space a convolution reuses.
#[derive(Default)]
pub struct Buffers {
    transformed: Lines,
    /// The transformed input in quads: 16 matrices of `rows` rows of `quads`.
    quantized: Vec<u32>,
    /// Each row's scale, 16 matrices of `rows`.
    row_scales: Vec<f32>,
    products: Lines,
}

/// `out` (`positions * points` rows of `outputs`) = the convolution of `job.input` with
/// `weights`; `job.tiles` must be F(2x2)'s (`job.transformed` is not read).
///
/// # Panics
/// If this core lacks AVX-512 VNNI, the width does not fit (`winograd::fits`), the tiles
/// are not F(2x2)'s or the shapes disagree: the caller's mistakes, never the input's.
pub fn convolve(
    job: &Job,
    weights: &QuantizedTransformed,
    buffers: &mut Buffers,
    out: &mut Vec<f32>,
) {
    assert!(on_this_core(), "the 8-bit Winograd kernel cannot run here");
    assert_eq!(job.tiles.form(), Some(Form::F2));
    let (cin, cout) = (job.inputs, job.outputs);
    assert!(weights.inputs == cin && weights.outputs == cout);
    let quads = cin.div_ceil(4);
    assert!(weights.values.len() == AREA * quads * cout);
    assert!(weights.scales.len() == AREA * cout && weights.offsets.len() == AREA * cout);
    winograd::transform_input(job, &mut buffers.transformed);
    let rows = job.positions * job.tiles.count();
    quantize_groups(
        buffers.transformed.floats(),
        AREA * job.positions,
        job.tiles.count(),
        cin,
        &mut buffers.quantized,
        &mut buffers.row_scales,
    );
    let products = buffers.products.sized(AREA * rows * cout);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the core was checked above; the lengths of the quantized rows, the weights
    // and the products follow from the asserts and the sizes just set.
    unsafe {
        avx512::multiply(
            rows,
            quads,
            weights,
            &buffers.quantized,
            &buffers.row_scales,
            products,
        );
    }
    winograd::transform_output(job, buffers.products.floats(), out);
}

/// The transformed input to quads, in `groups` of `group_rows` rows of `inputs` (a
/// position's tiles in one point of the domain), each group by one scale, pushed for each
/// of its rows to `row_scales`. A scale a group rather than a row: finding each row's
/// largest value and its inverse took longer than the products.
fn quantize_groups(
    transformed: &[f32],
    groups: usize,
    group_rows: usize,
    inputs: usize,
    quantized: &mut Vec<u32>,
    row_scales: &mut Vec<f32>,
) {
    let quads = inputs.div_ceil(4);
    let group_len = group_rows * inputs;
    assert!(transformed.len() == groups * group_len);
    quantized.clear();
    // A padding byte of 128 is 0; its weights are 0 anyway.
    quantized.resize(groups * group_rows * quads, 0x8080_8080);
    row_scales.clear();
    for (group, x) in transformed.chunks_exact(group_len.max(1)).enumerate() {
        let dst = &mut quantized[group * group_rows * quads..(group + 1) * group_rows * quads];
        #[cfg(target_arch = "x86_64")]
        if inputs.is_multiple_of(16) {
            // SAFETY: `convolve` checked the core; the lengths are checked in it.
            let scale = unsafe { avx512::quantize(x, dst) };
            row_scales.extend(std::iter::repeat_n(scale, group_rows));
            continue;
        }
        let largest = x.iter().fold(0.0f32, |m, &v| m.max(v.abs()));
        let (scale, inverse) = scale_of(largest);
        row_scales.extend(std::iter::repeat_n(scale, group_rows));
        for (x, dst) in x.chunks_exact(inputs).zip(dst.chunks_exact_mut(quads)) {
            dst.fill(0);
            for (i, &v) in x.iter().enumerate() {
                dst[i / 4] |= u32::from(quantize(v, inverse)) << (8 * (i % 4));
            }
            for i in x.len()..4 * quads {
                dst[i / 4] |= 128 << (8 * (i % 4));
            }
        }
    }
}

/// A row's scale and its inverse from its largest size: 0 and 0 for a row of zeros (or of
/// a broken net's NaNs), whose values all quantize to 0.
fn scale_of(largest: f32) -> (f32, f32) {
    if largest > 0.0 && largest.is_finite() {
        (largest / 127.0, 127.0 / largest)
    } else {
        (0.0, 0.0)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::{AREA, QuantizedTransformed};
    use crate::go::network::winograd::{row_tiles, rows_plan, vector_blocks};

    /// A group of a multiple of 16 transformed values to 8 bits plus 128, 16 at a time, by
    /// its own scale, which it returns: its largest size found first, in vectors (a scalar
    /// fold, one dependent `max` a value, took two thirds of the layer's time).
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn quantize(input: &[f32], out: &mut [u32]) -> f32 {
        assert!(input.len().is_multiple_of(16) && input.len() == 4 * out.len());
        let dst = out.as_mut_ptr().cast::<u8>();
        let mut largest = _mm512_setzero_ps();
        for i in (0..input.len()).step_by(16) {
            // SAFETY: 16 floats from `i` lie in `input`.
            let x = unsafe { _mm512_loadu_ps(input.as_ptr().add(i)) };
            largest = _mm512_max_ps(largest, _mm512_abs_ps(x));
        }
        let (scale, inverse) = super::scale_of(_mm512_reduce_max_ps(largest));
        let inverse = _mm512_set1_ps(inverse);
        let (low, high) = (_mm512_set1_epi32(-127), _mm512_set1_epi32(127));
        let offset = _mm512_set1_epi32(128);
        for i in (0..input.len()).step_by(16) {
            // SAFETY: 16 floats from `i` lie in `input`, and their 16 bytes in `out`.
            unsafe {
                let x = _mm512_mul_ps(_mm512_loadu_ps(input.as_ptr().add(i)), inverse);
                // Rounded to nearest even (the default rounding).
                let q = _mm512_min_epi32(_mm512_max_epi32(_mm512_cvtps_epi32(x), low), high);
                let q = _mm512_cvtepi32_epi8(_mm512_add_epi32(q, offset));
                _mm_storeu_si128(dst.add(i).cast(), q);
            }
        }
        scale
    }

    /// The 16 products, each `rows x quads` (8-bit) by `quads x outputs`, scaled to float32:
    /// in `winograd`'s blocks of output vectors over every row, as its float32 products go.
    #[target_feature(enable = "avx512f,avx512vnni")]
    pub(super) unsafe fn multiply(
        rows: usize,
        quads: usize,
        w: &QuantizedTransformed,
        input: &[u32],
        row_scales: &[f32],
        products: &mut [f32],
    ) {
        let cout = w.outputs;
        assert!(input.len() == AREA * rows * quads && row_scales.len() == AREA * rows);
        assert!(products.len() == AREA * rows * cout && cout.is_multiple_of(16));
        for xi in 0..AREA {
            let t = Tile {
                a: &input[xi * rows * quads..(xi + 1) * rows * quads],
                a_scales: &row_scales[xi * rows..(xi + 1) * rows],
                w: &w.values[xi * quads * cout..(xi + 1) * quads * cout],
                w_scales: &w.scales[xi * cout..(xi + 1) * cout],
                offsets: &w.offsets[xi * cout..(xi + 1) * cout],
                c: &mut products[xi * rows * cout..(xi + 1) * rows * cout],
                start: 0,
                quads,
                cout,
                col: 0,
            };
            for (first, block) in vector_blocks(cout / 16) {
                let t = Tile {
                    c: &mut *t.c,
                    col: 16 * first,
                    ..t
                };
                // SAFETY: the asserts above bound every row and column the blocks touch.
                unsafe {
                    match block {
                        1 => block_of::<1>(t, rows),
                        _ => block_of::<2>(t, rows),
                    }
                }
            }
        }
    }

    /// Rows `start..` of one product, columns `col..`.
    struct Tile<'a> {
        a: &'a [u32],
        a_scales: &'a [f32],
        w: &'a [u32],
        w_scales: &'a [f32],
        offsets: &'a [i32],
        c: &'a mut [f32],
        start: usize,
        quads: usize,
        cout: usize,
        col: usize,
    }

    /// Columns `col..col + 16 V` over all `rows`, in `winograd`'s tiles of rows.
    #[target_feature(enable = "avx512f,avx512vnni")]
    unsafe fn block_of<const V: usize>(t: Tile, rows: usize) {
        for (start, count) in row_tiles(rows, V) {
            let t = Tile {
                c: &mut *t.c,
                start,
                ..t
            };
            // SAFETY: rows `start..start + count` exist.
            unsafe { rows_plan!(count, rows_of::<V>(t)) }
        }
    }

    /// Rows `start..start + R`, columns `col..col + 16 V`: the sums, less the offsets, times
    /// the row's and the output's scales.
    #[target_feature(enable = "avx512f,avx512vnni")]
    unsafe fn rows_of<const V: usize, const R: usize>(t: Tile) {
        let Tile {
            a,
            a_scales,
            w,
            w_scales,
            offsets,
            c,
            start,
            quads,
            cout,
            col,
        } = t;
        debug_assert!((start + R) * quads <= a.len() && (start + R) * cout <= c.len());
        debug_assert!(col + 16 * V <= cout && w.len() == quads * cout);
        // SAFETY: the caller keeps the rows within `a` and `c` and the columns within
        // `cout`; `w` holds `quads` rows of `cout`.
        unsafe {
            let mut acc = [[_mm512_setzero_si512(); V]; R];
            let a_rows = a.as_ptr().add(start * quads);
            for i in 0..quads {
                let w_row = w.as_ptr().add(i * cout + col);
                let mut wv = [_mm512_setzero_si512(); V];
                for (v, x) in wv.iter_mut().enumerate() {
                    *x = _mm512_loadu_si512(w_row.add(16 * v).cast());
                }
                for (r, acc) in acc.iter_mut().enumerate() {
                    let b = _mm512_set1_epi32(*a_rows.add(r * quads + i) as i32);
                    for (x, w) in acc.iter_mut().zip(&wv) {
                        *x = _mm512_dpbusd_epi32(*x, b, *w);
                    }
                }
            }
            for (r, acc) in acc.iter().enumerate() {
                let row = start + r;
                let a_scale = _mm512_set1_ps(a_scales[row]);
                let dst = c.as_mut_ptr().add(row * cout + col);
                for (v, x) in acc.iter().enumerate() {
                    let offset = _mm512_loadu_si512(offsets.as_ptr().add(col + 16 * v).cast());
                    let scale = _mm512_mul_ps(
                        _mm512_loadu_ps(w_scales.as_ptr().add(col + 16 * v)),
                        a_scale,
                    );
                    let sum = _mm512_cvtepi32_ps(_mm512_sub_epi32(*x, offset));
                    _mm512_storeu_ps(dst.add(16 * v), _mm512_mul_ps(sum, scale));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::geometry::{Geometry, Topology};
    use crate::go::network::direct::tests::{naive, neighbourhoods, uniform};
    use crate::go::network::winograd::Tiles;
    use crate::rng::Rng;

    /// The kernel's products are those of its quantized operands, computed here one by one
    /// from the same float32 transforms; and the whole stays near the exact convolution.
    #[test]
    fn agrees_with_its_quantized_operands_and_nearly_with_the_definition() {
        if !on_this_core() {
            eprintln!("no AVX-512 VNNI on this core: no 8-bit Winograd kernel");
            return;
        }
        let mut rng = Rng::new(29);
        let shapes = [
            (9, Topology::Plane, 48, 48, 1),
            (9, Topology::Plane, 96, 96, 2),
            (19, Topology::Plane, 48, 64, 1),
            (8, Topology::Torus, 32, 32, 2),
            (5, Topology::Torus, 7, 16, 1),
            (7, Topology::Plane, 18, 80, 1),
        ];
        let (mut tiles, mut buffers, mut out) = (Tiles::default(), Buffers::default(), Vec::new());
        let mut transformed = Lines::default();
        for (size, topology, inputs, outputs, positions) in shapes {
            let geo = Geometry::get(size, topology).unwrap();
            let points = geo.num_points();
            let weights = uniform(&mut rng, 9 * inputs * outputs);
            let bias = uniform(&mut rng, outputs);
            // A ReLU's outputs: none negative, a third zero.
            let input: Vec<f32> = uniform(&mut rng, positions * points * inputs)
                .into_iter()
                .map(|x| (x + 0.3).max(0.0))
                .collect();
            tiles.prepare(geo, Form::F2);
            let q = quantize_weights(inputs, outputs, &weights);
            let job = Job {
                tiles: &tiles,
                points,
                positions,
                inputs,
                outputs,
                transformed: &[],
                bias: &bias,
                input: &input,
            };
            convolve(&job, &q, &mut buffers, &mut out);
            let what = format!("{size}x{size} {topology:?} {inputs}->{outputs} x{positions}");

            // The products one by one, in f64, from the float32 transform's values.
            winograd::transform_input(&job, &mut transformed);
            let transformed = transformed.floats();
            let rows = positions * tiles.count();
            let quads = inputs.div_ceil(4);
            let mut products = vec![0.0f32; AREA * rows * outputs];
            for xi in 0..AREA {
                for row in 0..rows {
                    let x = &transformed[(xi * rows + row) * inputs..][..inputs];
                    // The largest of the position's tiles at this point.
                    let position = row / tiles.count();
                    let group = &transformed[(xi * rows + position * tiles.count()) * inputs..]
                        [..tiles.count() * inputs];
                    let largest = group.iter().fold(0.0f32, |m, &v| m.max(v.abs()));
                    let scale = largest / 127.0;
                    let inverse = if largest > 0.0 { 127.0 / largest } else { 0.0 };
                    for o in 0..outputs {
                        let mut sum = 0i64;
                        for (i, &v) in x.iter().enumerate() {
                            let byte =
                                q.values[(xi * quads + i / 4) * outputs + o] >> (8 * (i % 4));
                            let w = i64::from(byte as u8 as i8);
                            sum += (i64::from(quantize(v, inverse)) - 128) * w;
                        }
                        let s = f64::from(scale) * f64::from(q.scales[xi * outputs + o]);
                        products[(xi * rows + row) * outputs + o] = (sum as f64 * s) as f32;
                    }
                }
            }
            let mut want = Vec::new();
            winograd::transform_output(&job, &products, &mut want);
            assert_eq!(out.len(), want.len());
            for (j, (got, want)) in out.iter().zip(&want).enumerate() {
                assert!(
                    (got - want).abs() <= 1e-4 * (1.0 + want.abs()),
                    "{what}: output {j} is {got}, from the quantized operands {want}"
                );
            }

            // Against the definition: the error is the quantization's, a small part of the
            // outputs' spread.
            let exact = naive(&crate::go::network::direct::Job {
                taps: &neighbourhoods(geo),
                kernel: 3,
                positions,
                inputs,
                outputs,
                weights: &weights,
                bias: &bias,
                input: &input,
            });
            let rms = |v: &mut dyn Iterator<Item = f32>| {
                let (sum, n) = v.fold((0.0f64, 0usize), |(s, n), x| {
                    (s + f64::from(x).powi(2), n + 1)
                });
                (sum / n as f64).sqrt()
            };
            let spread = rms(&mut exact
                .iter()
                .zip(&bias.repeat(exact.len() / outputs))
                .map(|(e, b)| e - b));
            let error = rms(&mut out.iter().zip(&exact).map(|(g, e)| g - e));
            assert!(
                error <= 0.02 * spread,
                "{what}: rms error {error}, outputs' spread {spread}"
            );
        }
    }

    #[test]
    fn quantizes_each_point_and_output_to_its_largest() {
        // One input, one output: the 16 transformed weights of a kernel of ones are each
        // point's own scale times 127 (or 0).
        let q = quantize_weights(1, 1, &[1.0; 9]);
        for xi in 0..AREA {
            let byte = (q.values[xi] & 0xff) as u8 as i8;
            assert!(byte == 127 || (byte == 0 && q.scales[xi] == 0.0), "{q:?}");
            assert_eq!(q.offsets[xi], 128 * i32::from(byte));
        }
        // A NaN in a file quantizes without a panic.
        let _ = quantize_weights(1, 1, &[f32::NAN; 9]);
        // -127..=127 plus 128, ties to even.
        assert_eq!(quantize(-1.0, 127.0), 1);
        assert_eq!(quantize(1.0, 127.0), 255);
        assert_eq!(quantize(0.0, 127.0), 128);
        assert_eq!(quantize(2.5, 1.0), 130);
        assert_eq!(quantize(-5.0, 127.0), 1);
    }
}

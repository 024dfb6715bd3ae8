//! A direct convolution for cores with AVX-512: each output point's channels are summed in
//! registers from the weights as stored and the input rows where they lie. The GEMM crate
//! packs both operands afresh on every call, the constant weights included, and with one
//! position's thin matrices (81 rows on 9x9) the packing took as long as the multiply-adds
//! (`perf`: 34% of an evaluation in `gemm_loop`, 45% in its kernel); here nothing is
//! copied, and the net runs 2.6 times as fast (doc/benchmarks.md).
//!
//! Outputs come in blocks of 16 channels (one vector), one to six of them; a tile of output
//! points shares each loaded weight vector, so the loop is bound by the core's multiply-adds
//! rather than by its loads. Other shapes, and other cores, take the GEMM in `model`.

/// The widest output this kernel takes, in vectors of 16 channels.
const MAX_VECTORS: usize = 6;

/// Whether [`convolve`] runs on this core for `outputs` channels.
pub fn available(outputs: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        outputs.is_multiple_of(16)
            && (1..=MAX_VECTORS).contains(&(outputs / 16))
            && std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = outputs;
        false
    }
}

/// One convolution's operands. `taps[p][t]` is the input point tap `t` of point `p` reads
/// (`u32::MAX` off the board); a 1x1 convolution reads its own point.
pub struct Job<'a> {
    pub taps: &'a [[u32; 9]],
    pub kernel: usize,
    pub positions: usize,
    pub inputs: usize,
    pub outputs: usize,
    /// Row `tap * inputs + input`, column `output`.
    pub weights: &'a [f32],
    pub bias: &'a [f32],
    /// `positions * points` rows of `inputs`.
    pub input: &'a [f32],
}

/// `out` (`positions * points` rows of `outputs`) = the convolution of `job.input`.
///
/// # Panics
/// If [`available`] is false for `job.outputs`, or the slices are shorter than the shapes
/// say: both are the caller's mistakes, never the input's.
pub fn convolve(job: &Job, zeros: &mut Vec<f32>, out: &mut Vec<f32>) {
    assert!(available(job.outputs), "the direct kernel cannot run here");
    let points = job.taps.len();
    let rows = job.positions * points;
    let taps = job.kernel * job.kernel;
    assert!(job.kernel == 1 || job.kernel == 3);
    assert!(job.input.len() >= rows * job.inputs);
    assert!(job.weights.len() == taps * job.inputs * job.outputs);
    assert!(job.bias.len() == job.outputs);
    zeros.clear();
    zeros.resize(job.inputs, 0.0);
    out.clear();
    out.resize(rows * job.outputs, 0.0);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `available` checked AVX-512 and the output width; the asserts above bound
    // every row the kernel reads or writes.
    unsafe {
        match job.outputs / 16 {
            1 => avx512::run::<1, 16>(job, zeros, out),
            2 => avx512::run::<2, 12>(job, zeros, out),
            3 => avx512::run::<3, 8>(job, zeros, out),
            4 => avx512::run::<4, 6>(job, zeros, out),
            5 => avx512::run::<5, 4>(job, zeros, out),
            _ => avx512::run::<6, 4>(job, zeros, out),
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::Job;

    /// `V` vectors of outputs for a tile of `R` points at a time: `R * V` accumulators
    /// (at most 24 of the 32 registers), the rest for the weights and the broadcast input.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn run<const V: usize, const R: usize>(
        job: &Job,
        zeros: &[f32],
        out: &mut [f32],
    ) {
        let points = job.taps.len();
        let rows = job.positions * points;
        let (cin, cout) = (job.inputs, job.outputs);
        let taps = job.kernel * job.kernel;
        let input = job.input.as_ptr();
        let weights = job.weights.as_ptr();
        let mut start = 0;
        while start < rows {
            // The input row each tap reads for each of the tile's points; past the last
            // row the tile repeats it (computed, never stored).
            let mut sources = [[zeros.as_ptr(); R]; 9];
            for r in 0..R {
                let row = (start + r).min(rows - 1);
                let (position, p) = (row / points, row % points);
                for (t, tap) in sources.iter_mut().enumerate().take(taps) {
                    let q = if job.kernel == 1 {
                        p as u32
                    } else {
                        job.taps[p][t]
                    };
                    if q != u32::MAX {
                        // SAFETY: q < points, so the row lies inside `input` (asserted).
                        tap[r] = unsafe { input.add((position * points + q as usize) * cin) };
                    }
                }
            }
            // SAFETY (the block): every pointer read is a source row of `cin` floats, a
            // weight row of `cout` or the bias; every store is a row below `rows`.
            unsafe {
                let mut acc = [[_mm512_setzero_ps(); V]; R];
                for a in acc.iter_mut() {
                    for (v, x) in a.iter_mut().enumerate() {
                        *x = _mm512_loadu_ps(job.bias.as_ptr().add(16 * v));
                    }
                }
                for (t, tap) in sources.iter().enumerate().take(taps) {
                    let w_tap = weights.add(t * cin * cout);
                    for i in 0..cin {
                        let w_row = w_tap.add(i * cout);
                        let mut w = [_mm512_setzero_ps(); V];
                        for (v, x) in w.iter_mut().enumerate() {
                            *x = _mm512_loadu_ps(w_row.add(16 * v));
                        }
                        for r in 0..R {
                            let b = _mm512_set1_ps(*tap[r].add(i));
                            for v in 0..V {
                                acc[r][v] = _mm512_fmadd_ps(b, w[v], acc[r][v]);
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
mod tests {
    use super::*;
    use crate::go::geometry::{Geometry, Topology};
    use crate::rng::Rng;

    /// The convolution by its definition, one output at a time.
    fn naive(job: &Job) -> Vec<f32> {
        let points = job.taps.len();
        let taps = job.kernel * job.kernel;
        let mut out = Vec::new();
        for position in 0..job.positions {
            for p in 0..points {
                for o in 0..job.outputs {
                    let mut sum = f64::from(job.bias[o]);
                    for t in 0..taps {
                        let q = if job.kernel == 1 {
                            p as u32
                        } else {
                            job.taps[p][t]
                        };
                        if q == u32::MAX {
                            continue;
                        }
                        for i in 0..job.inputs {
                            let x = job.input[(position * points + q as usize) * job.inputs + i];
                            let w = job.weights[(t * job.inputs + i) * job.outputs + o];
                            sum += f64::from(x) * f64::from(w);
                        }
                    }
                    out.push(sum as f32);
                }
            }
        }
        out
    }

    /// Each point's 3x3 neighbourhood, as the model builds it.
    fn neighbourhoods(geo: &Geometry) -> Vec<[u32; 9]> {
        let size = geo.size() as i64;
        let torus = geo.topology() == Topology::Torus;
        geo.points()
            .map(|p| {
                let (x, y) = geo.xy(p);
                let mut taps = [u32::MAX; 9];
                for t in 0..9i64 {
                    let (mut sx, mut sy) = (x as i64 + t % 3 - 1, y as i64 + t / 3 - 1);
                    if torus {
                        sx = sx.rem_euclid(size);
                        sy = sy.rem_euclid(size);
                    }
                    if (0..size).contains(&sx) && (0..size).contains(&sy) {
                        taps[t as usize] = (sy * size + sx) as u32;
                    }
                }
                taps
            })
            .collect()
    }

    #[test]
    fn agrees_with_the_definition() {
        if !available(16) {
            eprintln!("no AVX-512 on this core: the direct kernel is not used, nothing to check");
            return;
        }
        let mut rng = Rng::new(11);
        let mut random = |n: usize| -> Vec<f32> {
            (0..n)
                .map(|_| (rng.below(2001) as f32 - 1000.0) / 1000.0)
                .collect()
        };
        let shapes = [
            (9, Topology::Plane, 3, 21, 48, 1),
            (9, Topology::Plane, 3, 48, 48, 3),
            (19, Topology::Plane, 3, 48, 96, 1),
            (9, Topology::Torus, 3, 32, 32, 2),
            (7, Topology::Plane, 3, 5, 80, 1),
            (13, Topology::Plane, 1, 48, 16, 2),
            (5, Topology::Torus, 1, 64, 64, 1),
        ];
        let (mut zeros, mut out) = (Vec::new(), Vec::new());
        for (size, topology, kernel, inputs, outputs, positions) in shapes {
            let geo = Geometry::get(size, topology).unwrap();
            let taps = neighbourhoods(geo);
            let weights = random(kernel * kernel * inputs * outputs);
            let bias = random(outputs);
            let input = random(positions * geo.num_points() * inputs);
            let job = Job {
                taps: &taps,
                kernel,
                positions,
                inputs,
                outputs,
                weights: &weights,
                bias: &bias,
                input: &input,
            };
            convolve(&job, &mut zeros, &mut out);
            let want = naive(&job);
            assert_eq!(out.len(), want.len());
            for (j, (got, want)) in out.iter().zip(&want).enumerate() {
                assert!(
                    (got - want).abs() <= 1e-4 * (1.0 + want.abs()),
                    "{size}x{size} {topology:?} {kernel}x{kernel} {inputs}->{outputs} x{positions}: \
                     output {j} is {got}, by the definition {want}"
                );
            }
        }
    }
}

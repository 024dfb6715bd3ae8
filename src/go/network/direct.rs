//! A direct convolution on vector units: each output point's channels are summed in
//! registers from the weights as stored and the input rows where they lie. The GEMM crate
//! packs both operands afresh on every call, the constant weights included, and with one
//! position's thin matrices (81 rows on 9x9) the packing took about as long as the
//! multiply-adds; here nothing is copied (the profile and the speed-up:
//! doc/benchmarks.md#the-network).
//!
//! Outputs come in whole vectors: 16 channels with AVX-512 (one to six of them), 8 with AVX2
//! and FMA (one to eight). A tile of output points shares each loaded weight vector, so the
//! loop is bound by the core's multiply-adds rather than by its loads. Other widths (the
//! heads' 1x1 products to one channel, and to 24 where only AVX-512's 16 lanes are asked
//! for), other cores and [`Kernel::Gemm`] take the GEMM in `model`.
//!
//! A net made ready for a lower [`Precision`] runs its convolutions on the kernels of
//! `bf16` and `int8` instead, tiled as the AVX-512 kernel here, where the core has their
//! instructions and the kernel chosen runs on AVX-512 (any but [`Kernel::Gemm`] and
//! [`Kernel::Avx2`]); [`Kernel::Best`] takes them to `amx`'s tiles where the core has AMX,
//! and [`Kernel::Winograd2x2`] an 8-bit net's 3x3 convolutions to `winograd_int8`.

use crate::go::network::winograd::{self, Form};

/// Which code computes the network's convolutions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kernel {
    /// The fastest this core has: on AVX-512 the 3x3 convolutions by Winograd's method in
    /// the form the board runs faster in (`winograd::Form::for_board`) and the rest on the
    /// direct kernel; else AVX2 with FMA; else the GEMM crate.
    #[default]
    Best,
    /// The GEMM crate over gathered neighbourhoods, on any core.
    Gemm,
    /// The direct kernel on 8-lane vectors.
    Avx2,
    /// The direct kernel on 16-lane vectors.
    Avx512,
    /// The 3x3 convolutions in float32 by Winograd's F(2x2, 3x3) on 16-lane vectors
    /// (`winograd`), and an 8-bit net's in 8 bits by the same (`winograd_int8`), where the
    /// width fits; everything else as the direct kernel.
    Winograd2x2,
    /// The same by F(4x4, 3x3).
    Winograd4x4,
}

/// The numbers a net's convolutions multiply: a property of the loaded net
/// ([`crate::go::network::weights::Weights::with_precision`]), since its weights are
/// converted once there, for every thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Precision {
    /// Float32 throughout, on every kernel.
    #[default]
    F32,
    /// Weights and activations rounded to bfloat16, sums in float32: the convolutions to
    /// 16 to 96 channels on cores with AVX-512 BF16, under [`Kernel::Best`] and
    /// [`Kernel::Avx512`] (`Best` on AMX's tiles where the core has them, and there to any
    /// multiple of 16 channels); float32 elsewhere (the other kernels, other widths, other
    /// cores).
    Bf16,
    /// Weights in 8 bits (a scale per output channel), activations in 8 bits (a scale per
    /// position), sums in 32-bit integers: the convolutions to 16 to 96 channels that read
    /// a ReLU's output (all but the stem, whose inputs may be negative) on cores with
    /// AVX-512 VNNI, under [`Kernel::Best`] and [`Kernel::Avx512`] (`Best` on AMX's tiles
    /// from 64 channels on, where the core has them); float32 elsewhere.
    Int8,
}

impl Precision {
    /// What `--net-precision` names: `f32`, `bf16` or `int8`.
    pub fn parse(name: &str) -> Option<Precision> {
        match name {
            "f32" => Some(Precision::F32),
            "bf16" => Some(Precision::Bf16),
            "int8" => Some(Precision::Int8),
            _ => None,
        }
    }

    /// Whether this core computes in it (else its net runs in float32).
    pub fn supported(self) -> bool {
        match self {
            Precision::F32 => true,
            Precision::Bf16 => avx512_bf16_on_this_core(),
            Precision::Int8 => avx512_vnni_on_this_core(),
        }
    }
}

/// Whether this core has AVX-512 with its bfloat16 instructions (the `bf16` kernel's).
pub fn avx512_bf16_on_this_core() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bf16")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this core has AVX-512 with its VNNI instructions (the `int8` kernel's).
pub fn avx512_vnni_on_this_core() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vnni")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A vector unit the direct kernel runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    Avx2,
    Avx512,
}

impl Isa {
    fn lanes(self) -> usize {
        match self {
            Isa::Avx2 => 8,
            Isa::Avx512 => 16,
        }
    }

    /// The widest output it takes, in vectors.
    fn max_vectors(self) -> usize {
        match self {
            Isa::Avx2 => 8,
            Isa::Avx512 => 6,
        }
    }

    /// Whether this core has it.
    fn on_this_core(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            match self {
                Isa::Avx2 => {
                    std::arch::is_x86_feature_detected!("avx2")
                        && std::arch::is_x86_feature_detected!("fma")
                }
                Isa::Avx512 => std::arch::is_x86_feature_detected!("avx512f"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = self;
            false
        }
    }

    pub(super) fn fits(self, outputs: usize) -> bool {
        outputs.is_multiple_of(self.lanes())
            && (1..=self.max_vectors()).contains(&(outputs / self.lanes()))
    }
}

impl Kernel {
    /// Whether this core can run it (for outputs it takes).
    pub fn supported(self) -> bool {
        match self {
            Kernel::Best | Kernel::Gemm => true,
            Kernel::Avx2 => Isa::Avx2.on_this_core(),
            Kernel::Avx512 => Isa::Avx512.on_this_core(),
            Kernel::Winograd2x2 | Kernel::Winograd4x4 => winograd::on_this_core(),
        }
    }

    /// The form of Winograd's method it computes float32 3x3 convolutions in on a board of
    /// side `size` (where the width fits), if it does on this core.
    pub fn winograd_form(self, size: usize) -> Option<Form> {
        let form = match self {
            Kernel::Best => Form::for_board(size),
            Kernel::Winograd2x2 => Form::F2,
            Kernel::Winograd4x4 => Form::F4,
            _ => return None,
        };
        winograd::on_this_core().then_some(form)
    }

    /// Whether it runs a bfloat16 net's convolutions in bfloat16 (where the width fits):
    /// the kernels on AVX-512, on a core with its bfloat16 instructions.
    pub fn runs_bf16(self) -> bool {
        matches!(
            self,
            Kernel::Best | Kernel::Avx512 | Kernel::Winograd2x2 | Kernel::Winograd4x4
        ) && avx512_bf16_on_this_core()
    }

    /// Whether it runs an 8-bit net's 3x3 convolutions by F(2x2, 3x3) in 8 bits (where the
    /// width and the inputs fit), on a core with AVX-512 VNNI: [`Kernel::Winograd2x2`]
    /// alone, since `Best`'s direct 8-bit kernel measured faster (`winograd_int8`).
    pub fn runs_int8_winograd(self) -> bool {
        matches!(self, Kernel::Winograd2x2) && avx512_vnni_on_this_core()
    }

    /// Whether it runs an 8-bit net's convolutions in 8 bits (where the width and the
    /// inputs fit): the kernels on AVX-512, on a core with its VNNI instructions.
    pub fn runs_int8(self) -> bool {
        matches!(
            self,
            Kernel::Best | Kernel::Avx512 | Kernel::Winograd2x2 | Kernel::Winograd4x4
        ) && avx512_vnni_on_this_core()
    }

    /// The vector unit that computes a convolution to `outputs` channels, if any (else the
    /// GEMM does).
    pub fn direct_for(self, outputs: usize) -> Option<Isa> {
        let choices: &[Isa] = match self {
            Kernel::Best | Kernel::Winograd2x2 | Kernel::Winograd4x4 => &[Isa::Avx512, Isa::Avx2],
            Kernel::Gemm => &[],
            Kernel::Avx2 => &[Isa::Avx2],
            Kernel::Avx512 => &[Isa::Avx512],
        };
        choices
            .iter()
            .copied()
            .find(|isa| isa.fits(outputs) && isa.on_this_core())
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

/// `out` (`positions * points` rows of `outputs`) = the convolution of `job.input`, on
/// `isa`.
///
/// # Panics
/// If this core lacks `isa` or it does not take `job.outputs` (see [`Kernel::direct_for`]),
/// or the slices are shorter than the shapes say: the caller's mistakes, never the input's.
/// AVX-512's register plan, the same for every precision's kernel: for `V` 16-lane output
/// vectors a tile of `R` points, so that the `V x R` accumulators and the `V` weight
/// vectors fit the 32 registers. Calls `run::<V, R>(args)` for `vectors` output vectors
/// (6 and more: 6).
macro_rules! avx512_tile_plan {
    ($vectors:expr, $($run:ident)::+ ($($arg:expr),*)) => {
        match $vectors {
            1 => $($run)::+::<1, 16>($($arg),*),
            2 => $($run)::+::<2, 12>($($arg),*),
            3 => $($run)::+::<3, 8>($($arg),*),
            4 => $($run)::+::<4, 6>($($arg),*),
            5 => $($run)::+::<5, 4>($($arg),*),
            _ => $($run)::+::<6, 4>($($arg),*),
        }
    };
}
pub(crate) use avx512_tile_plan;

pub fn convolve(job: &Job, isa: Isa, zeros: &mut Vec<f32>, out: &mut Vec<f32>) {
    assert!(
        isa.fits(job.outputs) && isa.on_this_core(),
        "the direct kernel cannot run here"
    );
    let points = job.taps.len();
    let rows = job.positions * points;
    let taps = job.kernel * job.kernel;
    assert!(job.kernel == 1 || job.kernel == 3);
    assert!(job.input.len() >= rows * job.inputs);
    assert!(job.weights.len() == taps * job.inputs * job.outputs);
    assert!(job.bias.len() == job.outputs);
    zeros.clear();
    zeros.resize(job.inputs, 0.0);
    // Every row is stored below, so `out` is only sized, not cleared.
    out.truncate(rows * job.outputs);
    out.resize(rows * job.outputs, 0.0);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the assert above checked the core's features and the output width; the
    // others bound every row the kernels read or write.
    unsafe {
        match (isa, job.outputs / isa.lanes()) {
            (Isa::Avx512, n) => avx512_tile_plan!(n, avx512::run(job, zeros, out)),
            (Isa::Avx2, 1) => avx2::run::<1, 6>(job, zeros, out),
            (Isa::Avx2, 2) => avx2::run::<2, 4>(job, zeros, out),
            (Isa::Avx2, 3) => avx2::run::<3, 3>(job, zeros, out),
            (Isa::Avx2, 4) => avx2::run::<4, 2>(job, zeros, out),
            (Isa::Avx2, 5) => avx2::run::<5, 2>(job, zeros, out),
            (Isa::Avx2, 6) => avx2::run::<6, 2>(job, zeros, out),
            (Isa::Avx2, 7) => avx2::run::<7, 1>(job, zeros, out),
            (Isa::Avx2, _) => avx2::run::<8, 1>(job, zeros, out),
        }
    }
}

/// The input row each tap reads for each of the `R` points of the tile starting at output
/// row `start` (`input` holds rows of `stride` elements, `positions` boards of `taps.len()`
/// points); past the last row the tile repeats it (computed, never stored).
#[cfg(target_arch = "x86_64")]
pub(super) fn tile_sources<T, const R: usize>(
    taps: &[[u32; 9]],
    kernel: usize,
    positions: usize,
    input: &[T],
    stride: usize,
    start: usize,
    zeros: &[T],
) -> [[*const T; R]; 9] {
    let points = taps.len();
    let rows = positions * points;
    let mut sources = [[zeros.as_ptr(); R]; 9];
    for r in 0..R {
        let row = (start + r).min(rows - 1);
        let (position, p) = (row / points, row % points);
        for (t, tap) in sources.iter_mut().enumerate().take(kernel * kernel) {
            let q = if kernel == 1 { p as u32 } else { taps[p][t] };
            if q != u32::MAX {
                tap[r] = input[(position * points + q as usize) * stride..].as_ptr();
            }
        }
    }
    sources
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::{Job, tile_sources};

    /// `V` vectors of outputs for a tile of `R` points at a time: `R * V` accumulators
    /// (at most 24 of the 32 registers), the rest for the weights and the broadcast input.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn run<const V: usize, const R: usize>(
        job: &Job,
        zeros: &[f32],
        out: &mut [f32],
    ) {
        let rows = job.positions * job.taps.len();
        let (cin, cout) = (job.inputs, job.outputs);
        let taps = job.kernel * job.kernel;
        let weights = job.weights.as_ptr();
        let mut start = 0;
        while start < rows {
            let sources = tile_sources::<f32, R>(
                job.taps,
                job.kernel,
                job.positions,
                job.input,
                job.inputs,
                start,
                zeros,
            );
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
                        for (a, source) in acc.iter_mut().zip(tap) {
                            let b = _mm512_set1_ps(*source.add(i));
                            for (x, w) in a.iter_mut().zip(&w) {
                                *x = _mm512_fmadd_ps(b, *w, *x);
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

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{Job, tile_sources};

    /// `V` vectors of outputs for a tile of `R` points: with 16 registers, `R * V`
    /// accumulators (at most 12), `R` broadcast inputs and one weight vector at a time.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn run<const V: usize, const R: usize>(
        job: &Job,
        zeros: &[f32],
        out: &mut [f32],
    ) {
        let rows = job.positions * job.taps.len();
        let (cin, cout) = (job.inputs, job.outputs);
        let taps = job.kernel * job.kernel;
        let weights = job.weights.as_ptr();
        let mut start = 0;
        while start < rows {
            let sources = tile_sources::<f32, R>(
                job.taps,
                job.kernel,
                job.positions,
                job.input,
                job.inputs,
                start,
                zeros,
            );
            // SAFETY (the block): as in the AVX-512 kernel.
            unsafe {
                let mut acc = [[_mm256_setzero_ps(); V]; R];
                for a in acc.iter_mut() {
                    for (v, x) in a.iter_mut().enumerate() {
                        *x = _mm256_loadu_ps(job.bias.as_ptr().add(8 * v));
                    }
                }
                for (t, tap) in sources.iter().enumerate().take(taps) {
                    let w_tap = weights.add(t * cin * cout);
                    for i in 0..cin {
                        let w_row = w_tap.add(i * cout);
                        let mut b = [_mm256_setzero_ps(); R];
                        for (x, source) in b.iter_mut().zip(tap) {
                            *x = _mm256_set1_ps(*source.add(i));
                        }
                        for v in 0..V {
                            let w = _mm256_loadu_ps(w_row.add(8 * v));
                            for (a, b) in acc.iter_mut().zip(&b) {
                                a[v] = _mm256_fmadd_ps(*b, w, a[v]);
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
                        _mm256_storeu_ps(dst.add(8 * v), *x);
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
    use crate::rng::Rng;

    /// The convolution by its definition, one output at a time.
    pub(crate) fn naive(job: &Job) -> Vec<f32> {
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

    /// `n` values from -1 to 1 in steps of 0.001: the kernels' tests' operands.
    pub(crate) fn uniform(rng: &mut Rng, n: usize) -> Vec<f32> {
        (0..n)
            .map(|_| (rng.below(2001) as f32 - 1000.0) / 1000.0)
            .collect()
    }

    /// Each point's 3x3 neighbourhood, as the model builds it.
    pub(crate) fn neighbourhoods(geo: &Geometry) -> Vec<[u32; 9]> {
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
    fn each_kernel_takes_the_widths_its_vectors_fill() {
        assert_eq!(Kernel::Gemm.direct_for(48), None);
        for (kernel, isa) in [(Kernel::Avx512, Isa::Avx512), (Kernel::Avx2, Isa::Avx2)] {
            let here = isa.on_this_core();
            assert_eq!(kernel.supported(), here);
            assert_eq!(kernel.direct_for(48), here.then_some(isa));
            // The heads' 1x1 products to 24 and 1 channels.
            assert_eq!(kernel.direct_for(1), None);
            assert_eq!(kernel.direct_for(24).is_some(), here && isa == Isa::Avx2);
        }
        let best = Kernel::Best.direct_for(48);
        if Isa::Avx512.on_this_core() {
            assert_eq!(best, Some(Isa::Avx512));
        } else if Isa::Avx2.on_this_core() {
            assert_eq!(best, Some(Isa::Avx2));
        } else {
            assert_eq!(best, None);
        }
    }

    #[test]
    fn agrees_with_the_definition() {
        let isas: Vec<Isa> = [Isa::Avx512, Isa::Avx2]
            .into_iter()
            .filter(|isa| isa.on_this_core())
            .collect();
        if isas.is_empty() {
            eprintln!("neither AVX-512 nor AVX2 on this core: the GEMM does it all");
            return;
        }
        let mut rng = Rng::new(11);
        let shapes = [
            (9, Topology::Plane, 3, 21, 48, 1),
            (9, Topology::Plane, 3, 48, 48, 3),
            (19, Topology::Plane, 3, 48, 96, 1),
            (9, Topology::Torus, 3, 32, 32, 2),
            (7, Topology::Plane, 3, 5, 80, 1),
            (13, Topology::Plane, 1, 48, 16, 2),
            (5, Topology::Torus, 1, 64, 64, 1),
            (9, Topology::Plane, 3, 48, 8, 2),
            (9, Topology::Plane, 3, 7, 24, 1),
            (11, Topology::Torus, 3, 16, 40, 1),
        ];
        let (mut zeros, mut out) = (Vec::new(), Vec::new());
        for (size, topology, kernel, inputs, outputs, positions) in shapes {
            let geo = Geometry::get(size, topology).unwrap();
            let taps = neighbourhoods(geo);
            let weights = uniform(&mut rng, kernel * kernel * inputs * outputs);
            let bias = uniform(&mut rng, outputs);
            let input = uniform(&mut rng, positions * geo.num_points() * inputs);
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
            let want = naive(&job);
            for &isa in &isas {
                if !isa.fits(outputs) {
                    continue;
                }
                convolve(&job, isa, &mut zeros, &mut out);
                assert_eq!(out.len(), want.len());
                for (j, (got, want)) in out.iter().zip(&want).enumerate() {
                    assert!(
                        (got - want).abs() <= 1e-4 * (1.0 + want.abs()),
                        "{isa:?} {size}x{size} {topology:?} {kernel}x{kernel} \
                         {inputs}->{outputs} x{positions}: output {j} is {got}, by the \
                         definition {want}"
                    );
                }
            }
        }
    }
}

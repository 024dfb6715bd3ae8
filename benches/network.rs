//! The network's speed on this CPU, one thread: evaluations a second on 9x9 and 19x19 at
//! batch 1 and 8 on each convolution kernel the core runs (`Best`, the one play uses: on
//! AVX-512 the 3x3 convolutions by Winograd's method in the board's form, the rest on the
//! direct kernel; `Winograd2x2` and `Winograd4x4`, each form on every board; `Avx512` and
//! `Avx2`, the direct kernel alone on 16 and 8 lanes; `Gemm`, the GEMM crate)
//! in float32, and in bfloat16 and 8 bits where the core has AVX-512 BF16 and
//! VNNI (`Best Bf16`, `Best Int8`: the same net made ready for each; on a core with AMX
//! both run on its tiles and `Avx512 Bf16`, `Avx512 Int8` on the vectors; `Winograd2x2 Int8`, the
//! 3x3 by F(2x2, 3x3) in 8 bits, which `Best` leaves to the direct kernel), the inputs' encoding
//! (ladders read) on its own, and the multiply-adds' rate beside the core's peak for the
//! precision (a loop of independent fused multiply-adds, of `vdpbf16ps` or of `vpdpbusd`,
//! the most the core can do) and a large matrix product (the most the GEMM crate gets from
//! it). The rate counts a direct convolution's multiply-adds, so Winograd's, which does
//! fewer, can pass the peak. With other nets given, the built-in net runs first, for
//! comparison within the same run.
//!
//! `scripts/bench net [WEIGHTS.safetensors ...]` (default: the built-in net);
//! `BENCH_SECONDS` sets the time per measurement (default 2).

use std::hint::black_box;
use std::time::{Duration, Instant};

use shicho::go::network::amx;
use shicho::go::network::direct::{Kernel, Precision};
use shicho::go::network::inputs::{HISTORY, Inputs, Position};
use shicho::go::network::model::Workspace;
use shicho::go::network::weights::Weights;
use shicho::go::search::playout::{Recent, random_move};
use shicho::{Board, Color, Geometry, Rng, Topology};

fn seconds() -> Duration {
    let s: f64 = std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    Duration::from_secs_f64(s.max(0.05))
}

fn run_for(budget: Duration, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut calls = 0u64;
    while start.elapsed() < budget {
        f();
        calls += 1;
    }
    calls as f64 / start.elapsed().as_secs_f64()
}

/// Positions from random games, `plies` moves in.
fn positions(geo: &'static Geometry, plies: usize, count: usize) -> Vec<Inputs> {
    let mut rng = Rng::new(7);
    (0..count)
        .map(|_| {
            let mut b = Board::new(geo);
            let mut c = Color::Black;
            let recent = Recent::new(&b);
            let mut history = [None; HISTORY];
            for _ in 0..plies {
                let m = random_move(&b, c, &mut rng, &recent);
                b.play_unchecked(c, m);
                history.rotate_right(1);
                history[0] = m.point();
                c = c.other();
            }
            let mut inputs = Inputs::default();
            inputs.encode(&Position {
                board: &b,
                to_move: c,
                history,
                last_was_pass: false,
                komi: 7.5,
            });
            inputs
        })
        .collect()
}

/// GFLOP/s of independent fused multiply-adds on the widest vectors the core has (16 lanes
/// with AVX-512, else 8 with AVX2 and FMA: a matrix product on AVX-512 outruns the 8-lane
/// figure), and the lanes: the core's peak. 0 where the core has neither.
fn peak_gflops(budget: Duration) -> (f64, usize) {
    #[cfg(target_arch = "x86_64")]
    {
        let (chains, lanes): (unsafe fn() -> f32, usize) = if is_x86_feature_detected!("avx512f") {
            (fma_chains_16, 16)
        } else if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
            (fma_chains, 8)
        } else {
            return (0.0, 0);
        };
        // SAFETY: the features the chosen loop needs were detected just above.
        let rate = run_for(budget, || {
            black_box(unsafe { chains() });
        });
        (
            rate * FMA_ROUNDS as f64 * (FMA_CHAINS * lanes * 2) as f64 / 1e9,
            lanes,
        )
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = budget;
        (0.0, 0)
    }
}

const FMA_CHAINS: usize = 12;
const FMA_ROUNDS: usize = 10_000;

/// `FMA_ROUNDS` rounds of `FMA_CHAINS` independent 8-lane fused multiply-adds: enough
/// chains in flight to cover the instruction's latency on both of a core's FMA units.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn fma_chains() -> f32 {
    use std::arch::x86_64::*;
    let mul = _mm256_set1_ps(black_box(0.999_999));
    let add = _mm256_set1_ps(black_box(1e-7));
    let mut acc = [_mm256_set1_ps(1.0); FMA_CHAINS];
    for _ in 0..FMA_ROUNDS {
        for a in acc.iter_mut() {
            *a = _mm256_fmadd_ps(*a, mul, add);
        }
    }
    let mut sum = _mm256_setzero_ps();
    for a in acc {
        sum = _mm256_add_ps(sum, a);
    }
    let mut lanes = [0f32; 8];
    // SAFETY: `lanes` holds the 8 floats the store writes.
    unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), sum) };
    lanes.iter().sum()
}

/// `fma_chains` on 16-lane vectors.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn fma_chains_16() -> f32 {
    use std::arch::x86_64::*;
    let mul = _mm512_set1_ps(black_box(0.999_999));
    let add = _mm512_set1_ps(black_box(1e-7));
    let mut acc = [_mm512_set1_ps(1.0); FMA_CHAINS];
    for _ in 0..FMA_ROUNDS {
        for a in acc.iter_mut() {
            *a = _mm512_fmadd_ps(*a, mul, add);
        }
    }
    let mut sum = _mm512_setzero_ps();
    for a in acc {
        sum = _mm512_add_ps(sum, a);
    }
    _mm512_reduce_add_ps(sum)
}

/// GFLOP/s of independent `vdpbf16ps` (16 lanes, two multiply-adds each) where the core
/// has AVX-512 BF16: the peak in bfloat16. 0 elsewhere.
fn peak_bf16_gflops(budget: Duration) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        if !(is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bf16")) {
            return 0.0;
        }
        // SAFETY: the features the loop needs were detected just above.
        let rate = run_for(budget, || {
            black_box(unsafe { dpbf16_chains() });
        });
        rate * FMA_ROUNDS as f64 * (FMA_CHAINS * 16 * 2 * 2) as f64 / 1e9
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = budget;
        0.0
    }
}

/// GOP/s (a multiply-add counted as two, as for floats) of independent `vpdpbusd` (16
/// lanes, four multiply-adds each) where the core has AVX-512 VNNI: the peak in 8 bits. 0
/// elsewhere.
fn peak_int8_gops(budget: Duration) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        if !(is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512vnni")) {
            return 0.0;
        }
        // SAFETY: the features the loop needs were detected just above.
        let rate = run_for(budget, || {
            black_box(unsafe { dpbusd_chains() });
        });
        rate * FMA_ROUNDS as f64 * (FMA_CHAINS * 16 * 4 * 2) as f64 / 1e9
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = budget;
        0.0
    }
}

/// `fma_chains_16` with `vpdpbusd`: each lane adds four products a round.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vnni")]
unsafe fn dpbusd_chains() -> i32 {
    use std::arch::x86_64::*;
    let a = _mm512_set1_epi8(black_box(3));
    let b = _mm512_set1_epi8(black_box(-1));
    let mut acc = [_mm512_set1_epi32(1); FMA_CHAINS];
    for _ in 0..FMA_ROUNDS {
        for x in acc.iter_mut() {
            *x = _mm512_dpbusd_epi32(*x, a, b);
        }
    }
    let mut sum = _mm512_setzero_si512();
    for x in acc {
        sum = _mm512_add_epi32(sum, x);
    }
    _mm512_reduce_add_epi32(sum)
}

/// `fma_chains_16` with `vdpbf16ps`: each lane adds two products a round.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bf16")]
unsafe fn dpbf16_chains() -> f32 {
    use std::arch::x86_64::*;
    let a = _mm512_cvtne2ps_pbh(
        _mm512_set1_ps(black_box(0.999)),
        _mm512_set1_ps(black_box(1e-3)),
    );
    let b = _mm512_cvtne2ps_pbh(
        _mm512_set1_ps(black_box(1e-3)),
        _mm512_set1_ps(black_box(0.999)),
    );
    let mut acc = [_mm512_set1_ps(1.0); FMA_CHAINS];
    for _ in 0..FMA_ROUNDS {
        for x in acc.iter_mut() {
            *x = _mm512_dpbf16_ps(*x, a, b);
        }
    }
    let mut sum = _mm512_setzero_ps();
    for x in acc {
        sum = _mm512_add_ps(sum, x);
    }
    _mm512_reduce_add_ps(sum)
}

/// GFLOP/s of a 1024-cube matrix product through the GEMM crate.
fn gemm_gflops(budget: Duration) -> f64 {
    let n = 1024;
    let a = vec![1.0f32; n * n];
    let b = vec![0.5f32; n * n];
    let mut c = vec![0.0f32; n * n];
    let rate = run_for(budget, || unsafe {
        matrixmultiply::sgemm(
            n,
            n,
            n,
            1.0,
            a.as_ptr(),
            n as isize,
            1,
            b.as_ptr(),
            n as isize,
            1,
            0.0,
            c.as_mut_ptr(),
            n as isize,
            1,
        );
    });
    rate * 2.0 * (n * n * n) as f64 / 1e9
}

/// A net made ready for a lower precision, and the core's peak in it.
type LowerPrecision = (Weights, f64);

fn main() {
    let budget = seconds();
    let files: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    // The built-in net always, so that another is measured beside it in the same run.
    let mut nets: Vec<(String, Weights)> = vec![("built-in".into(), Weights::builtin().clone())];
    for f in &files {
        let bytes = std::fs::read(f).unwrap_or_else(|e| panic!("{f}: {e}"));
        let w = Weights::from_bytes(&bytes).unwrap_or_else(|e| panic!("{f}: {e}"));
        nets.push((f.clone(), w));
    }
    let (peak, lanes) = peak_gflops(budget);
    println!(
        "core peak ({lanes}-lane fused multiply-adds): {peak:.1} GFLOP/s; 1024^3 matrix product: {:.1} GFLOP/s",
        gemm_gflops(budget)
    );
    let peak_bf16 = peak_bf16_gflops(budget);
    if peak_bf16 > 0.0 {
        println!("core peak in bfloat16 (16-lane vdpbf16ps): {peak_bf16:.1} GFLOP/s");
    }
    let peak_amx = amx::peak(budget, false);
    if let Some(peak) = peak_amx {
        println!("core peak in bfloat16 on AMX's tiles (tdpbf16ps): {peak:.1} GFLOP/s");
    }
    let peak_amx_int8 = amx::peak(budget, true);
    if let Some(peak) = peak_amx_int8 {
        println!("core peak in 8 bits on AMX's tiles (tdpbusd): {peak:.1} GOP/s");
    }
    let peak_int8 = peak_int8_gops(budget);
    if peak_int8 > 0.0 {
        println!("core peak in 8 bits (16-lane vpdpbusd): {peak_int8:.1} GOP/s");
    }
    // Each net in every precision this core has, beside the float32 peak for float32's.
    let nets: Vec<(String, Weights, Vec<LowerPrecision>)> = nets
        .into_iter()
        .map(|(name, w)| {
            let mut lower = vec![];
            for (precision, peak) in [(Precision::Bf16, peak_bf16), (Precision::Int8, peak_int8)] {
                if precision.supported() {
                    lower.push((w.clone().with_precision(precision), peak));
                }
            }
            (name, w, lower)
        })
        .collect();
    for (size, plies) in [(9, 40), (19, 150)] {
        let geo = Geometry::get(size, Topology::Plane).unwrap();
        let inputs = positions(geo, plies, 8);
        let mut scratch = Inputs::default();
        let mut b = Board::new(geo);
        let mut rng = Rng::new(3);
        let recent = Recent::new(&b);
        let mut c = Color::Black;
        for _ in 0..plies {
            let m = random_move(&b, c, &mut rng, &recent);
            b.play_unchecked(c, m);
            c = c.other();
        }
        let encode = run_for(budget, || {
            scratch.encode(&Position {
                board: &b,
                to_move: c,
                history: [None; HISTORY],
                last_was_pass: false,
                komi: 7.5,
            });
            black_box(&scratch);
        });
        println!("{size}x{size}: inputs encoded {encode:.0}/s");
        for (name, f32_net, lower) in &nets {
            let flop = 2.0 * f32_net.multiply_adds(geo.num_points()) as f64;
            // Each kernel this core runs, side by side: the one play uses (Best) and the
            // ones it stands in for, then the lower precisions this core has.
            let mut runs = vec![];
            for kernel in [
                Kernel::Best,
                Kernel::Winograd2x2,
                Kernel::Winograd4x4,
                Kernel::Avx512,
                Kernel::Avx2,
                Kernel::Gemm,
            ] {
                if kernel.supported() {
                    runs.push((kernel, f32_net, peak));
                }
            }
            for (w, peak) in lower {
                let on_tiles = match w.precision {
                    Precision::Bf16 => amx::takes_bf16(Kernel::Best),
                    Precision::Int8 => amx::takes_int8(Kernel::Best),
                    Precision::F32 => false,
                };
                if on_tiles {
                    // Best takes AMX's tiles; Avx512 the vectors it stands in for.
                    let tiles_peak = match w.precision {
                        Precision::Int8 => peak_amx_int8,
                        _ => peak_amx,
                    };
                    runs.push((Kernel::Best, w, tiles_peak.unwrap_or(*peak)));
                    runs.push((Kernel::Avx512, w, *peak));
                } else {
                    runs.push((Kernel::Best, w, *peak));
                }
                if w.precision == Precision::Int8 && Kernel::Winograd2x2.runs_int8_winograd() {
                    // The 3x3 by F(2x2) in 8 bits, which `Best` leaves for the direct kernel.
                    runs.push((Kernel::Winograd2x2, w, *peak));
                }
            }
            for (kernel, w, peak) in runs {
                let precision = w.precision;
                let mut ws = Workspace::with_kernel(kernel);
                for batch in [1, 8] {
                    let refs: Vec<&Inputs> = inputs.iter().take(batch).collect();
                    let rate = run_for(budget, || {
                        black_box(w.evaluate(geo, &refs, &mut ws));
                    }) * batch as f64;
                    let gflops = rate * flop / 1e9;
                    println!(
                        "{size}x{size} {name} {kernel:?} {precision:?} batch {batch}: {rate:.0} \
                         evaluations/s, {gflops:.1} GFLOP/s ({:.0}% of the core's peak for \
                         {precision:?})",
                        100.0 * gflops / peak.max(1e-9)
                    );
                }
            }
        }
    }
}

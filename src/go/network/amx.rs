//! The convolutions of bfloat16 and 8-bit nets on AMX, the tile unit of Intel's Sapphire
//! Rapids and later cores: one `tdpbf16ps` multiplies a 16 x 32 tile of bfloat16 inputs by a
//! 32 x 16 tile of bfloat16 weights into a 16 x 16 tile of float32 sums, 8,192 multiply-adds
//! where AVX-512's `vdpbf16ps` does 32; one `tdpbusd` does the same with 16 x 64 unsigned
//! 8-bit inputs and 64 x 16 signed 8-bit weights into 32-bit sums, twice the multiply-adds.
//! A core measured 3.2 TFLOP/s on the bfloat16 products alone against 240 GFLOP/s for
//! float32 on AVX-512 (doc/benchmarks.md).
//!
//! The numbers are those of the vector kernels `bf16` and `int8`: the same weights (their
//! pairs and quads of inputs fill a 32-bit lane, as a tile's row wants them), the same
//! activations (rounded or quantized once a layer, by those modules), exact 32-bit integer
//! sums and float32 ones in another order.
//!
//! Tiles want rows at a fixed stride, so each layer's input is first gathered into one row
//! per output point holding every tap's lanes (im2col, as the GEMM path gathers floats), its
//! length rounded up to whole tiles of 16 lanes with zeros; the weights get the same zero
//! rows. Rows of points past the last are zeros too, their sums never kept. Both operands
//! are stored tile by tile, each tile's 1 KB in one piece, in the order the products read
//! them: with a tile's rows a whole matrix row apart the products waited longer on their
//! loads.
//!
//! Rust has no stable AMX intrinsics, so the instructions are written with `asm!`. The
//! compiler never touches the tile registers (LLVM allocates them only for its own AMX
//! intrinsics, which nothing here uses), so they hold their values from one `asm!` block to
//! the next; the operating system saves them with the thread's other state. Rust's rules
//! for `asm!` promise nothing about registers between blocks: one block per pass over a
//! pair of tiles would, at the price of writing each shape's loop in assembly.

use super::bf16::{self, PairJob};
use super::direct::Kernel;
use super::int8::{self, QuadJob, QuantizedWeights};

/// 32-bit lanes (pairs or quads of input channels) a tile's row holds: 64 bytes.
const TILE_LANES: usize = 16;
/// Rows of a tile: output points, or lanes of inputs in a weight tile.
const TILE_ROWS: usize = 16;
/// Output channels a tile's row holds (64 bytes of 32-bit sums).
const TILE_OUTPUTS: usize = 16;
/// A tile's 16 rows of 16 lanes.
const TILE: usize = TILE_ROWS * TILE_LANES;

/// What this core and the operating system allow, asked once.
#[derive(Clone, Copy, Default)]
struct Support {
    bf16: bool,
    int8: bool,
}

fn support() -> Support {
    static SUPPORT: std::sync::OnceLock<Support> = std::sync::OnceLock::new();
    *SUPPORT.get_or_init(detect)
}

/// Whether this core has AMX's tiles with their bfloat16 products, and the operating system
/// lets this process use them.
pub fn on_this_core() -> bool {
    support().bf16
}

/// Whether this core has AMX's tiles with their 8-bit products, and the operating system
/// lets this process use them.
pub fn int8_on_this_core() -> bool {
    support().int8
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn detect() -> Support {
    use std::arch::x86_64::{__cpuid, __cpuid_count};
    // SAFETY: CPUID exists on every x86_64 core; leaf 7 is read only where leaf 0 says the
    // core has it.
    #[allow(unused_unsafe)]
    let max_leaf = unsafe { __cpuid(0).eax };
    if max_leaf < 7 {
        return Support::default();
    }
    #[allow(unused_unsafe)]
    let leaf7 = unsafe { __cpuid_count(7, 0) };
    let (bf16, tile, int8) = (
        leaf7.edx >> 22 & 1,
        leaf7.edx >> 24 & 1,
        leaf7.edx >> 25 & 1,
    );
    // The gathering and scaling around the tiles run on AVX-512, which every core with AMX
    // has, unless a hypervisor or the OS hides it.
    if tile == 0 || !std::arch::is_x86_feature_detected!("avx512f") {
        return Support::default();
    }
    // Linux gives the tiles' 8 KB of state only to a process that asks for it; without
    // permission the first tile instruction faults. The request is for the whole process,
    // so every search thread has it once one thread asked.
    const ARCH_REQ_XCOMP_PERM: libc::c_long = 0x1023;
    const XFEATURE_XTILEDATA: libc::c_long = 18;
    // SAFETY: arch_prctl with this request reads no memory of ours.
    let allowed = unsafe {
        libc::syscall(
            libc::SYS_arch_prctl,
            ARCH_REQ_XCOMP_PERM,
            XFEATURE_XTILEDATA,
        ) == 0
    };
    Support {
        bf16: allowed && bf16 == 1,
        int8: allowed && int8 == 1,
    }
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn detect() -> Support {
    Support::default()
}

/// Whether `kernel` runs a bfloat16 net's convolutions on the tiles rather than AVX-512's
/// vectors: [`Kernel::Best`], on a core with AMX's bfloat16 products; [`Kernel::Avx512`]
/// names the vectors alone.
pub fn takes_bf16(kernel: Kernel) -> bool {
    kernel == Kernel::Best && kernel.runs_bf16() && on_this_core()
}

/// Whether `kernel` runs an 8-bit net's convolutions on the tiles (those [`int8_pays`]
/// for) rather than AVX-512 VNNI's vectors: [`Kernel::Best`], on a core with AMX's 8-bit
/// products.
pub fn takes_int8(kernel: Kernel) -> bool {
    kernel == Kernel::Best && kernel.runs_int8() && int8_on_this_core()
}

/// Whether the kernels take a convolution to `outputs` channels: whole tiles of 16, any
/// number of them (AVX-512's kernels stop at 96).
pub fn fits(outputs: usize) -> bool {
    outputs > 0 && outputs.is_multiple_of(TILE_OUTPUTS)
}

/// Whether an 8-bit convolution to `outputs` channels goes to the tiles rather than to
/// AVX-512 VNNI's kernel: from 64 channels on. Below, gathering the taps costs more than
/// the tiles save: `e9`'s 48 channels ran at 7,745 evaluations a second on the tiles against
/// 8,854 on the vectors (9x9, batch 1), where 64 channels ran at 7,086 against 5,905 and 96
/// at 4,146 against 2,384 (doc/benchmarks.md). In bfloat16 the tiles win at every width.
pub fn int8_pays(outputs: usize) -> bool {
    fits(outputs) && outputs >= 64
}

/// The weights from the rows of `bf16::pack_weights` or `int8::quantize_weights` (tap then
/// lane, a column per output; `lanes` a tap) in AMX's tiles: output tile `n`'s lane tiles
/// one after the other, tile `(k, n)` at `(n * lane_tiles + k) * 256`, its rows lanes
/// `16k..16k + 16`, its columns outputs `16n..16n + 16`, zeros past the last lane.
pub fn pack_weights(taps: usize, lanes: usize, outputs: usize, rows: &[u32]) -> Vec<u32> {
    let used = taps * lanes;
    assert!(fits(outputs) && rows.len() == used * outputs);
    let k_tiles = used.div_ceil(TILE_LANES);
    let mut tiles = vec![0u32; outputs / TILE_OUTPUTS * k_tiles * TILE];
    for (n, by_output) in tiles.chunks_exact_mut(k_tiles * TILE).enumerate() {
        for (k, tile) in by_output.chunks_exact_mut(TILE).enumerate() {
            for (r, row) in tile.chunks_exact_mut(TILE_OUTPUTS).enumerate() {
                let lane = k * TILE_LANES + r;
                if lane < used {
                    let from = lane * outputs + n * TILE_OUTPUTS;
                    row.copy_from_slice(&rows[from..from + TILE_OUTPUTS]);
                }
            }
        }
    }
    tiles
}

/// An 8-bit convolution's weights in AMX's tiles, with their scales.
pub fn pack_int8_weights(
    taps: usize,
    inputs: usize,
    outputs: usize,
    q: &QuantizedWeights,
) -> QuantizedWeights {
    QuantizedWeights {
        values: pack_weights(taps, int8::quads(inputs), outputs, &q.values),
        scales: q.scales.clone(),
    }
}

/// What one thread reuses from layer to layer.
#[derive(Default)]
pub struct Buffers {
    /// Every output point's taps, in tiles: point tile `m`'s lane tiles one after the other.
    gathered: Vec<u32>,
    /// The sums' starting values, 16 rows of them: the bias (bfloat16), zeros (8 bits).
    start_rows: Vec<u32>,
    /// The 8-bit products' sums.
    sums: Vec<i32>,
}

/// One convolution as the tiles see it.
struct Operands<'a> {
    taps: &'a [[u32; 9]],
    kernel: usize,
    positions: usize,
    /// 32-bit lanes an input row has (pairs or quads).
    lanes: usize,
    outputs: usize,
    /// From [`pack_weights`].
    weights: &'a [u32],
    /// `positions * points` rows of `lanes`, then a row of zeros.
    input: &'a [u32],
}

impl Operands<'_> {
    fn rows(&self) -> usize {
        self.positions * self.taps.len()
    }

    fn k_tiles(&self) -> usize {
        (self.kernel * self.kernel * self.lanes).div_ceil(TILE_LANES)
    }

    fn m_tiles(&self) -> usize {
        self.rows().div_ceil(TILE_ROWS)
    }

    fn check(&self) {
        assert!(
            fits(self.outputs),
            "the AMX kernels cannot take {} outputs",
            self.outputs
        );
        assert!(self.kernel == 1 || self.kernel == 3);
        assert!(self.input.len() == (self.rows() + 1) * self.lanes);
        assert!(self.weights.len() == self.outputs / TILE_OUTPUTS * self.k_tiles() * TILE);
    }

    /// `c` (`m_tiles * 16` rows of `outputs` 32-bit sums) = `start_rows` + the products.
    fn multiply<const INT8: bool>(&self, buffers: &mut Buffers, c: *mut u32) {
        let (m_tiles, k_tiles) = (self.m_tiles(), self.k_tiles());
        buffers.gathered.resize(m_tiles * k_tiles * TILE, 0);
        assert!(buffers.start_rows.len() == TILE_ROWS * self.outputs);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the caller checked the core (which has AVX-512 as every core with AMX)
        // and `check`ed the shapes; `gathered` was sized above, `c` the caller's.
        unsafe {
            gather(self, m_tiles, k_tiles, &mut buffers.gathered);
            tiles::product::<INT8>(
                &tiles::Product {
                    a: buffers.gathered.as_ptr(),
                    m_tiles,
                    k_tiles,
                    b: self.weights.as_ptr(),
                    n_tiles: self.outputs / TILE_OUTPUTS,
                    start: buffers.start_rows.as_ptr(),
                    c_stride: self.outputs * 4,
                },
                c,
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = c;
    }
}

/// `out` (`positions * points` rows of `outputs`) = the convolution of `job.input`, as
/// [`bf16::convolve`] computes it; `job.weights` from [`pack_weights`] of
/// `bf16::pack_weights`.
///
/// # Panics
/// If this core lacks AMX with bfloat16 (see [`on_this_core`]) or the kernel does not take
/// `job.outputs` (see [`fits`]), or the slices are shorter than the shapes say: the
/// caller's mistakes.
pub fn convolve_bf16(job: &PairJob, buffers: &mut Buffers, out: &mut Vec<f32>) {
    assert!(on_this_core(), "no AMX with bfloat16 here");
    let operands = Operands {
        taps: job.taps,
        kernel: job.kernel,
        positions: job.positions,
        lanes: bf16::pairs(job.inputs),
        outputs: job.outputs,
        weights: job.weights,
        input: job.input,
    };
    operands.check();
    assert!(job.bias.len() == job.outputs);
    buffers.start_rows.clear();
    for _ in 0..TILE_ROWS {
        buffers
            .start_rows
            .extend(job.bias.iter().map(|b| b.to_bits()));
    }
    out.clear();
    out.resize(operands.m_tiles() * TILE_ROWS * job.outputs, 0.0);
    operands.multiply::<false>(buffers, out.as_mut_ptr().cast());
    out.truncate(operands.rows() * job.outputs);
}

/// `out` (`positions * points` rows of `outputs`) = the convolution of `job.input`, as
/// [`int8::convolve`] computes it; `job.weights` from [`pack_int8_weights`].
///
/// # Panics
/// If this core lacks AMX with 8-bit products (see [`int8_on_this_core`]) or the kernel
/// does not take `job.outputs` (see [`fits`]), or the slices are shorter than the shapes
/// say: the caller's mistakes.
pub fn convolve_int8(job: &QuadJob, buffers: &mut Buffers, out: &mut Vec<f32>) {
    assert!(int8_on_this_core(), "no AMX with 8-bit products here");
    let operands = Operands {
        taps: job.taps,
        kernel: job.kernel,
        positions: job.positions,
        lanes: int8::quads(job.inputs),
        outputs: job.outputs,
        weights: &job.weights.values,
        input: job.input,
    };
    operands.check();
    assert!(job.bias.len() == job.outputs && job.weights.scales.len() == job.outputs);
    assert!(job.input_scales.len() == job.positions);
    buffers.start_rows.clear();
    buffers.start_rows.resize(TILE_ROWS * job.outputs, 0);
    let mut sums = std::mem::take(&mut buffers.sums);
    sums.clear();
    sums.resize(operands.m_tiles() * TILE_ROWS * job.outputs, 0);
    operands.multiply::<true>(buffers, sums.as_mut_ptr().cast());
    out.clear();
    out.resize(operands.rows() * job.outputs, 0.0);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the core has AVX-512 (as every core with AMX); the shapes were checked above.
    unsafe {
        scale_sums(job, &sums, out)
    };
    buffers.sums = sums;
}

/// `out` = the 8-bit sums times the weights' and the position's scales, plus the bias, as
/// AVX-512 VNNI's kernel computes it (one fused multiply-add).
///
/// # Safety
/// The core has AVX-512; `sums` holds at least `out`'s rows of `job.outputs`, a multiple
/// of 16.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn scale_sums(job: &QuadJob, sums: &[i32], out: &mut [f32]) {
    use std::arch::x86_64::{
        _mm512_cvtepi32_ps, _mm512_fmadd_ps, _mm512_loadu_ps, _mm512_loadu_si512, _mm512_mul_ps,
        _mm512_set1_ps, _mm512_storeu_ps,
    };
    let (points, outputs) = (job.taps.len(), job.outputs);
    assert!(sums.len() >= out.len() && outputs.is_multiple_of(16));
    for (row, (dst, sums)) in out
        .chunks_exact_mut(outputs)
        .zip(sums.chunks_exact(outputs))
        .enumerate()
    {
        // SAFETY (the block): each load and store is 16 lanes of a row of `outputs`, of
        // the scales or of the bias, all `outputs` long.
        unsafe {
            let input_scale = _mm512_set1_ps(job.input_scales[row / points]);
            for v in (0..outputs).step_by(16) {
                let scale = _mm512_mul_ps(
                    _mm512_loadu_ps(job.weights.scales.as_ptr().add(v)),
                    input_scale,
                );
                let bias = _mm512_loadu_ps(job.bias.as_ptr().add(v));
                let x = _mm512_cvtepi32_ps(_mm512_loadu_si512(sums.as_ptr().add(v).cast()));
                _mm512_storeu_ps(dst.as_mut_ptr().add(v), _mm512_fmadd_ps(x, scale, bias));
            }
        }
    }
}

/// Billions of operations (two a multiply-add) a second of the tiles' products alone, four
/// independent sums at a time over tiles already loaded, for `budget`: `tdpbusd` with
/// `int8`, else `tdpbf16ps`. The most the tiles can do, the bench's peak beside the kernels.
/// None where this core has no such products.
pub fn peak(budget: std::time::Duration, int8: bool) -> Option<f64> {
    if !(if int8 {
        int8_on_this_core()
    } else {
        on_this_core()
    }) {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    {
        let start = std::time::Instant::now();
        let mut rounds = 0u64;
        while start.elapsed() < budget {
            // SAFETY: the core has these products and this process may use them (checked
            // above).
            unsafe {
                if int8 {
                    tiles::products_alone::<true>(10_000)
                } else {
                    tiles::products_alone::<false>(10_000)
                }
            };
            rounds += 1;
        }
        // A tile's row holds 16 lanes of 2 bfloat16 numbers or 4 bytes.
        let per_lane = if int8 { 4 } else { 2 };
        let per_product = 2 * TILE_ROWS * TILE_OUTPUTS * TILE_LANES * per_lane;
        let ops = rounds as f64 * 10_000.0 * 4.0 * per_product as f64;
        Some(ops / start.elapsed().as_secs_f64() / 1e9)
    }
    #[cfg(not(target_arch = "x86_64"))]
    None
}

/// Each output point's taps into `gathered`'s tiles: row `16m + r`'s lanes go to row `r` of
/// point tile `m`'s lane tiles, 16 to a tile, zeros past the last tap's; rows past the last
/// point are zeros. Each tap's lanes are cut where a tile ends, on masked moves.
///
/// # Safety
/// The core has AVX-512; `gathered` holds `m_tiles * k_tiles` tiles, `job`'s input its
/// rows and the row of zeros after them.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn gather(job: &Operands, m_tiles: usize, k_tiles: usize, gathered: &mut [u32]) {
    use std::arch::x86_64::{
        __mmask16, _mm512_mask_storeu_epi32, _mm512_maskz_loadu_epi32, _mm512_setzero_si512,
    };
    let points = job.taps.len();
    let rows = job.rows();
    let lanes = job.lanes;
    let taps = job.kernel * job.kernel;
    assert!(gathered.len() == m_tiles * k_tiles * TILE && job.input.len() == (rows + 1) * lanes);
    let zeros = job.input[rows * lanes..].as_ptr();
    let base = gathered.as_mut_ptr();
    let mask = |n: usize| ((1u32 << n) - 1) as __mmask16;
    for row in 0..m_tiles * TILE_ROWS {
        let (m, r) = (row / TILE_ROWS, row % TILE_ROWS);
        // SAFETY (the block): `at` stays below `k_tiles * 16`, so each store is within
        // row `r` of a tile of point tile `m`; each load reads at most the `lanes - done`
        // lanes left of a source row (an input row or the zeros).
        unsafe {
            let tile_row = |k: usize| base.add((m * k_tiles + k) * TILE + r * TILE_LANES);
            let mut at = 0;
            if row < rows {
                let (position, p) = (row / points, row % points);
                for t in 0..taps {
                    let q = if job.kernel == 1 {
                        p as u32
                    } else {
                        job.taps[p][t]
                    };
                    assert!(
                        q == u32::MAX || (q as usize) < points,
                        "a tap off the board's points"
                    );
                    let src = if q == u32::MAX {
                        zeros
                    } else {
                        job.input
                            .as_ptr()
                            .add((position * points + q as usize) * lanes)
                    };
                    let mut done = 0;
                    while done < lanes {
                        let (k, j) = (at / TILE_LANES, at % TILE_LANES);
                        let n = (TILE_LANES - j).min(lanes - done);
                        let v = _mm512_maskz_loadu_epi32(mask(n), src.add(done).cast());
                        _mm512_mask_storeu_epi32(tile_row(k).add(j).cast(), mask(n), v);
                        done += n;
                        at += n;
                    }
                }
            }
            while at < k_tiles * TILE_LANES {
                let (k, j) = (at / TILE_LANES, at % TILE_LANES);
                let n = TILE_LANES - j;
                _mm512_mask_storeu_epi32(
                    tile_row(k).add(j).cast(),
                    mask(n),
                    _mm512_setzero_si512(),
                );
                at += n;
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod tiles {
    use std::arch::asm;

    use super::{TILE, TILE_OUTPUTS, TILE_ROWS};

    /// `c = start + a * b`: `a` is `m_tiles` by `k_tiles` tiles of lanes (bfloat16 pairs or
    /// 8-bit quads), tile
    /// `(m, k)` at `(m * k_tiles + k) * 256`; `b` `k_tiles` by `n_tiles`, tile `(k, n)` at
    /// `(n * k_tiles + k) * 256`; `c` and the start rows (16 of them) rows of `n_tiles * 16`
    /// sums (float32 or 32-bit integers), `c_stride` bytes apart.
    pub(super) struct Product {
        pub a: *const u32,
        pub m_tiles: usize,
        pub k_tiles: usize,
        pub b: *const u32,
        pub n_tiles: usize,
        pub start: *const u32,
        pub c_stride: usize,
    }

    /// The tile registers' shapes (palette 1): all eight 16 rows of 64 bytes. tmm0 to tmm3
    /// hold sums (two point tiles by two output tiles), tmm4 and tmm5 inputs, tmm6 and tmm7
    /// weights.
    #[repr(C, align(64))]
    struct Config {
        palette: u8,
        start_row: u8,
        reserved: [u8; 14],
        bytes_per_row: [u16; 16],
        rows: [u8; 16],
    }

    const CONFIG: Config = {
        let mut config = Config {
            palette: 1,
            start_row: 0,
            reserved: [0; 14],
            bytes_per_row: [0; 16],
            rows: [0; 16],
        };
        let mut t = 0;
        while t < 8 {
            config.bytes_per_row[t] = 64;
            config.rows[t] = TILE_ROWS as u8;
            t += 1;
        }
        config
    };

    /// The products `$regs` (each "sums, inputs, weights"): `tdpbusd` on 8-bit tiles,
    /// else `tdpbf16ps`.
    macro_rules! dp {
        ($int8:expr, $($regs:literal),+) => {
            if $int8 {
                asm!($(concat!("tdpbusd ", $regs)),+, options(nostack, nomem))
            } else {
                asm!($(concat!("tdpbf16ps ", $regs)),+, options(nostack, nomem))
            }
        };
    }

    /// Loads tile register `$t` from `$p`, rows `$s` bytes apart.
    macro_rules! load {
        ($t:literal, $p:expr, $s:expr) => {
            asm!(concat!("tileloadd tmm", $t, ", [{p} + {s}]"),
                 p = in(reg) $p, s = in(reg) $s, options(nostack, readonly))
        };
    }

    /// Stores tile register `$t` at `$p`, rows `$s` bytes apart.
    macro_rules! store {
        ($t:literal, $p:expr, $s:expr) => {
            asm!(concat!("tilestored [{p} + {s}], tmm", $t),
                 p = in(reg) $p, s = in(reg) $s, options(nostack))
        };
    }

    /// `rounds` times four products on zeroed tiles, nothing loaded or stored.
    ///
    /// # Safety
    /// The core has these products and this process may use them.
    pub(super) unsafe fn products_alone<const INT8: bool>(rounds: usize) {
        // SAFETY: as the caller vouches; the configuration is a constant.
        unsafe {
            asm!("ldtilecfg [{}]", in(reg) &CONFIG, options(nostack, readonly));
            asm!(
                "tilezero tmm4",
                "tilezero tmm5",
                "tilezero tmm6",
                "tilezero tmm7",
                options(nostack, nomem)
            );
            for _ in 0..rounds {
                dp!(
                    INT8,
                    "tmm0, tmm4, tmm6",
                    "tmm1, tmm4, tmm7",
                    "tmm2, tmm5, tmm6",
                    "tmm3, tmm5, tmm7"
                );
            }
            asm!("tilerelease", options(nostack, nomem));
        }
    }

    /// # Safety
    /// The core has the products (`INT8`: 8-bit, else bfloat16) and this process may use
    /// them; the pointers hold the
    /// shapes `product` describes, and `c` `m_tiles * 16` rows.
    #[inline(never)]
    pub(super) unsafe fn product<const INT8: bool>(p: &Product, c: *mut u32) {
        // SAFETY (the function): every address is within the shapes the caller vouches
        // for: tile `(m, k)` of `a`, `(k, n)` of `b`, rows `16m..16m + 16` and columns
        // `16n..16n + 16` of `c`, columns `16n..` of the start rows.
        unsafe {
            asm!("ldtilecfg [{}]", in(reg) &CONFIG, options(nostack, readonly));
            // A stored tile's rows lie 64 bytes apart.
            let (a_stride, b_stride) = (64usize, 64usize);
            let a_tile = |m: usize, k: usize| p.a.add((m * p.k_tiles + k) * TILE);
            let b_tile = |k: usize, n: usize| p.b.add((n * p.k_tiles + k) * TILE);
            let c_tile =
                |m: usize, n: usize| c.add(m * TILE_ROWS * p.c_stride / 4 + n * TILE_OUTPUTS);
            let start = |n: usize| p.start.add(n * TILE_OUTPUTS);
            let mut m = 0;
            while m < p.m_tiles {
                let two_m = m + 1 < p.m_tiles;
                let mut n = 0;
                while n < p.n_tiles {
                    let two_n = n + 1 < p.n_tiles;
                    match (two_m, two_n) {
                        (true, true) => {
                            load!(0, start(n), p.c_stride);
                            load!(1, start(n + 1), p.c_stride);
                            load!(2, start(n), p.c_stride);
                            load!(3, start(n + 1), p.c_stride);
                            // Tile registers are not renamed: a load waits for the
                            // products reading the register before it. So each next
                            // operand is loaded as soon as its last reader is issued,
                            // and the loads overlap the products still running.
                            load!(4, a_tile(m, 0), a_stride);
                            load!(6, b_tile(0, n), b_stride);
                            load!(7, b_tile(0, n + 1), b_stride);
                            load!(5, a_tile(m + 1, 0), a_stride);
                            for k in 1..p.k_tiles {
                                dp!(INT8, "tmm0, tmm4, tmm6", "tmm1, tmm4, tmm7");
                                load!(4, a_tile(m, k), a_stride);
                                dp!(INT8, "tmm2, tmm5, tmm6");
                                load!(6, b_tile(k, n), b_stride);
                                dp!(INT8, "tmm3, tmm5, tmm7");
                                load!(7, b_tile(k, n + 1), b_stride);
                                load!(5, a_tile(m + 1, k), a_stride);
                            }
                            dp!(
                                INT8,
                                "tmm0, tmm4, tmm6",
                                "tmm1, tmm4, tmm7",
                                "tmm2, tmm5, tmm6",
                                "tmm3, tmm5, tmm7"
                            );
                            store!(0, c_tile(m, n), p.c_stride);
                            store!(1, c_tile(m, n + 1), p.c_stride);
                            store!(2, c_tile(m + 1, n), p.c_stride);
                            store!(3, c_tile(m + 1, n + 1), p.c_stride);
                        }
                        (true, false) => {
                            load!(0, start(n), p.c_stride);
                            load!(2, start(n), p.c_stride);
                            for k in 0..p.k_tiles {
                                load!(4, a_tile(m, k), a_stride);
                                load!(5, a_tile(m + 1, k), a_stride);
                                load!(6, b_tile(k, n), b_stride);
                                dp!(INT8, "tmm0, tmm4, tmm6", "tmm2, tmm5, tmm6");
                            }
                            store!(0, c_tile(m, n), p.c_stride);
                            store!(2, c_tile(m + 1, n), p.c_stride);
                        }
                        (false, true) => {
                            load!(0, start(n), p.c_stride);
                            load!(1, start(n + 1), p.c_stride);
                            for k in 0..p.k_tiles {
                                load!(4, a_tile(m, k), a_stride);
                                load!(6, b_tile(k, n), b_stride);
                                load!(7, b_tile(k, n + 1), b_stride);
                                dp!(INT8, "tmm0, tmm4, tmm6", "tmm1, tmm4, tmm7");
                            }
                            store!(0, c_tile(m, n), p.c_stride);
                            store!(1, c_tile(m, n + 1), p.c_stride);
                        }
                        (false, false) => {
                            load!(0, start(n), p.c_stride);
                            for k in 0..p.k_tiles {
                                load!(4, a_tile(m, k), a_stride);
                                load!(6, b_tile(k, n), b_stride);
                                dp!(INT8, "tmm0, tmm4, tmm6");
                            }
                            store!(0, c_tile(m, n), p.c_stride);
                        }
                    }
                    n += if two_n { 2 } else { 1 };
                }
                m += if two_m { 2 } else { 1 };
            }
            // Back to the tiles' initial state, which the OS need not save on a switch.
            asm!("tilerelease", options(nostack, nomem));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::geometry::{Geometry, Topology};
    use crate::go::network::bf16::tests::rounded;
    use crate::go::network::bf16::{convert_input, pack_weights};
    use crate::go::network::direct::Job;
    use crate::go::network::direct::tests::{naive, neighbourhoods, uniform};
    use crate::go::network::int8::{self, QuadJob};
    use crate::rng::Rng;

    /// Board size, topology, kernel, inputs, outputs, positions: planes and tori, 1x1 and
    /// 3x3, inputs that fill no whole lane or tile, output widths from one tile to past the
    /// vectors' 96, and several positions at once (rows that fill no whole tile).
    const SHAPES: [(usize, Topology, usize, usize, usize, usize); 13] = [
        (9, Topology::Plane, 3, 21, 48, 1),
        (9, Topology::Plane, 3, 48, 48, 1),
        (9, Topology::Plane, 3, 48, 48, 3),
        (19, Topology::Plane, 3, 48, 96, 1),
        (19, Topology::Plane, 3, 96, 96, 1),
        (9, Topology::Torus, 3, 32, 32, 2),
        (7, Topology::Plane, 3, 5, 80, 1),
        (13, Topology::Plane, 1, 48, 16, 2),
        (5, Topology::Torus, 1, 64, 64, 1),
        (11, Topology::Torus, 3, 17, 64, 1),
        (2, Topology::Plane, 3, 96, 96, 1),
        (9, Topology::Plane, 3, 96, 96, 8),
        (9, Topology::Plane, 3, 128, 128, 1),
    ];

    /// One shape's random operands.
    struct Case {
        taps: Vec<[u32; 9]>,
        rows: usize,
        weights: Vec<f32>,
        bias: Vec<f32>,
        input: Vec<f32>,
    }

    fn case(
        rng: &mut Rng,
        size: usize,
        topology: Topology,
        kernel: usize,
        shape: (usize, usize, usize),
    ) -> Case {
        let (inputs, outputs, positions) = shape;
        let geo = Geometry::get(size, topology).unwrap();
        let rows = positions * geo.num_points();
        Case {
            taps: neighbourhoods(geo),
            rows,
            weights: uniform(rng, kernel * kernel * inputs * outputs),
            bias: uniform(rng, outputs),
            input: uniform(rng, rows * inputs),
        }
    }

    /// The tiles compute what AVX-512's bfloat16 kernel computes (the same rounded
    /// operands, float32 sums in another order); past its widths, the definition on the
    /// rounded operands.
    #[test]
    fn agrees_with_the_avx512_bfloat16_kernel() {
        if !on_this_core() || !bf16::on_this_core() {
            eprintln!("no AMX with bfloat16 on this core: the tiles are not used");
            return;
        }
        let mut rng = Rng::new(17);
        let (mut pairs, mut want, mut got) = (Vec::new(), Vec::new(), Vec::new());
        let mut buffers = Buffers::default();
        for (size, topology, kernel, inputs, outputs, positions) in SHAPES {
            let c = case(
                &mut rng,
                size,
                topology,
                kernel,
                (inputs, outputs, positions),
            );
            let packed = pack_weights(kernel * kernel, inputs, outputs, &c.weights);
            let tiles = super::pack_weights(kernel * kernel, bf16::pairs(inputs), outputs, &packed);
            convert_input(&c.input, c.rows, inputs, &mut pairs);
            let job = PairJob {
                taps: &c.taps,
                kernel,
                positions,
                inputs,
                outputs,
                weights: &packed,
                bias: &c.bias,
                input: &pairs,
            };
            if bf16::fits(outputs) {
                bf16::convolve(&job, &mut want);
            } else {
                want = naive(&Job {
                    taps: &c.taps,
                    kernel,
                    positions,
                    inputs,
                    outputs,
                    weights: &rounded(&c.weights),
                    bias: &c.bias,
                    input: &rounded(&c.input),
                });
            }
            convolve_bf16(
                &PairJob {
                    weights: &tiles,
                    ..job
                },
                &mut buffers,
                &mut got,
            );
            assert_eq!(got.len(), want.len());
            for (j, (got, want)) in got.iter().zip(&want).enumerate() {
                assert!(
                    (got - want).abs() <= 1e-4 * (1.0 + want.abs()),
                    "{size}x{size} {topology:?} {kernel}x{kernel} {inputs}->{outputs} \
                     x{positions}: output {j} is {got} on the tiles, {want} expected"
                );
            }
        }
    }

    /// The 8-bit tiles compute exactly what AVX-512 VNNI's kernel computes: the same integer
    /// sums, scaled and biased by the same fused multiply-add (at the widths it takes).
    #[test]
    fn agrees_with_the_avx512_8_bit_kernel() {
        if !int8_on_this_core() || !int8::on_this_core() {
            eprintln!("no AMX with 8-bit products on this core: the tiles are not used");
            return;
        }
        let mut rng = Rng::new(19);
        let (mut quads, mut scales, mut want, mut got) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut buffers = Buffers::default();
        for (size, topology, kernel, inputs, outputs, positions) in SHAPES {
            if !int8::fits(outputs) {
                continue;
            }
            let c = case(
                &mut rng,
                size,
                topology,
                kernel,
                (inputs, outputs, positions),
            );
            let q = int8::quantize_weights(kernel * kernel, inputs, outputs, &c.weights);
            let tiles = pack_int8_weights(kernel * kernel, inputs, outputs, &q);
            let points = c.rows / positions;
            // A ReLU's outputs: none negative, as the 8-bit kernels take them.
            let input: Vec<f32> = c.input.iter().map(|x| x.max(0.0)).collect();
            int8::quantize_input(&input, positions, points, inputs, &mut quads, &mut scales);
            let job = QuadJob {
                taps: &c.taps,
                kernel,
                positions,
                inputs,
                outputs,
                weights: &q,
                bias: &c.bias,
                input: &quads,
                input_scales: &scales,
            };
            int8::convolve(&job, &mut want);
            convolve_int8(
                &QuadJob {
                    weights: &tiles,
                    ..job
                },
                &mut buffers,
                &mut got,
            );
            assert_eq!(got.len(), want.len());
            for (j, (got, want)) in got.iter().zip(&want).enumerate() {
                assert!(
                    got == want,
                    "{size}x{size} {topology:?} {kernel}x{kernel} {inputs}->{outputs} \
                     x{positions}: output {j} is {got} on the tiles, {want} on vectors"
                );
            }
        }
    }
}

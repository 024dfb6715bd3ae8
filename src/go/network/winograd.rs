//! The 3x3 convolutions by Winograd's minimal filtering (Lavin and Gray, "Fast Algorithms
//! for Convolutional Neural Networks", 2016), in two forms: F(4x4, 3x3) cuts the board into
//! tiles of 4x4 outputs, each read through a 6x6 patch of inputs, and F(2x2, 3x3) into tiles
//! of 2x2 read through 4x4 patches. In the transformed domain a tile's convolution is one
//! product of one number by one weight per point of the patch and pair of channels (36 or
//! 16) where the direct convolution has 9 per output (144 or 36), so a whole layer is 36 or
//! 16 thin matrix products (tiles by input channels, times input by output channels). With
//! the patches' padding counted, F(4x4) does 2.25 times fewer multiply-adds than the direct
//! convolution on 9x9 (a 12x12 grid for 81 points) and 3.6 times on 19x19; F(2x2) 1.8 and
//! 2.0 times, but its transformed weights are 16/9 of the direct ones where F(4x4)'s are 4
//! times, and each serves 25 tiles of a 9x9 board instead of 9 (see [`Form::for_board`]).
//! The transforms in and out cost some adds per channel and point.
//!
//! Only in float32 on AVX-512, for outputs the direct kernel takes (16 to 96); its sums
//! differ from the direct ones by the roundings of the transforms (F(4x4)'s transformed
//! weights' 1/6 and 1/24 are not exact in binary), well within the fixtures' 1e-4.

use crate::go::geometry::{Geometry, Topology};

/// Off the board: a patch point that reads as zero, or a tile's output that is not stored.
const OFF: u32 = u32::MAX;

/// One of Winograd's minimal filterings of a 3x3 kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// F(2x2, 3x3): tiles of 2x2 outputs, patches of 4x4.
    F2,
    /// F(4x4, 3x3): tiles of 4x4 outputs, patches of 6x6.
    F4,
}

impl Form {
    pub const ALL: [Form; 2] = [Form::F2, Form::F4];

    /// Outputs of a tile per side.
    pub const fn tile(self) -> usize {
        match self {
            Form::F2 => 2,
            Form::F4 => 4,
        }
    }

    /// Inputs of a tile's patch per side.
    pub const fn patch(self) -> usize {
        self.tile() + 2
    }

    /// Points of a patch: the transformed domain's size, the number of products.
    pub const fn area(self) -> usize {
        self.patch() * self.patch()
    }

    /// `G` (patch x 3): a 3-tap filter to the transformed domain.
    fn g(self) -> &'static [[f64; 3]] {
        const F2: [[f64; 3]; 4] = [
            [1.0, 0.0, 0.0],
            [0.5, 0.5, 0.5],
            [0.5, -0.5, 0.5],
            [0.0, 0.0, 1.0],
        ];
        const F4: [[f64; 3]; 6] = [
            [1.0 / 4.0, 0.0, 0.0],
            [-1.0 / 6.0, -1.0 / 6.0, -1.0 / 6.0],
            [-1.0 / 6.0, 1.0 / 6.0, -1.0 / 6.0],
            [1.0 / 24.0, 1.0 / 12.0, 1.0 / 6.0],
            [1.0 / 24.0, -1.0 / 12.0, 1.0 / 6.0],
            [0.0, 0.0, 1.0],
        ];
        match self {
            Form::F2 => &F2,
            Form::F4 => &F4,
        }
    }

    /// The form that runs faster for one position on a board of side `size`: measured on
    /// 9x9 (F(2x2), whose weights are read by 25 tiles, 5-10% ahead of F(4x4) for the
    /// built-in net, 30-40% for a 6x96 one) and 19x19 (F(4x4), 35% ahead); between them by
    /// the multiply-adds, which F(2x2) does no fewer of than F(4x4) from 11x11 on (a 6x6
    /// grid of its tiles to a 3x3 of F(4x4)'s, 576 products a pair of channels to 324).
    /// Batches of 8 run F(4x4) faster on 9x9 too, but the search evaluates one position.
    pub fn for_board(size: usize) -> Form {
        if size <= 10 { Form::F2 } else { Form::F4 }
    }
}

/// A board cut into tiles of one form: for each tile the point each of its patch's inputs
/// reads and the point each of its outputs is, `OFF` beyond the board (on a torus the
/// patch wraps around instead; its outputs beyond the board are still dropped).
#[derive(Clone, Debug, Default)]
pub struct Tiles {
    /// `form.area()` points a tile.
    patches: Vec<u32>,
    /// `form.tile()` squared points a tile.
    outputs: Vec<u32>,
    count: usize,
    /// The board's points, which every index above is below.
    points: usize,
    key: Option<(usize, Topology, Form)>,
}

impl Tiles {
    /// The tiles of `form` on `geo`'s board (kept when they are already those).
    pub fn prepare(&mut self, geo: &Geometry, form: Form) {
        let key = (geo.size(), geo.topology(), form);
        if self.key == Some(key) {
            return;
        }
        let (tile, patch) = (form.tile(), form.patch());
        let size = geo.size() as i64;
        let torus = geo.topology() == Topology::Torus;
        let per_side = geo.size().div_ceil(tile) as i64;
        let point = |x: i64, y: i64| -> u32 {
            let (x, y) = if torus {
                (x.rem_euclid(size), y.rem_euclid(size))
            } else {
                (x, y)
            };
            if (0..size).contains(&x) && (0..size).contains(&y) {
                (y * size + x) as u32
            } else {
                OFF
            }
        };
        self.patches.clear();
        self.outputs.clear();
        for ty in 0..per_side {
            for tx in 0..per_side {
                let (x0, y0) = (tx * tile as i64, ty * tile as i64);
                for k in 0..form.area() {
                    let (i, j) = ((k / patch) as i64, (k % patch) as i64);
                    self.patches.push(point(x0 + j - 1, y0 + i - 1));
                }
                for k in 0..tile * tile {
                    let (i, j) = ((k / tile) as i64, (k % tile) as i64);
                    let (x, y) = (x0 + j, y0 + i);
                    self.outputs.push(if x < size && y < size {
                        (y * size + x) as u32
                    } else {
                        OFF
                    });
                }
            }
        }
        self.count = (per_side * per_side) as usize;
        self.points = geo.num_points();
        self.key = Some(key);
    }

    /// Tiles a board.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The form they were cut for, if any.
    pub fn form(&self) -> Option<Form> {
        self.key.map(|(_, _, form)| form)
    }
}

/// The transformed weights of a 3x3 convolution stored as the direct kernel reads it (row
/// `tap * inputs + input`, column `output`, the tap `ky * 3 + kx`): `G g G^T` for each
/// pair of channels, laid out as `form.area()` matrices of `inputs` rows by `outputs`
/// columns, one for each point of the transformed domain.
pub fn transform_weights(form: Form, inputs: usize, outputs: usize, weights: &[f32]) -> Vec<f32> {
    assert_eq!(weights.len(), 9 * inputs * outputs);
    let (g_form, patch) = (form.g(), form.patch());
    let mut transformed = vec![0.0f32; form.area() * inputs * outputs];
    for i in 0..inputs {
        for o in 0..outputs {
            let g = |ky: usize, kx: usize| {
                f64::from(weights[((ky * 3 + kx) * inputs + i) * outputs + o])
            };
            // G g, patch x 3, then (G g) G^T, patch x patch.
            let gg: Vec<[f64; 3]> = g_form
                .iter()
                .map(|row| std::array::from_fn(|kx| (0..3).map(|ky| row[ky] * g(ky, kx)).sum()))
                .collect();
            for a in 0..patch {
                for b in 0..patch {
                    let u: f64 = (0..3).map(|kx| gg[a][kx] * g_form[b][kx]).sum();
                    transformed[((a * patch + b) * inputs + i) * outputs + o] = u as f32;
                }
            }
        }
    }
    transformed
}

/// A 3x3 convolution's weights in each form's domain ([`transform_weights`]), made only on
/// cores that run this kernel.
#[derive(Clone, Debug, Default)]
pub struct Transformed {
    f2: Vec<f32>,
    f4: Vec<f32>,
}

impl Transformed {
    pub fn new(inputs: usize, outputs: usize, weights: &[f32]) -> Transformed {
        Transformed {
            f2: transform_weights(Form::F2, inputs, outputs, weights),
            f4: transform_weights(Form::F4, inputs, outputs, weights),
        }
    }

    /// Those of `form` (empty where they were not made).
    pub fn of(&self, form: Form) -> &[f32] {
        match form {
            Form::F2 => &self.f2,
            Form::F4 => &self.f4,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.f2.is_empty() && self.f4.is_empty()
    }
}

/// Whether this core runs it: AVX-512.
pub fn on_this_core() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether it takes a convolution to `outputs` channels: whole 16-lane vectors, one to six.
pub fn fits(outputs: usize) -> bool {
    outputs.is_multiple_of(16) && (1..=6).contains(&(outputs / 16))
}

/// One 3x3 convolution's operands.
pub struct Job<'a> {
    /// The board's tiles, of the form the weights below are in.
    pub tiles: &'a Tiles,
    /// Points of a board.
    pub points: usize,
    pub positions: usize,
    pub inputs: usize,
    pub outputs: usize,
    /// [`transform_weights`]'s for the tiles' form.
    pub transformed: &'a [f32],
    pub bias: &'a [f32],
    /// `positions * points` rows of `inputs`.
    pub input: &'a [f32],
}

/// Space a convolution reuses: the transformed inputs and products.
#[derive(Default)]
pub struct Buffers {
    transformed_input: Lines,
    products: Lines,
}

/// Floats that start on a cache line, kept as whole 64-byte lines, so that the kernels'
/// loads and stores of 16 floats, at offsets that are multiples of 16 (the widths the kernel
/// takes), never straddle two lines as they do in a `Vec<f32>` (the allocator puts a large
/// one 16 bytes past a line).
#[derive(Clone, Default)]
pub(super) struct Lines {
    lines: Vec<Line>,
    len: usize,
}

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Line([f32; 16]);

impl Lines {
    /// `len` floats, the old values left (every one is written before it is read).
    pub(super) fn sized(&mut self, len: usize) -> &mut [f32] {
        let lines = len.div_ceil(16);
        self.lines.truncate(lines);
        self.lines.resize(lines, Line::default());
        self.len = len;
        self.floats_mut()
    }

    pub(super) fn floats(&self) -> &[f32] {
        // SAFETY: a `Line` is 16 floats without padding (`repr(C)`, 64 bytes), and `len` is
        // at most 16 times the lines.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr().cast::<f32>(), self.len) }
    }

    pub(super) fn floats_mut(&mut self) -> &mut [f32] {
        // SAFETY: as in `floats`.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr().cast::<f32>(), self.len) }
    }
}

/// `out` (`positions * points` rows of `outputs`) = the convolution of `job.input`.
///
/// # Panics
/// If this core lacks AVX-512 or the width does not [`fits`], or the tiles were never
/// prepared, or the slices are shorter than the shapes say: the caller's mistakes, never
/// the input's.
pub fn convolve(job: &Job, buffers: &mut Buffers, out: &mut Vec<f32>) {
    let (form, rows) = check(job);
    assert!(job.transformed.len() == form.area() * job.inputs * job.outputs);
    transform_input(job, &mut buffers.transformed_input);
    let products = buffers.products.sized(form.area() * rows * job.outputs);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `check` and the assert above checked the core, the width and every length
    // and index the products read or write.
    unsafe {
        avx512::multiply(
            job,
            form.area(),
            buffers.transformed_input.floats(),
            products,
        );
    }
    transform_output(job, buffers.products.floats(), out);
}

/// The checks of every step: the core, the width, the tiles, the lengths; the tiles' form
/// and the rows of each transformed matrix.
fn check(job: &Job) -> (Form, usize) {
    assert!(
        on_this_core() && fits(job.outputs),
        "the Winograd kernel cannot run here"
    );
    let form = job.tiles.form().expect("tiles prepared for a board");
    let tiles = job.tiles.count;
    assert_eq!(job.tiles.patches.len(), tiles * form.area());
    assert_eq!(job.tiles.outputs.len(), tiles * form.tile() * form.tile());
    assert!(job.input.len() >= job.positions * job.points * job.inputs);
    assert!(job.bias.len() == job.outputs);
    // Every patch and output point is on a board of `points` (or OFF): `Tiles::prepare`
    // made them for one.
    assert_eq!(job.tiles.points, job.points, "tiles of another board");
    (form, job.positions * tiles)
}

/// `buffer` of `len`, its old values left: every element of the transformed input, the
/// products and the output is written (each board point lies in one tile), and zeroing
/// them took a quarter of a 9x9 layer's time.
fn sized(buffer: &mut Vec<f32>, len: usize) {
    buffer.truncate(len);
    buffer.resize(len, 0.0);
}

/// The first step: `B^T d B` of each tile's patch of `job.input`, `form.area()` matrices
/// of `positions * tiles` rows of `inputs` (the weights are not read).
pub(super) fn transform_input(job: &Job, transformed: &mut Lines) {
    let (form, rows) = check(job);
    let transformed = transformed.sized(form.area() * rows * job.inputs);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `check` checked the core and every index the transform reads or writes.
    unsafe {
        match form {
            Form::F2 => avx512::transform_input::<4, 2, avx512::F2>(job, transformed),
            Form::F4 => avx512::transform_input::<6, 4, avx512::F4>(job, transformed),
        }
    }
}

/// The last step: `A^T m A` of each tile's `products` (`form.area()` matrices of
/// `positions * tiles` rows of `outputs`), plus the bias, at the board's points of `out`.
pub(super) fn transform_output(job: &Job, products: &[f32], out: &mut Vec<f32>) {
    let (form, rows) = check(job);
    assert!(products.len() == form.area() * rows * job.outputs);
    sized(out, job.positions * job.points * job.outputs);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `check` and the assert above checked the core and every index the transform
    // reads or writes.
    unsafe {
        match form {
            Form::F2 => avx512::transform_output::<4, 2, avx512::F2>(job, products, out),
            Form::F4 => avx512::transform_output::<6, 4, avx512::F4>(job, products, out),
        }
    }
}

/// The blocks a product's `vectors` output vectors go in, `(first, count)`: one or two
/// vectors at a time over every row, so that each transformed weight is read once a layer
/// (with three, 27 accumulators, the compiler kept two of them on the stack).
pub(super) fn vector_blocks(vectors: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..vectors)
        .step_by(2)
        .map(move |first| (first, (vectors - first).min(2)))
}

/// The most rows a tile of `v` output vectors keeps in registers: `rows * v` accumulators
/// and `v` weight vectors within the 32, the inputs broadcast from memory.
const fn max_rows(v: usize) -> usize {
    let r = 24 / v;
    if r > 12 { 12 } else { r }
}

/// `rows` in tiles of at most `max_rows(v)` spread evenly, `(start, count)`: 9 rows and 2
/// vectors go as one tile of 9, 25 rows as 9, 8 and 8.
pub(super) fn row_tiles(rows: usize, v: usize) -> impl Iterator<Item = (usize, usize)> {
    let tiles = rows.div_ceil(max_rows(v));
    let mut start = 0;
    (0..tiles).map(move |tile| {
        // Rows left spread over the tiles left.
        let count = (rows - start).div_ceil(tiles - tile);
        start += count;
        (start - count, count)
    })
}

/// `$run::<$v, R>($tile)` for a tile of `$rows` rows (1 to 12), the rows a const parameter.
macro_rules! rows_plan {
    ($rows:expr, $run:ident::<$v:ident>($tile:expr)) => {
        match $rows {
            1 => $run::<$v, 1>($tile),
            2 => $run::<$v, 2>($tile),
            3 => $run::<$v, 3>($tile),
            4 => $run::<$v, 4>($tile),
            5 => $run::<$v, 5>($tile),
            6 => $run::<$v, 6>($tile),
            7 => $run::<$v, 7>($tile),
            8 => $run::<$v, 8>($tile),
            9 => $run::<$v, 9>($tile),
            10 => $run::<$v, 10>($tile),
            11 => $run::<$v, 11>($tile),
            _ => $run::<$v, 12>($tile),
        }
    };
}
pub(super) use rows_plan;

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::{Job, OFF, row_tiles, vector_blocks};

    /// A form's transforms along one column (or row) of a patch: `B^T x` of `P` vectors,
    /// and `A^T x` to the tile's `T`.
    pub(super) trait Transforms<const P: usize, const T: usize> {
        unsafe fn input_1d(x: [__m512; P]) -> [__m512; P];
        unsafe fn output_1d(x: [__m512; P]) -> [__m512; T];
    }

    pub(super) struct F2;
    pub(super) struct F4;

    impl Transforms<4, 2> for F2 {
        #[inline(always)]
        unsafe fn input_1d(x: [__m512; 4]) -> [__m512; 4] {
            // SAFETY: arithmetic on registers only (AVX-512, which the callers enable).
            unsafe {
                [
                    _mm512_sub_ps(x[0], x[2]),
                    _mm512_add_ps(x[1], x[2]),
                    _mm512_sub_ps(x[2], x[1]),
                    _mm512_sub_ps(x[1], x[3]),
                ]
            }
        }

        #[inline(always)]
        unsafe fn output_1d(x: [__m512; 4]) -> [__m512; 2] {
            // SAFETY: as above.
            unsafe {
                [
                    _mm512_add_ps(_mm512_add_ps(x[0], x[1]), x[2]),
                    _mm512_sub_ps(_mm512_sub_ps(x[1], x[2]), x[3]),
                ]
            }
        }
    }

    impl Transforms<6, 4> for F4 {
        #[inline(always)]
        unsafe fn input_1d(x: [__m512; 6]) -> [__m512; 6] {
            // SAFETY: arithmetic on registers only (AVX-512, which the callers enable).
            unsafe {
                let four = _mm512_set1_ps(4.0);
                let five = _mm512_set1_ps(5.0);
                let two = _mm512_set1_ps(2.0);
                // 4 x0 - 5 x2 + x4
                let r0 = _mm512_fmadd_ps(four, x[0], _mm512_fnmadd_ps(five, x[2], x[4]));
                // -4 (x1 + x2) + x3 + x4;  4 (x1 - x2) - x3 + x4
                let r1 =
                    _mm512_fnmadd_ps(four, _mm512_add_ps(x[1], x[2]), _mm512_add_ps(x[3], x[4]));
                let r2 =
                    _mm512_fmadd_ps(four, _mm512_sub_ps(x[1], x[2]), _mm512_sub_ps(x[4], x[3]));
                // 2 (x3 - x1) + x4 - x2;  2 (x1 - x3) + x4 - x2
                let d = _mm512_sub_ps(x[4], x[2]);
                let r3 = _mm512_fmadd_ps(two, _mm512_sub_ps(x[3], x[1]), d);
                let r4 = _mm512_fmadd_ps(two, _mm512_sub_ps(x[1], x[3]), d);
                // 4 x1 - 5 x3 + x5
                let r5 = _mm512_fmadd_ps(four, x[1], _mm512_fnmadd_ps(five, x[3], x[5]));
                [r0, r1, r2, r3, r4, r5]
            }
        }

        #[inline(always)]
        unsafe fn output_1d(x: [__m512; 6]) -> [__m512; 4] {
            // SAFETY: arithmetic on registers only (AVX-512, which the callers enable).
            unsafe {
                let two = _mm512_set1_ps(2.0);
                let four = _mm512_set1_ps(4.0);
                let eight = _mm512_set1_ps(8.0);
                let (s12, d12) = (_mm512_add_ps(x[1], x[2]), _mm512_sub_ps(x[1], x[2]));
                let (s34, d34) = (_mm512_add_ps(x[3], x[4]), _mm512_sub_ps(x[3], x[4]));
                let y0 = _mm512_add_ps(_mm512_add_ps(x[0], s12), s34);
                let y1 = _mm512_fmadd_ps(two, d34, d12);
                let y2 = _mm512_fmadd_ps(four, s34, s12);
                let y3 = _mm512_add_ps(_mm512_fmadd_ps(eight, d34, d12), x[5]);
                [y0, y1, y2, y3]
            }
        }
    }

    /// The mask of the lanes `from..from + 16` that lie below `width`.
    fn lanes(from: usize, width: usize) -> __mmask16 {
        let n = (width - from).min(16);
        if n == 16 { u16::MAX } else { (1u16 << n) - 1 }
    }

    /// `B^T d B` of every tile's patch (`P` x `P`), channel by channel: the transformed
    /// input, `P * P` matrices of `positions * tiles` rows of `inputs`.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn transform_input<const P: usize, const T: usize, F: Transforms<P, T>>(
        job: &Job,
        transformed: &mut [f32],
    ) {
        let tiles = job.tiles.count;
        let rows = job.positions * tiles;
        let cin = job.inputs;
        for position in 0..job.positions {
            let board = &job.input[position * job.points * cin..];
            for (t, patch) in job.tiles.patches.chunks_exact(P * P).enumerate() {
                let row = position * tiles + t;
                let mut c = 0;
                while c < cin {
                    let mask = lanes(c, cin);
                    // SAFETY: each read is `cin` floats of a point of this board (the
                    // caller checked the points), masked to the channels that exist; each
                    // write is a row of `cin` below `rows` of one of the `P * P` matrices.
                    unsafe {
                        let mut d = [[_mm512_setzero_ps(); P]; P];
                        for (k, &p) in patch.iter().enumerate() {
                            if p != OFF {
                                d[k / P][k % P] = _mm512_maskz_loadu_ps(
                                    mask,
                                    board.as_ptr().add(p as usize * cin + c),
                                );
                            }
                        }
                        // B^T down each column, then across each row.
                        let mut columns = [[_mm512_setzero_ps(); P]; P];
                        for j in 0..P {
                            let col = F::input_1d(std::array::from_fn(|i| d[i][j]));
                            for (i, v) in col.into_iter().enumerate() {
                                columns[i][j] = v;
                            }
                        }
                        for (a, row_in) in columns.iter().enumerate() {
                            let v = F::input_1d(*row_in);
                            for (b, x) in v.into_iter().enumerate() {
                                let xi = a * P + b;
                                _mm512_mask_storeu_ps(
                                    transformed.as_mut_ptr().add((xi * rows + row) * cin + c),
                                    mask,
                                    x,
                                );
                            }
                        }
                    }
                    c += 16;
                }
            }
        }
    }
    /// The `area` products, each `rows x inputs` by `inputs x outputs`, in blocks of output
    /// vectors ([`super::vector_blocks`]) over every row: at 9 rows (9x9, one position,
    /// F(4x4)) the products are otherwise bound by reading the weights, which outgrow the
    /// core's L2 on 9x9 (a 6x64 net ran slower than on the direct kernel when each weight
    /// served 5 rows).
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn multiply(
        job: &Job,
        area: usize,
        transformed: &[f32],
        products: &mut [f32],
    ) {
        let rows = job.positions * job.tiles.count;
        let (cin, cout) = (job.inputs, job.outputs);
        for xi in 0..area {
            let a = &transformed[xi * rows * cin..(xi + 1) * rows * cin];
            let w = &job.transformed[xi * cin * cout..(xi + 1) * cin * cout];
            let c = &mut products[xi * rows * cout..(xi + 1) * rows * cout];
            for (first, block) in vector_blocks(cout / 16) {
                let col = 16 * first;
                // SAFETY: the caller's checks hold for each call; `col` plus the block's
                // width is within `cout`.
                unsafe {
                    match block {
                        1 => block_of::<1>(a, w, c, rows, cin, cout, col),
                        _ => block_of::<2>(a, w, c, rows, cin, cout, col),
                    }
                }
            }
        }
    }

    /// Columns `col..col + 16 V` of `c = a w` over all `rows`, in [`row_tiles`].
    #[target_feature(enable = "avx512f")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn block_of<const V: usize>(
        a: &[f32],
        w: &[f32],
        c: &mut [f32],
        rows: usize,
        cin: usize,
        cout: usize,
        col: usize,
    ) {
        for (start, count) in row_tiles(rows, V) {
            let t = Tile {
                a,
                w,
                c: &mut *c,
                start,
                cin,
                cout,
                col,
            };
            // SAFETY: rows `start..start + count` of `a` and `c` exist.
            unsafe { rows_plan!(count, rows_of::<V>(t)) }
        }
    }

    /// One tile of a product: rows `start..` of `a` (`cin` wide) times `w` (`cin` rows of
    /// `cout`), columns `col..` of `c`.
    struct Tile<'a> {
        a: &'a [f32],
        w: &'a [f32],
        c: &'a mut [f32],
        start: usize,
        cin: usize,
        cout: usize,
        col: usize,
    }

    /// Rows `start..start + R`, columns `col..col + 16 V` of `c = a w`.
    #[target_feature(enable = "avx512f")]
    unsafe fn rows_of<const V: usize, const R: usize>(t: Tile) {
        let Tile {
            a,
            w,
            c,
            start,
            cin,
            cout,
            col,
        } = t;
        debug_assert!((start + R) * cin <= a.len() && (start + R) * cout <= c.len());
        debug_assert!(col + 16 * V <= cout && w.len() == cin * cout);
        // SAFETY: the caller keeps the rows within `a` and `c` and the columns within
        // `cout`; `w` holds `cin` rows of `cout`.
        unsafe {
            let mut acc = [[_mm512_setzero_ps(); V]; R];
            let a = a.as_ptr().add(start * cin);
            for i in 0..cin {
                let w_row = w.as_ptr().add(i * cout + col);
                let mut wv = [_mm512_setzero_ps(); V];
                for (v, x) in wv.iter_mut().enumerate() {
                    *x = _mm512_loadu_ps(w_row.add(16 * v));
                }
                for (r, acc) in acc.iter_mut().enumerate() {
                    let b = _mm512_set1_ps(*a.add(r * cin + i));
                    for (x, w) in acc.iter_mut().zip(&wv) {
                        *x = _mm512_fmadd_ps(b, *w, *x);
                    }
                }
            }
            for (r, acc) in acc.iter().enumerate() {
                let dst = c.as_mut_ptr().add((start + r) * cout + col);
                for (v, x) in acc.iter().enumerate() {
                    _mm512_storeu_ps(dst.add(16 * v), *x);
                }
            }
        }
    }

    /// `A^T m A` of every tile's products (`P` x `P` to `T` x `T`), plus the bias, stored at
    /// the tile's points on the board.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn transform_output<const P: usize, const T: usize, F: Transforms<P, T>>(
        job: &Job,
        products: &[f32],
        out: &mut [f32],
    ) {
        let tiles = job.tiles.count;
        let rows = job.positions * tiles;
        let cout = job.outputs;
        for position in 0..job.positions {
            for (t, outputs) in job.tiles.outputs.chunks_exact(T * T).enumerate() {
                let row = position * tiles + t;
                for c in (0..cout).step_by(16) {
                    // SAFETY: each read is 16 channels of a row below `rows` of one of the
                    // `P * P` products; each write 16 channels of a point of this board.
                    unsafe {
                        let mut m = [[_mm512_setzero_ps(); P]; P];
                        for (xi, x) in m.iter_mut().flatten().enumerate() {
                            *x = _mm512_loadu_ps(
                                products.as_ptr().add((xi * rows + row) * cout + c),
                            );
                        }
                        let bias = _mm512_loadu_ps(job.bias.as_ptr().add(c));
                        let mut columns = [[_mm512_setzero_ps(); P]; T];
                        for j in 0..P {
                            let col = F::output_1d(std::array::from_fn(|i| m[i][j]));
                            for (i, v) in col.into_iter().enumerate() {
                                columns[i][j] = v;
                            }
                        }
                        for (i, row_in) in columns.iter().enumerate() {
                            let y = F::output_1d(*row_in);
                            for (j, x) in y.into_iter().enumerate() {
                                let p = outputs[i * T + j];
                                if p != OFF {
                                    let point = position * job.points + p as usize;
                                    _mm512_storeu_ps(
                                        out.as_mut_ptr().add(point * cout + c),
                                        _mm512_add_ps(x, bias),
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::network::direct::tests::{naive, neighbourhoods, uniform};
    use crate::rng::Rng;

    #[test]
    fn agrees_with_the_definition() {
        if !on_this_core() {
            eprintln!("no AVX-512 on this core: no Winograd kernel");
            return;
        }
        let mut rng = Rng::new(12);
        // Boards whose side is and is not a multiple of the tile's, on a plane and a
        // torus (one smaller than a patch, which wraps more than once), widths of every
        // vector count, inputs that fill no whole vector, and batches.
        let shapes = [
            (9, Topology::Plane, 22, 48, 1),
            (9, Topology::Plane, 48, 48, 3),
            (19, Topology::Plane, 48, 96, 1),
            (8, Topology::Plane, 16, 32, 2),
            (9, Topology::Torus, 32, 32, 2),
            (5, Topology::Torus, 7, 16, 1),
            (7, Topology::Plane, 5, 80, 1),
            (13, Topology::Plane, 48, 64, 2),
            (2, Topology::Plane, 3, 16, 1),
            (11, Topology::Torus, 16, 48, 1),
        ];
        let (mut tiles, mut buffers, mut out) = (Tiles::default(), Buffers::default(), Vec::new());
        for (size, topology, inputs, outputs, positions) in shapes {
            let geo = Geometry::get(size, topology).unwrap();
            let taps = neighbourhoods(geo);
            let weights = uniform(&mut rng, 9 * inputs * outputs);
            let bias = uniform(&mut rng, outputs);
            let input = uniform(&mut rng, positions * geo.num_points() * inputs);
            let want = naive(&crate::go::network::direct::Job {
                taps: &taps,
                kernel: 3,
                positions,
                inputs,
                outputs,
                weights: &weights,
                bias: &bias,
                input: &input,
            });
            for form in Form::ALL {
                tiles.prepare(geo, form);
                let transformed = transform_weights(form, inputs, outputs, &weights);
                let job = Job {
                    tiles: &tiles,
                    points: geo.num_points(),
                    positions,
                    inputs,
                    outputs,
                    transformed: &transformed,
                    bias: &bias,
                    input: &input,
                };
                convolve(&job, &mut buffers, &mut out);
                assert_eq!(out.len(), want.len());
                for (j, (got, want)) in out.iter().zip(&want).enumerate() {
                    assert!(
                        (got - want).abs() <= 1e-4 * (1.0 + want.abs()),
                        "{form:?} {size}x{size} {topology:?} {inputs}->{outputs} x{positions}: \
                         output {j} is {got}, by the definition {want}"
                    );
                }
            }
        }
    }
}

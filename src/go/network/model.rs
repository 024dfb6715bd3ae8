//! The network's evaluation on the CPU: activations point-major (`[point][channel]`), a
//! 3x3 convolution as one matrix product over the gathered neighbourhoods (im2col), a 1x1
//! convolution as one product over the activations. Several positions of one board go
//! through together as one taller product.

use crate::go::geometry::{Geometry, Topology};
use crate::go::network::amx;
use crate::go::network::bf16::{self, PairJob};
use crate::go::network::direct::{self, Job, Kernel};
use crate::go::network::inputs::{BINARY_PLANES, GLOBALS, Inputs};
use crate::go::network::int8::{self, QuadJob};
use crate::go::network::weights::{Conv, Dense, INPUT_CHANNELS, Weights};
use crate::go::network::winograd::{self, Form, Tiles};
use crate::go::network::winograd_int8;

/// What the net says of a position, for the side to move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    /// Each point's chance of being the move (the engine's point order), then pass's.
    pub policy: Vec<f32>,
    /// The chance of winning.
    pub win: f32,
    /// The expected score lead (points).
    pub lead: f32,
    /// Each point's owner, from -1 (the opponent's) to 1 (own).
    pub ownership: Vec<f32>,
}

/// Off the board: a gathered neighbour that reads as zero (the padding).
const OFF: u32 = u32::MAX;

/// Buffers one thread reuses from evaluation to evaluation, and the code its convolutions
/// run on.
#[derive(Default)]
pub struct Workspace {
    kernel: Kernel,
    /// The 3x3 neighbourhood of each point (the tap `ky * 3 + kx` reads the point at
    /// `(x + kx - 1, y + ky - 1)`), for the board last seen.
    taps: Vec<[u32; 9]>,
    taps_for: Option<(usize, Topology)>,
    /// The board cut into Winograd's tiles, for the board last seen.
    tiles: Tiles,
    winograd: winograd::Buffers,
    /// The board cut into F(2x2)'s tiles, for the 8-bit Winograd kernel.
    int8_tiles: Tiles,
    winograd_int8: winograd_int8::Buffers,
    gathered: Vec<f32>,
    /// A layer's input in bfloat16 pairs, for the bfloat16 kernels.
    pairs: Vec<u32>,
    amx: amx::Buffers,
    /// A layer's input in 8-bit quads, and each position's scale, for the 8-bit kernel.
    quads: Vec<u32>,
    quad_scales: Vec<f32>,
    a: Vec<f32>,
    b: Vec<f32>,
    c: Vec<f32>,
    head: Vec<f32>,
}

impl Workspace {
    /// A workspace whose convolutions run on `kernel` (where it takes their width; the GEMM
    /// elsewhere). [`Workspace::default`] runs on the fastest this core has.
    pub fn with_kernel(kernel: Kernel) -> Workspace {
        Workspace {
            kernel,
            ..Workspace::default()
        }
    }

    fn prepare(&mut self, geo: &Geometry) {
        if let Some(form) = self.kernel.winograd_form(geo.size()) {
            self.tiles.prepare(geo, form);
        }
        if self.kernel.runs_int8_winograd() {
            self.int8_tiles.prepare(geo, Form::F2);
        }
        let key = (geo.size(), geo.topology());
        if self.taps_for == Some(key) {
            return;
        }
        let size = geo.size() as i64;
        let torus = geo.topology() == Topology::Torus;
        self.taps.clear();
        for p in geo.points() {
            let (x, y) = geo.xy(p);
            let mut taps = [OFF; 9];
            for ky in 0..3i64 {
                for kx in 0..3i64 {
                    let (mut sx, mut sy) = (x as i64 + kx - 1, y as i64 + ky - 1);
                    if torus {
                        sx = sx.rem_euclid(size);
                        sy = sy.rem_euclid(size);
                    }
                    if (0..size).contains(&sx) && (0..size).contains(&sy) {
                        taps[(ky * 3 + kx) as usize] = (sy * size + sx) as u32;
                    }
                }
            }
            self.taps.push(taps);
        }
        self.taps_for = Some(key);
    }
}

/// `c[m x n] = a[m x k] * b[k x n] + bias` (bias per column), all row-major.
fn product(m: usize, k: usize, n: usize, a: &[f32], b: &[f32], bias: &[f32], c: &mut Vec<f32>) {
    c.clear();
    c.reserve(m * n);
    for _ in 0..m {
        c.extend_from_slice(bias);
    }
    // SAFETY: the slices hold at least m*k, k*n and m*n elements (asserted), row-major
    // with the strides given.
    assert!(a.len() >= m * k && b.len() >= k * n && c.len() == m * n && bias.len() == n);
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            k as isize,
            1,
            b.as_ptr(),
            n as isize,
            1,
            1.0,
            c.as_mut_ptr(),
            n as isize,
            1,
        );
    }
}

fn relu(v: &mut [f32]) {
    for x in v {
        *x = x.max(0.0);
    }
}

/// A convolution's scratch space.
struct Scratch<'a> {
    tiles: &'a Tiles,
    winograd: &'a mut winograd::Buffers,
    int8_tiles: &'a Tiles,
    winograd_int8: &'a mut winograd_int8::Buffers,
    gathered: &'a mut Vec<f32>,
    pairs: &'a mut Vec<u32>,
    amx: &'a mut amx::Buffers,
    quads: &'a mut Vec<u32>,
    quad_scales: &'a mut Vec<f32>,
}

/// A convolution of `input` (`positions * points` rows of `conv.inputs`) into `out`: the
/// 8-bit Winograd kernel, the direct 8-bit or a bfloat16 kernel (AMX's or AVX-512's) where the net was made ready for it and the core, the
/// kernel and the width allow, else (a 3x3 in float32) Winograd's where they allow, else the
/// direct kernel where they allow, else a product over gathered taps.
fn convolve(
    conv: &Conv,
    kernel: Kernel,
    taps: &[[u32; 9]],
    positions: usize,
    input: &[f32],
    scratch: &mut Scratch,
    out: &mut Vec<f32>,
) {
    let gathered = &mut *scratch.gathered;
    if let Some(weights) = conv
        .int8_winograd
        .as_ref()
        .filter(|_| kernel.runs_int8_winograd())
    {
        let job = winograd::Job {
            tiles: scratch.int8_tiles,
            points: taps.len(),
            positions,
            inputs: conv.inputs,
            outputs: conv.outputs,
            transformed: &[],
            bias: &conv.bias,
            input,
        };
        winograd_int8::convolve(&job, weights, scratch.winograd_int8, out);
        return;
    }
    let int8_tiles = conv.int8_tiles.as_ref().filter(|_| amx::takes_int8(kernel));
    let int8_vectors = conv
        .int8
        .as_ref()
        .filter(|_| kernel.runs_int8() && int8::fits(conv.outputs));
    if let Some(weights) = int8_tiles.or(int8_vectors) {
        int8::quantize_input(
            input,
            positions,
            taps.len(),
            conv.inputs,
            scratch.quads,
            scratch.quad_scales,
        );
        let job = QuadJob {
            taps,
            kernel: conv.kernel,
            positions,
            inputs: conv.inputs,
            outputs: conv.outputs,
            weights,
            bias: &conv.bias,
            input: scratch.quads,
            input_scales: scratch.quad_scales,
        };
        if int8_tiles.is_some() {
            amx::convolve_int8(&job, scratch.amx, out);
        } else {
            int8::convolve(&job, out);
        }
        return;
    }
    let on_tiles = !conv.bf16_tiles.is_empty() && amx::takes_bf16(kernel);
    let on_vectors = kernel.runs_bf16() && bf16::fits(conv.outputs);
    if !conv.bf16.is_empty() && (on_tiles || on_vectors) {
        let rows = positions * taps.len();
        bf16::convert_input(input, rows, conv.inputs, scratch.pairs);
        let job = PairJob {
            taps,
            kernel: conv.kernel,
            positions,
            inputs: conv.inputs,
            outputs: conv.outputs,
            weights: if on_tiles {
                &conv.bf16_tiles
            } else {
                &conv.bf16
            },
            bias: &conv.bias,
            input: scratch.pairs,
        };
        if on_tiles {
            amx::convolve_bf16(&job, scratch.amx, out);
        } else {
            bf16::convolve(&job, out);
        }
        return;
    }
    let form = scratch
        .tiles
        .form()
        .filter(|_| winograd::fits(conv.outputs));
    if let Some(form) = form.filter(|&form| conv.kernel == 3 && !conv.winograd.of(form).is_empty())
    {
        let job = winograd::Job {
            tiles: scratch.tiles,
            points: taps.len(),
            positions,
            inputs: conv.inputs,
            outputs: conv.outputs,
            transformed: conv.winograd.of(form),
            bias: &conv.bias,
            input,
        };
        winograd::convolve(&job, scratch.winograd, out);
        return;
    }
    if let Some(isa) = kernel.direct_for(conv.outputs) {
        let job = Job {
            taps,
            kernel: conv.kernel,
            positions,
            inputs: conv.inputs,
            outputs: conv.outputs,
            weights: &conv.weights,
            bias: &conv.bias,
            input,
        };
        // The gathered buffer is not needed here: it lends its space for the zero row.
        direct::convolve(&job, isa, gathered, out);
        return;
    }
    let points = taps.len();
    let rows = positions * points;
    let cin = conv.inputs;
    if conv.kernel == 1 {
        product(
            rows,
            cin,
            conv.outputs,
            input,
            &conv.weights,
            &conv.bias,
            out,
        );
        return;
    }
    gathered.clear();
    gathered.resize(rows * 9 * cin, 0.0);
    for pos in 0..positions {
        let base = pos * points;
        for (p, neighbourhood) in taps.iter().enumerate() {
            let row = &mut gathered[(base + p) * 9 * cin..(base + p + 1) * 9 * cin];
            for (t, &q) in neighbourhood.iter().enumerate() {
                if q != OFF {
                    let src = (base + q as usize) * cin;
                    row[t * cin..(t + 1) * cin].copy_from_slice(&input[src..src + cin]);
                }
            }
        }
    }
    product(
        rows,
        9 * cin,
        conv.outputs,
        gathered,
        &conv.weights,
        &conv.bias,
        out,
    );
}

/// Mean, mean scaled by the board's size and max over the points of each channel.
fn pool(map: &[f32], points: usize, channels: usize, out: &mut Vec<f32>) {
    out.clear();
    let mut mean = vec![0.0f32; channels];
    let mut max = vec![f32::NEG_INFINITY; channels];
    for row in map.chunks_exact(channels).take(points) {
        for ((m, x), &v) in mean.iter_mut().zip(max.iter_mut()).zip(row) {
            *m += v;
            *x = x.max(v);
        }
    }
    let scale = ((points as f32).sqrt() - 14.0) / 10.0;
    for m in &mut mean {
        *m /= points as f32;
    }
    out.extend_from_slice(&mean);
    out.extend(mean.iter().map(|m| m * scale));
    out.extend_from_slice(&max);
}

fn dense(layer: &Dense, input: &[f32], out: &mut Vec<f32>) {
    product(
        1,
        layer.inputs,
        layer.outputs,
        input,
        &layer.weights,
        &layer.bias,
        out,
    );
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Weights {
    /// The net's answer for each of `inputs`, all positions on `geo`.
    pub fn evaluate(
        &self,
        geo: &Geometry,
        inputs: &[&Inputs],
        ws: &mut Workspace,
    ) -> Vec<Evaluation> {
        let own = self.for_size(geo.size());
        if !std::ptr::eq(own, self) {
            return own.evaluate(geo, inputs, ws);
        }
        ws.prepare(geo);
        let points = geo.num_points();
        let positions = inputs.len();
        let Workspace {
            kernel,
            taps,
            tiles,
            winograd,
            int8_tiles,
            winograd_int8,
            gathered,
            pairs,
            amx,
            quads,
            quad_scales,
            a,
            b,
            c,
            head,
            ..
        } = ws;
        let buffers = &mut Scratch {
            tiles,
            winograd,
            int8_tiles,
            winograd_int8,
            gathered,
            pairs,
            amx,
            quads,
            quad_scales,
        };
        // The inputs, the globals spread over every point.
        a.clear();
        a.reserve(positions * points * INPUT_CHANNELS);
        for input in inputs {
            for p in 0..points {
                let planes = &input.planes[p * BINARY_PLANES..(p + 1) * BINARY_PLANES];
                a.extend(planes.iter().map(|&v| v as f32));
                a.extend_from_slice(&input.globals[..GLOBALS]);
            }
        }
        convolve(&self.stem, *kernel, taps, positions, a, buffers, b);
        relu(b);
        // The trunk: `b` holds the blocks' input and output.
        let mut bias = Vec::new();
        for block in &self.blocks {
            convolve(&block.conv1, *kernel, taps, positions, b, buffers, a);
            if let Some(pooling) = &block.pooling {
                // The pooled channels, then each position's whole-board bias on conv1's.
                convolve(&pooling.conv, *kernel, taps, positions, b, buffers, c);
                relu(c);
                let (g, own) = (pooling.conv.outputs, block.conv1.outputs);
                for pos in 0..positions {
                    let map = &c[pos * points * g..(pos + 1) * points * g];
                    pool(map, points, g, head);
                    dense(&pooling.linear, head, &mut bias);
                    for row in a[pos * points * own..(pos + 1) * points * own].chunks_exact_mut(own)
                    {
                        for (x, &add) in row.iter_mut().zip(&bias) {
                            *x += add;
                        }
                    }
                }
            }
            relu(a);
            convolve(&block.conv2, *kernel, taps, positions, a, buffers, c);
            for (x, skip) in c.iter_mut().zip(b.iter()) {
                *x = (*x + skip).max(0.0);
            }
            std::mem::swap(b, c);
        }
        let h = self.head_channels;
        let mut out = Vec::with_capacity(positions);
        // Policy head.
        convolve(&self.policy_conv, *kernel, taps, positions, b, buffers, a);
        relu(a);
        convolve(&self.policy_out, *kernel, taps, positions, a, buffers, c);
        let mut pooled = Vec::new();
        let mut scratch = Vec::new();
        for pos in 0..positions {
            let map = &a[pos * points * h..(pos + 1) * points * h];
            pool(map, points, h, &mut pooled);
            dense(&self.policy_pass, &pooled, &mut scratch);
            let mut logits: Vec<f32> = c[pos * points..(pos + 1) * points].to_vec();
            logits.push(scratch[0]);
            let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let mut sum = 0.0;
            for l in &mut logits {
                *l = (*l - top).exp();
                sum += *l;
            }
            for l in &mut logits {
                *l /= sum;
            }
            out.push(Evaluation {
                policy: logits,
                ..Evaluation::default()
            });
        }
        // Ownership and value head: the owners' logits in `c`, the value head's map in `a`.
        if let Some(own) = &self.ownership_conv {
            convolve(own, *kernel, taps, positions, b, buffers, a);
            relu(a);
            convolve(&self.ownership_out, *kernel, taps, positions, a, buffers, c);
        }
        convolve(&self.value_conv, *kernel, taps, positions, b, buffers, a);
        relu(a);
        if self.ownership_conv.is_none() {
            convolve(&self.ownership_out, *kernel, taps, positions, a, buffers, c);
        }
        for (pos, e) in out.iter_mut().enumerate() {
            let map = &a[pos * points * h..(pos + 1) * points * h];
            pool(map, points, h, &mut pooled);
            dense(&self.value_fc1, &pooled, head);
            relu(head);
            dense(&self.value_fc2, head, &mut scratch);
            e.win = sigmoid(scratch[0]);
            e.lead = scratch[1] * 20.0;
            e.ownership = c[pos * points..(pos + 1) * points]
                .iter()
                .map(|x| x.tanh())
                .collect();
        }
        out
    }
}

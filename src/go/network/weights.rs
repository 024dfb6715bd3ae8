//! The network's weights, read from a safetensors file and checked against the shapes the
//! model needs before any is used: a missing, empty, truncated or mismatched file is an
//! error that says what is wrong, never a panic.

use std::collections::HashMap;
use std::fmt;

use safetensors::{Dtype, SafeTensors};

use crate::go::network::direct::Precision;
use crate::go::network::inputs::{BINARY_PLANES, GLOBALS};
use crate::go::network::int8::{self, QuantizedWeights};
use crate::go::network::winograd;
use crate::go::network::winograd_int8::{self, QuantizedTransformed};
use crate::go::network::{amx, bf16};

/// Input channels of the first convolution: the binary planes and the global numbers
/// spread over the board.
pub const INPUT_CHANNELS: usize = BINARY_PLANES + GLOBALS;

/// Why a weights file cannot be used.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightsError(pub String);

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for WeightsError {}

fn error(text: impl Into<String>) -> WeightsError {
    WeightsError(text.into())
}

/// A convolution (batch norm folded in), its weights laid out for the product with the
/// gathered inputs: row `tap * inputs + input`, column `output`.
#[derive(Clone, Debug)]
pub struct Conv {
    pub inputs: usize,
    pub outputs: usize,
    /// 1 or 3.
    pub kernel: usize,
    pub weights: Vec<f32>,
    pub bias: Vec<f32>,
    /// The weights in bfloat16 pairs (`bf16::pack_weights`) where the net was made ready
    /// for [`Precision::Bf16`] and the bfloat16 kernel takes the width; else empty.
    pub bf16: Vec<u32>,
    /// The same weights in AMX's tiles (`amx::pack_weights`) where the net was made ready
    /// for [`Precision::Bf16`], the core has AMX and its kernel takes the width; else empty.
    pub bf16_tiles: Vec<u32>,
    /// The weights in 8 bits where the net was made ready for [`Precision::Int8`], the
    /// 8-bit kernel takes the width and the inputs are a ReLU's; else none.
    pub int8: Option<QuantizedWeights>,
    /// The same in AMX's tiles (`amx::pack_int8_weights`) where the core has AMX's 8-bit
    /// products and its kernel takes the width; else none.
    pub int8_tiles: Option<QuantizedWeights>,
    /// A 3x3's weights in F(2x2, 3x3)'s domain in 8 bits, where the net was made ready for
    /// [`Precision::Int8`], the core runs that kernel, the width fits and the inputs are a
    /// ReLU's (as `int8` above); else none.
    pub int8_winograd: Option<QuantizedTransformed>,
    /// A 3x3 convolution's weights in Winograd's domains, for the float32 kernel that
    /// computes it that way; empty for a 1x1 and on cores without that kernel.
    pub winograd: winograd::Transformed,
}

impl Conv {
    /// Ready for `precision`: the low-precision weights made (or dropped) from the float32
    /// ones, which stay as they are. `signed_inputs`: the inputs may be negative (the 8-bit
    /// kernel cannot take them).
    fn prepare(&mut self, precision: Precision, signed_inputs: bool) {
        let int8_tiles = precision == Precision::Int8
            && amx::int8_on_this_core()
            && amx::int8_pays(self.outputs)
            && !signed_inputs;
        self.int8 = match precision {
            Precision::Int8 if (int8::fits(self.outputs) || int8_tiles) && !signed_inputs => {
                Some(int8::quantize_weights(
                    self.kernel * self.kernel,
                    self.inputs,
                    self.outputs,
                    &self.weights,
                ))
            }
            _ => None,
        };
        self.int8_winograd = match precision {
            Precision::Int8
                if self.kernel == 3
                    && winograd_int8::on_this_core()
                    && winograd::fits(self.outputs)
                    && !signed_inputs =>
            {
                Some(winograd_int8::quantize_weights(
                    self.inputs,
                    self.outputs,
                    &self.weights,
                ))
            }
            _ => None,
        };
        let taps = self.kernel * self.kernel;
        let bf16_tiles =
            precision == Precision::Bf16 && amx::on_this_core() && amx::fits(self.outputs);
        self.bf16 = match precision {
            Precision::Bf16 if bf16::fits(self.outputs) || bf16_tiles => {
                bf16::pack_weights(taps, self.inputs, self.outputs, &self.weights)
            }
            _ => Vec::new(),
        };
        self.int8_tiles = match &self.int8 {
            Some(q) if int8_tiles => Some(amx::pack_int8_weights(
                self.kernel * self.kernel,
                self.inputs,
                self.outputs,
                q,
            )),
            _ => None,
        };
        self.bf16_tiles = if bf16_tiles {
            amx::pack_weights(taps, bf16::pairs(self.inputs), self.outputs, &self.bf16)
        } else {
            Vec::new()
        };
    }
}

/// A dense layer: row `input`, column `output`.
#[derive(Clone, Debug)]
pub struct Dense {
    pub inputs: usize,
    pub outputs: usize,
    pub weights: Vec<f32>,
    pub bias: Vec<f32>,
}

/// A residual block: `relu(x + conv2(relu(conv1(x))))`, where a pooling block adds to
/// `conv1`'s outputs, before their ReLU, a bias from the whole board.
#[derive(Clone, Debug)]
pub struct Block {
    pub conv1: Conv,
    pub conv2: Conv,
    pub pooling: Option<Pooling>,
}

/// KataGo's global pooling inside a block (format version 2): `conv` gives `G` channels
/// whose mean, mean scaled by the board's size and max over the board become, through
/// `linear` (`3G` inputs, no bias of its own), a bias on each of the block's `conv1`
/// outputs, so that every point sees the whole board (a ko threat, who is ahead).
#[derive(Clone, Debug)]
pub struct Pooling {
    pub conv: Conv,
    pub linear: Dense,
}

/// Every layer of the net.
#[derive(Clone, Debug)]
pub struct Weights {
    pub channels: usize,
    pub head_channels: usize,
    pub stem: Conv,
    pub blocks: Vec<Block>,
    pub policy_conv: Conv,
    pub policy_out: Conv,
    pub policy_pass: Dense,
    pub value_conv: Conv,
    pub value_fc1: Dense,
    pub value_fc2: Dense,
    /// The ownership head's own 1x1 convolution of the trunk (a version 3 file's
    /// `ownership.conv`), which `ownership_out` reads after a ReLU; without one,
    /// `ownership_out` reads the value head's map.
    pub ownership_conv: Option<Conv>,
    pub ownership_out: Conv,
    /// What its convolutions compute in where the core and the kernel allow
    /// ([`Weights::with_precision`]); float32 as read.
    pub precision: Precision,
    /// The file's metadata (training steps and the like), for the log.
    pub metadata: HashMap<String, String>,
    /// The net as each of these board sizes has it: the same layers, its batch-normalized
    /// convolutions folded with that size's own statistics (metadata `size_norms`).
    /// Training normalizes a batch, which holds one size, by its own statistics; the
    /// statistics of all sizes together (the layers above) are those of no size, and cost
    /// 19x19 a quarter of a nat of policy loss. Empty in each of these nets.
    pub sized: Vec<(usize, Weights)>,
}

struct Reader<'a> {
    tensors: SafeTensors<'a>,
}

impl Reader<'_> {
    fn floats(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, WeightsError> {
        let t = self
            .tensors
            .tensor(name)
            .map_err(|_| error(format!("tensor {name} is missing")))?;
        if t.dtype() != Dtype::F32 {
            return Err(error(format!("tensor {name} is {:?}, not F32", t.dtype())));
        }
        if t.shape() != shape {
            return Err(error(format!(
                "tensor {name} has shape {:?}, the net needs {shape:?}",
                t.shape()
            )));
        }
        Ok(t.data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }

    /// A convolution stored as PyTorch does, `[out, in, ky, kx]`.
    fn conv(
        &self,
        name: &str,
        inputs: usize,
        outputs: usize,
        kernel: usize,
    ) -> Result<Conv, WeightsError> {
        let w = self.floats(
            &format!("{name}.weight"),
            &[outputs, inputs, kernel, kernel],
        )?;
        let bias = self.floats(&format!("{name}.bias"), &[outputs])?;
        let taps = kernel * kernel;
        let mut weights = vec![0.0; taps * inputs * outputs];
        for o in 0..outputs {
            for i in 0..inputs {
                for t in 0..taps {
                    weights[(t * inputs + i) * outputs + o] = w[(o * inputs + i) * taps + t];
                }
            }
        }
        // Made only where the kernel that reads them runs: 16/9 and 4 times the 3x3 weights.
        let winograd = if kernel == 3 && winograd::on_this_core() {
            winograd::Transformed::new(inputs, outputs, &weights)
        } else {
            winograd::Transformed::default()
        };
        Ok(Conv {
            inputs,
            outputs,
            kernel,
            weights,
            bias,
            bf16: Vec::new(),
            bf16_tiles: Vec::new(),
            int8: None,
            int8_tiles: None,
            int8_winograd: None,
            winograd,
        })
    }

    /// A dense layer stored as PyTorch does, `[out, in]`.
    fn dense(&self, name: &str, inputs: usize, outputs: usize) -> Result<Dense, WeightsError> {
        let bias = self.floats(&format!("{name}.bias"), &[outputs])?;
        self.dense_with_bias(name, inputs, outputs, bias)
    }

    /// A dense layer with no bias tensor of its own (zeros in its place).
    fn dense_unbiased(
        &self,
        name: &str,
        inputs: usize,
        outputs: usize,
    ) -> Result<Dense, WeightsError> {
        self.dense_with_bias(name, inputs, outputs, vec![0.0; outputs])
    }

    fn dense_with_bias(
        &self,
        name: &str,
        inputs: usize,
        outputs: usize,
        bias: Vec<f32>,
    ) -> Result<Dense, WeightsError> {
        let w = self.floats(&format!("{name}.weight"), &[outputs, inputs])?;
        let mut weights = vec![0.0; inputs * outputs];
        for o in 0..outputs {
            for i in 0..inputs {
                weights[i * outputs + o] = w[o * inputs + i];
            }
        }
        Ok(Dense {
            inputs,
            outputs,
            weights,
            bias,
        })
    }
}

fn number(meta: &HashMap<String, String>, key: &str) -> Result<usize, WeightsError> {
    let text = meta
        .get(key)
        .ok_or_else(|| error(format!("metadata has no {key}")))?;
    text.parse()
        .ok()
        .filter(|&n| n > 0 && n <= 4096)
        .ok_or_else(|| error(format!("metadata {key} = {text:?} is not a size")))
}

/// A version 2 file's pooling blocks (0-based, each named once) and the channels each
/// pools (`G`, from 1 to one fewer than the trunk's).
fn pooling_layout(
    meta: &HashMap<String, String>,
    blocks: usize,
    channels: usize,
) -> Result<(Vec<usize>, usize), WeightsError> {
    let text = meta
        .get("pooling_blocks")
        .ok_or_else(|| error("a version 2 network's metadata has no pooling_blocks"))?;
    let indices = distinct_numbers(
        "pooling_blocks",
        text,
        0..blocks,
        &format!("a block from 0 to {}", blocks - 1),
    )?;
    let pooled = number(meta, "pooled_channels")?;
    if pooled >= channels {
        return Err(error(format!(
            "metadata pooled_channels = {pooled}: not fewer than the {channels} channels"
        )));
    }
    Ok((indices, pooled))
}

impl Weights {
    /// Reads a safetensors file's bytes.
    ///
    /// # Errors
    /// What is wrong with the file: not safetensors, not this project's format or version,
    /// a tensor missing or of the wrong type or shape.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        if bytes.is_empty() {
            return Err(error("the file is empty"));
        }
        let (_, header) = SafeTensors::read_metadata(bytes)
            .map_err(|e| error(format!("not a safetensors file ({e})")))?;
        let meta = header.metadata().clone().unwrap_or_default();
        if meta.get("format").map(String::as_str) != Some("shicho-net") {
            return Err(error(
                "not a shicho network (metadata format != shicho-net)",
            ));
        }
        let version = meta.get("version").map(String::as_str);
        if !matches!(version, Some("1" | "2" | "3")) {
            return Err(error(format!(
                "network version {version:?}; this engine reads versions 1 to 3"
            )));
        }
        if number(&meta, "binary_planes")? != BINARY_PLANES || number(&meta, "globals")? != GLOBALS
        {
            return Err(error(format!(
                "the network reads other inputs than this engine writes ({BINARY_PLANES} planes, {GLOBALS} globals)"
            )));
        }
        let blocks = number(&meta, "blocks")?;
        let channels = number(&meta, "channels")?;
        let head = number(&meta, "head_channels")?;
        let hidden = number(&meta, "value_hidden")?;
        if let Some(named) = meta.get("precision")
            && Precision::parse(named).is_none()
        {
            return Err(error(format!(
                "metadata precision = {named:?}: the precisions are f32, bf16 and int8"
            )));
        }
        // Version 2 has pooling blocks; version 3 an ownership head of its own, with or
        // without them (an engine reading versions 1 and 2 alone would read its ownership
        // from the value head's map, wrongly, so the version refuses it there).
        let (pooling_blocks, pooled) = if version == Some("2")
            || (version == Some("3") && meta.contains_key("pooling_blocks"))
        {
            pooling_layout(&meta, blocks, channels)?
        } else {
            (Vec::new(), 0)
        };
        let ownership = if version == Some("3") {
            Some(number(&meta, "ownership_channels")?)
        } else {
            None
        };
        let tensors = SafeTensors::deserialize(bytes)
            .map_err(|e| error(format!("not a safetensors file ({e})")))?;
        let r = Reader { tensors };
        let shape = Shape {
            blocks,
            channels,
            head,
            hidden,
            pooling_blocks,
            pooled,
            ownership,
        };
        let mut sized = Vec::new();
        for size in size_norms(&meta)? {
            let own = r.layers(&shape, &format!("size{size}."), HashMap::new(), Vec::new())?;
            sized.push((size, own));
        }
        r.layers(&shape, "", meta, sized)
    }
}

/// A net's shape, from its metadata.
struct Shape {
    blocks: usize,
    channels: usize,
    head: usize,
    hidden: usize,
    pooling_blocks: Vec<usize>,
    pooled: usize,
    /// The ownership head's own channels (version 3), if it has its own convolution.
    ownership: Option<usize>,
}

/// The sizes a file has batch-norm statistics of its own for (`size_norms`: none, or sizes
/// from 2 to 25, each once).
fn size_norms(meta: &HashMap<String, String>) -> Result<Vec<usize>, WeightsError> {
    let Some(text) = meta.get("size_norms") else {
        return Ok(Vec::new());
    };
    distinct_numbers("size_norms", text, 2..26, "a board size from 2 to 25")
}

/// Metadata `key`'s comma-separated `text`: numbers in `range`, each named once (`what`
/// says which, in the error).
fn distinct_numbers(
    key: &str,
    text: &str,
    range: std::ops::Range<usize>,
    what: &str,
) -> Result<Vec<usize>, WeightsError> {
    let mut numbers = Vec::new();
    for item in text.split(',') {
        let n = item
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|n| range.contains(n) && !numbers.contains(n))
            .ok_or_else(|| {
                error(format!(
                    "metadata {key} = {text:?}: {item:?} is not {what} named once"
                ))
            })?;
        numbers.push(n);
    }
    Ok(numbers)
}

impl Reader<'_> {
    /// Every layer, the batch-normalized convolutions' names after `prefix` (a size's own,
    /// or "" for all sizes'); the layers without batch norm are every size's.
    fn layers(
        &self,
        shape: &Shape,
        prefix: &str,
        metadata: HashMap<String, String>,
        sized: Vec<(usize, Weights)>,
    ) -> Result<Weights, WeightsError> {
        let r = self;
        let &Shape {
            blocks,
            channels,
            head,
            hidden,
            pooled,
            ..
        } = shape;
        let mut block_layers = Vec::with_capacity(blocks);
        for i in 0..blocks {
            let name = |layer: &str| format!("{prefix}blocks.{i}.{layer}");
            let shared = |layer: &str| format!("blocks.{i}.{layer}");
            block_layers.push(if shape.pooling_blocks.contains(&i) {
                let own = channels - pooled;
                Block {
                    conv1: r.conv(&name("conv1"), channels, own, 3)?,
                    conv2: r.conv(&name("conv2"), own, channels, 3)?,
                    pooling: Some(Pooling {
                        conv: r.conv(&name("pool.conv"), channels, pooled, 3)?,
                        linear: r.dense_unbiased(&shared("pool.linear"), 3 * pooled, own)?,
                    }),
                }
            } else {
                Block {
                    conv1: r.conv(&name("conv1"), channels, channels, 3)?,
                    conv2: r.conv(&name("conv2"), channels, channels, 3)?,
                    pooling: None,
                }
            });
        }
        Ok(Weights {
            channels,
            head_channels: head,
            stem: r.conv(&format!("{prefix}stem"), INPUT_CHANNELS, channels, 3)?,
            blocks: block_layers,
            policy_conv: r.conv(&format!("{prefix}policy.conv"), channels, head, 1)?,
            policy_out: r.conv("policy.out", head, 1, 1)?,
            policy_pass: r.dense("policy.pass", 3 * head, 1)?,
            value_conv: r.conv(&format!("{prefix}value.conv"), channels, head, 1)?,
            value_fc1: r.dense("value.fc1", 3 * head, hidden)?,
            value_fc2: r.dense("value.fc2", hidden, 2)?,
            ownership_conv: match shape.ownership {
                Some(k) => Some(r.conv("ownership.conv", channels, k, 1)?),
                None => None,
            },
            ownership_out: r.conv("ownership.out", shape.ownership.unwrap_or(head), 1, 1)?,
            precision: Precision::F32,
            metadata,
            sized,
        })
    }
}

impl Weights {
    /// The net that board size `size` is evaluated with: its own where the file has one.
    pub fn for_size(&self, size: usize) -> &Weights {
        self.sized
            .iter()
            .find(|(n, _)| *n == size)
            .map_or(self, |(_, own)| own)
    }

    /// The precision the file says the net is meant to run in (metadata `precision`, the
    /// one its held-out scores were checked in), if it names one: the engine's default for
    /// it where the core has that precision.
    pub fn named_precision(&self) -> Option<Precision> {
        self.metadata
            .get("precision")
            .and_then(|name| Precision::parse(name))
    }

    /// The net evaluated in `precision` (on the cores and kernels that have it; in float32
    /// elsewhere): its low-precision weights made once, here.
    pub fn with_precision(mut self, precision: Precision) -> Weights {
        self.sized = std::mem::take(&mut self.sized)
            .into_iter()
            .map(|(size, own)| (size, own.with_precision(precision)))
            .collect();
        self.precision = precision;
        // The stem reads the inputs, komi among them (negative for the side that gives it);
        // every other convolution reads a ReLU's output.
        self.stem.prepare(precision, true);
        for conv in [
            &mut self.policy_conv,
            &mut self.policy_out,
            &mut self.value_conv,
        ] {
            conv.prepare(precision, false);
        }
        // The ownership head stays in float32: it costs under 0.5% of the net's
        // multiply-adds, and its tanh is steep where the owners are sure, so rounding its
        // inputs adds to the trunk's rounding (a 48-channel head's worst 8-bit fixture:
        // 0.157 from PyTorch's owner rounded, 0.143 not; tests/network.rs allows 0.15).
        for block in &mut self.blocks {
            block.conv1.prepare(precision, false);
            block.conv2.prepare(precision, false);
            if let Some(pooling) = &mut block.pooling {
                pooling.conv.prepare(precision, false);
            }
        }
        self
    }

    /// Multiply-adds of one evaluation on `points` points (the convolutions; the heads'
    /// dense layers are negligible).
    pub fn multiply_adds(&self, points: usize) -> usize {
        let conv = |c: &Conv| c.kernel * c.kernel * c.inputs * c.outputs * points;
        conv(&self.stem)
            + self
                .blocks
                .iter()
                .map(|b| {
                    conv(&b.conv1)
                        + conv(&b.conv2)
                        + b.pooling.as_ref().map_or(0, |p| conv(&p.conv))
                })
                .sum::<usize>()
            + conv(&self.policy_conv)
            + conv(&self.value_conv)
            + conv(&self.policy_out)
            + conv(&self.ownership_out)
            + self.ownership_conv.as_ref().map_or(0, conv)
    }
}

/// The net built into the binary (`data/net.safetensors`).
static BUILTIN: &[u8] = include_bytes!("data/net.safetensors");

impl Weights {
    /// The built-in net, read once.
    pub fn builtin() -> &'static Weights {
        static WEIGHTS: std::sync::OnceLock<Weights> = std::sync::OnceLock::new();
        WEIGHTS.get_or_init(|| Weights::from_bytes(BUILTIN).expect("the built-in net is valid"))
    }
}

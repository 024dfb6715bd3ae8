//! The neural network: what it sees of a position (`inputs`), its weights (`weights`),
//! its evaluation on the CPU (`model`) and the board's symmetries it can be asked through
//! (`symmetry`): a residual convolutional net with a policy head (a
//! move's chance of being the teacher's choice) and a value head (the side to move's
//! chance of winning, its score lead and each point's owner).
//!
//! The net is fully convolutional, so one set of weights serves every board size; on a
//! torus its convolutions wrap around instead of seeing an edge. It was trained on
//! positions labelled by a stronger engine (see `train/README.md`).

pub mod amx;
pub mod bf16;
pub mod direct;
pub mod evaluator;
pub mod inputs;
pub mod int8;
pub mod model;
pub mod symmetry;
pub mod weights;
pub mod winograd;
pub mod winograd_int8;

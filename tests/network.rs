//! The network's evaluation in Rust against the training framework's own outputs: the
//! trainer (`train/train.py --fixtures`) wrote, for positions of every board size (and on
//! a torus, where its convolutions wrap), the inputs and what PyTorch answered for them
//! with the same weights. Rust must agree within 1e-4.

use shicho::search::network::inputs::{BINARY_PLANES, GLOBALS, Inputs};
use shicho::search::network::model::Workspace;
use shicho::search::network::weights::Weights;
use shicho::{Geometry, Topology};

const TOLERANCE: f32 = 1e-4;

fn check(weights: &Weights, fixtures_path: &str) {
    let fixtures: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures_path).unwrap()).unwrap();
    let cases = fixtures["cases"].as_array().unwrap();
    assert!(cases.len() >= 20, "at least 20 positions");
    let mut ws = Workspace::default();
    let mut worst = 0.0f32;
    for (i, case) in cases.iter().enumerate() {
        let size = case["size"].as_u64().unwrap() as usize;
        let topology = if case["torus"].as_bool().unwrap() {
            Topology::Torus
        } else {
            Topology::Plane
        };
        let geo = Geometry::get(size, topology).unwrap();
        let planes: Vec<u8> = case["planes"]
            .as_str()
            .unwrap()
            .bytes()
            .map(|b| b - b'0')
            .collect();
        assert_eq!(planes.len(), geo.num_points() * BINARY_PLANES);
        let globals: Vec<f32> = floats(&case["globals"]);
        let mut inputs = Inputs {
            planes,
            ..Inputs::default()
        };
        inputs.globals.copy_from_slice(&globals[..GLOBALS]);
        let e = &weights.evaluate(geo, &[&inputs], &mut ws)[0];
        let mut close = |what: &str, got: f32, want: f32| {
            let diff = (got - want).abs();
            worst = worst.max(diff);
            assert!(
                diff <= TOLERANCE,
                "case {i} ({size}x{size} {topology:?}): {what} {got} against PyTorch's {want}"
            );
        };
        for (j, (&got, want)) in e.policy.iter().zip(floats(&case["policy"])).enumerate() {
            close(&format!("policy[{j}]"), got, want);
        }
        close("win", e.win, case["win"].as_f64().unwrap() as f32);
        // The lead is in points (20 times the net's output): its tolerance scales with it.
        close(
            "lead / 20",
            e.lead / 20.0,
            case["lead"].as_f64().unwrap() as f32 / 20.0,
        );
        for (j, (&got, want)) in e.ownership.iter().zip(floats(&case["owner"])).enumerate() {
            close(&format!("owner[{j}]"), got, want);
        }
    }
    eprintln!("{} positions, largest difference {worst:e}", cases.len());
}

fn floats(v: &serde_json::Value) -> Vec<f32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect()
}

/// The built-in net against the fixtures its training wrote
/// (`tests/data/network/builtin-fixtures.json`). `NET_WEIGHTS` and `NET_FIXTURES` check
/// another pair.
#[test]
fn rust_matches_pytorch_on_the_fixtures() {
    match (std::env::var("NET_WEIGHTS"), std::env::var("NET_FIXTURES")) {
        (Ok(w), Ok(f)) => {
            let weights = Weights::from_bytes(&std::fs::read(w).unwrap()).unwrap();
            check(&weights, &f);
        }
        _ => check(
            Weights::builtin(),
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/data/network/builtin-fixtures.json"
            ),
        ),
    }
}

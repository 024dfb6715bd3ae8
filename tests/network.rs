//! The network's evaluation in Rust against the training framework's own outputs: the
//! trainer (`train/train.py --fixtures`) wrote, for positions of every board size (and on
//! a torus, where its convolutions wrap), the inputs and what PyTorch answered for them
//! with the same weights. Rust must agree within 1e-4 in float32; in bfloat16, whose
//! roundings of the weights and activations (8 significant bits) the net carries through
//! its layers, within 0.05 (the built-in net: 0.009 in the policy, 0.014 in the win rate,
//! 0.02 in the lead over 20, 0.028 in the ownership); in 8 bits within 0.15 (the built-in
//! net: 0.019, 0.014, 0.046, 0.083).

use shicho::go::network::amx;
use shicho::go::network::direct::{Kernel, Precision};
use shicho::go::network::inputs::{BINARY_PLANES, GLOBALS, Inputs};
use shicho::go::network::model::Workspace;
use shicho::go::network::weights::Weights;
use shicho::{Geometry, Topology};

/// Every output's largest difference from PyTorch's: a probability, the win rate, the
/// ownership, the lead over 20.
fn tolerance(precision: Precision) -> f32 {
    match precision {
        Precision::F32 => 1e-4,
        Precision::Bf16 => 5e-2,
        Precision::Int8 => 0.15,
    }
}

/// Every kernel this core runs (the GEMM crate, the direct kernels on 8- and 16-lane
/// vectors, Winograd's two forms on 16) against the fixtures, in float32, and in every lower
/// precision this core has on the kernels that compute in it (`Best` on AMX's tiles where
/// the core has them, `Avx512` on the vectors). `NET_PRECISIONS=f32` checks float32 alone
/// (`train/smoke` on a 20-step net's new ownership head, whose owners the trunk's rounding
/// moves past the lower precisions' tolerances; the built-in net is checked in all).
fn check(weights: &Weights, fixtures_path: &str) {
    let lower = std::env::var("NET_PRECISIONS").map_or(true, |p| p != "f32");
    for kernel in [
        Kernel::Gemm,
        Kernel::Avx2,
        Kernel::Avx512,
        Kernel::Winograd2x2,
        Kernel::Winograd4x4,
        Kernel::Best,
    ] {
        if kernel.supported() {
            check_on(weights, fixtures_path, kernel);
        }
    }
    if !lower {
        eprintln!("NET_PRECISIONS=f32: float32 alone checked");
        return;
    }
    if Precision::Bf16.supported() {
        let bf16 = weights.clone().with_precision(Precision::Bf16);
        for kernel in [Kernel::Avx512, Kernel::Best] {
            assert!(kernel.runs_bf16());
            check_on(&bf16, fixtures_path, kernel);
        }
        if !amx::takes_bf16(Kernel::Best) {
            eprintln!("no AMX with bfloat16 on this core: its tiles not checked");
        }
    } else {
        eprintln!("no AVX-512 BF16 on this core: bfloat16 not checked");
    }
    if Precision::Int8.supported() {
        let int8 = weights.clone().with_precision(Precision::Int8);
        // The direct 8-bit kernel, and the 3x3 by F(2x2, 3x3) in 8 bits.
        for kernel in [Kernel::Avx512, Kernel::Best, Kernel::Winograd2x2] {
            assert!(kernel.runs_int8());
            check_on(&int8, fixtures_path, kernel);
        }
        assert!(Kernel::Winograd2x2.runs_int8_winograd() && !Kernel::Best.runs_int8_winograd());
        if !amx::takes_int8(Kernel::Best) {
            eprintln!("no AMX with 8-bit products on this core: its tiles not checked");
        }
    } else {
        eprintln!("no AVX-512 VNNI on this core: 8 bits not checked");
    }
}

fn check_on(weights: &Weights, fixtures_path: &str, kernel: Kernel) {
    let fixtures: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures_path).unwrap()).unwrap();
    let cases = fixtures["cases"].as_array().unwrap();
    assert!(cases.len() >= 20, "at least 20 positions");
    let mut ws = Workspace::with_kernel(kernel);
    // The largest difference in the policy, the win rate, the lead over 20, the ownership.
    let mut worst = [0.0f32; 4];
    for (i, case) in cases.iter().enumerate() {
        let (geo, inputs) = case_inputs(case);
        let (size, topology) = (geo.size(), geo.topology());
        let e = &weights.evaluate(geo, &[&inputs], &mut ws)[0];
        let mut close = |part: usize, what: &str, got: f32, want: f32| {
            let diff = (got - want).abs();
            worst[part] = worst[part].max(diff);
            assert!(
                diff <= tolerance(weights.precision),
                "{kernel:?} {:?}, case {i} ({size}x{size} {topology:?}): {what} {got} against PyTorch's {want}",
                weights.precision
            );
        };
        for (j, (&got, want)) in e.policy.iter().zip(floats(&case["policy"])).enumerate() {
            close(0, &format!("policy[{j}]"), got, want);
        }
        close(1, "win", e.win, case["win"].as_f64().unwrap() as f32);
        // The lead is in points (20 times the net's output): its tolerance scales with it.
        close(
            2,
            "lead / 20",
            e.lead / 20.0,
            case["lead"].as_f64().unwrap() as f32 / 20.0,
        );
        for (j, (&got, want)) in e.ownership.iter().zip(floats(&case["owner"])).enumerate() {
            close(3, &format!("owner[{j}]"), got, want);
        }
    }
    let [policy, win, lead, owner] = worst;
    eprintln!(
        "{kernel:?} {:?}: {} positions, largest difference {:e} (policy {policy:e}, win \
         {win:e}, lead / 20 {lead:e}, owner {owner:e})",
        weights.precision,
        cases.len(),
        worst.iter().copied().fold(0.0, f32::max),
    );
}

/// A fixture's board and the engine's inputs for it.
fn case_inputs(case: &serde_json::Value) -> (&'static Geometry, Inputs) {
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
    let mut inputs = Inputs {
        planes,
        ..Inputs::default()
    };
    inputs
        .globals
        .copy_from_slice(&floats(&case["globals"])[..GLOBALS]);
    (geo, inputs)
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

/// A net with KataGo's global pooling in its second block (format version 2: 2 blocks of
/// 32 channels, 16 of them pooled, so that every kernel takes each width), trained 60 steps
/// by `train/train.py --blocks 2 --channels 32 --head 16 --gpool-blocks 1 --gpool-channels
/// 16` on the first games of `t9-a` and `t19-a` (as `train/smoke` makes its records), and
/// what PyTorch answered with it.
#[test]
fn a_pooling_net_matches_pytorch_on_its_fixtures() {
    let weights = Weights::from_bytes(&pooling_bytes()).unwrap();
    assert!(weights.blocks[1].pooling.is_some() && weights.blocks[0].pooling.is_none());
    check(
        &weights,
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/network/pooling-fixtures.json"
        ),
    );
}

/// The plane positions of `size` in a fixtures file, as the engine's inputs.
fn fixture_inputs(fixtures_path: &str, size: usize) -> Vec<Inputs> {
    let fixtures: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures_path).unwrap()).unwrap();
    fixtures["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(case_inputs)
        .filter(|(geo, _)| geo.size() == size && geo.topology() == Topology::Plane)
        .map(|(_, inputs)| inputs)
        .collect()
}

/// Positions evaluated together (one taller product a layer, the pooling per position) get
/// the answers each gets alone, on every kernel, with and without pooling blocks.
#[test]
fn positions_evaluated_together_are_answered_as_alone() {
    let pooling = Weights::from_bytes(&pooling_bytes()).unwrap();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/network/");
    for (weights, fixtures) in [
        (Weights::builtin(), "builtin-fixtures.json"),
        (&pooling, "pooling-fixtures.json"),
    ] {
        for size in [9, 19] {
            let geo = Geometry::get(size, Topology::Plane).unwrap();
            let positions = fixture_inputs(&format!("{dir}{fixtures}"), size);
            let all: Vec<&Inputs> = positions.iter().collect();
            assert!(all.len() >= 3);
            for kernel in [Kernel::Gemm, Kernel::Avx2, Kernel::Avx512, Kernel::Best] {
                if !kernel.supported() {
                    continue;
                }
                let mut ws = Workspace::with_kernel(kernel);
                let together = weights.evaluate(geo, &all, &mut ws);
                for (i, one) in all.iter().enumerate() {
                    let alone = &weights.evaluate(geo, &[one], &mut ws)[0];
                    let e = &together[i];
                    let close = |a: f32, b: f32| (a - b).abs() <= 1e-5;
                    assert!(
                        close(e.win, alone.win)
                            && close(e.lead / 20.0, alone.lead / 20.0)
                            && e.policy
                                .iter()
                                .zip(&alone.policy)
                                .all(|(&a, &b)| close(a, b))
                            && e.ownership
                                .iter()
                                .zip(&alone.ownership)
                                .all(|(&a, &b)| close(a, b)),
                        "{fixtures} {size}x{size} {kernel:?}: position {i} of {} differs",
                        all.len()
                    );
                }
            }
        }
    }
}

// ----- malformed weights files ---------------------------------------------------------------

fn builtin_bytes() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/go/network/data/net.safetensors"
    ))
    .unwrap()
}

fn pooling_bytes() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/network/pooling.safetensors"
    ))
    .unwrap()
}

/// A file's JSON header and, apart, the tensors' bytes after it.
fn header_and_tensors(bytes: &[u8]) -> (serde_json::Value, Vec<u8>) {
    let header_len = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let header = serde_json::from_slice(&bytes[8..8 + header_len]).unwrap();
    (header, bytes[8 + header_len..].to_vec())
}

/// The built-in file with its metadata's `key` set to `value` (the tensors unchanged).
fn with_metadata(key: &str, value: &str) -> Vec<u8> {
    edited_metadata(&builtin_bytes(), key, Some(value))
}

/// `bytes` with its metadata's `key` set to `value`, or taken out (the tensors unchanged).
fn edited_metadata(bytes: &[u8], key: &str, value: Option<&str>) -> Vec<u8> {
    let (mut header, tensors) = header_and_tensors(bytes);
    match value {
        Some(value) => header["__metadata__"][key] = value.into(),
        None => {
            header["__metadata__"].as_object_mut().unwrap().remove(key);
        }
    }
    let mut text = serde_json::to_string(&header).unwrap();
    while !text.len().is_multiple_of(8) {
        text.push(' ');
    }
    let mut out = (text.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(&tensors);
    out
}

/// A count from the built-in file's metadata.
fn builtin_metadata(key: &str) -> u64 {
    let (header, _) = header_and_tensors(&builtin_bytes());
    header["__metadata__"][key]
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

fn refused(bytes: &[u8]) -> String {
    match Weights::from_bytes(bytes) {
        Ok(_) => panic!("accepted {} bytes", bytes.len()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn malformed_weights_are_refused_with_a_reason() {
    assert!(Weights::from_bytes(&builtin_bytes()).is_ok());
    assert!(refused(&[]).contains("empty"));
    assert!(refused(b"not a network at all").contains("not a safetensors file"));
    // Cut anywhere: in the length, the header, the tensors.
    let whole = builtin_bytes();
    for len in (1..200).chain((200..whole.len()).step_by(997)) {
        refused(&whole[..len]);
    }
    // Another format or version, other inputs, a shape that is not the weights'.
    assert!(refused(&with_metadata("format", "other-net")).contains("not a shicho network"));
    assert!(refused(&with_metadata("version", "4")).contains("version"));
    assert!(refused(&with_metadata("version", "2")).contains("pooling_blocks"));
    assert!(refused(&with_metadata("binary_planes", "18")).contains("other inputs"));
    // One channel and one block more than the built-in net has, whatever its size.
    let channels = builtin_metadata("channels") + 1;
    assert!(refused(&with_metadata("channels", &channels.to_string())).contains("tensor"));
    let blocks = builtin_metadata("blocks") + 1;
    assert!(refused(&with_metadata("blocks", &blocks.to_string())).contains("missing"));
    assert!(refused(&with_metadata("blocks", "three")).contains("not a size"));
    // Counts no file could hold are an error, not an allocation.
    for key in ["blocks", "channels", "head_channels", "value_hidden"] {
        refused(&with_metadata(key, &u64::MAX.to_string()));
        refused(&with_metadata(key, "1000000000000"));
    }
}

/// A version 2 file whose pooling metadata does not fit its blocks or its tensors.
#[test]
fn a_pooling_net_with_bad_metadata_is_refused_with_a_reason() {
    let file = pooling_bytes();
    let edit = |key, value| refused(&edited_metadata(&file, key, value));
    assert!(edit("pooling_blocks", None).contains("no pooling_blocks"));
    assert!(edit("pooled_channels", None).contains("no pooled_channels"));
    for blocks in ["2", "1,1", "x", "", "-1", "1,"] {
        let why = edit("pooling_blocks", Some(blocks));
        assert!(why.contains("not a block from 0 to 1"), "{blocks:?}: {why}");
    }
    assert!(edit("pooled_channels", Some("32")).contains("not fewer than the 32 channels"));
    assert!(edit("pooled_channels", Some("0")).contains("not a size"));
    // Metadata that fits the counts but not the tensors: their shapes say so.
    assert!(edit("pooled_channels", Some("8")).contains("shape"));
    assert!(edit("pooling_blocks", Some("0")).contains("blocks.0.conv1"));
    assert!(edit("pooling_blocks", Some("0,1")).contains("blocks.0.conv1"));
    assert!(edit("version", Some("1")).contains("blocks.1.conv1"));
    for sizes in ["9,9", "1", "26", "x", "", "9,"] {
        let why = edit("size_norms", Some(sizes));
        assert!(
            why.contains("not a board size from 2 to 25 named once"),
            "{sizes:?}: {why}"
        );
    }
    // A size named whose convolutions the file lacks.
    let why = edit("size_norms", Some("9,13"));
    assert!(
        why.contains("tensor size13.") && why.contains("missing"),
        "{why}"
    );
}

/// A version 3 file (the built-in net: an ownership head with a convolution of its own)
/// whose metadata does not fit its tensors.
#[test]
fn an_ownership_head_with_bad_metadata_is_refused_with_a_reason() {
    let file = builtin_bytes();
    assert_eq!(header_and_tensors(&file).0["__metadata__"]["version"], "3");
    let edit = |key, value| refused(&edited_metadata(&file, key, value));
    assert!(edit("ownership_channels", None).contains("no ownership_channels"));
    assert!(edit("ownership_channels", Some("0")).contains("not a size"));
    let why = edit("ownership_channels", Some("16"));
    assert!(
        why.contains("ownership.conv") && why.contains("shape"),
        "{why}"
    );
    // Version 3 with pooling blocks named that its file lacks.
    assert!(edit("pooling_blocks", Some("1")).contains("pooled_channels"));
}

/// The pooling net's file holds its convolutions with 9x9's and 19x19's own batch-norm
/// statistics beside every size's (train.py's export), and its fixtures were computed with
/// each size's own: read without them (an engine that knows no `size_norms`), it answers
/// otherwise. Other sizes take every size's.
#[test]
fn each_size_is_evaluated_with_its_own_statistics() {
    let weights = Weights::from_bytes(&pooling_bytes()).unwrap();
    let sizes: Vec<usize> = weights.sized.iter().map(|&(n, _)| n).collect();
    assert_eq!(sizes, [9, 19]);
    assert!(std::ptr::eq(weights.for_size(13), &weights));
    assert!(!std::ptr::eq(weights.for_size(9), &weights));
    let general =
        Weights::from_bytes(&edited_metadata(&pooling_bytes(), "size_norms", None)).unwrap();
    assert!(general.sized.is_empty());
    let fixtures = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/network/pooling-fixtures.json"
    );
    for size in [9, 19] {
        let geo = Geometry::get(size, Topology::Plane).unwrap();
        let mut ws = Workspace::with_kernel(Kernel::Gemm);
        let farthest = fixture_inputs(fixtures, size)
            .iter()
            .map(|inputs| {
                let own = &weights.evaluate(geo, &[inputs], &mut ws)[0];
                let every = &general.evaluate(geo, &[inputs], &mut ws)[0];
                own.policy
                    .iter()
                    .zip(&every.policy)
                    .map(|(a, b)| (a - b).abs())
                    .fold((own.win - every.win).abs(), f32::max)
            })
            .fold(0.0, f32::max);
        assert!(farthest > 1e-2, "{size}x{size}: {farthest}");
    }
}

/// The engine started with a bad file says why on stderr and exits with status 2 before
/// answering anything.
#[test]
fn the_engine_refuses_a_bad_weights_file_at_start() {
    let dir = std::env::temp_dir().join(format!("shicho-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let truncated = dir.join("truncated.safetensors");
    std::fs::write(&truncated, &builtin_bytes()[..5000]).unwrap();
    let empty = dir.join("empty.safetensors");
    std::fs::write(&empty, b"").unwrap();
    let missing = dir.join("missing.safetensors");
    for (path, why) in [
        (&missing, "No such file"),
        (&empty, "empty"),
        (&truncated, "not a safetensors file"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_shicho"))
            .arg("--weights")
            .arg(path)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", path.display());
        assert!(out.stdout.is_empty());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(why), "{stderr}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A file may name the precision its net is meant to run in (metadata `precision`): the
/// engine's default for it, where the core has it; `--net-precision` still decides. A name
/// that is no precision is refused.
#[test]
fn the_precision_a_file_names_is_the_default() {
    let named = Weights::from_bytes(&with_metadata("precision", "int8")).unwrap();
    assert_eq!(named.named_precision(), Some(Precision::Int8));
    assert_eq!(Weights::builtin().named_precision(), None);
    assert!(refused(&with_metadata("precision", "fp8")).contains("f32, bf16 and int8"));

    let path =
        std::env::temp_dir().join(format!("shicho-named-{}.safetensors", std::process::id()));
    std::fs::write(&path, with_metadata("precision", "int8")).unwrap();
    let started = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_shicho"))
            .arg("--weights")
            .arg(&path)
            .args(extra)
            .env("RUST_LOG", "info")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let expected = if Precision::Int8.supported() {
        "Int8)"
    } else {
        "F32)"
    };
    assert!(started(&[]).contains(expected), "{}", started(&[]));
    assert!(started(&["--net-precision", "f32"]).contains("F32)"));
    std::fs::remove_file(&path).ok();
}

/// `--net-precision` takes f32, bf16 and int8 (each plays, in float32 on a core without
/// the precision's instructions) and refuses anything else at start.
#[test]
fn the_engine_plays_in_each_precision_and_refuses_others() {
    use std::io::Write;
    for precision in ["f32", "bf16", "int8"] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_shicho"))
            .args(["--net-precision", precision, "--playouts", "50"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"boardsize 9\nclear_board\ngenmove b\nquit\n")
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{precision}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(text.matches('=').count(), 4, "{precision}: {text}");
        assert!(!text.contains('?'), "{precision}: {text}");
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_shicho"))
        .args(["--net-precision", "fp8"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("f32, bf16 and int8"));
}

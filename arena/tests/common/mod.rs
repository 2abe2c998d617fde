//! Helpers shared by the arena's test files.

#![allow(dead_code)]

use koma_model::{Arch, Model};
use std::path::PathBuf;
use tch::Device;

/// A tiny untrained network for `variant`.
pub fn tiny_model(variant: &str) -> Model {
    let v = koma_rules::load_variant(variant).unwrap();
    Model::new(&v, &Arch::tiny(), Device::Cpu)
}

/// A tiny untrained checkpoint of `variant` saved under a temp directory named for the test;
/// returns its stem. `name` must be unique among a test file's tests: tests run in parallel,
/// and two sharing a name would overwrite each other's checkpoint while an engine loads it.
pub fn tiny_checkpoint(variant: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("koma-arena-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stem = dir.join("tiny");
    tiny_model(variant).save(&stem).unwrap();
    stem
}

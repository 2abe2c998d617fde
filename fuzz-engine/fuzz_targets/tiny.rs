//! The network both targets search with: untrained and as small as a model gets, so that an
//! input costs microseconds of inference, not milliseconds.

use koma_model::{Arch, Model};
use koma_rules::{load_variant, Variant};
use std::sync::Arc;

/// A built-in variant and an untrained tiny network for it.
pub fn tiny_model(variant: &str) -> (Arc<Variant>, Model) {
    tch::set_num_threads(1);
    let v = load_variant(variant).expect("built-in variant");
    let model = Model::new(&v, &Arch::tiny(), tch::Device::Cpu);
    (v, model)
}

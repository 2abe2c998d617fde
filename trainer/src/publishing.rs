//! A model's weights into the store: saved as a checkpoint under a local scratch directory,
//! then published by the store's own rules (`koma_store::publish`).

use anyhow::Context;
use koma_model::Model;
use koma_store::publish::{self, Latest};
use koma_store::Store;
use std::path::Path;

/// Publishes `model` as the model of its `meta.step`, saving it under `scratch` first.
pub fn publish_model(store: &Store, model: &Model, scratch: &Path) -> anyhow::Result<Latest> {
    std::fs::create_dir_all(scratch).with_context(|| scratch.display().to_string())?;
    let stem = scratch.join(format!("publish-{}", model.meta.step));
    model
        .save(&stem)
        .with_context(|| format!("saving the model to publish under {}", stem.display()))?;
    Ok(publish::publish_files(store, model.meta.step, &stem)?)
}

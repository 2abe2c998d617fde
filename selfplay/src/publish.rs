//! Publishing models through the store: the weights and metadata under a step-numbered key,
//! then a small LATEST record with the step and the SHA-256 of the weights, which workers poll
//! and verify before loading.

use crate::error::StoreError;
use koma_model::Model;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Key of the LATEST record.
pub const LATEST: &str = "models/LATEST";

/// The LATEST record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Latest {
    /// Training step of the model.
    pub step: u64,
    /// Key stem of the model (`models/0000000100`); `.safetensors` and `.json` follow.
    pub key: String,
    /// SHA-256 of the weights file, hex.
    pub sha256: String,
}

fn read_file(p: &Path) -> Result<Vec<u8>, StoreError> {
    std::fs::read(p).map_err(|source| StoreError::Io {
        path: p.display().to_string(),
        source,
    })
}

/// Publishes `model` (saved first under `scratch`, a local directory) and returns its record.
pub fn publish(store: &crate::Store, model: &Model, scratch: &Path) -> Result<Latest, StoreError> {
    std::fs::create_dir_all(scratch).map_err(|source| StoreError::Io {
        path: scratch.display().to_string(),
        source,
    })?;
    let stem = scratch.join(format!("publish-{}", model.meta.step));
    model.save(&stem).map_err(|e| StoreError::BadModel {
        key: stem.display().to_string(),
        reason: e.to_string(),
    })?;
    let (wf, mf) = Model::files(&stem);
    let weights = read_file(&wf)?;
    let meta = read_file(&mf)?;
    let key = format!("models/{:010}", model.meta.step);
    let sha = hex::encode(Sha256::digest(&weights));
    // Create-if-absent: a model republished at the same step (after a resume) is the same
    // training state, so an existing one is kept.
    store.put_new(&format!("{key}.safetensors"), weights)?;
    store.put_new(&format!("{key}.json"), meta)?;
    let existing = store
        .get(&format!("{key}.safetensors"))?
        .unwrap_or_default();
    let latest = Latest {
        step: model.meta.step,
        key,
        sha256: hex::encode(Sha256::digest(&existing)),
    };
    if latest.sha256 != sha {
        tracing::warn!(
            step = latest.step,
            "a model was already published at this step; keeping it"
        );
    }
    store.put(LATEST, serde_json::to_vec(&latest).expect("serialises"))?;
    let _ = std::fs::remove_file(&wf);
    let _ = std::fs::remove_file(&mf);
    Ok(latest)
}

/// The LATEST record, if a model was published.
pub fn latest(store: &crate::Store) -> Result<Option<Latest>, StoreError> {
    match store.get(LATEST)? {
        None => Ok(None),
        Some(b) => serde_json::from_slice(&b)
            .map(Some)
            .map_err(|e| StoreError::BadModel {
                key: LATEST.into(),
                reason: e.to_string(),
            }),
    }
}

/// Downloads a published model into `cache` after checking its hash; returns the local stem.
pub fn download(store: &crate::Store, l: &Latest, cache: &Path) -> Result<PathBuf, StoreError> {
    std::fs::create_dir_all(cache).map_err(|source| StoreError::Io {
        path: cache.display().to_string(),
        source,
    })?;
    let missing = |what: &str| StoreError::BadModel {
        key: l.key.clone(),
        reason: format!("{what} missing"),
    };
    let weights = store
        .get(&format!("{}.safetensors", l.key))?
        .ok_or_else(|| missing("weights"))?;
    if hex::encode(Sha256::digest(&weights)) != l.sha256 {
        return Err(StoreError::BadModel {
            key: l.key.clone(),
            reason: "weights do not match the SHA-256 of LATEST".into(),
        });
    }
    let meta = store
        .get(&format!("{}.json", l.key))?
        .ok_or_else(|| missing("metadata"))?;
    let stem = cache.join(format!("model-{:010}", l.step));
    let (wf, mf) = Model::files(&stem);
    for (p, b) in [(&wf, weights), (&mf, meta)] {
        let tmp = p.with_extension("part");
        std::fs::write(&tmp, b)
            .and_then(|_| std::fs::rename(&tmp, p))
            .map_err(|source| StoreError::Io {
                path: p.display().to_string(),
                source,
            })?;
    }
    Ok(stem)
}

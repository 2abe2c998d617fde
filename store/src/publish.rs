//! Publishing models through the store: the weights and metadata under a step-numbered key,
//! then a small LATEST record with the step and the SHA-256 of the weights, which workers poll
//! and verify before loading.
//!
//! This module owns the layout of `models/` (`models/<step:010>.safetensors` and `.json`,
//! `models/LATEST`); everything that lists, fetches or publishes models goes through it. The
//! files themselves are a checkpoint as the model crate writes it (weights and metadata beside
//! each other under one stem); the store only moves their bytes.

use crate::backend::Store;
use crate::error::StoreError;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Key of the LATEST record.
pub const LATEST: &str = "models/LATEST";

/// Suffix of a checkpoint's weights file (after its stem).
pub const WEIGHTS_SUFFIX: &str = ".safetensors";

/// Suffix of a checkpoint's metadata file.
pub const META_SUFFIX: &str = ".json";

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

/// A model found in the store's `models/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    /// Training step.
    pub step: u64,
    /// Key stem (`models/0000000100`).
    pub key: String,
    /// When its weights were written, in seconds since the Unix epoch.
    pub modified: i64,
}

/// Key stem of the model published at `step`.
pub fn model_key(step: u64) -> String {
    format!("models/{step:010}")
}

/// `stem` with `suffix` appended (a dotted stem keeps its dots).
pub fn with_suffix(stem: &Path, suffix: &str) -> PathBuf {
    let mut s = stem.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

fn read_file(p: &Path) -> Result<Vec<u8>, StoreError> {
    std::fs::read(p).map_err(|source| StoreError::Io {
        path: p.display().to_string(),
        source,
    })
}

/// Publishes the checkpoint saved under the local `stem` (its weights and metadata files) as
/// the model of `step`, removes the local files, and returns the new LATEST record.
pub fn publish_files(store: &Store, step: u64, stem: &Path) -> Result<Latest, StoreError> {
    let wf = with_suffix(stem, WEIGHTS_SUFFIX);
    let mf = with_suffix(stem, META_SUFFIX);
    let weights = read_file(&wf)?;
    let meta = read_file(&mf)?;
    let key = model_key(step);
    let sha = hex::encode(Sha256::digest(&weights));
    // Create-if-absent: a model republished at the same step (after a resume) is the same
    // training state, so an existing one is kept.
    store.put_new(&format!("{key}{WEIGHTS_SUFFIX}"), weights)?;
    store.put_new(&format!("{key}{META_SUFFIX}"), meta)?;
    let existing = store
        .get(&format!("{key}{WEIGHTS_SUFFIX}"))?
        .unwrap_or_default();
    let latest = Latest {
        step,
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
pub fn latest(store: &Store) -> Result<Option<Latest>, StoreError> {
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

/// Every complete model (weights and metadata both present) in the store, in step order.
pub fn published(store: &Store) -> Result<Vec<Published>, StoreError> {
    let mut by_step: BTreeMap<u64, (bool, Option<i64>)> = BTreeMap::new();
    for o in store.list_info("models")? {
        let Some(file) = o.key.strip_prefix("models/") else {
            continue;
        };
        let (stem, suffix) = match file.find('.') {
            Some(i) => (&file[..i], &file[i..]),
            None => (file, ""),
        };
        let Ok(step) = stem.parse::<u64>() else {
            continue;
        };
        let e = by_step.entry(step).or_insert((false, None));
        match suffix {
            META_SUFFIX => e.0 = true,
            WEIGHTS_SUFFIX => e.1 = Some(o.modified),
            _ => {}
        }
    }
    Ok(by_step
        .into_iter()
        .filter_map(|(step, (meta, weights))| {
            let modified = weights.filter(|_| meta)?;
            Some(Published {
                step,
                key: model_key(step),
                modified,
            })
        })
        .collect())
}

/// Writes `bytes` to `path` through a temporary file, so a reader never sees half a file.
fn write_whole(path: &Path, bytes: Vec<u8>) -> Result<(), StoreError> {
    let tmp = path.with_extension("part");
    std::fs::write(&tmp, bytes)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|source| StoreError::Io {
            path: path.display().to_string(),
            source,
        })
}

fn create_dir(dir: &Path) -> Result<(), StoreError> {
    std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
        path: dir.display().to_string(),
        source,
    })
}

/// Copies the model `key` (a key stem from [`published`] or [`Latest`]) into the local `stem`
/// unless both its files are there already; with `sha256`, the weights must match it.
pub fn fetch(
    store: &Store,
    key: &str,
    sha256: Option<&str>,
    stem: &Path,
) -> Result<(), StoreError> {
    if let Some(dir) = stem.parent() {
        create_dir(dir)?;
    }
    let missing = |what: &str| StoreError::BadModel {
        key: key.to_owned(),
        reason: format!("{what} missing"),
    };
    let wf = with_suffix(stem, WEIGHTS_SUFFIX);
    if !wf.exists() {
        let weights = store
            .get(&format!("{key}{WEIGHTS_SUFFIX}"))?
            .ok_or_else(|| missing("weights"))?;
        if let Some(sha) = sha256 {
            if hex::encode(Sha256::digest(&weights)) != sha {
                return Err(StoreError::BadModel {
                    key: key.to_owned(),
                    reason: "weights do not match the SHA-256 of LATEST".into(),
                });
            }
        }
        write_whole(&wf, weights)?;
    }
    let mf = with_suffix(stem, META_SUFFIX);
    if !mf.exists() {
        let meta = store
            .get(&format!("{key}{META_SUFFIX}"))?
            .ok_or_else(|| missing("metadata"))?;
        write_whole(&mf, meta)?;
    }
    Ok(())
}

/// Downloads a published model into `cache` after checking its hash; returns the local stem.
pub fn download(store: &Store, l: &Latest, cache: &Path) -> Result<PathBuf, StoreError> {
    create_dir(cache)?;
    let stem = cache.join(format!("model-{:010}", l.step));
    // A cached copy is trusted only if it was checked: download afresh.
    let _ = std::fs::remove_file(with_suffix(&stem, WEIGHTS_SUFFIX));
    let _ = std::fs::remove_file(with_suffix(&stem, META_SUFFIX));
    fetch(store, &l.key, Some(&l.sha256), &stem)?;
    Ok(stem)
}

/// Checks the weights of the local checkpoint `stem` against `sha256`.
pub fn verify(stem: &Path, sha256: &str) -> Result<bool, StoreError> {
    let bytes = read_file(&with_suffix(stem, WEIGHTS_SUFFIX))?;
    Ok(hex::encode(Sha256::digest(&bytes)) == sha256)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publish_list_and_download_round_trip() {
        let store = Store::memory();
        let dir = std::env::temp_dir().join(format!("koma-publish-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for step in [0u64, 100] {
            let stem = dir.join(format!("scratch-{step}"));
            std::fs::write(with_suffix(&stem, WEIGHTS_SUFFIX), format!("w{step}")).unwrap();
            std::fs::write(with_suffix(&stem, META_SUFFIX), "{}").unwrap();
            let l = publish_files(&store, step, &stem).unwrap();
            assert_eq!(l.key, model_key(step));
            assert!(!with_suffix(&stem, WEIGHTS_SUFFIX).exists());
        }
        // A weights file without metadata is not a model.
        store
            .put("models/0000000200.safetensors", b"half".to_vec())
            .unwrap();
        let steps: Vec<u64> = published(&store).unwrap().iter().map(|p| p.step).collect();
        assert_eq!(steps, vec![0, 100]);
        let l = latest(&store).unwrap().unwrap();
        assert_eq!(l.step, 100);
        let stem = download(&store, &l, &dir.join("cache")).unwrap();
        assert!(verify(&stem, &l.sha256).unwrap());
        let bad = Latest {
            sha256: "00".into(),
            ..l
        };
        assert!(download(&store, &bad, &dir.join("cache2")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

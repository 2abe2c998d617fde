//! Loading the model a user names: a checkpoint stem, or the newest model a run has published.
//!
//! The variant comes from the model's own metadata, so a user never names it twice (and cannot
//! name the wrong one). A published model is checked against the SHA-256 in the run's LATEST
//! record before it is loaded, as the self-play workers do.

use koma_model::{DeviceChoice, Model, ModelError, PrecisionChoice};
use koma_rules::{Variant, VariantError};
use koma_store::publish::{self, latest, with_suffix, META_SUFFIX};
use koma_store::Store;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where the model comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelSource {
    /// A checkpoint stem (the path without `.json` / `.safetensors`; either file's path is
    /// accepted too).
    Stem(PathBuf),
    /// The newest model published in a run directory (`DIR/store/models/LATEST`).
    RunDir(PathBuf),
}

impl ModelSource {
    /// The source named by a front end's `--model` / `--run-dir` options (the checkpoint when
    /// both are given; `None` when neither is).
    pub fn from_options(model: Option<&Path>, run_dir: Option<&Path>) -> Option<ModelSource> {
        match (model, run_dir) {
            (Some(m), _) => Some(ModelSource::Stem(m.to_path_buf())),
            (None, Some(d)) => Some(ModelSource::RunDir(d.to_path_buf())),
            (None, None) => None,
        }
    }
}

/// A model ready to search with.
#[derive(Debug)]
pub struct LoadedModel {
    /// The network.
    pub model: Model,
    /// Its variant.
    pub variant: Arc<Variant>,
    /// The checkpoint stem it was loaded from.
    pub stem: PathBuf,
    /// Training step of the weights.
    pub step: u64,
}

/// Why a model could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Neither a checkpoint nor a run directory was named.
    #[error("name the model: --model STEM or --run-dir DIR")]
    NoSource,
    /// The run directory does not exist.
    #[error("run directory '{0}': no such directory")]
    NoRunDir(String),
    /// The run directory has no published model.
    #[error("run directory '{0}' has no published model yet (no store/models/LATEST): train first, or name a checkpoint with --model")]
    NothingPublished(String),
    /// The run directory's store could not be read.
    #[error("run directory '{dir}': {reason}")]
    Store {
        /// The run directory.
        dir: String,
        /// What went wrong.
        reason: String,
    },
    /// The weights do not match the SHA-256 of the LATEST record.
    #[error("model '{0}': the weights do not match the SHA-256 recorded when it was published")]
    Checksum(String),
    /// The model's variant is unknown.
    #[error("model '{stem}': {source}")]
    Variant {
        /// The checkpoint stem.
        stem: String,
        /// The variant error.
        source: VariantError,
    },
    /// The checkpoint itself.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// No such device.
    #[error("{0}")]
    Device(String),
}

/// `x.json` and `x.safetensors` name the checkpoint `x`.
fn stem_of(path: &Path) -> PathBuf {
    match path.extension().and_then(|e| e.to_str()) {
        Some("json") | Some("safetensors") => path.with_extension(""),
        _ => path.to_path_buf(),
    }
}

/// Resolves a source to a checkpoint stem, checking a published model's SHA-256.
pub fn resolve(source: &ModelSource) -> Result<PathBuf, LoadError> {
    match source {
        ModelSource::Stem(p) => Ok(stem_of(p)),
        ModelSource::RunDir(dir) => {
            let store_dir = dir.join("store");
            let shown = dir.display().to_string();
            if !dir.is_dir() {
                return Err(LoadError::NoRunDir(shown));
            }
            if !store_dir.is_dir() {
                return Err(LoadError::NothingPublished(shown));
            }
            let store = Store::local(&store_dir).map_err(|e| LoadError::Store {
                dir: shown.clone(),
                reason: e.to_string(),
            })?;
            let l = latest(&store)
                .map_err(|e| LoadError::Store {
                    dir: shown.clone(),
                    reason: e.to_string(),
                })?
                .ok_or_else(|| LoadError::NothingPublished(shown.clone()))?;
            let stem = store_dir.join(&l.key);
            let matches = publish::verify(&stem, &l.sha256).map_err(|e| LoadError::Store {
                dir: shown,
                reason: e.to_string(),
            })?;
            if !matches {
                return Err(LoadError::Checksum(stem.display().to_string()));
            }
            Ok(stem)
        }
    }
}

/// Loads the model of `source` on `device`, prepared to play in `precision`.
pub fn load_model(
    source: &ModelSource,
    device: DeviceChoice,
    precision: PrecisionChoice,
) -> Result<LoadedModel, LoadError> {
    let stem = resolve(source)?;
    let meta = Model::read_meta(&stem)?;
    let variant = koma_rules::load_variant(&meta.variant).map_err(|source| LoadError::Variant {
        stem: stem.display().to_string(),
        source,
    })?;
    let device = device
        .resolve()
        .map_err(|e| LoadError::Device(e.to_string()))?;
    let mut model = Model::load(&with_suffix(&stem, META_SUFFIX), &variant, None, device)?;
    model.prepare_to_play(precision);
    let step = model.meta.step;
    Ok(LoadedModel {
        model,
        variant,
        stem,
        step,
    })
}

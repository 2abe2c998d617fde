//! Full trainer checkpoints: weights, optimiser state and counters, written to a fresh
//! directory and then made current by atomically replacing a one-line pointer file, so a run
//! killed at any moment restarts from a complete checkpoint.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Counters of the training state.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TrainerState {
    /// Optimiser steps taken.
    pub step: u64,
    /// Samples trained on.
    pub samples_trained: u64,
    /// Training positions ingested from self-play.
    pub positions_ingested: u64,
    /// Chunks ingested (the ingest index's order numbers below this are part of this state).
    pub chunks_ingested: u64,
    /// Games ingested.
    pub games_ingested: u64,
    /// Seed of the sampling generator (re-derived from the step on resume).
    pub seed: u64,
}

const POINTER: &str = "CHECKPOINT";

/// Directory of the current checkpoint under `root`, if any.
pub fn current(root: &Path) -> Option<PathBuf> {
    let name = std::fs::read_to_string(root.join(POINTER)).ok()?;
    let dir = root.join(name.trim());
    dir.join("state.json").exists().then_some(dir)
}

/// Reads a checkpoint's state.
pub fn read_state(dir: &Path) -> anyhow::Result<TrainerState> {
    let p = dir.join("state.json");
    let text = std::fs::read_to_string(&p).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
    serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: corrupt state: {e}", p.display()))
}

/// Writes a checkpoint: `fill` writes the weights and optimiser files into the new directory;
/// then the state, then the pointer. Older checkpoints are removed afterwards.
pub fn write(
    root: &Path,
    state: &TrainerState,
    fill: impl FnOnce(&Path) -> anyhow::Result<()>,
) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(root)?;
    let name = format!("checkpoint-{:010}", state.step);
    let tmp = root.join(format!("{name}.tmp"));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp)?;
    fill(&tmp)?;
    std::fs::write(tmp.join("state.json"), serde_json::to_vec_pretty(state)?)?;
    let dir = root.join(&name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&tmp, &dir)?;
    let ptmp = root.join(format!("{POINTER}.tmp"));
    std::fs::write(&ptmp, &name)?;
    std::fs::rename(&ptmp, root.join(POINTER))?;
    for e in std::fs::read_dir(root)?.flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        if n.starts_with("checkpoint-") && n != name {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
    Ok(dir)
}

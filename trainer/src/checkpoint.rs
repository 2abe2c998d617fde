//! Full trainer checkpoints: weights, optimiser state and counters, written to a fresh
//! directory and then made current by atomically replacing a one-line pointer file, so a run
//! killed at any moment restarts from a complete checkpoint.
//!
//! A checkpoint can still be damaged after it was written (a disk fault, a file truncated by
//! hand or by a full disk on another write), so each one lists its files with their lengths and
//! SHA-256 in `manifest.json`, and the previous checkpoint is kept beside the newest: a trainer
//! whose newest checkpoint fails its manifest names it, sets it aside and resumes from the one
//! before.

use anyhow::Context;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Write;
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
const MANIFEST: &str = "manifest.json";
const PREFIX: &str = "checkpoint-";
/// Suffix given to a checkpoint set aside as damaged (kept for inspection, never loaded).
pub const DAMAGED_SUFFIX: &str = ".damaged";

/// One file of a checkpoint as it was written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct FileEntry {
    bytes: u64,
    sha256: String,
}

/// Directory of the current checkpoint under `root`, if any.
pub fn current(root: &Path) -> Option<PathBuf> {
    let name = std::fs::read_to_string(root.join(POINTER)).ok()?;
    let dir = root.join(name.trim());
    dir.join("state.json").exists().then_some(dir)
}

/// The checkpoints under `root` to resume from, best first: the current one, then the others
/// from the newest step down.
pub fn candidates(root: &Path) -> Vec<PathBuf> {
    let current = current(root);
    let mut others: Vec<PathBuf> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.starts_with(PREFIX) && !n.contains('.')
        })
        .map(|e| e.path())
        .filter(|p| Some(p) != current.as_ref() && p.join("state.json").exists())
        .collect();
    others.sort();
    others.reverse();
    current.into_iter().chain(others).collect()
}

/// Reads a checkpoint's state.
pub fn read_state(dir: &Path) -> anyhow::Result<TrainerState> {
    let p = dir.join("state.json");
    let text = std::fs::read_to_string(&p).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
    serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: corrupt state: {e}", p.display()))
}

fn digest_file(path: &Path) -> std::io::Result<FileEntry> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let bytes = std::io::copy(&mut file, &mut hasher)?;
    Ok(FileEntry {
        bytes,
        sha256: hex::encode(hasher.finalize()),
    })
}

/// Checks a checkpoint against its manifest: every file listed is present with its length and
/// SHA-256. A checkpoint written before manifests existed passes if its state reads.
pub fn verify(dir: &Path) -> anyhow::Result<()> {
    read_state(dir)?;
    let path = dir.join(MANIFEST);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => anyhow::bail!("{}: {e}", path.display()),
    };
    let files: BTreeMap<String, FileEntry> = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: corrupt manifest: {e}", path.display()))?;
    for (name, want) in files {
        let p = dir.join(&name);
        let got = digest_file(&p).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
        anyhow::ensure!(
            got.bytes == want.bytes,
            "{}: {} bytes, the checkpoint wrote {}",
            p.display(),
            got.bytes,
            want.bytes
        );
        anyhow::ensure!(
            got.sha256 == want.sha256,
            "{}: its contents changed after the checkpoint was written (SHA-256 differs)",
            p.display()
        );
    }
    Ok(())
}

/// Sets a damaged checkpoint aside (renamed with [`DAMAGED_SUFFIX`]) so that it is not tried
/// again; returns where it went.
pub fn set_aside(dir: &Path) -> anyhow::Result<PathBuf> {
    let mut name = dir.as_os_str().to_owned();
    name.push(DAMAGED_SUFFIX);
    let to = PathBuf::from(name);
    let _ = std::fs::remove_dir_all(&to);
    std::fs::rename(dir, &to).with_context(|| format!("setting {} aside", dir.display()))?;
    Ok(to)
}

fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = std::fs::File::create(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// Writes a checkpoint: `fill` writes the weights and optimiser files into the new directory;
/// then the manifest, the state and the pointer, each synced. Checkpoints older than the
/// previous one are removed afterwards.
pub fn write(
    root: &Path,
    state: &TrainerState,
    fill: impl FnOnce(&Path) -> anyhow::Result<()>,
) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(root)?;
    let name = format!("{PREFIX}{:010}", state.step);
    let tmp = root.join(format!("{name}.tmp"));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp)?;
    fill(&tmp)?;
    let mut files = BTreeMap::new();
    for e in std::fs::read_dir(&tmp)? {
        let e = e?;
        if e.file_type()?.is_file() {
            std::fs::File::open(e.path())?.sync_all()?;
            files.insert(
                e.file_name().to_string_lossy().into_owned(),
                digest_file(&e.path())?,
            );
        }
    }
    write_synced(&tmp.join(MANIFEST), &serde_json::to_vec_pretty(&files)?)?;
    write_synced(&tmp.join("state.json"), &serde_json::to_vec_pretty(state)?)?;
    sync_dir(&tmp)?;
    let dir = root.join(&name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&tmp, &dir)?;
    let ptmp = root.join(format!("{POINTER}.tmp"));
    write_synced(&ptmp, name.as_bytes())?;
    std::fs::rename(&ptmp, root.join(POINTER))?;
    sync_dir(root)?;
    // Keep this checkpoint and the one before it (the fallback if this one is damaged later).
    let mut kept: Vec<PathBuf> = candidates(root).into_iter().filter(|p| p != &dir).collect();
    kept.sort();
    let previous = kept.pop();
    for old in kept {
        let _ = std::fs::remove_dir_all(old);
    }
    if let Some(p) = previous {
        tracing::debug!("kept the previous checkpoint {}", p.display());
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("koma-ck-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    fn write_step(root: &Path, step: u64) -> PathBuf {
        let state = TrainerState {
            step,
            ..TrainerState::default()
        };
        write(root, &state, |d| {
            std::fs::write(d.join("weights.safetensors"), vec![step as u8; 1000])?;
            Ok(())
        })
        .unwrap()
    }

    #[test]
    fn the_newest_two_are_kept_and_tried_newest_first() {
        let r = root("keep");
        for step in [3, 6, 9] {
            write_step(&r, step);
        }
        let c = candidates(&r);
        let names: Vec<String> = c
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["checkpoint-0000000009", "checkpoint-0000000006"]);
        for p in &c {
            verify(p).unwrap();
        }
        let _ = std::fs::remove_dir_all(&r);
    }

    #[test]
    fn a_truncated_or_altered_file_fails_its_manifest() {
        let r = root("damage");
        let ck = write_step(&r, 3);
        let weights = ck.join("weights.safetensors");
        std::fs::write(&weights, vec![3u8; 400]).unwrap();
        let e = verify(&ck).unwrap_err().to_string();
        assert!(e.contains("400 bytes, the checkpoint wrote 1000"), "{e}");
        std::fs::write(&weights, vec![4u8; 1000]).unwrap();
        let e = verify(&ck).unwrap_err().to_string();
        assert!(e.contains("SHA-256 differs"), "{e}");
        std::fs::remove_file(&weights).unwrap();
        assert!(verify(&ck).is_err());
        std::fs::write(ck.join("state.json"), "{").unwrap();
        let e = verify(&ck).unwrap_err().to_string();
        assert!(e.contains("corrupt state"), "{e}");
        let aside = set_aside(&ck).unwrap();
        assert!(aside.to_string_lossy().ends_with(".damaged"));
        assert!(
            candidates(&r).is_empty(),
            "a damaged checkpoint is not tried again"
        );
        let _ = std::fs::remove_dir_all(&r);
    }
}

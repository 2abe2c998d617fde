//! The trainer's status record in the store (`trainer/STATUS`): what an operator's
//! `koma status` shows of the trainer, which may run on another machine.

use koma_store::{Store, StoreError};
use serde::{Deserialize, Serialize};

/// Key of the record.
pub const STATUS_KEY: &str = "trainer/STATUS";

/// The trainer's counters at a moment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainerStatus {
    /// Optimiser steps taken.
    pub step: u64,
    /// Positions in the replay window.
    pub window_positions: u64,
    /// Training positions ingested.
    pub positions_ingested: u64,
    /// Games ingested.
    pub games_ingested: u64,
    /// Chunks ingested.
    pub chunks_ingested: u64,
    /// Samples trained on.
    pub samples_trained: u64,
    /// Steps per second since the previous record.
    pub steps_per_second: f64,
    /// When the record was written, seconds since the Unix epoch.
    pub updated: i64,
    /// The trainer's host.
    pub host: String,
}

/// The record, if a trainer has written one; a damaged record is an error naming it.
pub fn read(store: &Store) -> Result<Option<TrainerStatus>, StoreError> {
    match store.get(STATUS_KEY)? {
        None => Ok(None),
        Some(b) => serde_json::from_slice(&b)
            .map(Some)
            .map_err(|e| StoreError::CorruptChunk {
                key: STATUS_KEY.into(),
                reason: format!("not a trainer status record: {e}"),
            }),
    }
}

/// Writes the record.
pub fn write(store: &Store, s: &TrainerStatus) -> Result<(), StoreError> {
    store.put(
        STATUS_KEY,
        serde_json::to_vec_pretty(s).expect("serialises"),
    )
}

/// This machine's name (for status records and default worker ids).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|s| s.trim().to_owned())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "host".into())
}

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

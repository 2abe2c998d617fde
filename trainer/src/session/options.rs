//! What a run is told: its directory, configuration, variant, limits and store.

use koma_model::DeviceChoice;
use koma_rules::Variant;
use koma_selfplay::SelfplayConfig;
use koma_store::{Store, StoreOptions, StoreUrl};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tch::Device;

use crate::config::RunConfig;

/// What to run and for how long.
#[derive(Clone)]
pub struct RunOptions {
    /// The run directory (store, checkpoints, TensorBoard events).
    pub run_dir: PathBuf,
    /// Configuration.
    pub config: RunConfig,
    /// Variant.
    pub variant: Arc<Variant>,
    /// Stop after this many minutes.
    pub minutes: Option<f64>,
    /// Stop after this many training steps (trainer side).
    pub max_steps: Option<u64>,
    /// Stop after this many games (self-play side, per worker).
    pub max_games: Option<u64>,
    /// Set from outside (Ctrl-C) to stop cleanly.
    pub stop: Arc<AtomicBool>,
    /// Prefix of this process's worker ids in the store.
    pub worker_prefix: String,
    /// The store (default: the run directory's `store/`).
    pub store: StoreUrl,
    /// Settings of the store's connection.
    pub store_options: StoreOptions,
}

impl RunOptions {
    /// Opens the run's store.
    pub fn open_store(&self) -> anyhow::Result<Arc<Store>> {
        let store = Store::open(&self.store, &self.store_options)?;
        tracing::info!("store: {}", store.url());
        Ok(Arc::new(store))
    }

    /// When the run ends, if it has a time limit.
    pub fn deadline(&self) -> Option<Instant> {
        self.minutes
            .map(|m| Instant::now() + Duration::from_secs_f64(m * 60.0))
    }

    /// The self-play settings.
    pub fn selfplay(&self) -> &SelfplayConfig {
        &self.config.selfplay
    }
}

/// Parses a device setting: `auto`, `cpu`, `cuda` or `cuda:N`.
pub fn parse_device(s: &str) -> anyhow::Result<Device> {
    Ok(s.parse::<DeviceChoice>()?.resolve()?)
}

/// How long is left before `deadline`, for log lines.
pub fn eta(deadline: Option<Instant>) -> String {
    deadline.map_or("until stopped".into(), |d| {
        format!(
            "{:.0}s left",
            d.saturating_duration_since(Instant::now()).as_secs_f64()
        )
    })
}

//! `koma train`, `koma selfplay` and `koma trainer`.

use super::store_args::StoreArgs;
use anyhow::Context;
use clap::Args;
use koma_rules::load_variant;
use koma_trainer::session::{self, RunOptions};
use koma_trainer::RunConfig;
use std::path::PathBuf;

/// Options shared by the three loop commands.
#[derive(Debug, Args)]
pub struct LoopArgs {
    /// Variant to train (built-in id or variant file).
    #[arg(long, default_value = "hand-shogi")]
    pub variant: String,
    /// Training configuration (default: the built-in CPU or GPU preset of the variant).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Run directory: store, checkpoints and TensorBoard events (default: runs/<variant>).
    #[arg(long)]
    pub run_dir: Option<PathBuf>,
    /// Stop after this many minutes (default: until Ctrl-C).
    #[arg(long)]
    pub minutes: Option<f64>,
    /// Stop after this many training steps.
    #[arg(long)]
    pub steps: Option<u64>,
    /// Stop each self-play worker after this many games (it starts no more than that).
    #[arg(long)]
    pub games: Option<u64>,
    /// Name of this process's self-play workers in the store, unique per process and stable
    /// across restarts (default: `local` for `koma train`, the host name for `koma selfplay`).
    #[arg(long)]
    pub worker_id: Option<String>,
    /// Device, overriding the configuration's: `auto`, `cpu`, `cuda` or `cuda:N`.
    #[arg(long)]
    pub device: Option<String>,
    /// Remove chunks from the store once they leave the replay window.
    #[arg(long)]
    pub delete_old_chunks: bool,
    #[command(flatten)]
    pub store: StoreArgs,
}

fn options(a: &LoopArgs, default_worker: &str) -> anyhow::Result<RunOptions> {
    let variant = load_variant(&a.variant)?;
    let worker_prefix = a.worker_id.clone().unwrap_or_else(|| {
        default_worker
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '-'
                }
            })
            .collect()
    });
    anyhow::ensure!(
        koma_store::valid_worker_id(&worker_prefix),
        "--worker-id '{worker_prefix}': use 1 to 64 letters, digits, '-', '_' or '.'"
    );
    let mut config = match &a.config {
        Some(p) => {
            let text = std::fs::read_to_string(p).with_context(|| p.display().to_string())?;
            RunConfig::parse(&text, &p.display().to_string())?
        }
        None => {
            let class = if tch::Cuda::is_available() {
                "gpu"
            } else {
                "cpu"
            };
            RunConfig::preset(&variant.id, class)
                .or_else(|| RunConfig::preset(&variant.id, "cpu"))
                .with_context(|| {
                    format!(
                        "no built-in training preset for '{}' (presets: {}); pass --config",
                        variant.id,
                        RunConfig::preset_names().join(", ")
                    )
                })?
        }
    };
    config.trainer.delete_old_chunks |= a.delete_old_chunks;
    if let Some(d) = &a.device {
        session::parse_device(d).with_context(|| format!("--device {d}"))?;
        config.device = d.clone();
    }
    anyhow::ensure!(
        load_variant(&config.variant)?.id == variant.id,
        "the configuration is for '{}', not '{}'",
        config.variant,
        variant.id
    );
    let run_dir = a
        .run_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("runs").join(&variant.id));
    std::fs::create_dir_all(&run_dir).with_context(|| run_dir.display().to_string())?;
    let store = a.store.url(&run_dir)?;
    let stop = super::signals::stop_flag_on_signal("the current step")?;
    Ok(RunOptions {
        run_dir,
        config,
        variant,
        minutes: a.minutes,
        max_steps: a.steps,
        max_games: a.games,
        stop,
        worker_prefix,
        store,
        store_options: a.store.options(),
    })
}

/// Self-play and training in one process.
pub fn train(a: LoopArgs) -> anyhow::Result<()> {
    session::train(&options(&a, "local")?)
}

/// Self-play only.
pub fn selfplay(a: LoopArgs) -> anyhow::Result<()> {
    session::selfplay(&options(&a, &koma_trainer::status::host_name())?)
}

/// Training only.
pub fn trainer(a: LoopArgs) -> anyhow::Result<()> {
    session::trainer(&options(&a, "local")?)
}

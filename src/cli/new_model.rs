//! `koma new-model`: an untrained network, for controls (what the search does with a network
//! that knows nothing) and for trying the front ends before training.

use anyhow::Context;
use clap::Args;
use koma_model::{Arch, Model};
use koma_rules::load_variant;
use koma_trainer::RunConfig;
use std::path::PathBuf;

/// Options of `koma new-model`.
#[derive(Debug, Args)]
pub struct NewModelArgs {
    /// Variant (built-in id or variant file).
    #[arg(long)]
    pub variant: String,
    /// Checkpoint stem to write (`STEM.json` and `STEM.safetensors`).
    #[arg(long)]
    pub out: PathBuf,
    /// Take the architecture from this training configuration (default: the variant's CPU
    /// preset, or the default architecture when it has none).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Seed of the random weights.
    #[arg(long, default_value_t = 0)]
    pub seed: i64,
}

/// Writes the network.
pub fn run(a: NewModelArgs) -> anyhow::Result<()> {
    let variant = load_variant(&a.variant)?;
    let arch: Arch = match &a.config {
        Some(p) => {
            let text = std::fs::read_to_string(p).with_context(|| p.display().to_string())?;
            RunConfig::parse(&text, &p.display().to_string())?.model
        }
        None => RunConfig::preset(&variant.id, "cpu").map_or_else(Arch::default, |c| c.model),
    };
    if let Some(dir) = a.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    }
    tch::manual_seed(a.seed);
    let model = Model::new(&variant, &arch, tch::Device::Cpu);
    model.save(&a.out)?;
    println!(
        "wrote an untrained {} network ({} blocks x {} channels) to {}",
        variant.name,
        arch.blocks,
        arch.channels,
        a.out.display()
    );
    Ok(())
}

//! `koma play`: a game against a trained model in the browser.

use anyhow::Context;
use clap::Args;
use koma_engine::play::{EngineDefaults, PlayServer, Session};
use koma_engine::search::{load_model, search_config, ModelSource, SearcherOptions};
use koma_model::DeviceChoice;
use std::path::PathBuf;
use std::sync::Arc;

/// Options of `koma play`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["model", "run_dir"])))]
pub struct PlayArgs {
    /// Checkpoint stem (path without `.json` / `.safetensors`) of the model to play.
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Run directory: plays the newest model it has published.
    #[arg(long)]
    pub run_dir: Option<PathBuf>,
    /// Address to listen on (loopback by default: the page lets anyone who reaches it play).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Simulations per engine move (the page can change it per move).
    #[arg(long, default_value_t = 400)]
    pub sims: u32,
    /// Milliseconds per engine move, instead of or on top of --sims (0: no time limit).
    #[arg(long, default_value_t = 0)]
    pub millis: u64,
    /// Gumbel root instead of PUCT.
    #[arg(long)]
    pub gumbel: bool,
    /// Leaves evaluated per batch.
    #[arg(long, default_value_t = 8)]
    pub batch: usize,
    /// Network device: auto, cpu, cuda or cuda:N.
    #[arg(long, default_value = "auto")]
    pub device: DeviceChoice,
    /// CPU threads for the network.
    #[arg(long, default_value_t = 1)]
    pub threads: i32,
}

/// Loads the model and serves the page until the process is stopped.
pub fn run(a: PlayArgs) -> anyhow::Result<()> {
    anyhow::ensure!(a.batch >= 1, "--batch must be at least 1");
    anyhow::ensure!(a.threads >= 1, "--threads must be at least 1");
    tch::set_num_threads(a.threads);
    let source = ModelSource::from_options(a.model.as_deref(), a.run_dir.as_deref())
        .ok_or_else(|| anyhow::anyhow!("name the model: --model STEM or --run-dir DIR"))?;
    let loaded = load_model(&source, a.device)?;
    tracing::info!(
        "{} (step {}) plays {} on {:?}",
        loaded.stem.display(),
        loaded.step,
        loaded.variant.name,
        loaded.model.device()
    );
    let options = SearcherOptions {
        config: search_config(a.gumbel, None),
        batch: a.batch,
        ..SearcherOptions::default()
    };
    let session = Arc::new(Session::new(
        loaded.model,
        loaded.stem.display().to_string(),
        loaded.step,
        options,
        EngineDefaults {
            sims: a.sims,
            millis: a.millis,
        },
    ));
    let addr = format!("{}:{}", a.host, a.port);
    let server = PlayServer::start(&addr, session).context("starting the page's server")?;
    let url = server.url();
    println!("koma play: {url} (Ctrl-C to stop)");
    if a.open {
        if let Err(e) = webbrowser::open(&url) {
            tracing::warn!("could not open a browser ({e}); open {url} by hand");
        }
    }
    server.wait();
    Ok(())
}

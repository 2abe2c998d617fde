//! `koma-engine`: a trained koma model over XBoard/CECP, USI or UCI on standard input and
//! output. The protocol is recognised from the first command; the variant comes from the
//! model.

use anyhow::Context;
use clap::Parser;
use koma_engine::protocol::out::Out;
use koma_engine::protocol::session::{Engine, EngineConfig};
use koma_engine::search::{load_model, search_config, ModelSource, SearcherOptions};
use koma_model::DeviceChoice;
use std::path::PathBuf;
use std::time::Duration;

/// koma-engine: play a trained koma model from a GUI (XBoard, USI or UCI).
#[derive(Debug, Parser)]
#[command(name = "koma-engine", version, about)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["model", "run_dir"])))]
struct Args {
    /// Checkpoint stem (path without `.json` / `.safetensors`).
    #[arg(long)]
    model: Option<PathBuf>,
    /// Run directory: plays the newest model it has published.
    #[arg(long)]
    run_dir: Option<PathBuf>,
    /// CPU threads for the network.
    #[arg(long, default_value_t = 1)]
    threads: i32,
    /// Network device: auto, cpu, cuda or cuda:N.
    #[arg(long, default_value = "auto")]
    device: DeviceChoice,
    /// Simulations per move when the GUI gives no time or node limit.
    #[arg(long, default_value_t = koma_engine::arena::DEFAULT_SIMS)]
    sims: u32,
    /// Leaves evaluated per batch (more keeps a GPU busy).
    #[arg(long, default_value_t = 8)]
    batch: usize,
    /// Gumbel root instead of PUCT.
    #[arg(long)]
    gumbel: bool,
    /// Time kept back per move for the round trip to the GUI, in milliseconds.
    #[arg(long, default_value_t = 50)]
    overhead_ms: u64,
    /// Log level on standard error (error, warn, info, debug: debug shows every line in and
    /// out).
    #[arg(long, default_value = "warn")]
    log: String,
}

fn run(a: Args) -> anyhow::Result<()> {
    anyhow::ensure!(a.threads >= 1, "--threads must be at least 1");
    anyhow::ensure!(a.batch >= 1, "--batch must be at least 1");
    anyhow::ensure!(a.sims >= 1, "--sims must be at least 1");
    tch::set_num_threads(a.threads);
    let source = ModelSource::from_options(a.model.as_deref(), a.run_dir.as_deref())
        .ok_or_else(|| anyhow::anyhow!("name the model: --model STEM or --run-dir DIR"))?;
    let loaded = load_model(&source, a.device).context("loading the model")?;
    let config = EngineConfig {
        options: SearcherOptions {
            config: search_config(a.gumbel, None),
            batch: a.batch,
            ..SearcherOptions::default()
        },
        overhead: Duration::from_millis(a.overhead_ms),
        default_sims: a.sims,
    };
    let mut engine = Engine::new(loaded, config);
    let out = Out::new(std::io::stdout());
    koma_engine::protocol::serve(&mut engine, std::io::stdin().lock(), &out);
    Ok(())
}

fn main() -> std::process::ExitCode {
    let a = Args::parse();
    let filter = tracing_subscriber::EnvFilter::try_new(&a.log)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();
    match run(a) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("koma-engine: error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

//! `koma-engine`: a trained koma model over XBoard/CECP, USI or UCI on standard input and
//! output. The protocol is recognised from the first command; the variant comes from the
//! model.

mod error_text;

use anyhow::Context;
use clap::Parser;
use koma_engine::protocol::out::Out;
use koma_engine::protocol::session::{Engine, EngineConfig};
use koma_engine::search::PlayOptions;
use std::time::Duration;

/// koma-engine: a trained koma model for GUIs and other programs, over XBoard/CECP v2, USI or
/// UCI (with UCI_Variant) on standard input and output. The protocol is recognised from the
/// first command (`xboard`, `usi` or `uci`); the variant comes from the model.
#[derive(Debug, Parser)]
#[command(name = "koma-engine", version)]
struct Args {
    #[command(flatten)]
    play: PlayOptions,
    /// Time kept back per move for the round trip to the GUI, in milliseconds.
    #[arg(long, default_value_t = 50)]
    overhead_ms: u64,
    /// Log level on standard error (error, warn, info, debug: debug shows every line in and
    /// out).
    #[arg(long, default_value = "warn")]
    log: String,
}

fn run(a: Args) -> anyhow::Result<()> {
    a.play.validate()?;
    let loaded = a.play.load().context("loading the model")?;
    let config = EngineConfig {
        options: a.play.searcher(&loaded.variant),
        overhead: Duration::from_millis(a.overhead_ms),
        default_sims: a.play.sims,
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
            eprintln!("koma-engine: error: {}", error_text::error_text(&e));
            std::process::ExitCode::FAILURE
        }
    }
}

//! `koma play`: a game against a trained model in the browser.

use anyhow::Context;
use clap::Args;
use koma_engine::search::PlayOptions;
use koma_play::{EngineDefaults, PlayServer, Session};
use std::sync::Arc;

/// Options of `koma play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The model and its search (`--sims` is the default per engine move; the page can
    /// change it per move).
    #[command(flatten)]
    pub play: PlayOptions,
    /// Address to listen on (loopback by default: the page lets anyone who reaches it play).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Milliseconds per engine move, instead of or on top of --sims (0: no time limit).
    #[arg(long, default_value_t = 0)]
    pub millis: u64,
}

/// Loads the model and serves the page until the process is stopped.
pub fn run(a: PlayArgs) -> anyhow::Result<()> {
    a.play.validate()?;
    let loaded = a.play.load()?;
    tracing::info!(
        "{} (step {}) plays {} on {:?}",
        loaded.stem.display(),
        loaded.step,
        loaded.variant.name,
        loaded.model.device()
    );
    let session = Arc::new(Session::new(
        loaded.model,
        loaded.stem.display().to_string(),
        loaded.step,
        a.play.searcher(&loaded.variant),
        EngineDefaults {
            sims: a.play.sims,
            millis: a.millis,
        },
    ));
    let addr = format!("{}:{}", a.host, a.port);
    let server = PlayServer::start(&addr, session).context("starting the page's server")?;
    let url = server.url();
    println!("koma play: {url} (Ctrl-C to stop)");
    if let Some(warning) = server.exposure_warning() {
        // Said on the terminal whatever the log level.
        eprintln!("koma play: warning: {warning}");
        tracing::warn!("{warning}");
    }
    if a.open {
        // Said on the terminal whatever the log level: without it a failed --open is silent.
        match webbrowser::open(&url) {
            Ok(()) => eprintln!("koma play: asked the default browser to open {url}"),
            Err(e) => eprintln!("koma play: could not start a browser ({e}); open {url} by hand"),
        }
    }
    server.wait();
    Ok(())
}

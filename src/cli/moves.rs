//! `koma moves`.

use super::position_args::PositionArgs;
use clap::Args;
use std::io::Write;

/// Options of `koma moves`.
#[derive(Debug, Args)]
pub struct MovesArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Also print the position text first.
    #[arg(long)]
    pub show_position: bool,
}

/// Prints the legal moves one per line, sorted, in the canonical notation.
pub fn run(a: MovesArgs) -> anyhow::Result<()> {
    let mut pos = a.position.position()?;
    let mut out = std::io::stdout().lock();
    if a.show_position {
        writeln!(out, "{}", pos.to_text())?;
    }
    let mut texts: Vec<String> = pos.legal_moves().iter().map(|m| pos.move_text(m)).collect();
    texts.sort();
    for t in texts {
        writeln!(out, "{t}")?;
    }
    if let Some(o) = pos.outcome() {
        tracing::info!("game over: {o}");
    }
    Ok(())
}

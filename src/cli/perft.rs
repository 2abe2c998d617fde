//! `koma perft`.

use super::position_args::PositionArgs;
use clap::Args;
use koma_rules::{perft, perft_divide};
use std::io::Write;
use std::time::Instant;

/// Options of `koma perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Depth in plies.
    #[arg(long)]
    pub depth: u32,
    /// Print the count below each legal move.
    #[arg(long)]
    pub divide: bool,
}

/// Prints the perft count (and the per-move counts with `--divide`).
pub fn run(a: PerftArgs) -> anyhow::Result<()> {
    let mut pos = a.position.position()?;
    let start = Instant::now();
    let total = if a.divide {
        let mut lines: Vec<(String, u64)> = perft_divide(&mut pos, a.depth.max(1))
            .into_iter()
            .map(|(m, n)| (pos.move_text(&m), n))
            .collect();
        lines.sort();
        let mut out = std::io::stdout().lock();
        for (m, n) in &lines {
            writeln!(out, "{m} {n}")?;
        }
        lines.iter().map(|(_, n)| n).sum()
    } else {
        perft(&mut pos, a.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("{total}");
    tracing::info!(
        depth = a.depth,
        nodes = total,
        seconds = format!("{secs:.3}"),
        nps = format!("{:.0}", total as f64 / secs.max(1e-9)),
        "perft (bulk counting at the leaves)"
    );
    Ok(())
}

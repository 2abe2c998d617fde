//! `koma lift-check`: koma's moves against an XBoard engine's own (`lift`/`highlight`).

use clap::Args;
use koma_arena::lift_check::{run_lift_check, LiftCheck};
use std::sync::Arc;

/// Options of `koma lift-check`.
#[derive(Debug, Args)]
pub struct LiftCheckArgs {
    /// Variant id or file (it must name its XBoard game in `[protocol] xboard`, or give
    /// `--xboard-variant`).
    #[arg(long)]
    pub variant: String,
    /// The engine's command line (run through `sh -c`).
    #[arg(long, default_value = "hachu")]
    pub engine: String,
    /// The engine's name of the variant (default: the file's `[protocol] xboard`).
    #[arg(long)]
    pub xboard_variant: Option<String>,
    /// Games the engine plays against itself after the start position (0: start only).
    #[arg(long, default_value_t = 4)]
    pub games: usize,
    /// Plies per game at most.
    #[arg(long, default_value_t = 120)]
    pub plies: usize,
    /// Compare every this many plies.
    #[arg(long, default_value_t = 1)]
    pub every: usize,
    /// Search depth the engine plays its games at (XBoard `sd`).
    #[arg(long, default_value_t = 2)]
    pub depth: u32,
    /// Engine option `NAME=VALUE`, sent before any game (repeatable). The default suits
    /// HaChu, which otherwise strikes out the moves that repeat a position.
    #[arg(long = "option", default_values_t = ["Allow repeats=1".to_owned()])]
    pub options: Vec<String>,
    /// Differences to print at most.
    #[arg(long, default_value_t = 40)]
    pub show: usize,
}

/// Runs the check; fails when a difference or an illegal engine move was found.
pub fn run(a: LiftCheckArgs) -> anyhow::Result<()> {
    let variant = Arc::new(koma_rules::load_variant(&a.variant)?);
    let xboard_name = a
        .xboard_variant
        .clone()
        .or_else(|| variant.xboard_name.clone())
        .ok_or_else(|| {
            anyhow::anyhow!(
                "{} names no XBoard game: give --xboard-variant",
                variant.name
            )
        })?;
    let check = LiftCheck {
        command: a.engine.clone(),
        xboard_name,
        games: a.games,
        plies: a.plies,
        go: vec![format!("sd {}", a.depth)],
        every: a.every,
        options: a.options.clone(),
    };
    let started = std::time::Instant::now();
    let report = run_lift_check(&variant, &check, |r| {
        tracing::info!(
            positions = r.positions,
            lifts = r.lifts,
            engine_moves = r.engine_moves,
            differences = r.differences.len(),
            seconds = format!("{:.0}", started.elapsed().as_secs_f64()),
            "game done"
        );
    })
    .map_err(anyhow::Error::msg)?;
    for d in report.differences.iter().take(a.show) {
        println!(
            "difference: {} in {} (after {}): {} koma={} engine={}",
            d.lifted, d.position, d.last_move, d.square, d.koma, d.engine
        );
    }
    for (pos, m) in &report.illegal {
        println!("illegal engine move: {m} in {pos}");
    }
    println!(
        "total: {} positions ({} with a move struck out by the Lion trading rules), {} pieces lifted, {} engine moves, {} differences, {} illegal engine moves",
        report.positions,
        report.lion_rule_positions,
        report.lifts,
        report.engine_moves,
        report.differences.len(),
        report.illegal.len()
    );
    if report.differences.is_empty() && report.illegal.is_empty() {
        Ok(())
    } else {
        anyhow::bail!("koma and {} disagree", a.engine)
    }
}

//! The options that pick a position: variant, optional position text, optional moves.

use anyhow::Context;
use clap::Args;
use koma_rules::{load_variant, Position, Variant};
use std::sync::Arc;

/// Where a command starts: a variant's start position or a position text, then moves.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// Built-in variant id or path to a variant TOML file (hand-shogi when not given, or the
    /// model's variant where a model is named).
    #[arg(long)]
    pub variant: Option<String>,
    /// Position text to start from instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, in the canonical notation, separated by spaces.
    #[arg(long, default_value = "")]
    pub moves: String,
}

impl PositionArgs {
    /// Builds the position, naming the first illegal move if there is one.
    pub fn position(&self) -> anyhow::Result<Position> {
        let variant = load_variant(self.variant.as_deref().unwrap_or("hand-shogi"))?;
        self.position_of(&variant)
    }

    /// Builds the position in `variant` (a model's), refusing a `--variant` that names
    /// another.
    pub fn position_of(&self, variant: &Arc<Variant>) -> anyhow::Result<Position> {
        if let Some(named) = &self.variant {
            let other = load_variant(named)?;
            anyhow::ensure!(
                other.id == variant.id,
                "--variant {named}: the model plays {}",
                variant.id
            );
        }
        let variant = variant.clone();
        let mut pos = match &self.fen {
            Some(text) => Position::from_text(&variant, text)?,
            None => Position::start(&variant),
        };
        for (i, text) in self.moves.split_whitespace().enumerate() {
            let m = pos
                .parse_move(text)
                .with_context(|| format!("--moves, move {}", i + 1))?;
            pos.make_move(m);
        }
        Ok(pos)
    }
}

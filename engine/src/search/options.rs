//! The options of every front end that plays a model (`koma-engine`, `koma play`,
//! `koma analyse`): where the model comes from, where it runs, and how it searches. One
//! struct, so the same flag means the same thing with the same default everywhere.

use crate::search::limits::DEFAULT_SIMS;
use crate::search::loader::{load_model, LoadError, LoadedModel, ModelSource};
use crate::search::ranges::{material_weight, mop_up_weight, tactics_depth};
use crate::search::searcher::{search_config, SearcherOptions, REFUTE_NODES};
use koma_mcts::SearchConfig;
use koma_model::{DeviceChoice, PrecisionChoice};
use koma_rules::Variant;
use std::path::PathBuf;

/// Model, device and search options, for clap (`#[command(flatten)]`).
#[derive(Debug, Clone, clap::Args)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["model", "run_dir"])))]
pub struct PlayOptions {
    /// Checkpoint stem of the model (the path without `.json` / `.safetensors`; either file's
    /// path works too).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Run directory: the newest model it has published (checked against its SHA-256).
    #[arg(long)]
    pub run_dir: Option<PathBuf>,
    /// Network device: auto, cpu, cuda or cuda:N.
    #[arg(long, default_value = "auto")]
    pub device: DeviceChoice,
    /// Threads searching each move together (one tree, virtual loss), and libtorch's threads
    /// for the network: give it the machine's cores.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The network's number format: auto (fp16 on CUDA; bf16 on a CPU with native bf16
    /// where it measures faster than fp32, else fp32), fp32, bf16 or fp16.
    #[arg(long, default_value = "auto")]
    pub precision: PrecisionChoice,
    /// Simulations per move when nothing else limits the search.
    #[arg(long, default_value_t = DEFAULT_SIMS)]
    pub sims: u32,
    /// Leaves evaluated per batch (virtual loss keeps them apart; more keeps a GPU busy).
    #[arg(long, default_value_t = 8)]
    pub batch: usize,
    /// Gumbel root (sequential halving) instead of PUCT.
    #[arg(long)]
    pub gumbel: bool,
    /// Weight of material in the utility the search maximises at its leaves,
    /// `(1 - w) * value + w * material`; 0 searches on the network's value alone. Default: 0
    /// in games with drops (Hand Shogi), 0.4 in the others.
    #[arg(long, value_parser = material_weight)]
    pub material: Option<f32>,
    /// The mop-up term: once one side is three mean piece values or more ahead, each piece
    /// the leader brings near the other side's royal piece counts up to this many times its
    /// value, so a won game is finished instead of shuffled into the length limit (2 took
    /// Hook Shogi's length-limit draws against `greedy` from 5 in 40 games to none). Past half
    /// the game's length limit any lead counts, and the weight grows to ten times this by the
    /// limit. 0 is off.
    #[arg(long, default_value_t = 0.0, value_parser = mop_up_weight)]
    pub mop_up: f32,
    /// Nodes of the proof-number search for the opponent after each move the search is about
    /// to choose: a move after which the opponent mates by force is not played while another
    /// is left (20,000 nodes take a few tens of milliseconds); 0 is off.
    #[arg(long, default_value_t = REFUTE_NODES)]
    pub refute_nodes: u64,
    /// Plies of the tactics check of each move the search chooses: an alpha-beta search on
    /// material with captures to quiescence, which replaces a choice scoring more than a mean
    /// piece value below its best move (where captures go to hand a piece lost counts
    /// twice) by the search's next candidate that does not; 0 is off, the default (against
    /// `alphabeta:depth=2` it did not make a Shoko Shogi model win, `docs/experiments.md`).
    #[arg(long, value_parser = tactics_depth)]
    pub tactics: Option<u32>,
}

/// A setting of [`PlayOptions`] out of range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--{option} must be at least 1")]
pub struct OptionError {
    /// The option.
    pub option: &'static str,
}

impl PlayOptions {
    /// Checks the settings that must be positive.
    pub fn validate(&self) -> Result<(), OptionError> {
        for (option, value) in [
            ("threads", self.threads),
            ("batch", self.batch),
            ("sims", self.sims as usize),
        ] {
            if value == 0 {
                return Err(OptionError { option });
            }
        }
        Ok(())
    }

    /// Where the model comes from (`--model` when both are given).
    pub fn source(&self) -> Option<ModelSource> {
        ModelSource::from_options(self.model.as_deref(), self.run_dir.as_deref())
    }

    /// Sets libtorch's threads and loads the model.
    pub fn load(&self) -> Result<LoadedModel, LoadError> {
        tch::set_num_threads(self.threads.min(i32::MAX as usize) as i32);
        let source = self.source().ok_or(LoadError::NoSource)?;
        load_model(&source, self.device, self.precision)
    }

    /// The searcher's settings for a model of `variant`.
    pub fn searcher(&self, variant: &Variant) -> SearcherOptions {
        SearcherOptions {
            batch: self.batch,
            threads: self.threads,
            ..SearcherOptions::new({
                let base = search_config(variant, self.gumbel, self.material);
                SearchConfig {
                    mop_up: self.mop_up,
                    refute_nodes: self.refute_nodes,
                    tactics_depth: self.tactics.unwrap_or(base.tactics_depth),
                    ..base
                }
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        play: PlayOptions,
    }

    fn hand_shogi() -> Variant {
        Variant::load("hand-shogi").unwrap()
    }

    /// `--mop-up` reaches the search's settings (off when not given), and a weight out of
    /// range is refused with its value named.
    #[test]
    fn mop_up_reaches_the_search_and_is_checked() {
        let parse = |extra: &[&str]| {
            Cli::try_parse_from(["x", "--model", "m"].iter().chain(extra.iter()))
                .map(|c| c.play.searcher(&hand_shogi()).config.mop_up)
                .map_err(|e| e.to_string())
        };
        assert_eq!(parse(&[]), Ok(0.0));
        assert_eq!(parse(&["--mop-up", "4"]), Ok(4.0));
        let e = parse(&["--mop-up", "11"]).unwrap_err();
        assert!(e.contains("'11' is not a weight from 0 to 10"), "{e}");
    }

    /// `--material` reaches the search's settings, and a weight out of range is refused
    /// with its value named. Not given, it is 0 in a game with drops and the search's default
    /// in one without.
    #[test]
    fn material_reaches_the_search_and_is_checked() {
        let parse = |variant: &Variant, extra: &[&str]| {
            Cli::try_parse_from(["x", "--model", "m"].iter().chain(extra.iter()))
                .map(|c| c.play.searcher(variant).config.material_weight)
                .map_err(|e| e.to_string())
        };
        let (hand, shoko) = (hand_shogi(), Variant::load("shoko-shogi").unwrap());
        assert!(hand.rules.drops && !shoko.rules.drops);
        assert_eq!(parse(&hand, &[]), Ok(0.0));
        assert_eq!(
            parse(&shoko, &[]),
            Ok(SearchConfig::default().material_weight)
        );
        assert!(SearchConfig::default().material_weight > 0.0);
        // The settings a front end starts from without flags agree with the flags' default.
        assert_eq!(
            SearcherOptions::for_variant(&hand).config.material_weight,
            0.0
        );
        assert_eq!(
            SearcherOptions::for_variant(&shoko).config.material_weight,
            SearchConfig::default().material_weight
        );
        assert_eq!(parse(&hand, &["--material", "0.25"]), Ok(0.25));
        assert_eq!(parse(&shoko, &["--material", "0"]), Ok(0.0));
        let e = parse(&hand, &["--material", "1.5"]).unwrap_err();
        assert!(e.contains("'1.5' is not a weight from 0 to 1"), "{e}");
    }

    /// `--tactics` reaches the search's settings; not given, the check is off in every
    /// variant; a depth out of range is refused with its value named.
    #[test]
    fn tactics_reaches_the_search_and_is_checked() {
        let parse = |variant: &Variant, extra: &[&str]| {
            Cli::try_parse_from(["x", "--model", "m"].iter().chain(extra.iter()))
                .map(|c| c.play.searcher(variant).config.tactics_depth)
                .map_err(|e| e.to_string())
        };
        for variant in [hand_shogi(), Variant::load("shoko-shogi").unwrap()] {
            assert_eq!(parse(&variant, &[]), Ok(0));
            assert_eq!(
                SearcherOptions::for_variant(&variant).config.tactics_depth,
                0
            );
            assert_eq!(parse(&variant, &["--tactics", "3"]), Ok(3));
            assert_eq!(parse(&variant, &["--tactics", "0"]), Ok(0));
        }
        let e = parse(&hand_shogi(), &["--tactics", "9"]).unwrap_err();
        assert!(
            e.contains("'9' is not a depth in plies from 0 (off) to 4"),
            "{e}"
        );
    }
}

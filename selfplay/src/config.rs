//! Self-play settings.

use koma_mcts::SearchConfig;
use serde::{Deserialize, Serialize};

/// How self-play workers search and record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SelfplayConfig {
    /// Worker threads; each runs `games_per_worker` games at once.
    pub workers: usize,
    /// Games each worker keeps in flight (their leaves share a batch).
    pub games_per_worker: usize,
    /// Simulations of a full search (recorded as a policy target).
    pub full_simulations: u32,
    /// Simulations of a cheap search (not recorded) under playout-cap randomisation.
    pub fast_simulations: u32,
    /// Share of moves that get a full search.
    pub full_search_fraction: f32,
    /// The first plies of every game always get a full, noisy search and a sampled move.
    pub opening_plies: u32,
    /// Move-selection temperature of the opening plies (PUCT; Gumbel samples by itself).
    pub temperature: f32,
    /// A side whose root value stays below this resigns...
    pub resign_threshold: f32,
    /// ...after this many consecutive moves.
    pub resign_consecutive: u32,
    /// Share of games in which nobody resigns (played out to check resignations).
    pub resign_playout_fraction: f32,
    /// Finished games per chunk file.
    pub games_per_chunk: usize,
    /// Largest batch of positions per forward pass.
    pub max_batch: usize,
    /// Evaluator threads, each with its own copy of the network, sharing the workers' leaves
    /// (0 counts as 1). More than one pays where a single evaluator is the bottleneck and a
    /// core idles beside it (docs/performance.md).
    pub evaluators: usize,
    /// Policy-target entries below this probability are dropped (then renormalised).
    pub policy_min: f32,
    /// A game that ends drawn (repetition, length limit) with one side ahead by at least this
    /// many mean piece values is recorded as that side's win, so that value targets do not
    /// teach that being ahead is a draw (see the `adjudication` module); 0 keeps every draw.
    pub material_adjudication: f64,
    /// Search settings.
    pub search: SearchConfig,
}

impl SelfplayConfig {
    /// How many evaluator threads to start: `evaluators`, at least one.
    pub fn evaluator_threads(&self) -> usize {
        self.evaluators.max(1)
    }
}

impl Default for SelfplayConfig {
    fn default() -> Self {
        SelfplayConfig {
            workers: 2,
            games_per_worker: 32,
            full_simulations: 32,
            fast_simulations: 8,
            full_search_fraction: 0.25,
            opening_plies: 8,
            temperature: 1.0,
            resign_threshold: -0.9,
            resign_consecutive: 6,
            resign_playout_fraction: 0.2,
            games_per_chunk: 8,
            max_batch: 256,
            evaluators: 1,
            policy_min: 0.002,
            material_adjudication: 0.0,
            search: SearchConfig {
                gumbel: true,
                ..SearchConfig::default()
            },
        }
    }
}

//! The players of a match as the game driver sees them: each distinct checkpoint loaded once
//! and served by an inference server of its own (the batching backend self-play uses), and a
//! mover per player.

use crate::alphabeta::AlphaBetaSpec;
use crate::config::MatchConfig;
use crate::error::ArenaError;
use crate::player::PlayerSpec;
use koma_mcts::SearchConfig;
use koma_model::{Client, InferenceServer, Model};
use std::path::PathBuf;
use std::time::Duration;

/// How one side of a match chooses its moves.
#[derive(Debug, Clone, PartialEq)]
pub enum Mover {
    /// Uniformly random.
    Random,
    /// Greedy capture.
    Greedy,
    /// An external engine.
    External,
    /// The classical baseline.
    AlphaBeta(AlphaBetaSpec),
    /// MCTS with the model served by evaluator `evaluator`.
    Search {
        /// Index of the model's evaluator.
        evaluator: usize,
        /// Simulations per move.
        sims: u32,
        /// The tree's settings (the player's options on play's defaults).
        config: SearchConfig,
    },
}

/// The models of a match, each loaded once and served by its own inference thread: two model
/// players with the same checkpoint share one network, so their leaves go through the same
/// forward passes.
pub struct Models {
    stems: Vec<PathBuf>,
    servers: Vec<InferenceServer>,
}

impl Models {
    /// No model yet.
    pub fn new() -> Models {
        Models {
            stems: Vec::new(),
            servers: Vec::new(),
        }
    }

    /// The mover for a player, loading its model if it is new; batches hold at most
    /// `max_batch` positions.
    pub fn mover(
        &mut self,
        spec: &PlayerSpec,
        cfg: &MatchConfig,
        max_batch: usize,
    ) -> Result<Mover, ArenaError> {
        Ok(match spec {
            PlayerSpec::Random => Mover::Random,
            PlayerSpec::Greedy => Mover::Greedy,
            PlayerSpec::External(_) => Mover::External,
            PlayerSpec::AlphaBeta(a) => Mover::AlphaBeta(*a),
            PlayerSpec::Model(p) => {
                let key = std::fs::canonicalize(p.load_path()).unwrap_or_else(|_| p.load_path());
                let evaluator = match self.stems.iter().position(|s| *s == key) {
                    Some(i) => i,
                    None => {
                        let mut m = Model::load(&p.load_path(), &cfg.variant, None, cfg.device)
                            .map_err(|source| ArenaError::Model {
                                player: spec.to_string(),
                                source,
                            })?;
                        let inference = m.prepare_to_play(cfg.precision);
                        tracing::info!(
                            player = %spec,
                            step = m.meta.step,
                            games = m.meta.games,
                            %inference,
                            "model loaded"
                        );
                        self.stems.push(key);
                        self.servers.push(InferenceServer::start(
                            m,
                            max_batch,
                            Box::new(|| None),
                            Duration::from_secs(3600),
                        ));
                        self.servers.len() - 1
                    }
                };
                Mover::Search {
                    evaluator,
                    sims: p.sims,
                    config: p.search_config(&cfg.variant),
                }
            }
        })
    }

    /// One client per model, in evaluator order.
    pub fn clients(&self) -> Vec<Client> {
        self.servers.iter().map(InferenceServer::client).collect()
    }

    /// Stops the inference threads.
    pub fn shutdown(self) {
        for s in self.servers {
            s.shutdown();
        }
    }
}

impl Default for Models {
    fn default() -> Self {
        Models::new()
    }
}

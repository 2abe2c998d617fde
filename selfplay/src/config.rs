//! Self-play settings.

use koma_mcts::SearchConfig;
use koma_rules::Variant;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

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
    /// In self-play only, a repetition loses for the player who made it (as Chu Shogi's
    /// published rules read it: see `Position::repetition_maker`), whatever the variant's
    /// own rule; records keep that result. Where a repetition draws, self-play on the large
    /// boards drifts into both sides repeating with material level, which a draw score or
    /// adjudication did not stop (docs/experiments.md); this removes the draw as a refuge.
    /// Play outside self-play (arena, engine, browser) keeps the variant's rule.
    pub repetition_loses: bool,
    /// Search settings.
    pub search: SearchConfig,
}

impl SelfplayConfig {
    /// The variant self-play games are played under: `variant` itself, or a copy whose
    /// repetitions lose for their maker where [`SelfplayConfig::repetition_loses`] asks it.
    pub fn played_variant(&self, variant: &Arc<Variant>) -> Arc<Variant> {
        if !self.repetition_loses || variant.rules.repetition_loses {
            return variant.clone();
        }
        let mut v = Variant::clone(variant);
        v.rules.repetition_loses = true;
        Arc::new(v)
    }

    /// How many evaluator threads to start: `evaluators`, at least one.
    pub fn evaluator_threads(&self) -> usize {
        self.evaluators.max(1)
    }

    /// How many games self-play keeps in flight: `games_per_worker` for each worker (at least
    /// one worker), the most leaves one round of their searches can send to the network.
    pub fn games_in_flight(&self) -> usize {
        self.workers.max(1) * self.games_per_worker
    }

    /// The batch an evaluator thread usually runs: each worker sends its games' leaves
    /// together, and the evaluators share the workers' batches, up to `max_batch`. With the
    /// presets' as many workers as evaluators it is `games_per_worker` (`koma bench` measures
    /// a mean batch of 64.1 on Hand Shogi's preset of 64). The network's format is chosen by
    /// timing this batch ([`koma_model::Model::prepare_to_play_at`]).
    pub fn evaluator_batch(&self) -> usize {
        self.games_in_flight()
            .div_ceil(self.evaluator_threads())
            .clamp(1, self.max_batch.max(1))
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
            repetition_loses: false,
            search: SearchConfig {
                gumbel: true,
                ..SearchConfig::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{load_variant, Color, DrawReason, Outcome, Position, WinReason};

    /// Steps a gold of each side out and back three times from the start: the start position
    /// then stands for the fourth time, brought back by White's last move.
    fn repeated(variant: &Arc<Variant>) -> Position {
        let mut pos = Position::start(variant);
        for _ in 0..3 {
            for m in ["c1b1", "c9b9", "b1c1", "b9c9"] {
                let mv = pos.parse_move(m).expect(m);
                pos.make_move(mv);
            }
        }
        pos
    }

    #[test]
    fn an_evaluator_batch_is_a_share_of_the_games_in_flight() {
        let sp = |workers, games_per_worker, evaluators, max_batch| SelfplayConfig {
            workers,
            games_per_worker,
            evaluators,
            max_batch,
            ..SelfplayConfig::default()
        };
        // Two workers of 64 games on two evaluators (Hand Shogi's preset).
        assert_eq!(sp(2, 64, 2, 128).evaluator_batch(), 64);
        // One evaluator takes both workers' leaves, up to its largest batch.
        assert_eq!(sp(2, 64, 1, 256).evaluator_batch(), 128);
        assert_eq!(sp(2, 64, 1, 100).evaluator_batch(), 100);
        // Odd shares round up; nothing below one position.
        assert_eq!(sp(3, 5, 2, 64).evaluator_batch(), 8);
        assert_eq!(sp(0, 0, 0, 0).evaluator_batch(), 1);
    }

    #[test]
    fn a_repetition_loses_for_its_maker_only_where_asked() {
        let hand = load_variant("hand-shogi").unwrap();
        assert!(!hand.rules.repetition_loses);
        let plain = SelfplayConfig::default();
        assert!(Arc::ptr_eq(&plain.played_variant(&hand), &hand));
        // The variant's own rule: a draw.
        let mut pos = repeated(&plain.played_variant(&hand));
        assert_eq!(pos.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
        let strict = SelfplayConfig {
            repetition_loses: true,
            ..SelfplayConfig::default()
        };
        let played = strict.played_variant(&hand);
        assert_eq!(played.id, hand.id);
        assert!(played.rules.repetition_loses);
        let mut pos = repeated(&played);
        assert_eq!(
            pos.outcome(),
            Some(Outcome::Win {
                winner: Color::Black,
                reason: WinReason::RepetitionMade,
            })
        );
    }
}

//! An evaluator for the tests of the root's checks: a network that likes one move.

use koma_mcts::{Evaluation, Evaluator};
use koma_rules::{Move, Position};

/// Uniform priors and an even value, except that the favoured move takes nine tenths of
/// the prior wherever it is legal: a network that likes that move.
pub struct Favour(pub Move);

impl Evaluator for Favour {
    type Request = Vec<Move>;

    fn prepare(&self, _pos: &Position, moves: &[Move]) -> Vec<Move> {
        moves.to_vec()
    }

    fn evaluate(&self, batch: Vec<Vec<Move>>) -> Vec<Evaluation> {
        batch
            .into_iter()
            .map(|moves| {
                let n = moves.len().max(1) as f32;
                let priors = if moves.contains(&self.0) && moves.len() > 1 {
                    let rest = 0.1 / (n - 1.0);
                    moves
                        .iter()
                        .map(|&m| if m == self.0 { 0.9 } else { rest })
                        .collect()
                } else {
                    vec![1.0 / n; moves.len()]
                };
                Evaluation {
                    priors,
                    ..Evaluation::neutral()
                }
            })
            .collect()
    }
}

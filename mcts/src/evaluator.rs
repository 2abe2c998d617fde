//! The bridge between the search and whatever scores positions.

use koma_rules::{Move, Position};

/// A network's verdict on a position: a prior for each legal move (in the order the moves were
/// given), win/draw/loss probabilities and the expected material balance a few plies ahead,
/// both for the side to move.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// Move priors, summing to 1.
    pub priors: Vec<f32>,
    /// Probabilities of win, draw and loss for the side to move.
    pub wdl: [f32; 3],
    /// Predicted material balance a few plies ahead, in [-1, 1] (see
    /// `koma_rules::PieceValues::balance`): an auxiliary output, trained to shape the trunk's
    /// features and shown to users; the search itself counts material exactly
    /// (`SearchConfig::material_weight`).
    pub material: f32,
}

impl Evaluation {
    /// An evaluation with no opinion: uniform priors (left empty, the search spreads them) and
    /// an even game.
    pub fn neutral() -> Evaluation {
        Evaluation {
            priors: Vec::new(),
            wdl: [0.0, 1.0, 0.0],
            material: 0.0,
        }
    }

    /// Expected score in [-1, 1] for the side to move.
    pub fn value(&self) -> f32 {
        self.wdl[0] - self.wdl[2]
    }
}

/// Scores positions in batches. `prepare` runs at the leaf, while the position is at hand, and
/// turns it into whatever the evaluator needs (for a network: input planes and move indices);
/// `evaluate` scores a batch of prepared requests at once.
pub trait Evaluator {
    /// A prepared position.
    type Request: Send;

    /// Encodes a leaf position and its legal moves.
    fn prepare(&self, pos: &Position, moves: &[Move]) -> Self::Request;

    /// Scores a batch; one evaluation per request, in order.
    fn evaluate(&self, batch: Vec<Self::Request>) -> Vec<Evaluation>;
}

/// Uniform priors and an even value: the evaluator of tests and search benchmarks.
#[derive(Debug, Clone, Copy, Default)]
pub struct UniformEvaluator;

impl Evaluator for UniformEvaluator {
    type Request = usize;

    fn prepare(&self, _pos: &Position, moves: &[Move]) -> usize {
        moves.len()
    }

    fn evaluate(&self, batch: Vec<usize>) -> Vec<Evaluation> {
        batch
            .into_iter()
            .map(|n| Evaluation {
                priors: vec![1.0 / n.max(1) as f32; n],
                ..Evaluation::neutral()
            })
            .collect()
    }
}

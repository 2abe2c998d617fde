//! koma-mcts: the search.
//!
//! A [`Tree`] per game, searched in two halves so that batching lives outside the tree:
//! [`Tree::gather`] walks down to a leaf (PUCT below the root, Gumbel sequential halving or
//! PUCT at the root), and hands back a ticket plus an evaluation request; the caller evaluates
//! requests from many trees in one batch and gives each result back with [`Tree::apply`].
//! The network is reached only through the [`Evaluator`] trait, so tests and benchmarks use
//! the [`UniformEvaluator`].

pub mod alphabeta;
mod config;
pub mod driver;
mod evaluator;
mod gumbel;
mod mop_up;
mod node;
mod noise;
mod refute;
mod run;
mod search;
mod shared;
mod tactics;
mod tree;
#[cfg(test)]
mod tree_tests;

pub use config::{SearchConfig, MAX_TACTICS_DEPTH};
pub use evaluator::{Evaluation, Evaluator, UniformEvaluator};
pub use run::{SearchRun, STALL_ROUNDS};
pub use search::{search, simulate, SearchResult};
pub use shared::simulate_shared;
pub use tree::{Gathered, Ticket, Tree};

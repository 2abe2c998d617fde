//! A model several threads can hold.
//!
//! libtorch tensors may move between threads but not be shared, so a network is not `Sync`.
//! Front ends hold it behind a lock: a server's request threads share one model, and since one
//! search runs at a time per game, the lock is never contended in play.

use koma_mcts::{Evaluation, Evaluator};
use koma_model::{Model, Request};
use koma_rules::{Move, Position};
use std::sync::{Mutex, MutexGuard};

/// A model behind a lock, usable as an [`Evaluator`] from any thread.
#[derive(Debug)]
pub struct SharedModel(Mutex<Model>);

impl SharedModel {
    /// Wraps `model`.
    pub fn new(model: Model) -> SharedModel {
        SharedModel(Mutex::new(model))
    }

    /// The model (a panic in an earlier evaluation leaves the weights as they were, so a
    /// poisoned lock is still good to use).
    pub fn lock(&self) -> MutexGuard<'_, Model> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Evaluator for SharedModel {
    type Request = Request;

    fn prepare(&self, pos: &Position, moves: &[Move]) -> Request {
        self.lock().prepare(pos, moves)
    }

    fn evaluate(&self, batch: Vec<Request>) -> Vec<Evaluation> {
        let refs: Vec<&Request> = batch.iter().collect();
        self.lock().evaluate_requests(&refs)
    }
}

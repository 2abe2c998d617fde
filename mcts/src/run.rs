//! One search under way on one tree: its budget and the rules that end it. Every driver of a
//! tree uses it (the many-games driver of self-play and matches, and the single-game loop of
//! the front ends), so a search ends the same way wherever it runs.

use crate::tree::Tree;
use koma_rules::Position;

/// Rounds in a row a search may go without progress before it ends with what it has. A round
/// makes no progress when its walks only run into leaves still waiting for an evaluation,
/// which cannot last while every gathered leaf is evaluated in its round; the limit is a safety
/// net against an evaluator that drops requests.
pub const STALL_ROUNDS: u32 = 64;

/// A search's budget and progress.
#[derive(Debug, Clone)]
pub struct SearchRun {
    /// Root visits when the search began (a reused subtree's visits).
    start: u32,
    /// Root visits at which the budget is spent.
    target: u32,
    /// Rounds in a row without progress.
    stalls: u32,
}

impl SearchRun {
    /// Begins a search of `budget` new simulations on `tree`, whose root is `pos` (left as it
    /// was); `noisy` adds the exploration of self-play (Dirichlet noise under PUCT, Gumbel
    /// sampling under Gumbel). The root's mate search runs first (`root_mate_nodes`).
    pub fn begin(tree: &mut Tree, pos: &mut Position, budget: u32, noisy: bool) -> SearchRun {
        SearchRun::begin_until(tree, pos, budget, noisy, None)
    }

    /// [`SearchRun::begin`] without the root's mate search (a cheap search of self-play, whose
    /// position is not a training target).
    pub fn begin_unproven(tree: &mut Tree, budget: u32, noisy: bool) -> SearchRun {
        tree.begin(budget, noisy);
        let start = tree.root_visits();
        SearchRun {
            start,
            target: start.saturating_add(budget.max(1)),
            stalls: 0,
        }
    }

    /// [`SearchRun::begin`] for a search with a clock: the root's mate search stops at
    /// `mate_deadline` whatever its node budget.
    pub fn begin_until(
        tree: &mut Tree,
        pos: &mut Position,
        budget: u32,
        noisy: bool,
        mate_deadline: Option<std::time::Instant>,
    ) -> SearchRun {
        tree.prove_root(pos, mate_deadline);
        SearchRun::begin_unproven(tree, budget, noisy)
    }

    /// Simulations still to run under the budget.
    pub fn remaining(&self, tree: &Tree) -> u32 {
        self.target.saturating_sub(tree.root_visits())
    }

    /// Leaves to gather for the next batch, at most `batch`: no more than the budget has left,
    /// and one alone until the root is expanded (every other would wait on the same leaf).
    pub fn batch_wanted(&self, tree: &Tree, batch: usize) -> usize {
        batch
            .max(1)
            .min(self.remaining(tree) as usize)
            .min(if tree.root_expanded() { usize::MAX } else { 1 })
    }

    /// Simulations this search has completed (a reused subtree's not counted).
    pub fn new_simulations(&self, tree: &Tree) -> u32 {
        tree.root_visits().saturating_sub(self.start)
    }

    /// Whether the search is over: its budget spent, the root decided (a forced win proven,
    /// or every move leading to a decided position) once it has been expanded, or stalled.
    pub fn is_done(&self, tree: &Tree) -> bool {
        self.remaining(tree) == 0
            || (tree.root_expanded() && (tree.proven_win().is_some() || tree.is_decided()))
            || self.stalled()
    }

    /// Whether it ended by stalling.
    pub fn stalled(&self) -> bool {
        self.stalls >= STALL_ROUNDS
    }

    /// Counts a round: whether any simulation completed or any leaf went for evaluation.
    pub fn round(&mut self, progressed: bool) {
        if progressed {
            self.stalls = 0;
        } else {
            self.stalls += 1;
        }
    }
}

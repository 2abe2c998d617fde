//! One search under way on one tree: its budget and the rules that end it. Every driver of a
//! tree uses it (the many-games driver of self-play and matches, and the single-game loop of
//! the front ends), so a search ends the same way wherever it runs.

use crate::tree::Tree;

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
    /// Begins a search of `budget` new simulations on `tree`; `noisy` adds the exploration of
    /// self-play (Dirichlet noise under PUCT, Gumbel sampling under Gumbel).
    pub fn begin(tree: &mut Tree, budget: u32, noisy: bool) -> SearchRun {
        tree.begin(budget, noisy);
        let start = tree.root_visits();
        SearchRun {
            start,
            target: start.saturating_add(budget.max(1)),
            stalls: 0,
        }
    }

    /// Simulations still to run under the budget.
    pub fn remaining(&self, tree: &Tree) -> u32 {
        self.target.saturating_sub(tree.root_visits())
    }

    /// Simulations this search has completed (a reused subtree's not counted).
    pub fn new_simulations(&self, tree: &Tree) -> u32 {
        tree.root_visits().saturating_sub(self.start)
    }

    /// Whether the search is over: its budget spent, the root proven won (a move there wins
    /// at once), or stalled.
    pub fn is_done(&self, tree: &Tree) -> bool {
        self.remaining(tree) == 0 || tree.proven_win().is_some() || self.stalled()
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

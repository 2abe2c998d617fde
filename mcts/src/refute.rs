//! Refuting the root's chosen move: a proof-number search for the opponent after the move the
//! search is about to play.
//!
//! The leaf mate search sees the opponent's mates in three plies; a longer mating attack
//! (five to twenty plies of checks, which an alpha-beta engine finds in milliseconds in a
//! drop variant) shows in the tree only once the simulations reach down its line, and at a
//! second a move they often do not. Before the search commits to a move, the solver asks
//! whether the opponent mates by force after it; a move it proves lost is marked lost
//! (MCTS-solver), so selection leaves it, the search spends its simulations on the others,
//! and the move is not chosen while one not proven lost is left. dlshogi checks its chosen
//! moves the same way.

use koma_rules::mate::{MateAnswer, MateSolver};
use koma_rules::{Move, Position};
use std::time::Instant;

/// Root visits the preferred move needs before it is checked during the search: below
/// that the preference still changes from batch to batch.
pub(crate) const REFUTE_MIN_VISITS: u32 = 16;

/// Checks one search may make, so that a position with many losing moves (each proven in
/// turn) costs a bounded share of the move's time.
const MAX_CHECKS: u32 = 10;

/// Of those, the checks kept for the move the finished search chooses: the preference may
/// change often during a search, and the move played is the one that must be checked.
const FINAL_CHECKS: u32 = 4;

/// Plies the refutation search looks ahead: the opponent's forced mates that decided lost
/// games of Hand Shogi ran to 21 plies of checks and replies.
const PLIES: u32 = 21;

/// The checks made at the current root.
#[derive(Debug, Default)]
pub(crate) struct Refutations {
    /// The solver, kept for its table's memory.
    solver: Option<MateSolver>,
    /// Root moves already checked (proven lost or not) at this root.
    checked: Vec<Move>,
    /// Checks made by the current search.
    spent: u32,
    /// When the current search's checks must stop, if it has a clock.
    deadline: Option<Instant>,
}

impl Refutations {
    /// Forgets the checks of the last root (the root changed).
    pub(crate) fn new_root(&mut self) {
        self.checked.clear();
    }

    /// A new search begins: its checks count from zero, with no clock until one is set.
    pub(crate) fn new_search(&mut self) {
        self.spent = 0;
        self.deadline = None;
    }

    /// Stops the current search's checks at `deadline`: none starts after it, and one under
    /// way ends there unproven.
    pub(crate) fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Whether another check may be made by this search, during it or (`last`) once it has
    /// finished.
    pub(crate) fn may_check(&self, last: bool) -> bool {
        let limit = if last {
            MAX_CHECKS
        } else {
            MAX_CHECKS - FINAL_CHECKS
        };
        self.spent < limit && !self.out_of_time()
    }

    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the opponent mates by force after root move `mv` of `pos` (left as it was),
    /// within `nodes` nodes of the proof-number search; `None` when `mv` was checked at this
    /// root already.
    pub(crate) fn check(&mut self, pos: &mut Position, mv: Move, nodes: u64) -> Option<bool> {
        if self.checked.contains(&mv) {
            return None;
        }
        self.checked.push(mv);
        self.spent += 1;
        let solver = self
            .solver
            .get_or_insert_with(|| MateSolver::new(nodes, PLIES));
        let began = Instant::now();
        pos.make_move(mv);
        let answer = solver.solve_until(pos, self.deadline);
        pos.unmake_move();
        let lost = matches!(answer, MateAnswer::Mate(_));
        tracing::debug!(
            mv = %pos.move_text(&mv),
            ?answer,
            nodes = solver.nodes,
            micros = began.elapsed().as_micros() as u64,
            "refutation check"
        );
        if !lost && self.out_of_time() {
            // Cut short by the clock: a later search at this root may try it again.
            self.checked.pop();
        }
        Some(lost)
    }
}

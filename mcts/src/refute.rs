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
    /// When the checks made during the current search must stop, if it has a clock: when
    /// its simulations stop, so that one started late does not eat the time kept for the
    /// check of the move it finally chooses.
    during: Option<Instant>,
    /// When the checks of the finished search's choice must stop: the move's end.
    last: Option<Instant>,
    /// A check is out of the tree ([`Check`]): a second one waits until it is back.
    busy: bool,
}

/// One check, taken out of the tree so that it runs without it: threads sharing a tree run
/// it outside the tree's lock and go on simulating meanwhile. Handed back with
/// [`Refutations::finish`].
#[derive(Debug)]
pub(crate) struct Check {
    /// The root move checked.
    pub(crate) mv: Move,
    solver: MateSolver,
    deadline: Option<Instant>,
}

impl Check {
    /// Whether the opponent mates by force after the move from root position `pos` (left as
    /// it was), within the solver's nodes and the search's clock.
    pub(crate) fn run(&mut self, pos: &mut Position) -> bool {
        let began = Instant::now();
        pos.make_move(self.mv);
        let answer = self.solver.solve_until(pos, self.deadline);
        pos.unmake_move();
        tracing::debug!(
            mv = %pos.move_text(&self.mv),
            ?answer,
            nodes = self.solver.nodes,
            micros = began.elapsed().as_micros() as u64,
            "refutation check"
        );
        matches!(answer, MateAnswer::Mate(_))
    }
}

impl Refutations {
    /// Forgets the checks of the last root (the root changed).
    pub(crate) fn new_root(&mut self) {
        self.checked.clear();
    }

    /// A new search begins: its checks count from zero, with no clock until one is set.
    pub(crate) fn new_search(&mut self) {
        self.spent = 0;
        self.during = None;
        self.last = None;
        self.busy = false;
    }

    /// Stops the current search's checks made during it at `during` and those of its final
    /// choice at `last`: none starts after its deadline, and one under way ends there
    /// unproven.
    pub(crate) fn set_deadlines(&mut self, during: Option<Instant>, last: Option<Instant>) {
        self.during = during;
        self.last = last;
    }

    /// When the checks of the finished search's choice must stop, if its search has a clock.
    pub(crate) fn last_deadline(&self) -> Option<Instant> {
        self.last
    }

    /// The deadline of a check made during the search or (`last`) of its final choice.
    fn deadline(&self, last: bool) -> Option<Instant> {
        if last {
            self.last
        } else {
            self.during
        }
    }

    /// Whether another check may be made by this search, during it or (`last`) once it has
    /// finished.
    pub(crate) fn may_check(&self, last: bool) -> bool {
        let limit = if last {
            MAX_CHECKS
        } else {
            MAX_CHECKS - FINAL_CHECKS
        };
        self.spent < limit && !past(self.deadline(last))
    }

    /// Takes the check of root move `mv` with a solver of `nodes` nodes, during the search
    /// or (`last`) of its final choice; `None` when `mv` was checked at this root already or
    /// another check is out.
    pub(crate) fn claim(&mut self, mv: Move, nodes: u64, last: bool) -> Option<Check> {
        if self.busy || self.checked.contains(&mv) {
            return None;
        }
        self.checked.push(mv);
        self.spent += 1;
        self.busy = true;
        let solver = self
            .solver
            .take()
            .unwrap_or_else(|| MateSolver::new(nodes, PLIES));
        Some(Check {
            mv,
            solver,
            deadline: self.deadline(last),
        })
    }

    /// Takes back a check that has run; `lost` is its answer. One that proved nothing
    /// because the clock cut it short may be tried again by a later search at this root.
    pub(crate) fn finish(&mut self, check: Check, lost: bool) {
        self.busy = false;
        if !lost && past(check.deadline) {
            self.checked.retain(|&m| m != check.mv);
        }
        self.solver = Some(check.solver);
    }
}

/// Whether `deadline`, if there is one, has passed.
pub(crate) fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::Variant;
    use std::time::Duration;

    /// Past the simulations' deadline no check starts during the search, while the final
    /// choice may still be checked until the move's end, and each check carries the deadline
    /// of its kind.
    #[test]
    fn checks_during_the_search_stop_with_the_simulations() {
        let variant = std::sync::Arc::new(Variant::load("hand-shogi").unwrap());
        let mut pos = Position::start(&variant);
        let moves = pos.legal_moves();
        let now = Instant::now();
        let (during, last) = (
            now - Duration::from_millis(1),
            now + Duration::from_secs(60),
        );
        let mut r = Refutations::default();
        r.new_search();
        r.set_deadlines(Some(during), Some(last));
        assert!(!r.may_check(false));
        assert!(r.may_check(true));
        let check = r.claim(moves[0], 100, true).unwrap();
        assert_eq!(check.deadline, Some(last));
        r.finish(check, false);
        r.set_deadlines(Some(last), Some(last + Duration::from_secs(1)));
        let mut check = r.claim(moves[1], 100, false).unwrap();
        assert_eq!(check.deadline, Some(last));
        assert!(!check.run(&mut pos));
        r.finish(check, false);
        r.new_search();
        assert!(r.may_check(false) && r.may_check(true));
    }
}

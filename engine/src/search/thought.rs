//! What a finished search says about its root.

use koma_rules::Move;
use std::time::Duration;

/// One root move as the search weighed it.
#[derive(Debug, Clone, PartialEq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Completed visits.
    pub visits: u32,
    /// The network's prior.
    pub prior: f32,
    /// Mean value of its subtree for the side to move, in [-1, 1] (0 when unvisited).
    pub q: f32,
}

/// The result of a search.
#[derive(Debug, Clone, PartialEq)]
pub struct Thought {
    /// The move to play.
    pub best: Move,
    /// The search's value of the root for the side to move, in [-1, 1].
    pub value: f32,
    /// The network's win/draw/loss probabilities at the root for the side to move.
    pub wdl: [f32; 3],
    /// Root visits (a reused subtree's included).
    pub simulations: u32,
    /// Simulations run by this search.
    pub new_simulations: u32,
    /// Time the search took.
    pub elapsed: Duration,
    /// Root moves, most visited first.
    pub top: Vec<RootMove>,
    /// Principal variation: the most visited line, starting with `best`.
    pub pv: Vec<Move>,
    /// Whether the root was a proven win (a mate in one found by the search).
    pub proven_win: bool,
}

impl Thought {
    /// The search as a progress report.
    pub fn progress(&self) -> Progress {
        Progress {
            simulations: self.new_simulations,
            elapsed: self.elapsed,
            value: self.value,
            pv: self.pv.clone(),
            proven_win: self.proven_win,
        }
    }
}

/// A search under way, as engine protocols report it while it runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// Simulations of this search so far (the visits a reused subtree brought are not
    /// counted: a GUI that asked for `go nodes 32` sees at most 32).
    pub simulations: u32,
    /// Time since the search began.
    pub elapsed: Duration,
    /// Root value for the side to move, in [-1, 1].
    pub value: f32,
    /// Most visited line.
    pub pv: Vec<Move>,
    /// Whether the root is a proven win.
    pub proven_win: bool,
}

impl Progress {
    /// The value as centipawn-like units for protocols that expect them: the expected score
    /// mapped through the logistic curve chess engines' evaluations follow (100 units at a
    /// 64% expected score), clamped to +-10000.
    pub fn centipawns(&self) -> i32 {
        let p = ((self.value + 1.0) / 2.0).clamp(1e-4, 1.0 - 1e-4) as f64;
        let cp = 400.0 * (p / (1.0 - p)).log10();
        cp.round().clamp(-10000.0, 10000.0) as i32
    }
}

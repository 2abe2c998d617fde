//! Running a whole search on one tree, and reading its result.

use crate::evaluator::Evaluator;
use crate::gumbel::improved_policy;
use crate::run::SearchRun;
use crate::tree::{Gathered, Tree};
use koma_rules::{Move, Position};
use rand::Rng;

/// What a finished search says about the root.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// The move the search prefers (Gumbel: the sequential-halving winner; PUCT: most visits).
    pub best: Move,
    /// Root moves with their visit counts.
    pub visits: Vec<(Move, u32)>,
    /// Policy target over the root moves: the improved policy under Gumbel, visit shares under
    /// PUCT.
    pub policy: Vec<(Move, f32)>,
    /// Root value for the side to move, in [-1, 1].
    pub value: f32,
    /// Simulations completed at the root.
    pub simulations: u32,
}

impl SearchResult {
    /// Samples a move from the visit counts raised to 1/temperature (0: the best move).
    pub fn sample(&self, temperature: f32, rng: &mut impl Rng) -> Move {
        if temperature <= 1e-3 || self.visits.is_empty() {
            return self.best;
        }
        let weights: Vec<f64> = self
            .visits
            .iter()
            .map(|&(_, n)| (n as f64).powf(1.0 / temperature as f64))
            .collect();
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return self.best;
        }
        let mut x = rng.gen_range(0.0..total);
        for (w, (m, _)) in weights.iter().zip(&self.visits) {
            if x < *w {
                return *m;
            }
            x -= w;
        }
        self.best
    }
}

impl Tree {
    /// The result of the search so far. `None` if the root has no legal move.
    pub fn result(&self) -> Option<SearchResult> {
        let children = self.root_children();
        if children.is_empty() {
            return None;
        }
        let visits: Vec<(Move, u32)> = children.iter().map(|c| (c.0, c.1)).collect();
        // The move the search would play (`Tree::chosen_root_edge`: never one proven lost
        // while another is left).
        let best = self.edges[self.chosen_root_edge()?].mv;
        let policy = if let Some(w) = self.root_win {
            children
                .iter()
                .map(|c| (c.0, if c.0 == w { 1.0 } else { 0.0 }))
                .collect()
        } else if self.gumbel.is_some() {
            let (stats, net_value) = self.root_stats();
            let pi = improved_policy(stats, net_value, &self.cfg);
            children.iter().map(|c| c.0).zip(pi).collect()
        } else {
            let total: u32 = visits.iter().map(|v| v.1).sum();
            visits
                .iter()
                .map(|&(m, n)| (m, n as f32 / total.max(1) as f32))
                .collect()
        };
        // A root with a move that wins at once is worth a win, however few simulations ran.
        let value = if self.root_win.is_some() {
            1.0
        } else {
            self.root_decided.unwrap_or_else(|| self.root_value())
        };
        Some(SearchResult {
            best,
            visits,
            policy,
            value,
            simulations: self.root_visits(),
        })
    }
}

/// Runs the simulations of `run` from `pos` (left unchanged) in rounds of up to `batch` leaves
/// evaluated together, until the run is done (see [`SearchRun::is_done`]) or `more` (asked
/// before each round) says stop. Returns `false` when the root is terminal (the game is over
/// there).
///
/// Every driver of a single tree uses this loop: [`search`] with a simulation count, the
/// front ends with clocks and stop requests.
pub fn simulate<E: Evaluator>(
    tree: &mut Tree,
    pos: &mut Position,
    eval: &E,
    batch: usize,
    run: &mut SearchRun,
    mut more: impl FnMut(&Tree) -> bool,
) -> bool {
    let start = tree.root_visits();
    let mut tickets = Vec::with_capacity(batch);
    let mut requests = Vec::with_capacity(batch);
    loop {
        if run.is_done(tree) || !more(tree) {
            tree.refute_final(pos);
            return true;
        }
        tree.refute_during_search(pos);
        let want = run.batch_wanted(tree, batch);
        let mut progressed = false;
        for _ in 0..want {
            match tree.gather(pos, eval) {
                Gathered::Leaf(t, r) => {
                    tickets.push(t);
                    requests.push(r);
                }
                Gathered::Terminal => progressed = true,
                Gathered::Collision => break,
            }
        }
        if !requests.is_empty() {
            let evals = eval.evaluate(std::mem::take(&mut requests));
            for (t, e) in tickets.drain(..).zip(evals) {
                tree.apply(t, e);
            }
            tickets.clear();
            progressed = true;
        }
        run.round(progressed);
        if !tree.root_expanded() && tree.root_visits() > start {
            return false;
        }
    }
}

/// Runs `simulations` simulations from `pos` (left unchanged) with up to `batch` leaves per
/// evaluation call, and returns the result (`None` when the game is over at the root).
pub fn search<E: Evaluator>(
    tree: &mut Tree,
    pos: &mut Position,
    eval: &E,
    simulations: u32,
    batch: usize,
    noisy: bool,
) -> Option<SearchResult> {
    let mut run = SearchRun::begin(tree, pos, simulations, noisy);
    if !simulate(tree, pos, eval, batch, &mut run, |_| true) {
        return None;
    }
    tree.result()
}

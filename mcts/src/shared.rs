//! Several threads searching one tree, as KataGo and Leela Chess Zero do: each thread walks
//! to leaves under the tree's lock (virtual loss keeps the walks of different threads apart),
//! evaluates its leaves outside the lock, and applies the results under it again. While one
//! thread's batch is in the network, another walks the tree, so every core works on one game.
//! The check of the move the search prefers (`refute.rs`) also runs outside the lock, one
//! thread at a time.

use crate::evaluator::Evaluator;
use crate::run::SearchRun;
use crate::tree::{Gathered, Tree};
use koma_rules::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Rounds in a row a thread may find nothing to evaluate (every leaf it could reach is waiting
/// for another thread's evaluation) before it gives up its part of the search: a guard against
/// an evaluator that never answers, far beyond any real wait.
const IDLE_ROUNDS: u32 = 1_000_000;

/// What the threads share: the tree, the search's budget, the caller's say on going on, and
/// the leaves gathered but not yet applied (the budget counts them as spent, so that threads
/// together do not overrun it).
struct Shared<'a, F> {
    tree: &'a mut Tree,
    run: &'a mut SearchRun,
    more: F,
    in_flight: usize,
}

/// [`crate::simulate`] with `threads` threads on one tree: runs the simulations of `run` from
/// `pos` (left unchanged), each thread evaluating up to `batch` leaves at a time, until the run
/// is done or `more` (asked under the tree's lock before each round) says stop. Returns
/// `false` when the root is terminal.
pub fn simulate_shared<E, F>(
    tree: &mut Tree,
    pos: &Position,
    eval: &E,
    batch: usize,
    threads: usize,
    run: &mut SearchRun,
    more: F,
) -> bool
where
    E: Evaluator + Sync,
    F: FnMut(&Tree) -> bool + Send,
{
    let start = tree.root_visits();
    let terminal_root = AtomicBool::new(false);
    let shared = Mutex::new(Shared {
        tree,
        run,
        more,
        in_flight: 0,
    });
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut p = pos.clone();
                let mut tickets = Vec::with_capacity(batch);
                let mut requests = Vec::with_capacity(batch);
                let mut idle = 0u32;
                loop {
                    {
                        let mut g = shared.lock().unwrap_or_else(|e| e.into_inner());
                        let Shared {
                            tree,
                            run,
                            more,
                            in_flight,
                        } = &mut *g;
                        if run.is_done(tree) || !more(tree) {
                            return;
                        }
                        let left = (run.remaining(tree) as usize).saturating_sub(*in_flight);
                        let want = run.batch_wanted(tree, batch).min(left);
                        let mut progressed = false;
                        for _ in 0..want {
                            match tree.gather(&mut p, eval) {
                                Gathered::Leaf(t, r) => {
                                    tickets.push(t);
                                    requests.push(r);
                                }
                                Gathered::Terminal => progressed = true,
                                Gathered::Collision => break,
                            }
                        }
                        if !tree.root_expanded() && tree.root_visits() > start {
                            terminal_root.store(true, Ordering::Relaxed);
                            return;
                        }
                        if progressed || !requests.is_empty() {
                            run.round(true);
                        }
                        *in_flight += requests.len();
                    }
                    if requests.is_empty() {
                        idle += 1;
                        if idle > IDLE_ROUNDS {
                            return;
                        }
                        std::thread::yield_now();
                        continue;
                    }
                    idle = 0;
                    let evals = eval.evaluate(std::mem::take(&mut requests));
                    let mut g = shared.lock().unwrap_or_else(|e| e.into_inner());
                    g.in_flight -= tickets.len();
                    for (t, e) in tickets.drain(..).zip(evals) {
                        g.tree.apply(t, e);
                    }
                    tickets.clear();
                    // The refutation check runs outside the lock: the other threads go on
                    // simulating meanwhile.
                    let check = g.tree.claim_refutation_during_search();
                    drop(g);
                    if let Some(mut check) = check {
                        let lost = check.run(&mut p);
                        let mut g = shared.lock().unwrap_or_else(|e| e.into_inner());
                        g.tree.finish_refutation(check, lost);
                    }
                }
            });
        }
    });
    let terminal = terminal_root.load(Ordering::Relaxed);
    if !terminal {
        let g = shared.into_inner().unwrap_or_else(|e| e.into_inner());
        g.tree.refute_final(&mut pos.clone());
    }
    !terminal
}

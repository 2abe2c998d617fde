//! The loop of the driver: games in flight searched in lock-step rounds, their leaves
//! evaluated in one batch per evaluator.

use crate::driver::game::{Live, Need};
use crate::driver::host::Host;
use crate::evaluator::Evaluator;

/// Plays games from `host` to the end, at most `in_flight` at once, until the host has no more
/// (and every game started is over) or asks to stop.
///
/// Every round, each game plays what needs no network (moves of players that do not search,
/// the moves of searches that are complete) until it needs one leaf evaluated; the leaves of
/// each evaluator go through one `evaluate` call, the results are applied, and the round
/// repeats. A network evaluates a batch in little more time than one position, so the batch
/// is what makes many games at once fast. Everything but the evaluators runs on the calling
/// thread, so a host's results depend only on its seeds and the evaluators' answers.
pub fn play_games<H: Host, E: Evaluator>(
    host: &mut H,
    evaluators: &[E],
    in_flight: usize,
) -> Result<(), H::Error> {
    let mut active: Vec<Live<H::Game>> = Vec::with_capacity(in_flight);
    let mut exhausted = false;
    // Per evaluator: the games that sent a leaf this round, and their requests.
    let mut batches: Vec<(Vec<usize>, Vec<E::Request>)> = (0..evaluators.len())
        .map(|_| (Vec::new(), Vec::new()))
        .collect();
    while !host.stop() {
        while !exhausted && active.len() < in_flight.max(1) {
            match host.next_game() {
                Some(start) => active.push(Live::new(start)),
                None => exhausted = true,
            }
        }
        if active.is_empty() {
            break;
        }
        // Games that end this round leave after it, so the leaves gathered point at games
        // that keep their places; a game started to replace one is advanced this round.
        let mut over = Vec::new();
        let mut i = 0;
        while i < active.len() {
            match active[i].advance(host, evaluators) {
                Need::Leaf(e, request) => {
                    batches[e].0.push(i);
                    batches[e].1.push(request);
                }
                Need::Nothing => {}
                Need::Over(outcome) => {
                    over.push((i, outcome));
                    if !exhausted {
                        match host.next_game() {
                            Some(start) => active.push(Live::new(start)),
                            None => exhausted = true,
                        }
                    }
                }
            }
            i += 1;
        }
        for (e, (games, requests)) in batches.iter_mut().enumerate() {
            if requests.is_empty() {
                continue;
            }
            let asked = requests.len();
            let evals = evaluators[e].evaluate(std::mem::take(requests));
            if evals.len() != asked {
                tracing::error!(
                    asked,
                    got = evals.len(),
                    "the evaluator returned too few evaluations; the searches missing one \
                     stall and play their best move so far"
                );
            }
            for (&g, ev) in games.iter().zip(evals) {
                active[g].apply(ev);
            }
            games.clear();
        }
        for (i, outcome) in over.into_iter().rev() {
            let live = active.swap_remove(i);
            let pos = live.position().clone();
            host.finished(live.game, &pos, outcome)?;
            if host.stop() {
                return Ok(());
            }
        }
        host.after_round()?;
    }
    Ok(())
}

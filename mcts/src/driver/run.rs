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
        // that keep their places; a game started to replace one is advanced this round. Only
        // the games the round began with are replaced within it: players that need no network
        // play a whole game in one advance, and replacing those replacements too would chain
        // games without end inside one round, none of them handed to the host.
        let mut over = Vec::new();
        let round_start = active.len();
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
                    if !exhausted && i < round_start {
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
        // Every game that ended is handed over before a stop is heard (at the loop's head):
        // a finished game is never dropped.
        for (i, outcome) in over.into_iter().rev() {
            let live = active.swap_remove(i);
            let pos = live.position().clone();
            host.finished(live.game, &pos, outcome)?;
        }
        host.after_round()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{GameStart, Turn};
    use crate::evaluator::UniformEvaluator;
    use crate::search::SearchResult;
    use koma_rules::{load_variant, Move, Outcome, Position};

    /// Plays the first legal move for both sides, up to a short length cap, and counts what
    /// each round hands over.
    struct FirstMoves {
        start: Position,
        started: usize,
        finished: usize,
        per_round: Vec<usize>,
        in_round: usize,
    }

    impl Host for FirstMoves {
        type Game = ();
        type Error = ();

        fn stop(&self) -> bool {
            self.finished >= 10
        }

        fn next_game(&mut self) -> Option<GameStart<()>> {
            // A bound, so that a driver that never hands games over still ends.
            if self.started >= 1000 {
                return None;
            }
            self.started += 1;
            Some(GameStart {
                game: (),
                position: self.start.clone(),
                trees: Vec::new(),
                tree_of: [None, None],
                max_plies: Some(6),
                resign: None,
            })
        }

        fn turn(&mut self, _: &mut (), pos: &mut Position) -> Turn {
            Turn::Play(pos.legal_moves()[0])
        }

        fn choose(&mut self, _: &mut (), _: &mut Position, r: &SearchResult) -> Move {
            r.best
        }

        fn played(&mut self, _: &mut (), _: &mut Position, _: Move) {}

        fn finished(&mut self, _: (), _: &Position, _: Outcome) -> Result<(), ()> {
            self.finished += 1;
            self.in_round += 1;
            Ok(())
        }

        fn after_round(&mut self) -> Result<(), ()> {
            self.per_round.push(std::mem::take(&mut self.in_round));
            Ok(())
        }
    }

    /// Games that need no network (baselines, a teacher) end within the round they start in;
    /// the host still gets each round's finished games at its end and can stop between
    /// rounds, instead of the round starting game after game without end.
    #[test]
    fn games_without_searches_are_handed_over_round_by_round() {
        let v = load_variant("hand-shogi").unwrap();
        let mut host = FirstMoves {
            start: Position::start(&v),
            started: 0,
            finished: 0,
            per_round: Vec::new(),
            in_round: 0,
        };
        play_games(&mut host, &[] as &[UniformEvaluator], 2).unwrap();
        assert!(
            host.finished >= 10 && host.finished <= 12,
            "{}",
            host.finished
        );
        assert_eq!(
            host.finished, host.started,
            "every game started was handed over"
        );
        assert!(host.started <= 16, "{} games started", host.started);
        // Two games in flight: each round ends them and the two that replace them.
        assert!(
            host.per_round.iter().all(|&n| n <= 4),
            "{:?}",
            host.per_round
        );
    }
}

//! One game in flight on the driver: its position, its trees and the search under way, with
//! the rules of the game loop in one place: tree reuse (every tree follows every move),
//! searches that end by [`SearchRun`], resignation, and adjudication at a length cap.

use crate::driver::host::{GameStart, Host, ResignRule, Turn};
use crate::evaluator::Evaluator;
use crate::run::SearchRun;
use crate::tree::{Gathered, Ticket, Tree};
use koma_rules::{Color, DrawReason, Outcome, Position, WinReason};

/// What a game needs after it has been advanced.
pub(crate) enum Need<R> {
    /// A leaf evaluated by evaluator `.0`.
    Leaf(usize, R),
    /// Nothing this round (its walk collided with a leaf waiting for evaluation).
    Nothing,
    /// The game is over.
    Over(Outcome),
}

/// A game in flight.
pub(crate) struct Live<G> {
    pub(crate) game: G,
    pos: Position,
    trees: Vec<(Tree, usize)>,
    tree_of: [Option<usize>; 2],
    max_plies: Option<u32>,
    resign: Option<ResignRule>,
    /// The search under way: its tree and run.
    search: Option<(usize, SearchRun)>,
    /// The leaf waiting for its evaluation.
    pending: Option<Ticket>,
    /// Searches in a row each side judged lost.
    low: [u32; 2],
}

impl<G> Live<G> {
    pub(crate) fn new(start: GameStart<G>) -> Live<G> {
        Live {
            trees: start
                .trees
                .into_iter()
                .map(|s| (Tree::new(s.config, s.seed), s.evaluator))
                .collect(),
            game: start.game,
            pos: start.position,
            tree_of: start.tree_of,
            max_plies: start.max_plies,
            resign: start.resign,
            search: None,
            pending: None,
            low: [0; 2],
        }
    }

    /// The final position (after [`Need::Over`]).
    pub(crate) fn position(&self) -> &Position {
        &self.pos
    }

    /// Plays `mv` in the position and every tree; the outcome, if it ends the game.
    fn play<H: Host<Game = G>>(&mut self, host: &mut H, mv: koma_rules::Move) -> Option<Outcome> {
        host.played(&mut self.game, &mut self.pos, mv);
        self.pos.make_move(mv);
        for (tree, _) in &mut self.trees {
            tree.advance(mv);
        }
        self.pos.outcome().or_else(|| {
            self.max_plies
                .filter(|&cap| self.pos.ply() >= cap)
                .map(|_| Outcome::Draw(DrawReason::MaxLength))
        })
    }

    fn loss_of(side: Color, reason: WinReason) -> Outcome {
        Outcome::Win {
            winner: side.opposite(),
            reason,
        }
    }

    /// Whether `side`, whose search ended with root value `value`, resigns now.
    fn resigns(&mut self, side: Color, value: f32) -> bool {
        let Some(rule) = self.resign else {
            return false;
        };
        let low = &mut self.low[side.index()];
        if value < rule.threshold {
            *low += 1;
        } else {
            *low = 0;
        }
        rule.consecutive > 0 && *low >= rule.consecutive
    }

    /// Plays what needs no evaluation (moves of players that do not search, searches that
    /// are complete) until the game needs a leaf evaluated or is over.
    pub(crate) fn advance<H: Host<Game = G>, E: Evaluator>(
        &mut self,
        host: &mut H,
        evaluators: &[E],
    ) -> Need<E::Request> {
        loop {
            let side = self.pos.side_to_move();
            let Some((t, run)) = self.search.as_mut() else {
                match host.turn(&mut self.game, &mut self.pos) {
                    Turn::Play(mv) => {
                        if let Some(o) = self.play(host, mv) {
                            return Need::Over(o);
                        }
                    }
                    Turn::Forfeit => return Need::Over(Self::loss_of(side, WinReason::Forfeit)),
                    Turn::Search {
                        simulations,
                        noisy,
                        prove,
                    } => {
                        let Some(t) = self.tree_of[side.index()] else {
                            // A host that searches without a tree for this side broke its
                            // own plan: the side cannot move.
                            return Need::Over(Self::loss_of(side, WinReason::Forfeit));
                        };
                        let tree = &mut self.trees[t].0;
                        let run = if prove {
                            SearchRun::begin(tree, &mut self.pos, simulations, noisy)
                        } else {
                            SearchRun::begin_unproven(tree, simulations, noisy)
                        };
                        self.search = Some((t, run));
                    }
                }
                continue;
            };
            let t = *t;
            let evaluator = &evaluators[self.trees[t].1];
            let e = self.trees[t].1;
            let tree = &mut self.trees[t].0;
            if !run.is_done(tree) {
                if self.pending.is_some() {
                    // The evaluation of the last leaf did not come back.
                    run.round(false);
                    self.pending = None;
                    return Need::Nothing;
                }
                tree.refute_during_search(&mut self.pos);
                loop {
                    match tree.gather(&mut self.pos, evaluator) {
                        Gathered::Leaf(ticket, request) => {
                            run.round(true);
                            self.pending = Some(ticket);
                            return Need::Leaf(e, request);
                        }
                        Gathered::Terminal => {
                            run.round(true);
                            if run.is_done(tree) {
                                break;
                            }
                        }
                        Gathered::Collision => {
                            run.round(false);
                            return Need::Nothing;
                        }
                    }
                }
            }
            if run.stalled() {
                tracing::warn!(
                    visits = tree.root_visits(),
                    "search stalled; playing its best move so far"
                );
            }
            tree.refute_final(&mut self.pos);
            let result = tree.result();
            self.search = None;
            let Some(result) = result else {
                // No move at the root: the game is over there by the rules.
                let o = self
                    .pos
                    .outcome_given(true)
                    .unwrap_or(Self::loss_of(side, WinReason::NoLegalMoves));
                return Need::Over(o);
            };
            let mv = host.choose(&mut self.game, &mut self.pos, &result);
            if self.resigns(side, result.value) {
                return Need::Over(Self::loss_of(side, WinReason::Resignation));
            }
            if let Some(o) = self.play(host, mv) {
                return Need::Over(o);
            }
        }
    }

    /// Gives the pending leaf its evaluation.
    pub(crate) fn apply(&mut self, evaluation: crate::evaluator::Evaluation) {
        if let (Some((t, _)), Some(ticket)) = (self.search.as_ref(), self.pending.take()) {
            self.trees[*t].0.apply(ticket, evaluation);
        }
    }
}

//! The tactics check of the move a finished search chooses: a short alpha-beta search on
//! material (`alphabeta.rs`) asks whether the move scores more than a margin below the best
//! move of a few plies' full-width search: whether it loses material, or passes up
//! material, that the best move keeps or wins.
//!
//! With tens of simulations a move the tree sees one or two replies to each candidate, and
//! a network trained for an hour on a large board does not yet see a fork or a piece left
//! hanging two plies on; a two-ply search with captures to quiescence sees every such line
//! (it is what the `alphabeta:depth=2` yardstick plays, and what the models lost their games
//! against it to). So the search's choice is kept unless the check scores it more than a
//! margin below the best move it finds; then the first of the search's other candidates (by
//! visits) within the margin is played, or the check's own best move when none of those is.
//! The network still chooses among the moves that keep the material: the check only vetoes.
//! The refutation check (`refute.rs`) does the same for the opponent's forced mates.

use crate::alphabeta::AlphaBeta;
use koma_rules::{Move, Position};
use std::time::Instant;

/// The search's candidates the check scores before it falls back on its own best move.
const MAX_CANDIDATES: usize = 8;

/// Entries of the check's transposition table before it starts afresh (a map of about
/// 20 MB at most): it serves the few searches of one root, and each tree of an arena or a
/// server has its own.
const TABLE_LIMIT: usize = 1 << 18;

/// What the check decided for one root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The search's choice keeps the material (or the check ran out of time): play it.
    Keep,
    /// The search's choice loses material: play this move instead.
    Replace(Move),
}

/// The tactics check of one tree: its searcher, kept for its table, and the current root's
/// verdict.
#[derive(Debug, Default)]
pub(crate) struct Tactics {
    searcher: Option<AlphaBeta>,
    /// The move the check put in place of the search's choice at this root, if it did.
    pub(crate) choice: Option<Move>,
}

impl Tactics {
    /// Forgets the last root's verdict (the root changed, or a new search begins).
    pub(crate) fn new_root(&mut self) {
        self.choice = None;
    }

    /// Checks `candidates` (the search's choice first, then its other moves by preference;
    /// at most [`MAX_CANDIDATES`] of them) at root `pos` (left as it was): searched to
    /// `depth` plies and quiescence, the first scoring no more than `margin` mean piece
    /// values below the best is the one to play. Stops, keeping the search's choice, at
    /// `deadline`.
    pub(crate) fn check(
        &mut self,
        pos: &mut Position,
        candidates: &[Move],
        depth: u32,
        margin: f32,
        deadline: Option<Instant>,
    ) -> Verdict {
        let Some(&first) = candidates.first() else {
            return Verdict::Keep;
        };
        let began = Instant::now();
        let searcher = self
            .searcher
            .get_or_insert_with(|| AlphaBeta::new(pos.variant()).with_table_limit(TABLE_LIMIT));
        let Some((best, best_score)) = searcher.score_root(pos, depth, deadline) else {
            return Verdict::Keep;
        };
        let floor = best_score.saturating_sub((margin * searcher.mean_value()).round() as i32);
        let mut scored: Vec<i32> = Vec::new();
        // The best of the other candidates scored, for a root that does not allow the
        // check's own best move.
        let mut runner_up: Option<(i32, Move)> = None;
        let mut within = None;
        for (i, &mv) in candidates.iter().take(MAX_CANDIDATES).enumerate() {
            let score = if mv == best {
                best_score
            } else {
                match searcher.score_move(pos, mv, depth, deadline) {
                    Some(s) => s,
                    None => {
                        tracing::debug!(scored = i, "tactics check out of time");
                        return Verdict::Keep;
                    }
                }
            };
            scored.push(score);
            if score >= floor {
                within = Some(i);
                break;
            }
            if i > 0 && runner_up.is_none_or(|(s, _)| score > s) {
                runner_up = Some((score, mv));
            }
        }
        // None within the margin: the check's best move where the root allows it (the
        // candidates are the root's moves), else the best candidate scored if it beats the
        // choice.
        let verdict = match within {
            Some(0) => Verdict::Keep,
            Some(i) => Verdict::Replace(candidates[i]),
            None if candidates.contains(&best) => Verdict::Replace(best),
            None => match runner_up {
                Some((s, mv)) if s > scored[0] => Verdict::Replace(mv),
                _ => Verdict::Keep,
            },
        };
        if verdict != Verdict::Keep {
            tracing::debug!(
                chosen = %pos.move_text(&first),
                played = %match verdict {
                    Verdict::Replace(m) => pos.move_text(&m),
                    Verdict::Keep => pos.move_text(&first),
                },
                best_score,
                ?scored,
                micros = began.elapsed().as_micros() as u64,
                "tactics check replaced the search's choice"
            );
        }
        verdict
    }
}

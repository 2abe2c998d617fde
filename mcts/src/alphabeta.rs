//! The search of the classical baseline: iterative deepening negamax with alpha-beta, a
//! transposition table, captures first (most valuable victim first) and the table's move
//! before them, and a quiescence search over captures so that a depth never ends in the
//! middle of an exchange. Before the tree search the root gets a proof-number mate search,
//! so a forced mate is played whatever the depth.
//!
//! It is the arena's classical baseline (`alphabeta:depth=N`) and, through
//! [`AlphaBeta::score_root`] and [`AlphaBeta::score_move`], the tactics check of the move
//! play's tree search chooses (`tactics.rs`).

use crate::refute::past;
use koma_rules::mate::{MateAnswer, MateSolver};
use koma_rules::{Color, Move, PieceValues, Position, Variant};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A score for a side to move that has won: the mate score minus the plies to it, so nearer
/// wins score higher.
const MATE: i32 = 1_000_000_000;
/// Scores beyond this are wins or losses.
const MATE_BOUND: i32 = MATE - 10_000;
/// Deepest quiescence.
const QUIESCENCE_PLIES: u32 = 6;
/// Nodes of the root's mate search.
const ROOT_MATE_NODES: u64 = 20_000;
/// Plies the root's mate search looks ahead.
const ROOT_MATE_DEPTH: u32 = 15;

/// How far a search may go: a depth, a time, or both (the first reached ends it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest full-width iteration (plies).
    pub depth: u32,
    /// Wall-clock time per move.
    pub time: Option<Duration>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Debug, Clone, Copy)]
struct TtEntry {
    depth: u32,
    score: i32,
    bound: Bound,
    best: Option<Move>,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchOutcome {
    /// The move chosen.
    pub best: Move,
    /// Its score for the side to move, in value units (mates far above any material).
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched (tree and quiescence).
    pub nodes: u64,
    /// Whether the root's mate search proved the win.
    pub mate: bool,
}

impl SearchOutcome {
    /// Whether the score is a proven result: `Some(true)` a win for the side to move,
    /// `Some(false)` a loss, `None` a material score.
    pub fn decided(&self) -> Option<bool> {
        if self.score >= MATE_BOUND {
            Some(true)
        } else if self.score <= -MATE_BOUND {
            Some(false)
        } else {
            None
        }
    }
}

/// The classical searcher: one per player, its table kept between moves.
#[derive(Debug)]
pub struct AlphaBeta {
    values: PieceValues,
    hand_factor: i32,
    table: HashMap<u64, TtEntry>,
    nodes: u64,
    deadline: Option<Instant>,
    out_of_time: bool,
    mate: MateSolver,
    /// What a draw costs the side that searches, in value units (0: a draw is level).
    contempt: i32,
    /// The side to move at the root of the current search.
    root: Color,
    /// Entries the transposition table may hold before a search starts it afresh.
    table_limit: usize,
    /// The quiescence search's move buffers, one pair per ply under way, kept between nodes.
    move_buffers: Vec<Vec<Move>>,
    capture_buffers: Vec<Vec<(i32, Move)>>,
}

impl AlphaBeta {
    /// A searcher for `variant`.
    pub fn new(variant: &Arc<Variant>) -> AlphaBeta {
        AlphaBeta {
            values: PieceValues::new(variant),
            // A capture in a drop variant moves the victim into the captor's hand.
            hand_factor: if variant.rules.drops { 2 } else { 1 },
            table: HashMap::new(),
            nodes: 0,
            deadline: None,
            out_of_time: false,
            mate: MateSolver::new(ROOT_MATE_NODES, ROOT_MATE_DEPTH),
            contempt: 0,
            root: Color::Black,
            table_limit: 4_000_000,
            move_buffers: Vec::new(),
            capture_buffers: Vec::new(),
        }
    }

    /// The searcher with a smaller transposition table: `entries` before a search starts it
    /// afresh (4,000,000 by default, a few hundred megabytes). Play's tactics check keeps one
    /// searcher per tree, and an arena runs many trees at once.
    pub fn with_table_limit(mut self, entries: usize) -> AlphaBeta {
        self.table_limit = entries;
        self
    }

    /// The searcher with contempt: a draw (a repetition on the searched line, or a game drawn
    /// by the rules) scores `pieces` mean piece values against the side that searches, and as
    /// much for its opponent. Below 0 the searcher seeks draws. The transposition table is
    /// emptied, as its scores were taken with the old draw score.
    pub fn with_contempt(mut self, pieces: f64) -> AlphaBeta {
        let units = pieces * self.values.mean_value() as f64;
        self.contempt = units.clamp(-(MATE_BOUND as f64) / 4.0, MATE_BOUND as f64 / 4.0) as i32;
        self.table.clear();
        self
    }

    /// A draw's score for the side to move in `pos`.
    fn draw_score(&self, pos: &Position) -> i32 {
        if pos.side_to_move() == self.root {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// The static evaluation: material (on the board and in hand) for the side to move.
    fn evaluate(&self, pos: &Position) -> i32 {
        Self::clamped(self.values.difference(pos, pos.side_to_move()))
    }

    /// A material difference as a score, kept clear of the mate scores.
    fn clamped(difference: i64) -> i32 {
        difference.clamp(-(MATE_BOUND as i64) / 2, MATE_BOUND as i64 / 2) as i32
    }

    /// What a move takes, for ordering and the quiescence search's futility test.
    fn capture_gain(&self, pos: &Position, m: &Move) -> i32 {
        self.values.capture_value(pos, m).min(MATE_BOUND as u32 / 4) as i32 * self.hand_factor
    }

    fn time_is_up(&mut self) -> bool {
        if !self.out_of_time && self.nodes.is_multiple_of(1024) {
            self.out_of_time = self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.out_of_time
    }

    /// Searches `pos` (left as it was) within `limits`; `None` when the game is over.
    pub fn search(&mut self, pos: &mut Position, limits: SearchLimits) -> Option<SearchOutcome> {
        let began = Instant::now();
        self.start(pos, limits.time.map(|t| began + t));
        let legal = pos.legal_moves();
        if legal.is_empty() || pos.outcome_given(false).is_some() {
            return None;
        }
        if let MateAnswer::Mate(m) = self.mate.solve(pos) {
            return Some(SearchOutcome {
                best: m,
                score: MATE,
                depth: 0,
                nodes: self.mate.nodes,
                mate: true,
            });
        }
        let mut best = SearchOutcome {
            best: legal[0],
            score: 0,
            depth: 0,
            nodes: 0,
            mate: false,
        };
        for depth in 1..=limits.depth.max(1) {
            let score = self.negamax(pos, depth, -MATE, MATE, 0);
            if self.out_of_time && depth > 1 {
                break;
            }
            if let Some(m) = self.table.get(&pos.hash()).and_then(|e| e.best) {
                best.best = m;
            }
            best.score = score;
            best.depth = depth;
            if score.abs() >= MATE_BOUND || self.out_of_time {
                break;
            }
        }
        best.nodes = self.nodes;
        Some(best)
    }

    /// Readies a search of `pos`: its side to move, clock and node count.
    fn start(&mut self, pos: &Position, deadline: Option<Instant>) {
        self.nodes = 0;
        self.root = pos.side_to_move();
        self.out_of_time = false;
        self.deadline = deadline;
        if self.table.len() > self.table_limit {
            self.table.clear();
        }
    }

    /// The best move of `pos` (left as it was) and its score for the side to move, searched
    /// to `depth` plies and quiescence by iterative deepening, without the root's mate search.
    /// `None` when the game is over there or `deadline` passed before `depth` was done.
    pub fn score_root(
        &mut self,
        pos: &mut Position,
        depth: u32,
        deadline: Option<Instant>,
    ) -> Option<(Move, i32)> {
        self.start(pos, deadline);
        if pos.outcome_given(false).is_some() || past(deadline) {
            return None;
        }
        let mut score = 0;
        for d in 1..=depth.max(1) {
            score = self.negamax(pos, d, -MATE, MATE, 0);
            if self.out_of_time {
                return None;
            }
            if score.abs() >= MATE_BOUND {
                break;
            }
        }
        let best = self.table.get(&pos.hash()).and_then(|e| e.best)?;
        Some((best, score))
    }

    /// The score of playing `mv` (legal) in `pos` (left as it was), for the side to move, on
    /// the scale of [`AlphaBeta::score_root`] at the same `depth`: `mv` is the first of the
    /// `depth` plies. `None` when `deadline` passed first.
    pub fn score_move(
        &mut self,
        pos: &mut Position,
        mv: Move,
        depth: u32,
        deadline: Option<Instant>,
    ) -> Option<i32> {
        self.start(pos, deadline);
        if past(deadline) {
            return None;
        }
        pos.make_move(mv);
        let score = -self.negamax(pos, depth.max(1) - 1, -MATE, MATE, 1);
        pos.unmake_move();
        (!self.out_of_time).then_some(score)
    }

    /// The unit of the scores: the variant's mean piece value.
    pub fn mean_value(&self) -> f32 {
        self.values.mean_value()
    }

    /// Legal moves ordered for the search: the table's move, then captures by value taken.
    fn ordered_moves(&self, pos: &mut Position, hint: Option<Move>) -> Vec<Move> {
        let mut moves = pos.legal_moves();
        let mut keyed: Vec<(i32, Move)> = moves
            .drain(..)
            .map(|m| {
                let key = if Some(m) == hint {
                    i32::MAX
                } else {
                    self.capture_gain(pos, &m)
                };
                (key, m)
            })
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        keyed.into_iter().map(|k| k.1).collect()
    }

    /// The score of the game's end for the side to move at `ply` plies from the root, if the
    /// game is over here.
    fn terminal(&self, pos: &mut Position, no_moves: bool, ply: u32) -> Option<i32> {
        let o = pos.outcome_given(no_moves)?;
        Some(match o.winner() {
            None => self.draw_score(pos),
            Some(w) if w == pos.side_to_move() => MATE - ply as i32,
            Some(_) => -(MATE - ply as i32),
        })
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        self.nodes += 1;
        if ply > 0 {
            if let Some(s) = self.terminal(pos, false, ply) {
                return s;
            }
            // A position seen before on this line is a draw for the search's purposes.
            if pos.repetitions() > 1 {
                return self.draw_score(pos);
            }
        }
        if depth == 0 {
            return self.quiescence(pos, alpha, beta, ply, QUIESCENCE_PLIES, None);
        }
        if self.time_is_up() {
            return self.evaluate(pos);
        }
        let key = pos.hash();
        let entry = self.table.get(&key).copied();
        if let Some(e) = entry {
            if e.depth >= depth && ply > 0 {
                match e.bound {
                    Bound::Exact => return e.score,
                    Bound::Lower if e.score >= beta => return e.score,
                    Bound::Upper if e.score <= alpha => return e.score,
                    _ => {}
                }
            }
        }
        let moves = self.ordered_moves(pos, entry.and_then(|e| e.best));
        if moves.is_empty() {
            return self
                .terminal(pos, true, ply)
                .unwrap_or_else(|| self.draw_score(pos));
        }
        let alpha0 = alpha;
        let mut best_score = -MATE;
        let mut best_move = None;
        for m in moves {
            pos.make_move(m);
            let score = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1);
            pos.unmake_move();
            if self.out_of_time && ply > 0 {
                return best_score.max(score);
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best_score <= alpha0 {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.insert(
            key,
            TtEntry {
                depth,
                score: best_score,
                bound,
                best: best_move,
            },
        );
        best_score
    }

    /// Captures until the position is quiet: the side to move may stand pat on its material.
    /// `difference` is that material ([`PieceValues::difference`]) when the caller knows it:
    /// a capture's change is read from the move, where the move alone decides it, instead of
    /// a walk over the board (a fifth of the baseline's time on Shoko Shogi).
    fn quiescence(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        left: u32,
        difference: Option<i64>,
    ) -> i32 {
        self.nodes += 1;
        let difference =
            difference.unwrap_or_else(|| self.values.difference(pos, pos.side_to_move()));
        let stand = Self::clamped(difference);
        if stand >= beta || left == 0 || self.time_is_up() {
            return stand;
        }
        alpha = alpha.max(stand);
        // This ply's buffers, taken from the searcher and given back below (the search
        // recurses; one allocation per node was a tenth of its time).
        let mut buf = self.move_buffers.pop().unwrap_or_default();
        let mut captures = self.capture_buffers.pop().unwrap_or_default();
        buf.clear();
        pos.generate_board_captures(&mut buf);
        captures.clear();
        captures.extend(
            buf.iter()
                .map(|m| (self.capture_gain(pos, m), *m))
                .filter(|&(g, _)| g > 0),
        );
        captures.sort_by_key(|c| std::cmp::Reverse(c.0));
        // Quiescence reads neither the hash nor the repetition record, so where the rule
        // counters cannot bind within the plies left, its captures keep them as they are
        // and skip finding whether each gave check (a fifth of the baseline's time in
        // Gyaku-sama Shogi, which limits checks in a row); the legality tests answer the same.
        let keep_counters = !pos.counters_can_bind_within(left);
        let mut best = stand;
        for &(gain, m) in &captures {
            if stand + gain + self.values.max_promotion_gain() as i32 <= alpha {
                // Even this capture cannot lift the score to alpha; the rest take less.
                break;
            }
            if !pos.pseudo_legal_is_legal(m) {
                continue;
            }
            // The opponent's material after the capture, where the move tells it.
            let mut after = self.values.capture_gain(pos, &m).map(|g| -(difference + g));
            if keep_counters {
                pos.make_move_keeping_counters(m);
            } else {
                pos.make_move(m);
            }
            // Else where the make's journal tells it (Ko Shogi's moves act away from their
            // squares): walking the board for it was a fifth of the baseline's time there.
            if after.is_none() {
                after = self
                    .values
                    .journaled_change(pos, pos.side_to_move().opposite())
                    .map(|g| -(difference + g));
            }
            // A capture that takes the last royal (or sole objective) piece ends the game.
            let score = if pos.royal_count(pos.side_to_move()) == 0 {
                MATE - (ply + 1) as i32
            } else {
                -self.quiescence(pos, -beta, -alpha, ply + 1, left - 1, after)
            };
            pos.unmake_move();
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.move_buffers.push(buf);
        self.capture_buffers.push(captures);
        best
    }
}

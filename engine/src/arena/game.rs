//! One game of a match in progress: the position, a search tree per model player, and the
//! search under way, advanced in small steps so that the driver can interleave many games.
//!
//! A model player's turn is a search split into rounds: [`Game::gather`] walks one tree down
//! to a leaf and hands back its evaluation request, the driver evaluates the requests of all
//! games together, and [`Game::apply`] gives the result back. [`Game::step`] plays everything
//! that needs no network (baseline moves, finished searches) until the game needs a leaf
//! evaluated or is over.

use crate::arena::baseline::{greedy_move, random_move};
use crate::arena::driver::GamePlan;
use crate::arena::external::{ExternalEngine, Forfeit};
use crate::arena::opening::sub_seed;
use crate::arena::report::GameRecord;
use koma_mcts::{Evaluation, Gathered, SearchConfig, Ticket, Tree};
use koma_model::{Model, Request};
use koma_rules::PieceValues;
use koma_rules::{Color, DrawReason, Move, Outcome, Position};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// Seed stream of the players' own random choices.
const MOVE_STREAM: u64 = 2;
/// Seed stream of the search trees.
const TREE_STREAM: u64 = 3;

/// A reused tree is cleared once its arena holds this many nodes per simulation of one
/// search: the tree only compacts itself at 200 000 nodes, while each node owns an edge per
/// legal move, so with many games in flight the discarded parts of old searches would
/// otherwise dominate memory. Sixteen searches' worth keeps reuse on all but one move in
/// sixteen.
const REUSE_NODES_PER_SIM: usize = 16;

/// Rounds a search may go without a leaf before it is cut short (a safety net: with one leaf
/// in flight per tree, walks cannot collide).
const STALL_LIMIT: u32 = 64;

/// How one side of a match chooses its moves.
#[derive(Debug, Clone)]
pub enum Mover {
    /// Uniformly random.
    Random,
    /// Greedy capture.
    Greedy,
    /// An external engine, the driver's engine for this player (A or B).
    External,
    /// MCTS with the model of index `model` in the driver's model list.
    Search {
        /// Index of the model.
        model: usize,
        /// Simulations per move.
        sims: u32,
        /// Gumbel root instead of PUCT.
        gumbel: bool,
        /// Material weight of the search's utility, when not the default.
        material: Option<f32>,
    },
}

impl Mover {
    /// The model this mover evaluates with, if any.
    pub fn model(&self) -> Option<usize> {
        match self {
            Mover::Search { model, .. } => Some(*model),
            _ => None,
        }
    }
}

/// What every game of a match shares.
#[derive(Debug, Clone, Copy)]
pub struct Setup<'a> {
    /// The position every game starts from.
    pub start: &'a Position,
    /// How A (index 0) and B (index 1) choose their moves.
    pub movers: &'a [Mover; 2],
    /// The match seed.
    pub seed: u64,
    /// Plies (as the position counts them) at which a draw is adjudicated.
    pub max_plies: Option<u32>,
}

/// What a game needs next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The game is over.
    Finished,
    /// The side to move is searching with model `model` and needs a leaf evaluated.
    NeedsLeaf {
        /// Index of the model.
        model: usize,
    },
}

/// The search the side to move is running.
#[derive(Debug)]
struct SearchState {
    /// Root visits at which the search is complete.
    target: u32,
    /// The leaf waiting for its evaluation.
    ticket: Option<Ticket>,
    /// Rounds in a row without a leaf.
    stalls: u32,
}

/// A game in progress.
#[derive(Debug)]
pub struct Game {
    index: usize,
    pair: usize,
    a_color: Color,
    pos: Position,
    rng: StdRng,
    /// Search trees, indexed by player (0 = A, 1 = B); `None` for baseline players.
    trees: [Option<Tree>; 2],
    search: Option<SearchState>,
    opening: Vec<String>,
    moves: Vec<String>,
    outcome: Option<Outcome>,
    /// Plies (as counted by the position) at which the match adjudicates a draw.
    max_plies: Option<u32>,
    buf: Vec<Move>,
    /// The start position and every move played, for external engines.
    start: Position,
    played: Vec<Move>,
    /// Why an external engine lost the game, when it did.
    forfeit: Option<String>,
}

impl Game {
    /// The game `plan` describes, its `opening` already played.
    pub fn new(plan: &GamePlan, opening: &[Move], setup: &Setup<'_>) -> Game {
        let GamePlan {
            index,
            a_color,
            opening: pair,
        } = *plan;
        let seed = setup.seed;
        let trees = [0, 1].map(|slot| match setup.movers[slot] {
            Mover::Search {
                gumbel, material, ..
            } => Some(Tree::new(
                SearchConfig {
                    gumbel,
                    material_weight: material.unwrap_or(SearchConfig::default().material_weight),
                    ..SearchConfig::default()
                },
                sub_seed(seed, TREE_STREAM, (2 * index + slot) as u64),
            )),
            _ => None,
        });
        let mut game = Game {
            index,
            pair,
            a_color,
            pos: setup.start.clone(),
            rng: StdRng::seed_from_u64(sub_seed(seed, MOVE_STREAM, index as u64)),
            trees,
            search: None,
            opening: Vec::with_capacity(opening.len()),
            moves: Vec::new(),
            outcome: None,
            max_plies: setup.max_plies,
            buf: Vec::new(),
            start: setup.start.clone(),
            played: Vec::new(),
            forfeit: None,
        };
        for &m in opening {
            if game.outcome.is_some() {
                break;
            }
            game.opening.push(game.pos.move_text(&m));
            game.play(m);
        }
        game
    }

    /// The player (0 = A, 1 = B) to move.
    fn slot_to_move(&self) -> usize {
        usize::from(self.pos.side_to_move() != self.a_color)
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Plays a move in the position and every tree, and settles the result if it ends the
    /// game.
    fn play(&mut self, m: Move) {
        self.moves.push(self.pos.move_text(&m));
        self.played.push(m);
        self.pos.make_move(m);
        for tree in self.trees.iter_mut().flatten() {
            tree.advance(m);
        }
        self.outcome = self.pos.outcome().or_else(|| {
            self.max_plies
                .filter(|&cap| self.pos.ply() >= cap)
                .map(|_| Outcome::Draw(DrawReason::MaxLength))
        });
    }

    /// Plays baseline moves and finished searches until the game is over or a model player's
    /// search needs a leaf evaluated.
    pub fn step(
        &mut self,
        movers: &[Mover; 2],
        values: &PieceValues,
        externals: &mut [Option<ExternalEngine>; 2],
    ) -> Step {
        while self.outcome.is_none() {
            let slot = self.slot_to_move();
            let m = match movers[slot] {
                Mover::External => {
                    let Some(engine) = externals[slot].as_mut() else {
                        self.forfeit(slot, "the engine is not running".into());
                        continue;
                    };
                    match engine.best_move(&self.start, &self.played) {
                        Ok(m) => Some(m),
                        Err(Forfeit(why)) => {
                            self.forfeit(slot, why);
                            continue;
                        }
                    }
                }
                Mover::Random => {
                    self.pos.legal_moves_into(&mut self.buf);
                    random_move(&self.buf, &mut self.rng)
                }
                Mover::Greedy => {
                    self.pos.legal_moves_into(&mut self.buf);
                    greedy_move(&mut self.pos, &self.buf, values, &mut self.rng)
                }
                Mover::Search {
                    model,
                    sims,
                    gumbel,
                    ..
                } => match self.search_step(slot, sims, gumbel) {
                    Some(m) => Some(m),
                    None => return Step::NeedsLeaf { model },
                },
            };
            match m {
                Some(m) => self.play(m),
                None => {
                    // Unreachable while `outcome` is None (no legal move ends the game);
                    // settle it from the rules rather than loop.
                    self.outcome = Some(self.pos.outcome().unwrap_or(Outcome::Win {
                        winner: self.pos.side_to_move().opposite(),
                        reason: koma_rules::WinReason::NoLegalMoves,
                    }));
                }
            }
        }
        Step::Finished
    }

    /// Ends the game as a loss for player `slot` (0 = A), whose engine broke the rules.
    fn forfeit(&mut self, slot: usize, why: String) {
        let loser = self.pos.side_to_move();
        tracing::warn!(
            game = self.index,
            player = if slot == 0 { "A" } else { "B" },
            "forfeit: {why}"
        );
        self.forfeit = Some(format!(
            "{} ({loser}) {why}",
            if slot == 0 { "A" } else { "B" }
        ));
        self.outcome = Some(Outcome::Win {
            winner: loser.opposite(),
            reason: koma_rules::WinReason::Forfeit,
        });
    }

    /// Starts the side to move's search if needed; returns its move once the search is
    /// complete, `None` while it needs more leaves.
    fn search_step(&mut self, slot: usize, sims: u32, gumbel: bool) -> Option<Move> {
        let Some(tree) = self.trees[slot].as_mut() else {
            // Every search mover gets a tree in `new`; play on rather than wait forever.
            self.pos.legal_moves_into(&mut self.buf);
            return random_move(&self.buf, &mut self.rng);
        };
        let search = match &mut self.search {
            Some(s) => s,
            None => {
                // Gumbel's sequential halving counts root visits from zero: visits reused
                // from the previous search would skew its schedule and its final choice, so
                // a Gumbel search starts from a fresh tree.
                if gumbel || tree.len() > REUSE_NODES_PER_SIM * sims as usize {
                    tree.clear();
                }
                tree.begin(sims, false);
                self.search.insert(SearchState {
                    target: tree.root_visits() + sims,
                    ticket: None,
                    stalls: 0,
                })
            }
        };
        if tree.root_visits() < search.target && search.stalls < STALL_LIMIT {
            return None;
        }
        if search.stalls >= STALL_LIMIT {
            tracing::warn!(
                game = self.index,
                visits = tree.root_visits(),
                "search stalled; playing its best move so far"
            );
        }
        self.search = None;
        let best = tree.result().map(|r| r.best);
        match best {
            Some(m) => Some(m),
            None => {
                tracing::warn!(
                    game = self.index,
                    "search has no result; playing a random move"
                );
                self.pos.legal_moves_into(&mut self.buf);
                random_move(&self.buf, &mut self.rng)
            }
        }
    }

    /// Walks the searching player's tree to a leaf and returns its evaluation request (`None`
    /// when the search completed through finished games instead, or the walk collided).
    pub fn gather(&mut self, model: &Model) -> Option<Request> {
        let slot = self.slot_to_move();
        let (Some(tree), Some(search)) = (self.trees[slot].as_mut(), self.search.as_mut()) else {
            return None;
        };
        while tree.root_visits() < search.target {
            match tree.gather(&mut self.pos, model) {
                Gathered::Leaf(ticket, request) => {
                    search.ticket = Some(ticket);
                    search.stalls = 0;
                    return Some(request);
                }
                Gathered::Terminal => search.stalls = 0,
                Gathered::Collision => {
                    search.stalls += 1;
                    return None;
                }
            }
        }
        None
    }

    /// Gives the leaf of the last [`Game::gather`] its evaluation.
    pub fn apply(&mut self, evaluation: Evaluation) {
        let slot = self.slot_to_move();
        if let (Some(tree), Some(search)) = (self.trees[slot].as_mut(), self.search.as_mut()) {
            if let Some(ticket) = search.ticket.take() {
                tree.apply(ticket, evaluation);
            }
        }
    }

    /// A's points in the finished game (1, 0.5 or 0); 0 while it runs.
    pub fn score_a(&self) -> f64 {
        match self.outcome {
            None => 0.0,
            Some(o) => match o.winner() {
                Some(w) if w == self.a_color => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
        }
    }

    /// The record of a finished game (`None` while it runs).
    pub fn into_record(self) -> Option<GameRecord> {
        Some(GameRecord {
            index: self.index,
            pair: self.pair,
            a_color: self.a_color,
            opening: self.opening,
            moves: self.moves,
            outcome: self.outcome?,
            forfeit: self.forfeit,
        })
    }
}

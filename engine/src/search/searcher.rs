//! MCTS on one game: the search behind `koma play` and the engine protocols.
//!
//! One tree per game, kept between moves: when the next search starts from a position reached
//! by moves from the last root, the tree follows those moves and keeps the subtree (as
//! KataGo and Leela Chess Zero do), so time spent on the expected reply is not lost. Leaves are
//! gathered several at a time under virtual loss and evaluated in one batch, which is what
//! makes a GPU worth having for one game.

use crate::search::limits::Limits;
use crate::search::thought::{Progress, RootMove, Thought};
use koma_mcts::{simulate, simulate_shared, Evaluator, SearchConfig, SearchRun, Tree};
use koma_rules::{Move, Position, Variant};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Longest principal variation reported.
const PV_LEN: usize = 12;

/// How often a running search reports its progress.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Nodes of play's refutation search (`SearchConfig::refute_nodes`).
pub const REFUTE_NODES: u64 = 20_000;

/// Nodes of play's proof-number search at the root (`SearchConfig::root_mate_nodes`).
pub const ROOT_MATE_NODES: u64 = 20_000;

/// A timed search keeps 1/REFUTE_SHARE of its time for the refutation of the move it chose.
const REFUTE_SHARE: u32 = 20;

/// Play's search settings for `variant`, shared by every front end: PUCT or Gumbel root, and
/// the material weight, [`play_material_weight`] unless the user gives one. Play is
/// deterministic (no root noise). A game is won or lost once, so play looks for forced wins
/// far harder than self-play, which spends its time on many positions: mates in three at the
/// leaves, a proof-number search of 20,000 nodes at the root (a few tens of milliseconds)
/// before every move, and one of as many for the opponent after each move the search is
/// about to choose (a move the opponent mates after is not played while another is left).
pub fn search_config(variant: &Variant, gumbel: bool, material: Option<f32>) -> SearchConfig {
    SearchConfig {
        gumbel,
        mate_plies: 3,
        mate_budget: 256,
        root_mate_nodes: ROOT_MATE_NODES,
        refute_nodes: REFUTE_NODES,
        material_weight: material.unwrap_or_else(|| play_material_weight(variant)),
        ..SearchConfig::default()
    }
}

/// Play's material weight for `variant` when the user gives none: 0 (the network's value
/// alone) where captured pieces come back as drops, the search's default (0.4) elsewhere.
///
/// The material term exists for networks that have not yet learnt what a piece is worth
/// (self-play's first games, an hour's run on a 19x19 board). In a drop game a piece taken
/// is back in play the next move and attacks are won by giving material for the initiative,
/// so a trained network judges those positions better without it: on Hand Shogi a 60-minute
/// model at 800 simulations scored 65% (39-0-21) against itself with the default weight,
/// and at one second a move through `koma-engine` 40.6% (65-0-95, 160 games) against
/// Fairy-Stockfish where it had scored 38% (200 games) with the weight. Self-play keeps the
/// term: a run without it was no stronger (`docs/experiments.md`).
/// Without drops the default stays: not measured there, and those networks are far weaker.
pub fn play_material_weight(variant: &Variant) -> f32 {
    if variant.rules.drops {
        0.0
    } else {
        SearchConfig::default().material_weight
    }
}

/// How a [`Searcher`] searches.
#[derive(Debug, Clone, PartialEq)]
pub struct SearcherOptions {
    /// Tree settings.
    pub config: SearchConfig,
    /// Leaves evaluated per batch (virtual loss keeps them apart).
    pub batch: usize,
    /// Keep the tree between moves.
    pub reuse: bool,
    /// Seed of the tree's random choices (Gumbel sampling, ties).
    pub seed: u64,
    /// Threads searching the tree together (virtual loss keeps them apart); 1 searches on
    /// the caller's thread.
    pub threads: usize,
}

impl SearcherOptions {
    /// A search with tree settings `config`: one thread, batches of 8, the tree kept
    /// between moves.
    pub fn new(config: SearchConfig) -> SearcherOptions {
        SearcherOptions {
            config,
            batch: 8,
            reuse: true,
            seed: 0,
            threads: 1,
        }
    }

    /// Play's settings for `variant` ([`search_config`]) in a search as [`SearcherOptions::new`]
    /// runs it. There is no variant-free default: the material weight depends on the game.
    pub fn for_variant(variant: &Variant) -> SearcherOptions {
        SearcherOptions::new(search_config(variant, false, None))
    }
}

/// Why no move came out of a search.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The game is over at the root.
    #[error("the game is over: there is no move to search")]
    GameOver,
}

/// A search that lives as long as a game (or a protocol session).
pub struct Searcher<E: Evaluator> {
    eval: Arc<E>,
    opts: SearcherOptions,
    tree: Tree,
    /// The game the tree's root belongs to: its start position text and the moves played to
    /// the root.
    root: Option<(String, Vec<Move>)>,
    /// Whether the last search had its root moves restricted (its root then lacks edges).
    restricted: bool,
}

impl<E: Evaluator> std::fmt::Debug for Searcher<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("opts", &self.opts)
            .field("tree_nodes", &self.tree.len())
            .finish()
    }
}

impl<E: Evaluator + Sync> Searcher<E> {
    /// A searcher evaluating with `eval`.
    pub fn new(eval: Arc<E>, opts: SearcherOptions) -> Searcher<E> {
        let tree = Tree::new(opts.config.clone(), opts.seed);
        Searcher {
            eval,
            opts,
            tree,
            root: None,
            restricted: false,
        }
    }

    /// Threads searching each move from the next search on.
    pub fn set_threads(&mut self, threads: usize) {
        self.opts.threads = threads.max(1);
    }

    /// What a draw is worth to the engine from the next search on (contempt below 0); the
    /// tree is kept.
    pub fn set_draw_score(&mut self, draw_score: f32) {
        self.opts.config.draw_score = draw_score;
        self.tree.set_draw_score(draw_score);
    }

    /// Plies of the tactics check of the move each search chooses
    /// (`SearchConfig::tactics_depth`), from the next search on.
    pub fn set_tactics_depth(&mut self, depth: u32) {
        self.opts.config.tactics_depth = depth;
        self.tree.set_tactics_depth(depth);
    }

    /// Forgets the tree (a new game).
    pub fn clear(&mut self) {
        self.tree.clear();
        self.root = None;
    }

    /// Points the tree's root at `start` + `moves`, keeping the subtree when the game went on
    /// from the last root.
    fn sync(&mut self, start: &Position, moves: &[Move]) {
        let key = start.to_text();
        let reusable = self.opts.reuse
            && self
                .root
                .as_ref()
                .is_some_and(|(s, m)| *s == key && moves.starts_with(m));
        if reusable {
            let done = self.root.as_ref().map_or(0, |(_, m)| m.len());
            for &mv in &moves[done..] {
                self.tree.advance(mv);
            }
        } else {
            self.tree.clear();
        }
        self.root = Some((key, moves.to_vec()));
    }

    /// Searches the position reached from `start` by `moves` until a limit of `limits` is
    /// reached, `stop` is set, or a move is proven to win at once; `progress` hears about the
    /// search about once a second while it runs.
    pub fn think(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: &Limits,
        stop: Option<&AtomicBool>,
        progress: Option<&mut (dyn FnMut(&Progress) + Send)>,
    ) -> Result<Thought, SearchError> {
        self.think_among(start, moves, None, limits, stop, progress)
    }

    /// [`Searcher::think`] choosing only among `root_moves` when given (legal ones; all moves
    /// when none of them is legal).
    pub fn think_among(
        &mut self,
        start: &Position,
        moves: &[Move],
        root_moves: Option<&[Move]>,
        limits: &Limits,
        stop: Option<&AtomicBool>,
        mut progress: Option<&mut (dyn FnMut(&Progress) + Send)>,
    ) -> Result<Thought, SearchError> {
        let began = Instant::now();
        let mut pos = start.clone();
        for &mv in moves {
            pos.make_move(mv);
        }
        let legal = pos.legal_moves();
        if legal.is_empty() || pos.outcome_given(false).is_some() {
            return Err(SearchError::GameOver);
        }
        // Only a restriction that leaves out some legal move, and keeps one, changes anything.
        let root_moves: Option<Vec<Move>> = root_moves
            .map(|r| {
                legal
                    .iter()
                    .copied()
                    .filter(|m| r.contains(m))
                    .collect::<Vec<_>>()
            })
            .filter(|r: &Vec<Move>| !r.is_empty() && r.len() < legal.len());
        // A restricted root lacks edges, so it is not reused by a search with other moves.
        if self.restricted || root_moves.is_some() {
            self.tree.clear();
            self.root = None;
        }
        self.sync(start, moves);
        self.restricted = root_moves.is_some();
        self.tree.restrict_root(root_moves);
        // Gumbel plans its halving phases on the simulation budget; a time-only search plans
        // on a generous one and is cut by the clock.
        let budget = limits.sims.unwrap_or(if limits.time.is_some() {
            1 << 20
        } else {
            u32::MAX / 2
        });
        // The root's mate search may spend a quarter of a timed move.
        let mate_deadline = limits.time.map(|t| began + t / 4);
        let mut run =
            SearchRun::begin_until(&mut self.tree, &mut pos, budget, false, mate_deadline);
        let start_visits = self.tree.root_visits();
        // The simulations stop a twentieth of the time early, so that the checks of the move
        // chosen (`SearchConfig::refute_nodes`, `SearchConfig::tactics_depth`) fit in what is
        // left of it; the checks made during the search stop with the simulations and leave
        // it that time.
        let refutes = self.opts.config.refute_nodes > 0 || self.opts.config.tactics_depth > 0;
        let deadline = limits
            .time
            .map(|t| began + if refutes { t - t / REFUTE_SHARE } else { t });
        self.tree
            .limit_refutations(deadline, limits.time.map(|t| began + t));
        let mut next_report = began + PROGRESS_EVERY;
        let more = |tree: &Tree| {
            if let Some(report) = progress.as_mut() {
                let now = Instant::now();
                if now >= next_report && tree.root_expanded() {
                    next_report = now + PROGRESS_EVERY;
                    report(&Progress {
                        simulations: tree.root_visits().saturating_sub(start_visits),
                        elapsed: now - began,
                        value: tree.root_value(),
                        pv: tree.principal_variation(PV_LEN),
                        proven_win: tree.proven_win().is_some(),
                    });
                }
            }
            // A move is owed whatever the clock says: the root is expanded (one network call)
            // even when the time, or a stop, came first, e.g. at a few milliseconds a move.
            !tree.root_expanded()
                || !(stop.is_some_and(|s| s.load(Ordering::Relaxed))
                    || deadline.is_some_and(|d| Instant::now() >= d))
        };
        let playable = if self.opts.threads > 1 {
            simulate_shared(
                &mut self.tree,
                &pos,
                &*self.eval,
                self.opts.batch,
                self.opts.threads,
                &mut run,
                more,
            )
        } else {
            simulate(
                &mut self.tree,
                &mut pos,
                &*self.eval,
                self.opts.batch,
                &mut run,
                more,
            )
        };
        if !playable {
            return Err(SearchError::GameOver);
        }
        let result = match self.tree.result() {
            Some(r) => r,
            None => return Err(SearchError::GameOver),
        };
        let root_eval = self
            .eval
            .evaluate(vec![self.eval.prepare(&pos, &legal)])
            .pop();
        let wdl = root_eval.map_or([0.0, 1.0, 0.0], |e| e.wdl);
        let mut top: Vec<RootMove> = self
            .tree
            .root_children()
            .into_iter()
            .map(|(mv, visits, prior, q)| RootMove {
                mv,
                visits,
                prior,
                q,
            })
            .collect();
        top.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.prior.total_cmp(&a.prior)));
        let mut pv = self.tree.principal_variation(PV_LEN);
        if pv.first() != Some(&result.best) {
            pv = vec![result.best];
        }
        Ok(Thought {
            best: result.best,
            value: result.value,
            wdl,
            simulations: result.simulations,
            new_simulations: result.simulations.saturating_sub(start_visits),
            elapsed: began.elapsed(),
            top,
            pv,
            proven_win: self.tree.proven_win().is_some(),
        })
    }
}

//! A self-play worker: many games at once, one leaf per game per round, all leaves evaluated in
//! one batch, finished games journalled in the worker's spool and sealed into chunks that the
//! uploader sends to the store.

use crate::config::SelfplayConfig;
use crate::stats::Stats;
use crossbeam::channel::Sender;
use koma_mcts::{Evaluator, Gathered, Tree};
use koma_model::Client;
use koma_rules::{Color, Position, Variant};
use koma_store::backoff;
use koma_store::{
    sorted_legal, ChunkName, GameRecord, GameResult, SearchRecord, Spool, Store, StoreError, Upload,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Everything a worker thread needs.
pub struct Worker {
    /// Worker id: the store prefix of its chunks.
    pub id: String,
    /// The variant played.
    pub variant: Arc<Variant>,
    /// Connection to the evaluator.
    pub client: Client,
    /// The store (asked once, for where a new spool's numbering continues).
    pub store: Arc<Store>,
    /// Root of the spools on local disk (the worker's own is `<spool>/<id>`).
    pub spool: PathBuf,
    /// Where sealed chunks go for upload.
    pub uploads: Sender<Upload>,
    /// Settings.
    pub cfg: SelfplayConfig,
    /// Set to stop after writing the finished games.
    pub stop: Arc<AtomicBool>,
    /// Shared counters.
    pub stats: Arc<Stats>,
    /// Random seed.
    pub seed: u64,
    /// Stop after this many games (tests, benchmarks).
    pub max_games: Option<u64>,
}

struct Game {
    pos: Position,
    tree: Tree,
    moves: Vec<u16>,
    searches: Vec<Option<SearchRecord>>,
    searching: bool,
    full: bool,
    target: u32,
    low: [u32; 2],
    may_resign: bool,
}

impl Worker {
    fn new_game(&self, rng: &mut StdRng) -> Game {
        Game {
            pos: Position::start(&self.variant),
            tree: Tree::new(self.cfg.search.clone(), rng.gen()),
            moves: Vec::new(),
            searches: Vec::new(),
            searching: false,
            full: false,
            target: 0,
            low: [0; 2],
            may_resign: rng.gen::<f32>() >= self.cfg.resign_playout_fraction,
        }
    }

    /// The next free chunk sequence number of this worker id in the store.
    fn next_sequence(&self) -> Result<u64, StoreError> {
        let prefix = format!("games/{}/", self.id);
        Ok(self
            .store
            .list(&prefix)?
            .iter()
            .filter_map(|k| ChunkName::parse_key(k))
            .map(|c| c.seq)
            .max()
            .map_or(0, |m| m + 1))
    }

    fn send(&self, path: PathBuf) {
        // The uploader outlives the workers; if it is gone, the chunk waits in the spool.
        let _ = self.uploads.send(Upload {
            worker: self.id.clone(),
            path,
        });
    }

    /// Runs until stopped (or `max_games`), writing chunks as games finish.
    pub fn run(self) -> Result<(), StoreError> {
        let mut rng = StdRng::seed_from_u64(self.seed);
        let what = format!("worker {}: reading its chunk numbers", self.id);
        let opened = Spool::open(&self.spool, &self.id, || {
            backoff::retry(&what, &self.stop, || self.next_sequence())
        })?;
        let Some((mut spool, waiting)) = opened else {
            return Ok(());
        };
        for p in waiting {
            self.send(p);
        }
        let mut games: Vec<Game> = (0..self.cfg.games_per_worker.max(1))
            .map(|_| self.new_game(&mut rng))
            .collect();
        let mut done = 0u64;
        let mut tickets = Vec::new();
        let mut requests = Vec::new();
        while !self.stop.load(Ordering::Relaxed) && self.max_games.is_none_or(|m| done < m) {
            for (i, g) in games.iter_mut().enumerate() {
                if !g.searching {
                    let ply = g.moves.len() as u32;
                    g.full = ply < self.cfg.opening_plies
                        || rng.gen::<f32>() < self.cfg.full_search_fraction;
                    let budget = if g.full {
                        self.cfg.full_simulations
                    } else {
                        self.cfg.fast_simulations
                    };
                    g.tree.begin(budget, g.full);
                    g.target = g.tree.root_visits() + budget.max(1);
                    g.searching = true;
                }
                for _ in 0..8 {
                    if g.tree.root_visits() >= g.target {
                        break;
                    }
                    match g.tree.gather(&mut g.pos, &self.client) {
                        Gathered::Leaf(t, r) => {
                            tickets.push((i, t));
                            requests.push(r);
                            break;
                        }
                        Gathered::Terminal => continue,
                        Gathered::Collision => break,
                    }
                }
            }
            if !requests.is_empty() {
                let evals = self.client.evaluate(std::mem::take(&mut requests));
                for ((i, t), e) in tickets.drain(..).zip(evals) {
                    games[i].tree.apply(t, e);
                }
            }
            for g in games.iter_mut() {
                if g.searching && g.tree.root_visits() >= g.target {
                    g.searching = false;
                    if let Some(record) = self.finish_move(g, &mut rng) {
                        Stats::add(&self.stats.games, 1);
                        match record.result {
                            GameResult::BlackWin => Stats::add(&self.stats.black_wins, 1),
                            GameResult::WhiteWin => Stats::add(&self.stats.white_wins, 1),
                            GameResult::Draw => Stats::add(&self.stats.draws, 1),
                        }
                        if record.resigned {
                            Stats::add(&self.stats.resignations, 1);
                        }
                        spool.append(&record)?;
                        done += 1;
                        *g = self.new_game(&mut rng);
                    }
                }
            }
            if spool.len() >= self.cfg.games_per_chunk.max(1) {
                if let Some(p) = spool.seal()? {
                    self.send(p);
                }
            }
        }
        if let Some(p) = spool.seal()? {
            self.send(p);
        }
        Ok(())
    }

    /// Plays the searched move of `g`; returns the record when the game is over.
    fn finish_move(&self, g: &mut Game, rng: &mut StdRng) -> Option<GameRecord> {
        let result = g.tree.result()?;
        let us = g.pos.side_to_move();
        let ply = g.moves.len() as u32;
        let mv = if self.cfg.search.gumbel || ply >= self.cfg.opening_plies {
            result.best
        } else {
            result.sample(self.cfg.temperature, rng)
        };
        let sorted = sorted_legal(&mut g.pos);
        let index_of =
            |m: &koma_rules::Move| sorted.iter().position(|s| s == m).unwrap_or(0) as u16;
        g.moves.push(index_of(&mv));
        let search = g.full.then(|| {
            let mut policy: Vec<(u16, f32)> = result
                .policy
                .iter()
                .filter(|(_, p)| *p >= self.cfg.policy_min)
                .map(|(m, p)| (index_of(m), *p))
                .collect();
            let total: f32 = policy.iter().map(|e| e.1).sum();
            policy.iter_mut().for_each(|e| e.1 /= total.max(1e-9));
            SearchRecord {
                policy,
                value: result.value,
            }
        });
        if search.is_some() {
            Stats::add(&self.stats.samples, 1);
        }
        g.searches.push(search);
        Stats::add(&self.stats.moves, 1);

        let side = us.index();
        if result.value < self.cfg.resign_threshold {
            g.low[side] += 1;
        } else {
            g.low[side] = 0;
        }
        if g.may_resign
            && self.cfg.resign_consecutive > 0
            && g.low[side] >= self.cfg.resign_consecutive
        {
            let result = match us {
                Color::Black => GameResult::WhiteWin,
                Color::White => GameResult::BlackWin,
            };
            return Some(self.record(g, result, "resignation".into(), true));
        }
        g.pos.make_move(mv);
        g.tree.advance(mv);
        let outcome = g.pos.outcome()?;
        Some(self.record(
            g,
            GameResult::from_outcome(&outcome),
            outcome.to_string(),
            false,
        ))
    }

    fn record(
        &self,
        g: &mut Game,
        result: GameResult,
        reason: String,
        resigned: bool,
    ) -> GameRecord {
        GameRecord {
            variant: self.variant.id.clone(),
            start: None,
            moves: std::mem::take(&mut g.moves),
            searches: std::mem::take(&mut g.searches),
            result,
            reason,
            resigned,
            model_step: self.client.model_step(),
        }
    }
}

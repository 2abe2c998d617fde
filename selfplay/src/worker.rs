//! A self-play worker: many games at once on the one game driver of koma
//! ([`koma_mcts::driver`]), all their leaves evaluated in one batch by the inference server,
//! finished games journalled in the worker's spool and sealed into chunks that the uploader
//! sends to the store.
//!
//! What is self-play's own is decided here, as the driver's [`Host`]: playout-cap
//! randomisation (a full, noisy search recorded as a policy target, or a cheap one), the
//! sampled opening moves, which games may resign, and the game records.

use crate::adjudication::recorded_result;
use crate::config::SelfplayConfig;
use crate::spool_writes::until_written;
use crate::stats::Stats;
use crossbeam::channel::Sender;
use koma_mcts::driver::{play_games, GameStart, Host, ResignRule, TreeSpec, Turn};
use koma_mcts::SearchResult;
use koma_model::Client;
use koma_rules::{Move, Outcome, Position, Variant, WinReason};
use koma_store::backoff;
use koma_store::{
    sorted_legal, GameRecord, GameResult, MaterialScale, SearchRecord, Spool, Store, StoreError,
    Upload,
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

/// One self-play game's record so far.
struct Game {
    moves: Vec<u16>,
    searches: Vec<Option<SearchRecord>>,
    /// Whether the current search is a full one (recorded as a target).
    full: bool,
}

/// The worker as the driver's host.
struct SelfplayHost<'a> {
    worker: &'a Worker,
    spool: Spool,
    rng: StdRng,
    /// Games started and games finished: with `max_games`, no game starts past the limit,
    /// so games ending in the same round cannot carry the count over it.
    started: u64,
    done: u64,
    /// Material units for adjudicating draws (made once).
    scale: MaterialScale,
    /// The variant the games are played under ([`SelfplayConfig::played_variant`]).
    played: Arc<Variant>,
}

impl Worker {
    fn send(&self, path: PathBuf) {
        // The uploader outlives the workers; if it is gone, the chunk waits in the spool.
        let _ = self.uploads.send(Upload {
            worker: self.id.clone(),
            path,
        });
    }

    /// Runs until stopped (or `max_games`), writing chunks as games finish.
    pub fn run(self) -> Result<(), StoreError> {
        let what = format!("worker {}: reading its chunk numbers", self.id);
        let opened = Spool::open(&self.spool, &self.id, || {
            backoff::retry(&what, &self.stop, || {
                Spool::next_sequence_in(&self.store, &self.id)
            })
        })?;
        let Some((spool, waiting)) = opened else {
            return Ok(());
        };
        for p in waiting {
            self.send(p);
        }
        let mut host = SelfplayHost {
            worker: &self,
            spool,
            rng: StdRng::seed_from_u64(self.seed),
            started: 0,
            done: 0,
            scale: MaterialScale::new(&self.variant),
            played: self.cfg.played_variant(&self.variant),
        };
        play_games(
            &mut host,
            std::slice::from_ref(&self.client),
            self.cfg.games_per_worker.max(1),
        )?;
        let spool_dir = self.spool.join(&self.id);
        let sealed = until_written(&self.id, &spool_dir, &self.stop, || host.spool.seal());
        match sealed {
            Some(Some(p)) => self.send(p),
            Some(None) => {}
            None => tracing::warn!(
                "worker {}: stopped with {} games in the spool's journal, which could not be \
                 sealed; the next start with this worker id seals and uploads them",
                self.id,
                host.spool.len()
            ),
        }
        Ok(())
    }
}

impl Host for SelfplayHost<'_> {
    type Game = Game;
    type Error = StoreError;

    fn stop(&self) -> bool {
        self.worker.stop.load(Ordering::Relaxed)
            || self.worker.max_games.is_some_and(|m| self.done >= m)
    }

    fn next_game(&mut self) -> Option<GameStart<Game>> {
        if self.worker.max_games.is_some_and(|m| self.started >= m) {
            return None;
        }
        self.started += 1;
        let cfg = &self.worker.cfg;
        let may_resign = self.rng.gen::<f32>() >= cfg.resign_playout_fraction;
        Some(GameStart {
            game: Game {
                moves: Vec::new(),
                searches: Vec::new(),
                full: false,
            },
            position: Position::start(&self.played),
            // One tree for both sides: each search starts from the subtree the last one built.
            trees: vec![TreeSpec {
                config: cfg.search.clone(),
                seed: self.rng.gen(),
                evaluator: 0,
            }],
            tree_of: [Some(0), Some(0)],
            max_plies: None,
            resign: (may_resign && cfg.resign_consecutive > 0).then_some(ResignRule {
                threshold: cfg.resign_threshold,
                consecutive: cfg.resign_consecutive,
            }),
        })
    }

    fn turn(&mut self, game: &mut Game, _pos: &mut Position) -> Turn {
        let cfg = &self.worker.cfg;
        let ply = game.moves.len() as u32;
        game.full = ply < cfg.opening_plies || self.rng.gen::<f32>() < cfg.full_search_fraction;
        Turn::Search {
            simulations: if game.full {
                cfg.full_simulations
            } else {
                cfg.fast_simulations
            },
            noisy: game.full,
            // A forced win is proven where the position becomes a training target.
            prove: game.full,
        }
    }

    fn choose(&mut self, game: &mut Game, pos: &mut Position, result: &SearchResult) -> Move {
        let cfg = &self.worker.cfg;
        let stats = &self.worker.stats;
        let ply = game.moves.len() as u32;
        let mv = if cfg.search.gumbel || ply >= cfg.opening_plies {
            result.best
        } else {
            result.sample(cfg.temperature, &mut self.rng)
        };
        // The record holds the chosen move and the search even when the side resigns
        // instead of playing it: the search is a target like any other.
        let sorted = sorted_legal(pos);
        let index_of = |m: &Move| sorted.iter().position(|s| s == m).unwrap_or(0) as u16;
        game.moves.push(index_of(&mv));
        let search = game.full.then(|| {
            let mut policy: Vec<(u16, f32)> = result
                .policy
                .iter()
                .filter(|(_, p)| *p >= cfg.policy_min)
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
            Stats::add(&stats.samples, 1);
        }
        game.searches.push(search);
        Stats::add(&stats.moves, 1);
        mv
    }

    fn played(&mut self, _game: &mut Game, _pos: &mut Position, _mv: Move) {}

    fn finished(&mut self, game: Game, pos: &Position, outcome: Outcome) -> Result<(), StoreError> {
        let stats = &self.worker.stats;
        let resigned = matches!(
            outcome,
            Outcome::Win {
                reason: WinReason::Resignation,
                ..
            }
        );
        let (result, reason) = recorded_result(
            &outcome,
            pos,
            &self.scale,
            self.worker.cfg.material_adjudication,
        );
        let record = GameRecord {
            variant: self.worker.variant.id.clone(),
            start: None,
            moves: game.moves,
            searches: game.searches,
            result,
            reason: if resigned {
                "resignation".into()
            } else {
                reason
            },
            resigned,
            model_step: self.worker.client.model_step(),
        };
        Stats::add(&stats.games, 1);
        match record.result {
            GameResult::BlackWin => Stats::add(&stats.black_wins, 1),
            GameResult::WhiteWin => Stats::add(&stats.white_wins, 1),
            GameResult::Draw => Stats::add(&stats.draws, 1),
        }
        if resigned {
            Stats::add(&stats.resignations, 1);
        }
        let (id, stop) = (&self.worker.id, &self.worker.stop);
        let dir = self.worker.spool.join(id);
        let spool = &mut self.spool;
        if until_written(id, &dir, stop, || spool.append(&record)).is_none() {
            tracing::warn!(
                "worker {id}: stopped while the spool could not be written: this last game ({} \
                 plies) is lost, the games before it are kept",
                record.moves.len()
            );
        }
        self.done += 1;
        Ok(())
    }

    fn after_round(&mut self) -> Result<(), StoreError> {
        if self.spool.len() >= self.worker.cfg.games_per_chunk.max(1) {
            let (id, stop) = (&self.worker.id, &self.worker.stop);
            let dir = self.worker.spool.join(id);
            let spool = &mut self.spool;
            // Stopped while failing: the journal keeps the games, sealed at the end or next start.
            if let Some(Some(p)) = until_written(id, &dir, stop, || spool.seal()) {
                self.worker.send(p);
            }
        }
        Ok(())
    }
}

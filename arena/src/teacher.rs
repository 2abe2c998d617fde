//! Teacher games: the classical baseline playing itself from random openings, written to a
//! run's store as training records, so that a network can start from what a two-ply search
//! with quiescence already knows (never leave a piece hanging, take what is offered) instead
//! of from nothing.
//!
//! Each position after the opening becomes a training target: the teacher's move as the
//! policy (all of its weight), and the teacher's score as the root value, `tanh(score /
//! scale)` with `scale` in mean piece values (a proven win or loss is +1 or -1). The game's
//! result is recorded as it ended, or, with adjudication, a draw with one side far ahead as
//! that side's win, as self-play records it ([`koma_selfplay::recorded_result`]).
//!
//! The records are the same [`koma_store::GameRecord`]s self-play writes, journalled in a
//! spool under the worker id `<prefix>-<thread>` and sent to the store chunk by chunk, so the trainer
//! takes them in like any worker's games: `koma teach`, then `koma trainer --steps N` for a
//! supervised start, then `koma train`, which continues from that model.

use crate::alphabeta::{AlphaBeta, AlphaBetaSpec, SearchOutcome};
use crate::error::ArenaError;
use crate::opening::{opening, sub_seed, TEACHER_STREAM};
use koma_mcts::driver::{play_games, GameStart, Host, Turn};
use koma_mcts::{SearchResult, UniformEvaluator};
use koma_rules::zobrist::seed_from;
use koma_rules::{Move, Outcome, PieceValues, Position, Variant};
use koma_selfplay::recorded_result;
use koma_store::backoff::retry;
use koma_store::{
    sorted_legal, upload, valid_worker_id, GameRecord, GameResult, MaterialScale, SearchRecord,
    Spool, Store, StoreError, Upload,
};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Games journalled before a chunk is sealed and sent.
const GAMES_PER_CHUNK: usize = 4;

/// What the teacher plays and how its games become targets.
#[derive(Debug, Clone)]
pub struct TeachConfig {
    /// The variant.
    pub variant: Arc<Variant>,
    /// The teacher's search.
    pub teacher: AlphaBetaSpec,
    /// Random plies from the start before the teacher plays (not recorded as targets).
    pub opening_plies: u32,
    /// Length cap of a game in plies (`None`: the variant's own limit).
    pub max_plies: Option<u32>,
    /// Mean piece values at which a score's root value is `tanh(1)` (about 0.76); the trainer
    /// blends the root value with the game's result (`value_target_q`).
    pub value_scale: f64,
    /// Material adjudication of draws, in mean piece values (0: off).
    pub adjudicate: f64,
    /// Seed of the openings (a stream of its own: the arena's openings under the same seed
    /// are not the teacher's, so a network is not taught the very lines it is graded on).
    pub seed: u64,
    /// Worker ids are `<prefix>-<thread>`: unique per process writing to one store. The
    /// openings depend on it as well as on the seed.
    pub worker_prefix: String,
}

impl TeachConfig {
    /// Checks the settings a user gives.
    pub fn validate(&self) -> Result<(), ArenaError> {
        if self.teacher.contempt.is_some() {
            return Err(ArenaError::Setting {
                setting: "teacher",
                reason: "contempt shifts every draw's score, so the value targets would be \
                         biased: teach without it"
                    .into(),
            });
        }
        if self.opening_plies == 0 {
            return Err(ArenaError::Setting {
                setting: "opening plies",
                reason: "0 would make every game the same (the teacher plays without \
                         randomness): use at least 1"
                    .into(),
            });
        }
        if !valid_worker_id(&format!("{}-63", self.worker_prefix)) {
            return Err(ArenaError::Setting {
                setting: "worker id",
                reason: format!(
                    "'{}': use letters, digits, '-', '_' or '.' (the ids `<prefix>-<thread>` \
                     up to 64 characters)",
                    self.worker_prefix
                ),
            });
        }
        if !(self.value_scale.is_finite() && self.value_scale > 0.0) {
            return Err(ArenaError::Setting {
                setting: "value scale",
                reason: format!("{} is not a positive number", self.value_scale),
            });
        }
        if !(self.adjudicate.is_finite() && self.adjudicate >= 0.0) {
            return Err(ArenaError::Setting {
                setting: "adjudicate",
                reason: format!("{} is not 0 or a positive number", self.adjudicate),
            });
        }
        if let Some(cap) = self.max_plies {
            if cap <= self.opening_plies {
                return Err(ArenaError::Setting {
                    setting: "max plies",
                    reason: format!(
                        "{cap} leaves no room for the teacher after {} opening plies",
                        self.opening_plies
                    ),
                });
            }
        }
        Ok(())
    }
}

/// Counters shared by the teacher's threads.
#[derive(Debug, Default)]
pub struct TeachStats {
    /// Games finished and journalled.
    pub games: AtomicU64,
    /// Training positions in them.
    pub positions: AtomicU64,
    /// Moves the teacher has searched, the games under way included.
    pub moves: AtomicU64,
    /// Games won by the first player.
    pub black_wins: AtomicU64,
    /// Games won by the second player.
    pub white_wins: AtomicU64,
    /// Games recorded as draws.
    pub draws: AtomicU64,
    /// Chunks sent to the store.
    pub chunks: AtomicU64,
    /// Games cut short by the deadline or a stop, and not kept.
    pub cut: AtomicU64,
}

/// When to stop: a number of games over all threads, a deadline, a flag.
#[derive(Debug)]
pub struct TeachLimits {
    /// Games still to start (`None`: no count).
    pub games_left: Option<AtomicU64>,
    /// Start no game after this, and cut the games under way (they are not kept: their
    /// result is unknown), so that a run ends on time however long its games are.
    pub deadline: Option<Instant>,
    /// Set from outside (Ctrl-C): as the deadline.
    pub stop: Arc<AtomicBool>,
}

impl TeachLimits {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Takes one game from the count; false when none is left.
    fn claim(&self) -> bool {
        match &self.games_left {
            None => true,
            Some(left) => left
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                .is_ok(),
        }
    }
}

/// The root value of a teacher's score, for the side to move.
pub fn score_value(outcome: &SearchOutcome, mean_piece: f64, value_scale: f64) -> f32 {
    match outcome.decided() {
        Some(true) => 1.0,
        Some(false) => -1.0,
        None => (outcome.score as f64 / (mean_piece * value_scale).max(1e-9)).tanh() as f32,
    }
}

/// One game in progress.
struct TeachGame {
    moves: Vec<u16>,
    searches: Vec<Option<SearchRecord>>,
    /// The teacher failed in this game (the error is the host's), or the game was cut at the
    /// deadline or a stop: not kept.
    dropped: bool,
}

/// The teacher as the game driver's host, one per thread.
struct TeachHost<'a> {
    cfg: &'a TeachConfig,
    limits: &'a TeachLimits,
    stats: &'a TeachStats,
    store: &'a Store,
    worker: String,
    spool: Spool,
    searcher: AlphaBeta,
    start: Position,
    scale: MaterialScale,
    mean_piece: f64,
    /// This thread's games so far, for distinct openings.
    started: u64,
    /// The first opening number of this thread and start.
    first_opening: u64,
    /// Seed of the openings: the run's seed and the worker prefix (a stable hash of it), so
    /// that processes teaching into one store under different `--worker-id`s play different
    /// openings even with the same seed.
    opening_seed: u64,
    error: Option<ArenaError>,
}

impl TeachHost<'_> {
    fn seal_and_send(&mut self) -> Result<(), ArenaError> {
        if let Some(path) = self.spool.seal()? {
            if send(self.store, &self.worker, path, &self.limits.stop)? {
                self.stats.chunks.fetch_add(1, Ordering::Relaxed);
            }
        }
        Ok(())
    }
}

/// Sends a sealed chunk, waiting out an unreachable store; false if `stop` came first (the
/// chunk then stays in the spool, and the next start sends it).
fn send(store: &Store, worker: &str, path: PathBuf, stop: &AtomicBool) -> Result<bool, ArenaError> {
    let u = Upload {
        worker: worker.to_owned(),
        path,
    };
    let what = format!("{worker}: sending {}", u.path.display());
    let sent = retry(&what, stop, || match upload(store, &u) {
        // Another process writes under this worker id: waiting does not mend it.
        Err(e @ StoreError::WorkerIdClash { .. }) => Ok(Err(e)),
        other => other.map(Ok),
    });
    match sent {
        Some(r) => r.map(|_| true).map_err(ArenaError::from),
        None => {
            tracing::warn!(
                "{what}: stopped first; the chunk stays in the spool for the next start"
            );
            Ok(false)
        }
    }
}

impl Host for TeachHost<'_> {
    type Game = TeachGame;
    type Error = ArenaError;

    fn stop(&self) -> bool {
        // The limits are heard in `next_game` and `turn`: a game under way is cut in `turn`,
        // handed over as a forfeit, and dropped by `finished`.
        self.error.is_some()
    }

    fn next_game(&mut self) -> Option<GameStart<TeachGame>> {
        if self.limits.stopped() || !self.limits.claim() {
            return None;
        }
        let n = self.first_opening + self.started;
        self.started += 1;
        let line = match opening(
            &self.start,
            self.cfg.opening_plies,
            self.opening_seed,
            n as usize,
        ) {
            Ok(l) => l,
            Err(e) => {
                self.error = Some(e);
                return None;
            }
        };
        let mut pos = self.start.clone();
        let mut game = TeachGame {
            moves: Vec::new(),
            searches: Vec::new(),
            dropped: false,
        };
        for m in line {
            let index = self.index_of(&mut pos, &m)?;
            game.moves.push(index);
            game.searches.push(None);
            pos.make_move(m);
        }
        Some(GameStart {
            game,
            position: pos,
            trees: Vec::new(),
            tree_of: [None, None],
            max_plies: self.cfg.max_plies,
            resign: None,
        })
    }

    fn turn(&mut self, game: &mut TeachGame, pos: &mut Position) -> Turn {
        if self.limits.stopped() {
            // A deep teacher's game can run for minutes: cut it rather than overrun.
            game.dropped = true;
            self.stats.cut.fetch_add(1, Ordering::Relaxed);
            return Turn::Forfeit;
        }
        let began = Instant::now();
        let Some(found) = self.searcher.search(pos, self.cfg.teacher.limits()) else {
            // The driver asks only in positions the rules leave open.
            self.error = Some(ArenaError::Teacher(format!(
                "the teacher found no move in an open position: {}",
                pos.to_text()
            )));
            game.dropped = true;
            return Turn::Forfeit;
        };
        self.stats.moves.fetch_add(1, Ordering::Relaxed);
        tracing::debug!(
            worker = %self.worker,
            ply = pos.ply(),
            depth = found.depth,
            nodes = found.nodes,
            score = found.score,
            ms = began.elapsed().as_millis() as u64,
            "teacher move"
        );
        let Some(index) = self.index_of(pos, &found.best) else {
            game.dropped = true;
            return Turn::Forfeit;
        };
        game.moves.push(index);
        game.searches.push(Some(SearchRecord {
            policy: vec![(index, 1.0)],
            value: score_value(&found, self.mean_piece, self.cfg.value_scale),
        }));
        Turn::Play(found.best)
    }

    fn choose(&mut self, _game: &mut TeachGame, _pos: &mut Position, r: &SearchResult) -> Move {
        // The teacher has no tree: the driver never asks.
        r.best
    }

    fn played(&mut self, _game: &mut TeachGame, _pos: &mut Position, _mv: Move) {}

    fn finished(
        &mut self,
        game: TeachGame,
        pos: &Position,
        outcome: Outcome,
    ) -> Result<(), ArenaError> {
        if game.dropped {
            // A game cut short (by a failure, the deadline or a stop) has no result.
            return Ok(());
        }
        let (result, reason) = recorded_result(&outcome, pos, &self.scale, self.cfg.adjudicate);
        let record = GameRecord {
            variant: self.cfg.variant.id.clone(),
            start: None,
            moves: game.moves,
            searches: game.searches,
            result,
            reason,
            resigned: false,
            model_step: 0,
        };
        self.spool.append(&record)?;
        let s = self.stats;
        s.games.fetch_add(1, Ordering::Relaxed);
        s.positions
            .fetch_add(record.samples() as u64, Ordering::Relaxed);
        match result {
            GameResult::BlackWin => &s.black_wins,
            GameResult::WhiteWin => &s.white_wins,
            GameResult::Draw => &s.draws,
        }
        .fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    fn after_round(&mut self) -> Result<(), ArenaError> {
        if self.spool.len() >= GAMES_PER_CHUNK {
            self.seal_and_send()?;
        }
        Ok(())
    }
}

impl TeachHost<'_> {
    /// The index of `m` among the legal moves of `pos` sorted by text (how records name
    /// moves); `None`, with the error kept, if it is not among them.
    fn index_of(&mut self, pos: &mut Position, m: &Move) -> Option<u16> {
        let found = sorted_legal(pos).iter().position(|s| s == m);
        if found.is_none() {
            self.error = Some(ArenaError::Teacher(format!(
                "the move {} is not legal in {}",
                pos.move_text(m),
                pos.to_text()
            )));
        }
        found.map(|i| i as u16)
    }
}

/// Plays teacher games on thread `thread` (worker id `<prefix>-<thread>`, spool under
/// `spool_root`) until `limits` end it, sending every finished game to `store`. A game under
/// way at the deadline or a stop is cut at its next move and not kept (counted in
/// [`TeachStats::cut`]); a chunk that a stop kept from the store stays in the spool, and the
/// next start sends it.
pub fn teach(
    cfg: &TeachConfig,
    thread: usize,
    store: &Store,
    spool_root: &Path,
    limits: &TeachLimits,
    stats: &TeachStats,
) -> Result<(), ArenaError> {
    cfg.validate()?;
    let worker = format!("{}-{thread}", cfg.worker_prefix);
    let what = format!("{worker}: reading its chunk numbers");
    let Some((mut spool, waiting)) = Spool::open(spool_root, &worker, || {
        retry(&what, &limits.stop, || {
            Spool::next_sequence_in(store, &worker)
        })
    })?
    else {
        // Stopped while the store did not answer: nothing was played.
        return Ok(());
    };
    for path in waiting {
        if send(store, &worker, path, &limits.stop)? {
            stats.chunks.fetch_add(1, Ordering::Relaxed);
        }
    }
    // Games a cut-off start left in the journal are sealed and sent first, so that this
    // start's journal is new and its number names its openings: openings differ between
    // threads and between starts of the same run directory (up to 2^20 chunks a thread).
    if let Some(path) = spool.seal()? {
        if send(store, &worker, path, &limits.stop)? {
            stats.chunks.fetch_add(1, Ordering::Relaxed);
        }
    }
    let first_opening = ((thread as u64) << 40) + (spool.sequence() << 20);
    let values = PieceValues::new(&cfg.variant);
    let mut host = TeachHost {
        cfg,
        limits,
        stats,
        store,
        worker,
        spool,
        searcher: cfg.teacher.searcher(&cfg.variant),
        start: Position::start(&cfg.variant),
        scale: MaterialScale::new(&cfg.variant),
        mean_piece: values.mean_value() as f64,
        started: 0,
        first_opening,
        opening_seed: sub_seed(cfg.seed, TEACHER_STREAM, seed_from(&cfg.worker_prefix)),
        error: None,
    };
    play_games(&mut host, &[] as &[UniformEvaluator], 1)?;
    if let Some(e) = host.error.take() {
        return Err(e);
    }
    host.seal_and_send()
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::load_variant;

    fn config(variant: &str) -> TeachConfig {
        TeachConfig {
            variant: load_variant(variant).unwrap(),
            teacher: AlphaBetaSpec::parse("depth=1").unwrap(),
            opening_plies: 4,
            max_plies: Some(40),
            value_scale: 2.0,
            adjudicate: 0.0,
            seed: 7,
            worker_prefix: koma_store::TEACHER_WORKER_PREFIX.into(),
        }
    }

    fn stored_games(store: &Store) -> Vec<GameRecord> {
        let mut games = Vec::new();
        for key in store.list("games/").unwrap() {
            let bytes = store.get(&key).unwrap().unwrap();
            games.extend(koma_store::chunk::decode(&key, &bytes).unwrap());
        }
        games
    }

    /// Every finished game reaches the store; its opening plies carry no target, and every
    /// other ply is the teacher's own move as the whole policy, with a value in [-1, 1].
    #[test]
    fn teacher_games_reach_the_store_with_the_teachers_moves_as_targets() {
        let cfg = config("hand-shogi");
        let store = Store::memory();
        let dir = std::env::temp_dir().join(format!("koma-teach-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let limits = TeachLimits {
            games_left: Some(AtomicU64::new(5)),
            deadline: None,
            stop: Arc::new(AtomicBool::new(false)),
        };
        let stats = TeachStats::default();
        teach(&cfg, 0, &store, &dir, &limits, &stats).unwrap();
        let games = stored_games(&store);
        assert_eq!(games.len(), 5);
        assert_eq!(stats.games.load(Ordering::Relaxed), 5);
        let positions: usize = games.iter().map(GameRecord::samples).sum();
        assert_eq!(stats.positions.load(Ordering::Relaxed), positions as u64);
        let mut openings = std::collections::HashSet::new();
        for g in &games {
            assert!(g.moves.len() <= 40, "{} plies", g.moves.len());
            assert!(g.searches[..4].iter().all(Option::is_none));
            assert!(g.searches[4..].iter().all(Option::is_some));
            openings.insert(g.moves[..4].to_vec());
            // Replaying shows each target names the move played, and the teacher agrees.
            let mut teacher = cfg.teacher.searcher(&cfg.variant);
            let mut ply = 0;
            g.replay(&cfg.variant, |pos, moves, search| {
                if let Some(s) = search {
                    assert_eq!(s.policy, vec![(g.moves[ply], 1.0)]);
                    assert!((-1.0..=1.0).contains(&s.value));
                    let best = teacher.search(pos, cfg.teacher.limits()).unwrap().best;
                    assert_eq!(moves[g.moves[ply] as usize], best, "ply {ply}");
                }
                ply += 1;
            })
            .unwrap();
        }
        assert_eq!(openings.len(), 5, "each game has its own opening");
        // A second start continues the numbering and plays new openings.
        let more = TeachLimits {
            games_left: Some(AtomicU64::new(2)),
            ..limits
        };
        teach(&cfg, 0, &store, &dir, &more, &TeachStats::default()).unwrap();
        let games = stored_games(&store);
        assert_eq!(games.len(), 7);
        let openings: std::collections::HashSet<_> =
            games.iter().map(|g| g.moves[..4].to_vec()).collect();
        assert_eq!(openings.len(), 7);
        // A second process under another worker id, same seed, plays openings of its own.
        let other = TeachConfig {
            worker_prefix: "other".into(),
            ..cfg.clone()
        };
        let two = TeachLimits {
            games_left: Some(AtomicU64::new(2)),
            deadline: None,
            stop: Arc::new(AtomicBool::new(false)),
        };
        teach(
            &other,
            0,
            &store,
            &dir.join("other"),
            &two,
            &TeachStats::default(),
        )
        .unwrap();
        let games = stored_games(&store);
        assert_eq!(games.len(), 9);
        let openings: std::collections::HashSet<_> =
            games.iter().map(|g| g.moves[..4].to_vec()).collect();
        assert_eq!(
            openings.len(),
            9,
            "another worker id, the same seed: new openings"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A game under way at a stop (Ctrl-C, or the deadline: the same test) is cut at its next
    /// move and not kept, so that a deep teacher's long games do not run the process past its
    /// time.
    #[test]
    fn a_stop_cuts_the_games_under_way() {
        let cfg = TeachConfig {
            teacher: AlphaBetaSpec::parse("depth=2").unwrap(),
            max_plies: None,
            ..config("shoko-shogi")
        };
        let store = Store::memory();
        let dir = std::env::temp_dir().join(format!("koma-teach-cut-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let limits = TeachLimits {
            games_left: None,
            deadline: None,
            stop: Arc::new(AtomicBool::new(false)),
        };
        let stats = TeachStats::default();
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            // Stops the run once the teacher has moved: a Shoko Shogi game of a two-ply
            // teacher runs for hundreds of plies, so the game is under way.
            scope.spawn(|| {
                let give_up = Instant::now() + std::time::Duration::from_secs(120);
                while stats.moves.load(Ordering::Relaxed) == 0
                    && !done.load(Ordering::Relaxed)
                    && Instant::now() < give_up
                {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                limits.stop.store(true, Ordering::Relaxed);
            });
            let taught = teach(&cfg, 0, &store, &dir, &limits, &stats);
            done.store(true, Ordering::Relaxed);
            taught.unwrap();
        });
        assert_eq!(stats.games.load(Ordering::Relaxed), 0);
        assert_eq!(stats.cut.load(Ordering::Relaxed), 1);
        assert!(stored_games(&store).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn scores_become_values_and_proven_results_are_whole() {
        let v = load_variant("hand-shogi").unwrap();
        let mut pos = Position::start(&v);
        let mut found = AlphaBeta::new(&v)
            .search(&mut pos, AlphaBetaSpec::parse("depth=1").unwrap().limits())
            .unwrap();
        found.score = 0;
        assert_eq!(score_value(&found, 10.0, 2.0), 0.0);
        found.score = 20;
        assert!((score_value(&found, 10.0, 2.0) - 1f32.tanh()).abs() < 1e-6);
        found.score = -20;
        assert!((score_value(&found, 10.0, 2.0) + 1f32.tanh()).abs() < 1e-6);
        found.score = 1_000_000_000;
        assert_eq!(score_value(&found, 10.0, 2.0), 1.0);
        found.score = -1_000_000_000 + 5;
        assert_eq!(score_value(&found, 10.0, 2.0), -1.0);
    }

    #[test]
    fn settings_out_of_range_are_named() {
        type Change = fn(&mut TeachConfig);
        let cases: [(Change, &str); 6] = [
            (|c| c.value_scale = 0.0, "value scale"),
            (|c| c.adjudicate = -1.0, "adjudicate"),
            (|c| c.max_plies = Some(4), "max plies"),
            (|c| c.opening_plies = 0, "opening plies"),
            (
                |c| c.teacher = AlphaBetaSpec::parse("depth=2:contempt=1").unwrap(),
                "contempt",
            ),
            (|c| c.worker_prefix = "a b".into(), "worker id"),
        ];
        for (change, want) in cases {
            let mut cfg = config("hand-shogi");
            change(&mut cfg);
            let e = cfg.validate().unwrap_err().to_string();
            assert!(e.contains(want), "{want}: {e}");
        }
        assert!(config("hand-shogi").validate().is_ok());
    }
}

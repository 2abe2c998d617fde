//! Running a match: every game at once, with the model players' leaves evaluated in batches.
//!
//! A network evaluates a batch of positions in little more time than one, so the match plays
//! all its games concurrently (each with its own position and trees) and searches them in
//! lock-step rounds: every game whose side to move is a model player contributes one leaf,
//! the leaves of each model go through a single forward pass, the results are applied, and
//! the round repeats until each search has its simulations; then the chosen moves are played
//! (and baseline players answer at once). Everything runs on the calling thread, so results
//! depend only on the seed.

use crate::arena::error::ArenaError;
use crate::arena::external::ExternalEngine;
use crate::arena::game::{Game, Mover, Setup, Step};
use crate::arena::opening::opening;
use crate::arena::player::PlayerSpec;
use crate::arena::progress::Progress;
use crate::arena::report::{GameRecord, MatchReport};
use koma_model::{Model, Request};
use koma_rules::PieceValues;
use koma_rules::{Color, Position, Variant};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tch::Device;

/// Everything a match needs to know.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// The variant played.
    pub variant: Arc<Variant>,
    /// Player A (the one the score and Elo are for).
    pub a: PlayerSpec,
    /// Player B.
    pub b: PlayerSpec,
    /// Games to play: an even number, as pairs of one opening played with each colour.
    pub games: usize,
    /// Random plies from the start position that make each pair's opening.
    pub opening_plies: u32,
    /// Seed of the openings, the baselines' choices and the trees.
    pub seed: u64,
    /// Position text to start from instead of the variant's start position.
    pub start: Option<String>,
    /// Adjudicate a draw (max length) once the position's ply count reaches this, before the
    /// variant's own limit.
    pub max_plies: Option<u32>,
    /// Most games in flight at once (`None`: all of them). Fewer games in flight means
    /// smaller batches but less memory for trees.
    pub concurrency: Option<usize>,
    /// CPU threads for libtorch during the match (`None`: leave its setting alone). The
    /// setting is process-wide; the previous value is restored when the match ends. The
    /// default is 1: the arena's batches are small, and libtorch's idle threads spin, which on
    /// a busy machine made a tiny model's match over ten times slower than on one thread.
    pub threads: Option<usize>,
    /// Where model players run.
    pub device: Device,
    /// Interval between progress log lines.
    pub progress_every: Duration,
}

impl MatchConfig {
    /// A match of `games` games with the defaults of `koma arena`: 4 opening plies, seed 0,
    /// the variant's start position and length limit, all games in flight, one libtorch thread,
    /// on the CPU.
    pub fn new(variant: Arc<Variant>, a: PlayerSpec, b: PlayerSpec, games: usize) -> Self {
        MatchConfig {
            variant,
            a,
            b,
            games,
            opening_plies: 4,
            seed: 0,
            start: None,
            max_plies: None,
            concurrency: None,
            threads: Some(1),
            device: Device::Cpu,
            progress_every: Duration::from_secs(10),
        }
    }

    fn validate(&self) -> Result<(), ArenaError> {
        if self.games == 0 {
            return setting("games", "at least one pair (2 games) is needed");
        }
        if self.games % 2 != 0 {
            return setting(
                "games",
                &format!(
                    "{} is odd; games are played in pairs (each opening once with each \
                     player first)",
                    self.games
                ),
            );
        }
        self.validate_play()
    }

    /// The settings every set of games needs, whatever decides which games are played.
    fn validate_play(&self) -> Result<(), ArenaError> {
        if self.concurrency == Some(0) {
            return setting("concurrency", "at least one game must be in flight");
        }
        if self.threads == Some(0) {
            return setting("threads", "at least one thread is needed");
        }
        Ok(())
    }
}

/// A bad setting, as an error.
pub(crate) fn setting(setting: &'static str, reason: &str) -> Result<(), ArenaError> {
    Err(ArenaError::Setting {
        setting,
        reason: reason.to_owned(),
    })
}

/// libtorch's CPU thread count for the length of a match, restored afterwards so that a
/// process running a match between other work (a trainer gating its models) keeps its own.
struct TorchThreads(i32);

impl TorchThreads {
    fn set(threads: usize) -> TorchThreads {
        let before = tch::get_num_threads();
        tch::set_num_threads(threads.min(i32::MAX as usize) as i32);
        TorchThreads(before)
    }
}

impl Drop for TorchThreads {
    fn drop(&mut self) {
        tch::set_num_threads(self.0);
    }
}

/// The models of a match, loaded once each: two model players with the same checkpoint share
/// one network, so their leaves go through the same forward pass.
struct Models {
    stems: Vec<PathBuf>,
    models: Vec<Model>,
}

impl Models {
    /// The mover for a player, loading its model if it is new.
    fn mover(&mut self, spec: &PlayerSpec, cfg: &MatchConfig) -> Result<Mover, ArenaError> {
        Ok(match spec {
            PlayerSpec::Random => Mover::Random,
            PlayerSpec::Greedy => Mover::Greedy,
            PlayerSpec::External(_) => Mover::External,
            PlayerSpec::Model(p) => {
                let key = std::fs::canonicalize(p.load_path()).unwrap_or_else(|_| p.load_path());
                let model = match self.stems.iter().position(|s| *s == key) {
                    Some(i) => i,
                    None => {
                        let m = Model::load(&p.load_path(), &cfg.variant, None, cfg.device)
                            .map_err(|source| ArenaError::Model {
                                player: spec.to_string(),
                                source,
                            })?;
                        tracing::info!(
                            player = %spec,
                            step = m.meta.step,
                            games = m.meta.games,
                            "model loaded"
                        );
                        self.stems.push(key);
                        self.models.push(m);
                        self.models.len() - 1
                    }
                };
                Mover::Search {
                    model,
                    sims: p.sims,
                    gumbel: p.gumbel,
                    material: p.material,
                }
            }
        })
    }
}

/// One game to play: its number (which seeds its players' and trees' random choices and
/// orders the report), the colour player A has, and the opening it starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GamePlan {
    /// Game number, unique within the match.
    pub index: usize,
    /// The colour of player A.
    pub a_color: Color,
    /// The opening: games with the same number play the same random opening.
    pub opening: usize,
}

/// Plays a match and reports it. Game `2k` plays opening `k` with A as Black (the first
/// player), game `2k + 1` the same opening with A as White.
pub fn run_match(cfg: &MatchConfig) -> Result<MatchReport, ArenaError> {
    cfg.validate()?;
    let plan: Vec<GamePlan> = (0..cfg.games)
        .map(|index| GamePlan {
            index,
            a_color: if index % 2 == 0 {
                Color::Black
            } else {
                Color::White
            },
            opening: index / 2,
        })
        .collect();
    run_games(cfg, &plan)
}

/// Plays the games of `plan` with the players and settings of `cfg` (its `games` is not
/// used) and reports them in the order of their numbers.
pub fn run_games(cfg: &MatchConfig, plan: &[GamePlan]) -> Result<MatchReport, ArenaError> {
    cfg.validate_play()?;
    let _threads = cfg
        .threads
        .filter(|_| cfg.a.is_model() || cfg.b.is_model())
        .map(TorchThreads::set);
    let mut start = match &cfg.start {
        Some(text) => Position::from_text(&cfg.variant, text)?,
        None => Position::start(&cfg.variant),
    };
    if let Some(o) = start.outcome() {
        return Err(ArenaError::StartDecided(o));
    }
    if let Some(cap) = cfg.max_plies {
        let first = start.ply() + cfg.opening_plies;
        if cap <= first {
            return Err(ArenaError::Setting {
                setting: "max plies",
                reason: format!(
                    "{cap} leaves no room to play: the games reach ply {first} after the opening"
                ),
            });
        }
    }
    let mut models = Models {
        stems: Vec::new(),
        models: Vec::new(),
    };
    let movers = [models.mover(&cfg.a, cfg)?, models.mover(&cfg.b, cfg)?];
    let mut externals = [&cfg.a, &cfg.b].map(|spec| match spec {
        PlayerSpec::External(e) => Some(ExternalEngine::start(e, &cfg.variant)),
        _ => None,
    });
    let mut started: [Option<ExternalEngine>; 2] = [None, None];
    for (slot, e) in externals.iter_mut().enumerate() {
        if let Some(result) = e.take() {
            started[slot] = Some(result.map_err(|e| ArenaError::Setting {
                setting: "external engine",
                reason: e.to_string(),
            })?);
        }
    }
    let mut externals = started;
    let values = PieceValues::new(&cfg.variant);
    let openings = plan
        .iter()
        .map(|g| opening(&start, cfg.opening_plies, cfg.seed, g.opening))
        .collect::<Result<Vec<_>, _>>()?;
    let games = plan.len();
    let in_flight = cfg.concurrency.unwrap_or(games).min(games);
    tracing::info!(
        variant = %cfg.variant.id,
        a = %cfg.a,
        b = %cfg.b,
        games,
        in_flight,
        "arena games start"
    );

    let setup = Setup {
        start: &start,
        movers: &movers,
        seed: cfg.seed,
        max_plies: cfg.max_plies,
    };
    let mut progress = Progress::new(games, cfg.progress_every);
    let mut next = 0;
    let mut active: Vec<Game> = Vec::with_capacity(in_flight);
    let mut records: Vec<GameRecord> = Vec::with_capacity(games);
    let mut a_points = 0.0;
    // Per model: the games that sent a leaf this round and their requests.
    let mut batches: Vec<(Vec<usize>, Vec<Request>)> = (0..models.models.len())
        .map(|_| Default::default())
        .collect();
    loop {
        while active.len() < in_flight && next < games {
            active.push(Game::new(&plan[next], &openings[next], &setup));
            next += 1;
        }
        if active.is_empty() {
            break;
        }
        // Play what needs no network; collect one leaf from every searching game.
        let mut i = 0;
        while i < active.len() {
            match active[i].step(&movers, &values, &mut externals) {
                Step::Finished => {
                    let game = active.swap_remove(i);
                    a_points += game.score_a();
                    if let Some(r) = game.into_record() {
                        records.push(r);
                    }
                }
                Step::NeedsLeaf { model } => {
                    if let Some(request) = active[i].gather(&models.models[model]) {
                        batches[model].0.push(i);
                        batches[model].1.push(request);
                    }
                    i += 1;
                }
            }
        }
        // One forward pass per model.
        for (model, (games, requests)) in batches.iter_mut().enumerate() {
            if requests.is_empty() {
                continue;
            }
            let refs: Vec<&Request> = requests.iter().collect();
            let evals = models.models[model].evaluate_requests(&refs);
            if evals.len() != requests.len() {
                tracing::error!(
                    asked = requests.len(),
                    got = evals.len(),
                    "the network returned too few evaluations; the searches missing one will \
                     stall and play their best move so far"
                );
            }
            for (&g, e) in games.iter().zip(evals) {
                active[g].apply(e);
            }
            games.clear();
            requests.clear();
        }
        progress.update(records.len(), a_points);
    }
    records.sort_by_key(|r| r.index);
    Ok(MatchReport {
        variant: cfg.variant.id.clone(),
        a: cfg.a.to_string(),
        b: cfg.b.to_string(),
        games: records,
        elapsed: progress.elapsed(),
    })
}

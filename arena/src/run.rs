//! Running a match: its games on koma's game driver, every game at once, the model players'
//! leaves evaluated in batches by one inference server per model.

use crate::config::{GamePlan, MatchConfig};
use crate::error::ArenaError;
use crate::external::ExternalEngine;
use crate::host::MatchHost;
use crate::models::Models;
use crate::opening::opening;
use crate::player::PlayerSpec;
use crate::progress::Progress;
use crate::report::MatchReport;
use koma_mcts::driver::play_games;
use koma_rules::{PieceValues, Position};

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

/// Plays a match and reports it. Game `2k` plays opening `k` with A as Black (the first
/// player), game `2k + 1` the same opening with A as White.
pub fn run_match(cfg: &MatchConfig) -> Result<MatchReport, ArenaError> {
    cfg.validate()?;
    run_games(cfg, &GamePlan::paired(cfg.games))
}

/// Plays the games of `plan` with the players and settings of `cfg` (its `games` is not
/// used) and reports them in the order of their numbers.
pub fn run_games(cfg: &MatchConfig, plan: &[GamePlan]) -> Result<MatchReport, ArenaError> {
    cfg.validate_play()?;
    let _threads = cfg
        .threads
        .filter(|_| cfg.a.is_model() || cfg.b.is_model())
        .map(TorchThreads::set);
    let start = match &cfg.start {
        Some(text) => Position::from_text(&cfg.variant, text)?,
        None => Position::start(&cfg.variant),
    };
    let mut start = start;
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
    let games = plan.len();
    let in_flight = cfg.concurrency.unwrap_or(games).min(games).max(1);
    let mut models = Models::new();
    let movers = [
        models.mover(&cfg.a, cfg, in_flight)?,
        models.mover(&cfg.b, cfg, in_flight)?,
    ];
    let mut externals: [Option<ExternalEngine>; 2] = [None, None];
    for (slot, spec) in [&cfg.a, &cfg.b].into_iter().enumerate() {
        if let PlayerSpec::External(e) = spec {
            externals[slot] =
                Some(
                    ExternalEngine::start(e, &cfg.variant).map_err(|e| ArenaError::Setting {
                        setting: "external engine",
                        reason: e.to_string(),
                    })?,
                );
        }
    }
    let openings = plan
        .iter()
        .map(|g| opening(&start, cfg.opening_plies, cfg.seed, g.opening))
        .collect::<Result<Vec<_>, _>>()?;
    tracing::info!(
        variant = %cfg.variant.id,
        a = %cfg.a,
        b = %cfg.b,
        games,
        in_flight,
        "arena games start"
    );
    let mut host = MatchHost {
        plan,
        openings: &openings,
        start: &start,
        movers: &movers,
        externals: &mut externals,
        searchers: [None, None],
        seed: cfg.seed,
        max_plies: cfg.max_plies,
        values: PieceValues::new(&cfg.variant),
        next: 0,
        records: Vec::with_capacity(games),
        a_points: 0.0,
        progress: Progress::new(games, cfg.progress_every),
    };
    let clients = models.clients();
    let Ok(()) = play_games(&mut host, &clients, in_flight);
    drop(clients);
    models.shutdown();
    let mut records = host.records;
    records.sort_by_key(|r| r.index);
    Ok(MatchReport {
        variant: cfg.variant.id.clone(),
        a: cfg.a.to_string(),
        b: cfg.b.to_string(),
        games: records,
        elapsed: host.progress.elapsed(),
    })
}

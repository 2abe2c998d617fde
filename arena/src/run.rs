//! Running a match: its games on koma's game driver, every game at once, the model players'
//! leaves evaluated in batches by one inference server per model.

use crate::config::{GamePlan, MatchConfig};
use crate::error::ArenaError;
use crate::external::ExternalEngine;
use crate::host::MatchHost;
use crate::models::Models;
use crate::opening::{opening, play_opening};
use crate::player::PlayerSpec;
use crate::progress::Progress;
use crate::report::{GameRecord, MatchReport};
use koma_mcts::driver::play_games;
use koma_rules::{PieceValues, Position};
use std::time::Duration;

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
    resume_match(cfg, Vec::new(), &mut |_| Ok(()))
}

/// Plays the games of a match that `done` does not hold (games read back from its record
/// file, [`crate::record_file`]) and reports them all, handing each game to `journal` as it
/// ends so that the caller can keep it at once. A game of `done` whose opening is not the one
/// this match's settings give its pair is an error: the file was written by another match.
pub fn resume_match(
    cfg: &MatchConfig,
    done: Vec<GameRecord>,
    journal: &mut dyn FnMut(&GameRecord) -> Result<(), ArenaError>,
) -> Result<MatchReport, ArenaError> {
    cfg.validate()?;
    let plan: Vec<GamePlan> = GamePlan::paired(cfg.games)
        .into_iter()
        .filter(|p| done.iter().all(|d| d.index != p.index))
        .collect();
    play_plan(cfg, &plan, done, journal)
}

/// Plays the games of `plan` with the players and settings of `cfg` (its `games` is not
/// used) and reports them in the order of their numbers.
pub fn run_games(cfg: &MatchConfig, plan: &[GamePlan]) -> Result<MatchReport, ArenaError> {
    play_plan(cfg, plan, Vec::new(), &mut |_| Ok(()))
}

/// The start position of `cfg`'s games, checked to leave something to play.
fn start_position(cfg: &MatchConfig) -> Result<Position, ArenaError> {
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
    Ok(start)
}

/// The games of `plan` played beside the finished ones of `done`.
fn play_plan(
    cfg: &MatchConfig,
    plan: &[GamePlan],
    done: Vec<GameRecord>,
    journal: &mut dyn FnMut(&GameRecord) -> Result<(), ArenaError>,
) -> Result<MatchReport, ArenaError> {
    cfg.validate_play()?;
    let _threads = cfg
        .threads
        .filter(|_| cfg.a.is_model() || cfg.b.is_model())
        .map(TorchThreads::set);
    let start = start_position(cfg)?;
    for d in &done {
        let moves = opening(&start, cfg.opening_plies, cfg.seed, d.pair)?;
        let (_, want) = play_opening(&start, &moves);
        if d.opening != want {
            return Err(ArenaError::Resume {
                game: d.index,
                reason: format!(
                    "its opening is {}, where this match's settings give {}: the record was \
                     written by another match",
                    d.opening.join(" "),
                    want.join(" ")
                ),
            });
        }
    }
    let a_points: f64 = done.iter().map(GameRecord::score_a).sum();
    let kept = done.len();
    let games = kept + plan.len();
    if plan.is_empty() {
        return Ok(report(cfg, done, Duration::ZERO, kept));
    }
    if kept > 0 {
        tracing::info!(kept, left = plan.len(), "arena resumes the match");
    }
    let in_flight = cfg.concurrency.unwrap_or(plan.len()).min(plan.len()).max(1);
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
        records: done,
        a_points,
        progress: Progress::new(games, cfg.progress_every).resumed(kept),
        journal,
    };
    let clients = models.clients();
    let played = play_games(&mut host, &clients, in_flight);
    drop(clients);
    models.shutdown();
    played?;
    let elapsed = host.progress.elapsed();
    Ok(report(cfg, host.records, elapsed, kept))
}

/// The report of the games in `records`, in the order of their numbers.
fn report(
    cfg: &MatchConfig,
    mut records: Vec<GameRecord>,
    elapsed: Duration,
    resumed: usize,
) -> MatchReport {
    records.sort_by_key(|r| r.index);
    MatchReport {
        variant: cfg.variant.id.clone(),
        a: cfg.a.to_string(),
        b: cfg.b.to_string(),
        games: records,
        elapsed,
        resumed,
    }
}

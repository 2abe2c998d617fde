//! The Elo ladder of a training run: the published models played against each other, against
//! `random` and `greedy` and any other arena player, all rated on one scale (anchored at
//! `random` = 0) by [`fit`], so that a run's strength can be followed against training steps
//! and time. Incremental: only models not yet rated play, and every match is recorded as it
//! ends.
//!
//! - [`error`]: what can stop the ladder;
//! - [`fit`]: the maximum-likelihood rating fit with 95% intervals;
//! - [`records`]: `results.csv` and `ratings.csv`;
//! - [`plot`]: the PNG of Elo against step and against training time.

pub mod error;
pub mod fit;
pub mod plot;
pub mod records;

pub use error::LadderError;

use crate::config::MatchConfig;
use crate::player::{ModelPlayer, PlayerSpec};
use crate::run::run_match;
use fit::PairResult;
use koma_rules::Variant;
use records::{MatchLine, RatingLine, RecordError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A published model to rate.
#[derive(Debug, Clone, PartialEq)]
pub struct LadderModel {
    /// Training step.
    pub step: u64,
    /// Checkpoint stem.
    pub stem: PathBuf,
    /// Minutes of training when it was published.
    pub minutes: f64,
}

impl LadderModel {
    /// The model's label in the ladder's files.
    pub fn label(&self) -> String {
        format!("step-{}", self.step)
    }
}

/// How the ladder plays.
#[derive(Debug, Clone)]
pub struct LadderConfig {
    /// The variant.
    pub variant: Arc<Variant>,
    /// Games per match (even: paired openings).
    pub games: usize,
    /// Simulations per move of model players.
    pub sims: u32,
    /// Fixed opponents of every new model (`random` and `greedy` first; `random` anchors).
    pub opponents: Vec<PlayerSpec>,
    /// Also play each new model against this many models rated before it (nearest in step).
    pub previous: usize,
    /// Seed of the openings.
    pub seed: u64,
    /// Random opening plies per pair.
    pub opening_plies: u32,
    /// Draw adjudication before the variant's own limit.
    pub max_plies: Option<u32>,
    /// Matches played at once, each on a thread of its own (a match searches on one thread).
    pub jobs: usize,
}

/// What a ladder run did.
#[derive(Debug, Clone)]
pub struct LadderOutcome {
    /// Models that played this run.
    pub new_models: Vec<u64>,
    /// Matches played this run.
    pub matches: usize,
    /// All ratings after the run, models by step after the other players.
    pub ratings: Vec<RatingLine>,
}

fn label_of(p: &PlayerSpec) -> String {
    match p {
        PlayerSpec::Random => "random".into(),
        PlayerSpec::Greedy => "greedy".into(),
        other => format!("{other}"),
    }
}

fn model_player(m: &LadderModel, sims: u32) -> PlayerSpec {
    let mut p = ModelPlayer::new(&m.stem);
    p.sims = sims;
    PlayerSpec::Model(p)
}

/// One match the ladder still has to play.
struct Planned {
    label: String,
    step: u64,
    opponent: String,
    config: MatchConfig,
}

/// Rates `models` into the ladder in `dir`: each plays the matches it has not played yet
/// (none for a model rated before; the rest for one whose rating was interrupted), up to
/// `cfg.jobs` matches at once. Writes `results.csv` (each match as it ends) and `ratings.csv`
/// there and returns the ratings.
pub fn run(
    dir: &Path,
    models: &[LadderModel],
    cfg: &LadderConfig,
) -> Result<LadderOutcome, LadderError> {
    std::fs::create_dir_all(dir).map_err(|e| RecordError {
        path: dir.display().to_string(),
        reason: e.to_string(),
    })?;
    let results_path = dir.join("results.csv");
    let results = records::read_results(&results_path)?;
    let plan = plan(&results, models, cfg);
    let mut new_models: Vec<u64> = plan.iter().map(|p| p.step).collect();
    new_models.dedup();
    let matches = plan.len();
    let results = play(plan, results, &results_path, cfg.jobs)?;
    let ratings = rate(&results, models)?;
    records::write_ratings(&dir.join("ratings.csv"), &ratings)?;
    Ok(LadderOutcome {
        new_models,
        matches,
        ratings,
    })
}

/// The matches not in `results` yet, models in step order: each model against the fixed
/// opponents and the `cfg.previous` nearest earlier models that are rated or will be by the
/// end of this run.
fn plan(results: &[MatchLine], models: &[LadderModel], cfg: &LadderConfig) -> Vec<Planned> {
    let rated = |label: &str| results.iter().any(|r| r.a == label || r.b == label);
    let mut sorted: Vec<&LadderModel> = models.iter().collect();
    sorted.sort_by_key(|m| m.step);
    let mut out: Vec<Planned> = Vec::new();
    for (i, m) in sorted.iter().enumerate() {
        let label = m.label();
        let me = model_player(m, cfg.sims);
        let mut opponents: Vec<(String, PlayerSpec)> = cfg
            .opponents
            .iter()
            .map(|o| (label_of(o), o.clone()))
            .collect();
        let earlier = sorted[..i]
            .iter()
            .rev()
            .filter(|e| rated(&e.label()) || out.iter().any(|p| p.label == e.label()))
            .take(cfg.previous);
        for e in earlier {
            opponents.push((e.label(), model_player(e, cfg.sims)));
        }
        for (k, (olabel, ospec)) in opponents.into_iter().enumerate() {
            // A match recorded by an earlier (perhaps interrupted) run is not played again.
            if results.iter().any(|r| r.a == label && r.b == olabel) {
                continue;
            }
            let mut mc = MatchConfig::new(cfg.variant.clone(), me.clone(), ospec, cfg.games);
            mc.seed = cfg.seed ^ (m.step.wrapping_mul(1_000_003)) ^ k as u64;
            mc.opening_plies = cfg.opening_plies;
            mc.max_plies = cfg.max_plies;
            // One libtorch thread for the whole ladder, set once below: a match that set and
            // restored the process-wide setting would change it under the others.
            mc.threads = None;
            out.push(Planned {
                label: label.clone(),
                step: m.step,
                opponent: olabel,
                config: mc,
            });
        }
    }
    out
}

/// Plays `plan` on `jobs` threads (each match on one), appending each result to the file as
/// it ends; returns all results. After a failed match no new one starts, and the first
/// error is returned once the running ones have ended (their results are kept).
fn play(
    plan: Vec<Planned>,
    results: Vec<MatchLine>,
    path: &Path,
    jobs: usize,
) -> Result<Vec<MatchLine>, LadderError> {
    let threads_before = tch::get_num_threads();
    tch::set_num_threads(1);
    let next = AtomicUsize::new(0);
    let shared = Mutex::new((results, None::<LadderError>));
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(plan.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(p) = plan.get(i) else {
                    return;
                };
                if shared.lock().expect("ladder results").1.is_some() {
                    return;
                }
                let outcome = play_one(p);
                let mut guard = shared.lock().expect("ladder results");
                let (results, error) = &mut *guard;
                match outcome.and_then(|line| {
                    records::append_result(path, &line)?;
                    Ok(line)
                }) {
                    Ok(line) => results.push(line),
                    Err(e) => {
                        error.get_or_insert(e);
                    }
                }
            });
        }
    });
    tch::set_num_threads(threads_before);
    let (results, error) = shared.into_inner().expect("ladder results");
    match error {
        Some(e) => Err(e),
        None => Ok(results),
    }
}

/// Plays one planned match and logs its result.
fn play_one(p: &Planned) -> Result<MatchLine, LadderError> {
    let report = run_match(&p.config)?;
    let line = MatchLine {
        a: p.label.clone(),
        b: p.opponent.clone(),
        wins: report.wins() as u32,
        draws: report.draws() as u32,
        losses: report.losses() as u32,
    };
    let reasons: Vec<String> = report
        .end_reasons()
        .iter()
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    tracing::info!(
        "ladder: {} vs {}: +{} ={} -{} ({:.1}%), {:.0} plies on average, {}, {:.0} s",
        line.a,
        line.b,
        line.wins,
        line.draws,
        line.losses,
        100.0 * report.score(),
        report.average_plies(),
        reasons.join(", "),
        report.elapsed.as_secs_f64()
    );
    Ok(line)
}

/// Fits every player of `results`; `models` gives the steps and times of model labels.
pub fn rate(results: &[MatchLine], models: &[LadderModel]) -> Result<Vec<RatingLine>, LadderError> {
    let mut labels: Vec<String> = vec!["random".into()];
    let index = |l: &str, labels: &mut Vec<String>| match labels.iter().position(|x| x == l) {
        Some(i) => i,
        None => {
            labels.push(l.to_owned());
            labels.len() - 1
        }
    };
    let mut pairs = Vec::new();
    let mut games: BTreeMap<usize, u32> = BTreeMap::new();
    for r in results {
        let a = index(&r.a, &mut labels);
        let b = index(&r.b, &mut labels);
        let n = r.wins + r.draws + r.losses;
        if n == 0 {
            continue;
        }
        *games.entry(a).or_default() += n;
        *games.entry(b).or_default() += n;
        pairs.push(PairResult {
            a,
            b,
            points: r.wins as f64 + 0.5 * r.draws as f64,
            games: n as f64,
        });
    }
    if pairs.is_empty() {
        return Ok(Vec::new());
    }
    let fitted = fit::fit(labels.len(), 0, &pairs)?;
    let mut out: Vec<RatingLine> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let m = models.iter().find(|m| &m.label() == l);
            let step = m
                .map(|m| m.step)
                .or_else(|| l.strip_prefix("step-")?.parse().ok());
            RatingLine {
                player: l.clone(),
                step,
                minutes: m.map(|m| m.minutes),
                elo: fitted[i].elo,
                lo95: fitted[i].elo - fitted[i].half_width,
                hi95: fitted[i].elo + fitted[i].half_width,
                games: games.get(&i).copied().unwrap_or(0),
            }
        })
        .collect();
    out.sort_by_key(|a| (a.step.is_some(), a.step));
    Ok(out)
}

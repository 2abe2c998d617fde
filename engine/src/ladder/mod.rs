//! The Elo ladder of a training run: the published models played against each other, against
//! `random` and `greedy` and any other arena player, all rated on one scale (anchored at
//! `random` = 0) by [`fit`], so that a run's strength can be followed against training steps
//! and time. Incremental: only models not yet rated play, and every match is recorded as it
//! ends.
//!
//! - [`fit`]: the maximum-likelihood rating fit with 95% intervals;
//! - [`records`]: `results.csv` and `ratings.csv`;
//! - [`plot`]: the PNG of Elo against step and against training time.

pub mod fit;
pub mod plot;
pub mod records;

use crate::arena::{run_match, ArenaError, MatchConfig, ModelPlayer, PlayerSpec};
use fit::{FitError, PairResult};
use koma_rules::Variant;
use records::{MatchLine, RatingLine, RecordError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
}

/// What can stop the ladder.
#[derive(Debug, thiserror::Error)]
pub enum LadderError {
    /// A match could not be played.
    #[error(transparent)]
    Arena(#[from] ArenaError),
    /// A file of the ladder.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The results cannot be fitted.
    #[error("rating fit: {0}")]
    Fit(#[from] FitError),
    /// The plot.
    #[error("plot {path}: {reason}")]
    Plot {
        /// The file.
        path: String,
        /// What went wrong.
        reason: String,
    },
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

/// Rates `models` into the ladder in `dir`: each plays the matches it has not played yet
/// (none for a model rated before; the rest for one whose rating was interrupted). Writes
/// `results.csv` and `ratings.csv` there and returns the ratings.
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
    let mut results = records::read_results(&results_path)?;
    let rated =
        |results: &[MatchLine], label: &str| results.iter().any(|r| r.a == label || r.b == label);
    let mut sorted: Vec<&LadderModel> = models.iter().collect();
    sorted.sort_by_key(|m| m.step);
    let mut new_models = Vec::new();
    let mut matches = 0;
    for (i, m) in sorted.iter().enumerate() {
        let label = m.label();
        let me = model_player(m, cfg.sims);
        let mut opponents: Vec<(String, PlayerSpec)> = cfg
            .opponents
            .iter()
            .map(|o| (label_of(o), o.clone()))
            .collect();
        // The nearest earlier models that are rated (or were just now).
        let earlier: Vec<&&LadderModel> = sorted[..i]
            .iter()
            .rev()
            .filter(|e| rated(&results, &e.label()))
            .take(cfg.previous)
            .collect();
        for e in earlier {
            opponents.push((e.label(), model_player(e, cfg.sims)));
        }
        let mut played = false;
        for (k, (olabel, ospec)) in opponents.into_iter().enumerate() {
            // A match recorded by an earlier (perhaps interrupted) run is not played again.
            if results.iter().any(|r| r.a == label && r.b == olabel) {
                continue;
            }
            played = true;
            let mut mc = MatchConfig::new(cfg.variant.clone(), me.clone(), ospec, cfg.games);
            mc.seed = cfg.seed ^ (m.step.wrapping_mul(1_000_003)) ^ k as u64;
            mc.opening_plies = cfg.opening_plies;
            mc.max_plies = cfg.max_plies;
            let report = run_match(&mc)?;
            let line = MatchLine {
                a: label.clone(),
                b: olabel.clone(),
                wins: report.wins() as u32,
                draws: report.draws() as u32,
                losses: report.losses() as u32,
            };
            tracing::info!(
                "ladder: {label} vs {olabel}: +{} ={} -{} ({:.1}%)",
                line.wins,
                line.draws,
                line.losses,
                100.0 * report.score()
            );
            records::append_result(&results_path, &line)?;
            results.push(line);
            matches += 1;
        }
        if played {
            new_models.push(m.step);
        }
    }
    let ratings = rate(&results, models)?;
    records::write_ratings(&dir.join("ratings.csv"), &ratings)?;
    Ok(LadderOutcome {
        new_models,
        matches,
        ratings,
    })
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

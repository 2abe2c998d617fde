//! `koma ladder`: the Elo ladder of a run's published models (see `koma_arena::ladder`), with
//! its CSV files, PNG plot and TensorBoard scalars; once, or again every few minutes beside
//! training.

use super::store_args::StoreArgs;
use anyhow::Context;
use clap::Args;
use koma_arena::ladder::{self, plot, LadderConfig, LadderModel};
use koma_arena::PlayerSpec;
use koma_model::Model;
use koma_rules::load_variant;
use koma_store::{publish, Store};
use koma_trainer::metrics::Metrics;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Options of `koma ladder`.
#[derive(Debug, Args)]
pub struct LadderArgs {
    /// The run directory: its store's models are rated, and the ladder lives in DIR/ladder.
    #[arg(long)]
    pub run_dir: PathBuf,
    #[command(flatten)]
    pub store: StoreArgs,
    /// Games per match (even: each opening once with each colour).
    #[arg(long, default_value_t = 40)]
    pub games: usize,
    /// Simulations per move of the models.
    #[arg(long, default_value_t = 64)]
    pub sims: u32,
    /// Rate the models whose step is a multiple of this (and always the newest).
    #[arg(long, default_value_t = 500)]
    pub every: u64,
    /// Also play each new model against this many earlier rated models.
    #[arg(long, default_value_t = 1)]
    pub previous: usize,
    /// More opponents of every new model, in `koma arena`'s player form (e.g. an external
    /// engine "uci:scripts/fairy-stockfish.sh;variant=handshogi;go=depth 1"); repeatable.
    /// `random`, `greedy`, `alphabeta:depth=1` and `alphabeta:depth=2` always play.
    #[arg(long = "opponent", value_name = "PLAYER")]
    pub opponents: Vec<PlayerSpec>,
    /// Random opening plies of each pair of games.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Adjudicate a draw at this many plies.
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Seed of the openings.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Matches played at once (each searches on one core); default: the machine's cores.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Keep running: look for new models every this many minutes (until Ctrl-C).
    #[arg(long, value_name = "MINUTES")]
    pub watch: Option<f64>,
}

/// The run's published models with their publication times, in step order, each to be
/// fetched into the ladder's `cache`.
fn published(store: &Store, cache: &Path) -> anyhow::Result<Vec<LadderModel>> {
    let models = publish::published(store)?;
    let first = models.first().map_or(0, |m| m.modified);
    std::fs::create_dir_all(cache).with_context(|| cache.display().to_string())?;
    Ok(models
        .into_iter()
        .map(|m| LadderModel {
            step: m.step,
            stem: cache.join(format!("{:010}", m.step)),
            minutes: (m.modified - first) as f64 / 60.0,
        })
        .collect())
}

/// Copies a model from the store into the ladder's cache (once).
fn fetch(store: &Store, m: &LadderModel) -> anyhow::Result<()> {
    publish::fetch(store, &publish::model_key(m.step), None, &m.stem)
        .with_context(|| format!("fetching the model of step {}", m.step))
}

fn once(a: &LadderArgs, store: &Store) -> anyhow::Result<()> {
    let dir = a.run_dir.join("ladder");
    let all = published(store, &dir.join("models"))?;
    let newest = all.last().map(|m| m.step);
    // Models rated before stay in the ladder (they are the earlier opponents of new ones).
    let recorded = ladder::records::read_results(&dir.join("results.csv"))?;
    let chosen: Vec<LadderModel> = all
        .into_iter()
        .filter(|m| {
            m.step % a.every.max(1) == 0
                || Some(m.step) == newest
                || recorded
                    .iter()
                    .any(|r| r.a == m.label() || r.b == m.label())
        })
        .collect();
    anyhow::ensure!(!chosen.is_empty(), "no published model in {}", store.url());
    for m in &chosen {
        fetch(store, m)?;
    }
    let meta = Model::read_meta(&chosen[0].stem)?;
    let variant = load_variant(&meta.variant)?;
    // random (the anchor), greedy, and the classical baseline at two depths: every run's
    // scale reaches from chance to real search, in every variant.
    let mut opponents = vec![PlayerSpec::Random, PlayerSpec::Greedy];
    for depth in [1, 2] {
        opponents.push(PlayerSpec::AlphaBeta(
            koma_arena::alphabeta::AlphaBetaSpec {
                depth: Some(depth),
                millis: None,
                contempt: None,
            },
        ));
    }
    opponents.extend(a.opponents.iter().cloned());
    let cfg = LadderConfig {
        variant: variant.clone(),
        games: a.games,
        sims: a.sims,
        opponents,
        previous: a.previous,
        seed: a.seed,
        opening_plies: a.opening_plies,
        max_plies: a.max_plies,
        jobs: a
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
    };
    let out = ladder::run(&dir, &chosen, &cfg)?;
    let png = dir.join("elo.png");
    let title = format!(
        "{}: Elo of the published models ({} simulations)",
        variant.id, a.sims
    );
    let plotted = match plot::draw(&png, &title, &out.ratings) {
        Ok(()) => format!("plot {}", png.display()),
        Err(e) => {
            tracing::warn!("{e}");
            format!("no plot ({e})")
        }
    };
    let mut tb = Metrics::new(&a.run_dir.join("tb").join("ladder"));
    let greedy = out
        .ratings
        .iter()
        .find(|r| r.player == "greedy")
        .map(|r| r.elo);
    for r in &out.ratings {
        if let Some(step) = r.step {
            tb.scalar("ladder/elo", r.elo, step);
            tb.scalar("ladder/elo_low95", r.lo95, step);
            tb.scalar("ladder/elo_high95", r.hi95, step);
            if let Some(g) = greedy {
                tb.scalar("ladder/elo_over_greedy", r.elo - g, step);
            }
        }
    }
    tb.flush();
    println!(
        "{:<40} {:>8} {:>9} {:>8} {:>17} {:>6}",
        "player", "step", "minutes", "Elo", "95% interval", "games"
    );
    for r in &out.ratings {
        println!(
            "{:<40} {:>8} {:>9} {:>8.0} {:>17} {:>6}",
            r.player,
            r.step.map_or("-".into(), |s| s.to_string()),
            r.minutes.map_or("-".into(), |m| format!("{m:.1}")),
            r.elo,
            format!("[{:.0}, {:.0}]", r.lo95, r.hi95),
            r.games
        );
    }
    println!(
        "{} new models rated in {} matches; {} and {} written, {plotted}",
        out.new_models.len(),
        out.matches,
        dir.join("results.csv").display(),
        dir.join("ratings.csv").display(),
    );
    Ok(())
}

/// Runs `koma ladder`.
pub fn run(a: LadderArgs) -> anyhow::Result<()> {
    super::signals::stop_engines_on_signal()?;
    anyhow::ensure!(a.jobs != Some(0), "--jobs 0: at least one match must run");
    anyhow::ensure!(
        a.games >= 2 && a.games.is_multiple_of(2),
        "--games {}: an even number of at least 2 (pairs of games)",
        a.games
    );
    let store = Store::open(&a.store.url(&a.run_dir)?, &a.store.options())?;
    match a.watch {
        None => once(&a, &store),
        Some(minutes) => {
            anyhow::ensure!(minutes > 0.0, "--watch must be positive");
            loop {
                if let Err(e) = once(&a, &store) {
                    tracing::warn!("ladder: {e:#}; trying again in {minutes} min");
                }
                std::thread::sleep(Duration::from_secs_f64(minutes * 60.0));
            }
        }
    }
}

//! `koma teach`: the classical baseline's games written to a run's store as training targets,
//! so that `koma trainer --steps N` can give the network a supervised start before `koma
//! train` goes on by self-play (see `koma_arena::teacher`).

use super::store_args::StoreArgs;
use anyhow::Context;
use clap::Args;
use koma_arena::alphabeta::AlphaBetaSpec;
use koma_arena::teacher::{teach, TeachConfig, TeachLimits, TeachStats};
use koma_rules::load_variant;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Options of `koma teach`.
#[derive(Debug, Args)]
pub struct TeachArgs {
    /// Variant (built-in id or variant file).
    #[arg(long, default_value = "hand-shogi")]
    pub variant: String,
    /// Run directory whose store takes the games (default: runs/<variant>).
    #[arg(long)]
    pub run_dir: Option<PathBuf>,
    #[command(flatten)]
    pub store: StoreArgs,
    /// The teacher: `alphabeta:depth=N[:millis=T]` (no contempt: it would bias the values).
    #[arg(long, default_value = "alphabeta:depth=2")]
    pub teacher: String,
    /// Stop after this many games (over all threads).
    #[arg(long)]
    pub games: Option<u64>,
    /// Stop after this many minutes: no game starts after it, and the games under way are
    /// cut and not kept (their result is unknown).
    #[arg(long)]
    pub minutes: Option<f64>,
    /// Games played at once, one per thread.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Random plies from the start before the teacher plays, so that games differ.
    #[arg(long, default_value_t = 8)]
    pub opening_plies: u32,
    /// Cap on a game's length in plies (default: the variant's own limit).
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Mean piece values of lead at which a position's root value is tanh(1), about 0.76 (the
    /// trainer blends it with the game's result).
    #[arg(long, default_value_t = 2.0)]
    pub value_scale: f64,
    /// Record a draw with one side this many mean piece values ahead as its win (0: off).
    #[arg(long, default_value_t = 0.0)]
    pub adjudicate: f64,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Name of this process's teacher threads in the store (`ID-0`, `ID-1`, ...), unique per
    /// process writing to one store. The openings depend on it and on `--seed`, so two
    /// processes with different ids play different games.
    #[arg(long, default_value = koma_store::TEACHER_WORKER_PREFIX)]
    pub worker_id: String,
}

/// Runs `koma teach`.
pub fn run(a: TeachArgs) -> anyhow::Result<()> {
    let variant = load_variant(&a.variant)?;
    let rest = a
        .teacher
        .strip_prefix("alphabeta:")
        .with_context(|| format!("--teacher '{}': only alphabeta:... teaches", a.teacher))?;
    let teacher = AlphaBetaSpec::parse(rest)
        .map_err(|e| anyhow::anyhow!("--teacher '{}': {e}", a.teacher))?;
    anyhow::ensure!(
        (1..=64).contains(&a.threads),
        "--threads {}: use 1 to 64",
        a.threads
    );
    let began = Instant::now();
    let deadline = match a.minutes {
        Some(m) => {
            let end = Duration::try_from_secs_f64(m * 60.0)
                .ok()
                .filter(|_| m > 0.0)
                .and_then(|d| began.checked_add(d));
            Some(end.with_context(|| format!("--minutes {m}: use a positive number of minutes"))?)
        }
        None => None,
    };
    anyhow::ensure!(a.games != Some(0), "--games 0: use at least 1");
    let cfg = TeachConfig {
        variant: variant.clone(),
        teacher,
        opening_plies: a.opening_plies,
        max_plies: a.max_plies,
        value_scale: a.value_scale,
        adjudicate: a.adjudicate,
        seed: a.seed,
        worker_prefix: a.worker_id.clone(),
    };
    cfg.validate()?;
    let run_dir = a
        .run_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("runs").join(&variant.id));
    std::fs::create_dir_all(&run_dir).with_context(|| run_dir.display().to_string())?;
    let store = koma_store::Store::open(&a.store.url(&run_dir)?, &a.store.options())?;
    let stop = super::signals::stop_flag_on_signal(
        "the searches under way (unfinished games are not kept)",
    )?;
    let limits = TeachLimits {
        games_left: a.games.map(AtomicU64::new),
        deadline,
        stop,
    };
    let stats = TeachStats::default();
    tracing::info!(
        variant = %variant.id,
        teacher = %a.teacher,
        store = store.url(),
        threads = a.threads,
        "teacher games start"
    );
    let spool = run_dir.join("spool");
    let done = AtomicBool::new(false);
    let results: Vec<anyhow::Result<()>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..a.threads)
            .map(|t| {
                let (cfg, store, spool, limits, stats) = (&cfg, &store, &spool, &limits, &stats);
                scope.spawn(move || {
                    let r = teach(cfg, t, store, spool, limits, stats);
                    if let Err(e) = &r {
                        // The others stop too: a run that lost a thread is not what was asked.
                        tracing::error!(thread = t, "{e}; stopping the other threads");
                        limits.stop.store(true, Ordering::Relaxed);
                    }
                    r
                })
            })
            .collect();
        scope.spawn(|| report_progress(&stats, &a, began, &done));
        let results = workers
            .into_iter()
            .map(|w| match w.join() {
                Ok(r) => r.map_err(anyhow::Error::from),
                Err(_) => Err(anyhow::anyhow!("a teacher thread panicked")),
            })
            .collect();
        done.store(true, Ordering::Relaxed);
        results
    });
    let line = summary(&stats, began.elapsed());
    for r in results {
        r.context(format!("teacher games stopped ({line})"))?;
    }
    println!("{line}; store {}", store.url());
    if let Some(preset) = koma_trainer::RunConfig::preset(&variant.id, "cpu") {
        let t = &preset.trainer;
        let positions = stats.positions.load(Ordering::Relaxed) as f64;
        println!(
            "with the CPU preset's trainer (batch {}, target_ratio {}, window {}), a fresh run's \
             `koma trainer` trains at most {:.0} steps on these positions before it waits for new \
             games (give it a window that holds them all)",
            t.batch_size,
            t.target_ratio,
            t.window_positions,
            (t.target_ratio * positions / t.batch_size.max(1) as f64).ceil()
        );
    }
    Ok(())
}

/// Games, positions, results and rate so far.
fn summary(s: &TeachStats, elapsed: Duration) -> String {
    let games = s.games.load(Ordering::Relaxed);
    let positions = s.positions.load(Ordering::Relaxed);
    let moves = s.moves.load(Ordering::Relaxed);
    let cut = match s.cut.load(Ordering::Relaxed) {
        0 => String::new(),
        n => format!(", {n} cut short by the stop and not kept"),
    };
    format!(
        "{games} games, {positions} positions, {moves} moves searched ({:.1}/s), black {} white {} \
         draws {}, {} chunks{cut}",
        moves as f64 / elapsed.as_secs_f64().max(1e-9),
        s.black_wins.load(Ordering::Relaxed),
        s.white_wins.load(Ordering::Relaxed),
        s.draws.load(Ordering::Relaxed),
        s.chunks.load(Ordering::Relaxed),
    )
}

/// A progress line every 30 s with the rate and, when the run has an end, its ETA.
fn report_progress(s: &TeachStats, a: &TeachArgs, began: Instant, done: &AtomicBool) {
    let mut last = Instant::now();
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(200));
        if last.elapsed() < Duration::from_secs(30) {
            continue;
        }
        last = Instant::now();
        let elapsed = began.elapsed();
        let games = s.games.load(Ordering::Relaxed);
        let by_games = a.games.filter(|_| games > 0).map(|total| {
            elapsed.as_secs_f64() * (total.saturating_sub(games)) as f64 / games as f64
        });
        let by_time = a
            .minutes
            .map(|m| (m * 60.0 - elapsed.as_secs_f64()).max(0.0));
        let eta = match (by_games, by_time) {
            (Some(g), Some(t)) => format!("{:.0} s", g.min(t)),
            (Some(x), None) | (None, Some(x)) => format!("{x:.0} s"),
            (None, None) => "until stopped".into(),
        };
        tracing::info!("{}; eta {eta}", summary(s, elapsed));
    }
}

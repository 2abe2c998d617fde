//! Running the loop: self-play and training in one process (`koma train`), or either alone on
//! a shared store (`koma selfplay`, `koma trainer`).

use crate::config::RunConfig;
use crate::metrics::Metrics;
use crate::status;
use crate::trainer::Trainer;
use anyhow::Context;
use koma_model::{DeviceChoice, Model};
use koma_rules::Variant;
use koma_selfplay::backoff::{sleep_unless, Backoff};
use koma_selfplay::{
    publish, InferenceServer, Reloader, Stats, Store, StoreError, StoreOptions, StoreUrl, Uploader,
    Worker,
};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tch::Device;

/// What to run and for how long.
#[derive(Clone)]
pub struct RunOptions {
    /// The run directory (store, checkpoints, TensorBoard events).
    pub run_dir: PathBuf,
    /// Configuration.
    pub config: RunConfig,
    /// Variant.
    pub variant: Arc<Variant>,
    /// Stop after this many minutes.
    pub minutes: Option<f64>,
    /// Stop after this many training steps (trainer side).
    pub max_steps: Option<u64>,
    /// Stop after this many games (self-play side, per worker).
    pub max_games: Option<u64>,
    /// Set from outside (Ctrl-C) to stop cleanly.
    pub stop: Arc<AtomicBool>,
    /// Prefix of this process's worker ids in the store.
    pub worker_prefix: String,
    /// The store (default: the run directory's `store/`).
    pub store: StoreUrl,
    /// Settings of the store's connection.
    pub store_options: StoreOptions,
}

/// Parses a device setting: `auto`, `cpu`, `cuda` or `cuda:N`.
pub fn parse_device(s: &str) -> anyhow::Result<Device> {
    Ok(s.parse::<DeviceChoice>()?.resolve()?)
}

fn open_store(opts: &RunOptions) -> anyhow::Result<Arc<Store>> {
    let store = Store::open(&opts.store, &opts.store_options)?;
    tracing::info!("store: {}", store.url());
    Ok(Arc::new(store))
}

fn load_published(
    store: &Store,
    l: &publish::Latest,
    cache: &Path,
    variant: &Arc<Variant>,
    device: Device,
) -> Result<Model, StoreError> {
    let stem = publish::download(store, l, cache)?;
    Model::load(&stem, variant, None, device).map_err(|e| StoreError::BadModel {
        key: l.key.clone(),
        reason: e.to_string(),
    })
}

/// Loads the newest published model, waiting for one (and for the store) unless stopped.
fn newest_model(
    store: &Store,
    cache: &Path,
    variant: &Arc<Variant>,
    opts: &RunOptions,
    device: Device,
) -> anyhow::Result<Option<Model>> {
    let mut wait = Backoff::new(Duration::from_secs(2), Duration::from_secs(30));
    loop {
        match publish::latest(store) {
            Ok(Some(l)) => match load_published(store, &l, cache, variant, device) {
                Ok(m) => {
                    tracing::info!(step = l.step, "self-play starts with model {}", l.key);
                    return Ok(Some(m));
                }
                Err(e) => tracing::warn!("{e}; waiting for a usable published model"),
            },
            Ok(None) => tracing::info!("waiting for a published model in {}", store.url()),
            Err(e) => tracing::warn!("reading the published model record: {e}"),
        }
        if !sleep_unless(&opts.stop, wait.fail()) {
            return Ok(None);
        }
    }
}

/// The evaluator's model source: loads each newly published model. A model whose weights do
/// not match their record, or that does not load, is rejected once and skipped until the
/// record changes; the workers keep the model they have.
fn reloader(
    store: Arc<Store>,
    cache: PathBuf,
    variant: Arc<Variant>,
    device: Device,
    mut step: u64,
) -> Reloader {
    let mut rejected: Option<publish::Latest> = None;
    let mut wait = Backoff::store();
    Box::new(move || {
        if !wait.ready() {
            return None;
        }
        let l = match publish::latest(&store) {
            Ok(Some(l)) => l,
            Ok(None) => return None,
            Err(e) => {
                let d = wait.fail();
                tracing::warn!(
                    "looking for new models: {e}; self-play goes on with model {step}, next look in {}s",
                    d.as_secs()
                );
                return None;
            }
        };
        if l.step <= step || rejected.as_ref() == Some(&l) {
            wait.succeed();
            return None;
        }
        match load_published(&store, &l, &cache, &variant, device) {
            Ok(m) => {
                wait.succeed();
                step = l.step;
                tracing::info!(step, "self-play switched to model {}", l.key);
                Some(m)
            }
            Err(e @ StoreError::BadModel { .. }) => {
                tracing::warn!("rejected published model: {e}; self-play keeps model {step}");
                rejected = Some(l);
                None
            }
            Err(e) => {
                let d = wait.fail();
                tracing::warn!(
                    "downloading model {}: {e}; self-play keeps model {step}, next try in {}s",
                    l.key,
                    d.as_secs()
                );
                None
            }
        }
    })
}

/// Follows the published models on a thread of its own, so that a download or an unreachable
/// store never holds up the evaluator; the evaluator takes each loaded model between batches.
fn follow_models(mut find: Reloader, stop: Arc<AtomicBool>, every: Duration) -> Reloader {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("model-follower".into())
        .spawn(move || {
            while sleep_unless(&stop, every) {
                if let Some(m) = find() {
                    if tx.send(m).is_err() {
                        return;
                    }
                }
            }
        })
        .expect("the model follower thread starts");
    Box::new(move || rx.try_iter().last())
}

/// Self-play threads with their evaluator.
struct SelfplayRig {
    server: InferenceServer,
    uploader: Uploader,
    workers: Vec<std::thread::JoinHandle<Result<(), koma_selfplay::StoreError>>>,
    stats: Arc<Stats>,
    stop: Arc<AtomicBool>,
}

fn start_selfplay(
    opts: &RunOptions,
    store: Arc<Store>,
    device: Device,
) -> anyhow::Result<Option<SelfplayRig>> {
    let cache = opts.run_dir.join("cache").join(&opts.worker_prefix);
    let Some(model) = newest_model(&store, &cache, &opts.variant, opts, device)? else {
        return Ok(None);
    };
    let stats = Arc::new(Stats::default());
    let sp = &opts.config.selfplay;
    let stop = Arc::new(AtomicBool::new(false));
    let step = model.meta.step;
    let server = InferenceServer::start(
        model,
        sp.max_batch,
        stats.clone(),
        follow_models(
            reloader(store.clone(), cache, opts.variant.clone(), device, step),
            stop.clone(),
            Duration::from_secs(3),
        ),
        Duration::from_millis(500),
    );
    let uploader = Uploader::start(store.clone(), stats.clone(), Duration::from_secs(30));
    let mut workers = Vec::new();
    for i in 0..sp.workers.max(1) {
        let w = Worker {
            id: format!("{}-{i}", opts.worker_prefix),
            variant: opts.variant.clone(),
            client: server.client(),
            store: store.clone(),
            spool: opts.run_dir.join("spool"),
            uploads: uploader.sender(),
            cfg: sp.clone(),
            stop: stop.clone(),
            stats: stats.clone(),
            seed: rand::random(),
            max_games: opts.max_games,
        };
        workers.push(
            std::thread::Builder::new()
                .name(format!("selfplay-{i}"))
                .spawn(move || w.run())?,
        );
    }
    Ok(Some(SelfplayRig {
        server,
        uploader,
        workers,
        stats,
        stop,
    }))
}

impl SelfplayRig {
    fn finished(&self) -> bool {
        self.workers.iter().all(|w| w.is_finished())
    }

    fn stop(self) -> anyhow::Result<()> {
        self.stop.store(true, Ordering::Relaxed);
        let mut result = Ok(());
        for w in self.workers {
            match w.join() {
                Ok(r) => {
                    if let Err(e) = r {
                        result = Err(e.into());
                    }
                }
                Err(_) => result = Err(anyhow::anyhow!("a self-play worker panicked")),
            }
        }
        self.server.shutdown();
        // Sealed chunks go to the store before the process ends (or stay in the spool).
        self.uploader.finish();
        result
    }
}

/// Self-play figures between two readings, for logs and TensorBoard.
struct Rates {
    at: Instant,
    games: u64,
    moves: u64,
    evaluated: u64,
    batches: u64,
    busy_ns: u64,
}

impl Rates {
    fn new(s: &Stats) -> Rates {
        Rates {
            at: Instant::now(),
            games: Stats::get(&s.games),
            moves: Stats::get(&s.moves),
            evaluated: Stats::get(&s.evaluated),
            batches: Stats::get(&s.batches),
            busy_ns: Stats::get(&s.busy_ns),
        }
    }

    /// Logs and records the rates since the last reading, then resets.
    fn report(&mut self, s: &Stats, m: &mut Metrics, step: u64) -> (f64, f64) {
        let now = Rates::new(s);
        let dt = now.at.duration_since(self.at).as_secs_f64().max(1e-9);
        let games = (now.games - self.games) as f64;
        let moves = (now.moves - self.moves) as f64;
        let evals = (now.evaluated - self.evaluated) as f64;
        let batches = (now.batches - self.batches).max(1) as f64;
        let busy = (now.busy_ns - self.busy_ns) as f64 / 1e9;
        m.scalar("selfplay/games_per_second", games / dt, step);
        m.scalar("selfplay/positions_per_second", moves / dt, step);
        m.scalar("evaluator/positions_per_second", evals / dt, step);
        m.scalar("evaluator/batch_size", evals / batches, step);
        m.scalar("evaluator/utilisation", busy / dt, step);
        let total = Stats::get(&s.games).max(1) as f64;
        m.scalar(
            "selfplay/game_length",
            Stats::get(&s.moves) as f64 / total,
            step,
        );
        m.scalar(
            "results/black_win_rate",
            Stats::get(&s.black_wins) as f64 / total,
            step,
        );
        m.scalar(
            "results/white_win_rate",
            Stats::get(&s.white_wins) as f64 / total,
            step,
        );
        m.scalar(
            "results/draw_rate",
            Stats::get(&s.draws) as f64 / total,
            step,
        );
        m.scalar(
            "results/resign_rate",
            Stats::get(&s.resignations) as f64 / total,
            step,
        );
        *self = now;
        (games / dt, moves / dt)
    }
}

fn deadline(opts: &RunOptions) -> Option<Instant> {
    opts.minutes
        .map(|m| Instant::now() + Duration::from_secs_f64(m * 60.0))
}

fn eta(deadline: Option<Instant>) -> String {
    deadline.map_or("until stopped".into(), |d| {
        format!(
            "{:.0}s left",
            d.saturating_duration_since(Instant::now()).as_secs_f64()
        )
    })
}

/// Self-play and training together in one process.
pub fn train(opts: &RunOptions) -> anyhow::Result<()> {
    let device = parse_device(&opts.config.device)?;
    tch::set_num_threads(opts.config.threads());
    let store = open_store(opts)?;
    let mut trainer = Trainer::open(
        &opts.run_dir,
        &opts.variant,
        &opts.config,
        device,
        store.clone(),
    )?;
    let Some(rig) = start_selfplay(opts, store, device)? else {
        return Ok(());
    };
    let end = deadline(opts);
    tracing::info!(
        variant = %opts.variant.id,
        run_dir = %opts.run_dir.display(),
        step = trainer.state.step,
        "training ({})", eta(end)
    );
    let mut rates = Rates::new(&rig.stats);
    let mut step_rate = StepRate::new(trainer.state.step);
    let mut last_report = Instant::now();
    let mut last_ingest = Instant::now() - Duration::from_secs(60);
    let mut last_loss = None;
    let result = (|| -> anyhow::Result<()> {
        loop {
            let out_of_time = end.is_some_and(|d| Instant::now() >= d);
            let out_of_steps = opts.max_steps.is_some_and(|m| trainer.state.step >= m);
            if opts.stop.load(Ordering::Relaxed) || out_of_time || out_of_steps || rig.finished() {
                return Ok(());
            }
            if last_ingest.elapsed() >= Duration::from_secs(2) {
                trainer.ingest()?;
                last_ingest = Instant::now();
            }
            if trainer.can_train() {
                last_loss = Some(trainer.train_step()?);
            } else {
                std::thread::sleep(Duration::from_millis(200));
            }
            if last_report.elapsed() >= Duration::from_secs(15) {
                let step = trainer.state.step;
                let (gps, pps) = rates.report(&rig.stats, trainer.metrics(), step);
                tracing::info!(
                    step,
                    games = Stats::get(&rig.stats.games),
                    window = trainer.window_len(),
                    games_per_s = format!("{gps:.2}"),
                    positions_per_s = format!("{pps:.1}"),
                    policy_loss = last_loss
                        .map(|l| format!("{:.3}", l.policy))
                        .unwrap_or_default(),
                    value_loss = last_loss
                        .map(|l| format!("{:.3}", l.value))
                        .unwrap_or_default(),
                    material_loss = last_loss
                        .map(|l| format!("{:.4}", l.material))
                        .unwrap_or_default(),
                    "training ({})",
                    eta(end)
                );
                write_status(&trainer, &mut step_rate);
                last_report = Instant::now();
            }
        }
    })();
    let step = trainer.state.step;
    rates.report(&rig.stats, trainer.metrics(), step);
    rig.stop()?;
    trainer.ingest_final()?;
    finish_trainer(&mut trainer, &mut step_rate)?;
    tracing::info!(
        step = trainer.state.step,
        games = trainer.state.games_ingested,
        "training stopped; checkpoint written"
    );
    result
}

/// Self-play only, on the run directory's store, following the published models.
pub fn selfplay(opts: &RunOptions) -> anyhow::Result<()> {
    let device = parse_device(&opts.config.device)?;
    tch::set_num_threads(opts.config.threads());
    let store = open_store(opts)?;
    let Some(rig) = start_selfplay(opts, store, device)? else {
        return Ok(());
    };
    let end = deadline(opts);
    let mut metrics = Metrics::new(
        &opts
            .run_dir
            .join("tb")
            .join(format!("selfplay-{}", opts.worker_prefix)),
    );
    let mut rates = Rates::new(&rig.stats);
    let started = Instant::now();
    while !opts.stop.load(Ordering::Relaxed)
        && end.is_none_or(|d| Instant::now() < d)
        && !rig.finished()
    {
        std::thread::sleep(Duration::from_millis(500));
        if rates.at.elapsed() >= Duration::from_secs(15) {
            let t = started.elapsed().as_secs();
            let (gps, pps) = rates.report(&rig.stats, &mut metrics, t);
            tracing::info!(
                games = Stats::get(&rig.stats.games),
                chunks_uploaded = Stats::get(&rig.stats.chunks),
                chunks_waiting = Stats::get(&rig.stats.chunks_waiting),
                games_per_s = format!("{gps:.2}"),
                positions_per_s = format!("{pps:.1}"),
                "self-play ({})",
                eta(end)
            );
            metrics.flush();
        }
    }
    let stats = rig.stats.clone();
    let stopped = rig.stop();
    metrics.flush();
    tracing::info!(
        games = Stats::get(&stats.games),
        chunks_uploaded = Stats::get(&stats.chunks),
        chunks_waiting = Stats::get(&stats.chunks_waiting),
        "self-play stopped"
    );
    stopped
}

/// Training only, on the run directory's store.
pub fn trainer(opts: &RunOptions) -> anyhow::Result<()> {
    let device = parse_device(&opts.config.device)?;
    tch::set_num_threads(opts.config.threads());
    let store = open_store(opts)?;
    let mut trainer = Trainer::open(&opts.run_dir, &opts.variant, &opts.config, device, store)
        .context("opening the trainer")?;
    let end = deadline(opts);
    let mut step_rate = StepRate::new(trainer.state.step);
    write_status(&trainer, &mut step_rate);
    let mut last_report = Instant::now();
    let mut last_ingest = Instant::now() - Duration::from_secs(60);
    loop {
        let out_of_time = end.is_some_and(|d| Instant::now() >= d);
        let out_of_steps = opts.max_steps.is_some_and(|m| trainer.state.step >= m);
        if opts.stop.load(Ordering::Relaxed) || out_of_time || out_of_steps {
            break;
        }
        if last_ingest.elapsed() >= Duration::from_secs(2) {
            trainer.ingest()?;
            last_ingest = Instant::now();
        }
        if trainer.can_train() {
            trainer.train_step()?;
        } else {
            std::thread::sleep(Duration::from_millis(200));
        }
        if last_report.elapsed() >= Duration::from_secs(15) {
            tracing::info!(
                step = trainer.state.step,
                positions = trainer.state.positions_ingested,
                window = trainer.window_len(),
                "trainer ({})",
                eta(end)
            );
            write_status(&trainer, &mut step_rate);
            last_report = Instant::now();
        }
    }
    trainer.ingest_final()?;
    finish_trainer(&mut trainer, &mut step_rate)
}

/// Steps per second between status records.
struct StepRate {
    at: Instant,
    step: u64,
}

impl StepRate {
    fn new(step: u64) -> StepRate {
        StepRate {
            at: Instant::now(),
            step,
        }
    }

    fn take(&mut self, step: u64) -> f64 {
        let dt = self.at.elapsed().as_secs_f64().max(1e-9);
        let r = step.saturating_sub(self.step) as f64 / dt;
        *self = StepRate::new(step);
        r
    }
}

/// Writes the trainer's status record; an unreachable store only costs a debug line.
fn write_status(trainer: &Trainer, rate: &mut StepRate) {
    let s = trainer.status(rate.take(trainer.state.step));
    if let Err(e) = status::write(trainer.store(), &s) {
        tracing::debug!("writing the trainer status: {e}");
    }
}

/// The end of a trainer run: a checkpoint (local), then the model and status to the store,
/// tried for up to 30 s; what the store did not take is published at the next start.
fn finish_trainer(trainer: &mut Trainer, rate: &mut StepRate) -> anyhow::Result<()> {
    trainer.checkpoint()?;
    let never = AtomicBool::new(false);
    let give_up = Instant::now() + Duration::from_secs(30);
    let mut wait = Backoff::new(Duration::from_secs(1), Duration::from_secs(8));
    loop {
        match trainer.publish() {
            Ok(_) => break,
            Err(e) if Instant::now() < give_up => {
                let d = wait.fail();
                tracing::warn!(
                    "publishing the final model: {e:#}; trying again in {}s",
                    d.as_secs()
                );
                sleep_unless(&never, d);
            }
            Err(e) => {
                tracing::warn!(
                    "publishing the final model: {e:#}; it is in the checkpoint and is published at the next start"
                );
                break;
            }
        }
    }
    write_status(trainer, rate);
    trainer.metrics().flush();
    Ok(())
}

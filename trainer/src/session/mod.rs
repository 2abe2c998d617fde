//! Running the loop: self-play and training in one process (`koma train`), or either alone on
//! a shared store (`koma selfplay`, `koma trainer`).
//!
//! - [`options`]: what a run is told (directory, configuration, limits, store);
//! - [`follow`]: the published models self-play starts with and switches to;
//! - [`rig`]: self-play threads with their evaluator and uploader;
//! - [`rates`]: self-play figures for logs and TensorBoard;
//! - [`finish`]: the trainer's status record and the end of a trainer run.

pub mod finish;
pub mod follow;
pub mod options;
pub mod rates;
pub mod rig;

pub use options::{eta, parse_device, RunOptions};

use crate::metrics::Metrics;
use crate::schedule::RunSpan;
use crate::trainer::Trainer;
use anyhow::Context;
use finish::{finish_trainer, write_status, StepRate};
use koma_selfplay::Stats;
use rates::Rates;
use rig::SelfplayRig;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Self-play and training together in one process.
pub fn train(opts: &RunOptions) -> anyhow::Result<()> {
    let device = parse_device(&opts.config.device)?;
    tch::set_num_threads(opts.config.threads());
    let store = opts.open_store()?;
    let mut trainer = Trainer::open(
        &opts.run_dir,
        &opts.variant,
        &opts.config,
        device,
        store.clone(),
    )?;
    let Some(rig) = SelfplayRig::start(opts, store, device)? else {
        return Ok(());
    };
    let end = opts.deadline();
    let span = RunSpan::new(end, trainer.state.step, opts.max_steps);
    trainer.set_span(span);
    tracing::info!(
        variant = %opts.variant.id,
        run_dir = %opts.run_dir.display(),
        step = trainer.state.step,
        "training ({})", eta(end)
    );
    let mut rates = Rates::new(&rig);
    let mut step_rate = StepRate::new(trainer.state.step);
    let mut last_report = Instant::now();
    let mut last_ingest = Instant::now() - Duration::from_secs(60);
    let mut last_loss = None;
    let result = (|| -> anyhow::Result<()> {
        loop {
            if opts.stop.load(Ordering::Relaxed)
                || span.is_over(trainer.state.step)
                || rig.finished()
            {
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
                let (gps, pps) = rates.report(&rig, trainer.metrics(), step);
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
    rates.report(&rig, trainer.metrics(), step);
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
    let store = opts.open_store()?;
    let Some(rig) = SelfplayRig::start(opts, store, device)? else {
        return Ok(());
    };
    let end = opts.deadline();
    let mut metrics = Metrics::new(
        &opts
            .run_dir
            .join("tb")
            .join(format!("selfplay-{}", opts.worker_prefix)),
    );
    let mut rates = Rates::new(&rig);
    let started = Instant::now();
    while !opts.stop.load(Ordering::Relaxed)
        && end.is_none_or(|d| Instant::now() < d)
        && !rig.finished()
    {
        std::thread::sleep(Duration::from_millis(500));
        if rates.at.elapsed() >= Duration::from_secs(15) {
            let t = started.elapsed().as_secs();
            let (gps, pps) = rates.report(&rig, &mut metrics, t);
            tracing::info!(
                games = Stats::get(&rig.stats.games),
                chunks_uploaded = rig.uploads.uploaded(),
                chunks_waiting = rig.uploads.waiting(),
                games_per_s = format!("{gps:.2}"),
                positions_per_s = format!("{pps:.1}"),
                "self-play ({})",
                eta(end)
            );
            metrics.flush();
        }
    }
    let stats = rig.stats.clone();
    let uploads = rig.uploads.clone();
    let stopped = rig.stop();
    metrics.flush();
    tracing::info!(
        games = Stats::get(&stats.games),
        chunks_uploaded = uploads.uploaded(),
        chunks_waiting = uploads.waiting(),
        "self-play stopped"
    );
    stopped
}

/// Training only, on the run directory's store.
pub fn trainer(opts: &RunOptions) -> anyhow::Result<()> {
    let device = parse_device(&opts.config.device)?;
    tch::set_num_threads(opts.config.threads());
    let store = opts.open_store()?;
    let mut trainer = Trainer::open(&opts.run_dir, &opts.variant, &opts.config, device, store)
        .context("opening the trainer")?;
    let end = opts.deadline();
    let span = RunSpan::new(end, trainer.state.step, opts.max_steps);
    trainer.set_span(span);
    let mut step_rate = StepRate::new(trainer.state.step);
    write_status(&trainer, &mut step_rate);
    let mut last_report = Instant::now();
    let mut last_ingest = Instant::now() - Duration::from_secs(60);
    // When the trainer began to wait for data, and whether it said so.
    let mut waiting: Option<(Instant, bool)> = None;
    loop {
        if opts.stop.load(Ordering::Relaxed) || span.is_over(trainer.state.step) {
            break;
        }
        if last_ingest.elapsed() >= Duration::from_secs(2) {
            trainer.ingest()?;
            last_ingest = Instant::now();
        }
        if trainer.can_train() {
            trainer.train_step()?;
            waiting = None;
        } else {
            // Said once a wait has lasted 30 s: with no self-play writing to the store (a
            // supervised start on teacher games) it lasts until stopped.
            let since = *waiting.get_or_insert((Instant::now(), false));
            if !since.1 && since.0.elapsed() >= Duration::from_secs(30) {
                tracing::info!(
                    step = trainer.state.step,
                    positions = trainer.state.positions_ingested,
                    window = trainer.window_len(),
                    "the trainer has waited 30 s for new games (it has trained target_ratio = {} \
                     times the positions taken in, or holds fewer than min_positions)",
                    opts.config.trainer.target_ratio
                );
                waiting = Some((since.0, true));
            }
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

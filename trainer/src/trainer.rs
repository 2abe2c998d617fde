//! The training loop's state and steps: ingest chunks, draw batches, optimise, publish models,
//! write checkpoints, resume after a crash.

use crate::checkpoint::{self, TrainerState};
use crate::config::RunConfig;
use crate::index::{IngestIndex, Ingested};
use crate::listing::{ChunkListing, SWEEP_EVERY};
use crate::metrics::Metrics;
use crate::optimizer::Sgd;
use crate::publishing::publish_model;
use crate::replay::{samples_of, ReplayWindow, TargetRule, TrainingBatch};
use crate::schedule::{self, RunSpan};
use anyhow::Context;
use koma_model::{Model, ModelError};
use koma_rules::{PieceValues, Variant};
use koma_store::backoff::Backoff;
use koma_store::{chunk, publish, ChunkName, Store, StoreError};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tch::{Device, Kind, Tensor};

/// Losses of one step.
#[derive(Debug, Clone, Copy)]
pub struct StepLosses {
    /// Policy cross-entropy.
    pub policy: f64,
    /// Value cross-entropy.
    pub value: f64,
    /// Material squared error.
    pub material: f64,
}

/// Chunks fetched from the store at once.
const FETCH_BATCH: usize = 64;

/// Chunks recorded in the ingest index per commit.
const INDEX_BATCH: usize = 1024;

/// One ingest pass: how long listing the store took, whether it listed every chunk, the keys
/// it listed and the chunks it took in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PassStats {
    /// Time spent listing.
    pub listing: std::time::Duration,
    /// Whether the pass listed every chunk (a sweep).
    pub full: bool,
    /// Keys listed.
    pub keys: usize,
    /// Chunks taken in.
    pub ingested: usize,
}

/// The trainer.
pub struct Trainer {
    variant: Arc<Variant>,
    cfg: RunConfig,
    model: Model,
    opt: Sgd,
    /// Counters saved in checkpoints.
    pub state: TrainerState,
    window: ReplayWindow,
    /// Teacher games' positions, apart from the window (`[trainer] teacher_share`).
    teacher: ReplayWindow,
    index: IngestIndex,
    store: Arc<Store>,
    dir: PathBuf,
    metrics: Metrics,
    rng: StdRng,
    targets: TargetRule,
    /// Waits between tries while the store is unreachable.
    store_wait: Backoff,
    /// A publish failed on a store outage and is tried again.
    publish_pending: bool,
    /// Ingest passes since the last look for chunks to delete.
    passes_since_prune: u32,
    /// Finds new chunks without listing them all.
    listing: ChunkListing,
    /// The last ingest pass.
    last_pass: PassStats,
    /// The newest step already published when this trainer opened: a trainer resumed from an
    /// older checkpoint (its newest was damaged) publishes nothing until it passes it, so the
    /// store's models and LATEST never go back.
    published_through: Option<u64>,
    /// The limits of this run, which the learning rate's fall at the end follows.
    span: Option<RunSpan>,
}

/// A checkpoint loaded to resume from: its directory, the model, the counters, the optimiser.
type Resumed = (PathBuf, Model, TrainerState, Sgd);

/// Loads the newest checkpoint that passes its manifest and loads. One that fails is named in
/// the log and set aside, and the one before it is tried; `None` when there is no checkpoint.
/// Checkpoints that exist but all fail are an error: starting over would throw the run away.
fn resume(
    dir: &Path,
    variant: &Arc<Variant>,
    cfg: &RunConfig,
    device: Device,
) -> anyhow::Result<Option<Resumed>> {
    let mut failed = Vec::new();
    for ck in checkpoint::candidates(dir) {
        let loaded = checkpoint::verify(&ck).and_then(|()| {
            let state = checkpoint::read_state(&ck)?;
            let model = Model::load(&ck.join("weights"), variant, Some(&cfg.model), device)?;
            let mut opt = Sgd::new(
                model.var_store(),
                cfg.trainer.momentum,
                cfg.trainer.weight_decay,
            );
            opt.load(&ck.join("optimizer.safetensors"))
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            Ok((model, state, opt))
        });
        match loaded {
            Ok((model, state, opt)) => return Ok(Some((ck, model, state, opt))),
            Err(e) => {
                // Another network than the configuration's is not damage: the run was started
                // with other settings, and setting its checkpoints aside would lose it.
                if let Some((found, expected)) = wrong_architecture(&e) {
                    anyhow::bail!(
                        "{}: the run trains a network {found} but the configuration asks for \
                         {expected}; resume it with the configuration it was started with \
                         (--config FILE with that [model]), or start another run (--run-dir)",
                        ck.display()
                    );
                }
                let aside = checkpoint::set_aside(&ck)?;
                tracing::error!(
                    "checkpoint {} is damaged ({e:#}); set aside as {}, trying the one before it",
                    ck.display(),
                    aside.display()
                );
                failed.push(format!("{}: {e:#}", ck.display()));
            }
        }
    }
    anyhow::ensure!(
        failed.is_empty(),
        "every checkpoint in {} is damaged (set aside with the suffix {}): {}",
        dir.display(),
        checkpoint::DAMAGED_SUFFIX,
        failed.join("; ")
    );
    Ok(None)
}

/// The architectures (found, expected) when a checkpoint failed to load for being another
/// network than the configuration's.
fn wrong_architecture(e: &anyhow::Error) -> Option<(String, String)> {
    e.chain()
        .find_map(|c| match c.downcast_ref::<ModelError>() {
            Some(ModelError::WrongArchitecture {
                found, expected, ..
            }) => Some((found.clone(), expected.clone())),
            _ => None,
        })
}

/// Whether an error is the store failing (an outage to ride out) rather than a fault of koma's
/// own state.
fn is_store_outage(e: &anyhow::Error) -> bool {
    matches!(
        e.downcast_ref::<StoreError>(),
        Some(StoreError::Backend { .. })
    )
}

impl Trainer {
    /// Opens the trainer of `run_dir`: resumes from its checkpoint if there is one (dropping
    /// index entries newer than the checkpoint, so those chunks are taken in again), else starts
    /// fresh and publishes the initial model.
    pub fn open(
        run_dir: &Path,
        variant: &Arc<Variant>,
        cfg: &RunConfig,
        device: Device,
        store: Arc<Store>,
    ) -> anyhow::Result<Trainer> {
        let dir = run_dir.join("trainer");
        std::fs::create_dir_all(&dir).with_context(|| dir.display().to_string())?;
        let index = IngestIndex::open(&dir.join("index.redb"))?;
        let (mut model, state, opt) = match resume(&dir, variant, cfg, device)? {
            Some((ck, model, state, opt)) => {
                let dropped = index.truncate(state.chunks_ingested)?;
                tracing::info!(
                    step = state.step,
                    samples_trained = state.samples_trained,
                    chunks = state.chunks_ingested,
                    dropped_index_entries = dropped,
                    "resuming from checkpoint {}",
                    ck.display()
                );
                (model, state, opt)
            }
            None => {
                let model = Model::new(variant, &cfg.model, device);
                let opt = Sgd::new(
                    model.var_store(),
                    cfg.trainer.momentum,
                    cfg.trainer.weight_decay,
                );
                let state = TrainerState {
                    seed: rand::random(),
                    ..TrainerState::default()
                };
                (model, state, opt)
            }
        };
        let training = cfg
            .training_precision_choice()
            .map_err(|e| anyhow::anyhow!("[trainer] {e}"))?
            .resolve(device);
        model.set_training_precision(training);
        tracing::info!("training passes' convolutions: {training:?}");
        let rng = StdRng::seed_from_u64(state.seed ^ state.step.wrapping_mul(0x9E37_79B9));
        let mut t = Trainer {
            variant: variant.clone(),
            cfg: cfg.clone(),
            model,
            opt,
            state,
            window: ReplayWindow::new(cfg.trainer.window_positions),
            teacher: ReplayWindow::new(cfg.trainer.teacher_positions),
            index,
            store,
            metrics: Metrics::new(&run_dir.join("tb").join("trainer")),
            dir,
            rng,
            targets: TargetRule {
                values: PieceValues::new(variant),
                horizon: cfg.trainer.material_horizon,
                q_share: cfg.trainer.value_target_q as f32,
                half_life: cfg.trainer.value_half_life_for(variant) as f32,
            },
            store_wait: Backoff::store(),
            publish_pending: false,
            passes_since_prune: 0,
            listing: ChunkListing::new(SWEEP_EVERY),
            last_pass: PassStats::default(),
            published_through: None,
            span: None,
        };
        // The store must answer before anything else: wait for it (an outage stalls, logged).
        let mut wait = Backoff::store();
        let latest = loop {
            match publish::latest(&t.store) {
                Ok(l) => break l,
                Err(e) => {
                    let d = wait.fail();
                    tracing::warn!(
                        "reading the store {}: {e}; trying again in {}s",
                        t.store.url(),
                        d.as_secs()
                    );
                    std::thread::sleep(d);
                }
            }
        };
        t.rebuild_window()?;
        if cfg.trainer.teacher_share > 0.0 {
            tracing::info!(
                positions = t.teacher.len(),
                share = cfg.trainer.teacher_share,
                prefix = %cfg.trainer.teacher_prefix,
                "teacher pool: koma teach's games kept apart from the replay window, in every batch"
            );
        }
        if let Some(l) = latest.as_ref().filter(|l| l.step > t.state.step) {
            tracing::warn!(
                "the store holds models up to step {}, past this checkpoint's step {}: they are \
                 kept, and this trainer publishes again from step {}",
                l.step,
                t.state.step,
                l.step + 1
            );
            t.published_through = Some(l.step);
        }
        // A fresh run publishes its initial model; a resumed one whose newest model never
        // reached the store (an outage at its end) publishes it now.
        if latest.is_none_or(|l| l.step < t.state.step) {
            t.publish_or_defer()?;
        }
        Ok(t)
    }

    /// The model being trained.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Positions in the replay window.
    pub fn window_len(&self) -> usize {
        self.window.len()
    }

    /// The metrics writer (the session adds self-play figures to it).
    pub fn metrics(&mut self) -> &mut Metrics {
        &mut self.metrics
    }

    /// Positions in the teacher pool (`[trainer] teacher_share`).
    pub fn teacher_len(&self) -> usize {
        self.teacher.len()
    }

    /// Whether the chunk under `key` goes to the teacher pool rather than the window.
    fn is_teacher_chunk(&self, key: &str) -> bool {
        ChunkName::parse_key(key).is_some_and(|c| self.cfg.trainer.is_teacher_worker(&c.worker))
    }

    /// Where the samples of the chunk under `key` are held: the teacher pool or the window.
    fn pool_for(&mut self, key: &str) -> &mut ReplayWindow {
        if self.is_teacher_chunk(key) {
            &mut self.teacher
        } else {
            &mut self.window
        }
    }

    fn rebuild_window(&mut self) -> anyhow::Result<()> {
        let pooled = self.cfg.trainer.teacher_share > 0.0;
        for (key, positions) in self.index.newest_first()? {
            if self.window.is_full() && (!pooled || self.teacher.is_full()) {
                break;
            }
            if positions == 0 || self.pool_for(&key).is_full() {
                continue;
            }
            let Some(bytes) = self.store.get(&key)? else {
                tracing::warn!("chunk {key} is in the index but not in the store");
                continue;
            };
            let records = match chunk::decode(&key, &bytes) {
                Ok(r) => r,
                Err(e) => {
                    tracing::warn!("{e}; skipped");
                    continue;
                }
            };
            let mut samples = Vec::new();
            for r in &records {
                if let Ok(s) = samples_of(r, &self.variant, &self.targets) {
                    samples.extend(s);
                }
            }
            self.pool_for(&key).push_old(samples);
        }
        Ok(())
    }

    /// Takes in chunks not yet ingested; a damaged chunk is reported, recorded and skipped.
    /// Returns the number of new training positions. While the store is unreachable it logs,
    /// takes nothing in and waits (backing off) before the next try; training goes on with the
    /// window. A publish that failed on an outage is retried here.
    pub fn ingest(&mut self) -> anyhow::Result<u64> {
        if !self.store_wait.ready() {
            return Ok(0);
        }
        let r = self.ingest_new().and_then(|n| {
            if self.publish_pending {
                self.publish()?;
                self.publish_pending = false;
            }
            self.maybe_prune()?;
            Ok(n)
        });
        match r {
            Ok(n) => {
                self.store_answers();
                Ok(n)
            }
            Err(e) if is_store_outage(&e) => {
                let d = self.store_wait.fail();
                tracing::warn!(
                    "trainer: {e:#}; training goes on with the window, the store is tried again in {}s",
                    d.as_secs()
                );
                Ok(0)
            }
            Err(e) => Err(e),
        }
    }

    /// Ingests now, whatever the wait after an earlier failure (the last pass before stopping).
    pub fn ingest_final(&mut self) -> anyhow::Result<u64> {
        self.store_wait.succeed();
        self.ingest()
    }

    /// Notes that the store answered, logging the end of an outage.
    fn store_answers(&mut self) {
        if self.store_wait.failures() > 0 {
            tracing::info!(
                "the store {} answers again after {} failed tries",
                self.store.url(),
                self.store_wait.failures()
            );
        }
        self.store_wait.succeed();
    }

    fn ingest_new(&mut self) -> anyhow::Result<u64> {
        let started = std::time::Instant::now();
        let listed = self.listing.pass(&self.store)?;
        self.last_pass = PassStats {
            listing: started.elapsed(),
            full: listed.full,
            keys: listed.keys.len(),
            ingested: 0,
        };
        let mut pending = Vec::new();
        let added = self.ingest_keys(listed.keys, &mut pending);
        // Chunks taken in before a failure are recorded too, or the next pass would take them
        // in twice.
        self.index.add_all(&pending)?;
        added
    }

    /// Takes in those of `keys` not ingested yet, leaving in `pending` the ones not yet
    /// recorded in the index.
    fn ingest_keys(
        &mut self,
        keys: Vec<String>,
        pending: &mut Vec<Ingested>,
    ) -> anyhow::Result<u64> {
        let mut added = 0;
        let mut fresh = Vec::new();
        for key in keys {
            if ChunkName::parse_key(&key).is_some() && !self.index.contains(&key)? {
                fresh.push(key);
            }
        }
        // Fetched a batch at a time, many requests in flight, then decoded in order.
        for batch in fresh.chunks(FETCH_BATCH) {
            let fetched = self.store.get_many(batch);
            for (key, bytes) in batch.iter().zip(fetched) {
                let Some(bytes) = bytes? else {
                    continue;
                };
                added += self.take_in(key.clone(), &bytes, pending)?;
            }
        }
        Ok(added)
    }

    /// Takes in one fetched chunk; returns its training positions.
    fn take_in(
        &mut self,
        key: String,
        bytes: &[u8],
        pending: &mut Vec<Ingested>,
    ) -> anyhow::Result<u64> {
        let (positions, games) = match chunk::decode(&key, bytes) {
            Ok(records) => {
                let mut samples = Vec::new();
                for r in &records {
                    match samples_of(r, &self.variant, &self.targets) {
                        Ok(s) => samples.extend(s),
                        Err(e) => tracing::warn!("chunk {key}: a game does not replay: {e}"),
                    }
                }
                let n = samples.len() as u64;
                self.pool_for(&key).push(samples);
                (n, records.len() as u64)
            }
            Err(e) => {
                tracing::warn!("{e}; skipped");
                (0, 0)
            }
        };
        pending.push(Ingested {
            key,
            order: self.state.chunks_ingested,
            positions,
            games,
        });
        self.state.chunks_ingested += 1;
        self.state.positions_ingested += positions;
        self.state.games_ingested += games;
        self.last_pass.ingested += 1;
        // Recorded in batches: the index commits (a disk sync) once per batch. A crash
        // before a commit loses nothing: the run resumes from a checkpoint taken after
        // one, and takes those chunks in again.
        if pending.len() >= INDEX_BATCH {
            self.index.add_all(pending)?;
            pending.clear();
        }
        Ok(positions)
    }

    /// What the last ingest pass listed and took in.
    pub fn last_pass(&self) -> PassStats {
        self.last_pass
    }

    /// Removes chunks that have left the replay window from the store, when so configured;
    /// each worker's newest chunk stays (workers continue their numbering from it).
    fn maybe_prune(&mut self) -> anyhow::Result<()> {
        if !self.cfg.trainer.delete_old_chunks {
            return Ok(());
        }
        self.passes_since_prune += 1;
        if self.passes_since_prune < 10 {
            return Ok(());
        }
        self.passes_since_prune = 0;
        let entries = self.index.newest_first()?;
        let mut newest: std::collections::HashMap<String, u64> = Default::default();
        for (k, _) in &entries {
            if let Some(c) = ChunkName::parse_key(k) {
                let e = newest.entry(c.worker).or_insert(c.seq);
                *e = (*e).max(c.seq);
            }
        }
        let mut held = 0u64;
        let mut removed = 0;
        for (key, positions) in entries {
            let Some(c) = ChunkName::parse_key(&key) else {
                continue;
            };
            // The teacher pool keeps its own chunks, and they do not count for the window.
            if self.cfg.trainer.is_teacher_worker(&c.worker) {
                continue;
            }
            if held < self.cfg.trainer.window_positions as u64 {
                held += positions;
                continue;
            }
            if newest.get(&c.worker) == Some(&c.seq) || self.index.is_deleted(&key)? {
                continue;
            }
            self.store.delete(&key)?;
            self.index.mark_deleted(&key)?;
            removed += 1;
        }
        if removed > 0 {
            tracing::info!(
                removed,
                "removed chunks that left the replay window from the store"
            );
        }
        Ok(())
    }

    /// Whether a step may run now: enough positions, and training not ahead of self-play by
    /// more than the target ratio.
    pub fn can_train(&self) -> bool {
        let c = &self.cfg.trainer;
        self.window.len() >= c.min_positions.max(1)
            && (self.state.samples_trained as f64)
                < c.target_ratio * self.state.positions_ingested as f64
    }

    /// Tells the trainer the limits of the run it serves (its deadline, its step limit), so
    /// that the learning rate can fall over the run's last stretch (`[trainer]
    /// anneal_fraction`).
    pub fn set_span(&mut self, span: RunSpan) {
        self.span = Some(span);
    }

    /// The learning rate at the current step.
    pub fn learning_rate(&self) -> f64 {
        let step = self.state.step;
        let progress = self.span.and_then(|s| s.progress(step));
        schedule::learning_rate(&self.cfg.trainer, step, progress)
    }

    /// The next step's batch: `[trainer] teacher_share` of it from the teacher pool while
    /// that holds positions, the rest from the replay window, each drawn uniformly.
    pub fn draw_batch(&mut self) -> TrainingBatch {
        let c = &self.cfg.trainer;
        let from_teacher = if self.teacher.is_empty() {
            0
        } else {
            ((c.teacher_share * c.batch_size as f64).round() as usize).min(c.batch_size)
        };
        let mut tb = self.window.draw(
            c.batch_size - from_teacher,
            &self.model,
            &self.variant,
            &mut self.rng,
        );
        if from_teacher > 0 {
            tb.append(
                self.teacher
                    .draw(from_teacher, &self.model, &self.variant, &mut self.rng),
            );
        }
        tb
    }

    /// One optimisation step.
    pub fn train_step(&mut self) -> anyhow::Result<StepLosses> {
        let c = self.cfg.trainer.clone();
        let tb = self.draw_batch();
        let n = tb.requests.len();
        anyhow::ensure!(n > 0, "the replay window yielded no sample");
        let refs: Vec<&koma_model::Request> = tb.requests.iter().collect();
        let dev = self.model.device();
        let batch = self.model.training_batch(&refs);
        let out = self.model.forward(&batch, true);
        let logp = self.model.move_log_probs(&out, &batch);
        let pt = Tensor::from_slice(&tb.policy).to_device(dev);
        let wt = Tensor::from_slice(&tb.wdl)
            .reshape([n as i64, 3])
            .to_device(dev);
        let policy = -(logp * pt).sum(Kind::Float) / n as f64;
        let value = -(out.wdl_logits.log_softmax(1, Kind::Float) * wt).sum(Kind::Float) / n as f64;
        let mt = Tensor::from_slice(&tb.material).to_device(dev);
        let material = (&out.material - mt).square().mean(Kind::Float);
        let loss = &policy + &value * c.value_weight + &material * c.material_weight;
        let lr = self.learning_rate();
        self.opt.zero_grad();
        self.model.backward(&loss, &out)?;
        let grad_norm = self.opt.step(lr);
        self.state.step += 1;
        self.state.samples_trained += n as u64;
        self.model.meta.step = self.state.step;
        self.model.meta.games = self.state.games_ingested;
        let losses = StepLosses {
            policy: policy.double_value(&[]),
            value: value.double_value(&[]),
            material: material.double_value(&[]),
        };
        let s = self.state.step;
        if s.is_multiple_of(10) || s == 1 {
            let m = &mut self.metrics;
            let c = &c;
            m.scalar("loss/policy", losses.policy, s);
            m.scalar("loss/value", losses.value, s);
            m.scalar("loss/material", losses.material, s);
            m.scalar(
                "loss/total",
                losses.policy + c.value_weight * losses.value + c.material_weight * losses.material,
                s,
            );
            m.scalar("train/learning_rate", lr, s);
            m.scalar("train/grad_norm", grad_norm, s);
            m.scalar("train/window_positions", self.window.len() as f64, s);
            if !self.teacher.is_empty() {
                m.scalar("train/teacher_positions", self.teacher.len() as f64, s);
            }
            m.scalar(
                "train/samples_per_position",
                self.state.samples_trained as f64 / self.state.positions_ingested.max(1) as f64,
                s,
            );
        }
        if c.publish_every > 0 && s.is_multiple_of(c.publish_every) {
            self.publish_or_defer()?;
        }
        if c.checkpoint_every > 0 && s.is_multiple_of(c.checkpoint_every) {
            self.checkpoint()?;
        }
        Ok(losses)
    }

    /// Publishes the current weights.
    pub fn publish(&mut self) -> anyhow::Result<publish::Latest> {
        self.model.meta.step = self.state.step;
        self.model.meta.games = self.state.games_ingested;
        let l = publish_model(&self.store, &self.model, &self.dir.join("scratch"))?;
        tracing::info!(step = l.step, "published model {}", l.key);
        Ok(l)
    }

    /// Publishes, or on a store outage logs it and leaves it to the next ingest pass.
    pub fn publish_or_defer(&mut self) -> anyhow::Result<()> {
        if self.published_through.is_some_and(|s| self.state.step <= s) {
            return Ok(());
        }
        if !self.store_wait.ready() {
            // The store is down: the next ingest pass publishes the newest weights.
            self.publish_pending = true;
            return Ok(());
        }
        match self.publish() {
            Ok(_) => {
                self.publish_pending = false;
                self.store_answers();
                Ok(())
            }
            Err(e) if is_store_outage(&e) => {
                let d = self.store_wait.fail();
                tracing::warn!(
                    "publishing the model of step {}: {e:#}; it is published when the store answers (next try in {}s)",
                    self.state.step,
                    d.as_secs()
                );
                self.publish_pending = true;
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// The trainer's counters as a status record.
    pub fn status(&self, steps_per_second: f64) -> crate::status::TrainerStatus {
        crate::status::TrainerStatus {
            step: self.state.step,
            window_positions: self.window.len() as u64,
            positions_ingested: self.state.positions_ingested,
            games_ingested: self.state.games_ingested,
            chunks_ingested: self.state.chunks_ingested,
            samples_trained: self.state.samples_trained,
            steps_per_second,
            updated: crate::status::now(),
            host: crate::status::host_name(),
        }
    }

    /// The store.
    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// Writes a full checkpoint.
    pub fn checkpoint(&mut self) -> anyhow::Result<PathBuf> {
        self.metrics.flush();
        let model = &self.model;
        let opt = &self.opt;
        checkpoint::write(&self.dir, &self.state, |d| {
            model.save(&d.join("weights"))?;
            opt.save(&d.join("optimizer.safetensors"))?;
            Ok(())
        })
    }

    /// The optimiser (tests compare its state across restarts).
    pub fn optimizer(&self) -> &Sgd {
        &self.opt
    }
}

//! The training loop's state and steps: ingest chunks, draw batches, optimise, publish models,
//! write checkpoints, resume after a crash.

use crate::checkpoint::{self, TrainerState};
use crate::config::RunConfig;
use crate::index::IngestIndex;
use crate::metrics::Metrics;
use crate::optimizer::Sgd;
use crate::replay::{samples_of, ReplayWindow, TargetRule};
use anyhow::Context;
use koma_model::Model;
use koma_rules::{PieceValues, Variant};
use koma_selfplay::{chunk, publish, Store};
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

/// The trainer.
pub struct Trainer {
    variant: Arc<Variant>,
    cfg: RunConfig,
    model: Model,
    opt: Sgd,
    /// Counters saved in checkpoints.
    pub state: TrainerState,
    window: ReplayWindow,
    index: IngestIndex,
    store: Arc<Store>,
    dir: PathBuf,
    metrics: Metrics,
    rng: StdRng,
    targets: TargetRule,
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
        let (model, state, opt) = match checkpoint::current(&dir) {
            Some(ck) => {
                let state = checkpoint::read_state(&ck)?;
                let model = Model::load(&ck.join("weights"), variant, Some(&cfg.model), device)
                    .with_context(|| format!("resuming from {}", ck.display()))?;
                let mut opt = Sgd::new(
                    model.var_store(),
                    cfg.trainer.momentum,
                    cfg.trainer.weight_decay,
                );
                opt.load(&ck.join("optimizer.safetensors"))
                    .map_err(|e| anyhow::anyhow!("{}: {e}", ck.display()))?;
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
        let rng = StdRng::seed_from_u64(state.seed ^ state.step.wrapping_mul(0x9E37_79B9));
        let mut t = Trainer {
            variant: variant.clone(),
            cfg: cfg.clone(),
            model,
            opt,
            state,
            window: ReplayWindow::new(cfg.trainer.window_positions),
            index,
            store,
            metrics: Metrics::new(&run_dir.join("tb").join("trainer")),
            dir,
            rng,
            targets: TargetRule {
                values: PieceValues::new(variant),
                horizon: cfg.trainer.material_horizon,
                q_share: cfg.trainer.value_target_q as f32,
            },
        };
        t.rebuild_window()?;
        if publish::latest(&t.store)?.is_none() {
            t.publish()?;
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

    fn rebuild_window(&mut self) -> anyhow::Result<()> {
        for (key, positions) in self.index.newest_first()? {
            if self.window.is_full() {
                break;
            }
            if positions == 0 {
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
            self.window.push_old(samples);
        }
        Ok(())
    }

    /// Takes in chunks not yet ingested; a damaged chunk is reported, recorded and skipped.
    /// Returns the number of new training positions.
    pub fn ingest(&mut self) -> anyhow::Result<u64> {
        let mut keys: Vec<String> = self
            .store
            .list("games")?
            .into_iter()
            .filter(|k| k.ends_with(".chunk"))
            .collect();
        keys.sort();
        let mut added = 0;
        for key in keys {
            if self.index.contains(&key)? {
                continue;
            }
            let Some(bytes) = self.store.get(&key)? else {
                continue;
            };
            let (positions, games) = match chunk::decode(&key, &bytes) {
                Ok(records) => {
                    let mut samples = Vec::new();
                    for r in &records {
                        match samples_of(r, &self.variant, &self.targets) {
                            Ok(s) => samples.extend(s),
                            Err(e) => tracing::warn!("chunk {key}: a game does not replay: {e}"),
                        }
                    }
                    let n = samples.len() as u64;
                    self.window.push(samples);
                    (n, records.len() as u64)
                }
                Err(e) => {
                    tracing::warn!("{e}; skipped");
                    (0, 0)
                }
            };
            self.index
                .add(&key, self.state.chunks_ingested, positions, games)?;
            self.state.chunks_ingested += 1;
            self.state.positions_ingested += positions;
            self.state.games_ingested += games;
            added += positions;
        }
        Ok(added)
    }

    /// Whether a step may run now: enough positions, and training not ahead of self-play by
    /// more than the target ratio.
    pub fn can_train(&self) -> bool {
        let c = &self.cfg.trainer;
        self.window.len() >= c.min_positions.max(1)
            && (self.state.samples_trained as f64)
                < c.target_ratio * self.state.positions_ingested as f64
    }

    /// The learning rate at the current step.
    pub fn learning_rate(&self) -> f64 {
        let c = &self.cfg.trainer;
        let warm = ((self.state.step + 1) as f64 / c.warmup_steps.max(1) as f64).min(1.0);
        c.learning_rate * warm
    }

    /// One optimisation step.
    pub fn train_step(&mut self) -> anyhow::Result<StepLosses> {
        let c = self.cfg.trainer.clone();
        let tb = self
            .window
            .draw(c.batch_size, &self.model, &self.variant, &mut self.rng);
        let n = tb.requests.len();
        anyhow::ensure!(n > 0, "the replay window yielded no sample");
        let refs: Vec<&koma_model::Request> = tb.requests.iter().collect();
        let dev = self.model.device();
        let batch = self.model.batch(&refs);
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
        loss.backward();
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
        if s % 10 == 0 || s == 1 {
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
            m.scalar(
                "train/samples_per_position",
                self.state.samples_trained as f64 / self.state.positions_ingested.max(1) as f64,
                s,
            );
        }
        if c.publish_every > 0 && s % c.publish_every == 0 {
            self.publish()?;
        }
        if c.checkpoint_every > 0 && s % c.checkpoint_every == 0 {
            self.checkpoint()?;
        }
        Ok(losses)
    }

    /// Publishes the current weights.
    pub fn publish(&mut self) -> anyhow::Result<publish::Latest> {
        self.model.meta.step = self.state.step;
        self.model.meta.games = self.state.games_ingested;
        let l = publish::publish(&self.store, &self.model, &self.dir.join("scratch"))?;
        tracing::info!(step = l.step, "published model {}", l.key);
        Ok(l)
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

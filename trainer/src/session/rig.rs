//! Self-play threads with their evaluator and uploader: what `koma train` and `koma selfplay`
//! run beside (or instead of) the trainer.

use crate::session::follow::{follow_models, newest_model, reloader, Placement};
use crate::session::options::RunOptions;
use koma_model::{InferenceServer, InferenceStats};
use koma_selfplay::{Stats, Worker};
use koma_store::{Store, StoreError, UploadStats, Uploader};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use tch::Device;

/// Self-play threads with their evaluators.
pub struct SelfplayRig {
    server: InferenceServer,
    uploader: Uploader,
    workers: Vec<JoinHandle<Result<(), StoreError>>>,
    stop: Arc<AtomicBool>,
    /// Games and moves.
    pub stats: Arc<Stats>,
    /// The evaluator's forward passes.
    pub inference: Arc<InferenceStats>,
    /// Chunks uploaded and waiting.
    pub uploads: Arc<UploadStats>,
}

impl SelfplayRig {
    /// Starts self-play with the newest published model (waiting for one); `None` when
    /// stopped before one was published.
    pub fn start(
        opts: &RunOptions,
        store: Arc<Store>,
        device: Device,
    ) -> anyhow::Result<Option<SelfplayRig>> {
        let cache = opts.run_dir.join("cache").join(&opts.worker_prefix);
        let sp = opts.selfplay();
        let at = Placement {
            device,
            precision: opts.config.precision_choice()?,
            batch: sp.evaluator_batch(),
        };
        let evaluators = sp.evaluator_threads();
        let Some(models) = newest_model(&store, &cache, opts, at, evaluators)? else {
            return Ok(None);
        };
        if let Some(inference) = models[0].inference() {
            tracing::info!("self-play's network: {device:?}, {inference}");
        }
        let stats = Arc::new(Stats::default());
        let stop = Arc::new(AtomicBool::new(false));
        let step = models[0].meta.step;
        let sources = follow_models(
            reloader(
                store.clone(),
                cache,
                opts.variant.clone(),
                at,
                step,
                evaluators,
            ),
            stop.clone(),
            Duration::from_secs(3),
        );
        let server = InferenceServer::start_pool(
            models.into_iter().zip(sources).collect(),
            sp.max_batch,
            Duration::from_millis(500),
        );
        let uploader = Uploader::start(store.clone(), Duration::from_secs(30));
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
            inference: server.stats(),
            uploads: uploader.stats(),
            server,
            uploader,
            workers,
            stats,
            stop,
        }))
    }

    /// Whether every worker has stopped (each reached its game limit).
    pub fn finished(&self) -> bool {
        self.workers.iter().all(|w| w.is_finished())
    }

    /// Stops the workers, then the evaluator, then drains the uploader.
    pub fn stop(self) -> anyhow::Result<()> {
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

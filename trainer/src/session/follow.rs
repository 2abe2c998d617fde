//! Following the models the trainer publishes: the first one self-play starts with, and each
//! newer one the evaluators switch to, checked against its SHA-256 before it is loaded.

use crate::session::options::RunOptions;
use koma_model::{Model, PrecisionChoice, Reloader};
use koma_rules::Variant;
use koma_store::backoff::{sleep_unless, Backoff};
use koma_store::{publish, Store, StoreError};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use tch::Device;

/// Where self-play's networks run and in what number format.
#[derive(Debug, Clone, Copy)]
pub struct Placement {
    /// The device.
    pub device: Device,
    /// The number format of inference, as configured (`auto` is resolved per model load:
    /// [`koma_model::Model::prepare_to_play`]).
    pub precision: PrecisionChoice,
    /// The batch an evaluator usually runs, which `auto` times
    /// ([`koma_selfplay::SelfplayConfig::evaluator_batch`]).
    pub batch: usize,
}

/// `copies` loads of a published model, one for each evaluator thread: its weights
/// downloaded and checked once, then loaded into each copy.
fn load_published(
    store: &Store,
    l: &publish::Latest,
    cache: &Path,
    variant: &Arc<Variant>,
    at: Placement,
    copies: usize,
) -> Result<Vec<Model>, StoreError> {
    let stem = publish::download(store, l, cache)?;
    (0..copies)
        .map(|_| {
            let mut m =
                Model::load(&stem, variant, None, at.device).map_err(|e| StoreError::BadModel {
                    key: l.key.clone(),
                    reason: e.to_string(),
                })?;
            m.prepare_to_play_at(at.precision, at.batch);
            Ok(m)
        })
        .collect()
}

/// Loads the newest published model (`copies` times), waiting for one (and for the store)
/// unless stopped.
pub fn newest_model(
    store: &Store,
    cache: &Path,
    opts: &RunOptions,
    at: Placement,
    copies: usize,
) -> anyhow::Result<Option<Vec<Model>>> {
    let mut wait = Backoff::new(Duration::from_secs(2), Duration::from_secs(30));
    loop {
        match publish::latest(store) {
            Ok(Some(l)) => match load_published(store, &l, cache, &opts.variant, at, copies) {
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

/// A source of newer models that loads each one once per evaluator thread: the follower
/// makes one channel per copy, so the count travels with the source instead of being passed
/// beside it.
pub struct Finder {
    /// Copies of each model `find` returns (one per evaluator thread).
    pub copies: usize,
    /// The next newer model's copies, or `None` when there is none yet.
    pub find: Box<dyn FnMut() -> Option<Vec<Model>> + Send>,
}

/// The evaluators' model source: loads each newly published model, `copies` times (at least
/// once). A model whose weights do not match their record, or that does not load, is rejected
/// once and skipped until the record changes; the workers keep the model they have.
pub fn reloader(
    store: Arc<Store>,
    cache: PathBuf,
    variant: Arc<Variant>,
    at: Placement,
    mut step: u64,
    copies: usize,
) -> Finder {
    let copies = copies.max(1);
    let mut rejected: Option<publish::Latest> = None;
    let mut wait = Backoff::store();
    let find = Box::new(move || {
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
        match load_published(&store, &l, &cache, &variant, at, copies) {
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
    });
    Finder { copies, find }
}

/// Follows the published models on a thread of its own, so that a download or an unreachable
/// store never holds up an evaluator; returns one source per evaluator thread (as many as
/// `finder` loads copies), and each evaluator takes its copy of a loaded model between batches.
pub fn follow_models(finder: Finder, stop: Arc<AtomicBool>, every: Duration) -> Vec<Reloader> {
    let Finder { copies, mut find } = finder;
    let (senders, receivers): (Vec<_>, Vec<_>) = (0..copies)
        .map(|_| std::sync::mpsc::sync_channel::<Model>(1))
        .unzip();
    std::thread::Builder::new()
        .name("model-follower".into())
        .spawn(move || {
            while sleep_unless(&stop, every) {
                if let Some(models) = find() {
                    for (tx, m) in senders.iter().zip(models) {
                        if tx.send(m).is_err() {
                            return;
                        }
                    }
                }
            }
        })
        .expect("the model follower thread starts");
    receivers
        .into_iter()
        .map(|rx| Box::new(move || rx.try_iter().last()) as Reloader)
        .collect()
}

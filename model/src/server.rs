//! The batching evaluator: one thread (or a pool of them, each with its own copy of the
//! network) serves every searcher that holds a [`Client`] (self-play workers, arena matches),
//! merging the leaves waiting in its queue into one forward pass, and swapping in newly
//! published models without a restart.

use crate::encoding::{Encoder, Request};
use crate::model::Model;
use crossbeam::channel::{bounded, unbounded, Receiver, RecvTimeoutError, Sender};
use koma_mcts::{Evaluation, Evaluator};
use koma_rules::{Move, Position};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

struct Job {
    requests: Vec<Request>,
    reply: Sender<Vec<Evaluation>>,
}

/// What the evaluator thread has done, for whoever reports it.
#[derive(Debug, Default)]
pub struct InferenceStats {
    evaluated: AtomicU64,
    batches: AtomicU64,
    busy_ns: AtomicU64,
    threads: u64,
}

impl InferenceStats {
    /// Positions evaluated so far.
    pub fn evaluated(&self) -> u64 {
        self.evaluated.load(Ordering::Relaxed)
    }

    /// Forward passes so far.
    pub fn batches(&self) -> u64 {
        self.batches.load(Ordering::Relaxed)
    }

    /// Nanoseconds spent in forward passes so far, summed over the evaluator threads.
    pub fn busy_ns(&self) -> u64 {
        self.busy_ns.load(Ordering::Relaxed)
    }

    /// Evaluator threads (at least 1), to turn `busy_ns` into a share of their time.
    pub fn threads(&self) -> u64 {
        self.threads.max(1)
    }
}

/// Source of newer models: called between batches; returns a model to switch to.
pub type Reloader = Box<dyn FnMut() -> Option<Model> + Send>;

/// Handle of the evaluator threads; dropping every client stops them.
pub struct InferenceServer {
    tx: Sender<Job>,
    handles: Vec<JoinHandle<()>>,
    encoder: Encoder,
    step: Arc<AtomicU64>,
    stats: Arc<InferenceStats>,
}

impl InferenceServer {
    /// Starts the thread with `model`; batches hold at most `max_batch` positions;
    /// `reload` is polled every `reload_every`.
    pub fn start(
        model: Model,
        max_batch: usize,
        reload: Reloader,
        reload_every: Duration,
    ) -> InferenceServer {
        InferenceServer::start_pool(vec![(model, reload)], max_batch, reload_every)
    }

    /// Starts one evaluator thread per model, each with its own copy of the network and its
    /// own source of newer ones, all taking work from one queue. On a CPU where a single
    /// evaluator runs without a break while the other core waits (the trainer idle on its
    /// target ratio; docs/performance.md), a second thread puts that core to work: each
    /// forward pass runs on the thread that calls it, so two passes run at once.
    ///
    /// # Panics
    /// When `evaluators` is empty.
    pub fn start_pool(
        evaluators: Vec<(Model, Reloader)>,
        max_batch: usize,
        reload_every: Duration,
    ) -> InferenceServer {
        assert!(!evaluators.is_empty(), "an inference server needs a model");
        let stats = Arc::new(InferenceStats {
            threads: evaluators.len() as u64,
            ..InferenceStats::default()
        });
        let (tx, rx) = unbounded::<Job>();
        let encoder = evaluators[0].0.encoder().clone();
        let step = Arc::new(AtomicU64::new(evaluators[0].0.meta.step));
        let handles = evaluators
            .into_iter()
            .enumerate()
            .map(|(i, (model, reload))| {
                let (rx, counters, step) = (rx.clone(), stats.clone(), step.clone());
                std::thread::Builder::new()
                    .name(if i == 0 {
                        "inference".into()
                    } else {
                        format!("inference-{i}")
                    })
                    .spawn(move || {
                        evaluate_jobs(
                            model,
                            &rx,
                            max_batch,
                            reload,
                            reload_every,
                            &counters,
                            &step,
                        )
                    })
                    .expect("the inference thread starts")
            })
            .collect();
        InferenceServer {
            tx,
            handles,
            encoder,
            step,
            stats,
        }
    }

    /// A client for one searching thread.
    pub fn client(&self) -> Client {
        Client {
            tx: self.tx.clone(),
            encoder: self.encoder.clone(),
            step: self.step.clone(),
        }
    }

    /// Its counters.
    pub fn stats(&self) -> Arc<InferenceStats> {
        self.stats.clone()
    }

    /// Stops the threads once the clients are gone.
    pub fn shutdown(mut self) {
        let (tx, _) = unbounded();
        self.tx = tx;
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

/// One evaluator thread's loop: takes a job, adds whatever else is waiting up to `max_batch`
/// positions, runs them as one forward pass; between passes (and when idle) takes a newer
/// model. Returns once every client is gone.
fn evaluate_jobs(
    mut model: Model,
    rx: &Receiver<Job>,
    max_batch: usize,
    mut reload: Reloader,
    reload_every: Duration,
    counters: &InferenceStats,
    step: &AtomicU64,
) {
    let mut last_check = Instant::now();
    let mut take_newer = |model: &mut Model| {
        if let Some(m) = reload() {
            step.fetch_max(m.meta.step, Ordering::Relaxed);
            *model = m;
        }
    };
    loop {
        let first = match rx.recv_timeout(reload_every) {
            Ok(j) => j,
            Err(RecvTimeoutError::Timeout) => {
                take_newer(&mut model);
                last_check = Instant::now();
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => return,
        };
        let mut jobs = vec![first];
        let mut n = jobs[0].requests.len();
        while n < max_batch {
            match rx.try_recv() {
                Ok(j) => {
                    n += j.requests.len();
                    jobs.push(j);
                }
                Err(_) => break,
            }
        }
        serve(&model, jobs, counters);
        if last_check.elapsed() >= reload_every {
            take_newer(&mut model);
            last_check = Instant::now();
        }
    }
}

fn serve(model: &Model, jobs: Vec<Job>, stats: &InferenceStats) {
    let start = Instant::now();
    let refs: Vec<&Request> = jobs.iter().flat_map(|j| j.requests.iter()).collect();
    let n = refs.len();
    let mut evals = model.evaluate_requests(&refs).into_iter();
    stats
        .busy_ns
        .fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
    stats.evaluated.fetch_add(n as u64, Ordering::Relaxed);
    stats.batches.fetch_add(1, Ordering::Relaxed);
    for j in jobs {
        let part: Vec<Evaluation> = evals.by_ref().take(j.requests.len()).collect();
        let _ = j.reply.send(part);
    }
}

/// A searcher's connection to the evaluator thread.
#[derive(Clone)]
pub struct Client {
    tx: Sender<Job>,
    encoder: Encoder,
    step: Arc<AtomicU64>,
}

impl Client {
    /// Training step of the model currently served.
    pub fn model_step(&self) -> u64 {
        self.step.load(Ordering::Relaxed)
    }
}

impl Evaluator for Client {
    type Request = Request;

    fn prepare(&self, pos: &Position, moves: &[Move]) -> Request {
        self.encoder.request(pos, moves, None)
    }

    fn evaluate(&self, batch: Vec<Request>) -> Vec<Evaluation> {
        let n = batch.len();
        let (reply, rx): (Sender<Vec<Evaluation>>, Receiver<Vec<Evaluation>>) = bounded(1);
        if self
            .tx
            .send(Job {
                requests: batch,
                reply,
            })
            .is_err()
        {
            return uniform(n);
        }
        rx.recv().unwrap_or_else(|_| uniform(n))
    }
}

fn uniform(n: usize) -> Vec<Evaluation> {
    (0..n).map(|_| Evaluation::neutral()).collect()
}

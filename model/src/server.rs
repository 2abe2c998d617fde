//! The batching evaluator: one thread owns the network and serves every searcher that holds a
//! [`Client`] (self-play workers, arena matches), merging the leaves they send into one forward
//! pass, and swapping in newly published models without a restart.

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

    /// Nanoseconds spent in forward passes so far.
    pub fn busy_ns(&self) -> u64 {
        self.busy_ns.load(Ordering::Relaxed)
    }
}

/// Source of newer models: called between batches; returns a model to switch to.
pub type Reloader = Box<dyn FnMut() -> Option<Model> + Send>;

/// Handle of the evaluator thread; dropping every client stops it.
pub struct InferenceServer {
    tx: Sender<Job>,
    handle: Option<JoinHandle<()>>,
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
        mut reload: Reloader,
        reload_every: Duration,
    ) -> InferenceServer {
        let stats = Arc::new(InferenceStats::default());
        let counters = stats.clone();
        let (tx, rx) = unbounded::<Job>();
        let encoder = model.encoder().clone();
        let step = Arc::new(AtomicU64::new(model.meta.step));
        let step_w = step.clone();
        let handle = std::thread::Builder::new()
            .name("inference".into())
            .spawn(move || {
                let mut model = model;
                let mut last_check = Instant::now();
                loop {
                    let first = match rx.recv_timeout(reload_every) {
                        Ok(j) => j,
                        Err(RecvTimeoutError::Timeout) => {
                            if let Some(m) = reload() {
                                step_w.store(m.meta.step, Ordering::Relaxed);
                                model = m;
                            }
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
                    serve(&model, jobs, &counters);
                    if last_check.elapsed() >= reload_every {
                        if let Some(m) = reload() {
                            step_w.store(m.meta.step, Ordering::Relaxed);
                            model = m;
                        }
                        last_check = Instant::now();
                    }
                }
            })
            .expect("the inference thread starts");
        InferenceServer {
            tx,
            handle: Some(handle),
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

    /// Stops the thread once the clients are gone.
    pub fn shutdown(mut self) {
        let (tx, _) = unbounded();
        self.tx = tx;
        if let Some(h) = self.handle.take() {
            let _ = h.join();
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

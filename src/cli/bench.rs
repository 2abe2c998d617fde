//! `koma bench`: the performance figures of the learning loop, each against a reference
//! measured in the same run on the same machine.
//!
//! - network: raw batched forward passes (positions/s) at the self-play batch size;
//! - self-play: positions evaluated per second through the whole pipeline (search, encoding,
//!   batching evaluator), and its ratio to the raw network figure;
//! - search: MCTS simulations per second on one core with the uniform evaluator, against the
//!   rate of legal-move generation on the same positions;
//! - memory: resident memory of a self-play run sampled over time;
//! - store (`--store-only`): chunk uploads and model downloads against a local directory.

use super::store_args::StoreArgs;
use clap::Args;
use koma_mcts::{search, SearchConfig, Tree, UniformEvaluator};
use koma_model::InferenceServer;
use koma_model::{Model, Request};
use koma_rules::{load_variant, Position};
use koma_selfplay::{Stats, Worker};
use koma_store::{Store, Uploader};
use koma_trainer::RunConfig;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Options of `koma bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Variant.
    #[arg(long, default_value = "hand-shogi")]
    pub variant: String,
    /// Seconds per throughput measurement.
    #[arg(long, default_value_t = 20.0)]
    pub seconds: f64,
    /// Also run self-play this many minutes and report resident memory over time.
    #[arg(long)]
    pub memory_minutes: Option<f64>,
    /// Only the search benchmark (no libtorch work).
    #[arg(long)]
    pub search_only: bool,
    /// Only the store benchmark, on the store given by --store (chunk uploads and a 20 MB
    /// model download, each against a local-directory store measured in the same run).
    #[arg(long)]
    pub store_only: bool,
    #[command(flatten)]
    pub store: StoreArgs,
}

/// Positions reached by random play, for realistic inputs.
fn sample_positions(v: &Arc<koma_rules::Variant>, n: usize, seed: u64) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut pos = Position::start(v);
        let plies = rng.gen_range(0..80);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos.make_move(moves[rng.gen_range(0..moves.len())]);
        }
        if !pos.legal_moves().is_empty() {
            out.push(pos);
        }
    }
    out
}

fn resident_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn bench_search(v: &Arc<koma_rules::Variant>, secs: f64) {
    let mut positions = sample_positions(v, 32, 11);
    // Reference: legal-move generation on the same positions.
    let start = Instant::now();
    let mut gens = 0u64;
    while start.elapsed().as_secs_f64() < secs / 4.0 {
        for p in positions.iter_mut() {
            std::hint::black_box(p.legal_moves());
            gens += 1;
        }
    }
    let gen_rate = gens as f64 / start.elapsed().as_secs_f64();
    // The tree and rules alone, then with the mate-in-one check at each new node, then the
    // default search, whose leaves also run the capture search behind the material term.
    let default = SearchConfig::default();
    for (what, mate_check, material_weight, material_depth) in [
        ("tree only", false, 0.0, 2),
        ("static material", false, default.material_weight, 0),
        ("with mate check", true, 0.0, 2),
        (
            "default: mate check and material term",
            true,
            default.material_weight,
            2,
        ),
    ] {
        let cfg = SearchConfig {
            mate_check,
            material_weight,
            material_depth,
            ..default.clone()
        };
        let mut sims = 0u64;
        let start = Instant::now();
        let mut i = 0;
        while start.elapsed().as_secs_f64() < secs / 3.0 {
            let pos = &mut positions[i % 32];
            i += 1;
            let mut tree = Tree::new(cfg.clone(), i as u64);
            if let Some(r) = search(&mut tree, pos, &UniformEvaluator, 800, 1, false) {
                sims += r.simulations as u64;
            }
        }
        let rate = sims as f64 / start.elapsed().as_secs_f64();
        println!(
            "bench search ({what}): {rate:.0} simulations/s on one core (PUCT, uniform evaluator, 800 per search); legal-move generation {gen_rate:.0} positions/s; ratio {:.2} simulations per generation; target 100000/s: {:.2}x",
            rate / gen_rate,
            rate / 100_000.0
        );
    }
}

fn bench_network(model: &Model, v: &Arc<koma_rules::Variant>, batch: usize, secs: f64) -> f64 {
    let mut positions = sample_positions(v, batch, 5);
    let requests: Vec<Request> = positions
        .iter_mut()
        .map(|p| {
            let m = p.legal_moves();
            model.prepare(p, &m)
        })
        .collect();
    let refs: Vec<&Request> = requests.iter().collect();
    model.evaluate_requests(&refs);
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed().as_secs_f64() < secs {
        std::hint::black_box(model.evaluate_requests(&refs));
        n += refs.len() as u64;
    }
    n as f64 / start.elapsed().as_secs_f64()
}

/// Runs self-play for `secs`; returns positions evaluated per second and RSS samples.
fn run_selfplay(
    cfg: &RunConfig,
    v: &Arc<koma_rules::Variant>,
    model: Model,
    secs: f64,
    sample_every: f64,
) -> (f64, Vec<(f64, f64)>) {
    let stats = Arc::new(Stats::default());
    let server = InferenceServer::start(
        model,
        cfg.selfplay.max_batch,
        Box::new(|| None),
        Duration::from_secs(3600),
    );
    let store = Arc::new(Store::memory());
    let spool = std::env::temp_dir().join(format!("koma-bench-spool-{}", std::process::id()));
    let uploader = Uploader::start(store.clone(), Duration::from_secs(5));
    let inference = server.stats();
    let stop = Arc::new(AtomicBool::new(false));
    let workers: Vec<_> = (0..cfg.selfplay.workers.max(1))
        .map(|i| {
            let w = Worker {
                id: format!("bench-{i}"),
                variant: v.clone(),
                client: server.client(),
                store: store.clone(),
                spool: spool.clone(),
                uploads: uploader.sender(),
                cfg: cfg.selfplay.clone(),
                stop: stop.clone(),
                stats: stats.clone(),
                seed: i as u64,
                max_games: None,
            };
            std::thread::spawn(move || w.run())
        })
        .collect();
    // Warm-up, then measure.
    std::thread::sleep(Duration::from_secs_f64((secs * 0.1).min(10.0)));
    let e0 = inference.evaluated();
    let start = Instant::now();
    let mut rss = vec![(0.0, resident_mib())];
    let mut next = sample_every;
    while start.elapsed().as_secs_f64() < secs {
        std::thread::sleep(Duration::from_millis(200));
        let t = start.elapsed().as_secs_f64();
        if t >= next {
            rss.push((t, resident_mib()));
            tracing::info!(
                minutes = format!("{:.1}", t / 60.0),
                rss_mib = format!("{:.0}", rss.last().map_or(0.0, |r| r.1)),
                games = Stats::get(&stats.games),
                "self-play memory"
            );
            next += sample_every;
        }
    }
    let rate = (inference.evaluated() - e0) as f64 / start.elapsed().as_secs_f64();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for w in workers {
        let _ = w.join();
    }
    server.shutdown();
    uploader.finish();
    let _ = std::fs::remove_dir_all(&spool);
    (rate, rss)
}

/// Runs the benchmarks and prints one summary line each.
pub fn run(a: BenchArgs) -> anyhow::Result<()> {
    if a.store_only {
        let url = a
            .store
            .url(&std::env::temp_dir().join("koma-bench-store"))?;
        return super::bench_store::run(&url, &a.store.options(), a.seconds);
    }
    let v = load_variant(&a.variant)?;
    bench_search(&v, a.seconds);
    if a.search_only {
        return Ok(());
    }
    let class = if tch::Cuda::is_available() {
        "gpu"
    } else {
        "cpu"
    };
    let cfg = RunConfig::preset(&v.id, class)
        .ok_or_else(|| anyhow::anyhow!("no training preset for {}", v.id))?;
    let device = koma_trainer::session::parse_device(&cfg.device)?;
    tch::set_num_threads(cfg.threads());
    let model = Model::new(&v, &cfg.model, device);
    let batch = cfg.selfplay.workers.max(1) * cfg.selfplay.games_per_worker;
    let raw = bench_network(&model, &v, batch, a.seconds);
    println!(
        "bench network: {raw:.0} positions/s (batch {batch}, {} blocks x {} channels, {device:?})",
        cfg.model.blocks, cfg.model.channels
    );
    let (pipeline, _) = run_selfplay(
        &cfg,
        &v,
        Model::new(&v, &cfg.model, device),
        a.seconds,
        f64::INFINITY,
    );
    println!(
        "bench selfplay: {pipeline:.0} positions/s through the pipeline; ratio to raw network {:.2} (target 0.85)",
        pipeline / raw
    );
    if let Some(m) = a.memory_minutes {
        let secs = m * 60.0;
        let (_, rss) = run_selfplay(
            &cfg,
            &v,
            Model::new(&v, &cfg.model, device),
            secs,
            (secs / 20.0).max(5.0),
        );
        let series: Vec<String> = rss
            .iter()
            .map(|(t, r)| format!("{:.1}min:{r:.0}MiB", t / 60.0))
            .collect();
        let peak = rss.iter().map(|r| r.1).fold(0.0, f64::max);
        let half = rss.len() / 2;
        let early = rss[1.min(rss.len() - 1)..=half.max(1).min(rss.len() - 1)]
            .iter()
            .map(|r| r.1)
            .fold(0.0, f64::max);
        let late = rss[half..].iter().map(|r| r.1).fold(0.0, f64::max);
        println!(
            "bench memory: peak {peak:.0} MiB over {m:.1} min of self-play; max first half {early:.0} MiB, max second half {late:.0} MiB (ratio {:.2}); {}",
            late / early.max(1.0),
            series.join(" ")
        );
    }
    Ok(())
}

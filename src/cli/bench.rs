//! `koma bench`: the performance figures of the learning loop, each against a reference
//! measured in the same run on the same machine.
//!
//! - network: raw batched forward passes (positions/s) at the self-play batch size;
//! - self-play: positions evaluated per second through the whole pipeline (search, encoding,
//!   batching evaluator), and its ratio to the raw network figure;
//! - search: MCTS simulations per second on one core with the uniform evaluator, against the
//!   rate of legal-move generation on the same positions;
//! - arena: games of the preset's network (64 simulations a move) against `random` through
//!   the arena's driver, its simulations per second against the raw network figure;
//! - memory: resident memory of a self-play run sampled over time;
//! - store (`--store-only`): chunk uploads and model downloads against a local directory;
//! - ingest (`--ingest`): one trainer's ingest passes as simulated workers fill the store.

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
    /// Games of the arena measurement (the preset's network at 64 simulations a move against
    /// `random`); 0 skips it.
    #[arg(long, default_value_t = 8)]
    pub arena_games: usize,
    /// Only the search benchmark (no libtorch work).
    #[arg(long)]
    pub search_only: bool,
    /// Where one self-play position's time goes, stage by stage (move generation, leaf
    /// checks, encoding, tree, network, trainer), with the variant's CPU preset.
    #[arg(long)]
    pub profile: bool,
    /// Only the store benchmark, on the store given by --store (chunk uploads and a 20 MB
    /// model download, each against a local-directory store measured in the same run).
    #[arg(long)]
    pub store_only: bool,
    /// Only the ingest benchmark: simulated workers fill the store given by --store (default
    /// memory://; an s3:// store gets a fresh prefix under the one given) up to --chunks, and
    /// one trainer's ingest passes are timed as it grows.
    #[arg(long)]
    pub ingest: bool,
    /// Simulated workers of the ingest benchmark.
    #[arg(long, default_value_t = 1000)]
    pub workers: u64,
    /// Evaluator threads of the self-play measurements (default: the preset's).
    #[arg(long)]
    pub evaluators: Option<usize>,
    /// Number format of the fast path's network (default: the preset's, `auto`): fp32, bf16,
    /// fp16 or auto. The reference stays fp32 without the fast path.
    #[arg(long)]
    pub precision: Option<koma_model::PrecisionChoice>,
    /// Chunks the ingest benchmark fills the store to.
    #[arg(long, default_value_t = 1_000_000)]
    pub chunks: u64,
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
    // Play (`koma-engine`, `koma play`) searches its leaves for mates in three, not one; its
    // proof-number searches at the root and of the move chosen run a few times a move, so
    // they are measured apart, as time a search (`bench_play_checks`).
    let play = SearchConfig {
        root_mate_nodes: 0,
        refute_nodes: 0,
        ..koma_engine::search::search_config(v, false, None)
    };
    let row = |mate_check, material_weight, material_depth| SearchConfig {
        mate_check,
        material_weight,
        material_depth,
        ..default.clone()
    };
    for (what, cfg) in [
        ("tree only", row(false, 0.0, 2)),
        ("static material", row(false, default.material_weight, 0)),
        ("with mate check", row(true, 0.0, 2)),
        (
            "default: mate check and material term",
            row(true, default.material_weight, 2),
        ),
        (
            "as play runs it: mates in three at the leaves",
            play.clone(),
        ),
    ] {
        let mut sims = 0u64;
        let start = Instant::now();
        let mut i = 0;
        // One tree for every search, cleared in between: self-play keeps a game's tree, and
        // its arenas' memory, from move to move.
        let mut tree = Tree::new(cfg.clone(), 0);
        while start.elapsed().as_secs_f64() < secs / 3.0 {
            let pos = &mut positions[i % 32];
            i += 1;
            tree.clear();
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
    bench_play_checks(&mut positions, &play, secs);
}

/// Simulations of one search in [`bench_play_checks`]: about what `koma-engine` makes in one
/// second with a small trained network.
const PLAY_SIMS: u32 = 4_000;

/// Play's proof-number searches (the root's, and the check of the move the search is about to
/// choose) run a few times a move rather than at every leaf, so their cost is time per move:
/// searches of [`PLAY_SIMS`] simulations with them, against the same searches without, in
/// batches of 8 as play gathers them. With the uniform evaluator a search is several times
/// shorter than play's second, so the ratio overstates their share of a real move; the
/// milliseconds a search are what carry over.
fn bench_play_checks(positions: &mut [Position], without: &SearchConfig, secs: f64) {
    let with = SearchConfig {
        root_mate_nodes: koma_engine::search::searcher::ROOT_MATE_NODES,
        refute_nodes: koma_engine::search::searcher::REFUTE_NODES,
        ..without.clone()
    };
    let mut time_search = |cfg: &SearchConfig| {
        let (mut sims, mut searches) = (0u64, 0u64);
        let start = Instant::now();
        while start.elapsed().as_secs_f64() < secs / 3.0 || searches == 0 {
            let pos = &mut positions[searches as usize % 32];
            searches += 1;
            let mut tree = Tree::new(cfg.clone(), searches);
            if let Some(r) = search(&mut tree, pos, &UniformEvaluator, PLAY_SIMS, 8, false) {
                sims += r.simulations as u64;
            }
        }
        let elapsed = start.elapsed().as_secs_f64();
        (sims as f64 / elapsed, elapsed * 1e3 / searches as f64)
    };
    let (rate_off, ms_off) = time_search(without);
    let (rate_on, ms_on) = time_search(&with);
    println!(
        "bench search (as play runs it, with the proof-number searches at the root and of the move chosen, {PLAY_SIMS} simulations a search): {rate_on:.0} simulations/s, {ms_on:.0} ms a search; without them {rate_off:.0} simulations/s, {ms_off:.0} ms; the checks cost {:.0} ms a search; ratio {:.2}",
        ms_on - ms_off,
        rate_on / rate_off
    );
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
    1e6 / super::bench_profile::network_us(model, &requests, requests.len(), secs)
}

/// Runs self-play for `secs`; returns positions evaluated per second and RSS samples.
/// `models` holds one network per evaluator thread.
fn run_selfplay(
    cfg: &RunConfig,
    v: &Arc<koma_rules::Variant>,
    models: Vec<Model>,
    secs: f64,
    sample_every: f64,
) -> (f64, Vec<(f64, f64)>) {
    let stats = Arc::new(Stats::default());
    let server = InferenceServer::start_pool(
        models
            .into_iter()
            .map(|m| (m, Box::new(|| None) as koma_model::Reloader))
            .collect(),
        cfg.selfplay.max_batch,
        Duration::from_secs(3600),
    );
    // The games go to a store on disk, as in a real run: an in-memory store would keep every
    // game in this process and make its resident memory grow with the games played.
    let store_dir = std::env::temp_dir().join(format!("koma-bench-store-{}", std::process::id()));
    let store = Arc::new(Store::local(&store_dir).unwrap_or_else(|e| {
        tracing::warn!("no store on disk ({e}); games are kept in memory, which grows");
        Store::memory()
    }));
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
    let (e0, b0, n0) = (
        inference.evaluated(),
        inference.batches(),
        inference.busy_ns(),
    );
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
    let elapsed = start.elapsed().as_secs_f64();
    let rate = (inference.evaluated() - e0) as f64 / elapsed;
    tracing::info!(
        positions_per_s = format!("{rate:.0}"),
        mean_batch = format!(
            "{:.1}",
            (inference.evaluated() - e0) as f64 / (inference.batches() - b0).max(1) as f64
        ),
        evaluator_busy = format!("{:.2}", (inference.busy_ns() - n0) as f64 / 1e9 / elapsed),
        "self-play pipeline"
    );
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for w in workers {
        let _ = w.join();
    }
    server.shutdown();
    uploader.finish();
    let _ = std::fs::remove_dir_all(&spool);
    let _ = std::fs::remove_dir_all(&store_dir);
    (rate, rss)
}

/// Simulations a move of the arena measurement.
const ARENA_SIMS: u32 = 64;

/// The arena's driver at work: `games` paired games of `model` (searching `ARENA_SIMS`
/// simulations a move on the arena's inference server) against `random`. Its rate is given in
/// simulations per second of the model's moves, beside the raw network's positions per second
/// (`raw`): every simulation that reaches a new leaf costs one network position, so the ratio
/// is how much of the network's speed the arena keeps (an upper bound, since simulations that
/// end on a decided node cost none).
fn bench_arena(
    v: &Arc<koma_rules::Variant>,
    model: Model,
    games: usize,
    raw: f64,
) -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("koma-bench-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let stem = dir.join("model");
    model.save(&stem)?;
    let spec: koma_arena::PlayerSpec =
        format!("model:{}:sims={ARENA_SIMS}", stem.display()).parse()?;
    let cfg = koma_arena::MatchConfig::new(v.clone(), spec, koma_arena::PlayerSpec::Random, games);
    let report = koma_arena::run_match(&cfg);
    let _ = std::fs::remove_dir_all(&dir);
    let report = report?;
    let plies: usize = report.games.iter().map(|g| g.plies()).sum();
    let secs = report.elapsed.as_secs_f64().max(1e-9);
    // The model plays every other ply.
    let sims = (plies as f64 / 2.0) * f64::from(ARENA_SIMS) / secs;
    println!(
        "bench arena: {games} games of the network at {ARENA_SIMS} simulations a move against random, {:.2} games/s, {:.0} plies/s, about {sims:.0} simulations/s; ratio to the raw network {:.2}",
        report.games_per_second(),
        plies as f64 / secs,
        sims / raw
    );
    Ok(())
}

/// The variant's training preset for `class` (`cpu` or `gpu`), with `--precision` applied.
fn preset(
    v: &koma_rules::Variant,
    class: &str,
    precision: Option<koma_model::PrecisionChoice>,
) -> anyhow::Result<RunConfig> {
    let mut cfg = RunConfig::preset(&v.id, class)
        .ok_or_else(|| anyhow::anyhow!("no {class} training preset for {}", v.id))?;
    if let Some(p) = precision {
        cfg.precision = p.to_string();
    }
    Ok(cfg)
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
    if a.ingest {
        anyhow::ensure!(a.workers >= 1, "--workers must be at least 1");
        anyhow::ensure!(a.chunks >= a.workers, "--chunks must be at least --workers");
        let url = match &a.store.store {
            None => koma_store::StoreUrl::Memory,
            Some(u) if u.starts_with("s3://") => koma_store::StoreUrl::parse(&format!(
                "{}/bench-ingest-{}",
                u.trim_end_matches('/'),
                std::process::id()
            ))?,
            Some(u) => koma_store::StoreUrl::parse(u)?,
        };
        let store = Store::open(&url, &a.store.options())?;
        return super::bench_ingest::run(&v, store, a.workers, a.chunks);
    }
    if a.profile {
        let cfg = preset(&v, "cpu", a.precision)?;
        tch::set_num_threads(1);
        let mut positions = sample_positions(&v, 64, 13);
        return super::bench_profile::run(&v, &cfg, &mut positions, a.seconds);
    }
    bench_search(&v, a.seconds);
    if a.search_only {
        return Ok(());
    }
    let class = if tch::Cuda::is_available() {
        "gpu"
    } else {
        "cpu"
    };
    let mut cfg = preset(&v, class, a.precision)?;
    if let Some(n) = a.evaluators {
        anyhow::ensure!(n >= 1, "--evaluators must be at least 1");
        cfg.selfplay.evaluators = n;
    }
    let evaluators = cfg.selfplay.evaluator_threads();
    let device = koma_trainer::session::parse_device(&cfg.device)?;
    tch::set_num_threads(cfg.threads());
    let choice = cfg.precision_choice()?;
    let seeded = || {
        tch::manual_seed(1);
        Model::new(&v, &cfg.model, device)
    };
    // The network as self-play runs it: batch normalisation folded, the trunk in the
    // configured precision or koma's fp32 loops, whichever measured faster at an evaluator's
    // batch; the reference is the same network in plain fp32. Seeded, so that the copies of a
    // pool of evaluators hold the same weights.
    let fast_model = || {
        let mut m = seeded();
        m.prepare_to_play_at(choice, cfg.selfplay.evaluator_batch());
        m
    };
    let batch = cfg.selfplay.games_in_flight();
    let fp32 = bench_network(&Model::new(&v, &cfg.model, device), &v, batch, a.seconds);
    let fast = fast_model();
    let inference = fast
        .inference()
        .map_or("unprepared".into(), |i| i.to_string());
    let raw = bench_network(&fast, &v, batch, a.seconds);
    println!(
        "bench network: {raw:.0} positions/s folded, {inference} (batch {batch}, {} blocks x {} channels, {device:?}); fp32 reference {fp32:.0} positions/s; ratio {:.2} (target 1.8)",
        cfg.model.blocks, cfg.model.channels, raw / fp32
    );
    // The throughput curve: what each batch size gives, to size self-play's batches by;
    // where the CPU can run koma's loops, both ways, to show what the choice rests on.
    let curve = |m: &Model| {
        [8usize, 16, 32, 64, 128, 256]
            .iter()
            .map(|&b| format!("{b}:{:.0}", bench_network(m, &v, b, a.seconds / 6.0)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!(
        "bench network curve (batch:positions/s, fast path, {inference}): {}",
        curve(&fast)
    );
    if device == tch::Device::Cpu && koma_model::cpu_net::available() {
        use koma_model::Precision;
        let ways = [
            (choice.resolve(device), false),
            (Precision::Fp32, true),
            (Precision::Bf16, true),
        ];
        for (p, loops) in ways {
            let mut other = seeded();
            other.prepare_inference(p, loops);
            match other.inference() {
                Some(i) if Some(i) != fast.inference() && (loops == i.is_loops()) => {
                    println!(
                        "bench network curve (batch:positions/s, {i}): {}",
                        curve(&other)
                    );
                }
                _ => {}
            }
        }
        // A CPU with AVX-512 also times the AVX2 kernels that CPUs without it run.
        use koma_model::cpu_net::Isa;
        if Isa::best() == Some(Isa::Avx512) {
            let mut narrow = seeded();
            narrow.prepare_inference(Precision::Fp32, true);
            if narrow.set_loops_isa(Isa::Avx2) == Some(Isa::Avx2) {
                println!(
                    "bench network curve (batch:positions/s, loops fp32 in AVX2): {}",
                    curve(&narrow)
                );
            }
        }
    }
    let pool = || (0..evaluators).map(|_| fast_model()).collect::<Vec<_>>();
    let (pipeline, _) = run_selfplay(&cfg, &v, pool(), a.seconds, f64::INFINITY);
    println!(
        "bench selfplay: {pipeline:.0} positions/s through the pipeline ({evaluators} evaluator thread{}); ratio to the raw network {:.2} (target 0.9)",
        if evaluators == 1 { "" } else { "s" },
        pipeline / raw
    );
    if a.arena_games > 0 {
        bench_arena(&v, fast_model(), a.arena_games, raw)?;
    }
    if let Some(m) = a.memory_minutes {
        let secs = m * 60.0;
        let (_, rss) = run_selfplay(&cfg, &v, pool(), secs, (secs / 20.0).max(5.0));
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

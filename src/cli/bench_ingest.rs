//! `koma bench --ingest`: what one trainer can take in as the store grows. Simulated workers
//! (1,000 by default) fill a store with real chunks up to a million; at each size the trainer
//! catches up, then every worker adds one chunk and one ingest pass is timed, against a full
//! listing of `games/` (what every pass cost before listings became incremental) measured on
//! the same store in the same run.

use koma_rules::{Position, Variant};
use koma_store::{chunk, sorted_legal, GameRecord, GameResult, SearchRecord, Store};
use koma_trainer::{RunConfig, Trainer};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A chunk as a worker writes it: one game of random legal moves with a search target on every
/// position.
fn sample_chunk(v: &Arc<Variant>, rng: &mut StdRng) -> (Vec<u8>, usize) {
    let mut pos = Position::start(v);
    let (mut moves, mut searches) = (Vec::new(), Vec::new());
    for _ in 0..rng.gen_range(10..30) {
        let legal = sorted_legal(&mut pos);
        if legal.is_empty() || pos.outcome().is_some() {
            break;
        }
        let i = rng.gen_range(0..legal.len());
        moves.push(i as u16);
        searches.push(Some(SearchRecord {
            policy: vec![(i as u16, 1.0)],
            value: 0.0,
        }));
        pos.make_move(legal[i]);
    }
    let plies = moves.len();
    let bytes = chunk::encode(&[GameRecord {
        variant: v.id.clone(),
        start: None,
        moves,
        searches,
        result: GameResult::Draw,
        reason: "bench".into(),
        resigned: false,
        model_step: 0,
    }]);
    (bytes, plies)
}

/// Puts chunks until the store holds `upto`, spread round-robin over `workers`, from a few
/// threads at once (uploads from many machines).
fn fill(
    store: &Arc<Store>,
    pool: &[Vec<u8>],
    workers: u64,
    have: u64,
    upto: u64,
) -> anyhow::Result<()> {
    let next = Arc::new(AtomicU64::new(have));
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let (store, next) = (store.clone(), next.clone());
                s.spawn(move || -> anyhow::Result<()> {
                    loop {
                        let n = next.fetch_add(1, Ordering::Relaxed);
                        if n >= upto {
                            return Ok(());
                        }
                        let (worker, seq) = (n % workers, n / workers);
                        let key = format!("games/w{worker:04}/{seq:010}-1g-20p.chunk");
                        store.put_new(&key, pool[(n as usize) % pool.len()].clone())?;
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().expect("a fill thread")?;
        }
        Ok(())
    })
}

/// Runs the benchmark against `store`, printing one line per store size.
pub fn run(v: &Arc<Variant>, store: Store, workers: u64, max_chunks: u64) -> anyhow::Result<()> {
    let store = Arc::new(store);
    let mut cfg = RunConfig::preset(&v.id, "cpu")
        .ok_or_else(|| anyhow::anyhow!("no CPU training preset for {}", v.id))?;
    cfg.trainer.delete_old_chunks = false;
    tch::set_num_threads(1);
    let dir = std::env::temp_dir().join(format!("koma-bench-ingest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut rng = StdRng::seed_from_u64(5);
    let (pool, plies): (Vec<Vec<u8>>, Vec<usize>) =
        (0..64).map(|_| sample_chunk(v, &mut rng)).unzip();
    let positions = plies.iter().sum::<usize>() as f64 / plies.len() as f64;
    let mut trainer = Trainer::open(&dir, v, &cfg, tch::Device::Cpu, store.clone())?;
    println!(
        "bench ingest: {} simulated workers, chunks of one {} game ({positions:.1} training positions on average), store {}",
        workers,
        v.name,
        store.url()
    );
    let mut sizes = Vec::new();
    let mut s = workers.max(1);
    while s < max_chunks {
        sizes.push(s);
        s *= 10;
    }
    sizes.push(max_chunks);
    let mut have = 0u64;
    for size in sizes {
        // Fill to size - workers, let the trainer catch up, then every worker adds one chunk.
        let before_round = size.saturating_sub(workers).max(have);
        let t = Instant::now();
        fill(&store, &pool, workers, have, before_round)?;
        let fill_rate = (before_round - have) as f64 / t.elapsed().as_secs_f64().max(1e-9);
        let t = Instant::now();
        let mut caught_up = 0usize;
        loop {
            trainer.ingest_final()?;
            let pass = trainer.last_pass();
            caught_up += pass.ingested;
            if pass.ingested == 0 {
                break;
            }
        }
        let catch_up_s = t.elapsed().as_secs_f64();
        // An idle pass: nothing new.
        trainer.ingest_final()?;
        let idle = trainer.last_pass();
        fill(&store, &pool, workers, before_round, size)?;
        have = size;
        let t = Instant::now();
        trainer.ingest_final()?;
        let pass_s = t.elapsed().as_secs_f64();
        let pass = trainer.last_pass();
        anyhow::ensure!(
            pass.ingested as u64 == size - before_round,
            "the pass took in {} chunks, {} were new",
            pass.ingested,
            size - before_round
        );
        let t = Instant::now();
        let all = store.list("games")?.len();
        let full_s = t.elapsed().as_secs_f64();
        println!(
            "bench ingest at {size} chunks: pass with {} new chunks {:.3} s (listing {:.3} s, {:.0} chunks/s, {:.0} positions/s taken in); idle pass listing {:.3} s; full listing of {all} keys {:.3} s (ratio full/incremental listing {:.1}); catch-up of {caught_up} chunks {:.0} chunks/s; fill {:.0} puts/s",
            pass.ingested,
            pass_s,
            pass.listing.as_secs_f64(),
            pass.ingested as f64 / pass_s,
            pass.ingested as f64 * positions / pass_s,
            idle.listing.as_secs_f64(),
            full_s,
            full_s / pass.listing.as_secs_f64().max(1e-9),
            caught_up as f64 / catch_up_s.max(1e-9),
            fill_rate,
        );
    }
    drop(trainer);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

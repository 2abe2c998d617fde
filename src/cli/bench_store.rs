//! `koma bench --store-only --store URL`: what a remote store costs the loop. Chunk uploads
//! (the uploader's path: one create-if-absent put at a time) and the download of a 20 MB model
//! with its SHA-256 check (the workers' path), each as a ratio to a local-directory store
//! measured in the same run.

use koma_store::{chunk, GameRecord, GameResult, SearchRecord, Store, StoreOptions, StoreUrl};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sha2::{Digest, Sha256};
use std::time::Instant;

/// A chunk shaped like self-play's: 8 games of 120 plies, a quarter with policy targets.
fn sample_chunk(rng: &mut StdRng) -> Vec<u8> {
    let games: Vec<GameRecord> = (0..8)
        .map(|_| {
            let moves: Vec<u16> = (0..120).map(|_| rng.gen_range(0..90)).collect();
            let searches = moves
                .iter()
                .map(|_| {
                    (rng.gen::<f32>() < 0.25).then(|| SearchRecord {
                        policy: (0..12)
                            .map(|_| (rng.gen_range(0..90), rng.gen::<f32>()))
                            .collect(),
                        value: rng.gen_range(-1.0..1.0),
                    })
                })
                .collect();
            GameRecord {
                variant: "hand-shogi".into(),
                start: None,
                moves,
                searches,
                result: GameResult::Draw,
                reason: "bench".into(),
                resigned: false,
                model_step: 0,
            }
        })
        .collect();
    chunk::encode(&games)
}

struct Figures {
    chunks_per_s: f64,
    mb_per_s: f64,
    download_s: f64,
}

fn measure(store: &Store, secs: f64, chunk: &[u8], model: &[u8]) -> anyhow::Result<Figures> {
    let run = format!("bench/{}-{}", std::process::id(), rand::random::<u32>());
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed().as_secs_f64() < secs / 2.0 || n < 5 {
        anyhow::ensure!(
            store.put_new(&format!("{run}/{n:010}.chunk"), chunk.to_vec())?,
            "bench key exists"
        );
        n += 1;
    }
    let up = start.elapsed().as_secs_f64();
    let key = format!("{run}/model.safetensors");
    store.put(&key, model.to_vec())?;
    let want = hex_sha(model);
    let mut times = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let got = store
            .get(&key)?
            .ok_or_else(|| anyhow::anyhow!("{key} vanished"))?;
        anyhow::ensure!(hex_sha(&got) == want, "the model came back different");
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    for k in store.list(&run)? {
        store.delete(&k)?;
    }
    Ok(Figures {
        chunks_per_s: n as f64 / up,
        mb_per_s: n as f64 * chunk.len() as f64 / up / 1e6,
        download_s: times[times.len() / 2],
    })
}

fn hex_sha(b: &[u8]) -> Vec<u8> {
    Sha256::digest(b).to_vec()
}

/// Runs the benchmark and prints one line per figure.
pub fn run(url: &StoreUrl, opts: &StoreOptions, secs: f64) -> anyhow::Result<()> {
    let mut rng = StdRng::seed_from_u64(3);
    let chunk = sample_chunk(&mut rng);
    let model: Vec<u8> = (0..20_000_000).map(|_| rng.gen()).collect();
    let local_dir = std::env::temp_dir().join(format!("koma-bench-local-{}", std::process::id()));
    let local = Store::local(&local_dir)?;
    let remote = Store::open(url, opts)?;
    let l = measure(&local, secs, &chunk, &model)?;
    let r = measure(&remote, secs, &chunk, &model)?;
    let _ = std::fs::remove_dir_all(&local_dir);
    println!(
        "bench store uploads: {:.1} chunks/s ({:.2} MB/s, chunks of {} KB) to {}; local directory {:.1} chunks/s ({:.2} MB/s); ratio {:.3}",
        r.chunks_per_s,
        r.mb_per_s,
        chunk.len() / 1000,
        remote.url(),
        l.chunks_per_s,
        l.mb_per_s,
        r.chunks_per_s / l.chunks_per_s
    );
    println!(
        "bench store model download: {:.3} s for 20 MB with SHA-256 check (median of 5) from {}; local directory {:.3} s; ratio {:.2}",
        r.download_s,
        remote.url(),
        l.download_s,
        r.download_s / l.download_s
    );
    Ok(())
}

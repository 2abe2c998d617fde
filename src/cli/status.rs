//! `koma status`: the one command an operator runs against a run's store. It shows the
//! workers seen recently (from their chunk keys: names carry game and position counts, times
//! come from the listing) with their rates, the newest published model, and the trainer's
//! status record.

use super::store_args::StoreArgs;
use clap::Args;
use koma_store::{publish, ChunkName, ObjectInfo, Store};
use koma_trainer::status::{self, TrainerStatus};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Options of `koma status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Run directory whose store to read (when --store is not given).
    #[arg(long)]
    pub run_dir: Option<PathBuf>,
    #[command(flatten)]
    pub store: StoreArgs,
    /// A worker is active if it wrote a chunk within this many minutes; rates are taken over
    /// this window.
    #[arg(long, default_value_t = 10.0)]
    pub recent: f64,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// One worker as the store shows it.
#[derive(Debug, Serialize)]
pub struct WorkerReport {
    worker: String,
    chunks: u64,
    games: u64,
    positions: u64,
    last_chunk_age_s: i64,
    active: bool,
    games_per_second: Option<f64>,
    positions_per_second: Option<f64>,
}

/// The newest published model.
#[derive(Debug, Serialize)]
pub struct ModelReport {
    step: u64,
    key: String,
    age_s: Option<i64>,
}

/// Everything `koma status` shows.
#[derive(Debug, Serialize)]
pub struct Report {
    store: String,
    workers: Vec<WorkerReport>,
    chunks: u64,
    games: u64,
    positions: u64,
    model: Option<ModelReport>,
    trainer: Option<TrainerStatus>,
    trainer_age_s: Option<i64>,
}

/// Rates of one worker over the recent window: the games of the chunks written after a
/// reference chunk, over the time since it (a chunk's games were played before its write).
fn rates(chunks: &[(ChunkName, i64)], since: i64) -> Option<(f64, f64)> {
    let recent: Vec<&(ChunkName, i64)> = chunks.iter().filter(|c| c.1 >= since).collect();
    let before = chunks.iter().filter(|c| c.1 < since).map(|c| c.1).max();
    let (reference, counted) = match before {
        Some(t) => (t, &recent[..]),
        None => (recent.first()?.1, recent.get(1..)?),
    };
    let last = recent.last()?.1;
    let span = (last - reference) as f64;
    if counted.is_empty() || span <= 0.0 {
        return None;
    }
    let games: u64 = counted.iter().filter_map(|c| c.0.games).sum();
    let positions: u64 = counted.iter().filter_map(|c| c.0.positions).sum();
    Some((games as f64 / span, positions as f64 / span))
}

/// Builds the report from the store.
pub fn report(store: &Store, recent_minutes: f64) -> anyhow::Result<Report> {
    let now = status::now();
    let since = now - (recent_minutes * 60.0) as i64;
    let mut by_worker: BTreeMap<String, Vec<(ChunkName, i64)>> = BTreeMap::new();
    for ObjectInfo { key, modified, .. } in store.list_info("games")? {
        if let Some(c) = ChunkName::parse_key(&key) {
            by_worker
                .entry(c.worker.clone())
                .or_default()
                .push((c, modified));
        }
    }
    let mut workers = Vec::new();
    let (mut chunks, mut games, mut positions) = (0, 0, 0);
    for (worker, mut list) in by_worker {
        list.sort_by_key(|c| (c.1, c.0.seq));
        let g: u64 = list.iter().filter_map(|c| c.0.games).sum();
        let p: u64 = list.iter().filter_map(|c| c.0.positions).sum();
        let last = list.last().map_or(0, |c| c.1);
        let r = rates(&list, since);
        chunks += list.len() as u64;
        games += g;
        positions += p;
        workers.push(WorkerReport {
            worker,
            chunks: list.len() as u64,
            games: g,
            positions: p,
            last_chunk_age_s: now - last,
            active: last >= since,
            games_per_second: r.map(|r| r.0),
            positions_per_second: r.map(|r| r.1),
        });
    }
    let model = match publish::latest(store)? {
        Some(l) => {
            let age = store
                .list_info("models")?
                .into_iter()
                .find(|o| o.key == publish::LATEST)
                .map(|o| now - o.modified);
            Some(ModelReport {
                step: l.step,
                key: l.key,
                age_s: age,
            })
        }
        None => None,
    };
    let trainer = status::read(store)?;
    Ok(Report {
        store: store.url().to_owned(),
        workers,
        chunks,
        games,
        positions,
        trainer_age_s: trainer.as_ref().map(|t| now - t.updated),
        model,
        trainer,
    })
}

fn rate(r: Option<f64>) -> String {
    r.map_or("-".into(), |r| format!("{r:.2}"))
}

fn print(r: &Report, recent: f64) {
    println!("store    {}", r.store);
    match &r.model {
        Some(m) => println!(
            "model    step {} ({}), published {}",
            m.step,
            m.key,
            m.age_s
                .map_or("at an unknown time".into(), |a| format!("{a} s ago"))
        ),
        None => println!("model    none published yet"),
    }
    match (&r.trainer, r.trainer_age_s) {
        (Some(t), Some(age)) => println!(
            "trainer  step {} on {}, {:.2} steps/s, window {} positions, ingested {} chunks / {} games / {} training positions, updated {age} s ago",
            t.step, t.host, t.steps_per_second, t.window_positions, t.chunks_ingested, t.games_ingested, t.positions_ingested
        ),
        _ => println!("trainer  no status record yet"),
    }
    println!(
        "workers  {} active (a chunk within {recent} min), {} seen",
        r.workers.iter().filter(|w| w.active).count(),
        r.workers.len()
    );
    if !r.workers.is_empty() {
        println!(
            "  {:<24} {:>7} {:>8} {:>10} {:>12} {:>8} {:>12}",
            "worker", "chunks", "games", "positions", "last chunk", "games/s", "positions/s"
        );
        for w in &r.workers {
            println!(
                "  {:<24} {:>7} {:>8} {:>10} {:>12} {:>8} {:>12}",
                w.worker,
                w.chunks,
                w.games,
                w.positions,
                format!("{} s ago", w.last_chunk_age_s),
                rate(w.games_per_second),
                rate(w.positions_per_second)
            );
        }
    }
    println!(
        "in store {} chunks, {} games, {} positions",
        r.chunks, r.games, r.positions
    );
}

/// Runs `koma status`.
pub fn run(a: StatusArgs) -> anyhow::Result<()> {
    anyhow::ensure!(a.recent > 0.0, "--recent must be positive");
    let store = a.store.open_given(a.run_dir.as_deref())?;
    let r = report(&store, a.recent)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print(&r, a.recent);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(seq: u64, games: u64, t: i64) -> (ChunkName, i64) {
        (
            ChunkName {
                worker: "w".into(),
                seq,
                games: Some(games),
                positions: Some(games * 100),
            },
            t,
        )
    }

    #[test]
    fn rates_count_games_after_the_reference_chunk() {
        // A chunk before the window is the reference: 12 games in the 60 s after it.
        let list = vec![c(0, 4, 1000), c(1, 4, 1030), c(2, 8, 1060)];
        let (g, p) = rates(&list, 1010).unwrap();
        assert!((g - 0.2).abs() < 1e-9 && (p - 20.0).abs() < 1e-9, "{g} {p}");
        // No chunk before the window: the first recent chunk is the reference.
        let (g, _) = rates(&list, 0).unwrap();
        assert!((g - 0.2).abs() < 1e-9, "{g}");
        // One chunk alone gives no rate.
        assert!(rates(&list[..1], 0).is_none());
        assert!(rates(&list, 2000).is_none());
    }
}

//! `koma games`: a run's self-play games at a glance, per stretch of training: how many, how
//! long, the results and how they ended. A run that learns to finish its games shows it here
//! (mates and captures replacing draws at the length limit), and the drawn games' material
//! at their end tells shuffles between equals from won positions left unfinished.

use super::store_args::StoreArgs;
use clap::Args;
use koma_store::summary::{by_stretch, GameSummary};
use koma_store::{chunk, ChunkName, GameRecord, MaterialScale};
use serde::Serialize;
use std::path::PathBuf;

/// Options of `koma games`.
#[derive(Debug, Args)]
pub struct GamesArgs {
    /// Run directory whose store to read (when --store is not given).
    #[arg(long)]
    pub run_dir: Option<PathBuf>,
    #[command(flatten)]
    pub store: StoreArgs,
    /// Split the games into this many stretches of training (by the step of the model that
    /// played them), each about as many games.
    #[arg(long, default_value_t = 4)]
    pub stretches: usize,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Everything `koma games` shows.
#[derive(Debug, Serialize)]
struct Report {
    store: String,
    chunks: usize,
    /// Chunks that could not be read, with the reason.
    unreadable: Vec<String>,
    stretches: Vec<GameSummary>,
    all: Option<GameSummary>,
    /// Why the drawn games' material was not counted, when it was not.
    no_margins: Option<String>,
}

fn print(r: &Report) {
    println!("store  {}", r.store);
    println!("chunks {} ({} unreadable)", r.chunks, r.unreadable.len());
    for u in &r.unreadable {
        println!("  skipped: {u}");
    }
    let Some(all) = &r.all else {
        println!("no games yet");
        return;
    };
    println!(
        "{:<13} {:>6} {:>16} {:>6} {:>6} {:>6} {:>6} {:>14}  end reasons",
        "model steps", "games", "black-draw-white", "mean", "median", "p90", "max", "draws =/+/++"
    );
    let mut rows: Vec<(&GameSummary, String)> = r
        .stretches
        .iter()
        .map(|s| (s, format!("{}-{}", s.first_step, s.last_step)))
        .collect();
    rows.push((all, "all".into()));
    for (s, steps) in rows {
        let reasons: Vec<String> = s
            .reasons
            .iter()
            .map(|(k, n)| format!("{k} {:.0}%", 100.0 * *n as f64 / s.games as f64))
            .collect();
        let margins = s.draw_margins.as_ref().map_or("-".into(), |m| {
            let unread = if m.unreadable > 0 {
                format!("?{}", m.unreadable)
            } else {
                String::new()
            };
            format!("{}/{}/{}{unread}", m.level, m.ahead, m.far_ahead)
        });
        println!(
            "{:<13} {:>6} {:>16} {:>6.0} {:>6} {:>6} {:>6} {:>14}  {}",
            steps,
            s.games,
            format!("{}-{}-{}", s.black_wins, s.draws, s.white_wins),
            s.mean_plies,
            s.median_plies,
            s.p90_plies,
            s.max_plies,
            margins,
            reasons.join(", ")
        );
    }
    if let Some(m) = r.all.as_ref().and_then(|a| a.draw_margins.as_ref()) {
        let unread = if m.unreadable > 0 {
            "; ?N: records that did not replay"
        } else {
            ""
        };
        println!(
            "draws =/+/++: drawn games whose material at the end was level (within one mean \
             piece value), one side ahead by 1-3 mean piece values, or by 3 or more{unread}"
        );
    } else if let Some(why) = &r.no_margins {
        println!("draws =/+/++: not counted ({why})");
    }
}

/// Runs `koma games`.
pub fn run(a: GamesArgs) -> anyhow::Result<()> {
    anyhow::ensure!(a.stretches > 0, "--stretches must be at least 1");
    let store = a.store.open_given(a.run_dir.as_deref())?;
    let keys: Vec<String> = store
        .list("games")?
        .into_iter()
        .filter(|k| ChunkName::parse_key(k).is_some())
        .collect();
    let mut games: Vec<GameRecord> = Vec::new();
    let mut unreadable = Vec::new();
    for key in &keys {
        match store.get(key)? {
            Some(bytes) => match chunk::decode(key, &bytes) {
                Ok(records) => games.extend(records),
                Err(e) => {
                    tracing::warn!("{e}");
                    unreadable.push(e.to_string());
                }
            },
            // Removed between the listing and the read (the trainer's clean-up).
            None => unreadable.push(format!("{key}: gone before it was read")),
        }
    }
    // The drawn games' material needs the variant: the one the records name, where it is
    // built in and all the records agree.
    let scale = match games.first().map(|g| g.variant.clone()) {
        None => Err("no games".to_owned()),
        Some(id) if games.iter().any(|g| g.variant != id) => {
            Err("the games are of more than one variant".to_owned())
        }
        Some(id) => koma_rules::load_variant(&id)
            .map(|v| MaterialScale::new(&v))
            .map_err(|e| format!("variant '{id}': {e}")),
    };
    let (stretches, all) = by_stretch(&games, a.stretches, scale.as_ref().ok());
    let r = Report {
        store: store.url().to_owned(),
        chunks: keys.len(),
        unreadable,
        stretches,
        all,
        no_margins: scale.err(),
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print(&r);
    }
    Ok(())
}

//! The learning loop end to end on a tiny network: self-play -> train -> publish -> reload ->
//! arena, and the TensorBoard events a run leaves behind.

mod common;

use koma_rules::load_variant;
use koma_store::{chunk, publish, Store};
use koma_trainer::session::{self, RunOptions};
use koma_trainer::RunConfig;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A network and schedule small enough for a test on two cores.
fn tiny_config(variant: &str) -> RunConfig {
    RunConfig::parse(&common::tiny_config_text(variant), "tiny.toml").unwrap()
}

fn run_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("koma-loop-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn options(dir: &Path, variant: &str, minutes: f64) -> RunOptions {
    RunOptions {
        run_dir: dir.to_path_buf(),
        config: tiny_config(variant),
        variant: load_variant(variant).unwrap(),
        minutes: Some(minutes),
        max_steps: None,
        max_games: None,
        stop: Arc::new(AtomicBool::new(false)),
        worker_prefix: "test".into(),
        store: koma_store::StoreUrl::File(dir.join("store")),
        store_options: Default::default(),
    }
}

/// Every scalar of the TensorBoard event files under `dir`: tag, step, value.
fn tensorboard_scalars_all(dir: &Path) -> Vec<(String, i64, f32)> {
    use protobuf::Message;
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let bytes = std::fs::read(e.path()).unwrap();
        let mut at = 0;
        // TFRecord framing: u64 length, u32 masked CRC, data, u32 masked CRC.
        while at + 12 <= bytes.len() {
            let len = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
            let data = &bytes[at + 12..at + 12 + len];
            at += 12 + len + 4;
            let event = tensorboard_proto::event::Event::parse_from_bytes(data).unwrap();
            for v in event.get_summary().get_value() {
                out.push((
                    v.get_tag().to_owned(),
                    event.get_step(),
                    v.get_simple_value(),
                ));
            }
        }
    }
    out
}

/// How many scalars each tag of the TensorBoard event files under `dir` has.
fn tensorboard_tags(dir: &Path) -> std::collections::BTreeMap<String, usize> {
    let mut tags = std::collections::BTreeMap::new();
    for (tag, _, _) in tensorboard_scalars_all(dir) {
        *tags.entry(tag).or_insert(0) += 1;
    }
    tags
}

/// The values of one scalar tag of the TensorBoard event files under `dir`, by step.
fn tensorboard_scalars(dir: &Path, tag: &str) -> Vec<(i64, f32)> {
    let mut out: Vec<(i64, f32)> = tensorboard_scalars_all(dir)
        .into_iter()
        .filter(|(t, _, _)| t == tag)
        .map(|(_, s, v)| (s, v))
        .collect();
    out.sort_by_key(|&(s, _)| s);
    out
}

fn check_run(dir: &Path, variant: &str) {
    let store = Store::local(&dir.join("store")).unwrap();
    let v = load_variant(variant).unwrap();
    // Published models: the initial one and later ones.
    let latest = publish::latest(&store).unwrap().expect("a published model");
    assert!(latest.step >= 3, "training went on: {latest:?}");
    let models: Vec<String> = store.list("models").unwrap();
    assert!(models.iter().any(|k| k.ends_with("0000000000.json")));
    // Games were recorded, replay under the rules, and later ones were played by a reloaded model.
    let mut games = 0;
    let mut reloaded = 0;
    for key in store.list("games").unwrap() {
        let records = chunk::decode(&key, &store.get(&key).unwrap().unwrap()).unwrap();
        for r in records {
            r.replay(&v, |_, _, _| {}).unwrap();
            games += 1;
            if r.model_step > 0 {
                reloaded += 1;
            }
        }
    }
    assert!(games >= 2, "{games} games");
    assert!(
        reloaded >= 1,
        "no game was played by a reloaded model ({games} games)"
    );
    // The newest model plays an arena match.
    let stem = publish::download(&store, &latest, &dir.join("arena-cache")).unwrap();
    let a: koma_arena::PlayerSpec = format!("model:{}:sims=8", stem.display()).parse().unwrap();
    let b: koma_arena::PlayerSpec = "random".parse().unwrap();
    let mut cfg = koma_arena::MatchConfig::new(v.clone(), a, b, 2);
    cfg.max_plies = Some(60);
    let report = koma_arena::run_match(&cfg).unwrap();
    assert_eq!(report.games.len(), 2);
}

#[test]
fn hand_shogi_selfplay_train_publish_reload_arena() {
    let dir = run_dir("hand");
    session::train(&options(&dir, "hand-shogi", 0.75)).unwrap();
    check_run(&dir, "hand-shogi");

    let tags = tensorboard_tags(&dir.join("tb").join("trainer"));
    for t in [
        "loss/policy",
        "loss/value",
        "loss/material",
        "loss/total",
        "train/learning_rate",
        "selfplay/games_per_second",
        "selfplay/positions_per_second",
        "evaluator/batch_size",
        "evaluator/utilisation",
        "selfplay/game_length",
        "results/black_win_rate",
        "results/white_win_rate",
        "results/draw_rate",
    ] {
        assert!(
            tags.get(t).copied().unwrap_or(0) > 0,
            "no '{t}' in {tags:?}"
        );
    }
    // No fall is set: past the warm-up the rate stays what the configuration says.
    let rate = tiny_config("hand-shogi").trainer.learning_rate as f32;
    let rates = tensorboard_scalars(&dir.join("tb").join("trainer"), "train/learning_rate");
    let (step, last) = *rates.last().unwrap();
    assert!(step >= 1 && last == rate, "{rates:?}");
}

/// Shoko Shogi, with two workers served by two evaluator threads, each following the
/// published models with its own copy.
#[test]
fn shoko_shogi_selfplay_train_publish_reload_arena() {
    let dir = run_dir("shoko");
    let mut opts = options(&dir, "shoko-shogi", 0.75);
    opts.config.selfplay.workers = 2;
    opts.config.selfplay.evaluators = 2;
    // The learning rate falls over the whole run, to nothing at its end: the run's deadline
    // reaches the trainer.
    opts.config.trainer.anneal_fraction = 1.0;
    opts.config.trainer.anneal_final = 0.0;
    let rate = opts.config.trainer.learning_rate as f32;
    session::train(&opts).unwrap();
    check_run(&dir, "shoko-shogi");
    let rates = tensorboard_scalars(&dir.join("tb").join("trainer"), "train/learning_rate");
    let (step, last) = *rates.last().unwrap();
    assert!(step >= 1 && last < 0.9 * rate, "{rates:?}");
}

/// Ko Shogi: shots, burns and nets in the policy and the input planes, end to end.
#[test]
fn ko_shogi_selfplay_train_publish_reload_arena() {
    let dir = run_dir("ko");
    session::train(&options(&dir, "ko-shogi", 0.75)).unwrap();
    check_run(&dir, "ko-shogi");
}

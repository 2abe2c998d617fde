//! A training run killed with SIGKILL resumes from its last checkpoint: the step count and the
//! optimiser state continue, and every self-play chunk is ingested exactly once.

mod common;

use koma_rules::load_variant;
use koma_store::{chunk, Store};
use koma_trainer::{checkpoint, RunConfig, Trainer};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn koma(dir: &Path, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_koma"));
    c.args(["train", "--variant", "hand-shogi", "--config"])
        .arg(dir.join("tiny.toml"))
        .arg("--run-dir")
        .arg(dir)
        .args(extra)
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c
}

fn checkpoint_step(dir: &Path) -> Option<u64> {
    let ck = checkpoint::current(&dir.join("trainer"))?;
    checkpoint::read_state(&ck).ok().map(|s| s.step)
}

fn momentum(path: &Path) -> Vec<(String, Vec<f32>)> {
    let mut v: Vec<(String, Vec<f32>)> = tch::Tensor::read_safetensors(path)
        .unwrap()
        .into_iter()
        .map(|(n, t)| (n, Vec::<f32>::try_from(t.reshape([-1])).unwrap()))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

#[test]
fn sigkilled_training_resumes_without_loss_or_duplication() {
    let dir = common::dir_with_tiny_config("resume");

    // First run: wait for a checkpoint past a few steps, then kill it outright.
    let mut child = koma(&dir, &[]).spawn().unwrap();
    let start = Instant::now();
    while checkpoint_step(&dir).unwrap_or(0) < 6 {
        assert!(
            start.elapsed() < Duration::from_secs(240),
            "no checkpoint in time"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "koma train exited early"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    std::thread::sleep(Duration::from_millis(700));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();

    let ck = checkpoint::current(&dir.join("trainer")).unwrap();
    let saved = checkpoint::read_state(&ck).unwrap();
    let saved_momentum = momentum(&ck.join("optimizer.safetensors"));
    assert!(saved_momentum
        .iter()
        .any(|(_, m)| m.iter().any(|x| *x != 0.0)));

    // Reopening restores exactly the checkpointed state and optimiser.
    {
        let v = load_variant("hand-shogi").unwrap();
        let cfg = RunConfig::parse(&common::tiny_config_text("hand-shogi"), "tiny.toml").unwrap();
        let store = Arc::new(Store::local(&dir.join("store")).unwrap());
        let t = Trainer::open(&dir, &v, &cfg, tch::Device::Cpu, store).unwrap();
        assert_eq!(t.state, saved);
        let mut live: Vec<(String, Vec<f32>)> = t
            .optimizer()
            .state()
            .into_iter()
            .map(|(n, b)| (n, Vec::<f32>::try_from(b.reshape([-1])).unwrap()))
            .collect();
        live.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(live, saved_momentum);
    }

    // Second run continues from the checkpoint to a later step, then stops cleanly.
    let target = saved.step + 6;
    let out = koma(&dir, &["--steps", &target.to_string(), "--minutes", "4"])
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    assert!(
        log.contains("resuming from checkpoint") && log.contains(&format!("step={}", saved.step)),
        "{log}"
    );
    let end = checkpoint::read_state(&checkpoint::current(&dir.join("trainer")).unwrap()).unwrap();
    assert!(end.step >= target, "{} < {target}", end.step);
    assert!(end.samples_trained > saved.samples_trained);

    // Every chunk in the store was ingested exactly once: counts match the store's contents.
    let store = Store::local(&dir.join("store")).unwrap();
    let v = load_variant("hand-shogi").unwrap();
    let keys = store.list("games").unwrap();
    let (mut games, mut positions) = (0u64, 0u64);
    for k in &keys {
        let records = chunk::decode(k, &store.get(k).unwrap().unwrap()).unwrap();
        for r in &records {
            r.replay(&v, |_, _, _| {}).unwrap();
            positions += r.samples() as u64;
        }
        games += records.len() as u64;
    }
    assert_eq!(end.chunks_ingested, keys.len() as u64);
    assert_eq!(end.games_ingested, games);
    assert_eq!(end.positions_ingested, positions);
}

/// Trains the tiny run in `dir` to `steps` and returns its checkpoint directory.
fn train_to(dir: &Path, steps: u64) -> std::path::PathBuf {
    let out = koma(dir, &["--steps", &steps.to_string(), "--minutes", "4"])
        .output()
        .unwrap();
    common::assert_success(&out);
    dir.join("trainer")
}

/// Every object under `models/` with its bytes.
fn published_models(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let store = Store::local(&dir.join("store")).unwrap();
    store
        .list("models")
        .unwrap()
        .into_iter()
        .filter(|k| k != "models/LATEST")
        .map(|k| {
            let bytes = store.get(&k).unwrap().unwrap();
            (k, bytes)
        })
        .collect()
}

#[test]
fn a_damaged_newest_checkpoint_is_named_and_the_previous_one_resumed() {
    let dir = common::dir_with_tiny_config("damaged-checkpoint");
    let root = train_to(&dir, 9);
    let kept = checkpoint::candidates(&root);
    assert_eq!(
        kept.len(),
        2,
        "the newest checkpoint and the one before: {kept:?}"
    );
    let newest = kept[0].clone();
    let previous_step = checkpoint::read_state(&kept[1]).unwrap().step;
    let newest_step = checkpoint::read_state(&newest).unwrap().step;
    assert!(previous_step < newest_step);
    let before = published_models(&dir);
    assert!(
        before
            .keys()
            .any(|k| k.contains(&format!("{newest_step:010}"))),
        "{:?}",
        before.keys()
    );
    // The newest checkpoint's weights are cut in half, as a full disk or a fault would leave them.
    let weights = newest.join("weights.safetensors");
    let len = std::fs::metadata(&weights).unwrap().len();
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(&weights)
        .unwrap();
    f.set_len(len / 2).unwrap();
    drop(f);

    let target = newest_step + 6;
    let out = koma(&dir, &["--steps", &target.to_string(), "--minutes", "4"])
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    assert!(
        log.contains(&format!("checkpoint {} is damaged", newest.display()))
            && log.contains("bytes, the checkpoint wrote"),
        "the damaged checkpoint is named with what is wrong: {log}"
    );
    assert!(
        log.contains("resuming from checkpoint") && log.contains(&format!("step={previous_step}")),
        "{log}"
    );
    let mut aside = newest.as_os_str().to_owned();
    aside.push(checkpoint::DAMAGED_SUFFIX);
    assert!(Path::new(&aside).exists(), "kept for inspection");
    let end = checkpoint::read_state(&checkpoint::current(&root).unwrap()).unwrap();
    assert!(end.step >= target, "{} < {target}", end.step);
    // No published model was lost or replaced, and LATEST did not go back.
    let after = published_models(&dir);
    for (k, bytes) in &before {
        assert_eq!(after.get(k), Some(bytes), "{k} changed or vanished");
    }
    let store = Store::local(&dir.join("store")).unwrap();
    let latest = koma_store::publish::latest(&store).unwrap().unwrap();
    assert!(latest.step > newest_step, "LATEST at {}", latest.step);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run resumed with a configuration of another network stops with an error that names both
/// networks and what to do, and its checkpoints stay where they are (not set aside as damaged).
#[test]
fn a_run_resumed_with_another_network_is_refused_and_kept() {
    let dir = common::dir_with_tiny_config("resume-arch");
    let root = train_to(&dir, 4);
    let before = checkpoint::candidates(&root);
    assert!(!before.is_empty(), "a checkpoint was written");
    let cfg = std::fs::read_to_string(dir.join("tiny.toml")).unwrap();
    assert!(cfg.contains("channels = 8\n"), "{cfg}");
    std::fs::write(
        dir.join("tiny.toml"),
        cfg.replace("channels = 8\n", "channels = 12\n"),
    )
    .unwrap();

    let out = koma(&dir, &["--steps", "8", "--minutes", "4"])
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{log}");
    assert!(
        log.contains("the configuration asks for")
            && log.contains("channels: 8")
            && log.contains("channels: 12")
            && log.contains("--config"),
        "names both networks and the way out: {log}"
    );
    assert!(!log.contains("is damaged"), "{log}");
    assert_eq!(
        checkpoint::candidates(&root),
        before,
        "every checkpoint kept"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

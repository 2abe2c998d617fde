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

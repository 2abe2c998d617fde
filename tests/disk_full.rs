//! A worker whose spool's disk fills up: it says so, keeps the games it has, pauses, and
//! resumes when space returns; every game it finished reaches the store once. The spool is a
//! real 1 MiB tmpfs, filled by a file; this needs root (mount), and the test says it is skipped
//! where it cannot mount.

mod common;

use koma_rules::load_variant;
use koma_store::{chunk, Store};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A mounted tmpfs, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(at: &Path, size: &str) -> Result<Tmpfs, String> {
        std::fs::create_dir_all(at).unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .output()
            .map_err(|e| format!("mount: {e}"))?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).trim().to_owned());
        }
        Ok(Tmpfs(at.to_owned()))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Fills the file system of `dir` with one file until a write fails; returns the file.
fn fill(dir: &Path) -> PathBuf {
    let path = dir.join("filler");
    let mut f = std::fs::File::create(&path).unwrap();
    let block = vec![0u8; 4096];
    while f.write_all(&block).and_then(|_| f.sync_all()).is_ok() {}
    path
}

fn games_in_store(dir: &Path) -> (usize, Vec<String>) {
    let Ok(store) = Store::local(&dir.join("store")) else {
        return (0, Vec::new());
    };
    let keys = store.list("games").unwrap_or_default();
    let v = load_variant("hand-shogi").unwrap();
    let mut games = 0;
    for k in &keys {
        let records = chunk::decode(k, &store.get(k).unwrap().unwrap()).unwrap();
        for r in &records {
            r.replay(&v, |_, _, _| {}).unwrap();
        }
        games += records.len();
    }
    (games, keys)
}

fn wait_for(
    what: &str,
    log: &Path,
    child: &mut std::process::Child,
    mut done: impl FnMut(&str) -> bool,
) {
    let end = Instant::now() + Duration::from_secs(180);
    loop {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        if done(&text) {
            return;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("koma train ended ({status}) before {what}:\n{text}");
        }
        if Instant::now() > end {
            let _ = child.kill();
            panic!("no {what} within 180 s:\n{text}");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_full_spool_pauses_the_worker_and_loses_no_game() {
    let dir = common::dir_with_tiny_config("disk-full");
    let tmpfs = match Tmpfs::mount(&dir.join("spool"), "1m") {
        Ok(t) => t,
        Err(e) => {
            eprintln!(
                "disk-full test SKIPPED: cannot mount a tmpfs for the spool ({e}); it needs root"
            );
            return;
        }
    };
    let log = dir.join("train.log");
    // Enough games that the run cannot finish between the first stored chunk and the disk
    // filling up: a tiny network plays a Hand Shogi game in well under 0.1 s on a fast host.
    let games = 200;
    let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["train", "--variant", "hand-shogi", "--config"])
        .arg(dir.join("tiny.toml"))
        .arg("--run-dir")
        .arg(&dir)
        .args(["--games", &games.to_string(), "--minutes", "5"])
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    // The first game reaches the store; then the spool's disk fills up.
    wait_for("a first chunk in the store", &log, &mut child, |_| {
        games_in_store(&dir).0 >= 1
    });
    let filler = fill(&tmpfs.0);
    wait_for(
        "the worker saying the spool is full",
        &log,
        &mut child,
        |t| t.contains("cannot write to the spool"),
    );
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("No space left on device") && text.contains("games already in it are kept"),
        "{text}"
    );
    let (stored_while_full, keys_while_full) = games_in_store(&dir);
    std::thread::sleep(Duration::from_secs(3));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the worker must wait, not end"
    );
    assert!(stored_while_full < games);
    // Space returns.
    std::fs::remove_file(filler).unwrap();
    let status = child.wait().unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(status.success(), "{text}");
    assert!(text.contains("takes writes again"), "{text}");
    let (stored, keys) = games_in_store(&dir);
    assert_eq!(
        stored, games,
        "every game finished is stored once: {keys:?}"
    );
    for k in &keys_while_full {
        assert!(keys.contains(k), "{k} was lost");
    }
    drop(tmpfs);
    let _ = std::fs::remove_dir_all(&dir);
}

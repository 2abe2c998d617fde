//! Outside engines in `koma arena` on the paths where they fail: an engine never outlives the
//! arena (handshake timeout, Ctrl-C), a command that cannot start is named with the reason,
//! and errors say each cause once; the arena takes the variant from a model as `koma play`
//! does.

#[path = "../arena/tests/common/mod.rs"]
mod common;
mod component;
mod koma_cli;

use koma_cli::koma;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("koma-arena-engines-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A fake engine: a shell script that starts a child process of its own (`sleep`, whose pid
/// it writes to `pid`), then runs `body`.
fn fake_engine(dir: &Path, body: &str) -> PathBuf {
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        format!(
            "sleep 1000 &\necho $! > '{}'\n{body}\n",
            dir.join("pid").display()
        ),
    )
    .unwrap();
    script
}

/// The fake engine's child, once it has started.
fn child_pid(dir: &Path) -> u32 {
    let end = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(t) = std::fs::read_to_string(dir.join("pid")) {
            if let Ok(pid) = t.trim().parse() {
                return pid;
            }
        }
        assert!(Instant::now() < end, "the fake engine never started");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether process `pid` still runs (a zombie waiting to be reaped does not).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next();
            state != Some("Z") && state != Some("X")
        }
        Err(_) => false,
    }
}

fn gone_soon(pid: u32) -> bool {
    let end = Instant::now() + Duration::from_secs(5);
    while Instant::now() < end {
        if !alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn an_engine_that_never_answers_the_handshake_is_stopped_with_all_it_started() {
    let dir = scratch("silent");
    let engine = fake_engine(&dir, "wait");
    let player = format!("uci:sh {};timeout=1", engine.display());
    let (ok, _, err) = koma(&["arena", "--a", "random", "--b", &player, "--games", "2"]);
    assert!(!ok);
    assert!(err.contains("no 'uciok' within 1 s"), "{err}");
    let pid = child_pid(&dir);
    assert!(
        gone_soon(pid),
        "the engine's child {pid} outlived the arena"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_stops_the_arena_and_its_engines() {
    let dir = scratch("ctrl-c");
    // Completes the handshake, then never moves.
    let engine = fake_engine(
        &dir,
        "while read line; do case \"$line\" in uci) echo uciok;; isready) echo readyok;; esac; done",
    );
    let player = format!("uci:sh {}", engine.display());
    let arena = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["arena", "--a", &player, "--b", "random", "--games", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child_pid(&dir);
    std::thread::sleep(Duration::from_millis(500));
    let status = Command::new("kill")
        .args(["-INT", &arena.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = arena.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("outside engines stopped"), "{err}");
    assert!(
        gone_soon(pid),
        "the engine's child {pid} outlived the arena"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_command_that_cannot_start_is_named() {
    let (ok, _, err) = koma(&[
        "arena",
        "--a",
        "random",
        "--b",
        "usi:no-such-engine-koma",
        "--games",
        "2",
    ]);
    assert!(!ok);
    assert!(err.contains("no-such-engine-koma"), "{err}");
    assert!(err.contains("not found"), "{err}");
    let (ok, _, err) = koma(&[
        "arena",
        "--a",
        "random",
        "--b",
        "uci:/nonexistent/engine",
        "--games",
        "2",
    ]);
    assert!(!ok);
    assert!(err.contains("/nonexistent/engine"), "{err}");
    assert!(err.contains("not found"), "{err}");
}

#[test]
fn a_missing_model_is_reported_with_its_cause_once() {
    for args in [
        &["play", "--model", "/missing/model"][..],
        &[
            "arena",
            "--a",
            "random",
            "--b",
            "model:/missing/model",
            "--games",
            "2",
        ][..],
        &[
            "arena",
            "--a",
            "model:/missing/model",
            "--b",
            "random",
            "--games",
            "2",
        ][..],
    ] {
        let (ok, _, err) = koma(args);
        assert!(!ok, "{args:?}");
        assert!(err.contains("/missing/model"), "{args:?}: {err}");
        assert_eq!(
            err.matches("No such file or directory").count(),
            1,
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_missing_run_directory_is_named_as_such() {
    let (ok, _, err) = koma(&["play", "--run-dir", "/no/such/koma-run"]);
    assert!(!ok);
    assert!(err.contains("/no/such/koma-run"), "{err}");
    assert!(err.contains("no such directory"), "{err}");
}

#[test]
fn the_arena_takes_the_variant_from_a_model() {
    let stem = common::tiny_checkpoint("ko-shogi", "arena-variant");
    let player = format!("model:{}:sims=2", stem.display());
    let (ok, out, err) = koma(&[
        "arena",
        "--a",
        &player,
        "--b",
        "random",
        "--games",
        "2",
        "--max-plies",
        "6",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("ko-shogi") || err.contains("ko-shogi"),
        "{out}{err}"
    );
    // A variant that contradicts the model is still an error, named once.
    let (ok, _, err) = koma(&[
        "arena",
        "--variant",
        "hand-shogi",
        "--a",
        &player,
        "--b",
        "random",
        "--games",
        "2",
    ]);
    assert!(!ok);
    assert_eq!(err.matches("not 'hand-shogi'").count(), 1, "{err}");
}

/// The real outside engine the README measures against: Fairy-Stockfish (scripts/fairy-stockfish.sh,
/// Node and the npm registry) plays Hand Shogi in the arena, refereed by koma's rules.
#[test]
fn fairy_stockfish_plays_hand_shogi_in_the_arena() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/fairy-stockfish.sh");
    let install = Command::new(&script)
        .arg("--install")
        .stdout(Stdio::null())
        .output()
        .expect("bash runs");
    if !install.status.success() {
        component::component_missing(
            "Fairy-Stockfish arena test",
            &format!(
                "Fairy-Stockfish could not be installed: {}",
                String::from_utf8_lossy(&install.stderr).trim()
            ),
        );
        return;
    }
    let player = format!("uci:{};go=depth 1;variant=handshogi", script.display());
    let (ok, out, err) = koma(&[
        "arena",
        "--variant",
        "hand-shogi",
        "--a",
        &player,
        "--b",
        "random",
        "--games",
        "2",
        "--max-plies",
        "300",
    ]);
    assert!(ok, "{out}\n{err}");
    // Depth 1 against a random mover: both games won, every move legal by koma's rules (an
    // illegal one would forfeit).
    let total = out
        .lines()
        .find(|l| l.starts_with("total"))
        .unwrap_or_else(|| panic!("no totals: {out}"));
    let counts: Vec<&str> = total.split_whitespace().collect();
    assert_eq!(counts[1..5], ["2", "2", "0", "0"], "{out}");
    assert!(
        !out.contains("forfeit") && !err.contains("illegal"),
        "{out}\n{err}"
    );
}

#[test]
fn an_xboard_engine_that_refuses_a_relayed_move_forfeits_with_its_words() {
    let dir = scratch("refuses");
    // Answers the handshake, refuses every move relayed to it, and would then move from a
    // position that is not the game's: the arena must end the game instead.
    let engine = fake_engine(
        &dir,
        r#"while read -r line; do
  case "$line" in
    protover*) echo "feature usermove=1 done=1" ;;
    ping*) echo "pong ${line#ping }" ;;
    usermove*) echo "Illegal move: ${line#usermove }" ;;
    go) echo "move e7e6" ;;
    quit) exit 0 ;;
  esac
done"#,
    );
    let player = format!("xboard:sh {};timeout=10", engine.display());
    let (ok, out, err) = koma(&[
        "arena",
        "--a",
        "random",
        "--b",
        &player,
        "--games",
        "2",
        "--opening-plies",
        "0",
    ]);
    assert!(ok, "{err}");
    // In the game where the engine moves second it is sent the first move and refuses it.
    let all = format!("{out}\n{err}");
    assert!(
        all.contains("refused a move of the game relayed to it: 'Illegal move: "),
        "{all}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

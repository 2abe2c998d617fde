//! Components held under load for a while, each printing what it held:
//!
//! - `koma play` with 50 concurrent clients playing one game through the HTTP API: every
//!   answer is one the API may give (a legal move played, 409 while the engine thinks or after
//!   another client's move), none fails, and resident memory stays flat after the warm-up;
//! - `koma-engine` through a long arena match over USI and UCI: no forfeit, no engine process
//!   left behind, the engines' memory and thread counts flat.
//!
//! Lengths: `KOMA_SOAK_SECONDS` (play, default 30) and `KOMA_SOAK_GAMES` (engine, default 80
//! games at 20 ms a move): short enough for every CI run. `scripts/soak.sh` runs them at 60 s
//! and 200 games, with the S3 soak.

#[path = "../arena/tests/common/mod.rs"]
mod common;

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A field of /proc/PID/status (`VmRSS` in KiB, `Threads`), if the process exists.
fn proc_status(pid: u32, field: &str) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines()
        .find(|l| l.starts_with(&format!("{field}:")))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Live processes whose command line contains `needle` (zombies are not alive), with their
/// first argument.
fn processes_with(needle: &str) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmd) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let zombie = state
            .rsplit(')')
            .next()
            .is_some_and(|r| r.trim_start().starts_with('Z'));
        let cmd = String::from_utf8_lossy(&cmd).into_owned();
        if !zombie && cmd.contains(needle) && pid != std::process::id() {
            out.push((pid, cmd.split('\0').next().unwrap_or("").to_owned()));
        }
    }
    out
}

/// One request on a fresh connection; the status and the JSON body.
fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> Result<(u16, Value), String> {
    let mut s = std::net::TcpStream::connect(addr).map_err(|e| format!("connect: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .map_err(|e| format!("send: {e}"))?;
    let mut text = String::new();
    s.read_to_string(&mut text)
        .map_err(|e| format!("{method} {path}: read: {e}"))?;
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("{method} {path}: no status line in '{text}'"))?;
    let body = text.split_once("\r\n\r\n").map(|x| x.1).unwrap_or("");
    let v = serde_json::from_str(body).map_err(|e| {
        format!("{method} {path}: {status} with a body that is not JSON ({e}): {body}")
    })?;
    Ok((status, v))
}

/// Whether a 409 answer gives one of the reasons the API has for it.
fn conflict_is_explained(v: &Value) -> bool {
    let msg = v["error"].as_str().unwrap_or("");
    [
        "the engine is searching",
        "the game is over",
        "not a legal move",
        "take back",
        "undo",
    ]
    .iter()
    .any(|r| msg.contains(r))
}

/// What the clients saw.
#[derive(Default)]
struct Tally {
    requests: AtomicU64,
    ok: AtomicU64,
    conflicts: AtomicU64,
    engine_moves: AtomicU64,
    moves: AtomicU64,
    errors: Mutex<Vec<String>>,
}

impl Tally {
    fn fail(&self, e: String) {
        let mut errors = self.errors.lock().unwrap();
        if errors.len() < 20 {
            errors.push(e);
        }
    }
}

/// One client: reads the state, then plays a legal move, asks for the engine's move, takes
/// back, starts a new game or reads the record, and checks each answer.
fn client(addr: SocketAddr, seed: u64, until: Instant, tally: &Tally) {
    let mut r = seed;
    let mut next = move || {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        r
    };
    while Instant::now() < until {
        tally.requests.fetch_add(1, Ordering::Relaxed);
        let state = match request(addr, "GET", "/api/state", "") {
            Ok((200, v)) => v,
            Ok((s, v)) => return tally.fail(format!("GET /api/state: {s} {v}")),
            Err(e) => return tally.fail(e),
        };
        let legal: Vec<String> = state["legal"]
            .as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|m| m["text"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        let ply = state["ply"].as_u64().unwrap_or(0);
        let over = !state["outcome"].is_null();
        if !over && legal.is_empty() && !state["thinking"].as_bool().unwrap_or(false) {
            return tally.fail(format!("a game not over with no legal move: {state}"));
        }
        let roll = next() % 100;
        let (method, path, body) = if over || roll < 5 {
            ("POST", "/api/new", String::new())
        } else if roll < 60 && !legal.is_empty() {
            let mv = &legal[(next() as usize) % legal.len()];
            ("POST", "/api/move", format!(r#"{{"move": "{mv}"}}"#))
        } else if roll < 80 {
            ("POST", "/api/engine", r#"{"sims": 8}"#.to_owned())
        } else if roll < 90 {
            ("POST", "/api/undo", r#"{"plies": 1}"#.to_owned())
        } else {
            ("GET", "/api/record", String::new())
        };
        tally.requests.fetch_add(1, Ordering::Relaxed);
        match request(addr, method, path, &body) {
            Ok((200, v)) => {
                tally.ok.fetch_add(1, Ordering::Relaxed);
                if path == "/api/move" {
                    tally.moves.fetch_add(1, Ordering::Relaxed);
                    // The move played is the one sent, as the newest of the history (or the
                    // one before an engine reply that came with it).
                    let sent = body.split('"').nth(3).unwrap_or("");
                    let history = v["history"].as_array().cloned().unwrap_or_default();
                    let found = history
                        .iter()
                        .rev()
                        .take(2)
                        .any(|h| h["text"].as_str() == Some(sent));
                    if !found {
                        tally.fail(format!(
                            "move {sent} answered 200 but is not in the history"
                        ));
                    }
                } else if path == "/api/engine" {
                    tally.engine_moves.fetch_add(1, Ordering::Relaxed);
                    if v["ply"].as_u64().unwrap_or(0) == 0 {
                        tally.fail(format!("an engine move left the game at ply 0 (was {ply})"));
                    }
                }
            }
            Ok((409, v)) if conflict_is_explained(&v) => {
                tally.conflicts.fetch_add(1, Ordering::Relaxed);
            }
            Ok((s, v)) => tally.fail(format!("{method} {path} {body}: {s} {v}")),
            Err(e) => tally.fail(e),
        }
    }
}

#[test]
fn koma_play_holds_fifty_clients() {
    let secs: u64 = env_or("KOMA_SOAK_SECONDS", 30);
    let stem = common::tiny_checkpoint("hand-shogi", "soak-play");
    let mut play = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["play", "--port", "0", "--sims", "8", "--model"])
        .arg(&stem)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(play.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr: SocketAddr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in '{line}'"));
    let pid = play.id();
    let tally = Arc::new(Tally::default());
    let start = Instant::now();
    let until = start + Duration::from_secs(secs);
    let clients: Vec<_> = (0..50u64)
        .map(|i| {
            let tally = tally.clone();
            std::thread::spawn(move || client(addr, 0x9E37_79B9_7F4A_7C15 ^ (i + 1), until, &tally))
        })
        .collect();
    // Resident memory each second; the warm-up is the first quarter.
    let mut rss: Vec<(f64, u64)> = Vec::new();
    while Instant::now() < until {
        if let Some(kb) = proc_status(pid, "VmRSS") {
            rss.push((start.elapsed().as_secs_f64(), kb));
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    for c in clients {
        c.join().unwrap();
    }
    // The game the clients left replays under koma's rules.
    let (st, record) = request(addr, "GET", "/api/record", "").unwrap();
    assert_eq!(st, 200);
    let v = koma_rules::load_variant("hand-shogi").unwrap();
    let mut pos = koma_rules::Position::from_text(&v, record["start"].as_str().unwrap()).unwrap();
    let moves: Vec<&str> = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    pos.play_texts(&moves.join(" ")).unwrap();
    let alive = play.try_wait().unwrap().is_none();
    let _ = play.kill();
    let _ = play.wait();
    let errors = tally.errors.lock().unwrap().clone();
    assert!(alive, "koma play ended during the soak");
    assert!(
        errors.is_empty(),
        "{} errors, the first: {errors:#?}",
        errors.len()
    );
    let warm = rss.len() / 4;
    let warm_kb = rss[..=warm].iter().map(|r| r.1).max().unwrap();
    let late_kb = rss[warm..].iter().map(|r| r.1).max().unwrap();
    let (requests, engine) = (
        tally.requests.load(Ordering::Relaxed),
        tally.engine_moves.load(Ordering::Relaxed),
    );
    eprintln!(
        "soak koma play: 50 clients, {secs} s: {requests} requests, {} answered 200 ({} moves played, {engine} engine moves), {} answered 409 with the reason, 0 errors; resident memory {} MiB after the warm-up, at most {} MiB later",
        tally.ok.load(Ordering::Relaxed),
        tally.moves.load(Ordering::Relaxed),
        tally.conflicts.load(Ordering::Relaxed),
        warm_kb / 1024,
        late_kb / 1024
    );
    assert!(engine > 0 && tally.moves.load(Ordering::Relaxed) > 0);
    assert!(
        late_kb <= warm_kb + warm_kb / 10 + 16 * 1024,
        "resident memory grew from {warm_kb} KiB to {late_kb} KiB: {rss:?}"
    );
}

/// Resident memory and threads of the engine processes over a match.
#[derive(Debug, Default, Clone, Copy)]
struct Sample {
    processes: usize,
    rss_kb: u64,
    threads: u64,
}

#[test]
fn koma_engine_holds_a_long_arena_match() {
    let games: usize = env_or("KOMA_SOAK_GAMES", 80);
    let stem = common::tiny_checkpoint("hand-shogi", "soak-engine");
    let needle = stem.display().to_string();
    let engine = format!("{} --model {needle}", env!("CARGO_BIN_EXE_koma-engine"));
    let mut arena: Child = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args([
            "arena",
            "--variant",
            "hand-shogi",
            "--games",
            &games.to_string(),
        ])
        .args(["--max-plies", "60"])
        // A fast limit: 20 ms a move (the root mate search takes a quarter of it).
        .args(["--a", &format!("usi:{engine};go=byoyomi 20")])
        .args(["--b", &format!("uci:{engine};go=movetime 20")])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut samples: Vec<Sample> = Vec::new();
    while arena.try_wait().unwrap().is_none() {
        // The engines themselves (not the shells the arena starts them through).
        let pids: Vec<u32> = processes_with(&needle)
            .into_iter()
            .filter(|(_, argv0)| argv0.ends_with("koma-engine"))
            .map(|(p, _)| p)
            .collect();
        samples.push(Sample {
            processes: pids.len(),
            rss_kb: pids.iter().filter_map(|&p| proc_status(p, "VmRSS")).sum(),
            threads: pids.iter().filter_map(|&p| proc_status(p, "Threads")).sum(),
        });
        assert!(
            start.elapsed() < Duration::from_secs(1200),
            "the match hangs"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    let out = arena.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let total = stdout
        .lines()
        .find(|l| l.starts_with("total"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert_eq!(
        total.split_whitespace().nth(1),
        Some(games.to_string().as_str()),
        "{stdout}"
    );
    assert!(
        !stdout.contains("forfeit") && !stderr.contains("forfeit"),
        "{stdout}\n{stderr}"
    );
    // No engine outlives the match.
    let end = Instant::now() + Duration::from_secs(5);
    while !processes_with(&needle).is_empty() && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        processes_with(&needle).is_empty(),
        "an engine process was left behind"
    );
    let running: Vec<Sample> = samples.into_iter().filter(|s| s.processes == 2).collect();
    assert!(
        running.len() >= 8,
        "too short a match to judge: {running:?}"
    );
    let half = running.len() / 2;
    let max = |s: &[Sample], f: fn(&Sample) -> u64| s.iter().map(f).max().unwrap();
    let (rss_early, rss_late) = (
        max(&running[..half], |s| s.rss_kb),
        max(&running[half..], |s| s.rss_kb),
    );
    let (thr_early, thr_late) = (
        max(&running[..half], |s| s.threads),
        max(&running[half..], |s| s.threads),
    );
    eprintln!(
        "soak koma-engine: {games} games over USI and UCI in {:.0} s, no forfeit, no process left; two engines' resident memory at most {} MiB in the first half, {} MiB in the second; threads at most {thr_early}, then {thr_late}",
        start.elapsed().as_secs_f64(),
        rss_early / 1024,
        rss_late / 1024,
    );
    assert!(
        rss_late <= rss_early + rss_early / 10 + 16 * 1024,
        "the engines' memory grew: {running:?}"
    );
    // A search thread lives only while an engine thinks, so a sample sees one more or less;
    // a leak would add one a move.
    assert!(
        thr_late <= thr_early + 2,
        "the engines' threads grew: {running:?}"
    );
}

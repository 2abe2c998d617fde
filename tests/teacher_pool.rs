//! `[trainer] teacher_share`: the games of `koma teach` are held apart from the replay window,
//! stay there however much self-play follows (through a restart and the window's pruning too),
//! and make up the configured share of every batch.

mod common;

use koma_rules::{load_variant, Position, Variant};
use koma_store::{chunk, sorted_legal, GameRecord, GameResult, SearchRecord, Store};
use koma_trainer::{RunConfig, Trainer};
use std::path::Path;
use std::sync::Arc;

/// A game of `plies` moves (fewer if it ends), every move fully searched with root value 0;
/// `seed` picks the moves.
fn game(v: &Arc<Variant>, plies: usize, seed: usize, result: GameResult) -> GameRecord {
    let mut pos = Position::start(v);
    let mut moves = Vec::new();
    for k in 0..plies {
        if pos.outcome().is_some() {
            break;
        }
        let legal = sorted_legal(&mut pos);
        let i = (k * 7 + seed) % legal.len();
        moves.push(i as u16);
        pos.make_move(legal[i]);
    }
    GameRecord {
        variant: v.id.clone(),
        start: None,
        searches: vec![
            Some(SearchRecord {
                policy: vec![(0, 1.0)],
                value: 0.0,
            });
            moves.len()
        ],
        moves,
        result,
        reason: "test".into(),
        resigned: false,
        model_step: 0,
    }
}

/// Stores one game as chunk `seq` of `worker`; returns its positions.
fn put(store: &Store, worker: &str, seq: u64, g: GameRecord) -> usize {
    let n = g.moves.len();
    let key = format!("games/{worker}/{seq:010}-1g-{n}p.chunk");
    store.put(&key, chunk::encode(&[g])).unwrap();
    n
}

fn config(share: f64) -> RunConfig {
    let mut cfg = RunConfig::parse(&common::tiny_config_text("hand-shogi"), "tiny.toml").unwrap();
    cfg.trainer.teacher_share = share;
    cfg.trainer.window_positions = 30;
    cfg.trainer.min_positions = 1;
    cfg.trainer.delete_old_chunks = true;
    cfg
}

fn open(dir: &Path, cfg: &RunConfig) -> Trainer {
    let v = load_variant("hand-shogi").unwrap();
    let store = Arc::new(Store::local(&dir.join("store")).unwrap());
    Trainer::open(dir, &v, cfg, tch::Device::Cpu, store).unwrap()
}

/// Teacher games are decisive here and self-play games drawn, so a sample's draw target tells
/// where it came from: a drawn game's is 0.5 (half the result, half the root value 0).
fn from_self_play(wdl: &[f32]) -> usize {
    wdl.chunks(3).filter(|t| t[1] == 0.5).count()
}

#[test]
fn teacher_games_stay_in_their_own_pool_and_fill_their_share_of_each_batch() {
    let v = load_variant("hand-shogi").unwrap();
    let dir = std::env::temp_dir().join(format!("koma-teacher-pool-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::local(&dir.join("store")).unwrap();
    let mut teacher = 0;
    for seq in 0..2 {
        teacher += put(
            &store,
            "teacher-0",
            seq,
            game(&v, 20, seq as usize, GameResult::BlackWin),
        );
    }
    // Self-play enough to fill the window of 30 several times over.
    for seq in 0..6 {
        put(
            &store,
            "local-0",
            seq,
            game(&v, 20, 10 + seq as usize, GameResult::Draw),
        );
    }

    let cfg = config(0.5);
    let mut t = open(&dir, &cfg);
    for _ in 0..10 {
        t.ingest().unwrap();
    }
    assert_eq!(t.teacher_len(), teacher);
    assert_eq!(t.window_len(), 30, "the window holds self-play only");
    // Half of each batch of 16 from the teacher pool, half from the window.
    for _ in 0..5 {
        let b = t.draw_batch();
        assert_eq!(b.requests.len(), 16);
        assert_eq!(from_self_play(&b.wdl), 8);
    }
    // Ten ingest passes prune the window's old chunks; the teacher pool's stay.
    let keys = store.list("games").unwrap();
    assert!(keys.iter().filter(|k| k.contains("teacher-0")).count() == 2);
    assert!(
        keys.iter().filter(|k| k.contains("local-0")).count() < 6,
        "old self-play chunks are pruned: {keys:?}"
    );
    drop(t);

    // A restart rebuilds both from the index.
    let mut t = open(&dir, &cfg);
    assert_eq!((t.teacher_len(), t.window_len()), (teacher, 30));
    assert_eq!(from_self_play(&t.draw_batch().wdl), 8);
    drop(t);

    // With no share the teacher games are any worker's, taken into the window.
    let mut t = open(&dir, &config(0.0));
    assert_eq!((t.teacher_len(), t.window_len()), (0, 30));
    assert_eq!(t.draw_batch().requests.len(), 16);
    // The metrics writer flushes into the run directory when the trainer is dropped.
    drop(t);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_teacher_share_outside_0_1_or_without_a_prefix_is_refused() {
    let base = common::tiny_config_text("hand-shogi");
    for (extra, needle) in [
        (
            "teacher_share = 1.5\n",
            "teacher_share = 1.5 is outside [0, 1]",
        ),
        (
            "teacher_share = -0.1\n",
            "teacher_share = -0.1 is outside [0, 1]",
        ),
        (
            "teacher_share = 0.5\nteacher_prefix = \"\"\n",
            "teacher_prefix is empty",
        ),
    ] {
        let text = format!("{base}{extra}");
        let err = RunConfig::parse(&text, "bad.toml").unwrap_err().to_string();
        assert!(err.contains(needle), "{err}");
    }
    let cfg = RunConfig::parse(&base, "tiny.toml").unwrap();
    assert_eq!(cfg.trainer.teacher_share, 0.0);
    assert!(!cfg.trainer.is_teacher_worker("teacher-0"));
}

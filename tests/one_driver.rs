//! Self-play and the arena play through one game driver: the same game, searched the same way,
//! comes out move for move the same through both entry points.

#[path = "../arena/tests/common/mod.rs"]
mod common;

use koma_arena::{run_match, MatchConfig, PlayerSpec};
use koma_mcts::SearchConfig;
use koma_model::{InferenceServer, Model, PrecisionChoice};
use koma_selfplay::{SelfplayConfig, Stats, Worker};
use koma_store::{chunk, Store, Uploader};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

const SIMS: u32 = 12;

/// The moves of the one game a self-play worker plays with a plain PUCT search of `SIMS`
/// simulations a move (no noise, no sampled opening, no resignation).
fn selfplay_moves(stem: &std::path::Path) -> Vec<String> {
    let v = koma_rules::load_variant("hand-shogi").unwrap();
    let mut model = Model::load(stem, &v, None, tch::Device::Cpu).unwrap();
    // The inference form the arena gives its models too.
    model.prepare_to_play(PrecisionChoice::Auto);
    let server = InferenceServer::start(model, 8, Box::new(|| None), Duration::from_secs(3600));
    let store = Arc::new(Store::memory());
    let uploader = Uploader::start(store.clone(), Duration::from_secs(5));
    let spool = std::env::temp_dir().join(format!("koma-one-driver-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&spool);
    let cfg = SelfplayConfig {
        workers: 1,
        games_per_worker: 1,
        full_simulations: SIMS,
        fast_simulations: SIMS,
        full_search_fraction: 1.0,
        opening_plies: 0,
        resign_consecutive: 0,
        games_per_chunk: 1,
        // The search of an arena model player, without noise.
        search: SearchConfig {
            dirichlet_weight: 0.0,
            ..koma_engine::search::search_config(&v, false, None)
        },
        ..SelfplayConfig::default()
    };
    let worker = Worker {
        id: "w0".into(),
        variant: v.clone(),
        client: server.client(),
        store: store.clone(),
        spool: spool.clone(),
        uploads: uploader.sender(),
        cfg,
        stop: Arc::new(AtomicBool::new(false)),
        stats: Arc::new(Stats::default()),
        seed: 1,
        max_games: Some(1),
    };
    worker.run().unwrap();
    uploader.finish();
    server.shutdown();
    let keys = store.list("games/").unwrap();
    assert_eq!(keys.len(), 1, "{keys:?}");
    let bytes = store.get(&keys[0]).unwrap().unwrap();
    let records = chunk::decode(&keys[0], &bytes).unwrap();
    let record = &records[0];
    let mut texts = Vec::new();
    let mut i = 0;
    record
        .replay(&v, |pos, legal, _| {
            texts.push(pos.move_text(&legal[record.moves[i] as usize]));
            i += 1;
        })
        .unwrap();
    let _ = std::fs::remove_dir_all(&spool);
    texts
}

#[test]
fn selfplay_and_the_arena_play_the_same_game() {
    let stem = common::tiny_checkpoint("hand-shogi", "one-driver");
    let player: PlayerSpec = format!("model:{}:sims={SIMS}", stem.display())
        .parse()
        .unwrap();
    let v = koma_rules::load_variant("hand-shogi").unwrap();
    let mut cfg = MatchConfig::new(v, player.clone(), player, 2);
    cfg.opening_plies = 0;
    // One game at a time, so every batch holds one position as in the self-play game.
    cfg.concurrency = Some(1);
    let report = run_match(&cfg).unwrap();
    let arena = &report.games[0].moves;
    assert_eq!(
        &report.games[1].moves, arena,
        "both colours of a pair play the same game"
    );
    let selfplay = selfplay_moves(&stem);
    // A tiny network with mate search can end a game early; a few moves still show the
    // two drivers agree move by move.
    assert!(arena.len() >= 6, "{arena:?}");
    assert_eq!(&selfplay, arena);
}

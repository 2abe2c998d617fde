//! The Elo ladder: incremental runs play only new models, every match is recorded, the
//! ratings are anchored at random, and the plot is written.

mod common;

use koma_arena::ladder::{self, plot, records, LadderConfig, LadderModel};
use koma_arena::PlayerSpec;
use koma_rules::load_variant;

fn model(step: u64) -> LadderModel {
    named_model("ladder", step)
}

/// A model whose checkpoint no other test writes (tests run side by side).
fn named_model(name: &str, step: u64) -> LadderModel {
    LadderModel {
        step,
        stem: common::tiny_checkpoint("hand-shogi", &format!("{name}-{step}")),
        minutes: step as f64 / 10.0,
    }
}

/// Two-game matches of two-simulation searches, each game cut at 40 plies.
fn config(seed: u64, jobs: usize) -> LadderConfig {
    LadderConfig {
        variant: load_variant("hand-shogi").unwrap(),
        games: 2,
        sims: 2,
        opponents: vec![PlayerSpec::Random, PlayerSpec::Greedy],
        previous: 1,
        seed,
        opening_plies: 2,
        max_plies: Some(40),
        jobs,
    }
}

#[test]
fn incremental_ladder_rates_new_models_only_and_plots() {
    let dir = std::env::temp_dir().join(format!("koma-ladder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = config(1, 2);
    let (m0, m10, m20) = (model(0), model(10), model(20));
    let first = ladder::run(&dir, &[m0.clone(), m10.clone()], &cfg).unwrap();
    assert_eq!(first.new_models, vec![0, 10]);
    // step-0: random, greedy; step-10: random, greedy, step-0.
    assert_eq!(first.matches, 5);
    let results = records::read_results(&dir.join("results.csv")).unwrap();
    assert_eq!(results.len(), 5);
    assert!(results.iter().all(|r| r.wins + r.draws + r.losses == 2));
    assert!(results.iter().any(|r| r.a == "step-10" && r.b == "step-0"));
    let players: Vec<&str> = first.ratings.iter().map(|r| r.player.as_str()).collect();
    assert_eq!(players, vec!["random", "greedy", "step-0", "step-10"]);
    assert_eq!(first.ratings[0].elo, 0.0);
    assert!(first
        .ratings
        .iter()
        .all(|r| r.lo95 <= r.elo && r.elo <= r.hi95));
    assert_eq!(first.ratings[3].minutes, Some(1.0));
    assert_eq!(
        records::read_ratings(&dir.join("ratings.csv")).unwrap(),
        first.ratings
    );

    // Nothing new: no game is played and the ratings stay.
    let again = ladder::run(&dir, &[m0.clone(), m10.clone()], &cfg).unwrap();
    assert_eq!((again.matches, again.new_models.len()), (0, 0));
    assert_eq!(again.ratings, first.ratings);

    // A new model plays its matches only, against the newest rated one before it.
    let third = ladder::run(&dir, &[m0, m10, m20], &cfg).unwrap();
    assert_eq!(third.new_models, vec![20]);
    assert_eq!(third.matches, 3);
    let results = records::read_results(&dir.join("results.csv")).unwrap();
    assert_eq!(results.len(), 8);
    assert!(results.iter().any(|r| r.a == "step-20" && r.b == "step-10"));

    // An interrupted rating (a match missing from the file) is completed, and only it.
    let lines = records::read_results(&dir.join("results.csv")).unwrap();
    std::fs::remove_file(dir.join("results.csv")).unwrap();
    for l in lines
        .iter()
        .filter(|l| !(l.a == "step-20" && l.b == "greedy"))
    {
        records::append_result(&dir.join("results.csv"), l).unwrap();
    }
    let resumed = ladder::run(&dir, &[model(0), model(10), model(20)], &cfg).unwrap();
    assert_eq!((resumed.matches, resumed.new_models.clone()), (1, vec![20]));
    assert_eq!(
        records::read_results(&dir.join("results.csv"))
            .unwrap()
            .len(),
        8
    );

    let png = dir.join("elo.png");
    plot::draw(&png, "test ladder", &third.ratings).unwrap();
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"), "a PNG file");
    assert!(bytes.len() > 10_000, "{} bytes", bytes.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Matches played side by side give the results they give one after another: each match
/// depends only on its own seed.
#[test]
fn matches_on_several_threads_match_a_serial_ladder() {
    let base = std::env::temp_dir().join(format!("koma-ladder-jobs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let mut cfg = config(3, 1);
    let models = [0, 10, 20].map(|s| named_model("ladder-jobs", s));
    let mut sorted = Vec::new();
    for jobs in [1, 3] {
        cfg.jobs = jobs;
        let dir = base.join(format!("jobs-{jobs}"));
        let out = ladder::run(&dir, &models, &cfg).unwrap();
        assert_eq!((out.matches, out.new_models.clone()), (8, vec![0, 10, 20]));
        let mut lines = records::read_results(&dir.join("results.csv")).unwrap();
        lines.sort_by(|x, y| (&x.a, &x.b).cmp(&(&y.a, &y.b)));
        sorted.push(lines);
    }
    assert_eq!(sorted[0], sorted[1]);
    let _ = std::fs::remove_dir_all(&base);
}

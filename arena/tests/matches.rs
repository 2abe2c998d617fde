//! Whole matches: pairing, baselines, model players and the report's bookkeeping.

mod common;

use koma_arena::{run_match, MatchConfig, MatchReport, PlayerSpec};
use koma_rules::{load_variant, Color};
use std::path::PathBuf;

fn hand_shogi_match(a: PlayerSpec, b: PlayerSpec, games: usize) -> MatchConfig {
    MatchConfig::new(load_variant("hand-shogi").unwrap(), a, b, games)
}

/// A tiny untrained checkpoint with a dotted stem, saved once per test under a temp directory.
fn tiny_checkpoint(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("koma-arena-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stem = dir.join("tiny.v0");
    // Written through the dotted stem's own name: Model::save replaces the extension.
    common::tiny_model("hand-shogi")
        .save(&dir.join("tiny.v0.json"))
        .unwrap();
    assert!(dir.join("tiny.v0.json").exists() && dir.join("tiny.v0.safetensors").exists());
    stem
}

fn check_bookkeeping(r: &MatchReport, games: usize) {
    assert_eq!(r.games.len(), games);
    let t = r.totals();
    assert_eq!(t.games, games);
    assert_eq!(t.wins + t.draws + t.losses, games);
    let (b, w) = (r.with_a_as(Color::Black), r.with_a_as(Color::White));
    assert_eq!((b.games, w.games), (games / 2, games / 2));
    assert_eq!(b.wins + w.wins, t.wins);
    assert_eq!(b.losses + w.losses, t.losses);
    assert_eq!(r.end_reasons().iter().map(|x| x.1).sum::<usize>(), games);
    let mean = r.games.iter().map(|g| g.plies() as f64).sum::<f64>() / games as f64;
    assert!((r.average_plies() - mean).abs() < 1e-9);
    assert!((r.score() - (t.wins as f64 + 0.5 * t.draws as f64) / games as f64).abs() < 1e-12);
    for (i, g) in r.games.iter().enumerate() {
        assert_eq!(g.index, i);
        assert_eq!(g.pair, i / 2);
    }
    let text = r.to_string();
    for want in [
        "A black",
        "A white",
        "end reasons:",
        "average length:",
        "Elo of A over B:",
    ] {
        assert!(text.contains(want), "{want} missing from\n{text}");
    }
}

#[test]
fn each_opening_is_played_once_with_each_colour() {
    let mut cfg = hand_shogi_match(PlayerSpec::Random, PlayerSpec::Greedy, 12);
    cfg.opening_plies = 6;
    cfg.seed = 17;
    let r = run_match(&cfg).unwrap();
    check_bookkeeping(&r, 12);
    for pair in r.games.chunks(2) {
        let (x, y) = (&pair[0], &pair[1]);
        assert_eq!(x.opening.len(), 6);
        assert_eq!(x.opening, y.opening, "one opening per pair");
        assert_eq!(
            x.moves[..6],
            x.opening[..],
            "the game starts with its opening"
        );
        assert_eq!(y.moves[..6], y.opening[..]);
        assert_eq!(x.a_color, Color::Black);
        assert_eq!(y.a_color, Color::White);
    }
    let mut openings: Vec<_> = r.games.iter().map(|g| g.opening.clone()).collect();
    openings.dedup();
    openings.sort();
    openings.dedup();
    assert_eq!(openings.len(), 6, "pairs get different openings");

    // The seed decides everything.
    assert_eq!(run_match(&cfg).unwrap().games, r.games);
    cfg.seed = 18;
    assert_ne!(
        run_match(&cfg).unwrap().games[0].opening,
        r.games[0].opening
    );
}

#[test]
fn greedy_beats_random_clearly() {
    let mut cfg = hand_shogi_match(PlayerSpec::Greedy, PlayerSpec::Random, 40);
    cfg.seed = 1;
    let r = run_match(&cfg).unwrap();
    check_bookkeeping(&r, 40);
    eprintln!("{r}");
    assert!(r.score() >= 0.8, "greedy scores {:.3}\n{r}", r.score());
    assert!(r.elo().lower > 0.0, "{}", r.elo());
}

#[test]
fn the_match_length_cap_adjudicates_draws() {
    let mut cfg = hand_shogi_match(PlayerSpec::Random, PlayerSpec::Random, 4);
    cfg.max_plies = Some(10);
    cfg.opening_plies = 2;
    let r = run_match(&cfg).unwrap();
    check_bookkeeping(&r, 4);
    assert!(r.games.iter().all(|g| g.plies() <= 10));
    assert_eq!(
        r.end_reasons().last().map(|x| x.0),
        Some(koma_arena::EndReason::MaxLength)
    );
}

#[test]
fn a_start_position_text_is_played_from() {
    // Black mates at once with G@h8, so greedy wins every game it moves first in.
    let mut cfg = hand_shogi_match(PlayerSpec::Greedy, PlayerSpec::Random, 4);
    cfg.start = Some("8k/9/9/9/7(SH)1/9/9/9/K8 b G".into());
    cfg.opening_plies = 0;
    let r = run_match(&cfg).unwrap();
    for g in r.games.iter().filter(|g| g.a_color == Color::Black) {
        assert_eq!(g.moves, vec!["G@h8".to_owned()], "{g:?}");
        assert_eq!(g.score_a(), 1.0);
    }
}

#[test]
fn model_players_complete_games() {
    let stem = tiny_checkpoint("model");
    let spec = format!("model:{}:sims=8", stem.display());
    let mut cfg = hand_shogi_match(spec.parse().unwrap(), PlayerSpec::Random, 4);
    cfg.max_plies = Some(60);
    let r = run_match(&cfg).unwrap();
    check_bookkeeping(&r, 4);
    assert_eq!(r.a, spec);
    assert!(r.games.iter().all(|g| g.plies() > 4));

    // Gumbel, and a model on both sides (one network for both, batched together).
    let gumbel = format!("model:{}.safetensors:sims=8:gumbel", stem.display());
    let mut cfg = hand_shogi_match(gumbel.parse().unwrap(), spec.parse().unwrap(), 2);
    cfg.max_plies = Some(30);
    let r = run_match(&cfg).unwrap();
    check_bookkeeping(&r, 2);
    assert!(r.a.ends_with(":sims=8:gumbel"));
}

#[test]
fn a_checkpoint_of_another_variant_is_refused() {
    let stem = tiny_checkpoint("variant");
    let meta = PathBuf::from(format!("{}.json", stem.display()));
    let text = std::fs::read_to_string(&meta).unwrap();
    std::fs::write(&meta, text.replace("\"hand-shogi\"", "\"ko-shogi\"")).unwrap();
    let spec: PlayerSpec = format!("model:{}", stem.display()).parse().unwrap();
    let e = run_match(&hand_shogi_match(spec, PlayerSpec::Random, 2)).unwrap_err();
    assert!(e.to_string().contains("not 'hand-shogi'"), "{e}");
}

//! Every built-in training preset parses, names a built-in variant, and builds a network that
//! evaluates that variant's start position.

use koma_mcts::Evaluator;
use koma_model::Model;
use koma_rules::{load_variant, Position};
use koma_trainer::RunConfig;

/// A configuration of the smallest network, for the tests of single settings.
const TINY: &str = "variant = \"hand-shogi\"\n[model]\nblocks = 1\nchannels = 8\ngpool_every = 0\n\
                    head_dim = 8\nvalue_channels = 4\nvalue_hidden = 8\n";

#[test]
fn every_preset_builds_its_network() {
    let names = RunConfig::preset_names();
    assert!(names.len() >= 2);
    for name in names {
        let (variant, class) = name.rsplit_once('-').unwrap();
        let cfg = RunConfig::preset(variant, class).unwrap();
        assert_eq!(cfg.variant, variant, "{name}");
        let v = load_variant(&cfg.variant).unwrap();
        let model = Model::new(&v, &cfg.model, tch::Device::Cpu);
        let mut pos = Position::start(&v);
        let moves = pos.legal_moves();
        let e = model.evaluate(vec![model.prepare(&pos, &moves)]);
        assert_eq!(e[0].priors.len(), moves.len(), "{name}");
    }
}

#[test]
fn a_malformed_configuration_names_its_line() {
    let text = "variant = \"hand-shogi\"\n[model]\nblocks = \"many\"\n";
    let e = RunConfig::parse(text, "bad.toml").unwrap_err().to_string();
    assert!(e.starts_with("bad.toml:3:"), "{e}");
    assert!(
        e.ends_with("(in `blocks = \"many\"`)"),
        "shows the line: {e}"
    );
}

/// The value targets' half-life is a fifth of the variant's length limit unless a
/// configuration sets it; 0 keeps whole results.
#[test]
fn the_value_half_life_follows_the_variant_unless_set() {
    for (variant, plies) in [("hand-shogi", 80.0), ("ko-shogi", 400.0)] {
        let cfg = RunConfig::preset(variant, "cpu").unwrap();
        let v = load_variant(variant).unwrap();
        assert_eq!(cfg.trainer.value_half_life_for(&v), plies, "{variant}");
    }
    let text = "variant = \"hand-shogi\"\n[model]\nblocks = 1\nchannels = 8\ngpool_every = 0\n\
                head_dim = 8\nvalue_channels = 4\nvalue_hidden = 8\n[trainer]\nvalue_half_life = 0\n";
    let cfg = RunConfig::parse(text, "t.toml").unwrap();
    let v = load_variant("hand-shogi").unwrap();
    assert_eq!(cfg.trainer.value_half_life_for(&v), 0.0);
}

/// The training passes' number format is fp32 unless a configuration names another; a name
/// that is not one is an error naming the section and the value.
#[test]
fn the_training_precision_is_fp32_unless_set() {
    use koma_model::{Precision, PrecisionChoice};
    let base = TINY;
    let cfg = RunConfig::parse(base, "t.toml").unwrap();
    assert_eq!(
        cfg.training_precision_choice().unwrap(),
        PrecisionChoice::Fixed(Precision::Fp32)
    );
    let cfg = RunConfig::parse(
        &format!("{base}[trainer]\nprecision = \"bf16\"\n"),
        "t.toml",
    )
    .unwrap();
    assert_eq!(
        cfg.training_precision_choice().unwrap(),
        PrecisionChoice::Fixed(Precision::Bf16)
    );
    let e = RunConfig::parse(&format!("{base}[trainer]\nprecision = \"fp8\"\n"), "t.toml")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("t.toml") && e.contains("[trainer]") && e.contains("fp8"),
        "{e}"
    );
}

#[test]
fn the_draw_score_is_zero_unless_set_and_stays_between_a_loss_and_a_win() {
    let base = TINY;
    let cfg = RunConfig::parse(base, "t.toml").unwrap();
    assert_eq!(cfg.selfplay.search.draw_score, 0.0);
    let cfg = RunConfig::parse(
        &format!("{base}[selfplay.search]\ndraw_score = -0.3\n"),
        "t.toml",
    )
    .unwrap();
    assert_eq!(cfg.selfplay.search.draw_score, -0.3);
    let e = RunConfig::parse(
        &format!("{base}[selfplay.search]\ndraw_score = -2\n"),
        "t.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("t.toml") && e.contains("draw_score") && e.contains("-2"),
        "{e}"
    );
}

#[test]
fn the_learning_rate_fall_is_off_unless_set_and_its_shares_lie_in_0_1() {
    let base = TINY;
    let cfg = RunConfig::parse(base, "t.toml").unwrap();
    assert_eq!(cfg.trainer.anneal_fraction, 0.0);
    let cfg = RunConfig::parse(
        &format!("{base}[trainer]\nanneal_fraction = 0.3\nanneal_final = 0.05\n"),
        "t.toml",
    )
    .unwrap();
    assert_eq!(
        (cfg.trainer.anneal_fraction, cfg.trainer.anneal_final),
        (0.3, 0.05)
    );
    for (key, bad) in [("anneal_fraction", "1.5"), ("anneal_final", "-0.1")] {
        let e = RunConfig::parse(&format!("{base}[trainer]\n{key} = {bad}\n"), "t.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("t.toml") && e.contains(&format!("[trainer] {key} = {bad} is outside")),
            "{key}: {e}"
        );
    }
}

#[test]
fn relative_material_is_off_unless_set_and_must_be_a_boolean() {
    let base = TINY;
    let cfg = RunConfig::parse(base, "t.toml").unwrap();
    assert!(!cfg.selfplay.search.relative_material);
    let cfg = RunConfig::parse(
        &format!("{base}[selfplay.search]\nrelative_material = true\n"),
        "t.toml",
    )
    .unwrap();
    assert!(cfg.selfplay.search.relative_material);
    let e = RunConfig::parse(
        &format!("{base}[selfplay.search]\nrelative_material = \"yes\"\n"),
        "t.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("t.toml:10:") && e.contains("relative_material = \"yes\""),
        "{e}"
    );
}

/// The mop-up term is off in self-play unless set, and a weight out of range is refused with
/// the file and the key named.
#[test]
fn mop_up_is_off_unless_set_and_must_be_in_range() {
    let base = TINY;
    let cfg = RunConfig::parse(base, "t.toml").unwrap();
    assert_eq!(cfg.selfplay.search.mop_up, 0.0);
    let cfg = RunConfig::parse(
        &format!("{base}[selfplay.search]\nmop_up = 4.0\n"),
        "t.toml",
    )
    .unwrap();
    assert_eq!(cfg.selfplay.search.mop_up, 4.0);
    let e = RunConfig::parse(
        &format!("{base}[selfplay.search]\nmop_up = -1.0\n"),
        "t.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("t.toml:") && e.contains("mop_up = -1 is outside [0, 10]"),
        "{e}"
    );
}

/// Self-play's tactics check is off unless set, and a depth past what play allows is refused
/// with the file and the key named.
#[test]
fn the_tactics_check_is_off_in_self_play_unless_set_and_its_depth_is_bounded() {
    let base = TINY;
    let cfg = RunConfig::parse(base, "t.toml").unwrap();
    assert_eq!(cfg.selfplay.search.tactics_depth, 0);
    let max = koma_mcts::MAX_TACTICS_DEPTH;
    let cfg = RunConfig::parse(
        &format!("{base}[selfplay.search]\ntactics_depth = {max}\n"),
        "t.toml",
    )
    .unwrap();
    assert_eq!(cfg.selfplay.search.tactics_depth, max);
    let e = RunConfig::parse(
        &format!("{base}[selfplay.search]\ntactics_depth = {}\n", max + 1),
        "t.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("t.toml:")
            && e.contains(&format!(
                "tactics_depth = {} is outside 0 to {max}",
                max + 1
            )),
        "{e}"
    );
}

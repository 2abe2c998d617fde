//! Variant definitions: the built-in files load, and malformed ones are reported with the file,
//! the line and what is wrong.

use koma_rules::{Variant, VariantError};

const HAND: &str = include_str!("../../configs/variants/hand-shogi.toml");

fn error_of(text: &str) -> (usize, String) {
    match Variant::from_toml(text, "x.toml") {
        Err(VariantError::Invalid {
            line,
            message,
            file,
            ..
        }) => {
            assert_eq!(file, "x.toml");
            (line, message)
        }
        other => panic!("expected an invalid-file error, got {other:?}"),
    }
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn every_builtin_variant_loads() {
    for id in koma_rules::variant::builtin_ids() {
        let v = Variant::load(id).unwrap();
        assert_eq!(v.id, id);
    }
}

#[test]
fn toml_syntax_errors_name_the_line() {
    let text = HAND.replace("files = 9", "files = = 9");
    let (line, _) = error_of(&text);
    assert_eq!(line, line_of(&text, "files = = 9"));
}

#[test]
fn bad_xbetza_names_the_piece_and_line() {
    let text = HAND.replace("betza = \"B3\"", "betza = \"B3q\"");
    let (line, msg) = error_of(&text);
    assert_eq!(line, line_of(&text, "B3q"));
    assert!(msg.contains("piece 'T'") && msg.contains("'q'"), "{msg}");
}

#[test]
fn unknown_promotion_target_is_named() {
    let text = HAND.replace("promotes = \"+N\"", "promotes = \"+Q\"");
    let (line, msg) = error_of(&text);
    assert_eq!(line, line_of(&text, "+Q"));
    assert!(msg.contains("'+Q'"), "{msg}");
}

#[test]
fn setup_square_off_the_board_is_named() {
    let text = HAND.replace("setup = [\"e1\"]", "setup = [\"e10\"]");
    let (line, msg) = error_of(&text);
    assert_eq!(line, line_of(&text, "e10"));
    assert!(msg.contains("'e10'"), "{msg}");
}

#[test]
fn unknown_fields_and_bad_rule_values_are_rejected() {
    let (line, msg) = error_of(&HAND.replace("drops = true", "drops = true\nfly = 1"));
    assert!(msg.contains("fly"), "{msg}");
    assert!(line > 1);
    let text = HAND.replace("check = \"king-safety\"", "check = \"maybe\"");
    let (line, msg) = error_of(&text);
    assert_eq!(line, line_of(&text, "maybe"));
    assert!(msg.contains("king-safety"), "{msg}");
}

#[test]
fn duplicate_ids_and_squares_are_rejected() {
    let (_, msg) = error_of(&HAND.replace("id = \"SH\"", "id = \"SO\""));
    assert!(msg.contains("defined twice"), "{msg}");
    let (_, msg) = error_of(&HAND.replace("setup = [\"e2\"]", "setup = [\"e1\"]"));
    assert!(msg.contains("set up twice"), "{msg}");
}

const SHOKO: &str = include_str!("../../configs/variants/shoko-shogi.toml");
const GYAKU: &str = include_str!("../../configs/variants/gyaku-sama-shogi.toml");
const HOOK: &str = include_str!("../../configs/variants/hook-shogi.toml");

#[test]
fn the_rule_flags_of_the_large_variants_are_read() {
    use koma_rules::variant::{CheckRule, PromotionRule};
    let shoko = Variant::from_toml(SHOKO, "shoko.toml").unwrap();
    assert_eq!(shoko.rules.check, CheckRule::RoyalCapture);
    assert_eq!(shoko.rules.promotion, PromotionRule::Capture);
    assert!(!shoko.rules.switchback);
    assert_eq!(shoko.rules.max_consecutive_skips, Some(1));
    assert_eq!(shoko.rules.max_consecutive_checks, None);
    assert!(!shoko.rules.repetition_loses);
    let id = |v: &Variant, s: &str| v.kind_by_id(s).unwrap();
    let dv = id(&shoko, "DV");
    assert_eq!(shoko.piece(dv).contagious, Some(id(&shoko, "+DV")));
    assert!(shoko.piece(id(&shoko, "K")).contagion_immune);
    let hm = shoko.piece(id(&shoko, "HM"));
    for victim in ["TG", "HM", "+OK", "+PS"] {
        assert!(hm.cannot_capture.contains(id(&shoko, victim)), "{victim}");
    }
    assert!(!hm.cannot_capture.contains(id(&shoko, "G")));
    let gyaku = Variant::from_toml(GYAKU, "gyaku.toml").unwrap();
    assert!(gyaku.rules.switchback);
    assert_eq!(gyaku.rules.max_consecutive_skips, Some(3));
    assert_eq!(gyaku.rules.max_consecutive_checks, Some(3));
    assert!(gyaku.piece(id(&gyaku, "+WB")).never_flips);
    assert!(gyaku.piece(id(&gyaku, "P")).last_rank_promotion);
    // After a capture: a switchback turns back, a never-flipping piece stays.
    assert_eq!(gyaku.piece(id(&gyaku, "+R")).after_capture, id(&gyaku, "R"));
    assert_eq!(gyaku.piece(id(&gyaku, "R")).after_capture, id(&gyaku, "+R"));
    assert_eq!(
        gyaku.piece(id(&gyaku, "+P")).after_capture,
        id(&gyaku, "+P")
    );
    let hook = Variant::from_toml(HOOK, "hook.toml").unwrap();
    let royals: Vec<&str> = hook
        .pieces
        .iter()
        .filter(|p| p.royal)
        .map(|p| p.id.as_str())
        .collect();
    assert_eq!(royals, ["K", "+DE", "+K"]);
    assert!(hook.piece(id(&hook, "+K")).no_capture_protected_royal);
    assert_eq!(hook.piece(id(&hook, "K")).after_capture, id(&hook, "+K"));
}

#[test]
fn malformed_rule_flags_name_the_line() {
    let text = SHOKO.replace(
        "promotion = \"capture\"       #",
        "promotion = \"sometimes\"     #",
    );
    let (line, msg) = error_of(&text);
    assert_eq!(line, line_of(&text, "\"sometimes\""));
    assert!(msg.contains("\"capture\""), "{msg}");
    let text = SHOKO.replace("max_consecutive_skips = 1", "max_consecutive_skips = 0");
    let (line, msg) = error_of(&text);
    assert_eq!(line, line_of(&text, "max_consecutive_skips = 0"));
    assert!(msg.contains("max_consecutive_skips"), "{msg}");
    let text = SHOKO.replace("contagious = \"+DV\"     #", "contagious = \"+XX\"     #");
    let (line, msg) = error_of(&text);
    assert_eq!(line, line_of(&text, "+XX"));
    assert!(msg.contains("'+XX'"), "{msg}");
    let text = SHOKO.replace(
        "cannot_capture = [\"TG\", \"HM\", \"+OK\", \"+PS\"]   # captureMatrix",
        "cannot_capture = [\"K\"]",
    );
    let (line, msg) = error_of(&text);
    assert_eq!(line, line_of(&text, "cannot_capture = [\"K\"]"));
    assert!(msg.contains("royal"), "{msg}");
    let text = SHOKO.replace(
        "repetition = 4",
        "repetition = 4\nrepetition_result = \"win\"",
    );
    let (line, msg) = error_of(&text);
    assert_eq!(line, line_of(&text, "\"win\""));
    assert!(msg.contains("\"loss\""), "{msg}");
    let text = GYAKU.replace("last_rank = \"optional-promotion\"", "last_rank = \"stay\"");
    let (line, msg) = error_of(&text);
    assert_eq!(line, line_of(&text, "\"stay\""));
    assert!(msg.contains("optional-promotion"), "{msg}");
}

#[test]
fn rule_flags_that_do_not_fit_the_rules_are_rejected() {
    // Switchbacks and per-piece flips need capture promotion.
    let (_, msg) = error_of(&HAND.replace("drops = true", "drops = true\nswitchback = true"));
    assert!(msg.contains("switchback"), "{msg}");
    let (_, msg) = error_of(&GYAKU.replace("switchback = true", "switchback = false"));
    assert!(msg.contains("never_flips"), "{msg}");
    // A royal piece must ignore contagion where there is some.
    let text = SHOKO.replace(
        "contagion_immune = true   # Kings",
        "# contagion_immune = true   # Kings",
    );
    let (line, msg) = error_of(&text);
    assert!(msg.contains("contagion_immune"), "{msg}");
    assert!(line > 1);
    // The Emperor's rule needs royal capture.
    let text = HAND.replace(
        "betza = \"K\"\nroyal = true",
        "betza = \"K\"\nroyal = true\nno_capture_protected_royal = true",
    );
    let (_, msg) = error_of(&text);
    assert!(msg.contains("royal-capture"), "{msg}");
}

#[test]
fn the_jumping_and_burning_keys_are_checked() {
    const TENJIKU: &str = include_str!("../../configs/variants/tenjiku-shogi.toml");
    // A jumping piece needs a rank to compare with, and a slide to jump along.
    let text = TENJIKU.replacen("rank = 3", "rank = 0", 1);
    let (line, msg) = error_of(&text);
    assert_eq!(line, line_of(&text, "id = \"GG\""));
    assert!(msg.contains("jumps_lower_ranks"), "{msg}");
    let text = TENJIKU.replace(
        "betza = \"Q\"\nsetup = [\"h4\"]",
        "betza = \"K\"\nsetup = [\"h4\"]",
    );
    let (_, msg) = error_of(&text);
    assert!(
        msg.contains("'GG'") && msg.contains("no unlimited slide"),
        "{msg}"
    );
    // Burning is not defined for drops.
    let text = HAND.replace(
        "betza = \"K\"\nroyal = true",
        "betza = \"K\"\nroyal = true\nburns = true",
    );
    let (line, msg) = error_of(&text);
    assert!(msg.contains("burns") && msg.contains("'K'"), "{msg}");
    assert!(line > 1);
}

#[test]
fn unknown_rule_module_is_named() {
    let text = HAND.replace("[rules]", "[rules]\nmodule = \"chess\"");
    let (line, msg) = error_of(&text);
    assert_eq!(line, line_of(&text, "module = \"chess\""));
    assert!(msg.contains("'chess'"), "{msg}");
}

#[test]
fn the_ko_shogi_module_checks_what_it_needs() {
    const KO: &str = include_str!("../../configs/variants/ko-shogi.toml");
    let text = KO.replace("\"FW\"", "\"FX\"");
    let (line, msg) = error_of(&text);
    assert_eq!(line, line_of(&text, "module = \"ko-shogi\""));
    assert!(msg.contains("'FW'"), "{msg}");
    let text = KO.replace("betza = \"AD\"", "betza = \"ADR\"");
    let (_, msg) = error_of(&text);
    assert!(msg.contains("single leaps"), "{msg}");
}

#[test]
fn promoted_forms_are_labelled_by_the_kind_they_become() {
    let label = |variant: &str, id: &str| {
        let v = Variant::load(variant).unwrap();
        v.pieces.iter().find(|p| p.id == id).unwrap().label.clone()
    };
    // A namesake among the unpromoted kinds gives its ID; otherwise the name's initials.
    assert_eq!(label("gyaku-sama-shogi", "+G"), "R");
    assert_eq!(label("gyaku-sama-shogi", "+KY"), "LN");
    assert_eq!(label("gyaku-sama-shogi", "+BT"), "FS");
    assert_eq!(label("hand-shogi", "+N"), "PK");
    assert_eq!(label("hand-shogi", "N"), "N");
    // Ko Shogi's promoted kinds have IDs of their own.
    assert_eq!(label("ko-shogi", "MA"), "MA");
    // Kinds of different names never share a label, in any built-in variant.
    for id in koma_rules::variant::builtin_ids() {
        let v = Variant::load(id).unwrap();
        for a in &v.pieces {
            assert!(
                !a.label.is_empty() && a.label.chars().count() <= 4,
                "{id}: {}",
                a.label
            );
            for b in &v.pieces {
                if a.name.to_lowercase() != b.name.to_lowercase() {
                    assert_ne!(a.label, b.label, "{id}: {} and {}", a.name, b.name);
                }
            }
        }
    }
}

#[test]
fn a_label_given_in_the_file_is_used_and_checked() {
    let text = HAND.replace("betza = \"ffN\"", "betza = \"ffN\"\nlabel = \"Kn\"");
    let v = Variant::from_toml(&text, "x.toml").unwrap();
    assert_eq!(v.pieces.iter().find(|p| p.id == "N").unwrap().label, "Kn");
    let text = HAND.replace("betza = \"ffN\"", "betza = \"ffN\"\nlabel = \"Knight\"");
    let (line, msg) = error_of(&text);
    assert_eq!(line, line_of(&text, "label = \"Knight\""));
    assert!(msg.contains("1 to 4 characters"), "{msg}");
}

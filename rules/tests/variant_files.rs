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

//! One test per special rule of Hand Shogi (shared/rules/README.md); each fails if its rule is
//! removed from the rules core or from configs/variants/hand-shogi.toml.

mod common;

use common::{move_texts, play, play_cycle, variant};
use koma_rules::{DrawReason, Outcome, Position, WinReason};
use std::collections::BTreeSet;

fn drops_of(pos: &mut Position, id: &str) -> BTreeSet<String> {
    let prefix = format!("{id}@");
    move_texts(pos)
        .into_iter()
        .filter(|t| t.starts_with(&prefix))
        .map(|t| t[prefix.len()..].to_owned())
        .collect()
}

fn all_squares_where(f: impl Fn(char, u32) -> bool) -> BTreeSet<String> {
    let mut s = BTreeSet::new();
    for file in 'a'..='i' {
        for rank in 1..=9 {
            if f(file, rank) {
                s.insert(format!("{file}{rank}"));
            }
        }
    }
    s
}

const KINGS_ONLY: &str = "8k/9/9/9/9/9/9/9/K8";

#[test]
fn knight_is_not_dropped_into_the_promotion_zone() {
    let v = variant("hand-shogi");
    let mut pos = Position::from_text(&v, &format!("{KINGS_ONLY} b N")).unwrap();
    let expected = all_squares_where(|f, r| r <= 6 && !(f == 'a' && r == 1));
    assert_eq!(drops_of(&mut pos, "N"), expected);
    // White's zone is ranks 1-3.
    let mut pos = Position::from_text(&v, &format!("{KINGS_ONLY} w n")).unwrap();
    let expected = all_squares_where(|f, r| r >= 4 && !(f == 'i' && r == 9));
    assert_eq!(drops_of(&mut pos, "N"), expected);
}

#[test]
fn lance_is_not_dropped_on_the_last_rank_but_may_move_there() {
    let v = variant("hand-shogi");
    let mut pos = Position::from_text(&v, &format!("{KINGS_ONLY} b L")).unwrap();
    let expected = all_squares_where(|f, r| r <= 8 && !(f == 'a' && r == 1));
    assert_eq!(drops_of(&mut pos, "L"), expected);
    let mut pos = Position::from_text(&v, "8k/9/4L4/9/9/9/9/9/K8 b -").unwrap();
    assert!(move_texts(&mut pos).contains("e7e9"));
}

#[test]
fn soldier_is_not_dropped_on_a_file_with_a_soldier_of_the_same_player() {
    let v = variant("hand-shogi");
    // Black soldier on c4, White soldier on e6: Black may drop on e (any rank), not on c.
    let mut pos = Position::from_text(&v, "8k/9/9/4(so)4/9/2(SO)6/9/9/K8 b (SO)").unwrap();
    let got = drops_of(&mut pos, "SO");
    assert!(got.iter().all(|s| !s.starts_with('c')), "{got:?}");
    assert!(got.contains("e1") && got.contains("e9") && got.contains("a9"));
    let expected = all_squares_where(|f, r| {
        f != 'c' && !(f == 'a' && r == 1) && !(f == 'e' && r == 6) && !(f == 'i' && r == 9)
    });
    assert_eq!(got, expected);
}

#[test]
fn hasty_and_onager_are_dropped_only_to_give_check() {
    let v = variant("hand-shogi");
    let mut pos = Position::from_text(&v, "9/9/9/9/4k4/9/9/9/K8 b HO").unwrap();
    // Hasty (A) checks the King on e5 from c3, g3, c7, g7; Onager (D) from e3, e7, c5, g5.
    assert_eq!(
        drops_of(&mut pos, "H"),
        ["c3", "g3", "c7", "g7"].map(String::from).into()
    );
    assert_eq!(
        drops_of(&mut pos, "O"),
        ["e3", "e7", "c5", "g5"].map(String::from).into()
    );
}

#[test]
fn knight_must_promote_in_the_zone() {
    let v = variant("hand-shogi");
    let mut pos = Position::from_text(&v, "8k/9/9/9/4N4/9/9/9/K8 b -").unwrap();
    let ms = move_texts(&mut pos);
    // e5 to d7 / f7 (rank 7 is in the zone): promotion is forced, so only the '+' moves.
    assert!(ms.contains("e5d7+") && ms.contains("e5f7+"));
    assert!(!ms.contains("e5d7") && !ms.contains("e5d7="));
    let mut pos = Position::from_text(&v, "8k/9/9/9/9/4N4/9/9/K8 b -").unwrap();
    let ms = move_texts(&mut pos);
    assert!(ms.contains("e4d6") && !ms.contains("e4d6+"));
}

#[test]
fn captured_pieces_go_to_hand_unpromoted() {
    let v = variant("hand-shogi");
    let mut pos = Position::from_text(&v, "8k/9/9/9/4+n4/4G4/9/9/K8 b -").unwrap();
    play(&mut pos, "e4e5");
    let n = v.kind_by_id("N").unwrap();
    let pn = v.kind_by_id("+N").unwrap();
    assert_eq!(pos.in_hand(koma_rules::Color::Black, n), 1);
    assert_eq!(pos.in_hand(koma_rules::Color::Black, pn), 0);
    assert!(pos.to_text().ends_with(" w N 1"), "{}", pos.to_text());
}

#[test]
fn a_move_may_not_leave_the_own_king_attacked() {
    let v = variant("hand-shogi");
    // White lance on e9 pins the Black gold on e5 to the King on e1.
    let mut pos = Position::from_text(&v, "4l3k/9/9/9/4G4/9/9/9/4K4 b -").unwrap();
    let ms = move_texts(&mut pos);
    assert!(ms.contains("e5e6"), "moving along the pin line stays legal");
    assert!(!ms.contains("e5d5") && !ms.contains("e5f5"), "{ms:?}");
    // The King may not step onto a square the lance... or a gold attacks.
    let mut pos = Position::from_text(&v, "8k/9/9/9/9/9/3g5/9/4K4 b -").unwrap();
    let ms = move_texts(&mut pos);
    assert!(!ms.contains("e1d2") && !ms.contains("e1e2"), "{ms:?}");
    assert!(ms.contains("e1f1"));
}

#[test]
fn no_legal_move_loses() {
    let v = variant("hand-shogi");
    // White King i9 in check by the gold on h8, which the shogun on h5 protects.
    let mut pos = Position::from_text(&v, "8k/7G1/9/9/7(SH)1/9/9/9/K8 w -").unwrap();
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: koma_rules::Color::Black,
            reason: WinReason::Checkmate
        })
    );
}

#[test]
fn perpetual_check_loses() {
    let v = variant("hand-shogi");
    // The shogun checks the White King along the file after every King move.
    let mut pos = Position::from_text(&v, "8k/9/9/8(SH)/9/9/9/9/K8 w -").unwrap();
    let out = play_cycle(&mut pos, &["i9h9", "i6h6", "h9i9", "h6i6"], 3);
    assert_eq!(
        out,
        Some(Outcome::Win {
            winner: koma_rules::Color::White,
            reason: WinReason::PerpetualCheck
        })
    );
}

#[test]
fn fourth_repetition_is_a_draw() {
    let v = variant("hand-shogi");
    let mut pos = Position::from_text(&v, "8k/9/9/9/9/9/9/9/K8 b -").unwrap();
    let out = play_cycle(&mut pos, &["a1a2", "i9h9", "a2a1", "h9i9"], 3);
    assert_eq!(out, Some(Outcome::Draw(DrawReason::Repetition)));
    assert_eq!(pos.repetitions(), 4);
}

#[test]
fn maximum_length_is_a_draw() {
    let v = variant("hand-shogi");
    let max = v.rules.max_plies;
    let mut pos = Position::from_text(&v, &format!("8k/9/9/9/9/9/9/9/K8 b - {}", max - 1)).unwrap();
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "a1a2");
    assert_eq!(pos.outcome(), Some(Outcome::Draw(DrawReason::MaxLength)));
}

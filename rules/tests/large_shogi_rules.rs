//! One test per special rule of Shoko, Gyaku-sama and Hook Shogi (shared/rules/README.md); each
//! fails if its rule is removed from the rules core or from the variant's file in
//! configs/variants/.
//!
//! Positions are written piece by piece (`("e5", "(LN)")`: a first-player Lion on e5; lowercase
//! for the second player). Move texts: `e5e6` a move or a capture on the destination,
//! `e5e6,e6e7` a kill on e6 then on to e7, `e5e5` a turn skip; `+` when the piece ends the move
//! as another kind, `=` when an open promotion is declined.

mod common;

use common::{move_texts, moves_from, piece_on, play, play_cycle, set_of, variant, Grid};
use koma_rules::{Color, DrawReason, Outcome, Position, Variant, WinReason};
use std::sync::Arc;

/// Position text of a `size` x `size` board holding `pieces`, `side` to move, then the ply and
/// counters fields as given in `tail` (may be empty).
fn text(size: usize, pieces: &[(&str, &str)], side: char, tail: &str) -> String {
    let mut grid = Grid::new(size, size);
    for &(sq, token) in pieces {
        grid.put(sq, token);
    }
    grid.text(side, &format!("- {tail}"))
}

fn position(v: &Arc<Variant>, pieces: &[(&str, &str)], side: char, tail: &str) -> Position {
    let size = v.geometry.files() as usize;
    let t = text(size, pieces, side, tail);
    Position::from_text(v, &t).unwrap_or_else(|e| panic!("{t}: {e}"))
}

/// Plays `text` (which must be legal) and returns the piece then on `sq`.
#[track_caller]
fn play_and_look(pos: &mut Position, text: &str, sq: &str) -> String {
    play(pos, text);
    piece_on(pos, sq).expect("a piece").0
}

const SHOKO: &str = "shoko-shogi";
const GYAKU: &str = "gyaku-sama-shogi";
const HOOK: &str = "hook-shogi";

// ---------------------------------------------------------------------------------------------
// Capture promotion (all three variants, Shoko here)
// ---------------------------------------------------------------------------------------------

#[test]
fn every_capture_promotes_and_must() {
    let v = variant(SHOKO);
    // Black Pawn e5 takes the pawn on e6: the only move, and it promotes (Tokin).
    let mut pos = position(
        &v,
        &[("a1", "K"), ("m13", "k"), ("e5", "P"), ("e6", "p")],
        'b',
        "",
    );
    assert_eq!(moves_from(&mut pos, "e5"), set_of(&["e5e6+"]));
    assert_eq!(play_and_look(&mut pos, "e5e6+", "e6"), "+P");
    // A Gold taking a pawn becomes a Rook (+G); its non-captures do not promote.
    let mut pos = position(
        &v,
        &[("a1", "K"), ("m13", "k"), ("e5", "G"), ("e6", "p")],
        'b',
        "",
    );
    assert_eq!(
        moves_from(&mut pos, "e5"),
        set_of(&["e5e6+", "e5d6", "e5f6", "e5d5", "e5f5", "e5e4"])
    );
    assert_eq!(play_and_look(&mut pos, "e5e6", "e6"), "+G");
}

#[test]
fn no_promotion_without_capture() {
    let v = variant(SHOKO);
    // A Shoko Pawn reaching the last rank without a capture stays a Pawn (no last-rank option
    // in Shoko).
    let mut pos = position(&v, &[("a1", "K"), ("m1", "k"), ("e12", "P")], 'b', "");
    assert_eq!(moves_from(&mut pos, "e12"), set_of(&["e12e13"]));
    assert_eq!(play_and_look(&mut pos, "e12e13", "e13"), "P");
}

#[test]
fn king_hook_mover_tengu_and_promoted_pieces_never_promote() {
    let v = variant(SHOKO);
    let mut pos = position(
        &v,
        &[
            ("a1", "K"),
            ("a2", "p"),
            ("c5", "(HM)"),
            ("c9", "p"),
            ("g5", "(TG)"),
            ("i7", "p"),
            ("k5", "+P"),
            ("k6", "p"),
            ("m13", "k"),
        ],
        'b',
        "",
    );
    let all = move_texts(&mut pos);
    for capture in ["a1a2", "c5c9", "g5i7", "k5k6"] {
        assert!(all.contains(capture), "{capture} missing from {all:?}");
        assert!(!all.contains(&format!("{capture}+")));
    }
    assert_eq!(play_and_look(&mut pos, "k5k6", "k6"), "+P");
}

// ---------------------------------------------------------------------------------------------
// Contagion (Shoko and Hook)
// ---------------------------------------------------------------------------------------------

#[test]
fn capturing_a_deva_or_dark_spirit_is_contagious() {
    let v = variant(SHOKO);
    // A Gold (which would become a Rook) takes a Deva: Teaching King. A promoted piece (Dragon
    // King, +R) takes a Dark Spirit: Divine Spirit. A Pawn takes a Teaching King, a Silver-like
    // Tile General takes a Divine Spirit: the same.
    for (mover, victim, becomes) in [
        ("G", "(dv)", "+DV"),
        ("+R", "(ds)", "+DS"),
        ("P", "+(dv)", "+DV"),
        ("T", "+(ds)", "+DS"),
    ] {
        let mut pos = position(
            &v,
            &[("a1", "K"), ("m13", "k"), ("e5", mover), ("e6", victim)],
            'b',
            "",
        );
        assert_eq!(
            play_and_look(&mut pos, "e5e6+", "e6"),
            becomes,
            "{mover} x {victim}"
        );
    }
}

#[test]
fn after_two_contagious_captures_the_last_decides() {
    let v = variant(SHOKO);
    // A Lion kills on e6 and captures on e7 (double capture): the later victim decides.
    for (first, second, becomes) in [("(dv)", "(ds)", "+DS"), ("(ds)", "(dv)", "+DV")] {
        let mut pos = position(
            &v,
            &[
                ("a1", "K"),
                ("m13", "k"),
                ("e5", "(LN)"),
                ("e6", first),
                ("e7", second),
            ],
            'b',
            "",
        );
        assert_eq!(play_and_look(&mut pos, "e5e6,e6e7+", "e7"), becomes);
    }
}

#[test]
fn kings_are_exempt_from_contagion() {
    let v = variant(SHOKO);
    let mut pos = position(&v, &[("e5", "K"), ("e6", "(dv)"), ("m13", "k")], 'b', "");
    assert!(moves_from(&mut pos, "e5").contains("e5e6"));
    assert_eq!(play_and_look(&mut pos, "e5e6", "e6"), "K");
}

#[test]
fn hook_contagion_spares_royal_and_potentially_royal_pieces() {
    let v = variant(HOOK);
    // Ordinary pieces catch it; the King and Drunk Elephant take their own promotion
    // (Emperor, Crown Prince); the Emperor and Crown Prince stay as they are.
    for (mover, victim, becomes) in [
        ("G", "(dv)", "+DV"),
        ("+R", "(ds)", "+DS"),
        ("K", "(dv)", "+K"),
        ("(DE)", "(ds)", "+DE"),
        ("+K", "(dv)", "+K"),
        ("+(DE)", "+(ds)", "+DE"),
    ] {
        let mut pos = position(
            &v,
            &[("a1", "K"), ("s19", "k"), ("e5", mover), ("e6", victim)],
            'b',
            "",
        );
        play(&mut pos, "e5e6");
        assert_eq!(
            piece_on(&pos, "e6").unwrap().0,
            becomes,
            "{mover} x {victim}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Shoko's Hook Mover / Tengu capture restriction (captureMatrix)
// ---------------------------------------------------------------------------------------------

#[test]
fn shoko_hook_movers_and_tengus_cannot_capture_each_other() {
    let v = variant(SHOKO);
    // Black Hook Mover e5: enemies Tengu e8, promoted Old Kite (a Tengu) b5, Gold h5.
    let mut pos = position(
        &v,
        &[
            ("a1", "K"),
            ("m13", "k"),
            ("e5", "(HM)"),
            ("e8", "(tg)"),
            ("b5", "+(ok)"),
            ("h5", "g"),
        ],
        'b',
        "",
    );
    let ms = moves_from(&mut pos, "e5");
    assert!(ms.contains("e5h5") && ms.contains("e5e7") && ms.contains("e5c5"));
    assert!(!ms
        .iter()
        .any(|m| m.starts_with("e5e8") || m.starts_with("e5b5")));
    // A Black promoted Poisonous Snake (a Hook Mover) and Tengu: neither takes the other kind.
    let mut pos = position(
        &v,
        &[
            ("a1", "K"),
            ("m13", "k"),
            ("e5", "+(PS)"),
            ("e6", "(hm)"),
            ("g5", "(TG)"),
            ("h6", "+(ps)"),
        ],
        'b',
        "",
    );
    assert!(!moves_from(&mut pos, "e5")
        .iter()
        .any(|m| m.starts_with("e5e6")));
    assert!(!moves_from(&mut pos, "g5")
        .iter()
        .any(|m| m.starts_with("g5h6")));
    // In Hook Shogi there is no such restriction.
    let v = variant(HOOK);
    let mut pos = position(
        &v,
        &[("a1", "K"), ("s19", "k"), ("e5", "(HM)"), ("e8", "(tg)")],
        'b',
        "",
    );
    assert!(moves_from(&mut pos, "e5").contains("e5e8"));
}

// ---------------------------------------------------------------------------------------------
// Switchbacks (Gyaku-sama)
// ---------------------------------------------------------------------------------------------

#[test]
fn gyaku_promoted_pieces_demote_when_they_capture() {
    let v = variant(GYAKU);
    let mut pos = position(
        &v,
        &[("a1", "K"), ("m13", "k"), ("e5", "R"), ("e8", "p")],
        'b',
        "",
    );
    assert_eq!(play_and_look(&mut pos, "e5e8+", "e8"), "+R");
    let mut pos = position(
        &v,
        &[("a1", "K"), ("m13", "k"), ("e5", "+R"), ("e8", "p")],
        'b',
        "",
    );
    assert!(moves_from(&mut pos, "e5").contains("e5e8+"));
    assert_eq!(play_and_look(&mut pos, "e5e8+", "e8"), "R");
}

#[test]
fn gyaku_king_fire_demon_vice_general_and_tokin_never_flip() {
    let v = variant(GYAKU);
    // The setup's Fire Demon and Vice General, the promoted Water Buffalo and Bishop General
    // (named Fire Demon and Vice General), the Tokin and the King keep their kind.
    for mover in ["K", "(FD)", "+(WB)", "(VG)", "+(BG)", "+P"] {
        let mut pos = position(
            &v,
            &[("a1", "K"), ("m13", "k"), ("e5", mover), ("e6", "p")],
            'b',
            "",
        );
        let before = piece_on(&pos, "e5").unwrap().0;
        assert!(moves_from(&mut pos, "e5").contains("e5e6"), "{mover}");
        assert_eq!(play_and_look(&mut pos, "e5e6", "e6"), before, "{mover}");
    }
    // The Water Buffalo itself promotes to the Fire Demon, for good.
    let mut pos = position(
        &v,
        &[("a1", "K"), ("m13", "k"), ("e5", "(WB)"), ("e6", "p")],
        'b',
        "",
    );
    assert_eq!(play_and_look(&mut pos, "e5e6+", "e6"), "+WB");
}

#[test]
fn gyaku_a_multi_capture_flips_once() {
    let v = variant(GYAKU);
    // A Lion's double capture promotes it once (Lion Hawk), a Lion Hawk's demotes it once.
    for (mover, becomes) in [("(LN)", "+LN"), ("+(LN)", "LN")] {
        let mut pos = position(
            &v,
            &[
                ("a1", "K"),
                ("m13", "k"),
                ("e5", mover),
                ("e6", "p"),
                ("e7", "p"),
            ],
            'b',
            "",
        );
        assert_eq!(
            play_and_look(&mut pos, "e5e6,e6e7+", "e7"),
            becomes,
            "{mover}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Optional last-rank promotion (Gyaku-sama Pawn; Hook Pawn, Stone and Iron General)
// ---------------------------------------------------------------------------------------------

#[test]
fn gyaku_pawn_may_promote_on_the_last_rank() {
    let v = variant(GYAKU);
    let mut pos = position(
        &v,
        &[
            ("a1", "K"),
            ("m1", "k"),
            ("e12", "P"),
            ("g12", "P"),
            ("g13", "p"),
        ],
        'b',
        "",
    );
    assert_eq!(moves_from(&mut pos, "e12"), set_of(&["e12e13+", "e12e13="]));
    // A capture on the last rank must promote.
    assert_eq!(moves_from(&mut pos, "g12"), set_of(&["g12g13+"]));
    let mut declined = pos.clone();
    assert_eq!(play_and_look(&mut declined, "e12e13=", "e13"), "P");
    assert_eq!(play_and_look(&mut pos, "e12e13+", "e13"), "+P");
}

#[test]
fn hook_pawn_stone_and_iron_general_may_promote_on_the_last_rank() {
    let v = variant(HOOK);
    let mut pos = position(
        &v,
        &[
            ("a1", "K"),
            ("s1", "k"),
            ("c18", "P"),
            ("g18", "O"),
            ("m18", "I"),
            ("q18", "G"),
        ],
        'b',
        "",
    );
    assert_eq!(moves_from(&mut pos, "c18"), set_of(&["c18c19+", "c18c19="]));
    assert_eq!(
        moves_from(&mut pos, "g18"),
        set_of(&["g18f19+", "g18f19=", "g18h19+", "g18h19="])
    );
    assert_eq!(
        moves_from(&mut pos, "m18"),
        set_of(&["m18l19+", "m18l19=", "m18m19+", "m18m19=", "m18n19+", "m18n19="])
    );
    // The Gold has no such option.
    assert!(moves_from(&mut pos, "q18")
        .iter()
        .all(|m| !m.ends_with(['+', '='])));
    assert_eq!(play_and_look(&mut pos, "g18f19+", "f19"), "+O");
}

// ---------------------------------------------------------------------------------------------
// Turn skips
// ---------------------------------------------------------------------------------------------

#[test]
fn shoko_no_two_skips_in_a_row() {
    let v = variant(SHOKO);
    let mut pos = position(&v, &[("a1", "K"), ("m13", "k"), ("e5", "(LN)")], 'b', "");
    assert!(moves_from(&mut pos, "e5").contains("e5e5"));
    pos.play_texts("e5e5 m13l13").unwrap();
    assert!(pos.to_text().ends_with(" skips=1/0"), "{}", pos.to_text());
    assert!(!moves_from(&mut pos, "e5").contains("e5e5"));
    pos.play_texts("e5e6 l13m13").unwrap();
    assert!(moves_from(&mut pos, "e6").contains("e6e6"));
    // A capture without moving (igui) is not a skip.
    let mut pos = position(
        &v,
        &[("a1", "K"), ("m13", "k"), ("e5", "(LN)"), ("e6", "p")],
        'b',
        "",
    );
    pos.play_texts("e5e6,e6e5+ m13l13").unwrap();
    assert_eq!(pos.consecutive_skips(Color::Black), 0);
    assert!(moves_from(&mut pos, "e5").contains("e5e5"));
}

#[test]
fn hook_no_two_skips_in_a_row() {
    let v = variant(HOOK);
    let mut pos = position(&v, &[("a1", "K"), ("s19", "k"), ("e5", "(LN)")], 'b', "");
    pos.play_texts("e5e5 s19r19").unwrap();
    assert!(!moves_from(&mut pos, "e5").contains("e5e5"));
    let mut pos = position(
        &v,
        &[("a1", "K"), ("s19", "k"), ("e5", "(LN)")],
        'b',
        "0 skips=0/1",
    );
    assert!(moves_from(&mut pos, "e5").contains("e5e5"));
}

#[test]
fn gyaku_no_fourth_skip_in_a_row() {
    let v = variant(GYAKU);
    let pieces = [("a1", "K"), ("m13", "k"), ("e5", "(LN)")];
    let mut pos = position(&v, &pieces, 'b', "0 skips=2/0");
    assert!(moves_from(&mut pos, "e5").contains("e5e5"));
    pos.play_texts("e5e5").unwrap();
    assert_eq!(pos.consecutive_skips(Color::Black), 3);
    pos.play_texts("m13l13").unwrap();
    assert!(!moves_from(&mut pos, "e5").contains("e5e5"));
    let mut pos = position(&v, &pieces, 'b', "0 skips=3/0");
    assert!(!moves_from(&mut pos, "e5").contains("e5e5"));
}

// ---------------------------------------------------------------------------------------------
// Gyaku-sama: no fourth check in a row
// ---------------------------------------------------------------------------------------------

#[test]
fn gyaku_no_fourth_check_in_a_row() {
    let v = variant(GYAKU);
    // Black Rook a5, White King e9. Checks: a5a9 (along rank 9), a5e5 (up the e-file).
    let pieces = [("a1", "K"), ("e9", "k"), ("a5", "R")];
    let mut pos = position(&v, &pieces, 'b', "0 checks=3/0");
    let ms = moves_from(&mut pos, "a5");
    assert!(!ms.contains("a5a9") && !ms.contains("a5e5"), "{ms:?}");
    assert!(ms.contains("a5a8") && ms.contains("a5d5"));
    // With two checks in a row a third is legal, and counts.
    let mut pos = position(&v, &pieces, 'b', "0 checks=2/0");
    assert!(moves_from(&mut pos, "a5").contains("a5a9"));
    pos.play_texts("a5a9").unwrap();
    assert_eq!(pos.consecutive_checks(Color::Black), 3);
    assert!(pos.to_text().ends_with(" checks=3/0"), "{}", pos.to_text());
    // A move that gives no check resets the count.
    let mut pos = position(&v, &pieces, 'b', "0 checks=2/0");
    pos.play_texts("a5a8").unwrap();
    assert_eq!(pos.consecutive_checks(Color::Black), 0);
    // Capturing the King is not a check: legal even after three checks.
    let mut pos = position(
        &v,
        &[("a1", "K"), ("e9", "k"), ("e5", "R")],
        'b',
        "0 checks=3/0",
    );
    assert!(moves_from(&mut pos, "e5").contains("e5e9+"));
}

// ---------------------------------------------------------------------------------------------
// Royal capture, several royals, the Emperor
// ---------------------------------------------------------------------------------------------

#[test]
fn moving_into_check_is_legal_and_capturing_the_king_wins() {
    let v = variant(SHOKO);
    // The Black King may step onto the rank the White rook holds.
    let mut pos = position(&v, &[("e5", "K"), ("a6", "r"), ("m13", "k")], 'b', "");
    assert!(moves_from(&mut pos, "e5").contains("e5e6"));
    pos.play_texts("e5e6").unwrap();
    pos.play_texts("a6e6+").unwrap();
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::RoyalCaptured
        })
    );
}

#[test]
fn hook_a_player_loses_with_the_last_royal_piece() {
    let v = variant(HOOK);
    // White has a King and a Crown Prince; losing one is not the end, losing both is.
    let mut pos = position(
        &v,
        &[
            ("a1", "K"),
            ("e5", "R"),
            ("e9", "+(de)"),
            ("k9", "k"),
            ("k5", "R"),
            ("s15", "p"),
        ],
        'b',
        "",
    );
    assert_eq!(pos.royal_count(Color::White), 2);
    pos.play_texts("e5e9+").unwrap();
    assert_eq!(pos.royal_count(Color::White), 1);
    assert_eq!(pos.outcome(), None);
    pos.play_texts("s15s14 k5k9+").unwrap();
    assert_eq!(pos.royal_count(Color::White), 0);
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::RoyalCaptured
        })
    );
}

#[test]
fn hook_drunk_elephant_that_captures_becomes_a_royal_crown_prince() {
    let v = variant(HOOK);
    let mut pos = position(
        &v,
        &[("a1", "K"), ("e5", "(DE)"), ("e6", "p"), ("s19", "k")],
        'b',
        "",
    );
    assert_eq!(pos.royal_count(Color::Black), 1);
    assert_eq!(play_and_look(&mut pos, "e5e6+", "e6"), "+DE");
    assert_eq!(pos.royal_count(Color::Black), 2);
    // And a King that captures becomes the Emperor (still royal, one of them).
    let mut pos = position(&v, &[("e5", "K"), ("e6", "p"), ("s19", "k")], 'b', "");
    assert_eq!(play_and_look(&mut pos, "e5e6+", "e6"), "+K");
    assert_eq!(pos.royal_count(Color::Black), 1);
}

#[test]
fn hook_emperor_moves_anywhere_but_may_not_capture_a_protected_royal() {
    let v = variant(HOOK);
    // Black Emperor j15. White: King j10 protected only by the rook on j19 through j15 (the
    // line opens when the Emperor leaves); Crown Prince m3, unprotected; a Gold c3 protected by
    // a pawn on c4 (not royal: the Emperor may take it).
    let mut pos = position(
        &v,
        &[
            ("a1", "K"),
            ("j15", "+K"),
            ("j10", "k"),
            ("j19", "r"),
            ("m3", "+(de)"),
            ("c3", "g"),
            ("c4", "p"),
        ],
        'b',
        "",
    );
    let ms = moves_from(&mut pos, "j15");
    assert!(
        !ms.contains("j15j10"),
        "the King is protected once the line opens"
    );
    assert!(ms.contains("j15m3") && ms.contains("j15c3") && ms.contains("j15s1"));
    // Every square of the board is a move (empty or an enemy to take) but j15 itself, the own
    // King a1 and the protected King j10.
    assert_eq!(ms.len(), 361 - 3);
    // Without the rook, the King can be taken, which wins.
    let mut pos = position(&v, &[("a1", "K"), ("j15", "+K"), ("j10", "k")], 'b', "");
    pos.play_texts("j15j10").unwrap();
    assert_eq!(pos.outcome().and_then(|o| o.winner()), Some(Color::Black));
}

// ---------------------------------------------------------------------------------------------
// End of the game
// ---------------------------------------------------------------------------------------------

#[test]
fn no_legal_move_loses() {
    let v = variant(SHOKO);
    // Black King a13 walled in by its own dead pawns (b13 on the last rank; a12 and b12 blocked).
    let mut pos = position(
        &v,
        &[
            ("a13", "K"),
            ("b13", "P"),
            ("a12", "P"),
            ("b12", "P"),
            ("m1", "k"),
        ],
        'b',
        "",
    );
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::NoLegalMoves
        })
    );
}

#[test]
fn fourth_repetition_is_a_draw() {
    for (id, far) in [(SHOKO, "m13"), (GYAKU, "m13"), (HOOK, "s19")] {
        let v = variant(id);
        let mut pos = position(&v, &[("a1", "K"), (far, "k")], 'b', "");
        let back = if id == HOOK { "r19" } else { "l13" };
        let cycle = [
            "a1a2".to_string(),
            format!("{far}{back}"),
            "a2a1".to_string(),
            format!("{back}{far}"),
        ];
        let cycle: Vec<&str> = cycle.iter().map(|s| s.as_str()).collect();
        assert_eq!(
            play_cycle(&mut pos, &cycle, 3),
            Some(Outcome::Draw(DrawReason::Repetition)),
            "{id}"
        );
    }
}

#[test]
fn skip_counters_are_part_of_the_repeated_position() {
    let v = variant(GYAKU);
    let mut pos = position(&v, &[("a1", "K"), ("m13", "k"), ("e5", "(LN)")], 'b', "");
    pos.play_texts("e5e5 m13m12").unwrap();
    let with_skip = pos.clone();
    pos.play_texts("e5e6 m12m13 e6e5 m13m12").unwrap();
    // Same board and side to move, but Black's skip count differs.
    assert_eq!(pos.repetitions(), 1);
    assert!(pos != with_skip && pos.hash() != with_skip.hash());
    assert_eq!(pos.hash(), pos.compute_hash());
}

#[test]
fn maximum_length_is_a_draw() {
    for id in [SHOKO, GYAKU, HOOK] {
        let v = variant(id);
        let max = v.rules.max_plies;
        let far = if id == HOOK { "s19" } else { "m13" };
        let mut pos = position(&v, &[("a1", "K"), (far, "k")], 'b', &(max - 1).to_string());
        assert_eq!(pos.outcome(), None);
        pos.play_texts("a1a2").unwrap();
        assert_eq!(
            pos.outcome(),
            Some(Outcome::Draw(DrawReason::MaxLength)),
            "{id}"
        );
    }
}

#[test]
fn counters_in_the_position_text() {
    let v = variant(GYAKU);
    let pieces = [("a1", "K"), ("m13", "k"), ("e5", "(LN)")];
    let plain = position(&v, &pieces, 'b', "4");
    let counted = position(&v, &pieces, 'b', "4 skips=2/1,checks=0/3");
    assert_eq!(counted.consecutive_skips(Color::Black), 2);
    assert_eq!(counted.consecutive_skips(Color::White), 1);
    assert_eq!(counted.consecutive_checks(Color::White), 3);
    assert!(counted != plain && counted.hash() != plain.hash());
    assert_eq!(counted.hash(), counted.compute_hash());
    // Written back the same way; a position without counters writes none.
    assert!(counted.to_text().ends_with(" 4 skips=2/1,checks=0/3"));
    assert!(plain.to_text().ends_with(" b - 4"));
    let back = Position::from_text(&v, &counted.to_text()).unwrap();
    assert!(back == counted && back.hash() == counted.hash());
    // Values above the limit, counters the variant has not and malformed fields are refused.
    let board = text(13, &pieces, 'b', "");
    for bad in ["0 skips=4/0", "0 checks=1", "0 turns=1/1", "0 skips=a/0"] {
        assert!(
            Position::from_text(&v, &format!("{board}{bad}")).is_err(),
            "{bad}"
        );
    }
    let shoko = variant(SHOKO);
    let board = text(13, &pieces, 'b', "");
    assert!(Position::from_text(&shoko, &format!("{board}0 checks=1/0")).is_err());
    assert!(Position::from_text(&shoko, &format!("{board}0 skips=2/0")).is_err());
    let hand = variant("hand-shogi");
    let t = "8k/9/9/9/9/9/9/9/K8 b - 0 skips=1/0";
    assert!(Position::from_text(&hand, t).is_err());
}

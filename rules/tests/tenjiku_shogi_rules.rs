//! One test per special rule of Tenjiku Shogi (configs/variants/tenjiku-shogi.toml): the jumping
//! generals' ranks, the area moves, the Fire Demon's arrival and passive burns, the Heavenly
//! Tetrarchs, promotion, and the start position. The positions and their answers are the
//! hand-counted ones of docs/tenjiku-shogi.md; each test fails if its rule is removed from the
//! rules core or from the variant file.

mod common;

use common::{piece_on, play, set_of, variant};
use koma_rules::{Color, Outcome, Position, Variant, WinReason};
use std::collections::BTreeSet;
use std::sync::Arc;

const TENJIKU: &str = "tenjiku-shogi";

fn position(v: &Arc<Variant>, text: &str) -> Position {
    Position::from_text(v, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The squares the legal moves starting on `from` end on (promotion choices merged).
fn destinations(pos: &mut Position, from: &str) -> BTreeSet<String> {
    common::moves_from(pos, from)
        .into_iter()
        .filter(|t| !t.contains(','))
        .map(|t| t[from.len()..].trim_end_matches(['+', '=']).to_string())
        .collect()
}

/// The pieces on the board as (square, id, colour), sorted.
fn board(pos: &Position) -> BTreeSet<(String, String, Color)> {
    let g = &pos.variant().geometry;
    let mut out = BTreeSet::new();
    for f in 0..g.files() {
        for r in 0..g.ranks() {
            let name = common::square_name((f as i32, r as i32));
            if let Some((id, c)) = piece_on(pos, &name) {
                out.insert((name, id, c));
            }
        }
    }
    out
}

/// The squares emptied by playing `text` (the mover's origin included).
fn removed_by(pos: &mut Position, text: &str) -> BTreeSet<String> {
    let before = board(pos);
    play(pos, text);
    let after = board(pos);
    let mut gone: BTreeSet<String> = before
        .iter()
        .filter(|(sq, id, c)| !after.contains(&(sq.clone(), id.clone(), *c)))
        .map(|(sq, _, _)| sq.clone())
        .collect();
    // A square now holding the mover (or its promoted form) is not emptied.
    gone.retain(|sq| piece_on(pos, sq).is_none());
    gone
}

#[test]
fn the_start_position_has_78_pieces_a_side_and_70_first_moves() {
    let v = variant(TENJIKU);
    let mut pos = Position::start(&v);
    assert_eq!(v.setup.len(), 156);
    assert_eq!(piece_on(&pos, "h1").unwrap().0, "K");
    assert_eq!(piece_on(&pos, "i16"), Some(("K".into(), Color::White)));
    assert_eq!(piece_on(&pos, "h14"), Some(("FE".into(), Color::White)));
    assert_eq!(piece_on(&pos, "e6").unwrap().0, "D");
    assert_eq!(pos.legal_moves().len(), 70);
    // The Great General's six jump captures, the rest of its lines blocked by its own pieces.
    assert_eq!(
        destinations(&mut pos, "h4"),
        set_of(&["h12", "h13", "h14", "h15", "h16", "p12"])
    );
    assert_eq!(destinations(&mut pos, "i4"), set_of(&["a12"]));
}

#[test]
fn a_great_general_jumps_lower_ranks_to_capture_and_stops_at_its_equals() {
    let v = variant(TENJIKU);
    let mut pos = position(
        &v,
        "16/16/16/7p8/16/4p2(rg)2p5/5(fi)1P1k6/16/4p1(gg)(GG)1(vg)1p4/6G1p7/7K1P6/4p5+(de)5/7p3p4/16/16/16 b -",
    );
    assert_eq!(
        destinations(&mut pos, "h8"),
        set_of(&[
            "e5", "e11", "f10", "g8", "g9", "h7", "h9", "h11", "h13", "i7", "i8", "i9", "j8",
            "j10", "l8"
        ])
    );
}

#[test]
fn a_rook_general_is_blocked_by_equal_ranks() {
    let v = variant(TENJIKU);
    let mut pos = position(
        &v,
        "15k/16/16/16/16/7p8/16/7(BG)8/3(fi)2p(RG)(rg)1p5/7P8/16/7(bg)8/16/16/16/K15 b -",
    );
    assert_eq!(destinations(&mut pos, "h8"), set_of(&["d8", "g8", "i8"]));
}

#[test]
fn a_vice_general_jump_captures_and_makes_its_area_move() {
    let v = variant(TENJIKU);
    let mut pos = position(
        &v,
        "16/16/1p14/2(RG)13/3g7p4/4p5(gg)5/16/6SPPp6/6S(VG)8/6GGG1p5/5(bg)10/4(vg)5p5/3p12/12k3/16/1K14 b -",
    );
    assert_eq!(
        destinations(&mut pos, "h8"),
        set_of(&[
            "b14", "d12", "e11", "f6", "k5", "h8", "i6", "i8", "j6", "j7", "j8", "j9", "k6", "k7",
            "k8", "k9"
        ])
    );
}

#[test]
fn a_fire_demon_burns_the_enemies_around_where_it_ends() {
    let v = variant(TENJIKU);
    let text = "14k1/16/16/16/16/3(fi)12/5p10/6SPS7/4p2(FI)C7/6GGG7/4g11/16/16/16/16/1K14 b -";
    let mut pos = position(&v, text);
    assert_eq!(
        destinations(&mut pos, "h8"),
        set_of(&[
            "g8", "f7", "f8", "f9", "e6", "e7", "e8", "e9", "e10", "f6", "f10", "g6", "g10", "h8"
        ])
    );
    // (destination, squares emptied besides the origin: captures and burns)
    let expected: &[(&str, &[&str])] = &[
        ("g8", &[]),
        ("f7", &["e6", "e8"]),
        ("f8", &["e8"]),
        ("f9", &["e8", "f10"]),
        ("e6", &[]),
        ("e7", &["e6", "e8"]),
        ("e8", &[]),
        ("e9", &["e8", "f10"]),
        ("f6", &["e6"]),
        ("f10", &[]),
        ("g6", &[]),
        ("g10", &["f10"]),
    ];
    for &(to, burnt) in expected {
        let mut pos = position(&v, text);
        let mut want: BTreeSet<String> = burnt.iter().map(|s| s.to_string()).collect();
        want.insert("h8".into());
        assert_eq!(removed_by(&mut pos, &format!("h8{to}")), want, "h8{to}");
        assert_eq!(piece_on(&pos, to).unwrap().0, "FI", "h8{to}");
        assert_eq!(pos.compute_hash(), pos.hash(), "h8{to}");
        pos.unmake_move();
        assert_eq!(pos, position(&v, text), "h8{to} taken back");
    }
    // e10 is next to the enemy Demon on d11: the Demon moving there burns itself, and nothing.
    let mut pos = position(&v, text);
    assert_eq!(removed_by(&mut pos, "h8e10"), set_of(&["h8"]));
    assert!(piece_on(&pos, "e10").is_none());
    // The pass burns too: nothing stands next to h8 that is the enemy's.
    let mut pos = position(&v, text);
    assert_eq!(removed_by(&mut pos, "h8h8"), BTreeSet::new());
}

#[test]
fn a_fire_demon_spares_its_own_pieces() {
    let v = variant(TENJIKU);
    let mut pos = position(
        &v,
        "11k4/16/16/p15/16/6p1s7/16/6G1g7/7(FI)8/16/16/16/16/16/16/4K11 b -",
    );
    assert_eq!(
        removed_by(&mut pos, "h8h10"),
        set_of(&["h8", "g11", "i9", "i11"])
    );
    assert_eq!(piece_on(&pos, "g9").unwrap().0, "G");
    assert_eq!(piece_on(&pos, "a13").unwrap().0, "P");
}

#[test]
fn a_piece_ending_next_to_an_enemy_fire_demon_burns() {
    let v = variant(TENJIKU);
    let mut pos = position(
        &v,
        "11k4/16/16/16/16/16/7(fi)8/5G10/16/16/16/16/16/16/16/4K11 b -",
    );
    assert_eq!(removed_by(&mut pos, "f9g9"), set_of(&["f9"]));
    let mut pos = position(
        &v,
        "11k4/16/16/16/16/16/7(FI)8/5g10/16/16/16/16/16/16/16/4K11 w -",
    );
    assert_eq!(removed_by(&mut pos, "f9g9"), set_of(&["f9"]));
    // A Demon ending next to an enemy Demon burns itself without burning anything.
    let mut pos = position(
        &v,
        "11k4/16/16/16/16/6p9/7(fi)8/16/16/16/16/3(FI)12/16/16/16/4K11 b -",
    );
    assert_eq!(removed_by(&mut pos, "d5h9"), set_of(&["d5"]));
    assert_eq!(piece_on(&pos, "h10").unwrap().0, "FI");
    assert_eq!(piece_on(&pos, "g11").unwrap().0, "P");
}

#[test]
fn taking_a_fire_demon_burns_the_taker_if_it_ends_next_to_the_demons_square() {
    let v = variant(TENJIKU);
    // Lion igui: the Demon is taken, and the Lion, next to its square, is burnt by it.
    let text = "11k4/16/16/16/16/16/16/6(FI)9/5(ln)10/16/16/16/16/16/16/4K11 w -";
    let mut pos = position(&v, text);
    assert_eq!(removed_by(&mut pos, "f8g9,g9f8"), set_of(&["f8", "g9"]));
    // A Gold landing on the Demon's square survives.
    let text = "11k4/16/16/16/16/16/16/6(FI)9/5(ln)g9/16/16/16/16/16/16/4K11 w -";
    let mut pos = position(&v, text);
    assert_eq!(removed_by(&mut pos, "g8g9"), set_of(&["g8"]));
    assert_eq!(piece_on(&pos, "g9"), Some(("G".into(), Color::White)));
    // Hit and run ending next to the Demon's square: burnt; a Rook from afar: safe.
    let text = "11k4/16/16/16/16/16/16/5(FI)10/4(ln)11/16/16/5r10/16/16/16/4K11 w -";
    let mut pos = position(&v, text);
    assert_eq!(removed_by(&mut pos, "e8f9,f9g9"), set_of(&["e8", "f9"]));
    let mut pos = position(&v, text);
    // (f5 is in the second player's zone: the capture may promote; declined here.)
    assert_eq!(removed_by(&mut pos, "f5f9="), set_of(&["f5"]));
    assert_eq!(piece_on(&pos, "f9"), Some(("R".into(), Color::White)));
}

#[test]
fn a_promotion_to_fire_demon_burns_nothing_that_move_but_burns_arrivals_after() {
    let v = variant(TENJIKU);
    let mut pos = position(
        &v,
        "k15/16/13g2/10p5/16/12p3/16/16/7(WB)8/16/16/16/16/16/16/4K11 b -",
    );
    assert_eq!(removed_by(&mut pos, "h8l12+"), set_of(&["h8"]));
    assert_eq!(piece_on(&pos, "l12").unwrap().0, "+WB");
    assert_eq!(removed_by(&mut pos, "n14m13"), set_of(&["n14"]));
}

#[test]
fn the_king_moving_next_to_an_enemy_fire_demon_loses_the_game() {
    let v = variant(TENJIKU);
    let mut pos = position(
        &v,
        "11k4/16/16/16/16/16/16/16/16/16/16/16/16/5(fi)10/16/4K11 b -",
    );
    play(&mut pos, "e1e2");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::RoyalCaptured
        })
    );
    pos.unmake_move();
    // The Demon could end a move next to the King and burn it: that is check.
    assert!(pos.in_check(Color::Black));
    assert!(pos
        .checks(Color::Black)
        .checkers
        .contains(&common::square(&pos, "f3")));
}

#[test]
fn the_heavenly_tetrarchs_skip_the_first_square_and_capture_around_without_moving() {
    let v = variant(TENJIKU);
    let mut pos = position(
        &v,
        "16/16/16/16/7g8/10S5/15k/7Pp7/4p1s+(CS)1Pp5/6G9/5p10/16/16/16/K15/16 b -",
    );
    let all = common::moves_from(&mut pos, "h8");
    assert!(
        all.contains("h8g8,g8h8") && all.contains("h8i9,i9h8"),
        "{all:?}"
    );
    assert_eq!(
        destinations(&mut pos, "h8"),
        set_of(&[
            "f8", "e8", "h10", "h11", "h12", "h6", "h5", "h4", "h3", "h2", "h1", "f10", "e11",
            "d12", "c13", "b14", "a15", "j10", "f6", "j6", "k5", "l4", "m3", "n2", "o1"
        ])
    );
}

#[test]
fn promotion_on_entry_and_the_forced_promotions() {
    let v = variant(TENJIKU);
    let mut pos = position(
        &v,
        "6s7k1/3g3I1P6/16/4N11/16/16/11L4/16/16/16/16/16/16/16/16/1K14 b -",
    );
    let n = common::moves_from(&mut pos, "e13");
    assert!(n.contains("e13f15") && n.contains("e13d15+"), "{n:?}");
    assert!(!n.contains("e13d15=") && !n.contains("e13f15+"), "{n:?}");
    let l = common::moves_from(&mut pos, "l10");
    assert!(l.contains("l10l11") && !l.contains("l10l11+"), "{l:?}");
    for r in 12..=15 {
        assert!(l.contains(&format!("l10l{r}+")) && l.contains(&format!("l10l{r}=")));
    }
    assert!(l.contains("l10l16+") && !l.contains("l10l16="), "{l:?}");
    let i = common::moves_from(&mut pos, "h15");
    assert!(i.contains("h15h16") && i.contains("h15i16") && i.contains("h15g16+"));
    assert!(!i.contains("h15g16="), "{i:?}");
    assert!(common::moves_from(&mut pos, "j15").contains("j15j16"));
}

//! The hand-counted answers of `docs/tenjiku-shogi.md` §10 (T1-T12), checked against the
//! independent reference generator in `reference/tenjiku_shogi.rs`, so that the reference can
//! be trusted when it cross-checks the rules core.

#[path = "reference/tenjiku_shogi.rs"]
mod reference;

use reference::RefPosition;
use std::collections::BTreeSet;

fn pos(text: &str) -> RefPosition {
    RefPosition::from_fen(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Moves from `from` to each of `dests` (plain texts, no promotion suffix).
fn to(from: &str, dests: &str) -> BTreeSet<String> {
    dests
        .split_whitespace()
        .map(|d| format!("{from}{d}"))
        .collect()
}

fn set(texts: &[&str]) -> BTreeSet<String> {
    texts.iter().map(|t| t.to_string()).collect()
}

/// The occupied squares of a position with their tokens.
fn pieces(p: &RefPosition) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for f in 'a'..='p' {
        for r in 1..=16 {
            let s = format!("{f}{r}");
            if let Some(t) = p.piece_on(&s) {
                out.insert(format!("{t}@{s}"));
            }
        }
    }
    out
}

/// The pieces removed by a move and the pieces that arrived (`after` minus `before`).
fn changes(before: &RefPosition, after: &RefPosition) -> (BTreeSet<String>, BTreeSet<String>) {
    let (b, a) = (pieces(before), pieces(after));
    (
        b.difference(&a).cloned().collect(),
        a.difference(&b).cloned().collect(),
    )
}

const START: &str = "ln(fl)icsg(de)kgsci(fl)nl/(rc)1(cs)(cs)1(bt)(ph)(fk)(ln)(ky)(bt)1(cs)(cs)1(rc)/(ss)(vs)b(dh)(dk)(wb)(fi)(fe)(lh)(fi)(wb)(dk)(dh)b(vs)(ss)/(sm)(vm)r(hf)(se)(bg)(rg)(vg)(gg)(rg)(bg)(se)(hf)r(vm)(sm)/pppppppppppppppp/4d6d4/16/16/16/16/4D6D4/PPPPPPPPPPPPPPPP/(SM)(VM)R(HF)(SE)(BG)(RG)(GG)(VG)(RG)(BG)(SE)(HF)R(VM)(SM)/(SS)(VS)B(DH)(DK)(WB)(FI)(LH)(FE)(FI)(WB)(DK)(DH)B(VS)(SS)/(RC)1(CS)(CS)1(BT)(KY)(LN)(FK)(PH)(BT)1(CS)(CS)1(RC)/LN(FL)ICSGK(DE)GSCI(FL)NL b -";

#[test]
fn position_texts_round_trip() {
    let start = RefPosition::start();
    assert_eq!(pos(START), start);
    assert_eq!(start.to_fen(), format!("{START} 0"));
    assert!(start.side_to_move_is_black());
    let after = start.play("h4h13").unwrap();
    assert!(!after.side_to_move_is_black());
    assert_eq!(pos(&after.to_fen()), after);
    assert!(after.to_fen().ends_with(" w - 1"));
    assert!(RefPosition::from_fen("16/16 b -").is_err());
}

#[test]
fn t1_great_general_ranks_on_every_line() {
    let p = pos("16/16/16/7p8/16/4p2(rg)2p5/5(fi)1P1k6/16/4p1(gg)(GG)1(vg)1p4/6G1p7/7K1P6/4p5+(de)5/7p3p4/16/16/16 b -");
    assert_eq!(
        p.moves_from("h8"),
        to("h8", "e5 e11 f10 g8 g9 h7 h9 h11 h13 i7 i8 i9 j8 j10 l8")
    );
    // g9 and e11 are next to the Fire Demon f10: the General is burned there.
    for m in ["h8g9", "h8e11"] {
        let q = p.play(m).unwrap();
        assert_eq!(q.piece_on("h8"), None);
        assert_eq!(q.piece_on(&m[2..]), None, "{m}");
        assert_eq!(q.piece_on("f10").as_deref(), Some("(fi)"));
    }
    // Elsewhere it arrives: h13 after jumping its own Pawn and the Rook General.
    let q = p.play("h8h13").unwrap();
    assert_eq!(q.piece_on("h13").as_deref(), Some("(GG)"));
    assert_eq!(q.piece_on("h11").as_deref(), Some("(rg)"));
    assert_eq!(q.piece_on("h10").as_deref(), Some("P"));
}

#[test]
fn t2_rook_general_equal_ranks_block() {
    let p = pos("15k/16/16/16/16/7p8/16/7(BG)8/3(fi)2p(RG)(rg)1p5/7P8/16/7(bg)8/16/16/16/K15 b -");
    assert_eq!(p.moves_from("h8"), to("h8", "d8 g8 i8"));
}

#[test]
fn t3_vice_general_jump_captures_and_area_move() {
    let p = pos("16/16/1p14/2(RG)13/3g7p4/4p5(gg)5/16/6SPPp6/6S(VG)8/6GGG1p5/5(bg)10/4(vg)5p5/3p12/12k3/16/1K14 b -");
    assert_eq!(
        p.moves_from("h8"),
        to("h8", "b14 d12 e11 f6 k5 h8 i6 i8 j6 j7 j8 j9 k6 k7 k8 k9")
    );
}

#[test]
fn t4_fire_demon_area_move_and_burns() {
    let p = pos("14k1/16/16/16/16/3(fi)12/5p10/6SPS7/4p2(FI)C7/6GGG7/4g11/16/16/16/16/1K14 b -");
    assert_eq!(
        p.moves_from("h8"),
        to("h8", "g8 f7 f8 f9 e6 e7 e8 e9 e10 f6 f10 g6 g10 h8")
    );
    // Destination, pieces removed besides the Demon leaving h8 (captured and burned), and
    // whether the Demon survives.
    let table: [(&str, &[&str], bool); 14] = [
        ("g8", &[], true),
        ("f7", &["g@e6", "p@e8"], true),
        ("f8", &["p@e8"], true),
        ("f9", &["p@e8", "p@f10"], true),
        ("e6", &["g@e6"], true),
        ("e7", &["g@e6", "p@e8"], true),
        ("e8", &["p@e8"], true),
        ("e9", &["p@e8", "p@f10"], true),
        ("e10", &[], false),
        ("f6", &["g@e6"], true),
        ("f10", &["p@f10"], true),
        ("g6", &[], true),
        ("g10", &["p@f10"], true),
        ("h8", &[], true),
    ];
    for (dest, removed, survives) in table {
        let m = format!("h8{dest}");
        let q = p.play(&m).unwrap();
        let (gone, arrived) = changes(&p, &q);
        let mut want: BTreeSet<String> = removed.iter().map(|s| s.to_string()).collect();
        let mut want_arrived = BTreeSet::new();
        if dest != "h8" {
            want.insert("(FI)@h8".to_string());
            if survives {
                want_arrived.insert(format!("(FI)@{dest}"));
            }
        }
        assert_eq!(gone, want, "{m}");
        assert_eq!(arrived, want_arrived, "{m}");
    }
}

#[test]
fn t5_active_burn_spares_own_pieces() {
    let p = pos("11k4/16/16/p15/16/6p1s7/16/6G1g7/7(FI)8/16/16/16/16/16/16/4K11 b -");
    let q = p.play("h8h10").unwrap();
    let (gone, arrived) = changes(&p, &q);
    assert_eq!(gone, set(&["(FI)@h8", "p@g11", "g@i9", "s@i11"]));
    assert_eq!(arrived, set(&["(FI)@h10"]));
}

#[test]
fn t6_passive_burn_of_an_ordinary_piece() {
    let p = pos("11k4/16/16/16/16/16/7(fi)8/5G10/16/16/16/16/16/16/16/4K11 b -");
    let q = p.play("f9g9").unwrap();
    assert_eq!(pieces(&q), set(&["K@e1", "(fi)@h10", "k@l16"]));
    let p = pos("11k4/16/16/16/16/16/7(FI)8/5g10/16/16/16/16/16/16/16/4K11 w -");
    let q = p.play("f9g9").unwrap();
    assert_eq!(pieces(&q), set(&["K@e1", "(FI)@h10", "k@l16"]));
}

#[test]
fn t7_fire_demon_next_to_an_enemy_fire_demon() {
    let p = pos("11k4/16/16/16/16/6p9/7(fi)8/16/16/16/16/3(FI)12/16/16/16/4K11 b -");
    let q = p.play("d5h9").unwrap();
    let (gone, arrived) = changes(&p, &q);
    assert_eq!(gone, set(&["(FI)@d5"]));
    assert!(arrived.is_empty());
}

#[test]
fn t8_capturing_a_fire_demon() {
    let p = pos("11k4/16/16/16/16/16/16/6(FI)9/5(ln)10/16/16/16/16/16/16/4K11 w -");
    // (a) igui: the Demon is taken and the Lion, next to g9, burns.
    let q = p.play("f8g9,g9f8").unwrap();
    assert_eq!(pieces(&q), set(&["K@e1", "k@l16"]));
    // (b) a Gold landing on the Demon's square survives.
    let p = pos("11k4/16/16/16/16/16/16/6(FI)9/5(ln)g9/16/16/16/16/16/16/4K11 w -");
    let q = p.play("g8g9").unwrap();
    assert_eq!(pieces(&q), set(&["K@e1", "k@l16", "(ln)@f8", "g@g9"]));
    // (c) hit-and-run ending next to the Demon's square: the Lion burns.
    let p = pos("11k4/16/16/16/16/16/16/5(FI)10/4(ln)11/16/16/5r10/16/16/16/4K11 w -");
    let q = p.play("e8f9,f9g9").unwrap();
    assert_eq!(pieces(&q), set(&["K@e1", "k@l16", "r@f5"]));
    // (d) the Rook taking from a distance survives. It starts in the second player's zone
    // (ranks 1-5), so the capture may promote.
    assert!(p.legal_moves().contains("f5f9+"));
    let q = p.play("f5f9=").unwrap();
    assert_eq!(pieces(&q), set(&["K@e1", "k@l16", "(ln)@e8", "r@f9"]));
    let q = p.play("f5f9+").unwrap();
    assert_eq!(pieces(&q), set(&["K@e1", "k@l16", "(ln)@e8", "+r@f9"]));
}

#[test]
fn t9_promotion_into_a_fire_demon() {
    let p = pos("k15/16/13g2/10p5/16/12p3/16/16/7(WB)8/16/16/16/16/16/16/4K11 b -");
    assert!(p.legal_moves().contains("h8l12="));
    let q = p.play("h8l12+").unwrap();
    assert_eq!(q.piece_on("l12").as_deref(), Some("+(WB)"));
    assert_eq!(q.piece_on("k13").as_deref(), Some("p"));
    assert_eq!(q.piece_on("m11").as_deref(), Some("p"));
    // The new Demon burns passively at once.
    let r = q.play("n14m13").unwrap();
    assert_eq!(r.piece_on("m13"), None);
    assert_eq!(r.piece_on("n14"), None);
    // And actively after its next move.
    let s = r.play("l12l13").unwrap();
    assert_eq!(s.piece_on("l13").as_deref(), Some("+(WB)"));
    assert_eq!(s.piece_on("k13"), None);
}

#[test]
fn t10_heavenly_tetrarchs() {
    let p = pos("16/16/16/16/7g8/10S5/15k/7Pp7/4p1s+(CS)1Pp5/6G9/5p10/16/16/16/K15/16 b -");
    let mut want = to(
        "h8",
        "f8 e8 h10 h11 h12 h6 h5 h4 h3 h2 h1 f10 e11 d12 c13 b14 a15 j10 f6 j6 k5 l4 m3 n2 o1",
    );
    assert_eq!(want.len(), 25);
    want.insert("h8g8,g8h8".to_string());
    want.insert("h8i9,i9h8".to_string());
    assert_eq!(p.moves_from("h8"), want);
}

#[test]
fn t11_promotion() {
    let p = pos("6s7k1/3g3I1P6/16/4N11/16/16/11L4/16/16/16/16/16/16/16/16/1K14 b -");
    assert_eq!(p.moves_from("e13"), set(&["e13f15", "e13d15+"]));
    assert_eq!(
        p.moves_from("l10"),
        set(&[
            "l10l11", "l10l12+", "l10l12=", "l10l13+", "l10l13=", "l10l14+", "l10l14=", "l10l15+",
            "l10l15=", "l10l16+",
        ])
    );
    assert_eq!(p.moves_from("h15"), set(&["h15h16", "h15i16", "h15g16+"]));
    assert_eq!(p.moves_from("j15"), set(&["j15j16"]));
    let q = p.play("j15j16").unwrap();
    assert_eq!(q.piece_on("j16").as_deref(), Some("P"));
}

#[test]
fn t12_start_position() {
    let p = RefPosition::start();
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 70);
    let promoting: BTreeSet<&String> = moves.iter().filter(|m| m.ends_with('+')).collect();
    assert_eq!(
        promoting,
        set(&["f4n12+", "f4o13+", "f4p14+", "k4c12+", "k4b13+", "k4a14+", "g4g12+", "j4j12+"])
            .iter()
            .collect()
    );
    assert_eq!(moves.iter().filter(|m| m.ends_with('=')).count(), 8);
    assert_eq!(p.moves_from("h4"), to("h4", "h12 h13 h14 h15 h16 p12"));
    assert_eq!(p.moves_from("i4"), to("i4", "a12"));
}

#[test]
fn start_perft() {
    let p = RefPosition::start();
    assert_eq!(p.perft(1), 70);
    let n2 = p.perft(2);
    println!("start perft(2) = {n2}");
    assert!(n2 > 4000);
}

/// Not in §10: the Lion as in Chu (the example of `chu_shogi_rules.rs`), counted by hand: 24
/// squares within two steps, a capture on f6 followed by any of its 8 king steps (igui back
/// to f5, a second capture on f7), and the pass.
#[test]
fn lion_moves_as_in_chu() {
    let p = pos("11k4/16/16/16/16/16/16/16/16/5g10/5p10/5(LN)10/16/16/16/K15 b -");
    let m = p.moves_from("f5");
    for t in [
        "f5f6,f6f7",
        "f5f6,f6f5",
        "f5f6,f6e7",
        "f5f5",
        "f5f7",
        "f5d7",
        "f5f6",
    ] {
        assert!(m.contains(t), "{t} missing from {m:?}");
    }
    assert_eq!(m.len(), 24 + 8 + 1, "{m:?}");
    // Igui: the Pawn is gone, the Lion stays.
    let q = p.play("f5f6,f6f5").unwrap();
    assert_eq!(q.piece_on("f6"), None);
    assert_eq!(q.piece_on("f5").as_deref(), Some("(LN)"));
}

/// Not in §10: the Free Eagle `QAcaFcabF`, counted by hand: 46 Queen squares, the A leaps to
/// j10 and f6 (f10 and j6 are Queen squares too), and for each adjacent diagonal enemy a
/// capture followed by a diagonal step straight on, turned 90° either way, or back (igui).
#[test]
fn free_eagle() {
    let p = pos("15k/16/16/16/16/16/16/8p7/7(FE)8/6p9/16/16/16/16/16/K15 b -");
    let m = p.moves_from("h8");
    for t in [
        "h8i9,i9j10",
        "h8i9,i9h10",
        "h8i9,i9j8",
        "h8i9,i9h8",
        "h8g7,g7f6",
        "h8g7,g7h6",
        "h8g7,g7f8",
        "h8g7,g7h8",
        "h8j10",
        "h8f6",
    ] {
        assert!(m.contains(t), "{t} missing from {m:?}");
    }
    assert_eq!(m.len(), 46 + 2 + 8, "{m:?}");
    assert!(!m.contains("h8h8"));
}

/// Not in §10: the Horned Falcon's Lion power forward only, and no forward slide.
#[test]
fn horned_falcon_lion_power() {
    let p = pos("15k/16/16/16/16/16/16/7p8/7(HF)8/16/16/16/16/16/16/K15 b -");
    let m = p.moves_from("h8");
    for t in ["h8h9", "h8h10", "h8h9,h9h10", "h8h9,h9h8", "h8i8", "h8h1"] {
        assert!(m.contains(t), "{t} missing from {m:?}");
    }
    assert!(!m.contains("h8h11") && !m.contains("h8h8"));
    // Empty in front: the pass.
    let p = pos("15k/16/16/16/16/16/16/16/7(HF)8/16/16/16/16/16/16/K15 b -");
    assert!(p.moves_from("h8").contains("h8h8"));
}

//! Ko Shogi: every worked example of section 12 of `shared/rules/ko-shogi.md` with its exact
//! move set, and one test per special rule, each failing if the rule is taken out.
//!
//! Positions are written as the specification writes them, `ID square` lists per side. The
//! examples list the moves of one piece as `to` or `to x{removed squares}`; the helpers below
//! turn the generated moves into that form (promotion choices merged, as the examples count
//! them), so that each expected set can be copied from the specification.

mod common;

use common::{
    attack_counts, check_moves, expected_perft, moves_from, piece_on, play, removed, square, token,
    variant, Grid,
};
use koma_rules::{perft, Color, Move, Outcome, Position, WinReason};
use std::collections::BTreeSet;

/// A position from `ID square` lists (`"SW j10, P j11"`), `side` to move.
fn position(black: &str, white: &str, side: Color) -> Position {
    let v = variant("ko-shogi");
    let mut grid = Grid::for_variant(&v);
    for (list, is_white) in [(black, false), (white, true)] {
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (id, sq) = item.split_once(' ').unwrap();
            grid.put(sq, token(id, is_white));
        }
    }
    grid.position(&v, side.letter(), "-")
}

/// The example form of a move: `to` or `to x{a,b}`.
fn outcome_form(pos: &Position, m: &Move) -> String {
    let g = &pos.variant().geometry;
    let r = removed(pos, m);
    if r.is_empty() {
        g.name(m.to())
    } else {
        let names: Vec<String> = r.iter().map(|&s| g.name(s)).collect();
        format!("{} x{{{}}}", g.name(m.to()), names.join(","))
    }
}

/// The legal moves of the piece on `from`, in the example form, promotion choices merged.
fn moves_of(pos: &mut Position, from: &str) -> BTreeSet<String> {
    let f = square(pos, from);
    pos.legal_moves()
        .iter()
        .filter(|m| m.from() == f)
        .map(|m| outcome_form(pos, m))
        .collect()
}

/// Normalizes an expected list (kills sorted in board order).
fn expected(pos: &Position, items: &[&str]) -> BTreeSet<String> {
    let g = &pos.variant().geometry;
    items
        .iter()
        .map(|item| match item.split_once(" x{") {
            None => item.to_string(),
            Some((to, rest)) => {
                let mut ks: Vec<_> = rest
                    .trim_end_matches('}')
                    .split(',')
                    .map(|k| g.parse(k.trim()).unwrap())
                    .collect();
                ks.sort_by_key(|&s| (g.file_of(s), g.rank_of(s)));
                let names: Vec<String> = ks.iter().map(|&s| g.name(s)).collect();
                format!("{to} x{{{}}}", names.join(","))
            }
        })
        .collect()
}

#[track_caller]
fn assert_moves(pos: &mut Position, from: &str, items: &[&str]) {
    let got = moves_of(pos, from);
    let want = expected(pos, items);
    assert_eq!(items.len(), want.len(), "the expected list has duplicates");
    check_moves(&format!("{from} in {}", pos.to_text()), &got, &want);
}

/// The piece on `name` as the position text writes its ID (lowercase for White), `.` if none.
fn id_at(pos: &Position, name: &str) -> String {
    match piece_on(pos, name) {
        None => ".".into(),
        Some((id, Color::Black)) => id,
        Some((id, Color::White)) => id.to_ascii_lowercase(),
    }
}

// ---------------------------------------------------------------------------------------
// Section 12, the worked examples.

/// E1: the start position.
#[test]
fn e1_start_position() {
    let v = variant("ko-shogi");
    let mut pos = Position::start(&v);
    let moves = pos.legal_moves();
    // The specification's count, which is the first line of the perft table.
    let n = expected_perft("ko-shogi", "startpos", 1);
    assert_eq!(moves.len() as u64, n);
    assert_eq!(perft(&mut pos, 1), n);
    let distinct: BTreeSet<(String, String)> = moves
        .iter()
        .map(|m| (v.geometry.name(m.from()), outcome_form(&pos, m)))
        .collect();
    assert_eq!(distinct.len(), 224);
    let mut per_type = std::collections::BTreeMap::new();
    for (from, _) in &distinct {
        *per_type.entry(id_at(&pos, from)).or_insert(0) += 1;
    }
    let want = [
        ("AC", 2),
        ("AI", 4),
        ("CA", 4),
        ("CE", 2),
        ("CH", 48),
        ("CM", 16),
        ("CN", 6),
        ("CS", 4),
        ("CU", 18),
        ("EL", 20),
        ("EN", 2),
        ("LB", 6),
        ("MI", 4),
        ("P", 18),
        ("PU", 9),
        ("QM", 4),
        ("SH", 24),
        ("SN", 2),
        ("ST", 2),
        ("SU", 12),
        ("SW", 4),
        ("VG", 5),
        ("XB", 8),
    ];
    let want: std::collections::BTreeMap<String, i32> =
        want.iter().map(|(k, n)| (k.to_string(), *n)).collect();
    assert_eq!(per_type, want);
    assert_moves(&mut pos, "j7", &["j8", "j9", "j10", "j11", "j12"]);
    assert_moves(
        &mut pos,
        "a6",
        &[
            "a5",
            "a7",
            "a8",
            "a9",
            "a10",
            "a11",
            "a12",
            "a13",
            "a14 x{a14}",
        ],
    );
    assert_eq!(
        moves_from(&mut pos, "a6")
            .into_iter()
            .filter(|t| t.contains("a14"))
            .collect::<Vec<_>>(),
        ["a6a14+", "a6a14="]
    );
    assert_moves(&mut pos, "g1", &["g2", "g1"]);
    assert!(moves_from(&mut pos, "g1").contains("g1g1"));
    assert_moves(&mut pos, "a4", &["c5", "a4"]);
    assert!(
        moves.iter().all(|m| m.shot_mask() == 0),
        "no shot at the start"
    );
}

/// E2: the sumo wrestler's one or two king steps, igui and the skip.
#[test]
fn e2_sumo_wrestler() {
    let mut pos = position(
        "SW j10, P j11, SH i11, SH k9, G a1",
        "P k11, P l12, G s19",
        Color::Black,
    );
    assert_moves(
        &mut pos,
        "j10",
        &[
            "h8",
            "h9",
            "h10",
            "h11",
            "i8",
            "i9",
            "i10",
            "j8",
            "j9",
            "k8",
            "k10",
            "l9",
            "l10",
            "l11",
            "j10",
            "j10 x{k11}",
            "j12 x{k11}",
            "k10 x{k11}",
            "k11 x{k11}",
            "k12 x{k11}",
            "l10 x{k11}",
            "l11 x{k11}",
            "l12 x{k11,l12}",
        ],
    );
}

/// E3: the cavalry's restricted second jump.
#[test]
fn e3_cavalry() {
    let mut pos = position("CA j10, SH h14, G a1", "P k12, G s19", Color::Black);
    assert_moves(
        &mut pos,
        "j10",
        &[
            "h9",
            "h11",
            "i8",
            "i12",
            "k8",
            "l9",
            "l11",
            "k12 x{k12}",
            "f8",
            "f10",
            "f12",
            "h6",
            "j6",
            "l6",
            "n8",
            "n10",
            "n12",
            "j14",
            "j10",
            "j10 x{k12}",
            "j14 x{k12}",
            "l14 x{k12}",
        ],
    );
}

/// E4: the Taoist priest captures only its own kind and shoots after a jump.
#[test]
fn e4_taoist_priest() {
    let mut pos = position(
        "TP f7, SH h9, G a1",
        "SM d9, G e8, P g10, EL h5",
        Color::Black,
    );
    assert_moves(
        &mut pos,
        "f7",
        &[
            "d5",
            "d7",
            "d7 x{e8}",
            "d9 x{d9}",
            "f5",
            "f9",
            "f9 x{e8}",
            "f9 x{g10}",
            "h7",
        ],
    );
    let mut after = pos.clone();
    play(&mut after, "f7d7*e8");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::RoyalCaptured
        })
    );
    play(&mut pos, "f7f9*e8");
    assert_eq!(pos.outcome().and_then(|o| o.winner()), Some(Color::Black));
}

/// E5: the Frankish cannon: up to two shots, clear lines, immunities.
#[test]
fn e5_frankish_cannon() {
    let mut pos = position(
        "FC j9, P h10, G a1",
        "P k12, SH k13, SU n10, CH f7, HF g6, G k17",
        Color::Black,
    );
    assert_moves(
        &mut pos,
        "j9",
        &[
            "i8",
            "i10",
            "i10 x{f7}",
            "i10 x{k12}",
            "i10 x{f7,k12}",
            "k8",
            "k8 x{k12}",
            "k8 x{k12,k13}",
            "k10",
            "k10 x{k12}",
            "k10 x{k12,k13}",
        ],
    );
    // The text form of section 4.4.
    assert!(moves_from(&mut pos, "j9").contains("j9k10*k12*k13"));
    let m = pos.parse_move("j9k10*k13*k12").unwrap();
    assert_eq!(
        pos.move_text(&m),
        "j9k10*k12*k13",
        "shots in either order, one move"
    );
}

/// E6: the fog aura stops the shots of a shooter within 5 of an enemy fog.
#[test]
fn e6_fog_aura() {
    let mut pos = position("FC f12, G a1", "FG l13, P c15, P g8, G s19", Color::Black);
    assert_moves(
        &mut pos,
        "f12",
        &[
            "e11",
            "e13",
            "e13 x{c15}",
            "e13 x{l13}",
            "e13 x{c15,l13}",
            "g11",
            "g13",
        ],
    );
    let mut pos = position("FC f12, G a1", "TP l13, P c15, P g8, G s19", Color::Black);
    assert_moves(
        &mut pos,
        "f12",
        &[
            "e11",
            "e13",
            "e13 x{c15}",
            "e13 x{l13}",
            "e13 x{c15,l13}",
            "g11",
            "g13",
            "g11 x{c15}",
            "g11 x{g8}",
            "g11 x{c15,g8}",
            "g13 x{g8}",
            "g13 x{l13}",
            "g13 x{g8,l13}",
        ],
    );
}

/// Counts a piece's moves by number of removed squares.
fn by_kills(pos: &mut Position, from: &str) -> [usize; 6] {
    let mut n = [0; 6];
    let f = square(pos, from);
    let forms: BTreeSet<(String, usize)> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from() == f)
        .map(|m| (outcome_form(pos, m), removed(pos, m).len()))
        .collect();
    for (_, k) in forms {
        n[k] += 1;
    }
    n
}

/// E7: the thunderclap's 1 to 5 self-avoiding steps.
#[test]
fn e7_thunderclap() {
    let mut pos = position("TC j10, TP b18, G a1", "G s19", Color::Black);
    assert_eq!(moves_of(&mut pos, "j10").len(), 60);
    let mut pos = position(
        "TC j10, TP b18, SH i10, G a1",
        "P j11, P k12, G s19",
        Color::Black,
    );
    let all = moves_of(&mut pos, "j10");
    assert_eq!(all.len(), 97);
    assert_eq!(by_kills(&mut pos, "j10")[..3], [40, 44, 13]);
    let want = expected(
        &pos,
        &[
            "j11 x{j11}",
            "j11 x{j11,k12}",
            "j12 x{k12}",
            "j12 x{j11,k12}",
            "k11",
            "k11 x{j11,k12}",
            "l12",
        ],
    );
    assert!(want.is_subset(&all), "{:?}", want.difference(&all));
    for not in ["j10", "i10", "k12"] {
        assert!(!all.contains(not), "{not}");
    }
}

/// E8: the flag waver captures every enemy on its line.
#[test]
fn e8_flag_waver() {
    let mut pos = position(
        "FW j10, SH i10, TP r1, G a1",
        "P j12, P j14, G m10",
        Color::Black,
    );
    assert_moves(
        &mut pos,
        "j10",
        &[
            "j5",
            "j6",
            "j7",
            "j8",
            "j9",
            "j11",
            "j12 x{j12}",
            "j13 x{j12}",
            "j14 x{j12,j14}",
            "j15 x{j12,j14}",
            "k10",
            "l10",
            "m10 x{m10}",
            "n10 x{m10}",
            "o10 x{m10}",
        ],
    );
}

/// E9: the skyward net immobilizes the nearest piece on each ranging ray.
#[test]
fn e9_skyward_net() {
    let mut pos = position(
        "SK j10, SH h10, G a1",
        "CM m10, P g13, P l12, P m13, EL e10, CM j12, DR a19, G s19",
        Color::White,
    );
    for frozen in ["m10", "g13", "l12"] {
        assert!(moves_of(&mut pos, frozen).is_empty(), "{frozen}");
    }
    assert_moves(&mut pos, "m13", &["l13", "m12", "m14", "n13"]);
    assert_eq!(moves_of(&mut pos, "e10").len(), 26);
    assert_eq!(moves_of(&mut pos, "j12").len(), 8);
}

/// E10: the arrival burn (both colours) and the passive burn.
#[test]
fn e10_burning() {
    let mut pos = position("PF e10, SH f11, G a1", "P d12, PF f12, G h12", Color::Black);
    assert_moves(&mut pos, "e10", &["d11", "e9", "e11"]);
    play(&mut pos, "e10e11");
    for gone in ["d12", "f11", "f12"] {
        assert_eq!(id_at(&pos, gone), ".", "{gone}");
    }
    assert_eq!(id_at(&pos, "e11"), "PF");
    assert_eq!(id_at(&pos, "h12"), "g");
    assert_eq!(pos.outcome(), None);

    let mut pos = position("PF e10, G a1", "SW c10, G s19", Color::White);
    let mut burned = pos.clone();
    play(&mut burned, "c10d11");
    assert_eq!(id_at(&burned, "d11"), ".");
    assert_eq!(id_at(&burned, "c10"), ".");
    play(&mut pos, "c10c11");
    assert_eq!(id_at(&pos, "c11"), "sw");
}

/// E11: the clerk chain.
#[test]
fn e11_clerk_chain() {
    let black = "CL j12, AG a1, RG s2, SK c3, G j1";
    let white = "PF c17, PF p9, AG a19, G j19";
    let mut pos = position(black, white, Color::Black);
    assert_moves(
        &mut pos,
        "j12",
        &["h12", "i11", "i13", "j10", "j14", "k11", "k13", "l12"],
    );
    let before = pos.clone();
    play(&mut pos, "j12j14+");
    assert_eq!(id_at(&pos, "j14"), "MA");
    assert_eq!(id_at(&pos, "a1"), "SK");
    assert_eq!(id_at(&pos, "s2"), "EW");
    assert_eq!(id_at(&pos, "c17"), ".");
    assert_eq!(id_at(&pos, "p9"), ".");
    assert_eq!(id_at(&pos, "c3"), "SK");
    assert_eq!(id_at(&pos, "a19"), "ag");
    pos.unmake_move();
    assert!(pos == before && pos.hash() == before.hash());
    play(&mut pos, "j12j14=");
    assert_eq!(id_at(&pos, "j14"), "CL");
    for (s, id) in [("a1", "AG"), ("s2", "RG"), ("c17", "pf"), ("p9", "pf")] {
        assert_eq!(id_at(&pos, s), id);
    }
}

/// E12: a fog on a line with a light within 5 reverts to a Taoist priest.
#[test]
fn e12_fog_and_light() {
    for (light, stays_fog) in [("f19", true), ("h19", false), ("d19", false)] {
        let mut pos = position("TP d13, G a1", &format!("IL {light}, G s19"), Color::Black);
        play(&mut pos, "d13d15+");
        let want = if stays_fog { "FG" } else { "TP" };
        assert_eq!(id_at(&pos, "d15"), want, "light on {light}");
        assert_eq!(pos.hash(), pos.compute_hash());
    }
}

/// E13: the five-li fog's one or two priest moves.
#[test]
fn e13_five_li_fog() {
    let mut pos = position("FG j11, SH h13, G a1", "P k14, SM l13, G g10", Color::Black);
    let all = moves_of(&mut pos, "j11");
    assert_eq!(all.len(), 54);
    assert_eq!(by_kills(&mut pos, "j11")[..3], [21, 27, 6]);
    let squares: BTreeSet<&str> = all.iter().map(|m| m.split(' ').next().unwrap()).collect();
    assert_eq!(squares.len(), 23);
    let want = expected(
        &pos,
        &[
            "h9 x{g10}",
            "j13 x{k14}",
            "l13 x{l13}",
            "j11 x{l13}",
            "j11 x{k14}",
            "h11 x{g10,k14}",
            "l15 x{k14,l13}",
            "h15 x{k14}",
        ],
    );
    assert!(want.is_subset(&all), "{:?}", want.difference(&all));
    assert!(!all.iter().any(|m| m.starts_with("h13")));
    // The text form of section 4.4, with the shot fired from a square the fog left.
    let m = pos.parse_move("j11h11*g10,h11j13*k14").unwrap();
    assert_eq!(m.to(), square(&pos, "j13"));
    let text = pos.move_text(&m);
    assert_eq!(pos.parse_move(&text).unwrap(), m, "{text}");
}

/// E14: the pawn steps forward only while its drum lives.
#[test]
fn e14_pawn_and_drum() {
    let mut pos = position("P j10, DR a2, G a1", "P j11, G s19", Color::Black);
    assert_moves(&mut pos, "j10", &["i10", "j9", "j11 x{j11}", "k10"]);
    assert!(
        moves_from(&mut pos, "j10").contains("j10j11"),
        "no promotion"
    );
    let mut pos = position("P j10, G a1", "P j11, G s19", Color::Black);
    assert_moves(&mut pos, "j10", &["i10", "j9", "k10"]);
    // The promoted drum counts as the drum (§3.4.8).
    let mut pos = position("P j10, TC a2, TP r1, G a1", "P j11, G s19", Color::Black);
    assert_moves(&mut pos, "j10", &["i10", "j9", "j11 x{j11}", "k10"]);
}

/// E15: capture promotion.
#[test]
fn e15_capture_promotion() {
    let mut pos = position("P j10, DR a2, G a1", "SW j11, G s19", Color::Black);
    let t = moves_from(&mut pos, "j10");
    assert!(t.contains("j10j11+") && !t.contains("j10j11") && !t.contains("j10j11="));
    play(&mut pos, "j10j11+");
    assert_eq!(id_at(&pos, "j11"), "PPU");
    let mut pos = position("CH j10, G a1", "SW j11, G s19", Color::Black);
    assert!(moves_from(&mut pos, "j10").contains("j10j11"));
    assert!(!moves_from(&mut pos, "j10").contains("j10j11+"));
    let mut pos = position("DR j10, TP r1, G a1", "G k11, MT s19, BN r19", Color::Black);
    assert!(moves_from(&mut pos, "j10").contains("j10k11+"));
    let mut pos = position("DR j10, G a1", "G k11, MT s19, BN r19", Color::Black);
    let t = moves_from(&mut pos, "j10");
    assert!(t.contains("j10k11") && !t.contains("j10k11+"));
}

// ---------------------------------------------------------------------------------------
// One test per special rule.

/// Where a shooter lands after its non-capturing move, for the tests below.
fn landing(id: &str) -> &'static str {
    match id {
        "LB" | "XB" | "CN" | "FC" => "k11",
        "LC" | "XC" => "k12",
        _ => "j11",
    }
}

/// The squares one shot from `at` may hit, for the shooter on `from`.
fn single_shots(pos: &mut Position, from: &str, at: &str) -> BTreeSet<String> {
    let (f, a) = (square(pos, from), square(pos, at));
    let g = pos.variant().geometry.clone();
    pos.legal_moves()
        .iter()
        .filter(|m| m.from() == f && m.to() == a && m.kills().len() == 1 && m.is_shot(0))
        .map(|m| g.name(m.kills()[0]))
        .collect()
}

/// Each shooter reaches exactly its range (§5.2).
#[test]
fn shooter_ranges() {
    for (id, range) in [
        ("LB", 3),
        ("XB", 5),
        ("CN", 5),
        ("FC", 7),
        ("LC", 3),
        ("XC", 5),
        ("GC", 5),
        ("CG", 7),
    ] {
        let at = landing(id);
        let v = variant("ko-shogi");
        let g = &v.geometry;
        let a = g.parse(at).unwrap();
        let (f, r) = (g.file_of(a), g.rank_of(a));
        let near = g.name(g.square(f + range, r).unwrap());
        let far = g.name(g.square(f - range - 1, r).unwrap());
        let mut pos = position(
            &format!("{id} j10, G a1"),
            &format!("P {near}, P {far}, G s19"),
            Color::Black,
        );
        assert_eq!(
            single_shots(&mut pos, "j10", at),
            BTreeSet::from([near.clone()]),
            "{id}: range {range}"
        );
    }
}

/// Clear-line shooters see the nearest piece of a line only; cannons shoot over pieces.
#[test]
fn clear_line_and_over_pieces() {
    for (id, over) in [("LB", false), ("XB", false), ("FC", false), ("CN", true)] {
        let mut pos = position(
            &format!("{id} j10, SH l11, G a1"),
            "P m11, G s19",
            Color::Black,
        );
        let hits = single_shots(&mut pos, "j10", "k11");
        assert_eq!(hits.contains("m11"), over, "{id}");
    }
    for (id, over) in [("GC", true), ("CG", false), ("LC", false), ("XC", false)] {
        let at = landing(id);
        let v = variant("ko-shogi");
        let g = &v.geometry;
        let a = g.parse(at).unwrap();
        let right = |k: u8| g.name(g.square(g.file_of(a) + k, g.rank_of(a)).unwrap());
        let mut pos = position(
            &format!("{id} j10, SH {}, G a1", right(1)),
            &format!("P {}, G s19", right(2)),
            Color::Black,
        );
        let hits = single_shots(&mut pos, "j10", at);
        assert_eq!(hits.contains(&right(2)), over, "{id}");
    }
}

/// §4.3: the chariots, the gun carriage and the chariot of the gods cannot capture a
/// heavenly fortress, which blocks them; everything else can.
#[test]
fn chariots_cannot_capture_the_heavenly_fortress() {
    for (id, can) in [
        ("CH", false),
        ("CU", false),
        ("PCU", false),
        ("GC", false),
        ("CG", false),
        ("QM", true),
        ("PMI", true),
    ] {
        let mut pos = position(&format!("{id} j10, G a1"), "HF j12, G s19", Color::Black);
        let moves = moves_of(&mut pos, "j10");
        assert_eq!(moves.contains("j12 x{j12}"), can, "{id}");
        assert!(moves.contains("j11") && !moves.contains("j13"), "{id}");
    }
}

/// The immunity lists of §5.3; an immune enemy also stops a clear line.
#[test]
fn shot_immunities() {
    let bows_cannot = ["SH", "SU", "PSU", "CH", "CU", "PCU", "GC", "CG", "HF"];
    let guns_cannot = ["SU", "PSU", "HF"];
    for target in bows_cannot.iter().chain(["P", "G", "FC", "EL"].iter()) {
        for (shooter, immune) in [("LB", &bows_cannot[..]), ("CN", &guns_cannot[..])] {
            let mut pos = position(
                &format!("{shooter} j10, G a1"),
                &format!("{target} l11, G s19"),
                Color::Black,
            );
            let hit = single_shots(&mut pos, "j10", "k11").contains("l11");
            assert_eq!(hit, !immune.contains(target), "{shooter} at {target}");
        }
    }
    let mut pos = position("LB j10, G a1", "SH l11, P m11, G s19", Color::Black);
    assert!(single_shots(&mut pos, "j10", "k11").is_empty());
}

/// No shot without moving first, nor after a capture by displacement (§3.4.6).
#[test]
fn shots_only_after_a_non_capturing_move() {
    let mut pos = position("LB j10, G a1", "P k11, P l12, P j12, G s19", Color::Black);
    let f = square(&pos, "j10");
    for m in pos.legal_moves().iter().filter(|m| m.from() == f) {
        if m.shot_mask() != 0 {
            assert!(
                pos.piece_at(m.to()).is_empty() && m.to() != f,
                "{}",
                pos.move_text(m)
            );
        }
    }
    assert_moves(
        &mut pos,
        "j10",
        &[
            "i9",
            "i9 x{k11}",
            "i11",
            "i11 x{k11}",
            "i11 x{j12}",
            "k9",
            "k9 x{k11}",
            "k11 x{k11}",
        ],
    );
}

/// The fog aura: no shot from within box distance 5 of an enemy fog, which a fog can thus
/// escape except from Frankish cannons and chariots of the gods 6 or 7 away.
#[test]
fn fog_aura() {
    // From k11 the fog on p16 is 5 away (diagonal): no shot at all, even at the pawn.
    let mut pos = position("LB j10, G a1", "FG p16, P l11, G s19", Color::Black);
    assert!(single_shots(&mut pos, "j10", "k11").is_empty());
    // A Taoist priest there instead: no aura.
    let mut pos = position("LB j10, G a1", "TP p16, P l11, G s19", Color::Black);
    assert!(single_shots(&mut pos, "j10", "k11").contains("l11"));
    // The fog's own side is not hindered by it.
    let mut pos = position("LB j10, FG p16, G a1", "P l11, G s19", Color::Black);
    assert!(single_shots(&mut pos, "j10", "k11").contains("l11"));
    // The priests' shots know no aura.
    let mut pos = position("TP j10, G a1", "FG l14, P k13, G s19", Color::Black);
    assert!(moves_of(&mut pos, "j10").contains("j12 x{k13}"));
}

/// Fog reversion also happens to a fog that does not move, when a light of either side comes
/// in line with it; and the reverted priest may promote again.
#[test]
fn fog_reversion_by_a_light_that_moves() {
    for (black, white, side) in [
        ("FG d13, G a1", "IL i10, G s19", Color::White),
        ("FG d13, IL i10, G a1", "G s19", Color::Black),
    ] {
        let mut pos = position(black, white, side);
        play(&mut pos, "i10i12");
        assert_eq!(id_at(&pos, "d13"), "FG", "i12 is not on a line with d13");
        pos.unmake_move();
        play(&mut pos, "i10g10");
        assert_eq!(id_at(&pos, "d13"), "TP", "a light 3 away on a diagonal");
        assert_eq!(pos.hash(), pos.compute_hash());
    }
    let mut pos = position("TP d13, G a1", "G s19", Color::Black);
    assert!(moves_from(&mut pos, "d13").contains("d13d15+"));
}

/// The passive burn: the mover dies next to an enemy flame; its kills stand, and it gets no
/// promotion.
#[test]
fn passive_burn_keeps_kills_and_takes_promotion() {
    let mut pos = position("PF e10, G d11", "SW c10, G s19", Color::White);
    play(&mut pos, "c10d11");
    assert_eq!(id_at(&pos, "d11"), ".");
    assert_eq!(pos.outcome().and_then(|o| o.winner()), Some(Color::White));
    // A pawn stepping into its zone next to an enemy flame has no promotion choice.
    let mut pos = position("P j13, DR a2, G a1", "PF k15, G s19", Color::Black);
    let t = moves_from(&mut pos, "j13");
    assert!(t.contains("j13j14") && !t.contains("j13j14+"), "{t:?}");
    // Its own side's flame does not burn it.
    let mut pos = position("P j13, DR a2, PF k15, G a1", "G s19", Color::Black);
    assert!(moves_from(&mut pos, "j13").contains("j13j14+"));
}

/// Nets: an immobilized piece makes no move of any kind; pieces behind the nearest are free;
/// the earthward net ranges backward; the state follows the board.
#[test]
fn nets_freeze() {
    // Black's EW on j10: rays left, right, back-left, back-right.
    let mut pos = position("EW j10, G a1", "SW h8, SW l10, SW j8, G s19", Color::White);
    assert!(moves_of(&mut pos, "h8").is_empty(), "back-left diagonal");
    assert!(moves_of(&mut pos, "l10").is_empty(), "right");
    assert!(
        !moves_of(&mut pos, "j8").is_empty(),
        "straight back is no ray"
    );
    // A frozen sumo wrestler has not even its skip.
    assert!(!moves_from(&mut pos, "h8").contains("h8h8"));
    // White's SK on j10 ranges toward lower ranks.
    let mut pos = position("SW h8, SW h12, G a1", "SK j10, G s19", Color::Black);
    assert!(moves_of(&mut pos, "h8").is_empty());
    assert!(!moves_of(&mut pos, "h12").is_empty());
    // Only the nearest piece of a ray is held, whatever its side; once it leaves, the one
    // behind is.
    let mut pos = position("SW l8, G b19", "SK j10, P k9, G s19", Color::Black);
    assert!(!moves_of(&mut pos, "l8").is_empty());
    play(&mut pos, "b19b18");
    play(&mut pos, "k9j9");
    assert!(
        moves_of(&mut pos, "l8").is_empty(),
        "now the nearest on the ray"
    );
}

/// §8.3: each promotion trigger, and what does not trigger.
#[test]
fn promotion_triggers() {
    let forced = |black: &str, white: &str, from: &str, text: &str| {
        let mut pos = position(black, white, Color::Black);
        let t = moves_from(&mut pos, from);
        let plain = text.trim_end_matches('+');
        assert!(
            t.contains(text) && !t.contains(plain) && !t.contains(&format!("{plain}=")),
            "{black} / {white}: {t:?}"
        );
    };
    let none = |black: &str, white: &str, from: &str, text: &str| {
        let mut pos = position(black, white, Color::Black);
        let t = moves_from(&mut pos, from);
        assert!(t.contains(text), "{black} / {white}: {t:?}");
    };
    // Rule 1: any promotable piece killing a G, GV, MT, BN or DR.
    for victim in ["GV", "MT", "BN", "DR"] {
        forced(
            "CH j10, G a1",
            &format!("{victim} j11, G s19"),
            "j10",
            "j10j11+",
        );
    }
    forced("CH j10, G a1", "G j11, MT s19, BN r19", "j10", "j10j11+");
    // Rule 2: step movers killing SW, DA, FW, TC; a chariot is no step mover.
    for victim in ["SW", "DA", "FW", "TC"] {
        forced(
            "SH j10, G a1",
            &format!("{victim} k11, G s19"),
            "j10",
            "j10k11+",
        );
        none(
            "CH j10, G a1",
            &format!("{victim} j11, G s19"),
            "j10",
            "j10j11",
        );
    }
    // Rule 3: a cavalryman killing a Frankish cannon, not a longbow.
    forced("CM j10, G a1", "FC k12, G s19", "j10", "j10k12+");
    none("CM j10, G a1", "LB k12, G s19", "j10", "j10k12");
    // A shot counts as a kill.
    forced("LB j10, G a1", "MT m11, G s19", "j10", "j10k11*m11+");
    // Never-promoting pieces and promoted ones stay as they are.
    none("EL j10, G a1", "MT k11, G s19", "j10", "j10k11");
    none("PSU j10, G a1", "MT k11, G s19", "j10", "j10k11");
    // Zone promotion: optional, for a move into, within or out of the zone.
    let mut pos = position("SH j13, SH j15, G a1", "G s19", Color::Black);
    let t = moves_from(&mut pos, "j13");
    assert!(t.contains("j13k14+") && t.contains("j13k14=") && t.contains("j13i12"));
    let t = moves_from(&mut pos, "j15");
    assert!(t.contains("j15k14+") && t.contains("j15k14=") && t.contains("j15i16="));
    let mut pos = position("SH n14, G a1", "G s19", Color::Black);
    let t = moves_from(&mut pos, "n14");
    assert!(
        t.contains("n14m13+") && t.contains("n14m13="),
        "out of the zone: {t:?}"
    );
    // White's zone is ranks 1 to 6.
    let mut pos = position("G a1", "SH j7, G s19", Color::White);
    let t = moves_from(&mut pos, "j7");
    assert!(t.contains("j7i6+") && t.contains("j7i8"));
}

/// §8.4: the clerk chain also follows a capture promotion, and touches only the unpromoted
/// guards.
#[test]
fn clerk_chain_by_capture() {
    let mut pos = position(
        "CL j10, AG a1, SK b1, RG s2, G j1",
        "MT k11, PF c17, G j19",
        Color::Black,
    );
    assert!(moves_from(&mut pos, "j10").contains("j10k11+"));
    play(&mut pos, "j10k11+");
    assert_eq!(id_at(&pos, "k11"), "MA");
    assert_eq!(id_at(&pos, "a1"), "SK");
    assert_eq!(id_at(&pos, "b1"), "SK");
    assert_eq!(id_at(&pos, "s2"), "EW");
    assert_eq!(id_at(&pos, "c17"), ".");
}

/// §8.5: drum and banner promote only while their side's TP or FG lives, and turn back when it
/// dies; the spiritual monk and the light do not count.
#[test]
fn priest_dependency_of_drum_and_banner() {
    for (priest, lives) in [
        ("TP r1", true),
        ("FG r1", true),
        ("SM r1", false),
        ("IL r1", false),
    ] {
        let mut pos = position(
            &format!("DR j13, BN l13, {priest}, G a1"),
            "G s19",
            Color::Black,
        );
        let dr = moves_from(&mut pos, "j13");
        let bn = moves_from(&mut pos, "l13");
        assert_eq!(dr.contains("j13k14+"), lives, "{priest}: {dr:?}");
        assert_eq!(bn.contains("l13m14+"), lives, "{priest}: {bn:?}");
        assert!(dr.contains("j13k14") || dr.contains("j13k14="));
    }
    // Reversion when the priest is captured.
    let mut pos = position("TC j10, FW l10, TP r5, G a1", "SW r6, G s19", Color::White);
    play(&mut pos, "r6r5");
    assert_eq!(id_at(&pos, "j10"), "DR");
    assert_eq!(id_at(&pos, "l10"), "BN");
    assert_eq!(pos.hash(), pos.compute_hash());
    pos.unmake_move();
    assert_eq!(id_at(&pos, "j10"), "TC");
    assert_eq!(id_at(&pos, "l10"), "FW");
    assert_eq!(id_at(&pos, "r5"), "TP");
    // With a fog alive instead the thunderclap stays.
    let mut pos = position("TC j10, TP r5, FG b5, G a1", "SW r6, G s19", Color::White);
    play(&mut pos, "r6r5");
    assert_eq!(id_at(&pos, "j10"), "TC");
}

/// The material estimate reads a move's gain from the move alone only where the make stays
/// on the squares the move names. In a position for each effect that goes past them (the
/// arrival and the passive burn, the clerk chain, a promotion into a fog in line with a
/// light, the priest-death reversion, and the fog-light reversion by a light or a fog that
/// moves), the move that sets it off is played rather than read, and every legal move whose
/// gain is read gains what its make changes.
#[test]
fn material_gains_read_from_moves_are_what_the_make_changes() {
    let values = koma_rules::PieceValues::new(&variant("ko-shogi"));
    let cases = [
        (
            "PF e10, SH f11, G a1",
            "P d12, PF f12, G h12",
            Color::Black,
            "e10e11",
        ),
        (
            "PF e10, G d11, DR a2",
            "SW c10, G s19",
            Color::White,
            "c10d11",
        ),
        (
            "CL j10, AG a1, SK b1, RG s2, G j1",
            "MT k11, PF c17, G j19",
            Color::Black,
            "j10k11+",
        ),
        ("TP d13, G a1", "IL h19, G s19", Color::Black, "d13d15+"),
        (
            "TC j10, FW l10, TP r5, G a1",
            "SW r6, G s19",
            Color::White,
            "r6r5",
        ),
        ("FG d13, G a1", "IL i10, G s19", Color::White, "i10g10"),
        ("FG d13, G a1", "IL i10, G s19", Color::Black, "d13f13"),
    ];
    for (black, white, side, effect) in cases {
        let mut pos = position(black, white, side);
        let set_off = pos.parse_move(effect).unwrap();
        assert_eq!(values.capture_gain(&pos, &set_off), None, "{effect}");
        let before = values.difference(&pos, side);
        let mut read = 0;
        for m in pos.legal_moves() {
            let Some(gain) = values.capture_gain(&pos, &m) else {
                continue;
            };
            pos.make_move(m);
            assert_eq!(
                before + gain,
                values.difference(&pos, side),
                "{m:?} ({effect})"
            );
            pos.unmake_move();
            read += 1;
        }
        assert!(read > 0, "{effect}");
    }
}

/// §10: every way to win or lose.
#[test]
fn winning_and_losing() {
    let win = |pos: &Position, who: Color| {
        let mut p = pos.clone();
        assert_eq!(
            p.outcome().and_then(|o| o.winner()),
            Some(who),
            "{}",
            p.to_text()
        );
    };
    // The general alone commands: taking it wins.
    let mut pos = position("CU j1, G a1", "G j19, P s19", Color::Black);
    play(&mut pos, "j1j19");
    win(&pos, Color::Black);
    // Middle troop and banner command without the general: the game goes on ...
    let start = position("CU j1, G a1", "G j19, MT r19, BN b19", Color::Black);
    let mut pos = start.clone();
    play(&mut pos, "j1j19");
    assert_eq!(pos.outcome(), None);
    // ... until one of them is taken.
    let mut troop = position("CU r1, G a1", "MT r19, BN b19", Color::Black);
    play(&mut troop, "r1r19");
    win(&troop, Color::Black);
    let mut banner = position("CU b1, G a1", "MT r19, BN b19", Color::Black);
    play(&mut banner, "b1b19");
    win(&banner, Color::Black);
    // A flag waver is a banner.
    let mut pos = position("CU b1, G a1", "MT r19, FW b19, TP d19", Color::Black);
    play(&mut pos, "b1b19=");
    win(&pos, Color::Black);
    let mut pos = position("CU j1, G a1", "G j19, MT r19, FW b19, TP d19", Color::Black);
    play(&mut pos, "j1j19");
    assert_eq!(pos.outcome(), None);
    // A governor commands alone.
    let mut pos = position("CU j1, G a1", "G j19, GV r19", Color::Black);
    play(&mut pos, "j1j19");
    assert_eq!(pos.outcome(), None);
    // The mover's own flame burns its general: it loses ...
    let mut pos = position("PF e10, G d12", "G s19", Color::Black);
    play(&mut pos, "e10e11");
    win(&pos, Color::White);
    // ... unless the opponent's last commander burns too: then the mover wins.
    let mut pos = position("PF e10, G d12", "G f12", Color::Black);
    play(&mut pos, "e10e11");
    win(&pos, Color::Black);
    // No legal move loses: the lone general is held by a net.
    let pos = position("G h8", "SK j10, G s19", Color::Black);
    assert!(pos.clone().legal_moves().is_empty());
    win(&pos, Color::White);
}

/// Repetition: the fourth occurrence is a draw, unless one side checked the other's sole
/// objective piece with every move, who then loses.
#[test]
fn repetition_and_perpetual_check() {
    let mut pos = position("G a1", "G s19", Color::Black);
    for _ in 0..3 {
        assert_eq!(pos.outcome(), None);
        play(&mut pos, "a1a2");
        play(&mut pos, "s19s18");
        play(&mut pos, "a2a1");
        play(&mut pos, "s18s19");
    }
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Draw(koma_rules::DrawReason::Repetition))
    );
    let mut pos = position("CU a18, G a1", "G s19", Color::Black);
    assert!(!pos.in_check(Color::White));
    for _ in 0..3 {
        play(&mut pos, "a18a19=");
        assert!(pos.in_check(Color::White));
        play(&mut pos, "s19s18");
        play(&mut pos, "a19a18=");
        play(&mut pos, "s18s19");
    }
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::PerpetualCheck
        })
    );
    // Not a sole objective piece: a general backed by middle troop and banner is never in check.
    let pos = position("CU a19, G a1", "G s19, MT r17, BN q17", Color::White);
    assert!(!pos.in_check(Color::White));
    // A burn is a way to remove it: a flame that can step next to it gives check.
    let pos = position("PF r17, G a1", "G s19", Color::White);
    assert!(pos.in_check(Color::White));
}

/// Make and unmake restore every square, the hash and the outcome bookkeeping, through burns,
/// chains and reversions.
#[test]
fn unmake_restores_everything() {
    let mut pos = position(
        "PF e10, CL j12, AG a1, RG s2, TC c5, G j1",
        "P d12, PF f12, G h12, PF c17, TP p19",
        Color::Black,
    );
    let before = pos.clone();
    for m in pos.legal_moves() {
        pos.make_move(m);
        assert_eq!(pos.hash(), pos.compute_hash(), "{}", before.move_text(&m));
        pos.unmake_move();
        assert!(pos == before, "{}", before.move_text(&m));
        assert_eq!(pos.hash(), before.hash());
    }
    assert_eq!(pos.legal_moves().len(), before.clone().legal_moves().len());
}

fn count_at(pos: &Position, by: Color, name: &str) -> u8 {
    let g = &pos.variant().geometry;
    attack_counts(pos, by)[g.board_index(square(pos, name)).unwrap()]
}

/// The attack counts the network reads see what Ko Shogi's special moves threaten: a shot, the
/// second capture of a double move, an arrival burn; and the burn zone and held pieces are
/// reported. Without the special moves each count below would be 0.
#[test]
fn attack_counts_see_shots_double_captures_and_burns() {
    // The cannon shoots m11 from k11 (over nothing): only a shot reaches it.
    let pos = position("CN j10, G a1", "P m11, G s19", Color::Black);
    assert_eq!(count_at(&pos, Color::Black, "m11"), 1);
    // A sumo wrestler's second king step captures two squares away.
    let pos = position("SW j10, G a1", "P j12, G s19", Color::Black);
    assert_eq!(count_at(&pos, Color::Black, "j12"), 1);
    // A poison flame moving to e11 burns d12, which none of its steps reach.
    let pos = position("PF e10, G a1", "P d12, G s19", Color::Black);
    assert_eq!(count_at(&pos, Color::Black, "d12"), 1);
    assert_eq!(pos.burn_zone(Color::Black).len(), 8);
    assert!(pos.burn_zone(Color::Black).contains(&square(&pos, "d11")));
    assert!(pos.burn_zone(Color::White).is_empty());
    // The net on j10 holds l10.
    let pos = position("EW j10, G a1", "SW l10, G s19", Color::White);
    assert_eq!(pos.immobilized(Color::White), vec![square(&pos, "l10")]);
    assert!(pos.immobilized(Color::Black).is_empty());
}

/// Along random games, every enemy piece that a legal move could remove (kill, shot,
/// capture on the destination, arrival burn) is counted as attacked by at least as many
/// pieces as have such a move.
#[test]
fn attack_counts_cover_every_removal_along_random_games() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let v = variant("ko-shogi");
    let g = &v.geometry;
    let pf = v.kind_by_id("PF").unwrap();
    let mut checked = 0;
    for seed in 0..4 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut pos = Position::start(&v);
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let us = pos.side_to_move();
            let counts = attack_counts(&pos, us);
            let mut by_square: std::collections::HashMap<koma_rules::Square, BTreeSet<_>> =
                Default::default();
            for m in &moves {
                let mut gone = removed(&pos, m);
                if pos.piece_at(m.from()).kind() == pf {
                    for &s in g.squares() {
                        let near = (g.file_of(s) as i32 - g.file_of(m.to()) as i32).abs() <= 1
                            && (g.rank_of(s) as i32 - g.rank_of(m.to()) as i32).abs() <= 1;
                        if near && s != m.to() {
                            gone.push(s);
                        }
                    }
                }
                for s in gone {
                    if pos.piece_at(s).is_color(us.opposite()) {
                        by_square.entry(s).or_default().insert(m.from());
                    }
                }
            }
            for (s, froms) in by_square {
                let c = counts[g.board_index(s).unwrap()] as usize;
                assert!(
                    c >= froms.len(),
                    "{}: {} pieces can remove it, counted {c} in {}",
                    g.name(s),
                    froms.len(),
                    pos.to_text()
                );
                checked += 1;
            }
            pos.make_move(moves[rng.gen_range(0..moves.len())]);
        }
    }
    assert!(checked > 500, "only {checked} attacked squares checked");
}

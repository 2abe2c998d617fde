//! One test per special rule of Chu Shogi (configs/variants/chu-shogi.toml): promotion on
//! entering the zone, the Lion's moves, the Lion trading rules, the Crown Prince. Each fails if
//! its rule is removed from the rules core or from the variant's file.
//!
//! Positions are written piece by piece (`("f3", "(LN)")`: a first-player Lion on f3; lowercase
//! for the second player); the first player moves up the board from rank 1.

mod common;

use common::{moves_from, piece_on, play, set_of, token, variant, Grid};
use koma_rules::{Outcome, Position, Variant, WinReason};
use std::sync::Arc;

const CHU: &str = "chu-shogi";

fn position(v: &Arc<Variant>, pieces: &[(&str, &str)], side: char, tail: &str) -> Position {
    let mut grid = Grid::for_variant(v);
    for &(sq, id) in pieces {
        // Lowercase IDs are the second player's.
        let white = id.chars().any(|c| c.is_ascii_lowercase());
        grid.put(sq, token(&id.to_ascii_uppercase(), white));
    }
    let t = grid.text(side, &format!("- {tail}"));
    Position::from_text(v, &t).unwrap_or_else(|e| panic!("{t}: {e}"))
}

fn has(pos: &mut Position, text: &str) -> bool {
    pos.legal_moves().iter().any(|m| pos.move_text(m) == text)
}

#[test]
fn the_start_position_has_46_pieces_a_side_and_the_published_moves() {
    let v = variant(CHU);
    let mut pos = Position::start(&v);
    assert_eq!(v.setup.len(), 92);
    assert_eq!(piece_on(&pos, "f1").unwrap().0, "K");
    assert_eq!(piece_on(&pos, "f3").unwrap().0, "LN");
    assert_eq!(piece_on(&pos, "g12").unwrap().0, "K");
    assert_eq!(piece_on(&pos, "g12").unwrap().1, koma_rules::Color::White);
    // The Lion on f3 behind its pawns: two-square leaps to rank 5 (d5 holds a Go-between) and
    // to d2 (h2 holds a Blind Tiger), and a pass needs an empty square next to it: none.
    assert_eq!(
        moves_from(&mut pos, "f3"),
        set_of(&["f3d2", "f3e5", "f3f5", "f3g5", "f3h5"])
    );
    // The Kirin on f2 leaps to d2 only; the Phoenix on g2 is shut in.
    assert_eq!(moves_from(&mut pos, "f2"), set_of(&["f2d2"]));
    assert!(moves_from(&mut pos, "g2").is_empty());
}

#[test]
fn a_non_capture_promotes_only_on_entering_the_zone() {
    let v = variant(CHU);
    // A Silver entering the zone (rank 9) may promote or not.
    let mut pos = position(&v, &[("a1", "K"), ("l12", "k"), ("e8", "S")], 'b', "");
    assert!(has(&mut pos, "e8e9+") && has(&mut pos, "e8e9="));
    // Inside the zone without capture: no promotion.
    let mut pos = position(&v, &[("a1", "K"), ("l12", "k"), ("e9", "S")], 'b', "");
    assert!(has(&mut pos, "e9e10"));
    assert!(!has(&mut pos, "e9e10+"));
    // Leaving the zone without capture: no promotion.
    assert!(has(&mut pos, "e9d8") && !has(&mut pos, "e9d8+"));
    // A pawn reaching the last rank without capture gets no second chance.
    let mut pos = position(&v, &[("a1", "K"), ("l12", "k"), ("e11", "P")], 'b', "");
    assert_eq!(moves_from(&mut pos, "e11"), set_of(&["e11e12"]));
}

#[test]
fn a_pawn_or_lance_promoting_onto_the_last_rank_must() {
    let v = variant(CHU);
    // A Pawn taking on the last rank, a Lance entering the zone straight onto it.
    let mut pos = position(
        &v,
        &[
            ("a1", "K"),
            ("l12", "k"),
            ("e11", "P"),
            ("e12", "g"),
            ("c7", "L"),
            ("c12", "g"),
        ],
        'b',
        "",
    );
    assert_eq!(moves_from(&mut pos, "e11"), set_of(&["e11e12+"]));
    assert!(has(&mut pos, "c7c12+") && !has(&mut pos, "c7c12="));
    // Short of the last rank the Lance may decline.
    assert!(has(&mut pos, "c7c11+") && has(&mut pos, "c7c11="));
}

#[test]
fn a_capture_promotes_in_the_zone_and_on_leaving_it() {
    let v = variant(CHU);
    let mut pos = position(
        &v,
        &[
            ("a1", "K"),
            ("l12", "k"),
            ("e9", "S"),
            ("e10", "p"),
            ("d8", "p"),
        ],
        'b',
        "",
    );
    for m in ["e9e10+", "e9e10=", "e9d8+", "e9d8="] {
        assert!(has(&mut pos, m), "{m}");
    }
    play(&mut pos, "e9e10+");
    assert_eq!(piece_on(&pos, "e10").unwrap().0, "+S");
    // Outside the zone a capture does not promote.
    let mut pos = position(
        &v,
        &[("a1", "K"), ("l12", "k"), ("e5", "S"), ("e6", "p")],
        'b',
        "",
    );
    assert_eq!(moves_from(&mut pos, "e5").len(), 5);
    assert!(!has(&mut pos, "e5e6+"));
}

#[test]
fn the_lion_takes_twice_takes_and_returns_and_passes() {
    let v = variant(CHU);
    let mut pos = position(
        &v,
        &[
            ("a1", "K"),
            ("l12", "k"),
            ("f5", "LN"),
            ("f6", "p"),
            ("f7", "g"),
        ],
        'b',
        "",
    );
    let m = moves_from(&mut pos, "f5");
    for t in [
        "f5f6,f6f7",
        "f5f6,f6f5",
        "f5f6,f6e7",
        "f5f5",
        "f5f7",
        "f5d7",
    ] {
        assert!(m.contains(t), "{t} missing from {m:?}");
    }
}

#[test]
fn a_lion_may_not_take_a_protected_lion_from_afar() {
    let v = variant(CHU);
    // The second player's Lion on f7 is protected by the pawn on f8.
    let protected = [
        ("a1", "K"),
        ("l12", "k"),
        ("f5", "LN"),
        ("f7", "ln"),
        ("f8", "p"),
    ];
    let mut pos = position(&v, &protected, 'b', "");
    assert!(!has(&mut pos, "f5f7"));
    // Unprotected it may.
    let mut pos = position(&v, &protected[..4], 'b', "");
    assert!(has(&mut pos, "f5f7"));
    // Next to it, protected or not, it may.
    let mut pos = position(
        &v,
        &[
            ("a1", "K"),
            ("l12", "k"),
            ("f6", "LN"),
            ("f7", "ln"),
            ("f8", "p"),
        ],
        'b',
        "",
    );
    assert!(has(&mut pos, "f6f7"));
    // A bridge: first taking a Gold on f6 lifts the rule; a Pawn there does not.
    let mut with = protected.to_vec();
    with.push(("f6", "g"));
    let mut pos = position(&v, &with, 'b', "");
    assert!(has(&mut pos, "f5f6,f6f7"));
    let mut with = protected.to_vec();
    with.push(("f6", "p"));
    let mut pos = position(&v, &with, 'b', "");
    assert!(!has(&mut pos, "f5f6,f6f7"));
    // A promoted Kirin is a Lion too: it may not take the protected Lion from afar either.
    let mut pos = position(
        &v,
        &[
            ("a1", "K"),
            ("l12", "k"),
            ("f5", "+KY"),
            ("f7", "ln"),
            ("f8", "p"),
        ],
        'b',
        "",
    );
    assert!(!has(&mut pos, "f5f7"));
}

#[test]
fn after_a_lion_falls_to_a_non_lion_the_reply_may_not_take_a_lion_with_a_non_lion() {
    let v = variant(CHU);
    // The first player's Rook takes the Lion on f8; the second player's Gold could take the
    // first player's Lion on c5 back, but may not; its Lion may.
    let pieces = [
        ("a1", "K"),
        ("l12", "k"),
        ("f1", "R"),
        ("f8", "ln"),
        ("c5", "LN"),
        ("c6", "g"),
        ("h6", "+ky"),
    ];
    let mut pos = position(&v, &pieces, 'b', "");
    let before = pos.hash();
    play(&mut pos, "f1f8");
    assert!(pos.lion_counterstrike_banned());
    assert!(!has(&mut pos, "c6c5"));
    // The flag is part of the position: its text and hash.
    let text = pos.to_text();
    assert!(text.ends_with("lionban=1"), "{text}");
    let again = Position::from_text(&v, &text).unwrap();
    assert_eq!(again.hash(), pos.hash());
    assert_ne!(pos.hash(), before);
    // Only for one move: after another move the Gold may take.
    play(&mut pos, "h6h7");
    assert!(!pos.lion_counterstrike_banned());
    play(&mut pos, "a1a2");
    assert!(has(&mut pos, "c6c5"));
    // Taken by a Lion, a Lion leaves no ban.
    let mut pos = position(
        &v,
        &[
            ("a1", "K"),
            ("l12", "k"),
            ("f7", "LN"),
            ("f8", "ln"),
            ("c5", "LN"),
            ("c6", "g"),
        ],
        'b',
        "",
    );
    play(&mut pos, "f7f8");
    assert!(!pos.lion_counterstrike_banned());
    assert!(has(&mut pos, "c6c5"));
}

/// Dai Shogi (15x15) shares the file format's Chu flags: 65 pieces a side, a zone of 5 ranks,
/// a Knight that must promote on the last two ranks, no Lion trading rules.
#[test]
fn dai_shogi_loads_with_its_knights_and_no_lion_trading() {
    let v = variant("dai-shogi");
    assert_eq!(v.setup.len(), 130);
    let mut pos = Position::start(&v);
    assert_eq!(piece_on(&pos, "h1").unwrap().0, "K");
    assert_eq!(piece_on(&pos, "h3").unwrap().0, "LN");
    assert!(!pos.legal_moves().is_empty());
    let mut grid = Grid::new(15, 15);
    for (sq, t) in [
        ("a1", "K"),
        ("o15", "k"),
        ("e9", "N"),
        ("g12", "N"),
        ("f14", "p"),
        ("h9", "(LN)"),
        ("h11", "(ln)"),
        ("h12", "p"),
    ] {
        grid.put(sq, t);
    }
    let mut pos = Position::from_text(&v, &grid.text('b', "-")).unwrap();
    // Entering the zone (rank 11) a Knight may decline; taking on rank 14 (the last two) it
    // must promote; inside the zone without capture it may not.
    assert!(has(&mut pos, "e9d11=") && has(&mut pos, "e9d11+"));
    assert!(has(&mut pos, "g12f14+") && !has(&mut pos, "g12f14="));
    assert!(has(&mut pos, "g12h14") && !has(&mut pos, "g12h14+"));
    // A Lion may take a protected Lion from afar: Dai has no trading rules.
    assert!(has(&mut pos, "h9h11"));
    // A Rook on the King's open file gives check.
    let mut grid = Grid::new(15, 15);
    for (sq, t) in [("h1", "K"), ("o15", "k"), ("h10", "r")] {
        grid.put(sq, t);
    }
    let pos = Position::from_text(&v, &grid.text('b', "-")).unwrap();
    assert!(pos.in_check(koma_rules::Color::Black));
}

#[test]
fn the_crown_prince_is_a_second_king() {
    let v = variant(CHU);
    // A Drunk Elephant promoting becomes a royal Crown Prince: taking the King then does not
    // end the game; taking the Prince too does.
    let mut pos = position(
        &v,
        &[
            ("a1", "K"),
            ("l12", "k"),
            ("e8", "DE"),
            ("a3", "r"),
            ("e12", "r"),
        ],
        'b',
        "",
    );
    play(&mut pos, "e8e9+");
    assert_eq!(piece_on(&pos, "e9").unwrap().0, "+DE");
    play(&mut pos, "a3a1=");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "e9f9");
    play(&mut pos, "e12f12");
    play(&mut pos, "f9f10");
    play(&mut pos, "f12f10");
    assert!(matches!(
        pos.outcome(),
        Some(Outcome::Win {
            reason: WinReason::RoyalCaptured,
            ..
        })
    ));
}

/// Plays `plies` moves from `pos`, the game going on before each (each move given as the
/// text of the ply it is played at), then checks the fourth occurrence ended the game as a
/// repetition lost by `loser`.
fn assert_repetition_lost_by(
    pos: &mut Position,
    plies: usize,
    move_at: impl Fn(usize) -> &'static str,
    loser: koma_rules::Color,
) {
    for ply in 0..plies {
        assert_eq!(pos.outcome(), None, "before ply {ply}");
        play(pos, move_at(ply));
    }
    assert_eq!(pos.repetitions(), 4);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: loser.opposite(),
            reason: WinReason::RepetitionMade
        })
    );
}

#[test]
fn a_repetition_loses_for_the_player_who_completes_it() {
    let v = variant(CHU);
    // Both Kings step back and forth: the start position comes back after every fourth ply,
    // and the fourth time it does the player whose move brought it back (the second player)
    // loses. A draw here would be the refuge the published rules do not give.
    let mut pos = position(&v, &[("a1", "K"), ("l12", "k")], 'b', "");
    let cycle = ["a1a2", "l12l11", "a2a1", "l11l12"];
    assert_repetition_lost_by(&mut pos, 12, |ply| cycle[ply % 4], koma_rules::Color::White);
}

/// Dai Shogi takes Chu's repetition rule: the fourth occurrence loses for its maker, and in a
/// cycle of Lion passes for the first to pass; there is no draw by repetition.
#[test]
fn dai_shogi_repetition_loses_for_its_maker_as_in_chu() {
    let v = variant("dai-shogi");
    let mut pos = position(&v, &[("a1", "K"), ("o15", "k")], 'b', "");
    let cycle = ["a1a2", "o15o14", "a2a1", "o14o15"];
    assert_repetition_lost_by(&mut pos, 12, |ply| cycle[ply % 4], koma_rules::Color::White);
    let mut pos = position(
        &v,
        &[("a1", "K"), ("o15", "k"), ("h5", "LN"), ("h11", "ln")],
        'b',
        "",
    );
    let passes = ["h5h5", "h11h11"];
    assert_repetition_lost_by(&mut pos, 6, |ply| passes[ply % 2], koma_rules::Color::Black);
}

/// Both Lions (the first player's on f5, the second's on f9) pass in turn for `plies` plies,
/// the game going on after each.
fn lion_passes(v: &Arc<Variant>, plies: usize) -> Position {
    let mut pos = position(
        v,
        &[("a1", "K"), ("l12", "k"), ("f5", "LN"), ("f9", "ln")],
        'b',
        "",
    );
    for ply in 0..plies {
        play(&mut pos, if ply % 2 == 0 { "f5f5" } else { "f9f9" });
        assert_eq!(pos.outcome(), None, "ply {ply}");
    }
    pos
}

#[test]
fn in_a_cycle_of_passes_the_first_to_pass_made_the_repetition() {
    let v = variant(CHU);
    // The first player's Lion passes and the second player's Lion passes back, again and
    // again: the second player's pass completes the fourth occurrence, but the first player's
    // pass made the repetition (as HaChu scores it), so the first player loses.
    let mut pos = lion_passes(&v, 5);
    play(&mut pos, "f9f9");
    assert_eq!(pos.repetitions(), 4);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: koma_rules::Color::White,
            reason: WinReason::RepetitionMade
        })
    );
}

#[test]
fn perpetual_check_still_loses_for_the_checker_where_repetition_loses() {
    let v = variant(CHU);
    // The second player's Rook checks along rank 1 and rank 2 in turn while the King steps
    // between a1 and a2. The checker's own move completes the fourth occurrence, and it loses
    // for perpetual check, which is judged before the repetition rule.
    let mut pos = position(&v, &[("a1", "K"), ("l12", "k"), ("c12", "r")], 'w', "");
    play(&mut pos, "c12c1=");
    let cycle = ["a1a2", "c1c2", "a2a1", "c2c1"];
    let outcome = cycle.iter().cycle().take(3 * cycle.len()).find_map(|m| {
        play(&mut pos, m);
        pos.outcome()
    });
    assert_eq!(
        outcome,
        Some(Outcome::Win {
            winner: koma_rules::Color::Black,
            reason: WinReason::PerpetualCheck
        })
    );
}

#[test]
fn the_mate_search_sees_a_pass_back_that_wins_by_repetition() {
    use koma_rules::mate::Budget;
    let v = variant(CHU);
    // Five passes in turn: the first player's Lion has passed three times, the second
    // player's twice. Passing back now brings the position the fourth time, which the first
    // player's pass made: the second player's search must find it as a win in one, so that a
    // search of the first player's pass sees it lost.
    let mut pos = lion_passes(&v, 5);
    let legal = pos.legal_moves();
    let win = pos.forced_win(&legal, 1, &mut Budget::new(1_000));
    assert_eq!(win.map(|m| pos.move_text(&m)), Some("f9f9".to_string()));
    // One pass earlier the count is one short: no win yet.
    let mut early = lion_passes(&v, 3);
    let legal = early.legal_moves();
    assert_eq!(early.forced_win(&legal, 1, &mut Budget::new(1_000)), None);
}

//! The mate searches against known answers: composed problems, and random sparse positions of
//! every variant checked against an exhaustive search. A claimed mate is verified move by move
//! to the end of the game (every defence tried), so a false mate fails whatever found it.

mod common;

use common::{place_random_pieces, random_side, token, variant, Grid};
use koma_rules::mate::{Budget, MateAnswer, MateSolver};
use koma_rules::{Color, Move, Position, Variant};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

/// Whether `attacker`, to move in `pos`, wins by force within `plies` plies (odd), trying
/// every move (`checks_only`: only moves that win or threaten to) and every defence.
fn exhaustive_win(pos: &mut Position, attacker: Color, plies: u32, checks_only: bool) -> bool {
    let moves = pos.legal_moves();
    for m in moves {
        if checks_only && !pos.is_attacking_move(m) {
            continue;
        }
        pos.make_move(m);
        let wins = match pos.outcome() {
            Some(o) => o.winner() == Some(attacker),
            None if plies >= 3 => {
                let replies = pos.legal_moves();
                replies.iter().all(|&r| {
                    pos.make_move(r);
                    let w = match pos.outcome() {
                        Some(o) => o.winner() == Some(attacker),
                        None => exhaustive_win(pos, attacker, plies - 2, checks_only),
                    };
                    pos.unmake_move();
                    w
                })
            }
            None => false,
        };
        pos.unmake_move();
        if wins {
            return true;
        }
    }
    false
}

/// Plays out a claimed mate: the solver's move at every attacker turn, every legal defence at
/// every defender turn, until the rules end the game in the attacker's favour on every line.
fn verify_mate(solver: &mut MateSolver, pos: &mut Position, depth: u32) -> Result<(), String> {
    let attacker = pos.side_to_move();
    if depth == 0 {
        return Err(format!("no end after the claimed mate: {}", pos.to_text()));
    }
    let m = match solver.solve(pos) {
        MateAnswer::Mate(m) => m,
        other => return Err(format!("{other:?} on the mating line at {}", pos.to_text())),
    };
    if !pos.legal_moves().contains(&m) {
        return Err(format!(
            "{} is not legal in {}",
            pos.move_text(&m),
            pos.to_text()
        ));
    }
    pos.make_move(m);
    let result = match pos.outcome() {
        Some(o) if o.winner() == Some(attacker) => Ok(()),
        Some(o) => Err(format!("{o} after {}", pos.move_text(&m))),
        None => {
            let mut r = Ok(());
            for reply in pos.legal_moves() {
                pos.make_move(reply);
                r = match pos.outcome() {
                    Some(o) if o.winner() == Some(attacker) => Ok(()),
                    Some(o) => Err(format!("{o} after the defence")),
                    None => verify_mate(solver, pos, depth - 1),
                };
                pos.unmake_move();
                if r.is_err() {
                    break;
                }
            }
            r
        }
    };
    pos.unmake_move();
    result
}

fn solver() -> MateSolver {
    MateSolver::new(200_000, 15)
}

fn position(id: &str, text: &str) -> Position {
    Position::from_text(&variant(id), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn hand_shogi_mate_in_one_by_a_drop() {
    // The shogun on h5 protects a gold dropped on h8 next to the king on i9.
    let mut pos = position("hand-shogi", "8k/9/9/9/7(SH)1/9/9/9/K8 b G");
    let mut s = solver();
    let MateAnswer::Mate(m) = s.solve(&mut pos) else {
        panic!("no mate found")
    };
    assert_eq!(pos.move_text(&m), "G@h8");
    verify_mate(&mut s, &mut pos, 3).unwrap();
    let legal = pos.legal_moves();
    let found = pos.forced_win(&legal, 1, &mut Budget::new(10_000)).unwrap();
    assert_eq!(pos.move_text(&found), "G@h8");
}

#[test]
fn no_mate_in_the_start_positions() {
    for id in [
        "hand-shogi",
        "shoko-shogi",
        "gyaku-sama-shogi",
        "hook-shogi",
        "ko-shogi",
    ] {
        let v = variant(id);
        let mut pos = Position::start(&v);
        let mut s = MateSolver::new(3_000, 9);
        let answer = s.solve(&mut pos);
        assert!(!matches!(answer, MateAnswer::Mate(_)), "{id}: {answer:?}");
        let legal = pos.legal_moves();
        assert_eq!(
            pos.forced_win(&legal, 3, &mut Budget::new(5_000)),
            None,
            "{id}"
        );
    }
}

#[test]
fn royal_capture_wins_are_found_at_once() {
    // Shoko Shogi: the black king on a1 next to the white rook's file; white to move takes it.
    let v = variant("shoko-shogi");
    let mut grid = Grid::for_variant(&v);
    grid.put("a1", token("K", false));
    grid.put("m13", token("K", true));
    grid.put("a9", token("R", true));
    let mut pos = grid.position(&v, 'w', "-");
    let legal = pos.legal_moves();
    let win = pos
        .winning_capture(&legal)
        .expect("the rook takes the king");
    assert_eq!(
        pos.move_text(&win),
        "a9a1+",
        "the rook promotes by capturing"
    );
    let mut s = solver();
    assert_eq!(s.solve(&mut pos), MateAnswer::Mate(win));
}

/// A sparse random position of `v`: each side's royal pieces (Ko Shogi: a general), `n`
/// random pieces, a few pieces in hand where the variant drops; `None` when it is already
/// decided or illegal (the side not to move in check under king safety).
fn sparse_position(v: &Arc<Variant>, rng: &mut StdRng, n: usize) -> Option<Position> {
    let mut grid = Grid::for_variant(v);
    let royals: Vec<&str> = v
        .pieces
        .iter()
        .filter(|p| p.royal)
        .map(|p| p.id.as_str())
        .collect();
    for white in [false, true] {
        let id = royals.first().copied().unwrap_or("G");
        grid.place_randomly(rng, token(id, white));
    }
    place_random_pieces(&mut grid, v, rng, n, &[], 0.0);
    let side = random_side(rng);
    let hand = if v.rules.drops {
        let kinds: Vec<&str> = v
            .pieces
            .iter()
            .filter(|p| !p.royal && p.demotes_to.is_none())
            .map(|p| p.id.as_str())
            .collect();
        let attacker_white = side == 'w';
        (0..2)
            .map(|_| token(kinds.choose(rng).unwrap(), attacker_white))
            .collect::<String>()
    } else {
        "-".into()
    };
    let text = grid.text(side, &hand);
    let mut pos = Position::from_text(v, &text).ok()?;
    let mover = pos.side_to_move();
    if pos.outcome().is_some() || pos.in_check(mover.opposite()) && royals.len() == 1 {
        return None;
    }
    Some(pos)
}

/// In random sparse positions of every variant: every mate the exhaustive search finds in one
/// ply (any move), or in three plies of checks, the solver finds too, and every mate the solver
/// claims is a real one.
#[test]
fn random_positions_agree_with_exhaustive_search() {
    for (id, positions, pieces) in [
        ("hand-shogi", 150, 5),
        ("shoko-shogi", 80, 6),
        ("gyaku-sama-shogi", 80, 6),
        ("hook-shogi", 40, 6),
        ("ko-shogi", 30, 6),
        ("chu-shogi", 40, 6),
        ("tenjiku-shogi", 30, 6),
    ] {
        let v = variant(id);
        let mut rng = StdRng::seed_from_u64(0x6d617465);
        let (mut tried, mut mates, mut threes) = (0, 0, 0);
        let mut s = MateSolver::new(20_000, 11);
        while tried < positions {
            let Some(mut pos) = sparse_position(&v, &mut rng, pieces) else {
                continue;
            };
            tried += 1;
            let attacker = pos.side_to_move();
            let before = pos.to_text();
            let one = exhaustive_win(&mut pos, attacker, 1, false);
            let three = !one && exhaustive_win(&mut pos, attacker, 3, true);
            let answer = s.solve(&mut pos);
            assert_eq!(
                pos.to_text(),
                before,
                "{id}: the search leaves the position"
            );
            if one || three {
                assert!(
                    matches!(answer, MateAnswer::Mate(_)),
                    "{id}: {} has a forced win in {} the solver missed ({answer:?})",
                    before,
                    if one { 1 } else { 3 }
                );
            }
            // The leaf search tries the same checks and every reply: with a budget that
            // cannot run out it finds exactly these wins, and claims no other.
            let legal = pos.legal_moves();
            let short = pos.forced_win(&legal, 3, &mut Budget::new(1_000_000));
            assert_eq!(
                short.is_some(),
                one || three,
                "{id}: the short search and the exhaustive one differ on {before} ({short:?})"
            );
            if let MateAnswer::Mate(_) = answer {
                mates += 1;
                threes += usize::from(three);
                let mut check = MateSolver::new(20_000, 11);
                verify_mate(&mut check, &mut pos, 12)
                    .unwrap_or_else(|e| panic!("{id}: false mate in {before}: {e}"));
            }
        }
        assert!(
            mates >= 3,
            "{id}: only {mates} mates among {tried} positions"
        );
        assert!(
            threes >= 1,
            "{id}: no mate in three among {tried} positions"
        );
        eprintln!("{id}: {mates} mates ({threes} in three) among {tried} positions");
    }
}

/// The short mate search drops a defence as soon as the attack test sees no threat to the
/// defender's one royal piece, without generating the attacker's moves: that is exact only if
/// every move that takes the last royal piece is one the test sees (captures by multi-leg
/// moves, hops, burns). Checked in random sparse positions and random games of every built-in
/// royal-capture variant except Ko Shogi (whose threat test is its own).
#[test]
fn every_capture_of_the_last_royal_is_seen_by_the_threat_test() {
    for id in koma_rules::variant::builtin_ids() {
        let v = variant(id);
        if v.has_rule_module() || v.rules.check != koma_rules::variant::CheckRule::RoyalCapture {
            continue;
        }
        let mut rng = StdRng::seed_from_u64(0x726f79);
        let (mut wins, mut tried) = (0, 0);
        let mut check = |pos: &mut Position| {
            let us = pos.side_to_move();
            if pos.royal_count(us.opposite()) != 1 || pos.outcome().is_some() {
                return;
            }
            tried += 1;
            let legal = pos.legal_moves();
            if let Some(m) = pos.winning_capture(&legal) {
                wins += 1;
                assert!(
                    pos.threatens_win(us),
                    "{id}: {} wins by {} unseen by the threat test",
                    pos.to_text(),
                    pos.move_text(&m)
                );
            }
        };
        let mut sparse = 0;
        while sparse < 300 {
            let n = rng.gen_range(4..16);
            if let Some(mut pos) = sparse_position(&v, &mut rng, n) {
                sparse += 1;
                check(&mut pos);
            }
        }
        for _ in 0..6 {
            let mut pos = Position::start(&v);
            for _ in 0..300 {
                check(&mut pos);
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                pos.make_move(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(wins >= 20, "{id}: only {wins} wins among {tried} positions");
        eprintln!("{id}: {wins} wins by royal capture among {tried} positions");
    }
}

#[test]
fn has_legal_move_agrees_with_move_generation() {
    for id in ["hand-shogi", "shoko-shogi", "hook-shogi", "ko-shogi"] {
        let v = variant(id);
        let mut rng = StdRng::seed_from_u64(7);
        for _ in 0..200 {
            let Some(mut pos) = sparse_position(&v, &mut rng, 8) else {
                continue;
            };
            let moves: Vec<Move> = pos.legal_moves();
            assert_eq!(pos.has_legal_move(), !moves.is_empty(), "{}", pos.to_text());
            for m in moves.iter().take(30) {
                pos.make_move(*m);
                let replies = pos.legal_moves();
                assert_eq!(
                    pos.has_legal_move(),
                    !replies.is_empty(),
                    "{} after {}",
                    pos.to_text(),
                    pos.move_text(m)
                );
                pos.unmake_move();
            }
        }
    }
}

/// Whether `m` checks (or wins), by playing it.
fn checks_by_playing(pos: &mut Position, m: Move) -> bool {
    let us = pos.side_to_move();
    pos.make_move(m);
    let c = pos.royal_count(us.opposite()) == 0 || pos.threatens_win(us);
    pos.unmake_move();
    c
}

/// Whether every move of `pos` checks by [`Position::gives_threat`] exactly when it does once
/// played; returns how many check.
fn checks_agree(id: &str, pos: &mut Position) -> usize {
    use koma_rules::mate::CheckTest;
    let moves = pos.legal_moves();
    let test = CheckTest::new(pos);
    let mut checks = 0;
    for &m in &moves {
        let fast = pos.gives_threat(m, &test);
        assert_eq!(
            fast,
            checks_by_playing(pos, m),
            "{id}: {} in {}",
            pos.move_text(&m),
            pos.to_text()
        );
        checks += usize::from(fast);
    }
    checks
}

/// Telling checks without playing the moves agrees with playing them, in random games of every
/// variant (drops, promotions, discovered checks, captures on the way) and in sparse random
/// positions, where the royal pieces stand open to checks by every kind of piece (a complex
/// piece checking from where it lands, or uncovered by another's move).
#[test]
fn checks_told_without_playing_agree_with_playing() {
    let large = ["chu-shogi", "dai-shogi", "tenjiku-shogi"];
    for id in common::XBETZA_VARIANTS.into_iter().chain(large) {
        let v = variant(id);
        let mut rng = StdRng::seed_from_u64(21);
        let mut checks = 0;
        for game in 0..20 {
            let mut pos = Position::start(&v);
            for _ in 0..(40 + game * 10) {
                if pos.legal_moves().is_empty() || pos.outcome().is_some() {
                    break;
                }
                checks += checks_agree(id, &mut pos);
                let moves = pos.legal_moves();
                pos.make_move(*moves.choose(&mut rng).unwrap());
            }
        }
        assert!(checks > 50, "{id}: only {checks} checks seen");
        let mut sparse = 0;
        while sparse < 150 {
            let n = rng.gen_range(4..14);
            if let Some(mut pos) = sparse_position(&v, &mut rng, n) {
                sparse += 1;
                checks_agree(id, &mut pos);
            }
        }
    }
}

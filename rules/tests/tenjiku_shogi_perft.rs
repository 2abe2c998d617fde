//! Tenjiku Shogi: the start position's perft (numbers in `data/perft.txt`) cross-checked
//! against the independent reference generator in `reference/tenjiku_shogi.rs` (a slow,
//! obviously-correct implementation written from the rules in docs/tenjiku-shogi.md, sharing
//! no code or data with the rules core or the variant file), and move sets and the positions
//! they lead to (captures, burns, promotions) cross-checked along random games and in random
//! positions that crowd the jumping generals, Fire Demons, Lions and Tetrarchs together.

mod common;
#[path = "reference/tenjiku_shogi.rs"]
mod reference;

use common::{compare_with_reference, expected_perft, move_texts, place_random_pieces};
use common::{random_side, token, variant, Grid};
use koma_rules::{perft, Position, Variant};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use reference::RefPosition;
use std::sync::Arc;

const TENJIKU: &str = "tenjiku-shogi";

/// Kinds drawn more often in random positions, so that the special rules meet.
const FAVOURITES: &[&str] = &[
    "FI", "+WB", "GG", "+RG", "VG", "+BG", "RG", "BG", "+CS", "FE", "LH", "LN", "K", "+DE", "P",
    "N",
];

#[test]
fn reference_agrees_on_the_start_perft_table() {
    let r = RefPosition::start();
    for depth in 1..=3 {
        let n = expected_perft(TENJIKU, "startpos", depth);
        assert_eq!(r.perft(depth), n, "reference perft({depth})");
    }
}

#[test]
fn the_start_position_agrees_with_the_reference() {
    let v = variant(TENJIKU);
    let mut pos = Position::start(&v);
    let r = RefPosition::start();
    assert_eq!(RefPosition::from_fen(&pos.to_text()).unwrap(), r);
    assert_eq!(Position::from_text(&v, &r.to_fen()).unwrap(), pos);
    assert_eq!(move_texts(&mut pos), r.legal_moves());
}

/// Compares the legal moves of the two generators in `pos`, and the position each move leads
/// to. Returns the moves.
#[track_caller]
fn compare(pos: &mut Position) -> Vec<String> {
    compare_with_reference(
        "Tenjiku",
        pos,
        |text| RefPosition::from_fen(text).unwrap(),
        RefPosition::successors,
    )
}

/// In every position of random games from the start, both generators list the same moves and
/// reach the same positions.
#[test]
fn move_sets_agree_along_random_games() {
    let v = variant(TENJIKU);
    let mut rng = StdRng::seed_from_u64(0x74656e6a);
    let mut positions = 0;
    for _ in 0..4 {
        let mut pos = Position::start(&v);
        for _ply in 0..120 {
            let moves = compare(&mut pos);
            positions += 1;
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let m = pos.parse_move(moves.choose(&mut rng).unwrap()).unwrap();
            pos.make_move(m);
        }
    }
    assert!(positions > 200, "only {positions} positions");
}

/// A random position: one or two royal pieces a side, then `n` pieces of random kinds
/// (promoted ones included) on random squares, a random side to move.
fn random_position(v: &Arc<Variant>, rng: &mut StdRng, n: usize) -> Position {
    let mut grid = Grid::for_variant(v);
    for white in [false, true] {
        for _ in 0..rng.gen_range(1..=2) {
            let id = ["K", "+DE"].choose(rng).unwrap();
            grid.place_randomly(rng, token(id, white));
        }
    }
    place_random_pieces(&mut grid, v, rng, n, FAVOURITES, 0.4);
    grid.position(v, random_side(rng), "- 10")
}

/// In random positions of every density, both generators list the same moves and reach the
/// same positions (burns, jump captures and promotions included).
#[test]
fn move_sets_agree_in_random_positions() {
    let v = variant(TENJIKU);
    let mut rng = StdRng::seed_from_u64(0x72616e64);
    let (mut multi_leg, mut burnt) = (0, 0);
    for i in 0..160 {
        let n = [6, 20, 50, 100][i % 4];
        let mut pos = random_position(&v, &mut rng, n);
        let moves = compare(&mut pos);
        multi_leg += moves.iter().filter(|t| t.contains(',')).count();
        let before = pos.to_text();
        for t in &moves {
            let m = pos.parse_move(t).unwrap();
            let pieces = |p: &Position| {
                p.to_text()
                    .split(' ')
                    .next()
                    .unwrap()
                    .chars()
                    .filter(|c| c.is_ascii_alphabetic())
                    .count()
            };
            let n0 = pieces(&pos);
            pos.make_move(m);
            // More pieces gone than the move's kill squares and destination: a burn.
            if n0 - pieces(&pos) > m.kills().len() + 1 {
                burnt += 1;
            }
            pos.unmake_move();
        }
        assert_eq!(pos.to_text(), before);
    }
    assert!(multi_leg > 100, "only {multi_leg} multi-leg moves seen");
    assert!(burnt > 50, "only {burnt} moves with burns seen");
}

/// Depth-2 perft from random positions agrees with the reference.
#[test]
fn perft_agrees_from_random_positions() {
    let v = variant(TENJIKU);
    let mut rng = StdRng::seed_from_u64(0x70657266);
    for i in 0..12 {
        let mut pos = random_position(&v, &mut rng, [10, 30][i % 2]);
        let r = RefPosition::from_fen(&pos.to_text()).unwrap();
        assert_eq!(perft(&mut pos, 2), r.perft(2), "at {}", pos.to_text());
    }
}

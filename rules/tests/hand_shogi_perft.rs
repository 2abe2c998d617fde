//! Hand Shogi cross-checks against the independent reference generator in
//! `reference/hand_shogi.rs` (a slow, obviously-correct implementation written from the rules
//! text alone, sharing no code with the rules core). The start position's perft numbers are in
//! `data/perft.txt` (checked against the rules core by `perft_table.rs`).

mod common;
#[path = "reference/hand_shogi.rs"]
mod reference;

use common::{expected_perft, move_texts, play_random_moves, variant};
use koma_rules::{perft, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use reference::RefPosition;
use std::collections::BTreeSet;

/// The start position's perft(`depth`) in the perft table.
fn start_perft(depth: u32) -> u64 {
    expected_perft("hand-shogi", "startpos", depth)
}

#[test]
fn start_position_text_matches_the_reference() {
    let v = variant("hand-shogi");
    let pos = Position::start(&v);
    let ours = Position::from_text(&v, reference::START_FEN).unwrap();
    assert_eq!(pos, ours);
    assert_eq!(pos.hash(), ours.hash());
    assert_eq!(
        RefPosition::from_fen(&pos.to_text()).unwrap(),
        RefPosition::start()
    );
}

#[test]
fn reference_agrees_on_depths_one_and_two() {
    let r = RefPosition::start();
    assert_eq!(r.perft(1), start_perft(1));
    assert_eq!(r.perft(2), start_perft(2));
}

/// The slow generator needs about 20 s for depth 3 in a release build.
#[test]
fn reference_agrees_on_depth_three() {
    assert_eq!(RefPosition::start().perft(3), start_perft(3));
}

/// In every position of many random games, both generators list exactly the same moves, and
/// the positions they reach agree.
#[test]
fn move_sets_agree_along_random_games() {
    let v = variant("hand-shogi");
    let mut rng = StdRng::seed_from_u64(0x6b6f6d61);
    let mut positions = 0;
    for _game in 0..40 {
        let mut pos = Position::start(&v);
        let mut r = RefPosition::start();
        for _ply in 0..120 {
            let ours = move_texts(&mut pos);
            let theirs: BTreeSet<String> = r.legal_moves().into_iter().collect();
            assert_eq!(ours, theirs, "move sets differ at {}", pos.to_text());
            positions += 1;
            if ours.is_empty() || pos.outcome().is_some() {
                break;
            }
            let pick: Vec<&String> = ours.iter().collect();
            let text = pick[rng.gen_range(0..pick.len())].clone();
            let m = pos.parse_move(&text).unwrap();
            pos.make_move(m);
            r = r.play(&text).unwrap();
            assert_eq!(
                RefPosition::from_fen(&pos.to_text()).unwrap(),
                r,
                "positions differ after {text}"
            );
        }
    }
    assert!(positions > 2000, "only {positions} positions compared");
}

/// Depth-2 perft from random middle-game positions agrees with the reference.
#[test]
fn perft_agrees_from_random_positions() {
    let v = variant("hand-shogi");
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..12 {
        let mut pos = Position::start(&v);
        let plies = rng.gen_range(6..60);
        play_random_moves(&mut pos, &mut rng, plies);
        let r = RefPosition::from_fen(&pos.to_text()).unwrap();
        assert_eq!(perft(&mut pos, 2), r.perft(2), "at {}", pos.to_text());
    }
}

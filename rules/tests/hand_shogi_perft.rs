//! Hand Shogi perft table and cross-checks against the independent reference generator in
//! `reference/hand_shogi.rs` (a slow, obviously-correct implementation written from the rules
//! text alone, sharing no code with the rules core).

#[path = "reference/hand_shogi.rs"]
mod reference;

use koma_rules::{load_variant, perft, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use reference::RefPosition;
use std::collections::BTreeSet;

/// Perft from the start position. Depth 1 is derived by hand in the reference's tests
/// (26 board moves + 293 drops); every depth equals the reference's own count.
const START_PERFT: [(u32, u64); 3] = [(1, 319), (2, 96_721), (3, 27_072_671)];

fn sorted_texts(pos: &mut Position) -> BTreeSet<String> {
    pos.legal_moves().iter().map(|m| pos.move_text(m)).collect()
}

#[test]
fn start_position_perft_table() {
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::start(&v);
    for (depth, expected) in START_PERFT {
        assert_eq!(perft(&mut pos, depth), expected, "perft({depth})");
    }
}

#[test]
fn start_position_text_matches_the_reference() {
    let v = load_variant("hand-shogi").unwrap();
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
    assert_eq!(r.perft(1), START_PERFT[0].1);
    assert_eq!(r.perft(2), START_PERFT[1].1);
}

/// The slow generator needs about 20 s for depth 3 in a release build.
#[test]
fn reference_agrees_on_depth_three() {
    assert_eq!(RefPosition::start().perft(3), START_PERFT[2].1);
}

/// In every position of many random games, both generators list exactly the same moves, and
/// the positions they reach agree.
#[test]
fn move_sets_agree_along_random_games() {
    let v = load_variant("hand-shogi").unwrap();
    let mut rng = StdRng::seed_from_u64(0x6b6f6d61);
    let mut positions = 0;
    for _game in 0..40 {
        let mut pos = Position::start(&v);
        let mut r = RefPosition::start();
        for _ply in 0..120 {
            let ours = sorted_texts(&mut pos);
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
    let v = load_variant("hand-shogi").unwrap();
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..12 {
        let mut pos = Position::start(&v);
        let plies = rng.gen_range(6..60);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.gen_range(0..moves.len())]);
        }
        let r = RefPosition::from_fen(&pos.to_text()).unwrap();
        assert_eq!(perft(&mut pos, 2), r.perft(2), "at {}", pos.to_text());
    }
}

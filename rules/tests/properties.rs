//! Property tests of the rules core over random Hand Shogi games: make/unmake restores the
//! position and its hash, the incremental hash equals the recomputed one, every legal move
//! round-trips through the notation, the position text round-trips, and perft agrees with and
//! without make/unmake.

use koma_rules::{load_variant, perft, perft_copy_make, Position};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Plays `plies` random legal moves from the start, calling `check` on every position reached.
fn random_walk(seed: u64, plies: usize, mut check: impl FnMut(&mut Position)) {
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::start(&v);
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..plies {
        check(&mut pos);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[rng.gen_range(0..moves.len())]);
    }
    check(&mut pos);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn unmake_restores_position_and_hash(seed in any::<u64>()) {
        random_walk(seed, 80, |pos| {
            let before = pos.clone();
            for m in pos.legal_moves() {
                pos.make_move(m);
                assert_eq!(pos.hash(), pos.compute_hash());
                pos.unmake_move();
                assert!(*pos == before, "unmake of {} changed the position", pos.move_text(&m));
                assert_eq!(pos.hash(), before.hash());
                assert_eq!(pos.ply(), before.ply());
            }
        });
    }

    #[test]
    fn incremental_hash_equals_recomputed(seed in any::<u64>()) {
        random_walk(seed, 150, |pos| assert_eq!(pos.hash(), pos.compute_hash()));
    }

    #[test]
    fn every_move_round_trips_through_the_notation(seed in any::<u64>()) {
        random_walk(seed, 80, |pos| {
            for m in pos.legal_moves() {
                let text = pos.move_text(&m);
                assert_eq!(pos.parse_move(&text).unwrap(), m, "{text}");
            }
        });
    }

    #[test]
    fn position_text_round_trips(seed in any::<u64>()) {
        random_walk(seed, 120, |pos| {
            let text = pos.to_text();
            let back = Position::from_text(pos.variant(), &text).unwrap();
            assert!(back == *pos, "{text}");
            assert_eq!(back.hash(), pos.hash());
            assert_eq!(back.to_text(), text);
        });
    }

    #[test]
    fn perft_with_and_without_make_unmake_agree(seed in any::<u64>(), plies in 0usize..40) {
        let v = load_variant("hand-shogi").unwrap();
        let mut pos = Position::start(&v);
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.gen_range(0..moves.len())]);
        }
        prop_assert_eq!(perft(&mut pos, 2), perft_copy_make(&pos, 2));
    }
}

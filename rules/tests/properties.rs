//! Property tests of the rules core over random games of every built-in variant: make/unmake
//! restores the position and its hash, the incremental hash equals the recomputed one, every
//! legal move round-trips through the notation, the position text round-trips, perft agrees
//! with and without make/unmake, and a move's `+` says exactly that the piece changes kind (in
//! Ko Shogi: that it promotes; the board may then change it again, see below).

mod common;

use common::{play_random_moves, variant};
use koma_rules::variant::CheckRule;
use koma_rules::{perft, perft_copy_make, Position, Promotion};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const VARIANTS: [&str; 5] = [
    "hand-shogi",
    "shoko-shogi",
    "gyaku-sama-shogi",
    "hook-shogi",
    "ko-shogi",
];

/// Plays `plies` random legal moves from the start of each variant, calling `check` on every
/// position reached.
fn random_walk(seed: u64, plies: usize, mut check: impl FnMut(&mut Position)) {
    for id in VARIANTS {
        let v = variant(id);
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
        for id in VARIANTS {
            let v = variant(id);
            let mut pos = Position::start(&v);
            let mut rng = StdRng::seed_from_u64(seed);
            play_random_moves(&mut pos, &mut rng, plies);
            prop_assert_eq!(perft(&mut pos, 2), perft_copy_make(&pos, 2));
        }
    }

    #[test]
    fn promotion_suffix_marks_a_change_of_kind(seed in any::<u64>()) {
        random_walk(seed, 100, |pos| {
            for m in pos.legal_moves() {
                let mover = pos.piece_at(m.from());
                pos.make_move(m);
                let after = pos.piece_at(m.to());
                pos.unmake_move();
                if m.is_drop() {
                    continue;
                }
                let changed = after != mover;
                let promotes = m.promotion() == Promotion::Promote;
                if pos.variant().has_rule_module() {
                    // Ko Shogi: the piece promotes when the move says so, unless it is burned
                    // (then it has no promotion); a fog next to a light then turns back into a
                    // Taoist priest, whether it has just promoted or moved.
                    let v = pos.variant();
                    let id = |p: koma_rules::Piece| v.piece(p.kind()).id.as_str();
                    let reverted = after.is_piece() && id(after) == "TP";
                    if after.is_empty() {
                        assert!(!promotes, "{} in {}", pos.move_text(&m), pos.to_text());
                    } else if !reverted {
                        assert_eq!(changed, promotes, "{} in {}", pos.move_text(&m), pos.to_text());
                    }
                    continue;
                }
                assert_eq!(
                    changed,
                    promotes,
                    "{} in {}",
                    pos.move_text(&m),
                    pos.to_text()
                );
            }
        });
    }
}

/// The list filter and the one-move legality test agree: the legal moves are exactly the
/// pseudo-legal moves that `pseudo_legal_is_legal` accepts, in every variant, including
/// positions in check with pieces in hand, where the list filter decides drops from the
/// checking line instead of playing them. Under king safety both also equal the plain
/// definition, each move played and the mover's royal piece tested for attack, against
/// which the board test of both (every move decided without playing it where the opponent
/// attacks only by leaps and slides) is checked.
#[test]
fn legal_moves_are_the_pseudo_legal_moves_that_pass_the_one_move_test() {
    let mut drops_in_check = 0;
    let mut king_safety_positions = 0;
    let mut interposed = 0;
    for seed in 0..12 {
        random_walk(seed, 160, |pos| {
            let mut legal = pos.legal_moves();
            let mut pseudo = Vec::new();
            pos.generate_pseudo_legal(&mut pseudo);
            let in_check = pos.in_check(pos.side_to_move());
            drops_in_check += usize::from(in_check && pseudo.iter().any(|m| m.is_drop()));
            interposed += usize::from(in_check && legal.iter().any(|m| m.is_drop()));
            let mut passing: Vec<_> = pseudo
                .into_iter()
                .filter(|&m| pos.pseudo_legal_is_legal(m))
                .collect();
            legal.sort_unstable();
            passing.sort_unstable();
            assert_eq!(legal, passing, "{}", pos.to_text());
            if pos.variant().rules.check == CheckRule::KingSafety {
                let us = pos.side_to_move();
                let mut pseudo = Vec::new();
                pos.generate_pseudo_legal(&mut pseudo);
                let mut played: Vec<_> = pseudo
                    .into_iter()
                    .filter(|&m| {
                        pos.make_move(m);
                        let safe = !pos.in_check(us);
                        pos.unmake_move();
                        safe
                    })
                    .collect();
                played.sort_unstable();
                assert_eq!(legal, played, "{}", pos.to_text());
                king_safety_positions += 1;
            }
        });
    }
    assert!(
        drops_in_check > 10,
        "{drops_in_check} positions in check with drops"
    );
    assert!(interposed > 0, "no drop ended a check");
    assert!(
        king_safety_positions > 100,
        "{king_safety_positions} positions under king safety"
    );
}

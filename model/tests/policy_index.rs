//! The policy head can tell every legal move apart: along random games of every variant, no
//! two legal moves of a position get the same policy index, so a search's visit counts map
//! back onto moves one to one (Ko Shogi's shots, double shots and multi-capture moves
//! included).

use koma_model::Encoder;
use koma_rules::{load_variant, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

#[test]
fn no_two_legal_moves_share_a_policy_index() {
    let ids = koma_rules::variant::builtin_ids();
    assert_eq!(ids.len(), 8);
    for id in ids {
        let v = load_variant(id).unwrap();
        let enc = Encoder::new(&v);
        let mut shots_seen = 0;
        for seed in 0..6 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut pos = Position::start(&v);
            for _ in 0..300 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mut seen = HashMap::new();
                for m in &moves {
                    shots_seen += (m.shot_mask() != 0) as usize;
                    let idx = enc.move_index(&pos, m);
                    if let Some(other) = seen.insert(idx, *m) {
                        panic!(
                            "{id}: {} and {} share the policy index {idx:?} in {}",
                            pos.move_text(&other),
                            pos.move_text(m),
                            pos.to_text()
                        );
                    }
                }
                pos.make_move(moves[rng.gen_range(0..moves.len())]);
            }
        }
        if id == "ko-shogi" {
            assert!(
                shots_seen > 100,
                "only {shots_seen} shots met along the games"
            );
        }
    }
}

//! Positions for the crate's unit tests: random games of a built-in variant.

use koma_rules::{load_variant, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// `n` positions from random games of `variant` of up to 300 plies (late positions hold pieces
/// in hand), the same on every run.
pub(crate) fn random_positions(variant: &str, n: usize) -> Vec<Position> {
    let v = load_variant(variant).unwrap();
    let mut rng = StdRng::seed_from_u64(5);
    (0..n)
        .map(|_| {
            let mut pos = Position::start(&v);
            for _ in 0..rng.gen_range(0..300) {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                pos.make_move(moves[rng.gen_range(0..moves.len())]);
            }
            pos
        })
        .collect()
}

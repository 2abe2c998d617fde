//! Positions for the crate's unit tests: random games of a built-in variant.

use koma_rules::{load_variant, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::{Mutex, MutexGuard};

/// Held by every test that seeds or draws from libtorch's global generator, from the seed to
/// its last draw. The generator is one per process and the crate's tests run on parallel
/// threads: without it, a test's weights would be drawn partly from another test's seed
/// whenever the two interleave, so they would change with the scheduling (a loaded machine)
/// instead of being the same draw on every run.
static TORCH_GENERATOR: Mutex<()> = Mutex::new(());

/// Seeds libtorch's global generator with `seed` and holds it for the caller until the guard
/// is dropped.
pub(crate) fn seeded_torch(seed: i64) -> MutexGuard<'static, ()> {
    let guard = TORCH_GENERATOR.lock().unwrap_or_else(|e| e.into_inner());
    tch::manual_seed(seed);
    guard
}

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

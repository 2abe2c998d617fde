//! The players that need no network: uniformly random, and greedy capture.

use koma_rules::PieceValues;
use koma_rules::{Move, Position};
use rand::seq::SliceRandom;
use rand::Rng;

/// A uniformly random move of `moves` (`None` when there is none).
pub fn random_move(moves: &[Move], rng: &mut impl Rng) -> Option<Move> {
    moves.choose(rng).copied()
}

/// The greedy baseline's move among the legal `moves` of `pos` (`None` when there is none):
/// a move that wins on the spot (mate in one: in variants where the royal piece cannot be
/// taken, mating is what taking it is elsewhere), else the capture of the most material,
/// else a random move. Ties are broken at random so that the player is not predictable by
/// move order. `pos` is left as it was.
pub fn greedy_move(
    pos: &mut Position,
    moves: &[Move],
    values: &PieceValues,
    rng: &mut impl Rng,
) -> Option<Move> {
    let us = pos.side_to_move();
    let them = us.opposite();
    let mut mates = Vec::new();
    for &m in moves {
        pos.make_move(m);
        // Only checks can mate; the test of everything else would double the cost.
        if pos.in_check(them) || pos.royal_count(them) == 0 {
            if let Some(o) = pos.outcome() {
                if o.winner() == Some(us) {
                    mates.push(m);
                }
            }
        }
        pos.unmake_move();
    }
    if let Some(m) = mates.choose(rng) {
        return Some(*m);
    }
    let mut best = 0;
    let mut best_moves = Vec::new();
    for &m in moves {
        let v = values.capture_value(pos, &m);
        if v > best {
            best = v;
            best_moves.clear();
        }
        if v == best && v > 0 {
            best_moves.push(m);
        }
    }
    match best_moves.choose(rng) {
        Some(m) => Some(*m),
        None => random_move(moves, rng),
    }
}

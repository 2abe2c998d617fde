//! Positions for the crate's unit tests: random games of a built-in variant, in which captures
//! are played half the time where there are some, so the boards thin out as real games do.

use crate::mv::Move;
use crate::piece::Piece;
use crate::position::Position;
use crate::square::Square;
use crate::variant::load_variant;
use rand::{rngs::StdRng, Rng, SeedableRng};

/// Visits the positions along `games` random games of the built-in variant `id`, each with its
/// legal moves (the visitor may make and unmake moves, leaving the position as it found it).
pub(crate) fn random_positions(
    id: &str,
    games: u64,
    mut visit: impl FnMut(&mut Position, &[Move]),
) {
    let v = load_variant(id).unwrap();
    for seed in 0..games {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut pos = Position::start(&v);
        for _ in 0..rng.gen_range(20..160) {
            let legal = pos.legal_moves();
            if legal.is_empty() || pos.outcome_given(false).is_some() {
                break;
            }
            visit(&mut pos, &legal);
            let takes: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| !m.is_drop() && pos.piece_at(m.to()).is_piece())
                .collect();
            let pick = if !takes.is_empty() && rng.gen_bool(0.5) {
                takes[rng.gen_range(0..takes.len())]
            } else {
                legal[rng.gen_range(0..legal.len())]
            };
            pos.make_move(pick);
        }
    }
}

/// Visits every piece on the board of the positions [`random_positions`] gives.
pub(crate) fn random_pieces(id: &str, games: u64, mut visit: impl FnMut(&Position, Square, Piece)) {
    random_positions(id, games, |pos, _| {
        let v = pos.variant().clone();
        for &from in v.geometry.squares() {
            let p = pos.piece_at(from);
            if p.is_piece() {
                visit(pos, from, p);
            }
        }
    });
}

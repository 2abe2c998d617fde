//! Perft: counting the leaf nodes of the legal-move tree, the standard test of a move generator.

use crate::mv::Move;
use crate::position::Position;

/// Number of leaf nodes at `depth`, with bulk counting: at depth 1 the legal moves are counted,
/// not made.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(512)).collect();
    perft_inner(pos, depth, &mut buffers)
}

fn perft_inner(pos: &mut Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (mine, rest) = buffers.split_first_mut().expect("a buffer per ply");
    pos.legal_moves_into(mine);
    if depth == 1 {
        return mine.len() as u64;
    }
    let mut total = 0;
    for &m in mine.iter() {
        pos.make_move_inner(m, false);
        total += perft_inner(pos, depth - 1, rest);
        pos.unmake_move();
    }
    total
}

/// Perft per legal move at the root (`--divide`), in generation order.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    moves
        .into_iter()
        .map(|m| {
            pos.make_move(m);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake_move();
            (m, n)
        })
        .collect()
}

/// Perft by copying the position at every node instead of unmaking moves, and without bulk
/// counting: a second way to the same number, for tests.
pub fn perft_copy_make(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut p = pos.clone();
    let moves = p.legal_moves();
    moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.make_move(m);
            perft_copy_make(&child, depth - 1)
        })
        .sum()
}

//! Ko Shogi: the start position's perft (numbers in `data/perft.txt`) cross-checked against the
//! independent reference generator in `reference/ko_shogi.rs` (a slow implementation written
//! from the specification's plain words, sharing no code or data with the rules core), and
//! move-set and successor cross-checks along random games and in random positions crowded with
//! the pieces that have special rules.

mod common;
#[path = "reference/ko_shogi.rs"]
mod reference;

use common::{
    check_moves, expected_perft, place_random_pieces, random_side, removed, token, variant, Grid,
};
use koma_rules::{perft, Move, Position, Promotion, Variant};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use reference::{RefMove, RefPosition};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// A move as the reference keys it: origin, destination, removed squares in board order,
/// promotion suffix.
fn key(pos: &Position, m: &Move) -> String {
    let g = &pos.variant().geometry;
    let names: Vec<String> = removed(pos, m).iter().map(|&s| g.name(s)).collect();
    let promo = match m.promotion() {
        Promotion::None => "",
        Promotion::Promote => "+",
        Promotion::Decline => "=",
    };
    format!(
        "{}-{} x{{{}}}{promo}",
        g.name(m.from()),
        g.name(m.to()),
        names.join(",")
    )
}

/// The board and side fields of a position text.
fn board_and_side(text: &str) -> String {
    text.split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Compares the legal moves of both generators in `pos` and the position each move leads to.
/// Returns the moves.
#[track_caller]
fn compare(pos: &mut Position) -> Vec<Move> {
    let text = pos.to_text();
    let r = RefPosition::from_fen(&text);
    assert_eq!(board_and_side(&r.to_fen()), board_and_side(&text));
    let moves = pos.legal_moves();
    let ours: BTreeMap<String, Move> = moves.iter().map(|m| (key(pos, m), *m)).collect();
    assert_eq!(ours.len(), moves.len(), "a move twice at {text}");
    let theirs: BTreeMap<String, RefMove> = r
        .legal_moves()
        .into_iter()
        .map(|m| (RefPosition::key(&m), m))
        .collect();
    let a: BTreeSet<String> = ours.keys().cloned().collect();
    let b: BTreeSet<String> = theirs.keys().cloned().collect();
    check_moves(&format!("at {text}"), &a, &b);
    for (k, m) in &ours {
        let t = pos.move_text(m);
        assert_eq!(pos.parse_move(&t).unwrap(), *m, "{t} at {text}");
        pos.make_move(*m);
        let after = board_and_side(&pos.to_text());
        assert_eq!(pos.hash(), pos.compute_hash(), "{t} at {text}");
        pos.unmake_move();
        let want = board_and_side(&r.apply(&theirs[k]).to_fen());
        assert_eq!(after, want, "after {t} at {text}");
    }
    moves
}

#[test]
fn reference_agrees_on_the_start_perft() {
    let r = RefPosition::start();
    for depth in 1..=3 {
        let n = expected_perft("ko-shogi", "startpos", depth);
        assert_eq!(r.perft(depth), n, "perft({depth})");
    }
}

#[test]
fn start_position_agrees_with_the_specification() {
    let v = variant("ko-shogi");
    let mut pos = Position::start(&v);
    assert_eq!(
        board_and_side(&RefPosition::start().to_fen()),
        board_and_side(&pos.to_text())
    );
    compare(&mut pos);
}

/// In every position of random games from the start, both generators list the same moves and
/// reach the same positions.
#[test]
fn move_sets_agree_along_random_games() {
    let v = variant("ko-shogi");
    let mut rng = StdRng::seed_from_u64(0x6b6f);
    let mut positions = 0;
    for _ in 0..3 {
        let mut pos = Position::start(&v);
        for _ply in 0..120 {
            let moves = compare(&mut pos);
            positions += 1;
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            // Prefer captures and promotions, so that the game opens up.
            let busy: Vec<&Move> = moves
                .iter()
                .filter(|m| !m.kills().is_empty() || pos.piece_at(m.to()).is_piece())
                .collect();
            let m = if !busy.is_empty() && rng.gen_bool(0.5) {
                **busy.choose(&mut rng).unwrap()
            } else {
                *moves.choose(&mut rng).unwrap()
            };
            pos.make_move(m);
        }
    }
    assert!(positions > 100, "only {positions} positions");
}

/// The pieces with rules of their own, drawn more often in random positions.
const FAVOURITES: [&str; 32] = [
    "TP", "SM", "FG", "IL", "PF", "SK", "EW", "TC", "FW", "FC", "CG", "CN", "GC", "LB", "XB", "LC",
    "XC", "CA", "PCA", "WG", "MA", "BD", "P", "DR", "CL", "AG", "RG", "SW", "DA", "MT", "BN", "CM",
];

/// The commanding sets a side may start a random position with (§10).
const COMMANDERS: [&[&str]; 4] = [&["G"], &["GV"], &["MT", "BN"], &["G", "MT", "FW"]];

/// A random position: a commanding set for each side (a general, a governor, or a middle
/// troop with a banner), then `n` pieces of random kinds on random squares, a random side to
/// move.
fn random_position(v: &Arc<Variant>, rng: &mut StdRng, n: usize) -> Position {
    let mut grid = Grid::for_variant(v);
    for white in [false, true] {
        for id in *COMMANDERS.choose(rng).unwrap() {
            grid.place_randomly(rng, token(id, white));
        }
    }
    place_random_pieces(&mut grid, v, rng, n, &FAVOURITES, 0.4);
    let side = random_side(rng);
    grid.position(v, side, "- 10")
}

/// In random positions of every density, both generators list the same moves and reach the
/// same positions.
#[test]
fn move_sets_agree_in_random_positions() {
    let v = variant("ko-shogi");
    let mut rng = StdRng::seed_from_u64(0x72616e64);
    let (mut shots, mut multi, mut promotions) = (0, 0, 0);
    for i in 0..160 {
        let n = [6, 20, 50, 110][i % 4];
        let mut pos = random_position(&v, &mut rng, n);
        for m in compare(&mut pos) {
            shots += (m.shot_mask() != 0) as usize;
            multi += (m.kills().len() > 1) as usize;
            promotions += (m.promotion() == Promotion::Promote) as usize;
        }
    }
    assert!(
        shots > 200 && multi > 100 && promotions > 100,
        "only {shots} shooting moves, {multi} multiple kills, {promotions} promotions seen"
    );
}

/// Depth-2 perft from random positions agrees with the reference.
#[test]
fn perft_agrees_from_random_positions() {
    let v = variant("ko-shogi");
    let mut rng = StdRng::seed_from_u64(0x70657266);
    for i in 0..12 {
        let mut pos = random_position(&v, &mut rng, [12, 40][i % 2]);
        let r = RefPosition::from_fen(&pos.to_text());
        assert_eq!(perft(&mut pos, 2), r.perft(2), "at {}", pos.to_text());
    }
}

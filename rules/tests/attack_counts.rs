//! Attack counts per square (the network's view of tactics) against the move generator: on
//! every enemy piece, the count equals the number of the mover's pieces with a move capturing
//! it (Hand Shogi), or is at least that (the large variants, whose rules forbid some captures
//! the geometry allows: capture matrices, protected royals); plus hand-counted cases for
//! defences and blocked slides. Ko Shogi's shots are generated outside the move tables and
//! are not counted, so it is left out here.

mod common;

use common::{attack_counts, variant};
use koma_rules::{Color, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[test]
fn counts_match_the_capturing_moves_along_random_games() {
    for id in common::XBETZA_VARIANTS {
        let v = variant(id);
        let g = &v.geometry;
        let mut rng = StdRng::seed_from_u64(7);
        let mut checked = 0;
        for game in 0..4 {
            let mut pos = Position::start(&v);
            for _ in 0..(60 + 40 * game) {
                let us = pos.side_to_move();
                let c = attack_counts(&pos, us);
                let mut moves = Vec::new();
                pos.generate_pseudo_legal(&mut moves);
                for &sq in g.squares() {
                    let p = pos.piece_at(sq);
                    if !p.is_color(us.opposite()) {
                        continue;
                    }
                    let mut origins: Vec<_> = moves
                        .iter()
                        .filter(|m| !m.is_drop() && (m.to() == sq || m.kills().contains(&sq)))
                        .map(|m| m.from())
                        .collect();
                    origins.sort();
                    origins.dedup();
                    let i = g.board_index(sq).unwrap();
                    let exact = id == "hand-shogi";
                    assert!(
                        c[i] as usize == origins.len() || (!exact && c[i] as usize > origins.len()),
                        "{id}: {} attackers of {sq:?} counted, {} capture in {}",
                        c[i],
                        origins.len(),
                        pos.to_text()
                    );
                    checked += 1;
                }
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                pos.make_move(legal[rng.gen_range(0..legal.len())]);
            }
        }
        assert!(checked > 1000, "{id}: only {checked} squares checked");
    }
}

#[test]
fn defences_and_blocked_slides_are_counted_by_hand() {
    let v = variant("hand-shogi");
    let g = &v.geometry;
    // Black: king, gold, lance (fR) on file 4, ranks 0-2; White: king and soldier on file 4,
    // ranks 8 and 6, shogun (R3) on file 8, rank 4.
    let pos = Position::from_text(&v, "4k4/9/4(so)4/9/8(sh)/9/4L4/4G4/4K4 b -").unwrap();
    let black = attack_counts(&pos, Color::Black);
    let white = attack_counts(&pos, Color::White);
    let at = |f: u8, r: u8| g.board_index(g.square(f, r).unwrap()).unwrap();
    // The lance on file 4 (0-based), rank 2 is defended by the gold; the gold by the king.
    assert_eq!(black[at(4, 2)], 1);
    assert_eq!(black[at(4, 1)], 1);
    // The lance sees up its file to the soldier, and stops there.
    for r in 3..=6 {
        assert_eq!(black[at(4, r)], 1, "rank {r}");
    }
    assert_eq!(black[at(4, 7)], 0);
    // Shogun on file 8, rank 4: three squares each way, left along the rank and on its file.
    for f in 5..8 {
        assert_eq!(white[at(f, 4)], 1, "file {f}");
    }
    assert_eq!(white[at(4, 4)], 0);
    assert_eq!(white[at(8, 1)], 1);
    assert_eq!(white[at(8, 0)], 0);
    // Nothing else of White reaches the gold.
    assert_eq!(white[at(4, 1)], 0);
}

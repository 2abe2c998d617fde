//! The board scan against the square-by-square walk. Kept apart from `board_scan.rs`: the
//! positions' module uses the scan, and these tests' random positions need that module.

use crate::board_scan::Side;
use crate::color::Color;
use crate::piece::Piece;
use crate::square::Square;
use crate::test_positions::random_positions;

/// On random positions of every built-in variant, each scan visits exactly the squares the
/// square-by-square walk finds, in its order.
#[test]
fn the_scan_finds_what_the_walk_finds() {
    for id in crate::variant::builtin_ids() {
        let mut positions = 0;
        random_positions(id, 3, |pos, _| {
            positions += 1;
            for side in [Side::Of(Color::Black), Side::Of(Color::White), Side::Any] {
                let walked: Vec<(Square, Piece)> = pos
                    .variant()
                    .geometry
                    .squares()
                    .iter()
                    .map(|&sq| (sq, pos.piece_at(sq)))
                    .filter(|&(_, p)| match side {
                        Side::Of(c) => p.is_color(c),
                        Side::Any => p.is_piece(),
                    })
                    .collect();
                let mut scanned = Vec::new();
                pos.for_each_piece(side, |sq, p| scanned.push((sq, p)));
                let mut first = None;
                let found = pos.any_piece(side, |sq, _| {
                    first = Some(sq);
                    true
                });
                assert_eq!(found, !walked.is_empty());
                assert_eq!(first, walked.first().map(|w| w.0));
                assert_eq!(scanned, walked, "{id} {side:?}: {}", pos.to_text());
            }
        });
        assert!(positions > 0, "{id}: no positions");
    }
}

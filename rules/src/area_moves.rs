//! Where a piece's area move lands, found as sets of the squares around it.
//!
//! The area move of radius 2 or 3 (`xbetza::area`) is every sequence of that many king steps
//! or fewer, from two up, through empty squares and never straight back, ending on an empty
//! square or an enemy's; the piece's own square counts as empty, as for every multi-leg move.
//! The squares within three steps form a 7x7 grid, one bit each in a `u64`, so the steps
//! become unions of neighbourhoods:
//! - the second step lands on the neighbours of the empty first squares, except the origin
//!   (only a step straight back reaches it);
//! - the third step goes on from each empty second square to its neighbours, except, when
//!   exactly one first square leads there, that first square (the step straight back); with
//!   two or more, every neighbour is reached by a path that did not come from it.

use crate::color::Color;
use crate::position::Position;
use crate::square::Square;

/// Side of the grid: three squares either way of the origin.
const SIDE: i32 = 7;
/// The origin's bit.
const CENTRE: u32 = 24;

/// The bit of the square `df` files and `dr` ranks from the origin.
const fn bit(df: i32, dr: i32) -> u32 {
    ((dr + 3) * SIDE + df + 3) as u32
}

/// Per bit of the grid, the bits of its neighbours inside the grid.
const NEIGHBOURS: [u64; 49] = {
    let mut t = [0u64; 49];
    let mut i = 0;
    while i < 49 {
        let (df, dr) = (i as i32 % SIDE - 3, i as i32 / SIDE - 3);
        let mut m = 0u64;
        let mut y = -1;
        while y <= 1 {
            let mut x = -1;
            while x <= 1 {
                let (a, b) = (df + x, dr + y);
                if (x != 0 || y != 0) && a.abs() <= 3 && b.abs() <= 3 {
                    m |= 1 << bit(a, b);
                }
                x += 1;
            }
            y += 1;
        }
        t[i] = m;
        i += 1;
    }
    t
};

/// The squares a piece's area move lands on, as bits of the 7x7 grid around `origin`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AreaLandings {
    origin: Square,
    stride: i32,
    bits: u64,
}

impl AreaLandings {
    /// The landings as squares, the origin included where the move may come back to it.
    pub(crate) fn squares(self) -> impl Iterator<Item = Square> {
        let mut bits = self.bits;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as i32;
            bits &= bits - 1;
            let (df, dr) = (i % SIDE - 3, i / SIDE - 3);
            Some(Square(
                (self.origin.0 as i32 + dr * self.stride + df) as u16,
            ))
        })
    }

    /// Whether the move lands on `sq`.
    pub(crate) fn contains(self, sq: Square, geometry: &crate::geometry::Geometry) -> bool {
        let (df, dr) = geometry.steps_between(self.origin, sq);
        df.abs() <= 3 && dr.abs() <= 3 && self.bits >> bit(df, dr) & 1 != 0
    }
}

impl Position {
    /// Whether the area move of `radius` (0: none) of a piece of `color` on `from` takes on
    /// `target`, another square: the attack test's and the targeted generator's question.
    pub(crate) fn area_takes_on(
        &self,
        from: Square,
        color: Color,
        radius: u8,
        target: Square,
    ) -> bool {
        radius > 0
            && target != from
            && self
                .area_landings(from, color, radius)
                .contains(target, &self.variant.geometry)
    }

    /// Where the area move of `radius` (2 or 3) of a piece of `color` on `from` lands.
    pub(crate) fn area_landings(&self, from: Square, color: Color, radius: u8) -> AreaLandings {
        let stride = self.variant.geometry.delta(0, 1);
        let span = radius.min(3) as i32;
        let o = from.0 as i32;
        // The origin counts as empty; walls are neither empty nor enemies.
        let mut empty = 1u64 << CENTRE;
        let mut enemy = 0u64;
        for dr in -span..=span {
            let row = o + dr * stride;
            for df in -span..=span {
                if df == 0 && dr == 0 {
                    continue;
                }
                let q = self.board[(row + df) as usize];
                if q.is_empty() {
                    empty |= 1 << bit(df, dr);
                } else if q.is_piece() && q.color() != color {
                    enemy |= 1 << bit(df, dr);
                }
            }
        }
        let lands = empty | enemy;
        let first = NEIGHBOURS[CENTRE as usize] & empty;
        let mut second = 0u64;
        let mut f = first;
        while f != 0 {
            second |= NEIGHBOURS[f.trailing_zeros() as usize];
            f &= f - 1;
        }
        second &= !(1 << CENTRE);
        let mut bits = second & lands;
        if span == 3 {
            let mut through = second & empty;
            while through != 0 {
                let b = through.trailing_zeros() as usize;
                through &= through - 1;
                let from_first = NEIGHBOURS[b] & first;
                let mut next = NEIGHBOURS[b];
                if from_first.count_ones() == 1 {
                    next &= !from_first;
                }
                bits |= next & lands;
            }
        }
        AreaLandings {
            origin: from,
            stride,
            bits,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::color::Color;
    use crate::position::Position;
    use crate::test_positions::random_positions;
    use crate::variant::{builtin_ids, load_variant, Variant};
    use std::sync::Arc;

    /// `v` with every area move walked path by path by the general walker, as the tables
    /// were before areas were recognised.
    fn walked(v: &Variant) -> Variant {
        let mut w = v.clone();
        for pt in &mut w.pieces {
            for t in &mut pt.moves {
                t.area = 0;
                t.build_tree(&vec![true; t.paths.len()]);
            }
        }
        w
    }

    fn has_area(v: &Variant) -> bool {
        v.pieces
            .iter()
            .any(|pt| pt.moves.iter().any(|t| t.area > 0))
    }

    /// Every built-in variant with area moves: in random positions, the legal moves, each
    /// area mover's moves, captures on every enemy square and attacks on every square are
    /// the walker's, and so are the squares the attack planes mark.
    #[test]
    fn area_moves_are_what_the_walker_finds() {
        let mut checked = 0usize;
        for id in builtin_ids() {
            let v = load_variant(id).unwrap();
            if !has_area(&v) {
                continue;
            }
            let alt_variant = Arc::new(walked(&v));
            random_positions(id, 6, |pos, legal| {
                let mut alt: Position = pos.clone();
                alt.variant = alt_variant.clone();
                let mut walked_legal = alt.legal_moves();
                let mut ours = legal.to_vec();
                ours.sort_unstable();
                walked_legal.sort_unstable();
                assert_eq!(ours, walked_legal, "legal moves of {}", pos.to_text());
                for &from in v.geometry.squares() {
                    let p = pos.piece_at(from);
                    if !p.is_piece() || v.piece(p.kind()).moves[p.color().index()].area == 0 {
                        continue;
                    }
                    checked += 1;
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    pos.generate_kind_from(from, p, &mut a);
                    alt.generate_kind_from(from, p, &mut b);
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b, "moves from {from:?} in {}", pos.to_text());
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    pos.complex_reach(from, p, &mut a);
                    alt.complex_reach(from, p, &mut b);
                    for r in [&mut a, &mut b] {
                        r.sort_unstable();
                        r.dedup();
                    }
                    assert_eq!(a, b, "reach from {from:?} in {}", pos.to_text());
                    for &sq in v.geometry.squares() {
                        assert_eq!(
                            pos.complex_attacks(from, p, sq),
                            alt.complex_attacks(from, p, sq),
                            "attack from {from:?} on {sq:?} in {}",
                            pos.to_text()
                        );
                        if pos.piece_at(sq).is_color(p.color().opposite()) {
                            let (mut a, mut b) = (Vec::new(), Vec::new());
                            pos.generate_captures_on(from, p, sq, &mut a);
                            alt.generate_captures_on(from, p, sq, &mut b);
                            a.sort_unstable();
                            b.sort_unstable();
                            assert_eq!(a, b, "captures on {sq:?} in {}", pos.to_text());
                        }
                    }
                }
                for by in Color::ALL {
                    for &sq in v.geometry.squares() {
                        assert_eq!(pos.is_attacked(sq, by), alt.is_attacked(sq, by));
                    }
                }
            });
        }
        assert!(checked > 100, "only {checked} area movers checked");
    }
}

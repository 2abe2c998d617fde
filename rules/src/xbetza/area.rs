//! Area moves recognised among a table's paths, so that generation finds their squares by
//! set operations on the neighbourhood instead of walking each path.
//!
//! An area move (`KaK`, `KaKaaK`: the vice general's and fire demon's "up to three king
//! steps") is every sequence of two (or two and three) king steps through empty squares,
//! none straight back, ending on an empty square or an enemy's. As paths that is 56 two-step
//! and 392 three-step walks; they land on at most 48 squares, so the walker finds most of
//! them many times over and the move sink throws the repeats away. Where a table holds all
//! of these paths and nothing that differs from them only in part, they leave the walker's
//! tree and the table records the area's radius (`MoveTable::area`), which
//! `Position::area_landings` answers exactly.

use super::program::{Leg, MoveTable, Path};

/// Whether `leg` is one king step through or onto an empty square (`m`), and onto an enemy
/// too (`c`) when `last`.
fn king_step(leg: &Leg, last: bool) -> bool {
    let (x, y) = leg.step;
    leg.range == 1
        && (x, y) != (0, 0)
        && x.abs() <= 1
        && y.abs() <= 1
        && leg.m
        && leg.c == last
        && !leg.p
        && !leg.skip_first
        && !leg.must_jump
        && leg.between.is_empty()
        && leg.pass_below == 0
}

/// The steps of `path` if it is part of an area move: `n` king steps, never straight back.
fn area_steps(path: &Path) -> Option<Vec<(i8, i8)>> {
    let n = path.legs.len();
    let steps: Vec<(i8, i8)> = path.legs.iter().map(|l| l.step).collect();
    let all_king = path
        .legs
        .iter()
        .enumerate()
        .all(|(i, l)| king_step(l, i + 1 == n));
    let no_reversal = steps.windows(2).all(|w| w[1] != (-w[0].0, -w[0].1));
    (all_king && no_reversal && (2..=3).contains(&n)).then_some(steps)
}

/// The radius of the area move among `paths` (0, 2 or 3) and which paths belong to it. A
/// radius counts only when every path of it and of each shorter length is there.
fn find_area(paths: &[Path]) -> (u8, Vec<bool>) {
    let mut found = [std::collections::HashSet::new(), Default::default()];
    let steps: Vec<Option<Vec<(i8, i8)>>> = paths.iter().map(area_steps).collect();
    for s in steps.iter().flatten() {
        found[s.len() - 2].insert(s.clone());
    }
    // 8 first steps, then 7 ways on at each step.
    let radius = if found[0].len() == 8 * 7 && found[1].len() == 8 * 7 * 7 {
        3
    } else if found[0].len() == 8 * 7 {
        2
    } else {
        0
    };
    let member = steps
        .iter()
        .map(|s| s.as_ref().is_some_and(|s| s.len() <= radius as usize))
        .collect();
    (radius, member)
}

impl MoveTable {
    /// The last step of making a table: its area move taken out of the paths the walker
    /// runs, and the walker's tree built from the rest.
    pub(crate) fn finish(&mut self) {
        let (radius, member) = find_area(&self.paths);
        self.area = radius;
        let walked: Vec<bool> = member.iter().map(|m| !m).collect();
        self.build_tree(&walked);
    }
}

#[cfg(test)]
mod tests {
    use crate::color::Color;
    use crate::geometry::Geometry;
    use crate::xbetza::compile;

    /// The area's radius and how many root branches the walker's tree keeps.
    fn area_of(betza: &str) -> (u8, usize) {
        let g = Geometry::new(19, 19).unwrap();
        let t = compile(betza, &g, Color::White).unwrap();
        (t.area, t.tree.len())
    }

    #[test]
    fn area_moves_are_recognised_with_their_radius() {
        assert_eq!(area_of("KaKaaK"), (3, 0));
        assert_eq!(area_of("KaK"), (2, 0));
        // The fire demon: its back-steps (`mabK`, 8 first steps) and double captures (`caK`
        // first steps, 8 more) stay with the walker.
        assert_eq!(area_of("BsRKaKaaKmabKcavKcafmafKmafcavK"), (3, 16));
        assert_eq!(area_of("pafpafcBmcBcpBKaKaaKmabK").0, 3);
    }

    #[test]
    fn paths_short_of_an_area_stay_with_the_walker() {
        // The lion's second steps follow a capture or come straight back.
        assert_eq!(area_of("KNADcaKmcabK").0, 0);
        // Three steps without the two-step moves are not an area of radius 3.
        assert_eq!(area_of("KaaK").0, 0);
        assert_eq!(area_of("WB"), (0, 0));
    }
}

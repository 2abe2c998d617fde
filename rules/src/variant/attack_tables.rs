//! Reverse move tables: from a target square, where could an attacker stand?
//!
//! Built once per variant from the compiled moves, so that "is this square attacked" looks at a
//! few cells instead of generating the opponent's moves.

use crate::piece::Piece;
use crate::xbetza::{MoveTable, Path, Slide};

/// A set of piece codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PieceSet([u64; 4]);

impl PieceSet {
    /// Adds a piece code.
    pub fn insert(&mut self, p: Piece) {
        self.0[p.index() >> 6] |= 1 << (p.index() & 63);
    }

    /// Whether a piece code is in the set.
    #[inline]
    pub fn contains(&self, p: Piece) -> bool {
        self.0[p.index() >> 6] & (1 << (p.index() & 63)) != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }
}

/// One slide direction: the attackers that capture along it and how far they reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlideAttack {
    /// Mailbox offset of one step from the attacker towards the target.
    pub delta: i32,
    /// Reach of each piece code along this direction (0 = none).
    pub reach: Box<[u8; 256]>,
    /// Largest reach of any piece along this direction.
    pub max_reach: u8,
}

/// The reverse tables for attackers of one colour.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AttackTables {
    /// (offset from attacker to target, attackers leaping by it).
    pub leaps: Vec<(i32, PieceSet)>,
    /// Slide directions with their attackers.
    pub slides: Vec<SlideAttack>,
    /// Pieces with capturing moves not covered by `leaps` and `slides`; attack tests generate
    /// their moves.
    pub complex: PieceSet,
    /// `leaps` and `slides` seen from the attacker, indexed by piece code: one entry for each
    /// entry there that names the piece, so that one walk of a side's pieces counts, for
    /// every square, the entries by which the attack test would find it attacked.
    pub forward: Vec<ForwardAttacks>,
}

/// One piece code's entries of [`AttackTables::leaps`] and [`AttackTables::slides`], from the
/// attacker's side.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ForwardAttacks {
    /// Offsets from the attacker to the square it leaps to.
    pub leaps: Vec<i32>,
    /// Slide directions (one step from the attacker) and the piece's reach along each.
    pub slides: Vec<(i32, u8)>,
}

/// A capture of a path: where it lands relative to the piece, in board steps.
type Offset = (i32, i32);

impl AttackTables {
    /// Builds the tables for one colour from each kind's compiled moves and piece code.
    ///
    /// A piece is complex only where some path can capture where its leaps and slides do
    /// not: a lion's two-step captures land on squares its own leaps take unconditionally, and
    /// a lame leap straight ahead (`nD`) with a step or slide up to it captures exactly as a
    /// slide of the leap's length (entered here as one). Attack tests then walk the paths of
    /// few pieces (half of the complex kinds of Gyaku-sama Shogi's setup drop out), while move
    /// generation still runs every path.
    pub fn build<'a>(pieces: impl Iterator<Item = (Piece, &'a MoveTable)>) -> AttackTables {
        let mut t = AttackTables::default();
        for (code, table) in pieces {
            let mut slides: Vec<Slide> = table.slides.iter().filter(|s| s.c).copied().collect();
            let mut uncovered = false;
            for path in &table.paths {
                match lame_slide(table, path) {
                    Some(s) => slides.push(s),
                    None => uncovered |= !captures_covered(table, path),
                }
            }
            if uncovered || table.universal.is_some_and(|u| u.1) {
                t.complex.insert(code);
            }
            for l in table.leaps.iter().filter(|l| l.c) {
                match t.leaps.iter_mut().find(|(d, _)| *d == l.delta) {
                    Some((_, set)) => set.insert(code),
                    None => {
                        let mut set = PieceSet::default();
                        set.insert(code);
                        t.leaps.push((l.delta, set));
                    }
                }
            }
            for s in &slides {
                let entry = match t.slides.iter_mut().position(|a| a.delta == s.delta) {
                    Some(i) => &mut t.slides[i],
                    None => {
                        t.slides.push(SlideAttack {
                            delta: s.delta,
                            reach: Box::new([0; 256]),
                            max_reach: 0,
                        });
                        t.slides.last_mut().expect("just pushed")
                    }
                };
                let r = &mut entry.reach[code.index()];
                *r = (*r).max(s.range);
                entry.max_reach = entry.max_reach.max(s.range);
            }
        }
        t.forward = (0..=u8::MAX)
            .map(Piece)
            .map(|code| ForwardAttacks {
                leaps: t
                    .leaps
                    .iter()
                    .filter(|l| l.1.contains(code))
                    .map(|l| l.0)
                    .collect(),
                slides: t
                    .slides
                    .iter()
                    .filter(|s| s.reach[code.index()] > 0)
                    .map(|s| (s.delta, s.reach[code.index()]))
                    .collect(),
            })
            .collect();
        t
    }
}

/// The slide a capturing lame leap straight along a line amounts to, where the piece also
/// takes on every square short of it along that line: a lame leap of `k` steps needs the
/// `k - 1` squares before it empty, and with them empty the leaps and slides of the piece take
/// on each of them, so it captures exactly where a slide of range `k` would.
fn lame_slide(table: &MoveTable, path: &Path) -> Option<Slide> {
    let [leg] = path.legs.as_slice() else {
        return None;
    };
    let (x, y) = (leg.step.0 as i32, leg.step.1 as i32);
    let k = x.abs().max(y.abs());
    let straight = x == 0 || y == 0 || x.abs() == y.abs();
    let lame = leg.range == 1 && !leg.must_jump && !leg.p && !leg.skip_first && leg.c;
    if !straight || k < 2 || !lame || leg.between.len() != (k - 1) as usize {
        return None;
    }
    let unit = (x / k, y / k);
    let takes_at = |j: i32| {
        leap_takes(table, (unit.0 * j, unit.1 * j)) || slide_reach(table, unit) as i32 >= j
    };
    (1..k).all(takes_at).then_some(Slide {
        step: (unit.0 as i8, unit.1 as i8),
        delta: leg.delta / k,
        range: k as u8,
        m: leg.m,
        c: true,
    })
}

/// Whether every capture `path` can make (its kills and its end) lands where a leap of the
/// same piece captures whatever stands between, or on the first square of one of its capturing
/// slides: then the attack tests' leaps and slides already find whatever the path attacks.
/// Paths with a sliding leg, or capturing on a square none of those reach, are not covered.
fn captures_covered(table: &MoveTable, path: &Path) -> bool {
    let certain = |at: Offset| leap_takes(table, at) || slide_reach(table, at) >= 1;
    let mut at: Offset = (0, 0);
    for leg in &path.legs {
        if leg.range != 1 || leg.skip_first || leg.pass_below != 0 {
            return false;
        }
        at = (at.0 + leg.step.0 as i32, at.1 + leg.step.1 as i32);
        if leg.c && at != (0, 0) && !certain(at) {
            return false;
        }
    }
    true
}

/// Whether a capturing leap of the table lands `at` from the piece.
fn leap_takes(table: &MoveTable, at: Offset) -> bool {
    table
        .leaps
        .iter()
        .any(|l| l.c && (l.step.0 as i32, l.step.1 as i32) == at)
}

/// How far the table's capturing slides along the unit step `unit` reach (0: none; any other
/// offset is no slide's step).
fn slide_reach(table: &MoveTable, unit: Offset) -> u8 {
    table
        .slides
        .iter()
        .filter(|s| s.c && (s.step.0 as i32, s.step.1 as i32) == unit)
        .map(|s| s.range)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;
    use crate::geometry::Geometry;
    use crate::piece::PieceKind;
    use crate::xbetza::compile;

    /// The tables of one piece kind of Black with moves `betza` on a 13x13 board.
    fn tables(betza: &str) -> (AttackTables, Piece, Geometry) {
        let g = Geometry::new(13, 13).unwrap();
        let table = compile(betza, &g, Color::Black).unwrap();
        let p = Piece::new(PieceKind(0), Color::Black);
        (AttackTables::build(std::iter::once((p, &table))), p, g)
    }

    #[test]
    fn paths_capturing_only_where_leaps_take_leave_the_piece_plain() {
        // The lion's double captures land within its own leaps' 5x5 square.
        for betza in ["KNADcaKmcabK", "QADcaFmcabF", "WfDfcavWfabW"] {
            let (t, p, _) = tables(betza);
            assert!(!t.complex.contains(p), "{betza}");
        }
        // Two king steps reach the knight's squares, which no leap takes; hoppers, bent and
        // jumping slides capture beyond the first square of their line.
        for betza in [
            "KcaKmcabK",
            "QmcaKmcabK",
            "caKmcabK",
            "pafpafcB",
            "RasR",
            "jR",
        ] {
            let (t, p, _) = tables(betza);
            assert!(t.complex.contains(p), "{betza}");
        }
    }

    #[test]
    fn a_lame_leap_with_the_step_before_it_is_a_slide() {
        let (t, p, g) = tables("WsRfnD");
        assert!(!t.complex.contains(p));
        let forward = g.delta(0, 1);
        let reach = |delta| {
            t.slides
                .iter()
                .find(|s| s.delta == delta)
                .map_or(0, |s| s.reach[p.index()])
        };
        assert_eq!(reach(forward), 2);
        assert_eq!(reach(-forward), 0, "the W step backwards stays a leap");
        assert_eq!(reach(g.delta(1, 0)), u8::MAX);
        // Without the step before it, or obliquely, the lame leap stays a path.
        for betza in ["nD", "FnD", "nN", "WnH"] {
            let (t, p, _) = tables(betza);
            assert!(t.complex.contains(p), "{betza}");
        }
        // A slide up to it does as well as the step.
        let (t, p, _) = tables("vRnD");
        assert!(t.complex.contains(p), "sideways nD has no step before it");
        let (t, p, _) = tables("RnD");
        assert!(!t.complex.contains(p));
    }
}

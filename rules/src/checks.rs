//! Who gives check: a side's royal pieces that are attacked and the enemy pieces attacking
//! them, for boards that mark a check. The rules themselves only ask whether a side is in
//! check ([`Position::in_check`]); this names the squares, by the same tests.

use crate::color::Color;
use crate::position::Position;
use crate::square::Square;

/// A side's pieces in check and the enemy pieces giving it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Checks {
    /// The side's royal pieces that are attacked (in Ko Shogi: its sole objective piece).
    pub targets: Vec<Square>,
    /// The enemy pieces that could capture one of them (each once).
    pub checkers: Vec<Square>,
}

impl Checks {
    /// Whether nothing gives check.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }
}

impl Position {
    /// The squares of `color`'s royal pieces in check and of the pieces giving check; empty
    /// exactly when [`Position::in_check`] is false.
    pub fn checks(&self, color: Color) -> Checks {
        if let Some(ko) = &self.variant.ko {
            return ko
                .checks(self, color, false)
                .map(|(target, checkers)| Checks {
                    targets: vec![target],
                    checkers,
                })
                .unwrap_or_default();
        }
        let by = color.opposite();
        let mut out = Checks::default();
        let mut attackers = Vec::new();
        for &sq in self.variant.geometry.squares() {
            let p = self.piece_at(sq);
            if !(p.is_piece() && p.is_color(color) && self.variant.piece(p.kind()).royal) {
                continue;
            }
            self.attackers_of(sq, by, &mut attackers);
            if attackers.is_empty() {
                continue;
            }
            out.targets.push(sq);
            for &a in &attackers {
                if !out.checkers.contains(&a) {
                    out.checkers.push(a);
                }
            }
        }
        out
    }
}

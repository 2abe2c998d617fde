//! Reverse move tables: from a target square, where could an attacker stand?
//!
//! Built once per variant from the compiled moves, so that "is this square attacked" looks at a
//! few cells instead of generating the opponent's moves.

use crate::piece::Piece;
use crate::xbetza::MoveTable;

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
}

impl AttackTables {
    /// Builds the tables for one colour from each kind's compiled moves and piece code.
    pub fn build<'a>(pieces: impl Iterator<Item = (Piece, &'a MoveTable)>) -> AttackTables {
        let mut t = AttackTables::default();
        for (code, table) in pieces {
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
            for s in table.slides.iter().filter(|s| s.c) {
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
            let complex_capture = table.paths.iter().any(|p| p.legs.iter().any(|l| l.c))
                || table.universal.is_some_and(|u| u.1);
            if complex_capture {
                t.complex.insert(code);
            }
        }
        t
    }
}

//! Attack detection: whether a square could be captured on by a side's next move.

use crate::color::Color;
use crate::piece::{Piece, PieceKind};
use crate::position::Position;
use crate::square::Square;

impl Position {
    /// Whether a piece of `by` could capture on `sq` if `by` were to move.
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        let t = &self.variant.attacks[by.index()];
        let at = sq.0 as i32;
        for (d, set) in &t.leaps {
            if set.contains(self.board[(at - d) as usize]) {
                return true;
            }
        }
        for s in &t.slides {
            let mut cur = at;
            for k in 1..=s.max_reach {
                cur -= s.delta;
                let p = self.board[cur as usize];
                if p.is_empty() {
                    continue;
                }
                if !p.is_wall() && s.reach[p.index()] >= k {
                    return true;
                }
                break;
            }
        }
        if !t.complex.is_empty() {
            return self.complex_attack(sq, by, |p| t.complex.contains(p));
        }
        false
    }

    /// Walks the paths of `by`'s pieces selected by `select` that can reach `sq`, looking for
    /// a capture on it.
    fn complex_attack(&self, sq: Square, by: Color, select: impl Fn(Piece) -> bool) -> bool {
        let g = &self.variant.geometry;
        let (tf, tr) = (g.file_of(sq) as i32, g.rank_of(sq) as i32);
        for &from in g.squares() {
            let p = self.board[from.index()];
            if p.is_color(by) && select(p) {
                let reach = &self.variant.piece(p.kind()).moves[by.index()].reach;
                let (df, dr) = (tf - g.file_of(from) as i32, tr - g.rank_of(from) as i32);
                if reach.may_reach(df, dr) && self.complex_attacks(from, p, sq) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether a piece of `kind` and `color` standing on `from` would attack `target` (used for
    /// drops that must give check). Assumes the rest of the board as it is.
    pub fn piece_attacks(
        &self,
        kind: PieceKind,
        color: Color,
        from: Square,
        target: Square,
    ) -> bool {
        let table = &self.variant.piece(kind).moves[color.index()];
        let d = target.0 as i32 - from.0 as i32;
        if table.leaps.iter().any(|l| l.c && l.delta == d) {
            return true;
        }
        for s in table.slides.iter().filter(|s| s.c) {
            let mut cur = from.0 as i32;
            for _ in 0..s.range {
                cur += s.delta;
                if cur == target.0 as i32 {
                    return true;
                }
                if !self.board[cur as usize].is_empty() {
                    break;
                }
            }
        }
        !table.is_simple() && self.complex_attacks(from, Piece::new(kind, color), target)
    }
}

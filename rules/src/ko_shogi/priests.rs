//! The priest family (TP, SM, FG, IL): the priest move, the double priest move (§3.4.5), the
//! priest on whom drum and banner depend, and the fog–light reversion (§8.5).

use super::moves::Dedup;
use super::{on_line_within, KoShogi};
use crate::color::Color;
use crate::mv::Move;
use crate::piece::Piece;
use crate::position::Position;
use crate::square::Square;

/// The squares a priest move's board differs from the position in: the origin (empty, the
/// priest has left it), the first landing (left again by a second move) and a piece removed by
/// the first move (§3.4.5: a square emptied earlier in the move counts as empty).
#[derive(Clone, Copy)]
struct Emptied([Option<Square>; 3]);

impl Emptied {
    fn at(&self, pos: &Position, sq: Square) -> Piece {
        if self.0.contains(&Some(sq)) {
            Piece::EMPTY
        } else {
            pos.board[sq.index()]
        }
    }
}

impl KoShogi {
    /// Whether `color`'s priest lives: it has a TP or an FG on the board (§8.5).
    #[inline]
    pub(crate) fn priest_lives(&self, pos: &Position, color: Color) -> bool {
        self.has(pos, self.k.tp, color) || self.has(pos, self.k.fg, color)
    }

    /// The moves of a priest on `from`: one priest move (a jump of its table to an empty
    /// square, then optionally a shot at an adjacent enemy; or a jump onto an enemy of the
    /// priest family, captured), and for FG and IL optionally a second one from the landing.
    pub(crate) fn priest_moves(
        &self,
        pos: &Position,
        from: Square,
        p: Piece,
        double: bool,
        out: &mut Vec<Move>,
    ) {
        let mut dedup = Dedup::new(out);
        let emptied = Emptied([Some(from), None, None]);
        self.priest_leg(
            pos,
            from,
            p,
            from,
            emptied,
            &[],
            0,
            None,
            double,
            &mut dedup,
            out,
        );
    }

    /// One priest move from `at`, after the kills `kills` (shots marked in `shots`, the first
    /// fired from `via`); `more`: a second priest move may follow.
    #[allow(clippy::too_many_arguments)]
    fn priest_leg(
        &self,
        pos: &Position,
        from: Square,
        p: Piece,
        at: Square,
        emptied: Emptied,
        kills: &[Square],
        shots: u8,
        via: Option<Square>,
        more: bool,
        dedup: &mut Dedup,
        out: &mut Vec<Move>,
    ) {
        let us = p.color();
        let jumps = &pos.variant.piece(p.kind()).moves[us.index()].leaps;
        let n = kills.len();
        let mut k = [Square(0); 2];
        k[..n].copy_from_slice(kills);
        for j in jumps {
            let t = at.offset(j.delta);
            let q = emptied.at(pos, t);
            if q.is_wall() || q.is_color(us) {
                continue;
            }
            if q.is_piece() {
                if !self.priest_family.contains(q.kind()) {
                    continue;
                }
                let mv = Move::with_shots(from, kills, shots, via, t);
                self.emit(pos, p, mv, dedup, out);
                if more {
                    k[n] = t;
                    let e = Emptied([Some(from), Some(t), None]);
                    self.priest_leg(pos, from, p, t, e, &k[..=n], shots, via, false, dedup, out);
                }
                continue;
            }
            let mv = Move::with_shots(from, kills, shots, via, t);
            self.emit(pos, p, mv, dedup, out);
            if more {
                let e = Emptied([Some(from), Some(t), None]);
                self.priest_leg(pos, from, p, t, e, kills, shots, via, false, dedup, out);
            }
            for &d in &self.neighbours {
                let a = t.offset(d);
                let qa = emptied.at(pos, a);
                if !qa.is_piece() || qa.color() == us {
                    continue;
                }
                k[n] = a;
                let mv = Move::with_shots(from, &k[..=n], shots | 1 << n, via, t);
                self.emit(pos, p, mv, dedup, out);
                if more {
                    let e = Emptied([Some(from), Some(t), Some(a)]);
                    let shots = shots | 1 << n;
                    self.priest_leg(
                        pos,
                        from,
                        p,
                        t,
                        e,
                        &k[..=n],
                        shots,
                        Some(t),
                        false,
                        dedup,
                        out,
                    );
                }
            }
        }
    }

    /// §8.5, fog and light: every FG on a line with an IL (either side) at most 5 steps away
    /// turns back into a TP, whatever stands between.
    pub(crate) fn fog_light_reversion(&self, pos: &mut Position) {
        let k = &self.k;
        let fogs = self.has(pos, k.fg, Color::Black) || self.has(pos, k.fg, Color::White);
        let lights = self.has(pos, k.il, Color::Black) || self.has(pos, k.il, Color::White);
        if !(fogs && lights) {
            return;
        }
        let g = &pos.variant.geometry;
        let mut il = Vec::new();
        let mut fg = Vec::new();
        for &sq in g.squares() {
            let q = pos.board[sq.index()];
            if q.is_piece() && q.kind() == k.il {
                il.push(sq);
            } else if q.is_piece() && q.kind() == k.fg {
                fg.push((sq, q.color()));
            }
        }
        fg.retain(|&(sq, _)| il.iter().any(|&l| on_line_within(g, sq, l, 5)));
        for (sq, c) in fg {
            pos.set_square(sq, Piece::new(k.tp, c));
        }
    }

    /// §8.5: a side whose priest is dead has its TC and FW turned back into DR and BN.
    pub(crate) fn priest_death_reversion(&self, pos: &mut Position) {
        let k = &self.k;
        for c in Color::ALL {
            if self.priest_lives(pos, c) || !(self.has(pos, k.tc, c) || self.has(pos, k.fw, c)) {
                continue;
            }
            let (tc, fw) = (Piece::new(k.tc, c), Piece::new(k.fw, c));
            for i in 0..pos.variant.geometry.num_squares() {
                let sq = pos.variant.geometry.squares()[i];
                let q = pos.board[sq.index()];
                if q == tc {
                    pos.set_square(sq, Piece::new(k.dr, c));
                } else if q == fw {
                    pos.set_square(sq, Piece::new(k.bn, c));
                }
            }
        }
    }
}

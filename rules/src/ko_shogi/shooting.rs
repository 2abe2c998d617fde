//! Shooting (§5): a shooter that has made a non-capturing move of its table may remove one
//! enemy (two, one after the other, for FC and CG) from where it landed, without moving.
//!
//! Clear-line shooters see only the nearest piece of each line, over-shooters (CN, GC) every
//! enemy within range; each shooter has kinds it may not shoot; none shoots from within box
//! distance 5 of an enemy five-li fog. The second shot of FC and CG is chosen with the first
//! victim gone, so it may hit the piece behind it. The priests' shots are with the priests.

use super::moves::{Context, Dedup};
use super::{box_distance, KoShogi, Shooter};
use crate::mv::Move;
use crate::piece::Piece;
use crate::position::Position;
use crate::square::Square;

/// The eight line directions as (files, ranks).
const LINES: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Most targets of one shot: an over-shooter sees up to its range on each of 8 lines.
const MAX_TARGETS: usize = 8 * 7;

impl KoShogi {
    /// Appends the shooting moves of the shooter `p` on `from`: for each square its table
    /// reaches without capturing, every set of shots it may fire from there. Its table's
    /// moves are `out[start..]`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn shots(
        &self,
        pos: &Position,
        ctx: &Context,
        from: Square,
        p: Piece,
        s: &Shooter,
        start: usize,
        out: &mut Vec<Move>,
    ) {
        let table = &pos.variant.piece(p.kind()).moves[p.color().index()];
        if !table.may_repeat {
            // A table that cannot give a move twice gives each square it reaches without
            // capturing once, in the order of its entries (twice in a row where the
            // promotion is open): those moves' ends are where it lands, in the order the
            // walk of its entries below finds them.
            let end = out.len();
            let mut last = None;
            for i in start..end {
                let m = out[i];
                let to = m.to();
                if m.has_kills() || !pos.board[to.index()].is_empty() || last == Some(to) {
                    continue;
                }
                last = Some(to);
                self.shots_from(pos, ctx, from, to, p, s, out);
            }
            return;
        }
        let f = from.0 as i32;
        for l in table.leaps.iter().filter(|l| l.m) {
            let t = f + l.delta;
            if pos.board[t as usize].is_empty() {
                self.shots_from(pos, ctx, from, Square(t as u16), p, s, out);
            }
        }
        for sl in table.slides.iter().filter(|sl| sl.m) {
            let mut t = f;
            for _ in 0..sl.range {
                t += sl.delta;
                if !pos.board[t as usize].is_empty() {
                    break;
                }
                self.shots_from(pos, ctx, from, Square(t as u16), p, s, out);
            }
        }
    }

    /// The shooting moves of a shooter that has moved from `from` to the empty square `at`.
    #[allow(clippy::too_many_arguments)]
    fn shots_from(
        &self,
        pos: &Position,
        ctx: &Context,
        from: Square,
        at: Square,
        p: Piece,
        s: &Shooter,
        out: &mut Vec<Move>,
    ) {
        let g = &pos.variant.geometry;
        if ctx
            .enemy_fogs
            .iter()
            .any(|&fog| box_distance(g, at, fog) <= 5)
        {
            return;
        }
        let mut first = [Square(0); MAX_TARGETS];
        let n = self.targets(pos, from, at, p, s, None, &mut first);
        if n == 0 {
            return;
        }
        let mut dedup = Dedup::new(out);
        for &t1 in &first[..n] {
            let mv = Move::with_shots(from, &[t1], 1, None, at);
            self.add_move(pos, p, mv, out);
        }
        if s.shots < 2 {
            return;
        }
        // Pairs, each once whatever the order it was found in.
        for &t1 in &first[..n] {
            let mut second = [Square(0); MAX_TARGETS];
            let m = self.targets(pos, from, at, p, s, Some(t1), &mut second);
            for &t2 in &second[..m] {
                let mv = Move::with_shots(from, &[t1, t2], 3, None, at);
                self.emit(pos, p, mv, &mut dedup, out);
            }
        }
    }

    /// The targets of one shot of `p` fired from `at` (§5.2), its origin `from` counting as
    /// empty, and `removed` (an earlier shot's victim) too. Writes them to `found`, returns
    /// their number.
    #[allow(clippy::too_many_arguments)]
    fn targets(
        &self,
        pos: &Position,
        from: Square,
        at: Square,
        p: Piece,
        s: &Shooter,
        removed: Option<Square>,
        found: &mut [Square; MAX_TARGETS],
    ) -> usize {
        let g = &pos.variant.geometry;
        let us = p.color();
        let mut n = 0;
        for (df, dr) in LINES {
            let d = g.delta(df, dr);
            let mut t = at;
            for _ in 0..s.range {
                t = t.offset(d);
                let q = pos.board[t.index()];
                if q.is_wall() {
                    break;
                }
                if q.is_empty() || t == from || Some(t) == removed {
                    continue;
                }
                if q.color() != us && !s.immune.contains(q.kind()) && n < found.len() {
                    found[n] = t;
                    n += 1;
                }
                if !s.over {
                    break;
                }
            }
        }
        n
    }
}

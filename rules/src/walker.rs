//! The general walker for compiled multi-leg, hopping, lame, jumping and universal moves.
//!
//! The origin counts as empty for the whole move (a piece may step out and come back); squares
//! captured on earlier legs keep their victims until the move ends, and a final leg ending on
//! such a square is a capture there (and that square is then not listed as a kill).

use crate::mv::{Move, MAX_KILLS};
use crate::piece::Piece;
use crate::position::Position;
use crate::square::Square;
use crate::xbetza::{Leg, Path};

/// Walk state shared by the legs of one path.
struct Walk<'a> {
    pos: &'a Position,
    from: Square,
    piece: Piece,
    kills: [Square; MAX_KILLS],
    nkills: usize,
}

impl Walk<'_> {
    #[inline]
    fn at(&self, sq: i32) -> Piece {
        if sq == self.from.0 as i32 {
            Piece::EMPTY
        } else {
            self.pos.board[sq as usize]
        }
    }

    #[inline]
    fn is_enemy(&self, q: Piece) -> bool {
        q.is_piece() && q.color() != self.piece.color()
    }

    fn emit(&self, to: i32, out: &mut Vec<Move>) {
        let to = Square(to as u16);
        let mut kills = [Square(0); MAX_KILLS];
        let mut n = 0;
        for &k in &self.kills[..self.nkills] {
            if k != to && !kills[..n].contains(&k) {
                kills[n] = k;
                n += 1;
            }
        }
        self.pos.add_board_move(
            self.piece,
            Move::with_kills(self.from, &kills[..n], to),
            out,
        );
    }

    /// Continues with leg `i` from `cur`.
    fn leg(&mut self, path: &Path, i: usize, cur: i32, out: &mut Vec<Move>) {
        let leg = &path.legs[i];
        let last = i + 1 == path.legs.len();
        if leg.range == 1 && !leg.skip_first {
            self.leap(path, i, leg, cur, last, out);
        } else {
            self.slide(path, i, leg, cur, last, out);
        }
    }

    fn leap(
        &mut self,
        path: &Path,
        i: usize,
        leg: &Leg,
        cur: i32,
        last: bool,
        out: &mut Vec<Move>,
    ) {
        if !leg.between.is_empty() {
            let occupied = leg
                .between
                .iter()
                .filter(|&&d| !self.at(cur + d).is_empty())
                .count();
            if leg.must_jump && occupied == 0 {
                return;
            }
            if !leg.must_jump && occupied > 0 {
                return;
            }
        }
        let t = cur + leg.delta;
        let q = self.at(t);
        if q.is_wall() {
            return;
        }
        if last {
            if (q.is_empty() && leg.m) || (leg.c && self.is_enemy(q)) || (self.killed(t) && leg.c) {
                self.emit(t, out);
            }
            return;
        }
        self.through(path, i, leg, t, q, out);
    }

    fn slide(
        &mut self,
        path: &Path,
        i: usize,
        leg: &Leg,
        cur: i32,
        last: bool,
        out: &mut Vec<Move>,
    ) {
        let mut t = cur;
        let mut screened = false;
        for k in 0..leg.range {
            t += leg.delta;
            let q = self.at(t);
            if q.is_wall() {
                return;
            }
            if k == 0 && leg.skip_first {
                continue;
            }
            if !last {
                if q.is_empty() {
                    if leg.m {
                        self.leg(path, i + 1, t, out);
                    }
                    continue;
                }
                self.through(path, i, leg, t, q, out);
                return;
            }
            if leg.p && !screened {
                if !q.is_empty() {
                    screened = true;
                }
                continue;
            }
            if q.is_empty() {
                if leg.m {
                    self.emit(t, out);
                }
                continue;
            }
            if leg.c && (self.is_enemy(q) || self.killed(t)) {
                self.emit(t, out);
            }
            return;
        }
    }

    /// A non-final leg ends on `t` holding `q`: pass through it if its modality allows.
    fn through(&mut self, path: &Path, i: usize, leg: &Leg, t: i32, q: Piece, out: &mut Vec<Move>) {
        if q.is_empty() {
            if leg.m {
                self.leg(path, i + 1, t, out);
            }
            return;
        }
        if leg.c && self.is_enemy(q) && !self.killed(t) && self.nkills < MAX_KILLS {
            self.kills[self.nkills] = Square(t as u16);
            self.nkills += 1;
            self.leg(path, i + 1, t, out);
            self.nkills -= 1;
        }
        if leg.p {
            self.leg(path, i + 1, t, out);
        }
    }

    #[inline]
    fn killed(&self, t: i32) -> bool {
        self.kills[..self.nkills].contains(&Square(t as u16))
    }
}

impl Position {
    /// Appends the moves of `p` on `from` that its tables' paths and universal leap give.
    pub(crate) fn generate_piece_complex(&self, from: Square, p: Piece, out: &mut Vec<Move>) {
        let table = &self.variant.piece(p.kind()).moves[p.color().index()];
        let mut walk = Walk {
            pos: self,
            from,
            piece: p,
            kills: [Square(0); MAX_KILLS],
            nkills: 0,
        };
        for path in &table.paths {
            walk.leg(path, 0, from.0 as i32, out);
        }
        if let Some((m, c)) = table.universal {
            for &t in self.variant.geometry.squares() {
                let q = self.board[t.index()];
                if t != from && ((q.is_empty() && m) || (c && walk.is_enemy(q))) {
                    self.add_board_move(p, Move::new(from, t), out);
                }
            }
        }
    }
}

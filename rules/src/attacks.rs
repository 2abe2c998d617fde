//! Attack detection: whether a square could be captured on by a side's next move.

use crate::board_scan::Side;
use crate::color::Color;
use crate::piece::{Piece, PieceKind};
use crate::position::Position;
use crate::square::Square;

impl Position {
    /// Whether a piece of `by` could capture on `sq` if `by` were to move (or burn it there:
    /// see [`crate::burning`]).
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.is_attacked_given(sq, by, None)
    }

    /// The squares of `by`'s pieces whose paths the reverse tables cannot follow (bent,
    /// multi-leg, hopping moves): a caller that asks many attack questions of one position
    /// lists them once and passes them to [`Position::is_attacked_given`].
    pub fn complex_attacker_squares(&self, by: Color) -> Vec<Square> {
        let t = &self.variant.attacks[by.index()];
        if t.complex.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        self.for_each_piece(Side::Of(by), |sq, p| {
            if t.complex.contains(p) {
                out.push(sq);
            }
        });
        out
    }

    /// [`Position::is_attacked`], with `by`'s complex pieces given (squares that no longer
    /// hold one are skipped) instead of looked for on the whole board.
    pub fn is_attacked_given(&self, sq: Square, by: Color, complex: Option<&[Square]>) -> bool {
        if self.is_attacked_simple(sq, by) {
            return true;
        }
        let t = &self.variant.attacks[by.index()];
        if !t.complex.is_empty() {
            let found = match complex {
                Some(list) => self.is_attacked_by_complex(sq, by, list),
                None => self.complex_attack(sq, by, |p| t.complex.contains(p)),
            };
            if found {
                return true;
            }
        }
        // Burns last: they generate the burners' moves.
        self.variant.has_burners() && self.burn_attacked(sq, by)
    }

    /// Whether a complex piece of `by` standing on one of `complex` could capture on `sq`
    /// (squares that no longer hold one are skipped): the complex part of
    /// [`Position::is_attacked_given`].
    pub fn is_attacked_by_complex(&self, sq: Square, by: Color, complex: &[Square]) -> bool {
        let t = &self.variant.attacks[by.index()];
        complex.iter().any(|&from| {
            let p = self.board[from.index()];
            p.is_color(by) && t.complex.contains(p) && self.complex_attacks_from(from, p, sq)
        })
    }

    /// Whether a plain leap or slide of `by` could capture on `sq`: the reverse-table part of
    /// [`Position::is_attacked_given`], without the complex pieces and burns.
    #[inline]
    pub fn is_attacked_simple(&self, sq: Square, by: Color) -> bool {
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
        false
    }

    /// Calls `hit` with the index ([`Square::index`]) of each square that the piece `p` on
    /// `from` attacks by a leap or slide, once for each entry of the reverse tables by which
    /// [`Position::is_attacked_simple`] would find it there (a slide's only at the first
    /// occupied square it meets). Summed over a side's pieces, an occupied square's count is
    /// positive exactly where that test says yes; the material estimate counts once per
    /// position instead of testing each piece again after each capture.
    #[inline]
    pub(crate) fn simple_attacks_from(&self, from: Square, p: Piece, mut hit: impl FnMut(usize)) {
        let f = &self.variant.attacks[p.color().index()].forward[p.index()];
        let at = from.0 as i32;
        for &d in &f.leaps {
            let to = (at + d) as usize;
            if !self.board[to].is_wall() {
                hit(to);
            }
        }
        for &(delta, reach) in &f.slides {
            let mut cur = at;
            for _ in 0..reach {
                cur += delta;
                let q = self.board[cur as usize];
                if q.is_empty() {
                    continue;
                }
                if !q.is_wall() {
                    hit(cur as usize);
                }
                break;
            }
        }
    }

    /// Calls `hit(attacker, beyond)` for each slide of `by` that passes over the empty square
    /// `sq`, once per entry of the reverse tables as [`Position::simple_attacks_from`] counts
    /// them: the sliding piece's square, and the index of the square its slide attacks beyond
    /// `sq` (the first occupied one within its reach), if any. A piece that lands on `sq`
    /// stops these slides there: in [`Position::simple_attacks_from`]'s counts, each moves
    /// from `beyond` to `sq`.
    pub(crate) fn slides_over(
        &self,
        sq: Square,
        by: Color,
        mut hit: impl FnMut(Square, Option<usize>),
    ) {
        let t = &self.variant.attacks[by.index()];
        let at = sq.0 as i32;
        for s in &t.slides {
            // The first piece behind `sq`, if its slide reaches `sq`.
            let (mut cur, mut k) = (at, 0u8);
            let reach = loop {
                if k == s.max_reach {
                    break 0;
                }
                k += 1;
                cur -= s.delta;
                let p = self.board[cur as usize];
                if p.is_empty() {
                    continue;
                }
                let r = if p.is_wall() { 0 } else { s.reach[p.index()] };
                break if r >= k { r } else { 0 };
            };
            if reach == 0 {
                continue;
            }
            let attacker = Square(cur as u16);
            let mut beyond = None;
            let mut cur = at;
            for _ in k..reach {
                cur += s.delta;
                let q = self.board[cur as usize];
                if q.is_empty() {
                    continue;
                }
                if !q.is_wall() {
                    beyond = Some(cur as usize);
                }
                break;
            }
            hit(attacker, beyond);
        }
    }

    /// Sets `marks[sq]` (indexed by [`Square::index`]) for every square that a complex piece
    /// of `by` standing on one of `complex` could capture on, by one walk of each piece's
    /// paths: the complex part of [`Position::is_attacked_given`] for every square at once,
    /// for callers that ask it of many squares of one position. Squares in `complex` that no
    /// longer hold such a piece are skipped; a few empty squares may be marked too.
    pub fn mark_complex_reach(
        &self,
        by: Color,
        complex: &[Square],
        marks: &mut [bool],
        scratch: &mut Vec<Square>,
    ) {
        let t = &self.variant.attacks[by.index()];
        for &from in complex {
            let p = self.board[from.index()];
            if p.is_color(by) && t.complex.contains(p) {
                scratch.clear();
                self.complex_reach(from, p, scratch);
                for sq in scratch.iter() {
                    marks[sq.index()] = true;
                }
            }
        }
    }

    /// Whether a slide of `by` attacks `target` through `opened`: `target` is the first
    /// occupied square beyond `opened` along a slide direction, and the first occupied square
    /// behind `opened` holds a piece of `by` whose slide in that direction reaches it. When
    /// `opened` has just been emptied, the squares where this holds are the only ones on which
    /// [`Position::is_attacked_simple`] can have changed from no to yes (leaps are not
    /// blocked, and a slide reaches a new square only through the opened one), and on each
    /// of them it now says yes. Asked per square rather than marked for all: the material
    /// estimate asks a few pieces after each capture, and most lie on no line through it.
    #[inline]
    pub fn slide_through_reaches(&self, opened: Square, target: Square, by: Color) -> bool {
        let (df, dr) = self.variant.geometry.steps_between(opened, target);
        let far = df.abs().max(dr.abs());
        // Most squares asked lie on no line through `opened`: answered here, without a call.
        far != 0
            && (df == 0 || dr == 0 || df.abs() == dr.abs())
            && self.slide_along_reaches(opened, target, by, (df / far, dr / far), far)
    }

    /// [`Position::slide_through_reaches`] for a `target` `far` steps of `(df, dr)` from
    /// `opened`.
    fn slide_along_reaches(
        &self,
        opened: Square,
        target: Square,
        by: Color,
        (df, dr): (i32, i32),
        far: i32,
    ) -> bool {
        let delta = self.variant.geometry.delta(df, dr);
        let o = opened.0 as i32;
        let q = self.board[target.index()];
        // `target` is occupied, and the first piece beyond `opened`.
        if q.is_empty()
            || q.is_wall()
            || !(1..far).all(|k| self.board[(o + k * delta) as usize].is_empty())
        {
            return false;
        }
        let t = &self.variant.attacks[by.index()];
        for s in t.slides.iter().filter(|s| s.delta == delta) {
            let max = s.max_reach as i32;
            if far >= max {
                continue;
            }
            // The attacker stands at least one step behind `opened`.
            let (mut behind, mut steps) = (o, far);
            while steps < max {
                behind -= delta;
                steps += 1;
                let p = self.board[behind as usize];
                if p.is_empty() {
                    continue;
                }
                if !p.is_wall() && s.reach[p.index()] as i32 >= steps {
                    return true;
                }
                break;
            }
        }
        false
    }

    /// Whether the complex piece `p` on `from` could capture on `sq` (its reach first).
    fn complex_attacks_from(&self, from: Square, p: Piece, sq: Square) -> bool {
        self.complex_may_reach(from, p, sq) && self.complex_attacks(from, p, sq)
    }

    /// Whether the paths of the complex piece `p` on `from` reach as far as `sq` at all (the
    /// bound of its table, no walk).
    fn complex_may_reach(&self, from: Square, p: Piece, sq: Square) -> bool {
        let reach = &self.variant.piece(p.kind()).moves[p.color().index()].reach;
        let (df, dr) = self.variant.geometry.steps_between(from, sq);
        reach.may_reach(df, dr)
    }

    /// The squares of `by`'s pieces that could capture on `sq`, by the same reverse tables as
    /// [`Position::is_attacked`] (pieces with bent or multi-leg paths are found by walking
    /// their paths). A square may be listed twice.
    pub fn attackers_of(&self, sq: Square, by: Color, out: &mut Vec<Square>) {
        self.attackers_given(sq, by, None, out)
    }

    /// [`Position::attackers_of`] with `by`'s complex pieces given, as
    /// [`Position::is_attacked_given`] takes them.
    pub fn attackers_given(
        &self,
        sq: Square,
        by: Color,
        complex: Option<&[Square]>,
        out: &mut Vec<Square>,
    ) {
        let all;
        let list = match complex {
            Some(l) => l,
            None if self.variant.attacks[by.index()].complex.is_empty() => &[],
            None => {
                all = self.complex_attacker_squares(by);
                &all
            }
        };
        self.attackers_among(sq, by, list, true, out);
    }

    /// The pieces of `by` whose moves may take on `sq`, for a caller that generates those
    /// moves next: the attackers by leaps and slides, as [`Position::attackers_given`] finds
    /// them, and every complex piece on `complex` whose paths reach that far, unwalked. The
    /// generator walks such a piece's paths towards `sq` anyway, so walking them here first
    /// would do the work twice. A square may be listed twice.
    pub(crate) fn capture_candidates(
        &self,
        sq: Square,
        by: Color,
        complex: &[Square],
        out: &mut Vec<Square>,
    ) {
        self.attackers_among(sq, by, complex, false, out);
    }

    /// Lists in `out` the pieces of `by` that take on `sq` by a leap or a slide (the reverse
    /// tables), then those of its complex pieces on `complex` whose reach allows it, their
    /// paths walked to confirm a capture when `walk` is set, then its burners.
    fn attackers_among(
        &self,
        sq: Square,
        by: Color,
        complex: &[Square],
        walk: bool,
        out: &mut Vec<Square>,
    ) {
        out.clear();
        let t = &self.variant.attacks[by.index()];
        let at = sq.0 as i32;
        for (d, set) in &t.leaps {
            let from = (at - d) as usize;
            if set.contains(self.board[from]) {
                out.push(Square(from as u16));
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
                    out.push(Square(cur as u16));
                }
                break;
            }
        }
        if !t.complex.is_empty() {
            for &from in complex {
                let p = self.board[from.index()];
                if p.is_color(by)
                    && t.complex.contains(p)
                    && self.complex_may_reach(from, p, sq)
                    && (!walk || self.complex_attacks(from, p, sq))
                {
                    out.push(from);
                }
            }
        }
        if self.variant.has_burners() {
            self.burn_attackers(sq, by, out);
        }
    }

    /// For every board square (dense index, as [`crate::Geometry::board_index`] numbers them),
    /// adds to `counts` how many pieces of `by` bear on it: could capture there if an enemy
    /// stood on it (an attack) or, on their own pieces, would recapture (a defence). The network
    /// sees tactics through these counts; a plain convolution cannot count sliders along a line.
    ///
    /// Leaps and slides count own-occupied squares as defended; paths run by the walker (bent,
    /// multi-leg and hopping moves) count only squares they can capture on as the board stands.
    /// In Ko Shogi a piece also bears on every enemy its shots, later captures or arrival burn
    /// could remove (from its generated moves); a burning piece ([`crate::burning`]) bears on
    /// every square next to a destination where it survives. Each piece counts once per
    /// square.
    pub fn add_attack_counts(&self, by: Color, counts: &mut [u8]) {
        let g = &self.variant.geometry;
        let ko = self.variant.ko.as_deref();
        let ko_ctx = ko.map(|k| k.context(self, by));
        let mut hits: Vec<Square> = Vec::with_capacity(64);
        let mut scratch = Vec::new();
        for &from in g.squares() {
            let p = self.board[from.index()];
            if !p.is_color(by) {
                continue;
            }
            hits.clear();
            let table = &self.variant.piece(p.kind()).moves[by.index()];
            let start = from.0 as i32;
            for l in table.leaps.iter().filter(|l| l.c) {
                if !self.board[(start + l.delta) as usize].is_wall() {
                    hits.push(Square((start + l.delta) as u16));
                }
            }
            for s in table.slides.iter().filter(|s| s.c) {
                let mut cur = start;
                for _ in 0..s.range {
                    cur += s.delta;
                    let q = self.board[cur as usize];
                    if q.is_wall() {
                        break;
                    }
                    hits.push(Square(cur as u16));
                    if !q.is_empty() {
                        break;
                    }
                }
            }
            if !table.is_simple() {
                self.complex_reach(from, p, &mut hits);
            }
            if self.is_burner(p) {
                self.burn_reach(from, p, &mut hits);
            }
            if let (Some(k), Some(ctx)) = (ko, &ko_ctx) {
                if k.has_special_threats(p) {
                    k.special_threats(self, ctx, from, p, &mut scratch, &mut hits);
                }
            }
            hits.sort_unstable();
            hits.dedup();
            for sq in &hits {
                if let Some(i) = g.board_index(*sq) {
                    counts[i] = counts[i].saturating_add(1);
                }
            }
        }
    }

    /// The squares of `color`'s pieces that the opponent's nets hold still (Ko Shogi's skyward
    /// and earthward nets); empty in other variants.
    pub fn immobilized(&self, color: Color) -> Vec<Square> {
        match self.variant.ko.as_deref() {
            Some(k) => k.immobilized(self, color),
            None => Vec::new(),
        }
    }

    /// The squares next to `color`'s poison flames, where a piece of the other side that ends
    /// its move burns (Ko Shogi); empty in other variants.
    pub fn burn_zone(&self, color: Color) -> Vec<Square> {
        match self.variant.ko.as_deref() {
            Some(k) => k.burn_zone(self, color),
            None => Vec::new(),
        }
    }

    /// Walks the paths of `by`'s pieces selected by `select` that can reach `sq`, looking for
    /// a capture on it.
    fn complex_attack(&self, sq: Square, by: Color, select: impl Fn(Piece) -> bool) -> bool {
        self.any_piece(Side::Of(by), |from, p| {
            select(p) && self.complex_attacks_from(from, p, sq)
        })
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
        // A slide reaches the target only along its own direction: the line is walked only
        // where the target lies on it within range (a wall between them is not empty).
        let f = from.0 as i32;
        for s in table.slides.iter().filter(|s| s.c) {
            let k = d / s.delta;
            if d % s.delta == 0
                && k > 0
                && k <= s.range as i32
                && (1..k).all(|i| self.board[(f + i * s.delta) as usize].is_empty())
            {
                return true;
            }
        }
        !table.is_simple() && self.complex_attacks(from, Piece::new(kind, color), target)
    }
}

#[cfg(test)]
mod tests {
    use crate::color::Color;
    use crate::piece::{Piece, PieceKind};
    use crate::square::Square;
    use crate::test_positions::{random_pieces, random_positions};

    /// `slide_through_reaches` says yes exactly where the material estimate's shortcut needs
    /// it: every square it names is attacked, and it names every occupied square that a piece
    /// on the emptied square would shield from all its attacks. Checked for every empty square of random
    /// positions of every built-in variant, against the plain attack test with a blocker put
    /// on the square.
    #[test]
    fn slides_through_an_emptied_square_are_found_exactly() {
        for id in crate::variant::builtin_ids() {
            let mut marked = 0usize;
            random_positions(id, 3, |pos, _| {
                let v = pos.variant().clone();
                for by in Color::ALL {
                    let blocker = Piece::new(PieceKind(0), by.opposite());
                    let mut blocked = pos.clone();
                    for &o in v.geometry.squares() {
                        if !pos.piece_at(o).is_empty() {
                            continue;
                        }
                        blocked.board[o.index()] = blocker;
                        for &x in v.geometry.squares() {
                            if pos.piece_at(x).is_empty() {
                                continue;
                            }
                            let now = pos.is_attacked_simple(x, by);
                            let shielded = now && !blocked.is_attacked_simple(x, by);
                            let m = pos.slide_through_reaches(o, x, by);
                            assert!(!m || now, "{id}: {x:?} marked through {o:?}, not attacked");
                            assert!(m || !shielded, "{id}: {x:?} not marked through {o:?}");
                            marked += m as usize;
                        }
                        blocked.board[o.index()] = Piece::EMPTY;
                    }
                }
            });
            assert!(marked > 100, "{id}: {marked} marked");
        }
    }

    /// The forward count of leaps and slides says what the attack test says: over random
    /// positions of every built-in variant, for both sides, an occupied square is attacked by
    /// a leap or slide exactly where the count over the side's pieces is positive, and the
    /// count is the number of the attack test's reverse entries that find an attacker there.
    #[test]
    fn counting_forward_agrees_with_the_attack_test() {
        for id in crate::variant::builtin_ids() {
            let mut attacked = 0usize;
            random_positions(id, 3, |pos, _| {
                let v = pos.variant().clone();
                for by in Color::ALL {
                    let mut counts = vec![0u32; pos.board.len()];
                    for &sq in v.geometry.squares() {
                        let p = pos.piece_at(sq);
                        if p.is_color(by) {
                            pos.simple_attacks_from(sq, p, |t| counts[t] += 1);
                        }
                    }
                    let t = &v.attacks[by.index()];
                    for &x in v.geometry.squares() {
                        if pos.piece_at(x).is_empty() {
                            continue;
                        }
                        let at = x.0 as i32;
                        let leaps = t
                            .leaps
                            .iter()
                            .filter(|(d, set)| set.contains(pos.board[(at - d) as usize]))
                            .count();
                        let slides = t
                            .slides
                            .iter()
                            .filter(|s| {
                                let mut cur = at;
                                for k in 1..=s.max_reach {
                                    cur -= s.delta;
                                    let p = pos.board[cur as usize];
                                    if !p.is_empty() {
                                        return !p.is_wall() && s.reach[p.index()] >= k;
                                    }
                                }
                                false
                            })
                            .count();
                        let n = counts[x.index()] as usize;
                        assert_eq!(n, leaps + slides, "{id}: {x:?} by {by:?}");
                        assert_eq!(n > 0, pos.is_attacked_simple(x, by), "{id}: {x:?}");
                        attacked += (n > 0) as usize;
                    }
                }
            });
            assert!(attacked > 100, "{id}: {attacked} attacked");
        }
    }

    /// The attack test and the attackers' list see exactly the captures the move generator
    /// gives (less those a capture matrix forbids), on every enemy piece, in every built-in
    /// variant whose moves remove pieces only on their own squares: the reverse tables answer
    /// for the pieces whose paths capture only where their leaps and slides already do
    /// (lions, lame leaps), and the walk of the rest skips only branches that cannot reach
    /// the square.
    #[test]
    fn the_attack_test_sees_exactly_the_generated_captures() {
        for id in crate::variant::builtin_ids() {
            let v = crate::load_variant(id).unwrap();
            if v.acts_away_from_moves() {
                continue;
            }
            let mut attacked = 0;
            random_positions(id, 6, |pos, _| {
                let cannot_capture = |attacker: Piece, victim: Piece| {
                    v.piece(attacker.kind())
                        .cannot_capture
                        .contains(victim.kind())
                };
                let by = pos.side_to_move();
                let mut moves = Vec::new();
                pos.generate_pseudo_legal(&mut moves);
                let mut out = Vec::new();
                for &sq in pos.variant().geometry.squares() {
                    if !pos.piece_at(sq).is_color(by.opposite()) {
                        continue;
                    }
                    let mut want: Vec<Square> = moves
                        .iter()
                        .filter(|m| m.to() == sq || m.kills().contains(&sq))
                        .map(|m| m.from())
                        .collect();
                    want.sort_unstable();
                    want.dedup();
                    pos.attackers_of(sq, by, &mut out);
                    out.sort_unstable();
                    out.dedup();
                    // The tables do not know a variant's capture matrix (`cannot_capture`):
                    // they list such attackers, and the moves never take.
                    let listed = out.len();
                    out.retain(|&a| !cannot_capture(pos.piece_at(a), pos.piece_at(sq)));
                    let text = pos.to_text();
                    assert_eq!(out, want, "{id}: attackers of {sq:?} in {text}");
                    assert_eq!(pos.is_attacked(sq, by), listed > 0, "{id} {text}");
                    attacked += usize::from(!want.is_empty());
                }
            });
            assert!(attacked > 100, "{id}: {attacked} attacked pieces");
        }
    }

    /// One walk of a complex piece's paths finds the same squares as asking the walker square
    /// by square (the attack test's question), in every built-in variant with such pieces.
    #[test]
    fn one_walk_reaches_the_squares_the_attack_test_finds_one_by_one() {
        for id in crate::variant::builtin_ids() {
            let mut compared = 0;
            random_pieces(id, 3, |pos, from, p| {
                let g = &pos.variant().geometry;
                let table = &pos.variant().piece(p.kind()).moves[p.color().index()];
                if table.is_simple() {
                    return;
                }
                let mut walked = Vec::new();
                pos.complex_reach(from, p, &mut walked);
                walked.sort_unstable();
                walked.dedup();
                let mut asked: Vec<_> = g
                    .squares()
                    .iter()
                    .copied()
                    .filter(|&to| {
                        let (df, dr) = g.steps_between(from, to);
                        to != from
                            && table.reach.may_reach(df, dr)
                            && pos.complex_attacks(from, p, to)
                    })
                    .collect();
                asked.sort_unstable();
                assert_eq!(walked, asked, "{id} {from:?} {}", pos.to_text());
                compared += 1;
            });
            let complex = crate::load_variant(id).unwrap().has_complex_pieces();
            assert!(
                compared > 50 || !complex,
                "{id}: {compared} pieces compared"
            );
        }
    }
}

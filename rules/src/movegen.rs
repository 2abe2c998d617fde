//! Pseudo-legal move generation: every move the compiled tables allow, with promotion choices,
//! and drops. Legality (self-check, move-count rules) is applied on top in [`crate::legal`].

use crate::board_scan::Side;
use crate::color::Color;
use crate::mv::{Move, Promotion};
use crate::piece::{Piece, PieceKind};
use crate::position::Position;
use crate::square::Square;
use crate::variant::PromotionRule;
use crate::walker::{CellSet, KillSet, MoveSink};
use crate::xbetza::MoveTable;

impl Position {
    /// Appends every pseudo-legal move of the side to move.
    pub fn generate_pseudo_legal(&self, out: &mut Vec<Move>) {
        self.generate_board_moves(out);
        self.generate_candidate_drops(None, out);
    }

    /// Whether the side to move's moves include drops from the hand: a variant with drops,
    /// other than Ko Shogi (whose rule module makes all its moves).
    pub(crate) fn drops_apply(&self) -> bool {
        self.variant.ko.is_none() && self.variant.rules.drops
    }

    /// Appends the drops that can be legal: with `blocks` (in check, the squares where a drop
    /// can end it: [`crate::legal::CheckState::blocks`]) only the drops onto them, otherwise
    /// every drop of the hand; none where drops do not apply.
    pub(crate) fn generate_candidate_drops(&self, blocks: Option<&[Square]>, out: &mut Vec<Move>) {
        if !self.drops_apply() {
            return;
        }
        match blocks {
            Some(squares) => self.generate_drops_onto(squares, out),
            None => self.generate_drops(out),
        }
    }

    /// Appends the pseudo-legal moves of the side to move's pieces on the board, without
    /// drops: all a capture search needs, at a fraction of the cost where hands are full.
    pub fn generate_board_moves(&self, out: &mut Vec<Move>) {
        self.generate_board(true, out);
    }

    /// The moves of [`Position::generate_board_moves`] that take a piece of the opponent, on
    /// their destination or on the way, in the same order: what a capture search looks at.
    /// A piece that moves by its table alone generates only its captures (a piece of leaps
    /// and slides looks only at the squares it could take on); Ko Shogi's other roles are
    /// generated in full and their captures kept. In the classical baseline's quiescence
    /// search the full generation was over a quarter of its time on Shoko Shogi.
    pub fn generate_board_captures(&self, out: &mut Vec<Move>) {
        self.generate_board(false, out);
    }

    /// The board moves of the side to move: with `quiet` all of them, without only the
    /// captures. Inlined, so that each caller's flag is a constant.
    #[inline(always)]
    fn generate_board(&self, quiet: bool, out: &mut Vec<Move>) {
        let us = self.side;
        if let Some(ko) = &self.variant.ko {
            return if quiet {
                ko.generate(self, us, out)
            } else {
                ko.generate_captures(self, us, out)
            };
        }
        self.for_each_piece(Side::Of(us), |from, p| {
            self.generate_kind_with(from, p, quiet, out)
        });
    }

    /// The moves of [`Position::generate_kind_from`] that take a piece of the opponent of
    /// `p`, in the same order.
    pub(crate) fn generate_kind_captures_from(&self, from: Square, p: Piece, out: &mut Vec<Move>) {
        self.generate_kind_with(from, p, false, out);
    }

    /// The moves of piece `p` on `from`: with `quiet` all of them, without only those that
    /// take an enemy piece (in the same order).
    #[inline(always)]
    fn generate_kind_with(&self, from: Square, p: Piece, quiet: bool, out: &mut Vec<Move>) {
        let table = &self.variant.piece(p.kind()).moves[p.color().index()];
        if table.may_repeat {
            return if quiet {
                self.generate_kind_from_dedup::<false>(from, p, out)
            } else {
                self.generate_kind_from_dedup::<true>(from, p, out)
            };
        }
        self.generate_plain_from(from, p, table, quiet, out);
    }

    /// Keeps, of the moves in `out` from `start` on, those that take a piece of the side not
    /// to move (on their destination or on the way), in order.
    pub(crate) fn keep_captures(&self, out: &mut Vec<Move>, start: usize) {
        let them = self.side.opposite();
        let mut kept = start;
        for i in start..out.len() {
            if self.takes_piece_of(them, out[i].to(), out[i].kills()) {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Whether a move ending on `to` with `kills` takes a piece of `them`: what the capture
    /// generator keeps.
    #[inline(always)]
    pub(crate) fn takes_piece_of(&self, them: Color, to: Square, kills: &[Square]) -> bool {
        self.board[to.index()].is_color(them)
            || kills.iter().any(|k| self.board[k.index()].is_color(them))
    }

    /// Appends the moves of piece `p` standing (or imagined) on `from`.
    pub(crate) fn generate_kind_from(&self, from: Square, p: Piece, out: &mut Vec<Move>) {
        self.generate_kind_with(from, p, true, out);
    }

    /// The moves of a piece of leaps and slides alone (a table that cannot give a move
    /// twice), in table order: with `quiet`, every move; without, only its captures (for
    /// [`Position::generate_board_captures`]). Inlined, so each caller's loops are its own.
    #[inline(always)]
    fn generate_plain_from(
        &self,
        from: Square,
        p: Piece,
        table: &MoveTable,
        quiet: bool,
        out: &mut Vec<Move>,
    ) {
        let them = p.color().opposite();
        let f = from.0 as i32;
        for l in &table.leaps {
            let t = (f + l.delta) as usize;
            let q = self.board[t];
            if (quiet && q.is_empty() && l.m) || (l.c && q.is_color(them)) {
                self.add_board_move(p, Move::new(from, Square(t as u16)), out);
            }
        }
        for s in &table.slides {
            let mut t = f;
            for _ in 0..s.range {
                t += s.delta;
                let q = self.board[t as usize];
                if q.is_empty() {
                    if quiet && s.m {
                        self.add_board_move(p, Move::new(from, Square(t as u16)), out);
                    }
                    continue;
                }
                if s.c && q.is_color(them) {
                    self.add_board_move(p, Move::new(from, Square(t as u16)), out);
                }
                break;
            }
        }
    }

    /// The moves of piece `p` on `from` that take the piece on `target` (as their last leg or
    /// on the way): exactly those of [`Position::generate_kind_from`] that do, found without
    /// walking the piece's other paths where its table has only leaps and slides. The
    /// material estimate asks this once per attacker of each piece it weighs, so the cost of
    /// a queen-like slider's whole move list was most of its time on large boards.
    pub(crate) fn generate_captures_on(
        &self,
        from: Square,
        p: Piece,
        target: Square,
        out: &mut Vec<Move>,
    ) {
        let start = out.len();
        if let Some(plain) = self.generate_plain_captures_on(from, p, target, out) {
            self.generate_path_captures_on(from, p, target, plain, start, out);
        }
    }

    /// The first part of [`Position::generate_captures_on`]: the capture of `target` by a
    /// leap or slide of `p` (its promotion choices), if any. `None` where there is no
    /// capture to make (`target` holds no enemy piece); else whether a plain capture was
    /// added. Callers that stop at the first capture good enough ask this alone first: the
    /// path walk of the second part costs many times more.
    #[inline]
    pub(crate) fn generate_plain_captures_on(
        &self,
        from: Square,
        p: Piece,
        target: Square,
        out: &mut Vec<Move>,
    ) -> Option<bool> {
        let table = &self.variant.piece(p.kind()).moves[p.color().index()];
        let q = self.board[target.index()];
        if !q.is_piece() || q.color() == p.color() {
            return None;
        }
        // A leap or slide gives the capture at most once, however many of its entries reach.
        let plain = self.plain_capture_reaches(table, from, target);
        if plain {
            self.add_board_move(p, Move::new(from, target), out);
        }
        Some(plain)
    }

    /// The second part of [`Position::generate_captures_on`]: the captures of `target` by
    /// the paths of a complex table, other than the plain capture (`plain`: whether
    /// [`Position::generate_plain_captures_on`] added one, from `start` of `out`).
    #[inline]
    pub(crate) fn generate_path_captures_on(
        &self,
        from: Square,
        p: Piece,
        target: Square,
        plain: bool,
        start: usize,
        out: &mut Vec<Move>,
    ) {
        let table = &self.variant.piece(p.kind()).moves[p.color().index()];
        if table.may_repeat && !table.is_simple() {
            // One walk of the paths keeps the moves that take `target`, told apart as
            // `generate_kind_from_dedup` tells them (the plain capture already counted).
            let mut seen = CellSet::new();
            if plain {
                seen.insert(target.index());
            }
            // Every move that takes `target` takes an enemy piece.
            let mut sink = MoveSink::<false> {
                piece: p,
                out,
                start,
                seen,
                killed: KillSet::new(),
            };
            self.generate_piece_complex_on(from, target, &mut sink);
        }
    }

    /// Whether a capturing leap or slide of `table`, from `from`, ends on `target` as the
    /// board stands (the squares between a slide's ends empty).
    fn plain_capture_reaches(&self, table: &MoveTable, from: Square, target: Square) -> bool {
        let f = from.0 as i32;
        let d = target.0 as i32 - f;
        table.leaps.iter().any(|l| l.c && l.delta == d)
            || table.slides.iter().any(|s| {
                let k = d / s.delta;
                s.c && d % s.delta == 0
                    && k > 0
                    && k <= s.range as i32
                    && (1..k).all(|i| self.board[(f + i * s.delta) as usize].is_empty())
            })
    }

    /// [`Position::generate_kind_from`] for tables whose entries can give the same move twice:
    /// each move is added once (a destination without kills is remembered in a cell set).
    /// With `CAPTURES_ONLY`, only the moves that take an enemy piece, in the same order: a move
    /// without kills to an empty square is quiet by whichever path it comes, so leaving
    /// them out changes none of the captures' deduplication. In the classical baseline's
    /// quiescence on Gyaku-sama Shogi, generating every move and dropping the quiet ones
    /// spent a tenth of its time on moves it threw away.
    fn generate_kind_from_dedup<const CAPTURES_ONLY: bool>(
        &self,
        from: Square,
        p: Piece,
        out: &mut Vec<Move>,
    ) {
        let quiet = !CAPTURES_ONLY;
        let table = &self.variant.piece(p.kind()).moves[p.color().index()];
        let us = p.color();
        let f = from.0 as i32;
        let start = out.len();
        let mut sink = MoveSink::<CAPTURES_ONLY> {
            piece: p,
            out,
            start,
            seen: CellSet::new(),
            killed: KillSet::new(),
        };
        for l in &table.leaps {
            let t = (f + l.delta) as usize;
            let q = self.board[t];
            if ((q.is_empty() && l.m && quiet) || (l.c && q.is_piece() && q.color() != us))
                && sink.seen.insert(t)
            {
                self.add_board_move(p, Move::new(from, Square(t as u16)), sink.out);
            }
        }
        for s in &table.slides {
            let mut t = f;
            for _ in 0..s.range {
                t += s.delta;
                let q = self.board[t as usize];
                if q.is_empty() {
                    if s.m && quiet && sink.seen.insert(t as usize) {
                        self.add_board_move(p, Move::new(from, Square(t as u16)), sink.out);
                    }
                    continue;
                }
                if s.c && q.is_piece() && q.color() != us && sink.seen.insert(t as usize) {
                    self.add_board_move(p, Move::new(from, Square(t as u16)), sink.out);
                }
                break;
            }
        }
        if !table.is_simple() {
            self.generate_piece_complex(from, &mut sink);
        }
    }

    /// Adds a board move with its promotion choices.
    ///
    /// Always inlined: a `Move` is 20 bytes, passed to a call in memory, and read back
    /// there with wider loads than the caller's stores wrote it with; the stall on that
    /// read was half this function's time in a profile of Shoko Shogi's search. Inlined,
    /// the move stays in registers until it is pushed.
    #[inline(always)]
    pub(crate) fn add_board_move(&self, p: Piece, mv: Move, out: &mut Vec<Move>) {
        let v = &self.variant;
        if let Some(ko) = &v.ko {
            return ko.add_move(self, p, mv, out);
        }
        match v.rules.promotion {
            PromotionRule::None => out.push(mv),
            PromotionRule::Capture => self.add_capture_rule_move(p, mv, out),
            // A quiet move is passed on as built again (`Move::rebuilt_plain`).
            PromotionRule::Zone { .. } if !mv.has_kills() => {
                self.add_zone_rule_move(p, mv.rebuilt_plain(), out)
            }
            PromotionRule::Zone { .. } => self.add_zone_rule_move(p, mv, out),
        }
    }

    /// [`Position::add_board_move`] under the zone rule.
    #[inline(always)]
    fn add_zone_rule_move(&self, p: Piece, mv: Move, out: &mut Vec<Move>) {
        let v = &self.variant;
        let pt = v.piece(p.kind());
        if pt.promotes_to.is_some() && self.zone_move_may_promote(p, &mv) {
            out.push(mv.with_promotion(Promotion::Promote));
            let stuck = pt.forced_promotion_ranks > 0
                && v.relative_rank(p.color(), mv.to()) + pt.forced_promotion_ranks
                    >= v.geometry.ranks();
            if !pt.promotion_forced && !stuck {
                out.push(mv.with_promotion(Promotion::Decline));
            }
        } else {
            out.push(mv);
        }
    }

    /// Whether a board move of `p`, a piece with a promoted form, may promote under the zone
    /// rule: any move that starts or ends in the zone; with `zone_promotion = "entry"`, a
    /// capture that does, or a move without capture that enters the zone from outside. A
    /// piece with the last-rank option may also promote on a move to the farthest rank.
    #[inline(always)]
    fn zone_move_may_promote(&self, p: Piece, mv: &Move) -> bool {
        let v = &self.variant;
        let us = p.color();
        let (from, to) = (mv.from(), mv.to());
        let (from_in, to_in) = (v.in_zone(us, from), v.in_zone(us, to));
        if !v.rules.zone_entry_only {
            return from_in || to_in;
        }
        let captures = mv.has_kills() || (to != from && self.board[to.index()].is_piece());
        // Entering (from outside to inside), or a capture from inside (wherever it ends).
        let entering = to_in && !from_in;
        let capturing_from_inside = from_in && captures;
        entering
            || capturing_from_inside
            || (v.piece(p.kind()).last_rank_promotion && to != from && v.on_last_rank(us, to))
    }

    /// Appends the drops of the side to move, with the variant's drop restrictions.
    pub(crate) fn generate_drops(&self, out: &mut Vec<Move>) {
        let v = &self.variant;
        let us = self.side;
        let nk = v.num_kinds();
        let hand = &self.hands[us.index() * nk..(us.index() + 1) * nk];
        if hand.iter().all(|&n| n == 0) {
            return;
        }
        let g = &v.geometry;
        for (k, &n) in hand.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let kind = PieceKind(k as u8);
            let rules = v.piece(kind).drop;
            if rules.must_check {
                self.generate_checking_drops(kind, out);
                continue;
            }
            let blocked_files = self.blocked_drop_files(kind);
            for &sq in g.squares() {
                if self.may_drop_on(kind, sq, blocked_files) {
                    out.push(Move::drop(kind, sq));
                }
            }
        }
    }

    /// The drops of [`Position::generate_drops`] that land on one of `squares` (each square
    /// once): out of check-evasion, where only a drop between the royal piece and the one
    /// slider checking it can be legal, so the hundreds of other drops of a full hand are
    /// never made only to be thrown away.
    pub(crate) fn generate_drops_onto(&self, squares: &[Square], out: &mut Vec<Move>) {
        let v = &self.variant;
        let us = self.side;
        let nk = v.num_kinds();
        for k in 0..nk {
            if self.hands[us.index() * nk + k] == 0 {
                continue;
            }
            let kind = PieceKind(k as u8);
            if v.piece(kind).drop.must_check {
                // The drops that may be made at all, kept (in their order) where they land
                // on `squares`.
                let start = out.len();
                self.generate_checking_drops(kind, out);
                let mut kept = start;
                for i in start..out.len() {
                    if squares.contains(&out[i].to()) {
                        out[kept] = out[i];
                        kept += 1;
                    }
                }
                out.truncate(kept);
                continue;
            }
            let blocked_files = self.blocked_drop_files(kind);
            for &sq in squares {
                if self.may_drop_on(kind, sq, blocked_files) {
                    out.push(Move::drop(kind, sq));
                }
            }
        }
    }

    /// The drops of [`Position::generate_drops`] that attack the opponent's royal piece, where
    /// [`Position::gives_threat`] tells a check by what the dropped piece attacks: found
    /// backwards from the royal piece for each kind in hand.
    pub(crate) fn generate_drops_attacking_royal(&self, out: &mut Vec<Move>) {
        let v = &self.variant;
        let us = self.side;
        let nk = v.num_kinds();
        for k in 0..nk {
            if self.hands[us.index() * nk + k] != 0 {
                self.generate_checking_drops(PieceKind(k as u8), out);
            }
        }
    }

    /// The files (a bit each) where the one-per-file rule bars the side to move from
    /// dropping `kind`.
    fn blocked_drop_files(&self, kind: PieceKind) -> u32 {
        if self.variant.piece(kind).drop.one_per_file {
            self.files_holding(kind, self.side)
        } else {
            0
        }
    }

    /// Whether the side to move may drop `kind` on `sq` as far as the square goes: empty, a
    /// rank the kind may be dropped on, a file not in `blocked_files`.
    #[inline]
    fn may_drop_on(&self, kind: PieceKind, sq: Square, blocked_files: u32) -> bool {
        let v = &self.variant;
        self.board[sq.index()].is_empty()
            && v.drop_rank_allowed(self.side, kind, sq)
            && blocked_files & (1 << v.geometry.file_of(sq)) == 0
    }

    /// Drops of `kind` that attack the opponent's royal piece.
    fn generate_checking_drops(&self, kind: PieceKind, out: &mut Vec<Move>) {
        let us = self.side;
        let v = &self.variant;
        let Some(target) = self.royal_square(us.opposite()) else {
            return;
        };
        let blocked_files = self.blocked_drop_files(kind);
        let allowed = |sq: Square| self.may_drop_on(kind, sq, blocked_files);
        let table = &v.piece(kind).moves[us.index()];
        if !table.is_simple() {
            for &sq in v.geometry.squares() {
                if allowed(sq) && self.piece_attacks(kind, us, sq, target) {
                    out.push(Move::drop(kind, sq));
                }
            }
            return;
        }
        // Leaps and slides only: the squares it would attack the royal piece from are found
        // backwards from the royal piece (a leap's one square, a slide's empty squares up to
        // its range), not by asking every square of the board. In board order, each once,
        // as the walk over the board gives them.
        let start = out.len();
        let t = target.0 as i32;
        for l in table.leaps.iter().filter(|l| l.c) {
            let sq = Square((t - l.delta) as u16);
            if allowed(sq) {
                out.push(Move::drop(kind, sq));
            }
        }
        for s in table.slides.iter().filter(|s| s.c) {
            let mut cur = t;
            for _ in 0..s.range {
                cur -= s.delta;
                let sq = Square(cur as u16);
                if !self.board[sq.index()].is_empty() {
                    break;
                }
                if allowed(sq) {
                    out.push(Move::drop(kind, sq));
                }
            }
        }
        out[start..].sort_unstable_by_key(|m| m.to());
        let mut kept = start;
        for i in start..out.len() {
            if kept == start || out[kept - 1].to() != out[i].to() {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Bit set of files on which `color` has a piece of `kind`.
    fn files_holding(&self, kind: PieceKind, color: Color) -> u32 {
        let p = Piece::new(kind, color);
        let g = &self.variant.geometry;
        g.squares()
            .iter()
            .filter(|sq| self.board[sq.index()] == p)
            .fold(0u32, |acc, &sq| acc | 1 << g.file_of(sq))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use std::sync::Arc;

    /// The capture generator gives the board moves that take an opponent's piece, in the
    /// order the full generator gives them, in random games of every built-in variant (and
    /// keeps what the buffer held before).
    #[test]
    fn board_captures_are_the_board_moves_that_take_in_order() {
        for id in crate::variant::builtin_ids() {
            let mut captures = 0usize;
            crate::test_positions::random_positions(id, 6, |pos, _| {
                let want = board_moves_that_take(pos);
                let held = Move::new(Square(0), Square(0));
                let mut got = vec![held];
                pos.generate_board_captures(&mut got);
                assert_eq!(got[0], held, "{id}: the buffer's earlier move");
                assert_eq!(&got[1..], &want[..], "{id}: {}", pos.to_text());
                captures += want.len();
            });
            assert!(captures > 100, "{id}: {captures} captures");
        }
    }

    /// The full generator's board moves that take an enemy piece, in its order.
    fn board_moves_that_take(pos: &Position) -> Vec<Move> {
        let them = pos.side_to_move().opposite();
        let mut all = Vec::new();
        pos.generate_board_moves(&mut all);
        // Written out rather than asked of the generator's own test, so that it checks it.
        all.retain(|m| {
            m.kills().iter().any(|&k| pos.piece_at(k).is_color(them))
                || pos.piece_at(m.to()).is_color(them)
        });
        all
    }

    /// The same for a universal leaper (Hook Shogi's promoted king, `U`), whose quiet
    /// landings the capture generator must leave out: one is set on an empty square of the
    /// side to move in random Hook Shogi positions.
    #[test]
    fn board_captures_of_a_universal_leaper_are_its_moves_that_take() {
        let v = crate::load_variant("hook-shogi").unwrap();
        let kind = v.kind_by_id("+K").unwrap();
        let mut captures = 0usize;
        crate::test_positions::random_positions("hook-shogi", 3, |pos, _| {
            let us = pos.side_to_move();
            let Some(&sq) = v
                .geometry
                .squares()
                .iter()
                .find(|s| pos.piece_at(**s).is_empty())
            else {
                return;
            };
            let mut pos = pos.clone();
            pos.board[sq.index()] = Piece::new(kind, us);
            let want = board_moves_that_take(&pos);
            let mut got = Vec::new();
            pos.generate_board_captures(&mut got);
            assert_eq!(got, want, "{}", pos.to_text());
            captures += want.iter().filter(|m| m.from() == sq).count();
        });
        assert!(
            captures > 100,
            "{captures} captures by the universal leaper"
        );
    }

    /// Pieces that may only be dropped to give check: a rider, a limited slider, leapers, a
    /// one-way rider with a step, and a hopping piece (which the board walk still serves).
    const CHECKING_DROPS: &str = r#"
name = "Checking drops"
id = "checking-drops"
files = 9
ranks = 9
max_plies = 100
[rules]
check = "king-safety"
drops = true
[[piece]]
id = "K"
name = "King"
betza = "K"
royal = true
setup = ["e1"]
[[piece]]
id = "R"
name = "Rook"
betza = "R"
hand = 1
drop_must_check = true
[[piece]]
id = "B"
name = "Short Bishop"
betza = "B3"
hand = 1
drop_must_check = true
[[piece]]
id = "A"
name = "Leaper"
betza = "ADN"
hand = 1
drop_must_check = true
[[piece]]
id = "L"
name = "Lance"
betza = "fRbW"
hand = 1
drop_must_check = true
drop_far_ranks = 1
[[piece]]
id = "C"
name = "Cannon"
betza = "mRcpR"
hand = 1
drop_must_check = true
[[piece]]
id = "P"
name = "Blocker"
betza = "W"
"#;

    /// The checking drops found backwards from the royal piece are exactly the empty squares
    /// (the drop rules allowing) from which the dropped piece would attack it, as asking
    /// every square of the board finds them, in board order; over random boards and both
    /// sides to move.
    #[test]
    fn checking_drops_found_from_the_royal_piece_are_those_every_square_gives() {
        let v = Arc::new(Variant::from_toml(CHECKING_DROPS, "checking-drops.toml").unwrap());
        let mut rng = StdRng::seed_from_u64(5);
        let mut found = 0usize;
        let (king, blocker) = (v.kind_by_id("K").unwrap(), v.kind_by_id("P").unwrap());
        for round in 0..300 {
            let mut pieces: Vec<((u8, u8), PieceKind, Color)> = Vec::new();
            let blockers = rng.gen_range(0..30);
            for i in 0..2 + blockers {
                let (kind, color) = match i {
                    0 => (king, Color::Black),
                    1 => (king, Color::White),
                    _ if rng.gen_bool(0.5) => (blocker, Color::Black),
                    _ => (blocker, Color::White),
                };
                let at = loop {
                    let at = (rng.gen_range(0..9), rng.gen_range(0..9));
                    if pieces.iter().all(|p| p.0 != at) {
                        break at;
                    }
                };
                pieces.push((at, kind, color));
            }
            let (side, hand) = if round % 2 == 0 {
                ('b', "RBALC")
            } else {
                ('w', "rbalc")
            };
            let text = format!("{} {side} {hand}", crate::fen::board_text(&v, &pieces));
            // Boards where the side not to move stands in check are refused.
            let Ok(pos) = Position::from_text(&v, &text) else {
                continue;
            };
            let us = pos.side_to_move();
            let target = pos.royal_square(us.opposite()).unwrap();
            for id in ["R", "B", "A", "L", "C"] {
                let kind = v.kind_by_id(id).unwrap();
                let mut got = Vec::new();
                pos.generate_checking_drops(kind, &mut got);
                let want: Vec<Move> = v
                    .geometry
                    .squares()
                    .iter()
                    .filter(|&&sq| {
                        pos.board[sq.index()].is_empty()
                            && v.drop_rank_allowed(us, kind, sq)
                            && pos.piece_attacks(kind, us, sq, target)
                    })
                    .map(|&sq| Move::drop(kind, sq))
                    .collect();
                assert_eq!(got, want, "{id} in {text}");
                found += got.len();
            }
        }
        assert!(found > 1000, "only {found} checking drops");
    }
}

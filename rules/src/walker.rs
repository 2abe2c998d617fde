//! The general walker for compiled multi-leg, hopping, lame, jumping and universal moves.
//!
//! The origin counts as empty for the whole move (a piece may step out and come back); squares
//! captured on earlier legs keep their victims until the move ends, and a final leg ending on
//! such a square is a capture there (and that square is then not listed as a kill).
//!
//! The walk follows the table's prefix tree ([`LegNode`]), so legs that several paths begin
//! with are walked once. What it finds goes to a [`Sink`]: the move generator's sink removes
//! duplicates and adds the moves with their promotion choices; the attack test's sink stops at
//! the first move that captures on its target.

use crate::color::Color;
use crate::mv::{Move, MAX_KILLS};
use crate::piece::Piece;
use crate::position::Position;
use crate::square::Square;
use crate::xbetza::LegNode;

/// Receives the moves a walk finds.
pub(crate) trait Sink {
    /// A move ending on `to` with the walk's current kills; returns true to stop the walk.
    fn found(&mut self, walk: &Walk, to: i32) -> bool;

    /// The one square whose captures the sink keeps, if it keeps no others: the walk then
    /// skips the branches that cannot land there ([`crate::xbetza::NodeReach`]).
    #[inline]
    fn target(&self) -> Option<i32> {
        None
    }
}

/// Walk state shared by the legs of one path.
pub(crate) struct Walk<'a> {
    pos: &'a Position,
    pub(crate) from: Square,
    color: Color,
    kills: [Square; MAX_KILLS],
    nkills: usize,
}

impl<'a> Walk<'a> {
    pub(crate) fn new(pos: &'a Position, from: Square, color: Color) -> Walk<'a> {
        Walk {
            pos,
            from,
            color,
            kills: [Square(0); MAX_KILLS],
            nkills: 0,
        }
    }

    /// The kill squares of a move ending on `to`: in path order, each once, without `to`
    /// (a final leg back onto a killed square captures there). Returns their number.
    #[inline]
    pub(crate) fn kills_for(&self, to: i32, kills: &mut [Square; MAX_KILLS]) -> usize {
        let to = Square(to as u16);
        let mut n = 0;
        for &k in &self.kills[..self.nkills] {
            if k != to && !kills[..n].contains(&k) {
                kills[n] = k;
                n += 1;
            }
        }
        n
    }

    /// Whether `sq` is captured by a move ending on `to` found now.
    #[inline]
    pub(crate) fn captures_on(&self, to: i32, sq: i32) -> bool {
        (to == sq && to != self.from.0 as i32) || self.killed(sq)
    }

    #[inline]
    fn at(&self, sq: i32) -> Piece {
        if sq == self.from.0 as i32 {
            Piece::EMPTY
        } else {
            self.pos.board[sq as usize]
        }
    }

    /// The jumping rank of the piece `q` (see `PieceType::rank`).
    #[inline]
    fn rank(&self, q: Piece) -> u8 {
        self.pos.variant.piece(q.kind()).rank
    }

    #[inline]
    fn is_enemy(&self, q: Piece) -> bool {
        q.is_piece() && q.color() != self.color
    }

    #[inline]
    fn killed(&self, t: i32) -> bool {
        self.kills[..self.nkills].contains(&Square(t as u16))
    }

    /// Walks the legs `nodes` from `cur`; true if the sink stopped the walk.
    pub(crate) fn nodes<S: Sink>(&mut self, nodes: &[LegNode], cur: i32, sink: &mut S) -> bool {
        // Toward a target not yet taken on the way, only the branches that can land on it;
        // once it is a kill, every way the move can end takes it.
        let toward = sink.target().filter(|&t| !self.killed(t)).map(|t| {
            let g = &self.pos.variant.geometry;
            g.steps_between(Square(cur as u16), Square(t as u16))
        });
        for n in nodes {
            if let Some((df, dr)) = toward {
                if !n.reach.may_reach(df, dr) {
                    continue;
                }
            }
            let stop = if n.leg.range == 1 && !n.leg.skip_first {
                self.leap(n, cur, sink)
            } else {
                self.slide(n, cur, sink)
            };
            if stop {
                return true;
            }
        }
        false
    }

    fn leap<S: Sink>(&mut self, n: &LegNode, cur: i32, sink: &mut S) -> bool {
        let leg = &n.leg;
        if !leg.between.is_empty() {
            let occupied = leg
                .between
                .iter()
                .filter(|&&d| !self.at(cur + d).is_empty())
                .count();
            if leg.must_jump == (occupied == 0) {
                return false;
            }
        }
        let t = cur + leg.delta;
        let q = self.at(t);
        if q.is_wall() {
            return false;
        }
        if n.last {
            if (q.is_empty() && leg.m) || (leg.c && (self.is_enemy(q) || self.killed(t))) {
                return sink.found(self, t);
            }
            return false;
        }
        self.through(n, t, q, sink)
    }

    fn slide<S: Sink>(&mut self, n: &LegNode, cur: i32, sink: &mut S) -> bool {
        let leg = &n.leg;
        let mut t = cur;
        let mut screened = false;
        // A jumping slide has passed over a piece: from then on it may only capture, and
        // only a piece of a rank below its own.
        let mut jumped = false;
        for k in 0..leg.range {
            t += leg.delta;
            let q = self.at(t);
            if q.is_wall() {
                return false;
            }
            if k == 0 && leg.skip_first {
                continue;
            }
            if !n.last {
                if q.is_empty() {
                    if leg.m && self.nodes(&n.next, t, sink) {
                        return true;
                    }
                    continue;
                }
                return self.through(n, t, q, sink);
            }
            if leg.p && !screened {
                if !q.is_empty() {
                    screened = true;
                }
                continue;
            }
            if q.is_empty() {
                if leg.m && !jumped && sink.found(self, t) {
                    return true;
                }
                continue;
            }
            let below = leg.pass_below > 0 && leg.pass_below > self.rank(q);
            if leg.c
                && (self.is_enemy(q) || self.killed(t))
                && (!jumped || below)
                && sink.found(self, t)
            {
                return true;
            }
            if below {
                jumped = true;
                continue;
            }
            return false;
        }
        false
    }

    /// A non-final leg ends on `t` holding `q`: pass through it if its modality allows.
    fn through<S: Sink>(&mut self, n: &LegNode, t: i32, q: Piece, sink: &mut S) -> bool {
        let leg = &n.leg;
        if q.is_empty() {
            return leg.m && self.nodes(&n.next, t, sink);
        }
        if leg.c && self.is_enemy(q) && !self.killed(t) && self.nkills < MAX_KILLS {
            self.kills[self.nkills] = Square(t as u16);
            self.nkills += 1;
            let stop = self.nodes(&n.next, t, sink);
            self.nkills -= 1;
            if stop {
                return true;
            }
        }
        leg.p && self.nodes(&n.next, t, sink)
    }
}

/// A set of mailbox cells (every board of up to 25x25 with its border fits).
pub(crate) struct CellSet([u64; 16]);

impl CellSet {
    pub(crate) fn new() -> CellSet {
        CellSet([0; 16])
    }

    /// Adds `cell`; false if it was already there.
    #[inline]
    pub(crate) fn insert(&mut self, cell: usize) -> bool {
        let (w, b) = (cell >> 6, 1u64 << (cell & 63));
        let fresh = self.0[w] & b == 0;
        self.0[w] |= b;
        fresh
    }
}

/// The moves with up to three kills that one piece's walk has given so far, each as its
/// destination and its kill squares in ascending order packed into a word: the move sink
/// asks, for every path that captures on the way, whether the same move (same destination,
/// same set of kills) came by another path. Scanning the moves themselves for that was
/// half the sink's time on Shoko Shogi's many-legged pieces. Moves with more kills, and every move
/// once the table is full, are checked against the moves themselves.
pub(crate) struct KillSet {
    words: [u64; KILL_SET_SIZE],
    len: usize,
    /// A move was not recorded because the table was full.
    overflowed: bool,
}

const KILL_SET_SIZE: usize = 64;

impl KillSet {
    pub(crate) fn new() -> KillSet {
        KillSet {
            words: [0; KILL_SET_SIZE],
            len: 0,
            overflowed: false,
        }
    }

    /// The word of a move ending on `to` with `kills`, if it has at most three. Wall cells
    /// (never a kill square) include cell 0, so the zero padding cannot stand for a kill.
    #[inline]
    fn word(to: Square, kills: &[Square]) -> Option<u64> {
        let mut k = [0u16; 3];
        match kills.len() {
            1 => k[0] = kills[0].0,
            2 => {
                let (a, b) = (kills[0].0, kills[1].0);
                k[0] = a.min(b);
                k[1] = a.max(b);
            }
            3 => {
                k = [kills[0].0, kills[1].0, kills[2].0];
                k.sort_unstable();
            }
            _ => return None,
        }
        Some(to.0 as u64 | (k[0] as u64) << 16 | (k[1] as u64) << 32 | (k[2] as u64) << 48)
    }

    /// Whether the table answers for `word`: it holds every such move found so far.
    #[inline]
    fn complete_for(&self, word: Option<u64>) -> Option<u64> {
        word.filter(|_| !self.overflowed)
    }

    #[inline]
    fn contains(&self, word: u64) -> bool {
        self.words[..self.len].contains(&word)
    }

    #[inline]
    fn insert(&mut self, word: u64) {
        if self.len == KILL_SET_SIZE {
            self.overflowed = true;
        } else {
            self.words[self.len] = word;
            self.len += 1;
        }
    }
}

/// The move generator's sink: one move per destination and set of kill squares.
pub(crate) struct MoveSink<'o, const CAPTURES_ONLY: bool> {
    pub(crate) piece: Piece,
    pub(crate) out: &'o mut Vec<Move>,
    /// Where this piece's moves begin in `out`.
    pub(crate) start: usize,
    /// Destinations of the moves without kills found so far.
    pub(crate) seen: CellSet,
    /// The moves with kills found so far (see [`KillSet`]).
    pub(crate) killed: KillSet,
}

/// `CAPTURES_ONLY`: give only the moves that take an enemy piece (on their destination or on
/// the way). A constant, so that the full generator's sink carries no test for it.
impl<const CAPTURES_ONLY: bool> Sink for MoveSink<'_, CAPTURES_ONLY> {
    #[inline]
    fn found(&mut self, walk: &Walk, to: i32) -> bool {
        let mut kills = [Square(0); MAX_KILLS];
        let n = walk.kills_for(to, &mut kills);
        let kills = &kills[..n];
        let tsq = Square(to as u16);
        if CAPTURES_ONLY
            && !walk
                .pos
                .takes_piece_of(self.piece.color().opposite(), tsq, kills)
        {
            return false;
        }
        let mut word = None;
        if n == 0 {
            if !self.seen.insert(to as usize) {
                return false;
            }
        } else {
            word = KillSet::word(tsq, kills);
            let known = match self.killed.complete_for(word) {
                Some(w) => self.killed.contains(w),
                None => self.out[self.start..].iter().any(|m| {
                    m.to() == tsq
                        && m.kills().len() == n
                        && kills.iter().all(|k| m.kills().contains(k))
                }),
            };
            if known {
                return false;
            }
        }
        let before = self.out.len();
        walk.pos.add_board_move(
            self.piece,
            Move::with_kills(walk.from, kills, tsq),
            self.out,
        );
        // Recorded only where a move was given, as the moves themselves would show it.
        if let Some(w) = word.filter(|_| self.out.len() > before) {
            self.killed.insert(w);
        }
        false
    }
}

/// The targeted capture generator's sink: the [`MoveSink`] for the moves that take the piece
/// on `target` only. Whether a move takes it follows from its destination and kills, which
/// are also what the move sink tells moves apart by, so keeping these and dropping the rest
/// gives the same moves as generating all and keeping those that take it.
pub(crate) struct CaptureOnSink<'s, 'o> {
    pub(crate) target: i32,
    pub(crate) moves: &'s mut MoveSink<'o, false>,
}

impl Sink for CaptureOnSink<'_, '_> {
    #[inline]
    fn found(&mut self, walk: &Walk, to: i32) -> bool {
        if walk.captures_on(to, self.target) {
            self.moves.found(walk, to);
        }
        false
    }

    #[inline]
    fn target(&self) -> Option<i32> {
        Some(self.target)
    }
}

/// The attack test's sink: stops at a move capturing on `target`.
pub(crate) struct AttackSink {
    pub(crate) target: i32,
}

impl Sink for AttackSink {
    #[inline]
    fn found(&mut self, walk: &Walk, to: i32) -> bool {
        walk.captures_on(to, self.target)
    }

    #[inline]
    fn target(&self) -> Option<i32> {
        Some(self.target)
    }
}

/// The attack map's sink: every square a move found captures on or ends on, collected from
/// one walk of all of a piece's paths (squares may repeat).
pub(crate) struct ReachSink<'o> {
    pub(crate) out: &'o mut Vec<Square>,
}

impl Sink for ReachSink<'_> {
    #[inline]
    fn found(&mut self, walk: &Walk, to: i32) -> bool {
        if to != walk.from.0 as i32 {
            self.out.push(Square(to as u16));
        }
        self.out.extend_from_slice(&walk.kills[..walk.nkills]);
        false
    }
}

impl Position {
    /// Whether the universal leap `(may move, may capture)` of `p` on `from` lands on `t`: any
    /// other square, empty if it may move there, an enemy's if it may capture.
    #[inline]
    fn universal_lands(&self, from: Square, p: Piece, t: Square, (m, c): (bool, bool)) -> bool {
        let q = self.board[t.index()];
        let enemy = q.is_piece() && q.color() != p.color();
        t != from && ((q.is_empty() && m) || (c && enemy))
    }

    /// Appends to `out` every square on which the paths or universal leap of `p` on `from`
    /// capture or end, as the board stands: the squares [`Position::complex_attacks`] says yes
    /// to, found by one walk instead of one per square (the attack-count planes ask for all
    /// of them). Squares may repeat.
    pub(crate) fn complex_reach(&self, from: Square, p: Piece, out: &mut Vec<Square>) {
        let table = &self.variant.piece(p.kind()).moves[p.color().index()];
        if let Some(u) = table.universal {
            for &t in self.variant.geometry.squares() {
                if self.universal_lands(from, p, t, u) {
                    out.push(t);
                }
            }
        }
        if table.area > 0 {
            let area = self.area_landings(from, p.color(), table.area);
            out.extend(area.squares().filter(|&t| t != from));
        }
        let mut walk = Walk::new(self, from, p.color());
        walk.nodes(&table.tree, from.0 as i32, &mut ReachSink { out });
    }

    /// Appends the moves of `p` on `from` that its table's paths and universal leap give,
    /// leaving out those already in `sink`.
    pub(crate) fn generate_piece_complex<const CAPTURES_ONLY: bool>(
        &self,
        from: Square,
        sink: &mut MoveSink<'_, CAPTURES_ONLY>,
    ) {
        let table = &self.variant.piece(sink.piece.kind()).moves[sink.piece.color().index()];
        let them = sink.piece.color().opposite();
        if table.area > 0 {
            // Before the walk: the table's order where the area comes first (the fire demon);
            // the vice general's hops, listed before it, now follow it.
            for t in self
                .area_landings(from, sink.piece.color(), table.area)
                .squares()
            {
                let wanted = !CAPTURES_ONLY || self.board[t.index()].is_color(them);
                if wanted && sink.seen.insert(t.index()) {
                    self.add_board_move(sink.piece, Move::new(from, t), sink.out);
                }
            }
        }
        let mut walk = Walk::new(self, from, sink.piece.color());
        walk.nodes(&table.tree, from.0 as i32, sink);
        if let Some(u) = table.universal {
            for &t in self.variant.geometry.squares() {
                let wanted = !CAPTURES_ONLY || self.board[t.index()].is_color(them);
                if wanted
                    && self.universal_lands(from, sink.piece, t, u)
                    && sink.seen.insert(t.index())
                {
                    self.add_board_move(sink.piece, Move::new(from, t), sink.out);
                }
            }
        }
    }

    /// The moves of [`Position::generate_piece_complex`] that take the piece on `target`,
    /// from one walk that keeps only those.
    pub(crate) fn generate_piece_complex_on(
        &self,
        from: Square,
        target: Square,
        sink: &mut MoveSink<'_, false>,
    ) {
        let piece = sink.piece;
        let table = &self.variant.piece(piece.kind()).moves[piece.color().index()];
        if self.area_takes_on(from, piece.color(), table.area, target)
            && sink.seen.insert(target.index())
        {
            self.add_board_move(piece, Move::new(from, target), sink.out);
        }
        let mut walk = Walk::new(self, from, piece.color());
        let mut on = CaptureOnSink {
            target: target.0 as i32,
            moves: sink,
        };
        walk.nodes(&table.tree, from.0 as i32, &mut on);
        if let Some(u) = table.universal {
            if self.universal_lands(from, piece, target, u) && sink.seen.insert(target.index()) {
                self.add_board_move(piece, Move::new(from, target), sink.out);
            }
        }
    }

    /// Whether the paths or universal leap of `p` on `from` capture on `target`.
    pub(crate) fn complex_attacks(&self, from: Square, p: Piece, target: Square) -> bool {
        let table = &self.variant.piece(p.kind()).moves[p.color().index()];
        if let Some(u) = table.universal {
            if self.universal_lands(from, p, target, u) {
                return true;
            }
        }
        if self.area_takes_on(from, p.color(), table.area, target) {
            return true;
        }
        let mut walk = Walk::new(self, from, p.color());
        let mut sink = AttackSink {
            target: target.0 as i32,
        };
        walk.nodes(&table.tree, from.0 as i32, &mut sink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kill_word_is_the_set_of_kills_and_the_destination() {
        let sq = |c| Square(c);
        let w = |to, kills: &[u16]| {
            let kills: Vec<Square> = kills.iter().map(|&k| sq(k)).collect();
            KillSet::word(sq(to), &kills)
        };
        assert_eq!(w(40, &[30, 31]), w(40, &[31, 30]), "order of kills");
        assert_eq!(w(40, &[30, 31, 32]), w(40, &[32, 30, 31]));
        assert_ne!(w(40, &[30]), w(41, &[30]), "destination");
        assert_ne!(w(40, &[30]), w(40, &[30, 31]), "number of kills");
        assert_ne!(w(40, &[30, 31]), w(40, &[30, 32]));
        assert_eq!(w(40, &[1, 2, 3, 4]), None, "four kills are not packed");
    }

    #[test]
    fn a_full_kill_set_stops_answering() {
        let mut set = KillSet::new();
        for i in 0..KILL_SET_SIZE as u64 {
            set.insert(i + 1);
        }
        assert_eq!(set.complete_for(Some(5)), Some(5));
        assert!(set.contains(5) && !set.contains(KILL_SET_SIZE as u64 + 1));
        // The next move is not recorded: from now on the moves themselves are asked.
        set.insert(KILL_SET_SIZE as u64 + 1);
        assert_eq!(set.complete_for(Some(5)), None);
        assert_eq!(KillSet::new().complete_for(None), None);
    }
}

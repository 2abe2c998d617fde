//! Move generation (§9 (a)–(c)): each piece by its role, with the pieces the opponent's
//! nets hold back left out. Moves that several paths make are given once (§4.4): a move is its
//! origin, destination, set of kills and promotion.

use super::{KoShogi, Role};
use crate::board_scan::Side;
use crate::color::Color;
use crate::mv::Move;
use crate::piece::Piece;
use crate::position::Position;
use crate::square::Square;
use crate::walker::CellSet;

/// What generation for one side needs to know about the board, found once per call.
pub(crate) struct Context {
    /// Squares of `us`'s pieces that the opponent's nets immobilize.
    pub(crate) frozen: Vec<Square>,
    /// Squares of the opponent's five-li fogs (the fog aura, §5.4).
    pub(crate) enemy_fogs: Vec<Square>,
    /// Whether `us` has a DR or TC (the pawn's forward step, §3.4.8).
    pub(crate) drum: bool,
}

impl Context {
    /// Whether the opponent's nets hold the piece on `sq` still.
    #[inline]
    pub(crate) fn holds(&self, sq: Square) -> bool {
        !self.frozen.is_empty() && self.frozen.contains(&sq)
    }
}

/// Removes duplicate moves of one piece: a move without kills is known by its destination,
/// one with kills is compared with the piece's moves so far.
pub(crate) struct Dedup {
    start: usize,
    seen: CellSet,
}

impl Dedup {
    pub(crate) fn new(out: &[Move]) -> Dedup {
        Dedup {
            start: out.len(),
            seen: CellSet::new(),
        }
    }

    /// Whether `mv` (before its promotion choices) is not among the piece's moves yet.
    pub(crate) fn fresh(&mut self, out: &[Move], mv: &Move) -> bool {
        let kills = mv.kills();
        if kills.is_empty() {
            return self.seen.insert(mv.to().index());
        }
        !out[self.start..].iter().any(|m| {
            m.to() == mv.to()
                && m.kills().len() == kills.len()
                && kills.iter().all(|k| m.kills().contains(k))
        })
    }
}

impl KoShogi {
    /// The facts about the board that generation for `us` needs.
    pub(crate) fn context(&self, pos: &Position, us: Color) -> Context {
        let them = us.opposite();
        Context {
            frozen: self.immobilized(pos, us),
            enemy_fogs: self.squares_of(pos, self.k.fg, them),
            drum: self.has(pos, self.k.dr, us) || self.has(pos, self.k.tc, us),
        }
    }

    /// Appends every legal move of `us` (who need not be the side to move). Ko Shogi has no
    /// check rule, so every move the pieces have is legal (§10).
    pub(crate) fn generate(&self, pos: &Position, us: Color, out: &mut Vec<Move>) {
        let ctx = self.context(pos, us);
        pos.for_each_piece(Side::Of(us), |from, p| {
            if ctx.holds(from) {
                return;
            }
            if self.table_kinds.contains(p.kind()) {
                pos.generate_kind_from(from, p, out)
            } else {
                self.generate_piece(pos, &ctx, from, p, out)
            }
        });
    }

    /// The moves of [`KoShogi::generate`] for the side to move that take an enemy piece (on
    /// their destination or on the way), in the same order: a piece that moves by its table
    /// alone generates only its captures; the other roles (pawns, priests, shooters, double
    /// movers) generate in full and keep theirs. Generating every move and keeping the
    /// captures was most of the classical baseline's quiescence here.
    pub(crate) fn generate_captures(&self, pos: &Position, us: Color, out: &mut Vec<Move>) {
        debug_assert_eq!(us, pos.side_to_move(), "captures of the side to move");
        let ctx = self.context(pos, us);
        pos.for_each_piece(Side::Of(us), |from, p| {
            if ctx.holds(from) {
                return;
            }
            if self.table_kinds.contains(p.kind()) {
                pos.generate_kind_captures_from(from, p, out)
            } else {
                let start = out.len();
                self.generate_piece(pos, &ctx, from, p, out);
                pos.keep_captures(out, start);
            }
        });
    }

    /// Appends the legal moves of the piece `p` on `from` (none when a net holds it).
    pub(crate) fn generate_piece(
        &self,
        pos: &Position,
        ctx: &Context,
        from: Square,
        p: Piece,
        out: &mut Vec<Move>,
    ) {
        if ctx.holds(from) {
            return;
        }
        let us = p.color();
        match &self.roles[p.kind().index()] {
            Role::Table => pos.generate_kind_from(from, p, out),
            Role::Pawn => {
                let start = out.len();
                pos.generate_kind_from(from, p, out);
                if !ctx.drum {
                    let ahead = from.offset(self.forward[us.index()]);
                    keep_from(out, start, |m| m.to() != ahead);
                }
            }
            Role::Priest { double } => self.priest_moves(pos, from, p, *double, out),
            Role::Shooter(s) => {
                let start = out.len();
                pos.generate_kind_from(from, p, out);
                self.shots(pos, ctx, from, p, s, start, out);
            }
            Role::Double { cavalry } => self.double_moves(pos, from, p, *cavalry, out),
            Role::Thunderclap => self.thunderclap_moves(pos, from, p, out),
        }
    }

    /// Appends the moves of [`KoShogi::generate_piece`] that take the enemy piece on `target`
    /// (as their destination or on the way), for the material estimate's answers. A piece
    /// that moves by its table alone, and a pawn, generate only those, aimed at `target`; the
    /// other roles generate in full and keep them.
    pub(crate) fn generate_piece_taking(
        &self,
        pos: &Position,
        ctx: &Context,
        from: Square,
        p: Piece,
        target: Square,
        out: &mut Vec<Move>,
    ) {
        if ctx.holds(from) {
            return;
        }
        let start = out.len();
        match &self.roles[p.kind().index()] {
            Role::Table => pos.generate_captures_on(from, p, target, out),
            Role::Pawn => {
                pos.generate_captures_on(from, p, target, out);
                // The forward capture needs the side's drum, as the forward step does.
                if !ctx.drum && target == from.offset(self.forward[p.color().index()]) {
                    keep_from(out, start, |m| m.to() != target);
                }
            }
            _ => {
                self.generate_piece(pos, ctx, from, p, out);
                keep_from(out, start, |m| {
                    m.to() == target || m.kills().contains(&target)
                });
            }
        }
    }

    /// One leap of the piece's table, then optionally a second from where it landed (to an
    /// empty square, an enemy, or back to the origin). The first landing may hold an enemy,
    /// which is captured, but not a friend (§3.4.1, §3.4.3).
    fn double_moves(
        &self,
        pos: &Position,
        from: Square,
        p: Piece,
        cavalry: bool,
        out: &mut Vec<Move>,
    ) {
        let us = p.color();
        let leaps = &pos.variant.piece(p.kind()).moves[us.index()].leaps;
        let mut dedup = Dedup::new(out);
        let f = from.0 as i32;
        for l1 in leaps {
            let t1 = f + l1.delta;
            let q1 = pos.board[t1 as usize];
            if q1.is_wall() || q1.is_color(us) {
                continue;
            }
            let first = Square(t1 as u16);
            self.emit(pos, p, Move::new(from, first), &mut dedup, out);
            let killed = [first];
            let kills = if q1.is_piece() {
                &killed[..]
            } else {
                &killed[..0]
            };
            for l2 in leaps {
                if cavalry && !keeps_long_direction(l1.step, l2.step) {
                    continue;
                }
                let t2 = t1 + l2.delta;
                let q2 = if t2 == f {
                    Piece::EMPTY
                } else {
                    pos.board[t2 as usize]
                };
                if q2.is_wall() || q2.is_color(us) {
                    continue;
                }
                let mv = Move::with_kills(from, kills, Square(t2 as u16));
                self.emit(pos, p, mv, &mut dedup, out);
            }
        }
    }

    /// Paths of 1 to 5 steps of the piece's table (orthogonal steps), each step onto an empty
    /// square or an enemy (captured, and the path goes on), never onto a square visited
    /// before, the origin included (§3.4.4).
    fn thunderclap_moves(&self, pos: &Position, from: Square, p: Piece, out: &mut Vec<Move>) {
        let mut dedup = Dedup::new(out);
        let mut visited = [from; 6];
        let mut kills = [Square(0); 5];
        self.thunderclap_walk(
            pos,
            from,
            p,
            from,
            1,
            &mut visited,
            &mut kills,
            0,
            &mut dedup,
            out,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn thunderclap_walk(
        &self,
        pos: &Position,
        from: Square,
        p: Piece,
        at: Square,
        steps: usize,
        visited: &mut [Square; 6],
        kills: &mut [Square; 5],
        nkills: usize,
        dedup: &mut Dedup,
        out: &mut Vec<Move>,
    ) {
        let us = p.color();
        let leaps = &pos.variant.piece(p.kind()).moves[us.index()].leaps;
        for l in leaps {
            let t = at.offset(l.delta);
            if visited[..steps].contains(&t) {
                continue;
            }
            let q = pos.board[t.index()];
            if q.is_wall() || q.is_color(us) {
                continue;
            }
            self.emit(
                pos,
                p,
                Move::with_kills(from, &kills[..nkills], t),
                dedup,
                out,
            );
            if steps < 5 {
                visited[steps] = t;
                let n = if q.is_piece() {
                    kills[nkills] = t;
                    nkills + 1
                } else {
                    nkills
                };
                self.thunderclap_walk(pos, from, p, t, steps + 1, visited, kills, n, dedup, out);
            }
        }
    }

    /// Adds `mv` with its promotion choices unless the piece already has it.
    #[inline]
    pub(crate) fn emit(
        &self,
        pos: &Position,
        p: Piece,
        mv: Move,
        dedup: &mut Dedup,
        out: &mut Vec<Move>,
    ) {
        if dedup.fresh(out, &mv) {
            self.add_move(pos, p, mv, out);
        }
    }
}

/// Whether a cavalry's second jump `b` may follow its first jump `a`: the same jump, the other
/// jump with the same long component, or straight back (§3.4.3).
/// Keeps, of the moves in `out` from `start` on, those that `keep` accepts, in order.
fn keep_from(out: &mut Vec<Move>, start: usize, keep: impl Fn(&Move) -> bool) {
    let mut kept = start;
    for i in start..out.len() {
        if keep(&out[i]) {
            out[kept] = out[i];
            kept += 1;
        }
    }
    out.truncate(kept);
}

fn keeps_long_direction(a: (i8, i8), b: (i8, i8)) -> bool {
    if b == a || b == (-a.0, -a.1) {
        return true;
    }
    if a.0.abs() > a.1.abs() {
        b == (a.0, -a.1)
    } else {
        b == (-a.0, a.1)
    }
}

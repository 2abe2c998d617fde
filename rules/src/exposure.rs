//! Which of a side's pieces the opponent attacks after each of that side's captures, without
//! asking every piece again after every capture.
//!
//! The material estimate ([`crate::material::PieceValues::quick_balance`]) tries each capture
//! of the side to move and looks for the opponent's best answer among the side's pieces. Asked
//! naively, that is one reverse attack test per piece per capture, and on the 19x19 boards
//! each test also walks the bent paths of every complex attacker: most of a search leaf's
//! time. A capture changes little, though. Leaps are never blocked and the opponent only
//! loses pieces, so a leap or slide of the opponent reaches a piece it did not reach before
//! only through a square the capture emptied, or reaches the piece that moved. The complex
//! attackers that can take far away by bent paths are walked once per capture, each marking
//! every square it can take on; the others (bounded reach, hoppers along a line) are asked
//! per piece, as the plain attack test asks them, by a walk aimed at the piece.
//!
//! The leaps and slides are counted once per position: for every square, the entries of the
//! reverse tables by which the opponent attacks it (one walk of the opponent's pieces,
//! forward). Before each capture the entries of its victims are taken away, so that after it
//! a piece is attacked by a leap or slide exactly where its count is still positive or a line
//! opened onto it: no piece is tested again. A search leaf tried some nine captures and asked
//! some seventy pieces (Shoko Shogi); testing each asked piece, even with a state of the
//! pieces asked kept from one capture to the next, cost more reverse tests than one count.
//!
//! Where a rule module makes the moves (Ko Shogi), a capture may also remove or change pieces
//! away from its path (shots, burns, reversions), and the module journals every square it
//! changes: the squares it emptied open lines as a capture's own squares do; a square where
//! an attacker appeared or changed kind, a piece removed that the move does not name, or a
//! square filled away from the move's end sends every piece to the full test.

use crate::color::Color;
use crate::mv::Move;
use crate::piece::Piece;
use crate::position::Position;
use crate::square::Square;
use crate::xbetza::PathReach;

/// The attack state of one side's pieces across that side's captures in one position. Its
/// buffers serve one position after another.
pub(crate) struct Exposure {
    /// The attacker: the opponent of the side whose captures are tried.
    by: Color,
    /// Where moves remove pieces away from their squares and say nothing of it (burns
    /// outside a rule module): every piece is tested after every capture.
    every_piece: bool,
    /// Per square: the entries of the reverse tables by which `by` attacks it before the
    /// captures ([`Position::simple_attacks_from`] over its pieces), less those of the
    /// current capture's victims, and with the slides that pass over the capture's end, when
    /// that was empty, moved to it. After the capture, a piece is attacked by a leap or slide
    /// exactly where its count is positive or a line opened onto it: every other attacker
    /// stands where it stood and reaches it by the same empty squares.
    counts: Vec<u8>,
    /// Whether `counts` holds the position's counts yet (taken at the first capture tried).
    counted: bool,
    /// The current capture's victims: the squares it names that hold a piece of `by`.
    victims: Vec<Square>,
    /// The squares whose counts the current capture took away: its victims' attacks, and
    /// the slides it stops short of them.
    uncounted: Vec<usize>,
    /// The squares whose counts the current capture added to: its end, where it stops slides.
    added: Vec<usize>,
    /// The counts do not hold after the current capture: a rule module's make removed a
    /// piece the move does not name or filled another square than the move's end. Every
    /// piece is tested in full after it.
    counts_void: bool,
    /// The current capture changed an attacker of `by` in place (a journaled move that
    /// reverted or promoted one): every piece is tested again after it, and the near complex
    /// pieces are read as they now stand.
    retest_all: bool,
    /// The squares of `by`'s pieces in the position before the captures, in board order:
    /// what the counts walk, listed by the caller's own walk of the board.
    pieces: Vec<Square>,
    /// `by`'s complex pieces in the position before the captures.
    complex: Vec<Square>,
    /// Those of them whose bent paths reach beyond a bounded distance: walked once per capture.
    far: Vec<Square>,
    /// The others (bounded, or each branch along one ray): asked per piece by aimed walks.
    near: Vec<NearPiece>,
    /// The squares the current capture emptied: a slide through one of them may now reach
    /// a piece ([`Position::slide_through_reaches`]).
    opened: Vec<Square>,
    /// Per square: a complex piece of `by` can take there after the current capture.
    reach: Vec<bool>,
    reach_marked: bool,
    /// Pieces asked about since the current capture: the first few ask the far pieces one
    /// by one (a walk that stops at the piece), the rest read the marks of one full walk.
    asked: u32,
    scratch: Vec<Square>,
}

/// A complex piece of the attacker whose paths stay within a bound: where it stands, what it
/// is, and how far its paths reach.
#[derive(Clone, Copy)]
struct NearPiece {
    sq: Square,
    piece: Piece,
    reach: PathReach,
}

impl Default for Exposure {
    fn default() -> Self {
        Exposure {
            by: Color::White,
            every_piece: false,
            counts: Vec::new(),
            counted: false,
            victims: Vec::new(),
            uncounted: Vec::new(),
            added: Vec::new(),
            counts_void: false,
            retest_all: false,
            pieces: Vec::new(),
            complex: Vec::new(),
            far: Vec::new(),
            near: Vec::new(),
            opened: Vec::new(),
            reach: Vec::new(),
            reach_marked: true,
            asked: 0,
            scratch: Vec::new(),
        }
    }
}

/// Pieces asked about after one capture before the far pieces' paths are walked in full.
const ASK_BEFORE_MARKING: u32 = 4;

impl Exposure {
    /// Empties the attacker's lists for a new position: the caller's own walk of the board
    /// then gives each of `by`'s pieces to [`Exposure::list`], and [`Exposure::start`] begins.
    pub(crate) fn clear_lists(&mut self) {
        self.pieces.clear();
        self.complex.clear();
    }

    /// Lists one of `by`'s pieces, in board order: `complex` when it is one of the complex
    /// attackers ([`Position::complex_attacker_squares`]).
    pub(crate) fn list(&mut self, sq: Square, complex: bool) {
        self.pieces.push(sq);
        if complex {
            self.complex.push(sq);
        }
    }

    /// Starts on one side's pieces, the opponent of `by`, in `pos` before any capture, keeping
    /// the buffers of the last position; `by`'s pieces are those listed since
    /// [`Exposure::clear_lists`].
    pub(crate) fn start(&mut self, pos: &Position, by: Color) {
        self.by = by;
        let v = pos.variant();
        self.every_piece = v.acts_away_from_moves() && v.ko.is_none();
        self.counted = false;
        self.victims.clear();
        self.uncounted.clear();
        self.added.clear();
        self.counts_void = false;
        self.retest_all = false;
        self.asked = 0;
        self.far.clear();
        self.near.clear();
        for &sq in &self.complex {
            let p = pos.piece_at(sq);
            let table = &pos.variant().piece(p.kind()).moves[by.index()];
            let reach = table.reach;
            if (reach.anywhere || reach.lines) && !table.aims_well() {
                self.far.push(sq);
            } else {
                self.near.push(NearPiece {
                    sq,
                    piece: p,
                    reach,
                });
            }
        }
        self.reach_marked = self.far.is_empty();
        self.opened.clear();
        self.reach.clear();
        self.reach.resize(pos.board.len(), false);
    }

    /// Called in the position before the captures, before the capture `m` is played: counts
    /// the leaps and slides at the first capture, and takes away the entries of `m`'s victims.
    pub(crate) fn before_capture(&mut self, pos: &Position, m: &Move) {
        if self.every_piece {
            return;
        }
        if !self.counted {
            self.count(pos);
        }
        // The last capture's victims count again: a capture that was not answered (no
        // better than the best so far) is not unplayed.
        self.restore_counts();
        let (counts, uncounted) = (&mut self.counts, &mut self.uncounted);
        self.victims.clear();
        for victim in m.taken_squares() {
            let q = pos.board[victim.index()];
            if q.is_color(self.by) {
                self.victims.push(victim);
                pos.simple_attacks_from(victim, q, |t| {
                    counts[t] -= 1;
                    uncounted.push(t);
                });
            }
        }
        // A capture that ends on an empty square (a double capture's second leg elsewhere)
        // stops there the slides of `by` that passed over it: their counts move from the
        // square each reached beyond to the capture's end. A victim's slides were taken
        // away above.
        self.counts_void = false;
        let to = m.to();
        if to != m.from() && pos.board[to.index()].is_empty() {
            let (victims, added) = (&self.victims, &mut self.added);
            pos.slides_over(to, self.by, |attacker, beyond| {
                if victims.contains(&attacker) {
                    return;
                }
                counts[to.index()] += 1;
                added.push(to.index());
                if let Some(x) = beyond {
                    counts[x] -= 1;
                    uncounted.push(x);
                }
            });
        }
    }

    /// Gives back the entries the current capture took away and takes back those it added.
    fn restore_counts(&mut self) {
        for t in self.uncounted.drain(..) {
            self.counts[t] += 1;
        }
        for t in self.added.drain(..) {
            self.counts[t] -= 1;
        }
    }

    /// Counts, for every square, the entries by which `by`'s leaps and slides attack it.
    fn count(&mut self, pos: &Position) {
        self.counts.clear();
        self.counts.resize(pos.board.len(), 0);
        let counts = &mut self.counts;
        for &sq in &self.pieces {
            let p = pos.board[sq.index()];
            debug_assert!(p.is_color(self.by), "a listed square without an attacker");
            pos.simple_attacks_from(sq, p, |t| counts[t] += 1);
        }
        self.counted = true;
    }

    /// `by`'s complex pieces as the position stood before the captures (for
    /// [`Position::attackers_given`]).
    pub(crate) fn complex(&self) -> &[Square] {
        &self.complex
    }

    /// Notes the capture `m`, just played in `pos`: the squares it emptied open lines.
    pub(crate) fn played(&mut self, pos: &Position, m: &Move) {
        if self.every_piece {
            return;
        }
        if let Some(journal) = pos.last_move_journal() {
            // Every square the rule module changed, with what it held before (a square may
            // repeat; the board holds its content now).
            for &(sq, old) in journal {
                let now = pos.board[sq.index()];
                if now.is_empty() && old.is_piece() {
                    self.opened.push(sq);
                } else if now.is_color(self.by) && now != old {
                    self.retest_all = true;
                }
                let unnamed = old.is_color(self.by) && now != old && !self.victims.contains(&sq);
                let filled = old.is_empty() && now.is_piece() && sq != m.to();
                self.counts_void |= unnamed || filled;
            }
            return;
        }
        for &o in m.kills().iter().chain(std::iter::once(&m.from())) {
            if pos.board[o.index()].is_empty() {
                self.opened.push(o);
            }
        }
    }

    /// Whether `by` attacks our piece on `sq` (the capturing piece on its new square, or
    /// another where it stood) after the capture last [`Exposure::played`], which it did
    /// not make. The same answer as [`Position::is_attacked`].
    pub(crate) fn attacked(&mut self, pos: &Position, sq: Square) -> bool {
        let simple = if self.every_piece || self.counts_void || self.retest_all {
            pos.is_attacked_simple(sq, self.by)
        } else {
            // Read first: one load settles most attacked pieces.
            self.counts[sq.index()] > 0
                || self
                    .opened
                    .iter()
                    .any(|&o| pos.slide_through_reaches(o, sq, self.by))
        };
        if simple {
            return true;
        }
        let far = if self.reach_marked {
            self.reach[sq.index()]
        } else if self.asked < ASK_BEFORE_MARKING {
            self.asked += 1;
            pos.is_attacked_by_complex(sq, self.by, &self.far)
        } else {
            pos.mark_complex_reach(self.by, &self.far, &mut self.reach, &mut self.scratch);
            self.reach_marked = true;
            self.reach[sq.index()]
        };
        far || self.near_attacks(pos, sq)
            || (pos.variant().has_burners() && pos.burn_attacked(sq, self.by))
    }

    /// Whether one of the near complex pieces takes on `sq` by its paths:
    /// [`Position::is_attacked_by_complex`] on them, with each piece's kind and bound read
    /// once per position rather than from the tables at every ask. Nearly every piece asked
    /// lies beyond the bound of every near piece. A piece the capture removed is skipped;
    /// where it changed one in place (a reversion under Ko Shogi's rule module), each square
    /// is asked as it now stands.
    fn near_attacks(&self, pos: &Position, sq: Square) -> bool {
        if self.retest_all {
            return self
                .near
                .iter()
                .any(|n| pos.is_attacked_by_complex(sq, self.by, std::slice::from_ref(&n.sq)));
        }
        let g = &pos.variant().geometry;
        self.near.iter().any(|n| {
            let (df, dr) = g.steps_between(n.sq, sq);
            n.reach.may_reach(df, dr)
                && pos.board[n.sq.index()] == n.piece
                && pos.complex_attacks(n.sq, n.piece, sq)
        })
    }

    /// Forgets the capture last played, before the next one.
    pub(crate) fn unplayed(&mut self) {
        self.opened.clear();
        self.restore_counts();
        self.retest_all = false;
        self.asked = 0;
        if !self.far.is_empty() {
            // Marked only by the full walk, which sets `reach_marked`.
            if self.reach_marked {
                self.reach.fill(false);
            }
            self.reach_marked = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_positions::random_positions;

    /// The squares of `color`'s pieces in board order.
    fn pieces_of(pos: &Position, color: Color) -> Vec<Square> {
        let squares = pos.variant().geometry.squares().iter().copied();
        squares
            .filter(|sq| pos.piece_at(*sq).is_color(color))
            .collect()
    }

    /// Starts `exposure` on `pos` against `by`'s attacks, with the lists the material
    /// estimate's walk gives it.
    fn start_on(exposure: &mut Exposure, pos: &Position, by: Color) {
        let complex = pos.complex_attacker_squares(by);
        exposure.clear_lists();
        for sq in pieces_of(pos, by) {
            exposure.list(sq, complex.contains(&sq));
        }
        exposure.start(pos, by);
    }

    /// After every capture (a board move that takes) in random positions of every built-in
    /// variant, each piece of the capturing side is attacked exactly when
    /// [`Position::is_attacked`] says so. In every other position the answers ask only the
    /// first pieces, more after each capture, as the material estimate's answers stop early:
    /// the far complex pieces are then asked one by one after some captures and walked in
    /// full after others. Every third capture is made and taken back unasked, as the estimate
    /// does with a capture no better than the best so far.
    #[test]
    fn the_exposure_after_a_capture_matches_the_full_attack_test() {
        for id in crate::variant::builtin_ids() {
            let mut checked = 0usize;
            let mut attacked = 0usize;
            let mut visited = 0usize;
            // One exposure serves every position, as in the material estimate.
            let mut exposure = Exposure::default();
            random_positions(id, 6, |pos, legal| {
                visited += 1;
                let us = pos.side_to_move();
                let them = us.opposite();
                let ours = pieces_of(pos, us);
                start_on(&mut exposure, pos, them);
                let captures: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| {
                        !m.is_drop()
                            && (!m.kills().is_empty() || pos.piece_at(m.to()).is_color(them))
                    })
                    .collect();
                for (k, m) in captures.iter().enumerate() {
                    let asked = if visited.is_multiple_of(2) {
                        ours.len()
                    } else {
                        2 * (k + 1)
                    };
                    exposure.before_capture(pos, m);
                    pos.make_move(*m);
                    if (k + visited).is_multiple_of(3) {
                        // Tried and not answered: never played nor unplayed.
                        pos.unmake_move();
                        continue;
                    }
                    exposure.played(pos, m);
                    for &sq in ours.iter().take(asked) {
                        let moved = sq == m.from();
                        let sq = if moved { m.to() } else { sq };
                        if !pos.piece_at(sq).is_color(us) {
                            continue;
                        }
                        let want = pos.is_attacked(sq, them);
                        let got = exposure.attacked(pos, sq);
                        assert_eq!(got, want, "{id} {m:?} {sq:?} {}", pos.to_text());
                        checked += 1;
                        attacked += want as usize;
                    }
                    exposure.unplayed();
                    pos.unmake_move();
                }
            });
            assert!(attacked > 100, "{id}: {attacked} of {checked} attacked");
        }
    }

    /// A Ko Shogi position from `text`, its legal move from `from` to `to`, and the square
    /// `asked`.
    fn ko_capture(text: &str, from: &str, to: &str, asked: &str) -> (Position, Move, Square) {
        let v = crate::load_variant("ko-shogi").unwrap();
        let mut pos = Position::from_text(&v, text).unwrap();
        let sq = |name: &str| v.geometry.parse(name).unwrap();
        let (from, to) = (sq(from), sq(to));
        let m = *pos
            .legal_moves()
            .iter()
            .find(|m| m.from() == from && m.to() == to)
            .unwrap();
        (pos, m, sq(asked))
    }

    /// A capture that removes a piece it does not name: White's poison flame takes on j9 and
    /// its arrival burn (Ko Shogi §6) removes Black's elephant on k9, the only attacker of
    /// White's middle troop on n12. The elephant's diagonal was counted before the capture and
    /// is no victim of the move, so the counts say the troop is still attacked; the exposure
    /// must see from the rule module's journal that it is not.
    #[test]
    fn a_piece_burnt_by_the_capture_attacks_no_more() {
        let text =
            "18g/19/19/19/19/19/19/13(mt)5/19/9(pf)9/9(MT)(EL)8/19/19/19/19/19/19/19/G18 w - 0";
        let (mut pos, m, n12) = ko_capture(text, "j10", "j9", "n12");
        assert!(pos.is_attacked(n12, Color::Black), "{}", pos.to_text());
        let mut exposure = Exposure::default();
        start_on(&mut exposure, &pos, Color::Black);
        exposure.before_capture(&pos, &m);
        pos.make_move(m);
        exposure.played(&pos, &m);
        assert!(!pos.is_attacked(n12, Color::Black), "{}", pos.to_text());
        assert!(!exposure.attacked(&pos, n12));
        exposure.unplayed();
        pos.unmake_move();
    }

    /// A capture that changes an attacker in place: White's sumo wrestler takes Black's only
    /// priest on r5, so Black's thunderclap on j10 reverts to a drum (Ko Shogi §8.5), whose
    /// diagonal step now reaches White's piece on k11. No line opened there and the piece did
    /// not move, yet it is attacked after the capture, though its count says no attack; asked
    /// after the same capture twice, the exposure must see it both times.
    #[test]
    fn an_attacker_changed_by_the_capture_is_seen() {
        let text =
            "18g/19/19/19/19/19/19/19/10(sw)8/9(TC)9/19/19/19/17(sw)1/17(TP)1/19/19/19/G18 w - 0";
        let (mut pos, m, k11) = ko_capture(text, "r6", "r5", "k11");
        let r5 = m.to();
        assert!(!pos.is_attacked(k11, Color::Black));
        let mut exposure = Exposure::default();
        start_on(&mut exposure, &pos, Color::Black);
        for _ in 0..2 {
            exposure.before_capture(&pos, &m);
            pos.make_move(m);
            exposure.played(&pos, &m);
            assert!(pos.is_attacked(k11, Color::Black), "{}", pos.to_text());
            assert!(exposure.attacked(&pos, r5) == pos.is_attacked(r5, Color::Black));
            assert!(exposure.attacked(&pos, k11));
            exposure.unplayed();
            pos.unmake_move();
        }
    }
}

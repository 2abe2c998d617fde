//! Material values derived from the variant itself: the greedy baseline's notion of the best
//! capture, and the material balance the network learns to predict (see
//! [`PieceValues::balance`]).
//!
//! Large variants have dozens of piece types with no agreed values, so the table is computed:
//! a piece is worth the number of squares it can move to from the centre of an otherwise
//! empty board (its mobility, the classic first approximation of value), and a royal piece
//! is worth [`ROYAL_VALUE`], more than any material, so that taking it comes first where the
//! rules allow it.

use crate::board_scan::Side;
use crate::color::Color;
use crate::exposure::Exposure;
use crate::fen::board_text;
use crate::mv::Move;
use crate::piece::{Piece, PieceKind};
use crate::position::Position;
use crate::variant::{CheckRule, Variant};
use std::sync::Arc;

/// The value of a royal piece: more than all other material together on any supported board.
pub const ROYAL_VALUE: u32 = 1_000_000;

/// One value per piece kind of a variant.
#[derive(Debug, Clone, PartialEq)]
pub struct PieceValues {
    values: Vec<u32>,
    /// The unit of [`PieceValues::balance`]: four times the mean value of a non-royal kind.
    scale: f32,
    /// Most value a promotion adds (bounds what a capture can gain).
    max_promotion_gain: i64,
    /// Per colour and piece code: what a board square holding that code adds to
    /// [`PieceValues::difference`] for the colour. Read at every square of the walks that
    /// count material, where looking up the kind's royal flag in its piece type cost a cache
    /// line per kind.
    material: Box<[[i64; 256]; 2]>,
    /// Per colour and piece code: the value of that code where it is a piece of the colour,
    /// else 0 ([`PieceValues::capture_value`]'s victims).
    victim: Box<[[u32; 256]; 2]>,
    /// Per kind: the rank of its value among the variant's distinct values, most valuable
    /// first (equal values share a rank), by which the estimate orders a side's pieces.
    value_rank: Vec<u8>,
    /// The distinct values, most valuable first: the value of each rank.
    rank_value: Vec<u32>,
}

impl PieceValues {
    /// Computes the table once per variant: mobility from the centre, at least 1 per piece.
    pub fn new(variant: &Arc<Variant>) -> PieceValues {
        let values = (0..variant.num_kinds())
            .map(|k| {
                let kind = PieceKind(k as u8);
                if variant.piece(kind).royal {
                    ROYAL_VALUE
                } else {
                    centre_mobility(variant, kind).unwrap_or(1).max(1)
                }
            })
            .collect::<Vec<u32>>();
        let plain: Vec<u32> = values
            .iter()
            .copied()
            .filter(|&v| v < ROYAL_VALUE)
            .collect();
        let mean = plain.iter().sum::<u32>() as f32 / plain.len().max(1) as f32;
        let max_promotion_gain = variant
            .pieces
            .iter()
            .enumerate()
            .filter_map(|(k, p)| {
                let base = p.demotes_to?;
                Some(values[k] as i64 - values[base.index()] as i64)
            })
            .filter(|&g| g < ROYAL_VALUE as i64 / 2)
            .max()
            .unwrap_or(0)
            .max(0);
        let mut material = Box::new([[0i64; 256]; 2]);
        let mut victim = Box::new([[0u32; 256]; 2]);
        for (k, &value) in values.iter().enumerate() {
            let kind = PieceKind(k as u8);
            for owner in Color::ALL {
                let code = Piece::new(kind, owner).index();
                victim[owner.index()][code] = value;
                if !variant.piece(kind).royal {
                    for view in Color::ALL {
                        let sign = if view == owner { 1 } else { -1 };
                        material[view.index()][code] = sign * value as i64;
                    }
                }
            }
        }
        let mut distinct = values.clone();
        distinct.sort_unstable_by(|a, b| b.cmp(a));
        distinct.dedup();
        let value_rank = values
            .iter()
            .map(|v| distinct.partition_point(|d| d > v) as u8)
            .collect();
        PieceValues {
            rank_value: distinct,
            value_rank,
            values,
            scale: 4.0 * mean.max(1.0),
            max_promotion_gain,
            material,
            victim,
        }
    }

    /// The mean value of the non-royal piece kinds (at least 1): the unit in which material
    /// margins are read, by [`PieceValues::balance`] (four of them) and by whoever reports
    /// how far ahead a side stands.
    pub fn mean_value(&self) -> f32 {
        self.scale / 4.0
    }

    /// The most value a promotion adds to a piece (bounds what one capture can gain).
    pub fn max_promotion_gain(&self) -> i64 {
        self.max_promotion_gain
    }

    /// The value of a piece kind.
    pub fn value(&self, kind: PieceKind) -> u32 {
        self.values.get(kind.index()).copied().unwrap_or(1)
    }

    /// The material balance of `pos` for `color`, in (-1, 1): tanh of (own minus enemy
    /// non-royal material, on the board and in hand) over four mean piece values, so that one
    /// average piece won (counted twice where captures go to hand) moves it by about 0.45 and
    /// it saturates only when a side is several pieces ahead. This is what the network's
    /// material head predicts a few plies ahead, a dense short-term signal (like the score
    /// and short-term targets of Go engines) that teaches what hanging pieces cost long
    /// before game results do.
    pub fn balance(&self, pos: &Position, color: Color) -> f32 {
        self.balance_about(pos, color, 0.0)
    }

    /// [`PieceValues::balance`] counted from `centre` (a difference in value units) instead
    /// of from level material: tanh of (difference minus `centre`) over four mean piece
    /// values. A search centred on its root's difference keeps a full piece's worth of
    /// preference for every piece won or lost, however far ahead the root already stands.
    /// The centre is fractional so that a positional term folded into it (the search's
    /// mop-up term) keeps changes smaller than one value unit.
    pub fn balance_about(&self, pos: &Position, color: Color, centre: f32) -> f32 {
        self.squash_about(self.difference(pos, color), centre)
    }

    /// A difference in value units mapped into (-1, 1).
    fn squash(&self, diff: i64) -> f32 {
        self.squash_about(diff, 0.0)
    }

    /// A difference in value units, counted from `centre`, mapped into (-1, 1).
    fn squash_about(&self, diff: i64, centre: f32) -> f32 {
        ((diff as f32 - centre) / self.scale).tanh()
    }

    /// Own minus enemy non-royal material of `color`, on the board and in hand, in value units.
    pub fn difference(&self, pos: &Position, color: Color) -> i64 {
        let v = pos.variant();
        let board: i64 = v
            .geometry
            .squares()
            .iter()
            .map(|&sq| self.board_material(pos.piece_at(sq), color))
            .sum();
        board + self.hand_difference(pos, color)
    }

    /// What a board square holding `p` adds to [`PieceValues::difference`] for `color`: its
    /// value, negative for the opponent's, nothing for an empty square or a royal piece.
    #[inline]
    fn board_material(&self, p: Piece, color: Color) -> i64 {
        self.material[color.index()][p.index()]
    }

    /// Own minus enemy material in hand of `color` (0 where captures do not go to hand).
    fn hand_difference(&self, pos: &Position, color: Color) -> i64 {
        let v = pos.variant();
        if !v.rules.drops {
            return 0;
        }
        (0..v.num_kinds())
            .map(|k| {
                let kind = PieceKind(k as u8);
                let own = pos.in_hand(color, kind) as i64;
                let theirs = pos.in_hand(color.opposite(), kind) as i64;
                self.value(kind) as i64 * (own - theirs)
            })
            .sum()
    }

    /// The balance (as [`PieceValues::balance`]) for the side to move once the captures under
    /// way are played out: a capture-only alpha-beta search of at most `depth` plies in which
    /// either side may stop capturing (stand pat). A piece left where it can be taken for free
    /// is counted as lost, a free piece of the opponent as won; exchanges count by what they
    /// net. The search adds this to the network's value so that it sees, from its first
    /// simulation, what a move puts en prise.
    pub fn resolved_balance(&self, pos: &mut Position, depth: u32) -> f32 {
        let us = pos.side_to_move();
        let mut moves = Vec::new();
        let diff = self.capture_search(pos, i64::MIN + 1, i64::MAX, depth, &mut moves);
        debug_assert_eq!(pos.side_to_move(), us);
        self.squash(diff)
    }

    /// [`PieceValues::resolved_balance`] at depth 2 without a move generation: the side to
    /// move's captures are taken from `legal` (the position's legal moves, which a search leaf
    /// has already generated), and the best answer to each is the opponent's best capture of
    /// one of the side's pieces it then attacks (a reverse attack test per piece, most
    /// valuable first; the attackers' capturing moves tried for legality and promotion, and
    /// under Ko Shogi's rule module played). The answer can differ from the two-ply search
    /// where an answer removes a piece no attack test shows (Ko Shogi's shots and burns,
    /// burning pieces), or where an answer on a less valuable piece would also take others
    /// and the cut-offs stop before it.
    pub fn quick_balance(&self, pos: &mut Position, legal: &[Move]) -> f32 {
        self.quick_balance_about(pos, legal, 0.0)
    }

    /// [`PieceValues::quick_balance`] counted from `centre`, as
    /// [`PieceValues::balance_about`] counts. A capture of the last royal piece is still 1.
    pub fn quick_balance_about(&self, pos: &mut Position, legal: &[Move], centre: f32) -> f32 {
        SCRATCH.with(|s| match s.try_borrow_mut() {
            Ok(mut s) => self.quick_balance_with(pos, legal, centre, &mut s),
            // Only a re-entrant call (none today) finds the buffers taken.
            Err(_) => self.quick_balance_with(pos, legal, centre, &mut QuickScratch::default()),
        })
    }

    fn quick_balance_with(
        &self,
        pos: &mut Position,
        legal: &[Move],
        centre: f32,
        s: &mut QuickScratch,
    ) -> f32 {
        let us = pos.side_to_move();
        let them = us.opposite();
        let hand = if pos.variant().rules.drops { 2 } else { 1 };
        // Each capture with what it nets before any answer: exactly where the move alone
        // decides it, else a bound (a victim counted twice where captures go to hand, and
        // the largest promotion).
        s.captures.clear();
        s.captures.extend(legal.iter().filter_map(|m| {
            let taken = self.capture_value(pos, m) as i64;
            if taken == 0 {
                return None;
            }
            // A royal victim puts its capture first (its material counts nothing).
            let exact = (taken < ROYAL_VALUE as i64)
                .then(|| self.capture_gain(pos, m))
                .flatten();
            Some(match exact {
                Some(gain) => (gain, true, *m),
                None => (taken * hand + self.max_promotion_gain, false, *m),
            })
        }));
        if s.captures.is_empty() {
            return self.squash_about(self.difference(pos, us), centre);
        }
        s.captures.sort_unstable_by_key(|c| std::cmp::Reverse(c.0));
        // One walk of the board: the material, our pieces most valuable first (the
        // opponent's answers look at them in this order), and the opponent's pieces, all of
        // them (the exposure counts their attacks) and the complex ones.
        let v = pos.variant().clone();
        let complex_kinds = &v.attacks[them.index()].complex;
        let mut board = 0i64;
        s.ours.clear();
        s.exposure.clear_lists();
        pos.for_each_piece(Side::Any, |sq, p| {
            if p.color() == us {
                s.ours
                    .push(OurPiece::key(self.value_rank[p.kind().index()], sq));
            } else {
                s.exposure.list(sq, complex_kinds.contains(p));
            }
            board += self.board_material(p, us);
        });
        let stand = board + self.hand_difference(pos, us);
        self.sort_ours(s);
        // Which of our pieces the opponent attacks after each capture, found without testing
        // every piece again (see `crate::exposure`).
        let exposure = &mut s.exposure;
        exposure.start(pos, them);
        let mut best = stand;
        let multiple = v.ko.is_some();
        for &(gain, exact, m) in &s.captures {
            // Captures come best first: once even this one cannot beat the best, none of the
            // rest can.
            if stand + gain <= best {
                break;
            }
            let moved = (!m.is_drop()).then(|| m.from());
            exposure.before_capture(pos, &m);
            pos.make_move_keeping_counters_in(&v, m);
            if pos.royal_count(them) == 0 {
                pos.unmake_move();
                return 1.0;
            }
            let after = if exact {
                stand + gain
            } else if let Some(change) = self.journaled_change(pos, us) {
                stand + change
            } else {
                self.difference(pos, us)
            };
            if after > best {
                // The answer that would make this capture no better than the best so far.
                let enough = after - best;
                exposure.played(pos, &m);
                // Ko Shogi's generation context belongs to this position: built for its first
                // answer, kept for the rest.
                s.answers.ko_context = None;
                let mut reply = 0i64;
                // The capturing piece, if still ours, now on the capture's destination.
                let to = m.to();
                let mover = (moved.is_some() && pos.board[to.index()].is_color(us))
                    .then(|| self.value(pos.board[to.index()].kind()) as i64);
                // Asked first where taking it back could settle the capture: that is the most
                // common answer, and when it is enough no other piece needs asking. The answer
                // is the best of those asked in either order; only an answer that takes more
                // than its victim (a lion's double capture), which the bound below does not
                // count, can be cut off in one order and not the other. Not under Ko Shogi's
                // rule module, whose answers are asked without that bound: there the pieces
                // in order of value settle most captures before the mover's turn comes.
                let mover_first = !multiple
                    && mover.is_some_and(|v| v * hand + self.max_promotion_gain >= enough);
                if mover_first {
                    let range = (reply, enough);
                    reply = self
                        .best_capture_on(pos, &v, to, them, hand, range, exposure, &mut s.answers)
                        .unwrap_or(reply);
                }
                for &key in &s.ours {
                    let (rank, sq) = OurPiece::read(key);
                    let value = i64::from(self.rank_value[rank]);
                    let is_mover = Some(sq) == moved;
                    if is_mover && (mover_first || mover.is_none()) {
                        continue;
                    }
                    let (value, sq) = match mover {
                        Some(v) if is_mover => (v, to),
                        _ => (value, sq),
                    };
                    // An answer gains at most its victim and a promotion, except under Ko
                    // Shogi's rule module, whose answers may take several pieces: there every
                    // attacked piece is asked until one answer is enough.
                    let bounded = value * hand + self.max_promotion_gain <= reply && !multiple;
                    if bounded || reply >= enough {
                        break;
                    }
                    let range = (reply, enough);
                    reply = self
                        .best_capture_on(pos, &v, sq, them, hand, range, exposure, &mut s.answers)
                        .unwrap_or(reply);
                }
                exposure.unplayed();
                best = best.max(after - reply);
            }
            pos.unmake_move();
        }
        self.squash_about(best, centre)
    }

    /// What a board move `m` of the side to move changes in [`PieceValues::difference`] for
    /// that side, read from the move alone (its victims leave the board and, where captures
    /// go to hand, enter the mover's hand demoted; the mover may change kind): make and
    /// unmake would give the same. `None` where the move may remove or change pieces away
    /// from its squares (burns; under Ko Shogi's rule module, a move whose make goes on past
    /// its own squares and promotion), and for drops.
    pub fn capture_gain(&self, pos: &Position, m: &Move) -> Option<i64> {
        let v = pos.variant();
        if m.is_drop() {
            return None;
        }
        let mover = pos.piece_at(m.from());
        if v.acts_away_from_moves() {
            let plain = v
                .ko
                .as_deref()
                .is_some_and(|ko| !v.has_burners() && ko.acts_only_on_its_squares(pos, mover, m));
            if !plain {
                return None;
            }
        }
        let us = pos.side_to_move();
        let victims = m
            .taken_squares()
            .map(|sq| pos.piece_at(sq))
            .filter(|p| p.is_piece());
        let mut gain = 0i64;
        for cap in victims.clone() {
            gain -= self.board_material(cap, us);
            if v.rules.drops {
                // Into the hand of the victim's opponent, demoted.
                let x = self.value(v.hand_kind(cap.kind())) as i64;
                gain += if cap.color() == us { -x } else { x };
            }
        }
        let promote = m.promotion() == crate::mv::Promotion::Promote;
        let end = Piece::new(
            v.end_kind(mover.kind(), victims.map(|c| c.kind()), promote),
            us,
        );
        Some(gain + self.board_material(end, us) - self.board_material(mover, us))
    }

    /// The change of [`PieceValues::difference`] for `color` that the last move made, read
    /// from the squares a rule module's make journaled (Ko Shogi's moves act away from their
    /// squares), instead of a walk over the whole board. `None` where the move was not made
    /// by a rule module, or the rules have drops (the hands would count too).
    pub fn journaled_change(&self, pos: &Position, color: Color) -> Option<i64> {
        if pos.variant().rules.drops {
            return None;
        }
        let journal = pos.last_move_journal()?;
        let mut change = 0;
        for (i, &(sq, old)) in journal.iter().enumerate() {
            if !journal[..i].iter().any(|&(s, _)| s == sq) {
                change +=
                    self.board_material(pos.piece_at(sq), color) - self.board_material(old, color);
            }
        }
        Some(change)
    }

    /// What `by`, to move, gains at best by a legal move that takes the piece on `sq` (its
    /// victims, into the hand where captures go there, and the capturer's change of kind),
    /// when that is more than `floor`; else `None` (also when no legal move takes it). The
    /// search stops at the first answer worth `enough` or more, where the caller's question
    /// is settled (the capture it answers gains no more than the best so far), so the gain
    /// returned is exact only below `enough`. `None` at once where `exposure` finds `sq` not
    /// attacked; else the moves of the pieces that may take there
    /// ([`Position::capture_candidates`], with the complex attackers `exposure` lists) are
    /// generated and tried for legality (a pinned piece, a king stepping into a defended
    /// square, a side in check), each only when its gain would beat the best so far. Under
    /// Ko Shogi's rule module the moves are played ([`PieceValues::best_ko_capture_on`]):
    /// the answers there often promote or take several pieces, and counting the victim
    /// alone overrated the captures they answer. Where burning pieces act away from their
    /// squares, the victim's value is the answer, its legality not tested.
    #[allow(clippy::too_many_arguments)]
    fn best_capture_on(
        &self,
        pos: &mut Position,
        v: &Variant,
        sq: crate::square::Square,
        by: Color,
        hand: i64,
        (floor, enough): (i64, i64),
        exposure: &mut Exposure,
        buffers: &mut AnswerBuffers,
    ) -> Option<i64> {
        if !exposure.attacked(pos, sq) {
            return None;
        }
        let complex = exposure.complex();
        if pos.variant.ko.is_some() {
            return self.best_ko_capture_on(pos, v, sq, by, (floor, enough), complex, buffers);
        }
        if pos.variant.acts_away_from_moves() {
            let gain = self.value(pos.board[sq.index()].kind()) as i64 * hand;
            return (gain > floor).then_some(gain);
        }
        let AnswerBuffers {
            moves, attackers, ..
        } = buffers;
        let mut best = None;
        let range = (floor, enough);
        pos.capture_candidates(sq, by, complex, attackers);
        attackers.sort_unstable();
        attackers.dedup();
        for &from in attackers.iter() {
            let p = pos.board[from.index()];
            moves.clear();
            // The plain capture first, then the paths' captures only if it did not settle
            // the question: the same moves in the same order as generating them together.
            let Some(plain) = pos.generate_plain_captures_on(from, p, sq, moves) else {
                continue;
            };
            if self.best_answer_among(pos, v, &moves[..], by, hand, range, &mut best) {
                return best;
            }
            let tried = moves.len();
            pos.generate_path_captures_on(from, p, sq, plain, 0, moves);
            if self.best_answer_among(pos, v, &moves[tried..], by, hand, range, &mut best) {
                return best;
            }
        }
        best
    }

    /// Tries answers of [`PieceValues::best_capture_on`] in order: `best` becomes the gain of
    /// each legal one that beats it (or `floor`). Returns whether one was worth `enough`,
    /// where the search stops.
    #[allow(clippy::too_many_arguments)]
    fn best_answer_among(
        &self,
        pos: &mut Position,
        v: &Variant,
        moves: &[Move],
        by: Color,
        hand: i64,
        (floor, enough): (i64, i64),
        best: &mut Option<i64>,
    ) -> bool {
        for &m in moves {
            let p = pos.board[m.from().index()];
            let victims = m
                .taken_squares()
                .map(|k| pos.board[k.index()])
                .filter(|q| q.is_color(by.opposite()))
                .map(|q| q.kind());
            let end = v.end_kind(
                p.kind(),
                victims,
                m.promotion() == crate::mv::Promotion::Promote,
            );
            let gain = self.capture_value(pos, &m) as i64 * hand + self.value(end) as i64
                - self.value(p.kind()) as i64;
            if gain > best.unwrap_or(floor) && pos.pseudo_legal_is_legal(m) {
                *best = Some(gain);
                if gain >= enough {
                    return true;
                }
            }
        }
        false
    }

    /// [`PieceValues::best_capture_on`] under Ko Shogi's rule module: the moves of the
    /// square's attackers that take the piece on `sq`, as the rule module generates them
    /// (a piece a net holds has none; a pawn's forward capture needs a drum; shots and the
    /// later legs of double moves count), are each played, and what a move gains is read from
    /// the squares its make journaled: its promotion and every piece it removes. Ko Shogi has
    /// no check rule, so every such move is legal. The attackers are those the attack test
    /// finds, from the pieces' tables: a piece that reaches `sq` only by a shot or a burn is
    /// not asked.
    #[allow(clippy::too_many_arguments)]
    fn best_ko_capture_on(
        &self,
        pos: &mut Position,
        v: &Variant,
        sq: crate::square::Square,
        by: Color,
        (floor, enough): (i64, i64),
        complex: &[crate::square::Square],
        buffers: &mut AnswerBuffers,
    ) -> Option<i64> {
        let ko = v.ko.as_deref()?;
        let AnswerBuffers {
            moves,
            attackers,
            ko_context,
        } = buffers;
        pos.attackers_given(sq, by, Some(complex), attackers);
        attackers.sort_unstable();
        attackers.dedup();
        moves.clear();
        if attackers.is_empty() {
            return None;
        }
        let ctx = ko_context.get_or_insert_with(|| ko.context(pos, by));
        for &from in attackers.iter() {
            ko.generate_piece_taking(pos, ctx, from, pos.board[from.index()], sq, moves);
        }
        let mut best = None;
        for &m in moves.iter() {
            // Read from the move where its make changes only the squares it names; else
            // played, and read from what the make journaled (Ko Shogi has no hands).
            let gain = self.capture_gain(pos, &m).or_else(|| {
                pos.make_move_keeping_counters_in(v, m);
                let gain = self.journaled_change(pos, by);
                debug_assert!(gain.is_some(), "a Ko Shogi make without a journal");
                pos.unmake_move();
                gain
            });
            if let Some(gain) = gain.filter(|&g| g > best.unwrap_or(floor)) {
                best = Some(gain);
                if gain >= enough {
                    break;
                }
            }
        }
        best
    }

    fn capture_search(
        &self,
        pos: &mut Position,
        mut alpha: i64,
        beta: i64,
        depth: u32,
        buf: &mut Vec<Move>,
    ) -> i64 {
        let us = pos.side_to_move();
        let stand = self.difference(pos, us);
        if stand >= beta || depth == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        buf.clear();
        pos.generate_board_captures(buf);
        // A capture gains at most twice its victim (off the board, into the hand): skip those
        // that cannot lift the score above alpha.
        let hand = if pos.variant().rules.drops { 2 } else { 1 };
        let mut captures: Vec<(u32, Move)> = buf
            .iter()
            .filter(|m| !m.is_drop())
            .map(|m| (self.capture_value(pos, m), *m))
            .filter(|&(v, _)| v > 0 && stand + hand * v as i64 + self.max_promotion_gain > alpha)
            .collect();
        captures.sort_by_key(|c| std::cmp::Reverse(c.0));
        let king_safety = pos.variant().rules.check == CheckRule::KingSafety;
        let mut best = stand;
        for (_, m) in captures {
            pos.make_move(m);
            if king_safety && pos.in_check(us) {
                pos.unmake_move();
                continue;
            }
            let score = -self.capture_search(pos, -beta, -alpha, depth - 1, buf);
            pos.unmake_move();
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The material a move captures in `pos` (0 for quiet moves and drops).
    pub fn capture_value(&self, pos: &Position, mv: &Move) -> u32 {
        if mv.is_drop() {
            return 0;
        }
        let victim = &self.victim[pos.side_to_move().opposite().index()];
        let taken = |sq: crate::square::Square| victim[pos.piece_at(sq).index()];
        mv.kills().iter().map(|&k| taken(k)).sum::<u32>() + taken(mv.to())
    }
}

/// Distinct destinations of a Black piece of `kind` on the centre square, with the two royal
/// pieces (which the position text requires) tucked into corners: in Ko Shogi, which has no
/// royal kind, its general, whose presence keeps each side in the game. `None` when no such
/// position can be set up (a tiny board, or the piece attacks every corner the enemy royal
/// could use).
fn centre_mobility(variant: &Arc<Variant>, kind: PieceKind) -> Option<u32> {
    let g = &variant.geometry;
    let (files, ranks) = (g.files(), g.ranks());
    let royal = (0..variant.num_kinds())
        .map(|i| PieceKind(i as u8))
        .find(|&k| variant.is_objective_kind(k))?;
    let centre = (files / 2, ranks / 2);
    let own_royal = (0, 0);
    let corners = [
        (files - 1, ranks - 1),
        (0, ranks - 1),
        (files - 1, 0),
        (1, ranks - 1),
        (files - 2, ranks - 1),
    ];
    for enemy in corners {
        if enemy == centre || enemy == own_royal || centre == own_royal {
            continue;
        }
        let board = board_text(
            variant,
            &[
                (centre, kind, Color::Black),
                (own_royal, royal, Color::Black),
                (enemy, royal, Color::White),
            ],
        );
        let text = format!("{board} b -");
        let Ok(pos) = Position::from_text(variant, &text) else {
            continue;
        };
        let from = g.square(centre.0, centre.1)?;
        let mut moves = Vec::new();
        pos.generate_pseudo_legal(&mut moves);
        let mut targets: Vec<_> = moves
            .iter()
            .filter(|m| !m.is_drop() && m.from() == from && m.to() != from)
            .map(|m| m.to())
            .collect();
        targets.sort();
        targets.dedup();
        return Some(targets.len() as u32);
    }
    None
}

/// The buffers of one thread's material estimates, kept between calls: a search asks for
/// one estimate per leaf, and allocating them anew was a tenth of its cost.
#[derive(Default)]
struct QuickScratch {
    captures: Vec<(i64, bool, Move)>,
    /// Our pieces as [`OurPiece`] keys.
    ours: Vec<u64>,
    /// [`PieceValues::sort_ours`]'s buffers: where each rank starts, and the sorted keys.
    rank_starts: Vec<u32>,
    sorted: Vec<u64>,
    /// Also holds the opponent's pieces, listed in board order by the estimate's walk.
    exposure: Exposure,
    answers: AnswerBuffers,
}

/// One of our pieces in [`PieceValues::quick_balance_with`]'s list, packed into one integer
/// whose ascending order is the order the answers are asked in: most valuable first, then by
/// square. Sorting plain integers costs a fraction of sorting pairs by a key, and this sort
/// runs at every leaf with a capture.
struct OurPiece;

impl OurPiece {
    fn key(rank: u8, sq: crate::square::Square) -> u64 {
        (u64::from(rank) << 32) | u64::from(sq.0)
    }

    /// The rank of the piece's value ([`PieceValues::value_rank`]) and its square.
    fn read(key: u64) -> (usize, crate::square::Square) {
        ((key >> 32) as usize, crate::square::Square(key as u16))
    }
}

/// Lists of our pieces longer than this are ordered by a counting sort on their values' ranks;
/// shorter ones by comparisons, which cost less there.
const COUNTING_SORT_FROM: usize = 48;

impl PieceValues {
    /// Orders `s.ours` (our pieces, in board order) by their keys: most valuable first, equal
    /// values in board order.
    fn sort_ours(&self, s: &mut QuickScratch) {
        if s.ours.len() < COUNTING_SORT_FROM {
            s.ours.sort_unstable();
            return;
        }
        // The pieces came in board order, which is the keys' order within a rank.
        s.rank_starts.clear();
        s.rank_starts.resize(self.rank_value.len() + 1, 0);
        for &key in &s.ours {
            s.rank_starts[OurPiece::read(key).0 + 1] += 1;
        }
        for i in 1..s.rank_starts.len() {
            s.rank_starts[i] += s.rank_starts[i - 1];
        }
        s.sorted.clear();
        s.sorted.resize(s.ours.len(), 0);
        for &key in &s.ours {
            let slot = &mut s.rank_starts[OurPiece::read(key).0];
            s.sorted[*slot as usize] = key;
            *slot += 1;
        }
        std::mem::swap(&mut s.ours, &mut s.sorted);
        debug_assert!(s.ours.is_sorted());
    }
}

/// The buffers of [`PieceValues::best_capture_on`].
#[derive(Default)]
struct AnswerBuffers {
    moves: Vec<Move>,
    attackers: Vec<crate::square::Square>,
    /// Ko Shogi's generation context for the answering side in the position being answered
    /// (which of its pieces the enemy nets hold, where the enemy fogs stand, whether it has a
    /// drum): the same for every attacked piece asked after one capture, so the caller clears
    /// it once per capture and the first answer builds it. Building it walks the board.
    ko_context: Option<crate::ko_shogi::Context>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<QuickScratch> = std::cell::RefCell::new(QuickScratch::default());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load_variant;
    use crate::test_positions::{random_pieces, random_positions};

    #[test]
    fn the_gain_read_from_a_move_or_its_journal_is_the_change_of_material_it_makes() {
        for id in crate::variant::builtin_ids() {
            let v = load_variant(id).unwrap();
            let t = PieceValues::new(&v);
            let (mut checked, mut captures) = (0, 0);
            random_positions(id, 6, |pos, legal| {
                let us = pos.side_to_move();
                let stand = t.difference(pos, us);
                for m in legal {
                    let gain = t.capture_gain(pos, m);
                    pos.make_move(*m);
                    let full = t.difference(pos, us);
                    let Some(gain) = gain.or_else(|| t.journaled_change(pos, us)) else {
                        pos.unmake_move();
                        continue;
                    };
                    pos.unmake_move();
                    assert_eq!(stand + gain, full, "{id} {m:?} {}", pos.to_text());
                    checked += 1;
                    captures += usize::from(t.capture_value(pos, m) > 0);
                }
            });
            assert!(
                (checked > 1000 && captures > 50) || (v.has_burners() && v.ko.is_none()),
                "{id}: {checked} moves, {captures} captures"
            );
        }
    }

    /// The counting sort of our pieces gives the order a comparison sort of their keys
    /// gives, on every variant's positions, the long lists (those it sorts) included.
    #[test]
    fn our_pieces_are_ordered_as_their_keys() {
        let mut long = 0;
        for id in crate::variant::builtin_ids() {
            let v = load_variant(id).unwrap();
            let t = PieceValues::new(&v);
            let mut s = QuickScratch::default();
            random_positions(id, 4, |pos, _| {
                for us in Color::ALL {
                    s.ours.clear();
                    pos.for_each_piece(Side::Of(us), |sq, p| {
                        s.ours
                            .push(OurPiece::key(t.value_rank[p.kind().index()], sq));
                        let (rank, _) = OurPiece::read(*s.ours.last().unwrap());
                        assert_eq!(t.rank_value[rank], t.value(p.kind()), "{id}");
                    });
                    long += usize::from(s.ours.len() >= COUNTING_SORT_FROM);
                    let mut expected = s.ours.clone();
                    expected.sort_unstable();
                    t.sort_ours(&mut s);
                    assert_eq!(s.ours, expected, "{id}");
                }
            });
        }
        assert!(long > 20, "{long} long lists");
    }

    /// Every variant's pieces are valued by their mobility, Ko Shogi's too, though it has no
    /// royal kind to set the measuring position up with: a queen-like millenary is worth more
    /// than the king-stepping general, which is worth more than a pawn.
    #[test]
    fn every_variant_values_its_pieces_by_mobility() {
        for id in crate::variant::builtin_ids() {
            let v = load_variant(id).unwrap();
            let t = PieceValues::new(&v);
            let plain: Vec<u32> = t
                .values
                .iter()
                .copied()
                .filter(|&x| x < ROYAL_VALUE)
                .collect();
            assert!(
                plain.iter().any(|&x| x != plain[0]) && t.mean_value() > 2.0,
                "{id}: {plain:?}"
            );
        }
        let v = load_variant("ko-shogi").unwrap();
        let t = PieceValues::new(&v);
        let value = |id: &str| t.value(v.kind_by_id(id).unwrap());
        assert_eq!(value("MI"), 71, "a queen's reach from the centre of 19x19");
        assert_eq!(value("G"), 8);
        // Measured on the bare board: with no drum there, the pawn has no forward step.
        assert_eq!(value("P"), 3);
        assert!((t.mean_value() - 22.86).abs() < 0.01, "{}", t.mean_value());
    }

    #[test]
    fn a_make_for_material_changes_what_a_make_does_but_the_movers_counters() {
        for id in crate::variant::builtin_ids() {
            let mut checked = 0;
            random_positions(id, 3, |pos, legal| {
                let before_hash = pos.hash();
                for &m in legal.iter().step_by(3) {
                    let mut full = pos.clone();
                    full.make_move(m);
                    let mut quick = pos.clone();
                    quick.make_move_keeping_counters(m);
                    let text = pos.to_text();
                    assert_eq!(quick.board, full.board, "{id} {m:?} {text}");
                    assert_eq!(quick.hands, full.hands, "{id} {m:?} {text}");
                    assert_eq!(quick.side_to_move(), full.side_to_move());
                    assert_eq!(quick.royals, full.royals, "{id} {m:?} {text}");
                    let (q, was) = (&quick.counters, &pos.counters);
                    assert_eq!((q.skips, q.checks), (was.skips, was.checks), "{id} {m:?}");
                    assert_eq!(q.lion_ban, full.counters.lion_ban, "{id} {m:?} {text}");
                    // The opponent's moves are the same: its own counters decide them.
                    assert_eq!(quick.legal_moves(), full.legal_moves(), "{id} {m:?} {text}");
                    quick.unmake_move();
                    assert!(quick == *pos && quick.hash() == before_hash, "{id} {m:?}");
                    checked += 1;
                }
            });
            assert!(checked > 100, "{id}: {checked} moves");
        }
    }

    /// The moves of `all` that take on `target` (their destination or on the way), sorted.
    fn taking(all: &[Move], target: crate::square::Square) -> Vec<Move> {
        let mut moves: Vec<Move> = all
            .iter()
            .copied()
            .filter(|m| m.to() == target || m.kills().contains(&target))
            .collect();
        moves.sort();
        moves
    }

    #[test]
    fn the_targeted_capture_generator_finds_every_capture_of_a_square() {
        for id in crate::variant::builtin_ids() {
            let mut found = 0;
            random_pieces(id, 4, |pos, from, p| {
                let g = &pos.variant().geometry;
                let mut all = Vec::new();
                pos.generate_kind_from(from, p, &mut all);
                for &target in g.squares() {
                    if !pos.piece_at(target).is_color(p.color().opposite()) {
                        continue;
                    }
                    let mut got = Vec::new();
                    pos.generate_captures_on(from, p, target, &mut got);
                    got.sort();
                    let want = taking(&all, target);
                    assert_eq!(got, want, "{id} {from:?} {target:?} {}", pos.to_text());
                    found += got.len();
                }
            });
            assert!(found > 100, "{id}: {found} captures");
        }
    }

    /// Ko Shogi's answers are generated per role, aimed at their victim where the role
    /// allows: the same moves as the piece's full generation filtered to those that take it.
    /// Each piece is also asked as if its side had no drum (a pawn's forward capture then
    /// goes) and as if a net held it (no moves at all).
    #[test]
    fn ko_shogi_answers_aimed_at_a_square_are_the_pieces_moves_that_take_it() {
        let mut found = 0;
        random_pieces("ko-shogi", 6, |pos, from, p| {
            let v = pos.variant().clone();
            let ko = v.ko.as_deref().unwrap();
            let real = ko.context(pos, p.color());
            let no_drum = crate::ko_shogi::Context {
                drum: false,
                ..ko.context(pos, p.color())
            };
            let held = crate::ko_shogi::Context {
                frozen: vec![from],
                ..ko.context(pos, p.color())
            };
            for ctx in [&real, &no_drum, &held] {
                let mut all = Vec::new();
                ko.generate_piece(pos, ctx, from, p, &mut all);
                for &target in v.geometry.squares() {
                    if !pos.piece_at(target).is_color(p.color().opposite()) {
                        continue;
                    }
                    // Moves already in the buffer stay as they are.
                    let mut got = vec![Move::new(from, from)];
                    ko.generate_piece_taking(pos, ctx, from, p, target, &mut got);
                    assert_eq!(got.remove(0), Move::new(from, from));
                    got.sort();
                    got.dedup();
                    let mut want = taking(&all, target);
                    want.dedup();
                    assert_eq!(got, want, "{from:?} {target:?} {}", pos.to_text());
                    found += got.len();
                }
            }
        });
        assert!(found > 100, "{found} captures");
    }

    #[test]
    fn hand_shogi_values_follow_mobility() {
        let v = load_variant("hand-shogi").unwrap();
        let t = PieceValues::new(&v);
        let val = |id: &str| t.value(v.kind_by_id(id).unwrap());
        assert_eq!(val("K"), ROYAL_VALUE);
        assert_eq!(val("G"), 6);
        assert_eq!(val("S"), 5);
        assert_eq!(val("SO"), 3);
        assert_eq!(val("SH"), 12);
        assert_eq!(val("T"), 12);
        assert_eq!(val("N"), 2);
        assert_eq!(val("L"), 4);
        assert_eq!(val("PD"), 8);
    }

    #[test]
    fn balance_counts_board_and_hand_for_each_side() {
        let v = load_variant("hand-shogi").unwrap();
        let t = PieceValues::new(&v);
        let start = Position::start(&v);
        assert_eq!(t.balance(&start, Color::Black), 0.0);
        // Black has a gold on the board and one in hand; White has a silver in hand.
        let pos = Position::from_text(&v, "4k4/9/9/9/9/9/9/4G4/4K4 b Gs").unwrap();
        let expect = ((6.0 + 6.0 - 5.0) / t.scale).tanh();
        assert!((t.balance(&pos, Color::Black) - expect).abs() < 1e-6);
        assert!((t.balance(&pos, Color::White) + expect).abs() < 1e-6);
        assert!(t.scale > 10.0 && t.scale < 40.0, "scale {}", t.scale);
        // Counted from Black's own lead of 7, the position is level for either side.
        assert_eq!(t.balance_about(&pos, Color::Black, 7.0), 0.0);
        assert_eq!(t.balance_about(&pos, Color::White, -7.0), 0.0);
        let centred = t.balance_about(&start, Color::Black, 7.0);
        assert!((centred + (7.0 / t.scale).tanh()).abs() < 1e-6, "{centred}");
        // A fractional centre counts a change of less than one unit.
        let half = t.balance_about(&pos, Color::Black, 6.5);
        assert!((half - (0.5 / t.scale).tanh()).abs() < 1e-6, "{half}");
    }

    #[test]
    fn quick_balance_about_a_centre_counts_only_the_change() {
        let v = load_variant("hand-shogi").unwrap();
        let t = PieceValues::new(&v);
        // Black is far ahead (a gold and a lance on the board, five pieces in hand), and its
        // lance can take White's hanging gold (6 off the board, 6 into Black's hand).
        let mut pos = Position::from_text(&v, "4k4/9/9/9/4g4/9/9/4L4/G3K4 b GGSSS").unwrap();
        let legal = pos.legal_moves();
        let d = t.difference(&pos, Color::Black);
        assert!(d > 12, "{d}");
        let from_level = t.quick_balance(&mut pos, &legal);
        let about = t.quick_balance_about(&mut pos, &legal, d as f32);
        assert!((from_level - ((d + 12) as f32 / t.scale).tanh()).abs() < 1e-6);
        assert!((about - (12.0 / t.scale).tanh()).abs() < 1e-6, "{about}");
        // Far ahead, the capture barely moves the balance counted from level material; counted
        // from the position's own difference it is worth what it is worth in a level game.
        let level_gain = from_level - t.balance(&pos, Color::Black);
        assert!(about > 2.0 * level_gain, "{about} {level_gain}");
        // A lone gold takes nothing: counted from its own difference the position is level.
        let mut quiet = Position::from_text(&v, "4k4/9/9/9/9/9/9/4G4/4K4 b -").unwrap();
        let legal = quiet.legal_moves();
        let d = t.difference(&quiet, Color::Black);
        assert_eq!(t.quick_balance_about(&mut quiet, &legal, d as f32), 0.0);
    }

    #[test]
    fn resolved_balance_counts_hanging_pieces_and_exchanges() {
        let v = load_variant("hand-shogi").unwrap();
        let t = PieceValues::new(&v);
        let resolved = |text: &str| {
            let mut pos = Position::from_text(&v, text).unwrap();
            let r = t.resolved_balance(&mut pos, 4);
            let d = t.difference(&pos, pos.side_to_move());
            (r, d)
        };
        // White's gold on e5 hangs to Black's lance on e2: Black to move wins it (6 off the
        // board, 6 into Black's hand).
        let (r, d) = resolved("4k4/9/9/9/4g4/9/9/4L4/4K4 b -");
        assert!(
            (r - ((d + 12) as f32 / t.scale).tanh()).abs() < 1e-6,
            "{r} {d}"
        );
        // Defended by White's silver on e6 (its diagonal back step does not cover e5; its
        // forward step does for White): the lance (4) for the gold (6) then the silver takes the
        // lance: +12 - 8 = +4 for Black, better than standing pat.
        let (r, d) = resolved("4k4/9/9/4s4/4g4/9/9/4L4/4K4 b -");
        assert!(
            (r - ((d + 4) as f32 / t.scale).tanh()).abs() < 1e-6,
            "{r} {d}"
        );
        // White to move in the first position: nothing to capture, the balance stays.
        let (r, d) = resolved("4k4/9/9/9/4g4/9/9/4L4/4K4 w -");
        assert!((r - (d as f32 / t.scale).tanh()).abs() < 1e-6, "{r} {d}");
    }
}

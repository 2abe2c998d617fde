//! The game state: board, hands, side to move, hash, and the history that make/unmake and the
//! repetition rules need.

use crate::board_scan::{scan_pieces, Side};
use crate::color::Color;
use crate::mv::{Move, Promotion, MAX_KILLS};
use crate::piece::{Piece, PieceKind};
use crate::square::Square;
use crate::variant::Variant;
use std::sync::Arc;

/// Most pieces one move removes: its kill squares, its destination, and the eight
/// neighbours a burning piece clears ([`crate::burning`]).
pub(crate) const MAX_CAPTURED: usize = MAX_KILLS + 1 + 8;

/// What [`Position::unmake_move`] needs to take a move back.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Undo {
    pub(crate) mv: Move,
    /// The piece as it stood on the origin (or the dropped piece).
    pub(crate) moved: Piece,
    /// Captured pieces with their squares: kill squares in order, then the destination, then
    /// the pieces a burning mover burnt.
    pub(crate) captured: [(Square, Piece); MAX_CAPTURED],
    pub(crate) ncaptured: u8,
    pub(crate) hash_before: u64,
    pub(crate) royal_sq_before: [Square; 2],
    pub(crate) royals_before: [u8; 2],
    /// Rule counters before the move (see [`crate::counters`]).
    pub(crate) counters_before: Counters,
    /// Whether the move left the opponent in check (kept only where a rule needs it).
    pub(crate) gave_check: bool,
    /// Length of [`Position::journal`] before the move: a rule module's make records there
    /// every square it changes, and unmake restores them.
    pub(crate) journal_len: u32,
}

/// The rule counters that change which moves are legal, so belong to the position: turn
/// skips and checking moves in a row, per colour. They stay zero in variants without the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub(crate) struct Counters {
    pub(crate) skips: [u8; 2],
    pub(crate) checks: [u8; 2],
    /// The side to move may not capture a Lion with a piece that is not one (the last move
    /// captured a Lion with a piece that is not one; see [`crate::lion_trading`]).
    pub(crate) lion_ban: bool,
}

/// A position of a variant, with the history of moves made from its root.
///
/// Cloning is cheap relative to search (a few small vectors); the variant is shared.
#[derive(Debug, Clone)]
pub struct Position {
    pub(crate) variant: Arc<Variant>,
    pub(crate) board: Vec<Piece>,
    pub(crate) hands: Vec<u8>,
    pub(crate) side: Color,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
    pub(crate) royal_sq: [Square; 2],
    pub(crate) royals: [u8; 2],
    pub(crate) counters: Counters,
    pub(crate) history: Vec<Undo>,
    /// Hashes of the positions before the moves of `history` when the root was set up from
    /// text with a known past (empty otherwise); used by the repetition count.
    pub(crate) root_hashes: Vec<u64>,
    /// Squares changed by the moves of `history` with their previous content, in order, where
    /// a rule module makes the move (a move there can change many squares: burns, chained
    /// promotions, reversions); empty otherwise.
    pub(crate) journal: Vec<(Square, Piece)>,
    /// Number of pieces on the board per piece code, kept where a rule module asks questions
    /// such as "does this side still have a drum" at every move; empty otherwise.
    pub(crate) counts: Vec<u16>,
}

impl Position {
    /// Calls `f` with the square and piece of every piece of `side`, in board order, found
    /// eight cells at a time (see [`crate::board_scan`]).
    #[inline(always)]
    pub(crate) fn for_each_piece(&self, side: Side, mut f: impl FnMut(Square, Piece)) {
        scan_pieces(&self.board, &self.variant.geometry, side, |sq, p| {
            f(sq, p);
            false
        });
    }

    /// Whether `f` holds for a piece of `side`, asked in board order until it does.
    #[inline(always)]
    pub(crate) fn any_piece(&self, side: Side, f: impl FnMut(Square, Piece) -> bool) -> bool {
        scan_pieces(&self.board, &self.variant.geometry, side, f)
    }

    /// The start position of a variant.
    pub fn start(variant: &Arc<Variant>) -> Position {
        let mut pos = Position::empty(variant, Color::Black);
        for &(sq, p) in &variant.setup {
            pos.put(sq, p);
        }
        for &(kind, n) in &variant.start_hand {
            for c in Color::ALL {
                pos.set_hand(c, kind, n);
            }
        }
        pos.after_setup();
        pos
    }

    /// Completes a position whose pieces have been placed: a rule module's own bookkeeping
    /// (Ko Shogi: which sides still command).
    pub(crate) fn after_setup(&mut self) {
        if self.variant.ko.is_some() {
            let v = self.variant.clone();
            v.ko.as_ref().expect("rule module").refresh_commanders(self);
        }
    }

    /// An empty board with empty hands and `side` to move.
    pub(crate) fn empty(variant: &Arc<Variant>, side: Color) -> Position {
        let g = &variant.geometry;
        let mut board = vec![Piece::WALL; g.cells()];
        for &sq in g.squares() {
            board[sq.index()] = Piece::EMPTY;
        }
        let z = &variant.zobrist;
        let mut hash = if side == Color::White {
            z.white_to_move
        } else {
            0
        };
        for c in 0..2 {
            for k in 0..variant.num_kinds() {
                hash ^= z.hand(c, k, 0);
            }
        }
        Position {
            variant: variant.clone(),
            board,
            hands: vec![0; 2 * variant.num_kinds()],
            side,
            ply: 0,
            hash,
            royal_sq: [Square(0); 2],
            royals: [0; 2],
            counters: Counters::default(),
            history: Vec::with_capacity(256),
            root_hashes: Vec::new(),
            journal: Vec::new(),
            counts: if variant.ko.is_some() {
                vec![0; 256]
            } else {
                Vec::new()
            },
        }
    }

    /// Places a piece on an empty square, keeping hash and royal bookkeeping.
    pub(crate) fn put(&mut self, sq: Square, p: Piece) {
        debug_assert!(self.board[sq.index()].is_empty());
        self.board[sq.index()] = p;
        self.hash ^= self.variant.zobrist.piece(sq.index(), p.0);
        if !self.counts.is_empty() {
            self.counts[p.index()] += 1;
        }
        if self.variant.piece(p.kind()).royal {
            self.royals[p.color().index()] += 1;
            self.royal_sq[p.color().index()] = sq;
        }
    }

    /// Sets a hand count, keeping the hash.
    pub(crate) fn set_hand(&mut self, c: Color, kind: PieceKind, n: u8) {
        let i = c.index() * self.variant.num_kinds() + kind.index();
        let z = &self.variant.zobrist;
        self.hash ^=
            z.hand(c.index(), kind.index(), self.hands[i]) ^ z.hand(c.index(), kind.index(), n);
        self.hands[i] = n;
    }

    /// The variant being played.
    #[inline]
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Plies played since the start position (or the ply given in the position text).
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The position hash (board, hands, side to move, rule counters).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The content of a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// How many pieces of `kind` `color` holds in hand.
    #[inline]
    pub fn in_hand(&self, color: Color, kind: PieceKind) -> u8 {
        self.hands[color.index() * self.variant.num_kinds() + kind.index()]
    }

    /// Number of royal pieces `color` has on the board. In Ko Shogi, whose rule module decides
    /// who has lost: 1 while `color` still commands, 0 once it does not.
    #[inline]
    pub fn royal_count(&self, color: Color) -> u8 {
        self.royals[color.index()]
    }

    /// Square of `color`'s royal piece, in variants with one royal piece per side (none in Ko
    /// Shogi, where no single piece is royal).
    #[inline]
    pub fn royal_square(&self, color: Color) -> Option<Square> {
        (self.royals[color.index()] == 1 && self.variant.ko.is_none())
            .then_some(self.royal_sq[color.index()])
    }

    /// The moves made since the root, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// Number of moves that can be taken back.
    #[inline]
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// Plays `mv`, which must be legal (or pseudo-legal when called by the legality test).
    pub fn make_move(&mut self, mv: Move) {
        self.make_move_inner(mv, true);
    }

    pub(crate) fn make_move_inner(&mut self, mv: Move, track_check: bool) {
        let variant = self.variant.clone();
        self.make_move_with(&variant, mv, track_check, true);
    }

    /// Plays `mv` for a look-ahead in which the rule counters cannot change which moves are
    /// legal: the mover's counters (and the hash's part of them) stay as they were, and
    /// whether the move gave check is not found. The material estimate plays one capture
    /// and asks about the opponent's answers, whose legality only the opponent's counters
    /// decide; a quiescence search may play a whole line this way where
    /// [`Position::counters_can_bind_within`] says they cannot bind. Finding whether a move
    /// gave check was a sixth of the material estimate's time, and a fifth of the
    /// classical baseline's, in variants that limit checks in a row. The hash and the
    /// repetition record are not those of the position reached, so a search must not look
    /// them up below such a move. Unmake restores the position as after any make. A rule
    /// module's make (Ko Shogi, which has no counter rules) updates them regardless.
    pub fn make_move_keeping_counters(&mut self, mv: Move) {
        let variant = self.variant.clone();
        self.make_move_with(&variant, mv, false, false);
    }

    /// [`Position::make_move_keeping_counters`] for a caller that holds this position's
    /// `variant`: the make then takes no reference of its own to it, an atomic count up and
    /// down on every move (the material estimate plays many; the saving measured within the
    /// noise of `koma bench`).
    pub fn make_move_keeping_counters_in(&mut self, variant: &Variant, mv: Move) {
        debug_assert!(std::ptr::eq(variant, &*self.variant), "another variant");
        self.make_move_with(variant, mv, false, false);
    }

    /// The make; `variant` is this position's, held apart so that the position can change
    /// while its tables are read.
    fn make_move_with(&mut self, variant: &Variant, mv: Move, track_check: bool, counters: bool) {
        if let Some(ko) = variant.ko.as_deref() {
            return ko.make_move(self, mv, track_check);
        }
        let us = self.side;
        let nk = self.variant.num_kinds();
        let mut undo = Undo {
            mv,
            moved: Piece::EMPTY,
            captured: [(Square(0), Piece::EMPTY); MAX_CAPTURED],
            ncaptured: 0,
            hash_before: self.hash,
            royal_sq_before: self.royal_sq,
            royals_before: self.royals,
            counters_before: self.counters,
            gave_check: false,
            journal_len: 0,
        };
        let z = &variant.zobrist;
        if let Some(kind) = mv.dropped() {
            let p = Piece::new(kind, us);
            let i = us.index() * nk + kind.index();
            let n = self.hands[i];
            debug_assert!(n > 0, "drop of a piece not in hand");
            self.hash ^=
                z.hand(us.index(), kind.index(), n) ^ z.hand(us.index(), kind.index(), n - 1);
            self.hands[i] = n - 1;
            self.board[mv.to().index()] = p;
            self.hash ^= z.piece(mv.to().index(), p.0);
            undo.moved = p;
        } else {
            let from = mv.from();
            let p = self.board[from.index()];
            debug_assert!(
                p.is_color(us),
                "move of a square without a piece of the side to move"
            );
            undo.moved = p;
            let to = mv.to();
            // Judged on the board as the move starts: a burner the move takes still burns.
            let burnt = variant.has_burners() && self.next_to_enemy_burner(us, to);
            self.board[from.index()] = Piece::EMPTY;
            self.hash ^= z.piece(from.index(), p.0);
            for &k in mv.kills() {
                let cap = self.board[k.index()];
                self.capture(k, cap, &mut undo);
            }
            let cap = self.board[to.index()];
            if cap.is_piece() {
                self.capture(to, cap, &mut undo);
            }
            let victims = undo.captured[..undo.ncaptured as usize]
                .iter()
                .map(|(_, c)| c.kind());
            let promote = mv.promotion() == Promotion::Promote;
            let np = Piece::new(variant.end_kind(p.kind(), victims, promote), us);
            debug_assert_eq!(
                np != p,
                promote,
                "the promotion field of {mv:?} disagrees with the piece's change"
            );
            self.board[to.index()] = np;
            self.hash ^= z.piece(to.index(), np.0);
            let (was_royal, is_royal) = (variant.is_royal(p), variant.is_royal(np));
            if is_royal {
                self.royal_sq[us.index()] = to;
            }
            if was_royal != is_royal {
                if is_royal {
                    self.royals[us.index()] += 1;
                } else {
                    self.royals[us.index()] -= 1;
                }
            }
            if burnt {
                self.board[to.index()] = Piece::EMPTY;
                self.hash ^= z.piece(to.index(), np.0);
                if is_royal {
                    self.royals[us.index()] -= 1;
                }
            } else if variant.piece(p.kind()).burns {
                self.arrival_burn(to, &mut undo);
            }
            if undo.ncaptured > 0 || was_royal != is_royal || burnt {
                self.track_last_royals();
            }
        }
        self.side = us.opposite();
        self.hash ^= z.white_to_move;
        self.ply += 1;
        if variant.has_lions {
            self.update_lion_ban(&undo);
        }
        let gave_check = if counters {
            self.update_counters(us, &mv)
        } else {
            None
        };
        undo.gave_check = match gave_check {
            Some(g) => g,
            None => track_check && variant.rules.perpetual_check_loses && self.in_check(self.side),
        };
        self.history.push(undo);
    }

    /// Keeps `royal_sq` right for a side left with one royal piece after a capture or a
    /// change of kind (with several royals the square it held may have been the one lost).
    fn track_last_royals(&mut self) {
        for c in Color::ALL {
            let sq = self.royal_sq[c.index()];
            let p = self.board[sq.index()];
            if self.royals[c.index()] == 1 && !(p.is_color(c) && self.variant.is_royal(p)) {
                let v = &self.variant;
                if let Some(&found) = v.geometry.squares().iter().find(|s| {
                    let q = self.board[s.index()];
                    q.is_color(c) && v.is_royal(q)
                }) {
                    self.royal_sq[c.index()] = found;
                }
            }
        }
    }

    pub(crate) fn capture(&mut self, sq: Square, cap: Piece, undo: &mut Undo) {
        debug_assert!(cap.is_piece());
        let z = &self.variant.zobrist;
        self.hash ^= z.piece(sq.index(), cap.0);
        self.board[sq.index()] = Piece::EMPTY;
        undo.captured[undo.ncaptured as usize] = (sq, cap);
        undo.ncaptured += 1;
        let them = cap.color();
        if self.variant.is_royal(cap) {
            self.royals[them.index()] -= 1;
        }
        if self.variant.rules.drops {
            let us = them.opposite();
            let hk = self.variant.hand_kind(cap.kind());
            let i = us.index() * self.variant.num_kinds() + hk.index();
            let n = self.hands[i];
            self.hash ^= z.hand(us.index(), hk.index(), n) ^ z.hand(us.index(), hk.index(), n + 1);
            self.hands[i] = n + 1;
        }
    }

    /// Takes back the last move.
    ///
    /// # Panics
    /// If no move has been made since the root.
    pub fn unmake_move(&mut self) {
        let undo = self
            .history
            .pop()
            .expect("unmake_move without a move to take back");
        let mv = undo.mv;
        self.side = self.side.opposite();
        let us = self.side;
        self.ply -= 1;
        if self.variant.ko.is_some() {
            // The rule module's make journaled every square it changed.
            self.undo_journal(undo.journal_len as usize);
            self.royals = undo.royals_before;
            self.royal_sq = undo.royal_sq_before;
            self.counters = undo.counters_before;
            self.hash = undo.hash_before;
            return;
        }
        let nk = self.variant.num_kinds();
        self.board[mv.to().index()] = Piece::EMPTY;
        if let Some(kind) = mv.dropped() {
            self.hands[us.index() * nk + kind.index()] += 1;
        } else {
            for &(sq, cap) in undo.captured[..undo.ncaptured as usize].iter() {
                self.board[sq.index()] = cap;
                if self.variant.rules.drops {
                    let hk = self.variant.hand_kind(cap.kind());
                    self.hands[us.index() * nk + hk.index()] -= 1;
                }
            }
            self.board[mv.from().index()] = undo.moved;
        }
        self.royal_sq = undo.royal_sq_before;
        self.royals = undo.royals_before;
        self.counters = undo.counters_before;
        self.hash = undo.hash_before;
    }

    /// The squares the last move changed with what each held before it (a square may repeat;
    /// its first entry holds the content before the move), where a rule module made it; `None`
    /// for moves made by the plain make, which does not journal.
    pub(crate) fn last_move_journal(&self) -> Option<&[(Square, Piece)]> {
        let undo = self.history.last()?;
        self.variant
            .ko
            .is_some()
            .then(|| &self.journal[undo.journal_len as usize..])
    }

    /// Changes a square for a rule module's make: records the old content in the journal and
    /// keeps the hash and the piece counts.
    #[inline]
    pub(crate) fn set_square(&mut self, sq: Square, p: Piece) {
        let old = self.board[sq.index()];
        if old == p {
            return;
        }
        self.journal.push((sq, old));
        let z = &self.variant.zobrist;
        if old.is_piece() {
            self.hash ^= z.piece(sq.index(), old.0);
            self.counts[old.index()] -= 1;
        }
        if p.is_piece() {
            self.hash ^= z.piece(sq.index(), p.0);
            self.counts[p.index()] += 1;
        }
        self.board[sq.index()] = p;
    }

    /// Restores the squares journaled since the journal had `len` entries, latest first.
    fn undo_journal(&mut self, len: usize) {
        while self.journal.len() > len {
            let (sq, old) = self.journal.pop().expect("journal entry");
            let now = self.board[sq.index()];
            if now.is_piece() {
                self.counts[now.index()] -= 1;
            }
            if old.is_piece() {
                self.counts[old.index()] += 1;
            }
            self.board[sq.index()] = old;
        }
    }

    /// Number of pieces of `kind` and `color` on the board, where the position keeps counts
    /// (a rule module's variant).
    #[inline]
    pub(crate) fn count(&self, kind: PieceKind, color: Color) -> u16 {
        self.counts[Piece::new(kind, color).index()]
    }

    /// The hash recomputed from scratch, to check the incremental one.
    pub fn compute_hash(&self) -> u64 {
        let v = &self.variant;
        let z = &v.zobrist;
        let mut h = if self.side == Color::White {
            z.white_to_move
        } else {
            0
        };
        for &sq in v.geometry.squares() {
            let p = self.board[sq.index()];
            if p.is_piece() {
                h ^= z.piece(sq.index(), p.0);
            }
        }
        for c in Color::ALL {
            for k in 0..v.num_kinds() {
                h ^= z.hand(c.index(), k, self.in_hand(c, PieceKind(k as u8)));
            }
        }
        h ^ self.counters_hash()
    }

    /// Whether `color`'s royal piece is attacked (in variants with one royal per side); with
    /// several royals, whether any of them is. In Ko Shogi: whether `color`'s sole objective
    /// piece could be removed by the other side's next move (see [`crate::ko_shogi`]).
    pub fn in_check(&self, color: Color) -> bool {
        if let Some(ko) = &self.variant.ko {
            return ko.in_check(self, color);
        }
        match self.royals[color.index()] {
            0 => false,
            1 => self.is_attacked(self.royal_sq[color.index()], color.opposite()),
            _ => self.variant.geometry.squares().iter().any(|&sq| {
                let p = self.board[sq.index()];
                p.is_color(color)
                    && self.variant.piece(p.kind()).royal
                    && self.is_attacked(sq, color.opposite())
            }),
        }
    }
}

impl PartialEq for Position {
    /// Positions are equal when board, hands, side to move and rule counters agree (history
    /// aside).
    fn eq(&self, other: &Self) -> bool {
        self.variant.id == other.variant.id
            && self.side == other.side
            && self.board == other.board
            && self.hands == other.hands
            && self.counters == other.counters
    }
}

//! Moves as small `Copy` values.

use crate::piece::PieceKind;
use crate::square::Square;

/// Most squares a single move may capture on before its final step.
pub const MAX_KILLS: usize = 5;

/// What a move does about promotion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Promotion {
    /// No promotion was possible.
    None,
    /// The piece ends the move as another kind: it promotes (by choice or because it must)
    /// or, under capture promotion, takes a contagious kind or turns back (switchback);
    /// text suffix `+`. See [`crate::promotion`].
    Promote,
    /// A promotion that was open is declined; text suffix `=`.
    Decline,
}

/// A move: a board move (origin, kill squares, destination) or a drop, plus its promotion.
///
/// Two moves are the same move exactly when they are equal: same origin or dropped kind, same
/// kill squares in order, same destination, same promotion. Unused kill slots are zero, so the
/// derived equality and hash are the identity.
///
/// A kill may be a *shot* (Ko Shogi): the piece on it is removed without the mover going there,
/// fired from the square the mover stands on at that moment. Shots are kills like any other for
/// the rules; the move keeps which kills are shots, and the square the first shot was fired from
/// when the mover went on from there, only so that the move text can show where each shot came
/// from (`j9k10*k12*k13`). A generator gives one such representative per move (see
/// [`crate::notation`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    from: Square,
    to: Square,
    kills: [Square; MAX_KILLS],
    nkills: u8,
    drop: u8,
    promotion: Promotion,
    /// Bit `i` set: `kills[i]` is a shot.
    shots: u8,
    /// Where the first shot was fired from when that is not `to` (zero otherwise).
    via: Square,
}

const NO_DROP: u8 = u8::MAX;

impl Move {
    /// A board move from `from` to `to` without captures on the way.
    #[inline]
    pub fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            kills: [Square(0); MAX_KILLS],
            nkills: 0,
            drop: NO_DROP,
            promotion: Promotion::None,
            shots: 0,
            via: Square(0),
        }
    }

    /// A board move capturing on `kills` (in path order) before ending on `to`.
    ///
    /// # Panics
    /// If more than [`MAX_KILLS`] kill squares are given.
    #[inline]
    pub fn with_kills(from: Square, kills: &[Square], to: Square) -> Move {
        assert!(kills.len() <= MAX_KILLS, "too many kill squares");
        let mut m = Move::new(from, to);
        // Square by square rather than a copy of a slice of unknown length, which compiles
        // to a call to `memcpy` for a move of one or two kills.
        for (slot, &k) in m.kills.iter_mut().zip(kills) {
            *slot = k;
        }
        m.nkills = kills.len() as u8;
        m
    }

    /// Dropping a piece of `kind` from hand on `to`.
    #[inline]
    pub fn drop(kind: PieceKind, to: Square) -> Move {
        Move {
            from: to,
            to,
            kills: [Square(0); MAX_KILLS],
            nkills: 0,
            drop: kind.0,
            promotion: Promotion::None,
            shots: 0,
            via: Square(0),
        }
    }

    /// A board move whose kills include shots: bit `i` of `shots` marks `kills[i]` as a shot;
    /// `via` is the square the first shot was fired from when the mover went on from there to
    /// `to` (for the move text only).
    ///
    /// # Panics
    /// If more than [`MAX_KILLS`] kill squares are given.
    pub fn with_shots(
        from: Square,
        kills: &[Square],
        shots: u8,
        via: Option<Square>,
        to: Square,
    ) -> Move {
        let mut m = Move::with_kills(from, kills, to);
        m.shots = shots & ((1u16 << kills.len()) - 1) as u8;
        m.via = via.unwrap_or(Square(0));
        m
    }

    /// The same move with the given promotion outcome.
    #[inline]
    pub fn with_promotion(mut self, p: Promotion) -> Move {
        self.promotion = p;
        self
    }

    /// Origin square (the destination for drops).
    #[inline]
    pub fn from(&self) -> Square {
        self.from
    }

    /// Destination square.
    #[inline]
    pub fn to(&self) -> Square {
        self.to
    }

    /// Whether the move captures on the way ([`Move::kills`] not empty), asked without
    /// taking a slice of the kill squares: the move generator's quiet path then keeps its
    /// moves in registers.
    #[inline]
    pub fn has_kills(&self) -> bool {
        self.nkills != 0
    }

    /// This move, which has no kills and no promotion, built again from its two squares: the
    /// same move. Move generation pushes the copy: a fresh value goes to the list from
    /// registers, where a `Move` (20 bytes) that also went to a call out of line is kept in
    /// memory and read back whole from the narrow stores that wrote it, a stall that was
    /// half of a hot push's time.
    #[inline(always)]
    pub(crate) fn rebuilt_plain(&self) -> Move {
        let plain = Move::new(self.from, self.to);
        debug_assert_eq!(plain, *self);
        plain
    }

    /// Squares captured on before the final step, in path order.
    #[inline]
    pub fn kills(&self) -> &[Square] {
        &self.kills[..self.nkills as usize]
    }

    /// The squares a board move may take pieces on, in the order make empties them: its
    /// kills (each square once), then its end, none of them the square it started from (a
    /// piece that returns to it takes nothing there). Drops take nothing.
    pub fn taken_squares(&self) -> impl Iterator<Item = Square> + Clone + '_ {
        let (from, kills) = (self.from, self.kills());
        let board = !self.is_drop();
        let end = (board && self.to != from && !kills.contains(&self.to)).then_some(self.to);
        kills
            .iter()
            .enumerate()
            .filter(move |&(i, k)| board && *k != from && !kills[..i].contains(k))
            .map(|(_, &k)| k)
            .chain(end)
    }

    /// The kind dropped, for drops.
    #[inline]
    pub fn dropped(&self) -> Option<PieceKind> {
        (self.drop != NO_DROP).then_some(PieceKind(self.drop))
    }

    /// Whether the move is a drop.
    #[inline]
    pub fn is_drop(&self) -> bool {
        self.drop != NO_DROP
    }

    /// The promotion outcome.
    #[inline]
    pub fn promotion(&self) -> Promotion {
        self.promotion
    }

    /// Bit `i` set: the `i`-th kill is a shot.
    #[inline]
    pub fn shot_mask(&self) -> u8 {
        self.shots
    }

    /// Whether the `i`-th kill is a shot.
    #[inline]
    pub fn is_shot(&self, i: usize) -> bool {
        self.shots >> i & 1 != 0
    }

    /// The square the first shot was fired from, when the mover went on from there.
    #[inline]
    pub fn via(&self) -> Option<Square> {
        (self.via != Square(0)).then_some(self.via)
    }

    /// A board move that ends where it started and kills nothing: a turn skip.
    #[inline]
    pub fn is_skip(&self) -> bool {
        !self.is_drop() && self.from == self.to && self.nkills == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_small_and_copy() {
        assert!(std::mem::size_of::<Move>() <= 20);
        let shot = Move::with_shots(Square(40), &[Square(60)], 1, None, Square(41));
        assert!(shot.is_shot(0) && shot != Move::with_kills(Square(40), &[Square(60)], Square(41)));
        let m = Move::with_kills(Square(40), &[Square(41)], Square(40));
        let n = m;
        assert_eq!(m, n);
        assert!(!m.is_skip());
        assert!(Move::new(Square(40), Square(40)).is_skip());
        assert_ne!(
            Move::new(Square(1), Square(2)),
            Move::new(Square(1), Square(2)).with_promotion(Promotion::Promote)
        );
    }
}

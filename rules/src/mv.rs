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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    from: Square,
    to: Square,
    kills: [Square; MAX_KILLS],
    nkills: u8,
    drop: u8,
    promotion: Promotion,
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
        }
    }

    /// A board move capturing on `kills` (in path order) before ending on `to`.
    ///
    /// # Panics
    /// If more than [`MAX_KILLS`] kill squares are given.
    pub fn with_kills(from: Square, kills: &[Square], to: Square) -> Move {
        assert!(kills.len() <= MAX_KILLS, "too many kill squares");
        let mut m = Move::new(from, to);
        m.kills[..kills.len()].copy_from_slice(kills);
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
        }
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

    /// Squares captured on before the final step, in path order.
    #[inline]
    pub fn kills(&self) -> &[Square] {
        &self.kills[..self.nkills as usize]
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

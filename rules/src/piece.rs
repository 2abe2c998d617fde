//! Pieces as small integers.
//!
//! A piece type of a variant is a [`PieceKind`] (its index in the variant's piece list). A piece
//! on the board is a [`Piece`]: kind and colour packed into one byte, with two reserved values for
//! an empty square and a wall cell, so that the board is a plain byte array.

use crate::color::Color;

/// Index of a piece type in its variant's piece list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceKind(pub u8);

impl PieceKind {
    /// The kind as a `usize`, for indexing per-kind tables.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Most piece kinds a variant may define (both colours fit in one byte with the two sentinels).
pub const MAX_KINDS: usize = 126;

/// Content of one mailbox cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(pub u8);

impl Piece {
    /// An empty board square.
    pub const EMPTY: Piece = Piece(0);
    /// A cell outside the board.
    pub const WALL: Piece = Piece(255);

    /// The piece of `kind` owned by `color`.
    #[inline]
    pub fn new(kind: PieceKind, color: Color) -> Piece {
        Piece(1 + kind.0 * 2 + color as u8)
    }

    /// Whether the cell is an empty board square.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the cell is outside the board.
    #[inline]
    pub fn is_wall(self) -> bool {
        self.0 == 255
    }

    /// Whether the cell holds a piece (of either colour).
    #[inline]
    pub fn is_piece(self) -> bool {
        self.0 != 0 && self.0 != 255
    }

    /// Kind of a real piece.
    #[inline]
    pub fn kind(self) -> PieceKind {
        PieceKind((self.0 - 1) >> 1)
    }

    /// Owner of a real piece.
    #[inline]
    pub fn color(self) -> Color {
        if (self.0 - 1) & 1 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Whether the cell holds a piece of `color`.
    #[inline]
    pub fn is_color(self, color: Color) -> bool {
        self.is_piece() && self.color() == color
    }

    /// Index for per-piece tables of size 256.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_for_every_kind() {
        for k in 0..MAX_KINDS as u8 {
            for c in Color::ALL {
                let p = Piece::new(PieceKind(k), c);
                assert!(p.is_piece());
                assert_eq!(p.kind(), PieceKind(k));
                assert_eq!(p.color(), c);
            }
        }
        assert!(!Piece::EMPTY.is_piece() && !Piece::WALL.is_piece());
    }
}

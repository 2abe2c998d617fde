//! Sets of piece kinds.

use crate::piece::PieceKind;

/// A set of piece kinds as a bit mask (kinds are below [`crate::piece::MAX_KINDS`]), so that
/// the move generator tests a victim against a restriction in one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KindSet(pub u128);

impl KindSet {
    /// Adds a kind.
    pub fn insert(&mut self, k: PieceKind) {
        self.0 |= 1 << k.0;
    }

    /// Whether a kind is in the set.
    #[inline]
    pub fn contains(self, k: PieceKind) -> bool {
        self.0 & (1 << k.0) != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}
